"""A recorded counted deal on the pages: the deal's own page shows its counts and every score
line, and the game's table its totals. (Counted entry on the deal form is not built here.)"""

from __future__ import annotations

import re

from tests.api.test_counted import bench_game
from tests.hardening import db_state, form_fields, grant


def words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").split())


def test_the_deal_page_shows_the_counts_and_the_counted_lines(client):
    game_id, _ = bench_game(client)
    response = client.get(f"/games/{game_id}/deals/1")
    assert response.status_code == 200
    text = words(response.get_data(as_text=True))
    assert "Counted: 3 clean, 2 dirty books; melded card points 415. Red threes laid: 4." in text
    assert "Counted: 1 clean, 1 dirty books; melded card points 235. Red threes laid: 2." in text
    assert re.search(r"Melded card points Card values: .*? 1 × 415 415", text)
    assert re.search(r"Cal's hand: points Card values: .*? 1 × -45 -45", text)
    assert "Us: 2,970" in text and "Them: 1,150" in text
    assert "The melds of Us are counted, not listed" in text  # the counted.unchecked warning


def test_the_game_page_totals_a_counted_deal(client):
    game_id, _ = bench_game(client)
    text = words(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "Deal 1 2,970 running total 2,970 1,150 running total 1,150 Total 2,970 1,150" in text


def test_the_explain_page_gives_each_counted_line_its_rule(client):
    game_id, _ = bench_game(client)
    text = words(client.get(f"/games/{game_id}/deals/1/explain").get_data(as_text=True))
    assert "Melded card points Rule: Card values: joker: 50; 2 A: 20; K Q J 10 9 8: 10; 7 6 5 4 black 3: 5 " \
           "1 × 415 415" in text
    assert "Cal's hand: points Rule: Card values:" in text


def test_the_import_page_takes_a_counted_games_export(client):
    game_id, _ = bench_game(client)
    document = client.get(f"/games/{game_id}/export.json").get_data(as_text=True)
    response = client.post("/import", data={"document": document})
    assert response.status_code == 303, words(response.get_data(as_text=True))[:300]
    new_id = response.headers["Location"].rsplit("/games/", 1)[1]
    text = words(client.get(f"/games/{new_id}/deals/1").get_data(as_text=True))
    assert "Counted: 3 clean, 2 dirty books; melded card points 415. Red threes laid: 4." in text
    assert "Us: 2,970" in text and "Them: 1,150" in text


def test_the_deal_form_refuses_to_open_a_counted_deal_rather_than_drop_its_counts(client, app):
    game_id, key = bench_game(client)
    grant(client, game_id, key["Authorization"].removeprefix("Bearer "))  # bench_game gives the header
    before = db_state(app)
    new = f"/games/{game_id}/deals/new"
    form = form_fields(client.get(new).get_data(as_text=True), new)  # its CSRF token too
    for send in (lambda url: client.get(url, follow_redirects=True),
                 lambda url: client.post(url, data=dict(form, action="save"), follow_redirects=True)):
        response = send(f"/games/{game_id}/deals/1/edit")
        assert response.request.path == f"/games/{game_id}/deals/1"
        assert "recorded by counts" in words(response.get_data(as_text=True))
    assert db_state(app) == before
