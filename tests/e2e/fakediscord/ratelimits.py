"""Discord's per-route rate limits, emulated: each bucket (a route and its major parameter, the channel or
guild) allows `limit` calls per window of `per` seconds. Every answer carries the X-RateLimit headers
discord.py reads (it then waits before the next call itself); a call over the limit gets 429 with
`retry_after`, as Discord answers it. Off unless a test or benchmark turns it on."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from aiohttp import web

from .http_util import json_response

API = "/api/v10"

DISCORD_LIMITS: dict[tuple[str, str], tuple[int, float]] = {
    ("POST", f"{API}/channels/{{channel_id}}/messages"): (5, 5.0),
    ("PATCH", f"{API}/channels/{{channel_id}}/messages/{{message_id}}"): (5, 5.0),
    ("DELETE", f"{API}/channels/{{channel_id}}/messages/{{message_id}}"): (5, 5.0),
}
"""Roughly what Discord gives a bot per channel: five messages, five edits, five deletions per 5 s."""


@dataclass
class _Bucket:
    reset_at: float
    remaining: int


class RateLimits:
    """Fixed-window buckets keyed by (method, route, major parameter)."""

    def __init__(self, limits: dict[tuple[str, str], tuple[int, float]] | None = None,
                 majors: set[int] | None = None) -> None:
        self.limits = dict(DISCORD_LIMITS if limits is None else limits)
        self.majors = None if majors is None else {str(m) for m in majors}  # None: every channel
        self._buckets: dict[tuple[str, str, str], _Bucket] = {}
        self.limited: int = 0  # calls answered 429

    def check(self, request: web.Request, route: str, now: float) -> tuple[web.Response | None, dict[str, str]]:
        """(a 429 answer, None) when the call is over its limit; else (None, the headers for its answer)."""
        rule = self.limits.get((request.method, route))
        if rule is None:
            return None, {}
        limit, per = rule
        major = request.match_info.get("channel_id") or request.match_info.get("guild_id") or ""
        if self.majors is not None and major not in self.majors:
            return None, {}
        key = (request.method, route, major)
        bucket = self._buckets.get(key)
        if bucket is None or now >= bucket.reset_at:
            bucket = self._buckets[key] = _Bucket(now + per, limit)
        name = hashlib.sha1(f"{request.method} {route}".encode()).hexdigest()[:16]
        reset_after = max(0.0, bucket.reset_at - now)
        headers = {"X-RateLimit-Limit": str(limit), "X-RateLimit-Bucket": name,
                   "X-RateLimit-Reset-After": f"{reset_after:.3f}"}
        if bucket.remaining <= 0:
            self.limited += 1
            body = {"message": "You are being rate limited.", "retry_after": round(reset_after, 3), "global": False}
            response = json_response(body, status=429)
            response.headers.update({**headers, "X-RateLimit-Remaining": "0", "Retry-After": f"{reset_after:.3f}",
                                     "X-RateLimit-Scope": "user"})
            return response, {}
        bucket.remaining -= 1
        headers["X-RateLimit-Remaining"] = str(bucket.remaining)
        return None, headers
