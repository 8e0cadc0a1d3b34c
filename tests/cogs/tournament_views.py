"""A tournament view with rounds played, without a database (tests/cogs/test_tournament_pictures.py,
tests/cogs/test_picture_legibility.py): what the tournament pictures are drawn from."""

from __future__ import annotations

import random

from bot.tournaments import Player, Tournament
from bot.tournaments.service import TournamentView
from db.tournaments import EntrantRecord, TournamentRecord, TournamentStatus


def view_of(
    game: str, fmt: str, n: int, rounds: int, *, names: list[str] | None = None, third: bool = False
) -> TournamentView:
    """A tournament of ``n`` players with ``rounds`` rounds played (seeded random winners)."""
    names = names or [f"wizard {i}" for i in range(n)]
    t = Tournament.create(game, fmt, [Player(100 + i, rating=1000 - i) for i in range(n)], seed=5, third_place=third)
    rng = random.Random(1)
    for _ in range(rounds):
        if t.finished:
            break
        for m in t.next_round().matches:
            if m.result is not None:
                continue
            if len(m.seats) == 2:
                t.report_win(m.id, rng.choice(m.seats))
            else:
                places = list(range(1, len(m.seats) + 1))
                rng.shuffle(places)
                t.report_placements(m.id, dict(zip(m.seats, places, strict=True)))
    rec = TournamentRecord(
        id=7, guild_id=1, channel_id=2, message_id=3, organizer_id=100, game=game, format=fmt, options={},
        settings={}, turn_time_seconds=None, max_players=None, start_at=None, round_seconds=None,
        round_deadline_at=None, status=TournamentStatus.RUNNING, state=t.to_json(), announced_round=0, version=1,
        created_at=0, updated_at=0, finished_at=None,
        entrants=tuple(EntrantRecord(100 + i, names[i], 0) for i in range(n)),
    )  # fmt: skip
    return TournamentView(rec, t, ())
