"""What a Firewall game is made of: the bridge, the two wizards, each player's cards and mana, the
round counters and the turn being resolved, with the queries the rules ask of them.

``FirewallTable`` holds this data; ``state.py`` builds the State on it (decisions, legal actions,
checks, the reveal), ``effects.py`` (what each spell does) and ``rounds.py`` (the end of a turn, of
a round and of the match) change it. The records here (``TurnRecord``, ``EffectRecord``,
``PendingChoice``) are the JSON forms the view shows; a turn's record is kept compact in its
``TurnResolution`` and made into a ``TurnRecord`` only when a view asks (a search never does).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from operator import attrgetter
from typing import Any, Literal, NotRequired, TypedDict, cast

from ..core import Event, Outcome, State, seat_ref
from .actions import Turn
from .game import BRIDGE, GAP, MAX_MANA, RECYCLE_RANGE, START_WALL, Firewall
from .spells import CLONE, DECK, FALSE_CARD, SPELLS

#: How event texts name the seats: "{p1}", "{p2}" (core.seat_ref), filled with names when shown.
WHO = (seat_ref(0), seat_ref(1))
#: The spells' names by number (0 .. 14).
SPELL_NAMES = tuple(SPELLS[n].name for n in range(len(SPELLS)))
#: ``visible_to`` of a seat's private event.
ONLY_SEAT = (frozenset({0}), frozenset({1}))


class Phase(StrEnum):
    SHUFFLE = "shuffle"  # chance: each seat's stock order
    ORDER = "order"  # variant chosen_order: each seat orders its stock (secret)
    TURN = "turn"  # both seats choose a bet and spells (secret)
    FOLLOWUP = "followup"  # a Larceny or Recycle caster decides
    OVER = "over"


@dataclass(slots=True)
class PlayerState:
    wizard: int
    mana: int = MAX_MANA
    stock: list[int] = field(default_factory=list)  # top first
    hand: list[int] = field(default_factory=lambda: [FALSE_CARD])  # sorted; the false card always in it
    discard: list[int] = field(default_factory=list)  # in discard order (bottom .. top)
    in_play: list[int] = field(default_factory=list)  # revealed this turn, not yet discarded
    pending: Turn | None = None  # this turn's secret choice, until the reveal
    last_played: list[int] = field(default_factory=list)  # spells revealed on the previous turn (no 0)
    ordered: bool = False  # the stock order is set (shuffled, or chosen in variant chosen_order)

    def cards(self) -> list[int]:
        """Every real spell (1..14) of this player wherever it is (for the accounting invariant)."""
        return [c for c in self.stock + self.hand + self.discard + self.in_play if c != FALSE_CARD]

    def copy(self) -> PlayerState:
        return PlayerState(
            self.wizard,
            self.mana,
            list(self.stock),
            list(self.hand),
            list(self.discard),
            list(self.in_play),
            self.pending,
            list(self.last_played),
            self.ordered,
        )


@dataclass(slots=True)
class QueuedSpell:
    """A spell waiting to apply this turn."""

    card: int
    owner: int  # whose card it is (it goes back to this player's discard pile)
    caster: int  # for whom it applies
    source: Literal["hand", "clone"] = "hand"
    stolen: bool = False

    def key(self) -> tuple[int, int]:
        """Application order: by number, then seat 0 first (a stable sort keeps copies after)."""
        return (self.card, self.caster)


#: A revealed bet as the opponent model reads it: (mana before the turn, distance from the wall to
#: the bettor's wizard before the turn, the bet as laid, before any Recycle).
BetSeen = tuple[int, int, int]
#: One revealed turn in ``FirewallTable.bets_seen``: (the link before it, seat 0's bet, seat 1's).
BetLink = tuple["BetLink | None", BetSeen, BetSeen]


#: ``QueuedSpell.key`` as a sort key made in C.
QUEUE_ORDER = attrgetter("card", "caster")


class EffectRecord(TypedDict):
    """What one spell did this turn (``resolving`` / ``last_turn`` ``effects``; the ``spell``,
    ``recycle`` and ``larceny`` events' data). The optional keys depend on the spell."""

    card: int
    name: str
    caster: int
    owner: NotRequired[int]
    source: NotRequired[Literal["hand", "clone"]]
    stolen: NotRequired[bool]
    result: str  # applied, no_effect, muted, lost; rebet (Recycle's choice), chosen (Larceny's)
    target: NotRequired[int]  # Clone
    steals: NotRequired[list[int]]  # Larceny
    apply: NotRequired[list[int]]  # Larceny's choice
    discard: NotRequired[list[int]]
    wall_from: NotRequired[int]  # Middle
    wall_to: NotRequired[int]
    bet: NotRequired[int]  # Recycle: the old bet and the range of the new one
    min: NotRequired[int]
    max: NotRequired[int]
    bet_from: NotRequired[int]  # Recycle's choice
    bet_to: NotRequired[int]
    power_from: NotRequired[int]  # Attack Boost, Double Dose
    power_to: NotRequired[int]
    toward_from: NotRequired[int]  # Winner Loses
    toward_to: NotRequired[int]
    steps: NotRequired[int]  # Inferno
    blocked: NotRequired[bool]  # Resistance
    gain: NotRequired[int]  # Reserve Boost, Suction
    mana_from: NotRequired[int]
    mana_to: NotRequired[int]
    capped: NotRequired[bool]


class TurnRecord(TypedDict):
    """A revealed turn as the channel sees it: the bets and spells, then what each spell did, the
    attacks (once settled) and, when the turn is over, what was paid and where the wall went."""

    round: int
    turn: int
    bets: list[int]
    spells: list[list[int]]
    clone: list[int | None]
    cancelled: list[int]
    muted_before: bool
    mana_before: list[int]
    wall_from: int
    effects: list[EffectRecord]
    powers: NotRequired[list[int]]
    paid: NotRequired[list[int]]
    mana_after: NotRequired[list[int]]
    wall_to: NotRequired[int]


class PendingChoice(TypedDict):
    """The follow-up a Larceny or Recycle caster owes: the stolen spells, or the bet and its range."""

    kind: Literal["larceny", "recycle"]
    seat: int
    stolen: NotRequired[list[int]]
    bet: NotRequired[int]
    min: NotRequired[int]
    max: NotRequired[int]


#: One entry of ``TurnResolution.effects``: what a spell did, kept compact - (card, caster, owner,
#: source, stolen, result, the spell's own keys) - or an entry made whole (a follow-up's choice).
EffectEntry = tuple[int, int, int, str, bool, str, dict[str, Any] | None] | EffectRecord


def effect_record(entry: EffectEntry) -> EffectRecord:
    """The JSON form of one effect entry (a fresh dict)."""
    if isinstance(entry, tuple):
        card, caster, owner, source, stolen, result, data = entry
        out: dict[str, Any] = {
            "card": card,
            "name": SPELL_NAMES[card],
            "caster": caster,
            "owner": owner,
            "source": source,
            "stolen": stolen,
            "result": result,
        }
        if data is not None:
            out.update(_copy_json(data))
        return cast(EffectRecord, out)
    return cast(EffectRecord, _copy_json(entry))


@dataclass(slots=True)
class TurnResolution:
    """The revealed turn while its spells apply: bets and attacks, the spells still queued, where
    the wall is due to go, and the follow-up a caster owes (``pending``); with what the turn record
    shows (the reveal, what each spell did, the attacks, the payment), kept in this compact form and
    made into a ``TurnRecord`` only when a view asks (:meth:`record`). Once the turn is over it
    becomes the table's ``last_turn`` and is never changed again (copies of the table share it)."""

    round: int
    turn: int  # number of the turn in the round
    bets: list[int]  # the record's bets too (Recycle's new bet included)
    powers: list[int]
    spells: tuple[tuple[int, ...], tuple[int, ...]]  # each seat's cards revealed, ascending (0 included)
    clone: tuple[int | None, int | None]  # each seat's named Clone target, as submitted
    cancelled: list[int]
    muted_before: bool
    mana_before: tuple[int, int]
    wall_from: int
    effects: list[EffectEntry] = field(default_factory=list)
    queue: list[QueuedSpell] = field(default_factory=list)
    settled: bool = False
    toward: int | None = None  # the seat the wall is due to move toward
    steps: int = 1
    bad_loser: list[bool] = field(default_factory=lambda: [False, False])
    ended: bool = False  # End of Round applied
    pending: PendingChoice | None = None
    clone_targets: list[int | None] = field(default_factory=lambda: [None, None])
    settled_powers: tuple[int, int] | None = None  # the attacks once settled
    paid: list[int] | None = None  # set when the turn is over, with mana_after and wall_to
    mana_after: tuple[int, int] | None = None
    wall_to: int | None = None

    def copy(self) -> TurnResolution:
        # The effects' entries and the spells are never changed once made: shared.
        return TurnResolution(
            self.round,
            self.turn,
            list(self.bets),
            list(self.powers),
            self.spells,
            self.clone,
            list(self.cancelled),
            self.muted_before,
            self.mana_before,
            self.wall_from,
            list(self.effects),
            [QueuedSpell(q.card, q.owner, q.caster, q.source, q.stolen) for q in self.queue],
            self.settled,
            self.toward,
            self.steps,
            list(self.bad_loser),
            self.ended,
            cast(PendingChoice, _copy_json(self.pending)) if self.pending is not None else None,
            list(self.clone_targets),
            self.settled_powers,
            list(self.paid) if self.paid is not None else None,
            self.mana_after,
            self.wall_to,
        )

    def record(self) -> TurnRecord:
        """The turn record as the channel sees it (a fresh JSON-ready dict)."""
        spells0, spells1 = self.spells
        out: dict[str, Any] = {
            "round": self.round,
            "turn": self.turn,
            "bets": list(self.bets),
            "spells": [list(spells0), list(spells1)],
            "clone": list(self.clone),
            "cancelled": list(self.cancelled),
            "muted_before": self.muted_before,
            "mana_before": list(self.mana_before),
            "wall_from": self.wall_from,
            "effects": [effect_record(e) for e in self.effects],
        }
        if self.settled_powers is not None:
            out["powers"] = list(self.settled_powers)
        if self.paid is not None:
            assert self.mana_after is not None
            out["paid"] = list(self.paid)
            out["mana_after"] = list(self.mana_after)
            out["wall_to"] = self.wall_to
        return cast(TurnRecord, out)


def _copy_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_json(v) for v in value]
    return value


def _broken_at(depth: int) -> tuple[int, ...]:
    depth = min(depth, BRIDGE)
    return (*range(depth), *range(max(BRIDGE - depth, depth), BRIDGE))


#: ``FirewallTable.broken`` by depth, 0 .. BRIDGE (deeper: the whole bridge, as at BRIDGE).
_BROKEN = tuple(_broken_at(depth) for depth in range(BRIDGE + 1))


class FirewallTable(State):
    """The data of a Firewall game and the queries on it (the State hooks are in ``state.py``)."""

    game: Firewall

    def __init__(self, game: Firewall):
        super().__init__(game)
        self.variant = game.options.variant
        self.players = [PlayerState(wizard=START_WALL - GAP), PlayerState(wizard=START_WALL + GAP)]
        self.wall = START_WALL
        self.round_start_wall = START_WALL
        self.broken_depth = 0  # flagstones broken at each end
        self.round = 1
        self.turn = 0  # turns revealed in this round
        self.turns_total = 0
        self.muted = False  # Muteness in effect for the rest of the round
        self.resolution: TurnResolution | None = None
        self.last_turn: TurnResolution | None = None  # the previous turn, over (its record() is shown)
        self.final: Outcome | None = None
        #: every revealed turn's bets (public: the channel and the log show them), newest first, as
        #: a chain of immutable links that copies share: a reveal adds a link, never copies the
        #: chain (a search's playouts reveal many turns). Read it with :meth:`bets_of`.
        self.bets_seen: BetLink | None = None
        if self.variant == "full_hand":
            for p in self.players:
                p.hand = [FALSE_CARD, *DECK]
            self.phase = Phase.TURN
        elif self.variant == "chosen_order":
            self.phase = Phase.ORDER
        else:
            self.phase = Phase.SHUFFLE
        if self.variant != "full_hand":
            for p in self.players:
                p.stock = list(DECK)  # in number order until shuffled or ordered

    # ------------------------------------------------------------------ queries
    def broken(self) -> list[int]:
        """The collapsed flagstones: ``broken_depth`` at each end."""
        depth = self.broken_depth
        if depth < len(_BROKEN):
            return list(_BROKEN[depth])
        return list(_BROKEN[-1])

    def is_broken(self, pos: int) -> bool:
        return pos < self.broken_depth or pos >= BRIDGE - self.broken_depth

    def clone_options(self, seat: int) -> list[int]:
        """The opponent's spells from the previous turn that Clone may copy (Clone itself excluded)."""
        return sorted({c for c in self.players[1 - seat].last_played if c != CLONE})

    def recycle_range(self, seat: int) -> tuple[int, int]:
        """The new bets Recycle allows: within RECYCLE_RANGE of the bet, 1 .. the caster's mana."""
        assert self.resolution is not None
        bet, mana = self.resolution.bets[seat], self.players[seat].mana
        return max(1, bet - RECYCLE_RANGE), min(mana, bet + RECYCLE_RANGE)

    def current(self) -> TurnResolution:
        """The turn being resolved (only asked for while there is one)."""
        assert self.resolution is not None
        return self.resolution

    # ------------------------------------------------------------------ recording
    def spell_event(
        self, events: list[Event], item: QueuedSpell, result: str, what: str, data: dict[str, Any] | None = None
    ) -> None:
        """Record what ``item`` did in the turn record and say it: "{p1}'s Inferno makes ...".
        ``data``: the spell's own keys of the record entry (``EffectRecord``); ``what`` is only read
        when narrating (effects pass "" otherwise)."""
        resolution = self.resolution
        assert resolution is not None
        card, caster, owner, stolen, source = item.card, item.caster, item.owner, item.stolen, item.source
        effect = (card, caster, owner, source, stolen, result, data)
        resolution.effects.append(effect)
        if not self.narrate:
            return
        entry = effect_record(effect)
        if stolen:
            label = f"{SPELL_NAMES[card]} (stolen from {WHO[1 - caster]})"
        elif source == "clone":
            label = f"{SPELL_NAMES[card]} (cloned from {WHO[owner]})"
        else:
            label = SPELL_NAMES[card]
        events.append(Event("spell", f"{WHO[caster]}'s {label} {what}.", entry))

    def __getstate__(self) -> dict[str, Any]:
        """Pickled with the bets seen as a flat list, oldest first: a long match's chain of links
        would nest too deep for pickle (its recursion limit)."""
        state = self.__dict__.copy()
        state["bets_seen"] = self._turns_seen()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        link: BetLink | None = None
        for bet0, bet1 in state["bets_seen"]:
            link = (link, bet0, bet1)
        self.__dict__.update(state)
        self.bets_seen = link

    def bets_of(self, seat: int) -> list[BetSeen]:
        """``seat``'s revealed bets, oldest first: (mana before the turn, distance from the wall to
        its wizard before the turn, the bet as laid)."""
        return [turn[seat] for turn in self._turns_seen()]

    def _turns_seen(self) -> list[tuple[BetSeen, BetSeen]]:
        """Every revealed turn's (seat 0's bet, seat 1's), oldest first: the chain, walked once."""
        out: list[tuple[BetSeen, BetSeen]] = []
        link = self.bets_seen
        while link is not None:
            out.append((link[1], link[2]))
            link = link[0]
        out.reverse()
        return out

    def copy_table_into(self, other: FirewallTable) -> None:
        """Give ``other`` (a shallow copy of this table) its own copies of every mutable part."""
        other.players = [p.copy() for p in self.players]
        other.resolution = self.resolution.copy() if self.resolution is not None else None
