"""Behind a proxy (issue 14): ``PROXIES``, the number of proxies in front of scorepad that set
``X-Forwarded-*``, has werkzeug's ``ProxyFix`` make the real client's scheme, host and
address the request's. Then every absolute link (the API's ``*_url`` fields, the game page's
links and QR codes, the PDFs) is https when the client used https, the session cookie is
Secure, and the rate limits count each client apart. Without it (the default) those headers
are ignored: any client could send them. ``PUBLIC_URL`` still comes first for links.
"""

from __future__ import annotations

import http.client
import io
import json

import pytest
from pypdf import PdfReader

from scorepad.app import StartupError
from scorepad.web.common import qr, qr_image
from tests.helpers import ANN_BEA, REPEAT, api_game, bearer, form_fields, text_of, valid_deal
from tests.web.test_view_qr import view_qr_of

HOST = "scores.example.org"
HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": HOST}
NEW_GAME = {"name": "Friday", "sheet": "common", "sides": ANN_BEA}


def assert_every_link_starts_with(base: str, app, headers: dict[str, str]) -> str:
    """Make a game through the API, open its edit link, read its page and its PDF, each
    request sent with ``headers``: every absolute link in the answers starts with ``base``.
    The game page, for more checks."""
    client = app.test_client()
    body = client.post("/api/v1/games", json=NEW_GAME, headers=headers).get_json()
    game, key = body["id"], body["edit_key"]
    view, edit = f"{base}games/{game}", f"{base}games/{game}/edit/{key}"
    assert (body["view_url"], body["edit_url"], body["api_url"]) == (view, edit, f"{base}api/v1/games/{game}")
    assert client.get(f"/api/v1/games/{game}", headers=headers).get_json()["view_url"] == view
    assert client.get(f"/games/{game}/edit/{key}", headers=headers).status_code == 303
    page = client.get(f"/games/{game}", headers=headers).get_data(as_text=True)
    assert f'<a href="{view}">' in page and f'<a href="{edit}">' in page
    assert view_qr_of(client, page, headers) == qr_image(view, "the view link")
    with app.test_request_context():
        assert str(qr(edit, "the edit link")) in page
    pdf = client.get(f"/games/{game}/sheet.pdf", headers=headers).data
    assert view in "".join("".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())
    return page


def session_cookies(app, headers: dict[str, str]) -> list[str]:
    """The session cookies a browser gets, with the form token on (each request sent with
    ``headers``): the new-game form's token, then the new game's edit rights. Posting the
    form also shows it is accepted with no Referer, which browsers never send here
    (``Referrer-Policy: no-referrer``)."""
    client = app.test_client()
    form = client.get("/new", headers=headers)
    cookies = form.headers.getlist("Set-Cookie")
    data = form_fields(form.get_data(as_text=True), "/new")
    assert data["csrf_token"]
    data.update({"name": "Friday", "side-0-p0": "Ann", "side-1-p0": "Bea"})
    created = client.post("/new", data=data, headers=headers)
    assert created.status_code == 303, text_of(created.get_data(as_text=True))[:300]
    cookies += created.headers.getlist("Set-Cookie")
    assert len(cookies) == 2 and all(c.startswith("session=") for c in cookies), cookies
    return cookies


def is_secure(cookie: str) -> bool:
    return "secure" in {part.strip().lower() for part in cookie.split(";")[1:]}


# -- links ------------------------------------------------------------------------------------------

def test_with_one_proxy_a_request_forwarded_from_https_gets_https_links_everywhere(make_app):
    page = assert_every_link_starts_with(f"https://{HOST}/", make_app(PROXIES=1), HTTPS)
    assert "http://localhost" not in page


def test_with_one_proxy_a_request_forwarded_from_http_keeps_http_links(make_app):
    assert_every_link_starts_with(f"http://{HOST}/", make_app(PROXIES=1),
                                  {"X-Forwarded-Proto": "http", "X-Forwarded-Host": HOST})


def test_without_proxies_the_forwarded_scheme_and_host_are_ignored(make_app):
    page = assert_every_link_starts_with("http://localhost/", make_app(), HTTPS)
    assert HOST not in page and "https:" not in page


def test_prefix_is_the_site_root_of_every_link_and_of_the_worker(make_app):
    """scorepad served under /hf (the setting PREFIX): links, and the service worker, name
    the paths under /hf; requests reach it with the prefix still on the path or taken off."""
    app = make_app(PROXIES=1, PREFIX="/hf")
    page = assert_every_link_starts_with(f"https://{HOST}/hf/", app, HTTPS)
    assert 'src="/hf/static/theme.js"' in page and 'href="/hf/manifest.webmanifest"' in page
    client = app.test_client()
    for path in ("/sw.js", "/hf/sw.js"):
        worker = client.get(path, headers=HTTPS).get_data(as_text=True)
        assert '"/hf/offline"' in worker and '"/offline"' not in worker


def test_a_forwarded_prefix_is_never_the_site_root(make_app):
    """X-Forwarded-Prefix is ignored even with PROXIES: only PREFIX says where the site is."""
    for config, base in (({}, f"https://{HOST}/"), ({"PREFIX": "/hf"}, f"https://{HOST}/hf/")):
        app = make_app(PROXIES=1, **config)
        page = assert_every_link_starts_with(base, app, {**HTTPS, "X-Forwarded-Prefix": "/other"})
        worker = app.test_client().get("/sw.js", headers={**HTTPS, "X-Forwarded-Prefix": "/other"})
        assert "/other" not in page and "/other" not in worker.get_data(as_text=True)


POISON = {"X-Forwarded-Prefix": "//evil.example", "X-Forwarded-Host": "evil.example",
          "X-Forwarded-Proto": "https", "X-Forwarded-Port": "8443", "Host": "evil.example"}


@pytest.mark.parametrize("config", [{"PROXIES": 1}, {"PROXIES": 1, "PREFIX": "/hf"}, {}])
def test_one_request_with_forged_forwarded_headers_changes_no_page_another_viewer_gets(make_app, config):
    """The viewer's game page and the rescore page are built once per revision and served to
    every viewer: a stranger who asks first with a forged prefix and host must not have them
    built for evil.example (issue 21, item 2). Nor the service worker or the manifest."""
    app = make_app(**config)
    stranger, viewer = app.test_client(), app.test_client()
    game_id, key = api_game(stranger)
    assert stranger.post(f"/api/v1/games/{game_id}/deals", json=valid_deal(), headers=bearer(key)).status_code == 201
    shared = (f"/games/{game_id}", f"/games/{game_id}/rescore?sheet=pagat", f"/games/{game_id}/rescore",
              "/sw.js", "/manifest.webmanifest", f"/api/v1/games/{game_id}")
    for path in shared:
        assert stranger.get(path, headers=POISON).status_code == 200, path
    for path in shared:
        answer = viewer.get(path)
        assert answer.status_code == 200 and "evil.example" not in answer.get_data(as_text=True), path


def test_the_worker_is_the_same_whatever_prefix_a_request_sends(make_app):
    """One worker for the one root: 150 requests with as many long prefixes all get the
    root's worker (it used to be written, and kept, once per prefix: 165 MB for 150)."""
    client = make_app(PROXIES=1).test_client()
    root = client.get("/sw.js").get_data()
    for n in range(150):
        forged = client.get("/sw.js", headers={"X-Forwarded-Prefix": f"/{n}" + "x" * 2000})
        assert forged.get_data() == root


def test_public_url_with_a_path_is_the_site_root(make_app):
    base = "https://club.example.org/cards/"
    app = make_app(PROXIES=1, PUBLIC_URL=base.rstrip("/"))
    assert app.config["PREFIX"] == "/cards"
    page = assert_every_link_starts_with(base, app, {})
    assert 'src="/cards/static/theme.js"' in page and "/cards/cards/" not in page


def test_prefix_is_read_from_the_environment(make_app, monkeypatch):
    monkeypatch.setenv("SCOREPAD_PREFIX", "/scorepad/")
    app = make_app()
    assert app.config["PREFIX"] == "/scorepad"
    assert_every_link_starts_with("http://localhost/scorepad/", app, {})


@pytest.mark.parametrize("bad", ["scorepad", "/a b", "/a?b", "/../x", "/a/./b", "//evil.example", "/a%2f", 7])
def test_a_prefix_that_is_no_path_stops_start_up_naming_the_setting(make_app, bad):
    with pytest.raises(StartupError, match="SCOREPAD_PREFIX"):
        make_app(PREFIX=bad)


def test_a_prefix_other_than_public_url_s_path_stops_start_up(make_app):
    with pytest.raises(StartupError, match="PUBLIC_URL's path is '/cards'"):
        make_app(PREFIX="/hf", PUBLIC_URL="https://club.example.org/cards")
    assert make_app(PREFIX="/cards/", PUBLIC_URL="https://club.example.org/cards/").config["PREFIX"] == "/cards"


def test_public_url_comes_before_the_forwarded_scheme_and_host(make_app):
    base = "http://cards.example.net:8080/"
    page = assert_every_link_starts_with(base, make_app(PROXIES=1, PUBLIC_URL=base), HTTPS)
    assert HOST not in page


# -- the session cookie -------------------------------------------------------------------------------

def test_with_one_proxy_the_session_cookie_is_secure_when_the_client_used_https(make_app):
    app = make_app(PROXIES=1, WTF_CSRF_ENABLED=True)
    assert all(is_secure(cookie) for cookie in session_cookies(app, HTTPS))
    assert not any(is_secure(cookie) for cookie in session_cookies(app, {"X-Forwarded-Proto": "http"}))


def test_without_proxies_a_forwarded_https_makes_no_secure_cookie(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    assert not any(is_secure(cookie) for cookie in session_cookies(app, HTTPS))


def test_session_cookie_secure_still_makes_every_cookie_secure(make_app):
    app = make_app(PROXIES=1, WTF_CSRF_ENABLED=True, SESSION_COOKIE_SECURE=True)
    assert all(is_secure(cookie) for cookie in session_cookies(app, {"X-Forwarded-Proto": "http"}))


def test_over_https_a_form_with_its_token_is_taken_without_a_referer(make_app):
    """Every page says ``Referrer-Policy: no-referrer``, so a browser sends no Referer: over
    https the session's token is the check (Flask-WTF's referrer check would refuse every form)."""
    session_cookies(make_app(PROXIES=1, WTF_CSRF_ENABLED=True), HTTPS)


def test_over_https_a_form_without_its_token_is_still_refused(make_app):
    client = make_app(PROXIES=1, WTF_CSRF_ENABLED=True).test_client()
    client.get("/new", headers=HTTPS)
    refused = client.post("/new", data={"name": "Friday", "side-0-p0": "Ann", "side-1-p0": "Bea"}, headers=HTTPS)
    assert refused.status_code == 400 and "This form has expired" in refused.get_data(as_text=True)


# -- rate limits ----------------------------------------------------------------------------------

def creates(client, forwarded_for: str) -> int:
    """The status of creating a game through the API, forwarded for ``forwarded_for``."""
    return client.post("/api/v1/games", json=NEW_GAME, headers={"X-Forwarded-For": forwarded_for}).status_code


def test_with_one_proxy_each_forwarded_client_has_its_own_rate_limit(make_app):
    client = make_app(PROXIES=1, RATELIMIT_ENABLED=True, LIMIT_CREATE="2 per minute").test_client()
    assert [creates(client, "203.0.113.1") for _ in range(3)] == [201, 201, 429]
    assert [creates(client, "203.0.113.2") for _ in range(3)] == [201, 201, 429]


def test_without_proxies_every_client_behind_the_proxy_shares_its_rate_limit(make_app):
    client = make_app(RATELIMIT_ENABLED=True, LIMIT_CREATE="2 per minute").test_client()
    assert [creates(client, "203.0.113.1") for _ in range(2)] == [201, 201]
    assert creates(client, "203.0.113.2") == 429  # counted as the proxy's address, already at its limit


def test_with_two_proxies_the_address_the_outer_proxy_saw_is_the_client_s(make_app):
    """Two proxies each append the address they were sent from: the last is the outer
    proxy's, the one before it the client's; anything before that the client wrote itself."""
    client = make_app(PROXIES=2, RATELIMIT_ENABLED=True, LIMIT_CREATE="1 per minute").test_client()
    assert creates(client, "198.51.100.9, 203.0.113.1, 10.0.0.2") == 201
    assert creates(client, "198.51.100.10, 203.0.113.1, 10.0.0.2") == 429  # a new forgery, the same client
    assert creates(client, "198.51.100.9, 203.0.113.2, 10.0.0.2") == 201  # the same forgery, another client


def test_with_two_proxies_a_request_that_passed_only_one_uses_the_socket_s_address(make_app):
    """Fewer forwarded addresses than PROXIES: none is trusted, and the one it gives is not taken."""
    client = make_app(PROXIES=2, RATELIMIT_ENABLED=True, LIMIT_CREATE="1 per minute").test_client()
    assert creates(client, "203.0.113.1") == 201
    assert creates(client, "203.0.113.2") == 429


# -- the setting ---------------------------------------------------------------------------------------

def test_proxies_is_read_from_the_environment(make_app, monkeypatch):
    monkeypatch.setenv("SCOREPAD_PROXIES", "1")
    app = make_app()
    assert app.config["PROXIES"] == 1
    assert_every_link_starts_with(f"https://{HOST}/", app, HTTPS)


@pytest.mark.parametrize("bad", ["two", "-1", "1.5", "true", ""])
def test_a_proxies_value_that_is_no_count_stops_start_up_naming_the_setting(make_app, monkeypatch, bad):
    monkeypatch.setenv("SCOREPAD_PROXIES", bad)
    with pytest.raises(StartupError, match="PROXIES"):
        make_app()


@pytest.mark.parametrize("bad", [-1, 1.5, True, None, "x"])
def test_a_proxies_setting_that_is_no_count_stops_start_up(make_app, bad):
    with pytest.raises(StartupError, match="SCOREPAD_PROXIES"):
        make_app(PROXIES=bad)


# -- behind a real proxy: nginx in front of the production server ------------------------------------

def through(proxy, source: str, method: str, path: str, body: dict | None = None, https: bool = False,
            headers: dict[str, str] | None = None) -> tuple[int, dict[str, list[str]], bytes]:
    """One request through ``proxy`` (nginx) from the loopback address ``source`` (a phone of
    its own): the status, the headers (lower-case names, every value) and the body."""
    conn = proxy.connection(source, https=https)
    try:
        sent = dict(headers or {})
        data = None
        if body is not None:
            data, sent["Content-Type"] = json.dumps(body).encode(), "application/json"
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        got: dict[str, list[str]] = {}
        for name, value in response.getheaders():
            got.setdefault(name.lower(), []).append(value)
        return response.status, got, response.read()
    finally:
        conn.close()


def test_behind_nginx_with_one_proxy_each_phone_has_its_own_create_limit(production_server, nginx_proxy):
    """Phone A's creates reaching the limit leave phone B's untouched: the server passes nginx's
    X-Forwarded-For to the app, which PROXIES=1 trusts (waitress cleared it, and every phone
    counted as nginx's 127.0.0.1)."""
    server = production_server(SCOREPAD_PROXIES="1", SCOREPAD_RATELIMIT_ENABLED="true",
                               SCOREPAD_LIMIT_CREATE="2 per minute")
    proxy = nginx_proxy(server.port)
    a = [through(proxy, "127.0.0.21", "POST", "/api/v1/games", NEW_GAME)[0] for _ in range(3)]
    b = [through(proxy, "127.0.0.22", "POST", "/api/v1/games", NEW_GAME)[0] for _ in range(3)]
    assert (a, b) == ([201, 201, 429], [201, 201, 429])


def test_behind_nginx_over_https_the_request_is_secure_and_the_session_cookie_is_secure(production_server,
                                                                                         nginx_proxy):
    """Over nginx's HTTPS the app sees an https request (links start https://, the session cookie
    is Secure); over its plain HTTP neither, even when the client itself claims https."""
    server = production_server(SCOREPAD_PROXIES="1")
    proxy = nginx_proxy(server.port)
    status, headers, body = through(proxy, "127.0.0.23", "POST", "/api/v1/games", NEW_GAME, https=True)
    assert status == 201 and json.loads(body)["view_url"].startswith(f"{proxy.https_base}/games/"), body
    status, headers, _ = through(proxy, "127.0.0.23", "GET", "/new", https=True)
    assert status == 200 and headers["set-cookie"] and all(is_secure(c) for c in headers["set-cookie"]), headers
    status, headers, body = through(proxy, "127.0.0.24", "POST", "/api/v1/games", NEW_GAME,
                                    headers={"X-Forwarded-Proto": "https"})
    assert status == 201 and json.loads(body)["view_url"].startswith(f"{proxy.base}/games/"), body
    status, headers, _ = through(proxy, "127.0.0.24", "GET", "/new", headers={"X-Forwarded-Proto": "https"})
    assert status == 200 and headers["set-cookie"] and not any(is_secure(c) for c in headers["set-cookie"]), headers


@pytest.mark.parametrize("prefix", ["", "/hf"])
def test_behind_nginx_forged_forwarded_headers_poison_no_page_another_viewer_gets(production_server, nginx_proxy,
                                                                                   prefix):
    """A stranger asks first for every page kept once per revision (the viewer's game page,
    the rescore page, the worker, the manifest, the game's JSON) with a forged prefix and host,
    through nginx and straight to the server (where PROXIES=1 trusts whoever connects): a
    viewer who comes after, through nginx, finds no evil.example anywhere (issue 21, item 2).
    Under PREFIX=/hf nginx passes the path as it came, /hf/... ."""
    server = production_server(SCOREPAD_PROXIES="1", SCOREPAD_PREFIX=prefix)
    proxy = nginx_proxy(server.port)
    status, _, body = through(proxy, "127.0.0.31", "POST", f"{prefix}/api/v1/games", NEW_GAME)
    assert status == 201, body
    game = json.loads(body)
    deals, key = f"{prefix}/api/v1/games/{game['id']}/deals", bearer(game["edit_key"])
    assert through(proxy, "127.0.0.31", "POST", deals, valid_deal(), headers=key)[0] == 201
    shared = [f"{prefix}{path}" for path in (f"/games/{game['id']}", f"/games/{game['id']}/rescore?sheet=pagat",
                                             "/sw.js", "/manifest.webmanifest", f"/api/v1/games/{game['id']}")]
    for number, straight in ((2, True), (3, False)):  # straight to the server, then through nginx
        for path in shared:
            if straight:
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
                conn.request("GET", path, headers=POISON)
                assert conn.getresponse().status == 200, path
                conn.close()
            else:
                assert through(proxy, "127.0.0.32", "GET", path, headers=POISON)[0] == 200, path
        for path in shared:
            status, _, body = through(proxy, "127.0.0.33", "GET", path)
            assert status == 200 and b"evil.example" not in body, (path, body[:300])
        assert through(proxy, "127.0.0.31", "POST", deals, valid_deal(number) | REPEAT, headers=key)[0] == 201
    page = through(proxy, "127.0.0.33", "GET", shared[0])[2].decode()
    assert f'src="{prefix}/static/theme.js"' in page and f'data-poll="{prefix}/api/v1/games/' in page


def test_behind_nginx_keyless_writes_from_the_table_s_address_leave_its_phones_writing(production_server,
                                                                                       nginx_proxy):
    """Behind one address (a club's Wi-Fi, here 127.0.0.41 through nginx), someone holding only
    the view link sends 30 keyless deals: refused (401, then 429 past LIMIT_REFUSED), and the
    table's phone at that address, and another, go on writing (issue 21, item 4)."""
    server = production_server(SCOREPAD_PROXIES="1", SCOREPAD_RATELIMIT_ENABLED="true",
                               SCOREPAD_LIMIT_WRITE="10 per minute", SCOREPAD_LIMIT_REFUSED="5 per minute")
    proxy = nginx_proxy(server.port)
    status, _, body = through(proxy, "127.0.0.41", "POST", "/api/v1/games", NEW_GAME)
    assert status == 201, body
    game = json.loads(body)
    deals, key = f"/api/v1/games/{game['id']}/deals", bearer(game["edit_key"])
    keyless = [through(proxy, "127.0.0.41", "POST", deals, valid_deal())[0] for _ in range(30)]
    assert keyless == [401] * 5 + [429] * 25, keyless
    assert through(proxy, "127.0.0.41", "POST", deals, valid_deal(), headers=key)[0] == 201
    table = [through(proxy, "127.0.0.41", "PUT", f"{deals}/1", valid_deal(), headers=key)[0] for _ in range(8)]
    other = [through(proxy, "127.0.0.42", "PUT", f"{deals}/1", valid_deal(), headers=key)[0] for _ in range(3)]
    assert (table, other) == ([200] * 8, [200] * 3)
    assert through(proxy, "127.0.0.41", "PUT", f"{deals}/1", valid_deal(), headers=key)[0] == 200  # its 10th
    assert through(proxy, "127.0.0.41", "PUT", f"{deals}/1", valid_deal(), headers=key)[0] == 429  # its 11th
