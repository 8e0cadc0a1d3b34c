"""The project's tests (laid out like the code: tests/rules, tests/bot, tests/cogs, tests/db,
tests/bench; shared fixtures in tests/conftest.py).

Importing this package (pytest does, before tests/conftest.py) lets Python keep what it compiles:
on a machine that sets ``PYTHONDONTWRITEBYTECODE`` each of the run's four workers would otherwise
compile every module and rewrite every test module's asserts again, every run (about 8 s of CPU a
worker). The caches are the usual ``__pycache__`` folders, which git ignores; tests/bytecode.py
fills them once, before the workers start."""

import sys

sys.dont_write_bytecode = False
