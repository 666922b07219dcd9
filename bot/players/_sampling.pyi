"""Types of the compiled greedy deal (``_sampling.pyx``), for mypy and readers."""

from collections.abc import Callable

def greedy_deal(
    random: Callable[[], float],
    room: list[int],
    masks: list[int],
    bound: tuple[int, ...],
    freedom: tuple[int, ...],
    options: tuple[tuple[int, ...], ...],
    free: tuple[int, ...],
    others: tuple[int, ...],
) -> list[int] | None: ...
