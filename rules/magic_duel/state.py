"""Magic Duel: the state of a game: the hands and decks, the trick being cast, the draws, scoring.

Rule text: ../shared/seeds/002_43a19268ad1f7b0c.txt; gaps and rulings in
../shared/design/magic-duel.md and docs/rulings/magic-duel.md. Seats play in seat order
(seat 0 is the challenger); the trick winner leads the next trick.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import ClassVar, NotRequired, TypedDict

from ..core import ActionModel, Actor, Ask, Awaiting, Bound, Event, Forfeit, Outcome, State, seat_ref
from ..errors import IllegalAction, NotYourTurn
from .actions import DRAWS, Deal, Draw, PlayCards, PlayChoices, randbelow, sample_play
from .cards import CURSE, HAND_SIZE, LABEL, Kind, classify, label, labels, sorted_cards
from .deal import check_deal, sample_deal
from .game import MagicDuel, Phase
from .scoring import ScoringRecord, final_outcome, last_standing_outcome, score_hand
from .trick import RevealedPlay, Trick, TrickPlay, TrickRule, resolve

#: The awaiting values, built once (they are immutable).
_SEAT_AWAITED = tuple(Awaiting.of(s) for s in range(MagicDuel.max_seats))
_CHANCE = Awaiting.chance()
_TERMINAL = Awaiting.terminal()
#: ``seat_ref(seat)`` of every seat, built once.
_REF = tuple(seat_ref(s) for s in range(MagicDuel.max_seats))
_ONLY = tuple(frozenset({s}) for s in range(MagicDuel.max_seats))


@cache
def _rotations(num_seats: int) -> tuple[tuple[int, ...], ...]:
    """Every seat in seat order from each seat."""
    return tuple(tuple((start + k) % num_seats for k in range(num_seats)) for start in range(num_seats))


class TrickRecord(TypedDict):
    """The last trick resolved in this hand (the view's ``last_trick``)."""

    hand: int
    trick: int
    replay: int
    last: bool
    plays: list[RevealedPlay]
    passed: list[int]
    rule: TrickRule
    reason: str
    winner: int | None
    tied: bool
    combination: NotRequired[str]
    runner_up: NotRequired[int | None]


class MagicDuelState(State):
    game: MagicDuel
    #: ``_check`` (with ``_check_chance`` and ``_check_forfeit``) validates completely.
    atomic: ClassVar[bool] = True

    def __init__(self, game: MagicDuel):
        super().__init__(game)
        n = self.num_seats
        self.points_to_win = game.options.points_to_win
        self.phase = Phase.DEAL
        self.hand_no = 0
        self.hand_leader = 0  # who leads the first trick of the current hand
        self.leader = 0
        self.removed: list[int] = []  # in order of removal
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.risk: list[str] = []  # top first
        self.advantage: list[str] = []  # top first
        self.gathered: list[list[list[str]]] = [[] for _ in range(n)]
        self.points = [0] * n
        self.set_aside: list[str] = []  # cards of removed players (out of this hand)
        self.cursed_by: int | None = None  # who drew the Cursed Spell: the decks are closed
        self.trick: Trick | None = None
        self.draw_queue: list[int] = []
        self._next_trick = 1
        self.trick_winner: int | None = None
        self.last_trick: TrickRecord | None = None
        self.last_scoring: ScoringRecord | None = None
        self.final: Outcome | None = None

    def clone(self) -> MagicDuelState:
        """An independent copy: the lists that change are copied; cards, combinations, records
        (replaced, never changed) and the outcome are shared."""
        new = object.__new__(MagicDuelState)
        new.__dict__.update(self.__dict__)
        new.removed = list(self.removed)
        new.hands = [list(h) for h in self.hands]
        new.risk = list(self.risk)
        new.advantage = list(self.advantage)
        new.gathered = [list(g) for g in self.gathered]
        new.points = list(self.points)
        new.set_aside = list(self.set_aside)
        new.trick = self.trick.copy() if self.trick is not None else None
        new.draw_queue = list(self.draw_queue)
        return new

    # ------------------------------------------------------------------ helpers
    @property
    def active(self) -> list[int]:
        return [s for s in range(self.num_seats) if s not in self.removed]

    def next_active_after(self, seat: int) -> int:
        for k in range(1, self.num_seats + 1):
            s = (seat + k) % self.num_seats
            if s not in self.removed:
                return s
        return seat

    def rotation_from(self, seat: int) -> list[int]:
        """Active seats in seat order starting from ``seat`` (or the next active one)."""
        if not self.removed:
            return list(_rotations(self.num_seats)[seat])
        start = seat if seat not in self.removed else self.next_active_after(seat)
        return [s for s in ((start + k) % self.num_seats for k in range(self.num_seats)) if s not in self.removed]

    @property
    def closed(self) -> bool:
        """The Cursed Spell was drawn: both decks are closed."""
        return self.cursed_by is not None

    def tricks_count(self) -> list[int]:
        return [len(g) for g in self.gathered]

    def current_seat(self) -> int | None:
        aw = self._awaiting()
        return min(aw.seats) if aw.seats else None

    def _ask(self, seat: int) -> Ask:
        """A spell is cast in turn order and face-down (secret until the reveal; a face-up cast
        is the seat's own choice). A draw is public and bounded: ``risk`` cards from the Deck of
        Risk (at most what is needed and what the deck holds), the rest from the Deck of Advantage."""
        if self.phase is Phase.DRAW:
            need = self.draw_need(seat)
            top = min(need, len(self.risk))
            return Ask(Phase.DRAW.value, bounds=(Bound("risk", 0, top), Bound("advantage", need - top, need)))
        return Ask(Phase.TRICK.value, secret=True)

    def draw_need(self, seat: int) -> int:
        return max(0, HAND_SIZE - len(self.hands[seat]))

    # ------------------------------------------------------------------ whose input
    @property
    def awaiting(self) -> Awaiting:
        """``State.awaiting`` in one call (asked several times at every step)."""
        if self._forfeit_outcome is not None:
            return _TERMINAL
        phase = self.phase
        if phase is Phase.TRICK:
            t = self.trick
            assert t is not None
            return _SEAT_AWAITED[t.order[t.pos]]
        if phase is Phase.DRAW:
            return _SEAT_AWAITED[self.draw_queue[0]]
        return _CHANCE if phase is Phase.DEAL else _TERMINAL

    def _awaiting(self) -> Awaiting:  # what ``awaiting`` above inlines
        phase = self.phase
        if phase is Phase.TRICK:
            assert self.trick is not None
            return _SEAT_AWAITED[self.trick.order[self.trick.pos]]
        if phase is Phase.DRAW:
            return _SEAT_AWAITED[self.draw_queue[0]]
        return _CHANCE if phase is Phase.DEAL else _TERMINAL

    def _outcome(self) -> Outcome:
        assert self.final is not None
        return self.final

    # ------------------------------------------------------------------ chance: the deal
    def _chance_outcomes(self) -> Sequence[ActionModel]:
        raise IllegalAction(
            "A Magic Duel deal has too many outcomes to list; the referee samples one (or a log gives it)."
        )

    def _sample_chance(self, rng: random.Random) -> ActionModel:
        if self.phase is not Phase.DEAL:
            raise NotYourTurn("The game is not waiting for a chance outcome.")
        return sample_deal(self.game.card_ids, self.num_seats, self.rotation_from(self.hand_leader), rng)

    def _check_chance(self, action: ActionModel) -> None:
        if not isinstance(action, Deal):
            raise IllegalAction("The game is waiting for the deal (a 'deal' chance action).")
        check_deal(action, self.game.card_ids, self.num_seats, self.removed)

    def _apply_chance(self, action: ActionModel) -> list[Event]:
        assert isinstance(action, Deal)
        self.hand_no += 1
        self.hands = [list(h) for h in action.hands]
        self.risk = list(action.risk)
        self.advantage = list(action.advantage)
        self.last_trick = None  # tricks, set-aside cards and the Curse were cleared when the last hand was scored
        if self.hand_leader in self.removed:
            self.hand_leader = self.next_active_after(self.hand_leader)
        self.leader = self.hand_leader
        order = self.rotation_from(self.leader)
        events = [
            Event(
                "deal",
                f"Hand {self.hand_no}: 7 cards are dealt to each wizard, {len(self.risk)} cards form the Deck of Risk "
                f"and the Cursed Spell is shuffled into the Deck of Advantage ({len(self.advantage)} cards). "
                f"{_REF[self.leader]} leads.",
                {
                    "hand": self.hand_no,
                    "leader": self.leader,
                    "turn_order": order,
                    "hand_sizes": [len(h) for h in self.hands],
                    "risk": len(self.risk),
                    "advantage": len(self.advantage),
                    "points": list(self.points),
                },
            )
        ]
        for s in order:
            cards = sorted_cards(self.hands[s])
            events.append(Event("hand_dealt", f"Your hand: {labels(cards)}.", {"seat": s, "cards": cards}, _ONLY[s]))
        events += self._start_trick(number=1, last=False)
        return events

    # ------------------------------------------------------------------ legal actions
    def _legal_actions(self, seat: int) -> Sequence[ActionModel]:
        if self.phase is Phase.TRICK:
            return PlayChoices(self.hands[seat])
        if self.phase is Phase.DRAW:
            return list(DRAWS[: min(self.draw_need(seat), len(self.risk)) + 1])
        return ()

    def sample_action(self, seat: Actor, rng: random.Random) -> ActionModel:
        """``State.sample_action``, with the same draw from ``rng``, straight from the phase for
        the awaited seat (random playouts call it at every step)."""
        if self._forfeit_outcome is None and type(seat) is int:
            phase = self.phase
            if phase is Phase.TRICK:
                t = self.trick
                if t is not None and t.order[t.pos] == seat:
                    play = sample_play(self.hands[seat], rng)
                    if play is not None:
                        return play
            elif phase is Phase.DRAW and self.draw_queue and self.draw_queue[0] == seat:
                need = HAND_SIZE - len(self.hands[seat])
                return DRAWS[randbelow(rng, min(need if need > 0 else 0, len(self.risk)) + 1)]
        return super().sample_action(seat, rng)

    def default_action(self, seat: int) -> ActionModel | None:
        """On time-out: a draw takes every card from the Deck of Advantage; a trick play has no
        default (the seat forfeits and, with 3+ players, is removed while the others play on)."""
        if self.phase is Phase.DRAW and self.draw_queue and self.draw_queue[0] == seat:
            return DRAWS[0]
        return None

    # ------------------------------------------------------------------ checks
    def _check(self, seat: int, action: ActionModel) -> None:
        phase = self.phase
        if phase is Phase.TRICK:
            if type(action) is PlayCards:
                cards = action.cards
                if len(cards) == 1:  # the most common spell: one card from the hand (and a Risk card)
                    hand = self.hands[seat]
                    card = cards[0]
                    risk = action.risk
                    if card in hand and (risk is None or (risk != card and risk in hand)) and classify(cards):
                        return
                self._check_play(seat, action)
                return
        elif phase is Phase.DRAW and type(action) is Draw:
            need = max(0, HAND_SIZE - len(self.hands[seat]))
            take = action.risk
            if (
                take <= need
                and take <= len(self.risk)
                and (action.advantage is None or action.advantage == need - take)
            ):
                return
        if isinstance(action, Deal):
            raise IllegalAction("The deal is made by the referee, not by a player.")
        if self.phase is Phase.TRICK:
            if not isinstance(action, PlayCards):
                raise IllegalAction(
                    'It is your turn to cast a spell: {"type": "play", "cards": [...], "risk": null}, not a draw.'
                )
            self._check_play(seat, action)
        elif self.phase is Phase.DRAW:
            if not isinstance(action, Draw):
                raise IllegalAction(
                    'It is your turn to draw back to 7 cards: {"type": "draw", "risk": N} '
                    "(N from the Deck of Risk, the rest from the Deck of Advantage), not a play."
                )
            self._check_draw(seat, action)

    def _check_play(self, seat: int, action: PlayCards) -> None:
        hand = self.hands[seat]
        cards = action.cards
        risk = action.risk
        if risk is None:
            if len(cards) == 1:
                if cards[0] in hand and classify(cards) is not None:
                    return
            elif len(set(cards)) == len(cards) and all(c in hand for c in cards) and classify(cards) is not None:
                return
        elif (
            risk in hand
            and risk not in cards
            and len(set(cards)) == len(cards)
            and all(c in hand for c in cards)
            and classify(cards) is not None
        ):
            return
        # something is wrong: say what
        named = list(action.cards) + ([action.risk] if action.risk is not None else [])
        if len(set(named)) != len(named):
            raise IllegalAction(
                "Name each card once (the card put on the Deck of Risk cannot also be part of the spell)."
            )
        missing = [c for c in named if c not in hand]
        if missing:
            raise IllegalAction(
                f"You do not hold {', '.join(label(c) for c in missing)} ({missing}); "
                f"your hand: {labels(sorted_cards(hand))}."
            )
        if classify(action.cards) is None:
            raise IllegalAction(
                f"{labels(action.cards)} is not a combination. Cast one card (Cantrip), 2, 3 or 4 cards of the same "
                f"value (Codu, Thrack, Raquav), one Joker (Badef) or two Jokers (Jokulme); "
                f"your hand: {labels(sorted_cards(hand))}."
            )

    def _check_draw(self, seat: int, action: Draw) -> None:
        need = self.draw_need(seat)
        if action.risk > need:
            raise IllegalAction(f"You draw {need} card{'s' if need != 1 else ''} to have 7; not {action.risk}.")
        if action.risk > len(self.risk):
            raise IllegalAction(
                f"The Deck of Risk has only {len(self.risk)} card{'s' if len(self.risk) != 1 else ''}; "
                f"draw at most {len(self.risk)} from it and the rest from the Deck of Advantage."
            )
        if action.advantage is not None and action.advantage != need - action.risk:
            raise IllegalAction(
                f"You draw {need} cards in all: with {action.risk} from the Deck of Risk, "
                f"{need - action.risk} come from the Deck of Advantage, not {action.advantage}."
            )

    # ------------------------------------------------------------------ applying
    def _apply(self, seat: int, action: ActionModel) -> list[Event]:
        if isinstance(action, PlayCards):
            return self._play(seat, action)
        assert isinstance(action, Draw)
        need = HAND_SIZE - len(self.hands[seat])
        events = self._draw(seat, action.risk, (need if need > 0 else 0) - action.risk)
        self.draw_queue.pop(0)
        events += self._advance_draw()
        return events

    # -- tricks ------------------------------------------------------------------------------
    def _start_trick(self, number: int, last: bool, replay: int = 0) -> list[Event]:
        self.phase = Phase.TRICK
        self.trick = Trick(number=number, order=self.rotation_from(self.leader), replay=replay, last=last)
        return self._advance_trick()

    def _advance_trick(self) -> list[Event]:
        t = self.trick
        assert t is not None
        events: list[Event] = []
        while t.pos < len(t.order):
            s = t.order[t.pos]
            if s in self.removed:
                t.pos += 1
                continue
            if not self.hands[s]:
                t.passed.append(s)
                events.append(Event("pass", f"{_REF[s]} has no cards and passes.", {"seat": s, "trick": t.number}))
                t.pos += 1
                continue
            return events
        return events + self._resolve_trick()

    def _play(self, seat: int, action: PlayCards) -> list[Event]:
        t = self.trick
        assert t is not None
        hand = self.hands[seat]
        cards = action.cards
        for c in cards:
            hand.remove(c)
        combo = classify(cards)
        assert combo is not None
        risk = action.risk
        title = combo.title
        if risk is not None:
            hand.remove(risk)
            self.risk.insert(0, risk)
            t.plays.append(TrickPlay(seat, combo, risk))
            events = [
                Event(
                    "play_face_up",
                    f"{_REF[seat]} puts a card face-down on the Deck of Risk and casts face-up: {combo.description}.",
                    {
                        "seat": seat,
                        "trick": t.number,
                        "cards": list(combo.cards),
                        "combination": title,
                        "count": len(combo.cards),
                        "risk": True,
                        "risk_deck": len(self.risk),
                        "hand_size": len(hand),
                    },
                ),
                Event(
                    "risk_private",
                    f"You put {LABEL.get(risk) or label(risk)} on the Deck of Risk.",
                    {"seat": seat, "card": risk},
                    _ONLY[seat],
                ),
            ]
        else:
            t.plays.append(TrickPlay(seat, combo))
            n = len(cards)
            events = [
                Event(
                    "play_face_down",
                    f"{_REF[seat]} casts a spell face-down ({n} card{'s' if n != 1 else ''}).",
                    {"seat": seat, "trick": t.number, "count": n, "risk": False, "hand_size": len(hand)},
                ),
                Event(
                    "play_private",
                    f"You cast {combo.description} face-down.",
                    {"seat": seat, "cards": list(combo.cards), "combination": title},
                    _ONLY[seat],
                ),
            ]
        t.pos += 1
        order = t.order
        if t.pos < len(order) and self.hands[order[t.pos]] and not self.removed:
            return events  # the next seat casts (the common case)
        events += self._advance_trick()
        return events

    def _resolve_trick(self) -> list[Event]:
        t = self.trick
        assert t is not None
        tplays = t.plays
        if not tplays:
            # nobody holds a card (possible only after the Cursed Spell): the hand ends
            events = [Event("no_trick", "Nobody has a card left to cast; the hand ends.", {"trick": t.number})]
            self.trick = None
            return events + self._score_hand()
        hands = self.hands
        deadlock = all(len(p.combo.cards) == 1 and not hands[p.seat] for p in tplays)
        verdict = resolve(tplays, deadlock=deadlock)
        reveal = [p.to_json() for p in tplays]
        hand_no = self.hand_no
        events = [
            Event(
                "reveal",
                "The spells are revealed: "
                + "; ".join([f"{_REF[p.seat]}: {p.combo.description}" for p in tplays])
                + ".",
                {"hand": hand_no, "trick": t.number, "replay": t.replay, "last": t.last, "plays": reveal},
            )
        ]
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
            self.last_trick = record
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
                    f"Trick {t.number} is cast again, {_REF[self.leader]} first.",
                    {"trick": t.number, "replay": t.replay + 1, "leader": self.leader},
                )
            )
            return events + self._start_trick(t.number, t.last, t.replay + 1)
        win = tplays[verdict.winner]
        cards = [c for p in tplays for c in p.combo.cards]
        self.gathered[win.seat].append(cards)
        self.trick = None
        counts = [len(g) for g in self.gathered]
        title = win.combo.title
        runner_up = None if verdict.runner_up is None else tplays[verdict.runner_up].seat
        record["winner"] = win.seat
        record["tied"] = False
        record["combination"] = title
        record["runner_up"] = runner_up
        self.last_trick = record
        events.append(
            Event(
                "trick_won",
                f"{verdict.text} {_REF[win.seat]} gathers the trick ({len(cards)} cards).",
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
            return events + self._score_hand()
        self.trick_winner = win.seat
        self.phase = Phase.DRAW
        removed = self.removed
        self.draw_queue = [s for s in t.order if s not in removed] if removed else list(t.order)
        self._next_trick = t.number + 1
        return events + self._advance_draw()

    # -- drawing -----------------------------------------------------------------------------
    def _draw(self, seat: int, from_risk: int, from_adv: int, extra: bool = False) -> list[Event]:
        risk = self.risk
        if from_risk:
            if from_risk > len(risk):
                raise IndexError("pop from empty list")
            got_risk = risk[:from_risk]
            del risk[:from_risk]
        else:
            got_risk = []
        adv = self.advantage
        got_adv = adv[:from_adv]
        cursed = CURSE in got_adv
        if cursed:
            i = got_adv.index(CURSE)
            del got_adv[i:]
            del adv[: i + 1]
        else:
            if len(got_adv) < from_adv:
                raise IndexError("pop from empty list")
            del adv[:from_adv]
        got = got_risk + got_adv
        hand = self.hands[seat]
        hand += got
        who = _REF[seat]
        events: list[Event] = []
        if got or not cursed:
            what = (
                "the extra card of advantage"
                if extra
                else f"{len(got_risk)} from the Deck of Risk and {len(got_adv)} from the Deck of Advantage"
            )
            events.append(
                Event(
                    "extra_card" if extra else "draw",
                    f"{who} draws {what}.",
                    {
                        "seat": seat,
                        "risk": len(got_risk),
                        "advantage": len(got_adv),
                        "hand_size": len(hand),
                        "risk_deck": len(risk),
                        "advantage_deck": len(adv),
                    },
                )
            )
            events.append(
                Event(
                    "draw_private",
                    f"You draw {labels(got) or 'nothing'}.",
                    {"seat": seat, "from_risk": got_risk, "from_advantage": got_adv, "extra": extra},
                    _ONLY[seat],
                )
            )
        if cursed:
            self.cursed_by = seat
            events.append(
                Event(
                    "cursed_spell",
                    f"{who} draws the Cursed Spell! Both decks are closed: one last trick with the cards in hand.",
                    {
                        "seat": seat,
                        "hand_size": len(hand),
                        "risk_deck": len(risk),
                        "advantage_deck": len(adv),
                        "hand_sizes": [len(h) for h in self.hands],
                    },
                )
            )
        return events

    def _advance_draw(self) -> list[Event]:
        events: list[Event] = []
        queue = self.draw_queue
        removed = self.removed
        while queue and self.cursed_by is None:
            s = queue[0]
            need = HAND_SIZE - len(self.hands[s])
            if need <= 0 or s in removed:
                queue.pop(0)
                continue
            if not self.risk:  # only one choice: everything from the Deck of Advantage
                events += self._draw(s, 0, need)
                queue.pop(0)
                continue
            return events
        self.draw_queue = []
        w = self.trick_winner
        assert w is not None
        if not self.closed and w not in self.removed:
            events += self._draw(w, 0, 1, extra=True)
        self.leader = w if w not in self.removed else self.next_active_after(w)
        self.trick_winner = None
        return events + self._start_trick(self._next_trick, last=self.closed)

    # -- scoring -----------------------------------------------------------------------------
    def _score_hand(self) -> list[Event]:
        active = self.active
        self.last_scoring, text = score_hand(self.hand_no, self.tricks_count(), active, self.points)
        events = [Event("hand_scored", text, dict(self.last_scoring))]
        self.trick = None
        if any(self.points[s] >= self.points_to_win for s in active):
            return events + self._finish(final_outcome(self.points, active, self.removed))
        self.hand_leader = self.next_active_after(self.hand_leader)
        self.phase = Phase.DEAL
        self.hands = [[] for _ in range(self.num_seats)]
        self.risk, self.advantage, self.set_aside = [], [], []
        self.gathered = [[] for _ in range(self.num_seats)]
        self.cursed_by = None
        return events

    # -- the end -----------------------------------------------------------------------------
    def _finish(self, outcome: Outcome) -> list[Event]:
        self.final = outcome
        self.phase = Phase.OVER
        self.trick = None
        self.draw_queue = []
        return [Event("game_end", outcome.summary, {"outcome": outcome.to_json(), "points": list(self.points)})]

    # -- forfeits: a player leaves, the others play on -----------------------------------------
    def _check_forfeit(self, seat: int) -> None:
        if seat in self.removed:
            raise IllegalAction("You have already left this game.")

    def _forfeit(self, seat: int, action: Forfeit) -> list[Event]:
        why = action.why
        who = seat_ref(seat)
        self.removed.append(seat)
        aside = list(self.hands[seat]) + [c for t in self.gathered[seat] for c in t]
        self.hands[seat] = []
        self.gathered[seat] = []
        if self.trick is not None:
            for p in list(self.trick.plays):
                if p.seat == seat:
                    aside += p.cards
                    self.trick.plays.remove(p)
        self.set_aside += aside
        remaining = self.active
        events = [
            Event(
                "forfeit",
                f"{who} {why} and is out of the game; their {len(aside)} cards are set aside."
                + ("" if len(remaining) < 2 else " The others play on."),
                {
                    "seat": seat,
                    "reason": action.reason,
                    "removed": True,
                    "set_aside": len(aside),
                    "remaining": remaining,
                },
            )
        ]
        if len(remaining) == 1:
            (w,) = remaining
            return events + self._finish(last_standing_outcome(w, self.points, self.removed))
        if self.phase is Phase.TRICK:
            events += self._advance_trick()
        elif self.phase is Phase.DRAW:
            events += self._advance_draw()
        return events
