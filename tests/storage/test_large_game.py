"""The largest game the limits allow costs little to read, and what is cached holds no host
(issue 8, denial of service and memory): the game's JSON stays under 1 MB and counts the
problems it leaves out, PDFs print a few problems a deal, the one cache is bounded by bytes,
and a real server asked for a large game under 100 hosts keeps its memory."""

from __future__ import annotations

import io
import re
import sys

import pytest
from pypdf import PdfReader

from scorepad.app import create_app
from tests.helpers import (
    GAME_BYTES,
    LARGE_SHEET,
    ProductionServer,
    api_game,
    bearer,
    largest_game,
    stored_bytes,
    violating_deal,
)

SIDES = [{"name": "Side 1", "players": ["Player 1"]}, {"name": "Side 2", "players": ["Player 2"]}]


@pytest.fixture(scope="module")
def large(tmp_path_factory):
    """The largest game, built once for this module: (database, id, edit key)."""
    database = str(tmp_path_factory.mktemp("large") / "scorepad.sqlite")
    app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False})
    game_id, key = largest_game(app.test_client())
    return database, game_id, key


def _app(database: str, **config):
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                       **config})


def test_the_largest_game_is_just_under_the_bound_with_hundreds_of_violations_a_deal(large):
    database, game_id, _key = large
    assert GAME_BYTES * 0.98 < stored_bytes(database, game_id) <= GAME_BYTES
    deal = _app(database).test_client().get(f"/api/v1/games/{game_id}/deals/1").get_json()
    assert len(deal["report"]["violations"]) >= 200
    assert max(len(side["melds"]) for side in deal["deal"]["sides"]) == 60


def test_the_game_json_of_the_largest_game_is_under_1_mb_and_counts_what_it_omits(large):
    database, game_id, _key = large
    client = _app(database).test_client()
    response = client.get(f"/api/v1/games/{game_id}")
    assert response.status_code == 200
    assert len(response.get_data()) < 1_000_000, len(response.get_data())
    body = response.get_json()
    assert len(body["deals"]) == 100
    for listed in body["deals"][:3] + body["deals"][-3:]:
        report = listed["report"]
        full = client.get(f"/api/v1/games/{game_id}/deals/{listed['number']}").get_json()["report"]
        shown = len(report["violations"]) + len(report["warnings"]) + len(report["not_checked"])
        assert 0 < shown <= 50
        assert report["problems_omitted"] == (len(full["violations"]) + len(full["warnings"])
                                              + len(full["not_checked"]) - shown) > 0
        assert report["violations"] == full["violations"][:len(report["violations"])]


def test_a_small_game_json_lists_every_problem_and_omits_nothing(client):
    game_id, key = api_game(client, sheet=LARGE_SHEET, sides=SIDES)
    deal = violating_deal(1, 2, melds=4)
    assert client.post(f"/api/v1/games/{game_id}/deals", json={**deal, "as_played": {"reason": "so be it"}},
                       headers=bearer(key)).status_code == 201
    report = client.get(f"/api/v1/games/{game_id}").get_json()["deals"][0]["report"]
    assert 0 < len(report["violations"]) < 50 and report["problems_omitted"] == 0


def _pdf_text(body: bytes) -> str:
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages))


def test_the_results_pdf_prints_at_most_five_problems_a_deal_then_how_many_more(client):
    game_id, key = api_game(client, sheet=LARGE_SHEET, sides=SIDES)
    counts = []
    for number in (1, 2, 3):
        response = client.post(f"/api/v1/games/{game_id}/deals",
                               json={**violating_deal(number, 2), "as_played": {"reason": f"let it stand {number}"}},
                               headers=bearer(key))
        assert response.status_code == 201
        counts.append(len(response.get_json()["report"]["violations"]))
    text = _pdf_text(client.get(f"/games/{game_id}/results.pdf").get_data())
    said = text[text.index("Deals saved as played"):text.index("Sheet amendments")]
    for number, count in zip((1, 2, 3), counts, strict=True):
        assert count > 100
        found = re.search(rf"Deal {number}: let it stand {number}\. The referee found: (.*?); and ([\d,]+) more", said)
        assert found, said[:1000]
        assert int(found[2].replace(",", "")) == count - 5
        assert found[1].count(".") <= 5  # five messages, each one sentence


def test_the_pdfs_carry_each_readers_link_and_the_cached_pdfs_none(client):
    game_id, key = api_game(client, sheet=LARGE_SHEET, sides=SIDES)
    client.post(f"/api/v1/games/{game_id}/deals", json={**violating_deal(1, 2, 4), "as_played": {"reason": "ok"}},
                headers=bearer(key))
    for host in ("alpha.example", "beta.example:8080"):
        for name in ("results.pdf", "sheet.pdf", "sheet.pdf?paper=a4"):
            response = client.get(f"/games/{game_id}/{name}", headers={"Host": host})
            assert f"http://{host}/games/{game_id}" in _pdf_text(response.get_data()), name
    from scorepad.storage import cache

    with client.application.app_context():
        kept = [v.body for v in cache.current().values() if hasattr(v, "body")]
    assert len(kept) == 3  # the content is compressed: read the text each cached PDF shows
    assert not any("alpha.example" in _pdf_text(body) or "beta.example" in _pdf_text(body) for body in kept)
    assert all("/games/" not in _pdf_text(body) for body in kept)


def _cached_text(app) -> str:
    """Everything the app's cache holds as bytes or text, as one text."""
    from scorepad.storage import cache

    with app.app_context():
        values = cache.current().values()
    return " ".join(v.decode("utf-8", "replace") if isinstance(v, bytes) else v.body.decode("latin-1")
                    if hasattr(v, "body") else v if isinstance(v, str) else "" for v in values)


def test_a_cached_game_body_and_viewer_page_hold_no_host(app, client):
    game_id, key = api_game(client)
    viewer = app.test_client()
    for host in ("alpha.example", "beta.example:8080"):
        body = client.get(f"/api/v1/games/{game_id}", headers={"Host": host}).get_json()
        assert body["view_url"] == f"http://{host}/games/{game_id}"
        assert viewer.get(f"/games/{game_id}", headers={"Host": host}).status_code == 200
    for host in ("alpha.example", "beta.example:8080"):  # the editor's page shows its own host's links
        assert client.get(f"/games/{game_id}/edit/{key}", headers={"Host": host}).status_code == 303
        page = client.get(f"/games/{game_id}", headers={"Host": host}).get_data(as_text=True)
        assert f"http://{host}/games/{game_id}/edit/{key}" in page
    cached = _cached_text(app)
    assert f'"id":"{game_id}"' in cached.replace(" ", "") and "<html" in cached  # the body and the page are kept
    assert "alpha.example" not in cached and "beta.example" not in cached


def test_new_game_links_come_from_the_requests_host(client):
    body = client.post("/api/v1/games", json={"name": "F", "sheet": "common", "sides": SIDES[:1] + [
        {"name": "B", "players": ["B"]}]}, headers={"Host": "table.example:5000"}).get_json()
    for name in ("view_url", "edit_url", "api_url"):
        assert body[name].startswith("http://table.example:5000/"), body


def test_the_cache_is_bounded_by_bytes_least_recently_used_out_first():
    from scorepad.storage.cache import ByteCache

    held = sys.getsizeof(b"x" * 40)  # what 40 bytes take in memory, counted as the cache counts them
    kept = ByteCache(2 * held + 10)
    assert kept.put("a", b"x" * 40) and kept.put("b", b"y" * 40)
    assert kept.get("a") == b"x" * 40  # now "b" is the least recently used
    kept.put("c", b"z" * 40)
    assert "b" not in kept and "a" in kept and "c" in kept and kept.used == 2 * held
    assert not kept.put("huge", b"w" * (2 * held)) and "huge" not in kept
    kept.put("d", object(), size=held + 20)
    assert list(kept.values())[-1] is not None and kept.used <= kept.budget and len(kept) == 1
    kept.put("e", b"v" * 10, replaces=lambda old: False)
    kept.put("e", b"u" * 20, replaces=lambda old: False)  # kept: the first stays
    assert kept.get("e") == b"v" * 10
    kept.resize(5)
    assert len(kept) == 0 and kept.used == 0


def test_the_cache_budget_is_a_setting_and_bounds_large_games(large, monkeypatch):
    from scorepad.storage import cache

    database, game_id, _key = large
    monkeypatch.setenv("SCOREPAD_CACHE_BYTES", "12345678")
    assert create_app({"TESTING": True, "DATABASE": database}).extensions["scorepad.cache"].budget == 12_345_678
    app = _app(database, CACHE_BYTES=1_500_000)
    client = app.test_client()
    assert client.get(f"/api/v1/games/{game_id}").status_code == 200  # the record alone is larger than that
    with app.app_context():
        kept = cache.current()
        assert kept.used <= 1_500_000 and len(kept) <= 1


def test_a_hundred_hosts_asking_for_a_large_game_grow_the_server_by_under_30_mb(large, tmp_path):
    database, game_id, _key = large
    with ProductionServer(database, str(tmp_path / "server.log")) as server:
        for path in (f"/api/v1/games/{game_id}", f"/games/{game_id}", f"/games/{game_id}/results.pdf"):
            assert server.get(path, "warm.example")[0] == 200  # built once and cached: that is the cache's job
        before = server.rss_kb()
        for i in range(100):
            status, body = server.get(f"/api/v1/games/{game_id}", f"host{i}.example")
            assert status == 200 and f"host{i}.example".encode() in body[:200]
            if i % 10 == 0:
                assert server.get(f"/games/{game_id}", f"host{i}.example")[0] == 200
                assert server.get(f"/games/{game_id}/results.pdf", f"host{i}.example")[0] == 200
        grown = server.rss_kb() - before
    print(f"the server grew by {grown / 1024:.1f} MB over 100 hosts")
    assert grown < 30 * 1024, f"the server grew by {grown / 1024:.1f} MB"


def test_the_rescore_page_lists_five_problems_a_deal_and_is_kept_for_the_revision(app, client):
    from scorepad.storage import cache

    lenient = {**LARGE_SHEET, "wild_ratio": "none", "max_wilds": None, "second_meld": "anytime"}
    game_id, key = api_game(client, sheet=lenient, sides=SIDES)
    for number in (1, 2):
        assert client.post(f"/api/v1/games/{game_id}/deals", headers=bearer(key), json={
            **violating_deal(number, 2), "as_played": {"reason": "so be it"}}).status_code == 201
    page = client.get(f"/games/{game_id}/rescore?sheet=common").get_data(as_text=True)
    illegal = re.findall(r'<div class="problems"><h3>Illegal under.*?</ul></div>', page, re.DOTALL)
    assert len(illegal) == 2  # one list a deal: the wild-card limits the common sheet has
    for listed in illegal:
        found = re.search(r"<li>and ([\d,]+) more</li>", listed)
        assert found and int(found[1].replace(",", "")) > 100
        assert listed.count("<li>") == 6
    with app.app_context():
        assert page.encode() in cache.current().values()  # kept as sent, encoded
    assert client.get(f"/games/{game_id}/rescore?sheet=common").get_data(as_text=True) == page
    one = client.get(f"/games/{game_id}/rescore?sheet=common&deal=1").get_data(as_text=True)
    assert "more</li>" not in one and one.count("<li>") > 300  # one deal alone: every problem is listed
