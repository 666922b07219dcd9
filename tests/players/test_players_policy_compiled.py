"""The compiled normal player's card (``bot/players/_policy.pyx``) is the pure-Python
one's (:func:`~bot.players.policy.python_normal_card`) in every position: the same card
for every question a playout asks, in every contract of every rule set, and the same
refusal of a position that is no position.

The compiled one is expected where the playout kernel was built: a missing one fails,
unless ``BONKEN_NO_COMPILED_KERNEL=1`` says this machine installs without a C compiler.
"""

from __future__ import annotations

import random

import pytest

from bot.engine.fast import FastPosition, position_from_deal, python_policy_playout
from bot.engine.rules import Rules
from bot.players import policy
from bot.players.policy import python_normal_card
from tests.engine.engine_helpers import ALL_RULES, dealt_for_play, rules_id
from tests.engine.kernel_helpers import NO_COMPILED_KERNEL

pytestmark = pytest.mark.skipif(
    NO_COMPILED_KERNEL and not policy.COMPILED, reason="installed without a C compiler"
)

#: Every contract of every variant and house rule set.
EVERY_CONTRACT_OF_EVERY_RULE_SET = pytest.mark.parametrize(
    ("rules", "contract_id"),
    [(rules, cid) for rules in ALL_RULES for cid in rules.contract_ids],
    ids=rules_id,
)


def _compiled_card(pos: FastPosition, seat: int, legal: tuple[int, int, int, int]) -> int:
    assert policy.COMPILED, "the compiled normal player was not built (no C compiler?)"
    return policy.normal_card(pos, seat, legal)


class _BothAsked:
    """A playout policy that asks both normal players and counts where they differ,
    then plays the normal card or, with chance ``randomness``, a random legal one
    (random cards reach positions the normal player never makes: voids shown early,
    points shed anyhow)."""

    def __init__(self, seed: int, randomness: float) -> None:
        self.rng = random.Random(seed)
        self.randomness = randomness
        self.asked = self.differing = 0

    def __call__(self, pos: FastPosition, seat: int, legal: tuple[int, int, int, int]) -> int:
        ours = python_normal_card(pos, seat, legal)
        self.asked += 1
        self.differing += _compiled_card(pos, seat, legal) != ours
        if self.rng.random() < self.randomness:
            cards = [s * 13 + r for s in range(4) for r in range(13) if legal[s] >> r & 1]
            return self.rng.choice(cards)
        return ours


@EVERY_CONTRACT_OF_EVERY_RULE_SET
def test_the_compiled_normal_card_is_the_python_one_in_every_position(
    rules: Rules, contract_id: str
) -> None:
    """Deals played out by a mix of the normal player and random cards: at every
    question both answer, and the answers are the same."""
    asked = differing = 0
    for seed in range(12):
        both = _BothAsked(seed, (0.0, 0.3, 1.0)[seed % 3])
        python_policy_playout(position_from_deal(dealt_for_play(contract_id, seed, rules)), both)
        asked += both.asked
        differing += both.differing
    assert asked > 12 * 5
    assert differing == 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seat": 4}, "no seat"),
        ({"seat": -1}, "no seat"),
        ({"trick": [60]}, "no card index"),
        ({"trick": [0, 1, 2, 3]}, "after"),
        ({"tricks_done": 13}, "after"),
        ({"legal": (1 << 13, 0, 0, 0)}, "no mask"),
    ],
)
def test_the_compiled_normal_card_refuses_what_would_index_past_its_arrays(
    change: dict[str, object], message: str
) -> None:
    deal = dealt_for_play("hearts", 1)
    pos = position_from_deal(deal)
    seat, legal = pos.to_act, (pos.hands[pos.to_act * 4], 0, 0, 0)
    seat = int(change.pop("seat", seat))
    legal = change.pop("legal", legal)
    for name, value in change.items():
        setattr(pos, name, value)
    with pytest.raises((ValueError, IndexError), match=message):
        _compiled_card(pos, seat, legal)
