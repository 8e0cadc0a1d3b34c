"""The end of a match (bot/matches/ending.py and the card of cogs/ending.py): a seeded full match
of each of the four games through the match service, then its ending: placements (ordinals with
3+ players, never "Loss"), ratings before -> after equal to the stored rating changes, the key
figures recomputed from the events, every secret revealed only once the match is over, the
rematch (seats rotated, same options, the others must accept; refused clicks change nothing),
the downloadable log replaying to the same outcome, and the card within Discord's limits with 8
players and long names."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from bot.matches import InvalidChallenge, MatchService, NotAPlayer, WrongStatus
from cogs.ending import card_embeds, place_text, rating_text
from cogs.games.base import EMBED_FIELD_VALUE, EMBED_FIELDS, EMBED_TITLE, EMBED_TOTAL, embed_size
from db import Database, MatchRecord, MatchStatus, RatingsRepository
from rules.firewall.spells import names as spell_names
from rules.match import Match, MatchLog
from tests.conftest import DbTarget
from tests.fakes import Clock, RecordingNotifier
from tests.running_timer import timer_pass

T0 = 1_800_000_000
GUILD, CHANNEL = 10, 20
PLAYERS = [
    (101, "Ann"),
    (102, "Bob"),
    (103, "Cy"),
    (104, "Dee"),
    (105, "Eve"),
    (106, "Flo"),
    (107, "Gus"),
    (108, "Hal"),
]


@dataclass
class Env:
    db: Database
    service: MatchService
    clock: Clock

    async def started(self, game: str, players: list[tuple[int, str]], options: dict | None = None) -> MatchRecord:
        record = await self.service.create_challenge(game, options, GUILD, CHANNEL, players[0], players[1:])
        for uid, _ in players[1:]:
            result = await self.service.accept(record.id, uid)
        assert result.started
        return result.record

    async def play_out(self, match_id: int, seed: int = 3) -> MatchRecord:
        """Random legal moves by the awaited seats until the match ends."""
        rng = random.Random(seed)
        for _ in range(5000):
            record = await self.service.get(match_id)
            if record.status is not MatchStatus.ACTIVE:
                return record
            for seat in range(len(record.seats)):
                sp = await self.service.prompt(match_id, seat)
                if sp.awaited:
                    action = rng.choice(sp.legal_actions)
                    await self.service.submit(match_id, record.seats[seat].user_id, action, seat_step=sp.seat_step)
                    break
        raise AssertionError("the match did not end")


@pytest.fixture
async def env(target: DbTarget) -> AsyncIterator[Env]:
    clock = Clock(T0)
    db = await Database.open(target.url, clock=clock)
    service = MatchService(db, notifier=RecordingNotifier(), clock=clock, seed_factory=lambda: 20261123)
    yield Env(db, service, clock)
    await service.close()
    await db.close()


def text_of(embeds) -> str:
    out = []
    for e in embeds:
        out += [e.title or "", e.description or ""]
        out += [f"{f.name}\n{f.value}" for f in e.fields]
    return "\n".join(out)


def assert_fits(embeds) -> None:
    """Discord's embed limits, for the card alone (it shares a message with nothing larger)."""
    assert len(embeds) <= 10 and sum(embed_size(e) for e in embeds) <= EMBED_TOTAL
    for e in embeds:
        assert len(e.title or "") <= EMBED_TITLE and len(e.fields) <= EMBED_FIELDS
        assert all(len(f.name) <= 256 and 0 < len(f.value) <= EMBED_FIELD_VALUE for f in e.fields)


async def finished(env: Env, game: str, players: list[tuple[int, str]], seed: int = 3):
    record = await env.started(game, players)
    record = await env.play_out(record.id, seed)
    assert record.status is MatchStatus.FINISHED
    ending = await env.service.ending(record.id, wait=5.0)
    return record, ending, text_of(card_embeds(ending))


async def assert_ratings_shown(env: Env, record: MatchRecord, card: str) -> None:
    changes = [c for c in await RatingsRepository(env.db).changes_for_match(record.id) if c.scope == GUILD]
    assert len(changes) == len(record.seats)
    for c in changes:  # exactly the stored numbers, with the sign of the change
        assert f"Rating {c.display_before} → {c.display_after} ({c.delta:+d})" in card


# -- the four games ------------------------------------------------------------------------------


async def test_wizards_cup_card_reveals_decks_orders_and_waiting_cards(env: Env) -> None:
    record, ending, card = await finished(env, "wizards-cup", PLAYERS[:2])
    await assert_ratings_shown(env, record, card)
    cards = ending.game.cards
    for seat in range(2):
        you = ending.views[seat]["you"]
        deck = ", ".join(cards.by_id[c].name for c in you["deck"])
        assert f"Deck: {deck}" in card  # the Deck the seat hid, from its own final view
        plans = [e.data for e in ending.events if e.kind == "plan_private" and e.data["seat"] == seat]
        assert plans and " → ".join(cards.by_id[c].name for c in plans[0]["order"]) in card
        assert f"Waiting: {cards.by_id[plans[0]['waiting']].name}" in card
    duels = [e.data for e in ending.events if e.kind == "duel"]
    assert any(isinstance(d.get("winner"), int) for d in duels)  # a match where duels were won
    for seat in range(2):  # "a duel is won by Element, Value or a Magic power" (rulebook, step 3)
        won = [d for d in duels if d.get("winner") == seat]
        assert f"Duels won: {len(won)}" in card
        by_value = sum(1 for d in won if d["criterion"] == "value")
        if by_value:
            assert f"Value {by_value}" in card


async def test_firewall_card_counts_mana_and_spells_and_reveals_hands_and_bets(env: Env) -> None:
    record, ending, card = await finished(env, "firewall", PLAYERS[:2])
    await assert_ratings_shown(env, record, card)
    for seat in range(2):
        paid = sum(e.data["paid"][seat] for e in ending.events if e.kind == "turn_end")
        paid += sum(e.data["points"] for e in ending.events if e.kind == "out_of_mana" and e.data["mover"] == seat)
        cast = sum(len(e.data["spells"][seat]) for e in ending.events if e.kind == "reveal")
        bets = ", ".join(str(e.data["bets"][seat]) for e in ending.events if e.kind == "reveal")
        assert f"Mana spent: {paid}" in card and f"Spells cast: {cast}" in card and f"Bets: {bets}" in card
        hand = ending.views[seat]["you"]["hand"]
        assert (f"Hand at the end: {spell_names(hand)}" if hand else "Hand at the end: empty") in card


async def test_magic_duel_with_four_players_has_ordinal_places_and_tricks(env: Env) -> None:
    record, ending, card = await finished(env, "magic-duel", PLAYERS[:4], seed=5)
    await assert_ratings_shown(env, record, card)
    places = ending.placements()
    assert places is not None and all(p.of == 4 for p in places)
    assert "1st of 4" in card and "Loss" not in card and "Win" not in card
    for p in places:  # "2nd of 4": the place, whatever the rating did
        assert place_text(p).endswith({1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}[p.rank] + " of 4")
    for seat in range(4):
        won = sum(1 for e in ending.events if e.kind == "trick_won" and e.data["winner"] == seat)
        assert f"Tricks won: {won}" in card
        risked = [e for e in ending.events if e.kind == "risk_private" and e.data["seat"] == seat]
        assert ("Risked: nothing" in card) if not risked else ("Risked: " in card)


@pytest.mark.slow
async def test_arena_card_says_nothing_was_hidden_and_counts_damage_and_favour(env: Env) -> None:
    record, ending, card = await finished(env, "arena", PLAYERS[:2], seed=2)  # a knockout, 29 damage
    await assert_ratings_shown(env, record, card)
    assert "nothing was hidden" in card and "knocked out" in card
    owner = {f"p{s + 1}-{kind}": s for s in range(2) for kind in ("wizard", "m1", "m2", "m3", "m4")}
    assert all(e.data["model"] in owner for e in ending.events if e.kind == "damage")
    assert sum(e.data["amount"] for e in ending.events if e.kind == "damage") > 0
    for seat in range(2):
        taken = sum(e.data["amount"] for e in ending.events if e.kind == "damage" and owner[e.data["model"]] == seat)
        dealt = sum(
            e.data["amount"]
            for e in ending.events
            if e.kind == "damage" and owner[e.data["model"]] != seat and e.data["cause"] != "blood_pact"
        )
        assert f"Damage dealt: {dealt}" in card and f"Damage taken: {taken}" in card
    assert "Crowd Favour gained:" in card


# -- what the end reveals, and when ---------------------------------------------------------------


async def test_secrets_are_revealed_only_once_the_match_is_over(env: Env) -> None:
    record = await env.started("magic-duel", PLAYERS[:3])
    with pytest.raises(WrongStatus, match="not over"):
        await env.service.ending(record.id)
    with pytest.raises(WrongStatus, match="not over"):
        await env.service.match_log(record.id)
    await env.play_out(record.id)
    ending = await env.service.ending(record.id)
    hand = ending.views[1]["you"]["hand"]
    spectator = ending.public_view["players"][1]
    assert "hand" not in spectator  # the spectator view hides it ...
    assert len(hand) == spectator["hand_size"]  # ... the seat's own final view reveals it


async def test_the_log_replays_to_the_same_outcome(env: Env) -> None:
    record, ending, _ = await finished(env, "firewall", PLAYERS[:2])
    data = await env.service.match_log(record.id)
    replayed = Match.replay(MatchLog.model_validate(data))
    assert replayed.state.outcome is not None
    assert replayed.state.outcome.to_json(record.names) == record.outcome == data["outcome"]
    assert data["seed"] == record.seed and data["seats"] == record.names


async def test_an_abandoned_match_is_unrated_with_its_own_wording(env: Env) -> None:
    record = await env.started("wizards-cup", PLAYERS[:2])
    env.clock.advance(10 * 3600)
    await timer_pass(env.service)
    ending = await env.service.ending(record.id, wait=1.0)
    assert ending.abandoned and ending.placements() is None and not ending.rated
    card = text_of(card_embeds(ending))
    assert "Abandoned: nobody moved in time" in card and "Unrated (abandoned)" in card
    assert rating_text(ending, 0) == "Unrated (abandoned)"


async def test_a_forfeit_says_who_gave_up(env: Env) -> None:
    record = await env.started("firewall", PLAYERS[:2])
    await env.service.forfeit(record.id, PLAYERS[1][0])
    ending = await env.service.ending(record.id, wait=5.0)
    card = text_of(card_embeds(ending))
    assert "🏳️ Bob resigned." in card and "🏆 Winner · Ann" in card and "2nd of 2 · Bob" in card


async def test_eight_players_with_long_names_fit_discords_limits(env: Env) -> None:
    long = [(uid, (name + " the Unbelievably Long-Named Wizard ") * 3) for uid, name in PLAYERS]
    record, ending, card = await finished(env, "magic-duel", long, seed=11)
    embeds = card_embeds(ending)
    assert_fits(embeds)
    assert "8th of 8" in card or "=" in card  # every place shown, ties marked
    assert sum(1 for e in embeds[:1] for f in e.fields) == 8


# -- rematch --------------------------------------------------------------------------------------


async def test_rematch_rotates_the_seats_and_waits_for_the_others(env: Env) -> None:
    record, _, _ = await finished(env, "firewall", PLAYERS[:2])
    with pytest.raises(NotAPlayer, match="Only the players"):
        await env.service.rematch(record.id, PLAYERS[2][0])
    again = await env.service.rematch(record.id, PLAYERS[0][0])
    assert again.status is MatchStatus.PENDING and again.options == record.options and again.game == record.game
    assert [s.user_id for s in again.seats] == [PLAYERS[1][0], PLAYERS[0][0]]  # swapped
    assert [s.accepted for s in again.seats] == [False, True]  # only the one who asked
    assert again.challenger_id == PLAYERS[0][0] and (again.guild_id, again.channel_id) == (GUILD, CHANNEL)
    count = await env.db.fetchval("SELECT COUNT(*) FROM matches")
    for user in (PLAYERS[0][0], PLAYERS[1][0]):  # a second click, or the other's, while it is pending
        with pytest.raises(InvalidChallenge, match="is waiting to be accepted"):
            await env.service.rematch(record.id, user)
    assert await env.db.fetchval("SELECT COUNT(*) FROM matches") == count  # nothing changed
    with pytest.raises(InvalidChallenge, match="You made this challenge"):
        await env.service.accept(again.id, PLAYERS[0][0])
    started = await env.service.accept(again.id, PLAYERS[1][0])
    assert started.started and started.record.names == ["Bob", "Ann"]
    with pytest.raises(InvalidChallenge, match="is being played"):
        await env.service.rematch(record.id, PLAYERS[1][0])


async def test_rematch_of_three_rotates_and_needs_both_others(env: Env) -> None:
    record, _, _ = await finished(env, "magic-duel", PLAYERS[:3])
    again = await env.service.rematch(record.id, PLAYERS[1][0])
    assert [s.user_id for s in again.seats] == [PLAYERS[1][0], PLAYERS[2][0], PLAYERS[0][0]]
    assert [s.accepted for s in again.seats] == [True, False, False]
    assert not (await env.service.accept(again.id, PLAYERS[0][0])).started
    assert (await env.service.accept(again.id, PLAYERS[2][0])).started


async def test_a_declined_rematch_may_be_asked_again(env: Env) -> None:
    record, _, _ = await finished(env, "firewall", PLAYERS[:2])
    again = await env.service.rematch(record.id, PLAYERS[0][0])
    assert (await env.service.decline(again.id, PLAYERS[1][0])).status is MatchStatus.DECLINED
    third = await env.service.rematch(record.id, PLAYERS[1][0])
    assert third.id != again.id and third.status is MatchStatus.PENDING
    assert [s.accepted for s in third.seats] == [True, False]  # Bob asked: Bob is seat 0 now


@pytest.mark.postgres
async def test_two_processes_asked_for_the_same_rematch_at_once_make_one(pg_target: DbTarget) -> None:
    """Both players click Rematch at once and the clicks reach two processes sharing the database:
    the old match's row lock orders the two requests, so one rematch is made and the other click
    is told it is waiting (each process's asyncio lock alone would let both through)."""
    import asyncio

    clock = Clock(T0)
    db_a, db_b = await Database.open(pg_target.url, clock=clock), await Database.open(pg_target.url, clock=clock)
    a = MatchService(db_a, notifier=RecordingNotifier(), clock=clock, seed_factory=lambda: 20261123)
    b = MatchService(db_b, notifier=RecordingNotifier(), clock=clock, seed_factory=lambda: 20261123)
    try:
        record, _, _ = await finished(Env(db_a, a, clock), "firewall", PLAYERS[:2])
        await b.ending(record.id, wait=5.0)
        for _ in range(5):  # several tries: the two requests really overlap on the server
            results = await asyncio.gather(
                a.rematch(record.id, PLAYERS[0][0]), b.rematch(record.id, PLAYERS[1][0]), return_exceptions=True
            )
            made = [r for r in results if isinstance(r, MatchRecord)]
            refused = [r for r in results if isinstance(r, InvalidChallenge)]
            assert len(made) == 1 and len(refused) == 1, results
            assert "is waiting to be accepted" in str(refused[0])
            pending = [r for r in await db_a.matches.rematches_of(record) if r.status is MatchStatus.PENDING]
            assert [r.id for r in pending] == [made[0].id]
            # the other player declines it: the next round of clicks may ask again
            await a.decline(made[0].id, [u for u, _ in PLAYERS[:2] if u != made[0].challenger_id][0])
    finally:
        await a.close()
        await b.close()
        await db_a.close()
        await db_b.close()


def test_wizards_cup_card_says_a_kept_deck_in_words_not_swapped_none_for_none() -> None:
    # ux-review-2: bob kept his Deck: the card said "Swapped None for None"
    from types import SimpleNamespace

    from bot.endings import wizards_cup as wc_ending
    from rules.events import Event
    from rules.registry import get_game

    swaps = [
        Event("swap_private", "You kept your Deck.", {"seat": 1, "type": "swap", "remove": None, "add": None}),
        Event("swap_private", "", {"seat": 0, "type": "swap", "remove": "detective", "add": "mentor"}),
    ]
    fake = SimpleNamespace(
        names=["Ann", "Bob"],
        game=get_game("wizards-cup")(None, num_seats=2),
        views=[{"you": {"deck": [], "waiting": None}}] * 2,
        of_kind=lambda kind: [e for e in swaps if e.kind == kind],
    )
    lines = wc_ending.secrets(fake)  # type: ignore[arg-type]
    assert "Before round 2: kept the Deck" in lines[1]
    assert "Before round 2: swapped The Detective for The Mentor" in lines[0]
    assert "None" not in "\n".join(lines[0] + lines[1])


def test_a_rating_that_rises_for_a_lower_place_says_why() -> None:
    # ux-review-2: "3rd of 4 · 1228 (+28)" with nothing to say why a 3rd place gained rating
    from types import SimpleNamespace

    from bot.matches import Placed
    from cogs.ending import expected_place

    def fake(mus: list[float], ranks: list[int], deltas: list[int]) -> SimpleNamespace:
        changes = [
            SimpleNamespace(seat=s, mu_before=mu, display_before=1200, display_after=1200 + d, delta=d)
            for s, (mu, d) in enumerate(zip(mus, deltas, strict=True))
        ]
        places = [
            Placed(s, r, len(ranks), ranks.count(r) > 1, "win" if r == 1 else "loss") for s, r in enumerate(ranks)
        ]
        return SimpleNamespace(
            abandoned=False,
            record=SimpleNamespace(practice=False),
            names=["Ann", "Bob", "Cy", "Dee"][: len(ranks)],
            changes=changes,
            ratings_pending=False,
            placements=lambda: places,
            change=lambda seat: changes[seat],
        )

    strong_field = fake([30.0, 28.0, 20.0, 25.0], [1, 2, 3, 4], [5, 3, 28, -20])  # Cy, rated lowest, 3rd
    assert expected_place(strong_field, 2) == 4  # type: ignore[arg-type]
    assert rating_text(strong_field, 2).endswith("the ratings expected you to finish 4th.")  # type: ignore[arg-type]
    assert "\n" not in rating_text(strong_field, 0)  # type: ignore[arg-type]  # 1st and up: no surprise
    assert "\n" not in rating_text(strong_field, 3)  # type: ignore[arg-type]  # 4th and down: none either
    newcomers = fake([25.0] * 4, [1, 2, 3, 4], [60, 40, 28, 10])  # everyone new: all expected =1st
    assert "Up although 3rd: a new rating rises" in rating_text(newcomers, 2)  # type: ignore[arg-type]
    two = fake([25.0, 25.0], [1, 2], [69, 10])
    assert "\n" not in rating_text(two, 1)  # type: ignore[arg-type]  # between two a place is a win or a loss
