"""Command line: ``python -m rules replay LOG.json [--text]`` and
``python -m rules play-random GAME [--seed N] [--seats N]`` and
``python -m rules play GAME [--vs PLAYER ...] [--seats N] [--seed N] [--log FILE]`` (the offline
table, :mod:`rules.play`; without ``--seed`` each game has a new seed, and a finished game's log is
never overwritten).

``replay`` prints the final view, the events and the outcome as JSON (with the players' names where
the log's texts hold ``{p1}``-style placeholders), or with ``--text`` the match
as a readable story (every event in order, secret ones named with their owner, the outcome at the
end). Misuse of the command line (an unknown game, a seat count the game does not allow, a seed
that is not a whole number, a log file that is missing, is not JSON or is not a match log) is
answered like argparse answers it: the usage line and ``error: ...`` on stderr, exit code 2. A
well-formed log whose actions the rules refuse exits 2 with a JSON error naming the action's index.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from pydantic import ValidationError

from .errors import RulesError
from .events import fill_names
from .match import Match, MatchLog, ReplayError
from .registry import game_slugs, get_game
from .story import story_text

Fail = Callable[[str], NoReturn]
"""Ends the program with a command-line error (a parser's ``error``)."""


def _dump(obj: Any) -> None:
    json.dump(obj, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def _first_problem(exc: ValidationError) -> str:
    """The first problem pydantic found, in one line ("seats: Field required")."""
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ())) or "the log"
    return f"{where}: {err.get('msg', 'invalid')}"


def read_log(path: str, fail: Fail) -> MatchLog:
    """The match log in ``path``; ``fail(message)`` (which does not return) when it cannot be read."""
    try:
        with open(path, encoding="utf-8") as fh:
            raw = json.load(fh)
    except FileNotFoundError:
        fail(f"no such log file: {path}")
    except IsADirectoryError:
        fail(f"{path} is a directory, not a log file")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or exc}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        fail(f"{path} is not a JSON match log ({exc})")
    if not isinstance(raw, dict):
        fail(f"{path} is not a match log (a JSON object with game, seats and actions)")
    try:
        log = MatchLog.model_validate(raw)
    except ValidationError as exc:
        fail(f"{path} is not a match log: {_first_problem(exc)}")
    if log.game not in game_slugs():
        fail(f"{path} is a log of an unknown game {log.game!r} (the games are: {', '.join(game_slugs())})")
    return log


def replay(path: str, *, text: bool = False, fail: Fail | None = None) -> int:
    fail = fail or _exit_with
    log = read_log(path, fail)
    try:
        match = Match.replay(log)
    except ReplayError as exc:
        _dump(exc.to_json())
        return 2
    except RulesError as exc:  # the options or the seats of the log
        fail(f"{path}: {exc}")
    outcome = match.outcome
    computed = outcome.to_json(match.seats) if outcome else None
    if log.outcome is not None and log.outcome != computed:
        _dump({"error": "outcome mismatch", "recorded": log.outcome, "replayed": computed})
        return 2
    if text:
        title = f"{match.game.name}, seed {match.seed}"
        sys.stdout.write(story_text(match.events, match.seats, game=match.game.slug, title=title, outcome=outcome))
        return 0
    shown = {
        "game": match.game.slug,
        "awaiting": match.awaiting.to_json(),
        "view": match.state.view(None),
        "events": [e.to_json(match.seats) for e in match.events],
        "outcome": computed,
    }
    _dump(named(shown, match.seats))  # the log keeps {p1}; what a reader sees has the names
    return 0


def named(obj: Any, names: Sequence[str]) -> Any:
    """``obj`` (JSON) with every ``{p1}``, ``{p2}``... in its strings replaced by the seats' names."""
    if isinstance(obj, str):
        return fill_names(obj, names) if "{p" in obj else obj
    if isinstance(obj, dict):
        return {k: named(v, names) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [named(v, names) for v in obj]
    return obj


def _exit_with(message: str) -> NoReturn:
    print(f"python -m rules: error: {message}", file=sys.stderr)
    sys.exit(2)


def play_random(game: str, seed: int, seats: int | None, *, fail: Fail | None = None) -> int:
    fail = fail or _exit_with
    game_cls = get_game(game)
    n = game_cls.min_seats if seats is None else seats
    try:
        match = Match.new(game, seed=seed, seats=[f"Player {i + 1}" for i in range(n)])
    except RulesError as exc:
        fail(f"argument --seats: {exc}")
    rng = random.Random(seed)
    steps = 0
    while not match.awaiting.is_terminal:
        steps += 1
        if steps > 100_000:
            _dump({"error": "no end", "reason": "random play did not finish in 100000 actions"})
            return 1
        seat = min(match.awaiting.seats)
        match.act(seat, match.state.sample_action(seat, rng))
    out = match.to_log().model_dump(mode="json")
    out["outcome"] = match.outcome.to_json(match.seats) if match.outcome else None
    _dump(out)
    return 0


def _count(value: str) -> int:
    """A seat count: a whole number of at least 1."""
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid seat count: {value!r} (a whole number)") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"invalid seat count: {n} (at least 1)")
    return n


def _seed(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid seed: {value!r} (a whole number)") from None


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="python -m rules", description="Replay match logs and play random matches of the games."
    )
    sub = top.add_subparsers(dest="command", required=True)
    p_replay = sub.add_parser("replay", help="replay a match log and print view, events and outcome")
    p_replay.add_argument("log", help="a match log (JSON), as play-random or /replay's download writes it")
    p_replay.set_defaults(fail=p_replay.error)
    p_replay.add_argument("--text", action="store_true", help="print the match as a readable story, not JSON")
    p_random = sub.add_parser("play-random", help="play random legal actions to the end; print the log")
    p_random.set_defaults(fail=p_random.error)
    p_random.add_argument("game", choices=game_slugs())
    p_random.add_argument("--seed", type=_seed, default=0)
    p_random.add_argument("--seats", type=_count, default=None, help="how many players (default: the fewest)")
    p_play = sub.add_parser("play", help="play a match at this terminal: hot-seat humans or computer seats")
    p_play.set_defaults(fail=p_play.error)
    p_play.add_argument("game", choices=game_slugs())
    p_play.add_argument(
        "--vs",
        type=_player,
        action="append",
        default=[],
        metavar="PLAYER",
        help="who plays the other seats: human (hot-seat), ai:easy, ai:normal, ai:hard or random; "
        "once for all of them, or once per other seat (default: human)",
    )
    p_play.add_argument("--seats", type=_count, default=None, help="how many players (default: the fewest)")
    p_play.add_argument("--seed", type=_seed, default=None, help="the match's seed (default: a new one each game)")
    p_play.add_argument(
        "--log",
        default=None,
        help="where to save the match log (default: GAME-seed-SEED.json; a finished game's log is never"
        " overwritten: the next free name -2, -3... is taken)",
    )
    return top


def _player(value: str) -> str:
    from .play import parse_player

    try:
        return parse_player(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def play_table(args: argparse.Namespace) -> int:
    """``python -m rules play``: check the seats, then play at this terminal."""
    from .play import play, seat_kinds

    fail: Fail = args.fail
    game_cls = get_game(args.game)
    n = args.seats if args.seats is not None else max(game_cls.min_seats, len(args.vs) + 1)
    if not game_cls.min_seats <= n <= game_cls.max_seats:
        players = f"{game_cls.min_seats}" + (
            f" to {game_cls.max_seats}" if game_cls.max_seats != game_cls.min_seats else ""
        )
        fail(f"argument --seats: {game_cls.name} is played by {players} players, not {n}")
    try:
        kinds = seat_kinds(args.vs, n)
    except ValueError as exc:
        fail(f"argument --vs: {exc}")
    seed = args.seed if args.seed is not None else new_seed()
    log = free_log_path(args.log or f"{args.game}-seed-{seed}.json")
    return play(args.game, kinds, seed=seed, log_path=log, stdin=sys.stdin, stdout=sys.stdout)


def new_seed() -> int:
    """A seed for a game the player did not seed: a new one each time (shown at the start, so the
    game can be played again with ``--seed``)."""
    return random.SystemRandom().randrange(1, 1_000_000)


def free_log_path(path: str) -> str:
    """``path``, unless a file there holds a finished match's log: then the first of ``NAME-2.json``,
    ``NAME-3.json``... that does not (a log is never overwritten once its match has ended)."""
    base = Path(path)
    candidate, n = base, 1
    while _finished_log(candidate):
        n += 1
        candidate = base.with_name(f"{base.stem}-{n}{base.suffix}")
    return str(candidate)


def _finished_log(path: Path) -> bool:
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        return True  # something else is there: keep it
    return not isinstance(data, dict) or data.get("outcome") is not None


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "replay":
        return replay(args.log, text=args.text, fail=args.fail)
    if args.command == "play":
        return play_table(args)
    return play_random(args.game, args.seed, args.seats, fail=args.fail)


if __name__ == "__main__":
    sys.exit(main())
