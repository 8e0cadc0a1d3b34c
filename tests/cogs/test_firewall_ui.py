"""Firewall's Discord UI without Discord: every prompt screen (bet, spells, Clone, Cast, Larceny,
Recycle, the stock order) leads to an action the engine accepts, components fit Discord's limits,
and the channel post (picture or emoji strip) shows the bridge and the turn, never a secret."""

from __future__ import annotations

import io
import random
from collections.abc import Sequence

import discord
import pytest
from PIL import Image

from cogs.games import get_ui, ui_slugs
from cogs.games.base import CUSTOM_ID_RE, Prompt, PromptContext, Submit, embed_size, pack_embeds
from cogs.games.firewall.art import HEIGHT as BRIDGE_HEIGHT
from cogs.games.firewall.art import WIDTH as BRIDGE_WIDTH
from cogs.games.firewall.art import bridge_image, bridge_strip
from cogs.games.firewall.ui import UI, bet_choices
from rules import Bound, Match
from rules.firewall import SPELLS, FirewallState, LarcenyChoice, Order, RecycleChoice, Turn
from tests.rules.firewall.helpers import arrange, start, turn

NAMES = ["Ann", "Bob"]
MATCH_ID = 123456789012345678

BRIDGE_SIZE = (BRIDGE_WIDTH, BRIDGE_HEIGHT)  # the bridge picture's size (legible on a phone)


def ctx_for(m: Match | FirewallState, seat: int, step: int | None = None) -> PromptContext:
    """The context the bot gives the UI: the seat's view and its decision."""
    if isinstance(m, Match):
        steps = sum(1 for e in m.log if e.seat == seat) if step is None else step
        st = m.state
    else:
        steps, st = step or 0, m
    # pictures off: these contexts walk every screen (the situation picture has tests of its own)
    return PromptContext(
        MATCH_ID, seat, steps, NAMES, st.view(seat), st.legal_actions(seat), images=False, decision=st.asked(seat)
    )


def check_prompt(prompt: Prompt) -> list[discord.ui.Item]:
    """Discord's limits on a prompt: custom_ids, rows, options, labels, embed sizes."""
    assert sum(embed_size(e) for e in prompt.embeds) <= 6000 and len(prompt.embeds) <= 10
    for e in prompt.embeds:
        assert len(e.fields) <= 25 and all(len(f.value) <= 1024 for f in e.fields)
        assert len(e.description or "") <= 4096
    if prompt.view is None:
        return []
    items = list(prompt.view.children)
    ids = [i.custom_id for i in items]
    assert len(ids) == len(set(ids)), "custom_ids must be unique in a message"
    for it in items:
        assert CUSTOM_ID_RE.fullmatch(it.custom_id) and len(it.custom_id) <= 100, it.custom_id
        if isinstance(it, discord.ui.Select):
            assert 1 <= len(it.options) <= 25 and it.max_values <= len(it.options)
            for o in it.options:
                assert len(o.label) <= 100 and len(o.description or "") <= 100
        else:
            assert len(it.label or "") <= 80
    rows = prompt.view.to_components()
    assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
    return items


def payload(item: discord.ui.Item) -> str:
    return CUSTOM_ID_RE.fullmatch(item.custom_id)["payload"]


def find(prompt: Prompt, head: str) -> discord.ui.Item:
    return next(i for i in prompt.view.children if payload(i).split(".")[0] == head)


def click(ctx: PromptContext, prompt: Prompt, head: str, values: Sequence[str] = ()) -> Prompt | Submit:
    item = find(prompt, head)
    assert not getattr(item, "disabled", False), f"{head} is disabled"
    result = UI.handle(ctx, payload(item), list(values))
    if isinstance(result, Prompt):
        check_prompt(result)
    return result


def play(m: Match, seat: int, rng: random.Random) -> None:
    """Click through the seat's prompt like a player, until an action is submitted and applied."""
    ctx = ctx_for(m, seat)
    prompt = UI.prompt(ctx)
    for _ in range(40):
        items = check_prompt(prompt)
        heads = {payload(i).split(".")[0]: i for i in items if not getattr(i, "disabled", False)}
        if "tb" in heads:  # the turn: a bet, some spells, Clone's target, review, cast
            bet = rng.choice([o.value for o in heads["tb"].options])
            prompt = click(ctx, prompt, "tb", [bet])
            steps = [h for h in ("tm5", "tm1", "tp1", "tp5", "ta") if not find(prompt, h).disabled]
            if steps and rng.random() < 0.3:
                prompt = click(ctx, prompt, rng.choice(steps))
            spells = find(prompt, "ts").options
            chosen = [o.value for o in spells if rng.random() < 0.35]
            prompt = click(ctx, prompt, "ts", chosen)
            if any(payload(i).startswith("tc.") for i in prompt.view.children):
                target = rng.choice(find(prompt, "tc").options).value
                prompt = click(ctx, prompt, "tc", [target])
            prompt = click(ctx, prompt, "tr")
            result = click(ctx, prompt, "tk")
        elif "os" in heads:  # the stock order: a few picks, then the rest in number order
            if len(prompt.embeds[0].fields) < 3 and rng.random() < 0.8:
                result = click(ctx, prompt, "os", [rng.choice(heads["os"].options).value])
            else:
                result = click(ctx, prompt, "of")
        elif "ok" in heads:
            result = click(ctx, prompt, "ok")
        elif "ls" in heads:
            picks = [o.value for o in heads["ls"].options if rng.random() < 0.5]
            prompt = click(ctx, prompt, "ls", picks)
            result = click(ctx, prompt, "lk")
        elif "rs" in heads:
            prompt = click(ctx, prompt, "rs", [rng.choice(heads["rs"].options).value])
            result = click(ctx, prompt, "rk")
        else:
            raise AssertionError(f"unexpected screen {sorted(heads)}")
        if isinstance(result, Submit):
            m.act(seat, result.action)
            return
        prompt = result
    raise AssertionError("the prompt never submitted")


def check_post(post, *, images: bool) -> str:
    for batch in pack_embeds(post.embeds):
        assert len(batch) <= 10 and sum(embed_size(e) for e in batch) <= 6000
    for e in post.embeds:
        assert len(e.fields) <= 25 and all(len(f.value) <= 1024 for f in e.fields)
        assert len(e.description or "") <= 4096 and len(e.title or "") <= 256
    refs = {e.image.url for e in post.embeds if e.image.url}
    assert refs == {f"attachment://{f.filename}" for f in post.files}
    if not images:
        assert post.files == []
    return "\n".join(str(e.to_dict()) for e in post.embeds)


# ------------------------------------------------------------------ whole games through the prompts


@pytest.mark.parametrize(
    "variant,seed", [("standard", s) for s in range(5)] + [("full_hand", 1), ("full_hand", 2), ("chosen_order", 3)]
)
def test_prompts_drive_whole_games_and_posts_fit(variant, seed):
    rng = random.Random(seed)
    m = Match.new("firewall", {"variant": variant}, seed=seed, seats=NAMES)
    seen = len(m.events)
    posts = 0
    while not m.awaiting.is_terminal:
        seat = rng.choice(sorted(m.awaiting.seats))
        play(m, seat, rng)
        images = posts % 7 == 0  # the picture now and then (slower), the emoji strip otherwise
        check_post(UI.public_post(m.state.view(None), m.events[seen:], NAMES, images=images), images=images)
        seen = len(m.events)
        posts += 1
    assert m.outcome is not None
    text = check_post(UI.public_post(m.state.view(None), m.events[-3:], NAMES, images=False), images=False)
    assert "Firewall is decided" in text


# ------------------------------------------------------------------ the turn prompt


def test_turn_prompt_shows_the_hand_with_texts_and_offers_only_legal_bets():
    st = arrange(([7, 8, 13], [5]), mana=(12, 50))
    ctx = ctx_for(st, 0)
    prompt = UI.prompt(ctx)
    check_prompt(prompt)
    hand_text = prompt.embeds[1].description
    for n in (0, 7, 8, 13):
        assert SPELLS[n].name in hand_text and SPELLS[n].text in hand_text
    bets = [int(o.value) for o in find(prompt, "tb").options]
    assert bets == list(range(1, 13))  # 1..mana, nothing else
    spells = find(prompt, "ts")
    assert spells.min_values == 0 and spells.max_values == 4
    assert [o.value for o in spells.options] == ["0", "7", "8", "13"]
    assert all(o.description and o.description in SPELLS[int(o.value)].text[:100] for o in spells.options)
    # no bet yet: nothing to cast, and the minus buttons wait for a bet
    assert find(prompt, "tr").disabled and find(prompt, "tm1").disabled
    # the opponent's hand is not in the prompt
    assert "Middle" not in " ".join(str(e.to_dict()) for e in prompt.embeds)


def test_bet_out_of_range_is_refused_with_the_reason():
    st = arrange(([7], []), mana=(12, 50))
    ctx = ctx_for(st, 0)
    prompt = UI.prompt(ctx)
    sel = payload(find(prompt, "tb"))
    with pytest.raises(ValueError, match="at most your 12 mana"):
        UI.handle(ctx, sel, ["13"])
    with pytest.raises(ValueError, match="at least 1"):
        UI.handle(ctx, sel, ["0"])
    with pytest.raises(ValueError, match="at most your 12 mana"):  # a forged or stale button
        UI.handle(ctx, "tk.40.0.x", [])
    with pytest.raises(ValueError, match="not in your hand"):
        UI.handle(ctx, "ts.5.0.x", ["8"])
    with pytest.raises(ValueError):
        UI.handle(ctx, "tk.5.zz.x", [])
    with pytest.raises(ValueError, match="out of date"):
        UI.handle(ctx, "lk.1", [])  # a Larceny button while a turn is asked


def test_bet_buttons_step_and_clamp_and_all_in():
    st = arrange(([], []), mana=(12, 50))
    ctx = ctx_for(st, 0)
    p = UI.prompt(ctx)
    p = click(ctx, p, "tp5")
    assert "Bet: **5**" in p.embeds[0].fields[0].value
    p = click(ctx, p, "tp5")
    p = click(ctx, p, "tp5")  # 15 > 12: clamped to all the mana
    assert "Bet: **12**" in p.embeds[0].fields[0].value
    assert find(p, "tp1").disabled and find(p, "ta").disabled
    p = click(ctx, p, "tm5")
    p = click(ctx, p, "tm5")
    p = click(ctx, p, "tm5")
    assert "Bet: **1**" in p.embeds[0].fields[0].value and find(p, "tm1").disabled
    p = click(ctx, p, "ta")
    assert "Bet: **12**" in p.embeds[0].fields[0].value


def test_bet_choices_with_lots_of_mana_are_25_sensible_amounts():
    for bet, mana in ((0, 50), (23, 50), (50, 50), (7, 31)):
        vals = bet_choices(bet or 1, Bound("bet", 1, mana))
        assert len(vals) == 25 and vals == sorted(set(vals))
        assert all(1 <= v <= mana for v in vals) and mana in vals and 1 in vals
        if bet:
            assert {bet - 1, bet, min(bet + 1, mana)} <= set(vals)
    st = arrange(([], []), mana=(50, 50))
    ctx = ctx_for(st, 0)
    p = click(ctx, UI.prompt(ctx), "tb", ["35"])
    opts = find(p, "tb").options
    assert [o.value for o in opts if o.default] == ["35"] and len(opts) == 25


def test_spells_toggle_then_review_shows_bet_and_spells_then_cast_submits():
    st = arrange(([7, 8, 13], []), mana=(30, 50))
    ctx = ctx_for(st, 0)
    p = click(ctx, UI.prompt(ctx), "tb", ["9"])
    p = click(ctx, p, "ts", ["8", "0", "7"])
    assert [o.value for o in find(p, "ts").options if o.default] == ["0", "7", "8"]
    p = click(ctx, p, "ts", ["0", "8"])  # toggle Attack Boost off again
    review = click(ctx, p, "tr")
    text = review.embeds[0].fields[0].value
    assert "Bet: **9**" in text and "Double Dose (8)" in text and "False Card (0)" in text
    assert "Attack Boost" not in text
    back = click(ctx, review, "tv")
    assert "Bet: **9**" in back.embeds[0].fields[0].value
    done = click(ctx, review, "tk")
    assert isinstance(done, Submit) and done.action == Turn(bet=9, spells=(0, 8))
    st.apply(0, done.action)  # the engine accepts it
    # no spell at all is fine too
    ctx1 = ctx_for(st, 1)
    p = click(ctx1, UI.prompt(ctx1), "tb", ["3"])
    p = click(ctx1, p, "ts", [])
    assert isinstance(click(ctx1, click(ctx1, p, "tr"), "tk"), Submit)


def test_clone_asks_for_its_target_and_the_engine_accepts_it():
    st = arrange(([2, 7], [8, 13]), last_played=([], [8, 13]))
    ctx = ctx_for(st, 0)
    p = click(ctx, click(ctx, UI.prompt(ctx), "tb", ["4"]), "ts", ["2", "7"])
    target = find(p, "tc")
    assert [o.value for o in target.options] == ["8", "13"]
    assert find(p, "tr").disabled and "choose below" in p.embeds[0].fields[0].value
    with pytest.raises(ValueError, match="Clone can copy"):
        UI.handle(ctx, payload(target), ["5"])
    p = click(ctx, p, "tc", ["13"])
    review = click(ctx, p, "tr")
    assert "Clone copies: Reserve Boost (13)" in review.embeds[0].fields[0].value
    done = click(ctx, review, "tk")
    assert done.action == Turn(bet=4, spells=(2, 7), clone=13)
    st.apply(0, done.action)


def test_clone_with_one_option_is_chosen_for_you_and_with_none_is_a_bluff():
    st = arrange(([2], [8]), last_played=([], [8]))
    ctx = ctx_for(st, 0)
    p = click(ctx, click(ctx, UI.prompt(ctx), "tb", ["4"]), "ts", ["2"])
    assert not find(p, "tr").disabled and "Double Dose (8)" in p.embeds[0].fields[0].value
    assert click(ctx, click(ctx, p, "tr"), "tk").action == Turn(bet=4, spells=(2,), clone=8)
    st = arrange(([2], []))
    ctx = ctx_for(st, 0)
    p = click(ctx, click(ctx, UI.prompt(ctx), "tb", ["4"]), "ts", ["2"])
    assert "nothing to copy" in p.embeds[0].fields[0].value
    assert not any(payload(i).startswith("tc.") for i in p.view.children)
    assert click(ctx, click(ctx, p, "tr"), "tk").action == Turn(bet=4, spells=(2,), clone=None)


# ------------------------------------------------------------------ follow-ups


def test_larceny_follow_up_preselects_selfish_spells_and_applies_the_choice():
    st = arrange(([3], [5, 7, 13]))
    turn(st, (5, [3]), (5, [5, 7, 13]))
    assert st.asked(0).kind == "larceny"
    ctx = ctx_for(st, 0, step=1)
    p = UI.prompt(ctx)
    check_prompt(p)
    sel = find(p, "ls")
    assert [o.label for o in sel.options if o.default] == ["Attack Boost (7)", "Reserve Boost (13)"]
    assert "Bob bet **5**" in p.embeds[0].description
    p = click(ctx, p, "ls", ["0", "2"])  # Middle and Reserve Boost
    assert "Apply: Middle (5), Reserve Boost (13)" in p.embeds[0].fields[0].value
    done = click(ctx, p, "lk")
    assert done.action == LarcenyChoice(apply=(5, 13))
    with pytest.raises(ValueError, match="stolen"):
        UI.handle(ctx, "ls.0", ["7"])
    assert click(ctx, p, "ln").action == LarcenyChoice(apply=())
    st.apply(0, done.action)


def test_larceny_of_every_spell_fits_discord_limits():
    st = arrange(([3], list(range(4, 15))), mana=(50, 50))
    turn(st, (5, [3]), (5, list(range(4, 15))))
    ctx = ctx_for(st, 0, step=1)
    p = UI.prompt(ctx)
    check_prompt(p)
    assert len(find(p, "ls").options) == 11 and "Suction" in p.embeds[0].description
    assert isinstance(click(ctx, click(ctx, p, "ls", [str(i) for i in range(11)]), "lk"), Submit)


def test_recycle_follow_up_offers_the_legal_range_and_refuses_others():
    st = arrange(([6], []), mana=(20, 50))
    turn(st, (8, [6]), (5, []))
    assert st.asked(0).kind == "recycle"
    ctx = ctx_for(st, 0, step=1)
    p = UI.prompt(ctx)
    check_prompt(p)
    assert [int(o.value) for o in find(p, "rs").options] == list(range(3, 14))
    p = click(ctx, p, "rs", ["12"])
    assert "**12** (was 8)" in p.embeds[0].fields[0].value
    with pytest.raises(ValueError, match="3 to 13"):
        UI.handle(ctx, "rk.14", [])
    assert click(ctx, p, "rn").action == RecycleChoice(bet=8)
    done = click(ctx, p, "rk")
    assert done.action == RecycleChoice(bet=12)
    st.apply(0, done.action)


def test_stock_order_screens_build_the_order_in_click_order():
    m = Match.new("firewall", {"variant": "chosen_order"}, seed=1, seats=NAMES)
    ctx = ctx_for(m, 0)
    p = UI.prompt(ctx)
    check_prompt(p)
    assert len(find(p, "os").options) == 14
    p = click(ctx, p, "os", ["13"])
    p = click(ctx, p, "os", ["7"])
    p = click(ctx, p, "os", ["2"])
    p = click(ctx, p, "ou")  # undo Clone
    assert p.embeds[0].fields[0].value == "1. 🔋 Reserve Boost (13)\n2. ⚔️ Attack Boost (7)"
    assert {o.value for o in find(p, "os").options} == {str(c) for c in range(1, 15)} - {"13", "7"}
    with pytest.raises(ValueError, match="not placed yet"):
        UI.handle(ctx, payload(find(p, "os")), ["7"])
    restart = click(ctx, p, "or")
    assert not restart.embeds[0].fields
    p = click(ctx, p, "of")
    assert not any(payload(i).startswith("os.") for i in p.view.children)
    done = click(ctx, p, "ok")
    assert done.action == Order(stock=(13, 7, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 14))
    m.act(0, done.action)
    with pytest.raises(ValueError):
        UI.handle(ctx, "ok.dd", [])


# ------------------------------------------------------------------ the channel post


def played_turn() -> tuple[Match, list]:
    m = start([7, 3, 6, 9, 12, 1, 8, 2, 4, 5, 10, 11, 13, 14], [8, 10, 11, 14, 5, 2, 13, 6, 7, 12, 1, 3, 4, 9])
    m.seats = NAMES
    m.act(0, Turn(bet=5, spells=(0, 7)))
    before = len(m.events)  # the post after Bob's submission
    m.act(1, Turn(bet=8, spells=(8,)))
    return m, m.events[before:]


def test_ready_news_is_short_and_secret_free():
    m = start()
    before = len(m.events)
    m.act(0, Turn(bet=17, spells=(0, 3)))
    post = UI.public_post(m.state.view(None), m.events[before:], NAMES, images=True)
    assert post.files == [] and len(post.embeds) == 1
    text = post.embeds[0].description
    assert text == "✅ Ann is ready." and len(text) < 60


def test_turn_post_with_picture_shows_reveal_and_effects_in_order():
    m, events = played_turn()
    post = UI.public_post(m.state.view(None), events, NAMES, images=True)
    text = check_post(post, images=True)
    main = post.embeds[0]
    lines = main.description.split("\n")
    assert lines[0] == "✅ Bob is ready."
    assert "**Ann** bets **5** · False Card (0), Attack Boost (7)" in lines[1]
    assert "**Bob** bets **8** · Double Dose (8)" in lines[2]
    order = [
        next(i for i, line in enumerate(lines) if key in line) for key in ("Attack Boost", "Double Dose", "Attacks")
    ]
    assert order == sorted(order)
    assert "The wall moves toward Ann" in text and "Paid:" in text
    assert main.title == "🔥 Firewall — Round 1, turn 1"
    (f,) = post.files
    data = f.fp.read()
    img = Image.open(io.BytesIO(data))
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and img.format == "PNG"
    assert img.size == BRIDGE_SIZE and len(data) < 100_000
    assert main.image.url == f"attachment://{f.filename}"
    assert {fl.name for fl in main.fields} >= {"🔵 Ann", "🟠 Bob", "Bridge"}


def test_turn_post_without_images_has_the_emoji_bridge_and_mana_bars():
    m, events = played_turn()
    post = UI.public_post(m.state.view(None), events, NAMES, images=False)
    check_post(post, images=False)
    fields = {f.name: f.value for f in post.embeds[-1].fields}
    strip = fields["Bridge"].split("\n")[0]
    assert strip == bridge_strip(m.state.view(None)) and strip.count("🔥") == 1
    assert "🔵" in strip and "🟠" in strip
    assert "🟦" in fields["🔵 Ann"] and "45/50" in fields["🔵 Ann"]
    assert "🟧" in fields["🟠 Bob"] and "42/50" in fields["🟠 Bob"]


def test_post_never_shows_hands_or_pending_choices():
    m = start([7, 3, 6, 9, 12], [8, 10, 11, 14, 5])
    before = len(m.events)
    m.act(0, Turn(bet=13, spells=(6, 12)))  # secret until Bob is ready
    for images in (True, False):
        post = UI.public_post(m.state.view(None), m.events, NAMES, images=images)
        text = check_post(post, images=images)
        for n in (3, 6, 7, 8, 9, 10, 11, 12, 14):  # every card in either hand
            assert SPELLS[n].name not in text
        assert (
            "13"
            not in UI.public_post(m.state.view(None), m.events[before:], NAMES, images=images).embeds[0].description
        )


def test_follow_up_and_continuation_posts():
    st = arrange(([3], [5, 7, 13]))
    ev = turn(st, (5, [3]), (5, [5, 7, 13]))
    post = UI.public_post(st.view(None), ev, NAMES, images=False)
    text = check_post(post, images=False)
    assert "Ann chooses which stolen spells" in text and "Waiting for Ann" in post.embeds[-1].footer.text
    ev = st.apply(0, LarcenyChoice(apply=(13,)))
    post = UI.public_post(st.view(None), ev, NAMES, images=True)
    assert post.embeds[0].title == "🔥 Firewall — Round 1, turn 1 (continued)"
    assert "Larceny: Ann applies Reserve Boost (13)" in check_post(post, images=True)


def test_bridge_picture_and_strip_draw_broken_flagstones_and_a_fall():
    m = start()
    view = m.state.view(None)
    view["bridge"].update(broken=[0, 1, 17, 18], wall=11, wizards=[-1, 14])
    strip = bridge_strip(view)
    assert strip.startswith("💀🟥🟥") and strip.endswith("🟥🟥") and "🟠" in strip
    img = bridge_image(view, ["A very long wizard name indeed", "Bob"])
    assert img.size == BRIDGE_SIZE
    # flagstone 0 is lava now, flagstone 5 still stone
    assert img.getpixel((3 * 32 + 16, 178)) != img.getpixel((8 * 32 + 16, 178))


# ------------------------------------------------------------------ reference and registration


def test_registered_with_rules_fields_and_spell_lookup():
    assert "firewall" in ui_slugs() and get_ui("firewall") is UI
    fields = dict(UI.rules_fields())
    assert all(len(v) <= 1024 for v in fields.values())
    assert "Suction" in fields["Spells"] and "/card" in fields["Spells"]
    assert all(v in " ".join(fields.values()) for v in ("standard", "full_hand", "chosen_order"))
    all_choices = UI.lookup_choices("")
    assert len(all_choices) == 15 and all_choices[7].label == "7 · Attack Boost"
    assert [c.key for c in UI.lookup_choices("inf")] == ["10"]
    assert [c.key for c in UI.lookup_choices("14")] == ["14"]
    for n, s in SPELLS.items():
        e = UI.lookup(str(n))
        assert e is not None and s.name in e.title and e.description == s.text
    assert UI.lookup("double dose").title.endswith("Double Dose (8)")
    assert UI.lookup("nothing") is None


# ------------------------------------------------------------------ the handler table and the custom_id grammar


def follow_up_contexts() -> dict[str, tuple[PromptContext, FirewallState]]:
    """One context (and its state) per decision kind, arranged so every component can show up (Clone
    with two targets, selfish stolen spells, a Recycle range)."""
    clone = arrange(([2, 7], [8, 13]), last_played=([], [8, 13]))
    larceny = arrange(([3], [5, 7, 13]))
    turn(larceny, (5, [3]), (5, [5, 7, 13]))
    recycle = arrange(([6], []), mana=(20, 50))
    turn(recycle, (8, [6]), (5, []))
    order = Match.new("firewall", {"variant": "chosen_order"}, seed=1, seats=NAMES)
    return {
        "turn": (ctx_for(clone, 0), clone),
        "order": (ctx_for(order, 0), order.state),
        "larceny": (ctx_for(larceny, 0, step=1), larceny),
        "recycle": (ctx_for(recycle, 0, step=1), recycle),
    }


def random_values(item: discord.ui.Item, rng: random.Random) -> list[str]:
    if not isinstance(item, discord.ui.Select):
        return []
    k = rng.randint(item.min_values, min(item.max_values, len(item.options)))
    return [o.value for o in rng.sample(item.options, k)]


def test_every_handler_is_reachable_from_a_prompt_and_every_click_on_a_prompt_is_understood():
    from cogs.games.firewall.prompts import HANDLERS

    rng = random.Random(7)
    shown: set[str] = set()
    submitted: set[str] = set()
    for kind, (ctx, st) in follow_up_contexts().items():
        assert ctx.decision is not None and ctx.decision.kind == kind
        for _ in range(60):  # random walks through the screens, clicking only enabled components
            prompt = UI.prompt(ctx)
            for _ in range(10):
                enabled = [i for i in check_prompt(prompt) if not getattr(i, "disabled", False)]
                shown |= {payload(i).split(".")[0] for i in enabled}
                item = rng.choice(enabled)
                result = UI.handle(ctx, payload(item), random_values(item, rng))  # never refused
                if isinstance(result, Submit):
                    assert st.is_legal(0, result.action), result.action  # what a prompt submits is legal
                    submitted.add(payload(item).split(".")[0])
                    break
                prompt = result
    assert shown == set(HANDLERS)
    assert submitted == {"tk", "ok", "lk", "ln", "rk", "rn"}


def test_the_custom_id_grammar_documents_every_handler_head():
    from cogs.games.firewall import prompts

    assert prompts.__doc__ is not None
    for head in prompts.HANDLERS:
        assert f"``{head}``" in prompts.__doc__, head
        assert head[0] in prompts.GROUPS.values(), head
    assert set(prompts.GROUPS) == set(prompts.FIRST_SCREENS) == {"turn", "order", "larceny", "recycle"}


@pytest.mark.parametrize(
    "kind,forged,reason",
    [
        ("turn", "", "out of date"),
        ("turn", "lk.1", "out of date"),  # another decision's button
        ("turn", "zz.1.0.x", "out of date"),
        ("turn", "tz.1.0.x", "does not belong to this prompt"),  # a head no prompt ever carried
        ("turn", "tb", "does not belong to this prompt"),  # the screen's state is missing
        ("turn", "tk.1.zz.x", "choice of spells is not valid"),
        ("turn", "tk.q.0.x", "bet is not valid"),
        ("turn", "tk.1.0.q", "Clone target is not valid"),
        ("turn", "tk.1.2000.x", "is not in your hand"),
        ("order", "os.zz", "order is not valid"),
        ("order", "ok.11", "order is not valid"),  # a spell placed twice
        ("order", "ok.12", "Place all 14 spells first"),
        ("order", "oz.1", "does not belong to this prompt"),
        ("larceny", "lk.zz", "choice is not valid"),
        ("larceny", "lk.8", "Choose among the stolen spells"),
        ("larceny", "lz.1", "does not belong to this prompt"),
        ("larceny", "rk.5", "out of date"),
        ("recycle", "rk.q", "bet is not valid"),
        ("recycle", "rk.40", "Recycle can change your bet of 8 to 3 to 13 only, not 40"),
        ("recycle", "rz.5", "does not belong to this prompt"),
        ("recycle", "tk.5.0.x", "out of date"),
    ],
)
def test_forged_or_stale_payloads_are_refused_with_a_readable_reason(kind, forged, reason):
    ctx, _ = follow_up_contexts()[kind]
    with pytest.raises(ValueError, match=reason):
        UI.handle(ctx, forged, [])


def test_nothing_is_asked_once_the_match_is_over():
    m = Match.new("firewall", {}, seed=3, seats=NAMES)
    m.act(0, {"type": "forfeit", "reason": "resign"})
    ctx = ctx_for(m, 1)
    assert ctx.decision is None
    assert UI.prompt(ctx).content == "Nothing to decide right now: watch the channel!"
    with pytest.raises(ValueError, match="out of date"):
        UI.handle(ctx, "tk.5.0.x", [])


def test_middle_when_the_wall_has_not_moved_is_told_as_no_effect():
    # ux-review-2: "✨ ann's Middle sends the wall back from flagstone 9 to 9, where the round began."
    from cogs.games.firewall.posts import Story
    from rules import Event

    data = {"card": 5, "name": "Middle", "caster": 0, "owner": 0, "source": "hand", "stolen": False}
    story = Story(["ann", "bob"])
    text = "{p1}'s Middle sends the wall back from flagstone {a} to {b}, where the round began."
    story.tell(
        Event("spell", text.format(p1="{p1}", a=9, b=9), {**data, "result": "applied", "wall_from": 9, "wall_to": 9})
    )
    story.tell(
        Event("spell", text.format(p1="{p1}", a=12, b=9), {**data, "result": "applied", "wall_from": 12, "wall_to": 9})
    )
    assert story.lines == [
        "💨 ann's Middle has no effect: the wall is already on flagstone 9, where the round began.",
        "✨ ann's Middle sends the wall back from flagstone 12 to 9, where the round began.",
    ]


def test_a_turn_is_told_with_the_prompt_s_verb_cast():
    # ux-review-2: the hint said "You bet 6 and lay down ..." where the prompt's button says Cast
    from bot.matches.computer import Hint
    from cogs.hints import hint_text
    from cogs.notifier import played_record
    from rules import Event

    said = "You bet 6 and lay down False Card (0), Recycle (6)."
    hint = Hint(1, "firewall", 0, 3, said, 0.74, {"type": "turn"})
    assert "You bet 6 and cast False Card (0), Recycle (6)." in hint_text(hint)
    mine = Event("submitted_private", said, {"seat": 0}, frozenset({0}))
    record = played_record([mine], 0, ["ann", "bob"], 1_800_000_000, UI.in_prompt_words)
    assert "You bet 6 and cast False Card (0)" in record and "lay down" not in record
