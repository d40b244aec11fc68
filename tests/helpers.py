"""Helpers shared by the tests (fixtures are in conftest.py): a game made through the API, a
valid deal, the forms of a page as a browser would post them, the API's one error shape, a
dump of every table of the database, the largest game the limits allow, and a real server
(the production server in a subprocess, :class:`ProductionServer`, or :func:`served`, or
:class:`Restartable`, stopped and started again on the same port),
nginx in front of a server (:class:`Nginx`), and a throwaway Redis (:class:`RedisServer`)."""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from scorepad.api.problems import TYPES
from scorepad.rules.limits import ENTRY_BYTES, MAX_DEALS, MAX_GAME_BYTES
from scorepad.storage.db import QUERIES

ANN_BEA = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]


# What a deal body adds when it is the same as the deal before it and the table played it
# again (deal.same_as_previous refuses it otherwise): valid_deal(2) | REPEAT.
REPEAT: dict[str, Any] = {"repeat": True}


def valid_deal(number: int | None = 1, ann: str = "Ann", bea: str = "Bea") -> dict[str, Any]:
    """A legal deal on the common sheet: Ann goes out with a clean and a dirty book."""
    deal: dict[str, Any] = {
        "ending": "went_out", "went_out": ann,
        "sides": [{"name": ann, "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"],
                   "players": [{"name": ann, "foot_picked_up": True, "cards_left": {}}]},
                  {"name": bea, "melds": ["J J J"],
                   "players": [{"name": bea, "foot_picked_up": True, "cards_left": "A 3B"}]}]}
    if number is not None:
        deal["deal"] = number
    return deal


def api_game(client, name: str = "Friday", sheet: Any = "common", sides: Any = None,
             deals: Iterable[dict[str, Any]] = ()) -> tuple[str, str]:
    """A game made through the API (Ann v Bea unless ``sides`` says), with ``deals``
    recorded in turn (``repeat``: two alike in a row are as the table played them): (id, edit key)."""
    response = client.post("/api/v1/games", json={"name": name, "sheet": sheet, "sides": sides or ANN_BEA})
    assert response.status_code == 201, response.get_data(as_text=True)
    body = response.get_json()
    for deal in deals:
        saved = client.post(f"/api/v1/games/{body['id']}/deals", json={**REPEAT, **deal},
                            headers=bearer(body["edit_key"]))
        assert saved.status_code == 201, saved.get_data(as_text=True)
    return body["id"], body["edit_key"]


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


WATCH_MARK = re.compile(r'<img src="([^"]+/watching)" alt="" width="1" height="1" hidden>')


def watch(client, game_id: str, **kwargs: Any):
    """Open the view link in this client as a browser does: the watchers' page, then the
    watch mark it loads (which records the game among this browser's, as one it watches).
    The page's answer."""
    page = client.get(f"/games/{game_id}", **kwargs)
    assert page.status_code == 200, page.status_code
    mark, = WATCH_MARK.findall(page.get_data(as_text=True))
    assert client.get(mark, **kwargs).status_code == 204
    return page


def grant(client, game_id: str, key: str) -> None:
    """Open the edit link in this client, so its pages may change the game."""
    assert client.get(f"/games/{game_id}/edit/{key}").status_code == 303


def assert_error_shape(response, status: int | None = None, field: Any = ...) -> dict[str, Any]:
    """The API's one error shape, a problem (RFC 9457) as ``application/problem+json``: a
    ``type`` of the problem table (or about:blank with the reason phrase as ``title``), its
    fixed ``title`` and status, ``detail`` and ``field``; the ``error`` object of old
    clients saying the same; and exactly the extensions the type lists. Returns ``error``."""
    assert response.mimetype == "application/problem+json", (response.status_code,
                                                              response.get_data(as_text=True)[:300])
    body = json.loads(response.get_data(as_text=True))
    assert isinstance(body, dict) and isinstance(body.get("error"), dict), body
    error = body["error"]
    assert set(error) == {"status", "field", "message"}, error
    assert error["status"] == body["status"] == response.status_code, (error, response.status_code)
    assert error["field"] is None or (isinstance(error["field"], str) and error["field"]), error
    assert isinstance(error["message"], str) and error["message"], error
    assert (body["detail"], body["field"]) == (error["message"], error["field"]), body
    if body["type"] == "about:blank":
        assert body["title"] == HTTPStatus(response.status_code).phrase, body
        extensions: tuple[str, ...] = ()
    else:
        kind = TYPES[body["type"].removeprefix("/api/v1/problems/")]
        assert (body["title"], kind.status) == (kind.title, response.status_code), body
        extensions = kind.extensions
    assert set(body) == {"type", "title", "status", "detail", "field", "error", *extensions}, sorted(body)
    if status is not None:
        assert response.status_code == status, (response.status_code, error)
    if field is not ...:
        assert error["field"] == field, error
    return error


def assert_no_traceback(response) -> None:
    if response.mimetype in ("application/pdf", "application/octet-stream"):
        return
    text = response.get_data().decode("utf-8", "replace")
    assert "Traceback (most recent call last)" not in text and 'File "/' not in text, text[:500]


# -- forms ----------------------------------------------------------------------------------------


class _Forms(HTMLParser):
    """Every form of a page: its action, method and the name/value pairs a browser sends."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict[str, Any]] = []
        self._select: str | None = None
        self._options: list[list[Any]] = []  # [value or None (its text), selected, text]
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self.forms.append({"action": a.get("action", ""), "method": a.get("method", "get").lower(),
                               "fields": {}})
        if not self.forms:
            return
        fields = self.forms[-1]["fields"]
        if tag == "input" and a.get("name") and "disabled" not in a:  # a disabled input is not sent
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    fields[a["name"]] = a.get("value", "on")
            elif kind not in ("submit", "button", "file", "reset", "image"):
                fields[a["name"]] = a.get("value", "")
        elif tag == "select" and a.get("name"):
            self._select, self._options = a["name"], []
        elif tag == "option" and self._select is not None:
            self._options.append([dict(attrs).get("value"), "selected" in a, ""])
        elif tag == "textarea" and a.get("name"):
            self._textarea = a["name"]
            fields[a["name"]] = ""

    def handle_data(self, data: str) -> None:
        if self._textarea is not None and self.forms:
            self.forms[-1]["fields"][self._textarea] += data
        elif self._select is not None and self._options:
            self._options[-1][2] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None and self.forms:
            values = [(v if v is not None else text.strip(), selected) for v, selected, text in self._options]
            chosen = [v for v, selected in values if selected] or [v for v, _ in values[:1]]
            if chosen:
                self.forms[-1]["fields"][self._select] = chosen[0]
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def forms_of(page: str) -> list[dict[str, Any]]:
    parser = _Forms()
    parser.feed(page)
    return parser.forms


def form_fields(page: str, action: str, method: str = "post") -> dict[str, str]:
    """The fields of the page's form to ``action``, as a browser would post them."""
    for form in forms_of(page):
        if form["method"] == method and form["action"].split("?")[0] == action:
            return dict(form["fields"])
    raise AssertionError(f"no {method} form to {action} on the page")


def text_of(page: str) -> str:
    """The text a reader sees (HTML entities decoded, tags and attributes dropped)."""
    out: list[str] = []

    class _Text(HTMLParser):
        def handle_data(self, data: str) -> None:
            out.append(data)

    parser = _Text(convert_charrefs=True)
    parser.feed(page)
    return re.sub(r"\s+", " ", " ".join(out))


# -- the database ---------------------------------------------------------------------------------


def dump(path: str) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Every table's rows, in a fixed order: equal dumps mean an unchanged database (a
    SQLite file, or a ``postgresql://`` URL)."""
    if path.startswith("postgresql://"):
        return _dump_postgresql(path)
    conn = sqlite3.connect(path)
    try:
        tables = [row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        out = [("user_version", [conn.execute("PRAGMA user_version").fetchone()])]
        for table in tables:
            out.append((table, conn.execute(f'SELECT * FROM "{table}" ORDER BY rowid').fetchall()))
        return out
    finally:
        conn.close()


def _dump_postgresql(url: str) -> list[tuple[str, list[tuple[Any, ...]]]]:
    import psycopg

    with psycopg.connect(url) as conn:
        tables = [row[0] for row in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name")]
        out = []
        for table in tables:
            columns = conn.execute(f'SELECT * FROM "{table}" LIMIT 0').description or []
            order = ", ".join(str(i) for i in range(1, len(columns) + 1))
            out.append((table, conn.execute(f'SELECT * FROM "{table}" ORDER BY {order}').fetchall()))
        return out


def sql(database: str, statement: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Run one statement (``?`` parameters) on a database, SQLite file or PostgreSQL URL, as
    another program would (committed at once); its rows, if any."""
    if database.startswith("postgresql://"):
        import psycopg

        from scorepad.storage.postgresql import parameters, translate

        with psycopg.connect(database, autocommit=True) as conn:
            cursor = conn.execute(translate(statement), parameters(params))
            return cursor.fetchall() if cursor.description else []
    conn = sqlite3.connect(database, isolation_level=None)
    try:
        return conn.execute(statement, params).fetchall()
    finally:
        conn.close()


def db_state(app) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Every table of the app's database (:func:`dump`): to prove a refused request changed nothing."""
    return dump(app.config["DATABASE"])


# -- the largest game the limits allow ------------------------------------------------------------

GAME_BYTES = MAX_GAME_BYTES    # a game's stored deals and history, as the store counts them
MELDS_PER_SIDE = 60           # a side's melds, at most
LARGE_SHEET = {"preset": "common", "game_length": "target", "target_score": 1_000_000}
_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def stored_bytes(database: str, game_id: str) -> int:
    """What the game stores, as the store counts it against :data:`MAX_GAME_BYTES` (its named
    query, run on the file)."""
    conn = sqlite3.connect(database)
    try:
        return conn.execute(QUERIES["game_stored_bytes"], (game_id, ENTRY_BYTES)).fetchone()[0]
    finally:
        conn.close()


def violating_deal(number: int, sides: int, melds: int = MELDS_PER_SIDE) -> dict[str, Any]:
    """A deal where each side lays ``melds`` melds of one natural and four 2s: each breaks the
    wild-card ratio and the most wilds a meld may hold, and most repeat an unfinished rank,
    so a side breaks the sheet about 170 times (hundreds of violations a deal)."""
    return {"deal": number, "ending": "stock_out", "sides": [
        {"name": f"Side {i + 1}", "melds": [f"{_RANKS[(j + number) % len(_RANKS)]} 2 2 2 2" for j in range(melds)],
         "players": [{"name": f"Player {i + 1}", "foot_picked_up": True, "cards_left": {}}]}
        for i in range(sides)]}


def largest_game(client, sides: int = 2, melds: int = MELDS_PER_SIDE, budget: int = GAME_BYTES,
                 database: str | None = None) -> tuple[str, str]:
    """The largest game the limits allow, made through the API: (id, edit key).

    Deals saved as played, each with ``melds`` melds a side and hundreds of violations,
    recorded up to the most deals a game to a target may have, then corrected in turn,
    until the game's stored deal and history JSON (:func:`stored_bytes`) is within one
    more write of ``budget``. ``client`` is a Flask test client (or anything with its
    ``get``/``post``/``put``); ``database`` is the app's SQLite file (its DATABASE)."""
    database = database or client.application.config["DATABASE"]
    game_id, key = api_game(client, "The largest game", LARGE_SHEET,
                            [{"name": f"Side {i + 1}", "players": [f"Player {i + 1}"]} for i in range(sides)])
    as_played = {"reason": "the table let every meld stand"}
    number, step, size, grew = 0, 0, 0, 0
    while True:
        now = stored_bytes(database, game_id)
        size, grew = now, now - size
        if number < MAX_DEALS:
            deal = violating_deal(number + 1, sides, melds)
        else:
            deal = violating_deal(step % MAX_DEALS + 1, sides, melds)
            deal["sides"] = deal["sides"][1:] + deal["sides"][:1]  # the same deal, written anew
        if size + max(grew, 2 * len(json.dumps(deal))) * 1.05 >= budget:  # the next write would pass it
            return game_id, key
        if number < MAX_DEALS:
            response = client.post(f"/api/v1/games/{game_id}/deals", json={**deal, "as_played": as_played},
                                   headers=bearer(key))
            number += 1
        else:
            response = client.put(f"/api/v1/games/{game_id}/deals/{deal['deal']}",
                                  json={**deal, "as_played": as_played}, headers=bearer(key))
            step += 1
        if response.status_code == 409 and (response.get_json() or {}).get("error", {}).get("field") == "game":
            return game_id, key  # the game's own bound came first: it is as large as allowed
        assert response.status_code in (200, 201), response.get_data(as_text=True)[:500]


# -- a real server --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop_process(proc: Any, group: bool = False) -> None:
    """Stop a server started as a subprocess: asked to (SIGTERM), then made to after 10 s;
    with ``group`` (a process started in a session of its own), every process of its group
    is made to, so that no worker of it outlives it."""

    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    if group and hasattr(os, "killpg"):
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # what is left of its group: none once it stopped its worker
        except ProcessLookupError:
            pass


class ProductionServer:
    """The production server, ``flask --app scorepad serve`` (granian: one worker process,
    ``threads`` threads, HTTP/1.1), on a free loopback port, in a subprocess, serving
    ``database``; a context manager that stops it. ``command`` gives another way to start it,
    from the port (``flask serve``'s tests, with options of their own)."""

    def __init__(self, database: str, log: str, threads: int = 4, env: dict[str, str] | None = None,
                 command: Callable[[int], list[str]] | None = None, port: int | None = None) -> None:

        self.port = port or free_port()
        root = Path(__file__).resolve().parent.parent
        argv = command(self.port) if command is not None else [
            sys.executable, "-m", "flask", "--app", "scorepad", "serve", "--host", "127.0.0.1",
            "--port", str(self.port), "--threads", str(threads)]
        with open(log, "wb") as out:
            self.proc = subprocess.Popen(
                argv, cwd=root, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env={**os.environ, "SCOREPAD_DATABASE": database, "SCOREPAD_SECRET_KEY": "test", **(env or {})},
                start_new_session=True)  # a group of its own: granian's worker is stopped with it, whatever happens
        self.log = log
        self.base = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> ProductionServer:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                self.get("/api/v1/sheets")
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise AssertionError(f"the server did not start: {open(self.log).read()[-2000:]}")

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def stop(self) -> None:
        stop_process(self.proc, group=True)

    def get(self, path: str, host: str | None = None) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            conn.request("GET", path, headers={"Host": host} if host else {})
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    def rss_kb(self) -> int:
        """The server's resident memory now (``VmRSS`` in /proc), in KB: its serving worker's
        (granian's one worker process, the child that runs the app) when it has one."""
        pids = [self.proc.pid]
        try:
            with open(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children") as children:
                pids = [int(pid) for pid in children.read().split()] or pids
        except OSError:
            pass
        total = 0
        for pid in pids:
            with open(f"/proc/{pid}/status") as status:
                total += next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        return total


class Nginx:
    """nginx (the system's, ``apt-get install nginx``) in front of a server on loopback, as the
    README's hosted setup has it: a master process of its own (not a daemon) with a temporary
    prefix and configuration in ``folder``, listening on free loopback ports, plain HTTP at
    :attr:`http_port` and, with ``tls``, HTTPS at :attr:`https_port` with a self-signed
    certificate made here (``openssl``; :attr:`certificate` is its file, for a client to trust).

    Every request goes to ``upstream_port`` on 127.0.0.1 (a game's events unbuffered, as the
    README's ``location`` for them says) with the headers the README's block sets:
    ``X-Forwarded-For`` (the client's address appended), ``X-Forwarded-Proto`` (``https`` on
    the TLS port), ``X-Forwarded-Host`` (the Host the client sent; with its port, since the
    ports here are not 80 and 443), and ``X-Forwarded-Prefix`` and ``X-Forwarded-Port``
    cleared, whatever the client sent. A client that binds its socket to its own loopback
    address (127.0.0.x, as ``bench/load.py``'s phones do) is seen by nginx, and with
    ``PROXIES=1`` by the app, as that address. A context manager that stops nginx after.
    ``available()`` says whether nginx and openssl are installed."""

    def __init__(self, folder: Any, upstream_port: int, tls: bool = True, program: str = "nginx") -> None:
        self.folder, self.upstream_port, self.tls, self.program = Path(folder), upstream_port, tls, program
        self.http_port = free_port()
        self.https_port = free_port() if tls else None
        self.certificate = self.folder / "cert.pem"
        self.proc: Any = None

    @staticmethod
    def available(program: str = "nginx") -> bool:
        return shutil.which(program) is not None and shutil.which("openssl") is not None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def https_base(self) -> str:
        assert self.https_port is not None, "started without tls"
        return f"https://127.0.0.1:{self.https_port}"

    def _config(self) -> str:
        tls = (f"""
        listen 127.0.0.1:{self.https_port} ssl;
        ssl_certificate     {self.folder / "cert.pem"};
        ssl_certificate_key {self.folder / "key.pem"};""" if self.tls else "")
        user = "user root root;\n" if hasattr(os, "geteuid") and os.geteuid() == 0 else ""
        temp = self.folder / "temp"
        return f"""{user}daemon off;
master_process on;
worker_processes 1;
pid {self.folder / "nginx.pid"};
error_log {self.folder / "error.log"} warn;
events {{ worker_connections 2048; }}
http {{
    access_log off;
    client_body_temp_path {temp / "body"};
    proxy_temp_path {temp / "proxy"};
    fastcgi_temp_path {temp / "fastcgi"};
    uwsgi_temp_path {temp / "uwsgi"};
    scgi_temp_path {temp / "scgi"};
    upstream scorepad {{
        server 127.0.0.1:{self.upstream_port};
    }}
    server {{
        listen 127.0.0.1:{self.http_port};{tls}
        client_max_body_size 5m;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-Host $http_host;
        proxy_set_header X-Forwarded-Port "";
        proxy_set_header X-Forwarded-Prefix "";
        location / {{
            proxy_pass http://scorepad;
        }}
        location ~ /api/v1/games/[^/]+/events$ {{
            proxy_pass http://scorepad;
            proxy_buffering off;
            proxy_read_timeout 60s;
        }}
    }}
}}
"""

    def __enter__(self) -> Nginx:
        (self.folder / "temp").mkdir(parents=True, exist_ok=True)
        if self.tls:
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                            "-keyout", str(self.folder / "key.pem"), "-out", str(self.certificate)],
                           check=True, capture_output=True)
        conf = self.folder / "nginx.conf"
        conf.write_text(self._config())
        log = self.folder / "nginx.out"
        with open(log, "wb") as out:
            self.proc = subprocess.Popen([self.program, "-p", str(self.folder), "-c", str(conf), "-e", "stderr"],
                                         stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:

                with socket.create_connection(("127.0.0.1", self.http_port), timeout=1):
                    return self
            except OSError:
                time.sleep(0.05)
        self.__exit__()
        errors = (self.folder / "error.log").read_text() if (self.folder / "error.log").exists() else ""
        raise AssertionError(f"nginx did not start: {log.read_text()[-2000:]} {errors[-2000:]}")

    def __exit__(self, *exc: Any) -> None:
        if self.proc is not None:
            stop_process(self.proc)  # SIGTERM: nginx's fast shutdown, the master and its worker

    def connection(self, source: str = "127.0.0.1", https: bool = False, timeout: float = 30) -> Any:
        """An ``http.client`` connection to nginx from the loopback address ``source``
        (127.0.0.x: a phone of its own), over HTTPS (trusting :attr:`certificate`) or HTTP."""

        if not https:
            return http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=timeout,
                                              source_address=(source, 0))
        context = ssl.create_default_context(cafile=str(self.certificate))
        return http.client.HTTPSConnection("127.0.0.1", self.https_port, timeout=timeout,
                                           source_address=(source, 0), context=context)


@contextmanager
def served(database: Any, secret: str = "test-secret", threads: int = 4) -> Iterator[str]:
    """The production server (:class:`ProductionServer`: ``flask serve``, granian) on a free
    loopback port, serving ``database`` with ``secret`` as its key (CSRF on, as in
    production): its base URL. Stopped after."""
    with Restartable(database, secret, threads) as running:
        yield running.base


class Restartable:
    """The production server, like :func:`served`, but on one port fixed for its life, stopped
    and started again at will: a server that goes away under a phone and comes back at the
    same address. Its instance folder and log are a temporary folder of its own. A context
    manager that stops it."""

    def __init__(self, database: Any, secret: str = "test-secret", threads: int = 4) -> None:
        self.database, self.secret, self.threads = str(database), secret, threads
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.folder = tempfile.mkdtemp(prefix="scorepad-served-")
        self._running: ProductionServer | None = None

    def start(self) -> Restartable:
        assert self._running is None, "already serving"
        server = ProductionServer(self.database, os.path.join(self.folder, "server.log"), self.threads,
                                  env={"SCOREPAD_SECRET_KEY": self.secret, "SCOREPAD_INSTANCE_PATH": self.folder},
                                  port=self.port)
        self._running = server.__enter__()
        return self

    def stop(self) -> None:
        if self._running is not None:
            self._running.stop()
            self._running = None

    def __enter__(self) -> Restartable:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


class RedisServer:
    """A throwaway ``redis-server`` (the system's, ``program``) on a free loopback port, keeping
    nothing on disk (its folder is ``folder``): a context manager giving its URL (database 0),
    that stops it after. ``available()`` says whether the program is installed."""

    def __init__(self, folder: Any, program: str = "redis-server") -> None:
        self.folder, self.program = str(folder), program
        self.port = free_port()
        self.proc: Any = None

    @staticmethod
    def available(program: str = "redis-server") -> bool:
        return shutil.which(program) is not None

    def __enter__(self) -> str:
        with open(os.path.join(self.folder, "redis.log"), "wb") as out:
            self.proc = subprocess.Popen(
                [self.program, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                 "--dir", self.folder], stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        url, deadline = f"redis://127.0.0.1:{self.port}/0", time.monotonic() + 30
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                if redis_command(url, "PING") == b"+PONG":
                    return url
            except OSError:
                pass
            time.sleep(0.05)
        self.__exit__()
        log = open(os.path.join(self.folder, "redis.log")).read()
        raise AssertionError(f"redis-server did not start: {log[-2000:]}")

    def __exit__(self, *exc: Any) -> None:
        if self.proc is not None:
            stop_process(self.proc)


def redis_command(url: str, *words: str) -> bytes:
    """Send one command to the Redis at ``url`` (``redis://HOST:PORT/DB``, in that database),
    inline as redis-cli would, and read its one-line answer (``+OK``, ``+PONG``, ``:3``)."""

    where = urlsplit(url)
    with socket.create_connection((where.hostname or "127.0.0.1", where.port or 6379), timeout=5) as sock:
        sock.sendall(f"SELECT {where.path.strip('/') or 0}\r\n{' '.join(words)}\r\n".encode())
        answer = b""
        while answer.count(b"\r\n") < 2:
            got = sock.recv(4096)
            if not got:
                raise ConnectionError("redis-server closed the connection")
            answer += got
        return answer.split(b"\r\n")[1]
