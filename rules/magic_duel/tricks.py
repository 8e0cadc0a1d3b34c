"""The tricks of a Magic Duel hand: the spells cast in turn order (face-down, or face-up with a card
put on the Deck of Risk), the reveal and the trick's winner (or a replay after a tie), the draws back
to 7 cards between tricks, and the scoring at the end of the hand. Which combination wins is decided
in ``verdict.py``; drawing from the decks is in ``draws.py``."""

from __future__ import annotations

from ..core import Event
from ..text import plural
from .actions import PlayCards
from .cards import HAND_SIZE, LABEL, Combo, Kind, classify, label
from .draws import draw
from .game import Phase
from .scoring import final_outcome, score_hand
from .table import ONLY_SEAT, SEAT_REF, MagicDuelTable, TrickRecord
from .verdict import Trick, TrickPlay, resolve


# ------------------------------------------------------------------ casting
def start_trick(table: MagicDuelTable, number: int, last: bool, replay: int = 0) -> list[Event]:
    """Trick ``number`` (cast again after ``replay`` ties) begins: the leader casts first."""
    table.phase = Phase.TRICK
    table.trick = Trick(number=number, order=table.rotation_from(table.leader), replay=replay, last=last)
    return advance_trick(table)


def advance_trick(table: MagicDuelTable) -> list[Event]:
    """Skip the seats that cannot cast (removed, or without cards); resolve once all have cast."""
    t = table.trick
    assert t is not None
    events: list[Event] = []
    while t.pos < len(t.order):
        s = t.order[t.pos]
        if s in table.removed:
            t.pos += 1
            continue
        if not table.hands[s]:
            t.passed.append(s)
            events.append(Event("pass", f"{SEAT_REF[s]} has no cards and passes.", {"seat": s, "trick": t.number}))
            t.pos += 1
            continue
        return events
    return events + resolve_trick(table)


def cast_spell(table: MagicDuelTable, seat: int, action: PlayCards) -> list[Event]:
    """``seat`` casts its spell (checked) into the trick."""
    t = table.trick
    assert t is not None
    hand = table.hands[seat]
    cards = action.cards
    for c in cards:
        hand.remove(c)
    combo = classify(cards)
    assert combo is not None
    risk = action.risk
    if risk is not None:
        hand.remove(risk)
        table.risk.insert(0, risk)
        t.plays.append(TrickPlay(seat, combo, risk))
    else:
        t.plays.append(TrickPlay(seat, combo))
    events = _say_cast(table, t, seat, combo, risk, len(hand)) if table.narrate else []
    t.pos += 1
    order = t.order
    if t.pos < len(order) and table.hands[order[t.pos]] and not table.removed:
        return events  # the next seat casts (the common case)
    events += advance_trick(table)
    return events


def _say_cast(
    table: MagicDuelTable, t: Trick, seat: int, combo: Combo, risk: str | None, hand_size: int
) -> list[Event]:
    """The public and the private event of a cast."""
    title = combo.title
    if risk is not None:
        return [
            Event(
                "play_face_up",
                f"{SEAT_REF[seat]} puts a card face-down on the Deck of Risk and casts face-up: {combo.description}.",
                {
                    "seat": seat,
                    "trick": t.number,
                    "cards": list(combo.cards),
                    "combination": title,
                    "count": len(combo.cards),
                    "risk": True,
                    "risk_deck": len(table.risk),
                    "hand_size": hand_size,
                },
            ),
            Event(
                "risk_private",
                f"You put {LABEL.get(risk) or label(risk)} on the Deck of Risk.",
                {"seat": seat, "card": risk},
                ONLY_SEAT[seat],
            ),
        ]
    n = len(combo.cards)
    return [
        Event(
            "play_face_down",
            f"{SEAT_REF[seat]} casts a spell face-down ({plural(n, 'card')}).",
            {"seat": seat, "trick": t.number, "count": n, "risk": False, "hand_size": hand_size},
        ),
        Event(
            "play_private",
            f"You cast {combo.description} face-down.",
            {"seat": seat, "cards": list(combo.cards), "combination": title},
            ONLY_SEAT[seat],
        ),
    ]


# ------------------------------------------------------------------ the reveal
def resolve_trick(table: MagicDuelTable) -> list[Event]:
    """Reveal the spells: a tie is cast again; a winner gathers the trick, then the draws (or,
    after the last trick, the scoring)."""
    t = table.trick
    assert t is not None
    tplays = t.plays
    if not tplays:
        # nobody holds a card (possible only after the Cursed Spell): the hand ends
        events = [Event("no_trick", "Nobody has a card left to cast; the hand ends.", {"trick": t.number})]
        table.trick = None
        return events + end_hand(table)
    hands = table.hands
    deadlock = all(len(p.combo.cards) == 1 and not hands[p.seat] for p in tplays)
    verdict = resolve(tplays, deadlock=deadlock)
    reveal = [p.to_json() for p in tplays]
    hand_no = table.hand_no
    events = []
    if table.narrate:
        text = "; ".join([f"{SEAT_REF[p.seat]}: {p.combo.description}" for p in tplays])
        data = {"hand": hand_no, "trick": t.number, "replay": t.replay, "last": t.last, "plays": reveal}
        events.append(Event("reveal", f"The spells are revealed: {text}.", data))
    record: TrickRecord = {
        "hand": hand_no,
        "trick": t.number,
        "replay": t.replay,
        "last": t.last,
        "plays": reveal,
        "passed": list(t.passed),
        "rule": verdict.rule,
        "reason": verdict.text,
        "winner": None,
        "tied": True,
    }
    if verdict.winner is None:
        for p in tplays:
            hands[p.seat].extend(p.combo.cards)
        table.last_trick = record
        events.append(
            Event(
                "trick_tied",
                verdict.text,
                {
                    "hand": hand_no,
                    "trick": t.number,
                    "rule": verdict.rule,
                    "replay": t.replay + 1,
                    "badef": [p.seat for p in tplays if p.combo.kind is Kind.BADEF],
                    "against": None if verdict.runner_up is None else tplays[verdict.runner_up].seat,
                    "reason": verdict.text,
                },
            )
        )
        events.append(
            Event(
                "replay",
                f"Trick {t.number} is cast again, {SEAT_REF[table.leader]} first.",
                {"trick": t.number, "replay": t.replay + 1, "leader": table.leader},
            )
        )
        return events + start_trick(table, t.number, t.last, t.replay + 1)
    win = tplays[verdict.winner]
    cards = [c for p in tplays for c in p.combo.cards]
    table.gathered[win.seat].append(cards)
    table.trick = None
    title = win.combo.title
    runner_up = None if verdict.runner_up is None else tplays[verdict.runner_up].seat
    record["winner"] = win.seat
    record["tied"] = False
    record["combination"] = title
    record["runner_up"] = runner_up
    table.last_trick = record
    if table.narrate:
        counts = [len(g) for g in table.gathered]
        events.append(
            Event(
                "trick_won",
                f"{verdict.text} {SEAT_REF[win.seat]} gathers the trick ({len(cards)} cards).",
                {
                    "hand": hand_no,
                    "trick": t.number,
                    "winner": win.seat,
                    "cards": list(win.combo.cards),
                    "combination": title,
                    "rule": verdict.rule,
                    "runner_up": runner_up,
                    "kings_out": [tplays[i].seat for i in verdict.kings_out],
                    "reason": verdict.text,
                    "gathered": len(cards),
                    "tricks": counts,
                    "last": t.last,
                },
            )
        )
    if t.last:
        return events + end_hand(table)
    table.trick_winner = win.seat
    table.phase = Phase.DRAW
    removed = table.removed
    table.draw_queue = [s for s in t.order if s not in removed] if removed else list(t.order)
    table.next_trick = t.number + 1
    return events + advance_draw(table)


# ------------------------------------------------------------------ between tricks, and the end of the hand
def advance_draw(table: MagicDuelTable) -> list[Event]:
    """Draw for the seats with only one choice; once all have drawn, the winner takes the extra
    card of advantage and leads the next trick."""
    events: list[Event] = []
    queue = table.draw_queue
    removed = table.removed
    while queue and table.cursed_by is None:
        s = queue[0]
        need = HAND_SIZE - len(table.hands[s])
        if need <= 0 or s in removed:
            queue.pop(0)
            continue
        if not table.risk:  # only one choice: everything from the Deck of Advantage
            events += draw(table, s, 0, need)
            queue.pop(0)
            continue
        return events
    table.draw_queue = []
    w = table.trick_winner
    assert w is not None
    if not table.closed and w not in table.removed:
        events += draw(table, w, 0, 1, extra=True)
    table.leader = w if w not in table.removed else table.next_active_after(w)
    table.trick_winner = None
    return events + start_trick(table, table.next_trick, last=table.closed)


def end_hand(table: MagicDuelTable) -> list[Event]:
    """Score the hand: the game ends, or the next deal is awaited."""
    active = table.active
    table.last_scoring, text = score_hand(table.hand_no, table.tricks_count(), active, table.points)
    events = [Event("hand_scored", text, dict(table.last_scoring))]
    table.trick = None
    if any(table.points[s] >= table.points_to_win for s in active):
        return events + table.finish(final_outcome(table.points, active, table.removed))
    table.hand_leader = table.next_active_after(table.hand_leader)
    table.phase = Phase.DEAL
    table.hands = [[] for _ in range(table.num_seats)]
    table.risk, table.advantage, table.set_aside = [], [], []
    table.gathered = [[] for _ in range(table.num_seats)]
    table.cursed_by = None
    return events
