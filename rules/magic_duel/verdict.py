"""A Magic Duel trick: the record of the spells cast in it, and who wins it and why
(docs/rulings/magic-duel.md, "Who wins a trick").

``resolve`` takes the plays in the order they were cast and returns a :class:`Verdict`: the
index of the winning play (or None for a Badef tie) with a rule code and a sentence.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypedDict

from ..core import seat_ref
from .cards import SUITS, Combo, Kind

ACE, KING = 1, 13
_REF = tuple(seat_ref(s) for s in range(8))  # the placeholders of seats 0..7

#: Why a trick was decided, as carried in the trick events' data ("rule").
TrickRule = Literal[
    "unopposed",  # a single play: it wins
    "jokulme",  # Jokulme wins any combination
    "first_jokulme",  # several Jokulme: the first cast wins
    "badef_over_cantrip",  # Badef beats every Cantrip
    "badef_tie",  # Badef against a Codu/Thrack/Raquav: tie, replay
    "badef_vs_badef",  # two or more Badefs (and nothing above a Cantrip): tie, replay
    "badef_deadlock",  # Badef against Badef with only those cards left: the first Badef wins
    "stronger_kind",  # e.g. a Codu beats any Cantrip
    "higher_value",  # same kind, higher value
    "ace_over_king",  # same kind, the Ace beats the King (among Cantrips: the Ace wins the trick)
    "higher_suit",  # same kind and value, the higher suit
    "played_first",  # exact duplicates (two decks): the one cast first
]


class RevealedPlay(TypedDict):
    """A spell as the reveal shows it (the ``reveal`` event and the view's ``last_trick``)."""

    seat: int
    cards: list[str]
    combination: str
    face_up: bool


@dataclass(slots=True)
class TrickPlay:
    """A spell cast in the current trick (its owner, its combination, its Risk card if any)."""

    seat: int
    combo: Combo
    risk: str | None = None  # the card put on the Deck of Risk first (then the play is face-up)

    @property
    def cards(self) -> tuple[str, ...]:
        return self.combo.cards

    @property
    def face_up(self) -> bool:
        return self.risk is not None

    def to_json(self) -> RevealedPlay:
        return {
            "seat": self.seat,
            "cards": list(self.combo.cards),
            "combination": self.combo.title,
            "face_up": self.risk is not None,
        }


@dataclass
class Trick:
    """The trick being cast: its turn order, the spells so far and who passed."""

    number: int  # 1, 2, ... within the hand
    order: list[int]  # turn order for this trick (leader first)
    pos: int = 0
    plays: list[TrickPlay] = field(default_factory=list)
    passed: list[int] = field(default_factory=list)
    replay: int = 0  # how many times it was tied and cast again
    last: bool = False  # the extra trick after the Cursed Spell

    def copy(self) -> Trick:
        """An independent copy (the plays themselves are never changed once cast)."""
        return Trick(
            self.number, list(self.order), self.pos, list(self.plays), list(self.passed), self.replay, self.last
        )


@dataclass(frozen=True)
class Play:
    seat: int
    combo: Combo


class Cast(Protocol):
    """What ``resolve`` reads of a spell (a :class:`Play` or a :class:`TrickPlay`)."""

    @property
    def seat(self) -> int: ...

    @property
    def combo(self) -> Combo: ...


@dataclass
class Verdict:
    winner: int | None  # index into the plays, None = tie (replay)
    rule: TrickRule
    runner_up: int | None = None  # the play the winner was compared with
    kings_out: list[int] = field(default_factory=list)  # plays beaten by an Ace (Ace-over-King)
    text: str = ""


def _desc(p: Cast) -> str:
    return f"{_REF[p.seat] if p.seat < len(_REF) else seat_ref(p.seat)}'s {p.combo.description}"


def _suit_names(suits: tuple[int, ...]) -> str:
    return "".join(SUITS[s] for s in suits)


def _same_kind_order(cands: list[int], plays: Sequence[Cast]) -> list[int]:
    """Candidate indices best first: value, then suits from the highest down, then cast first."""
    return sorted(cands, key=lambda i: (plays[i].combo.rank_key, i))


def _compare_reason(w: Cast, r: Cast) -> tuple[TrickRule, str]:
    if w.combo.value != r.combo.value:
        return "higher_value", f"{w.combo.rank_name} is higher than {r.combo.rank_name}"
    if w.combo.suits != r.combo.suits:
        return "higher_suit", (
            f"same value; the suits decide ({_suit_names(w.combo.suits)} over {_suit_names(r.combo.suits)}, "
            "♦ < ♥ < ♠ < ♣)"
        )
    return "played_first", "exact duplicates: the one cast first wins"


def resolve(plays: Sequence[Cast], *, deadlock: bool = False) -> Verdict:
    """The verdict of a trick. ``deadlock``: every player of the trick holds only the card they
    played, so a Badef-against-Badef replay would repeat forever (then the first Badef wins)."""
    if not plays:
        return Verdict(None, "unopposed", text="Nobody cast a spell.")
    if len(plays) == 1:
        return Verdict(0, "unopposed", text=f"{_desc(plays[0])} is unopposed and wins the trick.")
    idx = range(len(plays))
    kinds = [p.combo.kind for p in plays]
    if Kind.BADEF not in kinds and Kind.JOKULME not in kinds:
        return _resolve_plain(plays, kinds)
    jok = [i for i in idx if kinds[i] is Kind.JOKULME]
    if jok:
        w = jok[0]
        if len(jok) > 1:
            return Verdict(
                w,
                "first_jokulme",
                jok[1],
                text=f"{_desc(plays[w])} wins: of several Jokulme spells, the first one cast wins.",
            )
        r = next(i for i in idx if i != w)
        return Verdict(w, "jokulme", r, text=f"{_desc(plays[w])} wins: Jokulme wins against any combination.")
    badef = [i for i in idx if plays[i].combo.kind is Kind.BADEF]
    others = [i for i in idx if plays[i].combo.kind is not Kind.BADEF]
    top_kind = max((plays[i].combo.kind for i in others), default=None)
    if badef:
        if top_kind is not None and top_kind >= Kind.CODU:
            best = _best_of_kind(plays, [i for i in others if plays[i].combo.kind is top_kind])
            assert best.winner is not None  # the best of a non-empty list of plays
            return Verdict(
                None,
                "badef_tie",
                best.winner,
                text=(
                    f"{_desc(plays[badef[0]])} against {_desc(plays[best.winner])}: "
                    f"Badef against a {top_kind.title} ties the trick. Everyone takes back their spell "
                    "and casts again at once."
                ),
            )
        if len(badef) > 1:
            if deadlock:
                return Verdict(
                    badef[0],
                    "badef_deadlock",
                    badef[1],
                    text=(
                        f"{_desc(plays[badef[0]])} wins: Badef against Badef would be cast again forever "
                        "(nobody holds another card), so the first Badef cast wins."
                    ),
                )
            return Verdict(
                None,
                "badef_vs_badef",
                badef[1],
                text=(
                    f"{_desc(plays[badef[0]])} against {_desc(plays[badef[1]])}: Badef against Badef ties "
                    "the trick. Everyone takes back their spell and casts again at once."
                ),
            )
        w = badef[0]
        return Verdict(
            w,
            "badef_over_cantrip",
            _best_of_kind(plays, others).winner,
            text=f"{_desc(plays[w])} wins: Badef always beats a Cantrip.",
        )
    assert top_kind is not None
    cands = [i for i in others if plays[i].combo.kind is top_kind]
    lower = [i for i in others if plays[i].combo.kind is not top_kind]
    return _best_over_lower(plays, cands, lower, top_kind)


def _resolve_plain(plays: Sequence[Cast], kinds: list[Kind]) -> Verdict:
    """``resolve`` when no Joker was cast: the strongest kind, then the best of that kind."""
    top_kind = max(kinds)
    cands = [i for i, k in enumerate(kinds) if k is top_kind]
    lower = [i for i, k in enumerate(kinds) if k is not top_kind] if len(cands) < len(kinds) else []
    return _best_over_lower(plays, cands, lower, top_kind)


def _best_over_lower(plays: Sequence[Cast], cands: list[int], lower: list[int], top_kind: Kind) -> Verdict:
    """The best of the plays ``cands`` of the strongest kind; when that alone does not name a
    runner-up, the best of the strongest of the ``lower`` kinds is it ("a Codu beats any Cantrip")."""
    best = _best_of_kind(plays, cands)
    assert best.winner is not None
    if best.runner_up is None and lower:
        low = max(plays[i].combo.kind for i in lower)
        runner = _best_of_kind(plays, [i for i in lower if plays[i].combo.kind is low])
        assert runner.winner is not None  # the best of a non-empty list of plays
        best.runner_up = runner.winner
        best.rule = "stronger_kind"
        best.text = (
            f"{_desc(plays[best.winner])} wins: a {top_kind.title} beats any {low.title}"
            f" (best other spell: {_desc(plays[runner.winner])})."
        )
    return best


def _best_of_kind(plays: Sequence[Cast], cands: list[int]) -> Verdict:
    """The best of several plays of the same kind, with the Ace-over-King exception.

    Cantrips (rulings 16): [S] "if an ace (A) and a king (K) are played at the same round, the ace
    wins the round": when both an Ace and a King are cast as Cantrips, the best Ace (by suit) wins,
    whatever else was cast. Codus, Thracks and Raquavs (rulings 17): the Kings are beaten (out) and
    the normal order decides among the rest, so there the Ace wins against Kings only, never
    against a 2..Q of the same kind also cast."""
    if len(cands) == 1:
        return Verdict(cands[0], "unopposed", text=f"{_desc(plays[cands[0]])} wins the trick.")
    values = {plays[i].combo.value for i in cands}
    kings_out: list[int] = []
    pool = cands
    cantrips = plays[cands[0]].combo.kind is Kind.CANTRIP
    if ACE in values and KING in values:
        kings_out = [i for i in cands if plays[i].combo.value == KING]
        pool = [i for i in cands if (plays[i].combo.value == ACE if cantrips else plays[i].combo.value != KING)]
    order = _same_kind_order(pool, plays)
    w = order[0]
    if kings_out and plays[w].combo.value == ACE:
        r = _same_kind_order(kings_out, plays)[0]
        beats = "wins the trick" if cantrips and len(values) > 2 else "beats the King"
        return Verdict(
            w,
            "ace_over_king",
            r,
            kings_out,
            text=(
                f"{_desc(plays[w])} wins: an Ace and a King were cast in the same trick, and the Ace {beats}"
                f" ({_desc(plays[r])})."
                + ("" if len(order) == 1 else f" Of the Aces, {_compare_reason(plays[w], plays[order[1]])[1]}.")
            ),
        )
    r = order[1]
    rule, why = _compare_reason(plays[w], plays[r])
    text = f"{_desc(plays[w])} beats {_desc(plays[r])}: {why}."
    if kings_out:
        text += " The King" + ("s were" if len(kings_out) > 1 else " was") + " beaten by the Ace (Ace-over-King)."
    return Verdict(w, rule, r, kings_out, text=text)


__all__ = ["Cast", "Play", "RevealedPlay", "Trick", "TrickPlay", "TrickRule", "Verdict", "resolve"]
