"""The turn: the Start Phase (burning, abilities, the crowd, Spell Selection), the Action Phase
(activations, moves, Actions), the follow-up prompts and the end of the turn. Step functions of an
:class:`~.state.ArenaState` (see ``STEPS`` in state.py) and the handlers of the seats' turn actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core import ActionModel, Outcome, seat_ref
from .actions import (
    Act,
    BloodPact,
    ChooseSpell,
    EndActivation,
    EndTurn,
    Extinguish,
    Move,
    PlaceMinion,
    Reroll,
    ScholarBonus,
    SelectModel,
    SpendFavour,
    Teleport,
    WitchStep,
)
from .board import path_to
from .costs import BLOOD_PACT_DAMAGE, DISENGAGE_DAMAGE
from .data import ActionDef
from .game import CHANT_PURPOSES, Phase
from .ground import blocked_bits, blocked_squares
from .pieces import Effect
from .queries import (
    all_spells,
    can_act,
    can_move,
    held_by_vines,
    is_discipline,
    minions,
    mname,
    model_action,
    move_path,
    necro_squares,
    ordered_models,
    spell_for_die,
    witch_squares,
    wizard,
)
from .records import Activation, SpellChoice
from .resolve import answer_dominate, begin_action, damage, opposed_totals, remove_minion
from .steps import step
from .table import ask, emit, finish_activation, gain_favour, place_minion, push, relocate, request_roll

if TYPE_CHECKING:
    from .state import ArenaState


def mutation(st: ArenaState, mid: str) -> None:
    assert st.roll is not None
    m = st.models.get(mid)
    if m is None:
        return
    stat = {1: "move", 2: "skill", 3: "defence"}[st.roll.values()[0]]
    m.effects.append(Effect("mutation", value=stat))
    if st.narrate:
        emit(
            st,
            "effect",
            f"{mname(st, mid)} mutates: +1 {stat.capitalize()} until it dies.",
            model=mid,
            effect="mutation",
            value=stat,
        )


# ---------------------------------------------------------------- the turn
def turn_start(st: ArenaState) -> None:
    t, a = st.turn_no, st.active
    for m in ordered_models(st):
        if not m.effects:
            continue
        for e in [e for e in m.effects if e.ends_at_start_of == t]:
            m.effects.remove(e)
            if st.narrate:
                emit(st, "effect_end", f"{mname(st, m.id)}'s {e.kind} ends.", model=m.id, effect=e.kind)
    if st.brawl_until == t:
        st.brawl_until = None
        if st.narrate:
            emit(st, "brawl_end", "The brawl in the stands is over: Crowd Favour can be gained again.", seat=a)
    st.phase = Phase.START
    st.spell = None
    st.activation = None
    st.activated = []
    p = st.players[a]
    p.chant = p.chant_used = p.blood_extra = False
    if st.narrate:
        emit(
            st,
            "turn_start",
            f"Game turn {st.game_turn}: {seat_ref(a)}'s turn begins (Start Phase).",
            seat=a,
            game_turn=st.game_turn,
            turn=t,
        )
    push(
        st,
        step("burning"),
        step("trickster"),
        step("necro"),
        step("witch"),
        step("blood"),
        step("crowd"),
        step("spell_roll"),
    )


def burning(st: ArenaState) -> None:
    for m in ordered_models(st):
        if m.effects and m.owner == st.active and m.has("burning") and m.id in st.models:
            if st.narrate:
                emit(st, "burning", f"{mname(st, m.id)} burns.", model=m.id)
            damage(st, m.id, 1, cause="burning")


def trickster(st: ArenaState) -> None:
    if is_discipline(st, st.active, "artful_trickster"):
        gain_favour(st, st.active, 1, "Artful Trickster ability")


def necro(st: ArenaState) -> None:
    a = st.active
    if not is_discipline(st, a, "necromancer") or minions(st, a):
        return
    if not necro_squares(st):
        if st.narrate:
            emit(
                st,
                "ability",
                "The Necromancer has no Minion, but no square within 2 is free.",
                seat=a,
                ability="necromancer",
            )
        return
    ask(st, a, "necro")


def witch(st: ArenaState) -> None:
    a = st.active
    wiz = wizard(st, a)
    if is_discipline(st, a, "green_witch") and wiz and not held_by_vines(st, wiz) and witch_squares(st):
        ask(st, a, "witch_step")


def blood(st: ArenaState) -> None:
    if is_discipline(st, st.active, "blood_mage"):
        ask(st, st.active, "blood_pact")


def crowd(st: ArenaState) -> None:
    if st.players[st.active].favour >= 1:
        ask(st, st.active, "crowd")


def spell_roll(st: ArenaState) -> None:
    a = st.active
    wiz = wizard(st, a)
    assert wiz is not None
    n = 2
    why = []
    if st.players[a].blood_extra:
        n += 1
        why.append("+1 die (Blood Mage)")
    curse = wiz.effect("curse")
    if curse is not None and curse.applies_turn == st.turn_no:
        n -= 1
        why.append("-1 die (Curse)")
        wiz.effects.remove(curse)
    st.phase = Phase.SPELL
    if st.narrate:
        emit(
            st,
            "spell_selection",
            f"Spell Selection: {seat_ref(a)} rolls {n} dice{' (' + ', '.join(why) + ')' if why else ''}.",
            seat=a,
            dice=n,
        )
    request_roll(st, "spell_selection", [6] * n, step("spell_prompt"), seat=a, label="Spell Selection")


def spell_prompt(st: ArenaState) -> None:
    rec = st.roll
    assert rec is not None
    a = st.active
    values = rec.values()
    double = len(values) != len(set(values))
    if double:
        options = all_spells(st, a)
    else:
        options = list(dict.fromkeys([*(spell_for_die(st, a, v) for v in values), "arcane_rocket"]))
    st.spell = SpellChoice(list(rec.dice), values, options, double)
    if not st.narrate:
        ask(st, a, "spell")
        return
    names = ", ".join(st.data.spell(s).name for s in options)
    if st.narrate:
        emit(
            st,
            "spell_options",
            f"{seat_ref(a)} rolled {', '.join(map(str, values))}"
            + (": a double, any spell may be chosen" if double else "")
            + f". Options: {names}.",
            seat=a,
            dice=list(rec.dice),
            values=values,
            options=options,
            any=double,
        )
    ask(st, a, "spell")


def end_turn(st: ArenaState) -> None:
    t, a = st.turn_no, st.active
    finish_activation(st)
    st.resolutions.clear()  # no resolution outlives its turn
    for m in ordered_models(st):
        if not m.effects:
            continue
        if m.has("transmuted") and m.effect("transmuted").ends_after_turn == t:  # type: ignore[union-attr]
            if st.narrate:
                emit(
                    st,
                    "transmutation_death",
                    f"{mname(st, m.id)} collapses at the end of its transmuted turn.",
                    model=m.id,
                )
            remove_minion(st, m.id, by="transmutation")
    for m in ordered_models(st):
        if not m.effects:
            continue
        for e in [e for e in m.effects if e.ends_after_turn == t]:
            m.effects.remove(e)
            if st.narrate:
                emit(st, "effect_end", f"{mname(st, m.id)}'s {e.kind} ends.", model=m.id, effect=e.kind)
    if st.narrate:
        emit(st, "turn_end", f"{seat_ref(a)}'s turn ends.", seat=a, turn=t, game_turn=st.game_turn)
    if a == st.player_two:
        if st.turn_limit and st.game_turn >= st.turn_limit:
            why = (
                f"No Wizard was knocked out in {st.turn_limit} game turns: the crowd goes home and the match is a draw."
            )
            st.final = Outcome.draw(2, why)
            st.phase = Phase.OVER
            if st.narrate:
                emit(st, "game_end", why, outcome=st.final.to_json())
            return
        st.game_turn += 1
    st.active = 1 - a
    st.turn_no += 1
    push(st, step("turn_start"))


# ---------------------------------------------------------------- the Action Phase
def apply_action_phase(st: ArenaState, seat: int, action: ActionModel) -> None:
    if type(action) is EndTurn:
        push(st, step("end_turn"))
        return
    if type(action) is EndActivation:
        finish_activation(st)
        push(st, step("activity_done"))
        return
    if type(action) is SelectModel:
        finish_activation(st)
        st.activation = Activation(action.model)
        if st.narrate:
            emit(st, "select", f"{seat_ref(seat)} activates {mname(st, action.model)}.", seat=seat, model=action.model)
        return
    a = st.activation
    assert a is not None
    m = st.models[a.model]
    push(st, step("activity_done"))
    if type(action) is Move:
        a.moved = True
        (x, y), owner = m.pos, m.owner
        adjacent = [o.id for o in st.models.values() if o.owner != owner and abs(o.pos[0] - x) + abs(o.pos[1] - y) == 1]
        if adjacent:
            if st.narrate:
                emit(
                    st,
                    "disengage",
                    f"{mname(st, m.id)} starts its Move next to an enemy ({', '.join(adjacent)}) "
                    f"and takes {DISENGAGE_DAMAGE} damage.",
                    model=m.id,
                    enemies=adjacent,
                )
            damage(st, m.id, DISENGAGE_DAMAGE, cause="move")
            if m.id not in st.models or st.ko:
                return
        path = move_path(st, m, action.to)
        relocate(st, m, action.to, cause="move", path=path)
    elif type(action) is Extinguish:
        a.acted = True
        if m.is_wizard and st.spell:
            st.spell.cast = True
        eff = m.effect("burning")
        if eff:
            m.effects.remove(eff)
        if st.narrate:
            emit(st, "extinguish", f"{mname(st, m.id)} uses its Action to put out the flames.", model=m.id)
    elif type(action) is Act:
        a.acted = True
        if m.is_wizard and st.spell:
            st.spell.cast = True
        adef = model_action(st, m) if not m.is_wizard else _selected_spell(st)
        assert adef is not None
        begin_action(st, m, adef, seat, action.target, action.at, dominated=False)


def activity_done(st: ArenaState) -> None:
    if st.phase != Phase.ACTION or st.final is not None:
        return
    a = st.activation
    blocked: int | None = None  # the board's blocked_bits(), once needed
    if a is not None:
        m = st.models.get(a.model)
        if m is not None and not a.moved:
            blocked = blocked_bits(st)
            moves = can_move(st, m, blocked)
        else:
            moves = False
        acts = moves or (m is not None and not a.acted and can_act(st, m, blocked))
        if not (moves or acts):
            finish_activation(st)
    if st.activation is not None:
        return
    if blocked is None:
        blocked = blocked_bits(st)
    # not any(eligible(st, m, blocked) for m in st.models.values()), inlined
    active, activated = st.active, st.activated
    for m in st.models.values():
        if m.owner == active and m.id not in activated and (can_move(st, m, blocked) or can_act(st, m, blocked)):
            break
    else:
        if st.narrate:
            emit(
                st,
                "no_more_activations",
                f"None of {seat_ref(st.active)}'s models can do anything more.",
                seat=st.active,
            )
        push(st, step("end_turn"))


# ---------------------------------------------------------------- prompts
def answer_prompt(st: ArenaState, seat: int, action: ActionModel) -> None:
    p = st.prompt
    assert p is not None
    kind = p.kind
    st.prompt = None
    who = seat_ref(seat) if st.narrate else ""  # only the events name the seat
    if kind == "crowd":
        assert isinstance(action, SpendFavour)
        if action.points == 0:
            if st.narrate:
                emit(st, "crowd_skip", f"{who} keeps their Crowd Favour.", seat=seat)
            return
        pl = st.players[seat]
        pl.favour -= action.points
        if st.narrate:
            emit(
                st,
                "favour",
                f"{who} spends {action.points} Crowd Favour on the crowd ({pl.favour} left).",
                seat=seat,
                change=-action.points,
                total=pl.favour,
                reason="crowd roll",
            )
        request_roll(
            st, "crowd", [6], step("crowd_result", action.points), seat=seat, bonus=action.points - 1, label="the crowd"
        )
    elif kind == "spell":
        assert isinstance(action, ChooseSpell) and st.spell is not None
        st.spell.selected = action.spell
        st.phase = Phase.ACTION
        if st.narrate:
            emit(
                st,
                "spell_chosen",
                f"{who} prepares {st.data.spell(action.spell).name} for this turn. Action Phase.",
                seat=seat,
                spell=action.spell,
            )
        push(st, step("activity_done"))
    elif kind == "reroll":
        assert st.roll is not None
        st.roll.asked.add("chant")
        if type(action) is Reroll:
            st.players[seat].chant_used = True
            request_roll(
                st, "reroll", [st.roll.sides[action.die]], step("window"), die=action.die, label="the chant re-roll"
            )
        else:
            push(st, step("window"))
    elif kind == "scholar":
        assert st.roll is not None
        st.roll.asked.add(f"scholar{seat}")
        if type(action) is ScholarBonus:
            st.players[seat].scholar_game_turn = st.game_turn
            if p.per_die:
                assert action.die is not None
                st.roll.die_bonus[action.die] = st.roll.die_bonus.get(action.die, 0) + 2
                if st.narrate:
                    emit(
                        st,
                        "scholar_bonus",
                        f"Noble Scholar: {who} adds +2 to die {action.die + 1} of the Spell Selection roll.",
                        seat=seat,
                        purpose=st.roll.purpose,
                        die=action.die,
                    )
            else:
                st.roll.bonus[seat] = st.roll.bonus.get(seat, 0) + 2
                if st.narrate:
                    emit(
                        st,
                        "scholar_bonus",
                        f"Noble Scholar: {who} adds +2 to their {p.roll or 'roll'} roll.",
                        seat=seat,
                        purpose=st.roll.purpose,
                        roll=p.roll,
                    )
        push(st, step("window"))
    elif kind == "blood_pact":
        if type(action) is BloodPact:
            st.players[seat].blood_extra = True
            if st.narrate:
                emit(
                    st, "ability", f"{who}'s Blood Mage opens a vein for an extra die.", seat=seat, ability="blood_pact"
                )
            request_roll(
                st,
                "blood_pact",
                [BLOOD_PACT_DAMAGE.sides] * BLOOD_PACT_DAMAGE.count,
                step("blood_damage"),
                seat=seat,
                label=f"the Blood Mage's sacrifice ({BLOOD_PACT_DAMAGE})",
            )
    elif kind == "witch_step":
        if type(action) is WitchStep:
            wiz = wizard(st, seat)
            assert wiz is not None
            path = path_to(wiz.pos, action.to, 2, st.size, blocked_squares(st))
            assert path is not None
            relocate(st, wiz, action.to, cause="witch_step", path=path)
    elif kind == "necro":
        assert isinstance(action, PlaceMinion)
        place_minion(st, seat, action.at, why="necromancer")
    elif kind == "teleport":
        if type(action) is Teleport:
            assert p.model is not None
            relocate(st, st.models[p.model], action.to, cause="teleport", path=[action.to])
        else:
            if st.narrate:
                emit(st, "teleport_declined", f"{who} leaves {p.model} where it is.", seat=seat, model=p.model)
    elif kind == "dominate":
        answer_dominate(st, seat, action)


def blood_damage(st: ArenaState) -> None:
    assert st.roll is not None
    damage(st, f"p{st.active + 1}-wizard", st.roll.values()[0], cause="blood_pact")


def window(st: ArenaState) -> None:
    """After a roll: offer the hometown chant's re-roll, then the Noble Scholar's +2."""
    rec = st.roll
    assert rec is not None
    a = st.active
    pl = st.players[a]
    if rec.purpose in CHANT_PURPOSES and pl.chant and not pl.chant_used and "chant" not in rec.asked:
        ask(st, a, "reroll", purpose=rec.purpose, dice=tuple(rec.dice))
        return
    for s in (a, 1 - a):
        if not is_discipline(st, s, "noble_scholar") or f"scholar{s}" in rec.asked:
            continue
        if st.players[s].scholar_game_turn == st.game_turn:
            continue
        if rec.purpose == "spell_selection" and s == a:
            ask(st, s, "scholar", purpose=rec.purpose, per_die=True, roll="Spell Selection")
            return
        if rec.purpose == "opposed":
            res = st.resolutions[rec.info["ctx"]]
            att, dfn = opposed_totals(st, res)
            if s == res.side and att["total"] <= dfn["total"]:
                ask(st, s, "scholar", purpose=rec.purpose, roll="Skill")
                return
            if s == res.target_owner and s != res.side and att["total"] >= dfn["total"]:
                ask(st, s, "scholar", purpose=rec.purpose, roll="Defence")
                return


def _selected_spell(st: ArenaState) -> ActionDef:
    assert st.spell is not None and st.spell.selected is not None
    return st.data.spell(st.spell.selected)
