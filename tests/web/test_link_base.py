"""One base for every absolute link (scorepad/links.py): PUBLIC_URL when set; else, for a
request sent to a loopback host, the address ``flask serve`` advertises; else the request's
own host. The pages' QR codes, the API's ``*_url`` fields, the PDFs and ``flask game show
--edit-link`` all take it. (``flask serve`` itself: tests/cli/test_serve.py.)"""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from scorepad import links
from scorepad.api import http
from scorepad.app import StartupError
from scorepad.web.common import qr, qr_image
from tests.helpers import api_game, grant
from tests.web.test_view_qr import view_qr_of

LAN = "http://192.168.1.20:8000/"
PUBLIC = "https://scores.example.org/"
LOOPBACK_HOSTS = ["127.0.0.1:5000", "localhost:5000", "[::1]:8000", "127.0.0.2", "localhost"]
OTHER_HOSTS = ["192.168.1.20:8000", "scores.local:8000", "[fe80::1]:8080", "10.0.0.5", "localhost.example.org"]


def _base(app, host: str) -> str:
    with app.test_request_context("/", headers={"Host": host}):
        return links.link_base()


@pytest.mark.parametrize("host", LOOPBACK_HOSTS + OTHER_HOSTS)
def test_without_a_setting_or_an_advertised_address_the_base_is_the_request_s_host(app, host):
    assert _base(app, host) == f"http://{host}/"


@pytest.mark.parametrize("host", LOOPBACK_HOSTS)
def test_a_request_to_a_loopback_host_gets_the_advertised_address(app, host):
    links.advertise(app, LAN.rstrip("/"))
    assert _base(app, host) == LAN


@pytest.mark.parametrize("host", OTHER_HOSTS)
def test_a_request_to_any_other_host_keeps_its_host_when_an_address_is_advertised(app, host):
    links.advertise(app, LAN)
    assert _base(app, host) == f"http://{host}/"


@pytest.mark.parametrize("host", LOOPBACK_HOSTS + OTHER_HOSTS)
def test_public_url_comes_before_the_advertised_address_and_the_host(make_app, host):
    app = make_app(PUBLIC_URL=PUBLIC.rstrip("/"))
    links.advertise(app, LAN)
    assert _base(app, host) == PUBLIC


def test_public_url_is_read_from_the_environment(make_app, monkeypatch):
    monkeypatch.setenv("SCOREPAD_PUBLIC_URL", "https://cards.example.net:8443")
    assert _base(make_app(), "127.0.0.1:5000") == "https://cards.example.net:8443/"


@pytest.mark.parametrize("bad", ["scores.example.org", "ftp://scores.example.org", "https://", "http://x/?a=1"])
def test_a_public_url_that_is_no_web_address_stops_start_up(make_app, bad):
    with pytest.raises(StartupError, match="PUBLIC_URL"):
        make_app(PUBLIC_URL=bad)


def test_the_api_s_links_the_pages_links_and_qr_codes_and_the_pdf_all_start_with_public_url(make_app):
    app = make_app(PUBLIC_URL=PUBLIC)
    client = app.test_client()
    created = client.post("/api/v1/games", json={"name": "Friday", "sheet": "common",
                                                 "sides": [{"name": "Ann", "players": ["Ann"]},
                                                           {"name": "Bea", "players": ["Bea"]}]})
    body = created.get_json()
    game, key = body["id"], body["edit_key"]
    assert (body["view_url"], body["edit_url"], body["api_url"]) == (
        f"{PUBLIC}games/{game}", f"{PUBLIC}games/{game}/edit/{key}", f"{PUBLIC}api/v1/games/{game}")
    assert client.get(f"/api/v1/games/{game}").get_json()["view_url"] == f"{PUBLIC}games/{game}"
    grant(client, game, key)
    page = client.get(f"/games/{game}").get_data(as_text=True)
    assert view_qr_of(client, page) == qr_image(f"{PUBLIC}games/{game}", "the view link")
    with app.test_request_context():
        assert str(qr(f"{PUBLIC}games/{game}/edit/{key}", "the edit link")) in page
    assert "http://localhost/" not in page
    pdf = client.get(f"/games/{game}/sheet.pdf").data
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert f"{PUBLIC}games/{game}" in "".join(text.split())


def test_the_editor_s_page_from_loopback_gives_the_advertised_links(app):
    """The edit link and its QR code, shown again on the editor's game page (under "Show the
    edit link", sent no-store), use the advertised address when the page is opened from loopback."""
    links.advertise(app, LAN)
    client = app.test_client()
    game, key = api_game(client)
    here = "http://127.0.0.1:8000"
    assert client.get(f"/games/{game}/edit/{key}", base_url=here).status_code == 303
    page = client.get(f"/games/{game}", base_url=here)
    text = page.get_data(as_text=True)
    assert page.headers["Cache-Control"] == "no-store"
    assert f'<a href="{LAN}games/{game}/edit/{key}">' in text and "127.0.0.1" not in text
    with app.test_request_context():
        assert str(qr(f"{LAN}games/{game}/edit/{key}", "the edit link")) in text
    there = "http://scores.local:8000"
    assert client.get(f"/games/{game}/edit/{key}", base_url=there).status_code == 303
    other = client.get(f"/games/{game}", base_url=there).get_data(as_text=True)
    assert f'<a href="http://scores.local:8000/games/{game}/edit/{key}">' in other


def test_the_api_s_page_links_come_from_the_page_routes_read_once(app, client):
    """The API's ``view_url`` and ``edit_url`` are the page routes' links (api.http.page_url),
    the routes read by shape once per app, not walked for each link."""
    body = client.post("/api/v1/games", json={"name": "Friday", "sheet": "common", "sides": [
        {"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]}).get_json()
    routes = app.extensions[http.PAGE_ROUTES]
    assert routes[("/games/{}", 1)] == ("games.game", ["game_id"])
    assert routes[("/games/{}/edit/{}", 2)] == ("games.edit_link", ["game_id", "key"])
    assert routes == http.page_routes(app.url_map.iter_rules())
    game = body["id"]
    assert (body["view_url"], body["edit_url"]) == (f"http://localhost/games/{game}",
                                                    f"http://localhost/games/{game}/edit/{body['edit_key']}")
    assert client.get(f"/api/v1/games/{game}").get_json()["view_url"] == body["view_url"]


def test_the_base_worked_out_once_a_host_still_follows_each_request_s_host_and_a_new_advertised_address(app):
    """The origin is kept per scheme, host and advertised address (links._request_origin):
    each request still gets its own host's, over HTTP or HTTPS, and an address advertised
    later is given to the loopback hosts from then on."""
    for n in range(3):
        for host in (f"table-{n}.example:8000", "127.0.0.1:5000"):
            assert _base(app, host) == f"http://{host}/"
    with app.test_request_context("/", headers={"Host": "scores.local"}, base_url="https://scores.local"):
        assert links.link_base() == "https://scores.local/"
    links.advertise(app, LAN)
    assert _base(app, "127.0.0.1:5000") == LAN and _base(app, "table-1.example:8000") == "http://table-1.example:8000/"
