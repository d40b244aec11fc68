"""The rate limits told to the client, in the header fields of the IETF draft "RateLimit header
fields for HTTP" (draft-ietf-httpapi-ratelimit-headers-10, the latest; the two fields as
Structured Field lists, as since -08, replacing -07's ``RateLimit-Limit``, ``-Remaining``
and ``-Reset``, which Flask-Limiter's ``RATELIMIT_HEADERS_ENABLED`` still writes)::

    RateLimit-Policy: "create-minute";q=20;w=60, "create-day";q=200;w=86400
    RateLimit: "create-minute";r=19;t=60, "create-day";r=199;t=86400

``RateLimit-Policy`` names each limit (:func:`policy_name`) with its quota (``q``) and
window in seconds (``w``); ``RateLimit`` what is left of it for this client (``r``) and the
seconds until its window starts again (``t``). Only on an answer to a request that a limit
counted or checked (:mod:`scorepad.ratelimit`: a create, a write, a write refused for want
of the key, a document built), each limit that did, a 429 included (``r=0``, beside its
``Retry-After``); never on any other answer, nor on an answer the cache held (a build not
counted), nor on one replayed below Flask (:mod:`scorepad.web.replay` drops them).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from flask import Response, after_this_request, g
from limits import RateLimitItem

NOTED = "scorepad_rate_limits"  # on flask.g: the limits this request was counted against, by name
FIELDS = ("RateLimit-Policy", "RateLimit")


@dataclass(frozen=True)
class Quota:
    """One limit as this request left it: its name, rate, what is left of it and when its window ends (a time)."""

    name: str
    limit: RateLimitItem
    remaining: int
    reset: float

    def policy(self) -> str:
        """Its item of ``RateLimit-Policy``: ``"write";q=60;w=60``."""
        return f'"{self.name}";q={self.limit.amount};w={self.limit.get_expiry()}'

    def left(self, now: float) -> str:
        """Its item of ``RateLimit`` at ``now``: ``"write";r=59;t=42``."""
        return f'"{self.name}";r={max(0, self.remaining)};t={max(0, math.ceil(self.reset - now))}'


def policy_name(scope: str, limit: RateLimitItem, several: bool) -> str:
    """The policy's name: the limit's scope (``write``); for a limit of ``several`` rates, each
    rate's window after it (``create-minute``, ``create-day``, ``create-2-hours``).

    >>> from limits import parse
    >>> policy_name("write", parse("60 per minute"), False), policy_name("create", parse("200 per day"), True)
    ('write', 'create-day')
    >>> policy_name("create", parse("100 per 2 hours"), True)
    'create-2-hours'
    """
    if not several:
        return scope
    unit = limit.GRANULARITY.name
    return f"{scope}-{unit}" if limit.multiples == 1 else f"{scope}-{limit.multiples}-{unit}s"


def note(quota: Quota, write_later: bool = True) -> None:
    """Tell this request's answer ``quota`` (the last note of a limit stands); ``write_later``
    puts :func:`write` on the answer (once a request), for a limit noted while the view runs."""
    noted: dict[str, Quota] | None = g.get(NOTED)
    if noted is None:
        noted = {}
        setattr(g, NOTED, noted)
        if write_later:
            after_this_request(write)
    noted[quota.name] = quota


def write(response: Response) -> Response:
    """``response`` with the fields of every limit noted in this request (none when none was)."""
    noted: dict[str, Quota] | None = g.get(NOTED)
    if noted:
        now = time.time()
        response.headers["RateLimit-Policy"] = ", ".join(quota.policy() for quota in noted.values())
        response.headers["RateLimit"] = ", ".join(quota.left(now) for quota in noted.values())
    return response
