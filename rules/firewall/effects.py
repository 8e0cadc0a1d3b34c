"""What each Firewall spell does when it applies: ``SPELL_EFFECTS``, one small function per spell,
and the second half of Larceny and Recycle (the caster's follow-up choice).

An effect changes the table (the turn being resolved, the wall, the mana) and returns its events;
``apply_spell`` first lets Muteness silence it. The order in which spells apply is the resolution's
(``state.py``); see docs/rulings/firewall.md, rules 10 to 21.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..core import Event
from .game import BOOST, MAX_MANA, RESERVE_GAIN
from .spells import (
    ATTACK_BOOST,
    BAD_LOSER,
    CLONE,
    DOUBLE_DOSE,
    END_OF_ROUND,
    INFERNO,
    LARCENY,
    MIDDLE,
    MUTENESS,
    RECYCLE,
    RESERVE_BOOST,
    RESISTANCE,
    SUCTION,
    WINNER_LOSES,
    names,
    spell_name,
)
from .table import QUEUE_ORDER, WHO, EffectRecord, FirewallTable, QueuedSpell, TurnResolution

SpellEffect = Callable[[FirewallTable, TurnResolution, QueuedSpell, list[Event]], None]


def apply_spell(table: FirewallTable, item: QueuedSpell, events: list[Event]) -> None:
    """Apply one queued spell for its caster (nothing under Muteness); its events go to ``events``."""
    if table.muted:
        table.spell_event(events, item, "muted", "has no effect: Muteness silences every spell this round")
        return
    resolution = table.resolution
    assert resolution is not None
    SPELL_EFFECTS[item.card](table, resolution, item, events)


def _muteness(table: FirewallTable, resolution: TurnResolution, item: QueuedSpell, events: list[Event]) -> None:
    table.muted = True
    table.spell_event(events, item, "applied", "silences every other spell for the rest of the round")


def _clone(table: FirewallTable, resolution: TurnResolution, item: QueuedSpell, events: list[Event]) -> None:
    s, opp = item.caster, 1 - item.caster
    target = resolution.clone_targets[s] if not item.stolen else None
    if target is None:
        table.spell_event(events, item, "no_effect", "finds no spell to copy and fizzles")
        return
    copy = QueuedSpell(card=target, owner=opp, caster=s, source="clone")
    what = f"copies {WHO[opp]}'s {spell_name(target)} ({target})" if table.narrate else ""
    table.spell_event(events, item, "applied", what, {"target": target})
    if target < CLONE:  # Muteness: its number has passed, so it applies at once
        apply_spell(table, copy, events)
        return
    resolution.queue.append(copy)
    resolution.queue.sort(key=QUEUE_ORDER)  # stable: after spells of the same number already queued


def _larceny(table: FirewallTable, resolution: TurnResolution, item: QueuedSpell, events: list[Event]) -> None:
    s, opp = item.caster, 1 - item.caster
    stolen = [it for it in resolution.queue if it.caster == opp]
    if not stolen:
        table.spell_event(events, item, "no_effect", f"finds no spell of {WHO[opp]} left to steal")
        return
    for it in stolen:
        it.caster, it.stolen = s, True
    resolution.queue.sort(key=QUEUE_ORDER)
    cards = sorted(it.card for it in stolen)
    resolution.pending = {"kind": "larceny", "seat": s, "stolen": cards}
    if not table.narrate:
        table.spell_event(events, item, "applied", "", {"steals": cards})
        return
    table.spell_event(events, item, "applied", f"steals {names(cards)}", {"steals": cards})
    events.append(
        Event(
            "choice",
            f"{WHO[s]} chooses which stolen spells to apply for themselves (the others are discarded).",
            {"seat": s, "kind": "larceny", "stolen": cards},
        )
    )


def _end_of_round(table: FirewallTable, resolution: TurnResolution, item: QueuedSpell, events: list[Event]) -> None:
    resolution.ended = True
    table.spell_event(events, item, "applied", "ends the round at once: no bets are paid")


def _middle(table: FirewallTable, resolution: TurnResolution, item: QueuedSpell, events: list[Event]) -> None:
    before = table.wall
    table.wall = after = table.round_start_wall
    what = f"sends the wall back from flagstone {before} to {after}, where the round began" if table.narrate else ""
    table.spell_event(events, item, "applied", what, {"wall_from": before, "wall_to": after})


def _recycle(table: FirewallTable, resolution: TurnResolution, item: QueuedSpell, events: list[Event]) -> None:
    s = item.caster
    lo, hi = table.recycle_range(s)
    if lo == hi:
        table.spell_event(events, item, "no_effect", "cannot change the bet (no room within the mana)")
        return
    bet = resolution.bets[s]
    resolution.pending = {"kind": "recycle", "seat": s, "bet": bet, "min": lo, "max": hi}
    what = "lets its caster change their bet"
    table.spell_event(events, item, "applied", what, {"bet": bet, "min": lo, "max": hi})
    if not table.narrate:
        return
    events.append(
        Event(
            "choice",
            f"{WHO[s]} chooses a new bet from {lo} to {hi} (Recycle).",
            {"seat": s, "kind": "recycle", "bet": bet, "min": lo, "max": hi},
        )
    )


def _raise_attack(table: FirewallTable, powers: list[int], item: QueuedSpell, after: int, events: list[Event]) -> None:
    s = item.caster
    before = powers[s]
    powers[s] = after
    what = f"raises {WHO[s]}'s attack from {before} to {after}" if table.narrate else ""
    table.spell_event(events, item, "applied", what, {"power_from": before, "power_to": after})


def _attack_boost(table: FirewallTable, resolution: TurnResolution, item: QueuedSpell, events: list[Event]) -> None:
    powers = resolution.powers
    _raise_attack(table, powers, item, powers[item.caster] + BOOST, events)


def _double_dose(table: FirewallTable, resolution: TurnResolution, item: QueuedSpell, events: list[Event]) -> None:
    powers = resolution.powers
    _raise_attack(table, powers, item, powers[item.caster] * 2, events)


def _winner_loses(table: FirewallTable, resolution: TurnResolution, item: QueuedSpell, events: list[Event]) -> None:
    before = resolution.toward
    if before is None:
        table.spell_event(events, item, "no_effect", "has no effect: the wall is not due to move")
        return
    resolution.toward = after = 1 - before
    what = f"reverses the wall: it is now due to move toward {WHO[after]}" if table.narrate else ""
    table.spell_event(events, item, "applied", what, {"toward_from": before, "toward_to": after})


def _inferno(table: FirewallTable, resolution: TurnResolution, item: QueuedSpell, events: list[Event]) -> None:
    if resolution.toward is None:
        table.spell_event(events, item, "no_effect", "has no effect: the wall is not due to move")
        return
    resolution.steps = 2
    table.spell_event(events, item, "applied", "makes the wall move two flagstones", {"steps": 2})


def _resistance(table: FirewallTable, resolution: TurnResolution, item: QueuedSpell, events: list[Event]) -> None:
    s = item.caster
    if resolution.toward == s:
        resolution.toward = None
        what = f"stops the wall from moving toward {WHO[s]}" if table.narrate else ""
        table.spell_event(events, item, "applied", what, {"blocked": True})
        return
    what = f"has nothing to stop: the wall is not due to move toward {WHO[s]}" if table.narrate else ""
    table.spell_event(events, item, "no_effect", what, {"blocked": False})


def _bad_loser(table: FirewallTable, resolution: TurnResolution, item: QueuedSpell, events: list[Event]) -> None:
    s = item.caster
    resolution.bad_loser[s] = True
    what = f"will spare {WHO[s]}'s bet if the wall moves toward them" if table.narrate else ""
    table.spell_event(events, item, "applied", what)


def _gain_mana(table: FirewallTable, item: QueuedSpell, gain: int, events: list[Event]) -> None:
    s = item.caster
    player = table.players[s]
    before = player.mana
    capped = before + gain > MAX_MANA
    player.mana = after = MAX_MANA if capped else before + gain
    if not table.narrate:
        what = ""
    elif capped:
        what = f"gives {WHO[s]} {after - before} mana ({before} to {after}, capped at {MAX_MANA})"
    else:
        what = f"gives {WHO[s]} {after - before} mana ({before} to {after})"
    data = {"gain": gain, "mana_from": before, "mana_to": after, "capped": capped}
    table.spell_event(events, item, "applied", what, data)


def _reserve_boost(table: FirewallTable, resolution: TurnResolution, item: QueuedSpell, events: list[Event]) -> None:
    _gain_mana(table, item, RESERVE_GAIN, events)


def _suction(table: FirewallTable, resolution: TurnResolution, item: QueuedSpell, events: list[Event]) -> None:
    _gain_mana(table, item, resolution.bets[1 - item.caster], events)


#: What each spell (1..14) does for its caster; the false card (0) never applies.
SPELL_EFFECTS: dict[int, SpellEffect] = {
    MUTENESS: _muteness,
    CLONE: _clone,
    LARCENY: _larceny,
    END_OF_ROUND: _end_of_round,
    MIDDLE: _middle,
    RECYCLE: _recycle,
    ATTACK_BOOST: _attack_boost,
    DOUBLE_DOSE: _double_dose,
    WINNER_LOSES: _winner_loses,
    INFERNO: _inferno,
    RESISTANCE: _resistance,
    BAD_LOSER: _bad_loser,
    RESERVE_BOOST: _reserve_boost,
    SUCTION: _suction,
}


# ------------------------------------------------------------------ the follow-ups
def rebet(table: FirewallTable, seat: int, bet: int) -> list[Event]:
    """Recycle's choice: ``seat`` fights and pays with ``bet`` (checked to be in range)."""
    resolution = table.current()
    before = resolution.bets[seat]
    resolution.bets[seat] = bet
    resolution.powers[seat] += bet - before
    entry: EffectRecord = {"card": RECYCLE, "name": spell_name(RECYCLE), "caster": seat, "result": "rebet"}
    entry |= {"bet_from": before, "bet_to": bet}
    resolution.effects.append(entry)
    text = (
        f"Recycle: {WHO[seat]} keeps their bet of {bet}."
        if bet == before
        else f"Recycle: {WHO[seat]} changes their bet from {before} to {bet}."
    )
    return [Event("recycle", text, {"seat": seat, "bet_from": before, "bet_to": bet})]


def choose_stolen(table: FirewallTable, seat: int, apply: tuple[int, ...]) -> list[Event]:
    """Larceny's choice: the stolen spells in ``apply`` stay queued for ``seat``, the others go."""
    resolution = table.current()
    keep = Counter(apply)
    dropped: list[int] = []
    queue: list[QueuedSpell] = []
    for it in resolution.queue:
        if it.stolen and it.caster == seat:
            if keep[it.card] > 0:
                keep[it.card] -= 1
                queue.append(it)
            else:
                dropped.append(it.card)
            continue
        queue.append(it)
    resolution.queue = queue
    applied = sorted(apply)
    discarded = sorted(dropped)
    resolution.effects.append(
        {
            "card": LARCENY,
            "name": spell_name(LARCENY),
            "caster": seat,
            "result": "chosen",
            "apply": applied,
            "discard": discarded,
        }
    )
    return [
        Event(
            "larceny",
            f"Larceny: {WHO[seat]} applies {names(applied)} for themselves and discards {names(discarded)}.",
            {"seat": seat, "apply": applied, "discard": discarded},
        )
    ]
