"""Arena's prompt screens without Discord (tests/cogs/test_arena_ui.py, tests/cogs/test_arena_art.py): the
prompt context of a seat, the limits every screen's components and embeds keep, random clicks
through the screens to a submitted action, a game in progress, and a screen's text."""

from __future__ import annotations

import random

import discord

from cogs.games.arena.ui import UI
from cogs.games.base import CUSTOM_ID_RE, AskText, Prompt, PromptContext, Submit, embed_size
from rules import Match

NAMES = ["Ann", "Bob"]
MATCH_ID = 123456789012345678


def ctx_for(m: Match, seat: int) -> PromptContext:
    steps = sum(1 for e in m.log if e.seat == seat)
    st = m.state
    # pictures off: these contexts walk every screen (the situation picture has tests of its own)
    return PromptContext(
        MATCH_ID, seat, steps, NAMES, st.view(seat), st.legal_actions(seat), images=False, decision=st.asked(seat)
    )


def check_components(view: discord.ui.View) -> list[discord.ui.Item]:
    rows = view.to_components()
    assert len(rows) <= 5
    items = list(view.children)
    for it in items:
        assert CUSTOM_ID_RE.fullmatch(it.custom_id) and len(it.custom_id) <= 100
        if isinstance(it, discord.ui.Select):
            assert 1 <= len(it.options) <= 25
            assert all(len(o.label) <= 100 and len(o.description or "") <= 100 for o in it.options)
            assert len({o.value for o in it.options}) == len(it.options)
        else:
            assert len(it.label or "") <= 80
    return items


def check_embeds(embeds: list[discord.Embed]) -> None:
    for e in embeds:
        assert embed_size(e) <= 6000 and len(e.fields) <= 25 and len(e.description or "") <= 4096
        assert all(len(f.value) <= 1024 for f in e.fields)


def payload_of(item: discord.ui.Item) -> str:
    return CUSTOM_ID_RE.fullmatch(item.custom_id)["payload"]


def clicks(prompt: Prompt) -> list[tuple[str, list[str]]]:
    """Every click a player can make on a screen: each button, each option of each select."""
    out: list[tuple[str, list[str]]] = []
    for it in check_components(prompt.view):
        if isinstance(it, discord.ui.Select):
            out += [(payload_of(it), [o.value]) for o in it.options]
        else:
            out.append((payload_of(it), []))
    return out


def random_click(ctx: PromptContext, rng: random.Random):
    prompt = UI.prompt(ctx)
    for _ in range(10):
        options = [c for c in clicks(prompt) if c[0] not in ("back", "et")] or clicks(prompt)
        payload, values = rng.choice(options)
        result = UI.handle(ctx, payload, values)
        if isinstance(result, AskText):
            result = UI.handle(ctx, result.payload, ["Morgana"])
        if isinstance(result, Submit):
            return result.action
        prompt = result
    raise AssertionError("the prompt never submitted")


def game_in_progress(size: int, seed: int = 0, steps: int = 80) -> tuple[Match, int]:
    rng = random.Random(seed)
    m = Match.new("arena", {"grid_size": size, "terrain_count": 8}, seed=seed, seats=NAMES)
    start = 0
    for _ in range(steps):
        if m.awaiting.is_terminal:
            break
        seat = min(m.awaiting.seats)
        start = len(m.events)
        m.act(seat, random_click(ctx_for(m, seat), rng))
    return m, start


def screen_text(p: Prompt) -> str:
    return p.content + "\n" + "\n".join((e.title or "") + "\n" + (e.description or "") for e in p.embeds)
