"""rules.story: a match told as a story. Secret events are named with their owner and told in the
third person once revealed ("(secret, ann) ann bets 16 and lays down ..."), never in a wrong
sentence; notices that only say a seat submitted are left out; spectators never see a secret."""

from __future__ import annotations

import random

import pytest

from rules.events import Event, Outcome
from rules.match import Match
from rules.registry import game_slugs
from rules.story import notice_kinds, owner_names, story_lines, story_text, third_person, told


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # every sentence shape the engines write for a secret's owner
        ("You bet 25 and lay down False Card (0), Clone (2).", "ann bets 25 and lays down False Card (0), Clone (2)."),
        ("Your stock is empty: you draw nothing.", "ann's stock is empty: they draw nothing."),
        ("You kept your Deck.", "ann kept their Deck."),
        ("You swapped The Geomancer for The Revolutionary.", "ann swapped The Geomancer for The Revolutionary."),
        ("Your Deck: The Mentor, The Detective.", "ann's Deck: The Mentor, The Detective."),
        ("Your hand: 3♦ 3♥ 5♣.", "ann's hand: 3♦ 3♥ 5♣."),
        ("You put J♥ on the Deck of Risk.", "ann puts J♥ on the Deck of Risk."),
        ("You cast Cantrip (K♠) face-down.", "ann casts Cantrip (K♠) face-down."),
        ("You draw 6♣ 10♣.", "ann draws 6♣ 10♣."),
        ("Nothing about anyone.", "Nothing about anyone."),
    ],
)
def test_third_person(text: str, expected: str) -> None:
    assert third_person(text, "ann") == expected


def test_an_unknown_verb_keeps_the_owners_words() -> None:
    assert third_person("You frobnicate the wall.", "ann") is None
    event = Event("x_private", "You frobnicate the wall.", visible_to=frozenset({0}))
    assert told(event, ["ann", "bob"], revealed=True) == "(secret, ann) You frobnicate the wall."


def test_secret_events_are_named_with_their_owners() -> None:
    names = ["ann", "bob", "cy"]
    mine = Event("bet_private", "You bet 7.", visible_to=frozenset({0}))
    shared = Event("peek", "{p1} and {p3} see the top card: 9.", visible_to=frozenset({2, 0}))
    public = Event("reveal", "{p1} bets 7.")
    assert told(mine, names, revealed=True) == "(secret, ann) ann bets 7."
    assert told(shared, names, revealed=True) == "(secret, ann, cy) ann and cy see the top card: 9."
    assert told(public, names, revealed=True) == "ann bets 7."
    assert owner_names(shared, names) == ["ann", "cy"] and owner_names(public, names) == []


def test_spectators_see_no_secret_and_nobody_sees_notices() -> None:
    events = [
        Event("submitted", "{p1} is ready."),
        Event("submitted_private", "You bet 3.", visible_to=frozenset({0})),
        Event("reveal", "{p1} bets 3."),
    ]
    spectator = story_lines(events, ["ann", "bob"], game="firewall", revealed=False)
    assert [(line.index, line.text, line.secret) for line in spectator] == [(2, "ann bets 3.", False)]
    ann = story_lines(events, ["ann", "bob"], game="firewall", revealed=False, seat=0)
    assert [(line.index, line.text, line.secret) for line in ann] == [
        (1, "You bet 3.", True),
        (2, "ann bets 3.", False),
    ]
    assert story_lines(events, ["ann", "bob"], game="firewall", revealed=False, seat=1) == spectator
    revealed = story_lines(events, ["ann", "bob"], game="firewall", revealed=True, start=1)
    assert [(line.index, line.text) for line in revealed] == [(2, "(secret, ann) ann bets 3."), (3, "ann bets 3.")]


def test_every_game_has_its_notices_listed_and_they_are_public_notices_only() -> None:
    assert {"wizards-cup", "firewall", "magic-duel", "arena"} <= set(game_slugs())
    for slug in game_slugs():
        m = Match.new(slug, seed=11, seats=["ann", "bob"])
        rng = random.Random(11)
        while not m.awaiting.is_terminal:
            s = min(m.awaiting.seats)
            m.act(s, m.state.sample_action(s, rng))
        for e in m.events:
            if e.kind in notice_kinds(slug):
                assert e.visible_to is None and set(e.data) <= {"seat"}, e  # says only who submitted
        for e in m.events:  # every secret sentence of a real match reads in the third person
            if e.visible_to is not None and len(e.visible_to) == 1:
                line = told(e, m.seats, revealed=True)
                assert "You " not in line and "Your " not in line, line


def test_story_text_ends_with_the_outcome() -> None:
    events = [Event("reveal", "{p1} bets 3."), Event("game_end", "{p2} wins.")]
    outcome = Outcome.single_winner(2, 1, "{p2} wins.")
    text = story_text(events, ["ann", "bob"], game="firewall", title="Firewall, seed 1", outcome=outcome)
    assert text.splitlines() == [
        "Firewall, seed 1",
        "Players: ann, bob",
        "",
        "1. ann bets 3.",
        "2. bob wins.",
        "",
        "Outcome: bob wins.",
        "  ann: loss (place 2) - bob wins.",
        "  bob: win (place 1) - bob wins.",
    ]
    unfinished = story_text(events[:1], ["ann", "bob"], game="firewall", title="t", outcome=None)
    assert unfinished.endswith("Outcome: the match is not over.\n")


def test_a_replay_tells_the_engines_slips_in_the_players_words():
    # ux-review-2: the same slips as the thread's posts, in /replay and `python -m rules replay`
    from rules.events import Event
    from rules.story import story_lines

    names = ["ann", "bob"]
    events = [
        Event("select", "{p1} activates {p1}'s Astral Warlock.", {"seat": 0, "model": "p1-wizard"}),
        Event(
            "roll",
            "Roll for the roll-off for Player 1 ({p1}, {p2}): 1, 1.",
            {
                "purpose": "first_player",
                "dice": [1, 1],
                "sides": [6, 6],
                "label": "the roll-off for Player 1 ({p1}, {p2})",
            },
        ),
        Event(
            "roll",
            "Roll for the crowd roll-off (Player 1, Player 2): 3, 6.",
            {"purpose": "rolloff", "dice": [3, 6], "sides": [6, 6], "label": "the crowd roll-off (Player 1, Player 2)"},
        ),
    ]
    assert [line.text for line in story_lines(events, names, game="arena", revealed=True)] == [
        "ann activates their Astral Warlock.",
        "The roll-off for Player 1: 1 for ann, 1 for bob.",
        "The crowd roll-off: 3 for Player 1, 6 for Player 2.",
    ]
    middle = {"card": 5, "name": "Middle", "caster": 0, "owner": 0, "result": "applied", "wall_from": 9, "wall_to": 9}
    events = [
        Event("spell", "{p1}'s Middle sends the wall back from flagstone 9 to 9, where the round began.", middle),
        Event("submitted_private", "You bet 6 and lay down Middle (5).", {"seat": 0}, frozenset({0})),
    ]
    assert [line.text for line in story_lines(events, names, game="firewall", revealed=True)] == [
        "ann's Middle has no effect: the wall is already on flagstone 9, where the round began.",
        "(secret, ann) ann bets 6 and casts Middle (5).",
    ]
    own = story_lines(events, names, game="firewall", revealed=False, seat=0)
    assert own[-1].text == "You bet 6 and cast Middle (5)."


# ------------------------------------------------------------------------------ chapters and the text to read


def test_chapters_are_named_as_the_players_count_the_game() -> None:
    from rules.story import chapter_title

    names = ["ann", "bob"]
    assert (
        chapter_title([Event("round_start", "Round 2 begins.", {"round": 2})], names, game="wizards-cup") == "Round 2"
    )
    assert (
        chapter_title([Event("duel", "Duel 3", {"round": 1, "duel": 3})], names, game="wizards-cup")
        == "Round 1 (continued)"
    )
    turn = Event("turn_end", "", {"round": 1, "turn": 3})
    assert chapter_title([turn], names, game="firewall") == "Round 1, turn 3"
    trick = Event("trick_won", "", {"hand": 2, "trick": 5})
    assert chapter_title([trick], names, game="magic-duel") == "Hand 2 · trick 5"
    assert chapter_title([Event("deal", "", {"hand": 3})], names, game="magic-duel") == "Hand 3 is dealt"
    arena = Event("turn_end", "{p2}'s turn ends.", {"seat": 1, "turn": 1, "game_turn": 12})
    assert chapter_title([arena], names, game="arena") == "Turn 12 · bob"
    chosen = Event("discipline_chosen", "", {})
    assert chapter_title([chosen, arena], names, game="arena") == "Set-up, then turn 12 · bob"
    assert chapter_title([chosen], names, game="arena") == "Set-up"
    assert chapter_title([Event("game_end", "", {})], names, game="arena") == "The end"
    assert chapter_title([Event("x", "", {})], names, game="toy-guess") is None
    secret = Event("turn_end", "", {"round": 9, "turn": 9}, visible_to=frozenset({0}))
    assert chapter_title([secret, turn], names, game="firewall") == "Round 1, turn 3"  # public events only


def test_a_story_document_is_titled_grouped_and_numbered() -> None:
    from rules.story import StoryLine, story_document

    text = story_document(
        [("Round 1", [StoryLine(0, "Round 1 begins.", False), StoryLine(9, "ann wins.", False)]), ("Empty", [])],
        title="Wizards Cup · match #2",
        header=["Players: ann, bob"],
        result=["ann wins."],
    )
    assert text == (
        "Wizards Cup · match #2\n======================\nPlayers: ann, bob\n\n-- Round 1 --\n 1. Round 1 begins.\n"
        "10. ann wins.\n\n-- How it ended --\nann wins.\n"
    )
