"""Firewall's scripts (issue 32): the opponent pool's tune half, ``steady`` and ``mirror``, which the
AI's normal and hard levels play out as their playout players (:mod:`rules.ai.firewall_portfolio`),
and the rules every pool style applies first (:func:`sure_turn`, :func:`all_out`, :func:`lock_in`);
:mod:`bench.pool.firewall` adds the holdout half, ``opener`` and ``spells``, on top of them.

Written from the rule text, ``docs/rulings/firewall.md`` and ``docs/actions/firewall.md`` only (never
from the AI's code). Each player reads its seat's view through :func:`rules.ai.firewall_seen.seen`
and lays its turn directly (bet, spells, Clone's target); Larceny's choice, Recycle's new bet and
the chosen-order variant's stock are answered by the shared rules of :mod:`rules.ai.firewall_seen`.

- ``steady``: a steady share of its mana by the wall's distance to its wizard, a reserve kept
  against the opponent's, spells where they count.
- ``mirror``: mana parity with the opponent, bets just above what the opponent has been betting,
  hard defence when the wall is next to it, copies the opponent's spells with Clone.

Rules every style applies first, each in its own way around them (the rule text makes them plain
good play): End of Round when ending the round now drops the opponent off the bridge; the *sure bet*
(one more than the opponent's whole mana) when the wall is one step from the opponent's wizard, or
next to mine with half the opponent's mana kept, guarded by Larceny or Muteness against a Resistance
or Winner Loses (:func:`sure_turn`); and with the wall next to my wizard while the opponent can
outbid my whole mana, Resistance, Winner Loses, Middle or End of Round on a token bet
(:func:`rules.ai.firewall_seen.danger`); and when the round ending with the wall where it stands
would drop my wizard, every attack spell on a bet above the opponent's expected one (:func:`all_out`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from ..actions import ActionModel
from ..core import State
from ..firewall.actions import Turn
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

Script = Callable[[State, int, random.Random], ActionModel]


def sure_turn(s: Seen, extra: set[int]) -> Turn | None:
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


def all_out(s: Seen, bet: float) -> Turn | None:
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


def lock_in(s: Seen, *, behind_by: int) -> bool:
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
    if lock_in(s, behind_by=6):
        return make_turn(s, 1, [END])
    sure = sure_turn(s, set())
    if sure is not None:
        return sure
    if (out := all_out(s, bet)) is not None:
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
    if lock_in(s, behind_by=1):
        return make_turn(s, 1, [END])
    sure = sure_turn(s, {SUCTION} if s.near == 1 else set())
    if sure is not None:
        return sure
    if (out := all_out(s, bet)) is not None:
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


#: The scripts by name (the pool's tune half), in the order the portfolio search uses them.
SCRIPTS: Mapping[str, Script] = {"steady": steady, "mirror": mirror}
