"""Helpers for Magic Duel tests: force a deal through the public API, or arrange a position."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rules.core import CHANCE, Event
from rules.magic_duel import CURSE, Deal, Draw, MagicDuel, MagicDuelState, Phase, PlayCards
from rules.magic_duel.tricks import start_trick
from rules.match import Match


def names(n: int) -> list[str]:
    return [f"P{i + 1}" for i in range(n)]


def make_deal(
    game: MagicDuel,
    hands: Sequence[Sequence[str]] = (),
    *,
    risk: Sequence[str] = (),
    advantage: Sequence[str] = (),
    curse_at: int | None = None,
    removed: Sequence[int] = (),
) -> Deal:
    """A deal where each seat's hand starts with the cards given (filled up to 7 with unnamed
    cards), the Deck of Risk starts with ``risk`` and the Deck of Advantage with ``advantage``
    (top first). The Cursed Spell goes at index ``curse_at`` of the Deck of Advantage (default: last)."""
    n = game.num_seats
    named = [c for h in hands for c in h] + list(risk) + list(advantage)
    assert len(named) == len(set(named)), "a card is named twice"
    pool = [c for c in game.card_ids if c not in set(named)]
    out_hands: list[list[str]] = []
    for s in range(n):
        if s in removed:
            out_hands.append([])
            continue
        h = list(hands[s]) if s < len(hands) else []
        while len(h) < 7:
            h.append(pool.pop(0))
        out_hands.append(h)
    active = n - len(removed)
    r = list(risk)
    while len(r) < active:
        r.append(pool.pop(0))
    adv = list(advantage) + pool
    adv.insert(len(adv) if curse_at is None else curse_at, CURSE)
    return Deal(hands=tuple(tuple(h) for h in out_hands), risk=tuple(r), advantage=tuple(adv))


def start(
    n: int = 2,
    hands: Sequence[Sequence[str]] = (),
    *,
    options: dict[str, Any] | None = None,
    **deal_kw: Any,
) -> Match:
    """A match of ``n`` seats with a forced first deal."""
    game = MagicDuel(options or {}, num_seats=n)
    m = Match(game, 0, names(n))
    m.apply(CHANCE, make_deal(game, hands, **deal_kw))
    return m


def play(m: Match, seat: int, *cards: str, risk: str | None = None) -> list[Event]:
    return m.act(seat, PlayCards(cards=tuple(cards), risk=risk))


def draw(m: Match, seat: int, risk: int = 0) -> list[Event]:
    return m.act(seat, Draw(risk=risk))


def trick(plays: Sequence[Sequence[str]], *, options: dict[str, Any] | None = None) -> tuple[Match, list[Event]]:
    """Seat i casts plays[i] face-down, in seat order from seat 0. Returns the match and the
    events of the last play (reveal, verdict, ...)."""
    n = len(plays)
    opts = dict(options or {})
    if any("#2" in c for p in plays for c in p):
        opts.setdefault("decks", 2)
    m = start(n, plays, options=opts)
    events: list[Event] = []
    for s, p in enumerate(plays):
        events = play(m, s, *p)
    return m, events


def verdict(events: list[Event]) -> dict[str, Any]:
    (e,) = [e for e in events if e.kind in ("trick_won", "trick_tied")]
    return {"kind": e.kind, **e.data}


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def public(events: list[Event]) -> list[Event]:
    return [e for e in events if e.visible_to is None]


def arrange(
    n: int,
    hands: Sequence[Sequence[str]],
    *,
    risk: Sequence[str] = (),
    advantage: Sequence[str] | None = None,
    gathered: Sequence[int] = (),
    points: Sequence[int] = (),
    leader: int = 0,
    last: bool = False,
    closed: bool = False,
    options: dict[str, Any] | None = None,
) -> tuple[MagicDuelState, list[Event]]:
    """A state in the middle of a hand: exact hands, decks and trick counts; then a trick starts.
    Cards not placed anywhere are set aside (this only matters for accounting checks)."""
    game = MagicDuel(options or {}, num_seats=n)
    st = game.new_state()
    st.hand_no = 1
    st.hands = [list(h) for h in hands]
    st.risk = list(risk)
    used = {c for h in hands for c in h} | set(risk)
    st.advantage = list(advantage) if advantage is not None else [c for c in game.card_ids if c not in used] + [CURSE]
    st.gathered = [[["?"]] * (gathered[s] if s < len(gathered) else 0) for s in range(n)]
    st.points = [points[s] if s < len(points) else 0 for s in range(n)]
    if closed:
        st.cursed_by = leader
    st.leader = st.hand_leader = leader
    st.phase = Phase.TRICK
    events = start_trick(st, number=1, last=last)
    return st, events


def accounting(st: MagicDuelState) -> None:
    """Every card of the decks (and the Curse) is in exactly one place."""
    if st.phase in (Phase.DEAL, Phase.OVER):
        return
    places = [c for h in st.hands for c in h] + st.risk + st.advantage + st.set_aside
    places += [c for g in st.gathered for t in g for c in t]
    if st.trick:
        places += [c for p in st.trick.plays for c in p.cards]
    if st.cursed_by is not None:
        places.append(CURSE)
    where = Counter(places)
    assert where == Counter([*st.game.card_ids, CURSE]), (where - Counter(st.game.card_ids), where)
