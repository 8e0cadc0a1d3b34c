"""Magic Duel's Discord UI without Discord: every prompt screen leads to an action the engine
accepts, invalid spells are refused with the reason, custom_ids fit Discord's limits (card ids with
'#' never reach them), channel posts stay within embed limits and never show a secret, pictures on
and off."""

from __future__ import annotations

import dataclasses
import random
import re
from types import SimpleNamespace

import discord
import pytest

from cogs.games import get_ui
from cogs.games.base import CUSTOM_ID_RE, PromptContext, Submit, embed_size, pack_embeds
from cogs.games.magic_duel.ui import UI, MagicDuelUI
from cogs.games.pictures import CONTENT_NAMED
from rules import Bound, Forfeit, Match
from rules.magic_duel import label

NAMES3 = ["Ann", "Bob", "Cy"]


def ctx_for(
    m: Match, seat: int, names=NAMES3, match_id: int = 123456789012345678, *, images: bool = True
) -> PromptContext:
    """The context the bot gives a seat's prompt: its view and its decision."""
    steps = sum(1 for e in m.log if e.seat == seat)
    st = m.state
    return PromptContext(match_id, seat, steps, names, st.view(seat), st.legal_actions(seat), images, st.asked(seat))


def check_prompt(prompt) -> list[discord.ui.Item]:
    assert prompt.view is not None
    items = list(prompt.view.children)
    rows = prompt.view.to_components()
    assert len(rows) <= 5
    for it in items:
        assert CUSTOM_ID_RE.fullmatch(it.custom_id) and len(it.custom_id) <= 100
        if isinstance(it, discord.ui.Select):
            assert 1 <= len(it.options) <= 25
            assert len({o.value for o in it.options}) == len(it.options)
            assert all(len(o.label) <= 100 for o in it.options)
            assert sum(o.default for o in it.options) <= it.max_values
        else:
            assert len(it.label or "") <= 80
    for e in prompt.embeds:
        assert embed_size(e) <= 6000 and len(e.fields) <= 25 and all(len(f.value) <= 1024 for f in e.fields)
    return items


def payload(item: discord.ui.Item) -> str:
    return CUSTOM_ID_RE.fullmatch(item.custom_id)["payload"]


def find(items, prefix: str):
    return next(i for i in items if payload(i).startswith(prefix))


def drive(ui: MagicDuelUI, m: Match, seat: int, rng: random.Random, names=NAMES3, images: bool = True) -> list:
    """Click through the seat's prompt like a player: pick a combination (from the card select or
    the quick pick), sometimes a Risk card, then Cast; or a draw button."""
    ctx = ctx_for(m, seat, names, images=images)
    prompt = ui.prompt(ctx)
    items = check_prompt(prompt)
    assert ctx.decision is not None and ctx.decision.kind == ctx.seen["you"]["asked"]
    if ctx.decision.kind == "draw":
        buttons = [i for i in items if payload(i).startswith("d.")]
        result = ui.handle(ctx, payload(rng.choice(buttons)), [])
        assert isinstance(result, Submit)
        return m.act(seat, result.action)
    assert ctx.decision.kind == "trick"
    quick = find(items, "q.")
    choice = rng.choice(quick.options).value
    if rng.random() < 0.5:
        prompt = ui.handle(ctx, payload(quick), [choice])
    else:  # the same cards through the hand's multi-select
        prompt = ui.handle(ctx, payload(find(items, "c.")), list(choice))
    items = check_prompt(prompt)
    risk = [i for i in items if payload(i).startswith("r.")]
    if risk and rng.random() < 0.4:
        options = [o.value for o in risk[0].options if o.value != "-"]
        if options:
            prompt = ui.handle(ctx, payload(risk[0]), [rng.choice(options)])
            items = check_prompt(prompt)
    cast = find(items, "p.")
    assert not cast.disabled
    result = ui.handle(ctx, payload(cast), [])
    assert isinstance(result, Submit)
    return m.act(seat, result.action)


def post_text(post) -> str:
    return " ".join(str(e.to_dict()) for e in post.embeds)


def check_post(post, images: bool) -> None:
    for batch in pack_embeds(post.embeds):
        assert len(batch) <= 10 and sum(embed_size(e) for e in batch) <= 6000
    for e in post.embeds:
        assert len(e.fields) <= 25 and all(len(f.value) <= 1024 for f in e.fields)
        assert len(e.description or "") <= 4096 and len(e.title or "") <= 256
    refs = {e.image.url for e in post.embeds if e.image.url}
    assert {f"attachment://{f.filename}" for f in post.files} == refs
    if not images:
        assert post.files == [] and refs == set()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("seed", "names", "images"),
    [(s, NAMES3, s % 2 == 0) for s in range(6)]
    + [(7, ["A", "B"], True), (42, [f"P{i}" for i in range(8)], False), (43, [f"P{i}" for i in range(6)], True)],
)
def test_prompts_drive_whole_games_and_posts_fit_and_keep_secrets(seed, names, images):
    rng = random.Random(seed)
    ui = UI
    m = Match.new("magic-duel", seed=seed, seats=names, options={"points_to_win": 2 if seed == 1 else 1})
    face_up_seen = 0
    for _ in range(3000):
        if m.awaiting.is_terminal:
            break
        seat = min(m.awaiting.seats)
        events = drive(ui, m, seat, rng, names, images)
        view = m.state.view(None)
        post = ui.public_post(view, events, names, images=images)
        check_post(post, images)
        text = post_text(post)
        # a face-down spell stays secret until the reveal; a Risk card and drawn cards never show
        kinds = {e.kind for e in events}
        for ev in events:
            if ev.kind == "play_private" and "reveal" not in kinds:
                assert not any(f"`{label(c)}`" in text for c in ev.data["cards"])
            if ev.kind == "risk_private":
                assert f"`{label(ev.data['card'])}`" not in text
            if ev.kind == "draw_private":
                assert not any(f"`{label(c)}`" in text for c in ev.data["from_risk"] + ev.data["from_advantage"])
        face_up_seen += sum(e.kind == "play_face_up" for e in events)
        if "reveal" in kinds:
            assert "Why:" in text and "Trick" in text
            assert any(f.filename.startswith("trick-") for f in post.files) == images
        if "hand_scored" in kinds:
            assert "is scored" in text
    assert m.outcome is not None
    assert face_up_seen > 0


def test_the_spell_screen_builds_the_choice_and_refuses_an_invalid_one():
    m = Match.new("magic-duel", seed=3, seats=NAMES3, options={"points_to_win": 1})
    ctx = ctx_for(m, 0)
    hand = ctx.seen["you"]["hand"]
    assert hand == ["3D", "3H", "5C", "8H", "9H", "10C", "KD"]
    first = UI.prompt(ctx)
    items = check_prompt(first)
    assert find(items, "p.").disabled  # nothing chosen yet
    assert "Your hand (7)" in first.embeds[0].fields[0].name and "`3♦`" in first.embeds[0].fields[0].value

    # 3♦ 5♣ is no combination (rule text: "Codu, aka "the Double": 2 cards of the same value"):
    # Cast is disabled and the screen says why; a Cast click from an older screen is refused so
    bad = UI.handle(ctx, "c.", ["0", "2"])
    why = "a Codu (the Double) needs two cards of the same value, not a mix of 3 and 5"
    assert f"`3♦` `5♣` is not a combination: {why}." in bad.embeds[0].description
    assert "**Cast** stays disabled" in bad.embeds[0].description
    assert find(check_prompt(bad), "p.").disabled
    with pytest.raises(ValueError, match=re.escape(f"3♦ 5♣ is not a combination: {why}.")):
        UI.handle(ctx, payload(find(check_prompt(bad), "p.")), [])
    # three cards with a pair among them: the reason, and the pair offered instead
    mixed = UI.handle(ctx, "c.", ["0", "1", "2"])
    assert "a Thrack (breaking attack) needs three cards of the same value, not a mix of 3 and 5" in (
        mixed.embeds[0].description
    )
    assert "Keep 3♥ 3♦ for a Codu." in mixed.embeds[0].description and find(check_prompt(mixed), "p.").disabled

    # the pair of threes, then 10♣ for the Deck of Risk: a face-up Codu
    pair = UI.handle(ctx, "c.", ["0", "1"])
    assert "**Codu**" in pair.embeds[0].description and "face-down" in pair.embeds[0].description
    items = check_prompt(pair)
    risk_select = find(items, "r.")
    assert payload(risk_select) == "r.01"
    assert [o.value for o in risk_select.options] == ["-", "2", "3", "4", "5", "6"]  # not the spell's cards
    risky = UI.handle(ctx, payload(risk_select), ["5"])
    cast = find(check_prompt(risky), "p.")
    assert cast.label == "Risk 10♣ and cast face-up" and payload(cast) == "p.01.5"
    done = UI.handle(ctx, payload(cast), [])
    assert isinstance(done, Submit) and done.action.cards == ("3D", "3H") and done.action.risk == "10C"

    # choosing the Risk card into the spell clears it, with a note
    note = UI.handle(ctx, "c.5", ["5"])
    assert "no longer your Risk card" in note.embeds[0].description
    assert payload(find(check_prompt(note), "p.")) == "p.5."
    # the quick pick lists the combinations, strongest first
    quick = find(items, "q.")
    assert quick.options[0].label == "Codu: 3♥ 3♦" and quick.options[0].value == "01"
    with pytest.raises(ValueError):
        UI.handle(ctx, "p.09.", [])  # index 9 is not in the hand
    with pytest.raises(ValueError):
        UI.handle(ctx, "p.01.1", [])  # the Risk card inside the spell
    with pytest.raises(ValueError, match="not your turn to draw"):
        UI.handle(ctx, "d.0", [])
    m.act(0, done.action)
    assert m.state.view(None)["trick"]["plays"][0]["cards"] == ["3H", "3D"]


def test_two_decks_card_ids_never_reach_a_custom_id():
    names = [f"P{i}" for i in range(6)]
    m = Match.new("magic-duel", seed=11, seats=names)
    assert m.state.view(None)["decks_used"] == 2
    hashes = 0
    for seat in range(6):
        view = m.state.view(seat)
        hashes += sum("#" in c for c in view["you"]["hand"])
    assert hashes > 0
    rng = random.Random(1)
    for _ in range(30):  # a few tricks with everyone
        drive(UI, m, min(m.awaiting.seats), rng, names)


def test_draw_screen_offers_each_split():
    m = Match.new("magic-duel", seed=3, seats=NAMES3, options={"points_to_win": 1})
    rng = random.Random(2)
    while m.state.view(None)["phase"] != "draw":
        drive(UI, m, min(m.awaiting.seats), rng)
    seat = min(m.awaiting.seats)
    ctx = ctx_for(m, seat)
    v = ctx.seen
    need, risk = v["draw"]["need"], v["decks"]["risk"]
    # the limits come from the decision, not from the UI: "risk" from the Deck of Risk, the rest from Advantage
    assert ctx.decision is not None and ctx.decision.kind == "draw" and not ctx.decision.secret
    assert ctx.decision.bounds == (Bound("risk", 0, min(need, risk)), Bound("advantage", need - min(need, risk), need))
    prompt = UI.prompt(ctx)
    items = check_prompt(prompt)
    assert [i.label for i in items] == [f"{k} Risk + {need - k} Advantage" for k in range(min(need, risk) + 1)]
    assert "Refill your hand to 7" in prompt.embeds[0].description
    result = UI.handle(ctx, payload(items[-1]), [])
    assert isinstance(result, Submit) and result.action.risk == min(need, risk)
    with pytest.raises(ValueError):
        UI.handle(ctx, f"d.{min(need, risk) + 1}", [])
    with pytest.raises(ValueError, match="not your turn to cast"):
        UI.handle(ctx, "p.0.", [])
    events = m.act(seat, result.action)
    text = post_text(UI.public_post(m.state.view(None), events, NAMES3, images=False))
    assert f"from Risk + {need - min(need, risk)} from Advantage" in text  # counts only


def test_prompt_pictures_on_and_off():
    m = Match.new("magic-duel", seed=3, seats=NAMES3)
    ctx = ctx_for(m, 0)
    on = UI.handle(ctx, "c.", ["0", "1"])
    (picture,) = on.files
    assert CONTENT_NAMED.fullmatch(picture.filename) and picture.filename.startswith("md-hand-")
    assert on.embeds[0].image.url == f"attachment://{picture.filename}"
    assert picture.fp.read(8) == b"\x89PNG\r\n\x1a\n"
    assert on.edit_kwargs()["attachments"] == on.files
    off = UI.handle(dataclasses.replace(ctx, images=False), "c.", ["0", "1"])
    assert off.files == [] and off.embeds[0].image.url is None
    assert "**1**·`3♦`" in off.embeds[0].fields[0].value  # the hand as text
    # a seat that is not asked sees its hand and nothing to click
    idle = UI.prompt(ctx_for(m, 1))
    assert idle.view is None and "Nothing to decide" in idle.embeds[0].description


def attachment(filename: str) -> SimpleNamespace:
    """What ``Prompt.edit_kwargs`` reads of an attachment of the message already posted."""
    return SimpleNamespace(id=1, filename=filename)


def test_the_hand_picture_is_the_same_on_every_screen_of_a_decision():
    """One upload per decision: choosing cards, a Risk card or clearing edits the screen, and the
    edit keeps the picture the message shows (named by its content, the hand only)."""
    m = Match.new("magic-duel", seed=3, seats=NAMES3, options={"points_to_win": 1})
    ctx = ctx_for(m, 0)
    first = UI.prompt(ctx)
    (shown,) = first.files
    screens = [
        UI.handle(ctx, "c.", ["0", "1"]),  # a Codu
        UI.handle(ctx, "r.01", ["5"]),  # with a Risk card
        UI.handle(ctx, "c.", ["0", "2"]),  # no combination
        UI.handle(ctx, "q.", ["01"]),  # the quick pick
        UI.handle(ctx, "s..", []),  # Clear
    ]
    for screen in screens:
        assert [f.filename for f in screen.files] == [shown.filename]
        assert screen.embeds[0].image.url == f"attachment://{shown.filename}"
        posted = attachment(shown.filename)
        assert screen.edit_kwargs([posted])["attachments"] == [posted]  # kept, not uploaded again
    # the next decision (a smaller hand) has another picture, uploaded once
    m.act(0, {"type": "play", "cards": ["3D", "3H"], "risk": "10C"})
    idle = UI.prompt(ctx_for(m, 0))
    (after,) = idle.files
    assert after.filename != shown.filename and CONTENT_NAMED.fullmatch(after.filename)
    assert isinstance(idle.edit_kwargs([attachment(shown.filename)])["attachments"][0], discord.File)


def test_why_not_a_combination_agrees_with_the_rules():
    """The reason is shown exactly when the rules' ``classify`` finds no combination, for every
    set of up to 4 cards of several hands (two decks too), and names what is wrong."""
    from itertools import combinations

    from rules.magic_duel import classify, not_a_combination

    hands = [
        ["3D", "3H", "3S", "3C", "5C", "JK1", "JK2"],
        ["KD", "KH", "AS", "AS#2", "JK1", "JK1#2", "10C"],
    ]
    for hand in hands:
        for n in range(1, 5):
            for cards in combinations(hand, n):
                assert (not_a_combination(cards) is None) == (classify(cards) is not None), cards
    assert not_a_combination(["JK1", "3D"]) == (
        "a Joker is cast alone (Badef) or with the other Joker (Jokulme), never with other cards"
    )
    assert not_a_combination(["JK1", "JK2", "JK1#2"]) == "a Jokulme is two Jokers, not three"
    assert not_a_combination(["3D", "3H", "3S", "3C", "3D#2"]) == (
        "a spell has at most four cards (a Raquav: four of the same value)"
    )
    assert not_a_combination(["KD", "KH", "KS", "QS"]) == (
        "a Raquav (finishing move) needs four cards of the same value, not a mix of K and Q"
    )


def test_public_posts_line_per_play_then_one_trick_embed():
    m = Match.new("magic-duel", seed=3, seats=NAMES3, options={"points_to_win": 1})
    start = UI.public_post(m.state.view(None), m.events, NAMES3, images=True)
    assert start.embeds[0].title == "🃏 Hand 1 is dealt" and "Ann** leads" in start.embeds[0].description
    assert start.embeds[-1].footer.text == "⏳ Next: Ann casts (trick 1)."
    secret = m.state.view(1)["you"]["hand"]
    assert not any(f"`{label(c)}`" in post_text(start) for c in secret)

    ev = m.act(0, {"type": "play", "cards": ["3H", "3D"], "risk": "10C"})
    post = UI.public_post(m.state.view(None), ev, NAMES3, images=True)
    assert len(post.embeds) == 1 and post.files == []
    assert post.embeds[0].description == "🔵 **Ann** risks a card and casts face-up: ⚡ **Codu** `3♥` `3♦`"
    assert "10♣" not in post_text(post)

    ev = m.act(1, {"type": "play", "cards": [m.state.view(1)["you"]["hand"][0]]})
    post = UI.public_post(m.state.view(None), ev, NAMES3, images=False)
    assert post.embeds[0].description == "🟠 **Bob** casts face-down: 🂠 (1 card)"
    assert post.embeds[0].footer.text == "⏳ Next: Cy casts (trick 1)."

    ev = m.act(2, {"type": "play", "cards": [m.state.view(2)["you"]["hand"][0]]})
    for images in (True, False):
        post = UI.public_post(m.state.view(None), ev, NAMES3, images=images)
        check_post(post, images)
        trick = next(e for e in post.embeds if (e.title or "").startswith("Trick 1"))
        assert "Ann wins the trick" in trick.title and "🏆 🔵 **Ann**" in trick.description
        assert "**Why:** Ann's Codu (3♥ 3♦) wins: a Codu beats any Cantrip" in trick.description
        assert [f.name for f in trick.fields] == ["Standing"] and "Ann: 1 trick" in trick.fields[0].value
        assert (trick.image.url is not None) == images
    assert post.embeds[0].description.startswith("🟢 **Cy** casts face-down")  # the play, before the reveal


def test_tie_scoring_forfeit_and_end_posts():
    m = Match.new("magic-duel", seed=1, seats=NAMES3, options={"points_to_win": 1})
    ev = m.act(0, Forfeit(reason="left"))
    post = UI.public_post(m.state.view(None), ev, NAMES3, images=False)
    text = post_text(post)
    assert "🏳️ Ann left the game and is out of the game" in text and "The others play on." in text
    assert "Ann~~ left" not in text  # no standing on a plain forfeit line
    rng = random.Random(5)
    ends = []
    while not m.awaiting.is_terminal:
        events = drive(UI, m, min(m.awaiting.seats), rng)
        post = UI.public_post(m.state.view(None), events, NAMES3, images=True)
        check_post(post, True)
        ends.append(post_text(post))
    final = ends[-1]
    assert "is scored" in final and "The tournament is over" in final and "Ann" in final and "(left)" in final
    assert m.outcome.ranks[0] == 3  # the one who left ranks last


def test_a_badef_tie_is_explained():
    m = Match.new("magic-duel", seats=["Ann", "Bob"], seed=0)
    m2 = Match(m.game, 0, ["Ann", "Bob"])
    m2.apply(
        "chance",
        {
            "type": "deal",
            "hands": [["JK1", "2C", "3C", "4C", "5C", "6C", "7C"], ["9D", "9H", "2D", "3D", "4D", "5D", "6D"]],
            "risk": ["8C", "8D"],
            "advantage": [c for c in m.game.card_ids if c not in _dealt()] + ["CURSE"],
        },
    )
    m2.act(0, {"type": "play", "cards": ["JK1"]})
    ev = m2.act(1, {"type": "play", "cards": ["9D", "9H"]})
    post = UI.public_post(m2.state.view(None), ev, ["Ann", "Bob"], images=True)
    check_post(post, True)
    assert post.embeds[0].description == "🟠 **Bob** casts face-down: 🂠🂠 (2 cards)"
    trick = post.embeds[1]
    assert "Tied" in trick.title and "Badef against a Codu ties the trick" in trick.description
    assert "🔁 Trick 1 is cast again, 🔵 **Ann** first." in post_text(post)


def dealt_match(hands: list[list[str]], risk: list[str]) -> Match:
    """A 2-player match (Ann, Bob) with this deal; the rest of the deck is the Deck of Advantage."""
    game = Match.new("magic-duel", seats=["Ann", "Bob"], seed=0).game
    m = Match(game, 0, ["Ann", "Bob"])
    used = {c for h in hands for c in h} | set(risk)
    advantage = [c for c in game.card_ids if c not in used] + ["CURSE"]
    m.apply("chance", {"type": "deal", "hands": hands, "risk": risk, "advantage": advantage})
    return m


#: The rule text on a tie (Badef; docs/rulings/magic-duel.md#tied-trick), verbatim.
SEED_TIE = (
    "Competing against any other combination among the above, the round is considered as tied and the players "
    "must replay immidiately, without gathering in the tricks or drawing any cards."
)


def test_the_recast_prompt_says_why_the_trick_is_cast_again():
    """After a tie each wizard's spell screen says the trick is cast again, which spells tied, the
    referee's reason and the rule text; the one who risked a card is told it stays on the deck."""
    m = dealt_match(
        [["JK1", "2C", "3C", "4C", "5C", "6C", "7C"], ["9D", "9H", "2D", "3D", "4D", "5D", "6D"]], ["8C", "8D"]
    )
    first = UI.prompt(ctx_for(m, 0, ["Ann", "Bob"]))
    assert first.embeds[0].title == "Magic Duel — cast your spell" and "cast again" not in str(
        first.embeds[0].to_dict()
    )
    m.act(0, {"type": "play", "cards": ["JK1"]})
    m.act(1, {"type": "play", "cards": ["9D", "9H"], "risk": "2D"})
    for seat in (0, 1):
        if seat == 1:
            m.act(0, {"type": "play", "cards": ["2C"]})  # Ann casts again first; then Bob is asked
        ctx = ctx_for(m, seat, ["Ann", "Bob"])
        screen = UI.prompt(ctx)
        check_prompt(screen)
        e = screen.embeds[0]
        assert e.title == "Magic Duel — cast your spell again"
        assert e.description.startswith("🔁 The trick was tied: cast your spell **again**")
        (why,) = [f for f in e.fields if f.name == "🔁 Trick 1 is cast again"]
        assert "🔵 **Ann**: 🛡️ **Badef** `Joker`" in why.value and "🟠 **Bob**: ⚡ **Codu** `9♥` `9♦`" in why.value
        assert "**Why:** Ann's Badef (Joker) against Bob's Codu (9♥ 9♦): Badef against a Codu ties the trick" in (
            why.value
        )
        assert (
            f"> **Badef**, the rule text: *Competing against any cantrip this combination always wins. {SEED_TIE}*"
            in (why.value)
        )
        assert "Your spell is back in your hand" in why.value
        assert ("stays there" in why.value) == (seat == 1)  # Bob risked 2♦ for his face-up Codu
        # the note stays on every screen of the decision
        again = UI.handle(ctx, payload(find(check_prompt(screen), "q.")), ["0"])
        assert any(f.name == "🔁 Trick 1 is cast again" for f in again.embeds[0].fields)
    m.act(1, {"type": "play", "cards": ["9D", "9H"]})  # the Codu wins the recast trick
    after = UI.prompt(ctx_for(m, min(m.awaiting.seats), ["Ann", "Bob"]))
    assert "cast again" not in str(after.embeds[0].to_dict())


def test_a_badef_against_badef_recast_names_the_ruling():
    m = dealt_match(
        [["JK1", "2C", "3C", "4C", "5C", "6C", "7C"], ["JK2", "9H", "2D", "3D", "4D", "5D", "6D"]], ["8C", "8D"]
    )
    m.act(0, {"type": "play", "cards": ["JK1"]})
    m.act(1, {"type": "play", "cards": ["JK2"]})
    e = UI.prompt(ctx_for(m, 0, ["Ann", "Bob"])).embeds[0]
    (why,) = [f for f in e.fields if f.name.startswith("🔁 Trick 1 is cast again")]
    assert "Badef against Badef ties the trick" in why.value and "Badef against Badef is also a tie (ruling 19)" in (
        why.value
    )
    m.act(0, {"type": "play", "cards": ["JK1"]})
    m.act(1, {"type": "play", "cards": ["JK2"]})  # tied a second time
    e = UI.prompt(ctx_for(m, 0, ["Ann", "Bob"])).embeds[0]
    assert any(f.name == "🔁 Trick 1 is cast again (tied 2 times)" for f in e.fields)


def _dealt():
    return {"JK1", "2C", "3C", "4C", "5C", "6C", "7C", "9D", "9H", "2D", "3D", "4D", "5D", "6D", "8C", "8D"}


def test_rules_fields_and_lookups():
    assert get_ui("magic-duel") is UI
    fields = dict(UI.rules_fields())
    assert "Jokulme" in fields["Combinations (strongest first)"] and "♦ < ♥ < ♠ < ♣" in fields["Same kind"]
    assert "points_to_win" in fields["Options explained"] and "decks" in fields["Options explained"]
    assert all(len(v) <= 1024 for v in fields.values())
    keys = [e.key for e in UI.lookup_choices("")]
    assert keys[:6] == ["cantrip", "codu", "thrack", "raquav", "badef", "jokulme"]
    assert [e.key for e in UI.lookup_choices("jok")] == ["jokulme"]
    badef = UI.lookup("badef")
    assert "One Joker" in badef.description and "tied" in badef.fields[0].value
    assert UI.lookup("Raquav").title.endswith("Raquav (finishing move)")
    assert UI.lookup("cursed-spell").title == "The Cursed Spell"
    assert UI.lookup("nothing") is None


def test_every_payload_head_is_offered_by_a_screen_of_its_decision():
    """The handler table and the screens agree: each head routes to the decision whose screen
    offers it, and every head of the table is offered by some screen during a game."""
    from cogs.games.magic_duel.prompts import HANDLERS

    m = Match.new("magic-duel", seed=4, seats=NAMES3, options={"points_to_win": 1})
    rng = random.Random(4)
    offered: set[str] = set()
    while not m.awaiting.is_terminal:
        seat = min(m.awaiting.seats)
        ctx = ctx_for(m, seat, images=False)
        screens = [UI.prompt(ctx)]
        if ctx.decision.kind == "trick":  # the screen after a spell is chosen (Clear and Cast enabled)
            screens.append(UI.handle(ctx, payload(find(check_prompt(screens[0]), "q.")), ["0"]))
        for screen in screens:
            for item in check_prompt(screen):
                head = payload(item).partition(".")[0]
                assert HANDLERS[head].asks == ctx.decision.kind, payload(item)
                offered.add(head)
        drive(UI, m, seat, rng, images=False)
    assert offered == set(HANDLERS)


def test_clicks_that_do_not_fit_the_prompt_are_refused_with_a_reason():
    from cogs.games.magic_duel import prompts

    m = Match.new("magic-duel", seed=3, seats=NAMES3, options={"points_to_win": 1})
    asked = ctx_for(m, 0)
    for foreign in ("zz.1", "", "x", "D.0"):
        with pytest.raises(ValueError, match="does not belong to this prompt"):
            UI.handle(asked, foreign, [])
    with pytest.raises(ValueError, match="does not match your hand any more"):
        UI.handle(asked, "c.z", ["0"])  # an index past the hand (an older, bigger hand)
    with pytest.raises(ValueError, match="does not match your hand any more"):
        UI.handle(asked, "p.00.", [])  # the same card twice
    with pytest.raises(ValueError, match="Choose at least one card"):
        UI.handle(asked, "c.", [])
    with pytest.raises(ValueError, match="at most one Risk card"):
        UI.handle(asked, "p.0.12", [])
    # a seat asked nothing: every head of the table is refused as not its turn
    idle = ctx_for(m, 1)
    assert idle.decision is None
    for head, route in prompts.HANDLERS.items():
        with pytest.raises(ValueError, match=prompts.NOT_YOUR_TURN[route.asks]):
            UI.handle(idle, f"{head}.0", ["0"])


def test_the_custom_id_grammar_is_documented_for_every_payload_head():
    from cogs.games.magic_duel import prompts

    doc = prompts.__doc__ or ""
    assert "custom_id grammar" in doc
    for head in prompts.HANDLERS:
        assert f"``{head}." in doc, head


@pytest.mark.parametrize(("points", "said"), [(1, "1 point to win"), (3, "3 points to win")])
def test_the_prompt_footer_counts_points_in_words(points, said):
    # ux-review-2: footer "3 point(s) to win"
    m = Match.new("magic-duel", seed=3, seats=NAMES3, options={"points_to_win": points})
    footer = UI.prompt(ctx_for(m, 0)).embeds[0].footer.text or ""
    assert footer.endswith(f"· {said}") and "(s)" not in footer
