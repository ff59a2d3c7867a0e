"""Metrics and health while a table plays: /metrics in Prometheus text (prometheus-client's parser reads it)
and /healthz, scraped from the running bot process, move as the deal goes on."""

from __future__ import annotations

import random
import re
import socket
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.conftest import Club, StartBot
from tests.e2e.skat_helpers import public_texts, start_skatbot
from tests.e2e.skat_players import button_move, play_out
from tests.e2e.test_skatbot_play import open_against_ais


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def scrape(http: aiohttp.ClientSession, port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics: (name, sorted labels) -> value."""
    async with http.get(f"http://127.0.0.1:{port}/metrics") as response:
        assert response.status == 200 and response.headers["Content-Type"].startswith("text/plain")
        text = await response.text()
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


README = Path(__file__).resolve().parents[2] / "README.md"


def documented_metrics() -> dict[str, str]:
    """The README's table under "Metrics and health": each metric's family name (as prometheus-client's parser
    names it: a counter without `_total`) -> its type."""
    section = README.read_text().split("## Metrics and health", 1)[1].split("\n## ", 1)[0]
    documented: dict[str, str] = {}
    for row in re.findall(r"^\| (`skatbot_.*?) \| (\w+) \|", section, re.MULTILINE):
        names, kind = row
        for name in re.findall(r"`(skatbot_\w+)", names):
            kind = kind.removesuffix("s")  # "counters": one type for the metrics of a row
            documented[name.removesuffix("_total") if kind == "counter" else name] = kind
    return documented


async def exported_metrics(http: aiohttp.ClientSession, port: int) -> dict[str, str]:
    """Every metric family /metrics exports (with or without samples yet) -> its type."""
    async with http.get(f"http://127.0.0.1:{port}/metrics") as response:
        return {family.name: family.type for family in text_string_to_metric_families(await response.text())}


def total(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return sum(value for (sample, have), value in samples.items()
               if sample == name and all((k, v) in have for k, v in labels.items()))


async def test_metrics_and_health_are_scraped_while_a_table_plays(club: Club, start_bot: StartBot,
                                                                 tmp_path: Path) -> None:
    fake, alice = club.fake, club.alice
    port = free_port()
    proc = await start_skatbot(fake, start_bot, str(tmp_path / "skat.sqlite3"), SKATBOT_METRICS_PORT=str(port))
    await proc.wait_for_output("logged in as")  # ready: the gateway is connected
    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
            assert response.status == 200 and await response.json() == {"gateway": True, "database": True}
        before = await scrape(http, port)
        assert total(before, "skatbot_tables_open") == 0
        assert total(before, "skatbot_shard_connected", shard="0") == 1

        refused = await fake.slash(alice, club.channel, "skat", subcommand="start")  # no table here yet
        await refused.wait_message()
        _, channel = await open_against_ais(fake, alice, club, deals=1)
        rng = random.Random(4)
        playing = await scrape(http, port)
        assert total(playing, "skatbot_tables_open") == 1
        await play_out(fake, [alice], lambda: any("Result of deal 1" in text for text in public_texts(fake, channel)),
                       lambda user, message: button_move(fake, user, message, rng, avoid=("pass",)))
        after = await scrape(http, port)
        async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
            assert response.status == 200
        exported = await exported_metrics(http, port)
    documented = documented_metrics()
    assert len(documented) == 11, documented  # the README's table, read whole
    assert {name: exported.get(name) for name in documented} == documented  # each exported, of its type
    assert set(exported) == set(documented), "a metric the README does not document is exported"

    assert total(after, "skatbot_deals_finished_total") == 1
    commands, clicks = (total(after, "skatbot_interactions_total", kind=kind)
                        for kind in ("application_command", "component"))
    assert commands >= 2 and clicks >= 3  # /skat start, /skat new; two Add AI, Start and alice's moves
    acknowledged = total(after, "skatbot_interaction_ack_seconds_count")
    assert acknowledged >= commands + clicks - 1  # each answered once (an autocomplete would count too)
    assert total(after, "skatbot_interaction_ack_seconds_bucket", le="3.0") == acknowledged  # within Discord's 3 s
    assert total(after, "skatbot_refusals_total") == 1
    assert total(after, "skatbot_store_append_seconds_count") > total(playing, "skatbot_store_append_seconds_count")
    assert total(after, "skatbot_ai_decision_seconds_count") >= 2  # both AIs bid or played
    assert total(after, "skatbot_gateway_latency_seconds", shard="0") >= 0
    assert ("skatbot_rate_limit_waits_total", ()) not in after or total(after, "skatbot_rate_limit_waits_total") >= 0
