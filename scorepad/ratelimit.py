"""Rate limits: how often one client may start games, and change one game.

Counted by Flask-Limiter, keyed by the client's address (``request.remote_addr``: behind a
proxy, the real client's when ``PROXIES`` counts the proxies, else the proxy's, which every
client would share), in the storage ``RATELIMIT_STORAGE_URI`` names (``memory://``, per
process, by default; a ``redis://`` URI, with the ``redis`` extra installed, shares the
counts between processes: several app servers). A Redis that is down or stops answering
(for ``REDIS_TIMEOUT`` s) lets the request through uncounted, and the log says so. Two
limits, each shared by the pages and the API:

* ``LIMIT_CREATE`` (default 20 per minute and 200 per day) per client: creating or importing a game;
* ``LIMIT_WRITE`` (default 60 per minute) per client and game: recording, correcting or
  deleting a deal, amending the sheet, deleting the game. Every form posted to those pages
  counts, a check too.

Over a limit, the answer is 429 with ``Retry-After``: the API's error body under ``/api/``,
elsewhere a page that keeps what was typed (:func:`scorepad.retry.typed_again`).
``RATELIMIT_ENABLED=false`` turns both off (the tests do, but for the limits' own tests).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse_many
from limits.errors import ConfigurationError

from .api import problems
from .retry import typed_again

# Endpoints under each limit; only the methods that change something count.
CREATE_ENDPOINTS = ("api.create_game", "api.import_api", "games.new_game", "exchange.import_page")
WRITE_ENDPOINTS = ("api.record_deal", "api.correct_deal", "api.delete_deal", "api.amend_sheet",
                   "deals.new_deal", "deals.edit_deal", "deals.delete_deal", "sheets.amend_sheet",
                   "api.delete_game", "games.delete_game")
METHODS = ["POST", "PUT", "DELETE"]
# RATELIMIT_SWALLOW_ERRORS: a limit that cannot be counted lets the request through (logged)
# rather than failing it. A deal is never lost to the limiter: its memory storage (limits
# 5.8) can raise "threads can only be started once" when two requests race to restart its
# expiry timer (a 500 on recording a deal, once in bench/load.py's abuse phase), and a Redis
# storage can be unreachable.
DEFAULTS = {"RATELIMIT_ENABLED": True, "RATELIMIT_STORAGE_URI": "memory://", "RATELIMIT_SWALLOW_ERRORS": True,
            "LIMIT_CREATE": "20 per minute; 200 per day", "LIMIT_WRITE": "60 per minute"}
# Seconds a count waits for Redis to connect, and then to answer, before the request goes
# through uncounted: a count takes well under a millisecond, and without a timeout a Redis
# that stops answering would hold every create and write (the redis client's own default is
# none before version 8). RATELIMIT_STORAGE_OPTIONS, or the URI's own
# ?socket_timeout=..., sets others.
REDIS_TIMEOUT = 1.0

# What each limit's refusal says, API first, then the page's title and words.
WORDS = {
    "create": ("too many games started from this address",
               "Too many new games", "This address has started as many new games as it may"),
    "write": ("too many changes to this game from this address",
              "Too many changes at once", "This address has changed this game as often as it may"),
}


def client() -> str:
    """The key of the create limit: the client's address."""
    return get_remote_address()


def client_and_game() -> str:
    """The key of the write limit: the client's address and the game's id."""
    return f"{get_remote_address()} {(request.view_args or {}).get('game_id', '')}"


def _enabled(value: Any) -> bool:
    """``RATELIMIT_ENABLED``, also as the environment's text (``false``, ``0``, ``no``, ``off``)."""
    if isinstance(value, str):
        return value.strip().lower() not in ("false", "0", "no", "off", "")
    return bool(value)


def init_app(app: Flask) -> None:
    """Put the two limits on their routes (registered before this is called), unless turned off.

    Each app gets its own :class:`Limiter` (its own storage), so apps in one process never
    share counts. A limit or a storage URI that cannot be used stops start-up, naming the
    setting; a Redis that cannot be reached does not (it is asked on each count)."""
    for name, default in DEFAULTS.items():
        app.config.setdefault(name, default)
    app.config["RATELIMIT_ENABLED"] = _enabled(app.config["RATELIMIT_ENABLED"])
    for name in ("LIMIT_CREATE", "LIMIT_WRITE"):
        try:
            parse_many(str(app.config[name]))
        except ValueError:
            raise ValueError(f"{name} (SCOREPAD_{name}) must be a rate such as '20 per minute', "
                             f"not {app.config[name]!r}") from None
    if not app.config["RATELIMIT_ENABLED"]:
        return
    limiter = _limiter(app)
    # Our limits sit on named views, and each wrapped view checks its own when called.
    # Flask-Limiter also checks every request before it is routed, for default limits this
    # app has none of: 0.3 ms a request, a third of what the viewer's cached game page costs.
    every_request = app.before_request_funcs.get(None, [])
    check = getattr(limiter, "_check_request_limit", None)  # Flask-Limiter 4: its before_request hook
    if check in every_request:
        every_request.remove(check)
    app.extensions["scorepad.limiter"] = limiter
    _limit(app, CREATE_ENDPOINTS, limiter.shared_limit(str(app.config["LIMIT_CREATE"]), "create",
                                                       key_func=client, methods=METHODS))
    _limit(app, WRITE_ENDPOINTS, limiter.shared_limit(str(app.config["LIMIT_WRITE"]), "write",
                                                      key_func=client_and_game, methods=METHODS))

    @app.errorhandler(RateLimitExceeded)
    def too_many(err: RateLimitExceeded):
        found = limiter.current_limit
        retry_after = max(1, math.ceil(found.reset_at - time.time())) if found else 60
        scope = err.limit.scope if err.limit.scope in WORDS else "create"
        problem, title, words = WORDS[scope]
        rate = _rate(err.limit.limit)
        if problems.wanted():
            message = f"{problem} (at most {rate}); try again in {retry_after} s"
            return problems.answer(429, message, None, "rate-limited", {"Retry-After": str(retry_after)})
        return typed_again(429, title, f"{words}: at most {rate}. Nothing was saved; send it again "
                           f"in {retry_after} seconds.", retry_after)


def _limiter(app: Flask) -> Limiter:
    """The app's limiter on the storage RATELIMIT_STORAGE_URI names, Redis with timeouts."""
    uri = str(app.config["RATELIMIT_STORAGE_URI"])
    if urlsplit(uri).scheme in ("redis", "rediss"):
        timeouts = {"socket_connect_timeout": REDIS_TIMEOUT, "socket_timeout": REDIS_TIMEOUT}
        app.config["RATELIMIT_STORAGE_OPTIONS"] = {**timeouts, **app.config.get("RATELIMIT_STORAGE_OPTIONS", {})}
    try:
        return Limiter(client, app=app)
    except (ConfigurationError, ValueError) as err:
        raise ValueError(f"RATELIMIT_STORAGE_URI (SCOREPAD_RATELIMIT_STORAGE_URI) cannot be used: {err}; "
                         "memory:// counts in each process, redis://HOST:6379/0 (pip install "
                         "'scorepad[redis]') shares the counts between servers") from None


def _rate(item: RateLimitItem) -> str:
    """``20 per minute``, ``100 per 2 hours``."""
    unit = item.GRANULARITY.name
    return f"{item.amount} per {unit}" if item.multiples == 1 else f"{item.amount} per {item.multiples} {unit}s"


def _limit(app: Flask, endpoints: tuple[str, ...], limit: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    for endpoint in endpoints:
        app.view_functions[endpoint] = limit(app.view_functions[endpoint])
