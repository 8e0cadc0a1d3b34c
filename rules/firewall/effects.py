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
from .table import WHO, EffectRecord, FirewallTable, QueuedSpell

SpellEffect = Callable[[FirewallTable, QueuedSpell], list[Event]]


def apply_spell(table: FirewallTable, item: QueuedSpell) -> list[Event]:
    """Apply one queued spell for its caster (nothing under Muteness)."""
    if table.muted:
        return [table.spell_event(item, "muted", "has no effect: Muteness silences every spell this round")]
    return SPELL_EFFECTS[item.card](table, item)


def _muteness(table: FirewallTable, item: QueuedSpell) -> list[Event]:
    table.muted = True
    return [table.spell_event(item, "applied", "silences every other spell for the rest of the round")]


def _clone(table: FirewallTable, item: QueuedSpell) -> list[Event]:
    resolution = table.current()
    s, opp = item.caster, 1 - item.caster
    target = resolution.clone_targets[s] if not item.stolen else None
    if target is None:
        return [table.spell_event(item, "no_effect", "finds no spell to copy and fizzles")]
    copy = QueuedSpell(card=target, owner=opp, caster=s, source="clone")
    events = [table.spell_event(item, "applied", f"copies {WHO[opp]}'s {spell_name(target)} ({target})", target=target)]
    if target < CLONE:  # Muteness: its number has passed, so it applies at once
        return events + apply_spell(table, copy)
    resolution.queue.append(copy)
    resolution.queue.sort(key=QueuedSpell.key)  # stable: after spells of the same number already queued
    return events


def _larceny(table: FirewallTable, item: QueuedSpell) -> list[Event]:
    resolution = table.current()
    s, opp = item.caster, 1 - item.caster
    stolen = [it for it in resolution.queue if it.caster == opp]
    if not stolen:
        return [table.spell_event(item, "no_effect", f"finds no spell of {WHO[opp]} left to steal")]
    for it in stolen:
        it.caster, it.stolen = s, True
    resolution.queue.sort(key=QueuedSpell.key)
    cards = sorted(it.card for it in stolen)
    resolution.pending = {"kind": "larceny", "seat": s, "stolen": cards}
    return [
        table.spell_event(item, "applied", f"steals {names(cards)}", steals=cards),
        Event(
            "choice",
            f"{WHO[s]} chooses which stolen spells to apply for themselves (the others are discarded).",
            {"seat": s, "kind": "larceny", "stolen": cards},
        ),
    ]


def _end_of_round(table: FirewallTable, item: QueuedSpell) -> list[Event]:
    table.current().ended = True
    return [table.spell_event(item, "applied", "ends the round at once: no bets are paid")]


def _middle(table: FirewallTable, item: QueuedSpell) -> list[Event]:
    before = table.wall
    table.wall = table.round_start_wall
    what = f"sends the wall back from flagstone {before} to {table.wall}, where the round began"
    return [table.spell_event(item, "applied", what, wall_from=before, wall_to=table.wall)]


def _recycle(table: FirewallTable, item: QueuedSpell) -> list[Event]:
    resolution = table.current()
    s = item.caster
    lo, hi = table.recycle_range(s)
    if lo == hi:
        return [table.spell_event(item, "no_effect", "cannot change the bet (no room within the mana)")]
    bet = resolution.bets[s]
    resolution.pending = {"kind": "recycle", "seat": s, "bet": bet, "min": lo, "max": hi}
    return [
        table.spell_event(item, "applied", "lets its caster change their bet", bet=bet, min=lo, max=hi),
        Event(
            "choice",
            f"{WHO[s]} chooses a new bet from {lo} to {hi} (Recycle).",
            {"seat": s, "kind": "recycle", "bet": bet, "min": lo, "max": hi},
        ),
    ]


def _raise_attack(table: FirewallTable, item: QueuedSpell, after: Callable[[int], int]) -> list[Event]:
    powers, s = table.current().powers, item.caster
    before = powers[s]
    powers[s] = after(before)
    what = f"raises {WHO[s]}'s attack from {before} to {powers[s]}"
    return [table.spell_event(item, "applied", what, power_from=before, power_to=powers[s])]


def _attack_boost(table: FirewallTable, item: QueuedSpell) -> list[Event]:
    return _raise_attack(table, item, lambda power: power + BOOST)


def _double_dose(table: FirewallTable, item: QueuedSpell) -> list[Event]:
    return _raise_attack(table, item, lambda power: power * 2)


def _winner_loses(table: FirewallTable, item: QueuedSpell) -> list[Event]:
    resolution = table.current()
    if resolution.toward is None:
        return [table.spell_event(item, "no_effect", "has no effect: the wall is not due to move")]
    before = resolution.toward
    resolution.toward = 1 - before
    what = f"reverses the wall: it is now due to move toward {WHO[resolution.toward]}"
    return [table.spell_event(item, "applied", what, toward_from=before, toward_to=resolution.toward)]


def _inferno(table: FirewallTable, item: QueuedSpell) -> list[Event]:
    resolution = table.current()
    if resolution.toward is None:
        return [table.spell_event(item, "no_effect", "has no effect: the wall is not due to move")]
    resolution.steps = 2
    return [table.spell_event(item, "applied", "makes the wall move two flagstones", steps=2)]


def _resistance(table: FirewallTable, item: QueuedSpell) -> list[Event]:
    resolution, s = table.current(), item.caster
    if resolution.toward == s:
        resolution.toward = None
        return [table.spell_event(item, "applied", f"stops the wall from moving toward {WHO[s]}", blocked=True)]
    what = f"has nothing to stop: the wall is not due to move toward {WHO[s]}"
    return [table.spell_event(item, "no_effect", what, blocked=False)]


def _bad_loser(table: FirewallTable, item: QueuedSpell) -> list[Event]:
    s = item.caster
    table.current().bad_loser[s] = True
    return [table.spell_event(item, "applied", f"will spare {WHO[s]}'s bet if the wall moves toward them")]


def _gain_mana(table: FirewallTable, item: QueuedSpell, gain: int) -> list[Event]:
    s = item.caster
    before = table.players[s].mana
    after = min(MAX_MANA, before + gain)
    table.players[s].mana = after
    capped = before + gain > MAX_MANA
    what = f"gives {WHO[s]} {after - before} mana ({before} to {after}" + (
        f", capped at {MAX_MANA})" if capped else ")"
    )
    return [table.spell_event(item, "applied", what, gain=gain, mana_from=before, mana_to=after, capped=capped)]


def _reserve_boost(table: FirewallTable, item: QueuedSpell) -> list[Event]:
    return _gain_mana(table, item, RESERVE_GAIN)


def _suction(table: FirewallTable, item: QueuedSpell) -> list[Event]:
    return _gain_mana(table, item, table.current().bets[1 - item.caster])


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
    resolution.record["bets"] = list(resolution.bets)
    entry: EffectRecord = {"card": RECYCLE, "name": spell_name(RECYCLE), "caster": seat, "result": "rebet"}
    entry |= {"bet_from": before, "bet_to": bet}
    resolution.record["effects"].append(entry)
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
    resolution.record["effects"].append(
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
