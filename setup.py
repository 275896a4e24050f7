"""The optional C modules; everything else about the package is in pyproject.toml.

Each module has a Python twin that gives the same results, and setuptools skips a module it
cannot build (no C compiler, no Python headers): tapete then runs in plain Python, a little
slower. tests/test_speedups.py and tests/tricks/test_fast.py compare the two.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        # Random.shuffle's PCG32 loop (every deal, and every deal a search imagines) and the base of
        # Deal, whose legal_actions and play run for every move made through the public API
        Extension("tapete.core._speedups", ["framework/core/_speedups.c"], optional=True),
        # the trick family's commonest steps: the legal cards, a card played and the trick taken
        Extension("tapete_plugins.tricks._fast", ["plugins/tricks/_fast.c"], optional=True),
    ]
)
