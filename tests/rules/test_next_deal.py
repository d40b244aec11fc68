"""The next deal after a middle deal is deleted: every interface says the same.

The next deal is the lowest number not recorded, with that deal's opening minimum and
books, and the totals of the deals recorded before it. :class:`scorepad.rules.game.Game`
decides it; the store, the pages, the JSON API, both command lines and the PDFs read it.
Everything here runs on a real SQLite file through the real app, CLI and PDF text.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from pypdf import PdfReader

from scorepad.cli.scorepad_command import main
from scorepad.rules.game import Game
from scorepad.storage import reading

API = "/api/v1"
SIDES = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]


def deal(ann: str, bea: str) -> dict:
    """A deal that ended when the stock ran out: each side melded once, held nothing."""
    return {"ending": "stock_out", "sides": [
        {"name": name, "melds": [meld], "players": [{"name": name, "foot_picked_up": True, "cards_left": ""}]}
        for name, meld in (("Ann", ann), ("Bea", bea))]}


# Deal 1: Ann 4 kings 40, Bea 3 queens 30. Deal 2: Ann 3 aces 60, Bea 3 jacks 30.
# Deal 3: Ann 3 nines 30, Bea 5 eights 50. With deal 2 deleted: deals 1 and 3 stand
# (Ann 70, Bea 80). The next deal is 2: on the common sheet its minimum is 90 (deal 3's
# would be 120), and the totals before it are deal 1's alone: Ann 40, Bea 30.
DEALS = [deal("K K K K", "Q Q Q"), deal("A A A", "J J J"), deal("9 9 9", "8 8 8 8 8")]
NEXT = {"number": 2, "opening_minimums": {"Ann": 90, "Bea": 90}, "opening_who": "player",
        "going_out_books": {"clean": 1, "dirty": 1, "wild": 0}, "going_out_bonus": 100, "draws": 2,
        "totals_before": {"Ann": 40, "Bea": 30}}
WORDS = ("Deal 2 is next: opening minimum Ann 90, Bea 90 (totals before it: Ann 40, Bea 30); "
         "to go out 1 clean + 1 dirty books; going out +100.")


def norm(text: str) -> str:
    return " ".join(text.split())


def pdf_text(body: bytes) -> str:
    return norm(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages))


def page_text(html: str) -> str:
    return norm(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'"))


@pytest.fixture
def game(app, client):
    """A common-sheet game with deals 1, 2 and 3 recorded, then deal 2 deleted; opened for editing."""
    made = client.post(f"{API}/games", json={"name": "Friday", "sheet": "common", "sides": SIDES}).get_json()
    key = {"Authorization": f"Bearer {made['edit_key']}"}
    for body in DEALS:
        assert client.post(f"{API}/games/{made['id']}/deals", json=body, headers=key).status_code == 201
    assert client.delete(f"{API}/games/{made['id']}/deals/2", headers=key).status_code in (200, 204)
    assert client.get(f"/games/{made['id']}/edit/{made['edit_key']}").status_code in (200, 302, 303)
    return made["id"]


def test_the_rules_game_and_the_store_say_deal_2_with_its_minimum_and_the_totals_before_it(app, game):
    with app.app_context():
        record = reading.load_game(game)
    assert [d.number for d in record.deals] == [1, 3]
    assert record.rules.totals() == {"Ann": 70, "Bea": 80}
    assert record.next_number == record.rules.next_deal == 2
    assert record.totals_before(2) == record.rules.totals_before(2) == {"Ann": 40, "Bea": 30}
    assert record.rules.opening_minimum("Ann") == 90
    assert record.rules.upcoming().to_json() == NEXT
    again = Game.from_json(json.loads(json.dumps(record.rules.to_json())))  # the game as a file
    assert again.upcoming().to_json() == NEXT


def test_the_api_and_the_referee_api_say_the_same_next_deal(client, game):
    assert client.get(f"{API}/games/{game}").get_json()["next_deal"] == NEXT
    # The referee, asked about this game, weighs first melds in deal 2: A A A + K K K = 90.
    answer = client.post(f"{API}/referee/minimum", json={"game": game, "melds": ["A A A", "K K K"],
                                                         "side": "Ann"}).get_json()
    assert answer["yes"] is True
    assert "at deal 2 is 90; these count 90" in answer["reasons"][0]["message"]


def test_the_pages_say_the_same_next_deal(client, game):
    page = page_text(client.get(f"/games/{game}").get_data(as_text=True))
    assert "Deal 2 next" in page and "deal 2 of 4" in page
    assert "Ann: 90 Bea: 90" in page
    assert "Totals before it (deals recorded before deal 2) Ann: 40 Bea: 30" in page
    form = page_text(client.get(f"/games/{game}/deals/new").get_data(as_text=True))
    assert "Record deal 2 Deal 2 of 4 Draw 2 Opening 90 Go out: 1 clean + 1 dirty Going out +100 " in form
    desk = page_text(client.get(f"/games/{game}/referee").get_data(as_text=True))
    assert "The table is playing deal 2." in desk
    assert "Ann (running total 40)" in desk and "Bea (running total 30)" in desk


def test_the_flask_cli_says_the_same_next_deal(app, game):
    runner = app.test_cli_runner()
    shown = runner.invoke(args=["game", "show", game])
    assert shown.exit_code == 0, shown.output
    assert "Result: game goes on; next is deal 2" in shown.stdout and WORDS in shown.stdout
    document = json.loads(runner.invoke(args=["game", "show", game, "--json"]).stdout)
    assert document["next_deal"] == NEXT
    listed = runner.invoke(args=["game", "list"])
    assert f"{game}  Friday  (2 deals; next: deal 2, opening minimum 90)" in listed.stdout


def test_the_scorepad_game_cli_says_the_same_next_deal(app, game, tmp_path):
    with app.app_context():
        path = tmp_path / "game.json"
        path.write_text(json.dumps(reading.load_game(game).rules.to_json()), encoding="utf-8")
    out = io.StringIO()
    main(["game", str(path), "--json"], out=out)
    assert json.loads(out.getvalue())["next_deal"] == NEXT
    out = io.StringIO()
    main(["game", str(path)], out=out)
    assert out.getvalue().rstrip().endswith(f"The game goes on. {WORDS}")


def test_the_pdfs_say_the_same_next_deal(client, game):
    pad = pdf_text(client.get(f"/games/{game}/pad.pdf").get_data())
    assert WORDS.rstrip(".") in pad
    results = pdf_text(client.get(f"/games/{game}/results.pdf").get_data())
    assert "Game in progress: 2 deals recorded of 4;" in results and WORDS in results
