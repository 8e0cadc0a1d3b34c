"""The rules core: errors leave the state unchanged, logs replay exactly, the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.core import CHANCE
from rules.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn, RulesError
from rules.match import Match, MatchLog, ReplayError
from rules.wizards_cup import ChooseDeck

ROOT = Path(__file__).resolve().parents[2]


def random_game(seed: int) -> Match:
    import random

    m = Match.new("wizards-cup", seed=seed, seats=["Ann", "Bob"])
    rng = random.Random(seed)
    while not m.awaiting.is_terminal:
        seat = min(m.awaiting.seats)
        m.act(seat, m.state.sample_action(seat, rng))
    return m


def test_errors_are_value_errors_with_readable_messages():
    for cls in (MalformedAction, IllegalAction, NotYourTurn, GameOver):
        assert issubclass(cls, RulesError) and issubclass(cls, ValueError)


@pytest.mark.parametrize(
    "action, error, words",
    [
        ({"type": "teleport"}, MalformedAction, "type"),
        ({"type": "choose_deck", "cards": ["a"]}, MalformedAction, "cards"),
        ({"type": "plan", "order": ["shaman"] * 5, "waiting": "shaman"}, IllegalAction, "choose deck"),
        (
            {"type": "choose_deck", "cards": ["shaman", "shaman", "mentor", "jester", "cleric"]},
            IllegalAction,
            "different",
        ),
        ({"type": "choose_deck", "cards": ["nope", "shaman", "mentor", "jester", "cleric"]}, IllegalAction, "nope"),
    ],
)
def test_bad_input_is_refused_and_nothing_changes(action, error, words):
    m = Match.new("wizards-cup", seed=1, seats=["Ann", "Bob"])
    before = (m.state.view(0), m.state.view(1), list(m.log))
    with pytest.raises(error) as info:
        m.act(0, action)
    assert words in str(info.value).lower() or words in str(info.value)
    assert (m.state.view(0), m.state.view(1), list(m.log)) == before


def test_not_your_turn_and_game_over():
    m = random_game(5)
    with pytest.raises(GameOver):
        m.act(0, {"type": "swap"})
    m = Match.new("wizards-cup", seed=1, seats=["Ann", "Bob"])
    with pytest.raises(NotYourTurn):
        m.apply(CHANCE, {"type": "random_pick", "seat": 0, "card": "shaman"})
    with pytest.raises(IllegalAction):
        m.act(7, {"type": "swap"})


def test_forfeit_ends_the_game_for_any_seat_at_any_time():
    m = Match.new("wizards-cup", seed=1, seats=["Ann", "Bob"])
    ev = m.act(1, {"type": "forfeit", "reason": "timeout"})
    assert m.outcome.winners == [0]
    assert ev[0].render(m.seats) == "Bob ran out of time."
    assert m.outcome.to_json(m.seats)["summary"] == "Bob ran out of time; Ann wins."
    assert Match.replay(m.to_log()).outcome == m.outcome


def test_actions_round_trip_to_json():
    a = ChooseDeck(cards=("shaman", "mentor", "jester", "cleric", "matron"))
    assert ChooseDeck.model_validate(json.loads(json.dumps(a.to_json()))) == a


def test_same_seed_and_actions_same_result():
    a, b = random_game(11), random_game(11)
    assert a.to_log() == b.to_log()
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]


def test_replay_reproduces_events_and_outcome():
    m = random_game(4)
    r = Match.replay(json.loads(m.to_log().model_dump_json()))
    assert [e.to_json() for e in r.events] == [e.to_json() for e in m.events]
    assert r.outcome == m.outcome and r.log == m.log


def test_a_log_without_chance_entries_draws_them_from_the_seed():
    m = random_game(8)
    log = m.to_log().model_dump(mode="json")
    log["actions"] = [a for a in log["actions"] if a["seat"] != "chance"]
    r = Match.replay(log)
    assert r.log == m.log and r.outcome == m.outcome


def test_replay_names_the_refused_action():
    m = random_game(2)
    log = m.to_log().model_dump(mode="json")
    log["actions"][3] = {
        "seat": log["actions"][3]["seat"],
        "action": {"type": "plan", "order": ["x"] * 5, "waiting": "y"},
    }
    with pytest.raises(ReplayError) as info:
        Match.replay(log)
    assert info.value.index == 3 and info.value.to_json()["index"] == 3


def test_options_are_validated():
    with pytest.raises(MalformedAction, match="Invalid options"):
        Match.new("wizards-cup", options={"card_set": "nope"})
    with pytest.raises(MalformedAction, match="Unknown game"):
        Match.new("chess")
    with pytest.raises(IllegalAction, match="2 players"):
        Match.new("wizards-cup", seats=["a", "b", "c"])


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rules", *args], capture_output=True, text=True, cwd=ROOT)


@pytest.mark.slow
def test_cli_play_random_seed_7_ends_with_an_outcome(tmp_path):
    res = run_cli("play-random", "wizards-cup", "--seed", "7")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["outcome"]["summary"]
    path = tmp_path / "log.json"
    path.write_text(res.stdout)
    rep = run_cli("replay", str(path))
    assert rep.returncode == 0, rep.stdout
    replayed = json.loads(rep.stdout)
    assert replayed["outcome"] == out["outcome"]
    assert replayed["view"]["phase"] == "over" and "you" not in replayed["view"]


def test_cli_replay_refuses_an_illegal_action_with_exit_2(tmp_path):
    out = json.loads(run_cli("play-random", "wizards-cup", "--seed", "3").stdout)
    out.pop("outcome")
    out["actions"][2]["action"] = {"type": "choose_deck", "cards": ["a", "b", "c", "d", "e"]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(out))
    res = run_cli("replay", str(path))
    assert res.returncode == 2
    err = json.loads(res.stdout)
    assert err["index"] == 2 and err["error"] == "IllegalAction" and "reason" in err


def test_cli_replay_malformed_action_exit_2(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(
            {
                "game": "wizards-cup",
                "seed": 1,
                "seats": ["a", "b"],
                "actions": [{"seat": 0, "action": {"type": "nonsense"}}],
            }
        )
    )
    res = run_cli("replay", str(path))
    assert res.returncode == 2 and json.loads(res.stdout)["error"] == "MalformedAction"


def test_cli_play_random_with_a_wrong_seat_count_says_so(tmp_path):
    res = run_cli("play-random", "wizards-cup", "--seats", "3")
    assert res.returncode == 2 and res.stdout == "" and "Traceback" not in res.stderr
    assert res.stderr.splitlines()[-1] == (
        "python -m rules play-random: error: argument --seats: Wizards Cup is played by 2 players, not 3."
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "path", sorted((ROOT / "examples").glob("*/*.json")), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_every_example_log_replays(path):
    res = run_cli("replay", str(path))
    assert res.returncode == 0, res.stdout
    assert MatchLog.model_validate_json(path.read_text()).game == path.parent.name


def test_known_actions_equal_validated_ones():
    """ActionModel.known (no validation, for the engines' own hot paths) builds the same value as
    the validating constructor: equal, same JSON, same hash, same fields set."""
    import random

    from rules.core import Forfeit
    from rules.registry import get_game

    assert Forfeit.known(reason="timeout") == Forfeit(reason="timeout")
    assert list(Forfeit.known(reason="left").to_json()) == ["type", "reason"]
    assert Forfeit.known().to_json() == Forfeit().to_json() == {"type": "forfeit", "reason": "resign"}
    for slug in ("wizards-cup", "firewall", "magic-duel", "arena"):
        m = Match.new(slug, seed=4, seats=["a", "b"])
        rng = random.Random(4)
        for _ in range(60):
            if m.awaiting.is_terminal:
                break
            seat = min(m.awaiting.seats)
            for action in list(m.state.legal_actions(seat))[:5]:
                values = {name: getattr(action, name) for name in action.model_fields_set}
                again = type(action).known(**values)
                assert again == action and hash(again) == hash(action)
                assert json.dumps(again.to_json()) == json.dumps(action.to_json())  # same key order too
                assert get_game(slug).parse_action(again.to_json()) == again
            m.act(seat, m.state.sample_action(seat, rng))
