"""One Wizards Cup duel being resolved (rulebook step 3): criterion A (Magic powers, in precedence
order), B (Element) and C (Value), then the end of the duel.

A :class:`Duel` is created when both players have a Wizard in the Duel zone and lives until the
duel is decided; it pauses when a "may" power (The Botanist) waits for its owner's decision.

This is the engine's hot loop (a random playout resolves some 15 duels): the steps append their
events to a list the caller passes in, card data is read from plain attributes (``Card.active``,
``Card.element_name``...), and the rarely-changed collections are immutable tuples/frozensets
replaced on change, so that copying a duel costs next to nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core import Event, seat_ref
from .cards import ELEMENT_NAME_BEATS, Card, CardSet
from .player import PlayerState

#: The placeholders of the seats' names in event texts ("{p1}", "{p2}").
REF = (seat_ref(0), seat_ref(1))

Inst = tuple[int, str]  # a card in play: (seat, card id); a seat's 18 cards are all different

_NO_INSTS: frozenset[Inst] = frozenset()
_VOID = "Void"  # Element.VOID.value: what The Alchemist's target counts as
_NO_MODS: list[str] = []  # no Value modifiers (never changed)
_STAYS = "stays in the Duel zone."


def note(text: str, **data: Any) -> Event:
    """A public "power" event."""
    return Event("power", text, data)


@dataclass(slots=True)
class Duel:
    """The duel in progress: which cards entered the Duel zone, the powers still to resolve, the
    Permanent powers in effect, a verdict a power gave, and the seat whose decision is awaited."""

    number: int  # 1, 2, ... within the round
    round: int
    players: list[PlayerState]  # the state's players (shared, not copied)
    cards: CardSet
    by_id: Mapping[str, Card]  # cards.by_id
    entered: tuple[Inst, ...]  # cards that entered the Duel zone this duel
    queue: list[Inst]  # powers still to resolve, in precedence order (Immediate and Permanent only)
    permanents: tuple[Inst, ...] = ()  # Permanent powers in effect, in order
    powerless: frozenset[Inst] = _NO_INSTS  # identical names
    void: frozenset[Inst] = _NO_INSTS  # counts as Void (The Alchemist)
    verdict_losers: tuple[Inst, ...] | None = None  # by seat
    verdict_reason: str = ""
    choice_seat: int | None = None  # a Botanist decision is awaited

    @classmethod
    def start(cls, number: int, round_: int, players: list[PlayerState], cards: CardSet, events: list[Event]) -> Duel:
        """Step 3.2: each player without a Wizard in the Duel zone reveals the top card of their
        Deck (both can: the caller checked). Appends the events to ``events``."""
        by_id = cards.by_id
        p0, p1 = players
        a, b = p0.duel, p1.duel
        entered: tuple[Inst, ...]
        queue: list[Inst] = []  # only Immediate and Permanent powers: the others do nothing
        if a is None:
            a = p0.duel = p0.pile.pop(0)
            card_a = by_id[a]
            if b is None:
                b = p1.duel = p1.pile.pop(0)
                card_b = by_id[b]
                text = f"Duel {number}: {REF[0]} reveals {card_a.name}. {REF[1]} reveals {card_b.name}."
                revealed = [{"seat": 0, "card": a}, {"seat": 1, "card": b}]
                entered = ((0, a), (1, b))
                # Precedence: lower printed Value first; equal printed Values: the challenger's card first.
                if card_b.value < card_a.value:
                    if card_b.active:
                        queue.append(entered[1])
                    if card_a.active:
                        queue.append(entered[0])
                else:
                    if card_a.active:
                        queue.append(entered[0])
                    if card_b.active:
                        queue.append(entered[1])
            else:
                card_b = by_id[b]
                text = f"Duel {number}: {REF[0]} reveals {card_a.name}. {card_b.name} of {REF[1]} {_STAYS}"
                revealed = [{"seat": 0, "card": a}]
                entered = ((0, a),)
                # Powers already in play first (a Permanent power that stayed), then the new card.
                if card_b.permanent:
                    queue.append((1, b))
                if card_a.active:
                    queue.append(entered[0])
        else:
            card_a = by_id[a]
            if b is None:
                b = p1.duel = p1.pile.pop(0)
                card_b = by_id[b]
                text = f"Duel {number}: {REF[1]} reveals {card_b.name}. {card_a.name} of {REF[0]} {_STAYS}"
                revealed = [{"seat": 1, "card": b}]
                entered = ((1, b),)
                if card_a.permanent:
                    queue.append((0, a))
                if card_b.active:
                    queue.append(entered[0])
            else:  # both stayed (only in arranged test states)
                card_b = by_id[b]
                both = f"{card_a.name} of {REF[0]} {_STAYS} {card_b.name} of {REF[1]} {_STAYS}"
                text = f"Duel {number}: {both.strip()}"
                revealed = []
                entered = ()
                queue = [i for i, c in (((0, a), card_a), ((1, b), card_b)) if c.permanent]
        events.append(
            Event("duel_start", text, {"duel": number, "round": round_, "cards": [a, b], "entered": revealed})
        )
        if a == b:
            # "Wizards with identical names in the Duel zone lose their Magic powers."
            events.append(note(f"Both Wizards are {card_a.name}: identical names lose their Magic powers."))
            return cls(number, round_, players, cards, by_id, entered, queue, (), frozenset({(0, a), (1, b)}))
        return cls(number, round_, players, cards, by_id, entered, queue)

    def copy(self, players: list[PlayerState]) -> Duel:
        """An independent copy that acts on ``players`` (a copy of the state's players)."""
        return Duel(
            self.number,
            self.round,
            players,
            self.cards,
            self.by_id,
            self.entered,
            list(self.queue),
            self.permanents,
            self.powerless,
            self.void,
            self.verdict_losers,
            self.verdict_reason,
            self.choice_seat,
        )

    def resolve_powers(self, events: list[Event]) -> None:
        """Criterion A: activate the queued powers in precedence order, until a player's decision
        is needed (``choice_seat``) or none is left."""
        queue = self.queue
        by_id = self.by_id
        while queue and self.choice_seat is None:
            seat, card_id = queue.pop(0)
            self._activate(seat, by_id[card_id], events)

    def _cancelled(self, seat: int, card_id: str) -> bool:
        """Whether the power of ``seat``'s ``card_id`` has no effect now: identical names, or an
        opposing Archmage whose Permanent power is in effect."""
        if self.powerless and (seat, card_id) in self.powerless:
            return True
        opp_id = self.players[1 - seat].duel
        if opp_id is None or self.by_id[opp_id].effect != "cancel_opponent_power":
            return False
        opp = (1 - seat, opp_id)
        return opp in self.permanents and opp not in self.powerless

    # ------------------------------------------------------------------ criterion A: powers
    def _activate(self, seat: int, card: Card, events: list[Event]) -> None:
        """Activate ``seat``'s ``card`` (an Immediate or Permanent power) if it is still in the
        Duel zone and not cancelled."""
        card_id = card.id
        if self.players[seat].duel != card_id or self._cancelled(seat, card_id):
            return  # left the Duel zone; or identical names or the Archmage, already announced
        if card.permanent:
            self.permanents += ((seat, card_id),)
            if card.effect == "cancel_opponent_power":
                opp_id = self.players[1 - seat].duel
                if opp_id is not None and self.by_id[opp_id].active:
                    events.append(
                        note(
                            f"The Archmage: {self.by_id[opp_id].name}'s power has no effect.",
                            seat=seat,
                            card=card_id,
                        )
                    )
            return
        if (seat, card_id) not in self.entered:  # an Immediate power triggers only once, on entry
            return
        IMMEDIATE_EFFECTS[card.effect or ""](self, seat, card, events)

    def _fx_both_lose(self, seat: int, card: Card, events: list[Event]) -> None:
        if self.verdict_losers is not None:
            events.append(note(f"{card.name}: the duel is already decided; nothing more happens."))
            return
        self.verdict_losers = tuple((s, c) for s, c in enumerate((self.players[0].duel, self.players[1].duel)) if c)
        self.verdict_reason = f"{card.name}: both Wizards lose"
        events.append(note(f"{card.name}: both Wizards lose the duel.", seat=seat, card=card.id))

    def _fx_swap_with_waiting(self, seat: int, card: Card, events: list[Event]) -> None:
        p = self.players[seat]
        if p.waiting is None:
            events.append(note(f"{card.name}: {REF[seat]} has no Waiting card; nothing happens."))
            return
        newcomer = p.waiting
        p.waiting, p.duel, p.waiting_known = card.id, newcomer, True
        self.entered += ((seat, newcomer),)
        new_card = self.by_id[newcomer]
        events.append(
            note(
                f"{card.name} trades places with {REF[seat]}'s Waiting card: {new_card.name} enters the Duel.",
                seat=seat,
                card=card.id,
                entered=newcomer,
            )
        )
        opp_id = self.players[1 - seat].duel
        if opp_id == newcomer:
            # FAQ: "if this newly-placed card is identical to the one it encounters in the duel,
            # neither card's Magic power is activated"
            self.powerless = self.powerless | {(seat, newcomer), (1 - seat, opp_id)}
            events.append(note(f"Both Wizards are {new_card.name}: identical names lose their Magic powers."))
            return
        # FAQ: "Do I activate the Magic power of the Waiting card placed by The Detective? Yes,
        # activate it when the card is placed."
        if new_card.active:
            self._activate(seat, new_card, events)

    def _fx_opponent_counts_as(self, seat: int, card: Card, events: list[Event]) -> None:
        opp_id = self.players[1 - seat].duel
        if opp_id is None:
            return
        self.void = self.void | {(1 - seat, opp_id)}
        element = card.params.get("element", "Void")
        events.append(note(f"{card.name}: {self.by_id[opp_id].name} counts as {element} in this duel.", seat=seat))

    def _fx_recycle_discard_top(self, seat: int, card: Card, events: list[Event]) -> None:
        p = self.players[seat]
        if not p.discard:
            events.append(note(f"{card.name}: {REF[seat]}'s discard pile is empty; nothing happens."))
            return
        moved = p.discard.pop()
        p.pile.append(moved)
        events.append(
            note(
                f"{card.name}: {self.by_id[moved].name} goes from {REF[seat]}'s discard pile "
                "to the bottom of their Deck.",
                seat=seat,
                moved=moved,
            )
        )

    def _fx_may_discard_waiting(self, seat: int, card: Card, events: list[Event]) -> None:
        if self.players[seat].waiting is None:
            events.append(note(f"{card.name}: {REF[seat]} has no Waiting card to discard."))
            return
        self.choice_seat = seat  # "You may": the owner decides (a follow-up prompt)
        events.append(
            Event(
                "choice",
                f"{card.name}: {REF[seat]} decides whether to discard their Waiting card.",
                {"seat": seat, "card": card.id},
            )
        )

    def botanist_discard(self, seat: int, discard: bool, events: list[Event]) -> None:
        p = self.players[seat]
        if not discard or p.waiting is None:
            events.append(note(f"The Botanist: {REF[seat]} keeps their Waiting card.", seat=seat))
            return
        card = p.waiting
        p.discard.append(card)
        p.waiting, p.waiting_known = None, False
        events.append(
            note(
                f"The Botanist: {REF[seat]} discards their Waiting card, {self.by_id[card].name}.",
                seat=seat,
                discarded=card,
            )
        )

    # ------------------------------------------------------------------ criteria B and C
    def _decide(self, a: str, b: str, card_a: Card, card_b: Card, notes: list[Event]) -> tuple[str, list[int], str]:
        """(criterion, loser seats, reason) for the current duel of ``a`` (seat 0's Wizard,
        ``card_a``) and ``b`` (seat 1's, ``card_b``); notes about it are appended to ``notes``."""
        players = self.players
        if self.verdict_losers is not None:
            losers = [s for s, c in self.verdict_losers if players[s].duel == c]
            if losers:
                return "power", losers, self.verdict_reason
        by_id = self.by_id
        # B. Element
        void = self.void
        ea = _VOID if void and (0, a) in void else card_a.element_name
        eb = _VOID if void and (1, b) in void else card_b.element_name
        if (ea, eb) in ELEMENT_NAME_BEATS:
            if card_b.effect != "no_elemental_weakness" or self._cancelled(1, b):
                return "element", [1], f"{ea} beats {eb}"
            notes.append(note(f"{card_b.name} has no elemental weakness: {ea} does not beat it."))
        elif (eb, ea) in ELEMENT_NAME_BEATS:
            if card_a.effect != "no_elemental_weakness" or self._cancelled(0, a):
                return "element", [0], f"{eb} beats {ea}"
            notes.append(note(f"{card_a.name} has no elemental weakness: {eb} does not beat it."))
        # C. Value (after Dormant powers); Permanent powers acting on Values, in precedence order
        p0, p1 = players
        d0, d1 = p0.discard, p1.discard
        mods: list[str]
        if (d0 and by_id[d0[-1]].value_effect) or (d1 and by_id[d1[-1]].value_effect):
            va, ma = _value(by_id, card_a.value, d0, d1)
            vb, mb = _value(by_id, card_b.value, d1, d0)
            mods = ma + mb
            if len(mods) > 1:  # say which Wizard each modifier applies to
                mods = [f"{m} on {card_a.name}" for m in ma] + [f"{m} on {card_b.name}" for m in mb]
        else:  # no Dormant power on top of a discard pile changes a Value
            va, vb, mods = card_a.value, card_b.value, _NO_MODS
        for seat, card_id in self.permanents:
            if players[seat].duel != card_id or self._cancelled(seat, card_id):
                continue
            card = by_id[card_id]
            if card.effect == "lower_value_wins":
                if va == vb:
                    notes.append(note(f"{card.name}: equal Values, so no lower Value wins."))
                    continue
                low, high = (vb, va) if va > vb else (va, vb)
                return (
                    "value",
                    [0 if va > vb else 1],
                    _with_mods(f"{card.name}: the lower Value wins", mods, f"{low} against {high}"),
                )
            if card.effect == "wins_on_value":
                mine, theirs = (va, vb) if seat == 0 else (vb, va)
                return (
                    "value",
                    [1 - seat],
                    _with_mods(f"{card.name} wins when Values decide", mods, f"{mine} against {theirs}"),
                )
        if va == vb:
            return "value", [0, 1], _with_mods("Equal Values, both Wizards lose", mods, f"{va} against {vb}")
        if va > vb:
            return "value", [1], _with_mods("", mods, f"{va} against {vb}") if mods else f"{va} against {vb}"
        return "value", [0], _with_mods("", mods, f"{vb} against {va}") if mods else f"{vb} against {va}"

    def decide_and_end(self, events: list[Event]) -> None:
        """Decide the duel, then step 3 (End of the duel)."""
        p0, p1 = self.players
        a, b = p0.duel, p1.duel
        assert a is not None and b is not None
        by_id = self.by_id
        card_a, card_b = by_id[a], by_id[b]
        criterion, loser_seats, reason = self._decide(a, b, card_a, card_b, events)
        number = self.number
        winner: int | None
        if len(loser_seats) == 2:
            winner = None
            text = f"Duel {number}: Both {card_a.name} and {card_b.name} lose: {reason}."
        elif loser_seats[0] == 1:
            winner = 0
            text = f"Duel {number}: {card_a.name} of {REF[0]} beats {card_b.name} of {REF[1]}: {reason}."
        else:
            winner = 1
            text = f"Duel {number}: {card_b.name} of {REF[1]} beats {card_a.name} of {REF[0]}: {reason}."
        events.append(
            Event(
                "duel",
                text,
                {
                    "duel": number,
                    "round": self.round,
                    "cards": [a, b],
                    "criterion": criterion,
                    "reason": reason,
                    "winner": winner,
                    "losers": loser_seats,
                },
            )
        )
        # 3.1 "when it wins" effects first (FAQ: before the losing Wizard is discarded)
        if winner is not None:
            winning = card_a if winner == 0 else card_b
            if winning.effect == "on_win_opponent_discards_top" and not self._cancelled(winner, winning.id):
                self._revolution(winner, events)
        for seat in loser_seats:
            p = p0 if seat == 0 else p1
            assert p.duel is not None
            p.discard.append(p.duel)
            p.duel = None

    def _revolution(self, seat: int, events: list[Event]) -> None:
        opp = self.players[1 - seat]
        by_id = self.by_id
        name = by_id[self.players[seat].duel or ""].name
        if opp.discard and by_id[opp.discard[-1]].effect == "protect_from_discard":
            events.append(note(f"{name}: {by_id[opp.discard[-1]].name} protects {REF[1 - seat]}'s Deck."))
            return
        if not opp.pile:
            events.append(note(f"{name}: {REF[1 - seat]}'s Deck is empty; nothing to discard."))
            return
        card = opp.pile.pop(0)
        opp.discard.append(card)
        events.append(
            note(
                f"{name}: {REF[1 - seat]} discards the top card of their Deck, {by_id[card].name}.",
                seat=1 - seat,
                discarded=card,
            )
        )


def _value(by_id: Mapping[str, Card], value: int, own: list[str], theirs: list[str]) -> tuple[int, list[str]]:
    """A Wizard's Value (printed ``value``) after the Dormant powers on top of both discard
    piles (``own``: its player's, ``theirs``: the opponent's), with the modifiers' texts."""
    mods: list[str] = []
    if own:
        top = by_id[own[-1]]
        effect = top.effect
        if effect == "own_value_bonus":
            value += top.params["amount"]
            mods.append(f"{top.name} {top.params['amount']:+d}")
        elif effect == "own_value_per_discard":
            bonus = top.params["per_card"] * len(own)
            value += bonus
            mods.append(f"{top.name} {bonus:+d}")
    if theirs:
        top = by_id[theirs[-1]]
        if top.effect == "opponent_value_bonus":
            value += top.params["amount"]
            mods.append(f"{top.name} {top.params['amount']:+d}")
    return value, mods


def _with_mods(head: str, mods: list[str], values: str) -> str:
    """E.g. "The Mentor +2: 7 against 6" or "The Matron: the lower Value wins (The Jester -2: 3 against 4)"."""
    tail = f"{', '.join(mods)}: {values}" if mods else values
    if not head:
        return tail
    return f"{head} ({tail})" if mods else f"{head}, {values}"


#: The Immediate powers, by the ``effect`` of the card data.
IMMEDIATE_EFFECTS: dict[str, Callable[[Duel, int, Card, list[Event]], None]] = {
    "both_lose": Duel._fx_both_lose,
    "swap_with_waiting": Duel._fx_swap_with_waiting,
    "opponent_counts_as": Duel._fx_opponent_counts_as,
    "recycle_discard_top": Duel._fx_recycle_discard_top,
    "may_discard_waiting": Duel._fx_may_discard_waiting,
}
