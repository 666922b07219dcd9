"""Builds the compiled playout kernel, ``bot/engine/_kernel.pyx``, with Cython and the C compiler.

Everything else about the package is in pyproject.toml; a C extension is declared here
because setuptools' table for it in pyproject.toml is still experimental. ``optional``:
on a machine without a C compiler the install goes on without the extension, and
``bot.engine.fast`` plays with its pure-Python loops (the same rules, the same cards).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("bot.engine._kernel", ["bot/engine/_kernel.pyx"], optional=True)])
