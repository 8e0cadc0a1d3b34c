"""The offline table: ``python -m rules play GAME [--vs ai:normal|ai:easy|ai:hard|random|human ...]``.

A match at a terminal, through the same typed decision API the bot uses (``State.asked``: the
game's step, its legal actions, secret or simultaneous) and the games' own event texts. Humans
play hot-seat: before a human's secret choice (or any choice whose view shows what the others may
not see) when two or more humans share the screen, the screen is cleared and a "pass to <player>"
pause is shown; only then are that seat's view and private events shown. Public events are shown
to everyone. Computer seats play by themselves (``rules.ai.ai_player``, imported lazily; ``random``
plays a uniformly random legal action). At the end of a match of one human against computer seats,
``review`` shows the human's moves whose chance dropped most (:mod:`rules.ai.review`). The match
log (:class:`rules.match.MatchLog` JSON, which ``python -m rules replay`` reads) is saved at the
end, and on Ctrl-C or end of input.

Output is deterministic for a seed (the chance draws and the computer seats are seeded by it).
Pure: no discord, database or asyncio.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, cast

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .core import ActionModel, Decision, Event, Game, State, fill_names
from .match import Match
from .story import told

if TYPE_CHECKING:
    from .ai import Level

#: How many choices one page lists.
PAGE = 20
#: The terminal sequence that clears the screen and moves the cursor home.
CLEAR = "\x1b[2J\x1b[H"
LEVELS = ("easy", "normal", "hard")


@dataclass
class Seat:
    """Who plays a seat: ``human``, ``random`` or ``ai:LEVEL``."""

    kind: str
    name: str
    rng: random.Random
    unseen: list[Event] = field(default_factory=list)  # private events not yet shown (hot-seat)

    @property
    def human(self) -> bool:
        return self.kind == "human"


def parse_player(value: str) -> str:
    """A ``--vs`` value, normalised; ValueError with a readable message when it is not one."""
    v = value.strip().lower()
    if v in ("human", "random"):
        return v
    if v == "ai":
        return "ai:normal"
    if v.startswith("ai:") and v[3:] in LEVELS:
        return v
    raise ValueError(f"invalid player {value!r} (human, random, ai:easy, ai:normal or ai:hard)")


def seat_kinds(vs: Sequence[str], seats: int) -> list[str]:
    """Seat 1 is the human at the keyboard; ``vs`` gives the others (one value fills them all).
    ValueError when the count does not fit."""
    if not vs:
        others = ["human"] * (seats - 1)
    elif len(vs) == 1:
        others = [vs[0]] * (seats - 1)
    elif len(vs) == seats - 1:
        others = list(vs)
    else:
        raise ValueError(f"{len(vs)} --vs players for {seats} seats (give one, or one per other seat: {seats - 1})")
    return ["human", *others]


def seat_names(kinds: Sequence[str]) -> list[str]:
    names: list[str] = []
    for i, kind in enumerate(kinds):
        if kind == "human":
            names.append(f"Player {i + 1}")
        elif kind == "random":
            names.append(f"Random {i + 1}")
        else:
            names.append(f"Computer {i + 1} ({kind[3:]})")
    return names


# ---------------------------------------------------------------- rendering


def _scalar(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)) and all(not isinstance(v, (dict, list)) for v in value):
        return ", ".join(_scalar(v) for v in value) if value else "-"
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return str(value)


def view_tables(view: Mapping[str, Any], title: str, names: Sequence[str] = ()) -> list[Table]:
    """A game's view (JSON) as rich tables: its scalars in one, each list of records in a table
    with a column per field, each nested object in a table of its own. A ``seat`` field shows
    the seat's name when ``names`` are given."""

    def cell(key: str, value: Any) -> str:
        if key == "seat" and isinstance(value, int) and 0 <= value < len(names):
            return names[value]
        return _scalar(value)

    main = Table(title=title, show_header=False, title_justify="left")
    main.add_column("what", style="bold")
    main.add_column("value", overflow="fold")
    out = [main]
    for key, value in view.items():
        if key in ("game", "awaiting"):
            continue
        label = key.replace("_", " ")
        if isinstance(value, dict) and value:
            out.extend(view_tables(value, label, names))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            cols: list[str] = []
            for row in value:
                cols.extend(c for c in row if c not in cols)
            t = Table(title=label, title_justify="left")
            for c in cols:
                t.add_column(c.replace("_", " "), overflow="fold")
            for row in value:
                t.add_row(*(cell(c, row.get(c)) for c in cols))
            out.append(t)
        else:
            main.add_row(label, cell(key, value))
    return [t for t in out if t.row_count]


def action_label(action: ActionModel, game: Game[Any, Any, Any] | None = None) -> str:
    """An action in one line: its fields (not its type), ``name=value``, each value (each item of
    a list) by the name the game gives it (``Game.value_label``: a spell's or a card's name)."""
    data = action.to_json()

    def named(field: str, value: Any) -> str:
        label = game.value_label(field, value) if game is not None else None
        return label if label is not None else _scalar(value)

    def shown(field: str, value: Any) -> str:
        if isinstance(value, (list, tuple)) and all(not isinstance(v, (dict, list)) for v in value):
            return "[" + ", ".join(named(field, v) for v in value) + "]" if value else "-"
        return named(field, value)

    parts = [f"{k}={shown(k, v)}" for k, v in data.items() if k != "type"]
    kind = str(data.get("type", ""))
    return f"{kind}: {' '.join(parts)}" if parts else kind


def matching(labels: Sequence[str], text: str) -> list[int]:
    """The choices whose label holds every word of ``text``, case apart: a word of the label
    (``bet=12``, ``muteness``, ``12``), the start of one for a word of three letters or more
    (``mute`` finds Muteness), or any other text as it is written (``(1)``). With commas, each
    part between them is one name, words in order (``fire wizard, matron``). Fewest items first,
    so ``bet=12 muteness suction`` puts the turn of exactly those spells at the top."""
    split = r"\s*[,;]\s*" if "," in text or ";" in text else r"\s+"
    words = [w for w in re.split(split, text.lower().strip()) if w]

    def holds(low: str, parts: set[str], word: str) -> bool:
        if word in parts:
            return True
        if re.fullmatch(r"\w+", word):
            return len(word) >= 3 and any(p.startswith(word) for p in parts)
        if " " in word:  # a name of several words, each whole but the last
            return re.search(r"(?<!\w)" + re.escape(word), low) is not None
        return "=" not in word and word in low

    found: list[int] = []
    for i, label in enumerate(labels):
        low = label.lower()
        parts = set(re.findall(r"[\w=-]+", low)) | set(re.findall(r"\w+", low))
        if all(holds(low, parts, w) for w in words):
            found.append(i)
    found.sort(key=lambda i: (labels[i].count(",") + labels[i].count("("), len(labels[i])))
    return found


# ---------------------------------------------------------------- the table


class TerminalTable:
    """One match at the terminal: its seats, its input and its output."""

    def __init__(self, match: Match, players: list[Seat], *, stdin: IO[str], stdout: IO[str]):
        self.match = match
        self.players = players
        self.stdin = stdin
        self.out = stdout
        self.console = Console(file=stdout, width=terminal_width(), highlight=False, color_system=None, emoji=False)
        self.humans = [i for i, p in enumerate(players) if p.human]
        self.shown = 0  # events already dealt with (shown or queued)
        self.last_told = ""  # the last public sentence printed (the ending is told once)

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) > 1

    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def read(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.stdin.readline()
        if not line:
            raise EOFError
        return line.strip()

    def clear(self) -> None:
        self.out.write(CLEAR)
        self.out.flush()

    # events: public ones to all; private ones to their human owner (at once when one human
    # plays, else queued until that seat next has the screen)
    def flush_events(self) -> None:
        events = self.match.events[self.shown :]
        self.shown = len(self.match.events)
        lines: list[str] = []
        for e in events:
            if e.visible_to is None:
                if e.kind == "game_end":  # the outcome below tells it
                    continue
                text = e.render(self.names())
                if text != self.last_told:  # (a game can end on the sentence that ends it)
                    lines.append(text)
                    self.last_told = text
                continue
            for s in sorted(e.visible_to):
                if 0 <= s < len(self.players) and self.players[s].human:
                    if self.hot_seat:
                        self.players[s].unseen.append(e)
                    else:
                        lines.append(f"(only you see) {e.render(self.names())}")
        for line in lines:
            self.console.print(f"• {line}", soft_wrap=True)

    def show_private(self, seat: int) -> None:
        p = self.players[seat]
        for e in p.unseen:
            self.console.print(f"• (only you see) {e.render(self.names())}", soft_wrap=True)
        p.unseen.clear()

    def needs_pass(self, seat: int, decision: Decision) -> bool:
        state = self.match.state
        return self.hot_seat and (
            decision.secret or bool(self.players[seat].unseen) or state.view(seat) != state.view(None)
        )

    def human_turn(self, seat: int) -> ActionModel:
        state = self.match.state
        decision = state.asked(seat)
        assert decision is not None
        name = self.players[seat].name
        private = self.needs_pass(seat, decision)
        if private:
            self.clear()
            self.console.rule(f"Pass to {name}")
            self.read(f"Pass to {name}, press Enter when only {name} can see the screen. ")
        for t in view_tables(state.view(seat), f"{self.match.game.name}: what {name} sees", self.names()):
            self.console.print(t)
        if private or not self.hot_seat:
            self.show_private(seat)
        notes = [w for w, on in (("secret", decision.secret), ("simultaneous", decision.simultaneous)) if on]
        what = f"{name}, your step: {decision.kind}" + (f" ({', '.join(notes)})" if notes else "")
        action = self.pick(decision, what)
        if private:
            self.clear()
            self.console.print(f"{name} has chosen.")
        return action

    def pick(self, decision: Decision, what: str) -> ActionModel:
        choices = decision.choices
        game = self.match.game
        labelled: dict[int, str] = {}  # labels as they are needed (a list may hold 25,600 turns)

        def label(i: int) -> str:
            if i not in labelled:
                labelled[i] = action_label(choices[i], game)
            return labelled[i]

        shown: list[int] = list(range(len(choices)))  # indices of the current list (filtered)
        page = 0
        help_text = (
            "Type a number to choose; n / p: next / previous page; "
            "any other words (a bet, spell or card names; commas between names of several words): "
            "list the choices holding them all; * : all again."
        )
        while True:
            pages = max(1, (len(shown) + PAGE - 1) // PAGE)
            page = min(max(page, 0), pages - 1)
            t = Table(title=f"{what} ({len(choices)} choices)", title_justify="left")
            t.add_column("#", justify="right")
            t.add_column("choice", overflow="fold")
            for i in shown[page * PAGE : (page + 1) * PAGE]:
                t.add_row(str(i + 1), label(i))
            self.console.print(t)
            if pages > 1:
                self.console.print(f"page {page + 1} of {pages}; {help_text}")
            while True:
                raw = self.read(f"Your choice (1-{len(choices)}): ")
                if raw.isdigit():
                    n = int(raw)
                    if 1 <= n <= len(choices):
                        return choices[n - 1]
                    self.console.print(f"There is no choice {n}: type a number from 1 to {len(choices)}.")
                    continue
                if raw in ("n", "p"):
                    page += 1 if raw == "n" else -1
                    break
                if raw in ("*", ""):
                    if raw == "" and pages == 1:
                        self.console.print(f"Please type a number from 1 to {len(choices)}.")
                        continue
                    shown, page = list(range(len(choices))), 0
                    break
                if raw in ("?", "help"):
                    self.console.print(help_text)
                    continue
                found = matching([label(i) for i in range(len(choices))], raw)
                if not found:
                    self.console.print(f"{raw!r} is not a choice: type a number from 1 to {len(choices)} ({help_text})")
                    continue
                shown, page = found, 0
                break

    def computer_turn(self, seat: int) -> ActionModel:
        p = self.players[seat]
        state: State = self.match.state
        if p.kind == "random":
            return state.sample_action(seat, p.rng)
        from .ai import ai_player  # lazily: the search is only loaded when a computer plays

        level = cast("Level", p.kind[3:])  # parse_player let only ai:easy, ai:normal, ai:hard through
        return ai_player(level)(state.clone(narrate=False), seat, p.rng)

    def run(self) -> None:
        game = self.match.game
        self.console.print(Panel(Text(game.summary), title=f"{game.name}: seed {self.match.seed}"))
        self.console.print("Seats: " + "; ".join(f"{i + 1}. {p.name}" for i, p in enumerate(self.players)))
        while not self.match.awaiting.is_terminal:
            self.flush_events()
            seat = min(self.match.awaiting.seats)
            p = self.players[seat]
            action = self.human_turn(seat) if p.human else self.computer_turn(seat)
            if not p.human:
                d = self.match.state.asked(seat)
                secret = d is not None and d.secret
                self.console.print(f"{p.name} has chosen." if secret else f"{p.name} plays {action_label(action)}.")
            self.match.act(seat, action)
        self.flush_events()
        left = [e for p in self.players for e in p.unseen]
        if left:  # private events their owner had no turn left to see: told now the match is over
            self.console.rule("The last secrets, now that the match is over")
            for e in sorted(left, key=self.match.events.index):
                self.console.print(f"• {told(e, self.names(), revealed=True)}", soft_wrap=True)
        outcome = self.match.outcome
        if outcome is not None:
            data = outcome.to_json(self.names())
            summary = data["summary"]
            t = Table(title="Outcome", title_justify="left")
            t.add_column("player")
            t.add_column("result")
            why = any(r["reason"] not in ("", summary) for r in data["seats"])  # each seat's own reason
            if why:
                t.add_column("why", overflow="fold")
            for p, r in zip(self.players, data["seats"], strict=True):
                t.add_row(p.name, r["result"], *([r["reason"]] if why else []))
            self.console.print(t)
            if summary != self.last_told:  # told once
                self.console.print(summary, soft_wrap=True)


def terminal_width() -> int:
    """The terminal's width (80 when it is not a terminal), within 40-160 columns."""
    import shutil

    return max(40, min(160, shutil.get_terminal_size((80, 24)).columns))


def save_log(match: Match, path: str) -> None:
    out = match.to_log().model_dump(mode="json")
    out["outcome"] = match.outcome.to_json(match.seats) if match.outcome else None
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(out, fh, indent=2, ensure_ascii=False)
        fh.write("\n")


def play(
    game: str,
    kinds: Sequence[str],
    *,
    seed: int,
    log_path: str,
    stdin: IO[str],
    stdout: IO[str],
) -> int:
    """Play a match at the terminal; save its log to ``log_path``. 0 when the match ended,
    130 when it was stopped (Ctrl-C or end of input; the log so far is saved)."""
    names = seat_names(kinds)
    match = Match.new(game, seed=seed, seats=names)
    players = [Seat(k, n, random.Random(f"{seed}:seat:{i}")) for i, (k, n) in enumerate(zip(kinds, names, strict=True))]
    table = TerminalTable(match, players, stdin=stdin, stdout=stdout)
    code = 0
    try:
        table.run()
    except (KeyboardInterrupt, EOFError):
        stdout.write("\nStopped before the end.\n")
        code = 130
    save_log(match, log_path)
    stdout.write(f"The log is saved in {log_path} (python -m rules replay {log_path} --text).\n")
    stdout.flush()
    if code == 0 and reviewable(kinds):
        offer_review(table)
    return code


def reviewable(kinds: Sequence[str]) -> bool:
    """A match with one human against computer seats gets a review at the end."""
    return kinds.count("human") == 1 and any(k.startswith("ai:") for k in kinds)


def offer_review(table: TerminalTable) -> None:
    """At the end of a match against the computer: ``review`` shows the human's moves whose
    chance dropped most (:func:`review_lines`); Enter (or the end of input) leaves."""
    try:
        answer = table.read("Type review to see the moves that cost you most, or press Enter to leave: ")
    except EOFError:
        return
    if answer.lower() not in ("review", "r"):
        return
    seat = table.humans[0]
    table.console.print("Working out the review: the computer looks again at each of your decisions…")
    for line in review_lines(table.match, seat):
        table.console.print(line, soft_wrap=True)


def review_lines(match: Match, seat: int) -> list[str]:
    """The review of ``seat``'s play (:func:`rules.ai.review.review`) in lines: each moment with its
    point of the match, the move played and the computer's move, told as the seat was told them
    (else by their fields), and the chance before and after. It reads only what the seat could
    see. Deterministic for a match."""
    from .ai.review import MIN_DROP, review  # lazily: the search is only loaded when asked

    found = review(match.to_log(), seat)
    names = match.seats
    measure = "chance" if len(names) <= 2 else "share of the others you finish ahead of"

    def words(text: str, action: Mapping[str, Any]) -> str:
        return fill_names(text, names) if text else action_label(match.game.parse_action(action), match.game)

    head = f"Review of your {found.decisions} decisions ({names[seat]}), as the computer judges them from what you saw"
    if not found.moments:
        return [
            f"{head}: no move of yours cost {round(MIN_DROP * 100)} points of {measure} or more.",
        ]
    lines = [f"{head} (your {measure} before → after your move):"]
    for n, m in enumerate(found.moments, 1):
        where = f"{m.label} " if m.label else ""
        lines.append(f"{n}. {where}({measure} {round(m.before * 100)}% → {round(m.after * 100)}%)")
        lines.append(f"   you played:          {words(m.played_text, m.played)}")
        lines.append(f"   the computer's move: {words(m.best_text, m.best)}")
    return lines


__all__ = [
    "action_label",
    "parse_player",
    "play",
    "review_lines",
    "save_log",
    "seat_kinds",
    "seat_names",
    "view_tables",
]
