"""Wizards Cup told in full and drawn: each Value modifier written out (whose card, on which Wizard,
why) as the rulings say it (the tests cite the ruling they check by its anchor in
docs/rulings/wizards-cup.md; card texts are quoted from the card data); every resolved duel drawn
as a row; the Deck, set and order pictures on the prompts, content-named; no text cut at a
picture's edge, even with long names; a newcomer's explanations once per match."""

from __future__ import annotations

import io
import random
import re
from types import SimpleNamespace

import pytest
from PIL import Image

from cogs.games.base import PromptContext
from cogs.games.pictures import CONTENT_NAMED
from cogs.games.wizards_cup import prompts
from cogs.games.wizards_cup.art import grid_painter, order_rows, set_rows, situation_painter
from cogs.games.wizards_cup.cards import CARDS
from cogs.games.wizards_cup.duel_rows import ROW_GAP, ROW_H, ROW_W, TOP, duels_painter
from cogs.games.wizards_cup.posts import public_post
from cogs.games.wizards_cup.story import duel_stories
from cogs.games.wizards_cup.ui import UI
from rules import Event, Match
from rules.wizards_cup import BotanistChoice, load_card_set
from tests.rules.wizards_cup.helpers import arrange

NAMES = ["ann", "bob"]
LONG = ["W" * 32, "Ŵ" * 16 + "漢字" * 8]  # Discord's longest display names, wide letters


def told(p0: dict, p1: dict, names=NAMES) -> str:
    """The channel post's text after an arranged round (tests/rules/wizards_cup/helpers.arrange)."""
    st, events = arrange(p0, p1)
    post = public_post(st.view(None), events, names, images=False)
    return "\n".join(f.value for e in post.embeds for f in e.fields)


# ---------------------------------------------------------------------- modifiers written in full
def test_the_jester_names_whose_card_on_which_wizard_and_why():
    # docs/rulings/wizards-cup.md#value-modifiers-told; docs/rulings/wizards-cup.md#the-jester: "While on top of your
    # discard pile: the opposing Wizard in the Duel has -2 Value." A Dormant power applies as long as it
    # is visible (docs/rulings/wizards-cup.md#dormant-read-live). The issue's own example, replacing "Value: The
    # Jester -2: 7 against 3".
    text = told({"pile": ["archmage"]}, {"pile": ["assassin"], "discard": ["jester"]})
    assert "bob's Jester on top of their discard pile: ann's Archmage 9 -> 7" in text
    assert "🏆 **bob** wins — Value: ann's Archmage 7 against bob's Assassin 10" in text


def test_the_mentor_raises_its_owners_wizard():
    # docs/rulings/wizards-cup.md#the-mentor: "While on top of your discard pile: your Wizard in the Duel has +2
    # Value." (docs/rulings/wizards-cup.md#value-modifiers-told)
    text = told({"pile": ["water-wizard"], "discard": ["mentor"]}, {"pile": ["water-wizard"]})
    assert "ann's Mentor on top of their discard pile: ann's Water Wizard 6 -> 8" in text
    assert "Value: ann's Water Wizard 8 against bob's Water Wizard 6" in text


def test_the_necromancer_counts_the_cards_of_its_pile():
    # docs/rulings/wizards-cup.md#the-necromancer: "your Wizard in the Duel has +1 Value for each card in your
    # discard pile." (docs/rulings/wizards-cup.md#value-modifiers-told)
    text = told({"pile": ["fire-wizard"]}, {"pile": ["fire-wizard"], "discard": ["assassin", "necromancer"]})
    assert (
        "bob's Necromancer on top of their discard pile (+1 for each of the 2 cards in the pile): "
        "bob's Fire Wizard 7 -> 9"
    ) in text


def test_modifiers_on_both_wizards_and_two_on_one_wizard():
    # docs/rulings/wizards-cup.md#value: Dormant Value changes first, then the higher Value wins. Both players' top
    # cards count; one Wizard can be changed by both piles (docs/rulings/wizards-cup.md#value-modifiers-told).
    text = told({"pile": ["fire-wizard"], "discard": ["mentor"]}, {"pile": ["water-wizard"], "discard": ["jester"]})
    # Water beats Fire: the Values are not compared, so no modifier is told
    assert "Value" not in text and "Element: Water beats Fire: bob's Water Wizard over ann's Fire Wizard" in text
    text = told({"pile": ["assassin"], "discard": ["mentor"]}, {"pile": ["archmage"], "discard": ["jester"]})
    assert "ann's Mentor on top of their discard pile: ann's Assassin 10 -> 12" in text
    assert "bob's Jester on top of their discard pile: ann's Assassin 12 -> 10" in text
    assert "Value: ann's Assassin 10 against bob's Archmage 9" in text


def test_the_matron_and_the_blacksmith_are_named_with_their_owner():
    # docs/rulings/wizards-cup.md#value: The Matron and The Blacksmith act when Values decide.
    # docs/rulings/wizards-cup.md#the-matron: "When Values are compared, the lower Value wins."
    # docs/rulings/wizards-cup.md#the-blacksmith: "If the duel is decided by Values, The Blacksmith wins."
    text = told({"pile": ["matron"]}, {"pile": ["fire-wizard"], "discard": ["jester"]})
    assert "bob's Jester on top of their discard pile: ann's Matron 3 -> 1" in text
    assert "ann's Matron in the Duel zone makes the lower Value win: ann's Matron 1 against bob's Fire Wizard 7" in text
    text = told({"pile": ["assassin"]}, {"pile": ["blacksmith"]})
    assert "🏆 **bob** wins — Value: bob's Blacksmith wins whenever Values decide" in text


def test_powers_name_their_owners_and_the_alchemist_shows_the_counted_element():
    # docs/rulings/wizards-cup.md#the-alchemist: "The opposing Wizard counts as Void until the end of this duel."
    # (docs/rulings/wizards-cup.md#owner-named, docs/rulings/wizards-cup.md#duel-row)
    st, events = arrange({"pile": ["alchemist"]}, {"pile": ["water-wizard"]})
    post = public_post(st.view(None), events, NAMES, images=False)
    text = "\n".join(f.value for e in post.embeds for f in e.fields)
    assert "✨ ann's Alchemist: bob's Water Wizard counts as Void in this duel." in text
    (story,) = duel_stories(st.view(None), [e for e in events if e.visible_to is None]).values()
    assert [s.element for s in story.sides] == ["Void", "Void"]  # Void has no weakness: Values decide


def test_what_happens_after_a_duel_is_told_with_that_duel():
    # docs/rulings/wizards-cup.md#the-revolutionary: "When The Revolutionary wins a duel, the opponent discards the
    # top card of their Deck", before the losing Wizard is discarded (docs/rulings/wizards-cup.md#when-it-wins-first).
    # The discard comes after the verdict.
    st, events = arrange({"pile": ["revolutionary"]}, {"pile": ["necromancer", "fire-wizard"]})
    post = public_post(st.view(None), events, NAMES, images=False)
    duel1 = next(f for e in post.embeds for f in e.fields if f.name.startswith("Duel 1:"))
    lines = duel1.value.splitlines()
    assert lines[-2].startswith("🏆 **ann** wins — Value: ann's Revolutionary 5 against bob's Necromancer 2")
    assert lines[-1] == "✨ ann's Revolutionary: bob discards the top card of their Deck, Fire Wizard."


def test_a_duel_paused_for_the_botanist_goes_on_in_the_next_post_with_its_modifier():
    # docs/rulings/wizards-cup.md#botanist-choice: "You may discard your Waiting card (it goes face up on top of your
    # discard pile)." docs/rulings/wizards-cup.md#dormant-read-live: the discarded card's Dormant power applies.
    st, first = arrange(
        {"pile": ["botanist", "fire-wizard"], "waiting": "mentor"}, {"pile": ["water-wizard", "assassin"]}
    )
    text = "\n".join(f.value for e in public_post(st.view(None), first, NAMES, images=False).embeds for f in e.fields)
    assert "✨ ann's Botanist: ann decides whether to discard their Waiting card." in text
    post = public_post(st.view(None), st.apply(0, BotanistChoice(discard=True)), NAMES, images=True)
    fields = [f for e in post.embeds for f in e.fields]
    assert fields[0].name == "Duel 1 (continued): The Botanist vs Water Wizard"
    assert fields[0].value.startswith("✨ The Botanist: ann discards their Waiting card, The Mentor.")
    assert "🔸 ann's Mentor on top of their discard pile: ann's Botanist 3 -> 5" in fields[1].value
    assert len(post.files) == 1  # the three duels decided in this post, drawn


@pytest.mark.parametrize("seed", range(40))
def test_every_duel_told_agrees_with_the_rules(seed):
    """Whatever the game, the Values told are those the rules compared (the rules' reason ends in
    "X against Y"), and each modifier changes the Value it says by its card's amount
    (docs/rulings/wizards-cup.md#value-modifiers-told)."""
    rng = random.Random(seed)
    m = Match.new("wizards-cup", seed=seed, seats=NAMES)
    seen = 0
    while not m.awaiting.is_terminal:
        seat = rng.choice(sorted(m.awaiting.seats))
        m.act(seat, rng.choice(m.state.legal_actions(seat)))
        public = [e for e in m.events[seen:] if e.visible_to is None]
        seen = len(m.events)
        for i, story in duel_stories(m.state.view(None), public).items():
            reason = public[i].data["reason"]
            if story.criterion == "value":
                a, b = map(int, re.findall(r"(-?\d+) against (-?\d+)", reason)[-1])
                assert sorted((a, b)) == sorted(s.value for s in story.sides), reason
                # the rules' own tally names each modifier as "The Jester -2"
                tally = re.findall(r"(The Mentor|The Jester|The Necromancer) ([+-]\d+)", reason)
                assert len(tally) == len(story.modifiers), reason
                for mod in story.modifiers:
                    assert f"{CARDS[mod.card].name} {mod.after - mod.before:+d}" in reason
            else:
                assert story.modifiers == ()


# ---------------------------------------------------------------------- the duels' picture
def play_posts(seed: int, names=NAMES) -> list[tuple[list[Event], object]]:
    """A seeded game told like the thread does: the public events gather until one tells a duel or
    the end, then the post (with pictures)."""
    rng = random.Random(seed)
    m = Match.new("wizards-cup", seed=seed, seats=names)
    out, story, seen = [], [], 0
    while not m.awaiting.is_terminal:
        seat = rng.choice(sorted(m.awaiting.seats))
        m.act(seat, rng.choice(m.state.legal_actions(seat)))
        story += [e for e in m.events[seen:] if e.visible_to is None]
        seen = len(m.events)
        if UI.tells_story({e.kind for e in story}) or m.awaiting.is_terminal:
            out.append((list(story), public_post(m.state.view(None), story, names, images=True)))
            story = []
    return out


@pytest.mark.parametrize("seed", [0, 3, 7, 11])
def test_every_duel_of_a_seeded_game_is_drawn_as_a_row(seed):
    # docs/rulings/wizards-cup.md#duel-row
    duels = 0
    for events, post in play_posts(seed):
        n = sum(1 for e in events if e.kind == "duel")
        duels += n
        if n == 0:
            assert post.files == []
            continue
        (f,) = post.files
        assert CONTENT_NAMED.fullmatch(f.filename) and f.filename.startswith("wc-duels-")
        img = Image.open(io.BytesIO(f.fp.read()))
        assert img.size == (ROW_W, 2 * TOP + n * (ROW_H + ROW_GAP) - ROW_GAP)
        shown = [e for e in post.embeds if e.image.url]
        assert [e.image.url for e in shown] == [f"attachment://{f.filename}"]
        assert len(shown[0].fields) >= 1 and shown[0].fields[0].name.startswith("Duel ")
    assert duels > 0


def test_pictures_off_no_picture_and_the_text_is_the_same():
    st, events = arrange({"pile": ["archmage", "fire-wizard"]}, {"pile": ["assassin"], "discard": ["jester"]})
    on = public_post(st.view(None), events, NAMES, images=True)
    off = public_post(st.view(None), events, NAMES, images=False)
    assert len(on.files) == 1 and off.files == [] and not any(e.image.url for e in off.embeds)
    assert [e.fields for e in on.embeds] == [e.fields for e in off.embeds]


def assert_fits(painter) -> None:
    """Every text lies inside its box and inside the picture: nothing is cut at an edge."""
    w, h = painter.image.size
    assert painter.placed
    for (x0, y0, x1, y1), (bx0, by0, bx1, by1), text in painter.placed:
        inside = bx0 <= x0 and x1 <= bx1 and by0 - 1 <= y0 and y1 <= by1 + 1
        assert inside, (text, (x0, y0, x1, y1), (bx0, by0, bx1, by1))
        assert x0 >= 0 and y0 >= 0 and x1 <= w and y1 <= h, text


@pytest.mark.parametrize("names", [NAMES, LONG])
def test_no_text_is_cut_in_any_picture(names):
    ids = load_card_set().ids
    zone = [{"seat": s, "tokens": 2, "duel": "revolutionary"} for s in (0, 1)]
    painters = [
        situation_painter({"round": 3, "players": zone}, names),
        grid_painter("Your set: the random card is in your Deck; choose 5 more", set_rows(ids[5], ids[:5] + ids[6:])),
        grid_painter("Your playing order", order_rows(ids[:6], [3, 0, 2], 5)),
        grid_painter("Your playing order", order_rows(ids[:6], [3, 0, 2, 5, 1], 5)),
    ]
    for seed in (3, 11):  # every duel of two whole games, with their modifiers and counted Elements
        rng = random.Random(seed)
        m = Match.new("wizards-cup", seed=seed, seats=names)
        while not m.awaiting.is_terminal:
            seat = rng.choice(sorted(m.awaiting.seats))
            m.act(seat, rng.choice(m.state.legal_actions(seat)))
        public = [e for e in m.events if e.visible_to is None]
        stories = list(duel_stories(m.state.view(None), public).values())
        assert stories
        painters.append(duels_painter(stories, names))
    for p in painters:
        assert_fits(p)
    if names is LONG:  # a long name is shortened with an ellipsis, never cut
        assert any(t.endswith("…") for _, _, t in painters[-1].placed)
        assert any(t.endswith("…") for _, _, t in painters[0].placed)


# ---------------------------------------------------------------------- the prompts' pictures
def ctx_for(m: Match, seat: int, images: bool = True, names=NAMES) -> PromptContext:
    st = m.state
    steps = sum(1 for e in m.log if e.seat == seat)
    return PromptContext(1, seat, steps, names, st.view(seat), st.legal_actions(seat), images, st.asked(seat))


def test_deck_choice_shows_the_set_and_ordering_shows_the_order_content_named():
    m = Match.new("wizards-cup", seed=4, seats=NAMES)
    p = UI.prompt(ctx_for(m, 0))
    set_pic = next(f for f in p.files if f.filename.startswith("wc-set-"))
    assert p.embeds[0].image.url == f"attachment://{set_pic.filename}" and CONTENT_NAMED.fullmatch(set_pic.filename)
    assert UI.prompt(ctx_for(m, 0, images=False)).files == []  # pictures off: none
    rng = random.Random(1)
    for seat in (0, 1):
        m.act(seat, rng.choice(m.state.legal_actions(seat)))
    first = UI.prompt(ctx_for(m, 0))
    order = next(f for f in first.files if f.filename.startswith("wc-order-"))
    # a click draws the next order; Start over comes back to the same picture (same name)
    clicked = UI.handle(ctx_for(m, 0), "plan.3", [])
    again = UI.handle(ctx_for(m, 0), "plan.", [])
    names = [[f.filename for f in q.files if f.filename.startswith("wc-order-")] for q in (clicked, again)]
    assert names[0] != [order.filename] and names[1] == [order.filename]
    # the screen edit keeps the pictures the message already shows (no new upload)
    shown = [SimpleNamespace(filename=f.filename) for f in first.files]
    kept = again.edit_kwargs(shown)["attachments"]
    assert kept == shown


def test_swap_screens_show_the_deck_and_the_second_screen_keeps_it():
    m = Match.new("wizards-cup", seed=2, seats=NAMES)
    rng = random.Random(2)
    while m.state.asked(0) is None or m.state.asked(0).kind != "swap":
        seat = rng.choice(sorted(m.awaiting.seats))
        m.act(seat, rng.choice(m.state.legal_actions(seat)))
        assert not m.awaiting.is_terminal
    first = UI.prompt(ctx_for(m, 0))
    deck = [f.filename for f in first.files if f.filename.startswith("wc-deck-")]
    second = UI.handle(ctx_for(m, 0), "swaprm", ["2"])
    assert deck and [f.filename for f in second.files if f.filename.startswith("wc-deck-")] == deck


# ---------------------------------------------------------------------- explanations, once
def help_counts(seed: int) -> dict[int, dict[str, int]]:
    """How many of each seat's prompts (first screens) carry each explanation, over a whole game."""
    rng = random.Random(seed)
    m = Match.new("wizards-cup", seed=seed, seats=NAMES)
    helps = (prompts.POWERS_HELP[0], prompts.WAITING_HELP[0], prompts.SWAP_HELP[0])
    counts = {s: dict.fromkeys(helps, 0) for s in (0, 1)}
    while not m.awaiting.is_terminal:
        seat = rng.choice(sorted(m.awaiting.seats))
        p = UI.prompt(ctx_for(m, seat, images=False))
        for f in p.embeds[0].fields if p.embeds else []:
            if f.name in counts[seat]:
                counts[seat][f.name] += 1
        m.act(seat, rng.choice(m.state.legal_actions(seat)))
    return counts


@pytest.mark.parametrize("seed", range(6))
def test_power_types_waiting_card_and_swap_are_explained_once_per_match(seed):
    # docs/rulings/wizards-cup.md#explained-once
    for counts in help_counts(seed).values():
        assert counts[prompts.POWERS_HELP[0]] == 1 and counts[prompts.WAITING_HELP[0]] == 1
        assert counts[prompts.SWAP_HELP[0]] <= 1  # a game won in two rounds may never swap...
    assert any(c[prompts.SWAP_HELP[0]] == 1 for seed in range(6) for c in help_counts(seed).values())
