"""Turn timers from the server's settings: a warning, the computer plays for an absent player, and after
repeated misses it stays on until the player sits down again with /skat join."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from skatbot.models import ServerSettings
from skatbot.storage import SqliteStorage
from tests.e2e.conftest import Club, StartBot
from tests.e2e.skat_helpers import control_id, open_table, public_texts, start_skatbot
from tests.e2e.skat_leaks import assert_no_public_leaks
from tests.e2e.skat_players import button_move, play_out
from tests.e2e.test_skatbot_play import open_against_ais


async def start_with_timers(club: Club, start_bot: StartBot, tmp_path: Path, turn_seconds: int,
                            warning_seconds: int) -> Path:
    """Start the bot on a database whose server has these turn timers; returns the database."""
    database = tmp_path / "skat.sqlite3"
    storage = await SqliteStorage.open(database)
    await storage.settings.save(settings=ServerSettings(club.guild.id, turn_seconds=turn_seconds,
                                                        warning_seconds=warning_seconds), now=datetime.now(UTC))
    await storage.close()
    await start_skatbot(club.fake, start_bot, str(database))
    return database


async def test_an_absent_player_is_warned_then_replaced_then_returns(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    # (four seconds a turn: carol, who plays, answers in time on a loaded machine too; three misses of hers would
    # close the table, no human being left at it)
    database = await start_with_timers(club, start_bot, tmp_path, turn_seconds=4, warning_seconds=1)
    carol = fake.add_user("carol")
    _, channel = await open_table(fake, alice, channel, deals=2)
    lobby = await fake.wait_for_message(channel, lambda m: "Skat table" in m.content)
    await (await fake.click(carol, lobby, control_id(lobby, "join"))).wait_acked()
    await (await fake.click(carol, lobby, control_id(lobby, "addai"))).wait_acked()
    await fake.wait_for(lambda: "AI 1" in lobby.content, 30, "the table full")
    await (await fake.click(carol, lobby, control_id(lobby, "start"))).wait_acked()
    rng = random.Random(9)

    def said(text: str) -> bool:
        return any(text in t for t in public_texts(fake, channel))

    async def carol_plays_on(done: Callable[[], bool]) -> None:
        # never passing, so the deals are played: alice's misses come in deal 1, or early in deal 2 where deal
        # 1 ended early, and the series is still on when she comes back (two deals thrown in could end it)
        await play_out(fake, [carol], done, lambda user, message: button_move(fake, user, message, rng,
                                                                              avoid=("pass",)))

    # alice does nothing: warned, replaced turn by turn, then for good; carol plays deal 1 out.
    await carol_plays_on(lambda: said("alice missed several turns"))
    assert said(f"⏰ <@{alice.id}>, 1 second left") and said("Time is up: the computer played for alice")
    await carol_plays_on(lambda: said("**Result of deal 1**"))
    back = await (await fake.slash(alice, channel, "skat", subcommand="join")).wait_message()
    assert back.content == "You sit at table #1."
    await play_out(fake, [alice, carol], lambda: said("The series is over"),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    assert_no_public_leaks(fake, [alice, carol], min_deals=2, database=database)
    fake.assert_clean(allow_rejections=False)


async def test_a_table_whose_only_player_is_gone_is_closed(club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, channel = club.fake, club.alice, club.channel
    await start_with_timers(club, start_bot, tmp_path, turn_seconds=1, warning_seconds=0)
    # at least one turn of hers per deal (the auction asks everyone), so her third miss comes before a
    # fourth deal ends, even when every deal is thrown in
    _, channel = await open_against_ais(fake, alice, club, deals=4)
    await fake.wait_for(lambda: any("The table was closed: no human player is left at it." in t for t in public_texts(fake, channel)),
                        60, "the empty table closed")
    assert "no table" in (await (await fake.slash(alice, channel, "skat", subcommand="hand")).wait_message()).content
    assert not any("seconds left" in t for t in public_texts(fake, channel)), "the warning was turned off"
    fake.assert_clean(allow_rejections=False)
