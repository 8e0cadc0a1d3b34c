"""One contract, every registered game (as OpenSpiel's random_sim_test runs one API check on every
game): random legal play ends and replays identically; every action round-trips through JSON;
illegal input (another seat's turn, mutated actions, garbage) is refused with a typed error and
changes nothing; ``is_legal`` agrees with ``apply``; the decision API agrees with the legal actions
(choices, bounds, defaults, simultaneity); views hide what they must; ``clone`` is independent and
``apply_trusted`` plays exactly as ``apply``.

Game-specific rules and invariants live in each game's own tests."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from rules.core import CHANCE, ActionModel, Actor, State
from rules.errors import NotYourTurn, RulesError
from rules.match import Match, MatchLog
from rules.registry import game_slugs, get_game
from tests.toy_game import TOY

pytestmark = pytest.mark.usefixtures("toy_game")  # the toy game (tests/toy_game.py) is registered

SLUGS = [*game_slugs(), TOY.slug]  # the toy game too (registered for every test here)
GAMES = 4  # random games per game and test
MAX_ACTIONS = 20_000
LISTED = 3000  # enumerate choices up to this many; sample beyond


def seats_for(slug: str, seed: int) -> int:
    cls = get_game(slug)
    return int(cls.min_seats + seed % (cls.max_seats - cls.min_seats + 1))


def new_match(slug: str, seed: int) -> Match:
    n = seats_for(slug, seed)
    return Match.new(slug, seed=seed, seats=[f"P{i + 1}" for i in range(n)])


def observe(state: State) -> str:
    """Everything observable of a state, as one string (views of every seat, awaiting, decisions)."""
    views = [state.view(None)] + [state.view(s) for s in range(state.num_seats)]
    decisions = [d.to_json() for d in state.decisions()]
    legal = {s: [a.to_json() for a in sample(state.legal_actions(s), 30)] for s in sorted(state.awaiting.seats)}
    return json.dumps([views, state.awaiting.to_json(), decisions, legal], sort_keys=True, default=str)


def sample(seq: Sequence[Any], k: int) -> list[Any]:
    """Up to ``k`` items spread over ``seq`` (first, last and evenly between)."""
    n = len(seq)
    if n <= k:
        return list(seq)
    return [seq[(i * (n - 1)) // (k - 1)] for i in range(k)]


def play_out(slug: str, seed: int) -> Match:
    """The match of ``play`` played to its end."""
    steps = play(slug, seed)
    match = next(steps)[0]
    for _step in steps:
        pass
    return match


def play(slug: str, seed: int) -> Iterator[tuple[Match, Actor]]:
    """Random legal play to the end, yielding (match, seat to move) before every player move."""
    match = new_match(slug, seed)
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if match.awaiting.is_terminal:
            return
        seat = min(match.awaiting.seats)
        yield match, seat
        match.act(seat, match.state.sample_action(seat, rng))
    raise AssertionError(f"{slug} seed {seed}: random play did not end in {MAX_ACTIONS} actions")


# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_random_play_ends_and_replays_identically(slug: str) -> None:
    for seed in range(GAMES):
        match = play_out(slug, seed)
        assert match.outcome is not None
        assert match.state.legal_actions(0) == [] and match.state.decisions() == ()
        log = json.loads(json.dumps(match.to_log().model_dump(mode="json")))
        again = Match.replay(MatchLog.model_validate(log))
        assert [e.to_json() for e in again.events] == [e.to_json() for e in match.events]
        assert again.state.view(None) == match.state.view(None)
        assert again.outcome == match.outcome
        # the same seed and the same choices make the same match
        twin = play_out(slug, seed)
        assert twin.to_log() == match.to_log()


@pytest.mark.parametrize("slug", SLUGS)
def test_every_action_round_trips_through_json(slug: str) -> None:
    game_cls = get_game(slug)
    for seed in range(GAMES):
        for match, seat in play(slug, seed):
            for action in sample(match.state.legal_actions(seat), 40):
                data = json.loads(json.dumps(action.to_json()))
                assert game_cls.parse_action(data) == action
        for entry in match.log:
            assert game_cls.parse_action(entry.action).to_json() == entry.action


@pytest.mark.parametrize("slug", SLUGS)
def test_the_decision_api_agrees_with_the_legal_actions(slug: str) -> None:
    """Decisions name the awaited seats, their choices are the legal actions (and sampling draws
    among them as the core defines it), bounds are tight, defaults are legal."""
    for seed in range(GAMES):
        for match, _ in play(slug, seed):
            state = match.state
            awaited = state.awaiting.seats
            decisions = state.decisions()
            assert [d.seat for d in decisions] == sorted(awaited)
            for s in range(state.num_seats):
                if s not in awaited:
                    assert state.asked(s) is None and len(state.legal_actions(s)) == 0
            for d in decisions:
                legal = state.legal_actions(d.seat)
                assert d.kind and len(d.choices) == len(legal) > 0
                assert sample(d.choices, 50) == sample(legal, 50)
                # a game's own sample_action (a fast path) draws exactly as the core defines it
                k = len(state.legal_actions(d.seat))
                for r in range(3):
                    want = legal[random.Random(f"{seed}:{r}").randrange(k)]
                    assert state.sample_action(d.seat, random.Random(f"{seed}:{r}")) == want
                if len(awaited) > 1:
                    assert d.simultaneous, f"{slug}: {d.kind} is asked of several seats at once"
                if d.default is not None:
                    assert state.is_legal(d.seat, d.default), f"{slug}: default {d.default} is not legal"
                for bound in d.bounds:
                    assert bound.low <= bound.high, (d.kind, bound)
                    listed = sample(d.choices, LISTED)
                    assert any(bound.field in type(a).model_fields for a in listed), (
                        f"{slug}: {d.kind} bounds {bound.field}, which no choice's action has"
                    )
                    values = [
                        v
                        for a in listed
                        if isinstance(v := a.to_json().get(bound.field), int) and not isinstance(v, bool)
                    ]
                    assert all(v in bound for v in values), f"{slug}: {d.kind} {bound} vs {sorted(set(values))}"
                    if values and len(d.choices) <= LISTED:
                        assert min(values) == bound.low and max(values) == bound.high, (d.kind, bound)


def mutations(action: ActionModel, others: Sequence[ActionModel], rng: random.Random) -> list[Any]:
    """Wrong inputs made from a legal action: fields changed, dropped or added, wrong types."""
    data = action.to_json()
    out: list[Any] = [None, 7, "forfeit", [], {}, {"type": "no_such_action"}, {**data, "extra": 1}]
    for key, value in data.items():
        if key == "type":
            continue
        out.append({k: v for k, v in data.items() if k != key})
        if isinstance(value, bool):
            out += [{**data, key: not value}, {**data, key: "yes"}]
        elif isinstance(value, int):
            out += [{**data, key: v} for v in (value + 1, value - 1, -1, 10**6, str(value), 1.5)]
        elif isinstance(value, str):
            out += [{**data, key: v} for v in ("", "zzz", 3, value.upper())]
        elif isinstance(value, list):
            mutated = [[], value + value[:1], value[1:], list(reversed(value)), [0], ["zzz"]]
            out += [{**data, key: v} for v in mutated]
        elif value is None:
            out += [{**data, key: 0}, {**data, key: "zzz"}]
        elif isinstance(value, dict):
            out += [{**data, key: {}}, {**data, key: 3}]
    for other in others[:3]:
        out.append({**other.to_json(), **{k: v for k, v in data.items() if k != "type"}})
    rng.shuffle(out)
    return out[:24]


@pytest.mark.slow
@pytest.mark.parametrize("slug", SLUGS)
def test_illegal_input_is_refused_and_changes_nothing(slug: str) -> None:
    refused = 0
    for seed in range(GAMES):
        rng = random.Random(f"illegal:{seed}")
        for match, seat in play(slug, seed):
            if rng.random() > 0.35:
                continue
            state = match.state
            before = observe(state)
            log_before = list(match.log)
            assert isinstance(seat, int)
            # a seat the game does not wait for
            for other in range(state.num_seats):
                if other not in state.awaiting.seats:
                    legal = state.legal_actions(seat)
                    with pytest.raises(NotYourTurn):
                        match.act(other, legal[0])
                    assert not state.is_legal(other, legal[0])
                    refused += 1
            with pytest.raises(RulesError):
                match.act(state.num_seats + 3, state.legal_actions(seat)[0])
            with pytest.raises(NotYourTurn):
                match.apply(CHANCE, state.legal_actions(seat)[0])
            # mutated actions: refused with the state unchanged, or legal (and then applicable)
            legal = state.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            for wrong in mutations(action, sample(legal, 8), rng):
                if state.is_legal(seat, wrong):
                    trial = state.clone()
                    trial.apply(seat, wrong)
                    continue
                with pytest.raises(RulesError) as info:
                    match.act(seat, wrong)
                assert str(info.value).strip(), "a refusal says why"
                assert match.state is state
                refused += 1
            assert observe(state) == before and match.log == log_before
    assert refused > 20


@pytest.mark.parametrize("slug", SLUGS)
def test_a_refused_action_leaves_the_game_playing_exactly_as_before(slug: str) -> None:
    """Refusals sprinkled through a game change nothing: it ends exactly as the same game without them."""
    for seed in range(2):
        rng = random.Random(f"sprinkle:{seed}")
        for match, seat in play(slug, seed):
            legal = match.state.legal_actions(seat)
            for wrong in mutations(legal[0], [], rng)[:4]:
                if not match.state.is_legal(seat, wrong):
                    with pytest.raises(RulesError):
                        match.act(seat, wrong)
        clean = play_out(slug, seed)
        assert clean.to_log() == match.to_log()
        assert [e.to_json() for e in clean.events] == [e.to_json() for e in match.events]


@pytest.mark.slow
@pytest.mark.parametrize("slug", SLUGS)
def test_clone_is_independent_and_apply_trusted_plays_as_apply(slug: str) -> None:
    for seed in range(GAMES):
        rng = random.Random(f"clone:{seed}")
        for match, seat in play(slug, seed):
            state = match.state
            if rng.random() > 0.3:
                continue
            before = observe(state)
            twin = state.clone()
            trusted = state.clone()
            assert observe(twin) == before
            action = state.sample_action(seat, random.Random(rng.random()))
            checked_events = twin.apply(seat, action)
            trusted_events = trusted.apply_trusted(seat, action)
            assert [e.to_json() for e in checked_events] == [e.to_json() for e in trusted_events]
            assert observe(twin) == observe(trusted)
            assert observe(state) == before, f"{slug}: applying to a clone changed the original"
            # and the clone plays on to the same end as a deep copy would
            deep = copy.deepcopy(twin)
            while not twin.awaiting.is_terminal and rng.random() < 0.9:
                actor: Actor = CHANCE if twin.awaiting.is_chance else min(twin.awaiting.seats)
                a = twin.sample_action(actor, rng)
                assert [e.to_json() for e in twin.apply(actor, a)] == [e.to_json() for e in deep.apply(actor, a)]
            assert observe(twin) == observe(deep)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_state_that_does_not_narrate_plays_exactly_as_one_that_does(slug: str) -> None:
    """``clone(narrate=False)`` (a search's copy): every apply returns no events, and the state
    (views, decisions, legal actions, outcome) follows the narrating one step for step."""
    for seed in range(GAMES):
        match = new_match(slug, seed)
        narrated = match.state.clone()
        quiet = match.state.clone(narrate=False)
        assert quiet.narrate is False and narrated.narrate is True and match.state.narrate is True
        assert quiet.clone().narrate is False and quiet.clone(narrate=True).narrate is True
        rng = random.Random(f"quiet:{seed}")
        steps = 0
        while not narrated.awaiting.is_terminal and steps < MAX_ACTIONS:
            actor: Actor = CHANCE if narrated.awaiting.is_chance else min(narrated.awaiting.seats)
            action = narrated.sample_action(actor, rng)
            narrated.apply_trusted(actor, action)
            assert quiet.apply_trusted(actor, action) == []
            steps += 1
            if steps % 3 == 0 or narrated.awaiting.is_terminal:
                assert observe(quiet) == observe(narrated), f"{slug} seed {seed}: step {steps} differs"
        assert quiet.awaiting.is_terminal and quiet.outcome == narrated.outcome


@pytest.mark.parametrize("slug", SLUGS)
def test_views_hide_what_they_must(slug: str) -> None:
    """The spectator view has no seat's private block; a seat's view is its own; and while other seats
    still owe a simultaneous secret choice, what one seat chose changes nothing the others can see."""
    for seed in range(GAMES):
        rng = random.Random(f"secret:{seed}")
        for match, _ in play(slug, seed):
            state = match.state
            assert "you" not in state.view(None)
            for s in range(state.num_seats):
                you = state.view(s).get("you")
                assert you is None or you.get("seat") == s
            for d in state.decisions():
                if not (d.secret and d.simultaneous and len(state.awaiting.seats) > 1) or len(d.choices) < 2:
                    continue
                picks = sample(d.choices, 6)
                rng.shuffle(picks)
                seen = set()
                for pick in picks[:3]:
                    trial = state.clone()
                    events = trial.apply(d.seat, pick)
                    public = [e.to_json() for e in events if e.visible_to is None]
                    others = [trial.view(s) for s in range(state.num_seats) if s != d.seat]
                    seen.add(json.dumps([trial.view(None), others, public], sort_keys=True, default=str))
                assert len(seen) == 1, f"{slug}: {d.kind} of seat {d.seat} shows through before the reveal"
            for event in match.events:
                assert event.visible_to is None or event.visible_to <= set(range(state.num_seats))
