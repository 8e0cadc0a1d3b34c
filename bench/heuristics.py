"""Rule-based heuristic players, one per game: the baseline ``python -m bench ai`` measures the AI
against (issue 16: "AI normal beats a rule-based heuristic player").

Every heuristic is a :data:`Player` (``(state, seat, rng) -> action``) that reads only what its
seat may know: ``state.view(seat)`` and ``state.legal_actions(seat)`` (the seat's own legal
moves). It never looks at the opponents' hidden cards, bets or plans. It scores every legal action
(:func:`_best`; a large lazy list is sampled first) and plays the best one, ties broken by ``rng``,
so it always plays a legal move and is deterministic for a given ``rng``.

The strategies (each documented on its function):

- Wizards Cup (:func:`wizards_cup`): build and order the Deck by Value.
- Firewall (:func:`firewall`): bet by the distance from one's wizard to the wall.
- Magic Duel (:func:`magic_duel`): cast the strongest combination, draw safely.
- Arena (:func:`arena`): attack the enemy Wizard first, close in otherwise.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rules.actions import ActionModel
from rules.core import State
from rules.registry import game_slugs

Player = Callable[[State, int, random.Random], ActionModel]

#: At most this many legal actions are scored (a random sample of a larger list).
MAX_SCORED = 4000


def _best(actions: Sequence[ActionModel], score: Callable[[ActionModel], float], rng: random.Random) -> ActionModel:
    """The highest-scoring action (ties broken at random by ``rng``)."""
    n = len(actions)
    if n == 0:
        raise ValueError("no legal action to choose from")
    indices: Sequence[int] = range(n) if n <= MAX_SCORED else rng.sample(range(n), MAX_SCORED)
    best: list[ActionModel] = []
    top = float("-inf")
    for i in indices:
        action = actions[i]
        s = score(action)
        if s > top:
            top, best = s, [action]
        elif s == top:
            best.append(action)
    return best[rng.randrange(len(best))]


def _data(action: ActionModel) -> Mapping[str, Any]:
    return action.to_json()


# ------------------------------------------------------------------ Wizards Cup
@functools.cache
def _wc_values() -> dict[str, int]:
    import rules.wizards_cup as pkg

    data = json.loads((Path(pkg.__file__).parent / "default_set.json").read_text(encoding="utf-8"))
    return {c["id"]: int(c["value"]) for c in data["cards"]}


def wizards_cup(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Wizards Cup by Value: choose the five highest-Value cards for the Deck; play them in
    decreasing Value (the strongest Wizards duel first, when both Decks are full) and keep the
    lowest-Value card Waiting; between rounds swap the lowest-Value Deck card for the best unused
    card when that raises the Deck's Value; the Botanist keeps a Waiting card of Value 7 or more
    and discards a weaker one. Card powers are ignored."""
    values = _wc_values()

    def value(card: str) -> int:
        return values.get(card, 0)

    actions = state.legal_actions(seat)

    def score(action: ActionModel) -> float:
        d = _data(action)
        kind = d["type"]
        if kind == "choose_deck":
            return float(sum(value(c) for c in d["cards"]))
        if kind == "plan":
            order = d["order"]
            # lexicographic: the waiting card as low as possible, then decreasing Value in order
            s = -100.0 * value(d["waiting"])
            for i, c in enumerate(order):
                s += value(c) * 0.5**i
            return float(s)
        if kind == "swap":
            if d["remove"] is None:
                return 0.0
            return float(value(d["add"]) - value(d["remove"]))
        if kind == "botanist":
            you = state.view(seat).get("you", {})
            waiting = you.get("waiting")
            weak = waiting is not None and value(waiting) < 7
            return 1.0 if bool(d["discard"]) == weak else 0.0
        return 0.0

    return _best(actions, score, rng)


# ------------------------------------------------------------------ Firewall
def firewall(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Firewall by distance to the lava: the wall moves one flagstone toward the lower bettor's
    wizard, so the closer the wall stands to one's own wizard, the more of the mana goes on the
    bet: everything when the wall is one flagstone away, about ``mana / distance`` otherwise,
    never less than a quarter of the mana spread over the turns left. Spells: Attack Boost (7)
    and Double Dose (8) are cast whenever held; nothing else. Larceny applies every stolen spell
    that is not Winner Loses (9); Recycle raises the bet by as much as it may."""
    view = state.view(seat)
    me = view["players"][seat]
    mana = int(me["mana"])
    bridge = view["bridge"]
    distance = max(1, abs(int(bridge["wall"]) - int(bridge["wizards"][seat])))
    turns_left = max(1, int(view.get("turns_total", 3)) - int(view.get("turn", 0)))
    target = mana if distance <= 1 else max(mana // distance, mana // (4 * turns_left), 1)
    target = max(1, min(mana, target))
    wanted = {7, 8}
    actions = state.legal_actions(seat)

    def score(action: ActionModel) -> float:
        d = _data(action)
        kind = d["type"]
        if kind == "turn":
            spells = set(d["spells"])
            return -abs(int(d["bet"]) - target) * 10.0 + 3.0 * len(spells & wanted) - len(spells - wanted)
        if kind == "larceny":
            return float(sum(1 if c != 9 else -1 for c in d["apply"]))
        if kind == "recycle":
            return float(d["bet"])
        return 0.0

    return _best(actions, score, rng)


# ------------------------------------------------------------------ Magic Duel
def magic_duel(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Magic Duel by strength: cast the combination with the most cards (Raquav over Thrack over
    Codu over Cantrip), of the highest Value among those, cast face-down (no card risked on the
    Deck of Risk); Jokers count as the weakest cards. Refill the hand from the Deck of Advantage
    only (no Risk cards)."""
    from rules.magic_duel.cards import card_value

    actions = state.legal_actions(seat)

    def score(action: ActionModel) -> float:
        d = _data(action)
        kind = d["type"]
        if kind == "play":
            cards = d["cards"]
            top = max((card_value(c) or 0) for c in cards)
            return len(cards) * 100.0 + top - (50.0 if d["risk"] is not None else 0.0)
        if kind == "draw":
            return -float(d["risk"])
        return 0.0

    return _best(actions, score, rng)


# ------------------------------------------------------------------ Arena
def arena(state: State, seat: int, rng: random.Random) -> ActionModel:
    """Arena by aggression: a model's Action against the enemy Wizard first, then against an enemy
    Minion; an active model moves to the square nearest (king's-move distance) the enemy Wizard;
    models are activated before the activation or the turn is ended; every set-up choice
    (discipline, terrain, deployment, spell, dice) is made at random."""
    view = state.view(seat)
    mine = f"p{seat + 1}-"
    enemy_wizard = None
    for m in view.get("models", []):
        if int(m["owner"]) != seat and m["kind"] == "wizard" and m.get("pos") is not None:
            enemy_wizard = m["pos"]
    actions = state.legal_actions(seat)

    def score(action: ActionModel) -> float:
        d = _data(action)
        kind = d["type"]
        if kind == "act":
            target = d.get("target")
            if target is None:
                return 50.0
            if target.startswith(mine):
                return -5.0
            return 100.0 if target.endswith("wizard") else 80.0
        if kind == "move":
            if enemy_wizard is None:
                return 10.0
            x, y = d["to"]
            return 40.0 - float(max(abs(x - enemy_wizard[0]), abs(y - enemy_wizard[1])))
        if kind == "select_model":
            return 20.0
        if kind == "end_activation":
            return -20.0
        if kind == "end_turn":
            return -30.0
        return 0.0

    return _best(actions, score, rng)


def heuristic_player(slug: str) -> Player:
    """The heuristic player of the game ``slug`` (its pool module's ``HEURISTIC``; a random player
    for a game without a pool)."""
    from .pool import pool_module  # the pool modules import this one

    try:
        module = pool_module(slug)
    except ModuleNotFoundError:  # the pool module is not written yet (see bench.ai_tasks.pool_players)
        module = None
    found: Player | None = getattr(module, "HEURISTIC", None) if module is not None else None
    return found if found is not None else random_player


def heuristics() -> dict[str, Player]:
    """The heuristic player of every registered game that has one, by slug."""
    from .pool import pool_module

    return {slug: heuristic_player(slug) for slug in game_slugs() if pool_module(slug) is not None}


def random_player(state: State, seat: int, rng: random.Random) -> ActionModel:
    """A uniformly random legal action (``State.sample_action``)."""
    return state.sample_action(seat, rng)
