"""Issue 25: the watchers' game page answered again below Flask (scorepad/web/replay.py).

Two apps on one database: ``warm`` has answered a watcher's phone once and replays, ``fresh``
has answered nothing and goes through the route. The replayed answer is the route's, status,
headers and body, byte for byte; Flask's ``request_started`` signal says which answered."""

from __future__ import annotations

import gzip

from flask import request_started

from tests.helpers import api_game, bearer, grant, valid_deal, watch


def answer(client, path: str, **kwargs):
    """Status, headers (Date's value aside: it is the moment sent) and body."""
    response = client.get(path, **kwargs)
    assert response.headers["Date"]
    headers = sorted((k, "(now)" if k == "Date" else v) for k, v in response.headers.items())
    return response.status, headers, response.get_data()


def routed(app):
    """The paths the app's Flask routes answered (its request_started signal) from now on."""
    seen: list[str] = []
    request_started.connect(lambda sender, **extra: seen.append("route"), app, weak=False)
    return seen


def a_watcher(app, game: str):
    """A watcher's phone that opened the view link once (its session cookie set then, by the
    page's watch mark: the page itself sets none)."""
    phone = app.test_client()
    first = watch(phone, game)
    assert "Set-Cookie" not in first.headers and phone.get_cookie("session") is not None
    return phone


def same_phone(app, phone):
    """Another app's test client holding the same cookies."""
    other = app.test_client()
    for cookie in phone._cookies.values():
        other.set_cookie(cookie.key, cookie.value, domain=cookie.domain)
    return other


def test_the_replayed_watchers_page_is_the_routes_answer_byte_for_byte_headers_included(make_app):
    warm = make_app()
    fresh = make_app()
    game, _ = api_game(warm.test_client())
    phone = a_watcher(warm, game)
    assert phone.get(f"/games/{game}").status_code == 200  # the route, kept
    seen = routed(warm)
    replayed = answer(phone, f"/games/{game}")
    assert seen == []  # no route ran
    assert replayed == answer(same_phone(fresh, phone), f"/games/{game}")
    assert dict(replayed[1])["Cache-Control"] == "no-cache"


def test_a_watcher_without_a_cookie_is_replayed_the_routes_answer_and_given_no_cookie(make_app):
    """A phone that keeps no cookie (or its first look): every view the same shared page,
    with no session written, so it is replayed as any watcher's."""
    warm, fresh = make_app(), make_app()
    game, _ = api_game(warm.test_client())
    first = warm.test_client().get(f"/games/{game}")
    assert first.status_code == 200 and "Set-Cookie" not in first.headers
    seen = routed(warm)
    replayed = answer(warm.test_client(), f"/games/{game}")
    assert seen == [] and replayed[0] == "200 OK"
    assert replayed == answer(fresh.test_client(), f"/games/{game}")
    assert "Set-Cookie" not in dict(replayed[1])


def test_a_304_replayed_is_the_routes_304(make_app):
    warm, fresh = make_app(), make_app()
    game, _ = api_game(warm.test_client())
    phone = a_watcher(warm, game)
    etag = phone.get(f"/games/{game}").headers["ETag"]
    seen = routed(warm)
    replayed = answer(phone, f"/games/{game}", headers={"If-None-Match": etag})
    assert seen == [] and replayed[0] == "304 NOT MODIFIED" and replayed[2] == b""
    assert replayed == answer(same_phone(fresh, phone), f"/games/{game}", headers={"If-None-Match": etag})


def test_a_new_revision_goes_to_the_route_and_shows_the_deal(make_app):
    app = make_app()
    owner = app.test_client()
    game, key = api_game(owner)
    phone = a_watcher(app, game)
    before = phone.get(f"/games/{game}").get_data(as_text=True)
    assert owner.post(f"/api/v1/games/{game}/deals", json=valid_deal(1), headers=bearer(key)).status_code == 201
    seen = routed(app)
    after = phone.get(f"/games/{game}")
    assert seen == ["route"] and after.get_data(as_text=True) != before
    assert after.headers["ETag"].strip('"').endswith(".1")


def test_an_editor_is_never_answered_from_the_watchers_pages(make_app):
    app = make_app()
    editor = app.test_client()
    game, key = api_game(editor)
    grant(editor, game, key)
    editor.get(f"/games/{game}")
    seen = routed(app)
    page = editor.get(f"/games/{game}")
    assert seen == ["route"] and page.headers["Cache-Control"] == "no-store"
    assert f"/games/{game}/edit/{key}" in page.get_data(as_text=True)


def test_a_deleted_game_is_never_replayed(make_app):
    app = make_app()
    owner = app.test_client()
    game, key = api_game(owner)
    phone = a_watcher(app, game)
    assert phone.get(f"/games/{game}").status_code == 200
    assert owner.delete(f"/api/v1/games/{game}", headers=bearer(key)).status_code == 200
    assert phone.get(f"/games/{game}").status_code == 410


def test_a_phone_whose_cookie_changed_goes_to_the_route(make_app):
    app = make_app()
    game, key = api_game(app.test_client())
    phone = a_watcher(app, game)
    phone.get(f"/games/{game}")
    phone.get(f"/games/{game}/edit/{key}")  # now it may edit: another cookie
    seen = routed(app)
    page = phone.get(f"/games/{game}")
    assert seen == ["route"] and page.headers["Cache-Control"] == "no-store"


def test_each_host_gets_its_own_view_link_from_the_replayed_page(make_app):
    app = make_app(PROXIES=1)
    game, _ = api_game(app.test_client())
    pages = {}
    for host in ("table-a.example", "table-b.example"):
        phone = app.test_client()
        for _ in range(3):
            pages[host] = phone.get(f"/games/{game}", headers={"X-Forwarded-Host": host}).get_data(as_text=True)
    assert f"http://table-a.example/games/{game}</a>" in pages["table-a.example"]
    assert f"http://table-b.example/games/{game}</a>" in pages["table-b.example"]
    assert "table-a.example" not in pages["table-b.example"]


def test_under_a_prefix_the_replayed_page_is_the_routes(make_app):
    warm, fresh = make_app(PREFIX="/scorepad"), make_app(PREFIX="/scorepad")
    game, _ = api_game(warm.test_client(), )
    phone = warm.test_client()
    for _ in range(2):
        phone.get(f"/scorepad/games/{game}")
    seen = routed(warm)
    replayed = answer(phone, f"/scorepad/games/{game}")
    assert seen == [] and replayed[0] == "200 OK"
    assert replayed == answer(same_phone(fresh, phone), f"/scorepad/games/{game}")
    assert f'href="/scorepad/games/{game}/history"' in replayed[2].decode()


def test_gzip_when_asked_with_its_own_etag_and_vary(make_app):
    app = make_app()
    game, _ = api_game(app.test_client())
    phone = a_watcher(app, game)
    plain = phone.get(f"/games/{game}")
    packed = phone.get(f"/games/{game}", headers={"Accept-Encoding": "gzip, br"})
    assert packed.headers["Content-Encoding"] == "gzip" and packed.headers["Vary"] == "Cookie, Accept-Encoding"
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert int(packed.headers["Content-Length"]) == len(packed.get_data()) < len(plain.get_data()) // 2
    assert packed.headers["ETag"] != plain.headers["ETag"]
    again = phone.get(f"/games/{game}", headers={"Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304
