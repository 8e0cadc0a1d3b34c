"""Arena's events as the channel tells them: each line written from the event's data where the
engine's one-line text hides something a player needs to see.

- the damage dice show their sum ("1 + 3 = 4");
- an opposed roll shows each side's sum, "2 + Skill 4 = 6 against 2 + Defence 4 = 6", with every
  modifier named ("+ 1 Empower", "- 2 Mental Torment");
- damage shows how it adds up when anything changed it: the modifiers and the magical explosion's
  doubling ("4 + 1 Empower = 5, × 2 for the magical explosion = 10"), and why a model took damage
  that no Action dealt (leaving an enemy's side, the Blood Mage's sacrifice, the flames, the crowd);
- a roll of two players' dice names whose die is whose ("the crowd roll-off: Ann 6, Bob 2"), never
  the roles ("Player 1, Player 2") or "active, target";
- the fate and crowd rolls show a bonus only when there is one ("Fate roll 4: ...", not "4 = 4").

Every other event keeps the engine's text. All texts go through ``pretty`` (names in, model ids
spelled out). The engine's texts and data are read only, never changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules import Event
from rules.arena.view import ArenaView

from .rolls import ROLL_OFFS, dice_text, roll_label, roll_seats
from .text import DATA, MODEL_ID, model_name, pretty

#: The modifiers of a roll or of damage (the ``why`` of the engine's modifier records).
WHY: dict[str, str] = {
    "noble_scholar": "Noble Scholar",
    "mutation": "mutation",
    "transmuted": "Transmutation",
    "empower": "Empower",
    "insult": "rival fan's insult",
    "torment": "Mental Torment",
    "luminous": "Luminous Sorcerer's glare",
    "shield": "Shield",
    "mermancer": "Mermancer",
    "harmonic": "harmony",
}
#: Why a model took damage that no Action dealt (the damage event's ``cause``).
CAUSE: dict[str, str] = {
    "move": "for leaving an enemy's side",
    "blood_pact": "the Blood Mage's sacrifice",
    "burning": "the flames",
    "crowd": "the crowd",
    "storm": "the Storm of Iron",
    "tidal_wave": "the Tidal Wave",
}
RESULT = {"success": "succeeds", "explosion": "ties: a magical explosion!", "fail": "fails"}

Writer = Callable[[Event, ArenaView, Sequence[Event]], str | None]


def _signed(mods: Sequence[Mapping[str, Any]]) -> str:
    """ " + 1 Empower - 2 Mental Torment" (each modifier with its sign and its name)."""
    out = ""
    for x in mods:
        v = int(x.get("value", 0))
        out += f" {'+' if v >= 0 else '-'} {abs(v)} {WHY.get(str(x.get('why')), str(x.get('why')).replace('_', ' '))}"
    return out


def opposed_side(side: Mapping[str, Any], stat: str) -> str:
    """One side of an opposed roll as a sum: "2 + Skill 4 = 6" (Defence: the kept die of two named)."""
    if stat == "Skill":
        die = str(side.get("die"))
    else:
        dice = list(side.get("dice") or [side.get("kept")])
        die = str(side.get("kept"))
        if len(dice) > 1:
            die += f" (the higher of {', '.join(map(str, dice))})"
    base = side.get("skill" if stat == "Skill" else "defence")
    return f"{die} + {stat} {base}{_signed(side.get('modifiers') or [])} = {side.get('total')}"


def _opposed(ev: Event, view: ArenaView, events: Sequence[Event]) -> str | None:
    d = ev.data
    att, dfn = d.get("attacker"), d.get("defender")
    if not isinstance(att, Mapping) or not isinstance(dfn, Mapping):
        return None
    name = DATA.action(str(d["action"])).name if d.get("action") else "The Action"
    result = RESULT.get(str(d.get("result")), str(d.get("result")))
    return f"{name}: {opposed_side(att, 'Skill')} against {opposed_side(dfn, 'Defence')}: {result}"


def damage_sum(parts: Sequence[Mapping[str, Any]]) -> str:
    """How damage adds up: "4 + 1 Empower = 5, × 2 for the magical explosion = 10" ("" if nothing
    changed the base)."""
    base = next((int(p["value"]) for p in parts if p.get("why") == "base"), None)
    mods = [p for p in parts if p.get("why") not in ("base", "explosion_double")]
    double = next((int(p["value"]) for p in parts if p.get("why") == "explosion_double"), None)
    if base is None or (not mods and double is None):
        return ""
    text = f"{base}{_signed(mods)}"
    subtotal = base + sum(int(p.get("value", 0)) for p in mods)
    if mods:
        text += f" = {subtotal}"
    if double is not None:
        text += f", × 2 for the magical explosion = {max(0, double * 2)}"
    return text


def _damage(ev: Event, view: ArenaView, events: Sequence[Event]) -> str | None:
    d = ev.data
    why = damage_sum(d.get("parts") or []) or CAUSE.get(str(d.get("cause")), "")
    if not why or " takes " not in ev.text:
        return None
    who = ev.text.split(" takes ", 1)[0]  # the engine's name of the model
    return f"{who} takes {d['amount']} damage ({why}): {d['health']}/{d['max_health']} Health."


def _roll(ev: Event, view: ArenaView, events: Sequence[Event]) -> str | None:
    d = ev.data
    purpose = str(d.get("purpose", ""))
    dice = [int(v) for v in d.get("dice") or []]
    if purpose == "damage" and len(dice) > 1:  # the damage dice with what they add up to
        added = f"{', '.join(map(str, dice))}: the higher, {max(dice)}" if d.get("keep") == "highest" else ""
        return f"Roll for {d.get('label') or 'damage'}: {added or ' + '.join(map(str, dice)) + f' = {sum(dice)}'}."
    if purpose not in ROLL_OFFS:
        return None
    seats = roll_seats(purpose, view, events, d.get("ctx"))
    label = roll_label(purpose, str(d.get("label") or purpose.replace("_", " ")))
    said = f"{label[:1].upper()}{label[1:]}" if label.startswith("the ") else f"Roll for {label}"  # a roll-off
    return f"{said}: {dice_text(purpose, list(d.get('dice') or []), seats)}."


def _fate(ev: Event, view: ArenaView, events: Sequence[Event]) -> str | None:
    d = ev.data
    if "die" not in d or "line" not in d:
        return None
    bonus = f" + {d['bonus']} (knocked out by a Wizard) = {d['total']}" if d.get("bonus") else ""
    return f"Fate roll {d['die']}{bonus}: {d['line']}"


def _crowd(ev: Event, view: ArenaView, events: Sequence[Event]) -> str | None:
    d = ev.data
    die, bonus, total = int(d["die"]), int(d.get("bonus") or 0), int(d["total"])
    r = DATA.crowd[total]
    add = f" + {bonus} extra Crowd Favour = {die + bonus}" if bonus else ""
    capped = f", counted as {total}" if die + bonus != total else ""
    return f"The crowd: {die}{add}{capped}: {r.name}. {r.text}"


def _explosion(ev: Event, view: ArenaView, events: Sequence[Event]) -> str | None:
    d = ev.data
    dice, winner = list(d.get("dice") or []), d.get("winner")
    seats = roll_seats("explosion", view, events, d.get("ctx"))
    if winner is None or seats is None or len(dice) != 2:
        return None
    a, t = dice
    if winner == "target":
        opposed = next((e for e in events if e.kind == "opposed" and e.data.get("ctx") == d.get("ctx")), None)
        caster = str(opposed.data["attacker"]["model"]) if opposed is not None else "its caster"
        return (
            f"The explosion roll-off goes to {{p{seats[1] + 1}}}, the target's owner ({t} against {a}): "
            f"the Action is reflected onto {caster}!"
        )
    return (
        f"The explosion roll-off goes to {{p{seats[0] + 1}}}, the active player ({a} against {t}): "
        "success with double damage!"
    )


def _select(ev: Event, view: ArenaView, events: Sequence[Event]) -> str | None:
    """ "ann activates their Drake Spirit 1" (the engine's name of a model says its owner again)."""
    seat, mid = int(ev.data["seat"]), str(ev.data["model"])
    owner = MODEL_ID.fullmatch(mid)
    if owner is None or int(owner[1]) - 1 != seat:
        return None
    return f"{{p{seat + 1}}} activates their {model_name(view, mid, (), own=seat).removeprefix('your ')}."


WRITERS: dict[str, Writer] = {
    "select": _select,
    "opposed": _opposed,
    "damage": _damage,
    "roll": _roll,
    "fate": _fate,
    "crowd": _crowd,
    "explosion": _explosion,
}


def event_text(ev: Event, view: ArenaView, names: Sequence[str], events: Sequence[Event] = ()) -> str:
    """The event as the channel tells it (``events``: the post's events, for context)."""
    writer = WRITERS.get(ev.kind)
    text = None
    if writer is not None:
        try:
            text = writer(ev, view, events)
        except (KeyError, TypeError, ValueError, IndexError):  # an older log's data: the engine's text
            text = None
    return pretty(text or ev.text, view, names)


def last_roll_text(view: ArenaView, names: Sequence[str]) -> tuple[str, str] | None:
    """The last roll as the board shows it: its label and its dice with their owners."""
    r = view.get("last_roll")
    if not r:
        return None
    purpose = str(r.get("purpose", ""))
    label = roll_label(purpose, str(r.get("label") or purpose.replace("_", " ")))
    seats = roll_seats(purpose, view, (), r.get("ctx"))
    return pretty(label, view, names), pretty(dice_text(purpose, list(r.get("dice", [])), seats), view, names)


__all__ = ["CAUSE", "WHY", "damage_sum", "event_text", "last_roll_text", "opposed_side", "roll_label"]
