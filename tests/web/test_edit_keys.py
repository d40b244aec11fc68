"""Edit keys: no cache keeps a response that carries one, and a browser keeps the keys of
the games it used most recently (not the games with the lowest ids)."""

from __future__ import annotations

import re

import pytest

from scorepad.access import MAX_GAMES_REMEMBERED
from scorepad.storage import reading
from tests.helpers import ANN_BEA, api_game, bearer, form_fields, grant, sql, text_of, valid_deal


def _session(app, response) -> dict:
    """The session a response sets, decoded (the cookie is signed, not secret), or {}."""
    cookie = next((h for h in response.headers.getlist("Set-Cookie") if h.startswith("session=")), None)
    if cookie is None:
        return {}
    value = cookie.split(";", 1)[0].split("=", 1)[1]
    return app.session_interface.get_signing_serializer(app).loads(value) if value else {}


def _carries(app, response, key: str) -> bool:
    return key in response.get_data(as_text=True) or key in str(_session(app, response))


# -- Cache-Control: no-store --------------------------------------------------------------------


def test_the_editor_s_game_page_with_the_edit_link_and_its_qr_code_is_no_store(app, client):
    game, key = api_game(client)
    grant(client, game, key)
    response = client.get(f"/games/{game}")
    assert f"/games/{game}/edit/{key}" in response.get_data(as_text=True)
    assert 'aria-label="QR code: the edit link"' in response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "no-store"
    viewer = app.test_client().get(f"/games/{game}")  # the view link's page stays cacheable (revalidated)
    assert key not in viewer.get_data(as_text=True) and viewer.headers["Cache-Control"] == "no-cache"


def test_the_api_s_answers_that_hold_an_edit_key_are_no_store(client):
    created = client.post("/api/v1/games", json={"name": "Friday", "sheet": "common", "sides": ANN_BEA})
    assert created.status_code == 201 and created.get_json()["edit_key"]
    assert created.headers["Cache-Control"] == "no-store"
    game = created.get_json()["id"]
    document = client.get(f"/api/v1/games/{game}/export").get_json()
    imported = client.post("/api/v1/games/import", json=document)
    assert imported.status_code == 201 and imported.get_json()["edit_key"]
    assert imported.headers["Cache-Control"] == "no-store"


def test_every_page_response_carrying_an_edit_key_is_no_store(app, client):
    """Whatever a browser holding edit links is sent (a page, a redirect setting the session
    cookie that holds its keys): when it carries a key, no cache may keep it."""
    form = form_fields(client.get("/new").get_data(as_text=True), "/new")
    made = client.post("/new", data={**form, "name": "Friday", "side-0-p0": "Ann", "side-1-p0": "Bea"})
    assert made.status_code == 303
    game = made.headers["Location"].rsplit("/", 1)[-1]
    key = dict(_session(app, made)["games"])[game]  # [id, key] pairs (and [id] for a game watched)
    other, other_key = api_game(client, name="Saturday")
    document = client.get(f"/api/v1/games/{game}/export").get_data(as_text=True)
    deal = {"s0-m0-cards": "K K K K K K K", "s0-m1-cards": "Q Q Q Q Q 2 2", "s1-m0-cards": "J J J",
            "s1-p0-left": "A 3B", "ending": "s0-p0", "action": "save",
            "s0-p0-picked": "on", "s1-p0-picked": "on"}
    requests = [("POST", "/new", {"data": {**form, "side-0-p0": "Cal", "side-1-p0": "Dan"}}),
                ("GET", f"/games/{other}/edit/{other_key}", {}), ("GET", f"/games/{game}", {}), ("GET", "/", {}),
                ("POST", f"/games/{game}/deals/new", {"data": deal}), ("GET", f"/games/{game}", {}),
                ("GET", f"/games/{game}/deals/1", {}), ("GET", f"/games/{game}/deals/1/edit", {}),
                ("GET", f"/games/{game}/deals/new", {}), ("GET", f"/games/{game}/history", {}),
                ("GET", f"/games/{game}/sheet", {}), ("GET", f"/games/{game}/sheet/amend", {}),
                ("GET", f"/games/{game}/referee", {}), ("GET", f"/games/{game}/deals/1/delete", {}),
                ("POST", "/import", {"data": {"document": document}}), ("GET", f"/games/{other}", {})]
    carrying = 0
    for method, url, kwargs in requests:
        response = client.open(url, method=method, **kwargs)
        assert response.status_code < 400, (method, url, response.status_code)
        if _carries(app, response, key) or _carries(app, response, other_key):
            carrying += 1
            assert response.headers.get("Cache-Control") == "no-store", (method, url, response.status_code)
    assert carrying >= 6  # the redirects that grant, the game pages, the saved deal's redirect


# -- which keys a browser keeps ----------------------------------------------------------------------


def _home_names(client) -> list[str]:
    return re.findall(r'<span class="game-name">([^<]*)</span>', client.get("/").get_data(as_text=True))


def _may_edit(client, game: str) -> bool:
    return client.get(f"/games/{game}/deals/new").status_code == 200


def test_the_game_used_least_recently_is_forgotten_not_the_lowest_id(app, client):
    api = app.test_client()
    games = sorted(api_game(api, name=f"G{i}") for i in range(MAX_GAMES_REMEMBERED + 1))  # by id
    first, *rest, last = games
    order = [*reversed(rest), first]  # the highest id opened first ... the lowest id last
    for game, key in order:
        grant(client, game, key)
    oldest, second = order[0], order[1]
    assert client.get(f"/games/{oldest[0]}").status_code == 200  # opening it makes it the most recent
    grant(client, *last)
    assert not _may_edit(client, second[0])  # used least recently: forgotten
    for game, _ in (oldest, first, last, order[2]):
        assert _may_edit(client, game)


def test_home_lists_the_twenty_games_used_most_recently_in_order_of_use(app, client):
    api = app.test_client()
    made = {api_game(api, name=f"G{i}"): f"G{i}" for i in range(25)}
    games = sorted(made)  # by id
    names = {game: made[(game, key)] for game, key in games}
    for game, key in reversed(games):
        grant(client, game, key)
    assert _home_names(client) == [names[g] for g, _ in games[:20]]  # the lowest id, granted last, first
    used_by_page = games[22][0]
    assert client.get(f"/games/{used_by_page}").status_code == 200
    written = games[24]
    assert api.post(f"/api/v1/games/{written[0]}/deals", json=valid_deal(1), headers=bearer(written[1])) \
        .status_code == 201  # a write through the API is not this browser's use
    deal = {"s0-m0-cards": "K K K K K K K", "s0-m1-cards": "Q Q Q Q Q 2 2", "s1-m0-cards": "J J J",
            "s1-p0-left": "A 3B", "ending": "s0-p0", "action": "save",
            "s0-p0-picked": "on", "s1-p0-picked": "on"}
    assert client.post(f"/games/{games[23][0]}/deals/new", data=deal).status_code == 303  # a write here
    shown = _home_names(client)
    assert shown[:3] == [names[games[23][0]], names[used_by_page], names[games[0][0]]]
    assert names[written[0]] not in shown and len(shown) == 20


@pytest.mark.parametrize("held", [0, 1])
def test_a_session_from_before_keeps_its_keys(app, client, held):
    """A cookie written by the old code ({id: key}, sorted by id) still grants its games."""
    games = sorted(api_game(app.test_client(), name=f"G{i}") for i in range(2))
    with client.session_transaction() as session:
        session["edit"] = {game: key for game, key in games[:held + 1]}
    assert all(_may_edit(client, game) for game, _ in games[:held + 1])
    grant(client, *games[-1])
    assert _may_edit(client, games[0][0]) and _may_edit(client, games[-1][0])


# -- replacing the edit link --------------------------------------------------------------------------


def test_replacing_the_edit_link_asks_first_then_shows_the_new_link_and_tells_the_old_ones_holders(app, client):
    game, old = api_game(client)
    grant(client, game, old)
    other_phone = app.test_client()
    grant(other_phone, game, old)
    asked = client.get(f"/games/{game}/replace-edit-link")
    assert asked.status_code == 200 and asked.headers["Cache-Control"] == "no-store"
    assert sql(app.config["DATABASE"], "SELECT edit_key FROM game") == [(old,)]  # asking changed nothing
    done = client.post(f"/games/{game}/replace-edit-link",
                       data=form_fields(asked.get_data(as_text=True), f"/games/{game}/replace-edit-link"))
    assert done.status_code == 303 and done.headers["Location"].endswith(f"/games/{game}#edit-link")
    [(new,)] = sql(app.config["DATABASE"], "SELECT edit_key FROM game")
    assert new != old
    page = client.get(f"/games/{game}")
    shown = page.get_data(as_text=True)
    assert f"/games/{game}/edit/{new}" in shown and old not in shown and page.headers["Cache-Control"] == "no-store"
    assert "<details open>" in shown and "The edit link was replaced" in shown  # the new link shown, with its QR
    assert _may_edit(client, game)  # the phone that replaced it keeps its rights
    assert "Edit link replaced" in text_of(client.get(f"/games/{game}/history").get_data(as_text=True))

    refused = other_phone.get(f"/games/{game}/deals/new")  # a phone that had the old link
    assert refused.status_code == 403
    words = text_of(refused.get_data(as_text=True))
    assert "This edit link was replaced" in words and "Open the view link" in words
    assert f'href="/games/{game}"' in refused.get_data(as_text=True)
    watching = other_phone.get(f"/games/{game}").get_data(as_text=True)
    assert f"/games/{game}/deals/new" not in watching and "You are watching" in watching
    assert not _may_edit(other_phone, game)
    third_phone = app.test_client()  # another that had it, opening the game page first: told there
    with third_phone.session_transaction() as session:
        session["games"] = [[game, old]]
    told = text_of(third_phone.get(f"/games/{game}").get_data(as_text=True))
    assert "The edit link this phone had was replaced" in told and "This is the view link" in told
    assert "The edit link this phone had" not in text_of(third_phone.get(f"/games/{game}").get_data(as_text=True))

    stranger = app.test_client()
    opened = stranger.get(f"/games/{game}/edit/{old}")  # the old link, opened now
    assert opened.status_code == 403 and "This edit link was replaced" in text_of(opened.get_data(as_text=True))
    assert not _may_edit(stranger, game) and old not in str(_session(app, opened))


def test_the_page_s_deal_form_key_is_scoped_to_the_edit_key_and_refused_once_it_is_replaced(app, client):
    game, old = api_game(client)
    grant(client, game, old)
    deal = {"s0-m0-cards": "K K K K K K K", "s0-m1-cards": "Q Q Q Q Q 2 2", "s1-m0-cards": "J J J",
            "s1-p0-left": "A 3B", "ending": "s0-p0", "action": "save", "s0-p0-picked": "on", "s1-p0-picked": "on",
            "revision": "0", "idempotency_key": "form-1"}
    assert client.post(f"/games/{game}/deals/new", data=deal).status_code == 303
    [(scope,)] = sql(app.config["DATABASE"], "SELECT client FROM idempotency_key")
    assert scope == reading.key_digest(old)
    assert app.test_client().post(f"/api/v1/games/{game}/edit-key", headers=bearer(old)).status_code == 200
    again = client.post(f"/games/{game}/deals/new", data=deal)  # the old key's replay: refused as the key is
    assert again.status_code == 403 and "This edit link was replaced" in text_of(again.get_data(as_text=True))


def test_a_phone_that_may_not_edit_cannot_replace_the_edit_link(app, client, viewer):
    game, key = api_game(client)
    assert viewer.get(f"/games/{game}/replace-edit-link").status_code == 403
    assert viewer.post(f"/games/{game}/replace-edit-link", data={}).status_code == 403
    assert sql(app.config["DATABASE"], "SELECT edit_key FROM game") == [(key,)]


def test_the_replace_form_sent_again_after_its_answer_was_lost_keeps_the_phone_an_editor_and_shows_the_new_link(
        app, client):
    """The first replacement is made, but its answer (and the cookie with the new key) never
    reaches the phone: the same form sent again with the cookie it had replaces nothing more
    and gives this phone the game's key as it is now, with the new link shown. Another phone
    with the old key and a form of its own is told the link was replaced."""
    game, old = api_game(client)
    grant(client, game, old)
    other_phone = app.test_client()
    grant(other_phone, game, old)
    url = f"/games/{game}/replace-edit-link"
    form = form_fields(client.get(url).get_data(as_text=True), url)
    other_form = form_fields(other_phone.get(url).get_data(as_text=True), url)
    assert form["idempotency_key"] and other_form["idempotency_key"] != form["idempotency_key"]
    before = client.get_cookie("session").value
    assert client.post(url, data=form).status_code == 303
    [(new,)] = sql(app.config["DATABASE"], "SELECT edit_key FROM game")
    client.set_cookie("session", before)  # the answer lost: the phone still holds the old key
    again = client.post(url, data=form)
    assert again.status_code == 303 and again.headers["Location"].endswith(f"/games/{game}#edit-link")
    assert sql(app.config["DATABASE"], "SELECT edit_key FROM game") == [(new,)]  # replaced once
    shown = client.get(f"/games/{game}").get_data(as_text=True)
    assert f"/games/{game}/edit/{new}" in shown and "<details open>" in shown and "The edit link was replaced" in shown
    assert _may_edit(client, game)
    assert [a for (a,) in sql(app.config["DATABASE"], "SELECT action FROM history")] == ["rekey"]

    refused = other_phone.post(url, data=other_form)  # the old key, and its own form's key
    assert refused.status_code == 403 and "was replaced" in text_of(refused.get_data(as_text=True))
    assert new not in refused.get_data(as_text=True) and not _may_edit(other_phone, game)
    assert sql(app.config["DATABASE"], "SELECT edit_key FROM game") == [(new,)]


def test_a_replaced_link_s_words_say_when_in_utc_and_tell_a_phone_with_the_new_key_it_can_still_edit(app, client):
    game, old = api_game(client)
    grant(client, game, old)
    new = app.test_client().post(f"/api/v1/games/{game}/edit-key", headers=bearer(old)).get_json()["edit_key"]
    [(at,)] = sql(app.config["DATABASE"], "SELECT at FROM replaced_edit_key")
    when = f"{at[:10]} {at[11:16]} UTC"
    told = text_of(client.get(f"/games/{game}").get_data(as_text=True))  # the phone that had it: the flash
    assert f"The edit link this phone had was replaced on {when}: it can no longer" in told
    assert at not in told and "+00:00" not in told

    holder = app.test_client()  # a phone with the new key opens the old link
    grant(holder, game, new)
    opened = holder.get(f"/games/{game}/edit/{old}")
    words = text_of(opened.get_data(as_text=True))
    assert opened.status_code == 403 and f"This edit link of “Friday” was replaced on {when}" in words
    assert "This phone has the new edit link, so it can still record and correct deals" in words
    assert "Open the game" in words and "that this phone had" not in words and _may_edit(holder, game)

    stranger = app.test_client()  # one without the new key: told to ask for it
    words = text_of(stranger.get(f"/games/{game}/edit/{old}").get_data(as_text=True))
    assert f"This edit link of “Friday” was replaced on {when}" in words and "Ask whoever keeps the score" in words
    assert "can still record" not in words and "Open the view link" in words


def test_the_replace_form_sent_again_after_its_answer_came_through_replaces_nothing_more(app, client):
    """A double tap whose first answer arrived (or the form sent again from the back button):
    the phone holds the key that form made, so the link is shown again, not replaced again."""
    game, old = api_game(client)
    grant(client, game, old)
    url = f"/games/{game}/replace-edit-link"
    form = form_fields(client.get(url).get_data(as_text=True), url)
    assert client.post(url, data=form).status_code == 303
    [(new,)] = sql(app.config["DATABASE"], "SELECT edit_key FROM game")
    again = client.post(url, data=form)
    assert again.status_code == 303 and again.headers["Location"].endswith(f"/games/{game}#edit-link")
    assert sql(app.config["DATABASE"], "SELECT edit_key FROM game") == [(new,)]
    shown = client.get(f"/games/{game}").get_data(as_text=True)
    assert f"/games/{game}/edit/{new}" in shown and "<details open>" in shown
    fresh = form_fields(client.get(url).get_data(as_text=True), url)  # a new form: a new replacement
    assert client.post(url, data=fresh).status_code == 303
    assert sql(app.config["DATABASE"], "SELECT edit_key FROM game") != [(new,)]
