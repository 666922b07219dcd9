"""The store spells an action by the engine's one notation, as it always spelled it."""

from __future__ import annotations

import random

from bot.engine import PASS, Choose, Double, Match, Play, parse_action
from bot.store.codec import encode_action

LETTERS = {"choose": "C", "double": "D", "play": "P"}


def test_actions_are_stored_as_before_and_read_back_by_parse_action() -> None:
    rng = random.Random(5)
    match = Match()
    seen: set[str] = set()
    while not match.is_over:
        if match.to_act is None:
            match.deal_random(rng)
            continue
        for action in match.legal_actions():
            kind, value = encode_action(action)
            # The spelling every existing database holds: contract id, sorted seat digits
            # ("" a pass), card code.
            if isinstance(action, Choose):
                assert (kind, value) == ("choose", action.contract)
            elif isinstance(action, Double):
                assert (kind, value) == ("double", "".join(map(str, sorted(action.targets))))
            else:
                assert isinstance(action, Play)
                assert (kind, value) == ("play", action.card.code)
            assert parse_action(f"{LETTERS[kind]}:{value or '-'}") == action
            seen.add(kind)
        match.apply(rng.choice(match.legal_actions()))
    assert seen == {"choose", "double", "play"}
    assert encode_action(PASS) == ("double", "")
