"""Rate limits (issue 8, item 3): games started per client address, writes per address and game.

Limits are off in every other test (tests/conftest.py); these turn them on explicitly.
"""

from __future__ import annotations

import re
import threading

import pytest
from limits.storage import MemoryStorage

from scorepad import limit_counts
from scorepad.app import StartupError
from scorepad.limit_counts import ProcessCounts
from scorepad.storage import cache
from tests.helpers import ANN_BEA, api_game, assert_error_shape, bearer, form_fields, grant, text_of, valid_deal

API = "/api/v1"
OTHER = {"REMOTE_ADDR": "10.9.8.7"}


@pytest.fixture
def limited_app(make_app):
    """``limited_app(**config)``: the test app (tests/conftest.py) with its rate limits on."""
    return lambda **config: make_app(RATELIMIT_ENABLED=True, **config)


def assert_retry_after(response) -> int:
    seconds = int(response.headers["Retry-After"])
    assert 0 < seconds <= 61, seconds
    return seconds


def assert_429_page_keeps(response, action: str, sent: dict[str, str], says: str) -> None:
    """A page (not JSON) saying why, with every field that was sent behind "Send it again"."""
    assert response.status_code == 429 and response.mimetype == "text/html", response.status_code
    assert_retry_after(response)
    page = response.get_data(as_text=True)
    assert says in text_of(page) and "Send it again" in page
    kept = form_fields(page, action)
    kept.pop("csrf_token", None)
    assert kept == {k: v for k, v in sent.items() if k != "csrf_token"}


def new_game_form(client) -> dict[str, str]:
    fields = form_fields(client.get("/new").get_data(as_text=True), "/new")
    fields.update({"name": "Friday", "side-0-p0": "Ann", "side-1-p0": "Bea"})
    return fields


def test_a_page_past_a_limit_says_how_long_to_wait_in_minutes_when_it_is_minutes(limited_app):
    """"Send it again in 3600 seconds" is no way to tell a player to wait an hour."""
    client = limited_app(LIMIT_CREATE="1 per hour").test_client()
    form = new_game_form(client)
    assert client.post("/new", data=form).status_code == 303
    words = text_of(client.post("/new", data=form).get_data(as_text=True))
    assert re.search(r"send it again in (59|60) minutes\.", words), words


def test_the_21st_game_started_in_a_minute_from_one_address_is_429_on_the_api_and_the_pages(limited_app):
    client = limited_app().test_client()
    for _ in range(25):  # looking at the new-game page starts nothing and counts for nothing
        assert client.get("/new").status_code == 200
    game_id, _ = api_game(client)  # 1
    document = client.get(f"{API}/games/{game_id}/export").get_json()
    for _ in range(9):  # 2..10: importing a game starts one
        assert client.post(f"{API}/games/import", json=document).status_code == 201
    form = new_game_form(client)
    for _ in range(10):  # 11..20: the page shares the count
        response = client.post("/new", data=form)
        assert response.status_code == 303, text_of(response.get_data(as_text=True))[:300]

    assert_429_page_keeps(client.post("/new", data=form), "/new", form, "Too many new games")
    response = client.post(f"{API}/games", json={"name": "One more", "sheet": "common", "sides": ANN_BEA})
    error = assert_error_shape(response, 429, None)
    assert "too many games" in error["message"] and "20 per minute" in error["message"]
    assert response.get_json()["type"] == "/api/v1/problems/rate-limited"
    assert_retry_after(response)
    assert_error_shape(client.post(f"{API}/games/import", json=document), 429, None)
    pasted = {"document": "{\"format\": \"scorepad.game\"}"}
    assert_429_page_keeps(client.post("/import", data=pasted), "/import", pasted, "Too many new games")

    # Another address is counted on its own.
    other = client.post(f"{API}/games", json={"name": "Theirs", "sheet": "common", "sides": ANN_BEA},
                        environ_base=OTHER)
    assert other.status_code == 201
    assert client.post("/new", data=form, environ_base=OTHER).status_code == 303


def test_the_61st_write_to_one_game_in_a_minute_is_429_and_other_games_and_addresses_are_not(limited_app):
    client = limited_app().test_client()
    game_id, key = api_game(client)
    other_game, other_key = api_game(client)
    grant(client, game_id, key)
    base = f"{API}/games/{game_id}/deals"
    assert client.post(base, json=valid_deal(), headers=bearer(key)).status_code == 201  # 1
    for _ in range(58):  # 2..59
        assert client.put(f"{base}/1", json=valid_deal(), headers=bearer(key)).status_code == 200
    for _ in range(5):  # opening the pages that write counts for nothing
        assert client.get(f"/games/{game_id}/deals/1/edit").status_code == 200
    edit = form_fields(client.get(f"/games/{game_id}/deals/1/edit").get_data(as_text=True),
                       f"/games/{game_id}/deals/1/edit")
    assert client.post(f"/games/{game_id}/deals/1/edit", data=edit).status_code == 303  # 60: pages share it
    written = client.get(f"{API}/games/{game_id}").get_json()["revision"]  # 1: the same deal again writes nothing

    form = form_fields(client.get(f"/games/{game_id}/deals/new").get_data(as_text=True),
                       f"/games/{game_id}/deals/new")
    form["reason"] = "we let it stand"  # something typed, kept on the page that refuses it
    assert_429_page_keeps(client.post(f"/games/{game_id}/deals/new", data=form),
                          f"/games/{game_id}/deals/new", form, "Too many changes at once")
    for response in (client.put(f"{base}/1", json=valid_deal(), headers=bearer(key)),
                     client.delete(f"{base}/1", headers=bearer(key)),
                     client.put(f"{API}/games/{game_id}/sheet", headers=bearer(key),
                                json={"sheet": "common", "reason": "again"})):
        error = assert_error_shape(response, 429, None)
        assert "too many changes to this game" in error["message"]
        assert_retry_after(response)
    assert client.get(f"{API}/games/{game_id}").get_json()["revision"] == written  # nothing more was written

    # The same address writing to another game, and another address writing to this one.
    assert client.post(f"{API}/games/{other_game}/deals", json=valid_deal(),
                       headers=bearer(other_key)).status_code == 201
    assert client.put(f"{base}/1", json=valid_deal(), headers=bearer(key), environ_base=OTHER).status_code == 200


def test_writes_refused_for_want_of_the_key_do_not_use_up_the_table_s_count(limited_app):
    """Whoever holds only the view link (the QR on the table), behind the table's own address
    (one club's Wi-Fi), sends keyless writes: they count against LIMIT_REFUSED, per address,
    and never against the (address, game) count of the table's phones (issue 21, item 4)."""
    app = limited_app(LIMIT_WRITE="5 per minute", LIMIT_REFUSED="4 per minute")
    client = app.test_client()
    game_id, key = api_game(client)
    deals = f"{API}/games/{game_id}/deals"
    stranger = app.test_client()  # another browser, the same address: it has watched the game
    assert stranger.get(f"/games/{game_id}").status_code == 200
    refusals = [client.post(deals, json=valid_deal()),  # 401: no key
                client.post(deals, json=valid_deal(), headers=bearer("not-the-key")),  # 403
                client.put(f"{deals}/1", json=valid_deal(), headers=bearer("x")),
                stranger.post(f"/games/{game_id}/deals/new", data={"reason": "x"})]  # the page: 403
    assert [r.status_code for r in refusals] == [401, 403, 403, 403]
    for _ in range(20):  # past LIMIT_REFUSED: refused with a 429 that says why
        error = assert_error_shape(client.delete(f"{deals}/1"), 429, None)
    assert "without the game's edit key" in error["message"] and "4 per minute" in error["message"]
    assert_retry_after(client.delete(f"{deals}/1"))
    page = stranger.post(f"/games/{game_id}/deals/new", data={"reason": "x"})
    assert page.status_code == 429 and "Too many changes without the edit link" in text_of(page.get_data(as_text=True))

    # The table's phone, same address, with the key: its five writes a minute, all of them.
    assert client.post(deals, json=valid_deal(), headers=bearer(key)).status_code == 201
    for _ in range(4):
        assert client.put(f"{deals}/1", json=valid_deal(), headers=bearer(key)).status_code == 200
    assert "too many changes to this game" in assert_error_shape(
        client.put(f"{deals}/1", json=valid_deal(), headers=bearer(key)), 429, None)["message"]
    # Another address's refusals are its own.
    assert client.post(deals, json=valid_deal(), environ_base=OTHER).status_code == 401


def test_writes_from_a_phone_whose_edit_link_was_replaced_count_against_limit_refused(limited_app):
    """The page a phone holding a replaced edit link gets (403, "This edit link was replaced",
    sent as a whole page) is a refusal like any other: counted, then 429 past LIMIT_REFUSED
    (it was neither counted there nor against LIMIT_WRITE: 8 of 8 posts got their 403)."""
    app = limited_app(LIMIT_REFUSED="2 per minute")
    client = app.test_client()
    game_id, key = api_game(client)
    old = app.test_client()
    grant(old, game_id, key)
    assert client.post(f"{API}/games/{game_id}/edit-key", headers=bearer(key)).status_code == 200
    statuses = [old.post(f"/games/{game_id}/deals/new", data={"reason": "x"}).status_code for _ in range(4)]
    assert statuses[:2] == [403, 403] and statuses[2:] == [429, 429], statuses


@pytest.mark.parametrize("name", ["LIMIT_REFUSED", "LIMIT_BUILD"])
def test_a_limit_counted_where_it_happens_takes_one_rate(limited_app, name):
    """LIMIT_REFUSED and LIMIT_BUILD are counted by hand, one rate each: a second rate would
    have been dropped without a word, so it stops start-up naming the setting."""
    with pytest.raises(StartupError, match=f"SCOREPAD_{name}.*one rate"):
        limited_app(**{name: "30 per minute; 300 per day"})


def test_the_limits_are_read_from_the_environment(make_app, monkeypatch):
    monkeypatch.setenv("SCOREPAD_RATELIMIT_ENABLED", "true")
    monkeypatch.setenv("SCOREPAD_LIMIT_CREATE", "2 per minute")
    monkeypatch.setenv("SCOREPAD_LIMIT_WRITE", "1 per hour")
    monkeypatch.setenv("SCOREPAD_LIMIT_REFUSED", "1 per day")
    monkeypatch.setenv("SCOREPAD_LIMIT_BUILD", "1 per day")
    client = make_app(WTF_CSRF_ENABLED=True).test_client()
    game_id, key = api_game(client)
    other_id, _ = api_game(client)
    assert "2 per minute" in assert_error_shape(client.post(f"{API}/games", json={}), 429, None)["message"]
    base = f"{API}/games/{game_id}/deals"
    assert client.post(base, json=valid_deal(), headers=bearer(key)).status_code == 201
    response = client.put(f"{base}/1", json=valid_deal(), headers=bearer(key))
    assert response.status_code == 429 and int(response.headers["Retry-After"]) > 61
    assert client.delete(f"{API}/games/{other_id}/deals/1").status_code == 401  # without the key
    response = client.delete(f"{API}/games/{other_id}/deals/1")
    assert response.status_code == 429 and int(response.headers["Retry-After"]) > 2 * 3600  # the day's, not the hour's
    assert client.get(f"{API}/referee/games/{game_id}/rescore?sheet=pagat").status_code == 200  # the day's one build
    response = client.get(f"{API}/referee/games/{game_id}/rescore?sheet=bicycle")
    assert response.status_code == 429 and int(response.headers["Retry-After"]) > 2 * 3600


@pytest.mark.parametrize("name", ["LIMIT_CREATE", "LIMIT_WRITE", "LIMIT_REFUSED", "LIMIT_BUILD"])
def test_a_limit_that_cannot_be_read_stops_start_up_naming_the_setting(limited_app, name):
    with pytest.raises(StartupError, match=f"SCOREPAD_{name}"):
        limited_app(**{name: "lots"})


def test_the_test_fixtures_run_without_limits(client):
    for _ in range(25):
        game_id, _ = api_game(client)
    for sheet in ("pagat", "bicycle", "gather-together", "progressive") * 3:  # each a build: none counted
        assert client.get(f"{API}/referee/games/{game_id}/rescore?sheet={sheet}&deal=").status_code == 200
        assert client.get(f"/games/{game_id}/rescore?sheet={sheet}").status_code == 200


# Sheets other than the game's (common): a rescore under each is built once per revision.
OTHER_SHEETS = ("pagat", "bicycle", "gather-together", "progressive")


def test_past_limit_build_uncached_rescores_from_one_address_are_429_and_another_address_still_builds(limited_app):
    """Each rescore under another sheet, history or PDF that must be built counts against
    LIMIT_BUILD for the client that asks it; past it the next build is refused with 429 (the
    API's problem, the page that keeps the question), while another address builds its own."""
    client = limited_app(LIMIT_BUILD="3 per minute").test_client()
    game_id, _ = api_game(client, deals=[valid_deal()])
    rescore = f"{API}/referee/games/{game_id}/rescore"
    for sheet in OTHER_SHEETS[:3]:  # three builds
        assert client.get(f"{rescore}?sheet={sheet}").status_code == 200
    response = client.get(f"{rescore}?sheet={OTHER_SHEETS[3]}")
    error = assert_error_shape(response, 429, None)
    assert response.get_json()["type"] == "/api/v1/problems/rate-limited"
    assert "3 per minute" in error["message"]
    assert_retry_after(response)
    assert_error_shape(client.get(f"{API}/games/{game_id}/history"), 429, None)  # a history is a build too
    page = client.get(f"/games/{game_id}/rescore?sheet=pagat&deal=1")  # the page's own, not built yet
    assert page.status_code == 429 and page.mimetype == "text/html"
    assert_retry_after(page)
    assert "Too many documents" in text_of(page.get_data(as_text=True))
    assert form_fields(page.get_data(as_text=True), f"/games/{game_id}/rescore", "get") == {
        "sheet": "pagat", "deal": "1"}  # "Send it again" asks the same question

    # What is cached is answered, however often, and never refused: it builds nothing.
    for _ in range(10):
        assert client.get(f"{rescore}?deal=&sheet=pagat&x=1").status_code == 200

    # Another address builds its own three; the cached answers it asks first count for nothing.
    for _ in range(10):
        assert client.get(f"{rescore}?sheet=bicycle", environ_base=OTHER).status_code == 200
    for sheet in OTHER_SHEETS[:3]:
        assert client.get(f"/games/{game_id}/rescore?sheet={sheet}", environ_base=OTHER).status_code == 200
    assert client.get(f"/games/{game_id}/rescore?sheet={OTHER_SHEETS[3]}", environ_base=OTHER).status_code == 429


def test_a_pdf_asked_again_and_again_from_one_address_is_never_limited(limited_app):
    """The table printing the same results again and again builds it once: LIMIT_BUILD counts
    the builds, so only another document (another paper, another PDF) counts again."""
    client = limited_app(LIMIT_BUILD="2 per minute").test_client()
    game_id, _ = api_game(client, deals=[valid_deal()])
    for _ in range(20):
        response = client.get(f"/games/{game_id}/results.pdf")
        assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert client.get(f"/games/{game_id}/results.pdf?paper=a4").status_code == 200  # the second build
    for _ in range(5):
        assert client.get(f"/games/{game_id}/results.pdf?paper=a4").status_code == 200
    refused = client.get(f"/games/{game_id}/pad.pdf")  # a third
    assert refused.status_code == 429 and "Too many documents" in text_of(refused.get_data(as_text=True))
    assert client.get(f"/games/{game_id}/results.pdf").status_code == 200  # the kept ones still are


class Clock:
    """The rate-limit counts' clock (:mod:`scorepad.limit_counts`, the memory storage, reads
    ``time.time()``), moved on by hand: a day of games in a second of test."""

    def __init__(self, start: float) -> None:
        self.now = start

    def time(self) -> float:
        return self.now


def test_by_default_one_address_starts_at_most_200_games_a_day_however_slowly(limited_app, monkeypatch):
    """LIMIT_CREATE's default holds a daily limit besides the minute's: an address that waits
    out each minute's 20 is still stopped at 200 a day (issue 21, item 7)."""
    clock = Clock(1_800_000_000.0)
    monkeypatch.setattr(limit_counts, "time", clock)
    client = limited_app().test_client()
    body = {"name": "Friday", "sheet": "common", "sides": ANN_BEA}
    made = 0
    while made < 1000:
        response = client.post(f"{API}/games", json=body)
        if response.status_code == 429:
            error = assert_error_shape(response, 429, None)
            if "per day" in error["message"]:
                break
            clock.now += 61  # this minute's count is spent: wait for the next
            continue
        assert response.status_code == 201
        made += 1
    assert made == 200, made
    clock.now += 3600  # an hour later, still the same day's count
    assert "200 per day" in assert_error_shape(client.post(f"{API}/games", json=body), 429, None)["message"]
    assert client.post(f"{API}/games", json=body, environ_base=OTHER).status_code == 201  # another address
    clock.now += 86_400
    assert client.post(f"{API}/games", json=body).status_code == 201  # the next day


def test_a_client_past_limit_build_is_refused_at_once_without_waiting_for_the_build_turn(limited_app):
    """While another document is being built, a client already past LIMIT_BUILD asking one
    more is told 429 at once: it holds none of the server's threads waiting for the turn."""
    app = limited_app(LIMIT_BUILD="1 per minute", BUILD_WAIT=0.5)
    client = app.test_client()
    game_id, _ = api_game(client, deals=[valid_deal()])
    rescore = f"{API}/referee/games/{game_id}/rescore"
    assert client.get(f"{rescore}?sheet=pagat").status_code == 200
    with app.app_context(), cache.current().gate():  # someone else's build holds the turn
        assert_error_shape(client.get(f"{rescore}?sheet=bicycle"), 429, None)
        busy = client.get(f"{rescore}?sheet=bicycle", environ_base=OTHER)  # within its count: it waits
        assert_error_shape(busy, 503, None)


def test_the_limiter_s_hooks_are_on_no_request_but_a_limited_route_s(limited_app):
    """Flask-Limiter's before-request, after-request and teardown hooks are on no request of
    the app (a page, a poll of the revision have nothing for them to do); a limited route
    still deducts its writes after answering them (the write limit's count, above)."""
    app = limited_app(LIMIT_WRITE="2 per minute")
    limiter = app.extensions["scorepad.limiter"]

    def its_own(hook) -> bool:
        return getattr(hook, "__self__", None) is limiter or getattr(hook, "args", ())[:1] == (limiter,)
    hooks = [*app.before_request_funcs.get(None, []), *app.after_request_funcs.get(None, []),
             *app.teardown_request_funcs.get(None, [])]
    assert hooks and not [hook for hook in hooks if its_own(hook)]
    client = app.test_client()
    game_id, key = api_game(client)
    assert client.get(f"{API}/games/{game_id}/revision").status_code == 200
    deals = f"{API}/games/{game_id}/deals"
    assert client.post(deals, json=valid_deal(), headers=bearer(key)).status_code == 201
    assert client.put(f"{deals}/1", json=valid_deal(), headers=bearer(key)).status_code == 200
    assert client.put(f"{deals}/1", json=valid_deal(), headers=bearer(key)).status_code == 429


def storage_of(app):
    (limiter,) = app.extensions["limiter"]
    return limiter._storage  # which storage memory:// became: Flask-Limiter names it only so


def test_memory_counts_start_no_thread_and_forget_the_windows_gone_by(limited_app, monkeypatch):
    """memory:// counts in this process (:class:`ProcessCounts`), without the timer thread
    limits' own memory storage starts again after every 10 ms (one a write, under load):
    no thread is started however many games are created, the limit holds as before, and the
    counts of windows gone by are dropped by a later count."""
    clock = Clock(1_800_000_000.0)
    monkeypatch.setattr(limit_counts, "time", clock)
    app = limited_app(LIMIT_CREATE="5 per minute")
    storage = storage_of(app)
    assert isinstance(storage, ProcessCounts)
    client = app.test_client()
    body = {"name": "Friday", "sheet": "common", "sides": ANN_BEA}
    threads = threading.active_count()
    for address in range(8):
        for _ in range(5):
            assert client.post(f"{API}/games", json=body, environ_base={"REMOTE_ADDR": f"10.0.0.{address}"}
                               ).status_code == 201
        assert client.post(f"{API}/games", json=body, environ_base={"REMOTE_ADDR": f"10.0.0.{address}"}
                           ).status_code == 429
    assert threading.active_count() == threads
    assert len(storage.counts) == 8
    clock.now += 61
    assert client.post(f"{API}/games", json=body, environ_base={"REMOTE_ADDR": "10.0.0.0"}).status_code == 201
    assert len(storage.counts) == 1  # the eight windows gone by forgotten; the new one counted


def test_memory_counts_follow_limits_fixed_windows(monkeypatch):
    """Counted as limits' memory storage counts a fixed window: the first count opens it,
    a count past it reads 0 and opens the next; decr never goes below 0."""
    clock = Clock(1_000.0)
    monkeypatch.setattr(limit_counts, "time", clock)
    counts = ProcessCounts()
    assert counts.get("a") == 0 and counts.get_expiry("a") == 1_000.0
    assert [counts.incr("a", 60) for _ in range(3)] == [1, 2, 3]
    assert counts.get_expiry("a") == 1_060.0 and counts.decr("a", 5) == 0 and counts.incr("a", 60, 2) == 2
    clock.now += 60
    assert counts.get("a") == 0 and counts.decr("a") == 0
    assert counts.incr("a", 60) == 1 and counts.get_expiry("a") == 1_120.0
    counts.clear("a")
    assert counts.get("a") == 0 and counts.incr("b", 1) == 1 and counts.reset() == 1 and counts.get("b") == 0


def test_a_moving_window_keeps_limits_own_memory_storage(limited_app):
    assert isinstance(storage_of(limited_app(RATELIMIT_STRATEGY="moving-window")), MemoryStorage)


def test_the_create_and_write_limits_count_under_flask_limiter_s_shared_limit_keys(limited_app):
    """The create and write limits count as Flask-Limiter's ``shared_limit`` counted them,
    under the same keys (address, or address and game, then scope, then rate): a Redis kept
    by servers of the version before goes on counting the same windows. Each of a limit's
    rates is counted; a write refused for want of the key counts only against LIMIT_REFUSED."""
    app = limited_app(LIMIT_CREATE="20 per minute; 200 per day", LIMIT_WRITE="60 per minute",
                      RATELIMIT_KEY_PREFIX="v1")
    client = app.test_client()
    game_id, key = api_game(client)
    deals = f"{API}/games/{game_id}/deals"
    assert client.post(deals, json=valid_deal(), headers=bearer(key)).status_code == 201
    assert client.post(deals, json=valid_deal(), environ_base=OTHER).status_code == 401
    counted = {k: v[0] for k, v in storage_of(app).counts.items()}
    assert counted == {"LIMITER/v1/127.0.0.1/create/20/1/minute": 1, "LIMITER/v1/127.0.0.1/create/200/1/day": 1,
                       f"LIMITER/v1/127.0.0.1 {game_id}/write/60/1/minute": 1,
                       "LIMITER/10.9.8.7/refused/30/1/minute": 1}
