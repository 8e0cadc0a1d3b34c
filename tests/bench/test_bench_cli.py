"""``python -m bench <name> --help`` lists that benchmark's own options and the two every one takes
(issue 34, item 6), and every option the docs give a benchmark is among them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench.__main__ import BENCHMARKS, main

ROOT = Path(__file__).resolve().parents[2]


def documented_options() -> dict[str, set[str]]:
    """Each benchmark's options as the README and docs/ write them (``python -m bench NAME ...``)."""
    found: dict[str, set[str]] = {name: set() for name in BENCHMARKS}
    texts = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for path in texts:
        for m in re.finditer(r"python -m bench (\w+)([^`|\n]*)", path.read_text(encoding="utf-8")):
            if m.group(1) in found:
                found[m.group(1)] |= set(re.findall(r"(--[a-z][a-z-]*)", m.group(2)))
    return found


@pytest.mark.parametrize("name", sorted(BENCHMARKS))
def test_each_benchmarks_help_lists_its_options(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([name, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: python -m bench {name}") and "--quick" in out and "--json FILE" in out
    missing = sorted(o for o in documented_options()[name] if o not in out)
    assert not missing, f"the docs give {name} options its --help does not list: {missing}"


def test_the_list_and_a_missing_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in BENCHMARKS)
    with pytest.raises(SystemExit) as exc:
        main([])
    assert exc.value.code == 2 and "name a benchmark" in capsys.readouterr().err
