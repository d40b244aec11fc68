"""Security headers on every response, the session cookie's flags, no inline script or style on
any page, and names that look like markup shown as text everywhere.

* Every response (pages, the API, static files, redirects, 304s, errors 400 to 500, CSV, the
  JSON export and the PDFs) carries a Content-Security-Policy without 'unsafe-inline' or
  'unsafe-eval' for scripts, ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy:
  no-referrer``. Pages and the API: ``frame-ancestors 'none'``, no inline style either.
* PDFs carry their own policy (``scorepad.paper.PDF_POLICY``): no script at all
  (``default-src 'none'``, no ``script-src``), but ``style-src 'unsafe-inline'`` and
  ``object-src 'self'`` because a browser shows a PDF inside a page of its own making whose
  inline styles and ``<embed>`` fall under the response's policy (Chrome leaves the PDF
  blank or cut short otherwise: crbug.com/271452). A PDF holds no HTML of ours, so inline
  style there can style nothing an attacker wrote. Its frame policy is ``'self'`` (and
  ``X-Frame-Options: SAMEORIGIN``): the viewer frames it within our origin; no other site may.
* The session cookie: HttpOnly, SameSite=Lax, and over plain http Secure exactly when
  SESSION_COOKIE_SECURE (or SCOREPAD_SESSION_COOKIE_SECURE=true) says so (over https always:
  tests/web/test_proxies.py).
* XSS: a game, side and player named ``<script>alert(1)</script>`` or
  ``"><img src=x onerror=alert(1)>`` show as that text on every page, in the API (a JSON
  string), in the CSV and in the PDFs.
"""

from __future__ import annotations

import csv
import io
import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from markupsafe import escape
from pypdf import PdfReader

from scorepad.storage import club_nights
from scorepad.web import paper
from tests.helpers import api_game, assert_error_shape, bearer, form_fields, grant, text_of, valid_deal

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
PAYLOADS = [SCRIPT, IMG]


@pytest.fixture
def app(make_app):
    """The shared test app (tests/conftest.py), with two routes that fail."""
    app = make_app()

    # A route that fails, to see the 500 pages (registered before the first request).
    @app.get("/boom-for-test")
    def boom():
        raise RuntimeError("boom")

    @app.get("/api/v1/boom-for-test")
    def api_boom():
        raise RuntimeError("boom")

    return app


@pytest.fixture
def world(app):
    """A game (with deal 1 and an amended sheet), a browser holding its edit link, a viewer."""
    client = app.test_client()
    game, key = api_game(client)
    assert client.post(f"/api/v1/games/{game}/deals", json=valid_deal(1), headers=bearer(key)).status_code == 201
    grant(client, game, key)
    played, open_key = api_game(client, "Rally", sheet={"preset": "common", "game_length": "open"},
                                deals=[valid_deal(1)])  # a game its table ends
    grant(client, played, open_key)
    made = client.post("/events/new", data={"name": "Tuesday", "rounds": "2", "players": "Ann\nBen\nCy\nDi"})
    event = made.headers["Location"].rsplit("/", 1)[1]  # a club night this browser organises, round 1 started
    assert client.post(f"/events/{event}/rounds", data={}).status_code == 303
    with app.app_context():
        organiser_key = club_nights.load_event(event).organiser_key
    return {"app": app, "client": client, "viewer": app.test_client(), "game": game, "key": key,
            "open": played, "open_key": open_key, "event": event, "organiser_key": organiser_key}


# -- the policy, read ----------------------------------------------------------------------------------


def policy(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, (response.status_code, response.request.path if response.request else "")
    directives: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            assert words[0] not in directives, header  # a repeated directive would be ignored
            directives[words[0]] = words[1:]
    return directives


def sources(directives: dict[str, list[str]], name: str) -> list[str]:
    """What a directive allows, falling back to default-src as a browser does."""
    return directives.get(name, directives.get("default-src", []))


def check_headers(response, what: str, mimetype: str | None = None) -> None:
    """The security headers of ``response``; a 304's (which has no Content-Type) as those of
    the ``mimetype`` its 200 had."""
    where = f"{what} ({response.status_code})"
    headers = response.headers
    assert headers.get("X-Content-Type-Options") == "nosniff", where
    assert headers.get("Referrer-Policy") == "no-referrer", where
    csp = policy(response)
    for name in ("script-src", "script-src-elem", "script-src-attr"):
        allowed = sources(csp, name)
        assert "'unsafe-inline'" not in allowed and "'unsafe-eval'" not in allowed, (where, name, csp)
        assert "*" not in allowed and "data:" not in allowed and "http:" not in allowed, (where, name, csp)
    if (mimetype or response.mimetype) == "application/pdf":
        assert sources(csp, "script-src") == ["'none'"], (where, csp)  # no script at all
        assert csp["frame-ancestors"] in (["'none'"], ["'self'"]), (where, csp)
        assert headers.get("X-Frame-Options") in ("DENY", "SAMEORIGIN"), where
        assert set(sources(csp, "style-src")) <= {"'unsafe-inline'", "'none'", "'self'"}, (where, csp)
        assert "connect-src" not in csp and sources(csp, "connect-src") == ["'none'"], (where, csp)
        return
    for name in ("style-src", "style-src-elem", "style-src-attr"):
        assert "'unsafe-inline'" not in sources(csp, name), (where, name, csp)
    assert sources(csp, "script-src") == ["'self'"] and sources(csp, "style-src") == ["'self'"], (where, csp)
    assert csp["frame-ancestors"] == ["'none'"], (where, csp)
    assert csp["object-src"] == ["'none'"] and csp["base-uri"] == ["'none'"], (where, csp)
    assert headers.get("X-Frame-Options") == "DENY", where


# -- every response --------------------------------------------------------------------------------------


def every_request(world: dict[str, Any]) -> list[tuple[str, str, str, dict[str, Any]]]:
    """(endpoint, method, url, client keyword arguments): every route with input it answers
    well, then errors of every kind."""
    g, key = world["game"], world["key"]
    o, o_key = world["open"], world["open_key"]
    ev = world["event"]
    export = world["client"].get(f"/api/v1/games/{g}/export").get_data(as_text=True)
    scored = {**valid_deal(1), "sheet": "common"}
    return [
        ("games.home", "GET", "/", {}),
        ("games.new_game", "GET", "/new?preset=pagat", {}),
        ("games.new_game", "POST", "/new", {"data": {"name": "x", "preset": "common"}}),  # 400: no table
        ("games.game", "GET", f"/games/{g}", {}),
        ("games.edit_link", "GET", f"/games/{g}/edit/{key}", {}),  # 303
        ("games.watching", "GET", f"/games/{g}/watching", {}),  # 204
        ("games.view_qr", "GET", f"/games/{g}/view-link.svg", {}),
        ("games.history", "GET", f"/games/{g}/history", {}),
        ("sheets.sheet", "GET", f"/games/{g}/sheet", {}),
        ("sheets.words", "GET", "/sheets/words?preset=common&opt-hand_size=13", {}),
        ("sheets.amend_sheet", "GET", f"/games/{g}/sheet/amend", {}),
        ("sheets.amend_sheet", "POST", f"/games/{g}/sheet/amend", {"data": {"reason": ""}}),
        ("deals.new_deal", "GET", f"/games/{g}/deals/new", {}),
        ("deals.new_deal", "POST", f"/games/{g}/deals/new", {"data": {"action": "check"}}),
        ("deals.deal", "GET", f"/games/{g}/deals/1", {}),
        ("deals.edit_deal", "GET", f"/games/{g}/deals/1/edit", {}),
        ("deals.edit_deal", "POST", f"/games/{g}/deals/1/edit", {"data": {"action": "more"}}),
        ("deals.preview", "POST", f"/games/{g}/deals/2/preview", {"data": {"s0-m0-cards": "K K K"}}),
        ("parts.this_phone", "GET", f"/games/{g}/phone", {}),
        ("parts.this_phone", "POST", f"/games/{g}/phone", {"data": {"side": "all", "owner": ""}}),  # 303
        ("parts.part", "GET", f"/games/{g}/deals/2/part", {}),  # 303: this phone enters every side
        ("parts.part", "POST", f"/games/{g}/deals/2/part", {"data": {"action": "check"}}),
        ("parts.confirm", "POST", f"/games/{g}/deals/2/confirm", {"data": {"part": "1", "version": "1"}}),
        ("parts.progress", "GET", f"/games/{g}/deals/2/progress", {}),
        ("parts.abandon", "POST", f"/games/{g}/deals/2/abandon", {}),  # 303: nothing to abandon
        ("parts.part_preview", "POST", f"/games/{g}/deals/2/part/preview", {"data": {"s0-m0-cards": "K K K"}}),
        ("deals.delete_deal", "GET", f"/games/{g}/deals/1/delete", {}),
        ("deals.delete_deal", "POST", f"/games/{g}/deals/1/delete", {"data": {"revision": "0"}}),  # stale: 303
        ("desk.referee", "GET", "/referee?sheet=pagat&ask=meld&meld=9+9+9+2+2", {}),
        ("desk.game_referee", "GET", f"/games/{g}/referee", {}),
        ("desk.explain", "GET", f"/games/{g}/deals/1/explain", {}),
        ("desk.rescore", "GET", f"/games/{g}/rescore?sheet=pagat", {}),
        ("desk.compare", "GET", "/sheets/compare?a=pagat&b=common", {}),
        ("exchange.import_page", "GET", "/import", {}),
        ("exchange.import_page", "POST", "/import", {"data": {"document": export}}),  # 303
        ("exchange.export_page", "GET", f"/games/{g}/export.json", {}),
        ("exchange.scores_page", "GET", f"/games/{g}/scores.csv", {}),
        ("paper.game_sheet", "GET", f"/games/{g}/sheet.pdf", {}),
        ("paper.game_pad", "GET", f"/games/{g}/pad.pdf?paper=a4", {}),
        ("paper.game_results", "GET", f"/games/{g}/results.pdf", {}),
        ("paper.preset_sheet", "GET", "/sheets/pagat.pdf", {}),
        ("paper.preset_pad", "GET", "/sheets/common/pad.pdf?sides=3", {}),
        ("club_night_paper.table_cards_pdf", "GET", f"/events/{world['event']}/table-cards.pdf",
         {"headers": bearer(world["organiser_key"])}),
        ("club_night_paper.results_pdf", "GET", f"/events/{world['event']}/results.pdf", {}),
        ("club_night_paper.players_csv_file", "GET", f"/events/{world['event']}/players.csv", {}),
        ("static", "GET", "/static/app.css", {}),
        ("static", "GET", "/static/live.js", {}),
        ("static", "GET", "/static/favicon.svg", {}),
        ("api.score_deal", "POST", "/api/v1/score", {"json": scored}),
        ("api.list_sheets", "GET", "/api/v1/sheets", {}),
        ("api.get_sheet", "GET", "/api/v1/sheets/pagat", {}),
        ("api.create_game", "POST", "/api/v1/games", {"json": {"name": "x", "sheet": "common", "sides": [
            {"name": "A", "players": ["A"]}, {"name": "B", "players": ["B"]}]}}),
        ("api.get_game", "GET", f"/api/v1/games/{g}", {}),
        ("api.game_revision", "GET", f"/api/v1/games/{g}/revision", {}),
        ("api.game_events", "GET", f"/api/v1/games/{g}/events", {}),  # a stream: its headers, unread
        ("api.game_history", "GET", f"/api/v1/games/{g}/history", {}),
        ("api.record_deal", "POST", f"/api/v1/games/{g}/deals", {"json": valid_deal(2), "headers": bearer(key)}),
        ("api.get_deal", "GET", f"/api/v1/games/{g}/deals/1", {}),
        ("api.correct_deal", "PUT", f"/api/v1/games/{g}/deals/2", {"json": valid_deal(2), "headers": bearer(key)}),
        ("api.delete_deal", "DELETE", f"/api/v1/games/{g}/deals/2", {"headers": bearer(key)}),
        ("api.save_part", "PUT", f"/api/v1/games/{g}/deals/2/parts/1",
         {"json": valid_deal(2)["sides"][0], "headers": {**bearer(key), "Scorepad-Phone": "Dan's phone"}}),
        ("api.save_ending", "PUT", f"/api/v1/games/{g}/deals/2/ending",
         {"json": {"ending": "stock_out"}, "headers": {**bearer(key), "Scorepad-Phone": "Dan's phone"}}),
        ("api.confirm_part", "POST", f"/api/v1/games/{g}/deals/2/parts/1/confirmation",
         {"json": {"by_side": 2, "version": 1}, "headers": {**bearer(key), "Scorepad-Phone": "Dan's phone"}}),
        ("api.get_open", "GET", f"/api/v1/games/{g}/deals/2/open", {}),
        ("api.abandon", "DELETE", f"/api/v1/games/{g}/deals/2/open", {"headers": bearer(key)}),
        ("api.amend_sheet", "PUT", f"/api/v1/games/{g}/sheet", {
            "json": {"sheet": {"preset": "common", "hand_size": 13}, "reason": "thirteen"}, "headers": bearer(key)}),
        ("api.export_api", "GET", f"/api/v1/games/{g}/export", {}),
        ("api.scores_api", "GET", f"/api/v1/games/{g}/scores.csv", {}),
        ("api.import_api", "POST", "/api/v1/games/import", {"data": export,
                                                                    "content_type": "application/json"}),
        ("api.meld", "POST", "/api/v1/referee/meld", {"json": {"sheet": "pagat", "meld": "9 9 9 2 2"}}),
        ("api.go_out", "POST", "/api/v1/referee/go-out", {"json": {"sheet": "common", "books": {"clean": 1}}}),
        ("api.pile", "POST", "/api/v1/referee/pile", {"json": {"sheet": "pagat", "top_card": "9",
                                                                      "pile_size": 5, "pair": 2}}),
        ("api.minimum", "POST", "/api/v1/referee/minimum", {"json": {"sheet": "pagat", "melds": ["9 9 9 2"]}}),
        ("api.explain", "POST", "/api/v1/referee/explain", {"json": {"deal": scored}}),
        ("api.explain_recorded", "GET", f"/api/v1/referee/games/{g}/deals/1/explain", {}),
        ("api.rescore", "POST", "/api/v1/referee/rescore", {"json": {"sheet": "pagat", "deal": scored}}),
        ("api.rescore_recorded", "GET", f"/api/v1/referee/games/{g}/rescore?sheet=pagat", {}),
        ("api.compare", "GET", "/api/v1/referee/compare?a=pagat&b=common", {}),
        ("games.delete_game", "GET", f"/games/{g}/delete", {}),
        ("games.delete_game", "POST", f"/games/{g}/delete", {"data": {"revision": "0"}}),  # stale: 303, kept
        ("api.delete_game", "DELETE", f"/api/v1/games/{g}?revision=0", {"headers": bearer(key)}),  # stale: 409
        ("games.end_game", "GET", f"/games/{o}/end", {}),
        ("games.end_game", "POST", f"/games/{o}/end", {"data": {"revision": "0"}}),  # stale: 303
        ("games.reopen_game", "GET", f"/games/{o}/reopen", {}),
        ("games.reopen_game", "POST", f"/games/{g}/reopen", {"data": {"revision": "1"}}),  # four deals: 409 page
        ("api.end_game", "POST", f"/api/v1/games/{o}/end", {"json": {"revision": 0}, "headers": bearer(o_key)}),
        ("api.reopen_game", "POST", f"/api/v1/games/{o}/reopen", {"headers": bearer(o_key)}),  # not ended: 200
        ("api.problem_type", "GET", "/api/v1/problems/stale-revision", {}),
        ("api.openapi", "GET", "/api/v1/openapi.json", {}),
        ("installable.worker", "GET", "/sw.js", {}),
        ("installable.manifest", "GET", "/manifest.webmanifest", {}),
        ("installable.offline", "GET", "/offline", {}),
        ("events.new_event", "GET", "/events/new", {}),
        ("events.new_event", "POST", "/events/new", {"data": {"name": "x", "rounds": "1"}}),  # 400: no players
        ("events.event", "GET", f"/events/{ev}", {}),
        ("events.board", "GET", f"/events/{ev}/board", {}),
        ("events.next_round", "GET", f"/events/{ev}/rounds/next", {}),
        ("events.start_round", "POST", f"/events/{ev}/rounds", {"data": {}}),  # 400: round 1 still playing
        ("events.close_table", "POST", f"/events/{ev}/rounds/1/tables/1/close", {"data": {"revision": "0"}}),  # 409
        ("events.end_round", "POST", f"/events/{ev}/rounds/end", {"data": {"revision": "0"}}),  # stale: 409
        ("events.add_players", "POST", f"/events/{ev}/players", {"data": {"players": "Ed"}}),  # 303
        ("events.delete_event", "GET", f"/events/{ev}/delete", {}),
        ("events.delete_event", "POST", f"/events/{ev}/delete", {"data": {"revision": "0"}}),  # stale: 409, kept
        ("events.organise", "GET", f"/events/{ev}/organise/nope", {}),  # 403
        ("events.leaving", "POST", f"/events/{ev}/leaving", {"data": {"name": "Nobody", "revision": "0"}}),  # 409
        ("api.create_event", "POST", "/api/v1/events", {"json": {"name": "API night", "format": "progressive",
                                                                 "rounds": 1, "players": ["Ann", "Ben", "Cy", "Di"]}}),
        ("api.get_event", "GET", f"/api/v1/events/{ev}", {}),
        ("api.get_standings", "GET", f"/api/v1/events/{ev}/standings", {}),
        ("api.set_leaving", "POST", f"/api/v1/events/{ev}/leaving",
         {"json": {"name": "Ann", "revision": 0}, "headers": bearer(world["organiser_key"])}),  # stale: 409
        ("api.add_players", "POST", f"/api/v1/events/{ev}/players", {"json": {"players": ["Eve"]}}),  # 401: no key
        ("api.start_round", "POST", f"/api/v1/events/{ev}/rounds", {"headers": bearer(world["organiser_key"])}),  # 400
        ("api.close_table", "POST", f"/api/v1/events/{ev}/rounds/1/tables/1/close",
         {"json": {"revision": 0}, "headers": bearer(world["organiser_key"])}),  # stale: 409
        ("api.end_round", "POST", f"/api/v1/events/{ev}/rounds/1/end", {"headers": bearer(g)}),  # 403: not its key
        ("api.export_event", "GET", f"/api/v1/events/{ev}/export", {}),
        ("api.import_event", "POST", "/api/v1/events/import", {
            "data": world["client"].get(f"/api/v1/events/{ev}/export").get_data(as_text=True),
            "content_type": "application/json"}),  # 201: a new event of the same evening
        ("api.get_club_ladder", "GET", "/api/v1/clubs/Nobody/ladder", {}),  # 404: no event of that club
        ("api.delete_event", "DELETE", f"/api/v1/events/{ev}?revision=0", {"headers": bearer(world["organiser_key"])}),
        ("event_exchange.export_page", "GET", f"/events/{ev}/export.json", {}),
        ("event_exchange.import_page", "GET", "/events/import", {}),
        ("event_exchange.import_page", "POST", "/events/import", {"data": {"document": "{}"}}),  # 400 page
        ("event_exchange.ladder", "GET", "/clubs/Nobody/ladder", {}),  # 404: no event of that club
        ("games.replace_edit_link", "GET", f"/games/{g}/replace-edit-link", {}),
        ("games.replace_edit_link", "POST", f"/games/{g}/replace-edit-link", {"data": {}}),  # 303; none after uses key
        ("api.replace_edit_key", "POST", f"/api/v1/games/{g}/edit-key", {"headers": bearer(g)}),  # 403
        # errors, pages and API alike
        ("error", "GET", "/nope", {}),
        ("error", "GET", "/api/v1/nope", {}),
        ("error", "POST", "/referee", {}),  # 405
        ("error", "DELETE", "/api/v1/sheets", {}),  # 405
        ("error", "GET", "/sheets/common/pad.pdf?sides=9", {}),  # 400 page
        ("error", "POST", "/api/v1/score", {"data": "{", "content_type": "application/json"}),  # 400 API
        ("error", "POST", f"/api/v1/games/{g}/deals", {"json": valid_deal(3)}),  # 403 API
        ("error", "POST", "/api/v1/score", {"data": "x" * 300_000, "content_type": "application/json"}),  # 413
        ("error", "POST", "/new", {"data": {"name": "x" * 300_000}}),  # 413 page
        ("error", "GET", "/boom-for-test", {}),  # 500 page
        ("error", "GET", "/api/v1/boom-for-test", {}),  # 500 API
        ("error", "GET", "/games/nope/sheet.pdf", {}),  # a PDF route's 404 is a page
        ("error", "GET", "/games/nope/sheet.pdf", {"headers": {"Accept": "application/json"}}),  # ...or a problem
    ]


def test_every_response_carries_the_security_headers(world):
    seen = set()
    for endpoint, method, url, kwargs in every_request(world):
        client = world["client"]
        response = client.open(url, method=method, **kwargs)
        check_headers(response, f"{method} {url[:80]}")
        seen.add((endpoint, method))
        if response.status_code == 200 and method == "GET" and "ETag" in response.headers:  # and its 304
            again = client.open(url, method=method, headers={"If-None-Match": response.headers["ETag"]})
            assert again.status_code == 304, url
            check_headers(again, f"304 {url}", response.mimetype)
    missing = [f"{m} {r.rule}" for r in world["app"].url_map.iter_rules()
               for m in sorted((r.methods or set()) - {"HEAD", "OPTIONS"})
               if (r.endpoint, m) not in seen and "boom" not in r.rule]
    assert not missing, f"add these routes to every_request: {missing}"


def test_the_error_pages_and_answers_are_what_they_say(world):
    client = world["client"]
    response = client.get("/boom-for-test")
    assert response.status_code == 500 and response.mimetype == "text/html"
    assert "Something went wrong" in response.get_data(as_text=True) and "boom" not in response.get_data(as_text=True)
    assert_error_shape(client.get("/api/v1/boom-for-test"), 500, None)
    assert_error_shape(client.post("/api/v1/score", data="x" * 300_000, content_type="application/json"), 413, None)
    response = client.post("/new", data={"name": "x" * 300_000})
    assert response.status_code == 413 and response.mimetype == "text/html"


def test_the_pdf_policy_is_the_one_documented_and_still_strict():
    csp = {part.split()[0]: part.split()[1:] for part in paper.PDF_POLICY.split(";")}
    assert csp["default-src"] == ["'none'"] and "script-src" not in csp  # no script, inline or not
    assert csp["style-src"] == ["'unsafe-inline'"]  # the viewer's own page: crbug.com/271452
    assert csp["object-src"] == ["'self'"] and csp["frame-ancestors"] == ["'self'"]


# -- the session cookie ----------------------------------------------------------------------------------


def session_cookies(response) -> list[str]:
    return [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]


def cookie_flags(cookie: str) -> set[str]:
    return {part.strip().split("=")[0].lower() + ("=" + part.strip().split("=", 1)[1].lower()
                                                   if part.strip().lower().startswith("samesite") else "")
            for part in cookie.split(";")[1:]}


def _cookies_of_a_session(app) -> list[str]:
    """The session cookies a browser gets: a form's CSRF token, then a new game's edit rights."""
    client = app.test_client()
    cookies = session_cookies(client.get("/new"))
    page = client.get("/new").get_data(as_text=True)
    data = form_fields(page, "/new")
    data.update({"name": "Friday", "side-0-p0": "Ann", "side-1-p0": "Bea"})
    response = client.post("/new", data=data)
    assert response.status_code == 303, text_of(response.get_data(as_text=True))[:500]
    cookies += session_cookies(response)
    game = response.headers["Location"].split("/games/")[1]
    return cookies + session_cookies(client.get(f"/games/{game}"))


@pytest.mark.parametrize("secure", [False, True], ids=["http", "https"])
@pytest.mark.parametrize("csrf", [False, True], ids=["no-csrf", "csrf"])
def test_the_session_cookie_is_httponly_lax_and_secure_when_configured(make_app, secure, csrf):
    app = make_app(SESSION_COOKIE_SECURE=secure, WTF_CSRF_ENABLED=csrf)
    cookies = _cookies_of_a_session(app)
    assert cookies
    for cookie in cookies:
        flags = cookie_flags(cookie)
        assert "httponly" in flags and "samesite=lax" in flags, cookie
        assert ("secure" in flags) is secure, cookie


@pytest.mark.parametrize("value, secure", [("true", True), ("false", False)])
def test_the_secure_flag_follows_the_environment(make_app, monkeypatch, value, secure):
    monkeypatch.setenv("SCOREPAD_SESSION_COOKIE_SECURE", value)
    app = make_app(WTF_CSRF_ENABLED=True)
    assert app.config["SESSION_COOKIE_SECURE"] is secure
    for cookie in _cookies_of_a_session(app):
        assert ("secure" in cookie_flags(cookie)) is secure, cookie


def test_an_edit_link_grants_rights_through_a_cookie_scripts_cannot_read(world):
    client = world["app"].test_client()
    response = client.get(f"/games/{world['game']}/edit/{world['key']}")
    (cookie,) = session_cookies(response)
    assert {"httponly", "samesite=lax"} <= cookie_flags(cookie)
    assert world["key"] not in response.headers.get("Location", "")  # the key leaves the address bar


# -- no inline script or style on any page ------------------------------------------------------------


class _Inline(HTMLParser):
    """Every place a page would need 'unsafe-inline': a <style>, a style attribute, an event
    handler attribute, a javascript: URL, or a <script> without src or with a body."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name.lower(): (value or "") for name, value in attrs}
        if tag == "style":
            self.found.append("<style>")
        if "style" in names:
            self.found.append(f"<{tag} style=...>")
        self.found += [f"<{tag} {name}=...>" for name in names if name.startswith("on")]
        self.found += [f"<{tag} {name}=javascript:...>" for name, value in names.items()
                       if value.strip().lower().startswith("javascript:")]
        if tag == "script":
            if not names.get("src", "").startswith("/static/"):
                self.found.append(f"<script> without a src of ours: {names}")
            self._script = True
        if tag == "link" and "stylesheet" in names.get("rel", "") and not names.get("href", "").startswith("/static/"):
            self.found.append(f"a stylesheet from elsewhere: {names}")

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = False

    def handle_data(self, data: str) -> None:
        if self._script and data.strip():
            self.found.append(f"an inline script: {data[:60]!r}")


def inline_bits(page: str) -> list[str]:
    parser = _Inline()
    parser.feed(page)
    return parser.found


def html_pages(world: dict[str, Any]) -> list[tuple[str, Any, str, dict[str, Any]]]:
    """(endpoint, client, url, kwargs): every page route that answers HTML, in its states:
    for the editor and a viewer, with answers, with errors, and the error pages."""
    g, ev = world["game"], world["event"]
    editor, viewer = world["client"], world["viewer"]
    check = form_fields(editor.get(f"/games/{g}/deals/new").get_data(as_text=True), f"/games/{g}/deals/new")
    check.update({"s0-m0-rank": "K", "s0-m0-naturals": "2", "s1-m0-cards": "J J J 2 2 2", "ending": "s0-p0",
                  "action": "check"})
    assert editor.post("/events/new", data={"name": "Ladder", "club": "Lakemont", "rounds": "1",
                                            "players": "Ann\nBen\nCy\nDi"}).status_code == 303  # its club's ladder
    out: list[tuple[str, Any, str, dict[str, Any]]] = []
    for client in (editor, viewer):
        out += [
            ("games.home", client, "/", {}), ("games.new_game", client, "/new", {}),
            ("games.game", client, f"/games/{g}", {}), ("games.history", client, f"/games/{g}/history", {}),
            ("sheets.sheet", client, f"/games/{g}/sheet", {}), ("deals.deal", client, f"/games/{g}/deals/1", {}),
            ("desk.referee", client, "/referee", {}), ("desk.game_referee", client, f"/games/{g}/referee", {}),
            ("desk.rescore", client, f"/games/{g}/rescore?sheet=pagat", {}),
            ("desk.compare", client, "/sheets/compare?a=pagat&b=common", {}),
            ("exchange.import_page", client, "/import", {}), ("installable.offline", client, "/offline", {}),
            ("events.new_event", client, "/events/new", {}), ("events.event", client, f"/events/{ev}", {}),
            ("events.board", client, f"/events/{ev}/board", {}),
            ("event_exchange.import_page", client, "/events/import", {}),
            ("event_exchange.ladder", client, "/clubs/Lakemont/ladder", {}),
        ]
    out += [
        ("deals.new_deal", editor, f"/games/{g}/deals/new", {}),
        ("deals.new_deal", editor, f"/games/{g}/deals/new", {"method": "POST", "data": check}),  # problems shown
        ("deals.preview", editor, f"/games/{g}/deals/2/preview", {"method": "POST", "data": check}),  # live
        ("parts.this_phone", editor, f"/games/{g}/phone", {}),
        ("parts.part", editor, f"/games/{g}/deals/2/part", {"follow_redirects": True}),
        ("parts.progress", editor, f"/games/{g}/deals/2/progress", {}),
        ("parts.part_preview", editor, f"/games/{g}/deals/2/part/preview", {"method": "POST", "data": check}),
        ("deals.edit_deal", editor, f"/games/{g}/deals/1/edit", {}),
        ("deals.delete_deal", editor, f"/games/{g}/deals/1/delete", {}),
        ("games.delete_game", editor, f"/games/{g}/delete", {}),
        ("games.end_game", editor, f"/games/{world['open']}/end", {}),
        ("games.reopen_game", editor, f"/games/{world['open']}/reopen", {}),
        ("sheets.amend_sheet", editor, f"/games/{g}/sheet/amend", {}),
        ("sheets.amend_sheet", editor, f"/games/{g}/sheet/amend", {"method": "POST", "data": {"opt-hand_size": "x"}}),
        ("games.replace_edit_link", editor, f"/games/{g}/replace-edit-link", {}),
        ("games.new_game", editor, "/new", {"method": "POST", "data": {"name": "x" * 41, "preset": "common"}}),
        ("games.new_game", editor, "/new?preset=gather-together", {}),
        ("desk.referee", editor, "/referee?sheet=pagat&ask=pile&top_card=9&pile_size=5&pair=2", {}),
        ("desk.referee", editor, "/referee?sheet_json=%7B", {}),  # an error beside the box
        ("desk.game_referee", editor, f"/games/{g}/referee?ask=minimum&melds=9+9+9+2&side=Ann", {}),
        ("desk.rescore", editor, f"/games/{g}/rescore?sheet=pagat&deal=1", {}),
        ("desk.compare", editor, "/sheets/compare?a=pagat&b=house", {}),
        ("exchange.import_page", editor, "/import", {"method": "POST", "data": {"document": "{}"}}),
        ("events.new_event", editor, "/events/new", {"method": "POST", "data": {"name": "", "rounds": "x"}}),
        ("events.next_round", editor, f"/events/{ev}/rounds/next", {}),
        ("events.start_round", editor, f"/events/{ev}/rounds", {"method": "POST", "data": {}}),  # refused
        ("events.close_table", editor, f"/events/{ev}/rounds/1/tables/1/close",
         {"method": "POST", "data": {"revision": "0"}}),  # stale: the 409 page
        ("events.add_players", editor, f"/events/{ev}/players", {"method": "POST", "data": {"players": "Ann"}}),
        ("events.end_round", editor, f"/events/{ev}/rounds/end", {"method": "POST", "data": {"revision": "0"}}),
        ("events.delete_event", editor, f"/events/{ev}/delete", {}),
        ("error", viewer, f"/events/{ev}/rounds/next", {}),  # 403
        ("event_exchange.import_page", editor, "/events/import", {"method": "POST", "data": {"document": "{}"}}),
        ("error", editor, "/clubs/Nobody/ladder", {}),  # 404
        ("error", viewer, f"/games/{g}/deals/new", {}),  # 403
        ("error", editor, "/games/nope", {}),  # 404
        ("error", editor, "/referee", {"method": "POST"}),  # 405
        ("error", editor, "/new", {"method": "POST", "data": {"name": "x" * 300_000}}),  # 413
        ("error", editor, "/boom-for-test", {}),  # 500
    ]
    return out


# Routes that answer something other than an HTML page (or only redirect).
NOT_HTML = {"paper.game_sheet", "paper.game_pad", "paper.game_results", "paper.preset_sheet", "paper.preset_pad",
            "exchange.export_page", "exchange.scores_page", "static", "games.edit_link", "desk.explain",
            "installable.worker", "installable.manifest", "sheets.words", "games.watching", "events.organise",
            "event_exchange.export_page", "games.view_qr",  # an SVG image, presentation attributes only
            "club_night_paper.table_cards_pdf", "club_night_paper.results_pdf", "club_night_paper.players_csv_file"}


def test_no_page_has_inline_script_or_style(world):
    scanned = set()
    for endpoint, client, url, kwargs in html_pages(world):
        kwargs = dict(kwargs)
        response = client.open(url, method=kwargs.pop("method", "GET"), **kwargs)
        assert response.mimetype == "text/html", (url, response.status_code)
        page = response.get_data(as_text=True)
        assert not inline_bits(page), (url, response.status_code, inline_bits(page))
        assert "<style" not in page and not re.search(r"<[^>]*\sstyle=", page), url
        scanned.add(endpoint)
    pages = {r.endpoint for r in world["app"].url_map.iter_rules()
             if not r.rule.startswith("/api/") and "GET" in (r.methods or ()) and "boom" not in r.rule}
    assert pages - NOT_HTML - scanned == set(), "add these page routes to html_pages"


# -- names that look like markup ----------------------------------------------------------------------------


def norm(text: str) -> str:
    return " ".join(text.split())


def pdf_text(body: bytes) -> str:
    return norm(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages))


@pytest.fixture(params=PAYLOADS, ids=["script", "img"])
def markup_game(request, app):
    """A game, a side and a player all named ``name``, with deals, a reason, an amendment."""
    name = request.param
    client = app.test_client()
    game, key = api_game(client, name=name, sides=[{"name": name, "players": [name]},
                                                   {"name": "Bea", "players": ["Bea"]}])
    headers = bearer(key)
    assert client.post(f"/api/v1/games/{game}/deals", json=valid_deal(1, ann=name), headers=headers).status_code == 201
    broken = valid_deal(2, ann=name)
    broken["sides"][1]["melds"] = ["J J"]
    broken["as_played"] = {"reason": name}
    assert client.post(f"/api/v1/games/{game}/deals", json=broken, headers=headers).status_code == 201
    assert client.put(f"/api/v1/games/{game}/sheet", headers=headers, json={
        "sheet": {"preset": "common", "hand_size": 13}, "reason": name}).status_code == 200
    grant(client, game, key)
    return {"name": name, "client": client, "viewer": app.test_client(), "game": game, "key": key}


def assert_shown_as_text(page: str, name: str, where: str) -> None:
    assert name not in page, where  # never the markup itself
    assert str(escape(name)) in page, where  # escaped, as Jinja escapes it
    assert name in text_of(page), where  # and the reader sees the name, as text
    assert not [bit for bit in inline_bits(page) if "onerror" in bit or "script" in bit], where


def test_a_name_that_looks_like_markup_is_text_on_every_page(markup_game):
    name, client, viewer, g = (markup_game[k] for k in ("name", "client", "viewer", "game"))
    pages = {
        "game": f"/games/{g}", "deal form": f"/games/{g}/deals/new", "deal detail": f"/games/{g}/deals/1",
        "correct": f"/games/{g}/deals/2/edit", "delete": f"/games/{g}/deals/2/delete", "sheet": f"/games/{g}/sheet",
        "amend": f"/games/{g}/sheet/amend", "history": f"/games/{g}/history", "home": "/",
        "referee desk": f"/games/{g}/referee?ask=minimum&melds=K+K+K&side={escape(name)}",
        "rescore": f"/games/{g}/rescore?sheet=pagat", "rescore a deal": f"/games/{g}/rescore?sheet=pagat&deal=2",
    }
    for what, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, (what, response.status_code)
        assert_shown_as_text(response.get_data(as_text=True), name, what)
    for what in ("game", "deal detail", "history", "sheet"):
        assert_shown_as_text(viewer.get(pages[what]).get_data(as_text=True), name, f"{what} (viewer)")


def test_a_name_that_looks_like_markup_is_text_in_forms_that_come_back(markup_game):
    name, client, g = markup_game["name"], markup_game["client"], markup_game["game"]
    # The referee desk asked about a side that is not there: the error names what was typed.
    response = client.get(f"/games/{g}/referee", query_string={"ask": "minimum", "melds": "K K K", "side": name + "x"})
    assert response.status_code == 400
    assert_shown_as_text(response.get_data(as_text=True), name, "referee error")
    # A new game whose two players share the name: the form comes back, the names in its boxes.
    data = form_fields(client.get("/new").get_data(as_text=True), "/new")
    data.update({"name": name, "side-0-p0": name, "side-1-p0": name})
    response = client.post("/new", data=data)
    assert response.status_code == 400
    assert_shown_as_text(response.get_data(as_text=True), name, "new game error")
    # A deal checked on the page, its problems placed by name.
    check = form_fields(client.get(f"/games/{g}/deals/new").get_data(as_text=True), f"/games/{g}/deals/new")
    check.update({"s0-m0-cards": "K K", "ending": "s0-p0", "action": "check"})
    response = client.post(f"/games/{g}/deals/new", data=check)
    assert_shown_as_text(response.get_data(as_text=True), name, "deal check")
    # The sheet comparison and the referee's sheet box, given the name as a sheet.
    for url, query in (("/sheets/compare", {"a": "pagat", "b": name}), ("/referee", {"sheet": name}),
                       ("/referee", {"sheet_json": name})):
        response = client.get(url, query_string=query)
        assert response.status_code == 400, url
        assert_shown_as_text(response.get_data(as_text=True), name, f"{url} {query}")


def test_a_name_that_looks_like_markup_is_text_after_an_import(markup_game):
    name, client, g = markup_game["name"], markup_game["client"], markup_game["game"]
    export = client.get(f"/games/{g}/export.json").get_data(as_text=True)
    response = client.post("/import", data={"document": export})
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)  # with the flash naming the game
    assert_shown_as_text(page, name, "imported game")
    assert f"“{name}” is imported" in text_of(page)
    # A document the import refuses, its message quoting the name.
    document = json.loads(export)
    document["sides"][1]["name"] = name
    response = client.post("/import", data={"document": json.dumps(document)})
    assert response.status_code == 400
    assert_shown_as_text(response.get_data(as_text=True), name, "import error")


def test_a_name_that_looks_like_markup_is_a_json_string_in_the_api(markup_game):
    name, client, g = markup_game["name"], markup_game["client"], markup_game["game"]
    response = client.get(f"/api/v1/games/{g}")
    assert response.mimetype == "application/json" and response.headers["X-Content-Type-Options"] == "nosniff"
    body = response.get_json()
    assert body["name"] == name and body["sides"][0] == {"name": name, "players": [name]}
    assert body["deals"][0]["deal"]["went_out"] == name and body["deals"][1]["as_played"] == name
    assert body["standings"][0]["name"] in (name, "Bea")
    history = client.get(f"/api/v1/games/{g}/history").get_json()["history"]
    assert name in [entry["reason"] for entry in history]
    export = client.get(f"/api/v1/games/{g}/export")
    assert export.mimetype == "application/json" and export.headers["Content-Disposition"].startswith("attachment")
    assert json.loads(export.get_data(as_text=True))["name"] == name
    error = client.post("/api/v1/games", json={"name": "x", "sheet": "common", "sides": [
        {"name": name, "players": ["A"]}, {"name": name, "players": ["B"]}]})
    assert name in assert_error_shape(error, 400, "sides[1].name")["message"]  # a JSON string, not markup


def test_a_name_that_looks_like_markup_is_a_cell_in_the_csv(markup_game):
    name, client, g = markup_game["name"], markup_game["client"], markup_game["game"]
    for url in (f"/games/{g}/scores.csv", f"/api/v1/games/{g}/scores.csv"):
        response = client.get(url)
        assert response.mimetype == "text/csv" and response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Content-Disposition"].startswith("attachment;")
        rows = list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
        assert rows[0][1:3] == [f"{name} points", f"{name} total"]
        assert rows[2][-1] == f"saved as played: {name}"


def test_a_name_that_looks_like_markup_is_printed_as_is_in_the_pdfs(markup_game):
    name, client, g = markup_game["name"], markup_game["client"], markup_game["game"]
    for path in ("sheet.pdf", "pad.pdf", "results.pdf"):
        response = client.get(f"/games/{g}/{path}")
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        assert name in pdf_text(response.get_data()), path
        disposition = response.headers["Content-Disposition"]
        assert "\n" not in disposition and "<" not in disposition and disposition.count('"') == 2, disposition
    assert f"{name} went out" in pdf_text(client.get(f"/games/{g}/results.pdf").get_data())
