"""Arena's Discord UI without Discord: every prompt screen offers exactly the engine's legal actions
(squares, targets, spells, follow-ups) and leads to actions the engine accepts; components fit
Discord's limits; the channel post stays within embed limits; the board picture is a valid PNG of a
sensible size for every grid size, and the text grid shows the same board."""

from __future__ import annotations

import dataclasses
import io
import random
import re

import discord
import pytest
from PIL import Image

from cogs.games.arena import prompts
from cogs.games.arena.art import _centre, board_image, image_size, text_grid
from cogs.games.arena.controls import SQUARE_KINDS
from cogs.games.arena.prompts import HANDLERS
from cogs.games.arena.ui import UI, discipline_embed, model_name, pretty
from cogs.games.base import AskText, Prompt, PromptContext, Submit
from cogs.games.pictures import seat_colour
from rules import Match
from rules.arena import (
    DISCIPLINE_IDS,
    ChooseDiscipline,
    SpendFavour,
)
from rules.arena.actions import Act, BloodPact, Extinguish, Move, SelectModel
from tests.cogs.arena_screens import (
    NAMES,
    check_components,
    check_embeds,
    clicks,
    ctx_for,
    game_in_progress,
    payload_of,
    random_click,
    screen_text,
)
from tests.rules.arena import helpers
from tests.rules.arena.helpers import M2, W1, W2, duel, move, sq, to_action


def reachable(ctx: PromptContext) -> list:
    """Every action the prompt can submit, following its screens (columns, cards, confirmations)."""
    found = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    todo = [UI.prompt(ctx)]
    while todo:
        prompt = todo.pop()
        check_embeds(prompt.embeds)
        for payload, values in clicks(prompt):
            if payload == "back" or (payload, tuple(values)) in seen:
                continue
            seen.add((payload, tuple(values)))
            result = UI.handle(ctx, payload, values)
            if isinstance(result, AskText):
                assert result.max_length <= 100 and len(result.title) <= 45
                result = UI.handle(ctx, result.payload, ["Morgana the Bold"])
            if isinstance(result, Submit):
                found.append(result.action)
            else:
                todo.append(result)
    return found


def assert_offers_exactly_the_legal_actions(ctx: PromptContext) -> None:
    legal = list(ctx.legal)
    offered = reachable(ctx)
    plain = [ChooseDiscipline(discipline=a.discipline) if isinstance(a, ChooseDiscipline) else a for a in offered]
    assert all(a in legal for a in plain), [a for a in plain if a not in legal]
    wanted = [a for a in legal if not (isinstance(a, SpendFavour) and a.points > 6)]  # 6 already make a 6
    assert all(a in plain for a in wanted), [a for a in wanted if a not in plain]


def asked(m: Match, seat: int) -> str:
    v = m.state.view(seat)
    p = v.get("prompt")
    return p["kind"] if p and p["seat"] == seat else v["phase"]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_every_screen_offers_exactly_the_legal_actions_through_whole_games(seed):
    rng = random.Random(seed)
    size = 8 + seed % 5
    m = Match.new("arena", {"grid_size": size, "terrain_count": 4 + seed % 5}, seed=seed, seats=NAMES)
    d0, d1 = DISCIPLINE_IDS[(2 * seed) % 11], DISCIPLINE_IDS[(2 * seed + 5) % 11]
    seen_kinds: set[str] = set()
    n = 0
    start = 0
    while not m.awaiting.is_terminal and n < 1500:
        seat = min(m.awaiting.seats)
        ctx = ctx_for(m, seat)
        seen_kinds.add(asked(m, seat))
        assert_offers_exactly_the_legal_actions(ctx)
        if m.state.view(None)["phase"] == "discipline":
            action = ChooseDiscipline(discipline=(d0, d1)[seat], name="Morgana" if seat == 0 else None)
        else:
            action = random_click(ctx, rng)
            # end the turn less often than a random click would, so the game moves on
            if action.type == "end_turn" and rng.random() < 0.7 and len(ctx.legal) > 1:
                action = random_click(ctx, rng)
        m.act(seat, action)
        post = UI.public_post(m.state.view(None), m.events[start:], NAMES, images=False)
        check_embeds(post.embeds)
        start = len(m.events)
        n += 1
    assert {"discipline", "terrain", "edge", "deploy", "spell", "action"} <= seen_kinds


FOLLOW_UPS = {
    "blood_pact": "blood_mage",
    "witch_step": "green_witch",
    "scholar": "noble_scholar",
    "necro": "necromancer",
    "teleport": "noble_scholar",
    "dominate": None,
    "reroll": None,
    "crowd": None,
}


@pytest.mark.parametrize("kind", sorted(FOLLOW_UPS))
def test_follow_up_choices_offer_exactly_the_legal_actions(kind):
    """Play random games until the follow-up choice comes up; its screen offers exactly the legal
    answers (and a Decline button where declining is allowed)."""
    discipline = FOLLOW_UPS[kind]
    for seed in range(40):
        rng = random.Random(seed)
        m = Match.new("arena", {"grid_size": 8, "terrain_count": 4}, seed=seed, seats=NAMES)
        for _ in range(700):
            if m.awaiting.is_terminal:
                break
            seat = min(m.awaiting.seats)
            if asked(m, seat) == kind:
                ctx = ctx_for(m, seat)
                assert_offers_exactly_the_legal_actions(ctx)
                prompt = UI.prompt(ctx)
                if any(a.type == "decline" for a in ctx.legal):
                    assert any(payload_of(i) == "decl" for i in prompt.view.children)
                return
            if m.state.view(None)["phase"] == "discipline":
                d = discipline or DISCIPLINE_IDS[(seed + seat * 3) % 11]
                m.act(seat, ChooseDiscipline(discipline=d))
                continue
            legal = list(m.state.legal_actions(seat))
            spells = [a for a in legal if a.type == "choose_spell"]
            targets = [a for a in legal if a.type == "act"]
            if kind in ("teleport", "dominate") and spells:
                wanted = [a for a in spells if a.spell in ("teleport", "dominate")]
                action = (wanted or spells)[0]
            elif kind == "necro" and targets:
                action = targets[0]
            elif kind in ("reroll", "crowd") and any(a.type == "spend_favour" for a in legal):
                action = max((a for a in legal if a.type == "spend_favour"), key=lambda a: a.points)
            else:
                action = random_click(ctx_for(m, seat), rng)
            m.act(seat, action)
    pytest.fail(f"no game reached the {kind} choice")


def test_a_square_picker_needs_two_steps_beyond_25_squares():
    m = Match.new("arena", {"grid_size": 12, "terrain_count": 4}, seed=1, seats=NAMES)
    for seat in (0, 1):
        m.act(seat, ChooseDiscipline(discipline="mermancer"))
    ctx = ctx_for(m, 0)
    prompt = UI.prompt(ctx)
    (col,) = [i for i in prompt.view.children if isinstance(i, discord.ui.Select)]
    assert payload_of(col) == "col.pt" and [o.value for o in col.options] == [chr(65 + i) for i in range(12)]
    rows = UI.handle(ctx, "col.pt", ["C"])
    (row,) = [i for i in rows.view.children if isinstance(i, discord.ui.Select)]
    assert all(o.value.startswith("C") for o in row.options) and len(row.options) == 12
    done = UI.handle(ctx, "sq.pt", ["C5"])
    assert isinstance(done, Submit) and done.action.type == "place_terrain" and tuple(done.action.at) == (2, 4)
    with pytest.raises(ValueError, match="not a legal square"):
        UI.handle(ctx, "sq.pt", ["Z9"])
    assert isinstance(UI.handle(ctx, "rt", []), Submit)


def test_naming_the_wizard_asks_for_text_and_rejects_a_blank_name():
    m = Match.new("arena", seed=2, seats=NAMES)
    ctx = ctx_for(m, 1)
    card = UI.handle(ctx, "dsel", ["necromancer"])
    assert isinstance(card, Prompt) and card.embeds[0].title.endswith("Necromancer")
    ask = UI.handle(ctx, "dnm.necromancer", [])
    assert isinstance(ask, AskText) and ask.payload == "dname.necromancer" and ask.max_length == 40
    with pytest.raises(ValueError, match="blank"):
        UI.handle(ctx, ask.payload, ["   "])
    done = UI.handle(ctx, ask.payload, ["  Mortis   the Pale "])
    assert done.action == ChooseDiscipline(discipline="necromancer", name="Mortis the Pale")
    m.act(1, done.action)
    assert m.state.view(None)["players"][1]["wizard_name"] == "Mortis the Pale"


def test_discipline_cards_and_lookups():
    for did in DISCIPLINE_IDS:
        e = discipline_embed(did)
        text = " ".join([e.title, e.description] + [f.name + f.value for f in e.fields])
        assert "Minion" in text and "Move" in text and "Health" in text
        assert UI.lookup(did) is not None
    keys = {x.key for x in UI.lookup_choices("")}
    assert set(DISCIPLINE_IDS) <= keys and {"arcane_rocket", "shield", "dominate", "empower", "summon_minion"} <= keys
    assert UI.lookup("Fire Breath").title.endswith("Draconic Magus")
    assert UI.lookup("crowd_table") is not None and UI.lookup("nothing") is None
    names = [n for n, _ in UI.rules_fields()]
    assert any("Spell table" in n for n in names) and any("Crowd table" in n for n in names)


@pytest.mark.parametrize("size", [8, 9, 10, 11, 12])
def test_board_picture_for_every_grid_size(size):
    m, start = game_in_progress(size, seed=size)
    view = m.state.view(None)
    assert view["models"] and len(view["terrain"]) == 8
    post = UI.public_post(view, m.events[start:], NAMES, images=True)
    (f,) = post.files
    assert f.filename == "arena.png" and post.embeds[-1].image.url == "attachment://arena.png"
    img = Image.open(io.BytesIO(f.fp.read()))
    assert img.format == "PNG" and img.size == image_size(size)
    assert 600 <= img.width <= 700 and 700 <= img.height <= 860
    # a terrain square is drawn as rock, a model in its owner's colour
    img = board_image(view, NAMES).convert("RGB")
    assert len(img.getcolors(maxcolors=1 << 20)) > 50
    grid = text_grid(view)
    lines = grid.strip("`\n").splitlines()
    assert len(lines) == size + 2 and lines[1].split()[0] == str(size) and lines[-2].split()[0] == "1"
    assert grid.count("##") == 8
    check_embeds(post.embeds)


def test_the_text_post_shows_the_grid_favour_and_health():
    m, start = game_in_progress(10, seed=4, steps=120)
    view = m.state.view(None)
    post = UI.public_post(view, m.events, NAMES, images=False)
    assert not post.files
    text = " ".join((e.description or "") + " ".join(f.name + f.value for f in e.fields) for e in post.embeds)
    assert "```" in text and "Crowd Favour" in text and "❤️" in text
    for mdl in view["models"]:
        assert mdl["square"] in text
    assert "{p1}" not in text and "p1-wizard" not in text  # names and model ids are spelled out
    check_embeds(post.embeds)


def test_names_of_models_and_texts():
    m = Match.new("arena", seed=1, seats=NAMES)
    m.act(0, ChooseDiscipline(discipline="mermancer", name="Morgana"))
    m.act(1, ChooseDiscipline(discipline="artful_trickster"))
    view = m.state.view(None)
    assert model_name(view, "p1-wizard", NAMES) == "Ann's Wizard Morgana"
    assert model_name(view, "p2-wizard", NAMES) == "Bob's Wizard"
    assert model_name(view, "p2-m1", NAMES, own=1) == "your Phantasm 1"
    assert pretty("{p2} hits p1-wizard.", view, NAMES) == "Bob hits Ann's Wizard Morgana."


def test_the_picture_traces_this_posts_moves():
    # the docstring of arena_art: "The picture also traces this post's moves and attacks"
    m = duel(pos={W1: "E4", W2: "J9", M2: "J10"})
    to_action(m)
    events = move(m, W1, "C4")
    view = m.state.view(None)
    traced = board_image(view, NAMES, events).convert("RGB")
    assert traced.tobytes() != board_image(view, NAMES).convert("RGB").tobytes()
    # the path E4 -> D4 -> C4 in Player 1's colour, brightened: a dot on each square left behind
    colour = tuple(min(255, v + 60) for v in seat_colour(0))
    for left in ("E4", "D4"):
        x, y = _centre(sq(left), 10)
        assert traced.getpixel((int(x), int(y))) == colour, left


# ------------------------------------------------------------------------------ the payload grammar


def heads_offered(ctx: PromptContext, screen: Prompt | None = None, depth: int = 2) -> set[str]:
    """The payload heads of a prompt's first screen and of the screens up to ``depth`` clicks away
    (and of the text a click may ask for)."""
    screen = screen or UI.prompt(ctx)
    heads: set[str] = set()
    for payload, values in clicks(screen) if screen.view is not None else []:
        heads.add(payload.partition(".")[0])
        if depth == 0 or payload == "back":
            continue
        result = UI.handle(ctx, payload, values)
        if isinstance(result, AskText):
            heads.add(result.payload.partition(".")[0])
        elif isinstance(result, Prompt):
            heads |= heads_offered(ctx, result, depth - 1)
    return heads


def burning_wizard_activated() -> Match:
    """Player 2's Wizard burns (Fire Breath) and is being activated: it may put out the flames."""
    m = duel("draconic_magus", pos={W1: "E3", W2: "E8", helpers.M1: "D7", M2: "D8"})
    to_action(m, spell="fire_breath")
    helpers.act(m, W1, target=W2)
    helpers.roll(m, 6, 1)  # hit
    helpers.roll(m, 3, 2)  # 2D3 damage
    helpers.end_turn(m)  # Player 2's Start Phase: the Wizard burns
    to_action(m)
    m.act(1, SelectModel(model=W2))
    return m


@pytest.mark.slow
def test_every_payload_head_of_the_handler_table_is_offered_by_a_screen():
    """No handler is dead: each head of ``HANDLERS`` is on some screen's component (or is the text a
    click asks for), across set-up, whole random games, a burning Wizard and the fallback screen."""
    m = burning_wizard_activated()
    ctx = ctx_for(m, 1)
    seen = heads_offered(ctx)
    assert "ext" in seen and UI.handle(ctx, "ext", []) == Submit(Extinguish())
    # a decision kind this UI does not know: one button per legal action
    mystery = dataclasses.replace(ctx, decision=dataclasses.replace(ctx.decision, kind="mystery"))
    seen |= heads_offered(mystery)
    assert UI.handle(mystery, "any.0", []) == Submit(list(ctx.legal)[0])
    with pytest.raises(ValueError, match="out of date"):
        UI.handle(mystery, f"any.{len(ctx.legal)}", [])
    # the Disciplines whose choices come up every turn: the Blood Mage's sacrifice, the Noble
    # Scholar's +2, the Mermancer's Tidal Wave (an Action without a target)
    pairs = [("blood_mage", "noble_scholar"), ("mermancer", "draconic_magus")]
    for seed in range(20):
        if set(HANDLERS) <= seen:
            return
        rng = random.Random(seed)
        m = Match.new("arena", {"grid_size": 8 + seed % 5, "terrain_count": 4}, seed=seed, seats=NAMES)
        for _ in range(200):
            if m.awaiting.is_terminal:
                break
            seat = min(m.awaiting.seats)
            ctx = ctx_for(m, seat)
            seen |= heads_offered(ctx)
            if m.state.view(None)["phase"] == "discipline":
                m.act(seat, ChooseDiscipline(discipline=pairs[seed % 2][seat]))
            else:
                m.act(seat, random_click(ctx, rng))
    assert set(HANDLERS) <= seen, sorted(set(HANDLERS) - seen)


def test_the_documented_custom_id_grammar_is_the_handler_table():
    """The prompts module's docstring lists exactly the payload heads ``handle`` understands."""
    doc = prompts.__doc__ or ""
    documented = re.findall(r"^    ([a-z]+)(?:\.<[a-z]+>)?\s{2,}(?:button|select|modal)\s", doc, re.M)
    assert set(documented) == set(HANDLERS)
    kinds = re.findall(r"``([a-z]{2})``", doc.rsplit("Square kinds", 1)[1])
    assert sorted(kinds) == sorted(SQUARE_KINDS)


def test_each_square_kind_stands_for_one_kind_of_action():
    """A square kind's action for a square is recognised by that kind only, with the same square."""
    for kind, k in SQUARE_KINDS.items():
        action = k.action((2, 3))
        assert k.square_of(action) == (2, 3), kind
        assert [other for other, o in SQUARE_KINDS.items() if o.square_of(action) is not None] == [kind]


def test_unknown_and_out_of_place_payloads_are_refused_with_a_reason():
    """A payload no screen of this prompt carries is refused with a readable ValueError (the
    platform shows it to the player), never submitted."""
    m = duel(pos={W1: "E4", W2: "J9", M2: "J10"})
    to_action(m)
    ctx = ctx_for(m, 0)
    refused = {
        "zz": "does not belong to this prompt",
        "": "does not belong to this prompt",
        "sq.zz": "does not belong to this prompt",
        "col.mv": "does not belong to this prompt",  # a column select without its value
        "edge.up": "Unknown edge",
        "dnm.nope": "Unknown Discipline",
        "sp.fireball": "not among your options",
        "dok.mermancer": "cannot be chosen now",
        "sel.p2-wizard": "cannot be activated now",
        "fav.1": "cannot spend",
        "rt": "Terrain has been placed already",
        "decl": "not legal now",
        "ea": "not legal now",
    }
    for payload, why in refused.items():
        with pytest.raises(ValueError, match=why):
            UI.handle(ctx, payload, [])
    with pytest.raises(ValueError, match="not a legal square"):
        UI.handle(ctx, "sq.mv", ["A1"])


# ------------------------------------------------------------------------------ the confirm step


def submit_of(ctx: PromptContext, payload: str, values: list[str]) -> tuple[Prompt, Submit]:
    """A click that leads to a confirm screen, and its Confirm button's Submit."""
    screen = UI.handle(ctx, payload, values)
    assert isinstance(screen, Prompt), screen
    heads = [payload_of(it) for it in check_components(screen.view)]
    assert "back" in heads
    confirm = next(p for p in heads if p != "back")
    check_embeds(screen.embeds)
    result = UI.handle(ctx, confirm, [])
    assert isinstance(result, Submit)
    return screen, result


def test_a_move_is_confirmed_or_taken_back_before_it_commits():
    m = duel(pos={W1: "E4", W2: "J9", M2: "J10"})
    to_action(m)
    m.act(0, SelectModel(model=W1))
    ctx = ctx_for(m, 0)
    screen, submit = submit_of(ctx, "sq.mv", ["C4"])
    assert submit == Submit(Move(to=sq("C4")))
    text = screen_text(screen)
    assert "from **E4** to **C4**" in text and "⚠️" not in text  # no enemy next to it: no warning
    assert "Moving now costs" not in screen_text(UI.prompt(ctx))
    # Back returns to the activation screen, which still offers the move
    back = UI.handle(ctx, "back", [])
    assert isinstance(back, Prompt) and "may still Move" in screen_text(back)
    # a Confirm that names a square the model cannot reach, or no square at all, is refused
    with pytest.raises(ValueError, match="not a legal square"):
        UI.handle(ctx, "okm.A10", [])
    with pytest.raises(ValueError, match="is not a square"):
        UI.handle(ctx, "okm.zz", [])


def test_the_confirm_screen_warns_of_the_damage_for_leaving_an_enemys_side():
    # docs/rulings/arena.md#risk-warnings;
    # docs/rulings/arena.md#disengaging: starting a Move next to an enemy costs 2 damage
    m = duel(pos={W1: "E4", M2: "E5", W2: "J9"})
    to_action(m)
    m.act(0, SelectModel(model=W1))
    assert "Moving now costs 2 damage: it stands next to an enemy." in screen_text(UI.prompt(ctx_for(m, 0)))
    screen, submit = submit_of(ctx_for(m, 0), "sq.mv", ["C4"])
    text = screen_text(screen)
    assert "Your Wizard takes 2 damage" in text and "15 → 13 Health" in text
    assert "Bob's Undead 1 (E5)" in text and "lose the match" not in text
    # the warning says what the engine then does
    events = m.act(0, submit.action)
    (dmg,) = [e.data for e in events if e.kind == "damage"]
    assert dmg["amount"] == 2 and dmg["health"] == 13


def test_the_warning_says_when_leaving_knocks_out_your_own_wizard():
    m = duel(pos={W1: "E4", M2: "E5", W2: "J9"})
    to_action(m)
    helpers.state(m).models[W1].health = 2
    m.act(0, SelectModel(model=W1))
    screen, submit = submit_of(ctx_for(m, 0), "sq.mv", ["C4"])
    assert "This knocks out your Wizard: you would lose the match." in screen_text(screen)
    assert any(e.kind == "knockout" for e in m.act(0, submit.action))


def test_an_action_on_a_target_is_confirmed_before_it_commits():
    m = duel(pos={W1: "E4", W2: "E8", M2: "J10"})
    to_action(m, spell="fire_breath", dice=(3, 3))
    m.act(0, SelectModel(model=W1))
    ctx = ctx_for(m, 0)
    screen, submit = submit_of(ctx, "act", [W2])
    assert submit == Submit(Act(target=W2))
    text = screen_text(screen)
    assert "**Your Wizard** uses **Fire Breath** on **Bob's Wizard** (E8, 15/15 Health)?" in text
    assert "Skill 4 against Defence 4, each side adding its dice" in text and "Damage on a success: 2D3." in text
    with pytest.raises(ValueError, match="out of range"):
        UI.handle(ctx, "oka.p2-m9", [])
    with pytest.raises(ValueError, match="out of range"):
        UI.handle(ctx, "act", ["p2-m9"])


def test_a_dominated_minion_is_confirmed_without_a_warning():
    # docs/rulings/arena.md#dominate: a Move caused by a Spell costs no damage,
    # so docs/rulings/arena.md#risk-warnings has none to give
    m = duel(pos={W1: "E3", M2: "E4", W2: "E7"})
    to_action(m, spell="dominate", dice=(4, 4))
    m.apply(0, SelectModel(model=W1))
    m.apply(0, Act(target=M2))
    helpers.roll(m, 6, 1)
    ctx = ctx_for(m, 0)
    assert ctx.decision.kind == "dominate"
    screen, submit = submit_of(ctx, "sq.mv", ["E6"])
    text = screen_text(screen)
    assert "Move **Bob's Undead 1** from **E4** to **E6**?" in text and "⚠️" not in text
    assert not any(e.kind == "damage" for e in m.apply(0, submit.action))
    screen, submit = submit_of(ctx_for(m, 0), "act", [W2])
    assert submit == Submit(Act(target=W2))
    assert "**Bob's Undead 1** uses **Grave Strike** on **Bob's Wizard**" in screen_text(screen)


def blood_mage_asked(health: int) -> Match:
    # docs/rulings/arena.md#blood-mage-sacrifice: D6 damage in the Start Phase for one extra Spell Selection die
    m = duel("blood_mage", pos={W1: "E5", W2: "E8"})
    helpers.state(m).models[W1].health = health
    assert helpers.prompt(m) == "blood_pact"
    return m


def test_the_blood_mages_sacrifice_asks_to_confirm_when_it_can_knock_out_your_wizard():
    m = blood_mage_asked(3)
    ctx = ctx_for(m, 0)
    first = UI.prompt(ctx)
    assert "This can knock out your Wizard" in screen_text(first) and "3 → 0–2 Health" in screen_text(first)
    screen, submit = submit_of(ctx, "bp", [])
    assert submit == Submit(BloodPact()) and "Sacrifice anyway" in [b.label for b in screen.view.children]
    # the engine agrees: the highest roll of the card's D6 knocks the Wizard out
    m.apply(0, submit.action)
    assert any(e.kind == "knockout" for e in helpers.roll(m, 6))


def test_a_sacrifice_that_cannot_knock_out_your_wizard_commits_at_once():
    m = blood_mage_asked(7)
    ctx = ctx_for(m, 0)
    assert "can knock out" not in screen_text(UI.prompt(ctx))
    assert "Your Wizard takes 1 to 6 damage" in screen_text(UI.prompt(ctx))
    assert UI.handle(ctx, "bp", []) == Submit(BloodPact())
    m.apply(0, BloodPact())
    assert not any(e.kind == "knockout" for e in helpers.roll(m, 6))
    assert helpers.health(m, W1) == 1


def test_confirm_buttons_of_another_decision_are_refused():
    m = duel(pos={W1: "E4", W2: "J9", M2: "J10"})
    to_action(m)
    ctx = ctx_for(m, 0)  # choosing a model to activate: nothing to confirm
    for payload, why in (
        ("bpok", "not legal now"),
        ("okm.E5", "not a legal square"),
        ("oka.p2-wizard", "out of range"),
    ):
        with pytest.raises(ValueError, match=why):
            UI.handle(ctx, payload, [])


def test_a_spell_line_says_its_range_and_damage_once():
    # ux-review-2: "Arcane Rocket (range 6, 2 damage; targets an enemy model): Range 6, 2 damage."
    from cogs.games.arena.text import DATA, spell_line

    assert spell_line("arcane_rocket") == "**Arcane Rocket** (range 6, 2 damage; targets an enemy model)"
    torment = next(d.spell.id for d in DATA.disciplines.values() if d.spell.name == "Mental Torment")
    assert spell_line(torment).endswith(
        "(range 6, D6 damage; targets an enemy model): The target has -2 Skill on its next turn."
    )
    for did, d in DATA.disciplines.items():
        assert len(re.findall(r"[Rr]ange \d", spell_line(d.spell.id))) <= 1, spell_line(d.spell.id)
        action = discipline_embed(did).fields[-1].value
        assert len(re.findall(r"[Rr]ange \d", action)) == 1, action


def test_the_end_turn_confirmation_says_where_the_player_is():
    # ux-review-2: 43 prompts whose whole content was "end your turn?" (lower case, no context)
    from cogs.games.arena.screens import end_turn_confirm

    m = duel()
    to_action(m)
    content = end_turn_confirm(ctx_for(m, 0)).content
    assert content[:1].isupper() and content.startswith("Action Phase: end your turn")
    assert "can still move or act" in content
