"""A review after a match, as chess sites give one: the moves where a player's chance dropped most.

Given a finished match's log (:class:`rules.match.MatchLog`: chance is logged, so it replays
exactly) and a seat, :func:`review` replays the match and looks at every decision the seat made
(a step with a single legal action is no decision). At each one the AI searches the position as the
seat knew it (the search reads the state only through the game's determinizer, like
:func:`rules.ai.evaluate` and the Hint):

- ``before``: its estimate of the seat's chance with the AI's best move (the root value);
- ``after``: its estimate of the move actually played (a search whose root is that one move:
  ``search(..., root_actions=[played])``);
- the drop is ``before - after``.

Cost: a long Arena match has about a hundred decisions. Each is first *screened* at a quarter of
the review level's iterations (:data:`SCREEN_SHARE`): the played move's estimate is its root
edge's mean when the screening search tried it often enough, else a screening search forced to it.
The :data:`CANDIDATES` largest screened drops are then *examined* at the review level
(:data:`REVIEW_LEVEL`), and the :data:`TOP` largest examined drops of at least :data:`MIN_DROP`
where the player did not play the AI's move are the review's moments. Every search's seed comes
from the match's seed, the step and the seat (:func:`review_seed`): a match's review is always
the same.

The work comes in three parts a caller may run apart (the bot runs each in its process pool, a
few decisions per job, so computer players' decisions are not held up): :func:`decisions`,
:func:`screen` and :func:`examine`; :func:`pick` chooses the candidates and :func:`moments` the
moments. :func:`review` runs them all.

What is told of a move is what the seat is told when it plays it (its own account, placeholders
such as ``{p1}`` unfilled), on samples of what the seat cannot see; empty when the samples
disagree (the caller then describes the action itself). Nothing here reads another seat's hidden
cards. Pure: no discord, database or asyncio.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import ActionModel, Forfeit
from ..core import CHANCE, State, public_events
from ..match import MatchLog
from ..registry import get_game
from .determinize import determinize
from .ismcts import LEVELS, Budget, search

#: The level the review's chances are worked out at.
REVIEW_LEVEL = "normal"
#: The share of the review level's iterations a screening search has.
SCREEN_SHARE = 0.25
#: Decisions examined at the review level after the screening (the largest screened drops).
CANDIDATES = 5
#: Moments a review shows.
TOP = 3
#: The smallest drop a review shows (a smaller one is noise of the estimate).
MIN_DROP = 0.05
#: A screening search's root edge mean is used for the played move from this many visits on.
MIN_VISITS = 8
#: Samples of the hidden information a move's account is told on (they must agree).
ACCOUNT_SAMPLES = 3


@dataclass(frozen=True)
class Screened:
    """A decision's screening: the log index of the seat's move, the screened chance before
    (the AI's best move) and after (the move played), and whether the AI would have played it."""

    step: int
    before: float
    after: float
    same: bool

    @property
    def drop(self) -> float:
        return self.before - self.after


@dataclass(frozen=True)
class Moment:
    """One move the review shows: the log index of the seat's move (``step``), the game's name for
    that point (``label``: "Round 2", "Round 1, turn 3", "Hand 2 · trick 1", "Turn 5"; empty when
    the game has none), the move played and the AI's move (as JSON, and told to the seat:
    ``played_text``/``best_text``, placeholders unfilled, empty when the account would depend on
    what the seat cannot see), and the AI's estimated chance (0..1) before (with its move) and
    after (with the move played)."""

    step: int
    label: str
    played: dict[str, Any]
    played_text: str
    best: dict[str, Any]
    best_text: str
    before: float
    after: float

    @property
    def drop(self) -> float:
        return self.before - self.after


@dataclass(frozen=True)
class Review:
    """A seat's review of a match: the decisions it made (``decisions``) and the moments (at most
    :data:`TOP`, in the order they were played)."""

    game: str
    seat: int
    decisions: int
    moments: tuple[Moment, ...]


def review_seed(seed: int, step: int, seat: int, salt: str) -> int:
    """The seed of one review search: fixed by the match's seed, the step, the seat and its use."""
    text = f"review:{salt}:{seed}:{step}:{seat}"
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def _log(log: MatchLog | Mapping[str, Any]) -> MatchLog:
    return log if isinstance(log, MatchLog) else MatchLog.model_validate(log)


def _positions(log: MatchLog, seat: int, wanted: set[int] | None = None) -> Iterator[tuple[int, State, ActionModel]]:
    """Each decision of ``seat`` (or those at the log indexes ``wanted``): its log index, the
    state before it (the live one: copy it to keep it) and the move played. Replays the log."""
    game_cls = get_game(log.game)
    game = game_cls(game_cls.options_model.upgrade_stored(log.options), num_seats=len(log.seats))
    state = game.new_state()
    last = max(wanted) if wanted else None
    for index, entry in enumerate(log.actions):
        if last is not None and index > last:
            return
        action = game.parse_action(entry.action)
        if entry.seat == seat and (wanted is None or index in wanted) and _decision(state, seat, action):
            yield index, state, action
        state.apply_trusted(CHANCE if entry.seat == CHANCE else entry.seat, action)


def _decision(state: State, seat: int, action: ActionModel) -> bool:
    """Whether ``seat`` chose ``action`` among several legal ones (a forfeit is no decision)."""
    if isinstance(action, Forfeit) or state.awaiting.is_terminal or seat not in state.awaiting.seats:
        return False
    return len(state.legal_actions(seat)) > 1 and state.is_legal(seat, action)


def decisions(log: MatchLog | Mapping[str, Any], seat: int) -> list[int]:
    """The log indexes of ``seat``'s decisions (moves with a choice; a forfeit is none)."""
    parsed = _log(log)
    if not 0 <= seat < len(parsed.seats):
        raise ValueError(f"the match has no seat {seat}")
    return [index for index, _, _ in _positions(parsed, seat)]


def _budget(share: float = 1.0) -> Budget:
    base = LEVELS[REVIEW_LEVEL]
    return Budget(iterations=max(1, round(base.iterations * share)), level=base.level)


def screen(log: MatchLog | Mapping[str, Any], seat: int, steps: Sequence[int]) -> list[Screened]:
    """The screening of ``seat``'s decisions at the log indexes ``steps`` (cheaper searches)."""
    parsed = _log(log)
    budget = _budget(SCREEN_SHARE)
    out: list[Screened] = []
    for index, state, played in _positions(parsed, seat, set(steps)):
        found = search(state, seat, budget, seed=review_seed(parsed.seed, index, seat, "screen"))
        visits, mean = found.stats.get(played, (0, 0.0))
        if found.action == played:
            out.append(Screened(index, found.value, found.value, True))
            continue
        if visits < MIN_VISITS:
            seed = review_seed(parsed.seed, index, seat, "screen-played")
            mean = search(state, seat, budget, seed=seed, root_actions=[played]).value
        out.append(Screened(index, found.value, mean, False))
    return out


def pick(screened: Sequence[Screened], count: int = CANDIDATES) -> list[int]:
    """The log indexes to examine: the ``count`` largest screened drops (of at least half of
    :data:`MIN_DROP`) where the AI would not have played the same move; ties: the earlier move."""
    kept = [s for s in screened if not s.same and s.drop >= MIN_DROP / 2]
    kept.sort(key=lambda s: (-s.drop, s.step))
    return sorted(s.step for s in kept[:count])


def examine(log: MatchLog | Mapping[str, Any], seat: int, steps: Sequence[int]) -> list[Moment]:
    """The decisions at the log indexes ``steps`` at the review level: each as a :class:`Moment`
    (whatever its drop; one where the AI would have played the same move is left out)."""
    parsed = _log(log)
    budget = _budget()
    out: list[Moment] = []
    for index, state, played in _positions(parsed, seat, set(steps)):
        best = search(state, seat, budget, seed=review_seed(parsed.seed, index, seat, "best"))
        if best.action == played:
            continue
        seed = review_seed(parsed.seed, index, seat, "played")
        after = search(state, seat, budget, seed=seed, root_actions=[played]).value
        played_text, best_text = account(state, seat, played, seed), account(state, seat, best.action, seed)
        if played_text == best_text:  # accounts that do not tell the two apart: described instead
            played_text = best_text = ""
        out.append(
            Moment(
                step=index,
                label=position_label(state, seat),
                played=played.to_json(),
                played_text=played_text,
                best=best.action.to_json(),
                best_text=best_text,
                before=best.value,
                after=after,
            )
        )
    return out


def moments(examined: Sequence[Moment], count: int = TOP) -> tuple[Moment, ...]:
    """The ``count`` largest drops of at least :data:`MIN_DROP` (ties: the earlier move), in the
    order they were played."""
    kept = sorted((m for m in examined if m.drop >= MIN_DROP), key=lambda m: (-m.drop, m.step))[:count]
    return tuple(sorted(kept, key=lambda m: m.step))


def review(log: MatchLog | Mapping[str, Any], seat: int) -> Review:
    """The review of ``seat``'s play in the match ``log`` (see the module docstring)."""
    parsed = _log(log)
    steps = decisions(parsed, seat)
    examined = examine(parsed, seat, pick(screen(parsed, seat, steps)))
    return Review(parsed.game, seat, len(steps), moments(examined))


# ------------------------------------------------------------------------------ words


def account(state: State, seat: int, action: ActionModel, seed: int) -> str:
    """What playing ``action`` says to ``seat`` (placeholders unfilled), if every sample of what
    the seat cannot see says the same; else empty (the caller describes the action itself)."""
    told = {_told(state, seat, action, random.Random(seed + k)) for k in range(ACCOUNT_SAMPLES)}
    return told.pop() if len(told) == 1 else ""


def _told(state: State, seat: int, action: ActionModel, rng: random.Random) -> str:
    """What ``seat`` is told when it plays ``action`` in a sample of what it cannot see: the
    first event it alone is told, else the first public one."""
    sample = determinize(state, seat, rng)
    sample.narrate = True
    events = sample.apply(seat, action)
    mine = [e.text for e in events if e.visible_to is not None and seat in e.visible_to][:1]
    public = [e.text for e in public_events(events)][:1]
    return " ".join(mine or public)


def position_label(state: State, seat: int) -> str:
    """The point of the match as the game counts it, from what ``seat`` sees (:meth:`Game.position`):
    "Round 2" (Wizards Cup), "Round 1, turn 3" (Firewall), "Hand 2 · trick 1" (Magic Duel), "Turn 5"
    or "Set-up" (Arena); empty for a game that counts nothing."""
    return state.game.position(state.view(seat))


__all__ = [
    "CANDIDATES",
    "MIN_DROP",
    "REVIEW_LEVEL",
    "SCREEN_SHARE",
    "TOP",
    "Moment",
    "Review",
    "Screened",
    "account",
    "decisions",
    "examine",
    "moments",
    "pick",
    "position_label",
    "review",
    "review_seed",
    "screen",
]
