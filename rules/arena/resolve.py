"""Resolving Actions: targets, opposed rolls, magical explosions, damage, lasting effects,
Minion removal and the knock-out. Also the crowd table results. A mixin of ArenaState.

Seed: "If the Target is an ally, the action is instantly resolved. If the Target is an enemy, both
players roll a D6, the active model adds their Skill and the Target model adds their Defence."
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core import Outcome, seat_ref
from .actions import Act, Move
from .board import EDGES, Square, label, manhattan, on_board
from .data import ActionDef
from .model import ActionCtx, Effect, Model, next_turn_of

if TYPE_CHECKING:
    from .state import ArenaState

    _Base = ArenaState
else:
    _Base = object

#: Riders that last for the victim's next turn only: the Action's effect -> (Effect kind, log text).
NEXT_TURN_EFFECTS = {
    "torment": ("torment", "has -2 Skill on its next turn."),
    "vines": ("vines", "is held by vines: no Move or Action on its next turn."),
    "cripple": ("crippled", "has -1 Move on its next turn."),
    "curse": ("curse", "rolls one die fewer in its next Spell Selection."),
}


class ResolveMixin(_Base):
    # ================================================================== beginning an Action
    def _begin_action(
        self, m: Model, adef: ActionDef, side: int, target: str | None, at: Square | None, dominated: bool
    ) -> None:
        cid = self.next_ctx
        self.next_ctx += 1
        ctx = ActionCtx(cid, m.id, side, adef.id, target, at, by_wizard=m.is_wizard, dominated=dominated)
        self.ctxs[cid] = ctx
        who = self.mname(m.id)
        if adef.target == "none":
            self._emit("action", f"{who} casts {adef.name}.", actor=m.id, action=adef.id, side=side, target=None)
            self._tidal_wave(ctx)
            return
        if adef.target == "square":
            assert at is not None
            self._emit(
                "action",
                f"{who} casts {adef.name} on {label(at)}.",
                actor=m.id,
                action=adef.id,
                side=side,
                target=None,
                at=list(at),
            )
            self._place_minion(side, at, why="summoned")
            return
        assert target is not None
        t = self.models[target]
        ctx.target_owner = t.owner
        ally = t.owner == side
        verb = "casts" if adef.is_spell else "uses"
        on = "itself" if t.id == m.id else self.mname(t.id)
        self._emit(
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
            ctx.result = "ally"
            self._push(("effect", cid))
            return
        dice = [6, 6]
        if t.is_wizard and self.is_discipline(t.owner, "metallurgist"):
            dice.append(6)
        self._request_roll(
            "opposed",
            dice,
            ("opposed", cid),
            ctx=cid,
            attacker=m.id,
            defender=t.id,
            label=f"{m.id}'s Skill against {t.id}'s Defence"
            + (" (two Defence dice, keep the higher)" if len(dice) == 3 else ""),
        )

    def opposed_totals(self, ctx: ActionCtx) -> tuple[dict[str, Any], dict[str, Any]]:
        rec = self.roll
        assert rec is not None and ctx.target is not None
        att = self.models[ctx.actor]
        dfn = self.models[ctx.target]
        skill, smods = self.eff_skill(att, dfn)
        defence, dmods = self.eff_defence(dfn)
        # Noble Scholar's +2 (once per game turn, even after rolling) on the Skill or Defence total
        sb = rec.bonus.get(ctx.side, 0)
        db = rec.bonus.get(ctx.target_owner, 0) if ctx.target_owner is not None else 0
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

    def _s_opposed(self, cid: int) -> None:
        ctx = self.ctxs[cid]
        a, d = self.opposed_totals(ctx)
        adef = self.action_def(ctx.action)
        if a["total"] > d["total"]:
            result, text = "success", "succeeds"
        elif a["total"] == d["total"]:
            result, text = "explosion", "ties: a magical explosion!"
        else:
            result, text = "fail", "fails"
        self._emit(
            "opposed",
            f"{adef.name}: {a['total']} (die {a['die']}) against {d['total']} (die {d['kept']}): {text}",
            ctx=cid,
            action=ctx.action,
            attacker=a,
            defender=d,
            result=result,
        )
        if result == "success":
            ctx.result = "success"
            self._push(("effect", cid))
        elif result == "explosion":
            self._explosion_roll(cid)
        else:
            ctx.result = "fail"

    def _explosion_roll(self, cid: int) -> None:
        """The magical explosion's roll-off: plain dice, active player then target (re-rolled on a tie)."""
        self._request_roll(
            "explosion", [6, 6], ("explosion", cid), ctx=cid, label="the magical explosion roll-off (active, target)"
        )

    def _s_explosion(self, cid: int) -> None:
        ctx = self.ctxs[cid]
        assert self.roll is not None
        a, t = self.roll.dice
        if a == t:
            self._emit(
                "explosion", f"The explosion roll-off ties ({a}-{t}); roll again.", ctx=cid, dice=[a, t], winner=None
            )
            self._explosion_roll(cid)
            return
        if t > a:
            ctx.reflected = True
            ctx.result = "reflected"
            text = (
                f"The explosion roll-off goes to the target ({t} against {a}): "
                f"the Action is reflected onto {ctx.actor}!"
            )
        else:
            ctx.double = True
            ctx.result = "explosion_success"
            text = f"The explosion roll-off goes to the active player ({a} against {t}): success with double damage!"
        self._emit(
            "explosion", text, ctx=cid, dice=[a, t], winner="target" if t > a else "active", reflected=ctx.reflected
        )
        self._gain_favour(self.active, 1, "a magical explosion")
        self._push(("effect", cid))

    # ================================================================== effects
    def _s_effect(self, cid: int) -> None:
        ctx = self.ctxs[cid]
        adef = self.action_def(ctx.action)
        victim = self.models.get(ctx.victim or "")
        if victim is None:
            return
        if adef.damage is not None:
            dmg = adef.damage
            if dmg.count:
                keep_high = adef.effect == "lunge" and victim.has("vines")
                sides = [6, 6] if keep_high else [dmg.sides] * dmg.count
                self._request_roll(
                    "damage",
                    sides,
                    ("damage", cid, True),
                    ctx=cid,
                    keep="highest" if keep_high else "sum",
                    label=f"{adef.name} damage ({'D6 twice, keep the higher' if keep_high else dmg})",
                )
            else:
                self._s_damage(cid, False)
            return
        if adef.effect == "heal":
            self._request_roll("heal", [6], ("heal", cid), ctx=cid, label=f"{adef.name} (D6 Health)")
            return
        self._riders(ctx, victim.pos)

    def damage_amount(self, ctx: ActionCtx, rolled: list[int] | None) -> tuple[int, list[dict[str, Any]]]:
        adef = self.action_def(ctx.action)
        assert adef.damage is not None
        mods: list[dict[str, Any]] = []
        if rolled is None:
            base = adef.damage.flat
        elif len(rolled) == 2 and adef.effect == "lunge":
            base = max(rolled)
        else:
            base = sum(rolled)
        actor = self.models.get(ctx.actor)
        if actor is not None:
            if actor.has("empower"):
                mods.append({"why": "empower", "value": 1})
            if actor.has("transmuted"):
                mods.append({"why": "transmuted", "value": 2})
            if adef.effect == "water_jet" and actor.owner == ctx.side and self.is_discipline(ctx.side, "mermancer"):
                wiz = self.wizard(ctx.side)
                if wiz is not None and manhattan(wiz.pos, actor.pos) <= 3:
                    mods.append({"why": "mermancer", "value": 1})
            if adef.effect == "harmonic":
                friends = [
                    o.id
                    for o in self.models.values()
                    if o.owner == ctx.side and o.id != actor.id and manhattan(o.pos, actor.pos) <= 2
                ]
                if friends:
                    mods.append({"why": "harmonic", "value": len(friends), "friends": sorted(friends)})
        total = base + sum(x["value"] for x in mods)
        if ctx.double:
            mods.append({"why": "explosion_double", "value": total})
            total *= 2
        return max(0, total), [{"why": "base", "value": base}, *mods]

    def _s_damage(self, cid: int, rolled: bool) -> None:
        ctx = self.ctxs[cid]
        victim = self.models.get(ctx.victim or "")
        if victim is None:
            return
        dice = self.roll.values() if rolled and self.roll is not None else None
        amount, parts = self.damage_amount(ctx, dice)
        pos = victim.pos
        before = victim.health
        self._damage(victim.id, amount, cause="action", ctx=ctx, parts=parts)
        after = self.models[victim.id].health if victim.id in self.models else 0
        ctx.dealt = before - after
        if self.ko is None:
            self._riders(ctx, pos)

    def _s_heal(self, cid: int) -> None:
        ctx = self.ctxs[cid]
        victim = self.models.get(ctx.victim or "")
        assert self.roll is not None
        if victim is None:
            return
        self._heal(victim, self.roll.values()[0], why=self.action_def(ctx.action).name)

    def _heal(self, m: Model, amount: int, why: str) -> None:
        gained = min(amount, m.max_health - m.health)
        m.health += gained
        self._emit(
            "heal",
            f"{self.mname(m.id)} regains {gained} Health ({why}): {m.health}/{m.max_health}.",
            model=m.id,
            amount=gained,
            rolled=amount,
            health=m.health,
            max_health=m.max_health,
            why=why,
        )

    def _add_effect(self, m: Model, e: Effect, text: str) -> None:
        """Effects do not stack: a new one replaces the old one of the same kind."""
        m.effects = [x for x in m.effects if x.kind != e.kind]
        m.effects.append(e)
        self._emit("effect", text, model=m.id, effect=e.kind, **{k: v for k, v in e.to_json().items() if k != "kind"})

    def _riders(self, ctx: ActionCtx, pos: Square) -> None:
        """The special part of an Action, after any damage: flame, torment, vines, shield..."""
        adef = self.action_def(ctx.action)
        eff = adef.effect
        victim = self.models.get(ctx.victim or "")
        t = self.turn_no
        name = self.mname(ctx.victim or "")
        nt = next_turn_of(victim.owner, self.active, t) if victim else t + 1
        if eff == "storm":
            side = ctx.effect_side
            hit = [
                o.id
                for o in self.ordered_models()
                if o.owner != side and o.id != ctx.victim and manhattan(o.pos, pos) <= 2
            ]
            if hit:
                self._emit(
                    "storm", f"The Storm of Iron hits every enemy within 2 squares: {', '.join(hit)}.", models=hit
                )
            for oid in hit:
                self._damage(oid, 2, cause="storm", ctx=ctx)
            return
        if eff == "leech":
            if not ctx.reflected and ctx.dealt > 0:
                wiz = self.wizard(ctx.side)
                if wiz is not None:
                    self._heal(wiz, 1, "Leech")
            return
        if eff == "tidal_wave" or victim is None:
            return
        if eff == "flame":
            if not victim.has("burning"):
                self._add_effect(victim, Effect("burning", source=ctx.actor), f"{name} catches fire!")
        elif eff in NEXT_TURN_EFFECTS:
            kind, text = NEXT_TURN_EFFECTS[eff]
            self._add_effect(victim, Effect(kind, nt, nt, source=ctx.actor), f"{name} {text}")
        elif eff == "hypnotic":
            if ctx.reflected:
                self._emit("no_effect", "A reflected Hypnotic Dancing cannot bind a model to itself.", ctx=ctx.id)
            elif victim.has("hypnotic"):
                self._emit("no_effect", f"{name} is already under Hypnotic Dancing.", ctx=ctx.id, model=victim.id)
            else:
                self._add_effect(
                    victim,
                    Effect("hypnotic", nt, nt, source=ctx.actor),
                    f"{name} is hypnotised: on its next turn it may only target {ctx.actor}.",
                )
        elif eff == "shield":
            self._add_effect(
                victim,
                Effect("shield", ends_at_start_of=t + 2, source=ctx.actor),
                f"{name} is shielded: +2 Defence until the caster's next Start Phase.",
            )
        elif eff == "empower":
            self._add_effect(
                victim,
                Effect("empower", ends_after_turn=t, source=ctx.actor),
                f"{name} is empowered: +1 Skill and +1 damage this turn.",
            )
        elif eff == "transmute":
            self._add_effect(
                victim,
                Effect("transmuted", ends_after_turn=t, source=ctx.actor),
                f"{name} is transmuted: +2 Move, Skill and damage; it dies at the end of this turn.",
            )
        elif eff == "swap":
            actor = self.models[ctx.actor]
            a_pos, v_pos = actor.pos, victim.pos
            actor.pos, victim.pos = v_pos, a_pos
            self._emit(
                "swap",
                f"{self.mname(actor.id)} and {name} swap places ({label(a_pos)} <-> {label(v_pos)}).",
                models=[actor.id, victim.id],
                squares=[list(v_pos), list(a_pos)],
            )
        elif eff == "teleport":
            if self._teleport_squares(victim.id):
                self.prompt = {"seat": ctx.effect_side, "kind": "teleport", "model": victim.id, "ctx": ctx.id}
            else:
                self._emit("no_effect", f"No free square within 4 of {victim.id}: the Teleport fizzles.", ctx=ctx.id)
        elif eff == "dominate":
            if victim.is_wizard:
                self._emit("no_effect", "A reflected Dominate finds no Minion to seize: no effect.", ctx=ctx.id)
            else:
                self.dominate = {"ctx": ctx.id, "model": victim.id, "moved": False, "seat": ctx.side}
                self._emit(
                    "dominated", f"{seat_ref(ctx.side)} seizes control of {name}!", model=victim.id, seat=ctx.side
                )
                self._dominate_prompt()

    # ================================================================== Dominate
    def _dominate_prompt(self) -> None:
        d = self.dominate
        assert d is not None
        m = self.models.get(d["model"])
        if m is None or self.ko is not None:
            self._s_dominate_end()
            return
        moves = [] if d["moved"] else list(self.move_options(m, self.eff_move(m)))
        acts = self.act_options(m, d["seat"], dominated=True)
        if not moves and not acts:
            self._s_dominate_end()
            return
        self.prompt = {"seat": d["seat"], "kind": "dominate", "model": m.id, "moved": d["moved"]}

    def _answer_dominate(self, seat: int, action: Any) -> None:
        d = self.dominate
        assert d is not None
        m = self.models[d["model"]]
        if isinstance(action, Move):
            d["moved"] = True
            path = self.move_options(m, self.eff_move(m))[action.to]
            self._relocate(m, action.to, cause="dominate", path=path)
            self._dominate_prompt()
        elif isinstance(action, Act):
            adef = self.discipline(m.owner).minion.action
            self._push(("dominate_end",))
            self._begin_action(m, adef, seat, action.target, action.at, dominated=True)
        else:
            self._s_dominate_end()

    def _s_dominate_end(self) -> None:
        if self.dominate is None:
            return
        mid = self.dominate["model"]
        self.dominate = None
        self._emit("dominate_end", f"The Domination of {mid} ends.", model=mid)

    # ================================================================== special spells
    def _tidal_wave(self, ctx: ActionCtx) -> None:
        def to_edge(m: Model) -> int:
            edge = self.players[m.owner].edge
            x, y = m.pos
            return {"south": y, "north": self.size - 1 - y, "west": x, "east": self.size - 1 - x}[edge or "south"]

        enemies = sorted((m for m in self.ordered_models() if m.owner != ctx.side), key=to_edge)
        for m in enemies:
            if m.id not in self.models or self.ko is not None:
                continue
            dx, dy = EDGES[self.players[m.owner].edge or "south"]
            dest = (m.pos[0] + dx, m.pos[1] + dy)
            if self.is_free(dest):
                self._relocate(m, dest, cause="tidal_wave", path=[dest])
            else:
                self._emit(
                    "tidal_wave_blocked",
                    f"The Tidal Wave slams {self.mname(m.id)} against "
                    + (label(dest) if on_board(dest, self.size) else "the edge of the Arena")
                    + ": 2 damage.",
                    model=m.id,
                )
                self._damage(m.id, 2, cause="tidal_wave", ctx=ctx)

    def _relocate(self, m: Model, to: Square, cause: str, path: list[Square]) -> None:
        frm = m.pos
        m.pos = to
        verbs = {
            "move": "moves",
            "witch_step": "steps (Green Witch, free)",
            "dominate": "is moved by its new master",
            "teleport": "is teleported",
            "tidal_wave": "is swept back by the Tidal Wave",
        }
        self._emit(
            "move",
            f"{self.mname(m.id)} {verbs.get(cause, 'moves')} from {label(frm)} to {label(to)}.",
            model=m.id,
            to=list(to),
            path=[list(p) for p in path],
            squares=[label(frm), label(to)],
            cause=cause,
            **{"from": list(frm)},
        )

    # ================================================================== damage, removal, knock-out
    def _gain_favour(self, seat: int, n: int, reason: str) -> None:
        if self.brawl_until is not None:
            self._emit(
                "favour_blocked",
                f"A brawl in the stands: {seat_ref(seat)} gains no Crowd Favour ({reason}).",
                seat=seat,
                reason=reason,
            )
            return
        p = self.players[seat]
        p.favour += n
        self._emit(
            "favour",
            f"{seat_ref(seat)} gains {n} Crowd Favour ({reason}): {p.favour}.",
            seat=seat,
            change=n,
            total=p.favour,
            reason=reason,
        )

    def _damage(
        self, mid: str, amount: int, cause: str, ctx: ActionCtx | None = None, parts: list[dict[str, Any]] | None = None
    ) -> None:
        if self.ko is not None:
            return
        m = self.models.get(mid)
        if m is None:
            return
        before = m.health
        m.health = max(0, m.health - max(0, amount))
        data: dict[str, Any] = {
            "model": mid,
            "amount": amount,
            "health": m.health,
            "max_health": m.max_health,
            "cause": cause,
        }
        if ctx is not None:
            data.update(source=ctx.actor, action=ctx.action, ctx=ctx.id, reflected=ctx.reflected)
        if parts:
            data["parts"] = parts
        self._emit("damage", f"{self.mname(mid)} takes {amount} damage: {m.health}/{m.max_health} Health.", **data)
        if m.health == 0 and before > 0:
            if m.is_wizard:
                self._knockout(m, cause, ctx)
            else:
                self._remove_minion(mid, by=cause)

    def _remove_minion(self, mid: str, by: str) -> None:
        m = self.models.pop(mid)
        m.health = 0
        for o in self.models.values():
            o.effects = [e for e in o.effects if not (e.kind == "hypnotic" and e.source == mid)]
        self._emit(
            "minion_removed", f"{self.mname(mid)} falls and is removed from the Arena.", model=mid, seat=m.owner, by=by
        )
        self._gain_favour(self.active, 1, "a Minion fell")

    def _knockout(self, m: Model, cause: str, ctx: ActionCtx | None) -> None:
        by_wizard = ctx is not None and ctx.by_wizard and cause in ("action", "storm", "tidal_wave")
        if ctx is not None and cause in ("action", "storm", "tidal_wave"):
            line_key = self.players[self._owner_of(ctx.actor)].discipline or "default"
        else:
            line_key = {"burning": "burning", "crowd": "crowd", "move": "move", "blood_pact": "blood_mage"}.get(
                cause, "default"
            )
        self.ko = {"model": m.id, "seat": m.owner, "by_wizard": by_wizard, "cause": cause, "line": line_key}
        self.stack.clear()
        self.prompt = None
        self.dominate = None
        self._emit(
            "knockout",
            f"{self.mname(m.id)} is knocked out! The fight is over."
            + (" (by a Wizard: +2 to the fate roll)" if by_wizard else ""),
            model=m.id,
            seat=m.owner,
            by_wizard=by_wizard,
            cause=cause,
        )
        self._request_roll("knockout", [6], ("fate",), seat=m.owner, label="the knocked-out Wizard's fate")

    def _owner_of(self, mid: str) -> int:
        return int(mid[1]) - 1

    def _s_fate(self) -> None:
        assert self.ko is not None and self.roll is not None
        ko = self.ko
        die = self.roll.dice[0]
        bonus = 2 if ko["by_wizard"] else 0
        total = die + bonus
        destroyed = total >= 6
        loser = ko["seat"]
        winner = 1 - loser
        who = self.mname(ko["model"])
        line = self.data.fates.get(ko["line"], self.data.fates["default"])
        fate = f"{who} {line}" if destroyed else f"{who} is merely unconscious and is carried out of the Arena."
        self._emit(
            "fate",
            f"Fate roll {die}{' + 2' if bonus else ''} = {total}: {fate}",
            die=die,
            bonus=bonus,
            total=total,
            destroyed=destroyed,
            line=fate,
            model=ko["model"],
        )
        why = (
            f"{who} was knocked out"
            + (" and destroyed" if destroyed else "")
            + f"; {seat_ref(winner)} is showered in fame and glory."
        )
        self.final = Outcome.single_winner(2, winner, why)
        self.phase = "over"
        self._emit("game_end", why, outcome=self.final.to_json(), winner=winner, destroyed=destroyed)

    # ================================================================== the crowd table
    def _s_crowd_result(self, points: int) -> None:
        assert self.roll is not None
        a = self.active
        die = self.roll.dice[0]
        total = min(6, die + points - 1)
        res = self.data.crowd[total]
        self._emit(
            "crowd",
            f"The crowd: {die}{f' + {points - 1}' if points > 1 else ''} = {total}: {res.name}. {res.text}",
            seat=a,
            points=points,
            die=die,
            bonus=points - 1,
            total=total,
            result=res.id,
        )
        wiz = self.wizard(a)
        if res.id == "insult" and wiz is not None:
            self._add_effect(
                wiz, Effect("insult", ends_after_turn=self.turn_no), f"{self.mname(wiz.id)} has -1 Skill this turn."
            )
        elif res.id == "fire_gremlin":
            ids = [m.id for m in self.ordered_models()]
            self._request_roll(
                "gremlin_model",
                [len(ids)],
                ("gremlin_model", ids),
                models=ids,
                label=f"the Fire Gremlin's victim (1-{len(ids)})",
            )
        elif res.id == "brawl":
            self.brawl_until = self.turn_no + 2
            self.brawl_seat = a
        elif res.id == "wild":
            self._gain_favour(a, 2, "the crowd goes wild")
        elif res.id == "chant":
            self.players[a].chant = True
        elif res.id == "crystal_shard":
            self._request_roll("shard_damage", [6], ("shard_damage",), label="the crystal shard (D6 damage)")

    def _s_gremlin_model(self, ids: list[str]) -> None:
        assert self.roll is not None
        mid = ids[self.roll.dice[0] - 1]
        self._emit("gremlin", f"The Fire Gremlin explodes next to {self.mname(mid)}!", model=mid, models=ids)
        self._request_roll(
            "gremlin_damage", [6], ("gremlin_damage", mid), model=mid, label="the Fire Gremlin (D6 damage)"
        )

    def _s_gremlin_damage(self, mid: str) -> None:
        assert self.roll is not None
        self._damage(mid, self.roll.dice[0], cause="crowd")

    def _s_shard_damage(self) -> None:
        assert self.roll is not None
        self._damage(f"p{2 - self.active}-wizard", self.roll.dice[0], cause="crowd")
