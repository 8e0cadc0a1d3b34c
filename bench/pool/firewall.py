"""Firewall's opponent pool (issue 32): four rule-based players of clearly different styles.

Written from the rule text, ``docs/rulings/firewall.md`` and ``docs/actions/firewall.md`` only (never
from the AI's code). Each player reads its seat's view through :func:`rules.ai.firewall_seen.seen`
and lays its turn directly (bet, spells, Clone's target); Larceny's choice, Recycle's new bet and the
chosen-order variant's stock are answered by the shared rules of :mod:`rules.ai.firewall_seen`.
The tune half (``steady``, ``mirror``) and the rules every style shares live in
:mod:`rules.ai.firewall_script`, since the AI's normal and hard levels play them out as scripts
(:mod:`rules.ai.firewall_portfolio`); the holdout half is here only and the AI never uses it.

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
or Winner Loses (:func:`rules.ai.firewall_script.sure_turn`); and with the wall next to my wizard
while the opponent can outbid my whole mana, Resistance, Winner Loses, Middle or End of Round on a token bet
(:func:`rules.ai.firewall_seen.danger`); and when the round ending with the wall where it stands
would drop my wizard, every attack spell on a bet above the opponent's expected one
(:func:`rules.ai.firewall_script.all_out`).
"""

from __future__ import annotations

import random

from rules.actions import ActionModel
from rules.ai.firewall_script import all_out, lock_in, mirror, steady, sure_turn
from rules.ai.firewall_seen import (
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
    jitter,
    make_turn,
)
from rules.core import State
from rules.firewall.actions import Turn

from .. import heuristics
from . import Player, PoolPlayer, Split


# ------------------------------------------------------------------ opener
def _opener_turn(s: Seen, rng: random.Random) -> Turn:
    spells: set[int] = set()
    live = not s.muted
    opening = s.turn < 2 and s.near >= 2
    if live and lock_in(s, behind_by=10):
        return make_turn(s, 1, [END])
    sure = sure_turn(s, {BOOST} if s.far == 1 else set())
    if sure is not None:
        return sure
    if (out := all_out(s, s.mana * 0.3)) is not None:
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
    if lock_in(s, behind_by=0):
        return make_turn(s, 1, [END])
    sure = sure_turn(s, {BOOST, DOSE, SUCTION})
    if sure is not None:
        return sure
    if (out := all_out(s, bet)) is not None:
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

#: the steady heuristic player of the game (``python -m bench ai``'s first opponent)
HEURISTIC: Player = heuristics.firewall
