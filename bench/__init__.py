"""Benchmarks: ``python -m bench <name> [--quick] [--json FILE]``.

Each benchmark prints a table and can write its figures as JSON. Timings on a shared machine are
noisy, so every benchmark measures its baseline in the same run and reports ratios against it.
Importing this package imports no game code (a baseline may run an older ``rules`` package).
"""
