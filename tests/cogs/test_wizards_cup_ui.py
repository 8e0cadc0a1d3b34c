"""Wizards Cup's Discord UI without Discord: every prompt screen leads to an action the engine
accepts, custom_ids fit Discord's limits, channel embeds stay within embed limits and secret-free."""

from __future__ import annotations

import random
import re

import discord
import pytest

from cogs.games.base import CUSTOM_ID_RE, PromptContext, Submit, embed_size, pack_embeds
from cogs.games.wizards_cup.ui import UI
from rules import Match

NAMES = ["Ann", "Bob"]


def ctx_for(m: Match, seat: int, match_id: int = 123456789012345678) -> PromptContext:
    steps = sum(1 for e in m.log if e.seat == seat)
    state = m.state
    return PromptContext(
        match_id, seat, steps, NAMES, state.view(seat), state.legal_actions(seat), decision=state.asked(seat)
    )


def components(view: discord.ui.View) -> list[discord.ui.Item]:
    items = list(view.children)
    for it in items:
        assert CUSTOM_ID_RE.fullmatch(it.custom_id) and len(it.custom_id) <= 100
    assert len(items) <= 25
    return items


def drive(m: Match, seat: int, rng: random.Random) -> None:
    """Click through the seat's prompt like a player would, until an action is submitted."""
    ctx = ctx_for(m, seat)
    prompt = UI.prompt(ctx)
    for _ in range(20):
        assert prompt.view is not None
        items = components(prompt.view)
        item = rng.choice([i for i in items if not (isinstance(i, discord.ui.Button) and i.label == "Start over")])
        payload = CUSTOM_ID_RE.fullmatch(item.custom_id)["payload"]
        values: list[str] = []
        if isinstance(item, discord.ui.Select):
            values = rng.sample([o.value for o in item.options], item.min_values)
        result = UI.handle(ctx, payload, values)
        if isinstance(result, Submit):
            m.act(seat, result.action)
            return
        prompt = result
    raise AssertionError("prompt never submitted")


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12))
def test_prompts_drive_a_whole_game_and_embeds_fit(seed):
    rng = random.Random(seed)
    m = Match.new("wizards-cup", seed=seed, seats=NAMES)
    seen = 0
    while not m.awaiting.is_terminal:
        seat = rng.choice(sorted(m.awaiting.seats))
        drive(m, seat, rng)
        embeds = UI.public_embeds(m.state.view(None), m.events[seen:], NAMES)
        seen = len(m.events)
        for batch in pack_embeds(embeds):
            assert len(batch) <= 10 and sum(embed_size(e) for e in batch) <= 6000
        for e in embeds:
            assert len(e.fields) <= 25 and all(len(f.value) <= 1024 for f in e.fields)
    assert m.outcome is not None


def test_channel_embeds_never_show_a_secret_plan():
    m = Match.new("wizards-cup", seed=5, seats=NAMES)
    rng = random.Random(5)
    drive(m, 0, rng)  # Ann chooses her Deck
    embeds = UI.public_embeds(m.state.view(None), m.events, NAMES)
    team = m.state.players[0].team[1:]  # the five secret cards
    text = " ".join(str(e.to_dict()) for e in embeds)
    from rules.wizards_cup import load_card_set

    for card in team:
        assert load_card_set()[card].name not in text


def test_plan_screens_build_the_order_in_click_order():
    m = Match.new("wizards-cup", seed=9, seats=NAMES)
    deck_ids = [c for c in m.state.cards.ids if c != m.state.players[0].random_pick][:5]
    m.act(0, {"type": "choose_deck", "cards": deck_ids})
    ctx = ctx_for(m, 0)
    deck = ctx.seen["you"]["deck"]
    screen = UI.handle(ctx, "plan.53", [])
    labels = [i.label for i in screen.view.children]
    assert "Start over" in labels and len(labels) == 4 + 1
    done = UI.handle(ctx, "planok.53210", [])
    assert isinstance(done, Submit)
    assert list(done.action.order) == [deck[5], deck[3], deck[2], deck[1], deck[0]]
    assert done.action.waiting == deck[4]
    with pytest.raises(ValueError):
        UI.handle(ctx, "plan.55", [])


def test_the_prompt_follows_the_decision_and_refuses_buttons_of_another_step():
    m = Match.new("wizards-cup", seed=3, seats=NAMES)
    ctx = ctx_for(m, 0)
    assert ctx.decision is not None and ctx.decision.kind == "choose_deck"
    with pytest.raises(ValueError, match="does not belong"):
        UI.handle(ctx, "bot.1", [])
    with pytest.raises(ValueError, match="does not belong"):
        UI.handle(ctx, "planok.01234", [])
    with pytest.raises(ValueError, match="Choose 5"):
        UI.handle(ctx, "deck", ["mentor"])
    # no decision (the seat is not asked): nothing to click
    idle = PromptContext(1, 0, 0, NAMES, m.state.view(0))
    assert UI.prompt(idle).view is None
    with pytest.raises(ValueError, match="does not belong"):
        UI.handle(idle, "swapkeep", [])


def screens(ctx: PromptContext, prompt, depth: int = 0):
    """The prompt and screens reachable from it: every component of the first screen is clicked,
    then the first of each later screen (selects: their first values other than "keep")."""
    yield prompt
    if prompt.view is None or depth > 6:
        return
    items = components(prompt.view)
    for item in items if depth == 0 else items[:1]:
        payload = CUSTOM_ID_RE.fullmatch(item.custom_id)["payload"]
        values: list[str] = []
        if isinstance(item, discord.ui.Select):
            options = [o.value for o in item.options]
            values = ([v for v in options if v != "keep"] or options)[: item.min_values]
        nxt = UI.handle(ctx, payload, values)
        if not isinstance(nxt, Submit):
            yield from screens(ctx, nxt, depth + 1)


@pytest.mark.slow
def test_every_payload_in_the_handler_table_is_offered_by_a_screen_of_its_decision():
    """The handler table and the screens agree: each head is offered by some screen, only on a
    prompt for the decision the head answers."""
    from cogs.games.wizards_cup.prompts import HANDLERS

    offered: set[str] = set()
    for seed in range(40):
        rng = random.Random(seed)
        m = Match.new("wizards-cup", seed=seed, seats=NAMES)
        while not m.awaiting.is_terminal and offered != set(HANDLERS):
            seat = rng.choice(sorted(m.awaiting.seats))
            ctx = ctx_for(m, seat)
            assert ctx.decision is not None
            for screen in screens(ctx, UI.prompt(ctx)):
                for item in screen.view.children:
                    head = CUSTOM_ID_RE.fullmatch(item.custom_id)["payload"].partition(".")[0]
                    assert HANDLERS[head].kind == ctx.decision.kind, (head, ctx.decision.kind)
                    offered.add(head)
            drive(m, seat, rng)
        if offered == set(HANDLERS):
            break
    assert offered == set(HANDLERS)


def test_payloads_of_another_decision_or_unknown_are_refused_readably():
    """A head answering another decision, or no head of this game, is refused with the same
    message on every step of a game; nothing is submitted."""
    from cogs.games.wizards_cup.prompts import HANDLERS

    rng = random.Random(4)
    m = Match.new("wizards-cup", seed=4, seats=NAMES)
    kinds: set[str] = set()
    while not m.awaiting.is_terminal:
        seat = rng.choice(sorted(m.awaiting.seats))
        ctx = ctx_for(m, seat)
        assert ctx.decision is not None
        kinds.add(ctx.decision.kind)
        foreign = [h for h, route in HANDLERS.items() if route.kind != ctx.decision.kind]
        for payload in [*foreign, *(f"{h}.1" for h in foreign), "", "nope", "deckx", "m:1:0:0:deck", "plan_ok.0"]:
            with pytest.raises(ValueError, match="^That button does not belong to this prompt.$"):
                UI.handle(ctx, payload, ["keep"])
        drive(m, seat, rng)
    assert {"choose_deck", "plan", "swap"} <= kinds


def test_the_custom_id_grammar_documents_every_payload_head():
    from cogs.games.wizards_cup import prompts

    assert prompts.__doc__ is not None
    for head in prompts.HANDLERS:
        assert f"``{head}" in prompts.__doc__, head


def test_the_final_board_does_not_call_a_revealed_waiting_card_face_down_and_counts_in_words():
    # ux-review-2: the final "Board — round 2" under the reveal said "Deck: 1 card(s) · Waiting: face down"
    from cogs.games.wizards_cup.posts import board_embed

    texts, finals = [], []
    for seed in range(3):
        rng = random.Random(seed)
        m = Match.new("wizards-cup", seed=seed, seats=NAMES)
        while not m.awaiting.is_terminal:
            drive(m, rng.choice(sorted(m.awaiting.seats)), rng)
            live = " ".join(f.value for f in board_embed(m.state.view(None), NAMES).fields)
            assert "(s)" not in live
            texts.append(live)
        final = " ".join(f.value for f in board_embed(m.state.view(None), NAMES).fields)
        assert "face down" not in final
        finals.append(final)
    assert any("Waiting: revealed on the end card" in f for f in finals)
    assert any("Waiting: face down" in t for t in texts)  # while the match goes on it is hidden
    assert any(re.search(r"Deck: 1 card ·", t) for t in texts) and any(
        re.search(r"Deck: \d+ cards ·", t) for t in texts
    )
