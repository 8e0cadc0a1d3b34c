"""Magic Duel's determinizer: what a seat cannot see, resampled from what it knows.

Hidden from ``seat``: the other wizards' hands (their sizes are public), the Deck of Risk and the
Deck of Advantage (their counts are public; the Cursed Spell is somewhere in the Deck of
Advantage), the cards set aside from removed wizards, the cards of the other wizards' face-down
spells of the current trick (their counts are public: they were cast before the seat, in secret)
and the cards they put on the Deck of Risk. Kept: the seat's own hand, its own spell and the card
it risked for it (where it lies in the Deck of Risk), face-up spells, gathered tricks, points.

The unknown cards are pooled, sorted (canonical: the true deal does not show through) and
shuffled with the seeded rng. Each other wizard's face-down spell of ``k`` cards is sampled with
an opponent model: a hand of its size plus ``k`` is dealt from the pool until one holds a
``k``-card spell (``k`` of one value, or one or two Jokers), and the spell is that hand's
strongest of that size half the time (:data:`STRONG_SPELL`: players cast strong spells), else
one of them at random; the rest of the dealt cards are the wizard's hand (when no deal holds
one, the first ``k``-card spell in the pool's order is taken; when an earlier wizard's sampled
hand took the cards a later spell needs, all are sampled again: :func:`_sample_spells`). Then
the other hands, the Deck of Risk's unknown places, the Deck of Advantage and the set-aside
cards are dealt from the rest in that order, at their true sizes. Spells are cast in turn
order, so no committed choice of a simultaneous step needs taking back (``reopen`` changes
nothing here).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ..actions import ActionModel
from ..core import State
from ..magic_duel.actions import DRAWS, PlayCards, play_action
from ..magic_duel.cards import CURSE, SORT_POS, VALUE, Combo, Kind, card_value, classify
from ..magic_duel.game import Phase
from ..magic_duel.state import MagicDuelState
from ..magic_duel.verdict import Play, TrickPlay, resolve
from .kit import AIKit
from .policy import Tuning


def _take_combination(pool: list[str], size: int) -> list[str] | None:
    """The first ``size``-card combination in ``pool``'s order (removed from it), if any."""
    groups: dict[int, list[str]] = {}
    for card in pool:
        if card == CURSE:
            continue
        value = card_value(card)
        if value is None or (value == 0 and size > 2):
            continue
        group = groups.setdefault(value, [])
        group.append(card)
        if len(group) == size:
            for c in group:
                pool.remove(c)
            return group
    return None


#: The chance that a sampled face-down spell is the strongest spell of its size in the sampled
#: hand (the opponent model), rather than any spell of that size: players cast strong spells far
#: more often than a uniform choice would (the rule-based players do every time).
STRONG_SPELL = 0.5
#: Hands dealt (from the shuffled pool) in search of one that holds a spell of a face-down
#: spell's size, before the spell is taken straight from the pool.
_DEALS = 4


def _spells_of_size(hand: Sequence[str], size: int) -> dict[int, list[str]]:
    """The values of which ``hand`` holds a ``size``-card spell, with its cards of that value (a
    Joker's value 0: one or two Jokers are a spell)."""
    groups: dict[int, list[str]] = {}
    for card in hand:
        value = VALUE.get(card)
        if value is not None:
            groups.setdefault(value, []).append(card)
    return {v: cards for v, cards in groups.items() if len(cards) >= size and (v != 0 or size <= 2)}


def _sample_spell(pool: list[str], hand_size: int, size: int, rng: random.Random) -> tuple[list[str], list[str]] | None:
    """A wizard's face-down spell of ``size`` cards and its hand of ``hand_size`` after casting
    it, both taken from ``pool`` (in its order): a hand of ``hand_size + size`` cards is dealt
    until one holds a spell of that size (at most :data:`_DEALS` deals), then the spell is its
    strongest of that size (a Joker above a King) with probability :data:`STRONG_SPELL`, else one
    of its spells of that size at random. None when no deal holds one."""
    dealt = hand_size + size
    for attempt in range(min(_DEALS, max(1, len(pool) // max(1, dealt)))):
        hand = pool[attempt * dealt : (attempt + 1) * dealt]
        if len(hand) < dealt:
            break
        spells = _spells_of_size(hand, size)
        if not spells:
            continue
        values = sorted(spells)
        if rng.random() < STRONG_SPELL:
            value = max(values, key=lambda v: 14 if v == 0 else v)
            cards = sorted(spells[value], key=SORT_POS.__getitem__, reverse=True)[:size]
        else:
            value = values[rng.randrange(len(values))]
            group = sorted(spells[value])
            cards = rng.sample(group, size)
        for c in hand:
            pool.remove(c)
        rest = [c for c in hand if c not in cards]
        return cards, rest
    return None


#: Samplings of the face-down spells tried before the true ones are taken (:func:`_sample_spells`).
_TRIES = 4


def _sample_spells(
    pool: list[str], wanted: Sequence[tuple[int, int, int]], rng: random.Random
) -> tuple[list[list[str]], dict[int, list[str]]] | None:
    """The face-down spells of ``wanted`` (seat, its hand's size, the spell's size; in turn
    order) taken from ``pool`` (removed from it), with the hands dealt to the seats whose spell
    came from a dealt hand (:func:`_sample_spell`, else :func:`_take_combination`). At a table of
    three or more, an earlier wizard's sampled hand can take the cards that a later spell needs
    (the last four cards of a value for a face-down Raquav): then the pool is shuffled again and
    all spells sampled again; the last try takes the spells only, the largest first, no hands.
    None when every try fails (the true spells' cards are in ``pool``: the caller takes them, so
    the sample stays a possible deal; it has not been seen to happen)."""
    for attempt in range(_TRIES):
        work = list(pool)
        if attempt:
            rng.shuffle(work)
        last = attempt == _TRIES - 1
        order = sorted(range(len(wanted)), key=lambda k: -wanted[k][2]) if last else range(len(wanted))
        spells: dict[int, list[str]] = {}
        dealt: dict[int, list[str]] = {}
        for k in order:
            seat, hand_size, size = wanted[k]
            sampled = None if last else _sample_spell(work, hand_size, size, rng)
            cards: list[str] | None
            if sampled is not None:
                cards, dealt[seat] = sampled
            else:
                cards = _take_combination(work, size)
            if cards is None:
                break
            spells[k] = cards
        else:
            pool[:] = work
            return [spells[k] for k in range(len(wanted))], dealt
    return None


def determinize(state: State, seat: int, rng: random.Random, reopen: bool = False) -> State:
    assert isinstance(state, MagicDuelState)
    sim = state.clone(narrate=False)
    trick = sim.trick
    mine = next((p for p in trick.plays if p.seat == seat), None) if trick is not None else None
    own_risk = mine.risk if mine is not None else None
    others = [s for s in range(sim.num_seats) if s != seat]
    hidden_plays = (
        [i for i, p in enumerate(trick.plays) if p.seat != seat and not p.face_up] if trick is not None else []
    )
    risk_slots = [i for i, c in enumerate(sim.risk) if c != own_risk]
    pool = [c for s in others for c in sim.hands[s]]
    cursed = CURSE in sim.advantage  # it stays in the Deck of Advantage, at a random place
    pool += [sim.risk[i] for i in risk_slots] + [c for c in sim.advantage if c != CURSE] + sim.set_aside
    assert trick is not None or not hidden_plays
    for i in hidden_plays:
        pool += trick.plays[i].cards  # type: ignore[union-attr]
    pool.sort()
    rng.shuffle(pool)
    dealt: dict[int, list[str]] = {}  # the hands of the wizards whose face-down spell was sampled
    if trick is not None and hidden_plays:
        plays = list(trick.plays)
        wanted = [(plays[i].seat, len(sim.hands[plays[i].seat]), len(plays[i].cards)) for i in hidden_plays]
        cast = _sample_spells(pool, wanted, rng)
        if cast is None:  # no sample found: the true spells (see _sample_spells)
            spells = [list(plays[i].cards) for i in hidden_plays]
            for cards in spells:
                for c in cards:
                    pool.remove(c)
        else:
            spells, dealt = cast
        for i, cards in zip(hidden_plays, spells, strict=True):
            combo = classify(cards)
            assert combo is not None  # a k-card spell of one value, or one or two Jokers
            plays[i] = TrickPlay(plays[i].seat, combo, None)
        trick.plays = plays
    at = 0
    for s in others:
        if s in dealt:
            sim.hands[s] = dealt[s]
            continue
        n = len(sim.hands[s])
        sim.hands[s] = pool[at : at + n]
        at += n
    for i in risk_slots:
        sim.risk[i] = pool[at]
        at += 1
    n = len(sim.advantage) - cursed
    sim.advantage = pool[at : at + n]
    at += n
    if cursed:
        sim.advantage.insert(rng.randrange(n + 1), CURSE)
    sim.set_aside = pool[at : at + len(sim.set_aside)]
    return sim


# ---------------------------------------------------------------------------- search knowledge
#: A Joker's cost when spent (above a King): Jokers are kept for when they win a trick.
_JOKER_COST = 16


def _candidates(hand: Sequence[str]) -> list[Combo]:
    """The face-down spells worth considering in ``hand``: for each value, 1 to 4 of its cards
    (the highest suits first), and one or both Jokers."""
    groups: dict[int, list[str]] = {}
    for card in hand:
        value = VALUE.get(card)
        if value is not None:
            groups.setdefault(value, []).append(card)
    out: list[Combo] = []
    for value, cards in groups.items():
        cards.sort(key=SORT_POS.__getitem__, reverse=True)
        sizes = range(1, min(2, len(cards)) + 1) if value == 0 else range(1, min(4, len(cards)) + 1)
        for k in sizes:
            combo = classify(tuple(cards[:k]))
            if combo is not None:
                out.append(combo)
    return out


def _cost(combo: Combo) -> float:
    """What casting ``combo`` spends: its cards' values (a Joker costs more than a King)."""
    return sum(_JOKER_COST if VALUE.get(c, 0) == 0 else VALUE.get(c, 0) + 1 for c in combo.cards)


def _action(combo: Combo) -> ActionModel:
    return play_action(tuple(sorted(combo.cards, key=SORT_POS.__getitem__)), None)


def _casts_last(state: MagicDuelState, seat: int) -> bool:
    """``seat`` is the last wizard to cast in the current trick (every other wizard still in it
    has cast or passes), so nobody casts after seeing its spell."""
    t = state.trick
    if t is None:
        return False
    removed, hands = state.removed, state.hands
    later = [s for s in t.order[t.pos + 1 :] if s not in removed and hands[s]]
    return not later and t.order[t.pos] == seat


def _lowest_loose(hand: Sequence[str], spell: Sequence[str]) -> str | None:
    """The lowest card of ``hand`` outside ``spell`` that is no Joker and whose value no other card
    of the rest shares (a loose card: it is in no combination; the lowest suit first)."""
    rest = [c for c in hand if c not in spell]
    counts: dict[int, int] = {}
    for c in rest:
        counts[VALUE[c]] = counts.get(VALUE[c], 0) + 1
    loose = [c for c in rest if VALUE[c] != 0 and counts[VALUE[c]] == 1]
    return min(loose, key=lambda c: (VALUE[c], SORT_POS[c])) if loose else None


def with_risk(state: State, seat: int, action: ActionModel | None) -> ActionModel | None:
    """``action`` cast face-up with the hand's lowest loose card put on the Deck of Risk first
    (docs/rulings/magic-duel.md#cast-a-spell, docs/rulings/magic-duel.md#risk-card) when ``seat``
    casts last in a trick that is not the hand's last: showing the spell then costs nothing, as
    nobody casts after it, and the loose card (in no combination) is replaced at the draw by a
    fresh one. Otherwise ``action`` unchanged (a face-down cast, or no loose card to spare).
    Measured (the prior's cast alone, 500 games against each pool player, seats alternated):
    against "strongest" 54 -> 64 %, "economical" 71 -> 74 %, the holdouts "risky" 62 -> 66 % and
    "joker" 70 -> 74 % (docs/ai.md)."""
    assert isinstance(state, MagicDuelState)
    if not isinstance(action, PlayCards) or action.risk is not None or state.phase is not Phase.TRICK:
        return action
    t = state.trick
    if t is None or t.last or not _casts_last(state, seat):
        return action
    card = _lowest_loose(state.hands[seat], action.cards)
    return action if card is None else play_action(action.cards, card)


def policy(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Win tricks cheaply, never throw strong cards away: after others have cast, the cheapest
    spell that beats every spell cast so far, or (none does) the cheapest card; leading, half
    the time the strongest spell (most cards, then highest value; Jokers kept), else a random
    face-down spell of the hand; the last to cast puts a loose card on the Deck of Risk
    (:func:`with_risk`). Draws come from the Deck of Advantage."""
    assert isinstance(state, MagicDuelState)
    if state.phase is Phase.DRAW:
        return DRAWS[0]
    trick = state.trick
    cands = _candidates(state.hands[seat]) if state.phase is Phase.TRICK else []
    cands = _no_badef_again(state, cands)
    if trick is None or not cands:
        return state.sample_action(seat, rng)
    if not trick.plays:  # leading: the strongest spell (as a strong player would), or any
        if rng.random() < 0.5:
            return _action(max(cands, key=lambda c: (len(c.cards) if c.value else 0, c.value)))
        return _action(cands[rng.randrange(len(cands))])
    before = [Play(p.seat, p.combo) for p in trick.plays]
    best: Combo | None = None
    best_cost = math.inf
    for combo in cands:
        if resolve([*before, Play(seat, combo)]).winner == len(before):
            cost = _cost(combo)
            if cost < best_cost:
                best, best_cost = combo, cost
    if best is None:
        best = min(cands, key=lambda c: (len(c.cards) > 1, _cost(c)))
    return with_risk(state, seat, _action(best)) or _action(best)


def hand_over(state: State) -> bool:
    """A hand has been scored (the next deal is awaited): the playout stops and evaluates."""
    assert isinstance(state, MagicDuelState)
    return state.phase is Phase.DEAL


def evaluate(state: State) -> list[float]:
    """Each seat's reward after a hand: against each other seat, ``1/2 + 1/2 tanh(d / 2)`` of
    its lead ``d`` on points (a hand won 4-0 is worth more than one won 1-0), averaged over the
    other seats and drawn a little towards 1/2 (the game goes on)."""
    assert isinstance(state, MagicDuelState)
    points = state.points
    n = len(points)
    out = []
    for i in range(n):
        ahead = sum(0.5 + 0.5 * math.tanh((points[i] - points[j]) / 2) for j in range(n) if j != i)
        out.append(0.5 + 0.9 * (ahead / max(1, n - 1) - 0.5))
    return out


def _replayed(state: MagicDuelState) -> bool:
    """The current trick was tied and is being cast again (its replay count is public)."""
    return state.trick is not None and state.trick.replay > 0


def _no_badef_again(state: MagicDuelState, cands: list[Combo]) -> list[Combo]:
    """``cands`` without a Badef in a trick cast again after a tie (see :func:`prune`), unless
    nothing else is left."""
    if not _replayed(state):
        return cands
    return [c for c in cands if c.kind is not Kind.BADEF] or cands


def _badef(action: ActionModel) -> bool:
    return isinstance(action, PlayCards) and len(action.cards) == 1 and VALUE.get(action.cards[0]) == 0


def prune(state: State, seat: int, legal: Sequence[ActionModel]) -> Sequence[ActionModel]:
    """The tree leaves out face-up casts (a card put on the Deck of Risk): they show the spell
    and multiply the choices by the hand's size; all but the prior's (:func:`with_risk`: the
    last to cast shows nothing to anyone who still casts); and, in a trick being cast again after a tie, a
    lone Joker (Badef): a Badef ties against any Codu or better (rules), so casting it again
    against a player who casts the same spell again would tie the trick forever."""
    assert isinstance(state, MagicDuelState)
    if state.phase is not Phase.TRICK:
        return legal
    kept = [a for a in legal if isinstance(a, PlayCards) and a.risk is None]
    if _replayed(state):
        kept = [a for a in kept if not _badef(a)] or kept
    shown = prior(state, seat)
    if isinstance(shown, PlayCards) and shown.risk is not None:
        kept.append(shown)  # the prior's face-up cast (with_risk): the one worth considering
    return kept


def prior(state: State, seat: int) -> ActionModel | None:
    """What a sound player casts (:func:`sound_cast`), put face-up with a loose card on the Deck
    of Risk when ``seat`` casts last (:func:`with_risk`); between tricks, its draw: all from the
    Deck of Advantage (docs/rulings/magic-duel.md#draw-action). The Deck of Risk holds what the
    wizards put there, loose cards they did not want (the seat's own among them), where the Deck of
    Advantage gives fresh cards. The tree chose the draws by its noisy playouts before; with this
    prior normal won 26 and 29 of 40 against "strongest" and "economical" where it won 18 and 26
    (seeds 8100-8139, seats alternated; docs/ai.md)."""
    assert isinstance(state, MagicDuelState)
    if state.phase is Phase.DRAW:
        return DRAWS[0]
    return with_risk(state, seat, sound_cast(state, seat))


def sound_cast(state: State, seat: int) -> ActionModel | None:
    """What a sound player casts, seeing what ``seat`` sees (a face-down spell only by its size):
    leading, the strongest spell (most cards, then highest value; Jokers kept); following, the
    cheapest spell that beats every spell cast so far unless a face-down one is a Joker spell
    (more cards than the largest face-down spell, a Badef against lone face-down cards, a Jokulme
    always; face-up spells beaten outright): a lone face-down Badef only ties it (the rules:
    Badef against a Codu or better ties, and the trick is cast again), only two face-down Jokers
    (a Jokulme, which "wins any combination") beat it; else the highest spell of the face-down
    spells' size, else the cheapest card. Never a Badef
    again in a trick cast again after a tie (see :func:`prune`). None outside a trick."""
    assert isinstance(state, MagicDuelState)
    trick = state.trick
    if state.phase is not Phase.TRICK or trick is None:
        return None
    cands = _no_badef_again(state, _candidates(state.hands[seat]))
    if not cands:
        return None
    if not trick.plays:
        return _action(max(cands, key=lambda c: (len(c.cards) if c.value else 0, c.value)))
    known = [Play(p.seat, p.combo) for p in trick.plays if p.face_up]
    hidden = max((len(p.cards) for p in trick.plays if not p.face_up), default=0)

    def beats_known(combo: Combo) -> bool:
        return not known or resolve([*known, Play(seat, combo)]).winner == len(known)

    def beats_all_but_jokers(combo: Combo) -> bool:
        if hidden == 0 or combo.kind is Kind.JOKULME:
            return True
        if combo.kind is Kind.BADEF:
            return hidden == 1
        return len(combo.cards) > hidden

    winners = [c for c in cands if beats_all_but_jokers(c) and beats_known(c)]
    if winners:
        return _action(min(winners, key=_cost))
    same = [c for c in cands if len(c.cards) == hidden and c.kind is not Kind.BADEF and beats_known(c)]
    if same:
        return _action(max(same, key=lambda c: (c.value, c.suits)))
    return _action(min(cands, key=lambda c: (len(c.cards) > 1, _cost(c))))


#: scale 0.45: a 4-seat table's iterations cost more (four views to keep), so it searches
#: 45% of a level's iterations (docs/ai.md).
TUNING = Tuning(
    policy=policy,
    epsilon=0.15,
    stop=hand_over,
    evaluate=evaluate,
    prune=prune,
    uct_c=0.7,
    prior=prior,
    scale=0.45,
)


#: what the computer players know of the game (named by its registry entry)
KIT = AIKit(tuning=TUNING, determinize=determinize)
