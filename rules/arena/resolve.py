"""Resolving Actions: targets, opposed rolls, magical explosions, damage rolls, healing, lasting
effects, Domination and the special spells. Step functions of an :class:`~.state.ArenaState` (see
``STEPS`` in state.py). What damage comes to (a Minion's removal, the knock-out and its fate) is in
casualties.py, the crowd table's results in crowd.py; their names are importable from here too.

Seed: "If the Target is an ally, the action is instantly resolved. If the Target is an enemy, both
players roll a D6, the active model adds their Skill and the Target model adds their Defence."
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import ActionModel, seat_ref
from .actions import Act, Move
from .board import EDGES, Square, label, manhattan, on_board
from .casualties import damage, fate, knockout, owner_of, remove_minion
from .crowd import crowd_result, gremlin_damage, gremlin_model, shard_damage
from .data import ActionDef
from .ground import is_free
from .pieces import Effect, Model, next_turn_of
from .queries import (
    act_options,
    action_def,
    discipline,
    eff_defence,
    eff_skill,
    is_discipline,
    mname,
    move_list,
    move_path,
    ordered_models,
    teleport_squares,
    wizard,
)
from .records import Domination, Resolution
from .steps import step
from .table import add_effect, ask, emit, gain_favour, heal, place_minion, push, relocate, request_roll

if TYPE_CHECKING:
    from .state import ArenaState


#: Riders that last for the victim's next turn only: the Action's effect -> (Effect kind, log text).
NEXT_TURN_EFFECTS = {
    "torment": ("torment", "has -2 Skill on its next turn."),
    "vines": ("vines", "is held by vines: no Move or Action on its next turn."),
    "cripple": ("crippled", "has -1 Move on its next turn."),
    "curse": ("curse", "rolls one die fewer in its next Spell Selection."),
}


# ================================================================== beginning an Action
def begin_action(
    st: ArenaState, m: Model, adef: ActionDef, side: int, target: str | None, at: Square | None, dominated: bool
) -> None:
    cid = st.next_resolution
    st.next_resolution += 1
    res = Resolution(cid, m.id, side, adef.id, target, at, by_wizard=m.is_wizard, dominated=dominated)
    st.resolutions[cid] = res
    who = mname(st, m.id) if st.narrate else ""
    if adef.target == "none":
        if st.narrate:
            emit(st, "action", f"{who} casts {adef.name}.", actor=m.id, action=adef.id, side=side, target=None)
        tidal_wave(st, res)
        return
    if adef.target == "square":
        assert at is not None
        if st.narrate:
            emit(
                st,
                "action",
                f"{who} casts {adef.name} on {label(at)}.",
                actor=m.id,
                action=adef.id,
                side=side,
                target=None,
                at=list(at),
            )
        place_minion(st, side, at, why="summoned")
        return
    assert target is not None
    t = st.models[target]
    res.target_owner = t.owner
    ally = t.owner == side
    if st.narrate:
        verb = "casts" if adef.is_spell else "uses"
        on = "itself" if t.id == m.id else mname(st, t.id)
        emit(
            st,
            "action",
            f"{who} {verb} {adef.name} on {on}" + (" (an ally: it simply happens)." if ally else "."),
            actor=m.id,
            action=adef.id,
            side=side,
            target=t.id,
            ally=ally,
            dominated=dominated,
        )
    if ally:
        res.result = "ally"
        push(st, step("effect", cid))
        return
    dice = [6, 6]
    if t.is_wizard and is_discipline(st, t.owner, "metallurgist"):
        dice.append(6)
    request_roll(
        st,
        "opposed",
        dice,
        step("opposed", cid),
        ctx=cid,
        attacker=m.id,
        defender=t.id,
        label=f"{m.id}'s Skill against {t.id}'s Defence"
        + (" (two Defence dice, keep the higher)" if len(dice) == 3 else ""),
    )


def opposed_totals(st: ArenaState, res: Resolution) -> tuple[dict[str, Any], dict[str, Any]]:
    rec = st.roll
    assert rec is not None and res.target is not None
    att = st.models[res.actor]
    dfn = st.models[res.target]
    skill, smods = eff_skill(st, att, dfn)
    defence, dmods = eff_defence(st, dfn)
    # Noble Scholar's +2 (once per game turn, even after rolling) on the Skill or Defence total
    sb = rec.bonus.get(res.side, 0)
    db = rec.bonus.get(res.target_owner, 0) if res.target_owner is not None else 0
    if sb:
        smods.append({"why": "noble_scholar", "value": sb})
    if db:
        dmods.append({"why": "noble_scholar", "value": db})
    adie, ddice = rec.dice[0], rec.dice[1:]
    kept = max(ddice)  # Metallurgist: two Defence dice, keep the higher
    a = {"model": att.id, "die": adie, "skill": att.skill, "modifiers": smods, "total": adie + skill + sb}
    d = {
        "model": dfn.id,
        "dice": list(ddice),
        "kept": kept,
        "defence": dfn.defence,
        "modifiers": dmods,
        "total": kept + defence + db,
    }
    return a, d


def opposed(st: ArenaState, cid: int) -> None:
    res = st.resolutions[cid]
    a, d = opposed_totals(st, res)
    adef = action_def(st, res.action)
    if a["total"] > d["total"]:
        result, text = "success", "succeeds"
    elif a["total"] == d["total"]:
        result, text = "explosion", "ties: a magical explosion!"
    else:
        result, text = "fail", "fails"
    if st.narrate:
        emit(
            st,
            "opposed",
            f"{adef.name}: {a['total']} (die {a['die']}) against {d['total']} (die {d['kept']}): {text}",
            ctx=cid,
            action=res.action,
            attacker=a,
            defender=d,
            result=result,
        )
    if result == "success":
        res.result = "success"
        push(st, step("effect", cid))
    elif result == "explosion":
        explosion_roll(st, cid)
    else:
        res.result = "fail"


def explosion_roll(st: ArenaState, cid: int) -> None:
    """The magical explosion's roll-off: plain dice, active player then target (re-rolled on a tie)."""
    request_roll(
        st,
        "explosion",
        [6, 6],
        step("explosion", cid),
        ctx=cid,
        label="the magical explosion roll-off (active, target)",
    )


def explosion(st: ArenaState, cid: int) -> None:
    res = st.resolutions[cid]
    assert st.roll is not None
    a, t = st.roll.dice
    if a == t:
        if st.narrate:
            emit(
                st,
                "explosion",
                f"The explosion roll-off ties ({a}-{t}); roll again.",
                ctx=cid,
                dice=[a, t],
                winner=None,
            )
        explosion_roll(st, cid)
        return
    if t > a:
        res.reflected = True
        res.result = "reflected"
        text = f"The explosion roll-off goes to the target ({t} against {a}): the Action is reflected onto {res.actor}!"
    else:
        res.double = True
        res.result = "explosion_success"
        text = f"The explosion roll-off goes to the active player ({a} against {t}): success with double damage!"
    if st.narrate:
        emit(
            st, "explosion", text, ctx=cid, dice=[a, t], winner="target" if t > a else "active", reflected=res.reflected
        )
    gain_favour(st, st.active, 1, "a magical explosion")
    push(st, step("effect", cid))


# ================================================================== effects
def effect(st: ArenaState, cid: int) -> None:
    res = st.resolutions[cid]
    adef = action_def(st, res.action)
    victim = st.models.get(res.victim or "")
    if victim is None:
        return
    if adef.damage is not None:
        dmg = adef.damage
        if dmg.count:
            keep_high = adef.effect == "lunge" and victim.has("vines")
            sides = [6, 6] if keep_high else [dmg.sides] * dmg.count
            request_roll(
                st,
                "damage",
                sides,
                step("damage", cid, True),
                ctx=cid,
                keep="highest" if keep_high else "sum",
                label=f"{adef.name} damage ({'D6 twice, keep the higher' if keep_high else dmg})",
            )
        else:
            damage_step(st, cid, False)
        return
    if adef.effect == "heal":
        request_roll(st, "heal", [6], step("heal", cid), ctx=cid, label=f"{adef.name} (D6 Health)")
        return
    riders(st, res, victim.pos)


def damage_amount(st: ArenaState, res: Resolution, rolled: list[int] | None) -> tuple[int, list[dict[str, Any]]]:
    adef = action_def(st, res.action)
    assert adef.damage is not None
    mods: list[dict[str, Any]] = []
    if rolled is None:
        base = adef.damage.flat
    elif len(rolled) == 2 and adef.effect == "lunge":
        base = max(rolled)
    else:
        base = sum(rolled)
    actor = st.models.get(res.actor)
    if actor is not None:
        if actor.has("empower"):
            mods.append({"why": "empower", "value": 1})
        if actor.has("transmuted"):
            mods.append({"why": "transmuted", "value": 2})
        if adef.effect == "water_jet" and actor.owner == res.side and is_discipline(st, res.side, "mermancer"):
            wiz = wizard(st, res.side)
            if wiz is not None and manhattan(wiz.pos, actor.pos) <= 3:
                mods.append({"why": "mermancer", "value": 1})
        if adef.effect == "harmonic":
            friends = [
                o.id
                for o in st.models.values()
                if o.owner == res.side and o.id != actor.id and manhattan(o.pos, actor.pos) <= 2
            ]
            if friends:
                mods.append({"why": "harmonic", "value": len(friends), "friends": sorted(friends)})
    total = base + sum(x["value"] for x in mods)
    if res.double:
        mods.append({"why": "explosion_double", "value": total})
        total *= 2
    return max(0, total), [{"why": "base", "value": base}, *mods]


def damage_step(st: ArenaState, cid: int, rolled: bool) -> None:
    res = st.resolutions[cid]
    victim = st.models.get(res.victim or "")
    if victim is None:
        return
    dice = st.roll.values() if rolled and st.roll is not None else None
    amount, parts = damage_amount(st, res, dice)
    pos = victim.pos
    before = victim.health
    damage(st, victim.id, amount, cause="action", res=res, parts=parts)
    after = st.models[victim.id].health if victim.id in st.models else 0
    res.dealt = before - after
    if st.ko is None:
        riders(st, res, pos)


def heal_step(st: ArenaState, cid: int) -> None:
    res = st.resolutions[cid]
    victim = st.models.get(res.victim or "")
    assert st.roll is not None
    if victim is None:
        return
    heal(st, victim, st.roll.values()[0], why=action_def(st, res.action).name)


def riders(st: ArenaState, res: Resolution, pos: Square) -> None:
    """The special part of an Action, after any damage: flame, torment, vines, shield..."""
    adef = action_def(st, res.action)
    eff = adef.effect
    victim = st.models.get(res.victim or "")
    t = st.turn_no
    name = mname(st, res.victim or "")
    nt = next_turn_of(victim.owner, st.active, t) if victim else t + 1
    if eff == "storm":
        side = res.effect_side
        hit = [
            o.id for o in ordered_models(st) if o.owner != side and o.id != res.victim and manhattan(o.pos, pos) <= 2
        ]
        if hit and st.narrate:
            emit(st, "storm", f"The Storm of Iron hits every enemy within 2 squares: {', '.join(hit)}.", models=hit)
        for oid in hit:
            damage(st, oid, 2, cause="storm", res=res)
        return
    if eff == "leech":
        if not res.reflected and res.dealt > 0:
            wiz = wizard(st, res.side)
            if wiz is not None:
                heal(st, wiz, 1, "Leech")
        return
    if eff == "tidal_wave" or victim is None:
        return
    if eff == "flame":
        if not victim.has("burning"):
            add_effect(st, victim, Effect("burning", source=res.actor), f"{name} catches fire!")
    elif eff in NEXT_TURN_EFFECTS:
        kind, text = NEXT_TURN_EFFECTS[eff]
        add_effect(st, victim, Effect(kind, nt, nt, source=res.actor), f"{name} {text}")
    elif eff == "hypnotic":
        if res.reflected:
            if st.narrate:
                emit(st, "no_effect", "A reflected Hypnotic Dancing cannot bind a model to itself.", ctx=res.id)
        elif victim.has("hypnotic"):
            if st.narrate:
                emit(st, "no_effect", f"{name} is already under Hypnotic Dancing.", ctx=res.id, model=victim.id)
        else:
            add_effect(
                st,
                victim,
                Effect("hypnotic", nt, nt, source=res.actor),
                f"{name} is hypnotised: on its next turn it may only target {res.actor}.",
            )
    elif eff == "shield":
        add_effect(
            st,
            victim,
            Effect("shield", ends_at_start_of=t + 2, source=res.actor),
            f"{name} is shielded: +2 Defence until the caster's next Start Phase.",
        )
    elif eff == "empower":
        add_effect(
            st,
            victim,
            Effect("empower", ends_after_turn=t, source=res.actor),
            f"{name} is empowered: +1 Skill and +1 damage this turn.",
        )
    elif eff == "transmute":
        add_effect(
            st,
            victim,
            Effect("transmuted", ends_after_turn=t, source=res.actor),
            f"{name} is transmuted: +2 Move, Skill and damage; it dies at the end of this turn.",
        )
    elif eff == "swap":
        actor = st.models[res.actor]
        a_pos, v_pos = actor.pos, victim.pos
        actor.pos, victim.pos = v_pos, a_pos
        if st.narrate:
            emit(
                st,
                "swap",
                f"{mname(st, actor.id)} and {name} swap places ({label(a_pos)} <-> {label(v_pos)}).",
                models=[actor.id, victim.id],
                squares=[list(v_pos), list(a_pos)],
            )
    elif eff == "teleport":
        if teleport_squares(st, victim.id):
            ask(st, res.effect_side, "teleport", model=victim.id, ctx=res.id)
        else:
            if st.narrate:
                emit(st, "no_effect", f"No free square within 4 of {victim.id}: the Teleport fizzles.", ctx=res.id)
    elif eff == "dominate":
        if victim.is_wizard:
            if st.narrate:
                emit(st, "no_effect", "A reflected Dominate finds no Minion to seize: no effect.", ctx=res.id)
        else:
            st.dominate = Domination(res.id, victim.id, res.side)
            if st.narrate:
                emit(st, "dominated", f"{seat_ref(res.side)} seizes control of {name}!", model=victim.id, seat=res.side)
            dominate_prompt(st)


# ================================================================== Dominate
def dominate_prompt(st: ArenaState) -> None:
    d = st.dominate
    assert d is not None
    m = st.models.get(d.model)
    if m is None or st.ko is not None:
        dominate_end(st)
        return
    moves = [] if d.moved else move_list(st, m)
    acts = act_options(st, m, d.seat, dominated=True)
    if not moves and not acts:
        dominate_end(st)
        return
    ask(st, d.seat, "dominate", model=m.id, moved=d.moved)


def answer_dominate(st: ArenaState, seat: int, action: ActionModel) -> None:
    d = st.dominate
    assert d is not None
    m = st.models[d.model]
    if type(action) is Move:
        d.moved = True
        path = move_path(st, m, action.to)
        relocate(st, m, action.to, cause="dominate", path=path)
        dominate_prompt(st)
    elif type(action) is Act:
        adef = discipline(st, m.owner).minion.action
        push(st, step("dominate_end"))
        begin_action(st, m, adef, seat, action.target, action.at, dominated=True)
    else:
        dominate_end(st)


def dominate_end(st: ArenaState) -> None:
    if st.dominate is None:
        return
    mid = st.dominate.model
    st.dominate = None
    if st.narrate:
        emit(st, "dominate_end", f"The Domination of {mid} ends.", model=mid)


# ================================================================== special spells
def tidal_wave(st: ArenaState, res: Resolution) -> None:
    def to_edge(m: Model) -> int:
        edge = st.players[m.owner].edge
        x, y = m.pos
        return {"south": y, "north": st.size - 1 - y, "west": x, "east": st.size - 1 - x}[edge or "south"]

    enemies = sorted((m for m in ordered_models(st) if m.owner != res.side), key=to_edge)
    for m in enemies:
        if m.id not in st.models or st.ko is not None:
            continue
        dx, dy = EDGES[st.players[m.owner].edge or "south"]
        dest = (m.pos[0] + dx, m.pos[1] + dy)
        if is_free(st, dest):
            relocate(st, m, dest, cause="tidal_wave", path=[dest])
        else:
            if st.narrate:
                emit(
                    st,
                    "tidal_wave_blocked",
                    f"The Tidal Wave slams {mname(st, m.id)} against "
                    + (label(dest) if on_board(dest, st.size) else "the edge of the Arena")
                    + ": 2 damage.",
                    model=m.id,
                )
            damage(st, m.id, 2, cause="tidal_wave", res=res)


__all__ = [
    "NEXT_TURN_EFFECTS",
    "answer_dominate",
    "begin_action",
    "crowd_result",
    "damage",
    "damage_amount",
    "damage_step",
    "dominate_end",
    "dominate_prompt",
    "effect",
    "explosion",
    "explosion_roll",
    "fate",
    "gremlin_damage",
    "gremlin_model",
    "heal_step",
    "knockout",
    "opposed",
    "opposed_totals",
    "owner_of",
    "remove_minion",
    "riders",
    "shard_damage",
    "tidal_wave",
]
