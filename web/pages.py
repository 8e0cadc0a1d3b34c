"""The pages' HTML: Jinja2 templates (``web/templates``, autoescaped) filled from what the bot's
services answer. A page is built from the match's replay (:class:`bot.replays.MatchReplay`): while
the match is live, what a spectator may see (public events only, the spectator view); once it is
over, every secret, each named with its owner. Nothing else reaches a template."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from bot.endings import ending_of
from bot.matches import Ending
from bot.matches.ending import ordinal
from bot.replays import MatchReplay
from rules.registry import game_class

from .boards import board_svg

TEMPLATES = Path(__file__).resolve().parent / "templates"

_env = Environment(
    loader=FileSystemLoader(TEMPLATES),
    autoescape=select_autoescape(["html"], default=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


@dataclass(frozen=True)
class Chapter:
    """A step of the match as the page lists it: its name and its lines."""

    number: int
    title: str
    lines: tuple[tuple[int, str, bool], ...]  # (event number from 1, text, secret)


def story_kinds(slug: str) -> frozenset[str]:
    """The public event kinds that close one step of ``slug``'s story (the game says which)."""
    try:
        return game_class(slug).story_kinds
    except (KeyError, ValueError):
        return frozenset({"game_end", "forfeit"})


def game_name(slug: str) -> str:
    try:
        return game_class(slug).name
    except (KeyError, ValueError):
        return slug


def status_words(replay: MatchReplay) -> str:
    if replay.live:
        return "Live"
    return "Finished" if replay.outcome is not None and replay.record.status.value == "finished" else "Over"


def chapters(replay: MatchReplay) -> list[Chapter]:
    out = []
    for step in replay.steps:
        told = replay.lines(step)
        if told:
            out.append(Chapter(step.number, replay.chapter(step), tuple((t.index + 1, t.text, t.secret) for t in told)))
    return out


@dataclass(frozen=True)
class Finish:
    """One seat at the end, as the end card shows it: its place, its rating change and its game's
    key figures (``bot/endings/<game>.py``, the same the Discord end card reads)."""

    name: str
    place: str
    rating: str
    figures: tuple[str, ...]


def finishes(ending: Ending) -> list[Finish]:
    """Each seat's line of the end, best place first."""
    record = ending.record
    per_game = ending_of(record.game)
    figures = per_game.figures(ending) if per_game is not None else {}
    placed = ending.placements()
    rows = []
    for seat, name in enumerate(ending.names):
        where = placed[seat] if placed is not None else None
        place = "—" if where is None else (f"{ordinal(where.rank)}" + (" (shared)" if where.tied else ""))
        change = ending.change(seat)
        if ending.abandoned:
            rating = "unrated (abandoned)"
        elif record.practice:
            rating = "computer player" if record.is_ai(seat) else "practice: unrated"
        elif change is not None:
            rating = f"rating {change.display_before} → {change.display_after} ({change.delta:+d})"
        else:
            rating = "rating being computed" if ending.ratings_pending else "unrated"
        finish = Finish(name, place, rating, tuple(figures.get(seat, [])))
        rows.append((where.rank if where is not None else 99, seat, finish))
    return [row for _, _, row in sorted(rows, key=lambda r: (r[0], r[1]))]


class BadStep(ValueError):
    """A ``step`` the page cannot show; the message says which it can."""


def step_number(text: str | None, replay: MatchReplay) -> int | None:
    """The step ``?step=`` asks for (1 to the number of steps), None for none asked; raises
    :class:`BadStep` for anything else."""
    if text is None or text == "":
        return None
    count = len(replay.steps)
    if not text.isdigit() or not 1 <= int(text) <= count:
        raise BadStep(f"The step must be a whole number from 1 to {count}, not {text[:20]!r}.")
    return int(text)


def match_page(
    replay: MatchReplay,
    *,
    url: str | None,
    image_url: str | None = None,
    live_url: str | None = None,
    step: int | None = None,
    player_links: tuple[str | None, ...] = (),
    ending: Ending | None = None,
) -> str:
    """The match's page: its players, where it stands, the board, its story by chapter and how
    it ended; ``player_links``: each seat's player page (None: none); ``live_url``: its event
    stream, which the page follows while the match is live; ``step`` (from 1): the board after
    that step (the replay scrubber), else after the last; ``ending``: the match's end (over), whose
    places, rating changes and key figures the page shows as the end card does."""
    record = replay.record
    name = game_name(record.game)
    title = f"{name} · match #{record.id}: " + " vs ".join(replay.names)
    result = replay.result_lines()
    description = result[0] if result else status_words(replay)
    last = replay.steps[-1] if replay.steps else None
    position = game_class(record.game).position(last.view) if last is not None else ""
    shown = replay.step(step - 1) if step is not None and replay.steps else last
    # the board as the spectator view after the step shows it (escaped by its drawing)
    drawn = board_svg(record.game, shown.view, replay.names) if shown is not None else None
    count = len(replay.steps)
    at = (shown.number + 1) if shown is not None else 0
    return render(
        "match.html",
        title=title,
        game=name,
        record=record,
        names=replay.names,
        status=status_words(replay),
        live=replay.live,
        revealed=replay.revealed,
        position=position,
        chapters=chapters(replay),
        result=result,
        description=description,
        url=url,
        image_url=image_url,
        live_url=live_url,
        board=Markup(drawn) if drawn else None,  # noqa: S704 - every text in it is escaped (web/boards)
        steps=count,
        at=at,
        at_title=replay.chapter(shown) if shown is not None else "",
        player_links=player_links,
        finishes=finishes(ending) if ending is not None else [],
    )


def message_page(title: str, message: str, *, status: int = 200, link: str | None = None) -> str:
    """A page that only says something ("No such match", "Too many requests"); ``link``: the
    match's page, linked under it."""
    return render("message.html", title=title, message=message, status=status, link=link)


def clock(epoch: int | float) -> str:
    """A time as the pages write it: "17:05" (UTC), with the date when it is not today."""
    when = datetime.fromtimestamp(float(epoch), tz=UTC)
    today = datetime.now(tz=UTC).date()
    return when.strftime("%H:%M") if when.date() == today else when.strftime("%d %b %H:%M")


_env.filters["clock"] = clock
_env.filters["iso"] = lambda epoch: datetime.fromtimestamp(float(epoch), tz=UTC).isoformat()


def render(template: str, **values: Any) -> str:
    return _env.get_template(template).render(**values)
