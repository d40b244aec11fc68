"""Rate limits: how often one client may start games, change one game, and make the server build.

Counted by Flask-Limiter's counting (the ``limits`` library), keyed by the client's address
(``request.remote_addr``: behind a proxy, the real client's when ``PROXIES`` counts the
proxies, else the proxy's, which every client would share), in the storage
``RATELIMIT_STORAGE_URI`` names (``memory://``, per process, by default; a ``redis://`` URI,
with the ``redis`` extra installed, shares the counts between processes: several app
servers). A Redis that is down or stops answering
(for ``REDIS_TIMEOUT`` s) lets the request through uncounted, and the log says so, in one
line a minute (:class:`OneLineAMinute`). Four limits, each shared by the pages and the API:

* ``LIMIT_CREATE`` (default 20 per minute and 200 per day) per client: creating or importing a game,
  creating a club night, or starting one of its rounds (its games, one a table, count as one);
* ``LIMIT_WRITE`` (default 60 per minute) per client and game: recording, correcting or
  deleting a deal, amending the sheet, replacing the edit link,
  deleting the game, by whoever may. Every form those pages take counts,
  a check too; a write refused for want of the edit key (401, 403) does not, so one who
  holds only the view link (the QR on the table) cannot use up the table's count;
* ``LIMIT_REFUSED`` (default 30 per minute) per client: the writes refused for want of the
  edit key, counted as they are refused. Past it the refusal is a 429; a write with the
  key is never counted here, so it goes on from the same address (one club's Wi-Fi);
* ``LIMIT_BUILD`` (default 10 per minute) per client: the heavy documents built for it (a
  game rescored under another sheet, a history, a PDF: :mod:`scorepad.builds`), counted as
  they are built. What the cache holds is never counted nor refused, so a table asking for
  the same PDF or rescore again and again is never limited; a stranger asking a rescore
  under a new sheet each time is, before it waits for the build turn.

LIMIT_REFUSED and LIMIT_BUILD are counted by hand (:class:`CountedByHand`), as what they
count happens; the other two by :class:`SharedLimit` on their routes, as Flask-Limiter's
``shared_limit`` counted them, without its hooks on any request.

An answer to a request a limit counted or checked tells the client where it stands, in the
draft's ``RateLimit-Policy`` and ``RateLimit`` fields (:mod:`scorepad.ratelimit_fields`).
Over a limit, the answer is 429 with ``Retry-After`` (and those fields): :func:`limited` says which limit and how
long to wait (:class:`Limited`), and the app answers it (:mod:`scorepad.app`): the API's error
body under ``/api/``, elsewhere a page that keeps what was typed (:meth:`Limited.page`).
``RATELIMIT_ENABLED=false`` turns them off (the tests do, but for the limits' own tests).
"""

from __future__ import annotations

import functools
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ParamSpec, Protocol, TypeVar, runtime_checkable
from urllib.parse import urlsplit

from flask import Flask, Response, after_this_request, current_app, has_app_context, has_request_context, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse, parse_many
from limits.errors import ConfigurationError
from werkzeug.exceptions import HTTPException, TooManyRequests

from . import builds, limit_counts, ratelimit_fields
from .retry import send_again_page
from .storage.throttled_log import Throttle

# Endpoints under each limit; only the methods that change something count.
# A club night's new round is one create, however many tables (games) it starts; so is its import.
CREATE_ENDPOINTS = ("api.create_game", "api.import_api", "games.new_game", "exchange.import_page",
                    "events.new_event", "events.start_round", "event_exchange.import_page",
                    "api.create_event", "api.start_round", "api.import_event")
WRITE_ENDPOINTS = ("api.record_deal", "api.correct_deal", "api.delete_deal", "api.amend_sheet",
                   "deals.new_deal", "deals.edit_deal", "deals.delete_deal", "sheets.amend_sheet",
                   "api.replace_edit_key", "games.replace_edit_link",
                   "api.delete_game", "games.delete_game",
                   "api.end_game", "api.reopen_game", "games.end_game", "games.reopen_game")
METHODS = ["POST", "PUT", "DELETE"]
# RATELIMIT_SWALLOW_ERRORS: a limit that cannot be counted lets the request through (logged)
# rather than failing it. A deal is never lost to the limiter: a Redis storage can be
# unreachable. (limits 5.8's memory storage could raise "threads can only be started once"
# when two requests raced to restart its expiry timer: memory:// is now scorepad.limit_counts.)
DEFAULTS = {"RATELIMIT_ENABLED": True, "RATELIMIT_STORAGE_URI": "memory://", "RATELIMIT_SWALLOW_ERRORS": True,
            "LIMIT_CREATE": "20 per minute; 200 per day", "LIMIT_WRITE": "60 per minute",
            "LIMIT_REFUSED": "30 per minute", "LIMIT_BUILD": "10 per minute"}
LIMITS = ("LIMIT_CREATE", "LIMIT_WRITE", "LIMIT_REFUSED", "LIMIT_BUILD")
COUNTED_BY_HAND = ("LIMIT_REFUSED", "LIMIT_BUILD")  # one rate each: counted where they happen (CountedByHand)
REFUSED = (401, 403)  # a write refused for want of the edit key: none, or not this game's
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
    "refused": ("too many changes without the game's edit key from this address",
                "Too many changes without the edit link",
                "This address has sent as many changes without a game's edit link as it may"),
    "build": ("too many documents built for this address (rescores under other sheets, histories, PDFs)",
              "Too many documents at once",
              "This address has asked for as many new documents (rescores under other sheets, histories, "
              "PDFs) as it may"),
}
P = ParamSpec("P")
R = TypeVar("R")
LOG_EVERY = 60.0  # seconds: the limiter's errors (a Redis that is down) are logged once in this long


class OneLineAMinute(logging.Filter):
    """Lets through one warning or error a minute (``every`` seconds by ``clock``,
    :class:`~scorepad.storage.throttled_log.Throttle`), as one line: its message, then the
    error's type and words, without the traceback, and how many were held back since the
    last. A Redis that is down fails every count of every request; Flask-Limiter logs each
    with its traceback (4 KB a request). Information (a limit reached) passes as it is."""

    def __init__(self, every: float = LOG_EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.throttle = Throttle(every, clock)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        held = self.throttle.admit()
        if held is None:
            return False
        line = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            err = record.exc_info[1]
            line += f": {type(err).__name__}: {' '.join(str(err).split())[:300]}"
        line += self.throttle.since(held)
        record.msg, record.args, record.exc_info, record.exc_text, record.stack_info = line, None, None, None, None
        return True


LOG_KEPT = "scorepad.limiter_log"  # each app's OneLineAMinute, in app.extensions


def _one_line_a_minute(record: logging.LogRecord) -> bool:
    """The filter on Flask-Limiter's logger (one logger for every app in the process): the
    :class:`OneLineAMinute` of the app that logs, so each app says it once a minute."""
    line = current_app.extensions.get(LOG_KEPT) if has_app_context() else None
    return True if line is None else bool(line.filter(record))


class TooMany(TooManyRequests):
    """The client is past a limit: ``scope`` names it (a key of :data:`WORDS`), ``limit`` is
    the rate it is past, counted under ``key`` (the client's, :func:`client`, unless told)."""

    def __init__(self, scope: str, limit: RateLimitItem, key: tuple[str, ...] | None = None) -> None:
        super().__init__()
        self.scope, self.limit, self.key = scope, limit, key


class CountedByHand:
    """One limit per client, counted where what it counts happens rather than by a decorator
    on the route: ``scope`` (a key of :data:`WORDS`) and its one rate. A count that cannot be
    made (Redis down) lets the request through, logged (once a minute)."""

    def __init__(self, limiter: Limiter, scope: str, limit: RateLimitItem) -> None:
        self.limiter, self.scope, self.limit = limiter, scope, limit

    def hit(self) -> None:
        """Count one for this client; :class:`TooMany` when that is past the limit."""
        if not self._asked(self.limiter.limiter.hit, "count"):
            raise TooMany(self.scope, self.limit)

    def check(self) -> None:
        """:class:`TooMany` when this client is at the limit already; counts nothing."""
        if not self._asked(self.limiter.limiter.test, "check"):
            raise TooMany(self.scope, self.limit)

    def count(self) -> None:
        """Count one for this client, past the limit or not (what it counts is done)."""
        self._asked(self.limiter.limiter.hit, "count")

    def _asked(self, ask: Callable[[RateLimitItem, str, str], bool], what: str) -> bool:
        try:
            allowed = ask(self.limit, client(), self.scope)
            if has_request_context():  # told in the answer's RateLimit fields
                reset, remaining = self.limiter.limiter.get_window_stats(self.limit, client(), self.scope)
                ratelimit_fields.note(ratelimit_fields.Quota(self.scope, self.limit, remaining, reset))
            return allowed
        except Exception:  # the storage cannot be reached: the request goes on, uncounted
            self.limiter.logger.exception(f"Failed to {what} a request against LIMIT_{self.scope.upper()}. "
                                          "Swallowing error")
            return True


class SharedLimit:
    """A limit of one or more rates (``LIMIT_CREATE``'s ``20 per minute; 200 per day``)
    shared by the routes it wraps, per ``key`` (:func:`client`, :func:`client_and_game`),
    on their methods that change something (:data:`METHODS`), as Flask-Limiter's
    ``shared_limit`` counted it (the same counts in the same storage, under the same keys),
    without its per-request machinery: it cost a limited request 0.2 ms, a sixth of a
    recorded deal. The rates are asked shortest window first and the first one past stops
    the request (:class:`TooMany`, a 429). With ``counted_when``, a request is only checked
    against the rates before the view, and counted against each after it, if its answer
    says so (:func:`_authorised`). The answer tells each rate asked (RateLimit fields). A
    count that cannot be made (Redis down) lets the request through, logged (once a minute)."""

    def __init__(self, limiter: Limiter, scope: str, rates: list[RateLimitItem], key: Callable[[], str],
                 prefix: str = "", counted_when: Callable[[Response], bool] | None = None) -> None:
        self.limiter, self.scope, self.key, self.prefix = limiter, scope, key, prefix
        self.rates = sorted(rates)  # the shortest window first, as Flask-Limiter asks them
        self.counted_when = counted_when
        self.names = [ratelimit_fields.policy_name(scope, rate, len(rates) > 1) for rate in self.rates]

    def __call__(self, view: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(view)
        def limited_view(*args: P.args, **kwargs: P.kwargs) -> R:
            if request.method in METHODS:
                self.ask()
            return view(*args, **kwargs)
        return limited_view

    def ask(self) -> None:
        """Count (or, with ``counted_when``, check) this request against each rate; :class:`TooMany` past one."""
        counts = self.limiter.limiter
        args = (self.prefix, self.key(), self.scope) if self.prefix else (self.key(), self.scope)
        asked: list[int] = []
        try:
            for i, rate in enumerate(self.rates):
                asked.append(i)
                if not (counts.test(rate, *args) if self.counted_when else counts.hit(rate, *args)):
                    self.limiter.logger.info("ratelimit %s (%s) exceeded at endpoint: %s", rate, args[-2], self.scope)
                    after_this_request(functools.partial(self._answered, asked, args, True))
                    raise TooMany(self.scope, rate, args)
        except TooMany:
            raise
        except Exception:  # the storage cannot be reached: the request goes on, uncounted
            self.limiter.logger.exception("Failed to rate limit. Swallowing error")
            return
        after_this_request(functools.partial(self._answered, asked, args, False))

    def _answered(self, asked: list[int], args: tuple[str, ...], past: bool, response: Response) -> Response:
        """After the answer: counted now if ``counted_when`` says so, and the rates asked told in it."""
        counts = self.limiter.limiter
        try:
            if self.counted_when is not None and not past and self.counted_when(response):
                for i in asked:
                    counts.hit(self.rates[i], *args)
            for i in asked:
                reset, remaining = counts.get_window_stats(self.rates[i], *args)
                ratelimit_fields.note(ratelimit_fields.Quota(self.names[i], self.rates[i], remaining, reset),
                                      write_later=False)
        except Exception:  # the storage went away meanwhile: the answer goes without
            self.limiter.logger.exception(f"Failed to count LIMIT_{self.scope.upper()}'s answer. Swallowing error")
        return ratelimit_fields.write(response)


def client() -> str:
    """The key of the create, refused and build limits: the client's address."""
    return get_remote_address()


def client_and_game() -> str:
    """The key of the write limit: the client's address and the game's id."""
    return f"{get_remote_address()} {(request.view_args or {}).get('game_id', '')}"


def _enabled(value: object) -> bool:
    """``RATELIMIT_ENABLED``, also as the environment's text (``false``, ``0``, ``no``, ``off``)."""
    if isinstance(value, str):
        return value.strip().lower() not in ("false", "0", "no", "off", "")
    return bool(value)


def init_app(app: Flask) -> None:
    """Put the limits on their routes (registered before this is called), unless turned off.

    Each app gets its own :class:`Limiter` (its own storage), so apps in one process never
    share counts. A limit or a storage URI that cannot be used stops start-up, naming the
    setting; a Redis that cannot be reached does not (it is asked on each count)."""
    for name, default in DEFAULTS.items():
        app.config.setdefault(name, default)
    app.config["RATELIMIT_ENABLED"] = _enabled(app.config["RATELIMIT_ENABLED"])
    for name in LIMITS:
        try:
            rates = parse_many(str(app.config[name]))
        except ValueError:
            raise ValueError(f"{name} (SCOREPAD_{name}) must be a rate such as '20 per minute', "
                             f"not {app.config[name]!r}") from None
        if name in COUNTED_BY_HAND and len(rates) != 1:  # counted one rate at a time (CountedByHand)
            raise ValueError(f"{name} (SCOREPAD_{name}) takes one rate, such as '30 per minute', "
                             f"not {app.config[name]!r}")
    if not app.config["RATELIMIT_ENABLED"]:
        return
    limiter = _limiter(app)
    app.extensions["scorepad.limiter"] = limiter
    app.extensions[LOG_KEPT] = OneLineAMinute()
    if _one_line_a_minute not in limiter.logger.filters:
        limiter.logger.addFilter(_one_line_a_minute)
    prefix = str(app.config.get("RATELIMIT_KEY_PREFIX") or "")  # as Flask-Limiter keyed its own limits
    _limit(app, CREATE_ENDPOINTS, SharedLimit(limiter, "create", parse_many(str(app.config["LIMIT_CREATE"])),
                                              client, prefix))
    refused = CountedByHand(limiter, "refused", parse(str(app.config["LIMIT_REFUSED"])))  # one rate each
    _limit(app, WRITE_ENDPOINTS, _counting_refusals(refused))
    app.extensions[builds.METER] = CountedByHand(limiter, "build", parse(str(app.config["LIMIT_BUILD"])))
    _limit(app, WRITE_ENDPOINTS, SharedLimit(limiter, "write", parse_many(str(app.config["LIMIT_WRITE"])),
                                             client_and_game, prefix, counted_when=_authorised))
    _off_every_request(app, limiter)


@dataclass(frozen=True)
class Limited:
    """A request past a limit: which (``scope``, a key of :data:`WORDS`), its rate as a player
    reads it (``20 per minute``), and the seconds until it may be sent again."""

    scope: str
    rate: str
    retry_after: int

    @property
    def detail(self) -> str:
        """What the API's 429 says."""
        return f"{WORDS[self.scope][0]} (at most {self.rate}); try again in {self.retry_after} s"

    def page(self) -> Response:
        """The page's 429: why, and what was typed, kept to send again."""
        _, title, words = WORDS[self.scope]
        done = "Nothing was made" if self.scope == "build" else "Nothing was saved"
        return send_again_page(429, title, f"{words}: at most {self.rate}. {done}; send it again "
                           f"in {_wait_words(self.retry_after)}.", self.retry_after)


LIMITS_PASSED = (TooMany,)  # what a request past a limit raises: :func:`limited` reads it
LimitPassed = TooMany


def limited(err: LimitPassed) -> Limited:
    """The limit a request is past and when it may be sent again."""
    limiter: Limiter = current_app.extensions["scorepad.limiter"]
    try:
        reset = limiter.limiter.get_window_stats(err.limit, *(err.key or (client(), err.scope))).reset_time
    except Exception:  # the count was just made or read; a storage gone since then
        reset = time.time() + 60
    return Limited(err.scope, _rate(err.limit), max(1, math.ceil(reset - time.time())))


def _wait_words(seconds: int) -> str:
    """How long to wait, as a player reads it: ``45 seconds``, ``3 minutes``, ``1 hour``."""
    if seconds < 120:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    if seconds < 7200:
        return f"{round(seconds / 60)} minutes"
    return f"{round(seconds / 3600)} hours"


def _authorised(response: Response) -> bool:
    """Whether a write to a game counts against ``LIMIT_WRITE``: not when it was refused for
    want of the edit key (:data:`REFUSED`), nor when a limit refused it (429)."""
    return response.status_code not in (*REFUSED, 429)


@runtime_checkable
class Answered(Protocol):
    """An error that carries the status it is answered with (the API's ``ApiError``), read here
    without importing the API, a layer above this one."""

    status: int


def _counting_refusals(refused: CountedByHand) -> Wrapper:
    """A view that counts each of its refusals for want of the edit key against ``refused``
    per client; past it, the refusal is :class:`TooMany` (a 429). A write with the key
    is not counted. A count that cannot be made (Redis down) lets the refusal be (logged)."""
    def wrap(view: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(view)
        def counted(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return view(*args, **kwargs)
            except Exception as err:
                if _status(err) in REFUSED:
                    refused.hit()  # TooMany past LIMIT_REFUSED, from this refusal
                raise
        return counted
    return wrap


def _status(err: Exception) -> int | None:
    """The status a refusal answers: an API error's, an HTTP error's code, or that of the page
    it carries (``abort(response)``, as the "this edit link was replaced" page is sent); None
    for any other error."""
    if isinstance(err, HTTPException):
        if err.code is None and err.response is not None:
            return err.response.status_code
        return err.code
    return err.status if isinstance(err, Answered) else None


def _limiter(app: Flask) -> Limiter:
    """The app's limiter on the storage RATELIMIT_STORAGE_URI names, Redis with timeouts;
    memory:// (fixed windows) is :class:`.limit_counts.ProcessCounts`."""
    uri = str(app.config["RATELIMIT_STORAGE_URI"])
    if urlsplit(uri).scheme in ("redis", "rediss"):
        timeouts = {"socket_connect_timeout": REDIS_TIMEOUT, "socket_timeout": REDIS_TIMEOUT}
        app.config["RATELIMIT_STORAGE_OPTIONS"] = {**timeouts, **app.config.get("RATELIMIT_STORAGE_OPTIONS", {})}
    counted_here = urlsplit(uri).scheme == "memory" and app.config.get("RATELIMIT_STRATEGY", "fixed-window") == \
        "fixed-window"  # counted as limits' memory storage counts, without its timer thread
    try:
        return Limiter(client, app=app, storage_uri=f"{limit_counts.SCHEME}://" if counted_here else None)
    except (ConfigurationError, ValueError) as err:
        raise ValueError(f"RATELIMIT_STORAGE_URI (SCOREPAD_RATELIMIT_STORAGE_URI) cannot be used: {err}; "
                         "memory:// counts in each process, redis://HOST:6379/0 (pip install "
                         "'scorepad[redis]') shares the counts between servers") from None


def _rate(item: RateLimitItem) -> str:
    """``20 per minute``, ``100 per 2 hours``."""
    unit = item.GRANULARITY.name
    return f"{item.amount} per {unit}" if item.multiples == 1 else f"{item.amount} per {item.multiples} {unit}s"


class Wrapper(Protocol):
    """What wraps a view in a limit (Flask-Limiter's decorators, :func:`_counting_refusals`)."""

    def __call__(self, view: Callable[P, R], /) -> Callable[P, R]: ...


def _off_every_request(app: Flask, limiter: Limiter) -> None:
    """Take Flask-Limiter's hooks off every request: its before-request check (for default
    limits this app has none of: 0.3 ms a request, a third of what the viewer's cached game
    page cost), its after-request deduction and headers and its teardown. Our limits count
    themselves (:class:`SharedLimit`, :class:`CountedByHand`), using its storage and its
    counting only. The hooks are the ones it registered: a method of the limiter, or a
    function bound to it."""
    _take_off(app.before_request_funcs.get(None, []), limiter)
    _take_off(app.after_request_funcs.get(None, []), limiter)
    _take_off(app.teardown_request_funcs.get(None, []), limiter)


def _take_off(hooks: list[R], limiter: Limiter) -> None:
    """The hooks of ``limiter`` out of ``hooks``, in place."""
    hooks[:] = [hook for hook in hooks if not (getattr(hook, "__self__", None) is limiter or (
        isinstance(hook, functools.partial) and hook.args[:1] == (limiter,)))]


def _limit(app: Flask, endpoints: tuple[str, ...], limit: Wrapper) -> None:
    for endpoint in endpoints:
        # Flask types a view as one that answers or one that awaits its answer; a limit wraps
        # either into the same kind, which mypy cannot follow through the union.
        app.view_functions[endpoint] = limit(app.view_functions[endpoint])  # type: ignore[assignment]
