"""Rule citations stay inside the repository (issue 34, item 3): every ``docs/rulings/<game>.md#anchor``
or ``docs/actions/<game>.md#anchor`` named anywhere in the code, the tests or the docs exists, each
game's rule scenarios cite its rulings page, and nothing points outside the repository (a clone
cannot read ``../shared``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CITATION = re.compile(r"docs/(rulings|actions)/([a-z0-9-]+)\.md#([A-Za-z0-9_-]+)")
OUTSIDE = re.compile(r"shared/(seeds|design)")
SOURCES = ("bot", "cogs", "rules", "db", "bench", "web", "tests", "docs")
RULE_SCENARIOS = {
    "arena": "tests/rules/arena/test_arena_rules.py",
    "firewall": "tests/rules/firewall/test_firewall_rules.py",
    "magic-duel": "tests/rules/magic_duel/test_rules.py",
    "wizards-cup": "tests/rules/wizards_cup/test_wizards_cup_rules.py",
}


def files() -> list[Path]:
    found = [ROOT / "README.md"]
    for top in SOURCES:
        found += [p for p in (ROOT / top).rglob("*") if p.suffix in (".py", ".md") and "__pycache__" not in p.parts]
    return sorted(found)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors a page offers: its headings' and every explicit ``id="..."``."""
    text = page.read_text(encoding="utf-8")
    out = set(re.findall(r"""\bid=["']([A-Za-z0-9_-]+)["']""", text))
    seen: dict[str, int] = {}
    for line in text.splitlines():
        m = re.match(r"#{1,6}\s+(.*)", line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    return out


def citations() -> list[tuple[Path, int, str, str, str]]:
    out = []
    for path in files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for kind, page, anchor in CITATION.findall(line):
                out.append((path, number, kind, page, anchor))
    return out


def test_slugs_are_githubs() -> None:
    assert slug("A turn") == "a-turn"
    assert slug("Running out of mana") == "running-out-of-mana"
    assert slug("Board and set-up") == "board-and-set-up"
    assert slug("The Deck of Risk (2+ players)") == "the-deck-of-risk-2-players"


def test_a_page_offers_its_headings_and_explicit_ids(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text('# Title\n\n## A turn\n1. <a id="muteness"></a>**Muteness**\n## A turn\n', encoding="utf-8")
    assert anchors(page) == {"title", "a-turn", "a-turn-1", "muteness"}


def test_every_citation_names_an_anchor_that_exists() -> None:
    found = citations()
    assert len(found) >= 100  # the rule scenarios cite their rulings
    cache: dict[Path, set[str]] = {}
    missing = []
    for path, number, kind, page, anchor in found:
        target = ROOT / "docs" / kind / f"{page}.md"
        if not target.exists():
            missing.append(f"{path.relative_to(ROOT)}:{number}: no page docs/{kind}/{page}.md")
            continue
        if anchor not in cache.setdefault(target, anchors(target)):
            missing.append(f"{path.relative_to(ROOT)}:{number}: no anchor #{anchor} in docs/{kind}/{page}.md")
    assert not missing, "\n".join(missing)


def test_nothing_points_outside_the_repository() -> None:
    outside = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in files()
        if path.name != "test_citations.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not outside, "\n".join(outside)


@pytest.mark.parametrize("game", sorted(RULE_SCENARIOS))
def test_each_rule_scenario_cites_its_games_rulings(game: str) -> None:
    """Every test of a game's rule scenarios names the ruling it checks (in its docstring or body)."""
    import ast

    path = ROOT / RULE_SCENARIOS[game]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = path.read_text(encoding="utf-8").splitlines()
    uncited = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
            body = "\n".join(lines[node.lineno - 1 : node.end_lineno])
            if f"docs/rulings/{game}.md#" not in body and f"docs/actions/{game}.md#" not in body:
                uncited.append(node.name)
    assert not uncited, f"{len(uncited)} tests cite no ruling: {uncited}"


def test_each_ruling_says_which_rule_it_implements() -> None:
    """A ruling (a numbered item of a rulings page) says, in the project's words, which part of
    the game's rules it implements: a line starting *Rule:*."""
    for page in sorted((ROOT / "docs" / "rulings").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        items = re.split(r"\n(?=\d+\. )", text)
        rulings = [i for i in items if re.match(r"\d+\. ", i)]
        assert rulings, page.name
        unsaid = [i.split("\n", 1)[0][:60] for i in rulings if "*Rule:*" not in i]
        assert not unsaid, f"{page.name}: {unsaid}"
        no_anchor = [i.split("\n", 1)[0][:60] for i in rulings if not re.match(r"\d+\. <a id=\"[a-z0-9-]+\"></a>", i)]
        assert not no_anchor, f"{page.name}: {no_anchor}"
