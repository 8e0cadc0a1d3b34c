"""What every game's Discord UI provides, and the stateless custom_id scheme of private prompts.

A private prompt's components carry everything needed to act on a click in their custom_id:
``m:<match id>:<seat>:<seat step>:<payload>``. The seat step is the number of actions the seat had
taken when the prompt was made, so a click on an old prompt (an earlier step, a double click, a
second submission) is recognised as stale. Nothing is kept in memory: the buttons keep working
after a restart (one DynamicItem class per component type is registered at start-up).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, cast

import discord

from bot.endings import GameEnding
from bot.matches import SeatPrompt
from rules import ActionModel, Decision, Event
from rules.core import PublicViewT, SeatViewT

from ..ids import FIELD
from .howto import HowTo
from .pictures import CONTENT_NAMED

#: A prompt's components: ``m:<match>:<seat>:<seat step>:<payload>``. The numbers are captured
#: loosely (:data:`cogs.ids.FIELD`) so that a damaged or forged id is answered, not ignored; they
#: are read with :func:`cogs.ids.read_id` (at most 2^53 - 1).
CUSTOM_ID_RE = re.compile(rf"m:(?P<match>{FIELD}):(?P<seat>{FIELD}):(?P<step>{FIELD}):(?P<payload>[A-Za-z0-9_.,\-]*)")
MAX_CUSTOM_ID = 100

# Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits)
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELD_VALUE = 1024
EMBED_FIELDS = 25
EMBED_TOTAL = 6000
EMBEDS_PER_MESSAGE = 10
SELECT_OPTIONS = 25


def custom_id(match_id: int, seat: int, seat_step: int, payload: str) -> str:
    cid = f"m:{match_id}:{seat}:{seat_step}:{payload}"
    if len(cid) > MAX_CUSTOM_ID or not CUSTOM_ID_RE.fullmatch(cid):
        raise ValueError(f"bad custom_id {cid!r}")
    return cid


#: a game's views where they are only read (a protocol's arguments)
SeatViewIn = TypeVar("SeatViewIn", bound=Mapping[str, Any], contravariant=True)
PublicViewIn = TypeVar("PublicViewIn", bound=Mapping[str, Any], contravariant=True)
#: what a prompt's seat sees (a context is read-only, so a context of a narrower view is one of a wider)
SeenT = TypeVar("SeenT", bound=Mapping[str, Any], covariant=True)


@dataclass(frozen=True)
class PromptContext(Generic[SeenT]):
    """Who is being asked, for which match, at which step, and what they may see: ``seen`` is typed
    by the game's seat view (``PromptContext[FirewallView]``), as its UI is (:class:`GameUI`)."""

    match_id: int
    seat: int
    seat_step: int
    names: Sequence[str]
    seen: SeenT  # what the seat may see: the rules' view (not a discord.ui.View)
    legal: Sequence[ActionModel] = ()  # the seat's legal actions now (may be a lazy sequence)
    images: bool = True  # RENDER_IMAGES: whether prompts may carry pictures
    decision: Decision | None = None  # what the seat is asked now (kind, choices, bounds, default)

    @classmethod
    def of(cls, sp: SeatPrompt, names: Sequence[str], *, images: bool) -> PromptContext[Any]:
        """The context of the service's prompt ``sp``. Its view is the one the game's engine rendered
        for the seat, so it is the game's seat view: the one place it is taken as such."""
        seen = cast(Any, sp.view)
        return PromptContext(sp.match_id, sp.seat, sp.seat_step, names, seen, sp.legal_actions, images, sp.decision)

    def cid(self, payload: str) -> str:
        return custom_id(self.match_id, self.seat, self.seat_step, payload)


@dataclass
class Prompt:
    """A private prompt: text, embeds and components (a View of plain items)."""

    content: str
    embeds: list[discord.Embed] = field(default_factory=list)
    view: discord.ui.View | None = None
    files: list[discord.File] = field(default_factory=list)  # pictures the embeds show

    def edit_kwargs(self, current: Sequence[discord.Attachment] = ()) -> dict[str, Any]:
        """Keyword arguments that replace a message with this prompt (old pictures removed). A
        picture named by its content that the message (``current``: its attachments) already
        shows is kept, not uploaded again."""
        shown = {a.filename: a for a in current if CONTENT_NAMED.fullmatch(a.filename)}
        attachments: list[discord.File | discord.Attachment] = [shown.get(f.filename or "", f) for f in self.files]
        return {"content": self.content or None, "embeds": self.embeds, "view": self.view, "attachments": attachments}

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments that send this prompt as a new message."""
        out: dict[str, Any] = {"content": self.content or None, "embeds": self.embeds}
        if self.view is not None:
            out["view"] = self.view
        if self.files:
            out["files"] = self.files
        return out


@dataclass(frozen=True)
class AskText:
    """A click that asks for free text (a name, an exact number): the platform shows a modal and
    calls ``handle(ctx, payload, [text])`` with the answer, like a select's values."""

    title: str
    label: str
    payload: str
    placeholder: str = ""
    default: str | None = None
    min_length: int = 1
    max_length: int = 100


TEXT_FIELD_ID = "text"


def text_modal(ctx: PromptContext[Any], ask: AskText) -> discord.ui.Modal:
    """The modal for ``ask``. Its custom_id is the prompt's (match, seat, step, payload): the answer
    is handled statelessly from it, so an open modal still works after a restart."""
    modal = discord.ui.Modal(title=clip(ask.title, 45), custom_id=ctx.cid(ask.payload), timeout=None)
    modal.add_item(
        discord.ui.TextInput(
            label=clip(ask.label, 45),
            custom_id=TEXT_FIELD_ID,
            placeholder=clip(ask.placeholder, 100) or None,
            default=ask.default,
            min_length=ask.min_length,
            max_length=ask.max_length,
        )
    )
    modal.stop()  # never dispatched through discord.py's modal store: see cogs.matches.on_modal_submit
    return modal


@dataclass(frozen=True)
class Submit:
    """A click that completes a move: submit this action."""

    action: ActionModel


@dataclass
class Post:
    """A channel post: embeds plus the pictures they show (``attachment://<filename>``)."""

    embeds: list[discord.Embed] = field(default_factory=list)
    files: list[discord.File] = field(default_factory=list)


@dataclass(frozen=True)
class Lookup:
    """A reference entry a game offers to /card (a card, a spell, a Discipline ...)."""

    key: str
    label: str


class GameUI(Generic[SeatViewT, PublicViewT]):
    """What a game's Discord UI provides (the ``ui`` part of its registry entry, ``rules/registry.py``),
    typed by the game's seat and spectator views: the same two its :class:`~rules.core.Game` is typed
    by (``tests/rules/test_registry.py`` checks). Subclasses implement prompt, handle and public_post (or only
    public_embeds, for posts without pictures), and name the game's /howto entry, first-match tip
    and end-card module; the rest have sensible defaults."""

    slug: str
    #: the game's /howto entry (``cogs/games/<game>/howto.py``)
    howto: HowTo
    #: the one thing a player must know in their first match of the game (one line)
    first_match_tip: str
    #: the end card's key figures and secrets (``bot/endings/<game>.py``, the registry's ``ending``)
    ending: GameEnding
    #: True for open-information games: the awaited seat's prompt is posted in the channel (only
    #: that player may use it) instead of a DM.
    public_prompts: bool = False
    #: True for games whose turn takes many steps (Arena): the player drives a whole turn through
    #: one private control panel, edited in place step by step (cogs/notifier.py ``in_place``).
    panel: bool = False
    #: Whether the story posts carry the game's pictures (False: the match card right above
    #: shows the board, and a story post per player-turn tells it in words).
    story_pictures: bool = True

    def prompt(self, ctx: PromptContext[SeatViewT]) -> Prompt:
        """The private prompt for what the seat is asked now."""
        raise NotImplementedError

    def situation(self, ctx: PromptContext[SeatViewT]) -> discord.File | None:
        """A picture of the situation for every screen of the seat's prompts, named by its content
        (an edit that shows the same situation keeps it); None: the game's prompts draw their own."""
        return None

    def situated(self, ctx: PromptContext[SeatViewT], prompt: Prompt) -> Prompt:
        """``prompt`` with the situation's picture at full size, as its first embed's image (when
        pictures are on). Never a thumbnail: Discord shows those at 80x80, where nobody can read
        a board. A prompt whose first embed already shows a picture of its own keeps just that."""
        if (
            ctx.images
            and prompt.embeds
            and not prompt.embeds[0].image.url
            and not any(e.image.url for e in prompt.embeds)
        ):
            picture = self.situation(ctx)
            if picture is not None:
                prompt.embeds[0].set_image(url=f"attachment://{picture.filename}")
                prompt.files.append(picture)
        return prompt

    def handle(self, ctx: PromptContext[SeatViewT], payload: str, values: Sequence[str]) -> Submit | Prompt | AskText:
        """Interpret a click (payload from the custom_id, values of a select): an action to submit,
        or the next screen of the same prompt. Raises ValueError with a readable message."""
        raise NotImplementedError

    def public_embeds(self, view: PublicViewT, events: Sequence[Event], names: Sequence[str]) -> list[discord.Embed]:
        """Channel embeds after a resolution, from the spectator view and public events only."""
        raise NotImplementedError

    def public_post(self, view: PublicViewT, events: Sequence[Event], names: Sequence[str], *, images: bool) -> Post:
        """The channel post after a resolution; games with pictures attach them here."""
        return Post(self.public_embeds(view, events, names))

    #: Public event kinds that tell a part of the story worth a post of its own in the thread (a
    #: resolved duel, trick or turn); see cogs/placement.py.
    story_kinds: frozenset[str] = frozenset({"game_end", "forfeit"})
    #: Public event kinds that only say someone moved (nothing to show on the board until the next
    #: resolution shows it).
    quiet_kinds: frozenset[str] = frozenset()
    #: Whether the board follows every resolution (False: only the story posts, for games whose
    #: prompt or story post already shows each step).
    board_each_resolution: bool = True
    #: The embeds of the game's post of no events that make its part of the live board, by the
    #: start of their title (empty: the whole post).
    board_titles: tuple[str, ...] = ()

    def tells_story(self, kinds: set[str]) -> bool:
        """Whether a resolution with these public event kinds gets a story post."""
        return not kinds.isdisjoint(self.story_kinds)

    def refreshes_board(self, kinds: set[str]) -> bool:
        """Whether a resolution with these public event kinds brings the live board up to date."""
        if self.tells_story(kinds):
            return True
        return self.board_each_resolution and bool(kinds - self.quiet_kinds)

    def board_post(self, view: PublicViewT, names: Sequence[str], *, images: bool) -> Post:
        """The game's standing for the live board (the status line and the events are added by
        the table): the channel post of no events, or its embeds named in ``board_titles``."""
        post = self.public_post(view, [], names, images=images)
        if not self.board_titles:
            return post
        embeds = [e for e in post.embeds if (e.title or "").startswith(self.board_titles)]
        refs = {e.image.url for e in embeds} | {e.thumbnail.url for e in embeds}
        return Post(embeds, [f for f in post.files if f"attachment://{f.filename}" in refs])

    def standing_picture(
        self, view: PublicViewT, names: Sequence[str], title: str, filename: str
    ) -> discord.File | None:
        """A picture of the players for a replay's step whose post shows none (``view``: the
        spectator view after it), titled ``title``; None: the game has none."""
        return None

    def rules_fields(self) -> list[tuple[str, str]]:
        """Extra (name, value) fields for /rules."""
        return []

    def lookup_choices(self, current: str) -> list[Lookup]:
        """Entries matching ``current`` for /card's autocomplete."""
        return []

    def lookup(self, key: str) -> discord.Embed | None:
        """The /card embed for an entry, or None."""
        return None

    def in_prompt_words(self, text: str) -> str:
        """The engine's account of a move (a hint's) in the words this game's prompts use."""
        return text

    def describe(self, action: Mapping[str, Any]) -> str:
        """An action (its JSON) in words, for a hint whose account of the move would depend on
        what the player cannot see (the cards a draw brings). Games override it for their
        actions; this default names the action and its fields."""
        kind = str(action.get("type", "move")).replace("_", " ")
        fields = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in action.items() if k != "type" and v is not None)
        return kind.capitalize() + (f" ({fields})" if fields else "") + "."


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def embed_size(e: discord.Embed) -> int:
    n = len(e.title or "") + len(e.description or "")
    n += len(e.footer.text or "") if e.footer else 0
    n += len(e.author.name or "") if e.author else 0
    return n + sum(len(f.name or "") + len(f.value or "") for f in e.fields)


def pack_embeds(embeds: Sequence[discord.Embed]) -> list[list[discord.Embed]]:
    """Split embeds into messages of at most 10 embeds and 6,000 characters of embed text."""
    out: list[list[discord.Embed]] = []
    cur: list[discord.Embed] = []
    size = 0
    for e in embeds:
        s = embed_size(e)
        if cur and (len(cur) >= EMBEDS_PER_MESSAGE or size + s > EMBED_TOTAL):
            out.append(cur)
            cur, size = [], 0
        cur.append(e)
        size += s
    if cur:
        out.append(cur)
    return out


class PromptScreens(Protocol[SeatViewIn]):
    """A game's ``prompts`` module: its prompt screens and the handlers of their clicks."""

    def prompt(self, ctx: PromptContext[SeatViewIn]) -> Prompt: ...

    def handle(
        self, ctx: PromptContext[SeatViewIn], payload: str, values: Sequence[str]
    ) -> Submit | Prompt | AskText: ...


class Reference(Protocol[PublicViewIn]):
    """What a game's ``posts`` module gives: the channel post after a resolution (``view``: the
    game's spectator view), and what /rules and /card show."""

    def public_post(
        self, view: PublicViewIn, events: Sequence[Event], names: Sequence[str], *, images: bool
    ) -> Post: ...

    def rules_fields(self) -> list[tuple[str, str]]: ...

    def lookup_choices(self, current: str) -> list[Lookup]: ...

    def lookup(self, key: str) -> discord.Embed | None: ...


class ModularUI(GameUI[SeatViewT, PublicViewT]):
    """A game's UI assembled from its modules: ``prompts`` (the screens and their clicks) and
    ``posts`` (the channel posts and the reference). A game adds only what its thread tells
    (``story_kinds``, ``quiet_kinds``, ``board_titles``...)."""

    def __init__(self, prompts: PromptScreens[SeatViewT], posts: Reference[PublicViewT]) -> None:
        self.screens = prompts
        self.reference = posts

    def prompt(self, ctx: PromptContext[SeatViewT]) -> Prompt:
        return self.situated(ctx, self.screens.prompt(ctx))

    def handle(self, ctx: PromptContext[SeatViewT], payload: str, values: Sequence[str]) -> Submit | Prompt | AskText:
        result = self.screens.handle(ctx, payload, values)
        return self.situated(ctx, result) if isinstance(result, Prompt) else result

    def public_embeds(self, view: PublicViewT, events: Sequence[Event], names: Sequence[str]) -> list[discord.Embed]:
        return self.public_post(view, events, names, images=False).embeds

    def public_post(self, view: PublicViewT, events: Sequence[Event], names: Sequence[str], *, images: bool) -> Post:
        return self.reference.public_post(view, events, names, images=images)

    def rules_fields(self) -> list[tuple[str, str]]:
        return self.reference.rules_fields()

    def lookup_choices(self, current: str) -> list[Lookup]:
        return self.reference.lookup_choices(current)

    def lookup(self, key: str) -> discord.Embed | None:
        return self.reference.lookup(key)
