"""The inference's compiled weighing is the pure-Python one's, to the last bit.

The judge of the others' cards (``_policy.pyx``'s ``CardJudge``) weighs every guess as
:meth:`~bot.players.inference.Inference.python_cards` states: the same factor, the same
flag for a guess given up under the bar, and the same memory of each seat's judged and
slipped cards by its guessed hand, guess after guess (the order it judges in is sorted
again every sixteen guesses, so a long run checks that too). The weigher of a choice
and of doubling turns (``_weighing.pyx``) gives the factors of
:meth:`~bot.players.inference.Inference.python_choice` and
:meth:`~bot.players.inference.Inference.python_doubles`, from the hand estimates of
:func:`~bot.players.hand.expected_bases_of_masks`.

The compiled parts are expected where the playout kernel was built: a missing one fails,
unless ``BONKEN_NO_COMPILED_KERNEL=1`` says this machine installs without a C compiler.
"""

from __future__ import annotations

import random

import pytest

from bot.engine.rules import Rules, rules_for
from bot.engine.view import seat_view
from bot.players import inference as inference_module
from bot.players.hand import expected_bases_of_masks
from bot.players.inference import Inference, Model
from bot.players.sampling import Sampler
from tests.engine.engine_helpers import ALL_RULES, rules_id
from tests.engine.kernel_helpers import NO_COMPILED_KERNEL
from tests.players.test_players_inference import _normal_match, views_in_deals

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
    for seed, view in views_in_deals(rules, domino, range(24)):
        python, compiled = (
            Inference(view, Model(card_slip=0.3)),
            Inference(view, Model(card_slip=0.3)),
        )
        assert inference_module.COMPILED, "the compiled judge was not built (no C compiler?)"
        if compiled.judge is None:
            assert not python.order  # nothing of the others' to judge
            continue
        sampler, rng = Sampler(view), random.Random(seed * 4 + view.seat)
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


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_the_compiled_estimates_are_the_hand_estimates(rules: Rules) -> None:
    """Every contract's estimate of many hands, long and short suits alike."""
    from bot.players._weighing import expected_bases_of_masks as compiled

    contracts = [rules.by_id[cid] for cid in rules.contract_ids]
    rng = random.Random(rules_id(rules))
    for _ in range(3000):
        keep = rng.choice([0x1FFF, rng.getrandbits(13), rng.getrandbits(13) & rng.getrandbits(13)])
        hand = [rng.getrandbits(13) & keep for _ in range(4)]
        assert compiled(hand, contracts) == expected_bases_of_masks(hand, contracts)


@pytest.mark.parametrize(
    "variant, house_rules",
    [
        ("standard", {}),
        ("twelve", {"heart_lead": "broken", "first_lead": "dealer"}),
        ("standard", {"domino_doubling": "ace_or_two"}),
        ("twelve", {"must_trump": "overtrump"}),
    ],
)
def test_the_compiled_weigher_weighs_choices_and_doubles_as_the_python_one(
    variant: str, house_rules: dict[str, str]
) -> None:
    rules = rules_for(variant, house_rules)
    choices = doubles = stopped = 0
    for seed in range(40):
        match = _normal_match(seed, rules)
        if match.deal is None or match.deal.contract is None:
            continue
        for watcher in range(4):
            inference = Inference(seat_view(match, watcher))
            assert inference_module.COMPILED, "the compiled weigher was not built (no C compiler?)"
            if inference.weigher is None:
                assert len(inference.choices) <= 1 and not inference.turns
                continue
            sampler, rng = Sampler(inference.view), random.Random(seed * 4 + watcher)
            for _ in range(25):
                hands = sampler.sample(rng)
                dealt = [h | p for h, p in zip(hands, inference.played, strict=True)]
                if len(inference.choices) > 1:
                    assert inference.weigher.choice(dealt) == inference.python_choice(dealt)
                    choices += 1
                if inference.turns:
                    cards, below = rng.random(), rng.random() ** 6
                    ours = inference.weigher.doubles(dealt, cards, below)
                    assert ours == inference.python_doubles(dealt, cards, below)
                    assert ours == inference.python_doubles(dealt, 1.0, 0.0) or ours * cards < below
                    stopped += ours != inference.python_doubles(dealt, 1.0, 0.0)
                    doubles += 1
    assert choices > 300 and doubles > 300
    assert stopped > 0  # some turns were left unweighed under the bar


def test_what_could_index_past_the_c_arrays_is_refused() -> None:
    """A moment, a trump or a hand that is not of a deal raises instead of reading past
    memory: the compiled parts check what they index with."""
    from bot.players._policy import CardJudge
    from bot.players._weighing import Weigher
    from bot.players._weighing import expected_bases_of_masks as compiled

    queens = rules_for("standard").by_id["queens"]
    moment = (1, 1, 5, (0,) * 4, (0,) * 4, (0,) * 4, (), 0, -1, -1, False, (0,) * 4, (-1,) * 4, 0)
    CardJudge(queens, [moment], 0.1, 1e-200, {}, -1, False, False)  # a moment of a deal
    for index, bad in [(0, 4), (2, 52), (6, (60,)), (6, (1, 2, 3, 4)), (7, 13), (8, 4), (9, 13)]:
        wrong = (*moment[:index], bad, *moment[index + 1 :])
        with pytest.raises(ValueError):
            CardJudge(queens, [wrong], 0.1, 1e-200, {}, -1, False, False)
    with pytest.raises(ValueError):
        CardJudge(queens, [moment], 0.1, 1e-200, {}, 4, True, False)
    with pytest.raises(ValueError):
        compiled([0, 0, 1 << 13, 0], [queens])
    weigher = Weigher(
        queens, [queens, queens], [30.0, 30.0], [0.0, 0.0], 0, 2, 8.0, 12.0, 6.0, [], 1e-200
    )
    assert 0 < weigher.choice([0x1FFF] * 16) <= 1
    for dealt in ([0] * 15, [0] * 8 + [-1] + [0] * 7):
        with pytest.raises(ValueError):
            weigher.choice(dealt)
    with pytest.raises(ValueError):
        Weigher(queens, [], [], [], 0, 4, 8.0, 12.0, 6.0, [], 1e-200)
