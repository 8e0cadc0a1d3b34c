"""Wizards Cup's duels told in full, from the public events of a resolution and the spectator view
after it: for each resolved duel, the two Wizards with their Element and Value as they counted
(after The Alchemist and the Dormant powers on top of the discard piles), every modifier written
out (whose card, on which Wizard, and why), and how the duel was decided.

The rules' events carry what a duel needs but not the discard piles at its decision, so
``duel_stories`` walks the events backwards from the view (undoing each discard they tell), then
forwards. Pure and synchronous: callers run it in a worker thread with the rest of the post.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules import Event
from rules.events import seat_ref
from rules.wizards_cup import Card

from .cards import CARDS

#: How a duel was decided (the ``criterion`` of a ``duel`` event).
CRITERION = {"power": "Magic power", "element": "Element", "value": "Value"}
VOID = "Void"


def short(card: Card) -> str:
    """A card's name without its article: "The Jester" -> "Jester" (for "bob's Jester")."""
    return card.name[4:] if card.name.startswith("The ") else card.name


def whose(seat: int, card_id: str) -> str:
    """``{p1}'s Jester``: a card named with its owner (a placeholder, filled later)."""
    return f"{seat_ref(seat)}'s {short(CARDS[card_id])}"


@dataclass(frozen=True)
class Modifier:
    """A Dormant power on top of ``owner``'s discard pile changing ``target``'s Wizard's Value."""

    owner: int
    card: str  # the Dormant card
    target: int
    wizard: str  # the Wizard whose Value changes
    before: int
    after: int
    why: str = ""  # e.g. "+1 for each of the 3 cards in the pile"

    def text(self) -> str:
        """E.g. ``{p2}'s Jester on top of their discard pile: {p1}'s Archmage 9 -> 7``."""
        why = f" ({self.why})" if self.why else ""
        return (
            f"{whose(self.owner, self.card)} on top of their discard pile{why}: "
            f"{whose(self.target, self.wizard)} {self.before} -> {self.after}"
        )


@dataclass(frozen=True)
class Side:
    """One Wizard of a duel as it counted."""

    seat: int
    card: str
    element: str  # as it counted (Void after The Alchemist)
    value: int  # after the Dormant powers

    @property
    def printed(self) -> Card:
        return CARDS[self.card]


@dataclass(frozen=True)
class DuelStory:
    """A resolved duel: both sides, the modifiers, the criterion and its winner (None: both lose)."""

    round: int
    number: int
    sides: tuple[Side, Side]
    modifiers: tuple[Modifier, ...]
    criterion: str
    winner: int | None
    verdict: str  # how it was decided, in full, with placeholders
    decider: int | None = None  # the seat whose Magic power decided (The Shaman, The Matron...)

    def row(self) -> list[Any]:
        """The JSON-able content of the duel's picture row."""
        sides = [[s.card, s.element, s.value] for s in self.sides]
        return [self.round, self.number, sides, self.criterion, self.winner, self.decider]


def dormant_modifiers(seat: int, wizard: str, piles: Sequence[Sequence[str]]) -> list[Modifier]:
    """The Dormant powers changing ``seat``'s Wizard's Value (rulebook, Dormant power: "applied
    when the card is placed in the discard pile, as long as it is visible"): its owner's top card
    first, then the opponent's (the rules' order)."""
    value = CARDS[wizard].value
    out: list[Modifier] = []
    own, theirs = piles[seat], piles[1 - seat]
    if own:
        top = CARDS[own[-1]]
        if top.effect == "own_value_bonus":
            amount, why = int(top.params["amount"]), ""
        elif top.effect == "own_value_per_discard":
            per = int(top.params["per_card"])
            amount = per * len(own)
            why = (
                f"{per:+d} for each of the {len(own)} cards in the pile"
                if len(own) > 1
                else f"{per:+d} for the 1 card in the pile"
            )
        else:
            amount = 0
        if amount:
            out.append(Modifier(seat, top.id, seat, wizard, value, value + amount, why))
            value += amount
    if theirs:
        top = CARDS[theirs[-1]]
        if top.effect == "opponent_value_bonus":
            amount = int(top.params["amount"])
            out.append(Modifier(1 - seat, top.id, seat, wizard, value, value + amount))
    return out


def _undo(piles: list[list[str]], ev: Event) -> None:
    """Undo on ``piles`` (the discard piles) what ``ev`` did to them."""
    d = ev.data
    if ev.kind == "round_end":
        piles[:] = [list(p) for p in d["discards"]]
    elif ev.kind == "duel":
        for seat in d["losers"]:
            _remove(piles[seat], d["cards"][seat])
    elif ev.kind == "power" and "discarded" in d:  # The Revolutionary's or The Botanist's discard
        _remove(piles[d["seat"]], d["discarded"])
    elif ev.kind == "power" and "moved" in d:  # The Cleric took it back into the Deck
        piles[d["seat"]].append(d["moved"])


def _remove(pile: list[str], card: str) -> None:
    if card in pile:  # a seat's cards are all different
        pile.remove(card)


def piles_at_duels(view: Mapping[str, Any], events: Sequence[Event]) -> dict[int, list[list[str]]]:
    """The discard piles at each ``duel`` event's decision (by its index in ``events``)."""
    piles = [list(p["discard"]) for p in view["players"]]
    out: dict[int, list[list[str]]] = {}
    for i in range(len(events) - 1, -1, -1):
        _undo(piles, events[i])
        if events[i].kind == "duel":
            out[i] = [list(p) for p in piles]
    return out


#: The card whose Immediate power makes the opposing Wizard count as another Element (The Alchemist).
ALCHEMIST = next((c for c in CARDS.cards if c.effect == "opponent_counts_as"), None)


def _counts_as(ev: Event) -> bool:
    """The Alchemist's note: the opposing Wizard counts as another Element in this duel."""
    return (
        ALCHEMIST is not None
        and ev.kind == "power"
        and ev.text.startswith(f"{ALCHEMIST.name}: ")
        and " counts as " in ev.text
    )


class Zone:
    """The Duel zone while a duel is told: its cards, and the Wizards counting as Void."""

    def __init__(self, cards: Sequence[str | None]) -> None:
        self.cards = list(cards)
        self.void: set[tuple[int, str]] = set()

    def follow(self, ev: Event) -> None:
        d = ev.data
        if "entered" in d and "seat" in d and ev.kind == "power":  # The Detective's swap
            self.cards[d["seat"]] = d["entered"]
        elif _counts_as(ev) and "seat" in d:
            opp = 1 - d["seat"]
            if self.cards[opp] is not None:
                self.void.add((opp, str(self.cards[opp])))

    def owned(self, text: str) -> str:
        """An event text with the Duel zone's Wizards named with their owners ("The Archmage" ->
        "{p2}'s Archmage"); identical Wizards are left as they are."""
        a, b = self.cards
        if a is None or b is None or a == b:
            return text
        for seat, card in ((0, a), (1, b)):
            text = text.replace(CARDS[card].name, whose(seat, card))
        return text


def duel_story(ev: Event, zone: Zone, piles: Sequence[Sequence[str]]) -> DuelStory:
    """The story of the ``duel`` event ``ev``, from the Duel zone and discard piles at its decision."""
    d = ev.data
    sides: list[Side] = []
    mods: list[Modifier] = []
    for seat in (0, 1):
        card = d["cards"][seat]
        element = VOID if (seat, card) in zone.void else CARDS[card].element.value
        own = dormant_modifiers(seat, card, piles) if d["criterion"] == "value" else []
        mods += own
        sides.append(Side(seat, card, element, own[-1].after if own else CARDS[card].value))
    a, b = sides
    text, decider = verdict(ev, a, b)
    return DuelStory(d["round"], d["duel"], (a, b), tuple(mods), d["criterion"], d["winner"], text, decider)


def verdict(ev: Event, a: Side, b: Side) -> tuple[str, int | None]:
    """How the duel was decided, naming whose Wizards (placeholders for the names), and the seat
    whose Magic power decided it (None: an Element or plain Values)."""
    d = ev.data
    reason: str = d["reason"]
    criterion = d["criterion"]
    if criterion == "power":
        for side in (a, b):
            if reason.startswith(CARDS[side.card].name + ":"):
                return f"{whose(side.seat, side.card)}: {reason.split(': ', 1)[1]}", side.seat
        return reason, None
    if criterion == "element":
        win, lose = (a, b) if d["winner"] == 0 else (b, a)
        text = f"{win.element} beats {lose.element}: {whose(win.seat, win.card)} over {whose(lose.seat, lose.card)}"
        return text, None
    values = f"{whose(a.seat, a.card)} {a.value} against {whose(b.seat, b.card)} {b.value}"
    for side in (a, b):
        head = CARDS[side.card].name + ":"
        card = CARDS[side.card]
        if reason.startswith(head) and card.effect == "lower_value_wins":
            return f"{whose(side.seat, side.card)} in the Duel zone makes the lower Value win: {values}", side.seat
        if reason.startswith(card.name + " wins when") and card.effect == "wins_on_value":
            return f"{whose(side.seat, side.card)} wins whenever Values decide: {values}", side.seat
    if d["winner"] is None:
        return f"equal Values, both lose: {values}", None
    return values, None


def duel_stories(view: Mapping[str, Any], events: Sequence[Event]) -> dict[int, DuelStory]:
    """The story of every ``duel`` event of ``events`` (by its index)."""
    piles = piles_at_duels(view, events)
    zone = Zone([None, None])
    out: dict[int, DuelStory] = {}
    for i, ev in enumerate(events):
        if ev.kind == "duel_start":
            zone = Zone(ev.data["cards"])
        elif ev.kind == "duel":
            out[i] = duel_story(ev, zone, piles[i])
        else:
            zone.follow(ev)
    return out


__all__ = [
    "CRITERION",
    "DuelStory",
    "Modifier",
    "Side",
    "Zone",
    "dormant_modifiers",
    "duel_stories",
    "piles_at_duels",
    "short",
    "whose",
]
