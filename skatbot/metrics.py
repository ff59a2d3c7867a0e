"""What an operator watches, as Prometheus metrics: the few figures other layers report through narrow hooks.

Everything here is plain counting (no Discord, no database): the storage adapter reports an append's time and a
finished deal, the one reply path a refusal, the AI pool a decision's time, skatbot.health the interactions,
their acknowledgement and Discord's rate-limit waits. What is read off the bot at scrape time (tables open,
gateway latency, shard state) is collected by skatbot.health. The README lists every metric.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, disable_created_metrics

# No `<name>_created` gauge beside each counter and histogram (prometheus-client's default): the README documents
# every family /metrics exports, and a process's counters start at 0 with it anyway.
disable_created_metrics()  # type: ignore[no-untyped-call]  # prometheus-client leaves it unannotated

ACK_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
"""Discord lets an interaction wait 3 s for its acknowledgement: buckets around that."""
STORE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0)
AI_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)


class Metrics:
    """The process's metrics, in a registry of their own (a test may make another)."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry = CollectorRegistry() if registry is None else registry
        self.interactions = Counter(
            "skatbot_interactions", "Interactions received (slash commands, clicks, autocompletes, modals)", ["kind"],
            registry=registry)
        self.ack_seconds = Histogram(
            "skatbot_interaction_ack_seconds",
            "From Discord's creation of an interaction to the bot's acknowledgement (answer, defer or edit)", ["kind"],
            buckets=ACK_BUCKETS, registry=registry)
        self.refusals = Counter("skatbot_refusals", "Actions and commands refused with a reason, by reason", ["kind"],
                                registry=registry)
        self.deals_finished = Counter("skatbot_deals_finished", "Deals this process recorded as finished",
                                      registry=registry)
        self.store_append_seconds = Histogram(
            "skatbot_store_append_seconds", "Storing one table step (its log entry and due steps), until committed",
            buckets=STORE_BUCKETS, registry=registry)
        self.ai_decision_seconds = Histogram(
            "skatbot_ai_decision_seconds", "An AI worker's task, from submission to its answer, by task", ["task"],
            buckets=AI_BUCKETS, registry=registry)
        self.rate_limit_waits = Counter(
            "skatbot_rate_limit_waits", "Waits for Discord's rate limits (bucket: before a request; 429: after one)",
            ["reason"], registry=registry)
        self.rate_limit_wait_seconds = Counter(
            "skatbot_rate_limit_wait_seconds", "Seconds spent waiting for Discord's rate limits", ["reason"],
            registry=registry)

    def refused(self, kind: str) -> None:
        self.refusals.labels(kind=kind).inc()

    def rate_limited(self, reason: str, seconds: float) -> None:
        self.rate_limit_waits.labels(reason=reason).inc()
        self.rate_limit_wait_seconds.labels(reason=reason).inc(max(0.0, seconds))


def refusal_kind(error: BaseException, said: bool) -> str:
    """A refusal's label: its reason key where it has one (`not_your_turn`), else its class; `unexpected` for a
    failure answered with the generic sentence (`said` False)."""
    if not said:
        return "unexpected"
    key = getattr(error, "key", None)
    return key if isinstance(key, str) and key.isidentifier() else type(error).__name__


METRICS = Metrics()
"""The bot process's metrics; served at /metrics when SKATBOT_METRICS_PORT is set."""
