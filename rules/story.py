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
  :data:`NOTICE_KINDS` lists them per game.

Pure: no Discord, database or event loop.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .events import Event, Outcome, fill_names

#: Public event kinds that only say a seat submitted (or finished a private step), per game.
NOTICE_KINDS: Mapping[str, frozenset[str]] = {
    "wizards-cup": frozenset({"deck_chosen", "planned", "prepared"}),
    "firewall": frozenset({"submitted"}),
    "magic-duel": frozenset(),
    "arena": frozenset(),
}


def _arena_select(event: Event) -> str | None:
    """ "{p1} activates their Astral Warlock." (the engine names the model with its owner again)."""
    found = re.fullmatch(r"(\{p\d\}) activates \1's (.+)", event.text)
    return f"{found[1]} activates their {found[2]}" if found else None


def _arena_roll(event: Event) -> str | None:
    """A roll-off with whose die is whose: "The roll-off for Player 1: 5 for {p1}, 6 for {p2}." (the
    engine: "Roll for the roll-off for Player 1 ({p1}, {p2}): 5, 6.")."""
    owners = {"first_player": ("{p1}", "{p2}"), "rolloff": ("Player 1", "Player 2")}.get(str(event.data.get("purpose")))
    dice, label = event.data.get("dice"), str(event.data.get("label", ""))
    if owners is None or not isinstance(dice, list) or len(dice) != 2 or not label.startswith("the "):
        return None
    name = label.rsplit(" (", 1)[0]
    return f"{name[:1].upper()}{name[1:]}: {dice[0]} for {owners[0]}, {dice[1]} for {owners[1]}."


def _firewall_spell(event: Event) -> str | None:
    """Middle when the wall is where the round began: no effect (not "from flagstone 9 to 9")."""
    d = event.data
    if d.get("wall_from") is None or d.get("wall_from") != d.get("wall_to") or " sends the wall" not in event.text:
        return None
    head = event.text.split(" sends the wall", 1)[0]
    return f"{head} has no effect: the wall is already on flagstone {d['wall_to']}, where the round began."


def _firewall_turn(event: Event) -> str | None:
    """ "You bet 6 and cast ..." as the prompt's Cast button says it (the engine: "lay down")."""
    return event.text.replace(" and lay down ", " and cast ") if " and lay down " in event.text else None


#: Engine sentences told in the players' words (the events themselves, logs and the golden corpus
#: keep the engines' words): (game, event kind) -> the sentence, placeholders unfilled, or None.
RETOLD: Mapping[tuple[str, str], Callable[[Event], str | None]] = {
    ("arena", "select"): _arena_select,
    ("arena", "roll"): _arena_roll,
    ("firewall", "spell"): _firewall_spell,
    ("firewall", "submitted_private"): _firewall_turn,
}


def retold(event: Event, game: str) -> Event:
    """``event`` with its text in the players' words (itself when :data:`RETOLD` has nothing)."""
    reword = RETOLD.get((game, event.kind))
    text = reword(event) if reword is not None else None
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
    the notices of :data:`NOTICE_KINDS`."""
    quiet = NOTICE_KINDS.get(game, frozenset())
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


def _name(names: Sequence[str], seat: object) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def _last(events: Sequence[Event], *kinds: str) -> Event | None:
    return next((e for e in reversed(events) if e.visible_to is None and e.kind in kinds), None)


def _wizards_cup_chapter(events: Sequence[Event], names: Sequence[str]) -> str | None:
    start = _last(events, "round_start")
    if start is not None:
        return f"Round {start.data.get('round', '?')}"
    duel = _last(events, "duel", "round_end")
    return f"Round {duel.data.get('round', '?')} (continued)" if duel is not None else None


def _firewall_chapter(events: Sequence[Event], names: Sequence[str]) -> str | None:
    turn = _last(events, "turn_end", "reveal")
    return f"Round {turn.data.get('round', '?')}, turn {turn.data.get('turn', '?')}" if turn is not None else None


def _magic_duel_chapter(events: Sequence[Event], names: Sequence[str]) -> str | None:
    trick = _last(events, "trick_won", "trick_tied", "reveal")
    if trick is not None:
        return f"Hand {trick.data.get('hand', '?')} · trick {trick.data.get('trick', '?')}"
    deal = _last(events, "deal")
    return f"Hand {deal.data.get('hand', '?')} is dealt" if deal is not None else None


def _arena_chapter(events: Sequence[Event], names: Sequence[str]) -> str | None:
    turn = _last(events, "turn_end")
    setup = _last(events, "discipline_chosen", "deployed", "terrain_placed") is not None
    if turn is None:
        return "Set-up" if setup else None
    title = f"Turn {turn.data.get('game_turn', '?')} · {_name(names, turn.data.get('seat'))}"
    return f"Set-up, then {title[:1].lower()}{title[1:]}" if setup else title


#: A step of a replay (one resolution) named as the players count the game: (events, names) -> a
#: title ("Round 2", "Round 1, turn 3", "Hand 2 · trick 5", "Turn 12 · ann"), or None.
CHAPTERS: Mapping[str, Callable[[Sequence[Event], Sequence[str]], str | None]] = {
    "wizards-cup": _wizards_cup_chapter,
    "firewall": _firewall_chapter,
    "magic-duel": _magic_duel_chapter,
    "arena": _arena_chapter,
}


def chapter_title(events: Sequence[Event], names: Sequence[str], *, game: str) -> str | None:
    """What a part of a match (a replay's step: one resolution) is called, from its public events:
    "Round 2" (Wizards Cup), "Round 1, turn 3" (Firewall), "Hand 2 · trick 5" (Magic Duel),
    "Turn 12 · ann" (Arena: the game turn and whose turn it was); "The end" for a part that only
    ends the match; None when the game or the events say nothing."""
    name = CHAPTERS.get(game)
    title = name(events, names) if name is not None else None
    if title is None and _last(events, "game_end", "forfeit") is not None:
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
    "CHAPTERS",
    "NOTICE_KINDS",
    "THIRD_PERSON",
    "StoryLine",
    "chapter_title",
    "owner_names",
    "retold",
    "story_document",
    "story_lines",
    "story_text",
    "third_person",
    "told",
]
