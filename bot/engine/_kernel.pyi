"""Types of the compiled kernel (``_kernel.pyx``), for mypy and readers."""

from collections.abc import Callable

from .fast import FastPosition, Policy, TraceEntry

def random_playout(
    pos: FastPosition, rnd: Callable[[], float], trace: list[TraceEntry] | None
) -> list[int]: ...
def policy_playout(
    pos: FastPosition, policy: Policy, trace: list[TraceEntry] | None
) -> list[int]: ...
