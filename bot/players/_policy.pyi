"""Types of the compiled normal player's card (``_policy.pyx``), for mypy and readers."""

from typing import Any

from bot.engine.contracts import Contract
from bot.engine.fast import FastPosition

def normal_card(pos: FastPosition, seat: int, legal: tuple[int, int, int, int]) -> int: ...

class CardJudge:
    def __init__(
        self,
        contract: Contract,
        moments: list[tuple[Any, ...]],
        card_slip: float,
        floor: float,
        memo: dict[tuple[int, ...], tuple[int, int]],
        trump: int,
        must_trump: bool,
        overtrump: bool,
    ) -> None: ...
    def cards(self, dealt: list[int], below: float) -> tuple[float, bool]: ...
