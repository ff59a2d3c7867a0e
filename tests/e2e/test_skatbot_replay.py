"""Replays through Discord: the result card's 🎞 Replay opens a replay only the reader sees, ◀ ▶ step through
the auction, every trick with every hand open and the result; a deal still in play is refused kindly."""

from __future__ import annotations

import random
from pathlib import Path

from tests.e2e.conftest import Club, StartBot
from tests.e2e.fakediscord import FakeDiscord, Message, User
from tests.e2e.skat_helpers import public_texts, start_skatbot
from tests.e2e.skat_players import button_move, play_out
from tests.e2e.test_skatbot_play import open_against_ais


def next_id(message: Message) -> str | None:
    """The ▶ button's custom id while it is enabled."""
    buttons = [c for c in message.buttons() if str(c["custom_id"]).startswith("rps:")]
    forward = buttons[-1]
    return None if forward.get("disabled") else str(forward["custom_id"])


async def step_through(fake: FakeDiscord, user: User, replay: Message) -> list[str]:
    """Press ▶ until it is disabled; the text of every step on the way."""
    texts = [replay.content]
    while (forward := next_id(replay)) is not None:
        before = len(replay.history)
        await (await fake.click(user, replay, forward)).wait_acked()

        def stepped(before: int = before) -> bool:
            return len(replay.history) > before

        await fake.wait_for(stepped, 30, "the next step")
        texts.append(replay.content)
        assert replay.attachments and replay.attachments[0].filename.startswith("replay-"), "each step's picture"
    return texts


async def test_a_finished_deal_replays_trick_by_trick_and_one_in_play_is_refused(
        club: Club, start_bot: StartBot, tmp_path: Path) -> None:
    fake, alice, bob = club.fake, club.alice, club.bob
    await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"))
    _, channel = await open_against_ais(fake, alice, club, deals=2)
    rng = random.Random(4)
    await play_out(fake, [alice], lambda: any("Result of deal 1" in text for text in public_texts(fake, channel)),
                   lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
    result = next(m for m in fake.messages(channel) if m.content.startswith("**Result of deal 1**"))
    button = next(c for c in result.buttons() if str(c["custom_id"]).startswith("rpt:"))
    assert button["label"] == "Replay"

    # Bob did not play: a finished deal is public on its server; the replay is his alone.
    replay = await (await fake.click(bob, result, str(button["custom_id"]))).wait_message(timeout=30)
    assert replay.visibility == "ephemeral" and replay.viewer_id == bob.id
    assert replay.content.startswith("🎞 **Replay of deal #1** · step 1 of ")
    assert "Auction:" in replay.content and replay.attachments
    steps = int(replay.content.splitlines()[0].rsplit(" ", 1)[1])
    texts = await step_through(fake, bob, replay)
    assert len(texts) == steps
    tricks = steps - 2
    assert tricks >= 1, "a deal with tricks to step through"
    for index in range(1, tricks + 1):  # each trick in turn, with the card points so far
        assert texts[index].splitlines()[1].startswith(f"{index}. ") and "Card points in tricks so far" in texts[index]
    assert any(word in texts[-1] for word in ("won", "lost", "overbid")) and "Skat:" in texts[-1]

    # The buttons carry the deal and the step: after a restart ◀ still steps back.
    proc = start_bot.procs[-1]
    await proc.kill()
    await proc.start()
    await proc.wait_connected(commands=("skat",))
    back = next(str(c["custom_id"]) for c in replay.buttons() if str(c["custom_id"]).startswith("rps:"))
    before = len(replay.history)
    await (await fake.click(bob, replay, back)).wait_acked()
    await fake.wait_for(lambda: replay.content if len(replay.history) > before else None, 30, "the step back")
    assert replay.content == texts[-2]

    # The same replay by its number, for alice; deal 2 is still being played: refused, kindly.
    by_command = await (await fake.slash(alice, channel, "skat", group="scores", subcommand="replay",
                                         options={"deal": 1})).wait_message()
    assert by_command.visibility == "ephemeral" and by_command.content == texts[0]
    in_play = await (await fake.slash(alice, channel, "skat", group="scores", subcommand="replay",
                                      options={"deal": 2})).wait_message()
    assert in_play.visibility == "ephemeral"
    assert in_play.content.startswith("There is no finished deal #2 on this server. Only finished deals can be "
                                      "replayed: a deal still in play opens once it is over.")
    assert not any("Result of deal 2" in text for text in public_texts(fake, channel))
    fake.assert_clean(allow_rejections=False)
