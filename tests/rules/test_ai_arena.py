"""Arena AI on constructed positions: the Wizard keeps out of reach of a rush it cannot survive,
and it knocks the enemy Wizard out when it can (rules.ai.arena_threat, rules.ai.arena_guard)."""

from __future__ import annotations

import random

from rules import Match
from rules.ai import choose
from rules.ai.arena import root_prior
from rules.ai.arena_guard import prior, safest_square
from rules.ai.arena_portfolio import chosen_discipline
from rules.ai.arena_script import SCREEN
from rules.ai.arena_script import decide as script_decide
from rules.ai.arena_setup import deployment, discipline_scores
from rules.ai.arena_threat import discipline_chance, kill_chance, opposed_odds
from rules.arena import (
    DISCIPLINE_IDS,
    Act,
    Arena,
    ChooseDiscipline,
    ChooseEdge,
    Deploy,
    Move,
    PlaceTerrain,
    Roll,
    manhattan,
)
from rules.arena.actions import Decline, SpendFavour, choose_spell
from rules.arena.game import Phase
from rules.core import CHANCE
from tests.rules.arena.helpers import W1, W2, duel, roll, sq, state, to_action


def _rush_position(health: int = 5):  # type: ignore[no-untyped-def]
    """Our Draconic Magus (seat 0, Player 1) on E2 with ``health``, its Drake Spirit on J1; the
    enemy Blood Mage on E8 with its Blood Imp on A10: Move 4 + Boiling Blood's range 3 reach E1..E4
    (design note: Boiling Blood 3 / 2D6; the Wizard's Move 4)."""
    m = duel("draconic_magus", "blood_mage", pos={W1: "E2", "p1-m1": "J1", W2: "E8", "p2-m1": "A10"})
    state(m).models[W1].health = health
    to_action(m, spell="arcane_rocket")
    return m


def test_threat_odds_follow_the_rules() -> None:
    # ruling 16: the Discipline Spell on a 3 or any double; 2 dice 16/36, 3 dice (Blood Mage) 156/216
    assert abs(discipline_chance(2) - 16 / 36) < 1e-9
    assert abs(discipline_chance(3) - 156 / 216) < 1e-9
    assert discipline_chance(1) == 1 / 6
    # ruling 29 / design note: D6 + Skill must beat D6 + Defence; equal Skill and Defence: 15/36 win, 6/36 tie
    win, tie = opposed_odds(4, 4, False)
    assert abs(win - 15 / 36) < 1e-9 and abs(tie - 6 / 36) < 1e-9
    # ruling 27: the Metallurgist's Wizard keeps the higher of two Defence dice: harder to beat
    assert opposed_odds(4, 4, True)[0] < win


def test_kill_chance_counts_move_plus_range() -> None:
    """ruling 22 (Move along free squares) and ruling 25 (range is orthogonal distance): the Blood
    Mage on E8 reaches E1 (7 away: Move 4 + range 3) but not A1 (11 away)."""
    m = _rush_position()
    st = state(m)
    assert kill_chance(st, 0, sq("E1")) > 0.2
    assert kill_chance(st, 0, sq("A1")) == 0.0
    # the enemy's turn comes next: the active player's own Wizard is not threatened by itself
    assert st.active == 0 and st.phase == Phase.ACTION


def test_prior_steps_the_wizard_out_of_a_lethal_rush() -> None:
    m = _rush_position()
    st = state(m)
    assert prior(st, 0) is not None
    found = safest_square(st, 0)
    assert found is not None and found[1] == 0.0


def test_normal_moves_its_wizard_out_of_reach_of_boiling_blood() -> None:
    """docs/rulings/arena.md ruling 42: the knock-out ends the game. Our Wizard (5 Health) on E2
    is within the Blood Mage's Move 4 + Boiling Blood range 3 (2D6: 5 or more 5 times in 6); the AI
    (normal, fixed seeds) ends its turn with the Wizard out of that reach."""
    for seed in (1, 2, 3):
        m = _rush_position()
        st = state(m)
        for _ in range(40):
            if st.active != 0 or st.phase != Phase.ACTION or st.awaiting.is_terminal:
                break
            seat = min(st.awaiting.seats) if not st.awaiting.is_chance else None
            if seat is None:
                m.resolve_chance()
                continue
            m.apply(seat, choose(st, seat, level="normal", seed=seed))
        wiz, enemy = st.models.get(W1), st.models[W2]
        assert wiz is not None
        assert manhattan(wiz.pos, enemy.pos) > 7 or kill_chance(st, 0) < 0.05, (seed, wiz.pos)


def test_normal_knocks_out_the_enemy_wizard_when_it_can() -> None:
    """ruling 42: a Wizard at 0 Health is knocked out and the game ends, so a Wizard that can strike
    the enemy Wizard does it first. Fire Breath (range 6, 2D3) on the enemy Wizard (2 Health) 5
    squares away; an enemy Minion next to ours is a distraction."""
    for seed in (1, 2, 3):
        m = duel(
            "draconic_magus",
            "necromancer",
            pos={W1: "E3", "p1-m1": "B5", W2: "E8", "p2-m1": "B6"},
        )
        st = state(m)
        st.models[W2].health = 2
        to_action(m, spell="fire_breath")
        acts: list[Act] = []
        for _ in range(10):
            if st.active != 0 or st.phase != Phase.ACTION or acts:
                break
            action = choose(st, 0, level="normal", seed=seed)
            if isinstance(action, Act):
                acts.append(action)
            elif isinstance(action, Move):
                pass
            m.apply(0, action)
        assert acts and acts[0].target == W2, (seed, acts)


def test_kill_chance_counts_the_crowds_crystal_shard() -> None:
    """ruling 2 and the crowd table: spending 6 Crowd Favour rolls a 6 for sure, the crystal shard:
    D6 damage to the enemy Wizard, wherever it stands. Our Wizard (3 Health) on A1, out of every
    enemy model's reach: it falls on a 3 or more."""
    m = duel("draconic_magus", "blood_mage", pos={W1: "A1", "p1-m1": "B1", W2: "J10", "p2-m1": "I10"})
    st = state(m)
    st.models[W1].health = 3
    to_action(m, spell="arcane_rocket")
    assert kill_chance(st, 0) == 0.0
    st.players[1].favour = 6
    assert abs(kill_chance(st, 0) - 4 / 6) < 1e-9


def test_discipline_is_chosen_from_the_rules_data() -> None:
    """Set-up: the search's playouts end long before the Disciplines' strengths show, so the prior
    scores them from the rules' data (rules.ai.arena_setup): damage dealt to an enemy Wizard per
    turn (Spell Selection offers the Discipline Spell 16/36 of the time with two dice, Arcane Rocket
    always), reach (Move + range), and the Metallurgist's two Defence dice (ruling 27)."""
    scores = discipline_scores()
    assert set(scores) == set(DISCIPLINE_IDS)
    # a damaging Discipline Spell of 2D6 or 2D3 beats a spell that deals no damage
    assert scores["blood_mage"] > scores["artful_trickster"]
    assert scores["draconic_magus"] > scores["noble_scholar"]
    # the same Storm of Iron output is worth more with the Metallurgist's two Defence dice
    assert scores["metallurgist"] > scores["draconic_magus"]
    m = Match(Arena({}), 0, ["Ann", "Bob"])
    if m.state.awaiting.is_chance:
        m.resolve_chance()
    best = max(scores, key=lambda k: scores[k])
    for seat in (0, 1):
        assert root_prior(m.state, seat) == ChooseDiscipline(discipline=best)
        # easy's tree plays this prior; normal and hard take the Discipline whole games favour
        # (rules.ai.arena_portfolio.chosen_discipline, tests/rules/test_ai_arena_portfolio.py)
        assert choose(m.state, seat, level="normal", seed=1) == chosen_discipline()
    m.apply(0, ChooseDiscipline(discipline=best))
    assert root_prior(m.state, 0) is None


def test_spell_selection_prefers_the_damaging_spell_that_reaches_the_enemy_wizard() -> None:
    """ruling 16: a double offers any spell. Our Draconic Magus on E3, the enemy Wizard on E8 (5
    squares: Fire Breath's range 6, 2D3, and Arcane Rocket's range 6, 2 damage, both reach): the
    prior is Fire Breath (the most average damage, 4), not a summon or a buff."""
    m = duel("draconic_magus", "necromancer", pos={W1: "E3", "p1-m1": "B5", W2: "E8", "p2-m1": "B6"})
    st = state(m)
    for _ in range(20):
        if st.prompt is not None and st.prompt.kind == "spell":
            break
        if st.pending_roll is not None:
            roll(m, *(2,) * len(st.pending_roll.sides))
            continue
        assert st.prompt is not None
        m.apply(st.prompt.seat, SpendFavour(points=0) if st.prompt.kind == "crowd" else Decline())
    assert st.prompt is not None and st.prompt.kind == "spell"
    assert root_prior(st, 0) == choose_spell("fire_breath")
    # out of every damaging spell's reach (Move 4 + range 6 < 11): no opinion, the search decides
    st.models[W2].pos = sq("J10")
    st.models[W1].pos = sq("A1")
    assert root_prior(st, 0) is None


def test_deployment_keeps_the_wizard_out_of_the_enemys_way() -> None:
    """ruling 11: each model on a free square of the own edge row, Player 1 first. Our Wizard
    (Player 1, south edge) goes to the corner A1, with terrain on B2 within 2 squares (cover) and
    only two squares next to it, its Minion beside it on B1; the enemy Wizard then goes to the
    square of its north edge row farthest from ours, J10."""
    m = Match(Arena({}), 0, ["Ann", "Bob"])
    m.apply(CHANCE, Roll(dice=(6, 1)))
    m.apply(0, ChooseDiscipline(discipline="metallurgist"))
    m.apply(1, ChooseDiscipline(discipline="blood_mage"))
    st = state(m)
    for t in ("B2", "E5", "F5", "G5", "C5", "D5", "H5", "I5")[: st.terrain_count]:
        m.apply(0, PlaceTerrain(at=sq(t)))
    m.apply(1, ChooseEdge(side="north"))
    assert st.phase == Phase.DEPLOY
    assert deployment(st, 1) is None  # Player 1 deploys first
    wizard = deployment(st, 0)
    assert wizard == Deploy(model="wizard", at=sq("A1"))
    assert root_prior(st, 0) == wizard  # the tree's prior (easy); normal and hard deploy as the screen script
    assert choose(st, 0, level="normal", seed=1) == script_decide(SCREEN, st, 0, random.Random(0))
    m.apply(0, wizard)
    assert deployment(st, 0) == Deploy(model="minion", at=sq("B1"))
    m.apply(0, Deploy(model="minion", at=sq("B1")))
    assert deployment(st, 1) == Deploy(model="wizard", at=sq("J10"))
