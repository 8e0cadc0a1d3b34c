"""A match told as a story: its events in order, in plain sentences, with the players' names.

Used by ``python -m rules replay LOG --text`` and by the replays of the bot. Two things make a
log read well:

- **Secrets named with their owner.** A secret event (``visible_to`` set) is written for its
  owner in the second person ("You bet 16 and lay down ..."). Once a match is over it is told in
  the third person and marked: ``(secret, ann) ann bets 16 and lays down ...``. The sentences the
  engines write for their owners start with "Your <thing>" or "You <verb>"; a verb this module
  does not know keeps the owner's own words after the mark (never a wrong sentence).
- **No clutter.** Events that only say a seat has submitted ("ann is ready", "ann has chosen
  their Deck"): the secret they announce, or the reveal that follows, tells the same thing.
  Each game lists them (:attr:`rules.core.Game.notice_kinds`).

Pure: no Discord, database or event loop.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .core import Game
from .events import Event, Outcome, fill_names, last_public
from .registry import find, game_class


def _game(slug: str) -> type[Game[Any, Any, Any]] | None:
    """The registered game ``slug`` (None for one no longer registered: its events are told as they are)."""
    return game_class(slug) if find(slug) is not None else None


def notice_kinds(game: str) -> frozenset[str]:
    """Public event kinds of ``game`` that only say a seat submitted (:attr:`Game.notice_kinds`)."""
    found = _game(game)
    return found.notice_kinds if found is not None else frozenset()


def retold(event: Event, game: str) -> Event:
    """``event`` with its text in the players' words (itself when the game's :meth:`Game.retell`
    has nothing)."""
    found = _game(game)
    text = found.retell(event) if found is not None else None
    return event if text is None else Event(event.kind, text, event.data, event.visible_to)


#: Second-person verbs of the engines' secret sentences, in the third person singular.
THIRD_PERSON: Mapping[str, str] = {
    "bet": "bets",
    "lay": "lays",
    "draw": "draws",
    "put": "puts",
    "cast": "casts",
    "swapped": "swapped",
    "kept": "kept",
    "keep": "keeps",
    "choose": "chooses",
    "chose": "chose",
    "play": "plays",
    "pick": "picks",
    "discard": "discards",
    "hold": "holds",
    "have": "has",
    "are": "is",
}

_YOU = re.compile(r"\b(You|you|Your|your|yourself|Yourself)\b")
_WORD = re.compile(r"[A-Za-z']+")


def owner_names(event: Event, names: Sequence[str]) -> list[str]:
    """The names of the seats a secret event is for (empty for a public event)."""
    if event.visible_to is None:
        return []
    return [names[s] if 0 <= s < len(names) else f"seat {s + 1}" for s in sorted(event.visible_to)]


def third_person(text: str, owner: str) -> str | None:
    """``text`` (written to its owner: "You bet 16 and lay down ...") told of ``owner``
    ("ann bets 16 and lays down ..."); None when a verb is not known (the caller keeps the text)."""
    out: list[str] = []
    pos = 0
    named = False
    for m in _YOU.finditer(text):
        word = m.group(1).lower()
        out.append(text[pos : m.start()])
        pos = m.end()
        if word == "yourself":
            out.append("themselves")
            continue
        if word == "your":
            out.append("their" if named else f"{owner}'s")
            named = True
            continue
        verb = _WORD.match(text, _skip_space(text, pos))
        if verb is None:
            return None
        subject = "they" if named else owner
        if named:  # "they" takes the plural verb: the owner's own words
            out.append(subject)
        else:
            conjugated = THIRD_PERSON.get(verb.group(0))
            if conjugated is None:
                return None
            out.append(f"{subject} {conjugated}")
            pos = _more_verbs(text, verb.end(), out)
        named = True
    out.append(text[pos:])
    return "".join(out)


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] == " ":
        pos += 1
    return pos


def _more_verbs(text: str, pos: int, out: list[str]) -> int:
    """Conjugate the verbs joined to the first by "and" within its clause ("You bet 16 and lay
    down ..."); returns the position after the last one."""
    clause_end = _clause_end(text, pos)
    for m in re.finditer(r"\band ([a-z]+)\b", text[pos:clause_end]):
        verb = m.group(1)
        if verb not in THIRD_PERSON:
            continue
        start = pos + m.start(1)
        out.append(text[pos:start] + THIRD_PERSON[verb])
        pos = start + len(verb)
    return pos


def _clause_end(text: str, pos: int) -> int:
    """Where the clause from ``pos`` ends: a stop, or the next "you"/"your" (told on its own)."""
    ends = [i for i in (text.find(c, pos) for c in ".;:") if i >= 0]
    you = _YOU.search(text, pos)
    if you is not None:
        ends.append(you.start())
    return min(ends, default=len(text))


def told(event: Event, names: Sequence[str], *, revealed: bool) -> str:
    """One event as a line of the story. A secret one (when ``revealed``) is marked with its
    owner(s) and told in the third person where the sentence allows it."""
    text = fill_names(event.text, names).strip()
    owners = owner_names(event, names)
    if not owners or not revealed:
        return text
    if len(owners) == 1:
        text = third_person(text, owners[0]) or text
    return f"(secret, {', '.join(owners)}) {text}"


@dataclass(frozen=True)
class StoryLine:
    """One line of a story: the event's index in the match's events, and its text."""

    index: int
    text: str
    secret: bool


def story_lines(
    events: Iterable[Event],
    names: Sequence[str],
    *,
    game: str,
    revealed: bool,
    start: int = 0,
    seat: int | None = None,
) -> list[StoryLine]:
    """The lines of ``events`` (numbered from ``start``): public ones, and the secret ones when
    ``revealed`` (named with their owners) or, for ``seat``, its own (in its own words), without
    the notices of :func:`notice_kinds`."""
    quiet = notice_kinds(game)
    out = []
    for i, event in enumerate(events, start=start):
        event = retold(event, game)
        if event.visible_to is None:
            if event.kind not in quiet:
                out.append(StoryLine(i, told(event, names, revealed=revealed), False))
        elif revealed:
            out.append(StoryLine(i, told(event, names, revealed=True), True))
        elif seat is not None and seat in event.visible_to:
            out.append(StoryLine(i, fill_names(event.text, names).strip(), True))
    return out


def story_text(events: Sequence[Event], names: Sequence[str], *, game: str, title: str, outcome: Outcome | None) -> str:
    """The whole match as text: a title, every event in order (secrets named with their owners,
    no notices), and the outcome at the end."""
    lines = [title, "Players: " + ", ".join(names), ""]
    width = len(str(len(events)))
    for line in story_lines(events, names, game=game, revealed=True, start=1):
        lines.append(f"{line.index:>{width}}. {line.text}")
    lines.append("")
    if outcome is None:
        lines.append("Outcome: the match is not over.")
    else:
        lines.append("Outcome: " + fill_names(outcome.summary, names))
        for name, seat, rank in zip(names, outcome.seats, outcome.ranks, strict=False):
            lines.append(f"  {name}: {seat.result.value} (place {rank}) - {fill_names(seat.reason, names)}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ chapters


def chapter_title(events: Sequence[Event], names: Sequence[str], *, game: str) -> str | None:
    """What a part of a match (a replay's step: one resolution) is called, from its public events:
    "Round 2" (Wizards Cup), "Round 1, turn 3" (Firewall), "Hand 2 · trick 5" (Magic Duel),
    "Turn 12 · ann" (Arena: the game turn and whose turn it was); "The end" for a part that only
    ends the match; None when the game or the events say nothing."""
    found = _game(game)
    title = found.chapter(events, names) if found is not None else None
    if title is None and last_public(events, "game_end", "forfeit") is not None:
        return "The end"
    return title


def story_document(
    chapters: Sequence[tuple[str, Sequence[StoryLine]]],
    *,
    title: str,
    header: Sequence[str] = (),
    result: Sequence[str] = (),
) -> str:
    """A match as a text file to read: the title (underlined), ``header`` lines (players, date,
    result), then each chapter under its title with its numbered lines, then ``result`` lines."""
    lines = [title, "=" * min(len(title), 80), *header, ""]
    width = max((len(str(line.index + 1)) for _, told_ in chapters for line in told_), default=1)
    for name, told_ in chapters:
        if not told_:
            continue
        lines += [f"-- {name} --"]
        lines += [f"{line.index + 1:>{width}}. {line.text}" for line in told_]
        lines.append("")
    if result:
        lines += ["-- How it ended --", *result, ""]
    return "\n".join(lines).rstrip("\n") + "\n"


__all__ = [
    "THIRD_PERSON",
    "StoryLine",
    "chapter_title",
    "notice_kinds",
    "owner_names",
    "retold",
    "story_document",
    "story_lines",
    "story_text",
    "third_person",
    "told",
]
