"""Both kernels of the fast engine, for its agreement tests.

Playouts run in the compiled kernel (``bot/engine/_kernel.pyx``, built at install where
there is a C compiler) or in the pure-Python loops of ``bot/engine/fast.py``. A test
marked :data:`EACH_KERNEL` runs on each (ids ``python`` and ``compiled``) and takes its
playout functions from :func:`random_playout_of` and :func:`policy_playout_of`. The
compiled kernel is expected: a missing one fails its tests, unless
``BONKEN_NO_COMPILED_KERNEL=1`` says this machine installs without a C compiler, where
the pure-Python kernel is tested alone.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable

import pytest

from bot.engine.fast import (
    COMPILED,
    FastPosition,
    Policy,
    TraceEntry,
    policy_playout,
    python_policy_playout,
    python_random_playout,
    random_playout,
)

#: Set where the package was installed without a C compiler (so without the compiled kernel).
NO_COMPILED_KERNEL = os.environ.get("BONKEN_NO_COMPILED_KERNEL") == "1"

EACH_KERNEL = pytest.mark.parametrize(
    "kernel", ["python"] if NO_COMPILED_KERNEL and not COMPILED else ["python", "compiled"]
)

RandomPlayout = Callable[[FastPosition, random.Random, list[TraceEntry] | None], list[int]]
PolicyPlayout = Callable[[FastPosition, Policy, list[TraceEntry] | None], list[int]]


def random_playout_of(kernel: str) -> RandomPlayout:
    """The random playout of ``kernel``; the compiled one must have been built."""
    if kernel == "python":
        return python_random_playout
    _require_compiled()
    return random_playout


def policy_playout_of(kernel: str) -> PolicyPlayout:
    """The policy playout of ``kernel``; the compiled one must have been built."""
    if kernel == "python":
        return python_policy_playout
    _require_compiled()
    return policy_playout


def _require_compiled() -> None:
    if not COMPILED:
        pytest.fail(
            "the compiled kernel was not built (no C compiler at install?); "
            "BONKEN_NO_COMPILED_KERNEL=1 tests the pure-Python kernel alone"
        )
