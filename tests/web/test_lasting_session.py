"""Rights that last: the session cookie that holds a browser's edit keys and its games is
permanent (it outlasts the browser, for PERMANENT_SESSION_LIFETIME, 180 days unless set);
home lists the games this browser used, those it edits and those it watches, by last use;
and the cookie stays under a browser's 4 KB when every cap is full. (The browser's own
keeping of it is tests/web/test_lasting_browser.py.)"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

import pytest
from flask import request
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature

from scorepad.access import MAX_GAMES_REMEMBERED
from scorepad.rules.limits import MAX_GAME_ID, MAX_GAMES_WATCHED, MAX_NAME
from tests.helpers import api_game, form_fields, grant, watch

COOKIE_LIMIT = 4000  # bytes of one Set-Cookie a browser is sure to keep (RFC 6265 asks for 4,096 at least)


def _session_cookies(response) -> list[str]:
    return [h for h in response.headers.getlist("Set-Cookie") if h.startswith("session=")]


def _expires(cookie: str) -> datetime:
    found = re.search(r"Expires=([^;]+)", cookie)
    assert found, cookie
    return parsedate_to_datetime(found.group(1))


def _home(client) -> list[tuple[str, bool]]:
    """Home's games, in order: (name, shown as watched)."""
    page = client.get("/").get_data(as_text=True)
    return [(name, "watching" in sides) for name, sides in re.findall(
        r'<span class="game-name">([^<]*)</span>.*?<span class="game-sides">([^<]*)</span>', page, re.S)]


def test_the_edit_link_sets_a_cookie_kept_for_180_days_not_only_until_the_browser_closes(client):
    game, key = api_game(client)
    before = datetime.now(UTC)
    cookie, = _session_cookies(client.get(f"/games/{game}/edit/{key}"))
    assert timedelta(days=180) - timedelta(minutes=1) <= _expires(cookie) - before <= timedelta(days=180, minutes=1)


def test_the_cookie_s_lifetime_is_a_setting_in_seconds_from_the_environment(make_app, monkeypatch):
    monkeypatch.setenv("SCOREPAD_PERMANENT_SESSION_LIFETIME", str(7 * 24 * 3600))
    client = make_app().test_client()
    game, key = api_game(client)
    before = datetime.now(UTC)
    cookie, = _session_cookies(client.get(f"/games/{game}/edit/{key}"))
    assert timedelta(days=7) - timedelta(minutes=1) <= _expires(cookie) - before <= timedelta(days=7, minutes=1)


def test_a_page_that_changes_nothing_sends_no_cookie(client):
    """The cookie is sent when it changes, not on every request: a static file or a page
    that moves nothing never carries the keys (and is not made uncacheable by them)."""
    game, key = api_game(client)
    grant(client, game, key)
    client.get(f"/games/{game}")
    for url in (f"/games/{game}", "/static/app.css", "/", f"/games/{game}/sheet"):
        response = client.get(url)
        assert response.status_code == 200 and not _session_cookies(response), url


def test_home_lists_games_watched_and_edited_by_last_use(app, client):
    api = app.test_client()
    edited, key = api_game(api, name="Edited")
    watched, _ = api_game(api, name="Watched")
    later, later_key = api_game(api, name="Later")
    assert _home(client) == []
    grant(client, edited, key)
    watch(client, watched)  # the view link: watched
    assert _home(client) == [("Watched", True), ("Edited", False)]
    grant(client, later, later_key)
    assert client.get(f"/games/{edited}").status_code == 200
    assert _home(client) == [("Edited", False), ("Later", False), ("Watched", True)]
    watch(client, watched)
    assert _home(client) == [("Watched", True), ("Edited", False), ("Later", False)]
    assert client.get("/games/no-such-game").status_code == 404  # no game: nothing remembered
    assert len(_home(client)) == 3


def test_the_watchers_page_writes_no_session_on_any_view_its_watch_mark_does_once(app, client):
    """The view link, opened again and again by a phone that keeps no cookie, never writes a
    session; opened by a browser, the page's watch mark records the game once, and looking
    again at the game first on home writes nothing."""
    game, _ = api_game(app.test_client(), name="Friday")
    stranger = app.test_client(use_cookies=False)
    for _ in range(3):
        assert not _session_cookies(stranger.get(f"/games/{game}"))
    assert _session_cookies(watch(client, game)) == []
    assert _home(client) == [("Friday", True)]
    assert not _session_cookies(client.get(f"/games/{game}/watching"))  # first on home already


def test_the_watch_mark_of_no_game_records_nothing_and_an_editor_s_page_has_none(app, client):
    api = app.test_client()
    game, key = api_game(api, name="Friday")
    assert client.get("/games/no-such-game/watching").status_code == 404
    assert api.delete(f"/api/v1/games/{game}", headers={"Authorization": f"Bearer {key}"}).status_code == 200
    gone = client.get(f"/games/{game}/watching")
    assert gone.status_code == 410 and not _session_cookies(gone) and _home(client) == []
    edited, edit_key = api_game(api, name="Edited")
    grant(client, edited, edit_key)
    assert "/watching" not in client.get(f"/games/{edited}").get_data(as_text=True)
    assert not _session_cookies(client.get(f"/games/{edited}/watching"))  # a key held: left as it is
    assert _home(client) == [("Edited", False)]


def test_a_watched_game_s_edit_link_makes_it_edited_and_the_cookie_a_permanent_one(app, client):
    game, key = api_game(app.test_client(), name="Friday")
    assert not _session_cookies(client.get(f"/games/{game}"))  # the page is every watcher's: its mark records it
    cookie, = _session_cookies(client.get(f"/games/{game}/watching"))
    assert "Expires=" in cookie  # watching is remembered as long as editing
    grant(client, game, key)
    assert _home(client) == [("Friday", False)]
    assert client.get(f"/games/{game}/deals/new").status_code == 200


def test_watched_games_past_the_cap_forget_the_one_watched_least_recently(app, client):
    api = app.test_client()
    games = [api_game(api, name=f"W{i}") for i in range(MAX_GAMES_WATCHED + 1)]
    edited, key = api_game(api, name="Edited")
    grant(client, edited, key)
    for game, _ in games:
        watch(client, game)
    shown = [name for name, _ in _home(client)]
    assert "W0" not in shown and shown[:2] == [f"W{MAX_GAMES_WATCHED}", f"W{MAX_GAMES_WATCHED - 1}"]
    assert client.get(f"/games/{edited}/deals/new").status_code == 200  # watching never pushes out a key


def test_the_cookie_stays_under_4000_bytes_with_every_cap_full(make_app):
    """Every edit key and watched game a browser keeps (ids and keys are all 22 characters:
    ``reading.new_id``), the form token, and the longest message a redirect carries (an
    imported game's name of 40 characters that JSON escapes as 12 bytes each): the largest
    Set-Cookie the app sends is under 4,000 bytes."""
    app = make_app(WTF_CSRF_ENABLED=True)
    api, client = app.test_client(), app.test_client()
    sizes: list[int] = []

    def visit(url: str, **kwargs) -> None:
        response = client.open(url, **kwargs)
        assert response.status_code in (200, 204, 303), (url, response.status_code)
        sizes.extend(len(c) for c in _session_cookies(response))

    edited = [api_game(api, name=f"E{i}") for i in range(MAX_GAMES_REMEMBERED + 1)]
    watched = [api_game(api, name=f"W{i}")[0] for i in range(MAX_GAMES_WATCHED + 1)]
    assert all(len(game) == len(key) == 22 < MAX_GAME_ID for game, key in edited)
    for game in watched:
        visit(f"/games/{game}")
        visit(f"/games/{game}/watching")
    for game, key in edited:
        visit(f"/games/{game}/edit/{key}", method="GET")
    document = api.get(f"/api/v1/games/{edited[0][0]}/export").get_json()
    document["name"] = "\U0001F0A1" * MAX_NAME  # a playing card: outside the BMP, \ud83c\udca1 in JSON
    form = form_fields(client.get("/import").get_data(as_text=True), "/import")
    assert form.get("csrf_token")  # the form token is in the session too
    visit("/import", method="POST", data={**form, "document": json.dumps(document)})
    session = app.session_interface.get_signing_serializer(app).loads(
        client.get_cookie("session").value)
    assert [len(entry) for entry in session["games"]].count(2) == MAX_GAMES_REMEMBERED
    assert [len(entry) for entry in session["games"]].count(1) == MAX_GAMES_WATCHED
    assert session["_flashes"] and session["csrf_token"]
    assert max(sizes) < COOKIE_LIMIT, max(sizes)


def test_a_new_secret_key_signs_the_next_cookie_and_refuses_one_signed_with_the_old(app, client):
    """The session's serializer is made once per set of keys (SECRET_KEY, SECRET_KEY_FALLBACKS),
    not per request: a key changed while the app runs is the one that signs from then on."""
    game, key = api_game(client)
    old = _session_cookies(client.get(f"/games/{game}/edit/{key}"))[0].split(";")[0].removeprefix("session=")
    signing = app.session_interface.get_signing_serializer(app)
    assert signing is app.session_interface.get_signing_serializer(app)  # made once
    assert signing.loads(old)["games"]
    app.config["SECRET_KEY"] = "another key entirely"
    renewed = app.session_interface.get_signing_serializer(app)
    assert renewed is not signing
    with pytest.raises(BadSignature):
        renewed.loads(old)
    app.config["SECRET_KEY_FALLBACKS"] = [signing.secret_keys[-1].decode()]  # the old key, kept to read
    assert app.session_interface.get_signing_serializer(app).loads(old)["games"]


def _saved(app, interface, state: str) -> list[tuple[str, str]]:
    """The headers ``interface`` saves a session in ``state`` with, on an empty answer."""
    with app.test_request_context("/"):
        found = interface.open_session(app, request)
        if state == "read":
            found.accessed = True  # as flask.session marks it when a view reads it
        if state in ("emptied", "filled"):
            found["client"] = "x"
        if state == "emptied":
            found.clear()
        response = app.response_class()
        interface.save_session(app, found, response)
        return [(k, v) for k, v in response.headers if k != "Content-Type"]


@pytest.mark.parametrize("state", ["untouched", "read", "emptied", "filled"])
def test_a_session_is_saved_as_flask_saves_it_an_empty_one_nothing_changed_without_a_cookie(app, state):
    """Saving skips working out the cookie's settings for an empty session nothing changed
    (every API request, an anonymous view), and answers as Flask's own saving does in every
    state: nothing; ``Vary: Cookie`` once read; the cookie expired once emptied; sent once set."""
    ours = _saved(app, app.session_interface, state)
    assert ours == _saved(app, SecureCookieSessionInterface(), state)
    assert bool(ours) is (state != "untouched")
