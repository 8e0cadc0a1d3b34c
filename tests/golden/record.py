"""Record the golden corpus: seeded random games of every game, as the engines play them now.

    python -m tests.golden.record            # rewrite tests/golden/<slug>.json.gz

Each file holds, per game: the seed, the options, the seat names, the action log, every event
(text, data, who may see it), the final spectator view and the outcome; and, for the first
``STEP_GAMES`` games, a digest per step of everything a player or the bot can observe (awaiting,
the spectator view, every seat's view, the awaited seats' legal actions and time-out defaults)
and of what the Discord UI shows (each awaited seat's prompt, the screen or action behind every
component of its first screen, and the channel post after each action).

``tests/rules/test_golden.py`` replays every log and asserts the same; ``tests/cogs/test_golden_ui.py``
asserts the UI digests. The corpus was recorded at commit baf9076, before the rules-core rework.
Re-record only for a deliberate change, and say which games changed and why in README.md.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
GAMES_PER_SLUG = 200
STEP_GAMES = 20
UI_GAMES = 6
MAX_LEGAL_LISTED = 4000
SLUGS = ["wizards-cup", "firewall", "magic-duel", "arena"]
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
MATCH_ID = 424242424242424242


def setup_for(slug: str, seed: int) -> tuple[dict[str, Any], int]:
    """The options and seat count of golden game ``seed`` (varied, so every option is covered)."""
    if slug == "firewall":
        return {"variant": ["standard", "full_hand", "chosen_order"][seed % 3]}, 2
    if slug == "magic-duel":
        seats = 2 + seed % 7
        options: dict[str, Any] = {"points_to_win": 1 + seed % 3}
        if seed % 5 == 4:
            options["decks"] = 2 if seats <= 5 else 3
        return options, seats
    if slug == "arena":
        return {
            "grid_size": 8 + seed % 5,
            "terrain_count": 4 + (seed // 5) % 5,
            "terrain_setup": "random" if seed % 4 == 3 else "player1",
        }, 2
    return {}, 2


def forfeit_at(seed: int) -> int | None:
    """Every tenth game has a forfeit (resign or time-out) at a seeded point."""
    if seed % 10 != 9:
        return None
    return random.Random(f"forfeit:{seed}").randrange(3, 60)


def digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()[:16]


def legal_json(actions: Sequence[Any]) -> Any:
    n = len(actions)
    if n <= MAX_LEGAL_LISTED:
        return [a.to_json() for a in actions]
    picks = list(range(50)) + list(range(n - 50, n)) + [n // 3, n // 2, (2 * n) // 3]
    return {"count": n, "sample": [actions[i].to_json() for i in picks]}


def without(view: Any, drop: Sequence[str] = ()) -> Any:
    """``view`` without the top-level keys ``drop`` (keys a deliberate change added)."""
    return {k: v for k, v in view.items() if k not in drop} if drop else view


def observe(state: Any, drop: Sequence[str] = ()) -> str:
    """Digest of everything observable in ``state`` (less the view keys ``drop``)."""
    aw = state.awaiting
    seats = sorted(aw.seats) if not aw.is_chance and not aw.is_terminal else []
    obj = {
        "awaiting": aw.to_json(),
        "spectator": without(state.view(None), drop),
        "seats": [without(state.view(s), drop) for s in range(state.num_seats)],
        "legal": {str(s): legal_json(state.legal_actions(s)) for s in seats},
        "default": {str(s): (d.to_json() if (d := state.default_action(s)) else None) for s in seats},
    }
    return digest(obj)


# --------------------------------------------------------------------------- UI digests


def embed_json(e: Any) -> Any:
    return e.to_dict()


def prompt_json(p: Any) -> Any:
    from cogs.games.base import AskText, Prompt, Submit

    if isinstance(p, Submit):
        return {"submit": p.action.to_json()}
    if isinstance(p, AskText):
        return {"ask": [p.title, p.label, p.payload, p.placeholder, p.default, p.min_length, p.max_length]}
    assert isinstance(p, Prompt)
    return {
        "content": p.content,
        "embeds": [embed_json(e) for e in p.embeds],
        "components": p.view.to_components() if p.view is not None else None,
        "files": [f.filename for f in p.files],
    }


def clicks(ui: Any, ctx: Any, prompt: Any) -> list[Any]:
    """What every component of a prompt's first screen leads to (first and last option of selects)."""
    import discord

    from cogs.games.base import CUSTOM_ID_RE

    out: list[Any] = []
    if prompt.view is None:
        return out
    for item in prompt.view.children:
        m = CUSTOM_ID_RE.fullmatch(getattr(item, "custom_id", "") or "")
        if not m:
            continue
        payload = m["payload"]
        choices: list[list[str]] = [[]]
        if isinstance(item, discord.ui.Select):
            values = [o.value for o in item.options]
            k = max(1, item.min_values)
            choices = [values[:k], values[-k:]] if values else [[]]
        for vals in choices:
            try:
                out.append([payload, vals, prompt_json(ui.handle(ctx, payload, vals))])
            except ValueError as exc:
                out.append([payload, vals, {"error": str(exc)}])
    return out


def ui_step(slug: str, match: Any, seat_steps: list[int]) -> str:
    from cogs.games import get_ui
    from cogs.games.base import PromptContext

    ui = get_ui(slug)
    aw = match.awaiting
    if aw.is_terminal or aw.is_chance:
        return ""
    out = []
    for seat in sorted(aw.seats):
        state = match.state
        ctx = PromptContext(MATCH_ID, seat, seat_steps[seat], match.seats, state.view(seat), state.legal_actions(seat))
        ctx = dataclasses.replace(ctx, images=False, decision=state.asked(seat))
        prompt = ui.prompt(ctx)
        out.append([seat, prompt_json(prompt), clicks(ui, ctx, prompt)])
    return digest(out)


def post_json(slug: str, match: Any, events: Sequence[Any]) -> str:
    from cogs.games import get_ui

    public = [e for e in events if e.visible_to is None]
    if not public:
        return ""
    post = get_ui(slug).public_post(match.state.view(None), public, match.seats, images=False)
    return digest({"embeds": [embed_json(e) for e in post.embeds], "files": [f.filename for f in post.files]})


# --------------------------------------------------------------------------- games


def play(slug: str, seed: int, *, steps: bool, ui: bool) -> dict[str, Any]:
    from rules.match import Match

    options, n = setup_for(slug, seed)
    names = NAMES[:n]
    match = Match.new(slug, options=options, seed=seed, seats=names)
    rng = random.Random(seed)
    forfeit = forfeit_at(seed)
    seat_steps = [0] * n
    step_digests: list[str] = []
    ui_digests: list[list[str]] = []
    if steps:
        step_digests.append(observe(match.state))
    if ui:
        ui_digests.append([ui_step(slug, match, seat_steps), ""])
    moves = 0
    while not match.awaiting.is_terminal:
        moves += 1
        if moves > 20_000:
            raise RuntimeError(f"{slug} seed {seed}: no end")
        seat = min(match.awaiting.seats)
        if forfeit is not None and moves == forfeit:
            action: Any = {"type": "forfeit", "reason": "timeout" if seed % 20 == 19 else "resign"}
        else:
            action = match.state.sample_action(seat, rng)
        events = match.act(seat, action)
        seat_steps[seat] += 1
        if steps:
            step_digests.append(observe(match.state))
        if ui:
            ui_digests.append([ui_step(slug, match, seat_steps), post_json(slug, match, events)])
    log = match.to_log().model_dump(mode="json")
    outcome = match.outcome
    record: dict[str, Any] = {
        "seed": seed,
        "log": log,
        "events": [e.to_json(match.seats) for e in match.events],
        "view": match.state.view(None),
        "outcome": outcome.to_json(match.seats) if outcome else None,
    }
    if steps:
        record["steps"] = step_digests
    if ui:
        record["ui"] = ui_digests
    return record


def ui_steps(slug: str, record: dict[str, Any]) -> list[list[str]]:
    """The UI digests of a recorded game, replayed move by move (from its recorded log)."""
    from rules.match import Match

    from .corpus import replay_steps

    steps = [0] * len(record["log"]["seats"])
    seen: list[list[str]] = []

    def after(match: Match, events: list[Any]) -> None:
        if seen:
            mover = next(e.seat for e in reversed(match.log) if e.seat != "chance")
            assert mover != "chance"
            steps[mover] += 1
        seen.append([ui_step(slug, match, steps), post_json(slug, match, events) if seen else ""])

    replay_steps(record, after)
    return seen


def rerecord_ui(slug: str) -> int:
    """A deliberate change of the Discord UI: the prompts and posts of ``slug``'s recorded games are
    recorded again from their logs, everything else (logs, events, views, outcomes) kept as it was."""
    from .corpus import changed, load

    skip = changed(slug)
    games = load(slug)
    done = 0
    for record in games:
        if "ui" in record and record["seed"] not in skip:
            record["ui"] = ui_steps(slug, record)
            done += 1
    path = HERE / f"{slug}.json.gz"
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as fh:
        json.dump({"game": slug, "games": games}, fh, ensure_ascii=False, separators=(",", ":"))
    print(f"{slug}: UI of {done} games recorded again", file=sys.stderr)
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["--ui"]:
        for slug in argv[1:] or SLUGS:
            rerecord_ui(slug)
        return 0
    slugs = argv or SLUGS
    for slug in slugs:
        games = [play(slug, seed, steps=seed < STEP_GAMES, ui=seed < UI_GAMES) for seed in range(GAMES_PER_SLUG)]
        path = HERE / f"{slug}.json.gz"
        with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as fh:
            json.dump({"game": slug, "games": games}, fh, ensure_ascii=False, separators=(",", ":"))
        print(f"{slug}: {len(games)} games, {path.stat().st_size // 1024} KiB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
