"""Arena's scripts (issue 32): rule-based players, each a :class:`Style`, answering every decision
the game asks of a seat (:func:`decide`), over the table reading of :mod:`rules.ai.arena_plan`.

The AI's Arena levels search over these scripts (:mod:`rules.ai.arena_portfolio`): :data:`SCRIPTS`
("rush" and "screen", the tune half of the opponent pool, :mod:`bench.pool.arena`, which plays them
as pool players beside its holdout half). What :func:`decide` does for a style:

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

Every answer is checked against the rules (``state.is_legal``); anything refused, never expected,
falls back to the best-scored legal action. Decisions are deterministic (ties by the order of the
table's models and squares); ``rng`` only breaks the fallback's ties.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from ..actions import ActionModel
from ..arena import ArenaState, manhattan
from ..arena.actions import (
    DECLINE,
    END_TURN,
    EXTINGUISH,
    ChooseDiscipline,
    ChooseEdge,
    Deploy,
    PlaceMinion,
    PlaceTerrain,
    RandomTerrain,
    WitchStep,
    choose_spell,
    select_model,
    spend_favour,
)
from ..arena.board import Square
from ..arena.game import Phase
from ..arena.pieces import Model
from ..core import State
from .arena_plan import WIN, PosValue, Seen, Weights, arena_state, dominate, finish, plan, reroll, scholar, teleport

TerrainPlan = Literal["corners", "centre", "random"]
#: The crowd table's results, by the (capped) roll.
CROWD = {1: "insult", 2: "fire_gremlin", 3: "brawl", 4: "wild", 5: "chant", 6: "crystal_shard"}


@dataclass(frozen=True)
class Style:
    """One pool player's choices: everything :func:`decide` does not share between styles."""

    name: str
    discipline: str
    terrain: TerrainPlan
    #: Player 2's edge: the one with the fewest (True) or the most (False) terrain pieces near it
    open_edge: bool
    weights: Weights
    #: what a Crowd Favour kept is worth (spent only for more than that)
    favour_hold: float
    #: the brawl's cost (no Favour until the next turn)
    brawl_cost: float
    wizard_square: PosValue
    minion_square: PosValue
    #: (seen, square, kind) -> value of a deployment square
    deploy: Callable[[Seen, Square, str], float]
    #: the Blood Mage's sacrifice: the least Health to keep after the worst roll (None: never)
    pact_margin: int | None = None
    #: ... and only when the enemy Wizard has at most this much Health (Boiling Blood may finish it)
    pact_kill: int = 99


def _pos(style: Style) -> PosValue:
    """The style's value of a square for any of its models (its Wizard's or its Minions')."""

    def value(seen: Seen, m: Model, sq: Square) -> float:
        return style.wizard_square(seen, m, sq) if m.is_wizard else style.minion_square(seen, m, sq)

    return value


def dist_enemy_wizard(seen: Seen, sq: Square) -> int:
    """Squares from ``sq`` to the enemy Wizard (0 when it is gone)."""
    ew = seen.enemy_wizard
    return manhattan(sq, ew.pos) if ew is not None else 0


def nearest_enemy(seen: Seen, sq: Square, minions_first: bool = False) -> int:
    """Squares from ``sq`` to the nearest enemy model (enemy Minion, if any, with ``minions_first``)."""
    pool = [e for e in seen.enemies if not e.is_wizard] if minions_first else []
    pool = pool or seen.enemies
    return min((manhattan(sq, e.pos) for e in pool), default=0)


# ------------------------------------------------------------------ the rush
def _rush_wizard(seen: Seen, m: Model, sq: Square) -> float:
    """Within striking distance of the enemy Wizard for the next turn (a Move and Boiling Blood's
    range, 4 + 3), where it can strike from; the danger there counts, but little."""
    return -1.0 * max(0, dist_enemy_wizard(seen, sq) - 7) - seen.w.wizard_danger * seen.danger(sq, True)


def _rush_minion(seen: Seen, m: Model, sq: Square) -> float:
    """Straight at the enemy Wizard."""
    return -1.0 * dist_enemy_wizard(seen, sq)


def _rush_deploy(seen: Seen, sq: Square, kind: str) -> float:
    """The Wizard as near the enemy Wizard as the edge allows (the centre before it is placed),
    the Minion beside it on the enemy's side."""
    ew = seen.enemy_wizard
    centre = (seen.st.size - 1) / 2
    if kind == "minion" and seen.wizard is not None:
        toward = -manhattan(sq, ew.pos) if ew is not None else -abs(sq[0] - centre) - abs(sq[1] - centre)
        return toward - 3 * max(0, manhattan(sq, seen.wizard.pos) - 1)
    if ew is not None:
        return -float(manhattan(sq, ew.pos))
    return -abs(sq[0] - centre) - abs(sq[1] - centre)


# ------------------------------------------------------------------ the screen
def _screen_wizard(seen: Seen, m: Model, sq: Square) -> float:
    """Out of the enemies' reach, beside its Minions, advancing slowly (to within a Move and a spell
    of the enemy Wizard) so that the formation ends the fight."""
    guard = sum(1 for o in seen.mine if not o.is_wizard and manhattan(o.pos, sq) == 1)
    far = max(0, dist_enemy_wizard(seen, sq) - 6)
    return -seen.w.wizard_danger * seen.danger(sq, True) - 0.5 * far + 0.4 * guard


def _guard_point(seen: Seen) -> Square | None:
    """The square one step from the own Wizard toward the nearest enemy: where a screen stands."""
    wiz = seen.wizard
    if wiz is None or not seen.enemies:
        return None
    e = min(seen.enemies, key=lambda o: (manhattan(o.pos, wiz.pos), o.id))
    dx, dy = e.pos[0] - wiz.pos[0], e.pos[1] - wiz.pos[1]
    step = (1 if dx > 0 else -1, 0) if abs(dx) >= abs(dy) else (0, 1 if dy > 0 else -1)
    k = 2 if manhattan(e.pos, wiz.pos) > 4 else 1
    return (wiz.pos[0] + k * step[0], wiz.pos[1] + k * step[1])


def _screen_minion(seen: Seen, m: Model, sq: Square) -> float:
    """On the nearest enemy that comes within 6 squares of the own Wizard (intercepting it before
    it reaches the Wizard), else one or two squares in front of the Wizard toward the nearest enemy."""
    wiz = seen.wizard
    if wiz is not None:
        close = [e for e in seen.enemies if manhattan(e.pos, wiz.pos) <= 6]
        if close:
            return -1.0 * min(manhattan(sq, e.pos) for e in close) - seen.w.minion_danger * seen.danger(sq, False)
    guard = _guard_point(seen)
    d = manhattan(sq, guard) if guard is not None else 0
    return -1.0 * d - seen.w.minion_danger * seen.danger(sq, False)


def _screen_deploy(seen: Seen, sq: Square, kind: str) -> float:
    """The Wizard near the middle of the edge, away from the enemy Wizard; the Minion beside it."""
    n = seen.st.size
    centre = (n - 1) / 2
    if kind == "minion" and seen.wizard is not None:
        ew = seen.enemy_wizard
        lean = -0.1 * manhattan(sq, ew.pos) if ew is not None else 0.0
        return lean - 3 * abs(manhattan(sq, seen.wizard.pos) - 1)
    ew = seen.enemy_wizard
    off = 0.5 * manhattan(sq, ew.pos) if ew is not None else 0.0  # opposite the rival's Wizard
    return off - abs(sq[0] - centre) - abs(sq[1] - centre)


RUSH = Style(
    name="rush",
    discipline="blood_mage",
    terrain="corners",
    open_edge=True,
    weights=Weights(3.0, 1.0, 1.0, 0.3, 0.6, 0.0, 2.0),
    favour_hold=0.8,
    brawl_cost=0.3,
    wizard_square=_rush_wizard,
    minion_square=_rush_minion,
    deploy=_rush_deploy,
    pact_margin=None,
)
SCREEN = Style(
    name="screen",
    discipline="metallurgist",
    terrain="centre",
    open_edge=False,
    weights=Weights(1.5, 1.2, 1.5, 0.5, 1.0, 0.2, 3.0),
    favour_hold=0.8,
    brawl_cost=0.5,
    wizard_square=_screen_wizard,
    minion_square=_screen_minion,
    deploy=_screen_deploy,
)


# ------------------------------------------------------------------ set-up
def _terrain(st: ArenaState, style: Style, legal: Sequence[ActionModel]) -> ActionModel:
    """Player 1's terrain: the style's layout, one piece per call."""
    if style.terrain == "random" and not st.terrain:
        return RandomTerrain()
    n = st.size
    c = n // 2
    if style.terrain == "corners":  # out of the lanes: the centre stays open
        wanted = [(0, 0), (n - 1, n - 1), (n - 1, 0), (0, n - 1), (1, 1), (n - 2, n - 2), (n - 2, 1), (1, n - 2)]
    else:  # a block in the middle: a rush must go round it, lines of sight are cut
        wanted = [
            (c - 1, c - 1),
            (c, c),
            (c, c - 1),
            (c - 1, c),
            (c - 2, c),
            (c + 1, c - 1),
            (c + 1, c),
            (c - 2, c - 1),
        ]
    for sq in wanted:
        if st.terrain_allowed(sq):
            return PlaceTerrain(at=sq)
    places = [a for a in legal if isinstance(a, PlaceTerrain)]
    if places:  # the square nearest the planned ones
        return min(places, key=lambda a: (min(manhattan(a.at, w) for w in wanted), a.at))
    return legal[0]


def _edge(st: ArenaState, style: Style) -> ActionModel:
    """Player 2's edge: by the terrain within two rows of it (an open approach, or cover)."""
    n = st.size

    def near(edge: str, sq: Square) -> bool:
        x, y = sq
        return {"south": y <= 2, "north": y >= n - 3, "west": x <= 2, "east": x >= n - 3}[edge]

    counts = {e: sum(1 for sq in st.terrain if near(e, sq)) for e in ("south", "north", "west", "east")}
    sign = 1 if style.open_edge else -1
    side = min(counts, key=lambda e: (sign * counts[e], e))
    return ChooseEdge(side=side)


def _deploy(seen: Seen, style: Style, legal: Sequence[ActionModel]) -> ActionModel:
    """The Wizard first, then the Minion, each on the style's best square of the edge."""
    deploys = [a for a in legal if isinstance(a, Deploy)]
    kind = "wizard" if any(a.model == "wizard" for a in deploys) else "minion"
    options = [a for a in deploys if a.model == kind]
    return max(options, key=lambda a: (style.deploy(seen, a.at, kind), -a.at[0], -a.at[1]))


# ------------------------------------------------------------------ the Start Phase and the dice
def _crowd_points(seen: Seen, style: Style) -> int:
    """The Favour to spend: the most valuable expected crowd result, each point held at
    ``favour_hold`` (1 point rolls a D6, each extra +1, results above 6 count as 6)."""
    st = seen.st
    favour = st.players[seen.seat].favour
    if favour <= 0:
        return 0
    ew, wiz = seen.enemy_wizard, seen.wizard
    w = style.weights

    def shard() -> float:
        if ew is None:
            return 0.0
        return min(3.5, ew.health) * w.wizard_damage + WIN * sum(1 for d in range(1, 7) if d >= ew.health) / 6

    def gremlin() -> float:
        total = 0.0
        for mod in seen.models:
            sign = -1.0 if mod.owner == seen.seat else 1.0
            per = w.wizard_damage if mod.is_wizard else w.minion_damage
            v = min(3.5, mod.health) * per
            if mod.is_wizard:
                v += WIN * sum(1 for d in range(1, 7) if d >= mod.health) / 6
            total += sign * v
        return total / max(1, len(seen.models))

    values = {
        "insult": -1.0 if wiz is not None else 0.0,
        "fire_gremlin": gremlin(),
        "brawl": -style.brawl_cost,
        "wild": 2 * style.favour_hold,
        "chant": 1.0,
        "crystal_shard": shard(),
    }
    best, best_v = 0, 0.0
    for points in range(1, favour + 1):
        v = sum(values[CROWD[min(6, d + points - 1)]] for d in range(1, 7)) / 6 - points * style.favour_hold
        if v > best_v + 1e-9:
            best, best_v = points, v
    return best


def _blood_pact(seen: Seen, style: Style) -> bool:
    """The sacrifice (D6 damage, one die more for Spell Selection) when the Wizard keeps at least
    ``pact_margin`` Health after the worst roll and Boiling Blood could reach the enemy Wizard."""
    wiz, ew = seen.wizard, seen.enemy_wizard
    if style.pact_margin is None or wiz is None or ew is None:
        return False
    spell = seen.st.discipline(seen.seat).spell
    reach = seen.st.eff_move(wiz) + (spell.range or 0)
    return wiz.health - 6 >= style.pact_margin and ew.health <= style.pact_kill and manhattan(wiz.pos, ew.pos) <= reach


def _spell(seen: Seen, style: Style) -> ActionModel:
    """The spell whose best activation of the Wizard this turn is worth most."""
    st = seen.st
    wiz = seen.wizard
    assert st.spell is not None
    options = list(st.spell.options)
    if wiz is None:
        return choose_spell(options[0])
    pos = _pos(style)
    best, best_v = "arcane_rocket" if "arcane_rocket" in options else options[0], float("-inf")
    for sid in options:
        adef = st.data.spell(sid)
        v = plan(seen, wiz, pos, moved=False, acted=False, adef=adef)[0]
        if sid == "summon_minion" and st.minion_count(seen.seat) < st.data.max_minions:
            v += style.weights.summon  # the new Minion acts this turn too
        if v > best_v + 1e-9:
            best, best_v = sid, v
    return choose_spell(best)


# ------------------------------------------------------------------ the Action Phase
#: Spells that help the Minions (or make one): the Wizard casts them before the Minions act.
_FIRST_SPELLS = ("summon_minion", "empower", "shield", "extreme_transmutation")
#: What putting out a fire is worth (1 damage at each of the model's Start Phases until then).
_FIRE = 2.5


def _activation(seen: Seen, style: Style) -> ActionModel:
    """The step of the model being activated, or the next model, or the end of the turn."""
    st = seen.st
    a = st.activation
    pos = _pos(style)
    if a is not None:
        m = st.models.get(a.model)
        if m is not None:
            if m.has("burning") and not a.acted and not st.held_by_vines(m):
                act_best = plan(seen, m, pos, moved=True, acted=False, adef=st.model_action(m))
                if act_best[0] < _FIRE * style.weights.minion_damage * (3 if m.is_wizard else 1):
                    return EXTINGUISH
            adef = st.model_action(m) if not a.acted else None
            step = finish(plan(seen, m, pos, moved=a.moved, acted=a.acted, adef=adef))
            if step is not finish((0.0, None)):
                return step
    return _next_model(seen, style, a.model if a is not None else None)


def _next_model(seen: Seen, style: Style, current: str | None) -> ActionModel:
    """The eligible model whose activation is worth most (the Wizard first with a spell that helps
    the Minions); the end of the turn when none gains anything."""
    st = seen.st
    pos = _pos(style)
    blocked = st.blocked_bits()
    spell = st.spell.selected if st.spell is not None else None
    best: tuple[float, str] | None = None
    for m in seen.mine:
        if m.id == current or not st.eligible(m, blocked):
            continue
        adef = st.model_action(m)
        v = plan(seen, m, pos, moved=False, acted=False, adef=adef)[0]
        if m.has("burning"):
            v = max(v, _FIRE)
        if v <= 0:
            continue
        if m.is_wizard and spell in _FIRST_SPELLS and adef is not None:
            v += 1000.0
        if best is None or v > best[0] + 1e-9:
            best = (v, m.id)
    return select_model(best[1]) if best is not None else END_TURN


# ------------------------------------------------------------------ the whole decision
def decide(style: Style, state: State, seat: int, rng: random.Random) -> ActionModel:
    """``style``'s answer to whatever ``seat`` is asked now (always a legal action)."""
    st = arena_state(state)
    legal = state.legal_actions(seat)
    seen = Seen(st, seat, style.weights)
    action = _answer(st, seen, style, legal)
    if state.is_legal(seat, action):
        return action
    return _fallback(seen, legal, rng)  # pragma: no cover - a safety net, never expected


def _answer(st: ArenaState, seen: Seen, style: Style, legal: Sequence[ActionModel]) -> ActionModel:
    p = st.prompt
    if p is not None and p.seat == seen.seat:
        kind = p.kind
        if kind == "crowd":
            return spend_favour(_crowd_points(seen, style))
        if kind == "spell":
            return _spell(seen, style)
        if kind == "reroll":
            return reroll(seen)
        if kind == "scholar":
            return scholar(seen)
        if kind == "blood_pact":
            return legal[0] if _blood_pact(seen, style) else DECLINE
        if kind == "witch_step":
            return _witch_step(seen, style, legal)
        if kind == "necro":
            places = [a for a in legal if isinstance(a, PlaceMinion)]
            return max(places, key=lambda a: (seen.summon_square(a.at), a.at)) if places else legal[0]
        if kind == "teleport":
            return teleport(seen, _pos(style), legal)
        if kind == "dominate":
            return dominate(seen)
        return DECLINE
    phase = st.phase
    if phase == Phase.DISCIPLINE:
        return ChooseDiscipline(discipline=style.discipline)
    if phase == Phase.TERRAIN:
        return _terrain(st, style, legal)
    if phase == Phase.EDGE:
        return _edge(st, style)
    if phase == Phase.DEPLOY:
        return _deploy(seen, style, legal)
    if phase == Phase.ACTION:
        return _activation(seen, style)
    return legal[0]


def _witch_step(seen: Seen, style: Style, legal: Sequence[ActionModel]) -> ActionModel:
    """The Green Witch's free step: to the Wizard's best square by the style, if better."""
    wiz = seen.wizard
    steps = [a for a in legal if isinstance(a, WitchStep)]
    if wiz is None or not steps:
        return DECLINE
    best = max(steps, key=lambda a: (style.wizard_square(seen, wiz, a.to), a.to))
    return best if style.wizard_square(seen, wiz, best.to) > style.wizard_square(seen, wiz, wiz.pos) else DECLINE


def _fallback(seen: Seen, legal: Sequence[ActionModel], rng: random.Random) -> ActionModel:
    """A legal action when the planned one was refused: an Action on the enemy Wizard, any Action,
    then anything but ending the turn."""

    def score(a: ActionModel) -> float:
        d = a.to_json()
        t = d.get("type")
        if t == "act":
            return 3.0 if str(d.get("target", "")).endswith("wizard") else 2.0
        return 0.0 if t == "end_turn" else 1.0

    top = max(score(a) for a in legal)
    best = [a for a in legal if score(a) == top]
    return best[rng.randrange(len(best))]


#: The AI's own mixes of the two (its set-up is the screen's): the screen's Wizard, keeping twice
#: as far out of reach, with the rush's Minions driving at the enemy Wizard...
GUARD = replace(
    SCREEN,
    name="guard",
    weights=replace(SCREEN.weights, wizard_danger=2 * SCREEN.weights.wizard_danger),
    minion_square=_rush_minion,
)
#: ... and the rush's Wizard (within striking distance of the enemy Wizard) behind the screen's
#: Minions.
STRIKE = replace(SCREEN, name="strike", wizard_square=_rush_wizard)

#: The AI's scripts, by name (:mod:`rules.ai.arena_portfolio`): the screen first (the set-up it
#: plays, and every tie goes to it), the rush, then the two mixes.
#: Each reads an Astral Warlock's Minions' sight in its danger (``Weights.sight``), which the pool's
#: rush and screen, kept as they were measured, do not.
SCRIPTS: dict[str, Style] = {
    s.name: replace(s, weights=replace(s.weights, sight=True)) for s in (SCREEN, RUSH, GUARD, STRIKE)
}
