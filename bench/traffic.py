"""``python -m bench traffic``: what a match costs in Discord traffic, per game.

Full matches of each game are played by the real bot inside the test suite's fake Discord, with
Discord's rate limits enforced (5 messages per 5 s per channel, 50 requests per second, per-route
and per-token buckets; a 429 is waited out and retried, as discord.py does). The driver is
``tests/discord_harness/traffic.py``; it runs in a subprocess (``python -m
tests.discord_harness.traffic``), because the benchmarks import neither discord nor the cogs. The
moves are made as players make them, by clicking the bot's prompts: a player who knows nothing of
the game finds the awaited seat's prompt (the newest message they can see whose components, at any
depth of Discord's layout components, carry the seat's ``m:<match>:<seat>:<seat step>:``
custom_ids: DM, ephemeral message, channel or thread) and clicks, picks and fills in at random
(seeded; every click a seeded random 2-10 s after the one before on the fake's clock, ``--pace``;
``--no-pace``: a move every ``--think`` seconds) until the seat's step advances; a seat that makes
no progress in 25 clicks moves through the match service instead (a *fallback*, counted). The last
seat's DMs are closed in every game (it plays through the "open my prompt" button and ephemeral
prompts). See the driver for the details. Per game:

- ``rest_calls_per_move``: requests counted against the rate limits, from the challenge to the
  end, per move: all but the interaction responses (goal: at most 1.0);
- ``rest_calls_per_move_in_play``: the same without the calls that start the match (the thread,
  the opening board, each player's first DM and the DM channel it opens): what each further move
  costs;
- ``interaction_calls_per_move``: the interaction responses, per move: callbacks, and follow-ups
  and edits of interaction messages on the interaction's webhook (not bound by the global limit);
- ``clicks_per_move``: the players' clicks, select picks and modal submissions, per move;
- ``fallback_moves``: moves made through the service because clicking made no progress;
- ``channel_posts_per_move``: messages created in guild channels and threads, per move;
- ``max_messages_per_5s_per_channel``: the most messages created in one channel within any 5 s;
- ``http_429``: requests answered 429;
- ``loop_block_ms_max``: the longest event-loop callback while a move was handled (from the click
  that made it until the bot settled), in ms (the fake Discord's own time subtracted).

Per whole match (from the challenge to the end card: what players feel, which per-move figures hide):

- ``thread_posts_per_match``: new messages the bot created in the match's thread (every message of
  the thread, from its opening: channel posts and non-ephemeral interaction responses and
  follow-ups; a deferred response counts once), or, for a match without a thread, in the channel
  from the last acceptance on;
- ``edits_per_match``: edits of the bot's messages there (``PATCH`` of channel messages, and edits
  of non-ephemeral interaction messages: callback type 7, ``PATCH`` on the interaction's webhook;
  filling in a deferred response is not an edit);
- ``pings_max_per_player``: the most notifying mentions one player got: new (not edited),
  non-ephemeral messages, anywhere, mentioning ``<@id>`` in content (or a components-v2 text
  display) where ``allowed_mentions`` lets it ping that user (absent: all do; else ``parse``
  ``users`` or the id in ``users``); per player in ``detail.pings_by_player``;
- ``closed_dm_pings``: those the seat whose DMs are closed got;
- ``picture_mb_per_match``: MB (10^6 bytes) of files uploaded, everywhere (thread, DMs, ephemeral);
- ``board_thumbnails``: uploaded pictures (``attachment://``) sent as an embed thumbnail or a
  components-v2 Thumbnail, in any message, counted per create or edit that sends it (goal 0);
- ``player_turns``: runs of moves by one seat (a turn ends when the move passes to another seat),
  and ``thread_posts_per_player_turn``, ``edits_per_player_turn`` (Arena's goals: at most 1 and 3).

Two ways in the same run, each in its own process, taking turns round by round: ``baseline``
(``bot``, ``cogs``, ``db`` and ``rules`` at ``--baseline``, default the commit before the
presentation rework, d030527, extracted with ``git archive``) and ``current`` (the working tree's, copied
when the run starts); both are driven by the working tree's driver and fake Discord, copied then
too, so the baseline's prompts are clicked the same way (where they cannot be clicked to a move,
the fallback applies and is counted). The clicks are seeded, so the counts repeat (the fake's clock
also follows the real time a move takes, a few ms against 2 s, which could shift a window at the
edge); the loop block is a timing: each way's best round is kept (``--rounds``), and the two are
compared by their ratio.
``--quick`` (under a minute for both ways) plays shorter matches: Magic Duel to 1 point, Arena on an
8x8 board with 4 terrain pieces and a draw after 10 game turns.

JSON (``--json FILE``): ``{"<slug>": {"rest_calls_per_move", "rest_calls_per_move_in_play", "channel_posts_per_move",
"max_messages_per_5s_per_channel", "http_429", "loop_block_ms_max", "interaction_calls_per_move",
"clicks_per_move", "fallback_moves", "dm_posts_per_move", "thread_posts_per_match", "edits_per_match",
"pings_max_per_player", "closed_dm_pings", "picture_mb_per_match", "board_thumbnails", "player_turns",
"thread_posts_per_player_turn", "edits_per_player_turn", "moves", "seats", "options", "detail",
"baseline": {the same for the baseline}, "ratio": {current / baseline per figure}}}``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from rules.registry import game_slugs

from .code import checkout, run_measured, snapshot
from .report import table, write_json

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "db", "rules")
DEFAULT_BASELINE = "d030527"
"""The commit before the presentation rework of issue 31 (pings only for a player who idled, and the
per-match figures of ``python -m bench traffic``)."""
QUICK_OPTIONS = {"magic-duel": "points_to_win=1", "arena": "grid_size=8 terrain_count=4 game_turn_limit=10"}
HARNESS = "tests/discord_harness"
SCHEMAS = "tests/schemas"
FIGURES = (
    "rest_calls_per_move",
    "rest_calls_per_move_in_play",
    "channel_posts_per_move",
    "max_messages_per_5s_per_channel",
    "http_429",
    "loop_block_ms_max",
    "interaction_calls_per_move",
    "clicks_per_move",
    "fallback_moves",
    "thread_posts_per_match",
    "edits_per_match",
    "pings_max_per_player",
    "closed_dm_pings",
    "picture_mb_per_match",
    "board_thumbnails",
    "player_turns",
    "thread_posts_per_player_turn",
    "edits_per_player_turn",
)
COLUMNS = (
    ("moves", "moves"),
    ("REST/move", "rest_calls_per_move"),
    ("in play", "rest_calls_per_move_in_play"),
    ("inter./move", "interaction_calls_per_move"),
    ("clicks/move", "clicks_per_move"),
    ("fallbacks", "fallback_moves"),
    ("posts/move", "channel_posts_per_move"),
    ("max/5 s", "max_messages_per_5s_per_channel"),
    ("429s", "http_429"),
    ("block ms", "loop_block_ms_max"),
)
MATCH_COLUMNS = (
    ("posts", "thread_posts_per_match"),
    ("edits", "edits_per_match"),
    ("turns", "player_turns"),
    ("posts/turn", "thread_posts_per_player_turn"),
    ("edits/turn", "edits_per_player_turn"),
    ("pings max", "pings_max_per_player"),
    ("closed DM", "closed_dm_pings"),
    ("pic. MB", "picture_mb_per_match"),
    ("thumbs", "board_thumbnails"),
)


def add_driver(code: Path) -> Path:
    """The working tree's fake Discord and traffic driver (``tests/discord_harness``, the schema it
    validates with) beside ``code``, so both ways are measured by the same driver, whatever happens
    to the working tree during the run."""
    (code / "tests").mkdir(exist_ok=True)
    (code / "tests" / "__init__.py").write_text("", encoding="utf-8")
    snapshot(code, (HARNESS, SCHEMAS))
    return code


def play(
    games: list[str],
    code: Path,
    *,
    think: float,
    seed: int,
    images: bool,
    options: dict[str, str],
    pace: tuple[float, float] | None = (2.0, 10.0),
) -> dict[str, dict[str, Any]]:
    """One match of each game by the bot in ``code``, in one fresh process; the figures per game."""
    args = ["--games", *games, "--code", str(code), "--think", str(think), "--seed", str(seed)]
    args += ["--no-pace"] if pace is None else ["--pace", str(pace[0]), str(pace[1])]
    for slug, text in options.items():
        args += ["--options", slug, text]
    if not images:
        args.append("--no-images")
    results: dict[str, dict[str, Any]] = run_measured(
        "tests.discord_harness.traffic", args, code, cwd=code, timeout=3600, what="the traffic driver"
    )
    return results


def best(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The round whose longest callback was shortest (the least disturbed by other load on this
    machine); every round's loop block is kept in ``detail``."""
    chosen = dict(min(rounds, key=lambda r: float(r["loop_block_ms_max"])))
    chosen["detail"] = {**chosen["detail"], "loop_block_ms_max_by_round": [r["loop_block_ms_max"] for r in rounds]}
    return chosen


def rows_of(results: dict[str, dict[str, Any]], columns: tuple[tuple[str, str], ...]) -> list[list[Any]]:
    """One row per game and way (the baseline's below the current code's)."""
    rows = []
    for slug, row in results.items():
        for way, figures in (("", row), (" (base)", row.get("baseline"))):
            if figures is not None:
                rows.append([slug + way, *(figures.get(key) for _, key in columns)])
    return rows


def ratio(current: Any, baseline: Any) -> float | None:
    if not isinstance(current, (int, float)) or not isinstance(baseline, (int, float)) or baseline == 0:
        return None
    return float(current) / float(baseline)


def main(argv: list[str], *, quick: bool, json_path: str | None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench traffic")
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="git revision of the baseline bot/cogs/db/rules")
    parser.add_argument("--no-baseline", action="store_true", help="measure the current code only")
    parser.add_argument("--games", nargs="*", default=game_slugs(), choices=game_slugs())
    parser.add_argument("--think", type=float, default=2.0, help="with --no-pace: seconds before each move")
    parser.add_argument(
        "--pace", type=float, nargs=2, default=(2.0, 10.0), metavar=("LOW", "HIGH"), help="seconds before every click"
    )
    parser.add_argument("--no-pace", action="store_true", help="a move every --think seconds, its clicks at once")
    parser.add_argument("--seed", type=int, default=20261121)
    parser.add_argument("--no-images", action="store_true", help="RENDER_IMAGES off")
    parser.add_argument("--rounds", type=int, default=None, help="matches per game and way (2; quick 1)")
    args = parser.parse_args(argv)
    options = QUICK_OPTIONS if quick else {}

    rounds = max(1, args.rounds if args.rounds is not None else (1 if quick else 2))
    runs: dict[str, list[dict[str, dict[str, Any]]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-traffic-") as tmp_name:
        tmp = Path(tmp_name)
        code = {"current": add_driver(snapshot(tmp / "current", PACKAGES))}
        if not args.no_baseline:
            base = checkout(args.baseline, tmp / "baseline", PACKAGES)
            if base is None:
                print(f"(no baseline: git could not check out {args.baseline})", file=sys.stderr)
            else:
                code["baseline"] = add_driver(base)
        for round_no in range(rounds):
            for way in sorted(code, reverse=round_no % 2 == 1):  # take turns going first
                runs.setdefault(way, []).append(
                    play(
                        args.games,
                        code[way],
                        think=args.think,
                        seed=args.seed,
                        images=not args.no_images,
                        options=options,
                        pace=None if args.no_pace else (min(args.pace), max(args.pace)),
                    )
                )
    results: dict[str, dict[str, Any]] = {}
    for slug in args.games:
        row = best([run[slug] for run in runs["current"]])
        if "baseline" in runs:
            base_row = best([run[slug] for run in runs["baseline"]])
            row["baseline"] = base_row
            row["ratio"] = {f: ratio(row[f], base_row[f]) for f in FIGURES}
        results[slug] = row

    mode = "quick: shorter matches" if quick else "full matches"
    base_note = f"baseline = {args.baseline}" if "baseline" in runs else "no baseline"
    pace = f"a move every {args.think:g} s" if args.no_pace else "a click every %g-%g s" % tuple(sorted(args.pace))
    print(f"Discord traffic per game ({mode}, {pace}, the last seat's DMs closed, seed {args.seed}; {base_note})")
    print(table(["game", *(title for title, _ in COLUMNS)], rows_of(results, COLUMNS)))
    print("\nPer whole match (thread posts and edits, player-turns, pings, pictures, thumbnails)")
    print(table(["game", *(title for title, _ in MATCH_COLUMNS)], rows_of(results, MATCH_COLUMNS)))
    write_json(json_path, results)
    return 0
