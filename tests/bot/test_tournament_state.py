"""Tournament state: JSON round trips (and a stored version-1 snapshot that must keep reading),
determinism for a seed, validation errors that change nothing, drops, time-outs and no-shows,
and the pairing benchmark's function."""

from __future__ import annotations

import json
import random

import pytest

from bench.tournament import played_swiss, swiss_pairing_seconds
from bot.tournaments import (
    BadPlayers,
    BadResult,
    BadRounds,
    BadSnapshot,
    Player,
    TooFewPlayers,
    Tournament,
    TournamentError,
    UnknownFormat,
    UnknownGame,
    WrongState,
    recommended_rounds,
)
from bot.tournaments.model import ResultKind


def play_round(t: Tournament, rng: random.Random) -> None:
    for m in t.next_round().matches:
        if m.finished:
            continue
        if len(m.seats) == 2:
            roll = rng.random()
            if roll < 0.1:
                t.report_timeout(m.id, [m.seats[1]])
            elif roll < 0.2 and t.format.value != "single_elimination":
                t.report_draw(m.id)
            else:
                t.report_win(m.id, rng.choice(m.seats), games={m.seats[0]: 2, m.seats[1]: 1})
        else:
            order = list(m.seats)
            rng.shuffle(order)
            t.report_placements(m.id, {p: i + 1 for i, p in enumerate(order)})


@pytest.mark.parametrize(
    ("game", "fmt", "n"),
    [
        ("firewall", "swiss", 9),
        ("magic-duel", "swiss", 11),
        ("arena", "round_robin", 7),
        ("wizards-cup", "single_elimination", 11),
        ("magic-duel", "single_elimination", 13),
    ],
)
def test_json_round_trip_mid_tournament_and_same_future(game: str, fmt: str, n: int) -> None:
    """A snapshot taken mid-tournament (a restart) reads back equal and pairs the same next round."""
    rng = random.Random(n)
    t = Tournament.create(game, fmt, [Player(100 + i, rating=rng.uniform(1000, 2000)) for i in range(n)], seed=42)
    play_round(t, rng)
    t.drop(t.active()[0].id)
    t.next_round()  # a round under way: no results yet
    text = t.to_json()
    back = Tournament.from_json(text)
    assert back == t
    assert back.to_json() == text
    json.loads(text)  # plain JSON
    # finish the round identically on both, then both pair the same next round
    for copy in (t, back):
        r = random.Random(1)
        for m in copy.rounds[-1].matches:
            if not m.finished:
                if len(m.seats) == 2:
                    copy.report_win(m.id, m.seats[r.randrange(2)])
                else:
                    copy.report_placements(m.id, {p: i + 1 for i, p in enumerate(m.seats)})
    if not t.finished:
        assert [m.seats for m in t.next_round().matches] == [m.seats for m in back.next_round().matches]
    assert t.to_json() == back.to_json()


@pytest.mark.parametrize(("game", "fmt", "n"), [("firewall", "swiss", 9), ("magic-duel", "single_elimination", 13)])
def test_a_copy_is_equal_and_independent(game: str, fmt: str, n: int) -> None:
    """``copy()`` (what the service hands out of its parsed cache) equals the original and
    reads back the same JSON; reporting, dropping and pairing on the copy leave the original as
    it was, and the other way round."""
    rng = random.Random(n)
    t = Tournament.create(game, fmt, [Player(100 + i, rating=rng.uniform(1000, 2000)) for i in range(n)], seed=4)
    play_round(t, rng)
    t.next_round()
    text = t.to_json()
    c = t.copy()
    assert c == t and c.to_json() == text
    for m in c.rounds[-1].matches:
        if not m.finished:
            if len(m.seats) == 2:
                c.report_win(m.id, m.seats[0])
            else:
                c.report_placements(m.id, {p: i + 1 for i, p in enumerate(m.seats)})
    c.drop(c.active()[0].id)
    if not c.finished:
        c.next_round()
    assert t.to_json() == text and c.to_json() != text
    again = t.copy()
    t.drop(t.active()[-1].id)
    assert again.to_json() == text


V1_SNAPSHOT = """
{"version": 1, "game": "firewall", "format": "swiss", "rounds_planned": 2, "seed": 5,
 "third_place": false, "miss_limit": 2,
 "players": [{"id": 11, "rating": 1500.0, "seed": 1}, {"id": 12, "rating": 1400.0, "seed": 2},
             {"id": 13, "rating": 1300.0, "seed": 3, "dropped": true, "dropped_after": 1}],
 "rounds": [{"number": 1, "matches": [
    {"id": "R1-M1", "round": 1, "seats": [12, 11],
     "result": {"placements": [2, 1], "kind": "played", "games": [1, 2]}},
    {"id": "R1-M2", "round": 1, "seats": [13], "bye": true, "result": {"placements": [1], "kind": "bye"}}]}],
 "a_key_from_a_later_version": {"ignored": true}}
"""


def test_a_stored_version_1_snapshot_still_reads() -> None:
    """The JSON form is stable: this literal must keep reading (later versions add keys only)."""
    t = Tournament.from_json(V1_SNAPSHOT)
    assert t.game == "firewall" and t.rounds_planned == 2 and t.seed == 5
    assert t.player(13).dropped and t.player(13).dropped_after == 1
    s = t.standings()
    assert s.row(11).match_points == 3 and s.row(13).match_points == 3 and s.row(12).match_points == 0
    assert s.row(11).gwp == pytest.approx(6 / 9)
    rnd = t.next_round()
    assert [sorted(m.seats) for m in rnd.matches] == [[11, 12]], "the dropped player is not paired"


@pytest.mark.parametrize(
    "text",
    ["not json", "[]", '{"version": 1}', '{"game": "chess", "format": "swiss", "players": [], "rounds_planned": 1}'],
)
def test_bad_snapshots_are_refused_with_a_typed_error(text: str) -> None:
    with pytest.raises(BadSnapshot):
        Tournament.from_json(text)


def test_determinism_for_a_seed() -> None:
    def whole(seed: int) -> str:
        rng = random.Random(0)
        t = Tournament.create("firewall", "swiss", [Player(i) for i in range(1, 24)], seed=seed)
        while not t.finished:
            play_round(t, rng)
        return t.to_json()

    assert whole(3) == whole(3)
    assert whole(3) != whole(4)


def test_recommended_rounds() -> None:
    assert [recommended_rounds(n) for n in (2, 3, 4, 5, 8, 9, 64, 65, 256)] == [1, 2, 2, 3, 3, 4, 6, 7, 8]
    assert recommended_rounds(7, "round_robin") == 7 and recommended_rounds(8, "round_robin") == 7
    assert recommended_rounds(9, "single_elimination") == 4


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"format": "ladder"}, UnknownFormat, "Unknown tournament format"),
        ({"game": "chess"}, UnknownGame, "Unknown game"),
        ({"players": [1]}, TooFewPlayers, "at least 2 players"),
        ({"players": []}, TooFewPlayers, "at least 2 players"),
        ({"game": "magic-duel", "players": [1]}, TooFewPlayers, "at least 2 players"),
        ({"players": [1, 2, 2]}, BadPlayers, "entered twice"),
        ({"rounds": 0}, BadRounds, "allows 1 to 3 rounds"),
        ({"rounds": 4}, BadRounds, "allows 1 to 3 rounds"),
        ({"format": "round_robin", "rounds": 2}, BadRounds, "has 3 rounds"),
        ({"format": "single_elimination", "rounds": 5}, BadRounds, "has 2 rounds"),
        ({"third_place": True}, TournamentError, "only in single elimination"),
        ({"miss_limit": 0}, TournamentError, "at least 1"),
        ({"game": "magic-duel", "format": "single_elimination", "third_place": True}, TournamentError, "final table"),
    ],
)
def test_validation_errors_are_typed_value_errors(
    kwargs: dict[str, object], error: type[Exception], words: str
) -> None:
    args: dict[str, object] = {"game": "firewall", "format": "swiss", "players": [1, 2, 3, 4]}
    args.update(kwargs)
    with pytest.raises(error, match=words) as info:
        Tournament.create(
            str(args["game"]),
            str(args["format"]),
            args["players"],  # type: ignore[arg-type]
            **{k: v for k, v in args.items() if k not in ("game", "format", "players")},  # type: ignore[arg-type]
        )
    assert isinstance(info.value, ValueError)


def test_refusals_change_nothing() -> None:
    t = Tournament.create("firewall", "single_elimination", [1, 2, 3, 4], seed=1)
    rnd = t.next_round()
    before = t.to_json()
    m = rnd.matches[0]
    with pytest.raises(WrongState, match="not over"):
        t.next_round()
    with pytest.raises(BadResult, match="needs a winner"):
        t.report_draw(m.id)
    with pytest.raises(BadResult, match="did not play"):
        t.report_win(m.id, 99)
    with pytest.raises(BadResult, match="no match"):
        t.report_win("R9-M9", 1)
    with pytest.raises(BadResult, match="exactly its players"):
        t.report_placements(m.id, {m.seats[0]: 1})
    with pytest.raises(BadPlayers):
        t.drop(99)
    assert t.to_json() == before
    for match in rnd.matches:
        t.report_win(match.id, match.seats[0])
    t.next_round()
    with pytest.raises(WrongState, match="which is over"):
        t.report_win(m.id, m.seats[1])


def test_drop_turns_the_pending_match_into_a_walkover_and_is_never_paired_again() -> None:
    rng = random.Random(2)
    t = Tournament.create("wizards-cup", "swiss", [Player(i) for i in range(1, 9)], rounds=5, seed=2)
    rnd = t.next_round()
    m = rnd.matches[0]
    quitter, other = m.seats[0], m.seats[1]
    changed = t.drop(quitter)
    assert changed == [m] and m.seats == (other,) and m.bye
    assert m.result is not None and m.result.kind is ResultKind.WALKOVER
    with pytest.raises(WrongState, match="already dropped"):
        t.drop(quitter)
    for x in rnd.matches[1:]:
        t.report_win(x.id, x.seats[0])
    assert t.standings().row(other).match_points == 3
    while not t.finished:
        play_round(t, rng)
        assert all(quitter not in x.seats for x in t.rounds[-1].matches)
    assert t.standings().row(quitter).dropped


def test_players_who_miss_matches_in_a_row_are_named_for_dropping() -> None:
    t = Tournament.create("firewall", "swiss", [Player(i, rating=10 - i) for i in range(1, 7)], rounds=5, seed=0)
    absent = 6
    for _ in range(3):
        for m in t.next_round().matches:
            if m.finished:
                continue
            if absent in m.seats:
                t.report_timeout(m.id, [absent])
            else:
                t.report_win(m.id, m.seats[0])
        # the first miss is not enough; the second (default setting 2) is
        if len(t.rounds) == 1:
            assert t.players_to_drop() == [] and t.players_to_drop(limit=1) == [absent]
        if len(t.rounds) == 2:
            assert t.players_to_drop() == [absent]
            assert t.missed_in_a_row(absent) == 2
            t.drop(absent)
            assert t.players_to_drop() == []
    assert all(absent not in m.seats for m in t.rounds[-1].matches)
    assert t.standings().row(absent).match_points == 0, "a forfeit by time is a loss"
    with pytest.raises(TournamentError):
        t.players_to_drop(limit=0)


def test_a_win_after_a_miss_resets_the_count() -> None:
    t = Tournament.create("arena", "round_robin", [1, 2, 3, 4], seed=0, miss_limit=2)
    for absent_rounds in ([1], [], [1]):
        for m in t.next_round().matches:
            if 1 in m.seats and absent_rounds:
                t.report_timeout(m.id, [1])
            else:
                t.report_win(m.id, m.seats[0])
    assert t.missed_in_a_row(1) == 1 and t.players_to_drop() == []


def test_the_whole_field_dropping_ends_a_swiss() -> None:
    t = Tournament.create("firewall", "swiss", [1, 2, 3], rounds=3, seed=0)
    rnd = t.next_round()
    t.drop(1)
    t.drop(2)
    for m in rnd.matches:
        if not m.finished:
            t.report_win(m.id, m.seats[0])
    assert t.finished
    with pytest.raises(WrongState, match="over"):
        t.next_round()


def test_drops_during_sign_up_reshape_the_bracket() -> None:
    t = Tournament.create("firewall", "single_elimination", [Player(i, rating=100 - i) for i in range(1, 6)], seed=0)
    assert t.rounds_planned == 3
    t.drop(5)
    rnd = t.next_round()
    assert t.rounds_planned == 2 and len(rnd.matches) == 2 and not any(m.bye for m in rnd.matches)


def test_swiss_pairing_benchmark_function() -> None:
    t = played_swiss(16, 2, seed=3)
    assert len(t.rounds) == 2 and t.round_complete
    assert 0 < swiss_pairing_seconds(32, round_number=4, repeats=1) < 5
