"""Per-game Discord presentation, one folder per game (the same names as ``rules/``), sharing the
machinery in ``base.py`` and ``pictures.py``. The UIs by game slug: adding a game's UI is one line here."""

from __future__ import annotations

from .arena.ui import UI as ARENA_UI
from .base import GameUI
from .firewall.ui import UI as FIREWALL_UI
from .magic_duel.ui import UI as MAGIC_DUEL_UI
from .wizards_cup.ui import UI as WIZARDS_CUP_UI

_UIS: dict[str, GameUI] = {
    "wizards-cup": WIZARDS_CUP_UI,
    "firewall": FIREWALL_UI,
    "magic-duel": MAGIC_DUEL_UI,
    "arena": ARENA_UI,
}


def get_ui(slug: str) -> GameUI:
    return _UIS[slug]


def register_ui(ui: GameUI) -> None:
    _UIS[ui.slug] = ui


def ui_slugs() -> list[str]:
    return list(_UIS)
