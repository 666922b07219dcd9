"""Builds the compiled parts with Cython and the C compiler: the playout kernel,
``bot/engine/_kernel.pyx``, the normal player's card, ``bot/players/_policy.pyx``, which
the kernel's playouts ask for nearly every card and the inference's judge of the others'
cards for every guess, and the sampler's greedy deal, ``bot/players/_sampling.pyx``,
which deals every guess of the hard player's search, and the inference's weighing of a
contract choice and of doubling turns, ``bot/players/_weighing.pyx``. The kernel and the
judge read a trick contract's legal cards from one statement, ``bot/engine/_legal.pxd``.

Everything else about the package is in pyproject.toml; a C extension is declared here
because setuptools' table for it in pyproject.toml is still experimental. ``optional``:
on a machine without a C compiler the install goes on without the extensions, and
``bot.engine.fast`` and ``bot.players.policy`` play in pure Python (the same rules, the
same cards).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "bot.engine._kernel",
            ["bot/engine/_kernel.pyx"],
            depends=["bot/engine/_legal.pxd"],
            optional=True,
        ),
        Extension(
            "bot.players._policy",
            ["bot/players/_policy.pyx"],
            depends=["bot/engine/_legal.pxd"],
            optional=True,
        ),
        Extension("bot.players._sampling", ["bot/players/_sampling.pyx"], optional=True),
        Extension("bot.players._weighing", ["bot/players/_weighing.pyx"], optional=True),
    ]
)
