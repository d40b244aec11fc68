"""Issue 25: the watchers' game page and the game's other shared answers (its history, sheet, scores,
results PDF; the API's game and history) answered again below Flask (scorepad/web/replay.py).

Two apps on one database: ``warm`` has answered a watcher's phone once and replays, ``fresh``
has answered nothing and goes through the route. The replayed answer is the route's, status,
headers and body, byte for byte; Flask's ``request_started`` signal says which answered."""

from __future__ import annotations

import gzip

import brotli
import pytest
from flask import request_started
from werkzeug.test import Client

from scorepad.web.replay import WatchersPages
from tests.helpers import api_game, bearer, grant, valid_deal, watch

DECODE = {"br": brotli.decompress, "gzip": gzip.decompress}


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


@pytest.mark.parametrize("asked", ['W/"{etag}"', "*", '"other", "{etag}"'])
def test_a_304_for_a_weak_tag_a_star_or_a_list_is_the_routes_304(make_app, asked):
    warm, fresh = make_app(), make_app()
    game, _ = api_game(warm.test_client())
    phone = a_watcher(warm, game)
    etag = phone.get(f"/games/{game}").headers["ETag"].strip('"')
    seen = routed(warm)
    replayed = answer(phone, f"/games/{game}", headers={"If-None-Match": asked.format(etag=etag)})
    assert seen == [] and replayed[0] == "304 NOT MODIFIED"
    assert replayed == answer(same_phone(fresh, phone), f"/games/{game}",
                              headers={"If-None-Match": asked.format(etag=etag)})


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


@pytest.mark.parametrize(("accepted", "coding"), [("gzip, br", "br"), ("gzip", "gzip")])
def test_brotli_or_gzip_when_asked_each_with_its_own_etag_and_vary(make_app, accepted, coding):
    app = make_app()
    game, _ = api_game(app.test_client())
    phone = a_watcher(app, game)
    plain = phone.get(f"/games/{game}")
    packed = phone.get(f"/games/{game}", headers={"Accept-Encoding": accepted})
    assert packed.headers["Content-Encoding"] == coding and packed.headers["Vary"] == "Cookie, Accept-Encoding"
    assert DECODE[coding](packed.get_data()) == plain.get_data()
    assert int(packed.headers["Content-Length"]) == len(packed.get_data()) < len(plain.get_data()) // 2
    assert packed.headers["ETag"] != plain.headers["ETag"]
    again = phone.get(f"/games/{game}", headers={"Accept-Encoding": accepted,
                                                 "If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304


# -- the game's other answers at one revision ------------------------------------------------------

SHARED = ["/games/{g}/history", "/games/{g}/sheet", "/games/{g}/scores.csv", "/games/{g}/results.pdf",
          "/games/{g}/results.pdf?paper=a4", "/api/v1/games/{g}", "/api/v1/games/{g}/history",
          "/api/v1/games/{g}/scores.csv"]


@pytest.mark.parametrize("path", SHARED)
def test_each_of_the_game_s_shared_answers_replayed_is_the_routes_byte_for_byte(make_app, path):
    warm, fresh = make_app(), make_app()
    game, _ = api_game(warm.test_client(), deals=[valid_deal(1)])
    url = path.format(g=game)
    phone = a_watcher(warm, game)
    first = phone.get(url)
    assert first.status_code == 200 and first.headers["ETag"] == f'"{game}.1"'
    seen = routed(warm)
    replayed = answer(phone, url)
    assert seen == []  # no route ran
    assert replayed == answer(same_phone(fresh, phone), url)
    etag = dict(replayed[1])["ETag"]
    again = answer(phone, url, headers={"If-None-Match": etag})
    assert seen == [] and again[0] == "304 NOT MODIFIED"
    assert again == answer(same_phone(fresh, phone), url, headers={"If-None-Match": etag})


@pytest.mark.parametrize("path", SHARED)
def test_each_shared_answer_is_gzipped_or_brotli_d_when_asked(make_app, path):
    app = make_app()
    game, _ = api_game(app.test_client(), deals=[valid_deal(1)])
    url = path.format(g=game)
    phone = a_watcher(app, game)
    plain = phone.get(url)
    packed = phone.get(url, headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip" and packed.headers["Vary"].endswith("Accept-Encoding")
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert int(packed.headers["Content-Length"]) == len(packed.get_data()) < len(plain.get_data())
    shrunk = phone.get(url, headers={"Accept-Encoding": "br"})
    assert shrunk.headers["Content-Encoding"] == "br" and brotli.decompress(shrunk.get_data()) == plain.get_data()


def test_an_answer_gzip_would_not_shrink_is_sent_as_it_is(make_app):
    """A game without deals: its scores as CSV, a line of names and one of totals, 72 bytes,
    that gzip's own header and trailer leave 66."""
    app = make_app()
    game, _ = api_game(app.test_client())
    phone = a_watcher(app, game)
    plain = phone.get(f"/games/{game}/scores.csv")
    assert len(plain.get_data()) < 100 and len(gzip.compress(plain.get_data())) > 0.9 * len(plain.get_data())
    seen = routed(app)
    packed = phone.get(f"/games/{game}/scores.csv", headers={"Accept-Encoding": "gzip"})
    assert seen == [] and "Content-Encoding" not in packed.headers and packed.get_data() == plain.get_data()


@pytest.mark.parametrize("path", SHARED)
def test_a_deleted_game_s_shared_answers_are_the_routes_410(make_app, path):
    app = make_app()
    owner = app.test_client()
    game, key = api_game(owner, deals=[valid_deal(1)])
    url = path.format(g=game)
    phone = a_watcher(app, game)
    assert phone.get(url).status_code == 200 and phone.get(url).status_code == 200
    assert owner.delete(f"/api/v1/games/{game}", headers=bearer(key)).status_code == 200
    seen = routed(app)
    assert phone.get(url).status_code == 410 and seen == ["route"]


def test_an_editor_s_sheet_page_is_never_kept_nor_replayed(make_app):
    app = make_app()
    editor, watcher = app.test_client(), app.test_client()
    game, key = api_game(editor)
    grant(editor, game, key)
    mine = editor.get(f"/games/{game}/sheet")
    assert "ETag" not in mine.headers and f"/games/{game}/sheet/amend" in mine.get_data(as_text=True)
    shown = watcher.get(f"/games/{game}/sheet")
    assert shown.headers["ETag"] == f'"{game}.0"' and f"/games/{game}/sheet/amend" not in shown.get_data(as_text=True)
    seen = routed(app)
    assert f"/games/{game}/sheet/amend" in editor.get(f"/games/{game}/sheet").get_data(as_text=True)
    assert seen == ["route"]


def test_what_is_kept_stays_within_its_bounds(make_app):
    """Past its bounds (answers and bytes), the answers used least recently go; what goes is
    answered by the route again, the same."""
    app = make_app()
    layer = WatchersPages(app.wsgi_app, app.extensions["scorepad.database"], answers_kept=3, bytes_kept=40_000)
    app.wsgi_app = layer
    games = [api_game(app.test_client(), name=f"G{i}")[0] for i in range(6)]
    phone = app.test_client()
    pages = {game: phone.get(f"/games/{game}").get_data() for game in games}
    assert len(layer.answers) <= 3 and layer.bytes <= 40_000
    assert layer.bytes == sum(a.size for a in layer.answers.values())
    assert {phone.get(f"/games/{game}").get_data() for game in games} == set(pages.values())
    pdfs = [phone.get(f"/games/{game}/results.pdf") for game in games]
    assert all(p.status_code == 200 for p in pdfs) and layer.bytes <= 40_000


def test_an_answer_is_coded_once_in_each_coding_first_asked_the_route_s_answer_included(make_app):
    """Kept as the route answered it, and coded in the coding its client takes, once (the
    client asking is the one sent fewer bytes); another coding is made the first time a
    client takes it, then kept so, its bytes counted (its headers' too)."""
    app = make_app()
    layer = app.wsgi_app
    while not isinstance(layer, WatchersPages):  # the app's own, under the prefix handling
        layer = layer.app
    game, _ = api_game(app.test_client())
    phone = app.test_client()
    packed = phone.get(f"/api/v1/games/{game}", headers={"Accept-Encoding": "gzip"})  # the route's answer
    assert packed.headers["Content-Encoding"] == "gzip"
    (kept,) = layer.answers.values()
    plain = kept.plain.body
    assert gzip.decompress(packed.get_data()) == plain and set(kept.made) == {"gzip"}
    def headed(form):  # a form's bytes: its body's, and its headers' (the 200's and the 304's)
        return len(form.body) + sum(len(k) + len(v) for k, v in (*form.headers, *form.not_modified))

    assert headed(kept.plain) > len(plain) + 100  # Content-Type, ETag, Vary, the security headers...
    assert layer.bytes == headed(kept.plain) + headed(kept.form("gzip"))
    assert kept.form("gzip").body == packed.get_data()
    assert phone.get(f"/api/v1/games/{game}").get_data() == plain  # replayed plain: nothing made
    assert next(iter(layer.answers.values())) is kept
    assert phone.get(f"/api/v1/games/{game}", headers={"Accept-Encoding": "gzip"}).get_data() == packed.get_data()
    assert next(iter(layer.answers.values())) is kept  # gzipped once
    shrunk = phone.get(f"/api/v1/games/{game}", headers={"Accept-Encoding": "br"})
    assert shrunk.headers["Content-Encoding"] == "br" and brotli.decompress(shrunk.get_data()) == plain
    (kept,) = layer.answers.values()
    assert set(kept.made) == {"gzip", "br"} and kept.form("br").body == shrunk.get_data()
    assert layer.bytes == sum(a.size for a in layer.answers.values()) == (
        headed(kept.plain) + headed(kept.form("gzip")) + headed(kept.form("br")))
    assert phone.get(f"/api/v1/games/{game}", headers={"Accept-Encoding": "br"}).get_data() == shrunk.get_data()
    assert next(iter(layer.answers.values())) is kept  # coded once in each


def test_a_route_that_writes_its_body_or_starts_as_it_is_read_is_passed_on_as_it_is(make_app):
    """WSGI's write() and a start made only once the body is read: the layer starts nothing
    of its own (it cannot know the answer in time), so the answer is the route's, uncoded."""
    app = make_app()
    shared = [("Content-Type", "text/plain"), ("Cache-Control", "no-cache"), ("ETag", '"g.0"')]

    def writes(environ, start_response):
        start_response("200 OK", list(shared))(b"written, ")
        return [b"then returned"]

    def starts_late(environ, start_response):
        start_response("200 OK", list(shared))
        yield b"started late"

    for route, body in ((writes, b"written, then returned"), (starts_late, b"started late")):
        layer = WatchersPages(route, app.extensions["scorepad.database"])
        sent = Client(layer).get("/games/g", headers={"Accept-Encoding": "br, gzip"})
        assert sent.status_code == 200 and sent.get_data() == body and "Content-Encoding" not in sent.headers
        assert not layer.answers
