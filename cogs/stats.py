"""/leaderboard, /profile and /history: ratings and finished matches (read only; /replay is in
``cogs.replay``).

The data comes from the client's :class:`bot.stats.StatsService` (``bot.stats``); this module
only renders it and reads no database. Only finished matches appear. Paging buttons are
DynamicItems whose custom_id carries what the page shows and its number
(``lb:<game>:<scope>:<page>:<p|i|n>``, ``hist:<guild>:<game|_>:...``),
so they keep working after a restart with nothing kept in memory.
Errors go through the global handler (``send_error``); component callbacks through ``guarded``.

/leaderboard without a game names the game it shows and why; a server's ladder lists only players
with at least the server's ``leaderboard_min_games`` (``/settings``), read again by the paging
buttons. /profile shows places among more than two players ("2nd of 4", "=1st of 4" when shared,
never "Loss" with a gain, nor in the record: two-player matches count wins-losses-draws, tables
of three or more placements, "1st ×1 · =1st ×1 · 3rd ×1", and their rate is the share of 1st
places; so on /leaderboard), a win rate per game, the most frequent opponents, and a rating chart per game
(``cogs.charts``) or a plain statement when a game has fewer than 3 rated matches. A game name the
player typed is echoed clipped to ``ECHO_CHARS``. /profile also shows the practice record against
the computer (unrated, per game and level; also for a player with no rated match), and /history
marks practice matches ("🎯 practice", no rating change).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.ratings import DISPLAY_BASE
from bot.stats import (
    GLOBAL_SCOPE,
    GameProfile,
    HistoryPage,
    LeaderboardPage,
    MatchRecord,
    Opponent,
    PracticeRecord,
    Profile,
    RatingChange,
    RatingSeries,
    Record,
    Standing,
    StatsError,
    StatsService,
    Streak,
)
from bot.tournaments.service import TournamentService
from rules.errors import RulesError
from rules.registry import game_slugs, get_game
from rules.text import plural

from .charts import Panel, enough_history, history_statement, rating_chart_file
from .games.base import clip
from .ids import FIELD, read_id, read_snowflake, require
from .listing import PROVISIONAL_MARK, league_text, listing_rule, provisional, rating_text
from .matches import guarded  # component errors go to the global handler (send_error) through it
from .tournament_embeds import FORMAT_NAMES

if TYPE_CHECKING:
    from bot.client import RefereeBot
    from bot.tournaments.service import TournamentResult

LEADERBOARD_PAGE = 10
HISTORY_PAGE = 6
NAME_CHARS = 32
PROFILE_GAMES = 12  # one embed field per game, well below 25 fields and 6,000 characters with the rest
PROFILE_RECENT = 5
PROFILE_TOURNAMENTS = 5  # the player's latest finished tournaments on /profile
GAME_SLUG = r"[a-z0-9][a-z0-9-]{0,39}"
ECHO_CHARS = 40  # what a user typed is echoed at most this long

SCOPE_CHOICES = [
    app_commands.Choice(name="This server", value="server"),
    app_commands.Choice(name="Global", value="global"),
]
RESULT_WORDS = {"win": "Win", "loss": "Loss", "draw": "Draw"}
#: The rating in players' words (docs/ratings.md has the formula): what it is and why it moves.
RATING_WORDS = (
    f"Everyone starts at {DISPLAY_BASE}. The rating is what the bot is sure you can do: it rises as you"
    " place well against strong players, and in your first games it rises even for a middling place,"
    " because each game makes it surer of you"
)
PRACTICE_FIELD = "Practice against the computer (unrated)"
PRACTICE_MARK = "🎯 practice"
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


# ------------------------------------------------------------------------------ helpers


def stats_of(interaction: discord.Interaction) -> StatsService:
    """The client's read-only stats service (``RefereeBot.stats``)."""
    stats = getattr(interaction.client, "stats", None)
    if not isinstance(stats, StatsService):
        raise TypeError(f"{type(interaction.client).__name__} has no StatsService as .stats")
    return stats


def available_games() -> list[tuple[str, str]]:
    """(slug, name) of every registered game."""
    return [(slug, str(get_game(slug).name)) for slug in game_slugs()]


def game_name(slug: str) -> str:
    try:
        return str(get_game(slug).name)
    except RulesError:  # a game no longer registered: show its slug
        return slug


def resolve_game(value: str) -> str:
    """The slug of a game given by slug or name (what autocomplete fills in, or typed)."""
    wanted = value.strip().lower()
    games = available_games()
    for slug, name in games:
        if wanted in (slug, name.lower()):
            return slug
    names = ", ".join(name for _, name in games) or "none yet"
    raise StatsError(f"There is no game called {clip(value.strip(), ECHO_CHARS)!r}. The games are: {names}.")


def player_name(name: str | None, user_id: int) -> str:
    text = (name or f"Player {user_id}").strip()
    if len(text) > NAME_CHARS:
        text = text[: NAME_CHARS - 1] + "…"
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text))


def wld(s: Standing) -> str:
    return f"{s.wins}-{s.losses}-{s.draws}"


def places_text(record: Record, sep: str = " · ") -> str:
    """The placements at tables of three or more: ``1st ×2 · =1st ×1 · 3rd ×1``."""
    return sep.join(f"{'=' if shared else ''}{ordinal(place)} ×{n}" for place, shared, n in record.placed())


def record_text(record: Record) -> str:
    """A record as a player reads it: wins-losses-draws of two-player matches, placements at
    tables of more ("1st ×1 · =1st ×1 · 3rd ×1"), never a loss or a draw for a placement; both
    when the player has both ("2-1-0 · at tables 1st ×1, 3rd ×1")."""
    if not record.tables:
        return f"{record.wins}-{record.losses}-{record.draws}"
    if not record.duels:
        return places_text(record)
    return f"{record.wins}-{record.losses}-{record.draws} · at tables {places_text(record, ', ')}"


STREAK_WORDS = {
    "win": ("🔥", "win", None),
    "loss": ("🧊", "loss", None),
    "draw": ("🤝", "draw", None),
    "first": ("🔥", "1st place", None),
    "shared-first": ("🤝", "shared 1st place", None),
    "placed": ("🧊", "match without a 1st place", "matches without a 1st place"),
}


def streak_text(run: Streak | None) -> str:
    """The current run of equal results (a table's placement is never called a loss or draw)."""
    if run is None:
        return "none"
    icon, word, many = STREAK_WORDS.get(run.result, ("", run.result, None))
    return f"{icon} {plural(run.length, word, many)} in a row".strip()


# ------------------------------------------------------------------------------ paging buttons


def _button(custom_id: str, role: str, label: str | None, disabled: bool) -> discord.ui.Button:
    if label is None:
        label = {"p": "◀ Previous", "n": "Next ▶", "i": "·"}[role]
    style = discord.ButtonStyle.secondary if role == "i" else discord.ButtonStyle.primary
    return discord.ui.Button(label=label, style=style, custom_id=custom_id, disabled=disabled)


class LeaderboardPager(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"lb:(?P<game>{GAME_SLUG}):(?P<scope>{FIELD}):(?P<page>{FIELD}):(?P<role>[pin])",
):
    def __init__(self, game: str, scope: int, page: int, role: str, *, label: str | None = None, disabled=False):
        super().__init__(_button(f"lb:{game}:{scope}:{page}:{role}", role, label, disabled))
        self.game, self.scope, self.page = game, scope, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any
    ) -> LeaderboardPager:
        return cls(match["game"], read_snowflake(match["scope"]), read_id(match["page"]), match["role"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        require(self.scope, self.page)
        if self.scope not in (GLOBAL_SCOPE, interaction.guild_id):
            raise StatsError("This leaderboard belongs to another server.")
        board = await stats_of(interaction).leaderboard(self.game, self.scope, self.page, size=LEADERBOARD_PAGE)
        embed, view = leaderboard_page(board)
        await interaction.response.edit_message(embed=embed, view=view)


class HistoryPager(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"hist:(?P<guild>{FIELD}):(?P<game>{GAME_SLUG}|_):(?P<page>{FIELD}):(?P<role>[pin])",
):
    def __init__(self, guild: int, game: str, page: int, role: str, *, label: str | None = None, disabled=False):
        super().__init__(_button(f"hist:{guild}:{game}:{page}:{role}", role, label, disabled))
        self.guild, self.game, self.page = guild, game, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: Any) -> HistoryPager:
        return cls(read_snowflake(match["guild"]), match["game"], read_id(match["page"]), match["role"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        require(self.guild, self.page)
        if self.guild != interaction.guild_id:
            raise StatsError("This match history belongs to another server.")
        game = None if self.game == "_" else self.game
        embed, view = history_page(await stats_of(interaction).history(self.guild, game, self.page, size=HISTORY_PAGE))
        await interaction.response.edit_message(embed=embed, view=view)


PAGERS = (LeaderboardPager, HistoryPager)


def pager_view(make: Any, page: int, pages: int) -> discord.ui.View | None:
    """◀ Previous · page x/y · Next ▶ (None when everything fits on one page). ``make(page, role,
    label=, disabled=)`` builds one of the DynamicItems above; the role keeps custom ids unique."""
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(make(max(page - 1, 0), "p", disabled=page == 0))
    view.add_item(make(page, "i", label=f"Page {page + 1}/{pages}", disabled=True))
    view.add_item(make(min(page + 1, pages - 1), "n", disabled=page >= pages - 1))
    return view


# ------------------------------------------------------------------------------ leaderboard


def scope_label(scope: int) -> str:
    return "global" if scope == GLOBAL_SCOPE else "this server"


def leaderboard_page(board: LeaderboardPage) -> tuple[discord.Embed, discord.ui.View | None]:
    game, scope, page, pages = board.game, board.scope, board.page, board.pages
    embed = discord.Embed(
        title=f"🏆 {game_name(game)} leaderboard · {scope_label(scope)}", colour=discord.Colour.gold()
    )
    if not board.standings and board.hidden and board.window_days is None:
        embed.description = (
            f"No player has {plural(board.min_games, 'rated game')} yet ({plural(board.hidden, 'player')} "
            "with fewer): this server's leaderboard lists players from that many games on."
        )
    elif not board.standings and board.hidden:
        embed.description = (
            f"Nobody is listed yet ({plural(board.hidden, 'player')} not listed): this server's leaderboard lists "
            f"players with {listing_rule(board)}."
        )
    elif not board.standings:
        embed.description = "No rated matches yet: finish a match to get on the ladder."
    else:
        lines = []
        for i, s in board.placed():
            place = MEDALS.get(i, f"`{i:>3}.`")
            lines.append(
                f"{place} **{player_name(s.display_name, s.user_id)}** · **{rating_text(s)}**{league_text(board, s)}"
                f" · {record_text(board.record(s))} · {plural(s.games, 'game')}"
            )
        embed.description = "\n".join(lines)
    minimum = ""
    if board.min_games > 1 or board.window_days is not None:
        more = "with fewer" if board.window_days is None else "not listed"
        minimum = f" with {listing_rule(board)} ({board.hidden} more {more})"
    marked = any(provisional(s.sigma) for s in board.standings)
    provisional_note = f" · {PROVISIONAL_MARK} provisional" if marked else ""
    embed.set_footer(
        text=f"Page {page + 1}/{pages} · {plural(board.total, 'player')}{minimum} · rating, wins-losses-draws"
        f" (places at tables of 3 or more), games{provisional_note} · {RATING_WORDS}"
    )
    view = pager_view(lambda p, role, **kw: LeaderboardPager(game, scope, p, role, **kw), page, pages)
    return embed, view


# ------------------------------------------------------------------------------ history


def match_line(record: MatchRecord) -> tuple[str, str]:
    names = " vs ".join(player_name(s.display_name, s.user_id) for s in record.seats)
    when = f"<t:{record.finished_at}:R>" if record.finished_at else ""
    summary = discord.utils.escape_mentions(record.summary or "Finished.")
    mark = f" · {PRACTICE_MARK}" if record.practice else ""
    name = clip(f"#{record.id} · {game_name(record.game)}{mark}", 256)
    value = clip(f"{names} · {when}\n{clip(summary, 300)}", 1024)
    return name, value


def history_page(history: HistoryPage) -> tuple[discord.Embed, discord.ui.View | None]:
    game, page, pages, total = history.game, history.page, history.pages, history.total
    title = "📚 Recent matches in this server" + (f" · {game_name(game)}" if game else "")
    embed = discord.Embed(title=title, colour=discord.Colour.blurple())
    if not history.records:
        embed.description = "No finished matches here yet."
    for record in history.records:
        name, value = match_line(record)
        embed.add_field(name=name, value=value, inline=False)
    matches_word = "finished match" if total == 1 else "finished matches"
    embed.set_footer(text=f"Page {page + 1}/{pages} · {total} {matches_word} · replay one with /replay")
    key = game or "_"
    guild_id = history.guild_id
    view = pager_view(lambda p, role, **kw: HistoryPager(guild_id, key, p, role, **kw), page, pages)
    return embed, view


# ------------------------------------------------------------------------------ profile


def ordinal(n: int) -> str:
    """1 -> 1st, 2 -> 2nd, 11 -> 11th, 23 -> 23rd."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def placement(change: RatingChange, players: int, *, shared: bool = False) -> str:
    """A match's result as a player reads it: Win / Loss / Draw between two, the place among
    more ("2nd of 4", "=1st of 3" when shared, as the end card says), never "Loss" for a place."""
    if players <= 2:
        return RESULT_WORDS[change.result]
    return f"{'=' if shared else ''}{ordinal(change.rank)} of {players}"


def percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "–"


def win_rate_line(g: GameProfile) -> str:
    """The win rate; with matches at tables of three or more, the share of 1st places (alone: a
    shared 1st, like a draw, is not counted)."""
    s, r = g.widest, g.widest_record
    played = r.played or s.games
    if r.tables:
        return f"1st places: **{percent(r.firsts, played)}** ({r.firsts} of {plural(played, 'game')})"
    return f"Win rate: **{percent(r.wins, played)}** ({r.wins} of {plural(played, 'game')})"


def opponent_line(o: Opponent) -> str:
    level = f", {o.level} level" if o.level else ""
    return (
        f"{player_name(o.display_name, o.user_id)}: ahead **{percent(o.ahead, o.matches)}** · {o.ahead} of"
        f" {plural(o.matches, 'match')}{level}"
    )


def practice_line(p: PracticeRecord) -> str:
    """``Firewall · normal: 5 played · 3-2-0`` (wins-losses-draws; placements at tables of three or
    more: ``1st ×1 · 3rd ×1``), abandoned matches apart."""
    abandoned = f" · {p.abandoned} abandoned (not counted)" if p.abandoned else ""
    return f"{game_name(p.game)} · {p.level}: {p.played} played · {record_text(p.record)}{abandoned}"


def add_practice_field(embed: discord.Embed, profile: Profile) -> None:
    if profile.practice:
        lines = [practice_line(p) for p in profile.practice]
        embed.add_field(name=PRACTICE_FIELD, value=clip("\n".join(lines), 1024), inline=False)


def recent_line(profile: Profile, c: RatingChange) -> str:
    sign = "+" if c.delta >= 0 else ""
    place = placement(c, profile.players_in(c), shared=profile.shared_place(c))
    rating = f"{c.display_after} ({sign}{c.delta})"
    return f"#{c.match_id} · {game_name(c.game)} · {place} · {rating} · <t:{c.finished_at}:d>"


def game_field(g: GameProfile, series: RatingSeries | None) -> str:
    lines = []
    for placed in g.ladders:
        mine = placed.standing
        label = "This server" if placed.scope != GLOBAL_SCOPE else "Global"
        lines.append(
            f"{label}: **{mine.display}** (#{placed.position} of {placed.players}) · {record_text(g.record(mine))}"
            f" · {plural(mine.games, 'game')}"
        )
    lines.append(win_rate_line(g))
    if g.streak is not None:
        lines.append(f"Streak: {streak_text(g.streak)}")
    if series is not None and not enough_history(series.matches):
        lines.append(history_statement(series.matches))
    return clip("\n".join(lines), 1024)


def tournament_line(r: TournamentResult) -> str:
    """``🏆 Champion of 16`` or ``3rd of 16``, then the game, format, record and date."""
    if r.champion:
        place = f"🏆 Champion of {r.entrants}"
    elif r.place is None:
        place = f"one of {r.entrants}"
    else:
        place = f"{ordinal(r.place)} of {r.entrants}"
    fmt = FORMAT_NAMES.get(r.format, r.format)
    dropped = " · dropped" if r.dropped else ""
    when = f" · <t:{r.finished_at}:d>" if r.finished_at else ""
    return f"#{r.tournament_id} · {game_name(r.game)}, {fmt} · {place} · {r.wins}-{r.losses}-{r.draws}{dropped}{when}"


def add_tournaments_field(embed: discord.Embed, tournaments: tuple[list[TournamentResult], int] | None) -> None:
    """The "Tournaments" field: how many the player finished, and the latest few."""
    if tournaments is None or tournaments[1] == 0:
        return
    results, count = tournaments
    head = f"{plural(count, 'tournament')} finished" + (", the latest:" if count > len(results) else ":")
    lines = [head] + [tournament_line(r) for r in results[:PROFILE_TOURNAMENTS]]
    embed.add_field(name="Tournaments", value=clip("\n".join(lines), 1024), inline=False)


async def tournament_results(
    client: Any, user_id: int, guild_id: int | None
) -> tuple[list[TournamentResult], int] | None:
    """The player's latest finished tournaments (this server's; in a DM every server's) and how
    many; None when the bot runs without tournaments."""
    service = getattr(client, "tournaments", None)
    if not isinstance(service, TournamentService):
        return None
    results = list(await service.player_results(user_id, guild_id, limit=PROFILE_TOURNAMENTS))
    if len(results) < PROFILE_TOURNAMENTS:  # all of them: no need to count
        return results, len(results)
    return results, await service.player_result_count(user_id, guild_id)


def chart_panels(profile: Profile, only: str | None) -> list[Panel]:
    """The games to draw: the one asked for, or every game with enough history (at most 4)."""
    chosen = [c for c in profile.charts if only is None or c.game == only]
    return [
        Panel(f"{game_name(c.game)} · global rating", c.points, c.results) for c in chosen if enough_history(c.matches)
    ]


async def profile_message(
    profile: Profile,
    user: discord.abc.User,
    *,
    game: str | None = None,
    tournaments: tuple[list[TournamentResult], int] | None = None,
) -> tuple[discord.Embed, discord.File | None]:
    """The profile embed, and the chart of every game with enough history (or of ``game``);
    ``tournaments``: the player's latest tournament results and their count."""
    name = player_name(user.display_name, user.id)
    embed = discord.Embed(title=f"📜 {name}", colour=discord.Colour.purple())
    embed.set_thumbnail(url=user.display_avatar.url)
    if not profile.rated:
        embed.description = "No rated matches yet. Finish a match to get a rating."
        add_tournaments_field(embed, tournaments)
        add_practice_field(embed, profile)
        return embed, None
    embed.description = f"Current streak: {streak_text(profile.streak)}"
    series = {c.game: c for c in profile.charts}
    for g in profile.games:
        embed.add_field(name=game_name(g.game), value=game_field(g, series.get(g.game)), inline=False)
    recent = [recent_line(profile, c) for c in profile.recent[:PROFILE_RECENT]]
    embed.add_field(name="Recent matches", value="\n".join(recent) or "none", inline=False)
    if profile.opponents:
        lines = [opponent_line(o) for o in profile.opponents]
        embed.add_field(name="Most frequent opponents", value=clip("\n".join(lines), 1024), inline=False)
    add_tournaments_field(embed, tournaments)
    add_practice_field(embed, profile)
    if game is not None and game not in series:
        embed.add_field(name="Chart", value=f"No rated match of {game_name(game)} yet.", inline=False)
    file = None
    panels = chart_panels(profile, game)
    if panels:
        file = await asyncio.to_thread(rating_chart_file, panels)
        embed.set_image(url=f"attachment://{file.filename}")
    embed.set_footer(
        text=f"{RATING_WORDS} · wins-losses-draws; at tables of 3 or more, places (=: shared)"
        " · ahead: placed better than that opponent"
    )
    return embed, file


# ------------------------------------------------------------------------------ the cog


class Stats(commands.Cog):
    def __init__(self, bot: RefereeBot):
        self.bot = bot

    async def game_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        cur = current.strip().lower()
        return [
            app_commands.Choice(name=name, value=slug)
            for slug, name in available_games()
            if cur in slug or cur in name.lower()
        ][:25]

    @property
    def stats(self) -> StatsService:
        return self.bot.stats

    async def _default_game(self, scope: int) -> tuple[str, str]:
        """The game /leaderboard shows when none is given, and the sentence that says why."""
        available = {slug for slug, _ in available_games()}
        where = "on this server" if scope != GLOBAL_SCOPE else "globally"
        for played in await self.stats.games_played(scope):
            if played.game in available:
                return played.game, (
                    f"Showing **{game_name(played.game)}**, the most played game {where}. "
                    "Pick another with `/leaderboard game:`."
                )
        games = available_games()
        if not games:
            raise StatsError("No game is available right now.")
        return games[0][0], (
            f"No game has been rated {where} yet: showing **{games[0][1]}**. Pick another with `/leaderboard game:`."
        )

    @app_commands.command(name="leaderboard", description="The best players of a game")
    @app_commands.describe(
        game="which game (default: the most played, named in the reply)",
        scope="this server or everyone",
        season="a season of this server (an ended one: its final standings)",
    )
    @app_commands.choices(scope=SCOPE_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        scope: app_commands.Choice[str] | None = None,
        season: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        if season is not None:
            from .seasons import season_leaderboard  # (cogs/seasons.py builds on this module)

            embed, view = await season_leaderboard(interaction, season, resolve_game(game) if game else None)
            await interaction.response.send_message(embed=embed, view=view or discord.utils.MISSING)
            return
        wanted = scope.value if scope is not None else "server"
        scope_id = interaction.guild_id if wanted == "server" and interaction.guild_id else GLOBAL_SCOPE
        if game:
            slug, note = resolve_game(game), None
        else:
            slug, note = await self._default_game(scope_id)
        board = await self.stats.leaderboard(slug, scope_id, 0, size=LEADERBOARD_PAGE)
        embed, view = leaderboard_page(board)
        await interaction.response.send_message(
            content=note or discord.utils.MISSING, embed=embed, view=view or discord.utils.MISSING
        )

    leaderboard.autocomplete("game")(game_autocomplete)

    @leaderboard.autocomplete("season")
    async def _season_names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        from .seasons import season_autocomplete

        return await season_autocomplete(interaction, current)

    @app_commands.command(name="profile", description="A player's ratings, streak and recent matches")
    @app_commands.describe(player="whose profile (default: yours)", game="the game whose rating chart to draw")
    async def profile(
        self, interaction: discord.Interaction, player: discord.User | None = None, game: str | None = None
    ) -> None:
        user = player or interaction.user
        slug = resolve_game(game) if game else None
        await interaction.response.defer(thinking=True)  # drawing the chart may take a moment
        profile = await self.stats.profile(user.id, interaction.guild_id, chart_game=slug, max_games=PROFILE_GAMES)
        tournaments = await tournament_results(interaction.client, user.id, interaction.guild_id)
        embed, file = await profile_message(profile, user, game=slug, tournaments=tournaments)
        from .seasons import add_seasons_field

        await add_seasons_field(embed, interaction, user.id)
        if file is not None:
            await interaction.followup.send(embed=embed, file=file)
        else:
            await interaction.followup.send(embed=embed)

    profile.autocomplete("game")(game_autocomplete)

    @app_commands.command(name="history", description="Recent finished matches in this server")
    @app_commands.describe(game="only this game")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, game: str | None = None) -> None:
        assert interaction.guild_id is not None
        slug = resolve_game(game) if game else None
        embed, view = history_page(await self.stats.history(interaction.guild_id, slug, 0, size=HISTORY_PAGE))
        await interaction.response.send_message(embed=embed, view=view or discord.utils.MISSING)

    history.autocomplete("game")(game_autocomplete)


async def setup(bot: RefereeBot) -> None:
    # Restart-proof paging buttons: parsed from their custom_id, the data read from the database.
    bot.add_dynamic_items(*PAGERS)
    await bot.add_cog(Stats(bot))


async def teardown(bot: RefereeBot) -> None:
    bot.remove_dynamic_items(*PAGERS)
