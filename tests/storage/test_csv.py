"""The score table as CSV: no text cell can start a formula, wherever a spreadsheet might
split it (after ``,``, ``;`` or a tab), and numbers stay numbers."""

from __future__ import annotations

import csv
import io

import pytest

from scorepad.storage.document import spreadsheet_safe
from tests.helpers import bearer

SIDES = [{"name": "a;=1+1;", "players": ["Ann"]}, {"name": "b,-2", "players": ["Bea"]}]


FORMULA = "=+-@\t\r"
SEPARATORS = ",;\t\r\n"


def pieces(text: str) -> list[str]:
    """Every piece a spreadsheet could make of ``text``: the text, and what follows each separator."""
    return [text] + [text[i + 1:] for i, ch in enumerate(text) if ch in SEPARATORS]


@pytest.mark.parametrize(("text", "safe"), [
    ("=1", "'=1"), ("+1", "'+1"), ("-Ann", "'-Ann"), ("@Ann", "'@Ann"), ("\tAnn", "'\tAnn"), ("\rAnn", "'\rAnn"),
    ("a;=1+1;", "a;'=1+1;"), ("x,+1", "x,'+1"), ("x;-1", "x;'-1"), ("x,@SUM(A1)", "x,'@SUM(A1)"),
    ("x\t=1", "x\t'=1"), ("x;\t1", "x;'\t1"), ("x,\r1", "x,'\r1"),
    ("we agreed\n=HYPERLINK(1)", "we agreed\n'=HYPERLINK(1)"), ("ok\r\n@x", "ok\r\n'@x"), ("a\n-1\n+2", "a\n'-1\n'+2"),
])
def test_a_formula_start_at_the_start_of_any_piece_of_a_cell_gets_an_apostrophe(text, safe):
    assert spreadsheet_safe(text) == safe
    assert not any(piece[:1] and piece[0] in FORMULA for piece in pieces(safe))


@pytest.mark.parametrize("text", ["Ann", "Ann, Bea", "a; b", "x = 1", "1-2", "e-mail", "Ann & Bea", "a;b"])
def test_text_without_a_formula_start_stays_as_it_is(text):
    assert spreadsheet_safe(text) == text


@pytest.mark.parametrize("number", [0, 5, -140, -1, 10**9])
def test_a_number_stays_a_number(number):
    assert spreadsheet_safe(number) == number


def test_the_score_table_defuses_names_and_notes_and_keeps_negative_points_as_numbers(client):
    created = client.post("/api/v1/games", json={"name": "Friday", "sheet": "common", "sides": SIDES})
    game, key = created.get_json()["id"], created.get_json()["edit_key"]
    deal = {"ending": "went_out", "went_out": "Ann",
            "sides": [{"name": "a;=1+1;", "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"],
                       "players": [{"name": "Ann", "foot_picked_up": True}]},
                      {"name": "b,-2", "melds": [],
                       "players": [{"name": "Bea", "foot_picked_up": False, "cards_left": "JK JK A A",
                                    "foot": "K K K K K K K K K K K"}]}],
            "as_played": {"reason": "we agreed;=HYPERLINK(1)\n=HYPERLINK(2)"}}
    response = client.post(f"/api/v1/games/{game}/deals", json=deal, headers=bearer(key))
    assert response.status_code == 201, response.get_json()
    body = client.get(f"/games/{game}/scores.csv").get_data(as_text=True).lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0] == ["Deal", "a;'=1+1; points", "a;'=1+1; total", "b,'-2 points", "b,'-2 total", "Note"]
    deal_row = rows[1]
    assert deal_row[-1] == "saved as played: we agreed;'=HYPERLINK(1)\n'=HYPERLINK(2)"  # the reason's line feed too
    for cell in (cell for row in rows for cell in row if not cell.lstrip("-").isdigit()):
        assert not any(piece[:1] and piece[0] in FORMULA for piece in pieces(cell)), cell
    for line in body.splitlines():  # read line by line, as a reader that is not a CSV one would
        for piece in pieces(line):
            assert not piece.startswith(tuple("=+@")), line
    points = deal_row[1:-1]
    assert int(points[2]) < 0 and points[2] == points[3] and not points[2].startswith("'")  # Bea: minus, a number
    assert all(cell.lstrip("-").isdigit() for cell in points)
    assert rows[2][0] == "Total" and all(cell.lstrip("-").isdigit() for cell in rows[2][1:-1])
