"""Play a seat in the browser (issue 35, part 3): ``/p/<token>``, the page a player's private prompt
links to ("Play in the browser").

- ``GET /p/<token>``: what that seat may see (its view: the board and what only it holds), and,
  when it is asked something, the decision one field at a time (:mod:`web.choices`, the picks in
  ``?p=``), then a form that confirms the move.
- ``POST /p/<token>``: the move (``action``: its JSON; ``step``: the seat's step the page was made
  at). It goes through the service's ``submit``, as a click in Discord does: committed before it
  is acknowledged, refused with nothing changed when the step has moved on (someone played it in
  Discord, or time ran out) or the move is not legal, each with a message the player can read.
  A move made here updates Discord as any move does. Then the page shows the next step (303).
- ``GET /p/<token>/events``: the live stream (``web.app.events``), so the page moves with the match.

The token signs (match, seat) (:func:`bot.signing.seat_ident`): only the player it was sent to has
it. Once the match is over it opens nothing but a link to the match's page (410). A server that
turned its pages off (``/settings web``) has no seat pages either.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from markupsafe import Markup

from bot.matches import MatchRecord, MatchService, MatchStatus
from bot.matches.errors import MatchError, MatchNotFound, StalePrompt
from bot.matches.store import game_options
from bot.signing import Signer, seat_of_ident
from rules.core import Game
from rules.errors import RulesError
from rules.registry import get_game

from . import choices, pages
from .boards import board_svg
from .common import SIGNER, html, match_link, no_match, server_shows

FOREIGN = "This move did not come from this site's page: it was not played."
STALE = (
    "That step was already played (in Discord, or by the referee when time ran out): here is where the match is now."
)
WAITING = "Nothing is asked of you now: this page moves on by itself when it is your turn."
SERVICE: web.AppKey[MatchService | None] = web.AppKey("service")
#: the keys of a seat's view that are not what it holds ("you" is read for those)
NOT_HELD = frozenset({"seat", "asked", "submitted"})


def add_routes(app: web.Application, service: MatchService | None) -> None:
    """The seat pages' routes (none without a match service: the page has nothing to play through)."""
    app[SERVICE] = service
    if service is None:
        return
    app.router.add_get("/p/{token}", seat_page)
    app.router.add_post("/p/{token}", play)


def is_seat_path(path: str) -> bool:
    """Whether ``path`` is a seat page (the only pages that take a POST)."""
    parts = path.split("/")
    return len(parts) == 3 and parts[1] == "p"


def seat_of(signer: Signer, token: str) -> tuple[int, int] | None:
    ident = signer.read("seat", token)
    return None if ident is None else seat_of_ident(ident)


async def seat_record(request: web.Request) -> tuple[MatchRecord, int] | None:
    """The match and seat the address names, if its page may be shown: a person's seat of a match
    whose server shows its pages. None answers "No such match", as for a wrong address."""
    found = seat_of(request.app[SIGNER], request.match_info["token"])
    service = request.app[SERVICE]
    if found is None or service is None:
        return None
    match_id, seat = found
    try:
        record = await service.get(match_id)
    except MatchNotFound:
        return None
    if seat >= len(record.seats) or record.is_ai(seat) or not await server_shows(request.app, record):
        return None
    return record, seat


def game_of(record: MatchRecord) -> Game[Any, Any, Any]:
    game: Game[Any, Any, Any] = get_game(record.game)(game_options(record), num_seats=len(record.seats))
    return game


async def seat_page(request: web.Request) -> web.Response:
    return await _page(request)


async def _page(request: web.Request, *, error: str | None = None, status: int = 200) -> web.Response:
    found = await seat_record(request)
    if found is None:
        return no_match()
    record, seat = found
    token = request.match_info["token"]
    if record.status is not MatchStatus.ACTIVE:
        return _closed(request, record)
    service = request.app[SERVICE]
    assert service is not None
    sp = await service.prompt(record.id, seat)
    game = game_of(record)
    asked: choices.Asked | None = None
    picks: list[choices.Pick] = []
    if sp.decision is not None:
        try:
            picks = choices.decode(request.query.get("p"))
            picks = choices.with_typed(picks, request.query.get("f"), request.query.get("v"))
            asked = choices.build(game, sp.decision, picks)
        except choices.BadPicks as bad:
            error, status, picks = str(bad), 400, []
            asked = choices.build(game, sp.decision, [])
    links = _board_links(asked)
    drawn = board_svg(record.game, sp.view, record.names, links=links)
    return html(
        pages.render(
            "seat.html",
            title=f"{pages.game_name(record.game)} · match #{record.id} · {record.names[seat]}",
            game=pages.game_name(record.game),
            record=record,
            seat=seat,
            name=record.names[seat],
            position=type(game).position(sp.view),
            board=Markup(drawn) if drawn else None,  # noqa: S704 - every text in it is escaped (web/boards)
            held=held(game, sp.view),
            asked=asked,
            waiting="" if sp.decision is not None else WAITING,
            deadline=sp.deadline_at,
            step=sp.seat_step,
            picks=choices.encode(picks),
            action=json.dumps(asked.action.to_json()) if asked is not None and asked.action is not None else None,
            confirm=choices.action_words(game, asked.action) if asked is not None and asked.action else None,
            error=error,
            live_url=f"/p/{token}/events",
            watch=match_link(request.app, record.id),
        ),
        status,
    )


def _closed(request: web.Request, record: MatchRecord) -> web.Response:
    over = record.status in (MatchStatus.FINISHED, MatchStatus.ABANDONED)
    words = (
        "This match is over, so this link plays nothing any more. Its page shows how it ended, every secret told."
        if over
        else "This match has not started yet, or never did."
    )
    return html(pages.message_page(f"Match #{record.id}", words, link=match_link(request.app, record.id)), 410)


def _board_links(asked: choices.Asked | None) -> dict[str, str]:
    """The options a board can show as clickable squares or models: each option's JSON value."""
    if asked is None or asked.field is None:
        return {}
    return {o.key: "?p=" + o.picks for o in (*asked.shortcuts, *asked.options)}


def held(game: Game[Any, Any, Any], view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What only this seat sees (its view's ``you`` part), each as (what, words)."""
    you = view.get("you")
    if not isinstance(you, Mapping):
        return []
    out = []
    for key, value in you.items():
        if key in NOT_HELD or value is None or value == [] or isinstance(value, Mapping):
            continue
        if isinstance(value, Sequence) and not isinstance(value, str) and any(isinstance(v, Mapping) for v in value):
            continue
        out.append(
            (choices.title(key), choices.words(game, key, value if not isinstance(value, tuple) else list(value)))
        )
    return out


async def play(request: web.Request) -> web.Response:
    if not _same_origin(request):
        return await _page(
            request, error="This move did not come from this site's page: it was not played.", status=403
        )
    found = await seat_record(request)
    if found is None:
        return no_match()
    record, seat = found
    if record.status is not MatchStatus.ACTIVE:
        return _closed(request, record)
    form = await request.post()
    try:
        action = json.loads(str(form.get("action", "")))
        step = int(str(form.get("step", "")))
        if not isinstance(action, dict):
            raise ValueError
    except ValueError:
        return await _page(request, error="That move could not be read: choose it again.", status=400)
    service = request.app[SERVICE]
    assert service is not None
    try:
        await service.submit(record.id, record.seats[seat].user_id, action, seat_step=step)
    except StalePrompt:
        return await _page(
            request,
            error=STALE,
            status=409,
        )
    except (RulesError, MatchError) as exc:
        return await _page(request, error=str(exc), status=400)
    raise web.HTTPSeeOther(location=f"/p/{request.match_info['token']}")


def _same_origin(request: web.Request) -> bool:
    """Whether a move came from this site's own page. A browser says where a request comes from:
    ``Sec-Fetch-Site`` (every current browser: ``same-origin`` for this site's form), else
    ``Origin`` (this site's address; ``null`` is refused: the pages send no referrer, and a
    browser then names no origin for a form that is not its own). A client that sends neither
    (not a browser) is let through: the token is the secret."""
    fetched = request.headers.get("Sec-Fetch-Site")
    if fetched is not None:
        return fetched in ("same-origin", "none")
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return origin != "null" and urlsplit(origin).netloc == request.host
