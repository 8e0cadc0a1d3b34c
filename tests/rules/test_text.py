"""The one plural helper (rules/text.py): every count in the games' and the bot's texts."""

from __future__ import annotations

import re
import tokenize
from pathlib import Path

import pytest

from rules.text import plural, plural_word

ROOT = Path(__file__).resolve().parents[2]


def test_plural_counts_in_words():
    assert plural(1, "card") == "1 card"
    assert plural(0, "card") == "0 cards"
    assert plural(3, "point") == "3 points"
    assert plural(2, "match") == "2 matches"
    assert plural(2, "loss") == "2 losses"
    assert plural(5, "rated match") == "5 rated matches"
    assert plural(2, "Deck of Risk", "Decks of Risk") == "2 Decks of Risk"
    assert plural_word(1, "wizard") == "wizard" and plural_word(4, "wizard") == "wizards"


def strings(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module with their lines (docstrings and comments left out)."""
    with path.open("rb") as fh:
        tokens = list(tokenize.tokenize(fh.readline))
    kinds = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    return [(t.start[0], t.string) for t in tokens if t.type in kinds and not t.string.endswith(('"""', "'''"))]


@pytest.mark.slow
def test_no_text_says_a_count_with_s_in_brackets():
    # ux-review-2: "3 point(s) to win", "Deck: 1 card(s)" (the tournament files belong to another change)
    slips = [
        f"{path.relative_to(ROOT)}:{line}: {text}"
        for folder in ("rules", "cogs", "bot")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "tournament" not in path.name and "tournaments" not in path.parts
        for line, text in strings(path)
        if re.search(r"[a-z]\(s\)", re.sub(r"\{[^{}]*\}", "", text))  # f-strings' expressions left out
    ]
    assert slips == []
