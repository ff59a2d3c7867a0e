"""The numbers players read on Discord agree with the list: history at the written score (Kontra and Re
included), and every deal the history lists can be downloaded (ISS where the format holds it, else JSON)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from skatbot.engine import RuleSet
from skatbot.engine.records import deal_from_json
from tests.e2e.conftest import Club, StartBot
from tests.e2e.server_helpers import run, seed_series
from tests.e2e.skat_helpers import start_skatbot


async def test_kontra_and_ramsch_deals_are_listed_at_their_score_and_downloadable(club: Club, start_bot: StartBot,
                                                                                  tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    path = tmp_path / "skat.sqlite3"
    players = [(alice.id, "alice", False), (club.bob.id, "bob", False), (-7, "AI Robin", True)]
    await seed_series(path, guild_id=club.guild.id, tables=[players], deals=6, seed=1, rules=RuleSet.preset("pub"),
                      kontra=True)
    with sqlite3.connect(path) as db:
        kinds = db.execute("SELECT d.deal_id, d.game, d.kontra, r.iss = '' FROM deals d JOIN deal_records r ON r.deal_id = d.deal_id ORDER BY d.deal_id").fetchall()
        written = dict(db.execute("SELECT deal_id, score FROM deal_scores WHERE role = 'declarer'").fetchall())
    assert any(game == "ramsch" for _, game, _, _ in kinds) and any(k for _, _, k, _ in kinds), kinds
    await start_skatbot(fake, start_bot, str(path))

    history = await run(fake, alice, club.channel, "history", group="scores")
    lines = [line for line in history.content.splitlines() if line.startswith("#")]
    assert len(lines) == 6
    for line in lines:
        deal_id = int(line.split()[0][1:])
        if deal_id in written:  # a declared game: the score in brackets is what the list wrote
            shown = re.findall(r"\(([+−]?[\d,]+)\)$", line)[0].replace("−", "-").replace(",", "")
            assert int(shown) == written[deal_id], line
        record = await run(fake, alice, club.channel, "record", group="scores", deal=deal_id)
        assert "There is no deal" not in record.content and f"Deal #{deal_id}" in record.content, record.content
        (attachment,) = record.attachments
        game, kontra, no_iss = next((g, k, n) for d, g, k, n in kinds if d == deal_id)
        if no_iss:
            assert attachment.filename == f"skat-deal-{deal_id}.json" and "as JSON" in record.content
            replayed = deal_from_json(json.loads(attachment.data)).result.game  # it replays
            assert replayed is not None and replayed.value == game
        else:
            assert attachment.filename == f"skat-deal-{deal_id}.sgf" and attachment.data.startswith(b"(;GM[Skat]")
    assert any(no_iss and kontra for _, _, kontra, no_iss in kinds)
    fake.assert_clean()
