"""One Wizards Cup duel being resolved (rulebook step 3): criterion A (Magic powers, in precedence
order), B (Element) and C (Value), then the end of the duel.

A :class:`Duel` is created when both players have a Wizard in the Duel zone and lives until the
duel is decided; it pauses when a "may" power (The Botanist) waits for its owner's decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core import Event, seat_ref
from .cards import ELEMENT_BEATS, Card, CardSet, Element, PowerKind
from .player import PlayerState

#: The placeholders of the seats' names in event texts ("{p1}", "{p2}").
REF = (seat_ref(0), seat_ref(1))

Inst = tuple[int, str]  # a card in play: (seat, card id); a seat's 18 cards are all different


@dataclass(slots=True)
class Duel:
    """The duel in progress: which cards entered the Duel zone, the powers still to resolve, the
    Permanent powers in effect, a verdict a power gave, and the seat whose decision is awaited."""

    number: int  # 1, 2, ... within the round
    round: int
    players: list[PlayerState]  # the state's players (shared, not copied)
    cards: CardSet
    entered: set[Inst] = field(default_factory=set)  # cards that entered the Duel zone this duel
    queue: list[Inst] = field(default_factory=list)  # powers still to resolve, in precedence order
    permanents: list[Inst] = field(default_factory=list)  # Permanent powers in effect, in order
    powerless: set[Inst] = field(default_factory=set)  # identical names
    void: set[Inst] = field(default_factory=set)  # counts as Void (The Alchemist)
    verdict_losers: frozenset[Inst] | None = None
    verdict_reason: str = ""
    choice_seat: int | None = None  # a Botanist decision is awaited
    card: Callable[[str], Card] = field(init=False, repr=False, compare=False)  # a card by id

    def __post_init__(self) -> None:
        self.card = self.cards.by_id.__getitem__

    @classmethod
    def start(cls, number: int, round_: int, players: list[PlayerState], cards: CardSet) -> tuple[Duel, list[Event]]:
        """Step 3.2: each player without a Wizard in the Duel zone reveals the top card of their
        Deck (both can: the caller checked)."""
        duel = cls(number, round_, players, cards)
        card = duel.card
        entered: list[Inst] = []  # by seat
        stayed: list[Inst] = []
        revealed: list[dict[str, Any]] = []
        reveals: list[str] = []
        stays: list[str] = []
        for seat, p in enumerate(players):
            if p.duel is None:
                c = p.duel = p.pile.pop(0)
                entered.append((seat, c))
                revealed.append({"seat": seat, "card": c})
                reveals.append(f"{REF[seat]} reveals {card(c).name}.")
            else:
                stayed.append((seat, p.duel))
                stays.append(f" {card(p.duel).name} of {REF[seat]} stays in the Duel zone.")
        duel.entered.update(entered)
        a, b = players[0].duel, players[1].duel
        assert a is not None and b is not None
        text = " ".join(reveals) + "".join(stays)
        events = [
            Event(
                "duel_start",
                f"Duel {number}: {text.strip()}",
                {"duel": number, "round": round_, "cards": [a, b], "entered": revealed},
            )
        ]
        if a == b:
            # "Wizards with identical names in the Duel zone lose their Magic powers."
            duel.powerless |= {(0, a), (1, b)}
            events.append(duel._note(f"Both Wizards are {card(a).name}: identical names lose their Magic powers."))
        # Precedence: powers already in play first (a Permanent power that stayed), then the new
        # cards, lower printed Value first; equal printed Values: the challenger's card first.
        queue = [i for i in stayed if card(i[1]).power is PowerKind.PERMANENT]
        if len(entered) == 2 and card(entered[1][1]).value < card(entered[0][1]).value:
            entered.reverse()
        queue += entered
        duel.queue = queue
        return duel, events

    def copy(self, players: list[PlayerState]) -> Duel:
        """An independent copy that acts on ``players`` (a copy of the state's players)."""
        return Duel(
            self.number,
            self.round,
            players,
            self.cards,
            set(self.entered),
            list(self.queue),
            list(self.permanents),
            set(self.powerless),
            set(self.void),
            self.verdict_losers,
            self.verdict_reason,
            self.choice_seat,
        )

    def resolve_powers(self) -> list[Event]:
        """Criterion A: activate the queued powers in precedence order, until a player's decision
        is needed (``choice_seat``) or none is left."""
        events: list[Event] = []
        while self.queue and self.choice_seat is None:
            events += self._activate(*self.queue.pop(0))
        return events

    def _note(self, text: str, **data: Any) -> Event:
        return Event("power", text, data)

    def _inst(self, seat: int) -> Inst | None:
        card = self.players[seat].duel
        return (seat, card) if card is not None else None

    def _cancelled(self, inst: Inst) -> bool:
        """Whether ``inst``'s power has no effect now: identical names, or an opposing Archmage
        whose Permanent power is in effect."""
        if inst in self.powerless:
            return True
        opp = self._inst(1 - inst[0])
        return (
            opp is not None
            and opp in self.permanents
            and opp not in self.powerless
            and self.card(opp[1]).effect == "cancel_opponent_power"
        )

    def _in_duel(self, inst: Inst) -> bool:
        return self.players[inst[0]].duel == inst[1]

    # ------------------------------------------------------------------ criterion A: powers
    def _activate(self, seat: int, card_id: str) -> list[Event]:
        card = self.card(card_id)
        if card.power is None or card.power is PowerKind.DORMANT:
            return []
        inst = (seat, card_id)
        if not self._in_duel(inst):
            return []
        if self._cancelled(inst):
            return []  # identical names or the Archmage, already announced
        if card.power is PowerKind.PERMANENT:
            self.permanents.append(inst)
            if card.effect == "cancel_opponent_power":
                opp = self._inst(1 - seat)
                if opp and self.card(opp[1]).power in (PowerKind.IMMEDIATE, PowerKind.PERMANENT):
                    return [
                        self._note(
                            f"The Archmage: {self.card(opp[1]).name}'s power has no effect.",
                            seat=seat,
                            card=card_id,
                        )
                    ]
            return []
        if inst not in self.entered:  # an Immediate power triggers only once, on entry
            return []
        effect = IMMEDIATE_EFFECTS[card.effect or ""]
        return effect(self, seat, card)

    def _fx_both_lose(self, seat: int, card: Card) -> list[Event]:
        if self.verdict_losers is not None:
            return [self._note(f"{card.name}: the duel is already decided; nothing more happens.")]
        losers = frozenset(i for i in (self._inst(0), self._inst(1)) if i is not None)
        self.verdict_losers = losers
        self.verdict_reason = f"{card.name}: both Wizards lose"
        return [self._note(f"{card.name}: both Wizards lose the duel.", seat=seat, card=card.id)]

    def _fx_swap_with_waiting(self, seat: int, card: Card) -> list[Event]:
        p = self.players[seat]
        if p.waiting is None:
            return [self._note(f"{card.name}: {REF[seat]} has no Waiting card; nothing happens.")]
        newcomer = p.waiting
        p.waiting, p.duel, p.waiting_known = card.id, newcomer, True
        self.entered.add((seat, newcomer))
        events = [
            self._note(
                f"{card.name} trades places with {REF[seat]}'s Waiting card: "
                f"{self.card(newcomer).name} enters the Duel.",
                seat=seat,
                card=card.id,
                entered=newcomer,
            )
        ]
        opp = self._inst(1 - seat)
        if opp is not None and opp[1] == newcomer:
            # FAQ: "if this newly-placed card is identical to the one it encounters in the duel,
            # neither card's Magic power is activated"
            self.powerless |= {(seat, newcomer), opp}
            events.append(
                self._note(f"Both Wizards are {self.card(newcomer).name}: identical names lose their Magic powers.")
            )
            return events
        # FAQ: "Do I activate the Magic power of the Waiting card placed by The Detective? Yes,
        # activate it when the card is placed."
        return events + self._activate(seat, newcomer)

    def _fx_opponent_counts_as(self, seat: int, card: Card) -> list[Event]:
        opp = self._inst(1 - seat)
        if opp is None:
            return []
        self.void.add(opp)
        element = card.params.get("element", "Void")
        return [self._note(f"{card.name}: {self.card(opp[1]).name} counts as {element} in this duel.", seat=seat)]

    def _fx_recycle_discard_top(self, seat: int, card: Card) -> list[Event]:
        p = self.players[seat]
        if not p.discard:
            return [self._note(f"{card.name}: {REF[seat]}'s discard pile is empty; nothing happens.")]
        moved = p.discard.pop()
        p.pile.append(moved)
        return [
            self._note(
                f"{card.name}: {self.card(moved).name} goes from {REF[seat]}'s discard pile "
                "to the bottom of their Deck.",
                seat=seat,
                moved=moved,
            )
        ]

    def _fx_may_discard_waiting(self, seat: int, card: Card) -> list[Event]:
        if self.players[seat].waiting is None:
            return [self._note(f"{card.name}: {REF[seat]} has no Waiting card to discard.")]
        self.choice_seat = seat  # "You may": the owner decides (a follow-up prompt)
        return [
            Event(
                "choice",
                f"{card.name}: {REF[seat]} decides whether to discard their Waiting card.",
                {"seat": seat, "card": card.id},
            )
        ]

    def botanist_discard(self, seat: int, discard: bool) -> list[Event]:
        p = self.players[seat]
        if not discard or p.waiting is None:
            return [self._note(f"The Botanist: {REF[seat]} keeps their Waiting card.", seat=seat)]
        card = p.waiting
        p.discard.append(card)
        p.waiting, p.waiting_known = None, False
        return [
            self._note(
                f"The Botanist: {REF[seat]} discards their Waiting card, {self.card(card).name}.",
                seat=seat,
                discarded=card,
            )
        ]

    # ------------------------------------------------------------------ criteria B and C
    def _element(self, inst: Inst) -> Element:
        return Element.VOID if inst in self.void else self.card(inst[1]).element

    def _value(self, seat: int) -> tuple[int, list[str]]:
        """The Wizard's Value after the Dormant powers on top of both discard piles."""
        p, opp = self.players[seat], self.players[1 - seat]
        assert p.duel is not None
        value = self.card(p.duel).value
        mods: list[str] = []
        if p.discard:
            top = self.card(p.discard[-1])
            if top.effect == "own_value_bonus":
                value += top.params["amount"]
                mods.append(f"{top.name} {top.params['amount']:+d}")
            elif top.effect == "own_value_per_discard":
                bonus = top.params["per_card"] * len(p.discard)
                value += bonus
                mods.append(f"{top.name} {bonus:+d}")
        if opp.discard:
            top = self.card(opp.discard[-1])
            if top.effect == "opponent_value_bonus":
                value += top.params["amount"]
                mods.append(f"{top.name} {top.params['amount']:+d}")
        return value, mods

    def _decide(self) -> tuple[str, frozenset[Inst], str, list[Event]]:
        """(criterion, losers, reason, notes) for the current duel."""
        a, b = self._inst(0), self._inst(1)
        assert a is not None and b is not None
        if self.verdict_losers is not None:
            losers = frozenset(i for i in self.verdict_losers if self._in_duel(i))
            if losers:
                return "power", losers, self.verdict_reason, []
        notes: list[Event] = []
        # B. Element
        ea, eb = self._element(a), self._element(b)
        for loser, ew, el in ((b, ea, eb), (a, eb, ea)):
            if (ew, el) in ELEMENT_BEATS:
                lcard = self.card(loser[1])
                if lcard.effect == "no_elemental_weakness" and not self._cancelled(loser):
                    notes.append(self._note(f"{lcard.name} has no elemental weakness: {ew.value} does not beat it."))
                    break
                return "element", frozenset({loser}), f"{ew.value} beats {el.value}", notes
        # C. Value (after Dormant powers); Permanent powers acting on Values, in precedence order
        (va, ma), (vb, mb) = self._value(0), self._value(1)
        mods = ma + mb
        if len(mods) > 1:  # say which Wizard each modifier applies to
            mods = [f"{m} on {self.card(a[1]).name}" for m in ma] + [f"{m} on {self.card(b[1]).name}" for m in mb]
        for inst in self.permanents:
            if not self._in_duel(inst) or self._cancelled(inst):
                continue
            card = self.card(inst[1])
            seat = inst[0]
            mine, theirs = (va, vb) if seat == 0 else (vb, va)
            if card.effect == "lower_value_wins":
                if va == vb:
                    notes.append(self._note(f"{card.name}: equal Values, so no lower Value wins."))
                    continue
                loser = a if va > vb else b
                low, high = min(va, vb), max(va, vb)
                return (
                    "value",
                    frozenset({loser}),
                    _with_mods(f"{card.name}: the lower Value wins", mods, f"{low} against {high}"),
                    notes,
                )
            if card.effect == "wins_on_value":
                loser = b if seat == 0 else a
                return (
                    "value",
                    frozenset({loser}),
                    _with_mods(f"{card.name} wins when Values decide", mods, f"{mine} against {theirs}"),
                    notes,
                )
        if va == vb:
            return (
                "value",
                frozenset({a, b}),
                _with_mods("Equal Values, both Wizards lose", mods, f"{va} against {vb}"),
                notes,
            )
        loser = b if va > vb else a
        high, low = max(va, vb), min(va, vb)
        return "value", frozenset({loser}), _with_mods("", mods, f"{high} against {low}"), notes

    def decide_and_end(self) -> list[Event]:
        """Decide the duel, then step 3 (End of the duel)."""
        criterion, losers, reason, events = self._decide()
        a, b = self.players[0].duel, self.players[1].duel
        assert a is not None and b is not None
        cards = [a, b]
        loser_seats = sorted(s for s, _ in losers)
        winner = 1 - loser_seats[0] if len(loser_seats) == 1 else None
        if winner is None:
            text = f"Both {self.card(a).name} and {self.card(b).name} lose: {reason}."
        else:
            text = (
                f"{self.card(cards[winner]).name} of {REF[winner]} beats "
                f"{self.card(cards[1 - winner]).name} of {REF[1 - winner]}: {reason}."
            )
        events.append(
            Event(
                "duel",
                f"Duel {self.number}: {text}",
                {
                    "duel": self.number,
                    "round": self.round,
                    "cards": cards,
                    "criterion": criterion,
                    "reason": reason,
                    "winner": winner,
                    "losers": loser_seats,
                },
            )
        )
        # 3.1 "when it wins" effects first (FAQ: before the losing Wizard is discarded)
        if winner is not None:
            w = self._inst(winner)
            assert w is not None
            if self.card(w[1]).effect == "on_win_opponent_discards_top" and not self._cancelled(w):
                events += self._revolution(winner)
        for seat in loser_seats:
            p = self.players[seat]
            assert p.duel is not None
            p.discard.append(p.duel)
            p.duel = None
        return events

    def _revolution(self, seat: int) -> list[Event]:
        opp = self.players[1 - seat]
        name = self.card(self.players[seat].duel or "").name
        if opp.discard and self.card(opp.discard[-1]).effect == "protect_from_discard":
            return [self._note(f"{name}: {self.card(opp.discard[-1]).name} protects {REF[1 - seat]}'s Deck.")]
        if not opp.pile:
            return [self._note(f"{name}: {REF[1 - seat]}'s Deck is empty; nothing to discard.")]
        card = opp.pile.pop(0)
        opp.discard.append(card)
        return [
            self._note(
                f"{name}: {REF[1 - seat]} discards the top card of their Deck, {self.card(card).name}.",
                seat=1 - seat,
                discarded=card,
            )
        ]


def _with_mods(head: str, mods: list[str], values: str) -> str:
    """E.g. "The Mentor +2: 7 against 6" or "The Matron: the lower Value wins (The Jester -2: 3 against 4)"."""
    tail = f"{', '.join(mods)}: {values}" if mods else values
    if not head:
        return tail
    return f"{head} ({tail})" if mods else f"{head}, {values}"


#: The Immediate powers, by the ``effect`` of the card data.
IMMEDIATE_EFFECTS: dict[str, Callable[[Duel, int, Card], list[Event]]] = {
    "both_lose": Duel._fx_both_lose,
    "swap_with_waiting": Duel._fx_swap_with_waiting,
    "opponent_counts_as": Duel._fx_opponent_counts_as,
    "recycle_discard_top": Duel._fx_recycle_discard_top,
    "may_discard_waiting": Duel._fx_may_discard_waiting,
}
