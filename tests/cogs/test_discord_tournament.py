"""Tournaments in Discord (cogs/tournaments.py) through the fake Discord: /tournament create, the
sign-up message's Join / Leave buttons (foreign, stale and double clicks refused with nothing
changed), the organizer's /tournament start, a whole 4-player Swiss tournament of Wizards Cup
played through the match service, the one tournament message edited in place, the champion
announced and /tournament history. Every request body is checked against Discord's schema by the
harness. Then the pictures (the standings after each round, the bracket of a single elimination,
none with pictures off), /tournament history's pages and the tournament results on /profile."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import discord
import pytest

from bot.matches import MatchStatus
from cogs.tournament_pictures import TOURNAMENT_PICTURES
from tests.cogs.tournament_flows import create, play_to_end, said
from tests.discord_flows import setup_players
from tests.discord_harness.tournament import presenter_on_harness_clock

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def make(make):  # noqa: F811 - the shared fixture, with the presenter's edit window on the harness's clock
    async def factory(*args: Any, **kwargs: Any) -> Any:
        h, bot, db = await make(*args, **kwargs)
        presenter_on_harness_clock(bot, h)
        return h, bot, db

    return factory


async def test_create_join_leave_by_buttons_and_refusals(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    cy = h.add_member(guild, "cy")

    r = await create(h, ch, ann, rounds=9, max_players=4)  # too many rounds for 4 players: refused, readable
    assert r.ephemeral and "allows 1 to" in r.content
    assert h.messages_in(ch) == []

    r = await create(h, ch, ann, rounds=1, max_players=4)
    msg = r.message
    assert not r.ephemeral and "Tournament #" in msg.text() and "Wizards Cup" in msg.text()
    assert {b.get("label") for b in msg.buttons} == {"Join", "Leave"}
    tid = int(msg.buttons[0]["custom_id"].rsplit(":", 1)[1])
    assert msg.custom_ids == [f"tournament:join:{tid}", f"tournament:leave:{tid}"]

    joined = await h.click(bob, msg, label="Join")
    assert joined.ephemeral and "You joined" in joined.content
    assert "bob" in msg.text() and "Players (1/4)" in msg.text()
    again = await h.click(bob, msg, label="Join")  # a double click: refused, nothing changed
    assert again.ephemeral and "already joined" in again.content
    foreign = await h.click(cy, msg, label="Leave")  # never joined
    assert foreign.ephemeral and "have not joined" in foreign.content
    assert len((await bot.tournaments.record(tid)).entrants) == 1
    left = await h.click(bob, msg, label="Leave")
    assert left.ephemeral and "You left" in left.content
    assert "nobody yet" in msg.text()

    for user in (ann, bob):
        await h.click(user, msg, label="Join")
    refused = await h.slash(bob, ch, "tournament start", {})  # not the organizer
    assert "Only the organizer" in said(refused)
    assert (await bot.tournaments.record(tid)).status.value == "signup"

    # the organizer starts (from another place: the message has not been edited yet), so a click on
    # the message's Join button arrives stale: refused, nothing changed
    await bot.tournaments.start(tid, ann.id)
    stale = await h.click(cy, msg, label="Join")
    assert stale.ephemeral and "sign-up is closed" in stale.content
    await bot.tick_tournaments()  # the timer delivers the events: the buttons go, the round shows
    await h.settle()
    assert msg.components == [] and "Round 1 of 1" in msg.text()
    assert len((await bot.tournaments.record(tid)).entrants) == 2
    assert not h.violations


async def test_a_burst_of_join_clicks_is_one_edit_per_window_and_no_429(make, tmp_path):
    """20 players press Join within one second: each gets their answer at once, the tournament
    message is edited once at the first click and once more (the deferred edit, at the window's
    end) with all 20; never refused by Discord (the harness enforces its 5 edits per 5 s)."""
    from cogs.tournament_presenter import EDIT_EVERY

    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, _bob = setup_players(h)
    users = [h.add_member(guild, f"wizard{i:02d}") for i in range(20)]
    r = await create(h, ch, ann, max_players=32)
    msg = r.message
    tid = int(msg.buttons[0]["custom_id"].rsplit(":", 1)[1])
    presenter = bot.tournament_presenter
    window_over = asyncio.Event()  # the deferred edit's sleep ends when the test says so

    async def sleep(seconds: float) -> None:
        await window_over.wait()
        h.clock.advance_to(h.clock.now() + seconds)

    presenter.sleep = sleep
    route = "/channels/{channel_id}/messages/{message_id}"

    def edits() -> list[Any]:
        return [
            req
            for req in h.requests_for("PATCH", route)
            if str(req.params.get("message_id")) == str(msg.id) and req.status == 200
        ]

    h.advance(EDIT_EVERY)  # the window of the create's own edit is over
    before = len(edits())
    start = h.clock.simulated
    h.think_time = 0.04  # 20 clicks in 0.8 s on the harness's clock (plus the real time they take)
    clicks = [await h.click(user, msg, label="Join", wait=False) for user in users]
    assert h.clock.simulated - start < 1.0
    await h.settle()
    assert all(c.ephemeral and "You joined" in c.content for c in clicks)  # every player answered at once
    assert len(edits()) - before == 1  # the first click's; the others wait for the window's end
    assert "Players (20/32)" not in msg.text()  # not yet all of them
    window_over.set()
    await h.settle()
    made = edits()[before:]
    assert len(made) == 2 and made[1].at - made[0].at >= EDIT_EVERY - 1e-6
    assert h.rate_limit_hits == [] and not h.violations
    assert "Players (20/32)" in msg.text() and all(user.name in msg.text() for user in users)
    assert len((await bot.tournaments.record(tid)).entrants) == 20


@pytest.mark.slow
async def test_a_whole_swiss_tournament_in_discord(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    players = [ann, bob, h.add_member(guild, "cy"), h.add_member(guild, "di")]
    r = await create(h, ch, ann, rounds=2)
    msg = r.message
    tid = int(msg.buttons[0]["custom_id"].rsplit(":", 1)[1])
    for user in players:
        await h.click(user, msg, label="Join")
    assert "Players (4)" in msg.text()
    started = await h.slash(ann, ch, "tournament start", {})
    await h.settle()
    assert "Tournament #1 started" in said(started)
    text = msg.text()
    assert "Round 1 of 2" in text and "Standings" in text
    assert "live in <#" in text  # the round's matches link their threads
    assert any("round 1 of 2 starts" in m.text() for m in h.messages_in(ch))

    view = await play_to_end(h, bot, tid)
    assert view.status.value == "finished"
    champion = view.tournament.champion
    name = view.record.name_of(champion)

    # one tournament message, edited in place (the other posts are announcements and matches)
    ours = [m for m in h.messages_in(ch) if "Tournament #" in m.text() and m.embeds and "Players" in m.text()]
    assert [m.id for m in ours] == [msg.id] and msg.edited
    assert "Finished" in msg.text() and f"🥇 {name}" in msg.text()
    assert any("round 2 of 2 starts" in m.text() for m in h.messages_in(ch))
    cards = [m for m in h.messages_in(ch) if m.embeds and f"{name} wins tournament #{tid}" in m.text()]
    assert len(cards) == 1  # the champion announced once
    assert await bot.tournaments.events(tid, pending_only=True) == []

    hist = await h.slash(bob, ch, "tournament history", {})
    text = hist.message.text()
    assert f"#{tid} Wizards Cup, Swiss" in text and f"🥇 {name}" in text and "4 players" in text
    assert not h.violations


# -- pictures, history pages, /profile ---------------------------------------------------------


async def decide_round(h: Any, bot: Any, tid: int, loser: Callable[[list[int]], int], only: int | None = None) -> None:
    """Each live match of the current round (the first ``only`` of them) ends with ``loser(seats)``
    resigning; then the tournament moves on and its message is edited."""
    view = await bot.tournaments.view(tid)
    links = sorted((link for link in view.current_links().values() if not link.recorded), key=lambda k: k.pairing)
    for link in links[:only]:
        m = await bot.service.get(link.match_id)
        assert m.status is MatchStatus.ACTIVE
        h.advance(2.0)  # players resign a little apart, not all in the same second
        await bot.service.forfeit(link.match_id, loser([s.user_id for s in m.seats]))
        await h.settle()
    h.advance(2.0)
    await bot.service.settle()
    await bot.tick_tournaments()
    await h.settle()


def first_seat(seats: list[int]) -> int:
    return seats[0]


def picture_of(h: Any, msg: Any) -> tuple[str, bytes] | None:
    """The picture the message's embed shows (its file name and bytes), None without one; the
    embed shows exactly the message's one attachment."""
    url = ((msg.embed or {}).get("image") or {}).get("url")
    if url is None:
        assert msg.attachments == []
        return None
    assert [a["filename"] for a in msg.attachments] == [url.removeprefix("attachment://")]
    att = msg.attachments[0]
    return att["filename"], h.server.cdn[att["url"]]


async def signed_up(h: Any, bot: Any, ch: Any, players: list[Any], **options: Any) -> tuple[Any, int]:
    r = await create(h, ch, players[0], **options)
    msg = r.message
    tid = int(msg.buttons[0]["custom_id"].rsplit(":", 1)[1])
    for user in players:
        await h.click(user, msg, label="Join")
    await h.slash(players[0], ch, "tournament start", {})
    await h.settle()
    return msg, tid


@pytest.mark.slow
async def test_the_message_shows_the_standings_picture_after_each_round(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    players = [ann, bob, h.add_member(guild, "cy"), h.add_member(guild, "𝕯𝖗𝖆𝖐𝖔 🐉 ʕ•ᴥ•ʔ" + "x" * 60)]
    msg, tid = await signed_up(h, bot, ch, players, rounds=2)
    assert "Round 1 of 2" in msg.text() and picture_of(h, msg) is None  # no round over yet: the text table
    assert "No game has been played yet" in msg.text()  # no places before any result

    await decide_round(h, bot, tid, first_seat)
    assert "Round 2 of 2" in msg.text()
    first = picture_of(h, msg)
    assert first is not None and first[1].startswith(PNG) and first[0].startswith("tournament-standings-")
    assert "Shown in the picture below" in msg.text() and "```" not in msg.text()
    uploads, drawn = len(msg.files), TOURNAMENT_PICTURES.misses

    # one match of round 2 ends: the message is edited (its result), the standings picture is the
    # same: neither drawn nor uploaded again
    edits = len(msg.history)
    await decide_round(h, bot, tid, first_seat, only=1)
    assert len(msg.history) > edits and "wins" in msg.text()
    assert picture_of(h, msg) == first and len(msg.files) == uploads and TOURNAMENT_PICTURES.misses == drawn

    await decide_round(h, bot, tid, first_seat)
    assert (await bot.tournaments.view(tid)).status.value == "finished"
    final = picture_of(h, msg)
    assert final is not None and final[1].startswith(PNG) and final != first
    assert len(msg.files) == uploads + 1
    assert not h.violations


@pytest.mark.slow
async def test_single_elimination_shows_its_bracket(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    players = [ann, bob, h.add_member(guild, "cy"), h.add_member(guild, "di"), h.add_member(guild, "ed")]
    msg, tid = await signed_up(h, bot, ch, players, format="single_elimination", third_place=True)
    drawn = picture_of(h, msg)  # from the first round: the bracket (with its byes)
    assert drawn is not None and drawn[0].startswith("tournament-bracket-") and drawn[1].startswith(PNG)
    assert "Standings" not in msg.text()  # the bracket replaces the standings

    await decide_round(h, bot, tid, first_seat)
    after = picture_of(h, msg)
    assert after is not None and after[0].startswith("tournament-bracket-") and after != drawn  # winners marked
    view = await h.slash(bob, ch, "tournament view", {"tournament": tid})  # the same picture, ephemeral
    assert view.ephemeral and picture_of(h, view.message) is not None
    assert picture_of(h, view.message)[1] == after[1]
    assert not h.violations


@pytest.mark.slow
async def test_pictures_off_keep_the_text_table(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3", images=False)
    guild, ch, ann, bob = setup_players(h)
    players = [ann, bob, h.add_member(guild, "cy"), h.add_member(guild, "di")]
    msg, tid = await signed_up(h, bot, ch, players, rounds=2)
    await decide_round(h, bot, tid, first_seat)
    assert "Round 2 of 2" in msg.text() and "```" in msg.text()  # the text table
    assert picture_of(h, msg) is None and msg.files == []
    assert not any(m.attachments for m in h.messages_in(ch))
    assert not h.violations


@pytest.mark.slow
async def test_history_pages(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    for _ in range(23):
        rec = await bot.tournaments.create(guild.id, ch.id, ann.id, "firewall", "swiss")
        await bot.tournaments.cancel(rec.id, ann.id)

    r = await h.slash(bob, ch, "tournament history", {})
    msg = r.message
    assert not r.ephemeral and len(msg.embed["fields"]) == 10 and "Page 1/3 · 23 past tournaments" in msg.text()
    assert msg.custom_ids == [f"tournament:history:{guild.id}:{p}:{role}" for p, role in ((0, "p"), (0, "i"), (1, "n"))]
    assert "#23 Firewall, Swiss" in msg.text()  # newest first

    seen = [f["name"] for f in msg.embed["fields"]]
    await h.click(bob, msg, label="Next ▶")
    assert "Page 2/3" in msg.text() and len(msg.embed["fields"]) == 10
    seen += [f["name"] for f in msg.embed["fields"]]
    await h.click(ann, msg, label="Next ▶")
    assert "Page 3/3" in msg.text() and len(msg.embed["fields"]) == 3
    seen += [f["name"] for f in msg.embed["fields"]]
    assert sorted(int(name.split()[0][1:]) for name in seen) == list(range(1, 24))  # each once
    assert next(b for b in msg.buttons if b["label"] == "Next ▶").get("disabled")
    await h.click(bob, msg, label="◀ Previous")
    assert "Page 2/3" in msg.text()

    # a stale button (a page that is no longer there, e.g. a message from before a restore of the
    # database) and a foreign one (another server's id): answered ephemerally, nothing changed
    from cogs.tournaments import HistoryButton

    view = discord.ui.View()
    view.add_item(HistoryButton(guild.id, 7, "n"))
    view.add_item(HistoryButton(12345, 1, "n"))
    old = h.message((await bot.get_partial_messageable(ch.id).send("old pages", view=view)).id)
    before = msg.text()
    r = await h.click(bob, old, f"tournament:history:{guild.id}:7:n")
    assert r.ephemeral and "That page of the tournament history is gone: there are now 3 pages" in r.content
    r = await h.click(bob, old, "tournament:history:12345:1:n")
    assert r.ephemeral and "belongs to another server" in r.content
    assert msg.text() == before
    assert not h.violations


@pytest.mark.slow
async def test_profile_shows_tournament_results(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    cy, di = h.add_member(guild, "cy"), h.add_member(guild, "di")

    async def played(players: list[Any], loser: Callable[[list[int]], int], **options: Any) -> int:
        rec = await bot.tournaments.create(guild.id, ch.id, ann.id, "wizards-cup", "single_elimination", **options)
        for user in players:
            await bot.tournaments.join(rec.id, (user.id, user.display_name))
        await bot.tournaments.start(rec.id, ann.id)
        await h.settle()
        for _ in range(5):
            if (await bot.tournaments.view(rec.id)).status.value == "finished":
                break
            await decide_round(h, bot, rec.id, loser)
        assert (await bot.tournaments.view(rec.id)).status.value == "finished"
        return int(rec.id)

    # ann wins a final against bob; then, of four, loses her semi-final and wins the third place
    won = await played([ann, bob], lambda seats: bob.id)
    semis: set[int] = set()

    def ann_third(seats: list[int]) -> int:
        if not semis:  # the semi-finals: ann loses hers, the first seat loses the other
            return ann.id if ann.id in seats else seats[0]
        return next(p for p in seats if p != ann.id)

    rec = await bot.tournaments.create(guild.id, ch.id, ann.id, "wizards-cup", "single_elimination", third_place=True)
    for user in (ann, bob, cy, di):
        await bot.tournaments.join(rec.id, (user.id, user.display_name))
    await bot.tournaments.start(rec.id, ann.id)
    await h.settle()
    await decide_round(h, bot, rec.id, ann_third)
    semis.add(1)
    await decide_round(h, bot, rec.id, ann_third)
    placed = await bot.tournaments.view(rec.id)
    assert placed.status.value == "finished" and (1, ann.id) not in placed.tournament.ranking()

    r = await h.slash(bob, ch, "profile", {"player": ann})
    text = r.message.text()
    assert "Tournaments" in text and "2 tournaments finished" in text
    assert f"#{won} · Wizards Cup, Single elimination · 🏆 Champion of 2 · 1-0-0" in text
    assert f"#{rec.id} · Wizards Cup, Single elimination · 3rd of 4 · 1-1-0" in text
    # bob: second of two, and in the other one
    r = await h.slash(bob, ch, "profile", {})
    assert "2nd of 2" in r.message.text()
    # someone who never played a tournament: no such field
    r = await h.slash(bob, ch, "profile", {"player": h.add_member(guild, "eve")})
    assert "Tournaments" not in r.message.text()
    assert not h.violations


def db_rows(path: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Every tournament row the bot wrote, read on a connection of its own."""
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        return {
            table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in ("tournaments", "tournament_entrants", "tournament_matches", "tournament_events")
        }
    finally:
        conn.close()


async def test_bad_input_in_discord_is_refused_clearly_and_changes_nothing(make, tmp_path):
    """Issue 18's bad input through Discord: an unknown format cannot be sent (the command offers
    only its choices), a tournament of 1 player started, a start twice, a non-organizer starting,
    cancelling, pausing or dropping someone, a stale Join button of another channel's tournament, a
    double click on Join: each answered ephemerally with a readable reason, the rows unchanged."""
    import pytest

    from tests.discord_harness import HarnessError

    path = tmp_path / "t.sqlite3"
    h, bot, db = await make(path)
    guild, ch, ann, bob = setup_players(h)
    cy = h.add_member(guild, "cy")

    with pytest.raises(HarnessError):  # Discord's client offers only the three formats
        await h.slash(ann, ch, "tournament create", {"game": "wizards-cup", "format": "ladder"})
    assert db_rows(path)["tournaments"] == []

    r = await create(h, ch, ann, max_players=4)
    msg = r.message
    tid = int(msg.buttons[0]["custom_id"].rsplit(":", 1)[1])
    await h.click(ann, msg, label="Join")
    before = db_rows(path)
    alone = await h.slash(ann, ch, "tournament start", {})
    assert "at least 2 players" in said(alone) and alone.ephemeral
    assert db_rows(path) == before

    await h.click(bob, msg, label="Join")
    before = db_rows(path)
    for command, options in (
        ("tournament start", {}),
        ("tournament cancel", {}),
        ("tournament pause", {}),
        ("tournament drop", {"player": ann}),
    ):
        refused = await h.slash(bob, ch, command, options)
        assert "Only the organizer" in said(refused), (command, said(refused))
        assert refused.ephemeral
    assert db_rows(path) == before

    # a double click on Join: one joins, the other is told it already has
    first = await h.click(cy, msg, label="Join", wait=False)
    second = await h.click(cy, msg, label="Join", wait=False)
    await h.settle()
    answers = sorted([first.content or "", second.content or ""])
    assert any("You joined" in a for a in answers) and any("already joined" in a for a in answers), answers
    entrants = db_rows(path)["tournament_entrants"]
    assert sorted(row[1] for row in entrants) == sorted([ann.id, bob.id, cy.id])

    started = await h.slash(ann, ch, "tournament start", {})
    assert "started" in said(started)
    before = db_rows(path)
    twice = await h.slash(ann, ch, "tournament start", {"tournament": tid})
    assert twice.ephemeral and "already started" in said(twice)
    assert db_rows(path) == before

    # another channel's tournament, cancelled from elsewhere before its message is edited: a click on
    # its Join button is refused with the reason, nothing changes
    other_ch = h.add_text_channel(guild, "other")
    other = (await create(h, other_ch, bob)).message
    other_id = int(other.buttons[0]["custom_id"].rsplit(":", 1)[1])
    await bot.tournaments.cancel(other_id, bob.id)
    before = db_rows(path)
    stale = await h.click(cy, other, label="Join")
    assert stale.ephemeral and "was cancelled" in stale.content and "sign-up is closed" in stale.content
    assert db_rows(path) == before
    await bot.tick_tournaments()
    await h.settle()
    assert other.components == [] and "cancelled" in other.text().lower()
    assert not h.violations


# -- how a tournament reads (issue 31, part 7) ----------------------------------------------------


def round_posts(h: Any, ch: Any) -> list[tuple[int, str]]:
    """(position in the channel, what it is) of the round announcements and the matches' thread
    starters, in the order they were posted."""
    out = []
    for k, m in enumerate(h.messages_in(ch)):
        if "starts." in m.text() and "Tournament #" in m.text() and not m.embeds:
            out.append((k, "round " + m.text().split("round ", 1)[1].split(" ", 1)[0]))
        elif h.thread_of(m) is not None or m.kind == "system":  # a thread from a post, or Discord's note
            out.append((k, "thread"))
    return out


@pytest.mark.slow
async def test_each_round_is_announced_before_its_matches_threads_with_its_deadline(make, tmp_path):
    h, bot, db = await make(tmp_path / "t.sqlite3")
    guild, ch, ann, bob = setup_players(h)
    players = [ann, bob, *(h.add_member(guild, name) for name in ("cy", "di", "ed", "fay"))]
    r = await create(h, ch, ann, rounds=2)
    msg = r.message
    tid = int(msg.buttons[0]["custom_id"].rsplit(":", 1)[1])
    for user in players:
        await h.click(user, msg, label="Join")
    await h.slash(ann, ch, "tournament deadline", {"duration": "1d"})
    await h.slash(ann, ch, "tournament start", {})
    await h.settle()
    await bot.service.settle()
    await h.settle()
    deadline = (await bot.tournaments.record(tid)).round_deadline_at
    assert deadline is not None
    announcement = next(m for m in h.messages_in(ch) if "round 1 of 2 starts" in m.text())
    assert f"<t:{deadline}:R>" in announcement.text()  # the round's deadline, in each reader's time
    assert f"<t:{deadline}:R>" in msg.text()  # and on the tournament message
    shown = await h.slash(bob, ch, "tournament view", {})
    assert f"<t:{deadline}:R>" in shown.message.text()  # and /tournament view

    await play_to_end(h, bot, tid)
    posts = [what for _, what in round_posts(h, ch)]
    assert posts == ["round 1", "thread", "thread", "thread", "round 2", "thread", "thread", "thread"], posts
    assert h.rate_limit_hits == [] and not h.violations


@pytest.mark.slow
async def test_standings_show_no_places_before_play_shared_places_plain_tiebreaks_and_ping_the_champion(make, tmp_path):
    from cogs.tournament_embeds import NOT_PLAYED

    h, bot, db = await make(tmp_path / "t.sqlite3", images=False)
    guild, ch, ann, bob = setup_players(h)
    players = [ann, bob, h.add_member(guild, "cy"), h.add_member(guild, "di")]
    msg, tid = await signed_up(h, bot, ch, players, rounds=2)
    # before any game: nobody ranked 1 to 4 at 0 points
    assert "Round 1 of 2" in msg.text() and NOT_PLAYED in msg.text() and "```" not in msg.text()

    await decide_round(h, bot, tid, first_seat)
    table = msg.text().split("```")[1]
    places = [line.split()[0] for line in table.strip().splitlines()[1:]]
    assert places == ["=1", "=1", "=3", "=3"]  # two winners, two losers, equal on every tie-break
    text = msg.text()
    # Wizards Cup's own score: the duels won (these matches were resigned before any duel: none)
    assert "how well your opponents did" in text and "duels you won" in text and "random draw" in text
    assert "OMW" not in text and "GW%" not in text

    await decide_round(h, bot, tid, first_seat)
    view = await bot.tournaments.view(tid)
    assert view.status.value == "finished"
    champion = view.tournament.champion
    card = next(m for m in h.messages_in(ch) if "wins tournament" in m.text())
    assert f"<@{champion}>" in card.content  # the champion is mentioned ...
    posted = next(
        r.json for r in h.requests_for("POST", "/channels/{channel_id}/messages") if "Congratulations" in str(r.json)
    )
    assert [str(u) for u in posted["allowed_mentions"]["users"]] == [str(champion)]  # ... and only they are pinged
    assert posted["allowed_mentions"]["parse"] == []
    assert not h.violations
