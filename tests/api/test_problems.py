"""Errors are problem details (RFC 9457, ``application/problem+json``): each problem type of
the table is answered by a real request, with its fixed title and status, the members it
lists, today's ``error`` object beside them, and a ``type`` whose URL documents it; plain
HTTP errors are ``about:blank``; the printed papers answer a problem when ``Accept`` prefers
JSON, a page otherwise."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from scorepad.api.problems import TYPES
from tests.helpers import ANN_BEA, api_game, assert_error_shape, bearer, valid_deal

API = "/api/v1"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def stale(client, game_id: str, key: str, **headers: str):
    client.post(f"{API}/games/{game_id}/deals", json=valid_deal(1), headers=bearer(key))  # now revision 1
    return client.delete(f"{API}/games/{game_id}/deals/1?revision=0", headers={**bearer(key), **headers})


def broken_deal() -> dict[str, Any]:
    deal = valid_deal(1)
    deal["sides"][1]["melds"] = ["A A 2 2"]  # as many wild cards as natural: common's wild_ratio
    return deal


def refused_import(client, game_id: str, key: str):
    client.post(f"{API}/games/{game_id}/deals", json={**broken_deal(), "as_played": {"reason": "let it stand"}},
                headers=bearer(key))
    document = client.get(f"{API}/games/{game_id}/export").get_json()
    document["deals"][0]["as_played"] = None
    return client.post(f"{API}/games/import", json=document)


def game_over(client):
    """A deal sent to a game of one deal, played: the game is over."""
    game_id, key = api_game(client, sheet={"preset": "common", "game_length": "deals", "deals": 1},
                            deals=[valid_deal(1)])
    return client.post(f"{API}/games/{game_id}/deals", json=valid_deal(None), headers=bearer(key))


# Each problem type, the request that meets it and the field it names.
REQUESTS = {
    "invalid-body": (lambda c, g, k: c.post(f"{API}/score", data="{", content_type="application/json"), None),
    "invalid-field": (lambda c, g, k: c.post(f"{API}/games", json={"name": "x", "sheet": "common",
                                                                      "sides": ANN_BEA[:1]}), "sides"),
    "edit-key-required": (lambda c, g, k: c.post(f"{API}/games/{g}/deals", json=valid_deal(1)), None),
    "wrong-edit-key": (lambda c, g, k: c.post(f"{API}/games/{g}/deals", json=valid_deal(1),
                                              headers=bearer(g)), None),
    "not-found": (lambda c, g, k: c.get(f"{API}/games/{g}/deals/7"), "deal"),
    "stale-revision": (lambda c, g, k: stale(c, g, k), "revision"),
    "no-room": (lambda c, g, k: game_over(c), "deal"),
    "deal-recorded": (lambda c, g, k: [c.post(f"{API}/games/{g}/deals", json=valid_deal(1), headers=bearer(k)),
                                       c.post(f"{API}/games/{g}/deals", json=valid_deal(1), headers=bearer(k))][1],
                      "deal"),
    "same-as-previous": (lambda c, g, k: [c.post(f"{API}/games/{g}/deals", json=valid_deal(1), headers=bearer(k)),
                                          c.post(f"{API}/games/{g}/deals", json=valid_deal(2), headers=bearer(k))][1],
                         "deal"),
    "precondition-failed": (lambda c, g, k: stale(c, g, k, **{"If-Match": f'"{g}.0"'}), "If-Match"),
    "rule-violations": (lambda c, g, k: c.post(f"{API}/games/{g}/deals", json=broken_deal(), headers=bearer(k)),
                        "sides[1].melds[0]"),
    "import-refused": (refused_import, "deals[0]"),
    "gone": (lambda c, g, k: [c.delete(f"{API}/games/{g}", headers=bearer(k)), c.get(f"{API}/games/{g}")][1], None),
}
ELSEWHERE = {  # met in the tests that set up what they need
    "rate-limited": "tests/api/test_ratelimit.py",
    "busy": "tests/storage/test_database.py",
    "idempotency-key-reused": "tests/api/test_idempotency.py",
    "request-in-progress": "tests/api/test_idempotency.py",
    "edit-key-replaced": "tests/api/test_idempotency.py",
    "out-of-space": "tests/storage/test_out_of_space.py",
    "deal-open": "tests/api/test_open_deals.py",
    "not-next-deal": "tests/api/test_open_deals.py",
    "part-entered": "tests/api/test_open_deals.py",
    "confirmation-refused": "tests/api/test_open_deals.py",
}


def test_every_problem_type_is_met_by_a_request_here_or_in_the_test_named():
    assert set(REQUESTS) | set(ELSEWHERE) == set(TYPES)
    root = Path(__file__).resolve().parents[2]
    for slug, where in ELSEWHERE.items():
        text = (root / where).read_text(encoding="utf-8")
        assert f'"{slug}"' in text or f"/api/v1/problems/{slug}" in text, (slug, where)


@pytest.mark.parametrize("slug", REQUESTS)
def test_each_problem_type_is_answered_as_a_problem_with_its_title_status_and_members(client, slug):
    game_id, key = api_game(client)
    make, field = REQUESTS[slug]
    response = make(client, game_id, key)
    assert response.mimetype == "application/problem+json"
    error = assert_error_shape(response, TYPES[slug].status, field)
    body = response.get_json()
    assert body["type"] == f"/api/v1/problems/{slug}" and body["title"] == TYPES[slug].title
    assert body["detail"] == error["message"]


@pytest.mark.parametrize("slug", TYPES)
def test_a_problem_types_url_documents_it(client, slug):
    response = client.get(f"/api/v1/problems/{slug}")
    assert response.status_code == 200 and response.mimetype == "application/json"
    kind = TYPES[slug]
    assert response.get_json() == {"type": f"/api/v1/problems/{slug}", "slug": slug, "status": kind.status,
                                   "title": kind.title, "description": kind.description,
                                   "extensions": list(kind.extensions)}


def test_an_unknown_problem_type_is_a_404_problem_listing_the_types(client):
    response = client.get("/api/v1/problems/teapot")
    assert_error_shape(response, 404, None)
    assert "'teapot'" in response.get_json()["detail"] and "stale-revision" in response.get_json()["detail"]


def test_docs_api_md_documents_every_problem_type_with_its_title():
    text = DOCS.read_text(encoding="utf-8")
    for slug, kind in TYPES.items():
        assert re.search(rf"`{slug}`.*{re.escape(kind.title)}", text), slug


@pytest.mark.parametrize("method, path, status, phrase", [
    ("get", "/api/v1/nope", 404, "Not Found"),
    ("delete", "/api/v1/sheets", 405, "Method Not Allowed"),
])
def test_a_plain_http_error_is_about_blank_with_the_reason_phrase_as_title(client, method, path, status, phrase):
    response = getattr(client, method)(path)
    assert_error_shape(response, status, None)
    assert (response.get_json()["type"], response.get_json()["title"]) == ("about:blank", phrase)


def test_a_405_problem_keeps_the_allow_header(client):
    response = client.get(f"{API}/score")
    assert_error_shape(response, 405, None)
    assert set(response.headers["Allow"].replace(" ", "").split(",")) == {"POST", "OPTIONS"}


def test_a_body_over_the_limit_is_a_413_about_blank_problem(client):
    response = client.post(f"{API}/score", data="x" * 300_000, content_type="application/json")
    assert_error_shape(response, 413, None)
    assert response.get_json()["title"] == "Request Entity Too Large"


PAPERS = ["/games/{g}/sheet.pdf", "/games/{g}/pad.pdf", "/games/{g}/results.pdf", "/sheets/nope.pdf",
          "/sheets/nope/pad.pdf", "/games/{g}/scores.csv", "/games/{g}/export.json"]


@pytest.mark.parametrize("accept", ["application/json", "application/problem+json",
                                    "application/json, text/html;q=0.5"])
@pytest.mark.parametrize("shape", PAPERS)
def test_a_paper_route_answers_a_problem_when_accept_prefers_json(client, shape, accept):
    response = client.get(shape.format(g="no-such-game"), headers={"Accept": accept})
    assert_error_shape(response, 404, None)


@pytest.mark.parametrize("accept", [None, "*/*", "text/html", "text/html,application/json;q=0.9"])
@pytest.mark.parametrize("shape", PAPERS)
def test_a_paper_route_answers_a_page_otherwise(client, shape, accept):
    response = client.get(shape.format(g="no-such-game"), headers={"Accept": accept} if accept else {})
    assert response.status_code == 404 and response.mimetype == "text/html"


def test_a_bad_paper_size_is_a_400_problem_saying_which_sizes(client):
    game_id, _ = api_game(client)
    response = client.get(f"/games/{game_id}/sheet.pdf?paper=a3", headers={"Accept": "application/json"})
    assert_error_shape(response, 400, None)
    assert "'letter' or 'a4'" in response.get_json()["detail"]
