"""What Arena's channel shows, in words and in pictures.

The story's texts: one test per text bug of the ux-review (a Minion named twice, lower-cased names,
seats instead of players, dice without their sums, the explosion's hidden doubling, "4 = 4").

The board picture never clips its text: every text is drawn inside the box the layout reserves
for it (the font shrinks, then the text is shortened with "…"), and every box is inside the picture
and inside its panel. Rendered with extreme values: 2-digit Health and Minion numbers, the smallest
squares (12 x 12), 32-character player names, the longest Wizard names, many effects, a knocked-out
Wizard, a long footer (spell, three dice, a long roll label) and the explosion's "x2" marker.

ux-review: "Wizard 15/15" was clipped by the panel border and the footer read
"Last roll: the crowd roll-off (Player 1, Pla…"."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from PIL import ImageDraw

from cogs.games.arena import art, posts
from cogs.games.arena.art import BoardDraw, board_image, image_size
from cogs.games.arena.ui import UI
from rules import Match
from rules.arena import Arena, ChooseDiscipline, ChooseEdge, Deploy, Effect, PlaceTerrain, SelectModel
from tests.cogs.arena_extremes import extreme_match, extremes
from tests.cogs.arena_screens import check_embeds, ctx_for, game_in_progress, random_click, screen_text
from tests.rules.arena import helpers
from tests.rules.arena.helpers import M1, M2, W1, W2, duel, sq, to_action

LONG_NAMES = ["W" * 32, "Maximilian-Alexander von Wizardly"]
ODD_NAMES = ["Ωμέγα Ünïcødé ÆØÅ ßẞ ŁĆŹ ЖЩЯ", "mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm"]


@pytest.fixture
def drawn(monkeypatch):
    """Every text drawn on a board: (the drawing, the text, the box it covers)."""
    calls: list[tuple[BoardDraw, str, tuple[float, float, float, float]]] = []
    plain = ImageDraw.ImageDraw.text

    def text(self, xy, text, *args, **kwargs):
        bb = self.textbbox(xy, text, font=kwargs.get("font"), anchor=kwargs.get("anchor"))
        calls.append((self, text, bb))
        return plain(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(BoardDraw, "text", text)
    return calls


def check(calls, img_size: tuple[int, int], names) -> dict[str, tuple[float, float, float, float]]:
    """Every text was fitted (drawn through ``fit``) inside its reserved box, inside the picture,
    and the footer's texts inside their player's panel. Returns the drawn texts and their boxes."""
    assert calls
    w, h = img_size
    out = {}
    for draw, text, bb in calls:
        reserved = [box for t, b, box in draw.texts if t == text and b == bb]
        assert reserved, f"{text!r} was drawn without a reserved box"
        x0, y0, x1, y1 = reserved[0]
        assert x0 <= bb[0] and y0 <= bb[1] and bb[2] <= x1 and bb[3] <= y1, (text, bb, reserved[0])
        assert x0 >= 0 and y0 >= 0 and x1 <= w and y1 <= h, (text, reserved[0])
        out[text] = bb
    board_bottom = h - art.FOOTER
    half = w // 2
    for text, bb in out.items():
        if board_bottom + 6 <= bb[1] and bb[3] <= board_bottom + 96:  # a player's panel
            seat = 0 if bb[0] < half else 1
            px0 = 10 + seat * half
            assert px0 + 2 <= bb[0] and bb[2] <= px0 + half - 22, (text, bb)
    return out


def test_no_text_is_clipped_with_extreme_values(drawn):
    m, events = extreme_match()
    for names in (LONG_NAMES, ODD_NAMES):
        drawn.clear()
        view = m.state.view(None)
        img = board_image(view, names, events)
        texts = check(drawn, img.size, names)
        # the panels' Health, the favour and the footer are drawn whole, not shortened
        assert {"Wizard 15/15", "Wizard 3/15", "Crowd Favour 100", "Crowd Favour 88"} <= set(texts)
        assert {"Game turn 1 · spell: Fire Breath", "Last roll: Fire Breath damage (2D3)"} <= set(texts)
        assert "12" in texts and "x2" in texts  # 2-digit Health and Minion number, the doubled damage


@pytest.mark.parametrize("size", [8, 11, 12])
def test_no_text_is_clipped_on_any_grid_size(drawn, size):
    m, start = game_in_progress(size, seed=size)
    extremes(m)
    img = board_image(m.state.view(None), LONG_NAMES, m.events[start:])
    assert img.size == image_size(size)
    texts = check(drawn, img.size, LONG_NAMES)
    assert "12" in texts and "Crowd Favour 99" in texts


def test_the_wizards_health_fits_its_panel_even_at_two_digits(drawn):
    # ux-review: "Wizard 15/15" overflowed the panel's right edge (a zoomed crop confirmed it)
    m = duel()
    img = board_image(m.state.view(None), LONG_NAMES)
    texts = check(drawn, img.size, LONG_NAMES)
    half = img.size[0] // 2
    right_edges = sorted(bb[2] for t, bb in texts.items() if t == "Wizard 15/15")
    assert right_edges and right_edges[-1] <= (10 + half) + (half - 20) - 2  # inside Player 2's panel


def test_the_roll_off_in_the_footer_names_the_players(drawn):
    # ux-review: the footer read "Last roll: the crowd roll-off (Player 1, Pla…"
    m = duel(player_one=1)  # Bob won the first roll-off: his die comes first in the crowd roll-off
    img = board_image(m.state.view(None), ["ann", "bob"])
    texts = check(drawn, img.size, ["ann", "bob"])
    assert "Last roll: the crowd roll-off (bob, ann)" in texts
    assert not any("Player" in t for t in texts)


def test_a_long_footer_is_shortened_inside_its_box_not_cut_at_the_edge(drawn):
    m, events = extreme_match()
    view = m.state.view(None)
    view["last_roll"] = {**(view["last_roll"] or {}), "label": "an extremely long roll label " * 8}
    view["spell"] = {**(view["spell"] or {}), "option_names": {"fire_breath": "Fire Breath " * 10}}
    img = board_image(view, ODD_NAMES, events)
    texts = check(drawn, img.size, ODD_NAMES)
    shortened = [t for t in texts if t.endswith("…")]
    assert any(t.startswith("Last roll: ") for t in shortened) and any(t.startswith("Game turn") for t in shortened)


# ------------------------------------------------------------------------------ the story's texts


def post_text(m: Match, events) -> str:
    post = posts.public_post(m.state.view(None), events, ["ann", "bob"], images=False)
    check_embeds(post.embeds)
    return post.embeds[0].description or ""


def deployed(player_one: int = 0) -> tuple[Match, list]:
    """A set-up up to the last deployment; the events of the deployments and of the crowd roll-off."""
    m = Match(Arena({}), 0, ["ann", "bob"])
    helpers.roll(m, *((6, 1) if player_one == 0 else (1, 6)))
    m.apply(0, ChooseDiscipline(discipline="draconic_magus", name="Ignatia"))
    m.apply(1, ChooseDiscipline(discipline="blood_mage"))
    for t in ("C5", "D5", "E5", "F5", "G5", "H5"):
        m.apply(player_one, PlaceTerrain(at=sq(t)))
    m.apply(1 - player_one, ChooseEdge(side="north"))
    events = []
    for seat, row in ((player_one, 1), (1 - player_one, 10)):
        events += m.apply(seat, Deploy(model="wizard", at=sq(f"E{row}")))
        events += m.apply(seat, Deploy(model="minion", at=sq(f"D{row}")))
    return m, events + helpers.roll(m, 6, 2)


def test_a_minion_is_named_once_not_twice():
    # ux-review: "📍 ann's Drake Spirit ann's Drake Spirit 1 takes the field on D1."
    m, events = deployed()
    text = post_text(m, events)
    assert "📍 ann's Drake Spirit 1 takes the field on D1." in text
    assert "Drake Spirit ann's" not in text and "Blood Imp bob's" not in text
    to_action(m)
    assert "▶️ ann activates their Drake Spirit 1." in post_text(m, m.apply(0, SelectModel(model=M1)))


def test_names_keep_their_capitals_on_the_activation_screen():
    # ux-review: "Your wizard ignatia may still Move" (str.capitalize lower-cased the name)
    m, _ = deployed()
    to_action(m)
    m.apply(0, SelectModel(model=W1))
    text = screen_text(UI.prompt(ctx_for(m, 0)))
    assert "Your Wizard Ignatia may still Move" in text and "ignatia" not in text


@pytest.mark.parametrize("player_one", [0, 1])
def test_the_crowd_roll_off_names_the_players_not_the_seats(player_one):
    # ux-review: "🎲 Roll for the crowd roll-off (Player 1, Player 2): 6, 2." Player 1's die is first.
    m, events = deployed(player_one)
    text = post_text(m, events)
    first, second = ("ann", "bob") if player_one == 0 else ("bob", "ann")
    assert f"🎲 The crowd roll-off: {first} 6, {second} 2." in text
    assert f"📣 {first} has the most fans in the audience (6-2)." in text
    assert "Player 1" not in text and "Player 2" not in text
    board = posts.board_embed(m.state.view(None), ["ann", "bob"], text=True)
    now = next(f.value for f in board.fields if f.name == "Now")
    assert f"Last roll, the crowd roll-off: {first} 6, {second} 2" in now


def explosion_post() -> str:
    # docs/rulings/arena.md#magical-explosion: on a tie, the active player winning the roll-off deals double damage
    m = duel("draconic_magus", "blood_mage", pos={W1: "E4", W2: "E7", M2: "F7"})
    to_action(m, spell="fire_breath", dice=(3, 3))
    events = helpers.act(m, W1, target=W2)
    events += helpers.roll(m, 2, 2) + helpers.roll(m, 6, 3) + helpers.roll(m, 1, 3)
    return post_text(m, events)


def test_dice_are_shown_with_their_sums():
    # ux-review: "⚔️ Fire Breath: 6 (die 2) against 6 (die 2)" never said "2 + Skill 4 = 6"
    text = explosion_post()
    assert "⚔️ Fire Breath: 2 + Skill 4 = 6 against 2 + Defence 4 = 6: ties: a magical explosion!" in text
    assert "(die 2)" not in text
    assert "🎲 Roll for Fire Breath damage (2D3): 1 + 3 = 4." in text


def test_the_explosions_doubling_is_shown():
    # ux-review: "💔 bob's Blood Mage takes 8 damage" hid the doubling of 1 + 3
    text = explosion_post()
    assert "🎲 The magical explosion roll-off: ann 6, bob 3." in text
    assert "💥 The explosion roll-off goes to ann, the active player (6 against 3)" in text
    assert "💔 bob's Blood Mage takes 8 damage (4, × 2 for the magical explosion = 8): 7/15 Health." in text
    assert "(active, target)" not in text


def test_a_reflected_explosion_names_who_wins_it_and_who_is_hit():
    m = duel("draconic_magus", "blood_mage", pos={W1: "E4", W2: "E7", M2: "F7"})
    to_action(m, spell="fire_breath", dice=(3, 3))
    events = helpers.act(m, W1, target=W2) + helpers.roll(m, 2, 2) + helpers.roll(m, 1, 5)
    text = post_text(m, events)
    assert "🎲 The magical explosion roll-off: ann 1, bob 5." in text
    assert "goes to bob, the target's owner (5 against 1): the Action is reflected onto ann's Wizard!" in text


def test_modifiers_are_named_in_the_sums():
    # docs/rulings/arena.md#generic-spells: Shield gives +2 Defence; Empower +1 Skill and +1 damage
    m = duel(pos={W1: "E4", M1: "E6", W2: "J9", M2: "E7"})
    to_action(m, spell="arcane_rocket")
    st = helpers.state(m)
    st.models[M2].effects.append(Effect("shield"))
    st.models[M1].effects.append(Effect("empower"))
    events = helpers.act(m, M1, target=M2) + helpers.roll(m, 5, 1)
    text = post_text(m, events)
    assert "5 + Skill 4 + 1 Empower = 10 against 1 + Defence 4 + 2 Shield = 7: succeeds" in text
    assert "takes 3 damage (2 + 1 Empower = 3)" in text


def test_rolls_without_a_bonus_are_not_written_as_sums():
    # ux-review: "⚰️ Fate roll 4 = 4"; the same for the crowd: "The crowd: 1 = 1"
    m = duel(pos={M1: "E8", W2: "E9", W1: "A1"})
    to_action(m, spend=0)
    helpers.state(m).models[W2].health = 2
    events = helpers.act(m, M1, target=W2) + helpers.roll(m, 6, 1) + helpers.roll(m, 4)
    text = post_text(m, events)
    assert "⚰️ Fate roll 4: bob's Necromancer is merely unconscious" in text
    assert "4 = 4" not in text
    # docs/rulings/arena.md#knock-out-by-a-wizard: a Wizard's knock-out adds 2 to the fate roll
    m = duel(pos={W1: "E8", W2: "E9", M1: "A1"})
    to_action(m)
    helpers.state(m).models[W2].health = 2
    events = helpers.act(m, W1, target=W2) + helpers.roll(m, 6, 1) + helpers.roll(m, 4)
    assert "⚰️ Fate roll 4 + 2 (knocked out by a Wizard) = 6: bob's Necromancer " in post_text(m, events)
    m = duel(favour=(3, 0))
    to_action(m, spend=1)
    assert "📣 The crowd: 4: The crowd goes wild." in post_text(m, helpers.roll(m, 4))
    m = duel(favour=(3, 0))
    to_action(m, spend=3)
    assert "📣 The crowd: 5 + 2 extra Crowd Favour = 7, counted as 6: A crystal shard." in post_text(
        m, helpers.roll(m, 5)
    )


def test_a_whole_random_game_never_names_a_model_twice_or_a_seat():
    rng = random.Random(5)
    m = Match.new("arena", {"grid_size": 8, "terrain_count": 4}, seed=5, seats=["ann", "bob"])
    lines = []
    for _ in range(400):
        if m.awaiting.is_terminal:
            break
        seat = min(m.awaiting.seats)
        ctx = dataclasses.replace(ctx_for(m, seat), names=["ann", "bob"])
        lines.append(post_text(m, m.act(seat, random_click(ctx, rng))))
    text = "\n".join(lines)
    assert "Player 1" not in text and "Player 2" not in text and "{p" not in text
    assert not re.search(r"(\b\w+'s [A-Z][\w ]+?) \1", text)
    assert not re.search(r"\bp[12]-(wizard|m\d)", text)


def test_the_roll_off_for_player_1_says_whose_die_is_whose_once():
    # ux-review-2: "Roll for the roll-off for Player 1 (ann, bob): 1, 1."
    m = Match(Arena({}), 0, ["ann", "bob"])
    text = post_text(m, helpers.roll(m, 1, 1) + helpers.roll(m, 2, 5))
    assert "🎲 The roll-off for Player 1: ann 1, bob 1." in text
    assert "🎲 The roll-off for Player 1: ann 2, bob 5." in text
    assert "Roll for the roll-off" not in text and "(ann, bob)" not in text


def test_a_drawn_fight_has_no_trophy():
    # ux-review-2: "No Wizard was knocked out in 30 game turns … a draw" under "🏆 The fight is over"
    from rules import Event

    m = helpers.duel()
    draw = {"summary": "A draw.", "ranks": [1, 1], "seats": [{"result": "draw", "reason": ""}] * 2}
    won = {"summary": "ann wins.", "ranks": [1, 2], "seats": [{"result": "win"}, {"result": "loss"}]}
    titles = {}
    for name, outcome in (("draw", draw), ("won", won)):
        end = Event("game_end", "No Wizard was knocked out in 30 game turns: a draw.", {"outcome": outcome})
        post = posts.public_post(m.state.view(None), [end], ["ann", "bob"], images=False)
        titles[name] = [e.title for e in post.embeds if (e.title or "").endswith(("over", "draw"))]
    assert titles["draw"] == ["🤝 The fight is over: a draw"]
    assert titles["won"] == ["🏆 The fight is over"]
