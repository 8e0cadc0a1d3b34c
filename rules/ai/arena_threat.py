"""Arena: how much danger a Wizard is in, read from the open board (for the evaluation, the prior
and the playout policy of :mod:`rules.ai.arena`).

An Arena game is lost the moment the Wizard is knocked out (docs/rulings/arena.md, ruling 42), so a
Wizard that an enemy can kill in one turn is a near-loss, however the rest of the board looks. The
enemy's *strikes* on a Wizard in a turn are counted here:

- a model strikes when, from its square or a square it can Move to this turn (orthogonal steps
  through free squares, ruling 22: the engine's ``reach_bits``), the target is within its Action's
  range with line of sight (rulings 1, 25; an Astral Warlock's Minion whatever its range when its
  Wizard sees the target, ruling 26); a model held by Grasping Vines, or already done this turn,
  does not strike;
- a Minion's Action is its Discipline's; the Wizard's is the spell it casts: the one it selected
  if it has, else its Discipline Spell with the chance that Spell Selection offers it (a 3 or any
  double among 2 dice, 3 for a Blood Mage who can afford the sacrifice, 1 under a Curse: ruling 16)
  and Arcane Rocket otherwise (always offered), whichever deals more;
- each strike is an opposed roll (D6 + Skill against D6 + Defence, the Metallurgist's Wizard the
  higher of two dice, ruling 27), a tie a magical explosion: half the time double damage, half the
  time reflected (ruling 29); damage as the Action's dice (+1 Empower, +2 Transmutation).

The strikes are independent; their total damage's distribution gives the chance the Wizard falls
(:func:`kill_chance`). The crowd's crystal shard counts (D6 on the Wizard, no opposed roll, with
the chance that spending all the Crowd Favour rolls a 6 on the crowd table); other crowd results,
Dominate and Tidal Wave are left out (rare or small).
"""

from __future__ import annotations

from functools import cache

from ..arena.board import manhattan, reach_bits, squares_in
from ..arena.data import ActionDef, Damage
from ..arena.game import Phase
from ..arena.pieces import Model
from ..arena.state import ArenaState

#: A distribution of damage: index = damage, the last entry "this much or more".
Dist = list[float]


@cache
def _dice_sum(count: int, sides: int) -> tuple[float, ...]:
    """The distribution of the sum of ``count`` dice of ``sides``."""
    dist = [1.0]
    for _ in range(count):
        nxt = [0.0] * (len(dist) + sides)
        for total, p in enumerate(dist):
            for face in range(1, sides + 1):
                nxt[total + face] += p / sides
        dist = nxt
    return tuple(dist)


def damage_dist(d: Damage, bonus: int = 0) -> tuple[float, ...]:
    """The distribution of the damage ``d`` deals, ``bonus`` added (never below 0)."""
    base = _dice_sum(d.count, d.sides) if d.count else tuple([0.0] * d.flat + [1.0])
    if bonus <= 0:
        return base
    return tuple([0.0] * bonus) + base


@cache
def opposed_odds(skill: int, defence: int, two_defence_dice: bool) -> tuple[float, float]:
    """(win, tie) chances of an opposed roll: D6 + ``skill`` against D6 + ``defence`` (the higher
    of two D6 with ``two_defence_dice``)."""
    ddie = [(2 * k - 1) / 36 for k in range(1, 7)] if two_defence_dice else [1 / 6] * 6
    win = tie = 0.0
    for a in range(1, 7):
        for k, pd in enumerate(ddie, start=1):
            ta, td = a + skill, k + defence
            if ta > td:
                win += pd / 6
            elif ta == td:
                tie += pd / 6
    return win, tie


@cache
def discipline_chance(dice: int) -> float:
    """The chance that Spell Selection with ``dice`` D6 offers the Discipline Spell: a 3, or any
    two dice equal (any spell) (ruling 16)."""
    if dice <= 0:
        return 0.0
    hits = 0
    total: int = 6**dice
    for n in range(total):
        faces = [(n // 6**i) % 6 + 1 for i in range(dice)]
        if 3 in faces or len(set(faces)) < len(faces):
            hits += 1
    return hits / total


def _strike_dist(st: ArenaState, actor: Model, adef: ActionDef, target: Model, turn: int, cap: int) -> Dist:
    """The damage one strike of ``adef`` by ``actor`` deals ``target`` (capped at ``cap``)."""
    assert adef.damage is not None
    skill, _ = st.eff_skill(actor, target)
    if turn != st.turn_no:  # the effects of the turn it will strike in, not of this one
        if actor.has("torment", st.turn_no):
            skill += 2
        if actor.has("torment", turn):
            skill -= 2
        if actor.has("empower"):
            skill -= 1
        if actor.has("insult"):
            skill += 1
    defence, _ = st.eff_defence(target)
    two = target.is_wizard and st.is_discipline(target.owner, "metallurgist")
    win, tie = opposed_odds(skill, defence, two)
    bonus = (1 if actor.has("empower") and turn == st.turn_no else 0) + (2 if actor.has("transmuted") else 0)
    dmg = damage_dist(adef.damage, bonus)
    out = [0.0] * (cap + 1)
    out[0] = 1.0 - win - tie / 2
    for amount, p in enumerate(dmg):
        if p:
            out[min(cap, amount)] += p * win
            out[min(cap, 2 * amount)] += p * tie / 2
    return out


def _convolve(a: Dist, b: Dist) -> Dist:
    cap = len(a) - 1
    out = [0.0] * (cap + 1)
    for i, pa in enumerate(a):
        if not pa:
            continue
        for j, pb in enumerate(b):
            if pb:
                out[min(cap, i + j)] += pa * pb
    return out


def _shard_dist(favour: int, cap: int) -> Dist:
    """The crowd's crystal shard on the enemy Wizard when a player spends all its ``favour``: the
    crowd die + 1 per extra point, above 6 counted as 6 (ruling 2; the 6 is the shard, D6 damage
    with no opposed roll), so a 6 with chance ``favour / 6``."""
    out = [1.0] + [0.0] * cap
    if favour <= 0:
        return out
    p = min(1.0, favour / 6)
    out[0] = 1.0 - p
    for face in range(1, 7):
        out[min(cap, face)] += p / 6
    return out


def _mix(a: Dist, b: Dist, p: float) -> Dist:
    return [p * x + (1.0 - p) * y for x, y in zip(a, b, strict=True)]


def strikes_at(st: ArenaState, actor: Model, reach: int, rng: int | None, at: tuple[int, int]) -> bool:
    """Whether ``actor`` can target the square ``at`` after a Move to one of ``reach`` (bits, its
    own square added), with range ``rng`` and line of sight (rulings 1, 25)."""
    pos = actor.pos
    if (rng is None or manhattan(pos, at) <= rng) and st.blocker(pos, at) is None:
        return True
    if not reach:
        return False
    for sq in squares_in(reach, st.size):
        if (rng is None or manhattan(sq, at) <= rng) and st.blocker(sq, at) is None:
            return True
    return False


def _move_steps(st: ArenaState, m: Model, turn: int) -> int:
    steps = m.move + m.mutation("move") + (2 if m.has("transmuted") else 0)
    if m.has("crippled", turn):
        steps -= 1
    return max(0, steps)


def _wizard_spells(st: ArenaState, side: int, turn: int) -> tuple[list[ActionDef], float]:
    """The spells ``side``'s Wizard may cast in ``turn`` with a chance: (the Discipline Spell if it
    deals damage, and Arcane Rocket), and the chance the first is offered; ([selected], 1) once chosen."""
    if turn == st.turn_no and st.active == side and st.spell is not None:
        if st.spell.cast or st.spell.selected is None:
            if st.spell.cast:
                return [], 0.0
            opts = [st.data.spell(s) for s in st.spell.options]
            dmg = [a for a in opts if a.damage is not None and a.target in ("enemy", "enemy_wizard")]
            return (sorted(dmg, key=lambda a: -_mean(a.damage)), 1.0) if dmg else ([], 0.0)
        chosen = st.data.spell(st.spell.selected)
        return ([chosen], 1.0) if chosen.damage is not None else ([], 0.0)
    rocket = st.data.spell("arcane_rocket")
    disc = st.discipline(side).spell
    if disc.damage is None or disc.target not in ("enemy", "enemy_wizard"):
        return [rocket], 0.0
    dice = 2
    wiz = st.wizard(side)
    if st.is_discipline(side, "blood_mage") and wiz is not None and wiz.health > 6:
        dice += 1
    if wiz is not None and wiz.has("curse"):
        dice -= 1
    return [disc, rocket], discipline_chance(dice)


def _mean(d: Damage | None) -> float:
    if d is None:
        return 0.0
    return float(d.count * (d.sides + 1) / 2 if d.count else d.flat)


def damage_to(st: ArenaState, target: Model, at: tuple[int, int] | None = None, cap: int | None = None) -> Dist:
    """The distribution of the damage ``target``'s enemy deals it in the enemy's coming turn (what
    is left of it, when the enemy is the active player), with ``target`` on ``at`` (its square
    by default). Capped at ``cap`` (the target's Health by default): the last entry is a knock-out."""
    side = 1 - target.owner
    pos = target.pos if at is None else at
    cap = target.health if cap is None else cap
    cap = max(1, cap)
    turn = st.turn_no if st.active == side and st.phase != Phase.OVER else st.turn_no + 1
    current = turn == st.turn_no and st.phase == Phase.ACTION
    out: Dist = [1.0] + [0.0] * cap
    if target.is_wizard and (turn != st.turn_no or st.phase == Phase.START):
        out = _convolve(out, _shard_dist(st.players[side].favour, cap))
    blocked = st.blocked_bits()
    a = st.activation if current else None
    warlock = st.is_discipline(side, "astral_warlock")
    enemy_wiz = st.wizard(side)
    for m in st.models.values():
        if m.owner != side:
            continue
        if current and m.id in st.activated and (a is None or a.model != m.id):
            continue
        e = m.effect("vines")
        if e is not None and e.applies_turn == turn:
            continue
        if a is not None and a.model == m.id and a.acted:
            continue
        steps = 0 if (a is not None and a.model == m.id and a.moved) else _move_steps(st, m, turn)
        reach = reach_bits(m.pos, steps, st.size, blocked) if steps else 0
        if m.is_wizard:
            spells, p_disc = _wizard_spells(st, side, turn)
            if not spells:
                continue
            dists = []
            for adef in spells:
                if strikes_at(st, m, reach, adef.range, pos):
                    dists.append(_strike_dist(st, m, adef, target, turn, cap))
                else:
                    dists.append([1.0] + [0.0] * cap)
            if len(dists) == 1:
                strike = dists[0]
            elif p_disc >= 1.0:  # chosen among the options on offer: the likeliest to kill
                strike = max(dists, key=lambda d: (d[-1], sum(i * p for i, p in enumerate(d))))
            else:
                strike = _mix(dists[0], dists[1], p_disc)
        else:
            adef = st.discipline(side).minion.action
            if adef.damage is None or adef.target not in ("enemy", "enemy_wizard"):
                continue
            ok = (
                warlock
                and enemy_wiz is not None
                and m.owner == side
                and st.blocker(enemy_wiz.pos, pos) is None
                or strikes_at(st, m, reach, adef.range, pos)
            )
            if not ok:
                continue
            strike = _strike_dist(st, m, adef, target, turn, cap)
        out = _convolve(out, strike)
    return out


def threat(st: ArenaState, seat: int) -> tuple[float, float]:
    """``seat``'s Wizard in the enemy's coming turn: the chance it is knocked out and the damage
    it takes on average (at most its Health); (0, 0) when it has no Wizard on the board."""
    wiz = st.wizard(seat)
    if wiz is None:
        return 0.0, 0.0
    dist = damage_to(st, wiz)
    return dist[-1], sum(i * p for i, p in enumerate(dist))


def kill_chance(st: ArenaState, seat: int, at: tuple[int, int] | None = None) -> float:
    """The chance that ``seat``'s Wizard (on ``at``, its square by default) is knocked out in the
    enemy's coming turn (0 when it has no Wizard on the board)."""
    wiz = st.wizard(seat)
    if wiz is None:
        return 0.0
    return damage_to(st, wiz, at)[-1]


__all__ = ["damage_dist", "damage_to", "discipline_chance", "kill_chance", "opposed_odds", "strikes_at", "threat"]
