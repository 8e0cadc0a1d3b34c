"""Tests for the Discord test harness itself, driven by a tiny throwaway bot defined here."""

from __future__ import annotations

import asyncio
import io
import re
import socket
from typing import Any, Literal

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.discord_harness import (
    BotErrors,
    DiscordHarness,
    DiscordSchema,
    HarnessError,
    NoResponse,
    ProtocolViolation,
    SettleTimeout,
)
from tests.discord_harness.fixtures import discord_harness  # noqa: F401  (pytest fixture)

# ---------------------------------------------------------------------------------------------------
# the throwaway bot


class AcceptDuel(discord.ui.DynamicItem[discord.ui.Button], template=r"duel:(?P<duel_id>\d+):accept"):
    """A restart-proof button: the duel id lives in the custom_id."""

    def __init__(self, duel_id: int) -> None:
        super().__init__(
            discord.ui.Button(label="Accept", style=discord.ButtonStyle.success, custom_id=f"duel:{duel_id}:accept")
        )
        self.duel_id = duel_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AcceptDuel:
        return cls(int(match["duel_id"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        bot: TinyBot = interaction.client  # type: ignore[assignment]
        duel = bot.duels[self.duel_id]
        if interaction.user.id != duel["opponent"]:
            await interaction.response.send_message("This duel is not for you.", ephemeral=True)
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: TinyBot = interaction.client  # type: ignore[assignment]
        bot.duels[self.duel_id]["accepted"] = True
        await interaction.response.edit_message(content=f"Duel {self.duel_id} accepted!", view=None)


class ChallengeView(discord.ui.View):
    def __init__(self, duel_id: int) -> None:
        super().__init__(timeout=600)
        self.duel_id = duel_id
        self.add_item(AcceptDuel(duel_id))
        self.picked: list[str] = []

    @discord.ui.select(
        custom_id="element",
        placeholder="Pick an element",
        options=[discord.SelectOption(label=x.title(), value=x) for x in ("fire", "water", "air")],
    )
    async def element(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        self.picked = list(select.values)
        await interaction.response.send_message(f"You picked {select.values[0]}", ephemeral=True)


class NameModal(discord.ui.Modal, title="Name your wizard"):
    wizard: discord.ui.TextInput = discord.ui.TextInput(label="Wizard name", custom_id="wizard_name", max_length=32)
    motto: discord.ui.TextInput = discord.ui.TextInput(
        label="Motto", custom_id="motto", style=discord.TextStyle.paragraph, required=False
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        interaction.client.names[interaction.user.id] = self.wizard.value  # type: ignore[attr-defined]
        await interaction.response.send_message(
            f"Welcome, {self.wizard.value}! {self.motto.value}".strip(), ephemeral=True
        )


class DmFallbackView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Show my hand", custom_id="fallback:hand", style=discord.ButtonStyle.primary)
    async def hand(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("Your hand: 3 fireballs", ephemeral=True)


class CounterView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.count = 0

    @discord.ui.button(label="+1 (defer, edit original)", custom_id="count:original")
    async def via_original(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.count += 1
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"count {self.count}")

    @discord.ui.button(label="+1 (defer, edit message)", custom_id="count:message")
    async def via_message(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.count += 1
        await interaction.response.defer()
        assert interaction.message is not None
        await interaction.message.edit(content=f"count {self.count}")


SPELLS = ["fireball", "firewall", "frost bolt", "shield", "storm"]


class TinyBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.duels: dict[int, dict] = {}
        self.names: dict[int, str] = {}
        self.next_duel = 1000
        self.synced: list[app_commands.AppCommand] = []
        self.background_done = asyncio.Event()
        self.dm_log: list[str] = []
        self.round_log: list[str] = []
        self.thread_log: list[str] = []
        register_commands(self)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(AcceptDuel)
        self.add_view(DmFallbackView())
        self.synced = await self.tree.sync()


def register_commands(bot: TinyBot) -> None:
    tree = bot.tree

    @tree.command(description="Challenge another wizard")
    @app_commands.describe(opponent="Who to duel", mode="Casual or ranked")
    async def challenge(
        interaction: discord.Interaction, opponent: discord.Member, mode: Literal["casual", "ranked"] = "casual"
    ) -> None:
        duel_id = bot.next_duel
        bot.next_duel += 1
        bot.duels[duel_id] = {
            "challenger": interaction.user.id,
            "opponent": opponent.id,
            "mode": mode,
            "accepted": False,
        }
        embed = discord.Embed(title="A duel!", description=f"{interaction.user.mention} vs {opponent.mention}")
        embed.add_field(name="Mode", value=mode)
        await interaction.response.send_message(embed=embed, view=ChallengeView(duel_id))

    @tree.command(description="Your private status")
    async def status(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Only you can see this", ephemeral=True, view=DmFallbackView())

    @tree.command(description="Something slow")
    @app_commands.describe(private="Answer privately")
    async def slow(interaction: discord.Interaction, private: bool = False) -> None:
        await interaction.response.defer(ephemeral=private, thinking=True)
        await asyncio.sleep(0.01)
        await interaction.followup.send("Done thinking", ephemeral=private)
        await interaction.followup.send("And one more thing")

    @tree.command(description="DM a wizard their hand")
    async def deal(interaction: discord.Interaction, player: discord.User) -> None:
        try:
            await player.send("Your hand: 3 fireballs", file=discord.File(io.BytesIO(b"card-art"), "hand.png"))
        except discord.Forbidden as exc:
            bot.dm_log.append(f"forbidden:{exc.code}")
            await interaction.response.send_message(
                f"I could not DM {player.mention}; use the button instead.", view=DmFallbackView()
            )
        else:
            bot.dm_log.append("sent")
            await interaction.response.send_message("Dealt!", ephemeral=True)

    @tree.command(description="Name your wizard")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @tree.command(description="Cast a spell")
    async def cast(interaction: discord.Interaction, spell: str, power: app_commands.Range[int, 1, 10] = 5) -> None:
        await interaction.response.send_message(f"{spell} at power {power}")

    @cast.autocomplete("spell")
    async def cast_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=s.title(), value=s) for s in SPELLS if s.startswith(current)][:25]

    game = app_commands.Group(name="game", description="Game commands")

    @game.command(name="start", description="Start a game")
    @app_commands.choices(
        kind=[app_commands.Choice(name="Wizards Cup", value=1), app_commands.Choice(name="Arena", value=2)]
    )
    async def game_start(
        interaction: discord.Interaction, kind: app_commands.Choice[int], where: discord.TextChannel | None = None
    ) -> None:
        target = where or interaction.channel
        await interaction.response.send_message(f"Starting {kind.name} ({kind.value})", ephemeral=True)
        await target.send(f"A game of {kind.name} begins!")  # type: ignore[union-attr]

    tree.add_command(game)

    @tree.command(description="Sends an embed that is too big")
    async def bigembed(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=discord.Embed(title="x" * 300))

    @tree.command(description="Raises")
    async def broken(interaction: discord.Interaction) -> None:
        raise RuntimeError("the referee tripped")

    @tree.command(description="Never answers")
    async def silent(interaction: discord.Interaction) -> None:
        return None

    @tree.command(description="Kicks off background work")
    async def later(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("on it", ephemeral=True)

        async def work() -> None:
            await asyncio.sleep(0.05)
            assert interaction.channel is not None
            await interaction.channel.send("background result")  # type: ignore[union-attr]
            bot.background_done.set()

        asyncio.create_task(work())

    @tree.command(description="Exercises edits, fetches and deletes")
    async def round(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Round 1", view=CounterView())
        await interaction.edit_original_response(content="Round 1 (edited)")
        original = await interaction.original_response()
        temp = await interaction.followup.send("temporary", wait=True)
        await temp.edit(content="temporary (edited)")
        await temp.delete()
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        fetched = await channel.fetch_message(original.id)
        bot.round_log = [original.content, fetched.content]

    @tree.command(description="A match in its own thread")
    @app_commands.guild_only()
    async def match(interaction: discord.Interaction, bare: bool = False) -> None:
        await interaction.response.defer(ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        try:
            if bare:  # a thread without a starter message
                thread = await channel.create_thread(name="Duel", type=discord.ChannelType.public_thread)
            else:
                post = await channel.send("Match #1: ann vs bob")
                thread = await post.create_thread(name="Match #1", auto_archive_duration=1440)
        except discord.Forbidden as exc:
            bot.thread_log.append(f"forbidden:{exc.code}")
            await channel.send("Match #1: ann vs bob (no thread: I lack the permission)")
            await interaction.followup.send("Started without a thread", ephemeral=True)
            return
        board = await thread.send("Board, turn 1", view=DmFallbackView())
        await board.edit(content="Board, turn 2")
        bot.thread_log.append(f"thread:{thread.id}")
        await interaction.followup.send(f"Started in {thread.mention}", ephemeral=True)

    @tree.command(description="Posts n messages to the channel at once")
    async def burst(interaction: discord.Interaction, n: int) -> None:
        await interaction.response.send_message(f"posting {n}", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        for i in range(n):
            await interaction.channel.send(f"post {i + 1}")

    @tree.command(description="Answers, then sends n follow-ups")
    async def chatty(interaction: discord.Interaction, n: int) -> None:
        await interaction.response.defer()
        for i in range(n):
            await interaction.followup.send(f"follow-up {i + 1}")

    @tree.command(description="Says too much")
    async def essay(interaction: discord.Interaction, where: Literal["reply", "followup", "channel"]) -> None:
        text = "word " * 401  # 2,005 characters: Discord allows a bot 2,000
        if where == "reply":
            await interaction.response.send_message(text)
        elif where == "followup":
            await interaction.response.defer()
            await interaction.followup.send(text)
        else:
            await interaction.response.send_message("ok", ephemeral=True)
            await interaction.channel.send(text)  # type: ignore[union-attr]

    @tree.command(description="Sends too many embeds, or too much embed text")
    async def embeds(interaction: discord.Interaction, count: int, each: int) -> None:
        many = [discord.Embed(description="x" * each) for _ in range(count)]
        await interaction.response.send_message(embeds=many)

    @tree.command(description="Waits for another player to press Go")
    async def ready(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None).add_item(discord.ui.Button(label="Go", custom_id="ready:go"))
        await interaction.response.send_message("Press Go when ready", view=view)

        def is_go(i: discord.Interaction) -> bool:
            return bool(i.data) and i.data.get("custom_id") == "ready:go"  # type: ignore[union-attr]

        click = await bot.wait_for("interaction", check=is_go, timeout=60)
        await click.response.send_message(f"{click.user.name} is ready")


# ---------------------------------------------------------------------------------------------------
# fixtures


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Prove the harness never opens a connection: any attempt fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"network access attempted: {args[1:]!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.fixture
async def world(discord_harness):  # noqa: F811
    return await make_world(discord_harness)


@pytest.fixture
async def limited(discord_harness):  # noqa: F811
    """The world with Discord's rate limits enforced, whatever the harness's default."""
    return await make_world(discord_harness, rate_limits=True)


async def make_world(factory, **options):
    harness: DiscordHarness = await factory(TinyBot(), **options)
    guild = harness.add_guild("Wizard Academy")
    channel = harness.add_text_channel(guild, "duels")
    alice = harness.add_member(guild, "alice")
    bob = harness.add_member(guild, "bob")
    return harness, guild, channel, alice, bob


# ---------------------------------------------------------------------------------------------------
# login, sync and recording


async def test_login_sync_and_request_recording(world):
    harness, guild, channel, alice, bob = world
    bot = harness.bot
    assert bot.is_ready()
    assert bot.user is not None and bot.user.id == harness.app_id
    assert bot.application_id == harness.app_id
    assert bot.get_guild(guild.id) is guild
    assert guild.get_channel(channel.id) is channel

    sync = harness.requests_for("PUT", "/applications/{application_id}/commands")
    assert len(sync) == 1
    req = sync[0]
    assert req.schema is not None and req.status == 200
    assert req.params == {"application_id": str(harness.app_id)}
    names = sorted(c["name"] for c in req.json)
    assert names == sorted(
        [
            "bigembed",
            "broken",
            "cast",
            "challenge",
            "deal",
            "game",
            "later",
            "name",
            "silent",
            "slow",
            "status",
            "ready",
            "round",
            "match",
            "burst",
            "essay",
            "embeds",
            "chatty",
        ]
    )
    # discord.py built real AppCommand objects from the echoed payload, with ids
    assert {c.name for c in bot.synced} == set(names) and all(c.id for c in bot.synced)
    assert harness.requests[0].method == "GET" and harness.requests[0].path == "/users/@me"


# ---------------------------------------------------------------------------------------------------
# slash commands, components, dynamic items


async def test_slash_with_user_and_choice_options_then_buttons_and_select(world):
    harness, guild, channel, alice, bob = world
    result = await harness.slash(alice, channel, "challenge", {"opponent": bob, "mode": "ranked"})

    assert result.response_name == "CHANNEL_MESSAGE_WITH_SOURCE"
    msg = result.message
    assert msg is not None and not msg.ephemeral
    assert msg.embed["title"] == "A duel!"
    assert msg.embed["fields"] == [{"name": "Mode", "value": "ranked", "inline": True}]
    assert bob.mention in msg.embed["description"]
    duel_id = next(iter(harness.bot.duels))
    assert sorted(msg.custom_ids) == [f"duel:{duel_id}:accept", "element"]
    assert harness.bot.duels[duel_id]["opponent"] == bob.id
    assert harness.messages_in(channel) == [msg]
    # the interaction payload carried resolved member data for the user option
    assert result.payload["data"]["resolved"]["members"][str(bob.id)]["permissions"]
    cb = result.requests[0]
    assert cb.route == "/interactions/{interaction_id}/{interaction_token}/callback"
    assert cb.via == "webhook" and cb.params["interaction_id"] == str(result.id)

    # alice may not accept her own duel: the DynamicItem's interaction_check answers ephemerally
    refused = await harness.click(alice, msg, f"duel:{duel_id}:accept")
    assert refused.ephemeral and refused.content == "This duel is not for you."
    assert harness.ephemeral_responses_to(alice) == [refused.message]
    assert not harness.bot.duels[duel_id]["accepted"]

    # the select menu, handled by the View stored for this message id
    with pytest.raises(HarnessError, match="not an option"):
        await harness.select(bob, msg, "element", ["earth"])
    picked = await harness.select(bob, msg, "element", ["water"])
    assert picked.content == "You picked water" and picked.ephemeral

    accepted = await harness.click(bob, msg, label="Accept")
    assert accepted.response_name == "UPDATE_MESSAGE"
    assert harness.bot.duels[duel_id]["accepted"]
    assert msg.content == f"Duel {duel_id} accepted!" and msg.components == [] and msg.edited
    assert harness.last_response() is msg

    with pytest.raises(HarnessError, match="no component"):
        await harness.click(bob, msg, "element")  # the view was removed by the edit


async def test_dynamic_item_survives_a_restart(world):
    """DynamicItem buttons work on messages the current process never registered a view for."""
    harness, guild, channel, alice, bob = world
    harness.bot.duels[77] = {"opponent": bob.id, "accepted": False}
    await harness.bot.get_channel(channel.id).send("Old duel", view=discord.ui.View().add_item(AcceptDuel(77)))
    old = harness.last_message(channel)
    harness.bot._connection._view_store._views.clear()  # forget the stored view, as after a restart
    result = await harness.click(bob, old, "duel:77:accept")
    assert result.response_name == "UPDATE_MESSAGE" and harness.bot.duels[77]["accepted"]


async def test_subcommand_with_int_choice_and_channel_option(world):
    harness, guild, channel, alice, bob = world
    other = harness.add_text_channel(guild, "arena")
    result = await harness.slash(alice, channel, "game start", {"kind": "Arena", "where": other})
    assert result.content == "Starting Arena (2)" and result.ephemeral
    options = result.payload["data"]["options"]
    assert options[0]["type"] == 1 and options[0]["name"] == "start"
    assert {"name": "kind", "type": 4, "value": 2} in options[0]["options"]
    assert [m.content for m in harness.messages_in(other)] == ["A game of Arena begins!"]
    with pytest.raises(HarnessError, match="not a choice"):
        await harness.slash(alice, channel, "game", {"kind": 3}, subcommand="start")
    with pytest.raises(HarnessError, match="is a group"):
        await harness.slash(alice, channel, "game")


async def test_autocomplete_and_ranges(world):
    harness, guild, channel, alice, bob = world
    result = await harness.autocomplete(alice, channel, "cast", focused="spell", value="fi")
    assert result.choices == [{"name": "Fireball", "value": "fireball"}, {"name": "Firewall", "value": "firewall"}]
    cast = await harness.slash(alice, channel, "cast", {"spell": "storm", "power": 10})
    assert cast.content == "storm at power 10"
    with pytest.raises(HarnessError, match="outside"):
        await harness.slash(alice, channel, "cast", {"spell": "storm", "power": 11})
    with pytest.raises(HarnessError, match="missing required"):
        await harness.slash(alice, channel, "cast", {})


# ---------------------------------------------------------------------------------------------------
# ephemeral, defer + follow-ups, modals


async def test_ephemeral_reply_is_only_clickable_by_its_owner(world):
    harness, guild, channel, alice, bob = world
    result = await harness.slash(alice, channel, "status")
    assert result.ephemeral and result.message.flags & 64
    assert harness.messages_in(channel) == []  # nobody else sees it
    assert harness.visible_to(alice, channel) == [result.message]
    with pytest.raises(HarnessError, match="cannot see ephemeral"):
        await harness.click(bob, result.message, "fallback:hand")
    hand = await harness.click(alice, result.message, "fallback:hand")
    assert hand.content == "Your hand: 3 fireballs"


@pytest.mark.parametrize("private", [False, True])
async def test_defer_then_followups(world, private):
    harness, guild, channel, alice, bob = world
    result = await harness.slash(alice, channel, "slow", {"private": private})
    assert result.response_name == "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE" and result.deferred
    # the first follow-up fills in the "thinking..." message, later ones are new messages
    assert result.message.content == "Done thinking" and not result.message.is_loading
    assert result.ephemeral is private
    assert [m.content for m in result.followups] == ["And one more thing"]
    assert [m.content for m in result.messages] == ["Done thinking", "And one more thing"]
    followup_req = [r for r in result.requests if r.method == "POST" and r.route.startswith("/webhooks/")]
    assert len(followup_req) == 2 and "IncomingWebhookRequestPartial" in followup_req[0].schema
    assert harness.last_response().content == "And one more thing"


async def test_modal_round_trip(world):
    harness, guild, channel, alice, bob = world
    opened = await harness.slash(alice, channel, "name")
    assert opened.response_name == "MODAL"
    assert opened.modal["title"] == "Name your wizard"
    with pytest.raises(HarnessError, match="required"):
        await harness.submit_modal(alice, {"motto": "hi"})
    with pytest.raises(HarnessError, match="no fields"):
        await harness.submit_modal(alice, {"wizard_name": "Merlin", "hat": "pointy"})
    submitted = await harness.submit_modal(alice, {"wizard_name": "Merlin", "motto": "Onwards"})
    assert submitted.content == "Welcome, Merlin! Onwards" and submitted.ephemeral
    assert harness.bot.names[alice.id] == "Merlin"
    with pytest.raises(HarnessError, match="has not shown"):
        await harness.submit_modal(alice, {"wizard_name": "Again"})  # a submitted modal is closed
    with pytest.raises(HarnessError, match="has not shown"):
        await harness.submit_modal(bob, {"wizard_name": "Morgana"})


# ---------------------------------------------------------------------------------------------------
# DMs


async def test_dm_success_and_click_in_dm(world):
    harness, guild, channel, alice, bob = world
    result = await harness.slash(alice, channel, "deal", {"player": bob})
    assert harness.bot.dm_log == ["sent"] and result.content == "Dealt!"
    dms = harness.dms_to(bob)
    assert [m.content for m in dms] == ["Your hand: 3 fireballs"]
    assert dms[0].files[0].filename == "hand.png" and dms[0].files[0].data == b"card-art"
    assert dms[0].attachments[0]["filename"] == "hand.png"
    create_dm = harness.requests_for("POST", "/users/@me/channels")[0]
    assert create_dm.json == {"recipient_id": bob.id} and create_dm.schema == "CreatePrivateChannelRequest"
    send = harness.requests_for("POST", "/channels/{channel_id}/messages")[-1]
    assert send.multipart and send.files[0].filename == "hand.png"
    assert send.params["channel_id"] == str(harness.dm_channel(bob).id)

    # a slash command and a button inside the DM channel
    await harness.bot.get_channel(harness.dm_channel(bob).id).send("Need help?", view=DmFallbackView())
    in_dm = harness.dms_to(bob)[-1]
    clicked = await harness.click(bob, in_dm, "fallback:hand")
    assert clicked.payload["context"] == 1 and "user" in clicked.payload and "guild_id" not in clicked.payload
    assert clicked.content == "Your hand: 3 fireballs"
    with pytest.raises(HarnessError, match="cannot see a DM"):
        await harness.click(alice, in_dm, "fallback:hand")
    dm_status = await harness.slash(bob, harness.dm_channel(bob), "status")
    assert dm_status.ephemeral


async def test_closed_dms_raise_forbidden_and_the_bot_falls_back(world):
    harness, guild, channel, alice, bob = world
    harness.close_dms(bob)
    result = await harness.slash(alice, channel, "deal", {"player": bob})
    assert harness.bot.dm_log == ["forbidden:50007"]
    assert harness.dms_to(bob) == []
    failed = harness.requests_for("POST", "/channels/{channel_id}/messages")[-1]
    assert failed.status == 403 and failed.response["code"] == 50007
    assert "use the button instead" in result.content
    fallback = await harness.click(bob, result.message, "fallback:hand")
    assert fallback.ephemeral and harness.ephemeral_responses_to(bob) == [fallback.message]
    assert harness.violations == []  # closed DMs are the user's choice, not a bot bug


# ---------------------------------------------------------------------------------------------------
# schema validation and failure reporting


async def test_oversize_embed_is_caught_by_schema_validation(world):
    harness, guild, channel, alice, bob = world
    with harness.expect_violations() as caught:
        result = await harness.slash(alice, channel, "bigembed")
    assert not result.responded  # Discord answered 400 Invalid Form Body
    assert "via CreateMessageInteractionCallbackRequest > IncomingWebhookInteractionRequest" in caught.text
    assert "$.data.embeds[0].title" in caught.text and "maxLength 256" in caught.text
    assert any("50035" in e for e in caught.bot_errors)


async def test_violation_fails_the_test_when_not_expected(world):
    harness, guild, channel, alice, bob = world
    with pytest.raises(
        ProtocolViolation, match=r"POST /interactions/\{interaction_id\}/\{interaction_token\}/callback"
    ):
        await harness.slash(alice, channel, "bigembed")


async def test_six_action_rows(world):
    harness, guild, channel, alice, bob = world
    # discord.py itself refuses a 6th row in a View...
    view = discord.ui.View()
    with pytest.raises(ValueError):
        view.add_item(discord.ui.Button(label="too low", row=5))
    # ...and a raw payload with 6 rows is caught by the harness's Discord rules
    rows = [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": str(i), "custom_id": f"b{i}"}]} for i in range(6)
    ]
    with harness.expect_violations() as caught:
        with pytest.raises(discord.HTTPException) as info:
            await harness.bot.http.send_message(
                channel.id, params=discord.http.handle_message_parameters(content="rows")
            )  # valid, for contrast
            await harness.bot.http.request(
                discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id),
                json={"content": "rows", "components": rows},
            )
        await harness.settle()
    assert info.value.status == 400 and info.value.code == 50035
    assert "$.components" in caught.text and "6 top-level components" in caught.text


async def test_schema_errors_are_readable_and_snowflakes_may_be_ints():
    schema = DiscordSchema()
    op, params = schema.match("POST", "/channels/123/messages")
    assert op is not None
    assert op.schema_name == "MessageCreateRequest" and params == {"channel_id": "123"}
    body = {
        "content": "hi",
        "message_reference": {"message_id": 123456789012345678},  # int snowflake: accepted
        "components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x" * 81, "custom_id": "a"}]}],
    }
    problems = schema.problems(op, body)
    assert [p.location for p in problems] == ["$.components[0].components[0].label"]
    assert "length 81 violates maxLength 80" in str(problems[0])
    op2, _ = schema.match("PATCH", "/webhooks/1/tok/messages/@original")
    assert op2 is not None
    assert op2.template.endswith("/@original") and op2.schema_name == "IncomingWebhookUpdateRequestPartial"
    op3, _ = schema.match("PUT", "/applications/1/guilds/2/commands")
    assert op3 is not None
    assert op3.schema_name == "ApplicationCommandUpdateRequest[]"
    assert schema.problems(op3, [{"name": "UPPER case is fine here", "type": 1, "description": "d"}]) == []
    assert schema.problems(op3, [{"name": "n" * 33, "description": "d"}])[0].location == "$[0].name"


async def test_unanswered_interaction_and_bot_errors_are_reported(world):
    harness, guild, channel, alice, bob = world
    with pytest.raises(NoResponse, match="/silent"):
        await harness.slash(alice, channel, "silent")
    await harness.slash(alice, channel, "silent", expect_response=False)
    with pytest.raises(BotErrors, match="the referee tripped"):
        await harness.slash(alice, channel, "broken", expect_response=False)
    with harness.expect_bot_errors() as caught:
        await harness.slash(alice, channel, "broken", expect_response=False)
    assert "RuntimeError" in caught.text


async def test_settle_waits_for_background_tasks(world):
    harness, guild, channel, alice, bob = world
    result = await harness.slash(alice, channel, "later")
    assert result.content == "on it"
    assert harness.bot.background_done.is_set()
    assert [m.content for m in harness.messages_in(channel)] == ["background result"]


async def test_users_must_be_members_and_gateway_echo(world):
    harness, guild, channel, alice, bob = world
    stranger = harness.add_user("stranger")
    with pytest.raises(HarnessError, match="not a member"):
        await harness.slash(stranger, channel, "status")
    # the bot's own channel messages come back through MESSAGE_CREATE (guild_messages intent)
    seen: list[str] = []

    async def on_message(message: discord.Message) -> None:
        seen.append(message.content)

    harness.bot.add_listener(on_message)
    await harness.bot.get_channel(channel.id).send("hello")
    await harness.settle()
    assert seen == ["hello"]


async def test_injected_errors_and_overrides(world):
    harness, guild, channel, alice, bob = world
    harness.fail("POST", "/channels/{channel_id}/messages", status=403, code=50013, message="Missing Permissions")
    with pytest.raises(discord.Forbidden) as info:
        await harness.bot.get_channel(channel.id).send("nope")
    assert info.value.code == 50013
    await harness.bot.get_channel(channel.id).send("works again")
    harness.on("GET", "/guilds/{guild_id}/bans", [])
    assert await harness.bot.http.request(discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=guild.id)) == []
    with harness.expect_violations() as caught, pytest.raises(discord.NotFound):
        await harness.bot.http.request(discord.http.Route("GET", "/guilds/{guild_id}/emojis", guild_id=guild.id))
    assert "no canned response" in caught.text


async def test_close_restores_discord_py(discord_harness):  # noqa: F811
    import discord.interactions as di
    import discord.webhook.async_ as wh

    before = wh.async_context
    bot = TinyBot()
    harness = await discord_harness(bot)
    assert wh.async_context is not before and di.async_context is wh.async_context
    await harness.close()
    assert wh.async_context is before and di.async_context is before
    assert "request" not in vars(bot.http)


async def test_edits_fetches_deletes_and_deferred_component_updates(world):
    harness, guild, channel, alice, bob = world
    result = await harness.slash(alice, channel, "round")
    msg = result.message
    assert msg.content == "Round 1 (edited)" and [h["content"] for h in msg.history] == ["Round 1"]
    temp = [m for m in result.messages if m is not msg][0]
    assert temp.deleted and temp.content == "temporary (edited)"
    assert harness.bot.round_log == ["Round 1 (edited)", "Round 1 (edited)"]
    assert [m.content for m in harness.messages_in(channel)] == ["Round 1 (edited)"]
    assert [m.content for m in harness.messages_in(channel, include_deleted=True)] == [
        "Round 1 (edited)",
        "temporary (edited)",
    ]
    routes = [(r.method, r.route) for r in result.requests]
    assert ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original") in routes
    assert ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original") in routes
    assert ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}") in routes

    clicked = await harness.click(bob, msg, "count:original")
    assert clicked.response_name == "DEFERRED_UPDATE_MESSAGE" and clicked.message is msg
    assert msg.content == "count 1"
    await harness.click(bob, msg, "count:message")
    assert msg.content == "count 2"
    assert harness.requests[-1].method == "PATCH" and harness.requests[-1].route == (
        "/channels/{channel_id}/messages/{message_id}"
    )
    assert msg.custom_ids == ["count:original", "count:message"]  # the view survived the edits


async def test_settle_does_not_wait_for_parked_tasks_but_times_out_on_busy_ones(world):
    harness, guild, channel, alice, bob = world
    # the command task is parked in bot.wait_for(...): settle() returns, the click releases it
    prompt = await harness.slash(alice, channel, "ready")
    assert prompt.content == "Press Go when ready"
    go = await harness.click(bob, prompt.message, "ready:go")
    assert go.content == "bob is ready"

    async def spin() -> None:
        while True:
            await asyncio.sleep(0.01)

    task = asyncio.create_task(spin())
    with pytest.raises(SettleTimeout, match="spin"):
        await harness.settle(timeout=0.1)
    harness.ignore_task(task)
    await harness.settle()
    task.cancel()


async def test_unretrieved_task_exceptions_fail_the_test():
    harness = await DiscordHarness.create(TinyBot())

    async def boom() -> None:
        raise ValueError("lost in a fire-and-forget task")

    asyncio.get_running_loop().create_task(boom())
    try:
        with pytest.raises(BotErrors, match="lost in a fire-and-forget task"):
            await harness.settle()  # reported as soon as asyncio notices...
            await harness.close()  # ...and at the latest when the harness closes
    finally:
        await harness.close(raise_errors=False)


# ---------------------------------------------------------------------------------------------------
# Discord's rate limits


async def test_a_channel_takes_five_messages_per_five_seconds(limited):
    harness, guild, channel, alice, bob = limited
    await harness.slash(alice, channel, "burst", {"n": 5})
    posts = harness.requests_for("POST", "/channels/{channel_id}/messages")
    assert [r.status for r in posts] == [200] * 5
    # every answer carries the bucket's state, as Discord's headers do
    assert [r.headers["X-RateLimit-Remaining"] for r in posts] == ["4", "3", "2", "1", "0"]
    assert {r.headers["X-RateLimit-Limit"] for r in posts} == {"5"}
    assert len({r.headers["X-RateLimit-Bucket"] for r in posts}) == 1
    assert 0 < float(posts[-1].headers["X-RateLimit-Reset-After"]) <= 5
    assert harness.violations == [] and harness.rate_limit_hits == []

    # one more within the window: Discord answers 429, the test fails, naming the route and the limit
    with pytest.raises(ProtocolViolation) as failed:
        await harness.slash(alice, channel, "burst", {"n": 1})
    text = str(failed.value)
    assert "POST /channels/{channel_id}/messages" in text and "429 Too Many Requests" in text
    assert "'create message' bucket of channel #duels" in text and "5 requests per 5 s per channel" in text
    (hit,) = harness.rate_limit_hits
    limited_request = harness.requests[hit.request_index]
    assert limited_request.status == 429 and limited_request.headers["X-RateLimit-Scope"] == "user"
    assert limited_request.response["global"] is False and 0 < limited_request.response["retry_after"] <= 4
    assert int(limited_request.headers["Retry-After"]) >= limited_request.response["retry_after"]
    # ...and, as discord.py does, the bot waited retry_after (on the harness's clock) and retried
    assert [m.content for m in harness.messages_in(channel)][-1] == "post 1"
    retried = harness.requests_for("POST", "/channels/{channel_id}/messages")[-1]
    assert retried.status == 200 and retried.at >= limited_request.at + limited_request.response["retry_after"]


async def test_the_window_is_counted_on_the_harness_clock(limited):
    harness, guild, channel, alice, bob = limited
    await harness.slash(alice, channel, "burst", {"n": 3})
    harness.advance(5)  # five seconds later the window has ended
    await harness.slash(alice, channel, "burst", {"n": 5})
    other = harness.add_text_channel(guild, "arena")  # another channel has its own bucket
    await harness.slash(alice, other, "burst", {"n": 5})
    assert harness.rate_limit_hits == [] and len(harness.messages_in(channel)) == 8
    # each user action moves the clock by the think time (1 s): 3 + 3 posts a second apart collide
    harness.advance(10)
    start = harness.clock.now()
    await harness.slash(alice, channel, "burst", {"n": 3})
    assert harness.clock.now() - start >= 1.0
    with harness.expect_violations() as caught:
        await harness.slash(bob, channel, "burst", {"n": 3})
    assert "429 Too Many Requests" in caught.text and len(harness.rate_limit_hits) == 1


async def test_the_global_limit_and_what_it_does_not_count(discord_harness):  # noqa: F811
    harness, guild, channel, alice, bob = await make_world(discord_harness, rate_limits=True, think_time=0)
    harness.advance(2)
    route = discord.http.Route("GET", "/users/@me")
    # interaction callbacks count against nothing: 60 answers within the same second
    for _ in range(60):
        await harness.slash(alice, channel, "status")
    assert harness.rate_limit_hits == []
    assert all(r.headers == {} for r in harness.requests_for("POST") if r.route.startswith("/interactions/"))
    # 50 REST calls a second for the whole bot, then 429 with the global scope
    for _ in range(50):
        await harness.bot.http.request(route)
    with harness.expect_violations() as caught:
        await harness.bot.http.request(route)
    assert "the bot's global limit allows 50 requests per 1 s" in caught.text
    hit = harness.rate_limit_hits[-1]
    limited_request = harness.requests[hit.request_index]
    assert hit.is_global and limited_request.response["global"] is True
    assert limited_request.headers["X-RateLimit-Scope"] == "global"
    assert limited_request.headers["X-RateLimit-Global"] == "true"
    # follow-ups use the interaction token's own bucket: not bound by the global limit...
    for _ in range(49):  # (the retry took the first request of this window)
        await harness.bot.http.request(route)
    sent = await harness.slash(alice, channel, "chatty", {"n": 5})
    assert len(sent.messages) == 5 and all(r.status in (200, 204) for r in sent.requests)
    with harness.expect_violations() as caught:  # while the bot's global window is still full
        await harness.bot.http.request(route)
    assert "global limit" in caught.text and len(harness.rate_limit_hits) == 2
    # ...which takes 5 requests per 2 s
    harness.advance(5)
    with harness.expect_violations() as caught:
        await harness.slash(alice, channel, "chatty", {"n": 6})
    assert "'interaction webhook' bucket" in caught.text and "5 requests per 2 s per webhook + token" in caught.text


async def test_rate_limits_can_be_off(discord_harness):  # noqa: F811
    harness, guild, channel, alice, bob = await make_world(discord_harness, rate_limits=False)
    assert not harness.rate_limits
    await harness.slash(alice, channel, "burst", {"n": 12})
    assert len(harness.messages_in(channel)) == 12 and harness.rate_limit_hits == []
    assert all(r.headers == {} for r in harness.requests)


# ---------------------------------------------------------------------------------------------------
# what Discord refuses


@pytest.mark.parametrize("where", ["reply", "followup", "channel"])
async def test_content_over_2000_characters_is_refused(world, where):
    harness, guild, channel, alice, bob = world
    with harness.expect_violations() as caught:
        await harness.slash(alice, channel, "essay", {"where": where}, expect_response=False)
    assert "content of length 2005 exceeds 2000" in caught.text
    assert all(len(m.content) <= 2000 for m in harness.messages_in(channel))


async def test_embeds_over_their_limits_are_refused(world):
    harness, guild, channel, alice, bob = world
    # discord.py refuses an 11th embed itself; a raw request gets Discord's answer
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
    with harness.expect_violations() as caught, pytest.raises(discord.HTTPException):
        await harness.bot.http.request(route, json={"embeds": [{"description": "x"}] * 11})
    assert "array of 11 items violates maxItems 10" in caught.text
    with harness.expect_violations() as caught:
        await harness.slash(alice, channel, "embeds", {"count": 2, "each": 3500}, expect_response=False)
    assert "embeds hold 7000 characters in total; the limit is 6000" in caught.text
    with harness.expect_violations() as caught:
        await harness.slash(alice, channel, "embeds", {"count": 1, "each": 4097}, expect_response=False)
    assert "$.data.embeds[0].description" in caught.text and "maxLength 4096" in caught.text
    ok = await harness.slash(alice, channel, "embeds", {"count": 10, "each": 600})
    assert len(ok.embeds) == 10


async def test_a_guild_only_command_is_not_offered_in_a_dm(world):
    harness, guild, channel, alice, bob = world
    with pytest.raises(HarnessError, match="/match is guild-only: Discord does not offer it in a DM"):
        await harness.slash(alice, harness.dm_channel(alice), "match")
    synced = {c["name"]: c for c in harness.requests_for("PUT")[0].json}
    assert synced["match"]["contexts"] == [0] and synced["status"]["contexts"] is None
    assert (await harness.slash(alice, harness.dm_channel(alice), "status")).ephemeral


# ---------------------------------------------------------------------------------------------------
# threads


async def test_a_thread_from_a_message_with_posts_edits_and_clicks(limited):
    harness, guild, channel, alice, bob = limited
    result = await harness.slash(alice, channel, "match")
    (post,) = harness.messages_in(channel)
    thread = harness.thread_of(post)
    assert thread is not None and thread.id == post.id and thread.type == 11 and thread.name == "Match #1"
    assert harness.threads(channel) == [thread] and thread.parent_id == channel.id
    assert post.payload["thread"]["id"] == str(thread.id) and post.flags & 32  # HAS_THREAD
    assert harness.bot.get_channel(thread.id) is not None  # THREAD_CREATE reached discord.py
    (board,) = harness.messages_in(thread)
    assert board.content == "Board, turn 2" and [h["content"] for h in board.history] == ["Board, turn 1"]
    assert thread.payload["message_count"] == 1 and thread.payload["last_message_id"] == str(board.id)
    assert harness.bot.thread_log == [f"thread:{thread.id}"] and f"<#{thread.id}>" in result.content
    routes = [r.route for r in harness.requests if r.method == "POST"]
    assert "/channels/{channel_id}/messages/{message_id}/threads" in routes
    # players use the components of messages in the thread; slash commands work there too
    hand = await harness.click(bob, board, "fallback:hand")
    assert hand.ephemeral and hand.payload["channel"]["type"] == 11 and hand.payload["channel_id"] == str(thread.id)
    assert (await harness.slash(bob, thread, "status")).ephemeral
    # one thread per message
    with harness.expect_violations() as caught, pytest.raises(discord.HTTPException):
        await harness.to_discord_message(post).create_thread(name="again")
    assert "160004" in caught.text


async def test_a_thread_without_a_message_and_private_threads(limited):
    harness, guild, channel, alice, bob = limited
    await harness.slash(alice, channel, "match", {"bare": True})
    (thread,) = harness.threads(channel)
    assert thread.type == 11 and thread.name == "Duel"
    # Discord leaves a "thread created" system message in the parent channel
    (system,) = harness.messages_in(channel)
    assert system.kind == "system" and system.payload["type"] == 18 and system.content == "Duel"
    assert [m.content for m in harness.messages_in(thread)] == ["Board, turn 2"]

    # a private thread (Discord's default without a message) is seen by its members only
    parent = harness.bot.get_channel(channel.id)
    secret = await parent.create_thread(name="Secret")
    sim = harness.channel(secret)
    assert sim.type == 12 and harness.messages_in(channel)[-1] is system  # no system message
    msg = await secret.send("psst", view=DmFallbackView())
    with pytest.raises(HarnessError, match="not added to the private thread 'Secret'"):
        await harness.click(bob, msg.id, "fallback:hand")
    await secret.add_user(discord.Object(bob.id))
    assert (await harness.click(bob, msg.id, "fallback:hand")).ephemeral
    assert bob.id in sim.member_ids and sim.payload["member_count"] == 2


async def test_thread_refusals(limited):
    harness, guild, channel, alice, bob = limited
    parent = harness.bot.get_channel(channel.id)
    for bad, where in (
        ({"name": ""}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"name": "ok", "auto_archive_duration": 30}, "auto_archive_duration"),
    ):
        with harness.expect_violations() as caught, pytest.raises(discord.HTTPException) as refused:
            await harness.bot.http.request(
                discord.http.Route("POST", "/channels/{channel_id}/threads", channel_id=channel.id),
                json={"type": 11, **bad},
            )
        # refused by Discord's schema (CreateTextThreadWithoutMessageRequest) as Invalid Form Body
        assert f"'{where}'" in caught.text and refused.value.code == 50035
    dm = await harness.bot.create_dm(discord.Object(alice.id))
    with harness.expect_violations() as caught, pytest.raises(discord.HTTPException):
        await harness.bot.http.start_thread_without_message(dm.id, name="no", auto_archive_duration=60, type=11)
    assert "50024" in caught.text
    assert harness.threads() == [] and parent is not None


async def test_missing_thread_permissions_are_answered_403_and_the_bot_falls_back(discord_harness):  # noqa: F811
    harness = await discord_harness(TinyBot(), rate_limits=True)
    no_threads = discord.Permissions(create_public_threads=True).value
    from tests.discord_harness.harness import DEFAULT_EVERYONE

    guild = harness.add_guild(
        "Strict", everyone_permissions=DEFAULT_EVERYONE & ~no_threads, bot_permissions=DEFAULT_EVERYONE & ~no_threads
    )
    channel = harness.add_text_channel(guild, "duels")
    alice = harness.add_member(guild, "alice")
    result = await harness.slash(alice, channel, "match")
    assert harness.bot.thread_log == ["forbidden:50013"] and result.content == "Started without a thread"
    assert harness.threads() == [] and harness.violations == []  # a server's permissions are a fact, not a bug
    failed = harness.requests_for("POST", "/channels/{channel_id}/messages/{message_id}/threads")[0]
    assert failed.status == 403 and "Create Public Threads" in failed.response["message"]
