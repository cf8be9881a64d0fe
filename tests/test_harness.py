"""Self-tests for the offline Discord harness (tests/harness).

A tiny throwaway bot defined below exercises every harness feature through
discord.py's real code paths: login, gateway frames, app-command dispatch,
dynamic items, modals, webhooks, multipart uploads and error logging.
"""

from __future__ import annotations

import asyncio
import re
import struct
import zlib
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from harness import (
    Button,
    DiscordHarness,
    HarnessUsageError,
    SchemaError,
    TrappedErrors,
    UnsupportedRoute,
)

WORDS = ["alpha", "alpine", "beta", "gamma"]


def tiny_png(width: int = 2, height: int = 1) -> bytes:
    """A valid RGB PNG without needing Pillow."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"counter:(?P<count>\d+)"):
    """Persistent button: survives restarts because its state is in custom_id."""

    def __init__(self, count: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {count}", custom_id=f"counter:{count}",
                                           style=discord.ButtonStyle.primary))
        self.count = count

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: object) -> Counter:
        return cls(int(match["count"]))  # type: ignore[index]

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.count + 1))
        view.add_item(discord.ui.Button(label="Stop", custom_id="counter-stop", disabled=True))
        await interaction.response.edit_message(content=f"count={self.count + 1}", view=view)


class Feedback(discord.ui.Modal, title="Feedback"):
    text: discord.ui.TextInput = discord.ui.TextInput(
        label="Your feedback", custom_id="feedback:text", max_length=50)
    mood: discord.ui.TextInput = discord.ui.TextInput(
        label="Mood", custom_id="feedback:mood", required=False, default="ok")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"thanks {interaction.user.name}: {self.text.value} ({self.mood.value})", ephemeral=True)


class PickView(discord.ui.View):
    @discord.ui.select(custom_id="pick", min_values=1, max_values=2, options=[
        discord.SelectOption(label="Red", value="red"),
        discord.SelectOption(label="Blue", value="blue"),
        discord.SelectOption(label="Green", value="green"),
    ])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message("picked " + ",".join(select.values))


class Layout(discord.ui.LayoutView):
    """Components v2: text and a button nested in a container."""

    def __init__(self, text: str, *, done: bool = False) -> None:
        super().__init__(timeout=None)
        row: discord.ui.ActionRow[Layout] = discord.ui.ActionRow()
        button: discord.ui.Button[Layout] = discord.ui.Button(
            label="Next", custom_id="layout:next", disabled=done)
        button.callback = self.next  # type: ignore[method-assign]
        row.add_item(button)
        self.add_item(discord.ui.Container(discord.ui.TextDisplay(text), row))

    async def next(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(view=Layout("page 2", done=True))


def make_bot(*, sync_in_setup_hook: bool = False) -> commands.Bot:
    """The throwaway bot under test. Built fresh per test (no shared state)."""
    intents = discord.Intents.default()
    intents.members = True
    bot = commands.Bot(command_prefix="!", intents=intents)
    gate = asyncio.Event()
    bot.seen_errors = []  # type: ignore[attr-defined]

    ping = app_commands.Group(name="ping", description="Ping things")
    tools = app_commands.Group(name="tools", description="Tools", parent=ping)

    @ping.command(name="echo", description="Echo text back")
    @app_commands.describe(text="What to say", mode="How", times="Repeat count")
    @app_commands.choices(mode=[app_commands.Choice(name="Loud", value="loud"),
                                app_commands.Choice(name="Quiet", value="quiet")])
    async def echo(interaction: discord.Interaction, text: str, mode: str = "quiet",
                   times: app_commands.Range[int, 1, 3] = 1) -> None:
        out = " ".join([text.upper() if mode == "loud" else text] * times)
        await interaction.response.send_message(out)

    @echo.autocomplete("text")
    async def echo_text(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        mode = interaction.namespace.mode or "quiet"
        return [app_commands.Choice(name=f"{w} ({mode})", value=w)
                for w in WORDS if w.startswith(current)]

    @tools.command(name="counter", description="Post a counter button")
    async def counter(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(0))
        await interaction.response.send_message("count=0", view=view)

    @tools.command(name="pick", description="Post a select menu")
    async def pick(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick colours", view=PickView())

    @ping.command(name="secret", description="Ephemeral reply")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you", ephemeral=True)

    @ping.command(name="render", description="Deferred PNG")
    async def render(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0)
        await interaction.followup.send("board", file=discord.File(
            __import__("io").BytesIO(tiny_png(3, 2)), filename="board.png"))
        await interaction.followup.send("second")

    @ping.command(name="notify", description="DM someone")
    async def notify(interaction: discord.Interaction, user: discord.Member) -> None:
        try:
            await user.send(f"{interaction.user.name} pinged you")
        except discord.Forbidden as exc:
            bot.seen_errors.append(exc)  # type: ignore[attr-defined]
            await interaction.response.send_message(f"cannot DM {user.name}", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @ping.command(name="boom", description="Raises")
    async def boom(interaction: discord.Interaction) -> None:
        raise ZeroDivisionError("kaboom")

    @ping.command(name="twice", description="Responds twice (a bug)")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        try:
            await interaction.followup.send("two")
            # Bypass discord.py's own guard to hit Discord's 40060 check.
            interaction.response._response_type = None
            await interaction.response.send_message("again")
        except discord.HTTPException as exc:
            bot.seen_errors.append(exc)  # type: ignore[attr-defined]

    @ping.command(name="feedback", description="Open a modal")
    async def feedback(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Feedback())

    @ping.command(name="wait", description="Blocks until released")
    async def wait(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await gate.wait()
        await interaction.edit_original_response(content="released")

    @ping.command(name="release", description="Releases waiters")
    async def release(interaction: discord.Interaction) -> None:
        gate.set()
        await interaction.response.send_message("go")

    @app_commands.command(name="config", description="Managers only")
    @app_commands.default_permissions(manage_channels=True)
    @app_commands.guild_only()
    async def config(interaction: discord.Interaction, channel: discord.TextChannel,
                    flag: bool = False) -> None:
        await interaction.response.send_message(f"{channel.name} {flag}")

    @ping.command(name="layout", description="Components v2")
    async def layout(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=Layout("page 1"))

    @ping.command(name="silent", description="Forgets to respond")
    async def silent(interaction: discord.Interaction) -> None:
        await interaction.channel.send("side effect only")  # type: ignore[union-attr]

    @ping.command(name="temp", description="Self-destructing messages")
    async def temp(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("temp reply", delete_after=600)
        await interaction.channel.send("temp post", delete_after=600)  # type: ignore[union-attr]

    @ping.command(name="invite", description="Unsupported route")
    async def invite(interaction: discord.Interaction) -> None:
        await interaction.channel.create_invite()  # type: ignore[union-attr]

    bot.tree.add_command(ping)
    bot.tree.add_command(config)
    bot.add_dynamic_items(Counter)

    @bot.event
    async def setup_hook() -> None:
        if sync_in_setup_hook:
            await bot.tree.sync()

    return bot


@pytest.fixture
async def h() -> AsyncIterator[DiscordHarness]:
    async with DiscordHarness(bot_factory=make_bot) as harness:
        yield harness


# -- startup -------------------------------------------------------------------


async def test_login_ready_and_cache(h: DiscordHarness) -> None:
    assert [c.path for c in h.calls[:2]] == ["/users/@me", "/oauth2/applications/@me"]
    assert h.bot.is_ready()
    assert h.bot.user is not None and h.bot.user.id == h.world.bot_user_id
    guild = h.bot.get_guild(h.world.guild_id)
    assert guild is not None and not guild.unavailable
    assert {c.name for c in guild.text_channels} == {"general", "games", "random"}
    assert guild.me is not None
    identify = h.gateway_sent[0]
    assert identify["op"] == 2 and identify["d"]["intents"] == h.bot.intents.value


async def test_harness_syncs_when_bot_does_not(h: DiscordHarness) -> None:
    syncs = h.calls_to("PUT", "/applications/{application_id}/commands")
    assert len(syncs) == 1
    assert sorted(c["name"] for c in syncs[0].json) == ["config", "ping"]
    assert h.commands[0]["id"]


async def test_sync_in_setup_hook_is_captured() -> None:
    async with DiscordHarness(bot_factory=lambda: make_bot(sync_in_setup_hook=True)) as h:
        assert len(h.calls_to("PUT")) == 1  # harness did not sync a second time
        alice = h.add_user("alice")
        ix = await h.slash(alice, "general", "ping echo", text="hi")
        assert h.last_response(ix).content == "hi"


async def test_added_user_reaches_member_cache(h: DiscordHarness) -> None:
    bob = h.add_user("bob")
    await h.settle()
    guild = h.bot.get_guild(h.world.guild_id)
    assert guild is not None and guild.get_member(bob.id) is not None


# -- slash commands --------------------------------------------------------------


async def test_slash_with_choices_and_range(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    ix = await h.slash(alice, h.channel("general"), "ping echo", text="hey", mode="loud", times=2)
    response = h.last_response(ix)
    assert response.kind == "callback" and response.callback_type == 4
    assert response.content == "HEY HEY" and not response.ephemeral
    assert h.channel_messages("general")[-1].content == "HEY HEY"
    option = ix.payload["data"]["options"][0]
    assert option == {"type": 1, "name": "echo", "options": [
        {"type": 3, "name": "text", "value": "hey"},
        {"type": 3, "name": "mode", "value": "loud"},
        {"type": 4, "name": "times", "value": 2}]}


@pytest.mark.parametrize(("command", "values", "message"), [
    ("ping nope", {}, "no subcommand 'nope'"),
    ("ping", {}, "needs a subcommand"),
    ("pong", {}, "not a synced command"),
    ("ping echo", {"text": "x", "colour": "red"}, "no option(s) ['colour']"),
    ("ping echo", {"mode": "loud"}, "missing required option(s) ['text']"),
    ("ping echo", {"text": "x", "mode": "LOUD"}, "not one of the choices"),
    ("ping echo", {"text": "x", "times": 9}, "not within [1, 3]"),
    ("ping echo", {"text": "x", "times": "2"}, "expects integer"),
    ("ping echo", {"text": 5}, "expects str"),
])
async def test_schema_rejects_what_discord_would_not_send(
        h: DiscordHarness, command: str, values: dict[str, object], message: str) -> None:
    alice = h.add_user("alice")
    with pytest.raises(SchemaError, match=re.escape(message)):
        await h.slash(alice, "general", command, options=values)
    assert not h.world.interactions  # nothing reached the bot


async def test_nested_group_and_entity_options(h: DiscordHarness) -> None:
    boss = h.add_user("boss", manage_channel=True)
    ix = await h.slash(boss, "general", "config", channel=h.channel("games"), flag=True)
    assert h.last_response(ix).content == "games True"
    resolved = ix.payload["data"]["resolved"]["channels"]
    assert str(h.channel("games").id) in resolved


async def test_default_member_permissions_enforced(h: DiscordHarness) -> None:
    pleb = h.add_user("pleb")
    with pytest.raises(SchemaError, match="lacks default_member_permissions"):
        await h.slash(pleb, "general", "config", channel=h.channel("games"))


async def test_autocomplete_returns_bot_choices(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    choices = await h.autocomplete(alice, "general", "ping echo", focused="text", text="al",
                                   mode="loud")
    assert [(c.name, c.value) for c in choices] == [("alpha (loud)", "alpha"),
                                                    ("alpine (loud)", "alpine")]
    with pytest.raises(SchemaError, match="has no autocomplete"):
        await h.autocomplete(alice, "general", "ping echo", focused="mode")


# -- components & modals --------------------------------------------------------


async def test_dynamic_item_button_edits_message(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    ix = await h.slash(alice, "general", "ping tools counter")
    message = ix.original
    assert message is not None and message.button("Count 0").custom_id == "counter:0"

    click = await h.click(alice, message, "counter:0")
    assert click.response is not None and click.response.callback_type == 7
    assert message.content == "count=1"  # same message, edited in place
    assert [b.label for b in message.buttons] == ["Count 1", "Stop"]
    assert len(message.history) == 1
    await h.click(alice, message.id, "counter:1")
    assert message.content == "count=2"

    with pytest.raises(HarnessUsageError, match="disabled"):
        await h.click(alice, message, "counter-stop")
    with pytest.raises(KeyError, match="no component 'counter:0'"):
        await h.click(alice, message, "counter:0")  # stale button no longer rendered
    with pytest.raises(HarnessUsageError, match="not a message the bot sent"):
        await h.click(alice, 12345, "counter:2")


async def test_components_v2_layout(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    ix = await h.slash(alice, "general", "ping layout")
    message = ix.original
    assert message is not None and message.texts == ["page 1"] and message.content == ""
    await h.click(alice, message, "layout:next")
    assert message.texts == ["page 2"] and message.button("Next").disabled


async def test_select_menu(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    ix = await h.slash(alice, "general", "ping tools pick")
    assert ix.original is not None
    sel = await h.select(alice, ix.original, "pick", ["blue", "red"])
    assert h.last_response(sel).content == "picked blue,red"
    with pytest.raises(HarnessUsageError, match="not among options"):
        await h.select(alice, ix.original, "pick", ["pink"])
    with pytest.raises(HarnessUsageError, match="takes 1..2 values"):
        await h.select(alice, ix.original, "pick", ["red", "blue", "green"])


async def test_modal_roundtrip(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    ix = await h.slash(alice, "general", "ping feedback")
    modal = h.last_response(ix).modal
    assert modal is not None and modal.title == "Feedback"
    assert [f.label for f in modal.fields] == ["Your feedback", "Mood"]

    with pytest.raises(HarnessUsageError, match="no field"):
        await h.submit_modal(alice, modal.custom_id, {"nope": "x"})
    with pytest.raises(HarnessUsageError, match="required"):
        await h.submit_modal(alice, modal.custom_id, {})
    sub = await h.submit_modal(alice, modal.custom_id, {"feedback:text": "great"})
    reply = h.last_response(sub)
    assert reply.content == "thanks alice: great (ok)" and reply.ephemeral
    with pytest.raises(HarnessUsageError, match="no modal"):
        await h.submit_modal(alice, modal.custom_id, {"feedback:text": "again"})


# -- responses -------------------------------------------------------------------


async def test_ephemeral_reply_is_hidden_from_channel(h: DiscordHarness) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    ix = await h.slash(alice, "general", "ping secret")
    assert h.last_response(ix).ephemeral
    assert h.channel_messages("general") == []
    assert [m.content for m in h.channel_messages("general", include_ephemeral=True)] == ["only you"]
    assert ix.original is not None
    with pytest.raises(HarnessUsageError, match="cannot see ephemeral"):
        await h.click(bob, ix.original, "anything")


async def test_deferred_response_then_followup_with_png(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    ix = await h.slash(alice, "games", "ping render")
    kinds = [(r.kind, r.callback_type) for r in h.responses_to(ix)]
    assert kinds == [("callback", 5), ("followup", None), ("followup", None)]
    first = h.responses_to(ix)[1]
    assert first.content == "board"
    assert first.filenames == ["board.png"]
    name, data = first.files[0]
    assert data.startswith(b"\x89PNG") and data == tiny_png(3, 2)
    # The first followup fills the "thinking..." message; the second is new.
    original = ix.original
    assert original is not None and not original.loading
    assert original.content == "board" and original.files == [("board.png", data)]
    assert original.payload["attachments"][0]["width"] == 3
    assert [m.content for m in h.channel_messages("games")] == ["board", "second"]
    upload = h.calls_to("POST", "/webhooks/{webhook_id}/{webhook_token}")[0]
    assert upload.files == [("board.png", data)] and upload.json["attachments"][0]["id"] == 0


async def test_dm_to_user_with_closed_dms(h: DiscordHarness) -> None:
    alice, bob, carol = h.add_user("alice"), h.add_user("bob"), h.add_user("carol")
    h.close_dms(bob)
    ix = await h.slash(alice, "general", "ping notify", user=bob)
    assert h.last_response(ix).content == "cannot DM bob"
    (err,) = h.bot.seen_errors  # type: ignore[attr-defined]
    assert isinstance(err, discord.Forbidden) and err.code == 50007 and err.status == 403
    assert h.dms_to(bob) == []
    dm_calls = h.calls_to("POST", "/users/@me/channels")
    assert dm_calls[0].json == {"recipient_id": bob.id}

    ix = await h.slash(alice, "general", "ping notify", user=carol)
    assert h.last_response(ix).content == "sent"
    assert [m.content for m in h.dms_to(carol)] == ["alice pinged you"]


async def test_second_initial_response_gets_40060(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    ix = await h.slash(alice, "general", "ping twice")
    (err,) = h.bot.seen_errors  # type: ignore[attr-defined]
    assert isinstance(err, discord.HTTPException) and err.code == 40060 and err.status == 400
    assert [r.content for r in h.responses_to(ix)] == ["one", "two"]


async def test_expired_interaction_gets_404(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    ix = await h.slash(alice, "general", "ping echo", text="hi")
    h.expire(ix)
    webhook = discord.Webhook.partial(h.world.application_id, ix.token, client=h.bot)
    with pytest.raises(discord.NotFound) as info:
        await webhook.edit_message(ix.original_message_id, content="late")  # type: ignore[arg-type]
    assert info.value.code == 10015


# -- errors & concurrency --------------------------------------------------------


async def test_handler_exception_fails_the_test(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    with pytest.raises(TrappedErrors) as info:
        await h.slash(alice, "general", "ping boom")
    assert "ZeroDivisionError: kaboom" in str(info.value)
    assert info.value.errors[0].source == "log:discord.app_commands.tree"
    h.assert_no_errors()  # raising consumed them


async def test_unsettled_error_fails_at_teardown() -> None:
    with pytest.raises(TrappedErrors, match="kaboom"):
        async with DiscordHarness(bot_factory=make_bot) as h:
            alice = h.add_user("alice")
            await h.slash(alice, "general", "ping boom", settle=False)


async def test_failing_body_gets_trapped_errors_as_note() -> None:
    with pytest.raises(AssertionError, match="test body failed") as info:
        async with DiscordHarness(bot_factory=make_bot) as h:
            alice = h.add_user("alice")
            await h.slash(alice, "general", "ping boom", settle=False)
            raise AssertionError("test body failed")
    assert "ZeroDivisionError: kaboom" in "\n".join(info.value.__notes__)


async def test_expect_errors_collects_instead_of_failing(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    with h.expect_errors() as errors:
        await h.slash(alice, "general", "ping boom")
    assert isinstance(errors[0].original, ZeroDivisionError)
    assert "never acknowledged" in errors[1].message  # the crash also left the user hanging
    assert len(errors) == 2


async def test_unacknowledged_interaction_fails(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    with pytest.raises(TrappedErrors, match="'/ping silent', type 2\\) by alice was never acknowledged"):
        await h.slash(alice, "general", "ping silent")
    ix = await h.slash(alice, "general", "ping tools pick")
    assert ix.original is not None
    # Forget all views, like a restart that does not re-register them.
    h.bot._connection._view_store._views.clear()
    with pytest.raises(TrappedErrors, match="'pick', type 3\\).*never acknowledged"):
        await h.select(alice, ix.original, "pick", ["red"])


async def test_unsupported_route_is_loud(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    with pytest.raises(TrappedErrors) as info:
        await h.slash(alice, "general", "ping invite")
    assert any(isinstance(e.exception, UnsupportedRoute) for e in info.value.errors)


async def test_two_concurrent_interactions(h: DiscordHarness) -> None:
    alice, bob = h.add_user("alice"), h.add_user("bob")
    waiting, releasing = await asyncio.gather(
        h.slash(alice, "general", "ping wait"),
        h.slash(bob, "general", "ping release"),
    )
    assert h.last_response(releasing).content == "go"
    assert [r.kind for r in h.responses_to(waiting)] == ["callback", "edit"]
    assert waiting.original is not None and waiting.original.content == "released"


async def test_delete_after_sleepers_do_not_block_settle(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    await h.slash(alice, "general", "ping temp", settle=False)
    await h.settle(timeout=60.0)  # far below the deleters' 600 s sleep
    assert [m.content for m in h.channel_messages("general")] == ["temp reply", "temp post"]


async def test_removed_user(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    h.remove_user(alice)
    await h.settle()
    guild = h.bot.get_guild(h.world.guild_id)
    assert guild is not None and guild.get_member(alice.id) is None
    with pytest.raises(HarnessUsageError, match="not a member"):
        await h.slash(alice, "general", "ping echo", text="x")


async def test_fire_and_settle(h: DiscordHarness) -> None:
    alice = h.add_user("alice")
    first = await h.slash(alice, "general", "ping wait", settle=False)
    await h.slash(alice, "general", "ping release", settle=False)
    await h.settle()
    assert first.original is not None and first.original.content == "released"


async def test_no_network_outside_harness() -> None:
    bot = make_bot()
    with pytest.raises(RuntimeError, match="network blocked"):
        async with DiscordHarness(bot_factory=make_bot):
            await bot.http.request(discord.http.Route("GET", "/users/@me"))
    await bot.close()


async def test_prefix_message_dispatch(h: DiscordHarness) -> None:
    seen: list[str] = []

    @h.bot.listen("on_message")
    async def record(message: discord.Message) -> None:
        seen.append(f"{message.author.name}:{message.channel.name}")  # type: ignore[union-attr]

    alice = h.add_user("alice")
    await h.say(alice, "random", "hello")
    assert seen == ["alice:random"]


def test_button_model_is_plain_data() -> None:
    assert Button("x", "X", 1, False) == Button("x", "X", 1, False)


# -- a second, plain discord.Client bot with guild-scoped commands ----------------

GUILD_ID = 111122223333444455


class Rename(discord.ui.Modal, title="Rename"):
    name: discord.ui.TextInput = discord.ui.TextInput(label="New name", custom_id="rename:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"renamed to {self.name.value}", view=None)


class BoardView(discord.ui.View):
    @discord.ui.button(label="Rename", custom_id="board:rename")
    async def rename(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(Rename())


def make_client() -> discord.Client:
    """A ``discord.Client`` + ``CommandTree`` bot that syncs to one guild itself."""
    client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)
    guild = discord.Object(id=GUILD_ID)

    @tree.command(name="post", description="Post a board to a channel", guild=guild)
    async def post(interaction: discord.Interaction, channel: discord.TextChannel,
                   image: discord.Attachment | None = None) -> None:
        files = [await image.to_file()] if image else []
        message = await channel.send("board v1", view=BoardView(), files=files)
        await message.edit(content="board v2")
        await interaction.response.send_message("posted", ephemeral=True)
        original = await interaction.original_response()
        await original.edit(content="posted!")

    @tree.command(name="solo", description="DM-friendly command")
    async def solo(interaction: discord.Interaction, level: app_commands.Range[float, 0, 1] = 0.5) -> None:
        where = "dm" if interaction.guild is None else interaction.guild.name
        await interaction.response.send_message(f"{where} {level}")
        await interaction.delete_original_response()

    @tree.context_menu(name="Greet", guild=guild)
    async def greet(interaction: discord.Interaction, member: discord.Member) -> None:
        await interaction.response.send_message(f"hello {member.name}")

    @tree.context_menu(name="Quote", guild=guild)
    async def quote(interaction: discord.Interaction, message: discord.Message) -> None:
        await interaction.response.send_message(f"> {message.content}")

    async def setup_hook() -> None:
        await tree.sync(guild=guild)
        await tree.sync()

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    return client


@pytest.fixture
async def hc() -> AsyncIterator[DiscordHarness]:
    async with DiscordHarness(bot_factory=make_client, guild_id=GUILD_ID) as harness:
        yield harness


async def test_client_bot_guild_sync_rest_send_and_edit(hc: DiscordHarness) -> None:
    assert {c.params.get("guild_id") for c in hc.calls_to("PUT")} == {GUILD_ID, None}
    alice = hc.add_user("alice")
    png = tiny_png()
    ix = await hc.slash(alice, "general", "post", channel=hc.channel("games"), image=("in.png", png))
    (board,) = hc.channel_messages("games")
    assert board.content == "board v2" and board.history[0]["content"] == "board v1"
    assert board.files == [("in.png", png)]  # attachment downloaded via the fake CDN, re-uploaded
    assert board.button("Rename").custom_id == "board:rename"
    assert [r.kind for r in hc.responses_to(ix)] == ["callback", "edit"]
    assert hc.last_response(ix).content == "posted!" and hc.last_response(ix).ephemeral

    click = await hc.click(alice, board, "board:rename")
    assert hc.last_response(click).modal is not None
    modal = hc.last_response(click).modal
    assert modal is not None and modal.title == "Rename"
    await hc.submit_modal(alice, modal.custom_id, {"rename:name": "finals"})
    assert board.content == "renamed to finals" and board.components == []


async def test_guild_mismatch_hint() -> None:
    async with DiscordHarness(bot_factory=make_client) as h:  # guild_id not pinned
        with pytest.raises(SchemaError, match=f"pass guild_id={GUILD_ID}"):
            await h.slash(h.add_user("alice"), "general", "post", channel=h.channel("games"))


async def test_context_menus(hc: DiscordHarness) -> None:
    alice, bob = hc.add_user("alice"), hc.add_user("bob")
    ix = await hc.context_menu(alice, "general", "Greet", bob)
    assert hc.last_response(ix).content == "hello bob"
    quoted = await hc.context_menu(alice, "general", "Quote", hc.last_response(ix).message)
    assert hc.last_response(quoted).content == "> hello bob"
    with pytest.raises(SchemaError, match="message command Nope"):
        await hc.context_menu(alice, "general", "Nope", hc.messages[0])


async def test_dm_slash_and_delete_original(hc: DiscordHarness) -> None:
    alice = hc.add_user("alice")
    ix = await hc.slash(alice, hc.dm(alice), "solo", level=0.25)
    assert [r.kind for r in hc.responses_to(ix)] == ["callback", "delete"]
    assert hc.responses_to(ix)[0].content == "dm 0.25"
    assert hc.dms_to(alice) == []  # deleted
    assert ix.payload["context"] == 1 and "user" in ix.payload and "member" not in ix.payload
    with pytest.raises(SchemaError, match="not a synced command"):
        await hc.slash(alice, hc.dm(alice), "post", channel=hc.channel("games"))
    with pytest.raises(HarnessUsageError, match="another user's DM"):
        await hc.slash(hc.add_user("bob"), hc.dm(alice), "solo")


async def test_users_added_before_start_are_in_guild_create() -> None:
    h = DiscordHarness(bot_factory=make_bot)
    alice = h.add_user("alice", 4242, manage_channel=True)
    async with h:
        guild = h.bot.get_guild(h.world.guild_id)
        assert guild is not None
        member = guild.get_member(alice.id)
        assert member is not None and member.guild_permissions.manage_channels
        role = h.add_role("Player", permissions=discord.Permissions(manage_threads=True))
        h.give_role(alice, role)
        await h.settle()
        assert guild.get_role(role.id) in member.roles


async def test_message_content_intent_is_respected(hc: DiscordHarness) -> None:
    seen: list[tuple[str, bool]] = []

    @hc.bot.event
    async def on_message(message: discord.Message) -> None:
        assert hc.bot.user is not None
        seen.append((message.content, hc.bot.user.mentioned_in(message)))

    alice = hc.add_user("alice")
    await hc.say(alice, "general", "secret words")
    await hc.say(alice, "general", f"<@{hc.world.bot_user_id}> hi")
    assert seen == [("", False), (f"<@{hc.world.bot_user_id}> hi", True)]


async def test_startup_errors_fail_fast() -> None:
    def broken() -> commands.Bot:
        bot = make_bot()

        @bot.event
        async def on_ready() -> None:
            raise RuntimeError("on_ready exploded")

        return bot

    with pytest.raises(TrappedErrors, match="on_ready exploded"):
        async with DiscordHarness(bot_factory=broken):
            pass  # pragma: no cover
