"""The app factory: configuration, the instance folder, the database, every blueprint and
command group, errors."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Flask, Response, appcontext_pushed, current_app, g, has_request_context, render_template, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError, CSRFProtect
from itsdangerous import URLSafeTimedSerializer
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from . import access, api, links, ratelimit
from .api import cors, problems
from .cli import flask_commands, flask_events, flask_open_deals, flask_serve
from .retry import send_again_page
from .storage import backends, cache, db
from .web import (
    club_night_exchange,
    club_night_paper,
    club_nights,
    common,
    deals,
    exchange,
    games,
    installable,
    open_deals,
    paper,
    referee,
    sheets,
)
from .web.replay import WatchersPages
from .web.revision_polls import RevisionPolls
from .web.static_files import StaticFiles

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

PACKAGE = Path(__file__).resolve().parent
SESSION_LIFETIME = timedelta(days=180)  # how long a browser keeps its edit keys and games after last writing them
csrf = CSRFProtect()


def _shipped(name: str) -> str:
    """The folder ``templates`` or ``static``: inside the package when installed from a wheel
    (pyproject.toml maps the checkout's top-level folders there), else the checkout's own
    top-level folder (running from a checkout, or an editable install)."""
    inside = PACKAGE / name
    return str(inside if inside.is_dir() else PACKAGE.parent / name)


def instance_folder() -> Path:
    """``SCOREPAD_INSTANCE_PATH`` when set, else ``instance`` in the working directory: never
    beside the code, which for an installed package is site-packages."""
    return Path(os.environ.get("SCOREPAD_INSTANCE_PATH") or "instance").resolve()


class StartupError(SystemExit):
    """The app cannot start (its database file cannot be used): the message names the file
    and says why. A ``SystemExit``, so that every way of starting the app (``flask run``,
    ``granian --interface wsgi --factory``, any ``flask`` command) prints the message, without a
    traceback, and stops with exit status 1."""


class TextResponse(Response):
    """A response whose text is sent as UTF-8 even when it cannot all be: a character that
    has no UTF-8 form (a lone surrogate stored before names were checked) is sent as ``?``,
    so a page showing it still answers rather than failing every time."""

    def set_data(self, value: bytes | str) -> None:
        super().set_data(value.encode("utf-8", "replace") if isinstance(value, str) else value)


class SessionCookies(SecureCookieSessionInterface):
    """Flask's signed session cookie, sent Secure when SESSION_COOKIE_SECURE says so and also
    whenever the request came over HTTPS (behind a proxy: with PROXIES and the proxy's
    ``X-Forwarded-Proto: https``), so a site reached by HTTPS never sends the edit keys
    without the flag."""

    def __init__(self) -> None:
        self._signing: tuple[tuple[object, ...], URLSafeTimedSerializer | None] | None = None

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(super().get_cookie_secure(app) or (has_request_context() and request.is_secure))

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Flask's serializer, made once for the keys it signs with (made again when
        SECRET_KEY or SECRET_KEY_FALLBACKS change), not on every request: making it was a
        tenth of what opening and saving the session costs a request."""
        keys = (app.secret_key, *(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        made = self._signing
        if made is None or made[0] != keys:
            made = self._signing = keys, super().get_signing_serializer(app)
        return made[1]

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Flask's, but an empty session nothing changed (every API request, an anonymous
        view) only adds ``Vary: Cookie`` when it was read, as Flask's does, without working
        out the cookie's settings first."""
        if not session and not session.modified:
            if session.accessed:
                response.vary.add("Cookie")
            return
        super().save_session(app, session, response)


def _whole(name: str, value: object, least: int, what: str) -> int:
    """A setting that is a whole number, ``least`` or more (the environment's ``"2"`` too);
    else :class:`StartupError` naming it and saying ``what`` it counts."""
    try:
        number = int(value) if isinstance(value, int | str) and not isinstance(value, bool) else least - 1
    except ValueError:
        number = least - 1
    if number < least:
        raise StartupError(f"{name} (SCOREPAD_{name}) must be {what}, {least} or more, not {value!r}")
    return number


def _secret_key(instance: Path) -> str:
    """The instance's secret key, generated on first start and kept in ``instance/secret_key``."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def create_app(test_config: Mapping[str, object] | None = None) -> Flask:
    """Build the app. ``test_config`` overrides settings (tests pass DATABASE and TESTING).

    Settings, each also read from the environment as ``SCOREPAD_<NAME>``: DATABASE (the
    SQLite file, default ``instance/scorepad.sqlite``, or a ``postgresql://`` URL:
    :mod:`scorepad.storage.postgresql`), POOL_SIZE (PostgreSQL: connections a process keeps
    at most, default 10), SECRET_KEY (default: generated into
    the instance folder), SESSION_COOKIE_SECURE (set true behind HTTPS), PERMANENT_SESSION_LIFETIME (how long the
    session cookie, with its edit keys and games, is kept: 180 days, or seconds in the
    environment), PUBLIC_URL (the base of every absolute link, :mod:`scorepad.links`), PREFIX (the path
    the app is served under, such as ``/scorepad``; default PUBLIC_URL's path, else none), CACHE_BYTES (what
    the per-revision cache may hold, default 64 MB: :mod:`scorepad.storage.cache`), BUSY_TIMEOUT
    (seconds a write waits for another process's write lock before a 503, default 2), PROXIES
    (default 0: the number of proxies in front of scorepad that set ``X-Forwarded-*``; never
    more than there are, or a client could forge its address; werkzeug's ``ProxyFix`` then
    gives links, the session cookie's Secure flag and the rate limits the client's address,
    scheme and host, never a prefix); RETAIN_DAYS (default none: days a game is kept after its last change,
    for ``flask purge``); DATABASE_MAX_BYTES (default none: the most a SQLite file may grow
    to, past which writes fail as on a full disk); CORS_ORIGINS (default none: the origins
whose pages may call the API from a browser, :mod:`scorepad.api.cors`); and the rate limits' settings (see
    :mod:`scorepad.ratelimit`). The instance folder
    (``config.py``, the database, the secret key) is :func:`instance_folder`.

    An instance folder or a database file it cannot use raises :class:`StartupError`.
    """
    app = Flask(__name__, instance_path=str(instance_folder()), instance_relative_config=True,
                template_folder=_shipped("templates"), static_folder=_shipped("static"))
    _settings(app, test_config)
    _check_settings(app)
    _sessions(app)
    _database(app)
    app.wsgi_app = SecurityHeaders(app.wsgi_app)  # type: ignore[method-assign]
    app.wsgi_app = WatchersPages(app.wsgi_app, app.extensions["scorepad.database"])  # type: ignore[method-assign]
    app.wsgi_app = RevisionPolls(app.wsgi_app, app.extensions["scorepad.database"])  # type: ignore[method-assign]
    app.wsgi_app = StaticFiles(app.wsgi_app, app.static_url_path or "/static")  # type: ignore[method-assign]
    _behind_proxies(app)  # around the watchers' pages: they see each request as the routes do
    csrf.init_app(app)
    _jinja(app)
    _blueprints(app)
    _cross_origin(app)
    _commands(app)
    _rate_limits(app)  # after every route: it limits creating games and writing to one
    _error_handlers(app)
    return app


def _settings(app: Flask, test_config: Mapping[str, object] | None) -> None:
    """The defaults, then the instance's ``config.py``, the environment's ``SCOREPAD_*``, and ``test_config``."""
    app.config.from_mapping(
        DATABASE=str(Path(app.instance_path) / "scorepad.sqlite"),
        MAX_CONTENT_LENGTH=256 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=False,
        PERMANENT_SESSION_LIFETIME=SESSION_LIFETIME,  # edit rights and "Your games" outlast the browser
        SESSION_REFRESH_EACH_REQUEST=False,  # sent only when it changes: no static file carries the keys
        PUBLIC_URL=None,
        PREFIX=None,
        PROXIES=0,
        WTF_CSRF_TIME_LIMIT=None,
        # Over HTTPS, Flask-WTF would also demand a Referer from this host, which no browser
        # sends: every page says Referrer-Policy: no-referrer. The session's token is the check.
        WTF_CSRF_SSL_STRICT=False,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
        BUSY_TIMEOUT=db.BUSY_TIMEOUT,
        RETAIN_DAYS=None,  # days a game is kept after its last change (flask purge); None: for ever
        DATABASE_MAX_BYTES=None,  # SQLite: the most the file may grow to; None: as the disk allows
    )
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env("SCOREPAD")
    if test_config:
        app.config.update(test_config)


def _check_settings(app: Flask) -> None:
    """PUBLIC_URL, the whole numbers (PROXIES, RETAIN_DAYS, DATABASE_MAX_BYTES) and the root
    the app is served under (PREFIX, APPLICATION_ROOT), read; :class:`StartupError` naming one that cannot be."""
    if not links.usable_base(app.config["PUBLIC_URL"]):
        raise StartupError(f"PUBLIC_URL must be an address such as https://scores.example.org, "
                           f"not {app.config['PUBLIC_URL']!r}")
    app.config["PROXIES"] = _whole("PROXIES", app.config["PROXIES"], 0, "the number of proxies in front of scorepad")
    for name, what in (("RETAIN_DAYS", "the days a game is kept after its last change"),
                       ("DATABASE_MAX_BYTES", "the bytes the database file may grow to")):
        if app.config[name] is not None:
            app.config[name] = _whole(name, app.config[name], 1, what)
    try:
        root = links.site_root(app.config.get("PREFIX"), app.config["PUBLIC_URL"])
    except ValueError as err:
        raise StartupError(str(err)) from None
    app.config.update(PREFIX=root, APPLICATION_ROOT=root or "/")


def _behind_proxies(app: Flask) -> None:
    """The client's address, scheme and host from the PROXIES proxies' ``X-Forwarded-*``, and
    the app served under PREFIX (:class:`links.AtRoot`)."""
    hops = app.config["PROXIES"]
    if hops:  # never X-Forwarded-Prefix: the root is PREFIX's alone (scorepad.links)
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops,  # type: ignore[method-assign]
                                x_port=hops, x_prefix=0)
    app.wsgi_app = links.AtRoot(app.wsgi_app, app.config["PREFIX"])  # type: ignore[method-assign]


def _sessions(app: Flask) -> None:
    """Responses as UTF-8 text, the session cookie (Secure over HTTPS, never cached with keys
    in it), and the instance's secret key that signs it."""
    app.response_class = TextResponse
    app.session_interface = SessionCookies()
    app.after_request(access.keep_keys_private)
    try:
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
        if not app.config.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))
    except OSError as err:
        raise StartupError(f"cannot use the instance folder {app.instance_path}: {err.strerror or err}; make it "
                           "writable by the user running scorepad, or set SCOREPAD_SECRET_KEY") from None


def _blueprints(app: Flask) -> None:
    """The pages, one blueprint per area, and the API (/api/v1: games, deals, the referee, export and import)."""
    for blueprint in (games.bp, sheets.bp, deals.bp, open_deals.bp, referee.bp, paper.bp, club_night_paper.bp,
                      exchange.bp, installable.bp, club_nights.bp, club_night_exchange.bp):
        app.register_blueprint(blueprint)
    app.register_blueprint(api.blueprint())
    csrf.exempt(api.bp)  # the API authenticates with a bearer key, never a cookie
    # Jinja globals, not a context processor: the presets never change while the app runs, and a
    # macro imported without context (the sheet choosers of referee/_macros.html) sees globals only.
    app.jinja_env.globals.update(common.template_helpers())


def _commands(app: Flask) -> None:
    app.cli.add_command(flask_commands.game_group)  # flask game ...
    app.cli.add_command(flask_commands.deal_group)  # flask deal ...
    for command in flask_open_deals.COMMANDS:  # flask deal part|open|confirm|abandon: a deal entered part by part
        flask_commands.deal_group.add_command(command)
    app.cli.add_command(flask_events.event_group)  # flask event ...: a club night, run as its organiser
    app.cli.add_command(flask_commands.backup_command)  # flask backup PATH
    app.cli.add_command(flask_commands.purge_command)  # flask purge: games not changed for RETAIN_DAYS days
    app.cli.add_command(flask_serve.serve_command)  # flask serve: granian, and the address phones open


def _cross_origin(app: Flask) -> None:
    """CORS on the API for the origins CORS_ORIGINS names (:mod:`scorepad.api.cors`); none by default."""
    try:
        cors.init_app(app)
    except ValueError as err:  # the message names the setting
        raise StartupError(str(err)) from None


def _rate_limits(app: Flask) -> None:
    try:
        ratelimit.init_app(app)
    except ValueError as err:  # a limit or its storage that cannot be read: the message names the setting
        raise StartupError(str(err)) from None


def _database(app: Flask) -> None:
    """Give the app its database, built from its settings (DATABASE, BUSY_TIMEOUT, POOL_SIZE) with a
    cache of CACHE_BYTES bytes whose builds wait BUILD_WAIT s; the file is created and
    migrated now (:class:`StartupError` if it cannot be used). Each app context of this app
    has it in use (:func:`db.current`), and no other app's."""
    app.config.setdefault("CACHE_BYTES", cache.DEFAULT_BYTES)
    app.config.setdefault("BUILD_WAIT", cache.BUILD_WAIT)
    kept = cache.ByteCache(int(app.config["CACHE_BYTES"]), float(app.config["BUILD_WAIT"]))
    pool = app.config.get("POOL_SIZE")
    if app.config["DATABASE_MAX_BYTES"] is not None and backends.is_url(app.config["DATABASE"]):
        raise StartupError("DATABASE_MAX_BYTES (SCOREPAD_DATABASE_MAX_BYTES) caps a SQLite file; on PostgreSQL "
                           "leave it unset and give the database a disk (or tablespace) of its own")
    pool_size = None if pool is None else _whole("POOL_SIZE", pool, 1, "how many connections to PostgreSQL a "
                                                 "process may hold")
    try:
        database = backends.database(app.config["DATABASE"], float(app.config["BUSY_TIMEOUT"]), kept, pool_size,
                               app.config["DATABASE_MAX_BYTES"])
        database.open()
    except db.Unusable as err:
        raise StartupError(str(err)) from None
    app.extensions["scorepad.database"] = database
    app.extensions["scorepad.cache"] = kept
    app.teardown_appcontext(_stop_using_database)  # first registered, so it runs after the others


def _use_database(app: Flask, **_extra: object) -> None:
    """As an app context is pushed: put the app's database in use until it is popped."""
    database = app.extensions.get("scorepad.database")
    if database is not None:
        g.scorepad_database = db.use(database)


def _stop_using_database(_error: BaseException | None = None) -> None:
    token = g.pop("scorepad_database", None)
    if token is not None:
        db.done(token)


appcontext_pushed.connect(_use_database)  # every app's contexts; apps without a database are left alone


def thousands(n: int) -> str:
    """A Jinja filter: a number with commas between thousands, ``1,610``.

    >>> thousands(-12345)
    '-12,345'
    """
    return f"{n:,}"


def signed(n: int) -> str:
    """A Jinja filter: a change in points, always with its sign, ``+1,610``.

    >>> signed(12345), signed(-40), signed(0)
    ('+12,345', '-40', '+0')
    """
    return f"{n:+,}"


def _jinja(app: Flask) -> None:
    """Block tags leave no blank lines behind (the deal page must stay small); ``thousands``, ``signed``."""
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.filters["thousands"] = thousands
    app.jinja_env.filters["signed"] = signed


# Scripts and styles come only from /static: no inline script, style block or attribute.
CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
    "connect-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'",
    "frame-ancestors 'none'",
))


SECURITY_HEADERS = (("Content-Security-Policy", CONTENT_SECURITY_POLICY), ("X-Content-Type-Options", "nosniff"),
                    ("Referrer-Policy", "no-referrer"),  # links carry a game's keys
                    ("X-Frame-Options", "DENY"))


class SecurityHeaders:
    """WSGI middleware around Flask: every answer gets :data:`SECURITY_HEADERS`, made once, but
    for those its route set itself (a PDF's own policy); one pass over the answer's header
    list, no Flask hook."""

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        def started(status: str, headers: list[tuple[str, str]], exc_info: object = None) -> object:
            named = {name.lower() for name, _ in headers}
            headers.extend(header for header in SECURITY_HEADERS if header[0].lower() not in named)
            return start_response(status, headers, exc_info)  # type: ignore[arg-type]

        return self.app(environ, started)  # type: ignore[arg-type]


def _error_handlers(app: Flask) -> None:
    """What each error the app raises is answered with: the API's problem where one is wanted
    (:func:`problems.wanted`), else a page; a form refused for a passing reason is kept to send again."""
    app.register_error_handler(CSRFError, _expired_form)
    app.register_error_handler(HTTPException, _http_error)
    for passed in ratelimit.LIMITS_PASSED:
        app.register_error_handler(passed, _too_many)
    app.register_error_handler(db.Busy, _busy("The database is busy", "Another program is writing to the "
                                              "database. Nothing was saved; send it again in a moment."))
    app.register_error_handler(db.Unreachable, _busy("The database cannot be reached", "The server cannot reach "
                                                     "its database just now. Nothing was saved; send it again in "
                                                     "a moment."))
    app.register_error_handler(cache.BuildBusy, _busy("Busy for a moment", "The server is making another document "
                                                 "just now. Nothing is wrong: ask again in a moment."))
    app.register_error_handler(db.OutOfSpace, _out_of_space)
    app.register_error_handler(Exception, _unexpected)


def _expired_form(err: CSRFError) -> ResponseReturnValue:
    return render_template("error.html", code=400, title="This form has expired",
                           message="Reload the page and try again; nothing was saved."), 400


HTTP_ERROR_TITLES = {404: "Not found", 403: "Not allowed", 410: "This game was deleted",
                     400: "Something in that request was wrong", 405: "Not allowed here",
                     413: "That was too large"}


def _http_error(err: HTTPException) -> ResponseReturnValue:
    code = err.code or 500  # Flask answers an HTTPException without a code itself, never here
    if code == 413:  # werkzeug's words name no size
        limit = request.max_content_length or 0  # an import takes more than other requests
        err.description = (f"the request is over {limit // 1024:,} KB, the most this server takes"
                           if problems.wanted() else
                           f"The form sent was over {limit // 1024:,} KB, the most this server takes. "
                           "Nothing was saved.")
    # Werkzeug's own headers stay (a 405's Allow); the body is ours, so its Content-Type is ours too.
    headers = [(k, v) for k, v in err.get_headers() if k.lower() != "content-type"]
    if problems.wanted():
        return problems.answer(code, err.description or "", headers=dict(headers))
    return render_template("error.html", code=code, title=HTTP_ERROR_TITLES.get(code, err.name),
                           message=err.description), code, headers


def _too_many(err: ratelimit.LimitPassed) -> ResponseReturnValue:
    """429, past a rate limit (:mod:`scorepad.ratelimit`), with Retry-After."""
    limited = ratelimit.limited(err)
    if problems.wanted():
        return problems.answer(429, limited.detail, None, "rate-limited", {"Retry-After": str(limited.retry_after)})
    return limited.page()


def _busy(title: str, words: str) -> Callable[[Exception], ResponseReturnValue]:
    """A 503 that says to send the same request again in a second (a form is kept)."""
    def answer(err: Exception) -> ResponseReturnValue:
        if problems.wanted():
            return problems.answer(503, str(err), None, "busy", {"Retry-After": "1"})
        return send_again_page(503, title, words, retry_after=1)
    return answer


def _out_of_space(err: db.OutOfSpace) -> ResponseReturnValue:
    """507: nothing saved, a form kept to send again (storage logged it, once a minute)."""
    if problems.wanted():
        return problems.answer(507, str(err), None, "out-of-space")
    return send_again_page(507, "The server is out of space", "The server has no room left to save anything. "
                       "Nothing was saved; send it again once whoever runs the server has freed space.")


def _unexpected(err: Exception) -> ResponseReturnValue:
    current_app.logger.exception("unexpected error")
    if problems.wanted():
        return problems.answer(500, "something went wrong on our side")
    return render_template("error.html", code=500, title="Something went wrong",
                           message="Nothing you entered was lost; please try again."), 500
