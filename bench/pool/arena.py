"""The Arena opponent pool (issue 32): four rule-based players of clearly different styles.

Written only from the rules as ``docs/rulings/arena.md`` states them (the rule text, the design note's
data and this project's rulings), ``docs/actions/arena.md``, and the state's legal actions and
query helpers (Arena is an open board: every player may read the whole table; the dice are chance).
The shared reading of the table, the odds of an opposed roll and the activation planner are in
:mod:`rules.ai.arena_plan`; each style is a :class:`rules.ai.arena_script.Style` (its Discipline,
set-up choices, weights and the value of a square for its Wizard and its Minions), played by
:func:`rules.ai.arena_script.decide`, which answers every decision the game asks of a seat:

- set-up: the Discipline, the terrain (Player 1), the edge (Player 2), the deployment;
- the Start Phase: the Blood Mage's sacrifice, the Crowd Favour to spend (the expected value of the
  crowd table's result for that many points, against what the style holds a Favour worth), the
  Necromancer's free Minion, the Green Witch's step;
- Spell Selection: the spell on offer whose best activation this turn is worth most;
- the Action Phase: the model whose best activation is worth most goes first (a buff or a summon
  first, so the Minions can use it), each one's Move and Action planned together; the turn ends
  when no model gains anything more;
- follow-ups: the hometown chant's re-roll (the die whose re-roll helps most), the Noble Scholar's
  +2, a Dominated Minion's Move and Action, a Teleport's square.

The tune half, "rush" and "screen", lives in :mod:`rules.ai.arena_script` since the AI's Arena levels
search over those two as their scripts (the issue allows pool players in ``rules/ai/`` when the bot
uses them); the holdout half, "kite" and "crowd", is here and nowhere in ``rules/``.

Every answer is checked against the rules (``state.is_legal``); anything refused, never expected,
falls back to the best-scored legal action. Decisions are deterministic (ties by the order of the
table's models and squares); ``rng`` only breaks the fallback's ties.
"""

from __future__ import annotations

import random

from rules.actions import ActionModel
from rules.ai.arena_plan import Seen, Weights
from rules.ai.arena_script import RUSH, SCREEN, Style, decide, dist_enemy_wizard, nearest_enemy
from rules.arena import manhattan
from rules.arena.board import Square
from rules.arena.pieces import Model
from rules.core import State

from .. import heuristics
from . import Player, PoolPlayer


# ------------------------------------------------------------------ the kite
def _kite_wizard(seen: Seen, m: Model, sq: Square) -> float:
    """Out of the enemies' reach, about six squares (Mental Torment's range) from the enemy Wizard."""
    return -seen.w.wizard_danger * seen.danger(sq, True) - 0.3 * abs(dist_enemy_wizard(seen, sq) - 6)


def _kite_minion(seen: Seen, m: Model, sq: Square) -> float:
    """Out of the enemies' reach, about five squares from the nearest enemy (Cosmic Volley: 6)."""
    return -seen.w.minion_danger * seen.danger(sq, False) - 0.3 * abs(nearest_enemy(seen, sq) - 5)


def _kite_deploy(seen: Seen, sq: Square, kind: str) -> float:
    """The Wizard far from the enemy Wizard (a quarter along the edge before it is placed, not in a
    corner), the Minion three squares off (two shooters, one target at a time for a rusher)."""
    n = seen.st.size
    if kind == "minion" and seen.wizard is not None:
        return -abs(manhattan(sq, seen.wizard.pos) - 3) * 1.0
    ew = seen.enemy_wizard
    if ew is not None:
        return float(manhattan(sq, ew.pos)) - 0.5 * (sq[0] in (0, n - 1) and sq[1] in (0, n - 1))
    quarter = (n - 1) / 4
    return -min(abs(sq[0] - quarter), abs(sq[1] - quarter))


# ------------------------------------------------------------------ the crowd farmer
def _crowd_wizard(seen: Seen, m: Model, sq: Square) -> float:
    """Out of the enemies' reach, about six squares (Arcane Rocket's range) from the enemy Wizard."""
    return -seen.w.wizard_danger * seen.danger(sq, True) - 0.2 * abs(dist_enemy_wizard(seen, sq) - 6)


def _crowd_minion(seen: Seen, m: Model, sq: Square) -> float:
    """At the nearest enemy Minion (a removed Minion is a Favour), else the nearest enemy."""
    return -0.5 * nearest_enemy(seen, sq, minions_first=True) - seen.w.minion_danger * seen.danger(sq, False)


def _crowd_deploy(seen: Seen, sq: Square, kind: str) -> float:
    """The Wizard in the middle of the edge, the Minion two squares off."""
    centre = (seen.st.size - 1) / 2
    if kind == "minion" and seen.wizard is not None:
        return -abs(manhattan(sq, seen.wizard.pos) - 2) * 1.0
    return -abs(sq[0] - centre) - abs(sq[1] - centre)


KITE = Style(
    name="kite",
    discipline="astral_warlock",
    terrain="corners",
    open_edge=True,
    weights=Weights(2.0, 0.8, 0.8, 0.4, 1.2, 0.6, 1.5),
    favour_hold=0.8,
    brawl_cost=0.4,
    wizard_square=_kite_wizard,
    minion_square=_kite_minion,
    deploy=_kite_deploy,
)
CROWD_FARMER = Style(
    name="crowd",
    discipline="artful_trickster",
    terrain="random",
    open_edge=True,
    weights=Weights(2.0, 1.0, 2.0, 1.5, 1.0, 0.3, 2.0),
    favour_hold=0.8,
    brawl_cost=1.5,
    wizard_square=_crowd_wizard,
    minion_square=_crowd_minion,
    deploy=_crowd_deploy,
)


# ------------------------------------------------------------------ the players
def rush(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Wizard rush. A Blood Mage (Boiling Blood: 2D6 at range 3, the heaviest damage spell of the
    rules; the Blood Imp's Leech heals its Wizard). It declines the Blood Mage's sacrifice (D6
    Health for a third Spell Selection die: measured, it cost a rusher more than the extra die
    gave). Terrain in the corners (open lanes), the edge with the fewest pieces near it, the Wizard
    deployed on the edge square nearest the enemy Wizard (the centre if not yet placed), the Blood
    Imp beside it. Every model drives at the enemy Wizard: the Wizard ends each turn within
    striking distance of it (a Move and Boiling Blood's range, 7 squares), the Minions on it; each
    Action goes where its expected damage and knock-out chance weigh most, the enemy Wizard's
    damage counted three times a Minion's, so Boiling Blood goes at the Wizard whenever it is in
    reach; the spell is the one worth most this turn. Crowd Favour is spent when the crowd
    table's expected result (a crystal shard above all) beats what it holds a Favour worth."""
    return decide(RUSH, state, seat, rng)


def screen(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Minion screen. A Metallurgist (two Defence dice: a hard Wizard to hit; Storm of Iron
    splashes 2 on every enemy near the target) who places its terrain as a block in the centre (a
    rush must go round it), picks the edge with the most cover near it and deploys opposite the
    enemy Wizard with its Automaton beside it. Its Wizard stays behind, on the square least in
    reach of the enemies (their Move plus their Action's range), beside its Minions, advancing
    only slowly (to a Move and a spell from the enemy Wizard); the Minions stand one or two
    squares in front of it toward the nearest enemy and go for any enemy that comes within 6
    squares of the Wizard. Summon Minion is valued highly (more screen); every model attacks what
    comes into its reach, the exposed enemy whose loss weighs most first."""
    return decide(SCREEN, state, seat, rng)


def kite(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Ranged kiting. An Astral Warlock (Mental Torment D6 at range 6; Void Born shooting 2 at
    range 6 and seeing through the Wizard's eyes) on an open board (terrain in the corners, the
    edge with the fewest pieces near it), deployed far from the enemy Wizard with the Minion three
    squares off. Every model shoots first from where it stands when that is worth most, then moves
    out of the enemies' reach (their Move plus range: out of a Boiling Blood's 3 + 4, away from
    melee Minions), keeping about six squares from its targets; it closes in only to get a shot."""
    return decide(KITE, state, seat, rng)


def crowd(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Crowd Favour farmer. An Artful Trickster (1 Crowd Favour at every Start Phase; its Wizard
    can swap places with its Phantasm to escape) who asks for the referee's random terrain and
    plays for Favour: removing an enemy Minion (1 Favour) is valued above damage and a magical
    explosion's Favour counts, so its Minions hunt the nearest enemy Minion. It cashes the Favour
    on the crowd table at the point count whose expected result beats most what it holds a Favour
    worth: the crystal shard (D6 on the enemy Wizard) above all, six points (a sure shard) when it
    has them, every point it has otherwise (one point: a shard one time in six, "the crowd goes
    wild" gives two back); a brawl (no Favour for a turn) is feared. The Wizard stays about six
    squares from the enemy Wizard, out of reach, and attacks when the odds favour it."""
    return decide(CROWD_FARMER, state, seat, rng)


PLAYERS: tuple[PoolPlayer, ...] = (
    PoolPlayer("rush", "arena", "Blood Mage Wizard rush: Boiling Blood at the enemy Wizard", "tune", rush),
    PoolPlayer(
        "screen", "arena", "Metallurgist behind a screen of Minions; attacks what comes in reach", "tune", screen
    ),
    PoolPlayer("kite", "arena", "Astral Warlock: shoots from range, then steps out of reach", "holdout", kite),
    PoolPlayer("crowd", "arena", "Artful Trickster playing for Crowd Favour and the crystal shard", "holdout", crowd),
)

#: the steady heuristic player of the game (``python -m bench ai``'s first opponent)
HEURISTIC: Player = heuristics.arena
