"""What an Arena script player reads of the table and how it weighs an Action (issue 32): the
reading shared by the AI's scripts (:mod:`rules.ai.arena_script`, played by the portfolio search of
:mod:`rules.ai.arena_portfolio`) and the opponent pool's Arena styles (:mod:`bench.pool.arena`).

Written, for the pool, from the rules as ``docs/rulings/arena.md`` states them (the rule text, the design
note's data and this project's rulings) and ``docs/actions/arena.md`` only. Arena is an open board (nothing is
secret; the dice are chance), so a player may read the whole table; it reads it through the rules'
own query helpers (``rules/arena/queries.py``: effective stats, reachable squares, line of sight),
which answer exactly what the view shows, without building the view's JSON on every decision.

What every style knows of the game:

- An Action on an enemy is an opposed roll, D6 + Skill against D6 + Defence (a Metallurgist Wizard
  keeps the higher of two Defence dice): the attacker must beat the total; a tie is a magical
  explosion, half the time double damage, half the time reflected onto the attacker, and it earns
  the active player 1 Crowd Favour either way (:func:`opposed_odds`).
- Knocking out the enemy Wizard wins at once, so the chance an Action knocks it out now is worth far
  more than its damage (:meth:`Seen.act_value`).
- A model that starts a Move next to an enemy takes 2 damage (:data:`DISENGAGE`).
- The danger on a square is the damage the enemies could deal there next turn: a model reaches its
  Move plus its Action's range (:meth:`Seen.danger`).

:func:`plan` weighs a model's activation (move then act, act then move, or either alone) with a
style's position value and returns the first step; the styles differ in that value and the weights.
The follow-ups every style answers alike are here too: a Dominated Minion's Move and Action
(:func:`dominate`), a Teleport's square (:func:`teleport`), the hometown chant's re-roll
(:func:`reroll`) and the Noble Scholar's +2 (:func:`scholar`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..actions import ActionModel
from ..arena import ArenaState, manhattan
from ..arena.actions import (
    ACT,
    DECLINE,
    END_ACTIVATION,
    Teleport,
    act_at,
    act_on,
    move_to,
    reroll_die,
    scholar_bonus,
)
from ..arena.board import Square, within
from ..arena.data import ActionDef, Damage
from ..arena.pieces import Model
from ..core import State

#: Damage a model takes for starting a Move next to an enemy (the rule text, Action Phase).
DISENGAGE = 2
#: The value of knocking out the enemy Wizard (the game is won) in the units of damage.
WIN = 1000.0


def arena_state(state: State) -> ArenaState:
    """The Arena table behind ``state`` (every pool player plays only Arena)."""
    assert isinstance(state, ArenaState), type(state)
    return state


# ------------------------------------------------------------------ dice
@functools.cache
def opposed_odds(diff: int, two_defence_dice: bool) -> tuple[float, float]:
    """(P(attacker wins), P(tie)) when the attacker's Skill exceeds the Defence by ``diff``."""
    win = tie = 0
    total = 0
    for a in range(1, 7):
        for d1 in range(1, 7):
            for d2 in range(1, 7) if two_defence_dice else (0,):
                d = max(d1, d2)
                total += 1
                if a + diff > d:
                    win += 1
                elif a + diff == d:
                    tie += 1
    return win / total, tie / total


@functools.cache
def damage_dist(dmg: Damage, bonus: int) -> tuple[tuple[int, float], ...]:
    """The distribution of ``dmg`` + ``bonus``: (amount, probability) pairs."""
    if not dmg.count:
        return ((max(0, dmg.flat + bonus), 1.0),)
    dist: dict[int, float] = {0: 1.0}
    for _ in range(dmg.count):
        nxt: dict[int, float] = {}
        for v, p in dist.items():
            for f in range(1, dmg.sides + 1):
                nxt[v + f] = nxt.get(v + f, 0.0) + p / dmg.sides
        dist = nxt
    return tuple((max(0, v + bonus), p) for v, p in sorted(dist.items()))


def mean_damage(dmg: Damage, bonus: int = 0) -> float:
    return sum(v * p for v, p in damage_dist(dmg, bonus))


def p_at_least(dmg: Damage, bonus: int, health: int, double: bool = False) -> float:
    """P(the damage, doubled if ``double``, reaches ``health``)."""
    k = 2 if double else 1
    return sum(p for v, p in damage_dist(dmg, bonus) if v * k >= health)


# ------------------------------------------------------------------ weights
@dataclass(frozen=True)
class Weights:
    """How a style values an Action's outcome (damage in units of Health)."""

    #: damage to the enemy Wizard, per point
    wizard_damage: float
    #: damage to an enemy Minion, per point
    minion_damage: float
    #: removing an enemy Minion (besides the damage)
    minion_kill: float
    #: one Crowd Favour gained
    favour: float
    #: the danger on the own Wizard's square, per point of expected damage
    wizard_danger: float
    #: the danger on a Minion's square, per point
    minion_danger: float
    #: a Minion summoned
    summon: float
    #: whether :meth:`Seen.danger` counts an Astral Warlock's Minions wherever their Wizard sees the
    #: square (ruling 26), not only within a Move and their Action's range; the AI's scripts do
    #: (:data:`rules.ai.arena_script.SCRIPTS`), the pool players keep the reach alone
    sight: bool = False


# ------------------------------------------------------------------ the table as a style reads it
class Seen:
    """One seat's reading of the table for one decision: the models, the enemy threat, the values."""

    def __init__(self, st: ArenaState, seat: int, weights: Weights) -> None:
        self.st = st
        self.seat = seat
        self.w = weights
        self.models = st.ordered_models()
        self.mine = [m for m in self.models if m.owner == seat]
        self.enemies = [m for m in self.models if m.owner != seat]
        self.wizard = st.wizard(seat)
        self.enemy_wizard = st.wizard(1 - seat)
        self.blocked = st.blocked()
        self._danger: dict[tuple[Square, bool], float] = {}

    # ---------------------------------------------------------------- geometry
    def sees(self, a: Square, b: Square) -> bool:
        return self.st.blocker(a, b) is None

    def in_reach(self, actor: Model, at: Square, target: Model, rng: int | None, side: int) -> bool:
        """Whether ``actor`` standing on ``at`` may target ``target`` (range, line of sight, the
        Astral Warlock's Minions seeing through their Wizard's eyes)."""
        st = self.st
        if (
            not actor.is_wizard
            and actor.owner == side
            and st.is_discipline(side, "astral_warlock")
            and (wiz := st.wizard(side)) is not None
            and self.sees(wiz.pos, target.pos)
        ):
            return True
        if rng is not None and manhattan(at, target.pos) > rng:
            return False
        return self.sees(at, target.pos)

    # ---------------------------------------------------------------- threat
    def threat_of(self, e: Model, victim_defence: int, metal: bool) -> tuple[int, float]:
        """(reach, expected damage) of the enemy model ``e`` against a model of that Defence."""
        st = self.st
        skill = st.eff_skill(e)[0]
        win, tie = opposed_odds(skill - victim_defence, metal)
        if e.is_wizard:
            spell = st.discipline(e.owner).spell
            best_rng, best = 6, (win + tie) * 2.0  # Arcane Rocket is always on offer
            if spell.damage is not None and spell.range is not None:
                exp = (win + tie) * mean_damage(spell.damage) * 0.45 + best * 0.55
                if exp > best:
                    best, best_rng = exp, spell.range
            return st.eff_move(e) + best_rng, best
        adef = st.discipline(e.owner).minion.action
        if adef.damage is None:
            return st.eff_move(e) + (adef.range or 1), (win + tie) * 1.0
        bonus = 1 if e.has("empower") else 0
        return st.eff_move(e) + (adef.range or 1), (win + tie) * mean_damage(adef.damage, bonus)

    def danger(self, sq: Square, wizard: bool) -> float:
        """Expected damage the enemies could deal next turn to the own Wizard (or a Minion) on ``sq``."""
        key = (sq, wizard)
        got = self._danger.get(key)
        if got is not None:
            return got
        st = self.st
        if wizard and self.wizard is not None:
            defence = st.eff_defence(self.wizard)[0]
            metal = st.is_discipline(self.seat, "metallurgist")
        else:
            defence, metal = st.discipline(self.seat).minion.defence, False
        total = 0.0
        seen_by_warlock = self.w.sight and self._warlock_sees(sq)
        for e in self.enemies:
            reach, exp = self.threat_of(e, defence, metal)
            d = manhattan(e.pos, sq)
            if d <= reach or (seen_by_warlock and not e.is_wizard):
                total += exp
            elif d <= reach + 2:
                total += exp * 0.3
        self._danger[key] = total
        return total

    def _warlock_sees(self, sq: Square) -> bool:
        """Whether the enemy is an Astral Warlock whose Wizard sees ``sq`` from where it stands: its
        Minions may then strike there whatever their range (ruling 26)."""
        ew = self.enemy_wizard
        return ew is not None and self.st.is_discipline(ew.owner, "astral_warlock") and self.sees(ew.pos, sq)

    def adjacent_enemy(self, sq: Square, owner: int) -> bool:
        return any(m.owner != owner and manhattan(m.pos, sq) == 1 for m in self.models)

    # ---------------------------------------------------------------- an Action's value
    def damage_value(self, actor: Model, target: Model, adef: ActionDef, side: int) -> float:
        """The expected value of ``actor``'s damaging or hindering Action on the enemy ``target``."""
        st = self.st
        w = self.w
        skill = st.eff_skill(actor, target)[0]
        metal = target.is_wizard and st.is_discipline(target.owner, "metallurgist")
        win, tie = opposed_odds(skill - st.eff_defence(target)[0], metal)
        per = w.wizard_damage if target.is_wizard else w.minion_damage
        value = tie * w.favour
        if adef.damage is not None:
            bonus = (1 if actor.has("empower") else 0) + (2 if actor.has("transmuted") else 0)
            mean = mean_damage(adef.damage, bonus)
            h = target.health
            p_kill = win * p_at_least(adef.damage, bonus, h) + tie * 0.5 * p_at_least(adef.damage, bonus, h, True)
            exp = min(h, mean) * (win + tie)
            value += per * exp
            if target.is_wizard:
                value += WIN * p_kill
            else:
                value += p_kill * (w.minion_kill + w.favour)
            if actor.owner == side:  # a reflection hurts the own model
                self_per = w.wizard_damage * 0.8 if actor.is_wizard else w.minion_damage * 0.5
                value -= tie * 0.5 * mean * self_per
                if actor.is_wizard and self.wizard is not None:
                    value -= WIN * tie * 0.5 * p_at_least(adef.damage, bonus, actor.health)
            if adef.effect == "storm":
                near = sum(
                    1 for o in self.models if o.owner != side and o is not target and manhattan(o.pos, target.pos) <= 2
                )
                value += (win + tie) * near * 2 * w.minion_damage
            if adef.effect in ("torment", "flame", "cripple", "hypnotic"):
                value += (win + tie) * 1.0
            if adef.effect == "leech":
                value += (win + tie) * 0.5
            return value
        extra = {"dominate": 2.0, "vines": 2.5, "curse": 1.5}.get(adef.effect or "", 0.5)
        return value + (win + tie) * extra

    def ally_value(self, actor: Model, target: Model, adef: ActionDef) -> float:
        """The value of a spell on an own model (Shield, Empower, the Trickster's swap, healing...)."""
        eff = adef.effect
        st = self.st
        if eff == "shield":
            if target.has("shield"):
                return 0.0
            d = self.danger(target.pos, target.is_wizard)
            return d * (0.6 if target.is_wizard else 0.3) * (self.w.wizard_danger if target.is_wizard else 1.0)
        if eff == "empower":
            if target.id in st.activated or target.has("empower"):
                return 0.0
            reach = st.eff_move(target) + (st.discipline(target.owner).minion.action.range or 1)
            if any(manhattan(target.pos, e.pos) <= reach for e in self.enemies):
                return 2.0
            return 0.1
        if eff == "heal":
            return min(3.5, target.max_health - target.health) * (1.5 if target.is_wizard else 0.5)
        if eff == "swap" and self.wizard is not None:
            gain = self.danger(self.wizard.pos, True) - self.danger(target.pos, True)
            return gain * self.w.wizard_danger - 0.5
        if eff == "transmute":
            return 1.0
        return 0.0

    def act_value(self, actor: Model, at: Square, adef: ActionDef, side: int) -> tuple[float, ActionModel | None]:
        """The best Action ``actor`` could take standing on ``at`` with ``adef``: (value, action)."""
        st = self.st
        kind = adef.target
        if kind == "none":  # Tidal Wave: every enemy pushed toward its edge
            return 1.0 * len(self.enemies), ACT
        if kind == "square":
            if st.minion_count(side) >= st.data.max_minions:
                return 0.0, None
            best: tuple[float, ActionModel | None] = (0.0, None)
            for sq in within(at, adef.range or 2, st.size):
                if sq in self.blocked and sq != actor.pos:
                    continue
                if sq == at:
                    continue
                v = self.w.summon + 0.01 * self.summon_square(sq)
                if v > best[0]:
                    best = (v, act_at(sq))
            return best
        hyp = st.hypnotic_source(actor) if actor.effects and actor.owner == side else None
        best = (0.0, None)
        for t in self.models:
            if hyp is not None and t.id != hyp:
                continue
            dominated = actor.owner != side
            if not st.target_kind_ok(actor, t, kind, side, dominated)[0]:
                continue
            if t is not actor and not self.in_reach(actor, at, t, adef.range, side):
                continue
            friendly = t.owner == side
            v = self.ally_value(actor, t, adef) if friendly else self.damage_value(actor, t, adef, side)
            if v > best[0]:
                best = (v, act_on(t.id))
        return best

    def summon_square(self, sq: Square) -> float:
        """A higher number for a summoned Minion's square nearer the enemy Wizard."""
        ew = self.enemy_wizard
        return -float(manhattan(sq, ew.pos)) if ew is not None else 0.0


#: A style's value of a square for one of its models: (seen, model, square) -> value.
PosValue = Callable[[Seen, Model, Square], float]


def plan(
    seen: Seen,
    m: Model,
    pos_value: PosValue,
    *,
    moved: bool,
    acted: bool,
    adef: ActionDef | None,
    spell_move: bool = False,
) -> tuple[float, ActionModel | None]:
    """The best activation of ``m`` from here, by the style's ``pos_value``: (value gained over
    standing still and doing nothing, first step or None for nothing worth doing). ``adef``: the
    Action it may still take (None: none); ``spell_move``: a Move that costs no disengage damage."""
    st = seen.st
    side = seen.seat
    here = m.pos
    can_move = not moved and not st.held_by_vines(m) and st.eff_move(m) > 0
    can_act = not acted and adef is not None and not (m.owner == side and st.held_by_vines(m))
    stay = pos_value(seen, m, here)
    cost = 0.0
    if can_move and not spell_move and seen.adjacent_enemy(here, m.owner):
        per = seen.w.wizard_damage * 1.5 if m.is_wizard else seen.w.minion_damage
        cost = DISENGAGE * per + (WIN if m.is_wizard and m.health <= DISENGAGE else 0.0)
        if not m.is_wizard and m.health <= DISENGAGE:
            cost = seen.w.minion_kill + 2.0
    squares: Sequence[Square] = st.move_list(m) if can_move else ()
    best_v, best_a = 0.0, None
    act_here = seen.act_value(m, here, adef, side) if can_act and adef is not None else (0.0, None)
    if act_here[1] is not None and act_here[0] > best_v:
        best_v, best_a = act_here[0], act_here[1]
    for sq in squares:
        pv = pos_value(seen, m, sq) - stay - cost
        v = pv
        first: ActionModel = move_to(sq)
        if can_act and adef is not None:
            av, aa = seen.act_value(m, sq, adef, side)
            if aa is not None and av > 0:
                v += av
            if act_here[1] is not None and act_here[0] + pv > v:
                v, first = act_here[0] + pv, act_here[1]
        if v > best_v + 1e-9:
            best_v, best_a = v, first
    return best_v, best_a


def finish(best: tuple[float, ActionModel | None]) -> ActionModel:
    """The planned step, or the end of the activation when nothing is worth doing."""
    return best[1] if best[1] is not None and best[0] > 0 else END_ACTIVATION


# ------------------------------------------------------------------ the follow-ups of a Dominate and a Teleport
def dominate(seen: Seen) -> ActionModel:
    """A Dominated enemy Minion: its best Action against its own side, from the best square."""
    st = seen.st
    d = st.dominate
    if d is None:
        return DECLINE
    m = st.models.get(d.model)
    if m is None:
        return DECLINE
    adef = st.discipline(m.owner).minion.action

    def away(s: Seen, mod: Model, sq: Square) -> float:  # leave it far from the own Wizard
        return 0.2 * manhattan(sq, s.wizard.pos) if s.wizard is not None else 0.0

    step = plan(seen, m, away, moved=d.moved, acted=False, adef=adef, spell_move=True)
    if step[1] is not None and step[0] > 0 and st.is_legal(seen.seat, step[1]):
        return step[1]
    return DECLINE


def teleport(seen: Seen, pos: PosValue, legal: Sequence[ActionModel]) -> ActionModel:
    """A Teleport's square: an own model to its best square, an enemy's far from the own Wizard."""
    st = seen.st
    p = st.prompt
    m = st.models.get(p.model or "") if p is not None else None
    squares = [a for a in legal if isinstance(a, Teleport)]
    if m is None or not squares:
        return DECLINE
    if m.owner == seen.seat:
        best = max(squares, key=lambda a: (pos(seen, m, a.to), a.to))
        return best if pos(seen, m, best.to) > pos(seen, m, m.pos) else DECLINE
    wiz = seen.wizard
    if wiz is None:
        return DECLINE
    best = max(squares, key=lambda a: (manhattan(a.to, wiz.pos), a.to))
    return best if manhattan(best.to, wiz.pos) > manhattan(m.pos, wiz.pos) else DECLINE


# ------------------------------------------------------------------ the dice a seat may change
def reroll(seen: Seen) -> ActionModel:
    """The hometown chant: re-roll the die whose re-roll raises the chance of a good result most."""
    st = seen.st
    rec = st.roll
    if rec is None:
        return DECLINE
    dice = list(rec.dice)
    purpose = rec.purpose
    if purpose == "opposed":
        att = st.models.get(rec.info.get("attacker", ""))
        dfn = st.models.get(rec.info.get("defender", ""))
        if att is None or dfn is None:
            return DECLINE
        mine = att.owner == seen.seat or (st.dominate is not None and st.dominate.model == att.id)
        skill = st.eff_skill(att, dfn)[0]
        defence = st.eff_defence(dfn)[0]

        def p_good(ds: list[int]) -> float:
            a, d = ds[0] + skill, max(ds[1:]) + defence
            return 1.0 if (a > d) == mine else (0.5 if a == d else 0.0)

        now = p_good(dice)
        best_i, best_p = -1, now
        for i in range(len(dice)):
            p = sum(p_good(dice[:i] + [f] + dice[i + 1 :]) for f in range(1, 7)) / 6
            if p > best_p + 0.05:
                best_i, best_p = i, p
        return reroll_die(best_i) if best_i >= 0 else DECLINE
    if purpose == "explosion":
        a, t = dice
        if a > t:
            return DECLINE
        return reroll_die(0) if a <= 7 - t else reroll_die(1)
    if purpose == "damage":
        res = st.resolutions.get(int(rec.info.get("ctx", 0)))
        victim = st.models.get(res.victim or "") if res is not None else None
        if victim is None or not dice:
            return DECLINE
        side = max(rec.sides)
        if victim.owner == seen.seat:  # a reflection: re-roll the highest die if high
            i = max(range(len(dice)), key=lambda k: dice[k])
            return reroll_die(i) if dice[i] > (side + 1) / 2 else DECLINE
        i = min(range(len(dice)), key=lambda k: dice[k])
        return reroll_die(i) if dice[i] < (side + 1) / 2 else DECLINE
    if purpose == "spell_selection":
        own = st.discipline(seen.seat).spell.id
        if len(set(dice)) < len(dice) or 3 in dice:
            return DECLINE  # a double (any spell) or the Discipline Spell already
        bad = [i for i, d in enumerate(dice) if st.spell_for_die(seen.seat, d) in ("dominate", "empower")]
        if own in ("boiling_blood", "storm_of_iron", "mental_torment") and dice:
            return reroll_die(bad[0] if bad else 0)
        return DECLINE
    if purpose == "heal":
        return reroll_die(0) if dice and dice[0] <= 2 else DECLINE
    return DECLINE


def scholar(seen: Seen) -> ActionModel:
    """The Noble Scholar's +2: on the Spell Selection die that then names the Discipline Spell or
    makes a double; on a Skill or Defence total always (it is offered only when it can matter)."""
    st = seen.st
    p = st.prompt
    assert p is not None
    if not p.per_die:
        return scholar_bonus()
    rec = st.roll
    if rec is None:
        return DECLINE
    dice = list(rec.dice)
    for i, d in enumerate(dice):
        new = min(6, d + 2)
        if new == 3 or any(new == o for j, o in enumerate(dice) if j != i):
            return scholar_bonus(i)
    return DECLINE


__all__ = [
    "DISENGAGE",
    "WIN",
    "PosValue",
    "Seen",
    "Weights",
    "arena_state",
    "damage_dist",
    "dominate",
    "finish",
    "mean_damage",
    "opposed_odds",
    "p_at_least",
    "plan",
    "reroll",
    "scholar",
    "teleport",
]
