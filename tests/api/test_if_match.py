"""Conditional writes: every API write honours ``If-Match`` with the game's ETag (the one
``GET /api/v1/games/<id>`` sends), through the store's one revision check."""

from __future__ import annotations

import pytest

from tests.helpers import ANN_BEA, api_game, assert_error_shape, bearer, db_state, valid_deal

pytestmark = pytest.mark.backends  # each test on a database of its own: on SQLite and on PostgreSQL

API = "/api/v1"
CORRECTED = valid_deal(1)
CORRECTED["sides"][1]["players"][0]["cards_left"] = "A"  # Bea held one ace, not an ace and a three

# Each write: (method, path after the game's URL, body without a revision).
WRITES = [
    ("post", "/deals", {**valid_deal(2), "repeat": True}),
    ("put", "/deals/1", CORRECTED),
    ("delete", "/deals/1", None),
    ("put", "/sheet", {"sheet": {"preset": "common", "cut_bonus": 100}, "reason": "house"}),
]
IDS = ["record", "correct", "delete", "amend"]


def etag(client, game_id: str) -> str:
    response = client.get(f"{API}/games/{game_id}")
    assert response.status_code == 200
    return response.headers["ETag"]


def write(client, game_id: str, key: str, method: str, path: str, body, if_match: str | None = None,
          revision: int | None = None):
    headers = bearer(key) | ({"If-Match": if_match} if if_match is not None else {})
    if revision is not None:
        if body is None:
            path += f"?revision={revision}"
        else:
            body = {**body, "revision": revision}
    return getattr(client, method)(f"{API}/games/{game_id}{path}", json=body, headers=headers)


def assert_if_match_error(response, status: int) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)
    assert_error_shape(response, status, "If-Match")
    return response.get_json()


@pytest.mark.parametrize("method, path, body", WRITES, ids=IDS)
def test_a_stale_if_match_is_412_with_the_revision_and_changes_and_nothing_written(app, client, method, path, body):
    game_id, key = api_game(client)
    stale = etag(client, game_id)  # revision 0
    client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1), headers=bearer(key))  # now revision 1
    before = db_state(app)
    answer = assert_if_match_error(write(client, game_id, key, method, path, body, if_match=stale), 412)
    assert answer["type"] == "/api/v1/problems/precondition-failed"
    assert answer["revision"] == 1
    assert [(c["revision"], c["action"], c["deal"]) for c in answer["changes"]] == [(1, "record", 1)]
    assert "revision 0, now 1" in answer["error"]["message"]
    assert db_state(app) == before


@pytest.mark.parametrize("method, path, body", WRITES, ids=IDS)
def test_the_412_carries_what_the_409_for_the_same_body_revision_carries(app, client, method, path, body):
    game_id, key = api_game(client)
    stale = etag(client, game_id)
    client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1), headers=bearer(key))
    by_header = write(client, game_id, key, method, path, body, if_match=stale).get_json()
    by_body = write(client, game_id, key, method, path, body, revision=0).get_json()
    assert by_body["error"]["status"] == 409 and by_header["error"]["status"] == 412
    assert by_header["revision"] == by_body["revision"] and by_header["changes"] == by_body["changes"]
    assert by_header["error"]["message"] == by_body["error"]["message"]


@pytest.mark.parametrize("method, path, body", WRITES, ids=IDS)
def test_a_current_if_match_lets_the_write_through(client, method, path, body):
    game_id, key = api_game(client, deals=[valid_deal(1)])
    response = write(client, game_id, key, method, path, body, if_match=etag(client, game_id))
    assert response.status_code in (200, 201), response.get_data(as_text=True)
    assert response.get_json()["revision"] == 2
    assert client.get(f"{API}/games/{game_id}").headers["ETag"] == f'"{game_id}.2"'


@pytest.mark.parametrize("method, path, body", WRITES, ids=IDS)
def test_if_match_star_lets_the_write_through_and_the_body_revision_still_counts(app, client, method, path, body):
    game_id, key = api_game(client, deals=[valid_deal(1)])
    before = db_state(app)
    stale = write(client, game_id, key, method, path, body, if_match="*", revision=0)
    assert stale.status_code == 409 and stale.get_json()["error"]["field"] == "revision"
    assert db_state(app) == before
    response = write(client, game_id, key, method, path, body, if_match="*")
    assert response.status_code in (200, 201), response.get_data(as_text=True)


@pytest.mark.parametrize("method, path, body", WRITES, ids=IDS)
def test_an_if_match_agreeing_with_the_body_revision_passes_and_one_disagreeing_is_400(app, client, method, path,
                                                                                        body):
    game_id, key = api_game(client, deals=[valid_deal(1)])
    current = etag(client, game_id)  # revision 1
    before = db_state(app)
    for revision in (0, 2):  # behind and ahead of the tag: neither is guessed at
        answer = assert_if_match_error(write(client, game_id, key, method, path, body, if_match=current,
                                             revision=revision), 400)
        assert "revision 1" in answer["error"]["message"] and f"revision is {revision}" in answer["error"]["message"]
    assert db_state(app) == before
    response = write(client, game_id, key, method, path, body, if_match=current, revision=1)
    assert response.status_code in (200, 201), response.get_data(as_text=True)


@pytest.mark.parametrize("if_match, says", [
    ('W/"{id}.1"', "weak"),                      # a weak tag never matches (a proxy may weaken ours)
    ('{id}.1', "not an entity tag"),             # unquoted
    ('"{id}.1', "not an entity tag"),            # unterminated
    ('"{id}.1", "{id}.0"', "not an entity tag"),  # one tag only
    ('', "not an entity tag"),
    ('"{id}"', "not an ETag of this game"),
    ('"{id}.one"', "not an ETag of this game"),
    ('"{id}.-1"', "not an ETag of this game"),
    ('"{id}.1234567890123456789"', "not an ETag of this game"),
    ('"other.1"', "not an ETag of this game"),
    ('"{id}x.1"', "not an ETag of this game"),
], ids=["weak", "unquoted", "unterminated", "list", "empty", "no-revision", "word", "negative", "huge",
        "other-game", "prefix"])
def test_a_weak_or_unreadable_if_match_is_400_naming_it(app, client, if_match, says):
    game_id, key = api_game(client, deals=[valid_deal(1)])
    before = db_state(app)
    for method, path, body in WRITES:
        answer = assert_if_match_error(write(client, game_id, key, method, path, body,
                                             if_match=if_match.format(id=game_id)), 400)
        assert says in answer["error"]["message"]
        assert f'"{game_id}.3"' in answer["error"]["message"]  # it shows what to send
    assert db_state(app) == before


def test_if_match_is_read_after_the_key_and_the_body(client):
    game_id, key = api_game(client, deals=[valid_deal(1)])
    url = f"{API}/games/{game_id}/deals"
    assert client.post(url, json=valid_deal(2), headers={"If-Match": "nonsense"}).status_code == 401  # no key
    no_body = client.post(url, data="", headers=bearer(key) | {"If-Match": "nonsense"})
    assert no_body.status_code == 400 and no_body.get_json()["error"]["field"] is None
    missing = client.post(f"{API}/games/nogame/deals", json=valid_deal(2), headers={"If-Match": '"nogame.0"'})
    assert missing.status_code == 404


def test_two_phones_with_the_same_etag_save_exactly_one_write(client):
    game_id, key = api_game(client, sides=ANN_BEA)
    tag = etag(client, game_id)
    first = client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1), headers=bearer(key) | {"If-Match": tag})
    second = client.post(f"{API}/games/{game_id}/deals", json=valid_deal(None),
                         headers=bearer(key) | {"If-Match": tag})
    assert (first.status_code, second.status_code) == (201, 412)
    assert [d["number"] for d in client.get(f"{API}/games/{game_id}").get_json()["deals"]] == [1]


UNREADABLE = [  # each write with a part that cannot be read: (method, path, body, the field named)
    ("post", "/deals", {**valid_deal(2), "sides": "two"}, "sides"),
    ("put", "/deals/1", {**CORRECTED, "sides": "two"}, "sides"),
    ("put", "/sheet", {"sheet": {"preset": "common", "cut_bonus": "lots"}, "reason": "house"}, "sheet.cut_bonus"),
]


@pytest.mark.parametrize("method, path, body, field", UNREADABLE, ids=["record", "correct", "amend"])
def test_a_stale_write_is_refused_as_stale_before_what_it_sent_is_read(app, client, method, path, body, field):
    """A write based on a revision the game has moved past is a 409 with what changed, even
    when what it sent cannot be read: the phone must load the game again first, as the store
    has always refused a stale write before reading it. Based on the current revision, the
    same body is the 400 naming its field."""
    game_id, key = api_game(client)
    client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1), headers=bearer(key))  # now revision 1
    before = db_state(app)
    stale = write(client, game_id, key, method, path, body, revision=0)
    assert stale.status_code == 409, stale.get_data(as_text=True)
    assert stale.get_json()["type"] == "/api/v1/problems/stale-revision"
    assert [(c["revision"], c["action"]) for c in stale.get_json()["changes"]] == [(1, "record")]
    current = write(client, game_id, key, method, path, body, revision=1)
    assert current.status_code == 400 and current.get_json()["field"].startswith(field), current.get_json()
    assert db_state(app) == before
