"""Types of the compiled weighing of choices and doubles (``_weighing.pyx``)."""

from collections.abc import Sequence

from bot.engine.contracts import Contract

def expected_bases_of_masks(masks: Sequence[int], contracts: Sequence[Contract]) -> list[float]: ...

class Weigher:
    def __init__(
        self,
        contract: Contract,
        choices: list[Contract],
        averages: list[float],
        premiums: list[float],
        chosen: int,
        chooser: int,
        choice_temperature: float,
        need: float,
        double_temperature: float,
        turns: list[tuple[int, list[tuple[float, bool]]]],
        floor: float,
    ) -> None: ...
    def choice(self, dealt: list[int]) -> float: ...
    def doubles(self, dealt: list[int], cards: float, below: float) -> float: ...
