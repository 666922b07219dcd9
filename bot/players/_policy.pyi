"""Types of the compiled normal player's card (``_policy.pyx``), for mypy and readers."""

from bot.engine.fast import FastPosition

def normal_card(pos: FastPosition, seat: int, legal: tuple[int, int, int, int]) -> int: ...
