"""Arena set-up for the search's prior (:mod:`rules.ai.arena_guard`): the Discipline, read from the
rules' data rather than left to the search (a playout that starts at set-up ends long before the
Disciplines' strengths show: the search's choice was effectively random).

Each Discipline is scored by the damage its side deals an enemy Wizard per turn, less what it
takes, from the rules' data (``arena_data.json``, docs/rulings/arena.md) alone:

- the **Wizard's spell**: Spell Selection offers the Discipline Spell with two dice (a 3 or any
  double, ruling 16: 16/36; the Blood Mage's sacrifice is not counted, it costs D6 Health) and
  Arcane Rocket otherwise (always offered, range 6, 2 damage); only a spell that damages an enemy
  counts; each cast an opposed roll, D6 + the Wizard's Skill against D6 + an enemy Wizard's Defence,
  a tie doubling the damage half the time and reflecting it the other half (ruling 29);
- the **Minion's Action** the same way with the Minion's Skill, a half weight (a Minion falls to
  4 Health and is not the game); an Astral Warlock's Minion strikes whatever the Wizard sees
  (ruling 26): range 6;
- each Action by its **reach**, Move + range out of :data:`REACH` (a short reach must walk into the
  enemy's, the whole side exposed for it);
- **defence**: the Metallurgist's Wizard rolls two Defence dice (ruling 27): the damage it takes
  from a typical strike (a Wizard's Skill, the Disciplines' average output) is less.

The **deployment** (ruling 11: each model on a free square of the own edge row) keeps the Wizard
out of the enemy's way: the Wizard goes first, on the square farthest from the enemy Wizard (when
it is already deployed), then the one with the most terrain within 2 squares (terrain blocks paths
and lines of sight, ruling 1), then the nearest to a corner (fewer squares next to it, so fewer
enemies can strike it at range 1); the Minion next to it on the side of the enemy Wizard (or the
board's centre), a screen on its open side.
"""

from __future__ import annotations

from functools import cache

from ..actions import ActionModel
from ..arena.actions import ChooseDiscipline, deploy
from ..arena.board import Square, edge_squares, manhattan
from ..arena.data import ActionDef, ArenaData, Discipline, load_data
from ..arena.game import Phase
from ..arena.state import ArenaState
from ..core import State
from .arena_threat import discipline_chance, opposed_odds

#: Move + range at which an Action counts in full (a strike from across most of the board).
REACH = 10
#: The weight of the Minion's damage against the Wizard's.
MINION_WEIGHT = 0.5


def _mean(adef: ActionDef) -> float:
    d = adef.damage
    if d is None or adef.target not in ("enemy", "enemy_wizard"):
        return 0.0
    return d.count * (d.sides + 1) / 2 if d.count else float(d.flat)


def _hit(skill: int, defence: int, two_dice: bool = False) -> float:
    """Expected share of an Action's damage that lands: a win in full, a tie doubled half the time
    and reflected on the attacker the other half (net: half of it)."""
    win, tie = opposed_odds(skill, defence, two_dice)
    return win + 0.5 * tie


def _reach(move: int, rng: int | None) -> float:
    return min(1.0, (move + (REACH if rng is None else rng)) / REACH)


def _offence(data: ArenaData, d: Discipline) -> float:
    wiz = data.wizard
    rocket = data.generic["arcane_rocket"]
    p = discipline_chance(2)
    hit = _hit(wiz["skill"], wiz["defence"])
    own = _mean(d.spell) * hit * _reach(wiz["move"], d.spell.range)
    other = _mean(rocket) * hit * _reach(wiz["move"], rocket.range)
    spell = p * max(own, other) + (1.0 - p) * other
    m = d.minion
    rng = 6 if d.id == "astral_warlock" else m.action.range
    minion = _mean(m.action) * _hit(m.skill, wiz["defence"]) * _reach(m.move, rng)
    return spell + MINION_WEIGHT * minion


@cache
def discipline_scores() -> dict[str, float]:
    """Each Discipline's score (see the module docstring), by id."""
    data = load_data()
    offence = {k: _offence(data, d) for k, d in data.disciplines.items()}
    typical = sum(offence.values()) / len(offence)
    wiz = data.wizard
    plain = _hit(wiz["skill"], wiz["defence"])
    scores = {}
    for k, v in offence.items():
        taken = _hit(wiz["skill"], wiz["defence"], k == "metallurgist") / plain
        scores[k] = v - typical * taken
    return scores


def best_discipline() -> ChooseDiscipline:
    """The Discipline of the highest score."""
    scores = discipline_scores()
    return ChooseDiscipline(discipline=max(scores, key=lambda k: scores[k]))


def deployment(st: ArenaState, seat: int) -> ActionModel | None:
    """``seat``'s next deployment (see the module docstring), or None when it has none to make."""
    p = st.players[seat]
    if st.phase != Phase.DEPLOY or st.deploy_seat != seat or p.edge is None:
        return None
    is_free = st.free_test()
    free = [sq for sq in edge_squares(p.edge, st.size) if is_free(sq)]
    if not free:
        return None
    enemy = st.wizard(1 - seat)
    mid = (st.size - 1) / 2
    if "wizard" not in p.deployed:
        terrain = st.terrain

        def key(sq: Square) -> tuple[int, int, float]:
            far = manhattan(sq, enemy.pos) if enemy is not None else 0
            cover = sum(1 for t in terrain if manhattan(sq, t) <= 2)
            return far, cover, abs(sq[0] - mid) + abs(sq[1] - mid)

        return deploy("wizard", max(free, key=key))
    if "minion" in p.deployed:
        return None
    wiz = st.wizard(seat)
    if wiz is None:
        return deploy("minion", free[0])
    goal = enemy.pos if enemy is not None else (round(mid), round(mid))
    return deploy("minion", min(free, key=lambda sq: (manhattan(sq, wiz.pos), manhattan(sq, goal))))


def setup_prior(state: State, seat: int) -> ActionModel | None:
    """The set-up choice the rules' data favours for ``seat`` (the Discipline, the deployment), or
    None."""
    assert isinstance(state, ArenaState)
    if state.phase == Phase.DISCIPLINE and state.players[seat].discipline is None:
        return best_discipline()
    return deployment(state, seat)


__all__ = ["best_discipline", "deployment", "discipline_scores", "setup_prior"]
