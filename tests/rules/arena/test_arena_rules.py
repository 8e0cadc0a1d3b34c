"""Arena rule scenarios. Each test cites the ruling it checks by its anchor in docs/rulings/arena.md
(a few, on the JSON interface, cite docs/actions/arena.md), sometimes with a few words of the rule;
each ruling says which part of the game's rules it implements."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.arena import (
    Act,
    Arena,
    BloodPact,
    ChooseDiscipline,
    ChooseEdge,
    ChooseSpell,
    Decline,
    Deploy,
    EndActivation,
    EndTurn,
    Extinguish,
    Move,
    PlaceMinion,
    PlaceTerrain,
    RandomTerrain,
    Reroll,
    Roll,
    ScholarBonus,
    SelectModel,
    SpendFavour,
    Teleport,
    TerrainLayout,
    WitchStep,
    line_of_sight,
    load_data,
    reachable,
)
from rules.arena.board import mirror
from rules.core import CHANCE, Result
from rules.errors import IllegalAction, MalformedAction, NotYourTurn
from rules.match import Match, MatchLog

from .helpers import (
    M1,
    M2,
    W1,
    W2,
    act,
    add_minion,
    duel,
    end_turn,
    health,
    kinds,
    move,
    of,
    prompt,
    purpose,
    roll,
    sq,
    state,
    to_action,
)

ROOT = Path(__file__).resolve().parents[3]
DATA = load_data()


def view_model(m: Match, mid: str) -> dict:
    return next(x for x in state(m).view(None)["models"] if x["id"] == mid)


def targets(m: Match, seat: int | None = None) -> list[str]:
    st = state(m)
    seat = st.active if seat is None else seat
    return [a.target for a in st.legal_actions(seat) if isinstance(a, Act) and a.target]


def moves(m: Match, seat: int | None = None) -> set[str]:
    st = state(m)
    seat = st.active if seat is None else seat
    return {f"{chr(65 + a.to[0])}{a.to[1] + 1}" for a in st.legal_actions(seat) if isinstance(a, Move)}


# ============================================================================ geometry


def test_line_of_sight_touching_a_corner_is_not_blocked():
    # docs/rulings/arena.md#corner-contact-line-of-sight: touching a terrain square's corner does not block
    assert line_of_sight((0, 0), (2, 2), [(1, 0)])
    assert line_of_sight((0, 0), (2, 2), [(1, 0), (0, 1)])
    # docs/rulings/arena.md#range-and-line-of-sight: a line through a terrain space obscures the Target
    assert not line_of_sight((0, 0), (2, 2), [(1, 1)])
    assert not line_of_sight((0, 0), (4, 0), [(2, 0)])


def test_line_of_sight_is_exact_on_shallow_lines():
    # docs/rulings/arena.md#corner-contact-line-of-sight: exact geometry, no float surprises
    # centres (1,1) -> (19,7) in doubled units pass exactly through the corner (4,2) between
    # squares B1, C1, B2, C2: only B1 and C2 are crossed.
    a, b = (0, 0), (9, 3)
    assert not line_of_sight(a, b, [(1, 0)])
    assert not line_of_sight(a, b, [(2, 1)])
    assert line_of_sight(a, b, [(2, 0)])
    assert line_of_sight(a, b, [(1, 1)])
    # a line running along the shared edge of two squares only touches them
    assert line_of_sight((0, 0), (3, 1), [(3, 0)]) is line_of_sight((3, 1), (0, 0), [(3, 0)])


def test_movement_is_orthogonal_with_staircase_paths():
    # docs/rulings/arena.md#measuring-in-spaces: no diagonal moves, "staircase" paths are fine
    paths = reachable((4, 4), 4, 10, lambda s: True)
    assert (6, 6) in paths and (7, 6) not in paths  # 2+2 = 4 steps; 3+2 = 5 is too far
    path = paths[(6, 6)]
    steps = [(4, 4), *path]
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(steps, steps[1:], strict=False))


def test_moves_go_around_terrain_and_models():
    # docs/rulings/arena.md#move-along-free-squares: "Models cannot move through terrain or other models."
    m = duel(pos={W1: "E4", M1: "E3", W2: "E8", M2: "F8"}, terrain=("D4", "F4"))
    to_action(m)
    move(m, W1, "E5")
    st = state(m)
    st.activation = None  # look at the legal destinations of a fresh Move
    st.activated = []
    st.models[W1].pos = sq("E4")
    m.apply(0, SelectModel(model=W1))
    dest = moves(m)
    # E5 is the only way out: D4/F4 are terrain, E3 is a friendly Minion
    assert {"E5", "E6", "E7", "D5", "F5", "D6", "C5", "G5"} <= dest
    assert "E3" not in dest and "D4" not in dest and "E2" not in dest
    assert "D3" not in dest  # 1 diagonal away, but the path around is 5 steps
    with pytest.raises(IllegalAction, match="D4 is terrain"):
        m.apply(0, Move(to=sq("D4")))
    with pytest.raises(IllegalAction, match="occupied"):
        m.apply(0, Move(to=sq("E3")))
    with pytest.raises(IllegalAction, match="cannot be reached"):
        m.apply(0, Move(to=sq("D3")))
    ev = m.apply(0, Move(to=sq("D6")))
    (mv,) = of(ev, "move")
    assert mv["to"] == [3, 5] and mv["path"][-1] == [3, 5] and len(mv["path"]) == 3


def test_moving_away_from_an_adjacent_enemy_costs_2_damage_once():
    # docs/rulings/arena.md#disengaging: 2 damage for starting a Move next to an enemy, once ("doesn't stack")
    m = duel(pos={W1: "E4", M2: "E5", W2: "F5", M1: "A1"})
    to_action(m)
    ev = move(m, W1, "C4")
    dmg = of(ev, "damage")
    assert len(dmg) == 1 and dmg[0]["amount"] == 2 and dmg[0]["cause"] == "move"
    assert health(m, W1) == 13 and state(m).models[W1].pos == sq("C4")
    # diagonal is 2 spaces away: no damage
    m2 = duel(pos={W1: "E4", W2: "F5"})
    to_action(m2)
    assert not of(move(m2, W1, "C4"), "damage")


def test_a_minion_killed_by_disengaging_does_not_move():
    # docs/rulings/arena.md#disengaging: a Minion removed by it does not move
    m = duel(pos={M1: "E4", M2: "E5", W2: "J9"})
    to_action(m)
    state(m).models[M1].health = 2
    ev = move(m, M1, "C4")
    assert of(ev, "minion_removed")[0]["model"] == M1
    assert not of(ev, "move")


# ============================================================================ set-up


def test_setup_disciplines_terrain_edge_deploy_rolloff():
    # docs/rulings/arena.md#discipline-choice: each player makes a Wizard by choosing its Magic Discipline
    m = Match.new("arena", {"first_player": "challenger"}, seed=5, seats=["Ann", "Bob"])
    st = state(m)
    assert m.awaiting.seats == frozenset({0, 1})
    with pytest.raises(IllegalAction, match="Unknown Discipline"):
        m.act(0, ChooseDiscipline(discipline="pyromancer"))
    m.act(1, ChooseDiscipline(discipline="mermancer", name="Nerissa"))
    m.act(0, ChooseDiscipline(discipline="metallurgist"))
    assert st.view(None)["players"][1]["wizard_name"] == "Nerissa"
    # docs/rulings/arena.md#terrain-by-player-1: Player 1 sets up the terrain "however they wish"
    assert m.awaiting.seats == frozenset({0})
    with pytest.raises(NotYourTurn):
        m.act(1, PlaceTerrain(at=sq("C5")))
    for t in ("C5", "D5", "E5", "F5", "G5", "H5"):
        m.act(0, PlaceTerrain(at=sq(t)))
    assert st.phase == "edge"
    # docs/rulings/arena.md#board-edges: Player 2 selects the board edge, Player 1 gets the opposite side
    m.act(1, ChooseEdge(side="west"))
    assert [p.edge for p in st.players] == ["east", "west"]
    # docs/rulings/arena.md#deployment: Player 1 sets up their team on their board edge, then Player 2
    with pytest.raises(NotYourTurn):
        m.act(1, Deploy(model="wizard", at=sq("A3")))
    with pytest.raises(IllegalAction, match="not on your board edge"):
        m.act(0, Deploy(model="wizard", at=sq("A3")))
    m.act(0, Deploy(model="wizard", at=sq("J3")))
    with pytest.raises(IllegalAction, match="already deployed"):
        m.act(0, Deploy(model="wizard", at=sq("J4")))
    with pytest.raises(IllegalAction, match="not free"):
        m.act(0, Deploy(model="minion", at=sq("J3")))
    m.act(0, Deploy(model="minion", at=sq("J4")))
    m.act(1, Deploy(model="minion", at=sq("A8")))
    m.apply(1, Deploy(model="wizard", at=sq("A7")))
    # docs/rulings/arena.md#crowd-roll-off: the winner gains 1 Crowd Favour; docs/rulings/arena.md#ties-reroll
    assert purpose(m) == "rolloff"
    ev = roll(m, 4, 4)
    assert of(ev, "rolloff")[0]["winner"] is None and purpose(m) == "rolloff"
    roll(m, 2, 5)
    assert [p.favour for p in st.players] == [0, 1]
    # docs/rulings/arena.md#crowd-roll-off: "Player 1 has the first turn."
    assert st.active == 0 and st.turn_no == 1 and st.game_turn == 1


def test_a_roll_off_decides_who_is_player_1_and_player_1_is_a_role():
    # docs/rulings/arena.md#roll-off-for-player-1: "either by a roll-off, or ..."
    m = Match(Arena(), 0, ["Ann", "Bob"])
    st = state(m)
    assert m.awaiting.is_chance and purpose(m) == "first_player" and st.pending_roll.sides == (6, 6)
    ev = roll(m, 3, 3)  # a tie is rolled again
    assert of(ev, "first_player") == [{"dice": [3, 3], "winner": None}] and purpose(m) == "first_player"
    ev = roll(m, 2, 5)  # seat 0's die, seat 1's die: Bob (seat 1) is Player 1
    assert of(ev, "first_player") == [{"dice": [2, 5], "winner": 1, "player_one": 1}]
    assert "{p2} wins the roll-off (2-5) and is Player 1" in ev[-1].text
    assert st.player_one == 1 and st.view(None)["player_one"] == 1
    m.apply(0, ChooseDiscipline(discipline="mermancer"))
    m.apply(1, ChooseDiscipline(discipline="metallurgist"))
    # docs/rulings/arena.md#terrain-by-player-1: Player 1 (here seat 1) sets up the terrain
    assert m.awaiting.seats == frozenset({1})
    with pytest.raises(NotYourTurn):
        m.apply(0, PlaceTerrain(at=sq("C5")))
    for t in ("C5", "D5", "E5", "F5", "G5", "H5"):
        m.apply(1, PlaceTerrain(at=sq(t)))
    # docs/rulings/arena.md#board-edges: Player 2 (here seat 0) chooses the edge, Player 1 starts on the opposite one
    assert m.awaiting.seats == frozenset({0}) and st.asked(0).kind == "edge"
    m.apply(0, ChooseEdge(side="north"))
    assert [p.edge for p in st.players] == ["north", "south"]
    # Player 1 deploys first
    assert m.awaiting.seats == frozenset({1})
    m.apply(1, Deploy(model="wizard", at=sq("E1")))
    m.apply(1, Deploy(model="minion", at=sq("F1")))
    assert m.awaiting.seats == frozenset({0})
    m.apply(0, Deploy(model="wizard", at=sq("E10")))
    m.apply(0, Deploy(model="minion", at=sq("F10")))
    # the crowd roll-off: Player 1's die first
    ev = roll(m, 6, 2)
    assert of(ev, "rolloff")[0]["winner"] == 1 and st.players[1].favour == 1
    # Player 1 plays the first turn; the game turn ends with Player 2's turn
    assert st.active == 1 and st.turn_no == 1 and st.game_turn == 1
    to_action(m)
    end_turn(m)
    assert st.active == 0 and st.game_turn == 1
    to_action(m)
    end_turn(m)
    assert st.active == 1 and st.game_turn == 2 and st.turn_no == 3


def test_the_challenger_option_and_old_logs_make_seat_0_player_1():
    # docs/rulings/arena.md#roll-off-for-player-1: the option first_player "challenger" skips the roll-off,
    # as old logs do
    m = Match.new("arena", {"first_player": "challenger"}, seed=3, seats=["Ann", "Bob"])
    assert not m.log and state(m).player_one == 0 and m.awaiting.seats == frozenset({0, 1})
    # a log stored before the roll-off existed has no first_player option: it replays challenger first
    old = m.to_log().model_dump(mode="json")
    del old["options"]["first_player"]
    r = Match.replay(old)
    assert r.game.options.first_player == "challenger" and state(r).player_one == 0 and not r.log
    # a new match without options rolls off
    assert Match.new("arena", seed=3).log[0].action["type"] == "roll"


def test_terrain_must_leave_two_free_squares_on_every_edge():
    # docs/rulings/arena.md#terrain-by-player-1: anywhere, but every edge keeps 2 free squares for a deployment
    m = Match(
        __import__("rules.arena", fromlist=["Arena"]).Arena(
            {"grid_size": 8, "terrain_count": 8, "first_player": "challenger"}
        ),
        0,
        ["a", "b"],
    )
    m.apply(0, ChooseDiscipline(discipline="necromancer"))
    m.apply(1, ChooseDiscipline(discipline="necromancer"))
    for x in range(6):
        m.apply(0, PlaceTerrain(at=(x, 0)))
    with pytest.raises(IllegalAction, match="fewer than 2 free squares"):
        m.apply(0, PlaceTerrain(at=(6, 0)))
    with pytest.raises(IllegalAction, match="already terrain"):
        m.apply(0, PlaceTerrain(at=(0, 0)))
    with pytest.raises(IllegalAction, match="not on the 8x8 board"):
        m.apply(0, PlaceTerrain(at=(9, 9)))
    # random_terrain is only offered before the first piece
    with pytest.raises(IllegalAction):
        m.apply(0, RandomTerrain())


@pytest.mark.parametrize("size,count", [(10, 6), (9, 5), (10, 5), (12, 8), (8, 7)])
def test_random_terrain_is_symmetric_and_never_on_an_edge(size, count):
    # docs/rulings/arena.md#random-terrain-mirrored: mirrored about the centre, never on a board edge row;
    # docs/rulings/arena.md#random-terrain-odd-count: the odd piece on a centre square
    for seed in range(5):
        m = Match.new("arena", {"grid_size": size, "terrain_count": count, "terrain_setup": "random"}, seed=seed)
        m.act(0, ChooseDiscipline(discipline="necromancer"))
        m.act(1, ChooseDiscipline(discipline="green_witch"))
        ter = state(m).terrain
        assert len(set(ter)) == count
        assert all(0 < x < size - 1 and 0 < y < size - 1 for x, y in ter)
        unpaired = [t for t in ter if mirror(t, size) not in ter or mirror(t, size) == t]
        assert len(unpaired) == count % 2
        assert all(abs(2 * x - (size - 1)) <= 1 and abs(2 * y - (size - 1)) <= 1 for x, y in unpaired)


def test_random_terrain_is_a_chance_action_that_can_be_forced_and_is_checked():
    # docs/rulings/arena.md#random-terrain-mirrored: a chance action, checked when forced;
    # docs/rulings/arena.md#terrain-by-player-1
    m = Match(__import__("rules.arena", fromlist=["Arena"]).Arena({"first_player": "challenger"}), 0, ["a", "b"])
    m.apply(0, ChooseDiscipline(discipline="necromancer"))
    m.apply(1, ChooseDiscipline(discipline="necromancer"))
    m.apply(0, RandomTerrain())
    assert m.awaiting.is_chance
    with pytest.raises(IllegalAction, match="mirrored"):
        m.apply(CHANCE, TerrainLayout(squares=((1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 7))))
    with pytest.raises(IllegalAction, match="edge"):
        m.apply(CHANCE, TerrainLayout(squares=((0, 1), (9, 8), (3, 3), (6, 6), (5, 4), (4, 5))))
    layout = ((1, 1), (8, 8), (3, 3), (6, 6), (5, 4), (4, 5))
    m.apply(CHANCE, TerrainLayout(squares=layout))
    assert sorted(state(m).terrain) == sorted(layout)
    assert len(state(m).legal_actions(1)) == 4  # the four edges


def test_mutant_rolls_d3_when_placed():
    # docs/rulings/arena.md#flesh-transmuter: a Mutant rolls a D3 when placed: +1 Move, +1 Skill or +1 Defence
    for die, stat in ((1, "move"), (2, "skill"), (3, "defence")):
        m = duel("flesh_transmuter", "necromancer", mutation=die)
        mv = view_model(m, M1)
        assert mv["stats"][stat] == mv["base_stats"][stat] + 1


# ============================================================================ the Start Phase and the crowd


@pytest.mark.parametrize(
    "points,die,result",
    [
        (1, 1, "insult"),
        (1, 2, "fire_gremlin"),
        (1, 3, "brawl"),
        (1, 4, "wild"),
        (1, 5, "chant"),
        (1, 6, "crystal_shard"),
        (2, 3, "wild"),
        (3, 3, "chant"),
        (3, 6, "crystal_shard"),
        (4, 6, "crystal_shard"),
    ],
)
def test_crowd_table_with_extra_points(points, die, result):
    # docs/rulings/arena.md#crowd-rolls-cap-at-six: 1 Crowd Favour for a D6, +1 per extra point, above 6 counts as 6;
    # docs/rulings/arena.md#crowd-table
    m = duel(favour=(4, 0))
    ev = to_action(m, spend=points)
    assert state(m).players[0].favour == 4 - points and purpose(m) == "crowd"
    ev = roll(m, die)
    (c,) = of(ev, "crowd")
    assert c["result"] == result and c["total"] == min(6, die + points - 1)


def test_crowd_insult_gives_the_wizard_minus_one_skill_this_turn():
    # docs/rulings/arena.md#crowd-table: 1, a rival fan's insult: -1 Skill this turn
    m = duel(favour=(1, 0))
    to_action(m, spend=1)
    roll(m, 1)
    assert view_model(m, W1)["stats"]["skill"] == 3
    to_action(m)
    end_turn(m)
    assert view_model(m, W1)["stats"]["skill"] == 4


def test_crowd_fire_gremlin_hits_a_random_model():
    # docs/rulings/arena.md#crowd-table: 2, a Fire Gremlin: D6 damage; docs/rulings/arena.md#fire-gremlin-target
    m = duel(favour=(1, 0))
    to_action(m, spend=1)
    roll(m, 2)
    assert purpose(m) == "gremlin_model" and state(m).pending_roll.sides == (4,)
    ev = roll(m, 3)  # models in order: p1-wizard, p1-m1, p2-wizard, p2-m1
    assert of(ev, "gremlin")[0]["model"] == W2
    roll(m, 5)
    assert health(m, W2) == 10


def test_crowd_brawl_blocks_crowd_favour_until_your_next_turn():
    # docs/rulings/arena.md#crowd-table: 3, a brawl: nobody gains Crowd Favour until your next turn
    m = duel("artful_trickster", "artful_trickster", favour=(1, 0), pos={W1: "E4", W2: "E7"})
    to_action(m, spend=1)
    roll(m, 3)
    assert state(m).view(None)["brawl"]
    to_action(m)
    state(m).models[W2].health = 15
    act(m, W1, target=W2)
    roll(m, 3, 3)  # tie: a magical explosion
    ev = roll(m, 5, 2)
    assert of(ev, "favour_blocked") and state(m).players[0].favour == 0
    end_turn(m)  # Player 2's Trickster gains nothing either
    assert state(m).players[1].favour == 0
    to_action(m)
    end_turn(m)  # Player 1's next turn: the brawl is over, the Trickster gains 1
    assert state(m).players[0].favour == 1 and not state(m).view(None)["brawl"]


def test_crowd_goes_wild_and_crystal_shard():
    # docs/rulings/arena.md#crowd-table: 4, the crowd goes wild (+2); 6, a crystal shard (D6 to the enemy Wizard)
    m = duel(favour=(1, 0))
    to_action(m, spend=1)
    roll(m, 4)
    assert state(m).players[0].favour == 2
    m = duel(favour=(1, 0))
    to_action(m, spend=1)
    roll(m, 6)
    assert purpose(m) == "shard_damage"
    roll(m, 4)
    assert health(m, W2) == 11


def test_hometown_chant_offers_a_reroll_of_one_die():
    # docs/rulings/arena.md#hometown-chant-reroll: "you may re-roll one die this turn", offered after each later roll
    m = duel(favour=(1, 0), pos={W1: "E4", W2: "E7"})
    to_action(m, spend=1)
    roll(m, 5)
    roll(m, 2, 4)  # Spell Selection
    assert prompt(m) == "reroll"
    legal = state(m).legal_actions(0)
    assert Reroll(die=0) in legal and Reroll(die=1) in legal and Decline() in legal
    m.apply(0, Reroll(die=0))
    assert purpose(m) == "reroll"
    ev = roll(m, 4)
    assert of(ev, "reroll")[0] == {"purpose": "spell_selection", "die": 0, "old": 2, "new": 4, "dice": [4, 4]}
    assert state(m).spell.any  # 4, 4: a double
    m.apply(0, ChooseSpell(spell="arcane_rocket"))
    act(m, W1, target=W2)
    roll(m, 1, 6)
    assert prompt(m) is None  # the chant is spent
    assert state(m).view(None)["players"][0]["chant"] is False


def test_default_actions_on_time_out():
    # docs/rulings/arena.md#time-out-defaults
    m = duel(favour=(2, 0))
    st = state(m)
    assert st.default_action(0) == SpendFavour(points=0)
    m.apply(0, st.default_action(0))
    roll(m, 1, 2)
    assert st.default_action(0) == ChooseSpell(spell="arcane_rocket")
    m.apply(0, st.default_action(0))
    assert st.default_action(0) is None  # the Action Phase has no default: the seat forfeits


# ============================================================================ Spell Selection


def test_spell_selection_two_dice_or_arcane_rocket():
    # docs/rulings/arena.md#spell-selection-dice: 2 D6 on the spell card, then one of those 2 spells or Arcane Rocket
    m = duel()
    m.apply(0, SpendFavour(points=0))
    roll(m, 2, 3)
    sp = state(m).spell
    assert sp.options == ["shield", "fire_breath", "arcane_rocket"] and not sp.any
    with pytest.raises(IllegalAction, match="not among your spells"):
        m.apply(0, ChooseSpell(spell="dominate"))
    m.apply(0, ChooseSpell(spell="fire_breath"))
    assert state(m).phase == "action"


def test_a_double_lets_the_player_choose_any_spell():
    # docs/rulings/arena.md#spell-selection-dice: "If duplicates are rolled, then choose any spell."
    m = duel()
    m.apply(0, SpendFavour(points=0))
    roll(m, 6, 6)
    assert set(state(m).spell.options) == {
        "summon_minion",
        "shield",
        "fire_breath",
        "dominate",
        "empower",
        "arcane_rocket",
    }


def test_spell_table_dice():
    # docs/rulings/arena.md#spell-selection-dice: 1 Summon Minion, 2 Shield, 3 Discipline Spell, 4 Dominate,
    # 5 Empower, 6 Summon Minion
    st = state(duel("mermancer"))
    assert [st.spell_for_die(0, v) for v in range(1, 7)] == [
        "summon_minion",
        "shield",
        "tidal_wave",
        "dominate",
        "empower",
        "summon_minion",
    ]


# ============================================================================ Action Phase


def test_each_model_moves_and_acts_once_in_either_order():
    # docs/rulings/arena.md#activation: each model a Move and 1 Action, in either order, one model fully before the next
    m = duel(pos={W1: "E3", W2: "E8", M1: "A1"})
    to_action(m)
    act(m, W1, target=W2)
    roll(m, 1, 6)  # fails
    st = state(m)
    assert st.activation.to_json() == {"model": W1, "moved": False, "acted": True}
    assert not targets(m)
    move(m, W1, "E5")
    assert st.activation is None and W1 in st.activated  # nothing left: the activation ended
    with pytest.raises(IllegalAction, match="already been activated"):
        m.apply(0, SelectModel(model=W1))
    with pytest.raises(IllegalAction, match="not yours"):
        m.apply(0, SelectModel(model=W2))
    m.apply(0, SelectModel(model=M1))
    m.apply(0, EndActivation())
    assert st.active == 1  # no model could do more: the turn ended by itself
    assert st.phase in ("start", "spell", "action")


def test_a_listed_action_is_checked_again_once_the_state_changed():
    """The engine trusts an action object it has just listed (a sampled move) only while nothing
    changed: a second Move taken from the same, now stale, list is refused (docs/rulings/arena.md#activation: one Move
    per activation)."""
    m = duel(pos={W1: "E3", W2: "E8"})
    to_action(m)
    m.apply(0, SelectModel(model=W1))
    moves = [a for a in state(m).legal_actions(0) if isinstance(a, Move)]
    assert len(moves) >= 2
    m.apply(0, moves[0])
    before = (state(m).view(None), len(m.log))
    with pytest.raises(IllegalAction):
        m.apply(0, moves[1])
    assert (state(m).view(None), len(m.log)) == before


def test_end_turn_passes_play_and_counts_game_turns():
    # docs/rulings/arena.md#game-turn: once each player has had a turn, play passes back to Player 1
    m = duel()
    to_action(m)
    end_turn(m)
    st = state(m)
    assert st.active == 1 and st.game_turn == 1
    to_action(m)
    end_turn(m)
    assert st.active == 0 and st.game_turn == 2


def test_targets_need_range_and_line_of_sight():
    # docs/rulings/arena.md#range-and-line-of-sight: a Target within range, not obscured by terrain;
    # docs/rulings/arena.md#who-may-be-targeted: an enemy for a damaging Action
    m = duel(pos={W1: "E2", W2: "E6", M2: "J10", M1: "A1"}, terrain=("E4",))
    to_action(m)
    m.apply(0, SelectModel(model=W1))
    assert W2 not in targets(m)
    with pytest.raises(IllegalAction, match="blocked by the terrain on E4"):
        m.apply(0, Act(target=W2))
    with pytest.raises(IllegalAction, match="squares away; the range is 6"):
        m.apply(0, Act(target=M2))
    with pytest.raises(IllegalAction, match="must target an enemy"):
        m.apply(0, Act(target=M1))
    with pytest.raises(IllegalAction, match="no model"):
        m.apply(0, Act(target="p9-m9"))


def test_corner_touching_line_of_sight_in_play():
    # docs/rulings/arena.md#corner-contact-line-of-sight: touching a corner does not block, in play
    m = duel(pos={W1: "D2", W2: "F4"}, terrain=("E2", "D3"))
    to_action(m)
    m.apply(0, SelectModel(model=W1))
    assert W2 in targets(m)
    state(m).terrain = [sq("E3")]
    assert W2 not in targets(m)


def test_models_do_not_block_line_of_sight():
    # docs/rulings/arena.md#corner-contact-line-of-sight: "Models never block line of sight."
    m = duel(pos={W1: "E2", M1: "E3", M2: "E4", W2: "E6"})
    to_action(m)
    m.apply(0, SelectModel(model=W1))
    assert W2 in targets(m) and M2 in targets(m)


def test_activating_another_model_ends_the_current_activation():
    # docs/rulings/arena.md#activation: "Selecting another model ends the current activation (its unused Move or
    # Action is lost)."
    m = duel(pos={W1: "E3", W2: "E8", M1: "A1"})
    to_action(m)
    move(m, W1, "E4")
    st = state(m)
    assert st.activation.to_json() == {"model": W1, "moved": True, "acted": False}
    m.apply(0, SelectModel(model=M1))
    assert st.activation.model == M1 and W1 in st.activated
    assert SelectModel(model=W1) not in st.legal_actions(0)


# ============================================================================ opposed rolls, explosions, knock-out


def test_opposed_roll_success_and_failure():
    # docs/rulings/arena.md#opposed-roll: D6 + Skill against D6 + Defence
    m = duel(pos={W1: "E3", W2: "E8"})
    to_action(m)
    act(m, W1, target=W2)
    assert state(m).pending_roll.sides == (6, 6)
    ev = roll(m, 4, 3)
    (o,) = of(ev, "opposed")
    assert o["attacker"]["total"] == 8 and o["defender"]["total"] == 7 and o["result"] == "success"
    assert health(m, W2) == 13  # Arcane Rocket: 2 damage
    m = duel(pos={W1: "E3", W2: "E8"})
    to_action(m)
    act(m, W1, target=W2)
    ev = roll(m, 3, 4)
    assert of(ev, "opposed")[0]["result"] == "fail" and health(m, W2) == 15


def test_magical_explosion_target_wins_reflects():
    # docs/rulings/arena.md#magical-explosion: on a tie, the Target winning the roll-off reflects the Action; the active
    # player gains 1 Crowd Favour either way
    m = duel(pos={W1: "E3", W2: "E8"})
    to_action(m)
    act(m, W1, target=W2)
    roll(m, 3, 3)
    assert purpose(m) == "explosion"
    roll(m, 2, 2)  # docs/rulings/arena.md#ties-reroll
    assert purpose(m) == "explosion"
    ev = roll(m, 2, 5)
    assert of(ev, "explosion")[0]["winner"] == "target"
    assert health(m, W1) == 13 and health(m, W2) == 15
    assert state(m).players[0].favour == 1


def test_magical_explosion_active_wins_double_damage():
    # docs/rulings/arena.md#magical-explosion: the active player winning the roll-off deals double damage
    m = duel(pos={W1: "E3", W2: "E8"})
    to_action(m)
    act(m, W1, target=W2)
    roll(m, 3, 3)
    ev = roll(m, 6, 1)
    assert health(m, W2) == 11 and state(m).players[0].favour == 1
    assert of(ev, "damage")[0]["amount"] == 4


def test_minion_at_zero_health_is_removed_and_active_player_gains_favour():
    # docs/rulings/arena.md#fallen-minion-favour: a Minion at 0 Health is removed, the active player gains 1 Favour
    m = duel(pos={W1: "E3", M2: "E7"})
    to_action(m)
    state(m).models[M2].health = 2
    act(m, W1, target=M2)
    ev = roll(m, 6, 1)
    assert M2 not in state(m).models and of(ev, "minion_removed")[0]["model"] == M2
    assert state(m).players[0].favour == 1


@pytest.mark.parametrize("die,destroyed", [(3, False), (4, True), (6, True)])
def test_knock_out_by_a_wizard_adds_two_to_the_fate_roll(die, destroyed):
    # docs/rulings/arena.md#knock-out-ends-the-game: the fate roll, 5 or lower unconscious, 6 or higher killed;
    # docs/rulings/arena.md#knock-out-by-a-wizard: +2 when a Wizard did it
    m = duel(pos={W1: "E3", W2: "E8"})
    to_action(m)
    state(m).models[W2].health = 2
    act(m, W1, target=W2)
    ev = roll(m, 6, 1)
    assert of(ev, "knockout")[0]["by_wizard"] is True and purpose(m) == "knockout"
    ev = roll(m, die)
    (f,) = of(ev, "fate")
    assert f["total"] == die + 2 and f["destroyed"] is destroyed
    if destroyed:
        assert DATA.fates["draconic_magus"] in f["line"]
    assert m.awaiting.is_terminal
    assert m.outcome.seats[0].result is Result.WIN and m.outcome.seats[1].result is Result.LOSS
    with pytest.raises(Exception, match="over"):
        m.apply(0, EndTurn())


def test_knock_out_by_a_minion_has_no_bonus():
    # docs/rulings/arena.md#knock-out-by-a-wizard: a Minion's knock-out is not "by a Wizard"
    m = duel(pos={M1: "E7", W2: "E8", W1: "A1"})
    to_action(m)
    state(m).models[W2].health = 2
    act(m, M1, target=W2)
    roll(m, 6, 1)  # Ignite: 2 damage
    assert of(roll(m, 5), "fate")[0] == {
        "die": 5,
        "bonus": 0,
        "total": 5,
        "destroyed": False,
        "line": "{p2}'s Necromancer is merely unconscious and is carried out of the Arena.",
        "model": W2,
    }


# ============================================================================ generic spells


def test_arcane_rocket_range_six_two_damage():
    # docs/rulings/arena.md#generic-spells: Arcane Rocket, range 6, 2 damage
    m = duel(pos={W1: "E2", W2: "E8", M2: "E9"})
    to_action(m)
    m.apply(0, SelectModel(model=W1))
    assert targets(m) == [W2]  # E8 is 6 away, E9 is 7


def test_shield_lasts_until_the_casters_next_start_phase():
    # docs/rulings/arena.md#generic-spells: Shield, range 4, +2 Defence until the caster's next Start Phase
    m = duel(pos={W1: "E3", M1: "E8"})
    to_action(m, spell="shield")
    m.apply(0, SelectModel(model=W1))
    assert set(targets(m)) == {W1}  # M1 is 5 away
    state(m).models[M1].pos = sq("E7")
    assert set(targets(m)) == {W1, M1}
    ev = m.apply(0, Act(target=W1))
    assert "opposed" not in kinds(ev)  # an ally: instantly resolved
    assert view_model(m, W1)["stats"]["defence"] == 6
    end_turn(m)
    assert view_model(m, W1)["stats"]["defence"] == 6  # still shielded during Player 2's turn
    to_action(m)
    end_turn(m)
    assert view_model(m, W1)["stats"]["defence"] == 4


def test_empower_gives_a_minion_plus_one_skill_and_damage():
    # docs/rulings/arena.md#generic-spells: Empower, range 4, +1 Skill and +1 damage to the Minion's Action this turn
    m = duel(pos={W1: "E3", M1: "E6", W2: "E7"})
    to_action(m, spell="empower")
    act(m, W1, target=M1)
    assert view_model(m, M1)["stats"]["skill"] == 5
    act(m, M1, target=W2)
    ev = roll(m, 1, 2)  # 1 + 5 = 6 against 2 + 4 = 6: would tie without Empower... it ties
    assert of(ev, "opposed")[0]["attacker"]["total"] == 6
    roll(m, 6, 1)
    assert health(m, W2) == 15 - 2 * (2 + 1)


def test_summon_minion_within_two_squares_at_most_three():
    # docs/rulings/arena.md#generic-spells: Summon Minion, an empty square within 2 of the Wizard, at most 3 Minions
    m = duel(pos={W1: "E3"})
    to_action(m, spell="summon_minion")
    m.apply(0, SelectModel(model=W1))
    squares = {a.at for a in state(m).legal_actions(0) if isinstance(a, Act)}
    assert sq("E5") in squares and sq("E6") not in squares and sq("F4") in squares and sq("G4") not in squares
    ev = m.apply(0, Act(at=sq("E5")))
    assert of(ev, "summon")[0]["model"] == "p1-m2"
    end_turn(m)
    to_action(m)
    end_turn(m)
    add_minion(m, 0, "A5")
    to_action(m, spell="summon_minion")
    m.apply(0, SelectModel(model=W1))
    assert not [a for a in state(m).legal_actions(0) if isinstance(a, Act)]


def test_dominate_moves_the_enemy_minion_and_makes_its_action():
    # docs/rulings/arena.md#dominate: an enemy Minion; on success move it and make its Action on a target you choose
    m = duel(pos={W1: "E3", M2: "E4", W2: "E7"})
    to_action(m, spell="dominate")
    m.apply(0, SelectModel(model=W1))
    assert targets(m) == [M2]
    m.apply(0, Act(target=M2))
    roll(m, 6, 1)
    assert prompt(m) == "dominate" and m.awaiting.seats == frozenset({0})
    ev = m.apply(0, Move(to=sq("E6")))
    assert not of(ev, "damage")  # a Move caused by a Spell: no damage for leaving W1
    assert targets(m, 0) == [W2]
    m.apply(0, Act(target=W2))
    roll(m, 6, 1)  # Undead Skill 2 + 6 against Defence 4 + 1
    ev = roll(m, 4)  # Grave Strike D6
    assert health(m, W2) == 11 and "dominate_end" in kinds(ev)
    assert state(m).activation.to_json() == {"model": W1, "moved": False, "acted": True}


def test_dominate_reflected_has_no_effect_on_a_wizard():
    # docs/rulings/arena.md#magical-explosion: a reflected Dominate finds no Minion and has no effect
    m = duel(pos={W1: "E3", M2: "E4", W2: "E7"})
    to_action(m, spell="dominate")
    act(m, W1, target=M2)
    roll(m, 1, 1)  # 5 against Undead Defence 4 + 1 = 5: explosion
    ev = roll(m, 1, 6)
    assert of(ev, "no_effect") and prompt(m) is None


# ============================================================================ the eleven Disciplines


def test_artful_trickster_ability_and_vanishing_act():
    # docs/rulings/arena.md#artful-trickster: 1 Crowd Favour in its Start Phase; Vanishing Act swaps Wizard and Minion
    m = duel("artful_trickster", pos={W1: "E2", M1: "H2"})
    to_action(m, spell="vanishing_act")
    act(m, W1, target=M1)
    assert state(m).models[W1].pos == sq("H2") and state(m).models[M1].pos == sq("E2")
    end_turn(m)
    to_action(m)
    ev = end_turn(m)
    assert {"seat": 0, "change": 1, "total": 1, "reason": "Artful Trickster ability"} in of(ev, "favour")


def test_phantasm_hypnotic_dancing():
    # docs/rulings/arena.md#hypnotic-dancing: on success the target may only target the Phantasm on its next turn
    m = duel("artful_trickster", pos={M1: "E7", W2: "E8", W1: "E3", M2: "D7"})
    to_action(m)
    act(m, M1, target=W2)
    roll(m, 6, 1)
    assert health(m, W2) == 13
    eff = state(m).models[W2].effect("hypnotic")
    assert eff.source == M1 and eff.applies_turn == 2
    end_turn(m)
    to_action(m)  # Player 2: Arcane Rocket
    m.apply(1, SelectModel(model=W2))
    assert targets(m) == [M1]  # W1 at E3 is within 6 but the Wizard is hypnotised
    with pytest.raises(IllegalAction, match="may only target p1-m1"):
        m.apply(1, Act(target=W1))
    m.apply(1, EndActivation())
    m.apply(1, SelectModel(model=M2))
    assert M1 in targets(m)  # the Undead is not hypnotised


def test_hypnotic_dancing_does_not_stack():
    # docs/rulings/arena.md#lasting-effects-do-not-stack: Hypnotic Dancing keeps the first
    m = duel("artful_trickster", pos={M1: "E7", W2: "E8", W1: "E3"})
    add_minion(m, 0, "F8")
    to_action(m)
    act(m, M1, target=W2)
    roll(m, 6, 1)
    act(m, "p1-m2", target=W2)
    ev = roll(m, 6, 1)
    assert of(ev, "no_effect") and state(m).models[W2].effect("hypnotic").source == M1


def test_astral_warlock_minions_target_what_the_wizard_sees():
    # docs/rulings/arena.md#warlock-minion-strikes: its Minions target what the Wizard sees, whatever their range
    m = duel("astral_warlock", pos={M1: "A2", W1: "H2", W2: "H9", M2: "B9"}, terrain=("A5",))
    to_action(m)
    m.apply(0, SelectModel(model=M1))
    # M2 at B9: 8 away from the Void Born (range 6) and behind A5?  The Wizard at H2 sees it.
    assert M2 in targets(m) and W2 in targets(m)
    state(m).terrain = [sq("A5"), sq("E5"), sq("H5")]  # now the Wizard sees neither
    assert targets(m) == []


def test_astral_warlock_mental_torment_and_cosmic_volley():
    # docs/rulings/arena.md#astral-warlock: Mental Torment (-2 Skill on its next turn), Cosmic Volley;
    # docs/rulings/arena.md#on-its-next-turn
    m = duel("astral_warlock", pos={W1: "E3", W2: "E8", M1: "F3"})
    to_action(m, spell="mental_torment")
    act(m, W1, target=W2)
    roll(m, 6, 1)
    assert purpose(m) == "damage"
    roll(m, 3)
    assert health(m, W2) == 12
    assert view_model(m, W2)["stats"]["skill"] == 4  # not yet: "on its next turn"
    act(m, M1, target=W2)
    roll(m, 6, 1)
    assert health(m, W2) == 10
    end_turn(m)
    assert view_model(m, W2)["stats"]["skill"] == 2
    to_action(m)
    end_turn(m)
    assert view_model(m, W2)["stats"]["skill"] == 4


def test_blood_mage_sacrifice_boiling_blood_and_leech():
    # docs/rulings/arena.md#blood-mage-sacrifice: D6 damage for one extra Spell Selection die;
    # docs/rulings/arena.md#blood-mage: Boiling Blood 2D6;
    # docs/rulings/arena.md#minion-action-bonuses: the Leech heals its Wizard 1 Health
    m = duel("blood_mage", pos={W1: "E5", W2: "E8", M1: "D8"})
    assert prompt(m) == "blood_pact"
    m.apply(0, BloodPact())
    roll(m, 4)
    assert health(m, W1) == 11
    assert state(m).pending_roll.sides == (6, 6, 6)  # no Crowd Favour: straight to Spell Selection
    roll(m, 1, 3, 4)
    assert state(m).spell.options == ["summon_minion", "boiling_blood", "dominate", "arcane_rocket"]
    m.apply(0, ChooseSpell(spell="boiling_blood"))
    act(m, W1, target=W2)
    roll(m, 6, 1)
    assert state(m).pending_roll.sides == (6, 6)
    roll(m, 3, 4)
    assert health(m, W2) == 8
    act(m, M1, target=W2)
    ev = roll(m, 6, 1)
    assert health(m, W2) == 5 and health(m, W1) == 12 and of(ev, "heal")[0]["why"] == "Leech"


def test_draconic_magus_burning_fire_breath_ignite_and_putting_it_out():
    # docs/rulings/arena.md#burning: 1 damage at its owner's Start Phase until it uses its Action to put itself out;
    # docs/rulings/arena.md#draconic-magus: Fire Breath 2D3 and Ignite 2, both Flame
    m = duel("draconic_magus", pos={W1: "E3", W2: "E8", M1: "D7", M2: "D8"})
    to_action(m, spell="fire_breath")
    act(m, W1, target=W2)
    roll(m, 6, 1)
    assert state(m).pending_roll.sides == (3, 3)
    roll(m, 3, 2)
    act(m, M1, target=M2)
    roll(m, 6, 1)
    assert health(m, W2) == 10 and health(m, M2) == 2
    assert state(m).models[M2].has("burning")
    ev = end_turn(m)  # Player 2's Start Phase: both burn
    assert [d["model"] for d in of(ev, "damage") if d["cause"] == "burning"] == [W2, M2]
    assert health(m, W2) == 9 and health(m, M2) == 1
    to_action(m)
    m.apply(1, SelectModel(model=W2))
    assert Extinguish() in state(m).legal_actions(1)
    m.apply(1, Extinguish())
    assert not state(m).models[W2].has("burning")
    assert not [a for a in state(m).legal_actions(1) if isinstance(a, Act)]  # the Action is used


def test_flesh_transmuter_extreme_transmutation_and_mindless_assault():
    # docs/rulings/arena.md#extreme-transmutation: +2 Move, Skill and damage, it dies at the end of the turn;
    # docs/rulings/arena.md#flesh-transmuter: Mindless Assault D6
    m = duel("flesh_transmuter", pos={W1: "E3", M1: "E6", W2: "E9"}, mutation=2)
    to_action(m, spell="extreme_transmutation")
    act(m, W1, target=M1)
    mv = view_model(m, M1)
    assert mv["stats"] == {"move": 5, "skill": 6, "defence": 3}  # Mutant 3/3/3 + mutation +1 Skill + 2/2
    move(m, M1, "E8")
    act(m, M1, target=W2)
    ev = roll(m, 1, 6)  # 1 + 6 = 7 against 6 + 4 = 10: fails; no model can do more: the turn ends
    assert "transmutation_death" in kinds(ev)
    assert M1 not in state(m).models and state(m).players[0].favour == 1
    m = duel("flesh_transmuter", pos={M1: "E8", W2: "E9"})
    to_action(m)
    act(m, M1, target=W2)
    roll(m, 6, 1)
    assert state(m).pending_roll.sides == (6,)
    roll(m, 5)
    assert health(m, W2) == 10


def test_green_witch_free_step():
    # docs/rulings/arena.md#green-witch-step: 2 squares in its Start Phase, no disengaging damage, the Move kept
    m = duel("green_witch", pos={W1: "E4", M2: "E5", W2: "J10"})
    assert prompt(m) == "witch_step"
    with pytest.raises(IllegalAction, match="cannot|not a square"):
        m.apply(0, WitchStep(to=sq("E7")))
    ev = m.apply(0, WitchStep(to=sq("C4")))
    assert not of(ev, "damage") and state(m).models[W1].pos == sq("C4")
    to_action(m)
    m.apply(0, SelectModel(model=W1))
    assert "C8" in moves(m)  # the full Move of 4 is still there


def test_green_witch_grasping_vines_and_lunge():
    # docs/rulings/arena.md#green-witch: Grasping Vines (no Move, no Action on its next turn), Lunge (higher of two);
    # docs/rulings/arena.md#on-its-next-turn
    m = duel("green_witch", pos={W1: "E3", M2: "E7", M1: "E8", W2: "J10"})
    to_action(m, spell="grasping_vines")
    act(m, W1, target=M2)
    roll(m, 6, 1)
    assert state(m).models[M2].has("vines")
    act(m, M1, target=M2)
    roll(m, 6, 1)
    assert state(m).pending_roll.sides == (6, 6)
    ev = roll(m, 1, 3)
    assert of(ev, "damage")[0]["amount"] == 3 and health(m, M2) == 1
    end_turn(m)
    to_action(m)
    st = state(m)
    assert SelectModel(model=M2) not in st.legal_actions(1)
    with pytest.raises(IllegalAction, match="neither move nor act"):
        m.apply(1, SelectModel(model=M2))
    end_turn(m)
    assert not state(m).models[M2].has("vines")


def test_luminous_sorcerer_aura_healing_light_and_sunbeam():
    # docs/rulings/arena.md#luminous-sorcerer-aura: -1 Skill for an adjacent enemy targeting the Wizard;
    # docs/rulings/arena.md#luminous-sorcerer: Healing Light (D6, not above the maximum), Sunbeam 3
    m = duel("luminous_sorcerer", pos={W1: "E5", M1: "E6", W2: "E9", M2: "F5"})
    to_action(m, spell="healing_light")
    state(m).models[M1].health = 1
    state(m).models[W1].health = 13
    m.apply(0, SelectModel(model=W1))
    assert set(targets(m)) == {W1, M1}
    m.apply(0, Act(target=W1))
    roll(m, 6)
    assert health(m, W1) == 15
    act(m, M1, target=W2)
    roll(m, 6, 1)
    assert health(m, W2) == 12
    end_turn(m)
    to_action(m)
    act(m, M2, target=W1)
    ev = roll(m, 5, 3)
    att = of(ev, "opposed")[0]["attacker"]
    assert {"why": "luminous", "value": -1} in att["modifiers"] and att["total"] == 5 + 2 - 1


def test_metallurgist_two_defence_dice_storm_of_iron_and_crippling_bash():
    # docs/rulings/arena.md#metallurgist-defence-dice: two dice for Defence, the higher kept
    m = duel("necromancer", "metallurgist", pos={W1: "E3", W2: "E8"})
    to_action(m)
    act(m, W1, target=W2)
    assert state(m).pending_roll.sides == (6, 6, 6)
    ev = roll(m, 4, 1, 4)
    d = of(ev, "opposed")[0]["defender"]
    assert d["kept"] == 4 and d["total"] == 8 and of(ev, "opposed")[0]["result"] == "explosion"
    # docs/rulings/arena.md#storm-of-iron-splash: on success every enemy within 2 squares of the target takes 2 damage
    m = duel("metallurgist", pos={W1: "E4", W2: "E8", M2: "F9", M1: "E7"})
    add_minion(m, 1, "H8")
    to_action(m, spell="storm_of_iron")
    act(m, W1, target=W2)
    roll(m, 6, 1)
    ev = roll(m, 1, 2)
    assert health(m, W2) == 12 and health(m, M2) == 2 and health(m, "p2-m2") == 4 and health(m, M1) == 4
    assert of(ev, "storm")[0]["models"] == [M2]
    # docs/rulings/arena.md#metallurgist: Crippling Bash, 3 damage and -1 Move on its next turn
    act(m, M1, target=W2)
    roll(m, 6, 1)
    assert health(m, W2) == 9
    end_turn(m)
    assert view_model(m, W2)["stats"]["move"] == 3


def test_mermancer_water_jet_bonus():
    # docs/rulings/arena.md#minion-action-bonuses: Water Jet +1 within 3 of the Mermancer;
    # docs/rulings/arena.md#mermancer: Water Jet, range 3, D3 damage
    m = duel("mermancer", pos={W1: "E4", M1: "E6", W2: "E9"})
    to_action(m)
    act(m, M1, target=W2)
    roll(m, 6, 1)
    assert state(m).pending_roll.sides == (3,)
    roll(m, 2)
    assert health(m, W2) == 12  # 2 + 1
    m = duel("mermancer", pos={W1: "A1", M1: "E6", W2: "E9"})
    to_action(m)
    act(m, M1, target=W2)
    roll(m, 6, 1)
    roll(m, 2)
    assert health(m, W2) == 13


def test_mermancer_tidal_wave():
    # docs/rulings/arena.md#tidal-wave: every enemy model 1 square toward its edge; one that cannot takes 2 damage
    m = duel("mermancer", pos={W1: "E3", W2: "E9", M2: "E10"})
    add_minion(m, 1, "B5")
    add_minion(m, 1, "C9")
    state(m).terrain = [sq("C10")]
    to_action(m, spell="tidal_wave")
    m.apply(0, SelectModel(model=W1))
    assert Act() in state(m).legal_actions(0)
    ev = m.apply(0, Act())
    assert "opposed" not in kinds(ev)
    st = state(m)
    assert st.models["p2-m2"].pos == sq("B6")
    assert health(m, M2) == 2  # on the edge row already
    assert health(m, W2) == 13 and st.models[W2].pos == sq("E9")  # blocked by its own Minion on E10
    assert health(m, "p2-m3") == 2  # blocked by terrain on C10


def test_necromancer_free_minion_curse_and_grave_strike():
    # docs/rulings/arena.md#necromancer-free-minion: with no Minion in its Start Phase, one within 2 squares for free
    m = duel("draconic_magus", "necromancer", pos={W1: "E3", W2: "E8", M2: "E7"})
    del state(m).models[M2]
    to_action(m)
    ev = end_turn(m)
    assert prompt(m) == "necro" and m.awaiting.seats == frozenset({1})
    with pytest.raises(IllegalAction):
        m.apply(1, PlaceMinion(at=sq("E5")))
    ev = m.apply(1, PlaceMinion(at=sq("E6")))
    assert of(ev, "summon")[0]["model"] == "p2-m2"
    # docs/rulings/arena.md#necromancer: Curse, one die fewer in the next Spell Selection; Grave Strike D6
    to_action(m, spell="curse")
    m.apply(1, SelectModel(model=W2))
    assert targets(m) == [W1]
    m.apply(1, Act(target=W1))
    roll(m, 6, 1)
    assert state(m).models[W1].has("curse")
    # Grave Strike: 1 / D6
    state(m).models["p2-m2"].pos = sq("E4")
    act(m, "p2-m2", target=W1)
    roll(m, 6, 1)
    roll(m, 4)
    assert health(m, W1) == 11
    end_turn(m)
    if prompt(m) == "crowd":
        m.apply(0, SpendFavour(points=0))
    assert state(m).pending_roll.sides == (6,)
    roll(m, 3)
    assert state(m).spell.options == ["fire_breath", "arcane_rocket"]


def test_noble_scholar_plus_two_once_per_game_turn():
    # docs/rulings/arena.md#noble-scholar-bonus: once per game turn, +2 to one roll, even after rolling
    m = duel("noble_scholar", pos={W1: "E3", W2: "E8"})
    m.apply(0, SpendFavour(points=0))
    roll(m, 1, 2)
    assert prompt(m) == "scholar"
    m.apply(0, ScholarBonus(die=0))
    assert state(m).spell.values == [3, 2] and "teleport" in state(m).spell.options
    m.apply(0, ChooseSpell(spell="arcane_rocket"))
    act(m, W1, target=W2)
    roll(m, 1, 6)
    assert prompt(m) is None  # already used this game turn
    end_turn(m)
    to_action(m)
    act(m, W2, target=W1)
    ev = roll(m, 4, 4)  # 8 against 8: no +2 to Defence, the Scholar used it in this game turn
    assert prompt(m) is None and of(ev, "opposed")[0]["result"] == "explosion"


def test_noble_scholar_bonus_on_skill_and_defence():
    # docs/rulings/arena.md#noble-scholar-bonus: on the total of a Skill or a Defence roll
    m = duel("noble_scholar", pos={W1: "E3", W2: "E8"})
    m.apply(0, SpendFavour(points=0))
    roll(m, 1, 2)
    m.apply(0, Decline())
    m.apply(0, ChooseSpell(spell="arcane_rocket"))
    act(m, W1, target=W2)
    roll(m, 3, 4)  # 7 against 8
    assert prompt(m) == "scholar" and state(m).prompt.roll == "Skill"
    ev = m.apply(0, ScholarBonus())
    assert of(ev, "opposed")[0]["attacker"]["total"] == 9 and health(m, W2) == 13
    end_turn(m)
    to_action(m)
    end_turn(m)  # game turn 2
    to_action(m)
    end_turn(m)
    to_action(m)
    act(m, W2, target=W1)
    roll(m, 5, 2)  # 9 against 6: Player 1 may defend with +2
    assert prompt(m) == "scholar" and m.awaiting.seats == frozenset({0}) and state(m).prompt.roll == "Defence"
    m.apply(0, Decline())
    assert health(m, W1) == 13


def test_noble_scholar_teleport_and_harmonic_blast():
    # docs/rulings/arena.md#teleport: up to 4 squares, over terrain and models
    m = duel("noble_scholar", pos={W1: "E3", M1: "E5", W2: "E9"}, terrain=("E6",))
    to_action(m, spell="teleport")
    act(m, W1, target=M1)
    assert prompt(m) == "teleport"
    dest = {a.to for a in state(m).legal_actions(0) if isinstance(a, Teleport)}
    assert sq("E7") in dest and sq("E6") not in dest and sq("E9") not in dest and sq("E10") not in dest
    ev = m.apply(0, Teleport(to=sq("E8")))
    assert of(ev, "move")[0]["cause"] == "teleport" and state(m).models[M1].pos == sq("E8")
    # docs/rulings/arena.md#minion-action-bonuses: Harmonic Blast +1 per friendly model within 2
    add_minion(m, 0, "D8")
    act(m, M1, target=W2)
    roll(m, 6, 1)
    assert health(m, W2) == 15 - 3


def test_reflected_teleport_is_placed_by_the_reflecting_player():
    # docs/rulings/arena.md#magical-explosion: a reflected Teleport is placed by the reflecting player;
    # docs/rulings/arena.md#teleport
    m = duel("noble_scholar", pos={W1: "E3", W2: "E8"})
    m.apply(0, SpendFavour(points=0))
    roll(m, 1, 1)
    m.apply(0, Decline())
    m.apply(0, ChooseSpell(spell="teleport"))
    act(m, W1, target=W2)
    roll(m, 4, 4)
    m.apply(0, Decline())  # no Noble Scholar +2 this time
    roll(m, 1, 2)  # the target wins the roll-off: reflected
    assert prompt(m) == "teleport" and m.awaiting.seats == frozenset({1})
    with pytest.raises(IllegalAction, match="more than 4 squares"):
        m.apply(1, Teleport(to=sq("A1")))
    m.apply(1, Teleport(to=sq("B2")))
    assert state(m).models[W1].pos == sq("B2")


# ============================================================================ illegal inputs, view, limits


def test_illegal_inputs_are_refused_with_readable_messages():
    # docs/actions/arena.md#legal-actions: only the listed actions are legal;
    # docs/actions/arena.md#chance: dice within their sides
    m = duel(favour=(1, 0))
    with pytest.raises(NotYourTurn):
        m.apply(1, SpendFavour(points=0))
    with pytest.raises(IllegalAction, match="You have 1 Crowd Favour"):
        m.apply(0, SpendFavour(points=3))
    with pytest.raises(IllegalAction, match="decide how much Crowd Favour"):
        m.apply(0, EndTurn())
    with pytest.raises(MalformedAction):
        m.apply(0, {"type": "move", "to": "??"})
    m.apply(0, SpendFavour(points=0))
    with pytest.raises(IllegalAction, match="has 2 dice"):
        m.apply(CHANCE, Roll(dice=(1,)))
    with pytest.raises(IllegalAction, match="shows 1 to 6"):
        m.apply(CHANCE, Roll(dice=(7, 1)))
    before = state(m).view(None)
    with pytest.raises(NotYourTurn):
        m.apply(0, SelectModel(model=W1))
    assert state(m).view(None) == before


def test_view_is_the_same_for_everyone_and_shows_the_board():
    # docs/rulings/arena.md#open-information: nothing is secret, every seat sees the same view
    m = duel(pos={W1: "E3"}, terrain=("C5",))
    to_action(m)
    st = state(m)
    v = st.view(None)
    assert v == st.view(0) == st.view(1)
    assert v["grid"]["size"] == 10 and v["terrain_squares"] == ["C5"]
    w = view_model(m, W1)
    assert w["square"] == "E3" and w["pos"] == [4, 2] and w["health"] == 15 and w["max_health"] == 15
    assert v["phase"] == "action" and v["spell"]["selected"] == "arcane_rocket"
    assert v["last_roll"]["purpose"] == "spell_selection"
    json.dumps(v)


def test_game_turn_limit_ends_in_a_draw():
    # docs/rulings/arena.md#game-turn-limit: after that many game turns without a knock-out the match is a draw
    m = duel(options={"game_turn_limit": 1})
    to_action(m)
    end_turn(m)
    to_action(m)
    ev = end_turn(m)
    assert m.awaiting.is_terminal and m.outcome.seats[0].result is Result.DRAW
    assert "game_end" in kinds(ev)


def test_options_are_validated():
    # docs/actions/arena.md#options: grid 8..12, terrain 4..8
    with pytest.raises(MalformedAction):
        Match.new("arena", {"grid_size": 13})
    with pytest.raises(MalformedAction):
        Match.new("arena", {"terrain_count": 3})


@pytest.mark.parametrize("path", sorted((ROOT / "examples" / "arena").glob("*.json")), ids=lambda p: p.name)
def test_examples_replay(path):
    # docs/actions/arena.md#example: each example carries its outcome; replay checks it
    raw = json.loads(path.read_text())
    match = Match.replay(MatchLog.model_validate(raw))
    if raw.get("outcome") is not None:
        assert match.outcome.to_json(match.seats) == raw["outcome"]


def test_there_are_at_least_three_examples():
    # docs/actions/arena.md#example
    assert len(list((ROOT / "examples" / "arena").glob("*.json"))) >= 3


def test_command_line_play_random_and_replay(tmp_path, capsys):
    # docs/actions/arena.md#example: python -m rules play-random arena, then replay
    from rules.__main__ import main

    assert main(["play-random", "arena", "--seed", "3"]) == 0
    log = json.loads(capsys.readouterr().out)
    assert log["game"] == "arena" and log["outcome"] is not None
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    assert main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"] == log["outcome"] and out["view"]["phase"] == "over"


def test_forfeit_ends_the_match():
    # docs/actions/arena.md#forfeit
    m = duel()
    m.apply(1, {"type": "forfeit", "reason": "resign"})
    assert m.outcome.winners == [0]
