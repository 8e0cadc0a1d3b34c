"""Firewall's opponent pool (issue 32): four rule-based players of clearly different styles.

Written from the rule text, ``docs/rulings/firewall.md`` and ``docs/actions/firewall.md`` only (never
from the AI's code). Each player reads its seat's view through :func:`bench.pool.firewall_seen.seen`
and lays its turn directly (bet, spells, Clone's target); Larceny's choice, Recycle's new bet and the
chosen-order variant's stock are answered by the shared rules of :mod:`bench.pool.firewall_seen`.

- ``steady`` (tune): a steady share of its mana by the wall's distance to its wizard, a reserve kept
  against the opponent's, spells where they count.
- ``mirror`` (tune): mana parity with the opponent, bets just above what the opponent has been
  betting, hard defence when the wall is next to it, copies the opponent's spells with Clone.
- ``opener`` (holdout): big boosted bets on the first turns of a round, then small coasting bets.
- ``spells`` (holdout): modest bets and a spell nearly every turn, in combinations.

Rules every style applies first, each in its own way around them (the rule text makes them plain
good play): End of Round when ending the round now drops the opponent off the bridge; the *sure bet*
(one more than the opponent's whole mana) when the wall is one step from the opponent's wizard, or
next to mine with half the opponent's mana kept, guarded by Larceny or Muteness against a Resistance
or Winner Loses (``_sure_turn``); and with the wall next to my wizard while the opponent can outbid
my whole mana, Resistance, Winner Loses, Middle or End of Round on a token bet
(:func:`bench.pool.firewall_seen.danger`); and when the round ending with the wall where it stands
would drop my wizard, every attack spell on a bet above the opponent's expected one (``_all_out``).
"""

from __future__ import annotations

import random

from rules.actions import ActionModel
from rules.core import State
from rules.firewall.actions import Turn

from . import Player, PoolPlayer, Split
from .firewall_seen import (
    BAD_LOSER,
    BOOST,
    CLONE,
    DOSE,
    END,
    INFERNO,
    LARCENY,
    MAX_MANA,
    MIDDLE,
    MUTE,
    RECYCLE,
    RESERVE,
    RESISTANCE,
    SUCTION,
    WINNER_LOSES,
    Seen,
    answer,
    capped,
    clone_worth,
    danger,
    decisive,
    jitter,
    make_turn,
)


def _sure_turn(s: Seen, extra: set[int]) -> Turn | None:
    """The decisive sure bet (see :func:`decisive`) when there is one, guarded against the
    opponent's spells that would spoil it (Resistance, Winner Loses, Middle: a sure bet blocked or
    reversed leaves me poorer): with Larceny when held (it steals them), else with Muteness alone when
    the opponent probably holds one of them, else with the style's ``extra`` spells. Without a sure
    bet, the defence when the opponent can outbid me with the wall next to me (:func:`danger`)."""
    sure = decisive(s)
    if sure is None:
        return danger(s)
    if s.muted:
        return make_turn(s, sure)
    if LARCENY in s.hand:
        return make_turn(s, sure, {LARCENY} | (extra & s.hand))
    safe = 1.0
    for card in [RESISTANCE, WINNER_LOSES] + ([MIDDLE] if s.round_gain() > 0 else []):
        safe *= 1 - s.opp_may_hold(card)
    if safe < 0.5 and MUTE in s.hand:
        return make_turn(s, sure, [MUTE])
    return make_turn(s, sure, extra & s.hand)


def _all_out(s: Seen, bet: float) -> Turn | None:
    """The do-or-die turn when the round ending with the wall where it stands would drop me off the
    bridge (and the wall is not next to me, where the defence rules apply): every attack spell held
    (Attack Boost, Double Dose, Inferno, Recycle, Bad Loser, Reserve Boost, Suction) and at least the
    guess of the opponent's bet + 1. None otherwise (or while muted)."""
    if s.muted or s.near == 1 or not s.falls(s.wall, True):
        return None
    spells = {BOOST, DOSE, RECYCLE, BAD_LOSER, SUCTION} & s.hand
    if s.mana <= MAX_MANA - 10:
        spells |= {RESERVE} & s.hand
    if s.far >= 2 and spells & {BOOST, DOSE}:
        spells |= {INFERNO} & s.hand
    return make_turn(s, capped(s, max(bet, s.opp_guess() + 1), finishing=s.far == 1), spells)


def _lock_in(s: Seen, *, behind_by: int) -> bool:
    """Whether End of Round is worth casting: it makes the opponent fall, or the wall stands on the
    opponent's side of where the round began while my mana trails the opponent's by ``behind_by``."""
    if END not in s.hand or s.muted:
        return False
    verdict = s.ending_now()
    if verdict != 0:
        return verdict > 0
    return s.round_gain() > 0 and s.mana + behind_by <= s.opp_mana


# ------------------------------------------------------------------ steady
def _steady_turn(s: Seen, rng: random.Random) -> Turn:
    share = {1: 0.5, 2: 0.3}.get(s.near, 0.2)
    if s.far == 1:
        share = max(share, 0.35)
    bet = jitter(rng, s.mana * share)
    if s.near > 1:  # keep a reserve against what the opponent still holds
        bet = min(bet, s.mana - s.opp_mana / 4)
    if _lock_in(s, behind_by=6):
        return make_turn(s, 1, [END])
    sure = _sure_turn(s, set())
    if sure is not None:
        return sure
    if (out := _all_out(s, bet)) is not None:
        return out
    if s.muted or not s.hand:
        return make_turn(s, capped(s, bet))
    spells: set[int] = set()
    if s.near == 1:
        if RESISTANCE in s.hand:
            spells.add(RESISTANCE)
            bet = 1 + rng.randrange(2)
            if SUCTION in s.hand and s.mana <= MAX_MANA - 8:
                spells.add(SUCTION)
        elif MIDDLE in s.hand and s.round_gain() < 0:
            spells.add(MIDDLE)
            bet = s.mana * 0.25
        elif WINNER_LOSES in s.hand and s.opp_mana > s.mana:
            spells.add(WINNER_LOSES)
            bet = 1
    important = s.near <= 2 or s.far == 1
    if not spells and important:
        if BOOST in s.hand:
            spells.add(BOOST)
            bet -= 6
        if DOSE in s.hand and (s.near == 1 or s.far == 1 or BOOST not in s.hand):
            spells.add(DOSE)
            bet *= 0.6
        if spells and INFERNO in s.hand and s.far == 2:
            spells.add(INFERNO)
        if RECYCLE in s.hand and not spells and bet >= 6:
            spells.add(RECYCLE)
    if RESERVE in s.hand and s.mana <= MAX_MANA - 15 and (s.near >= 2 or RESISTANCE in spells):
        spells.add(RESERVE)
    if SUCTION in s.hand and s.mana <= MAX_MANA - s.opp_guess() and s.opp_guess() >= 10:
        spells.add(SUCTION)
    if BAD_LOSER in s.hand and bet >= 10 and s.near >= 2:
        spells.add(BAD_LOSER)
    if LARCENY in s.hand and s.far == 1 and s.opp_hand >= 2:
        spells.add(LARCENY)
    wanted = [c for c in clone_worth(s) if c in s.clone_options]
    if CLONE in s.hand and wanted and (important or wanted[0] in (RESERVE, SUCTION)):
        spells.add(CLONE)
    return make_turn(s, capped(s, bet, finishing=s.far == 1 and bool(spells & {BOOST, DOSE})), spells, wanted)


def steady(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Steady: bets a steady share of its mana by the wall's distance to its own wizard (a fifth at
    three steps, three tenths at two, half when the wall is next to it, at least a third to finish the
    round), moved by up to a fifth either way, and never below a quarter of the opponent's mana in
    reserve (an empty reserve hands the opponent one step per point it kept), nor its last point
    unless the bet finishes the round. Spells: End of Round when it drops the opponent off the bridge
    or locks in a lead while its mana trails; with the wall next to it, Resistance with a token bet
    (plus Suction: the opponent will bet big), else Middle, else Winner Loses on a token bet when the
    opponent is richer; Attack Boost and Double Dose (lowering the bet) when the wall is two steps
    from it or one from the opponent, with Inferno when that makes two steps; Recycle on a sizable
    contested bet; Reserve Boost and Suction when its mana is low; Bad Loser on a big bet; Larceny
    when the opponent must defend; Clone when the opponent's last spells hold a useful one. Never
    Muteness with its own other spells (it never casts Muteness)."""
    return answer(state, seat, rng, (RESISTANCE, BOOST, DOSE, RESERVE, SUCTION, END, MIDDLE, RECYCLE), _steady_turn)


# ------------------------------------------------------------------ mirror
def _mirror_turn(s: Seen, rng: random.Random) -> Turn:
    guess = s.opp_guess()
    surplus = s.mana - s.opp_mana
    if s.near == 1:  # defend hard: outbid what the opponent can throw at the last step
        bet = max(guess + 2, min(s.opp_mana, s.mana) * 0.5) + rng.randrange(3)
    elif s.opp_last_share is None:  # a round's first turn: nothing seen yet, a fifth of the mana
        bet = s.mana * 0.2 + rng.randrange(3)
    elif surplus >= 0:  # at parity or above: just above its bets, keeping parity after the turn
        bet = min(guess + 1 + rng.randrange(3), guess + surplus + 2)
    elif s.near == 2 or s.far == 1:  # behind, one step from danger (or from the win): hold the line
        bet = guess + 1
    else:  # behind: let the opponent pay for its steps and win the mana back
        bet = 1 + rng.randrange(3)
    spells: set[int] = set()
    if _lock_in(s, behind_by=1):
        return make_turn(s, 1, [END])
    sure = _sure_turn(s, {SUCTION} if s.near == 1 else set())
    if sure is not None:
        return sure
    if (out := _all_out(s, bet)) is not None:
        return out
    if not s.muted and s.hand:
        wanted = [c for c in clone_worth(s) if c in s.clone_options]
        if CLONE in s.hand and wanted:
            spells.add(CLONE)
        if s.near == 1:
            if RESISTANCE in s.hand:
                spells.add(RESISTANCE)
                bet = 1
            elif MIDDLE in s.hand and s.round_gain() < 0:
                spells.add(MIDDLE)
            elif BOOST in s.hand or DOSE in s.hand:
                spells |= {BOOST, DOSE} & s.hand
                bet = max(guess * 0.6, bet * 0.5)
            if SUCTION in s.hand and s.mana <= MAX_MANA - guess:
                spells.add(SUCTION)
        elif s.far == 1 and (BOOST in s.hand or DOSE in s.hand):
            spells |= {BOOST, DOSE} & s.hand  # the step that matters, won cheaply
            bet = max(1.0, min(bet, (guess + 1) / 2 if DOSE in s.hand else guess - 5))
        if SUCTION in s.hand and surplus < -8 and guess >= 8:
            spells.add(SUCTION)
        if RESERVE in s.hand and surplus < 0 and s.mana <= MAX_MANA - 13:
            spells.add(RESERVE)
        if RECYCLE in s.hand and s.near <= 2 and bet >= 4 and RESISTANCE not in spells:
            spells.add(RECYCLE)
        return make_turn(s, capped(s, bet, finishing=s.far == 1), spells, wanted)
    return make_turn(s, capped(s, bet, finishing=s.far == 1))


def mirror(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Mirror (mana parity): keeps its mana at or above the opponent's, which it sees in the view. Its
    guess of the opponent's bet is the share of its mana the opponent bet on the previous turn of the
    round, scaled up when the wall has come nearer the opponent's wizard (half its mana when the wall
    is next to it). On a round's first turn it bets a fifth of its mana (+0 to 2); at parity or above
    one to three above the guess, no more than keeps parity after the turn; behind, the guess + 1
    when the wall is two steps from it or one from the opponent, else 1 to 3, letting the opponent
    pay for its steps; with the wall next to its own wizard it defends hard (the guess + 2, or half
    the smaller reserve). Spells: End of Round to lock in a lead
    or make the opponent fall; Clone of the opponent's useful last spell; next to the wall Resistance
    on a token bet, else Middle, else Attack Boost and Double Dose, and Suction (the opponent bets
    big there); Attack Boost and Double Dose to finish the round cheaply; Reserve Boost when behind
    in mana (its full 13 points), Suction when far behind; Recycle on contested bets. Never
    Muteness."""
    return answer(state, seat, rng, (CLONE, SUCTION, RESISTANCE, BOOST, DOSE, RESERVE, MIDDLE, END), _mirror_turn)


# ------------------------------------------------------------------ opener
def _opener_turn(s: Seen, rng: random.Random) -> Turn:
    spells: set[int] = set()
    live = not s.muted
    opening = s.turn < 2 and s.near >= 2
    if live and _lock_in(s, behind_by=10):
        return make_turn(s, 1, [END])
    sure = _sure_turn(s, {BOOST} if s.far == 1 else set())
    if sure is not None:
        return sure
    if (out := _all_out(s, s.mana * 0.3)) is not None:
        return out
    if opening:
        first = s.mana * 0.3 if s.turn == 0 else max(s.opp_guess() + 2, s.mana * 0.2)
        bet = jitter(rng, first, 0.1)
        if live:
            spells |= {BOOST, DOSE} & s.hand
            bet = bet * (0.7 if DOSE in spells else 1) - (4 if BOOST in spells else 0)
            if spells and INFERNO in s.hand:
                spells.add(INFERNO)
            if RECYCLE in s.hand and not spells:
                spells.add(RECYCLE)
            if BAD_LOSER in s.hand:
                spells.add(BAD_LOSER)
    elif s.near == 1:
        bet = jitter(rng, min(s.mana, s.opp_mana) * 0.5)
        if live:
            if RESISTANCE in s.hand:
                spells.add(RESISTANCE)
                bet = 1
            elif MIDDLE in s.hand and s.round_gain() < 0:
                spells.add(MIDDLE)
            else:
                spells |= {BOOST, DOSE} & s.hand
    elif s.far == 1:  # one step to go: a solid bet, boosted
        bet = jitter(rng, max(s.opp_guess() + 2, s.mana * 0.3), 0.1)
        if live:
            spells |= {BOOST, DOSE} & s.hand
            if LARCENY in s.hand and s.opp_hand >= 2:
                spells.add(LARCENY)
    else:  # coasting
        bet = 1 + rng.randrange(3 if s.mana >= s.opp_mana else 2)
    if live and RESERVE in s.hand and s.mana <= MAX_MANA - 13 and s.near >= 2:
        spells.add(RESERVE)
    if live and SUCTION in s.hand and s.mana <= MAX_MANA - 10 and not opening:
        spells.add(SUCTION)
    wanted = [c for c in clone_worth(s) if c in s.clone_options]
    if live and CLONE in s.hand and wanted:
        spells.add(CLONE)
    return make_turn(s, capped(s, bet, finishing=s.far == 1), spells, wanted)


def opener(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Opener (aggressive start): on the first two turns of every round (while the wall is not next
    to it) it bets big, three tenths of its mana, then the guess of the opponent's bet + 2 or a fifth
    of its mana, with Attack Boost and Double Dose (the bet lowered by 4, resp. to 70%; Inferno with
    them: two steps at once), Recycle or Bad Loser, to push the wall away fast; then it
    coasts on bets of 1 to 3, letting the opponent spend, except to finish (the guess of the
    opponent's bet + 2, or three tenths of its mana, boosted, with Larceny against the defence) or to
    defend (Resistance on a token bet, else Middle, else half the smaller reserve, boosted). Reserve
    Boost and Suction refill it after the opening; End of Round only to drop the opponent or lock in
    a lead when far behind in mana. Never Muteness."""
    return answer(state, seat, rng, (BOOST, DOSE, INFERNO, RESERVE, RESISTANCE, RECYCLE, END, MIDDLE), _opener_turn)


# ------------------------------------------------------------------ spells
def _spells_turn(s: Seen, rng: random.Random) -> Turn:
    guess = s.opp_guess()
    bet = jitter(rng, s.mana * 0.15)
    if s.near == 1:
        bet = max(bet, min(s.mana, s.opp_mana) * 0.3)
    if _lock_in(s, behind_by=0):
        return make_turn(s, 1, [END])
    sure = _sure_turn(s, {BOOST, DOSE, SUCTION})
    if sure is not None:
        return sure
    if (out := _all_out(s, bet)) is not None:
        return out
    if s.muted or not s.hand:
        return make_turn(s, capped(s, max(bet, guess + 1) if s.near == 1 else bet))
    hand = s.hand
    spells: set[int] = set()
    wanted = [c for c in clone_worth(s) if c in s.clone_options]
    if CLONE in hand and wanted:
        spells.add(CLONE)
    if MIDDLE in hand and s.round_gain() < 0 and s.near <= 2:
        spells.add(MIDDLE)
    if END in hand and s.round_gain() < 0 and s.near == 1 and s.ending_now() >= 0 and MIDDLE not in spells:
        return make_turn(s, 1, [END])  # the wall on its side: stop the round before it is lost
    power = bet
    if BOOST in hand:
        spells.add(BOOST)
        power += 7
    if DOSE in hand:
        spells.add(DOSE)
        power *= 2
    winning = power > guess * 1.3
    if winning and INFERNO in hand and s.far >= 2:
        spells.add(INFERNO)
    if not winning and WINNER_LOSES in hand and s.far >= 2 and not spells & {BOOST, DOSE}:
        spells.add(WINNER_LOSES)  # expect to be outbid: the stronger attack pushes the wall onto itself
        bet = 1
    if s.near == 1 and RESISTANCE in hand:
        spells.add(RESISTANCE)
    if BAD_LOSER in hand and not winning:
        spells.add(BAD_LOSER)
    if RECYCLE in hand and (s.near <= 2 or s.far <= 2):
        spells.add(RECYCLE)
    if RESERVE in hand and s.mana <= MAX_MANA - 13:
        spells.add(RESERVE)
    if SUCTION in hand and s.mana <= MAX_MANA - guess:
        spells.add(SUCTION)
    if LARCENY in hand and s.opp_hand >= 3 and (s.far <= 2 or s.near == 1):
        spells.add(LARCENY)
    if MUTE in hand and not spells and s.opp_hand >= 4 and len(hand) <= 2:
        spells = {MUTE}  # few spells left against a full hand: silence the rest of the round
    return make_turn(s, capped(s, bet, finishing=s.far == 1), spells, wanted)


def spells(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Spells (spell-heavy): modest bets (about 15% of its mana, at least 30% of the smaller reserve
    with the wall next to it) and spells nearly every turn: Attack Boost with Double Dose whenever it
    holds them, Inferno when the boosted attack should beat the opponent's expected bet, Winner Loses
    on a token bet when it expects to be outbid, Middle when the wall stands on its side, End of Round
    when the wall is next to it (or to drop the opponent, or lock in a lead), Resistance next to the
    wall, Bad Loser when it may lose the bid, Recycle on contested turns, Reserve Boost and Suction
    whenever they add mana, Larceny against a full hand near either end, Clone of the opponent's
    useful last spell, and Muteness alone when few of its spells remain against a full hand."""
    return answer(
        state, seat, rng, (DOSE, BOOST, INFERNO, WINNER_LOSES, LARCENY, RESISTANCE, END, MIDDLE), _spells_turn
    )


def _pool(name: str, split: Split, play: Player, style: str) -> PoolPlayer:
    return PoolPlayer(name=name, slug="firewall", style=style, split=split, play=play)


PLAYERS: tuple[PoolPlayer, ...] = (
    _pool("steady", "tune", steady, "a steady share of its mana by the wall's distance; spells where they count"),
    _pool("mirror", "tune", mirror, "mana parity: bets just above the opponent's bets; hard defence by the wall"),
    _pool("opener", "holdout", opener, "big boosted bets on a round's first turns, then small coasting bets"),
    _pool("spells", "holdout", spells, "modest bets and spells nearly every turn, in combinations"),
)
