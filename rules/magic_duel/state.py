"""Magic Duel's State: what each seat is asked, whose input is awaited, the legal actions and their
checks, the deal, applying a spell or a draw, and forfeits (a player leaves, the others play on).

The data it works on is in ``table.py``; the tricks, the draws between them and the scoring of a hand
in ``tricks.py``; drawing from the decks in ``draws.py``. The game's rules as the engine implements
them, with the rulings that fill their gaps: docs/rulings/magic-duel.md. Seats play in seat order
(seat 0 is the challenger, docs/rulings/magic-duel.md#turn-order); the trick winner leads the next
trick (docs/rulings/magic-duel.md#draw-order).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core import ActionModel, Actor, Ask, Awaiting, Bound, Event, Forfeit, Outcome, seat_ref
from ..errors import IllegalAction, NotYourTurn
from ..lazy import randbelow
from ..text import plural
from .actions import DRAWS, Deal, Draw, PlayCards, PlayChoices, sample_play
from .cards import HAND_SIZE, classify, label, labels, sorted_cards
from .deal import check_deal, sample_deal
from .draws import draw
from .game import MagicDuel, Phase
from .scoring import last_standing_outcome
from .table import ONLY_SEAT, SEAT_REF, MagicDuelTable
from .tricks import advance_draw, advance_trick, cast_spell, start_trick

#: The awaiting values, built once (they are immutable).
_SEAT_AWAITED = tuple(Awaiting.of(s) for s in range(MagicDuel.max_seats))
_CHANCE = Awaiting.chance()
_TERMINAL = Awaiting.terminal()


class MagicDuelState(MagicDuelTable):
    #: ``_check`` (with ``_check_chance`` and ``_check_forfeit``) validates completely.

    def _copy(self) -> MagicDuelState:
        """An independent copy (see ``MagicDuelTable.copy_table_into``)."""
        new = object.__new__(MagicDuelState)
        new.__dict__.update(self.__dict__)
        self.copy_table_into(new)
        return new

    def current_seat(self) -> int | None:
        aw = self._awaiting()
        return min(aw.seats) if aw.seats else None

    # ------------------------------------------------------------------ what a seat is asked
    def _ask(self, seat: int) -> Ask:
        """A spell is cast in turn order and face-down (secret until the reveal; a face-up cast
        is the seat's own choice). A draw is public and bounded: ``risk`` cards from the Deck of
        Risk (at most what is needed and what the deck holds), the rest from the Deck of Advantage."""
        if self.phase is Phase.DRAW:
            need = self.draw_need(seat)
            top = min(need, len(self.risk))
            return Ask(Phase.DRAW.value, bounds=(Bound("risk", 0, top), Bound("advantage", need - top, need)))
        return Ask(Phase.TRICK.value, secret=True)

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
                f"{SEAT_REF[self.leader]} leads.",
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
            events.append(
                Event("hand_dealt", f"Your hand: {labels(cards)}.", {"seat": s, "cards": cards}, ONLY_SEAT[s])
            )
        events += start_trick(self, number=1, last=False)
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
            raise IllegalAction(f"You draw {plural(need, 'card')} to have 7; not {action.risk}.")
        if action.risk > len(self.risk):
            raise IllegalAction(
                f"The Deck of Risk has only {plural(len(self.risk), 'card')}; "
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
            return cast_spell(self, seat, action)
        assert isinstance(action, Draw)
        need = HAND_SIZE - len(self.hands[seat])
        events = draw(self, seat, action.risk, (need if need > 0 else 0) - action.risk)
        self.draw_queue.pop(0)
        events += advance_draw(self)
        return events

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
            return events + self.finish(last_standing_outcome(w, self.points, self.removed))
        if self.phase is Phase.TRICK:
            events += advance_trick(self)
        elif self.phase is Phase.DRAW:
            events += advance_draw(self)
        return events
