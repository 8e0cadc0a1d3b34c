"""The review after a match (rules/ai/review.py): the player's moves whose chance dropped most.

The constructed match (tests/fixtures/review_firewall_blunder.json) is a Firewall match of the
normal AI (Player 1) against the easy one, except that Player 1's very first turn bets all its 50
mana with no spell: that blunder must be the review's largest drop. The review reads only what the
seat could see: two logs that differ only in what the other seat hides give the same review of a
decision; and it is a function of the log (seeded searches)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.actions import Forfeit
from rules.ai.ismcts import LEVELS, search
from rules.ai.review import (
    MIN_DROP,
    TOP,
    Review,
    decisions,
    examine,
    moments,
    pick,
    position_label,
    review,
    screen,
)
from rules.match import Match, MatchLog

BLUNDER = Path(__file__).parent.parent / "fixtures" / "review_firewall_blunder.json"


@pytest.fixture(scope="module")
def blunder_log() -> MatchLog:
    return MatchLog.model_validate(json.loads(BLUNDER.read_text()))


@pytest.fixture(scope="module")
def blunder_review(blunder_log: MatchLog) -> Review:
    return review(blunder_log, 0)


def test_the_blunder_is_the_largest_drop(blunder_log: MatchLog, blunder_review: Review) -> None:
    assert blunder_log.actions[2].action == {"type": "turn", "bet": 50, "spells": [], "clone": None}
    found = blunder_review
    assert found.game == "firewall" and found.seat == 0 and found.decisions == len(decisions(blunder_log, 0))
    assert 0 < len(found.moments) <= TOP
    worst = max(found.moments, key=lambda m: m.drop)
    assert worst.step == 2 and worst.label == "Round 1, turn 1"
    assert worst.drop > 0.2 and worst.before > worst.after
    assert worst.played == blunder_log.actions[2].action and worst.best != worst.played
    assert worst.played_text == "You bet 50 and lay down no spell."
    assert worst.best_text.startswith("You bet ") and worst.best["bet"] < 50
    # in the order they were played; each a real drop, never the AI's own move
    assert [m.step for m in found.moments] == sorted(m.step for m in found.moments)
    assert all(m.drop >= MIN_DROP and m.played != m.best for m in found.moments)


@pytest.mark.slow
def test_a_review_is_a_function_of_the_log(blunder_log: MatchLog, blunder_review: Review) -> None:
    steps = decisions(blunder_log, 0)
    first = screen(blunder_log, 0, steps[:4])
    assert first == screen(blunder_log.model_dump(mode="json"), 0, steps[:4])
    # the parts give the whole (the bot runs them as separate jobs)
    assert first == screen(blunder_log, 0, steps[:1]) + screen(blunder_log, 0, steps[1:4])
    assert pick(first, 1) == [2]
    (again,) = examine(blunder_log, 0, [2])
    assert again == next(m for m in blunder_review.moments if m.step == 2)


def test_decisions_skip_forced_steps_forfeits_and_other_seats() -> None:
    match = Match.new("firewall", seed=3)
    state = match.state
    first = state.legal_actions(0)[0]
    match.act(0, first)
    match.act(1, match.state.legal_actions(1)[0])
    match.apply(0, Forfeit())
    log = match.to_log()
    assert decisions(log, 0) == [2]
    assert decisions(log, 1) == [3]
    with pytest.raises(ValueError):
        decisions(log, 2)


def _firewall_opening(order: list[int]) -> MatchLog:
    """Player 1's first turn, with Player 2's shuffled deck (its hidden hand) given."""
    match = Match.new("firewall", seed=11)
    data = match.to_log().model_dump(mode="json")
    assert data["actions"][1]["action"]["type"] == "shuffle" and data["actions"][1]["seat"] == "chance"
    data["actions"][1]["action"]["order"] = order
    replayed = Match.replay(data)
    replayed.act(0, {"type": "turn", "bet": 40, "spells": [], "clone": None})
    return replayed.to_log()


@pytest.mark.slow
def test_the_review_reads_only_what_the_seat_could_see() -> None:
    # Firewall: the same first turn of Player 1 against two different hidden hands of Player 2
    dealt = Match.new("firewall", seed=11).to_log().actions[1].action["order"]
    one, other = _firewall_opening(list(dealt)), _firewall_opening(list(reversed(dealt)))
    assert one.actions[1] != other.actions[1] and one.actions[2] == other.actions[2]
    assert decisions(one, 0) == decisions(other, 0) == [2]
    assert screen(one, 0, [2]) == screen(other, 0, [2])
    assert examine(one, 0, [2]) == examine(other, 0, [2])


def _wizards_cup_opening(their_deck_pick: int) -> MatchLog:
    """Player 2 (the computer) chooses its secret Deck first, then Player 1 chooses its own."""
    match = Match.new("wizards-cup", seed=4)
    theirs = match.state.legal_actions(1)
    match.act(1, theirs[their_deck_pick])
    mine = match.state.legal_actions(0)
    match.act(0, mine[len(mine) // 2])
    return match.to_log()


@pytest.mark.slow
def test_the_computers_secret_choice_does_not_change_the_review() -> None:
    one, other = _wizards_cup_opening(0), _wizards_cup_opening(-1)
    assert one.actions[2] != other.actions[2] and one.actions[3] == other.actions[3]
    assert decisions(one, 0) == [3]
    first, second = examine(one, 0, [3]), examine(other, 0, [3])
    assert first == second
    for moment in first:  # told as Player 1 is told: its own Deck, nothing of the other's
        assert moment.played_text.startswith("Your Deck: ") and moment.best_text.startswith("Your Deck: ")
        assert moment.label == "Round 1"


def test_moments_keep_the_largest_drops_in_play_order(blunder_review: Review) -> None:
    found = list(blunder_review.moments)
    assert moments(found, 1) == (max(found, key=lambda m: m.drop),)
    assert moments([]) == ()


def test_search_limited_to_root_actions() -> None:
    state = Match.new("firewall", seed=2).state
    legal = state.legal_actions(0)
    budget = LEVELS["easy"]
    plain = search(state, 0, budget, seed=9)
    assert search(state, 0, budget, seed=9, root_actions=None) == plain  # the default is unchanged
    pick_one = legal[3]
    forced = search(state, 0, budget, seed=9, root_actions=[pick_one])
    assert forced.action == pick_one and set(forced.stats) == {pick_one}
    assert forced.stats[pick_one][0] == forced.iterations  # every iteration, no early stop
    assert forced.value == pytest.approx(forced.stats[pick_one][1])
    two = search(state, 0, budget, seed=9, root_actions=[legal[0], legal[1]])
    assert set(two.stats) <= {legal[0], legal[1]}
    with pytest.raises(ValueError):
        search(state, 0, budget, seed=9, root_actions=[])
    with pytest.raises(ValueError):
        search(state, 1, budget, seed=9, root_actions=[state.legal_actions(1)[0].model_copy(update={"bet": 999})])


@pytest.mark.parametrize(
    ("slug", "label"),
    [
        ("wizards-cup", "Round 1"),
        ("firewall", "Round 1, turn 1"),
        ("magic-duel", "Hand 1 · trick 1"),
        ("arena", "Set-up"),
    ],
)
def test_position_labels(slug: str, label: str) -> None:
    state = Match.new(slug, seed=1).state
    seat = min(state.awaiting.seats)
    assert position_label(state, seat) == label


def _strings(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for v in value.values() for s in _strings(v)}
    if isinstance(value, list | tuple):
        return {s for v in value for s in _strings(v)}
    return set()


@pytest.mark.slow
def test_the_review_never_names_the_opponents_unseen_cards() -> None:
    """A Magic Duel of a random Player 1 against the easy AI: no moment's text names a card of the
    computer's hand that Player 1 could not see at that move."""
    import random

    from rules.ai import ai_player
    from rules.magic_duel.cards import label

    match = Match.new("magic-duel", options={"points_to_win": 1}, seed=6)
    rng, computer = random.Random(6), ai_player("easy")
    while not match.awaiting.is_terminal:
        seat = min(match.awaiting.seats)
        state = match.state
        action = state.sample_action(0, rng) if seat == 0 else computer(state.clone(narrate=False), seat, rng)
        match.act(seat, action)
    log = match.to_log()
    found = review(log, 0)
    assert found.decisions > 3 and found.moments
    by_step = {m.step: m for m in found.moments}
    replayed = Match.replay({**log.model_dump(mode="json"), "actions": []}, finish_chance=False)
    checked = 0
    for index, entry in enumerate(log.actions):
        if index in by_step:
            state = replayed.state
            seen = _strings(state.view(0))
            theirs = set(state.view(1)["you"]["hand"])
            hidden = {label(c) for c in theirs - seen} - {label(c) for c in seen if isinstance(c, str) and len(c) <= 3}
            moment = by_step[index]
            told = f"{moment.played_text} {moment.best_text}"
            assert hidden and not any(card in told for card in hidden), (told, hidden)
            checked += 1
        replayed.apply(entry.seat, entry.action)
    assert checked == len(found.moments)
