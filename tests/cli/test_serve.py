"""``flask --app scorepad serve``: waitress, the address the phones open (printed and drawn
as a QR code in the terminal), and links from that address on pages opened from loopback.

The server is the real command in a subprocess (``python -m flask --app scorepad serve
--advertise 192.0.2.7 --port <free>``, bound to loopback for the test); the game is made
through 127.0.0.1 as on the serving machine. 192.0.2.7 is a documentation address
(RFC 5737): nothing is sent there."""

from __future__ import annotations

import http.cookiejar
import io
import json
import re
import socket
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import segno
from pypdf import PdfReader

from scorepad.cli.serve import lan_address, url_of
from scorepad.web.common import qr
from tests.hardening import ANN_BEA, ProductionServer

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
        assert str(qr(edit, "the edit link")) in page and str(qr(view, "the view link")) in page
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
