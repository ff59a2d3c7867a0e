"""skatbot.health and skatbot.healthcheck without Discord: /healthz says what is down with 503, the container's
check exits 1 then, discord.py's 429 warnings are counted as rate-limit waits, and refusals get their key."""

from __future__ import annotations

import asyncio
import logging
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
from prometheus_client import CollectorRegistry

from skatbot import healthcheck
from skatbot.health import HealthServer, RetryAfterCounter, rate_limit_trace
from skatbot.metrics import Metrics, refusal_kind
from skatbot.models import StoreBusy
from skatbot.storage import SqliteStorage, Storage


@dataclass
class StandIn:
    """A bot as skatbot.health reads it: no shards connected, a database or none."""

    storage: Storage | None = None
    shards: dict[int, discord.ShardInfo] = field(default_factory=dict)
    open_tables: int = 2

    def is_ready(self) -> bool:
        return True

    def is_closed(self) -> bool:
        return False

    @property
    def metrics_storage(self) -> Storage | None:
        return self.storage


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_healthz_is_503_and_says_what_is_down(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import aiohttp

    storage = await SqliteStorage.open(tmp_path / "skat.sqlite3")
    port = free_port()
    server = HealthServer(StandIn(storage), Metrics(CollectorRegistry()))
    await server.start("127.0.0.1", port)
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                assert response.status == 503
                assert await response.json() == {"gateway": False, "database": True}
            await storage.close()
            async with http.get(f"http://127.0.0.1:{port}/healthz") as response:
                assert await response.json() == {"gateway": False, "database": False}
            async with http.get(f"http://127.0.0.1:{port}/metrics") as response:
                assert "skatbot_tables_open 2.0" in await response.text()
        # (in a thread: the server answers on this test's loop, which a call made here would block)
        capsys.readouterr()
        assert await asyncio.to_thread(healthcheck.main, {"SKATBOT_METRICS_PORT": str(port)}) == 1
        assert 'unhealthy: {"gateway": false, "database": false}' in capsys.readouterr().err
    finally:
        await server.stop()
    assert healthcheck.main({"SKATBOT_METRICS_PORT": str(port)}) == 1  # nobody answers
    assert f"no answer at http://127.0.0.1:{port}/healthz" in capsys.readouterr().err
    assert healthcheck.main({}) == 1


async def test_the_health_check_asks_where_the_bot_listens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Outside Docker too: the port and host from .env as the bot reads them, the host the bot is bound to."""
    port = free_port()
    server = HealthServer(StandIn(), Metrics(CollectorRegistry()))
    await server.start("127.0.0.2", port)  # one loopback address, not 127.0.0.1
    try:
        monkeypatch.chdir(tmp_path)
        for name in ("SKATBOT_METRICS_PORT", "SKATBOT_METRICS_HOST"):
            monkeypatch.delenv(name, raising=False)
        (tmp_path / ".env").write_text(f"SKATBOT_METRICS_PORT={port}\nSKATBOT_METRICS_HOST=127.0.0.2\n")
        assert await asyncio.to_thread(healthcheck.main) == 1  # it reached the bot, which is not connected
        assert 'unhealthy: {"gateway": false, "database": false}' in capsys.readouterr().err
    finally:
        await server.stop()
    assert healthcheck.healthz_url({"SKATBOT_METRICS_PORT": "9100", "SKATBOT_METRICS_HOST": "0.0.0.0"}) == \
        "http://127.0.0.1:9100/healthz"  # the image's: every interface, asked on loopback
    assert healthcheck.healthz_url({"SKATBOT_METRICS_PORT": "9100", "SKATBOT_METRICS_HOST": "::1"}) == \
        "http://[::1]:9100/healthz"


async def test_a_taken_port_is_an_oserror_and_leaves_nothing_registered() -> None:
    metrics = Metrics(CollectorRegistry())
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        server = HealthServer(StandIn(), metrics)
        with pytest.raises(OSError):
            await server.start("127.0.0.1", int(taken.getsockname()[1]))
    assert metrics.registry.get_sample_value("skatbot_tables_open") is None


def test_discord_429_warnings_count_as_rate_limit_waits() -> None:
    metrics = Metrics(CollectorRegistry())
    logger = logging.getLogger("test.discord.http")
    logger.addHandler(RetryAfterCounter(metrics))
    logger.warning("We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds.", "POST", "/x", 1.5)
    logger.warning("Global rate limit has been hit. Retrying in %.2f seconds.", 1.5)  # the same wait, said again
    sample = metrics.registry.get_sample_value
    assert sample("skatbot_rate_limit_waits_total", {"reason": "429"}) == 1
    assert sample("skatbot_rate_limit_wait_seconds_total", {"reason": "429"}) == 1.5


async def test_a_response_that_uses_up_its_bucket_counts_as_a_wait_through_the_http_trace() -> None:
    import aiohttp
    from aiohttp import web

    async def answer(request: web.Request) -> web.Response:  # as Discord answers: the bucket's state in headers
        left = request.query["left"]
        return web.json_response({}, status=int(request.query.get("status", "200")), headers={
            "X-RateLimit-Limit": "5", "X-RateLimit-Remaining": left, "X-RateLimit-Reset-After": "2.500"})

    app = web.Application()
    app.router.add_get("/x", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    metrics = Metrics(CollectorRegistry())
    try:
        async with aiohttp.ClientSession(trace_configs=[rate_limit_trace(metrics)]) as http:
            for query in ("left=3", "left=0", "left=0&status=429", "left=1"):
                async with http.get(f"http://127.0.0.1:{port}/x?{query}") as response:
                    await response.read()
    finally:
        await runner.cleanup()
    sample = metrics.registry.get_sample_value
    assert sample("skatbot_rate_limit_waits_total", {"reason": "bucket"}) == 1  # the 429 is the log's to count
    assert sample("skatbot_rate_limit_wait_seconds_total", {"reason": "bucket"}) == 2.5


def test_refusals_are_labelled_by_their_reason() -> None:
    refusal: Any = StoreBusy()
    assert refusal_kind(refusal, said=True) == "store_busy"
    assert refusal_kind(ValueError("x"), said=True) == "ValueError"
    assert refusal_kind(RuntimeError("boom"), said=False) == "unexpected"
