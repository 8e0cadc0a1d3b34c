"""A Firewall match through the fake Discord (tests/cogs/test_discord_firewall.py, the match card and the
threads tests): challenge and accept, find components by their payload's head, and answer a prompt
as a :class:`Plan` says."""

from __future__ import annotations

from cogs.games.base import CUSTOM_ID_RE


async def challenge_and_accept(h, bot, ch, ann, bob, options: str | None = None) -> int:
    args = {"opponent": bob, "game": "firewall"}
    if options:
        args["options"] = options
    r = await h.slash(ann, ch, "challenge", args)
    msg = r.message
    assert "Firewall" in msg.text() and msg.component(label="Accept")
    if options:
        assert options.split("=")[1] in msg.text()  # the lobby shows the chosen variant
    await h.click(bob, msg, label="Accept")
    await h.settle()
    (record,) = await bot.service.live_matches_for(ann.id, include_pending=False)
    assert record.game == "firewall"
    return record.id


def head_of(custom_id: str) -> str:
    m = CUSTOM_ID_RE.fullmatch(custom_id)
    return m["payload"].split(".")[0] if m else ""


def by_head(msg, head: str) -> dict | None:
    return next((c for c in msg.walk_components() if head_of(c.get("custom_id", "")) == head), None)


class Plan:
    """How a seat plays: its bet (a number, or "all") and the spells it casts when it holds them."""

    def __init__(self, bet: int | str = 1, spells: tuple[int, ...] = (), recycle: int | None = None):
        self.bet, self.spells, self.recycle = bet, spells, recycle


async def set_bet(h, user, msg, target: int) -> None:
    """The nearest offered amount from the select, then the +1/+5 buttons for the rest."""
    sel = by_head(msg, "tb")
    offered = [int(o["value"]) for o in sel["options"]]
    start = max(v for v in offered if v <= target)
    await h.select(user, msg, sel["custom_id"], [str(start)])
    for _ in range(target - start):
        if f"Bet: **{target}**" in msg.text():
            break
        head = "tp5" if target - int(by_head(msg, "tr")["custom_id"].split(".")[1]) >= 5 else "tp1"
        await h.click(user, msg, by_head(msg, head)["custom_id"])
    assert f"Bet: **{target}**" in msg.text()


async def answer(h, user, msg, plan: Plan) -> str:
    """Work through one prompt like a player; returns what was answered ("turn", "order", ...)."""
    if by_head(msg, "tb"):  # the turn: bet, spells, (Clone), review, cast
        if plan.bet == "all":
            await h.click(user, msg, by_head(msg, "ta")["custom_id"])
        else:
            await set_bet(h, user, msg, int(plan.bet))
        spells = by_head(msg, "ts")
        values = [o["value"] for o in spells["options"] if int(o["value"]) in plan.spells]
        await h.select(user, msg, spells["custom_id"], values)
        if clone := by_head(msg, "tc"):
            await h.select(user, msg, clone["custom_id"], [clone["options"][0]["value"]])
        await h.click(user, msg, by_head(msg, "tr")["custom_id"])
        assert "You cast" in msg.text() and "Bet:" in msg.text()  # the Cast confirmation
        await h.click(user, msg, by_head(msg, "tk")["custom_id"])
        kind = "turn"
    elif by_head(msg, "os"):  # the stock order: two picks, then the rest in number order
        sel = by_head(msg, "os")
        await h.select(user, msg, sel["custom_id"], [sel["options"][-1]["value"]])
        sel = by_head(msg, "os")
        await h.select(user, msg, sel["custom_id"], [sel["options"][-1]["value"]])
        await h.click(user, msg, by_head(msg, "of")["custom_id"])
        assert "1. 🌀 Suction (14)\n2. 🔋 Reserve Boost (13)\n3." in msg.text()
        await h.click(user, msg, by_head(msg, "ok")["custom_id"])
        kind = "order"
    elif by_head(msg, "lk"):
        await h.click(user, msg, by_head(msg, "lk")["custom_id"])
        kind = "larceny"
    elif by_head(msg, "rs"):
        if plan.recycle is not None:
            await h.select(user, msg, by_head(msg, "rs")["custom_id"], [str(plan.recycle)])
        await h.click(user, msg, by_head(msg, "rk")["custom_id"])
        kind = "recycle"
    else:
        raise AssertionError(f"unexpected prompt: {msg.text()}")
    await h.settle()
    return kind
