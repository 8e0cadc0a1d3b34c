"""The end of a Firewall turn, of a round and of the match: the wall's push, the payment of the
bets, running out of mana, the wizards stepping back, the bridge collapsing, the fall; and the
deal at the start of each round (docs/rulings/firewall.md, rules 8, 9 and 22 to 25)."""

from __future__ import annotations

from ..core import Event, Outcome
from .game import BRIDGE, DRAW_PER_ROUND, GAP, MAX_MANA, START_HAND
from .spells import names
from .table import ONLY_SEAT, WHO, FirewallTable, Phase, new_event


# ------------------------------------------------------------------ deal and rounds
def first_deal(table: FirewallTable) -> list[Event]:
    """Both stocks are in order: round 1 begins and each player draws their first hand."""
    table.phase = Phase.TURN
    return [round_start_event(table), draw(table, 0, START_HAND), draw(table, 1, START_HAND)]


def draw(table: FirewallTable, seat: int, n: int) -> Event:
    p = table.players[seat]
    stock = p.stock
    drawn, p.stock = stock[:n], stock[n:]
    hand = p.hand + drawn
    hand.sort()
    p.hand = hand
    return new_event(
        "draw",
        f"You draw {names(drawn)}." if drawn else "Your stock is empty: you draw nothing.",
        {"seat": seat, "drawn": drawn, "hand": list(hand), "stock_count": len(p.stock)},
        ONLY_SEAT[seat],
    )


def round_start_event(table: FirewallTable) -> Event:
    p0, p1 = table.players
    return new_event(
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


# ------------------------------------------------------------------ end of a turn
def _discard_in_play(table: FirewallTable) -> None:
    for p in table.players:
        if p.in_play:
            p.discard += p.in_play
            p.in_play = []


def end_turn_by_spell(table: FirewallTable) -> list[Event]:
    """End of Round applied: the wall stays, no bet is paid, the round ends."""
    _discard_in_play(table)
    _record_payment(table, [0, 0])
    events = [_turn_end_event(table, [0, 0], "The round ends before the bets are paid.")]
    return events + end_round(table, "end_of_round", None)


def finish_turn(table: FirewallTable) -> list[Event]:
    """Every spell has applied: the wall moves, both bets are paid, and the round may end."""
    resolution = table.current()
    start, target = table.wall, resolution.toward
    if target is None:
        hit = None
        text = f"The wall stays on flagstone {start}."
    else:
        steps = resolution.steps
        hit = push(table, target, steps)
        why = "Inferno: two flagstones" if steps == 2 else "one flagstone"
        short = hit is not None and steps == 2 and abs(table.wall - start) == 1
        stop = " and stops on the wizard" if short else ""
        text = f"The wall moves toward {WHO[target]} ({why}{stop}): flagstone {start} to {table.wall}." + (
            f" It reaches {WHO[target]}'s wizard!" if hit is not None else ""
        )
    end = table.wall
    data = {
        "from": start,
        "to": end,
        "toward": target,
        "steps": abs(end - start),
        "reason": "attack",
        "reached": hit,
    }
    events = [new_event("wall", text, data)]
    p0, p1 = table.players
    bets, bad_loser = resolution.bets, resolution.bad_loser
    cost0 = 0 if bad_loser[0] and target == 0 else bets[0]
    cost1 = 0 if bad_loser[1] and target == 1 else bets[1]
    p0.mana -= cost0
    p1.mana -= cost1
    paid = [cost0, cost1]
    _discard_in_play(table)
    _record_payment(table, paid)
    spared_text = (
        "".join(f" Bad Loser: {WHO[s]} does not pay." for s in (0, 1) if paid[s] == 0 and bets[s] > 0).strip()
        if not (cost0 and cost1)
        else ""
    )
    events.append(_turn_end_event(table, paid, spared_text))
    if hit is not None:
        return events + end_round(table, "wall_reached", hit)
    if p0.mana == 0 or p1.mana == 0:
        if p0.mana == 0 and p1.mana == 0:
            events.append(
                new_event(
                    "out_of_mana",
                    "Both wizards are out of mana: the round ends where the wall stands.",
                    {"out": [0, 1], "mover": None, "from": table.wall, "to": table.wall, "reached": None},
                )
            )
            return events + end_round(table, "out_of_mana", None)
        return events + _out_of_mana(table, 0 if p0.mana == 0 else 1)
    table.phase = Phase.TURN
    table.resolution = None
    return events


def _record_payment(table: FirewallTable, paid: list[int]) -> None:
    record = table.current().record
    p0, p1 = table.players
    record["paid"] = paid
    record["mana_after"] = [p0.mana, p1.mana]
    record["wall_to"] = table.wall


def _turn_end_event(table: FirewallTable, paid: list[int], note: str) -> Event:
    resolution = table.current()
    p0, p1 = table.players
    mana0, mana1 = p0.mana, p1.mana
    table.last_turn = resolution.record.copy()
    return new_event(
        "turn_end",
        f"Paid: {WHO[0]} {paid[0]}, {WHO[1]} {paid[1]}. Mana left: {WHO[0]} {mana0}, "
        f"{WHO[1]} {mana1}." + (f" {note}" if note else ""),
        {
            "round": resolution.round,
            "turn": resolution.turn,
            "bets": list(resolution.bets),
            "paid": paid,
            "mana": [mana0, mana1],
            "wall": table.wall,
            "wizards": [p0.wizard, p1.wizard],
            "discards": [list(p0.discard), list(p1.discard)],
            "hand_sizes": [len(p0.hand), len(p1.hand)],
        },
    )


def push(table: FirewallTable, toward: int, steps: int) -> int | None:
    """Move the wall up to ``steps`` flagstones toward ``toward``'s wizard, stopping on it:
    ``toward`` if it was reached, else None."""
    step = 1 if toward == 1 else -1
    for _ in range(steps):
        table.wall += step
        if table.wall == table.players[toward].wizard:
            return toward
    return None


def _out_of_mana(table: FirewallTable, loser: int) -> list[Event]:
    mover = 1 - loser
    points = table.players[mover].mana
    start = table.wall
    hit = push(table, loser, points)
    text = (
        f"{WHO[loser]} is out of mana and can no longer bet: {WHO[mover]} spends their {points} "
        f"mana to move the wall from flagstone {start} to {table.wall}"
        + (f", onto {WHO[loser]}'s wizard." if hit is not None else ".")
    )
    events = [
        new_event(
            "out_of_mana",
            text,
            {"out": [loser], "mover": mover, "points": points, "from": start, "to": table.wall, "reached": hit},
        )
    ]
    if hit is not None:
        return events + end_round(table, "wall_reached", hit)
    return events + end_round(table, "out_of_mana", None)


# ------------------------------------------------------------------ end of a round and of the match
def end_round(table: FirewallTable, reason: str, hit: int | None) -> list[Event]:
    table.resolution = None
    ended = table.round
    for seat, p in enumerate(table.players):
        p.wizard = table.wall - GAP if seat == 0 else table.wall + GAP
    table.broken_depth += 1
    fallen = [s for s, p in enumerate(table.players) if table.is_broken(p.wizard)]
    why = {
        "wall_reached": f"the wall reached {WHO[hit or 0]}'s wizard",
        "end_of_round": "End of Round was cast",
        "out_of_mana": "the mana ran out",
    }[reason]
    d = table.broken_depth
    text = (
        f"Round {ended} is over: {why}. The wall stays on flagstone {table.wall}; the wizards step to "
        f"{table.players[0].wizard} and {table.players[1].wizard}. Flagstones {d - 1} and {BRIDGE - d} collapse."
    )
    events = [
        new_event(
            "round_end",
            text,
            {
                "round": ended,
                "reason": reason,
                "hit": hit,
                "wall": table.wall,
                "wizards": [p.wizard for p in table.players],
                "broken": table.broken(),
                "fallen": fallen,
            },
        )
    ]
    if fallen:
        return events + _end_match(table, fallen)
    table.round += 1
    table.turn = 0
    table.muted = False
    table.round_start_wall = table.wall
    for p in table.players:
        p.mana = MAX_MANA
    events.append(round_start_event(table))
    if table.variant != "full_hand":
        for seat in (0, 1):
            events.append(draw(table, seat, DRAW_PER_ROUND))
    table.phase = Phase.TURN
    return events


def _end_match(table: FirewallTable, fallen: list[int]) -> list[Event]:
    table.phase = Phase.OVER
    where = {s: table.players[s].wizard for s in fallen}

    def spot(s: int) -> str:
        pos = where[s]
        return f"flagstone {pos}" if 0 <= pos < BRIDGE else "beyond the end of the bridge"

    if len(fallen) == 2:
        why = f"Both wizards fall into the lava ({spot(0)} and {spot(1)} are gone): a draw."
        table.final = Outcome.draw(2, why)
    else:
        loser = fallen[0]
        why = f"{WHO[loser]}'s wizard falls into the lava ({spot(loser)}): {WHO[1 - loser]} wins."
        table.final = Outcome.single_winner(2, 1 - loser, why)
    return [
        new_event("fall", why, {"fallen": fallen, "positions": [p.wizard for p in table.players]}),
        new_event("game_end", table.final.summary, {"outcome": table.final.to_json()}),
    ]
