"""Words shared by every game's texts and the bot's: the one plural helper.

Pure: no Discord, database or event loop (cogs and bot import it from here).
"""

from __future__ import annotations


def plural_word(n: int, word: str, many: str | None = None) -> str:
    """``word`` as it goes with ``n``: "card" (1), "cards"; "match" → "matches"; ``many`` when
    the plural is not regular."""
    if n == 1:
        return word
    if many is not None:
        return many
    return word + ("es" if word.endswith(("ch", "sh", "s", "x")) else "s")


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and its word: "1 card", "3 cards", "2 matches", "0 points" (never "card(s)")."""
    return f"{n} {plural_word(n, word, many)}"


__all__ = ["plural", "plural_word"]
