"""``flask --app scorepad serve``: the production server (granian), the address the phones
open (printed and drawn as a QR code in the terminal), links from that address on pages
opened from loopback, and what the server holds against a stranger: connections held open
half-way (slowloris), and a request framed two ways (``Content-Length`` and
``Transfer-Encoding``) to smuggle a second request in after it.

The server is the real command in a subprocess (``python -m flask --app scorepad serve
--advertise 192.0.2.7 --port <free>``, bound to loopback for the test); the game is made
through 127.0.0.1 as on the serving machine. 192.0.2.7 is a documentation address
(RFC 5737): nothing is sent there."""

from __future__ import annotations

import http.client
import http.cookiejar
import io
import json
import os
import re
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import segno
from pypdf import PdfReader

from scorepad.cli.flask_serve import lan_address, served_app, url_of
from scorepad.web.common import qr, qr_image
from tests.helpers import ANN_BEA, ProductionServer, valid_deal
from tests.web.test_view_qr import view_qr_src

ROOT = Path(__file__).resolve().parents[2]
ADVERTISED = "192.0.2.7"


class Serve(ProductionServer):
    """``flask --app scorepad serve ARGS`` in a subprocess on a free port, serving ``database``;
    ``output`` is what it printed; stopped on exit."""

    def __init__(self, database: Path, *args: str, env: dict[str, str] | None = None) -> None:
        super().__init__(str(database), str(database.with_suffix(".log")),
                         env={"SCOREPAD_SECRET_KEY": "serve-test", "SCOREPAD_INSTANCE_PATH": str(database.parent),
                              "PYTHONIOENCODING": "utf-8", **(env or {})},
                         command=lambda port: [sys.executable, "-m", "flask", "--app", "scorepad", "serve",
                                               "--port", str(port), *args])
        self.local = f"http://127.0.0.1:{self.port}"

    @property
    def output(self) -> str:
        return Path(self.log).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def advertised(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    folder = tmp_path_factory.mktemp("serve")
    with Serve(folder / "scorepad.sqlite", "--host", "127.0.0.1", "--threads", "2", "--advertise", ADVERTISED) as s:
        yield s


def _browser() -> urllib.request.OpenerDirector:
    """A client that keeps its cookies (the session holding the edit key), as a browser does."""
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def _create(base: str) -> dict[str, Any]:
    request = urllib.request.Request(f"{base}/api/v1/games", json.dumps(
        {"name": "Friday", "sheet": "common", "sides": ANN_BEA}).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 201
        return json.loads(response.read())


def test_serve_prints_the_address_phones_open_and_its_qr_code(advertised):
    url = f"http://{ADVERTISED}:{advertised.port}/"
    lines = advertised.output.splitlines()
    start = lines.index(f"Phones: open {url}")
    drawn = io.StringIO()
    segno.make(url, error="m").terminal(out=drawn, compact=True)
    assert "\n".join(lines[start + 1:start + 1 + len(drawn.getvalue().splitlines())]) == drawn.getvalue().rstrip("\n")


def test_a_game_made_through_loopback_gets_links_at_the_advertised_address(advertised):
    base = f"http://{ADVERTISED}:{advertised.port}/"
    game = _create(advertised.local)
    assert game["view_url"] == f"{base}games/{game['id']}"
    assert game["edit_url"] == f"{base}games/{game['id']}/edit/{game['edit_key']}"
    assert game["api_url"] == f"{base}api/v1/games/{game['id']}"


def test_the_editor_s_page_and_the_pdf_opened_from_loopback_give_the_advertised_links(advertised, app):
    base = f"http://{ADVERTISED}:{advertised.port}/"
    game = _create(advertised.local)
    view, edit = f"{base}games/{game['id']}", f"{base}games/{game['id']}/edit/{game['edit_key']}"
    browser = _browser()
    local_edit = edit.replace(base, f"{advertised.local}/")
    with browser.open(local_edit, timeout=30) as response:  # follows the redirect to the game page
        page = response.read().decode()
        assert response.url == f"{advertised.local}/games/{game['id']}"
    assert f'<a href="{edit}">' in page and f'<a href="{view}">' in page
    with app.test_request_context():
        assert str(qr(edit, "the edit link")) in page
    with browser.open(advertised.local + view_qr_src(page), timeout=30) as response:  # the view link's, an image
        assert response.read() == qr_image(view, "the view link")
    assert "127.0.0.1" not in page
    with browser.open(f"{advertised.local}/games/{game['id']}/sheet.pdf", timeout=60) as response:
        text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(response.read())).pages)
    assert view in "".join(text.split())


def test_serve_on_loopback_only_says_that_phones_cannot_connect_and_advertises_nothing(tmp_path):
    with Serve(tmp_path / "scorepad.sqlite", "--host", "127.0.0.1") as served:
        game = _create(served.local)
        assert game["view_url"] == f"{served.local}/games/{game['id']}"
        output = served.output
    assert "Phones:" not in output
    assert "No address for phones: it listens on this machine only (--host 127.0.0.1)" in output
    assert f"This machine: open {served.local}/" in output


def test_public_url_is_what_serve_prints_and_every_link_starts_with(tmp_path):
    with Serve(tmp_path / "scorepad.sqlite", "--host", "127.0.0.1", "--advertise", ADVERTISED,
               env={"SCOREPAD_PUBLIC_URL": "https://scores.example.org"}) as served:
        game = _create(served.local)
        output = served.output
    assert game["view_url"] == f"https://scores.example.org/games/{game['id']}"
    assert re.search(r"^Phones: open https://scores\.example\.org/$", output, re.M), output


def test_the_lan_address_found_is_one_of_this_machine_s_own_or_none():
    """Found without sending anything; when found, it is an address a socket here can bind."""
    found = lan_address()
    if found is not None:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.bind((found, 0))
    assert lan_address(("127.0.0.1", 9)) is None  # only loopback reaches there: no LAN address


def test_an_ipv6_address_is_written_in_brackets():
    assert url_of("fd00::7", 8000) == "http://[fd00::7]:8000/"
    assert url_of("192.168.1.20", 8000) == "http://192.168.1.20:8000/"


# -- what the server holds against a stranger ------------------------------------------------------

HALF_OPEN = 300  # connections a stranger holds open, each having sent part of a request and nothing more


def test_a_request_is_answered_while_300_half_open_connections_are_held(tmp_path):
    """waitress took 100 connections at once: 110 half-open ones and every request waited 45 s."""
    with Serve(tmp_path / "scorepad.sqlite", "--host", "127.0.0.1") as served:
        held = [socket.create_connection(("127.0.0.1", served.port), timeout=5) for _ in range(HALF_OPEN)]
        try:
            for sock in held:
                sock.sendall(b"GET /api/v1/sheets HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=5)
            conn.request("GET", "/api/v1/sheets")
            response = conn.getresponse()
            assert response.status == 200 and json.loads(response.read())["sheets"]
            conn.close()
        finally:
            for sock in held:
                sock.close()


def test_a_connection_that_does_not_finish_its_headers_is_closed_after_the_header_timeout(tmp_path):
    with Serve(tmp_path / "scorepad.sqlite", "--host", "127.0.0.1", "--header-timeout", "1") as served:
        with socket.create_connection(("127.0.0.1", served.port), timeout=30) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            assert _read_to_close(sock) == b""  # closed with no answer, long before the client gives up


def _read_to_close(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a client timeout fails)."""
    got = b""
    while chunk := sock.recv(65536):
        got += chunk
    return got


def test_a_request_with_both_framings_runs_no_request_smuggled_after_it(tmp_path):
    """``Content-Length`` and ``Transfer-Encoding: chunked`` together: the body is read by
    ``Transfer-Encoding`` alone (an empty chunked body) or the request is refused with 400,
    and either way the connection is closed after the one answer (RFC 9112 section 6.1), so
    the deal write sent after the chunked body (within the Content-Length) never runs.
    waitress read it chunked, kept the connection, and recorded the smuggled deal (201)."""
    with Serve(tmp_path / "scorepad.sqlite", "--host", "127.0.0.1") as served:
        game = _create(served.local)
        deal = json.dumps(valid_deal()).encode()
        smuggled = (f"POST /api/v1/games/{game['id']}/deals HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    f"Authorization: Bearer {game['edit_key']}\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(deal)}\r\n\r\n").encode() + deal
        body = b"0\r\n\r\n" + smuggled
        outer = (b"POST /api/v1/score HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: " + str(len(body)).encode() + b"\r\nTransfer-Encoding: chunked\r\n\r\n")
        with socket.create_connection(("127.0.0.1", served.port), timeout=10) as sock:
            sock.sendall(outer + body)
            answered = _read_to_close(sock)  # a connection kept open would time out here
        statuses = re.findall(rb"^HTTP/1\.[01] (\d{3})", answered, re.M)
        assert len(statuses) == 1 and statuses[0] in (b"400", b"422", b"200"), answered[:500]
        with urllib.request.urlopen(f"{served.local}/api/v1/games/{game['id']}", timeout=30) as response:
            assert json.loads(response.read())["deals"] == []


def test_serve_on_a_port_another_server_listens_on_refuses_to_start(advertised):
    """granian listens with SO_REUSEPORT: without the check a second serve would start and share
    the port's connections with the first, unseen."""
    done = subprocess.run([sys.executable, "-m", "flask", "--app", "scorepad", "serve", "--host", "127.0.0.1",
                           "--port", str(advertised.port)], capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "SCOREPAD_SECRET_KEY": "x",
                               "SCOREPAD_DATABASE": str(Path(advertised.log).with_suffix(".second.sqlite"))})
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert f"Error: port {advertised.port} on 127.0.0.1 is in use" in done.stderr, done.stderr


def test_the_app_a_server_runs_has_every_template_compiled_before_its_first_request(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREPAD_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("SCOREPAD_DATABASE", str(tmp_path / "scorepad.sqlite"))
    monkeypatch.setenv("SCOREPAD_SECRET_KEY", "serve-test")
    app = served_app("scorepad", None)
    compiled = {template.name for template in app.jinja_env.cache.values()}
    assert "games/game.html" in compiled and compiled == set(app.jinja_env.list_templates())
