"""Reading the golden corpus and replaying one of its games step by step."""

from __future__ import annotations

import functools
import gzip
import json
from collections.abc import Callable, Iterator
from typing import Any

from rules.core import CHANCE
from rules.match import Match, MatchLog

from .record import HERE


@functools.cache
def load(slug: str) -> list[dict[str, Any]]:
    with gzip.open(HERE / f"{slug}.json.gz", "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    assert data["game"] == slug
    games: list[dict[str, Any]] = data["games"]
    return games


def _changes(slug: str) -> dict[str, dict[str, str]]:
    with open(HERE / "changed.json", encoding="utf-8") as fh:
        data: dict[str, dict[str, dict[str, str]]] = json.load(fh)
    return data.get(slug, {})


def changed(slug: str) -> dict[int, str]:
    """Recorded games of ``slug`` that a deliberate rule change plays differently: seed -> why."""
    return {int(seed): why for seed, why in _changes(slug).get("games", {}).items()}


def added_view_keys(slug: str) -> list[str]:
    """Top-level view keys a deliberate change added to ``slug``'s views (compared without them)."""
    return sorted(_changes(slug).get("added_view_keys", {}))


def replay_steps(record: dict[str, Any], after_step: Callable[[Match, list[Any]], None]) -> Match:
    """Replay a recorded game one player move at a time (each followed by the chance it led to),
    calling ``after_step(match, events)`` after the opening chance and after every move."""
    log = MatchLog.model_validate(record["log"])
    empty = MatchLog(game=log.game, options=log.options, seed=log.seed, seats=log.seats, actions=[])
    match = Match.replay(empty, finish_chance=False)
    entries = list(log.actions)
    i = 0
    opening: list[Any] = []
    while i < len(entries) and entries[i].seat == CHANCE:
        opening += match.apply(CHANCE, entries[i].action)
        i += 1
    after_step(match, opening)
    for chunk in _moves(entries[i:]):
        events: list[Any] = []
        for entry in chunk:
            events += match.apply(entry.seat, entry.action)
        after_step(match, events)
    return match


def _moves(entries: list[Any]) -> Iterator[list[Any]]:
    chunk: list[Any] = []
    for entry in entries:
        if entry.seat != CHANCE and chunk:
            yield chunk
            chunk = []
        chunk.append(entry)
    if chunk:
        yield chunk
