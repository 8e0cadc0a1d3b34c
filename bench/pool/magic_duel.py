"""The Magic Duel opponent pool (issue 32): four rule-based styles written from the game's rules (the
combinations, the Deck of Risk, the Cursed Spell) as ``docs/rulings/magic-duel.md`` gives them
(``docs/rulings/magic-duel.md#combinations``, ``docs/rulings/magic-duel.md#risk-card``,
``docs/rulings/magic-duel.md#cursed-spell-stops-draw``). Every player plays correctly at 2 to 8
seats: it reads the spells already cast in the trick (``view["trick"]["plays"]``: a face-up spell's
cards, a face-down spell's card count), its own hand, and the seats' trick counts; nothing hidden.

A tie is replayed (docs/rulings/magic-duel.md#tied-trick), and two players who recast the same
spells would tie forever, so on a replay every style changes its spell: Badef is not recast, and
from the second replay on the spell is drawn at random (``rng``) among the face-down casts. Ties
between equally good spells are broken by ``rng``: a player is deterministic for its rng.

- ``strongest`` (tune): the strongest combination every trick.
- ``economical`` (tune): the cheapest spell that beats the table; a cheap card when it cannot.
- ``risky`` (holdout): throws junk on the Deck of Risk (face-up casts), drives the Curse when ahead.
- ``joker`` (holdout): Jokers kept as answers (Badef against a Cantrip, Jokulme for the last trick).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.actions import ActionModel
from rules.core import State
from rules.magic_duel.cards import Combo, Kind, classify

from .. import heuristics
from . import Player, PoolPlayer

#: A spell as this module compares it: (kind, value, suits highest first); kinds as rules Kind.
Spell = tuple[int, int, tuple[int, ...]]

#: What a face-down spell of N cards is taken for (ordinary kind, a middling value).
_GUESS: dict[int, Spell] = {1: (1, 9, (1,)), 2: (2, 8, (2, 1)), 3: (3, 8, (2, 1, 0)), 4: (4, 8, (3, 2, 1, 0))}


def _spell(combo: Combo) -> Spell:
    return (int(combo.kind), combo.value, combo.suits)


def _beats(a: Spell, b: Spell) -> bool:
    """Does spell ``a``, cast after ``b``, win against it (seed: kinds, Ace over King, suits)?
    Badef beats a Cantrip and ties any other kind; of two Jokulmes the first wins."""
    ka, kb = a[0], b[0]
    if kb == Kind.JOKULME:
        return False
    if ka == Kind.JOKULME:
        return True
    if ka == Kind.BADEF:
        return kb == Kind.CANTRIP
    if kb == Kind.BADEF:
        return False  # against a Badef: a Cantrip loses, anything stronger ties
    if ka != kb:
        return ka > kb
    if a[1] == 1 and b[1] == 13:
        return True
    if a[1] == 13 and b[1] == 1:
        return False
    return (a[1], a[2]) > (b[1], b[2])


def _table(view: Mapping[str, Any], seat: int) -> list[Spell]:
    """The spells cast before this seat in the trick: exact when face-up, guessed by count."""
    out: list[Spell] = []
    for p in view["trick"]["plays"]:
        if p["seat"] == seat:
            continue
        cards = p.get("cards")
        combo = classify(cards) if cards else None
        out.append(_spell(combo) if combo is not None else _GUESS.get(int(p["count"]), _GUESS[4]))
    return out


def _kind(cards: Sequence[str]) -> int:
    """The kind of the combination ``cards`` form (0 if none)."""
    combo = classify(tuple(cards))
    return 0 if combo is None else int(combo.kind)


def _card_value(card: str) -> int:
    """A card's value (A = 1 .. K = 13; 0 for a Joker or no card)."""
    combo = classify((card,))
    return 0 if combo is None else combo.value


def _cost(cards: Sequence[str]) -> float:
    """What a spell spends: each card's worth (a Joker most, then K, Q...; an Ace is worth a
    middling card: it only wins against Kings)."""
    total = 0.0
    for c in cards:
        v = _card_value(c)
        total += 16.0 if v == 0 else 7.0 if v == 1 else float(v)
    return total


def _strength(cards: Sequence[str]) -> float:
    """A spell's strength for ordering: kind first, then value (Ace low), Badef above a Codu."""
    combo = classify(tuple(cards))
    if combo is None:
        return 0.0
    kind = {Kind.BADEF: 1.5, Kind.JOKULME: 9.0}.get(combo.kind, float(combo.kind))
    return kind * 100 + combo.value


Scorer = Callable[[ActionModel, Mapping[str, Any]], float]


def _choose(
    state: State, seat: int, rng: random.Random, score: Scorer, draw_risk: Callable[[Mapping[str, Any]], int]
) -> ActionModel:
    """Answer whatever the seat is asked: a draw by ``draw_risk`` (clamped to the legal range),
    a spell by ``score`` (best first, ties by ``rng``), changed on a replay (module docstring)."""
    view = state.view(seat)
    actions = state.legal_actions(seat)
    if view["you"]["asked"] == "draw":
        draws = [a for a in actions if a.to_json()["type"] == "draw"]
        if not draws:
            return state.sample_action(seat, rng)
        want = draw_risk(view)
        return min(draws, key=lambda a: abs(int(a.to_json()["risk"]) - want))
    plays = [a for a in actions if a.to_json()["type"] == "play"]
    if not plays:
        return state.sample_action(seat, rng)
    replay = int(view["trick"].get("replay", 0))
    if replay >= 2:
        down = [a for a in plays if a.to_json()["risk"] is None] or plays
        return down[rng.randrange(len(down))]
    if replay == 1:
        mine = set(view["you"].get("played") or ())
        fresh = [a for a in plays if set(a.to_json()["cards"]) != mine and _kind(a.to_json()["cards"]) != Kind.BADEF]
        plays = fresh or plays
    best: list[ActionModel] = []
    top = float("-inf")
    for a in plays:
        s = score(a, view)
        if s > top:
            top, best = s, [a]
        elif s == top:
            best.append(a)
    return best[rng.randrange(len(best))]


def _combo_of(action: ActionModel) -> Spell:
    combo = classify(tuple(action.to_json()["cards"]))
    assert combo is not None  # every legal spell is a combination
    return _spell(combo)


def _wins_table(action: ActionModel, view: Mapping[str, Any], seat: int) -> bool:
    mine = _combo_of(action)
    return all(_beats(mine, other) for other in _table(view, seat))


def _ahead(view: Mapping[str, Any], seat: int) -> bool:
    tricks = [int(p["tricks"]) for p in view["players"] if not p.get("removed")]
    return int(view["players"][seat]["tricks"]) > max([t for i, t in enumerate(tricks) if i != seat] or [0])


# ------------------------------------------------------------------ the players
def strongest(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Strongest combination first: every trick it casts, face-down, the spell of the strongest
    kind it holds (Jokulme, then Raquav, Thrack, Codu, Badef, Cantrip), of the highest value;
    it refills from the Deck of Advantage only."""

    def score(a: ActionModel, view: Mapping[str, Any]) -> float:
        d = a.to_json()
        return _strength(d["cards"]) - (1000.0 if d["risk"] is not None else 0.0)

    return _choose(state, seat, rng, score, lambda view: 0)


def _economical_score(a: ActionModel, view: Mapping[str, Any], seat: int, jokers_reserved: bool) -> float:
    d = a.to_json()
    if d["risk"] is not None:
        return -1e6
    cards = d["cards"]
    has_joker = any(_kind((c,)) == Kind.BADEF for c in cards)
    if view["trick"].get("last"):
        return _strength(cards)  # nothing to save for: the strongest spell
    if _wins_table(a, view, seat):
        # the cheapest winning spell; when others still cast after it, a little margin of strength
        later = len(view["trick"]["order"]) - len(view["trick"]["plays"]) - 1
        penalty = 40.0 if (jokers_reserved and has_joker) else 0.0
        return 1000.0 - _cost(cards) + (0.3 * _strength(cards) if later > 0 else 0.0) - penalty
    return -_cost(cards) - (100.0 if has_joker else 0.0)  # it cannot win: spend the least


def economical(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Economical: the cheapest face-down spell that beats every spell already cast (face-down ones
    taken for a middling spell of their size), a little stronger when others cast after it; when
    nothing in hand beats the table, its cheapest single card (never a Joker). The last trick
    before the end of the hand gets its strongest spell. Draws from the Deck of Advantage."""
    return _choose(state, seat, rng, lambda a, v: _economical_score(a, v, seat, False), lambda view: 0)


def risky(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Risk-taker: it casts its spell face-up, putting its lowest loose card on the Deck of Risk,
    whenever the spell is a Codu or better (showing it costs little, the junk card is gone and the
    refill brings a fresh one); otherwise as the economical player. Its draws gamble on the
    Cursed Spell: ahead in tricks it draws only from the Deck of Advantage (the Curse ends the
    hand sooner), behind it takes all it may from the Deck of Risk (the hand lasts longer)."""

    def score(a: ActionModel, view: Mapping[str, Any]) -> float:
        d = a.to_json()
        base = dict(d, risk=None)
        plain = type(a).model_validate(base)
        s = _economical_score(plain, view, seat, False)
        if d["risk"] is None:
            return s
        combo = classify(tuple(d["cards"]))
        risk_combo = classify((d["risk"],))
        if combo is None or risk_combo is None or combo.kind in (Kind.CANTRIP, Kind.BADEF):
            return -1e6
        hand = view["you"]["hand"]
        loose = sum(1 for c in hand if _card_value(c) == risk_combo.value)
        if risk_combo.value == 0 or loose > 1 or risk_combo.value > 8:
            return -1e6  # only a lone low card goes on the Deck of Risk
        return s + 0.5 + (8 - risk_combo.value) * 0.01

    def draw(view: Mapping[str, Any]) -> int:
        return 0 if _ahead(view, seat) else 8

    return _choose(state, seat, rng, score, draw)


def joker(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Jokers as answers: a Badef is cast only against a table of Cantrips (which it always beats)
    and a Jokulme only in the last trick or against a spell nothing else in hand beats; otherwise
    it plays as the economical player, its Jokers held back. Leading, it casts its lowest Codu (a
    Codu beats every Cantrip) or else a middling card. Draws from the Deck of Advantage."""

    def score(a: ActionModel, view: Mapping[str, Any]) -> float:
        d = a.to_json()
        if d["risk"] is not None:
            return -1e6
        combo = classify(tuple(d["cards"]))
        assert combo is not None
        table = _table(view, seat)
        if view["trick"].get("last"):
            return _strength(d["cards"])
        if combo.kind is Kind.BADEF:
            return 2000.0 if table and all(t[0] == Kind.CANTRIP for t in table) else -500.0
        if combo.kind is Kind.JOKULME:
            return 500.0 if table and max(int(t[0]) for t in table) >= Kind.THRACK else -600.0
        if not table:
            if combo.kind is Kind.CODU:
                return 1500.0 - combo.value
            return 1000.0 - abs(combo.value - 7) if combo.kind is Kind.CANTRIP else 900.0 - _cost(d["cards"])
        return _economical_score(a, view, seat, True)

    return _choose(state, seat, rng, score, lambda view: 0)


PLAYERS: tuple[PoolPlayer, ...] = (
    PoolPlayer("strongest", "magic-duel", "strongest combination every trick", "tune", strongest),
    PoolPlayer("economical", "magic-duel", "cheapest spell that beats the table", "tune", economical),
    PoolPlayer("risky", "magic-duel", "junk onto the Deck of Risk, races the Curse when ahead", "holdout", risky),
    PoolPlayer("joker", "magic-duel", "Jokers kept as answers, Codu leads", "holdout", joker),
)

#: the steady heuristic player of the game (``python -m bench ai``'s first opponent)
HEURISTIC: Player = heuristics.magic_duel
