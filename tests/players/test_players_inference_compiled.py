"""The compiled judge of the others' cards (``_policy.pyx``'s ``CardJudge``) weighs every
guess as :meth:`~bot.players.inference.Inference.python_cards` states: the same factor,
the same flag for a guess given up under the bar, and the same memory of each seat's
judged and slipped cards by its guessed hand, guess after guess (the order it judges in
is sorted again every sixteen guesses, so a long run checks that too).

The compiled judge is expected where the playout kernel was built: a missing one fails,
unless ``BONKEN_NO_COMPILED_KERNEL=1`` says this machine installs without a C compiler.
"""

from __future__ import annotations

import random

import pytest

from bot.engine.rules import rules_for
from bot.engine.view import seat_view
from bot.players import inference as inference_module
from bot.players.inference import Inference, Model
from bot.players.sampling import Sampler
from tests.engine.kernel_helpers import NO_COMPILED_KERNEL
from tests.players.test_players_inference import _domino_match, _normal_match

pytestmark = pytest.mark.skipif(
    NO_COMPILED_KERNEL and not inference_module.COMPILED, reason="installed without a C compiler"
)


@pytest.mark.parametrize(
    "variant, house_rules, domino",
    [
        ("standard", {}, False),
        ("twelve", {"heart_lead": "broken"}, False),
        ("twelve", {"heart_lead": "broken", "first_lead": "dealer"}, False),
        ("twelve", {"must_trump": "overtrump"}, False),
        ("twelve", {"must_trump": "no"}, False),
        ("standard", {}, True),
        ("standard", {"domino_aces": "either"}, True),
        ("standard", {"domino_aces": "either", "first_lead": "dealer"}, True),
    ],
)
def test_the_compiled_judge_weighs_every_guess_as_the_python_one(
    variant: str, house_rules: dict[str, str], domino: bool
) -> None:
    rules = rules_for(variant, house_rules)
    compared = given_up = slipped = 0
    for seed in range(24):
        match = _domino_match(seed, rules) if domino else _normal_match(seed, rules)
        deal = match.deal
        if deal is None or deal.contract is None or deal.contract.domino != domino:
            continue
        for watcher in range(4):
            view = seat_view(match, watcher)
            python, compiled = (
                Inference(view, Model(card_slip=0.3)),
                Inference(view, Model(card_slip=0.3)),
            )
            assert inference_module.COMPILED, "the compiled judge was not built (no C compiler?)"
            if compiled.judge is None:
                assert not python.order  # nothing of the others' to judge
                continue
            sampler, rng = Sampler(view), random.Random(seed * 4 + watcher)
            guesses: list[list[int]] = []
            for _ in range(40):
                if guesses and rng.random() < 0.3:
                    hands = rng.choice(guesses)  # weighed again: from the memory
                else:
                    hands = sampler.sample(rng)
                    guesses.append(hands)
                dealt = [h | p for h, p in zip(hands, python.played, strict=True)]
                below = 0.0 if rng.random() < 0.2 else rng.random() ** 3
                ours = compiled.judge.cards(dealt, below)
                assert ours == python.python_cards(dealt, below)
                compared += 1
                given_up += not ours[1]
                slipped += ours[0] < 1.0
            assert compiled.slips == python.slips
    assert compared > 500
    assert given_up > compared / 10
    assert slipped > compared / 4
