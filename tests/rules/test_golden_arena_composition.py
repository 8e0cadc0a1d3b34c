"""Arena golden data for a rework of the engine's structure (issue 34 item 2: ArenaState by
composition, not by mixins): seeded games recorded before the rework replay to the same log, the
same events and the same views.

20 seeded games (options varied: board size, terrain, set-up, who is Player 1, turn limit),
played through ``Match`` as the bot plays them (a move parsed afresh from its JSON, so the full
check runs, then the chance it leads to); half of them by uniform random play, a quarter by the
AI's playout policy (aggressive: knock-outs, explosions, Domination...), a quarter by the policy
against random play. Recorded per game: the log's
JSON, every event's public form (``Event.to_json`` of the public events, names filled in) and the
final views in full; per step a digest of the awaited seats, every seat's and the spectator's
view, the decisions, the legal actions, the time-out defaults, and the refusal of a stale action
(the previous step's move offered again: accepted or the reason a player reads); every 40th step
of the first games, a small seeded search's choice (the AI reads the state's queries).

Re-record (only before a rework, or for a deliberate change):
``python -m tests.rules.test_golden_arena_composition``.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.core import ActionModel, State
from rules.errors import RulesError
from rules.events import public_events
from rules.match import Match
from tests.golden.record import digest, legal_json

HERE = Path(__file__).resolve().parent
FILE = HERE / "golden_arena_composition.json.gz"
GAMES = 20
NAMES = ["Ann", "Bob"]
SEARCH_GAMES = 4
SEARCH_EVERY = 40
SEARCH_ITERATIONS = 24


def options_for(seed: int) -> dict[str, Any]:
    return {
        "grid_size": 8 + seed % 5,
        "terrain_count": 4 + (seed // 2) % 5,
        "terrain_setup": "random" if seed % 4 == 3 else "player1",
        "first_player": "challenger" if seed % 3 == 2 else "roll_off",
        "game_turn_limit": (12, 30, 0)[seed % 3] if seed % 2 == 0 else 30,
    }


def observe(state: State, stale: str) -> str:
    aw = state.awaiting
    seats = sorted(aw.seats) if not aw.is_chance and not aw.is_terminal else []
    obj = {
        "awaiting": aw.to_json(),
        "spectator": state.view(None),
        "seats": [state.view(s) for s in range(state.num_seats)],
        "decisions": [d.to_json() for d in state.decisions()],
        "legal": {str(s): legal_json(state.legal_actions(s)) for s in seats},
        "default": {str(s): (d.to_json() if (d := state.default_action(s)) else None) for s in seats},
        "stale": stale,
    }
    return digest(obj)


def refusal(state: State, seat: int, action: dict[str, Any] | None) -> str:
    """What offering ``action`` (a previous move) to ``seat`` now does: "ok" or the reason."""
    if action is None:
        return ""
    try:
        state.clone().apply(seat, action)
    except RulesError as exc:
        return f"{type(exc).__name__}: {exc}"
    return "ok"


def choose(state: State, seat: int, rng: random.Random, ai: bool) -> ActionModel:
    if ai:
        from rules.ai.arena import policy

        return policy(state, seat, rng)
    return state.sample_action(seat, rng)


def searched(state: State, seat: int, seed: int) -> dict[str, Any]:
    from rules.ai.ismcts import Budget, search

    result = search(state, seat, Budget(iterations=SEARCH_ITERATIONS), seed=seed)
    return {"action": result.action.to_json(), "value": round(result.value, 9), "iterations": result.iterations}


def play(seed: int, shadow_check: bool = False) -> dict[str, Any]:
    """Golden game ``seed``. ``shadow_check``: also play every action on a copy that does not
    narrate (as a search does) and check it sees the same views at every step."""
    match = Match.new("arena", options=options_for(seed), seed=seed, seats=NAMES)
    shadow = match.state.clone(narrate=False) if shadow_check else None
    rng = random.Random(f"golden-arena:{seed}")
    ai = {1: (0, 1), 3: (0,)}.get(seed % 4, ())
    steps = [observe(match.state, "")]
    searches: list[Any] = []
    last: dict[str, Any] | None = None
    done = len(match.log)
    n = 0
    while not match.awaiting.is_terminal:
        n += 1
        if n > 20_000:
            raise RuntimeError(f"arena golden seed {seed}: no end")
        seat = min(match.awaiting.seats)
        stale = refusal(match.state, seat, last)
        if seed < SEARCH_GAMES and n % SEARCH_EVERY == 1:
            searches.append([n, seat, searched(match.state, seat, seed * 1000 + n)])
        action = choose(match.state, seat, rng, seat in ai)
        last = action.to_json()
        match.act(seat, json.loads(json.dumps(last)))
        if shadow is not None:
            for entry in match.log[done:]:
                shadow.apply_trusted(entry.seat, match.game.parse_action(entry.action))
            assert [shadow.view(s) for s in (None, 0, 1)] == [match.state.view(s) for s in (None, 0, 1)], (
                f"seed {seed} step {n}: the search's copy sees another state"
            )
        done = len(match.log)
        steps.append(observe(match.state, stale))
    return {
        "seed": seed,
        "options": options_for(seed),
        "log": match.to_log().model_dump(mode="json"),
        "events": [e.to_json(match.seats) for e in public_events(match.events)],
        "all_events": digest([e.to_json() for e in match.events]),
        "views": [match.state.view(s) for s in (None, 0, 1)],
        "outcome": match.outcome.to_json(match.seats) if match.outcome else None,
        "steps": steps,
        "searches": searches,
    }


def record() -> None:
    games = [play(seed) for seed in range(GAMES)]
    text = json.dumps({"game": "arena", "games": games}, separators=(",", ":")) + "\n"
    FILE.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))


def load() -> list[dict[str, Any]]:
    data = json.loads(gzip.decompress(FILE.read_bytes()).decode("utf-8"))
    games: list[dict[str, Any]] = data["games"]
    assert len(games) == GAMES
    return games


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(GAMES))
def test_arena_plays_as_recorded(seed: int) -> None:
    want = load()[seed]
    got = play(seed, shadow_check=True)
    assert got["log"] == want["log"], f"seed {seed}: log"
    assert got["events"] == want["events"], f"seed {seed}: public events"
    assert got["all_events"] == want["all_events"], f"seed {seed}: events"
    assert got["views"] == want["views"], f"seed {seed}: final views"
    assert got["outcome"] == want["outcome"], f"seed {seed}: outcome"
    for i, (a, b) in enumerate(zip(got["steps"], want["steps"], strict=True)):
        assert a == b, f"seed {seed}: step {i} differs"
    assert got["searches"] == want["searches"], f"seed {seed}: searches"


def test_arena_recorded_log_replays() -> None:
    """The recorded logs replay (Match.replay, trusted chance from the log) to the recorded events."""
    for want in load()[:6]:
        match = Match.replay(want["log"])
        assert [e.to_json(match.seats) for e in public_events(match.events)] == want["events"]
        assert [match.state.view(s) for s in (None, 0, 1)] == want["views"]


if __name__ == "__main__":
    record()
    sys.exit(0)
