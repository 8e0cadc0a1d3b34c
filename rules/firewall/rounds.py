"""The end of a Firewall turn, of a round and of the match: the wall's push, the payment of the
bets, running out of mana, the wizards stepping back, the bridge collapsing, the fall; and the
deal at the start of each round (docs/rulings/firewall.md, rules 8, 9 and 22 to 25)."""

from __future__ import annotations

from typing import Any

from ..core import Event, Outcome
from .game import BRIDGE, DRAW_PER_ROUND, GAP, MAX_MANA, START_HAND
from .spells import names
from .table import ONLY_SEAT, WHO, FirewallTable, Phase, TurnResolution


# ------------------------------------------------------------------ deal and rounds
def first_deal(table: FirewallTable) -> list[Event]:
    """Both stocks are in order: round 1 begins and each player draws their first hand."""
    table.phase = Phase.TURN
    events: list[Event] = []
    round_start_event(table, events)
    draw(table, 0, START_HAND, events)
    draw(table, 1, START_HAND, events)
    return events


def draw(table: FirewallTable, seat: int, n: int, events: list[Event]) -> None:
    p = table.players[seat]
    stock = p.stock
    drawn, p.stock = stock[:n], stock[n:]
    hand = p.hand + drawn
    hand.sort()
    p.hand = hand
    if not table.narrate:
        return
    events.append(
        Event(
            "draw",
            f"You draw {names(drawn)}." if drawn else "Your stock is empty: you draw nothing.",
            {"seat": seat, "drawn": drawn, "hand": list(hand), "stock_count": len(p.stock)},
            ONLY_SEAT[seat],
        )
    )


def round_start_event(table: FirewallTable, events: list[Event]) -> None:
    if not table.narrate:
        return
    p0, p1 = table.players
    events.append(
        Event(
            "round_start",
            f"Round {table.round} begins: the wall stands on flagstone {table.wall}, the wizards on "
            f"{p0.wizard} and {p1.wizard}; both have {MAX_MANA} mana.",
            {
                "round": table.round,
                "wall": table.wall,
                "wizards": [p0.wizard, p1.wizard],
                "broken": table.broken(),
                "mana": [p0.mana, p1.mana],
                "hand_sizes": [len(p0.hand), len(p1.hand)],
                "stock_counts": [len(p0.stock), len(p1.stock)],
            },
        )
    )


# ------------------------------------------------------------------ end of a turn
def end_turn_by_spell(table: FirewallTable, resolution: TurnResolution, events: list[Event]) -> None:
    """End of Round applied: the wall stays, no bet is paid, the round ends."""
    _end_turn(table, resolution, [0, 0], "The round ends before the bets are paid.", events)
    end_round(table, "end_of_round", None, events)


def finish_turn(table: FirewallTable, resolution: TurnResolution, events: list[Event]) -> None:
    """Every spell has applied: the wall moves, both bets are paid, and the round may end."""
    start, target = table.wall, resolution.toward
    p0, p1 = table.players
    if target is None:
        hit = None
    elif resolution.steps == 1:  # push, one flagstone
        table.wall = end = start + 1 if target == 1 else start - 1
        hit = target if end == table.players[target].wizard else None
    else:
        hit = push(table, target, resolution.steps)
    if table.narrate:
        _say_wall(events, start, table.wall, target, resolution.steps, hit)
    bets, bad_loser = resolution.bets, resolution.bad_loser
    bet0, bet1 = bets
    cost0 = 0 if bad_loser[0] and target == 0 else bet0
    cost1 = 0 if bad_loser[1] and target == 1 else bet1
    p0.mana -= cost0
    p1.mana -= cost1
    if (cost0 and cost1) or not table.narrate:
        note = ""
    else:
        note = "".join(
            f" Bad Loser: {WHO[s]} does not pay."
            for s, cost, bet in ((0, cost0, bet0), (1, cost1, bet1))
            if cost == 0 and bet > 0
        ).strip()
    _end_turn(table, resolution, [cost0, cost1], note, events)
    if hit is not None:
        end_round(table, "wall_reached", hit, events)
        return
    if p0.mana == 0 or p1.mana == 0:
        if p0.mana == 0 and p1.mana == 0:
            events.append(
                Event(
                    "out_of_mana",
                    "Both wizards are out of mana: the round ends where the wall stands.",
                    {"out": [0, 1], "mover": None, "from": table.wall, "to": table.wall, "reached": None},
                )
            )
            end_round(table, "out_of_mana", None, events)
            return
        _out_of_mana(table, 0 if p0.mana == 0 else 1, events)
        return
    table.phase = Phase.TURN
    table.resolution = None


def _say_wall(events: list[Event], start: int, end: int, target: int | None, steps: int, hit: int | None) -> None:
    """The wall event of a turn's end: where the attacks moved the wall (or that it stayed)."""
    if target is None:
        text = f"The wall stays on flagstone {start}."
    elif steps == 1:
        text = f"The wall moves toward {WHO[target]} (one flagstone): flagstone {start} to {end}." + (
            f" It reaches {WHO[target]}'s wizard!" if hit is not None else ""
        )
    else:
        stop = " and stops on the wizard" if hit is not None and abs(end - start) == 1 else ""
        text = f"The wall moves toward {WHO[target]} (Inferno: two flagstones{stop}): flagstone {start} to {end}." + (
            f" It reaches {WHO[target]}'s wizard!" if hit is not None else ""
        )
    data = {"from": start, "to": end, "toward": target, "steps": abs(end - start), "reason": "attack", "reached": hit}
    events.append(Event("wall", text, data))


def _end_turn(
    table: FirewallTable, resolution: TurnResolution, paid: list[int], note: str, events: list[Event]
) -> None:
    """The spells in play go to the discard piles; the turn record is completed and becomes the
    last turn (the resolution is over: the record is no longer changed); the turn_end event."""
    p0, p1 = table.players
    if p0.in_play:
        p0.discard += p0.in_play
        p0.in_play = []
    if p1.in_play:
        p1.discard += p1.in_play
        p1.in_play = []
    mana0, mana1 = p0.mana, p1.mana
    wall = table.wall
    resolution.paid = paid
    resolution.mana_after = (mana0, mana1)
    resolution.wall_to = wall
    table.last_turn = resolution
    if not table.narrate:
        return
    events.append(
        Event(
            "turn_end",
            f"Paid: {WHO[0]} {paid[0]}, {WHO[1]} {paid[1]}. Mana left: {WHO[0]} {mana0}, "
            f"{WHO[1]} {mana1}." + (f" {note}" if note else ""),
            {
                "round": resolution.round,
                "turn": resolution.turn,
                "bets": list(resolution.bets),
                "paid": paid,
                "mana": [mana0, mana1],
                "wall": wall,
                "wizards": [p0.wizard, p1.wizard],
                "discards": [list(p0.discard), list(p1.discard)],
                "hand_sizes": [len(p0.hand), len(p1.hand)],
            },
        )
    )


def push(table: FirewallTable, toward: int, steps: int) -> int | None:
    """Move the wall up to ``steps`` flagstones toward ``toward``'s wizard, stopping on it:
    ``toward`` if it was reached, else None."""
    distance = abs(table.players[toward].wizard - table.wall)  # the wall never passes a wizard
    if steps >= distance:
        table.wall = table.players[toward].wizard
        return toward
    table.wall += steps if toward == 1 else -steps
    return None


def _out_of_mana(table: FirewallTable, loser: int, events: list[Event]) -> None:
    mover = 1 - loser
    points = table.players[mover].mana
    start = table.wall
    hit = push(table, loser, points)
    if table.narrate:
        text = (
            f"{WHO[loser]} is out of mana and can no longer bet: {WHO[mover]} spends their {points} "
            f"mana to move the wall from flagstone {start} to {table.wall}"
            + (f", onto {WHO[loser]}'s wizard." if hit is not None else ".")
        )
        data = {"out": [loser], "mover": mover, "points": points, "from": start, "to": table.wall, "reached": hit}
        events.append(Event("out_of_mana", text, data))
    if hit is not None:
        end_round(table, "wall_reached", hit, events)
    else:
        end_round(table, "out_of_mana", None, events)


# ------------------------------------------------------------------ end of a round and of the match
_WHY = {"end_of_round": "End of Round was cast", "out_of_mana": "the mana ran out"}


def end_round(table: FirewallTable, reason: str, hit: int | None, events: list[Event]) -> None:
    table.resolution = None
    wall = table.wall
    p0, p1 = table.players
    p0.wizard = w0 = wall - GAP
    p1.wizard = w1 = wall + GAP
    table.broken_depth = d = table.broken_depth + 1
    fallen = [s for s, w in ((0, w0), (1, w1)) if w < d or w >= BRIDGE - d]
    if table.narrate:
        _say_round_end(events, table, reason, hit, fallen)
    if fallen:
        events += _end_match(table, fallen)
        return
    table.round += 1
    table.turn = 0
    table.muted = False
    table.round_start_wall = wall
    p0.mana = p1.mana = MAX_MANA
    round_start_event(table, events)
    if table.variant != "full_hand":
        draw(table, 0, DRAW_PER_ROUND, events)
        draw(table, 1, DRAW_PER_ROUND, events)
    table.phase = Phase.TURN


def _say_round_end(events: list[Event], table: FirewallTable, reason: str, hit: int | None, fallen: list[int]) -> None:
    ended, wall, d = table.round, table.wall, table.broken_depth
    w0, w1 = (p.wizard for p in table.players)
    why = f"the wall reached {WHO[hit or 0]}'s wizard" if reason == "wall_reached" else _WHY[reason]
    text = (
        f"Round {ended} is over: {why}. The wall stays on flagstone {wall}; the wizards step to "
        f"{w0} and {w1}. Flagstones {d - 1} and {BRIDGE - d} collapse."
    )
    events.append(
        Event(
            "round_end",
            text,
            {
                "round": ended,
                "reason": reason,
                "hit": hit,
                "wall": wall,
                "wizards": [w0, w1],
                "broken": table.broken(),
                "fallen": fallen,
            },
        )
    )


def _end_match(table: FirewallTable, fallen: list[int]) -> list[Event]:
    table.phase = Phase.OVER
    where = {s: table.players[s].wizard for s in fallen}

    def spot(s: int) -> str:
        pos = where[s]
        return f"flagstone {pos}" if 0 <= pos < BRIDGE else "beyond the end of the bridge"

    if len(fallen) == 2:
        why = f"Both wizards fall into the lava ({spot(0)} and {spot(1)} are gone): a draw."
        loser = None
    else:
        loser = fallen[0]
        why = f"{WHO[loser]}'s wizard falls into the lava ({spot(loser)}): {WHO[1 - loser]} wins."
    key = (loser, why)
    cached = _OUTCOMES.get(key)
    if cached is None:
        outcome = Outcome.draw(2, why) if loser is None else Outcome.single_winner(2, 1 - loser, why)
        cached = _OUTCOMES[key] = (outcome, outcome.to_json())
    outcome, outcome_json = cached
    table.final = outcome
    return [
        Event("fall", why, {"fallen": fallen, "positions": [p.wizard for p in table.players]}),
        Event("game_end", outcome.summary, {"outcome": _copy_outcome_json(outcome_json)}),
    ]


#: The match's end by (loser or None for a draw, reason): the Outcome (immutable, shared) and its
#: JSON form (copied for each game_end event). The reasons are few: who fell, and where.
_OUTCOMES: dict[tuple[int | None, str], tuple[Outcome, dict[str, Any]]] = {}


def _copy_outcome_json(outcome: dict[str, Any]) -> dict[str, Any]:
    """A fresh copy of ``Outcome.to_json()``: its summary, ranks and seats."""
    return {
        "summary": outcome["summary"],
        "ranks": list(outcome["ranks"]),
        "seats": [dict(seat) for seat in outcome["seats"]],
    }
