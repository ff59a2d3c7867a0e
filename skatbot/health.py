"""Metrics and health over HTTP, from the bot process (opt-in: SKATBOT_METRICS_PORT).

An aiohttp server on the bot's own event loop (handlers only read counters and run one short query, so they
never hold the loop up) serves
- `/metrics`: Prometheus text: skatbot.metrics' counters, and what is read off the bot at each scrape
  (tables open, gateway latency and state per shard);
- `/healthz`: 200 when every shard of this process is connected to the gateway and the database answers,
  else 503; the body says which (`{"gateway": true, "database": false}`). The Docker HEALTHCHECK and
  compose ask it through `python -m skatbot.healthcheck`.

`instrument_discord` adds the hooks discord.py offers no event for: each interaction's acknowledgement time
(around InteractionResponse's answering methods) and a 429's wait (as discord.py logs it, a logging.Handler).
`rate_limit_trace` is the client's public `http_trace` (an aiohttp TraceConfig): a response that used up its
bucket (X-RateLimit-Remaining 0) is a wait, as long as Discord said (X-RateLimit-Reset-After).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
from collections.abc import Callable, Coroutine, Iterator
from datetime import UTC, datetime
from typing import Any, Protocol

import aiohttp
import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from skatbot.metrics import METRICS, Metrics
from skatbot.storage import Storage

log = logging.getLogger(__name__)

DATABASE_TIMEOUT = 3.0
"""/healthz waits this long for the database's answer (the Docker health check's own timeout is 5 s)."""

ANSWERING = ("defer", "send_message", "edit_message", "send_modal", "autocomplete")
"""InteractionResponse's methods that acknowledge an interaction."""


class Served(Protocol):
    """What the health server reads off the bot (SkatBot has it; a test may pass a stand-in)."""

    @property
    def shards(self) -> dict[int, discord.ShardInfo]: ...

    def is_ready(self) -> bool: ...

    def is_closed(self) -> bool: ...

    @property
    def metrics_storage(self) -> Storage | None: ...

    @property
    def open_tables(self) -> int: ...


class BotCollector(Collector):
    """Figures read off the bot at scrape time."""

    def __init__(self, bot: Served) -> None:
        self.bot = bot

    def collect(self) -> Iterator[GaugeMetricFamily]:
        tables = GaugeMetricFamily("skatbot_tables_open", "Tables this process holds in memory (open or playing)")
        tables.add_metric([], self.bot.open_tables)
        yield tables
        latency = GaugeMetricFamily("skatbot_gateway_latency_seconds",
                                    "Time between a gateway heartbeat and its acknowledgement, per shard", labels=["shard"])
        connected = GaugeMetricFamily("skatbot_shard_connected", "1 while the shard's gateway connection is open",
                                      labels=["shard"])
        for shard_id, shard in sorted(self.bot.shards.items()):
            if shard.latency == shard.latency and shard.latency != float("inf"):  # NaN/inf before the first beat
                latency.add_metric([str(shard_id)], shard.latency)
            connected.add_metric([str(shard_id)], 0.0 if shard.is_closed() else 1.0)
        yield latency
        yield connected


def gateway_connected(bot: Served) -> bool:
    return bot.is_ready() and not bot.is_closed() and bool(bot.shards) and \
        not any(shard.is_closed() for shard in bot.shards.values())


async def database_reachable(storage: Storage | None) -> bool:
    if storage is None:
        return False
    try:
        await asyncio.wait_for(storage.meta.get(key="healthz"), DATABASE_TIMEOUT)
    except Exception:  # any failure to answer is "not reachable"; the reason is in the bot's log
        log.debug("the database did not answer the health check", exc_info=True)
        return False
    return True


class HealthServer:
    """The HTTP server of /metrics and /healthz; `start` binds (OSError when the port is taken), `stop` ends it."""

    def __init__(self, bot: Served, metrics: Metrics = METRICS) -> None:
        self.bot = bot
        self.metrics = metrics
        self.collector = BotCollector(bot)
        app = web.Application()
        app.router.add_get("/metrics", self.serve_metrics)
        app.router.add_get("/healthz", self.serve_health)
        self.runner = web.AppRunner(app, access_log=None)
        self.port: int | None = None

    async def start(self, host: str, port: int) -> None:
        self.metrics.registry.register(self.collector)
        await self.runner.setup()
        site = web.TCPSite(self.runner, host, port)
        try:
            await site.start()
        except OSError:
            await self.stop()
            raise
        self.port = port
        log.info("metrics and health at http://%s:%d/metrics and /healthz", host, port)

    async def stop(self) -> None:
        await self.runner.cleanup()
        with contextlib.suppress(KeyError):  # never registered
            self.metrics.registry.unregister(self.collector)

    async def serve_metrics(self, request: web.Request) -> web.Response:
        body = generate_latest(self.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def serve_health(self, request: web.Request) -> web.Response:
        checks = {"gateway": gateway_connected(self.bot),
                  "database": await database_reachable(self.bot.metrics_storage)}
        return web.json_response(checks, status=200 if all(checks.values()) else 503)


# --- hooks into discord.py -------------------------------------------------------------------------------------

_instrumented: list[Metrics] = []


def instrument_discord(metrics: Metrics = METRICS) -> None:
    """Once per process: time acknowledgements and count 429 waits into `metrics` (a used-up bucket's waits:
    `rate_limit_trace`, given to the client when it is made)."""
    if _instrumented:
        return
    _instrumented.append(metrics)
    for name in ANSWERING:
        original = getattr(discord.InteractionResponse, name, None)
        if original is not None:
            setattr(discord.InteractionResponse, name, _timed_answer(original, metrics))
    logging.getLogger("discord.http").addHandler(RetryAfterCounter(metrics))


def _timed_answer(original: Callable[..., Coroutine[Any, Any, Any]],
                  metrics: Metrics) -> Callable[..., Coroutine[Any, Any, Any]]:
    @functools.wraps(original)
    async def answer(self: discord.InteractionResponse[Any], *args: Any, **kwargs: Any) -> Any:
        first = not self.is_done()
        result = await original(self, *args, **kwargs)
        if first:
            interaction = self._parent
            kind = interaction.type.name if interaction.type is not None else "unknown"
            age = (datetime.now(UTC) - interaction.created_at).total_seconds()
            metrics.ack_seconds.labels(kind=kind).observe(max(0.0, age))
        return result

    return answer


def rate_limit_trace(metrics: Metrics = METRICS) -> aiohttp.TraceConfig:
    """For discord.py's `http_trace` (a public option of the client): every response that used up its rate-limit
    bucket counts as a wait of the seconds Discord gave until the bucket refills. discord.py holds that bucket's
    requests for as long (it sleeps before the next one, or right after this one); a 429 is counted apart, by
    `RetryAfterCounter`."""
    trace = aiohttp.TraceConfig()

    async def ended(session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        headers = params.response.headers
        if params.response.status == 429 or headers.get("X-RateLimit-Remaining") != "0":
            return
        try:
            seconds = float(headers.get("X-RateLimit-Reset-After", ""))
        except ValueError:
            return  # no such header: discord.py reads the reset time instead; nothing here to count by
        metrics.rate_limited("bucket", seconds)

    trace.on_request_end.append(ended)
    return trace


class RetryAfterCounter(logging.Handler):
    """Counts discord.py's "We are being rate limited ... Retrying in 1.23 seconds." (a 429 answered)."""

    PATTERN = re.compile(r"responded with 429\. Retrying in ([0-9.]+) seconds")

    def __init__(self, metrics: Metrics) -> None:
        super().__init__(logging.WARNING)
        self.metrics = metrics

    def emit(self, record: logging.LogRecord) -> None:
        found = self.PATTERN.search(record.getMessage())
        if found:
            self.metrics.rate_limited("429", float(found.group(1)))


def count_interaction(interaction: discord.Interaction, metrics: Metrics = METRICS) -> None:
    """The bot's on_interaction: one more interaction of its kind."""
    metrics.interactions.labels(kind=interaction.type.name if interaction.type is not None else "unknown").inc()
