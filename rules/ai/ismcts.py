"""Information-set Monte Carlo tree search (Cowling, Powley & Whitehouse 2012), for every game.

One search decides one action for one seat (the *root seat*). Each iteration:

1. **Determinize**: sample a full state consistent with what the root seat knows
   (:func:`rules.ai.determinize.determinize`); the true state is never read otherwise.
2. **Select / expand**: walk down a tree whose nodes are information sets: a node is keyed by the
   acting seat and a digest of ``view(acting seat)`` (what that seat knows when it acts), so the
   same node is reached from every determinization that the acting seat cannot tell apart, and a
   seat never sees an opponent's secret choice of the same simultaneous step (views hide it).
   Because a seat's legal actions follow from what it knows, the edges of a node are available at
   every visit (the availability count of ISMCTS is the node's visit count); an edge that is not
   legal in this determinization is skipped all the same. Large action spaces (a Wizards Cup plan,
   a Firewall turn) are opened by progressive widening: a node with ``n`` visits has at most
   ``WIDEN_C * n ** WIDEN_ALPHA`` edges, each new edge a random untried legal action; among the
   open edges UCT picks ``mean + C * sqrt(ln n / visits)``. Chance steps are sampled
   (``sample_action(CHANCE, rng)``) and are no nodes. When several seats are awaited at once
   (simultaneous secret picks) the root seat acts first, then the others in seat order. A game's
   *opponent model* (its tuning's ``model``), where it has one, plays the other seats' steps it
   covers like chance: the tree then holds the root seat's replies to the opponent as it is seen
   to play.
3. **Playout**: uniformly random legal play to the end (``apply_trusted`` on the
   non-narrating determinization), or the game's epsilon-greedy playout policy up to its
   cut-off, where its evaluation function scores the position (:mod:`rules.ai.policy`; the
   tree also considers only the game's pruned actions).
4. **Backpropagate**: each edge on the path adds the acting seat's reward (win 1, draw 0.5,
   loss 0; with more seats, the share of the other seats it placed ahead of, ties half).

The chosen action is the root's most visited edge (a game's *prior* action, what a sound player
would play, counts :data:`PRIOR_SHARE` of the iterations more); its mean reward is the estimated
chance of winning. The search stops early once no other edge can catch up with the most visited one in the
iterations left (the same action, sooner). Levels set the number of iterations (:data:`LEVELS`, scaled per game by
its tuning's ``scale``); easy also plays a random legal
action now and then. Everything is drawn from one ``random.Random(seed)``: deterministic.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..actions import ActionModel
from ..core import CHANCE, Actor, State
from ..events import Outcome
from .determinize import determinize
from .policy import DEFAULT, Tuning, tuning

#: UCT exploration constant (rewards are in 0..1).
UCT_C = 0.7
WIDEN_C = 2.0
WIDEN_ALPHA = 0.5


@dataclass(frozen=True)
class Budget:
    """How hard a level searches: ``iterations`` determinize-select-playout rounds; with
    probability ``noise`` the level plays a uniformly random legal action instead."""

    iterations: int
    noise: float = 0.0
    #: the level's name (for a game's ``level_scale``); empty for a budget made by hand
    level: str = ""


LEVELS: dict[str, Budget] = {
    "easy": Budget(iterations=60, noise=0.15, level="easy"),
    "normal": Budget(iterations=400, level="normal"),
    "hard": Budget(iterations=1500, level="hard"),
}


def iterations_for(budget: Budget, slug: str) -> int:
    """The iterations ``budget`` allows in the game ``slug``: scaled by the game's tuning
    (:class:`rules.ai.policy.Tuning`'s ``scale``, or its ``level_scale`` for the budget's level)."""
    tune = tuning(slug)
    scale = tune.level_scale.get(budget.level, tune.scale)  # a hand-made budget's level "" has none
    return max(8, round(budget.iterations * scale))


@dataclass
class Edge:
    action: ActionModel
    visits: int = 0
    reward: float = 0.0


@dataclass
class Node:
    visits: int = 0
    edges: dict[ActionModel, Edge] = field(default_factory=dict)


@dataclass(frozen=True)
class SearchResult:
    action: ActionModel
    #: the estimated chance (0..1) that the root seat wins, playing ``action``.
    value: float
    iterations: int
    #: root edges: action -> (visits, mean reward).
    stats: dict[ActionModel, tuple[int, float]]


def rewards(outcome: Outcome | None, num_seats: int) -> list[float]:
    """Each seat's reward: the share of the other seats it finished ahead of (ties count half):
    with two seats, win 1, draw 0.5, loss 0."""
    if outcome is None or num_seats < 2:
        return [0.5] * num_seats
    ranks = outcome.ranks
    out = []
    for i in range(num_seats):
        ahead = sum(
            1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0 for j in range(num_seats) if j != i
        )
        out.append(ahead / (num_seats - 1))
    return out


def info_key(state: State, seat: int) -> bytes:
    """The information set ``seat`` acts in: a digest of (seat, its view)."""
    text = json.dumps(state.view(seat), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(f"{seat}|{text}".encode(), digest_size=16).digest()


def _actor(state: State, root: int) -> Actor | None:
    aw = state.awaiting
    if aw.is_terminal:
        return None
    if aw.is_chance:
        return CHANCE
    return root if root in aw.seats else min(aw.seats)


def playout(state: State, rng: random.Random, tune: Tuning = DEFAULT) -> None:
    """Play on in place: uniformly random legal play to the end of the game, or with ``tune``
    its epsilon-greedy playout policy, until its horizon or stop (:mod:`rules.ai.policy`)."""
    apply, sample = state.apply_trusted, state.sample_action
    policy, epsilon, horizon, stop = tune.policy, tune.epsilon, tune.horizon, tune.stop
    steps = 0
    while True:
        aw = state.awaiting
        if aw.is_terminal:
            return
        if horizon is not None and steps >= horizon:
            return
        if stop is not None and stop(state):
            return
        steps += 1
        if aw.is_chance:
            apply(CHANCE, sample(CHANCE, rng))
            continue
        seat = min(aw.seats)
        if policy is not None and rng.random() >= epsilon:
            apply(seat, policy(state, seat, rng))
        else:
            apply(seat, sample(seat, rng))


def final_rewards(state: State, tune: Tuning = DEFAULT) -> list[float]:
    """Each seat's reward where a playout ended: from the outcome when the game is over, else
    the game's evaluation function (0.5 each without one)."""
    if state.outcome is not None or tune.evaluate is None:
        return rewards(state.outcome, state.num_seats)
    return [min(1.0, max(0.0, v)) for v in tune.evaluate(state)]


def _new_action(legal: Sequence[ActionModel], node: Node, rng: random.Random) -> ActionModel | None:
    """A random legal action without an edge in ``node`` (None when every one has one)."""
    n = len(legal)
    if len(node.edges) >= n:
        return None
    for _ in range(8):  # usually found at once: the node has few edges of many actions
        action = legal[rng.randrange(n)]
        if action not in node.edges:
            return action
    untried = [a for a in legal if a not in node.edges]
    return untried[rng.randrange(len(untried))] if untried else None


def legal_for_tree(state: State, seat: int, tune: Tuning = DEFAULT) -> Sequence[ActionModel]:
    """The legal actions the tree considers for ``seat``: all, or the game's pruned list."""
    legal = state.legal_actions(seat)
    if tune.prune is not None and len(legal) > 1:
        kept = tune.prune(state, seat, legal)
        if kept:
            return kept
    return legal


def _select(
    state: State, seat: int, node: Node, rng: random.Random, tune: Tuning = DEFAULT
) -> tuple[ActionModel, bool]:
    """The action to follow from ``node`` (and whether it is a new edge)."""
    legal = legal_for_tree(state, seat, tune)
    uct_c = tune.uct_c
    if len(node.edges) < WIDEN_C * (node.visits + 1) ** WIDEN_ALPHA:
        action = _new_action(legal, node, rng)
        if action is not None:
            return action, True
    log_n = math.log(max(1, node.visits))
    ranked = sorted(
        node.edges.values(),
        key=lambda e: e.reward / e.visits + uct_c * math.sqrt(log_n / e.visits) if e.visits else math.inf,
        reverse=True,
    )
    for edge in ranked:
        if state.is_legal(seat, edge.action):
            return edge.action, False
    action = _new_action(legal, node, rng)  # no open edge is legal in this determinization
    if action is None:
        action = legal[rng.randrange(len(legal))]
    return action, True


def _select_root(actions: Sequence[ActionModel], node: Node, rng: random.Random) -> ActionModel:
    """The root edge to follow when the root is limited to ``actions``: one not yet visited (in
    order), else the best by UCT."""
    for action in actions:
        edge = node.edges.get(action)
        if edge is None or not edge.visits:
            return action
    log_n = math.log(max(1, node.visits))

    def uct(action: ActionModel) -> float:
        edge = node.edges[action]
        return edge.reward / edge.visits + UCT_C * math.sqrt(log_n / edge.visits)

    return max(actions, key=uct)


def search(
    state: State,
    seat: int,
    budget: Budget,
    *,
    seed: int,
    time_limit: float | None = None,
    early_stop: bool = True,
    root_actions: Sequence[ActionModel] | None = None,
) -> SearchResult:
    """Search from ``seat``'s information set in ``state`` for ``budget.iterations`` rounds.

    ``time_limit`` (seconds; None, the default, for none) is a safety net: the search stops
    early when it is reached (then the result depends on the machine's speed). With
    ``early_stop`` (the default) it also stops once the most visited root edge cannot be caught
    up in the iterations left: the same action (the estimate has fewer samples).

    ``root_actions`` (legal actions of ``seat``; None, the default, for every one) limits the
    root to these edges, with no prior and no early stop: given one action, the result's value is
    the search's estimate of playing it (then the best replies), what a review of a move played
    needs (:mod:`rules.ai.review`). The default search is unchanged by it."""
    legal = state.legal_actions(seat)
    if not legal:
        raise ValueError(f"seat {seat} is not awaited")
    if root_actions is not None:
        legal = list(dict.fromkeys(root_actions))
        if not legal or not all(state.is_legal(seat, a) for a in legal):
            raise ValueError(f"root_actions must be legal actions of seat {seat}")
        early_stop = False
    rng = random.Random(seed)
    tune = tuning(state.game.slug)
    if len(legal) == 1 and root_actions is None:
        return SearchResult(legal[0], _quick_value(state, seat, rng, tune), 0, {})
    if tune.search is not None and budget.level in tune.search_levels:
        found: SearchResult = tune.search(state, seat, budget, seed, time_limit, root_actions)
        return found
    tree: dict[bytes, Node] = {}
    root_key = info_key(state, seat)
    iterations = iterations_for(budget, state.game.slug)
    prior = None
    if tune.prior is not None and root_actions is None:
        prior = tune.prior(determinize(state, seat, rng, reopen=True), seat)
    margin = round(PRIOR_SHARE * iterations) if prior is not None else 0
    if prior is not None:  # the prior is an edge from the start (widening could leave it unopened)
        tree[root_key] = Node(edges={prior: Edge(prior)})
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    model = tune.model
    done = 0
    for _ in range(iterations):
        if deadline is not None and done >= 1 and time.perf_counter() > deadline:
            break
        done += 1
        sim = determinize(state, seat, rng, reopen=True)
        path: list[tuple[Node, Edge, int]] = []
        expanded = False
        while not expanded:
            actor = _actor(sim, seat)
            if actor is None:
                break
            if actor == CHANCE:
                sim.apply_trusted(CHANCE, sim.sample_action(CHANCE, rng))
                continue
            if actor != seat and model is not None:
                modelled = model(sim, actor, rng)
                if modelled is not None:  # the opponent as the game's model has it play: chance
                    sim.apply_trusted(actor, modelled)
                    continue
            key = root_key if not path else info_key(sim, actor)
            node = tree.get(key)
            if node is None:
                node = tree[key] = Node()
                expanded = True  # a new node: one step from it, then play out
            if root_actions is not None and not path:
                action, new = _select_root(legal, node, rng), False
            else:
                action, new = _select(sim, actor, node, rng, tune)
            edge = node.edges.get(action)
            if edge is None:
                edge = node.edges[action] = Edge(action)
            expanded = expanded or new
            path.append((node, edge, actor))
            sim.apply_trusted(actor, action)
        playout(sim, rng, tune)
        result = final_rewards(sim, tune)
        for node, edge, actor in path:
            node.visits += 1
            edge.visits += 1
            edge.reward += result[actor]
        if early_stop and done % CHECK_EVERY == 0 and _decided(tree[root_key], iterations - done, prior, margin):
            break
    root = tree[root_key]
    stats = {a: (e.visits, e.reward / e.visits) for a, e in root.edges.items() if e.visits}
    best = max(root.edges.values(), key=lambda e: (e.visits + (margin if e.action == prior else 0), e.reward))
    action = best.action
    if budget.noise and rng.random() < budget.noise:
        action = legal[rng.randrange(len(legal))]
    value = root.edges[action].reward / root.edges[action].visits if action in stats else best.reward / best.visits
    return SearchResult(action, min(1.0, max(0.0, value)), done, stats)


#: Iterations between two checks whether the root's choice is already decided (:func:`_decided`).
CHECK_EVERY = 4


#: The share of a search's iterations by which another root action must out-visit the game's
#: prior action (:class:`rules.ai.policy.Tuning`) to be played instead of it.
PRIOR_SHARE = 0.15


def _decided(root: Node, remaining: int, prior: ActionModel | None = None, margin: int = 0) -> bool:
    """Whether the most visited root edge (the prior's counted ``margin`` visits more) stays the
    most visited whatever the ``remaining`` iterations do (each adds one visit to one edge, an edge
    opened later starts at 0): the search stops early with the action it would have chosen anyway.
    A prior not yet opened as an edge could still win: not decided."""
    if prior is not None and prior not in root.edges:
        return False
    first = second = 0
    for edge in root.edges.values():
        visits = edge.visits + (margin if edge.action == prior else 0)
        if visits > first:
            first, second = visits, first
        elif visits > second:
            second = visits
    return first > second + remaining


def _quick_value(state: State, seat: int, rng: random.Random, tune: Tuning = DEFAULT, playouts: int = 16) -> float:
    """The chance of winning by playouts (for a decision with one legal action)."""
    total = 0.0
    for _ in range(playouts):
        sim = determinize(state, seat, rng, reopen=True)
        playout(sim, rng, tune)
        total += final_rewards(sim, tune)[seat]
    return total / playouts
