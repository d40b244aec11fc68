"""Every output of a game says the same rows, totals, next deal and result.

The outputs are read as a user gets them, through URLs and commands only: the API's
``GET /api/v1/games/<id>``, ``flask game show --json``, the game page, the scores CSV, the
export document and the results PDF's text; and ``scorepad game FILE --json`` on the game as
a file (its sheet, sides and deals, which hold no "as played" reasons). Each is checked against one
:class:`~scorepad.rules.views.GameView`, built by the rules core from the export document
(the game's sheet, sides, deals and their "as played" reasons), so outputs that agree with
the view agree with each other. Where an output disagrees today (the results PDF's Total
line), the check is marked ``xfail(strict=True)`` with what differs, until it reads the view.

Every deal ends when the stock runs out, each side melding one meld and holding nothing:
on the common sheet a king, queen, jack, nine or eight is 10, an ace or a 2 is 20.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from pypdf import PdfReader

from scorepad.app import create_app
from scorepad.rules.game import Game
from scorepad.rules.views import GameView, view_of

API = "/api/v1"
SIDES = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]
NAMES = ("Ann", "Bea")
ROOT = Path(__file__).resolve().parent.parent


def deal(number: int, ann: str, bea: str) -> dict[str, Any]:
    return {"deal": number, "ending": "stock_out", "sides": [
        {"name": name, "melds": [meld], "players": [{"name": name, "foot_picked_up": True, "cards_left": ""}]}
        for name, meld in zip(NAMES, (ann, bea), strict=True)]}


def _gap_and_as_played(client, game_id: str, key: dict[str, str]) -> None:
    """Deals 1, 2 and 3 recorded, deal 3 saved as played, then deal 2 deleted."""
    for body in (deal(1, "K K K K", "Q Q Q"), deal(2, "A A A", "J J J"),
                 {**deal(3, "9 9 9", "8 8 2 2"), "as_played": {"reason": "we let it stand"}}):
        assert client.post(f"{API}/games/{game_id}/deals", json=body, headers=key).status_code == 201
    assert client.delete(f"{API}/games/{game_id}/deals/2", headers=key).status_code == 200


def _tie(client, game_id: str, key: dict[str, str]) -> None:
    """The common sheet's four deals: Ann 40 + 60 + 30 + 30 = 160, Bea 30 + 30 + 50 + 50 = 160."""
    for body in (deal(1, "K K K K", "Q Q Q"), deal(2, "A A A", "J J J"), deal(3, "9 9 9", "8 8 8 8 8"),
                 deal(4, "K K K", "Q Q Q Q Q")):
        assert client.post(f"{API}/games/{game_id}/deals", json=body, headers=key).status_code == 201


def _target_passed(client, game_id: str, key: dict[str, str]) -> None:
    """Three deals, then the sheet amended to play to 100: Ann's 40 + 60 = 100 after deal 2
    ended the game (Bea 30 + 30 = 60), and deal 3 (Ann 30, Bea 50) came after the end."""
    for body in (deal(1, "K K K K", "Q Q Q"), deal(2, "A A A", "J J J"), deal(3, "9 9 9", "8 8 8 8 8")):
        assert client.post(f"{API}/games/{game_id}/deals", json=body, headers=key).status_code == 201
    amended = client.put(f"{API}/games/{game_id}/sheet", headers=key, json={
        "sheet": {"preset": "common", "game_length": "target", "target_score": 100}, "reason": "short game"})
    assert amended.status_code == 200, amended.get_data(as_text=True)


SCENARIOS = {"gap_and_as_played": _gap_and_as_played, "tie": _tie, "target_passed": _target_passed}


@pytest.fixture(scope="module")
def app(tmp_path_factory, migrated_database: Path) -> Flask:
    """One app for this module's games: the tests only read them, so each is made once."""
    path = tmp_path_factory.mktemp("agreement") / "scorepad.sqlite"
    shutil.copyfile(migrated_database, path)
    return create_app({"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False, "DATABASE": str(path)})


@pytest.fixture(scope="module", params=sorted(SCENARIOS))
def game(request, app: Flask) -> str:
    client = app.test_client()
    made = client.post(f"{API}/games", json={"name": "Friday", "sheet": "common", "sides": SIDES}).get_json()
    SCENARIOS[request.param](client, made["id"], {"Authorization": f"Bearer {made['edit_key']}"})
    return made["id"]


@pytest.fixture(scope="module")
def view(app: Flask, game: str) -> GameView:
    """The rules' view of the game, built from its export document."""
    return view_of_document(app.test_client().get(f"/games/{game}/export.json").get_json())


def game_file(document: dict[str, Any]) -> dict[str, Any]:
    """The game of an export document as a game file: its sheet, side names and deals."""
    return {"sheet": document["sheet"], "sides": [s["name"] for s in document["sides"]],
            "deals": [d["deal"] for d in document["deals"]]}


def view_of_document(document: dict[str, Any]) -> GameView:
    return view_of(Game.from_json(game_file(document)), [d["as_played"] for d in document["deals"]])


@pytest.fixture(scope="module")
def scorepad_game(app: Flask, game: str, tmp_path_factory) -> tuple[int, dict[str, Any]]:
    """``scorepad game FILE --json`` on the game as a file, run as a command: (exit status, output)."""
    path = tmp_path_factory.mktemp("file") / "game.json"
    path.write_text(json.dumps(game_file(app.test_client().get(f"/games/{game}/export.json").get_json())),
                    encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "scorepad.cli", "game", str(path), "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


# -- reading each output ------------------------------------------------------------------------


def number(text: str) -> int:
    return int(text.replace(",", "").replace("−", "-"))


def api_document(client, game_id: str) -> dict[str, Any]:
    return client.get(f"{API}/games/{game_id}").get_json()


def cli_document(runner, game_id: str) -> dict[str, Any]:
    shown = runner.invoke(args=["game", "show", game_id, "--json"])
    assert shown.exit_code == 0, shown.output
    return json.loads(shown.stdout)


def page_html(client, game_id: str) -> str:
    response = client.get(f"/games/{game_id}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def page_text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def csv_rows(client, game_id: str) -> list[list[str]]:
    body = client.get(f"/games/{game_id}/scores.csv").get_data(as_text=True)
    return list(csv.reader(io.StringIO(body.removeprefix("\ufeff"))))


def pdf_text(client, game_id: str) -> str:
    body = client.get(f"/games/{game_id}/results.pdf").get_data()
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages).split())


Row = tuple[int, dict[str, int], dict[str, int], str | None]


def json_rows(document: dict[str, Any]) -> list[Row]:
    running = document["running_totals"]
    assert [r["deal"] for r in running] == [d["number"] for d in document["deals"]]
    return [(d["number"], {s["name"]: s["total"] for s in d["report"]["sides"]}, r["totals"], d["as_played"])
            for d, r in zip(document["deals"], running, strict=True)]


_PAGE_ROW = re.compile(r'<tr id="deal-(\d+)"[^>]*>(.*?)</tr>', re.S)
_PAGE_CELL = re.compile(r'<span class="pts">([^<]*)</span><span class="run"><span class="vh">running total </span>'
                        r"([^<]*)</span>")
_PAGE_AS_PLAYED = re.compile(r'title="Saved as played: ([^"]*)"')


def page_rows(page: str) -> list[Row]:
    rows = []
    for found in _PAGE_ROW.finditer(page):
        cells = _PAGE_CELL.findall(found[2])
        reason = _PAGE_AS_PLAYED.search(found[2])
        rows.append((int(found[1]), {n: number(c[0]) for n, c in zip(NAMES, cells, strict=True)},
                     {n: number(c[1]) for n, c in zip(NAMES, cells, strict=True)},
                     html.unescape(reason[1]) if reason else None))
    return rows


def csv_table_rows(table: list[list[str]]) -> list[Row]:
    assert table[0] == ["Deal", "Ann points", "Ann total", "Bea points", "Bea total", "Note"]
    return [(int(r[0]), {"Ann": int(r[1]), "Bea": int(r[3])}, {"Ann": int(r[2]), "Bea": int(r[4])},
             r[5].removeprefix("saved as played: ") if r[5].startswith("saved as played: ") else None)
            for r in table[1:-1]]


_NUM = r"(-?[\d,]+)"
_PDF_ROW = re.compile(rf"Deal (\d+)( \(as played\))? {_NUM} \S+ {_NUM} {_NUM} \S+ {_NUM}")
_PDF_TOTAL = re.compile(rf"Total {_NUM}(?: \((?:winner|tie)\))? {_NUM}")


def pdf_table(text: str) -> str:
    """The running totals table: from its heading to the deals saved as played."""
    start = text.index("Running totals (each deal's score")
    return text[start:text.index("Deals saved as played", start)]


def pdf_rows(text: str) -> list[tuple[int, dict[str, int], dict[str, int], bool]]:
    return [(int(m[1]), {"Ann": number(m[3]), "Bea": number(m[5])}, {"Ann": number(m[4]), "Bea": number(m[6])},
             bool(m[2])) for m in _PDF_ROW.finditer(pdf_table(text))]


def view_rows(view: GameView) -> list[Row]:
    return [(row.number, row.points, row.running, row.as_played) for row in view.rows]


# -- the game these tests are about, its arithmetic written out --------------------------------


@pytest.mark.parametrize("game", ["gap_and_as_played"], indirect=True)
def test_the_view_of_a_game_with_a_deleted_middle_deal_and_an_as_played_deal(view):
    # Deal 1: Ann K K K K = 40, Bea Q Q Q = 30. Deal 2 (Ann 60, Bea 30) was deleted.
    # Deal 3, as played: Ann 9 9 9 = 30, Bea 8 8 2 2 = 10 + 10 + 20 + 20 = 60.
    assert view_rows(view) == [(1, {"Ann": 40, "Bea": 30}, {"Ann": 40, "Bea": 30}, None),
                               (3, {"Ann": 30, "Bea": 60}, {"Ann": 70, "Bea": 90}, "we let it stand")]
    assert view.totals == {"Ann": 70, "Bea": 90}
    # Next is deal 2: the common sheet's minimum for deal 2 is 90; before it, deal 1 alone.
    assert view.next_deal.to_json() == {
        "number": 2, "opening_minimums": {"Ann": 90, "Bea": 90}, "opening_who": "player",
        "going_out_books": {"clean": 1, "dirty": 1, "wild": 0}, "going_out_bonus": 100, "draws": 2,
        "totals_before": {"Ann": 40, "Bea": 30}}
    assert view.result.to_json() == {"standings": [{"name": "Bea", "total": 90}, {"name": "Ann", "total": 70}],
                                     "over": False, "winner": None, "tie": False}
    assert view.state == "deal 2 of 4"


@pytest.mark.parametrize("game", ["tie"], indirect=True)
def test_the_view_of_a_tied_game(view):
    assert view.totals == {"Ann": 160, "Bea": 160} and view.tied == ("Ann", "Bea") and view.next_deal is None


@pytest.mark.parametrize("game", ["target_passed"], indirect=True)
def test_the_view_of_a_game_that_reached_its_target_before_its_last_deal(view):
    assert view.totals == {"Ann": 130, "Bea": 110}
    assert [(s.name, s.total) for s in view.result.standings] == [("Ann", 100), ("Bea", 60)]
    assert view.result.winner == "Ann" and view.next_deal is None


# -- rows ---------------------------------------------------------------------------------------


def test_the_api_rows_agree_with_the_view(client, game, view):
    assert json_rows(api_document(client, game)) == view_rows(view)


def test_the_cli_rows_agree_with_the_view(runner, game, view):
    assert json_rows(cli_document(runner, game)) == view_rows(view)


def test_the_page_rows_agree_with_the_view(client, game, view):
    assert page_rows(page_html(client, game)) == view_rows(view)


def test_the_csv_rows_agree_with_the_view(client, game, view):
    assert csv_table_rows(csv_rows(client, game)) == view_rows(view)


def test_the_pdf_rows_agree_with_the_view(client, game, view):
    text = pdf_text(client, game)
    assert pdf_rows(text) == [(n, p, r, a is not None) for n, p, r, a in view_rows(view)]
    for row in view.as_played:
        assert f"Deal {row.number}: {row.as_played}" in text


def test_the_scorepad_command_rows_agree_with_the_view(scorepad_game, view):
    deals = scorepad_game[1]["deals"]
    assert [(d["deal"], {s["name"]: s["total"] for s in d["sides"]}, d["running_totals"]) for d in deals] \
        == [(n, p, r) for n, p, r, _ in view_rows(view)]


def test_the_export_rows_agree_with_the_api(client, game, view):
    document = client.get(f"/games/{game}/export.json").get_json()
    api = api_document(client, game)
    assert [(d["number"], d["deal"], d["as_played"]) for d in document["deals"]] \
        == [(d["number"], d["deal"], d["as_played"]) for d in api["deals"]]
    missing = [n for n in range(1, max(view.numbers) + 1) if n not in view.numbers]
    assert [d["number"] for d in document["deleted_deals"]] == missing


# -- totals -------------------------------------------------------------------------------------

# What the Total line of each score table shows: the totals after every recorded deal.

def test_the_api_totals_agree_with_the_view(client, game, view):
    assert json_rows(api_document(client, game))[-1][2] == view.totals


def test_the_cli_totals_agree_with_the_view(runner, game, view):
    assert json_rows(cli_document(runner, game))[-1][2] == view.totals


def test_the_page_totals_agree_with_the_view(client, game, view):
    foot = re.search(r"<tfoot>(.*?)</tfoot>", page_html(client, game), re.S)
    assert foot is not None
    cells = re.findall(r'<td class="total">([^<]*)</td>', foot[1])
    assert dict(zip(NAMES, map(number, cells), strict=True)) == view.totals


def test_the_csv_totals_agree_with_the_view(client, game, view):
    total = csv_rows(client, game)[-1]
    assert total[0] == "Total"
    assert {"Ann": int(total[1]), "Bea": int(total[3])} == {"Ann": int(total[2]), "Bea": int(total[4])} == view.totals


def test_the_scorepad_command_totals_agree_with_the_view(scorepad_game, view):
    assert scorepad_game[1]["deals"][-1]["running_totals"] == view.totals


def test_the_pdf_totals_agree_with_the_view(client, game, view):
    found = _PDF_TOTAL.search(pdf_table(pdf_text(client, game)))
    assert found is not None
    assert {"Ann": number(found[1]), "Bea": number(found[2])} == view.totals


# -- the next deal ------------------------------------------------------------------------------


def view_next(view: GameView) -> dict[str, Any] | None:
    return None if view.next_deal is None else view.next_deal.to_json()


def test_the_api_next_deal_agrees_with_the_view(client, game, view):
    assert api_document(client, game)["next_deal"] == view_next(view)


def test_the_cli_next_deal_agrees_with_the_view(runner, game, view):
    assert cli_document(runner, game)["next_deal"] == view_next(view)


def test_the_scorepad_command_next_deal_agrees_with_the_view(scorepad_game, view):
    assert scorepad_game[1]["next_deal"] == view_next(view)


def test_the_page_next_deal_agrees_with_the_view(client, game, view):
    found = re.search(r'<section class="next".*?</section>', page_html(client, game), re.S)
    upcoming = view.next_deal
    if upcoming is None:
        assert found is None
        return
    assert found is not None
    text = page_text(found[0])
    minimums = " ".join(f"{name}: {m}" for name, m in upcoming.opening_minimums.items())
    assert text.startswith(f"Deal {upcoming.number} next Opening minimum (each player) {minimums} ")
    before = " ".join(f"{name}: {t:,}" for name, t in upcoming.totals_before.items())
    said = f"Totals before it (deals recorded before deal {upcoming.number}) {before}"
    assert (said in text) is view.fills_gap
    assert f"To go out {upcoming.going_out_books} books" in text
    assert f"Going-out bonus {upcoming.going_out_bonus}" in text
    assert f"Draw {upcoming.draws} cards a turn" in text


def test_the_pdf_next_deal_agrees_with_the_view(client, game, view):
    text = pdf_text(client, game)
    if view.next_deal is None:
        assert " is next: " not in text
    else:
        assert view.next_deal.words() in text


# -- the result ---------------------------------------------------------------------------------


def test_the_api_result_agrees_with_the_view(client, game, view):
    document = api_document(client, game)
    assert {k: document[k] for k in ("standings", "over", "winner", "tie")} == view.result.to_json()


def test_the_cli_result_agrees_with_the_view(runner, game, view):
    document = cli_document(runner, game)
    assert {k: document[k] for k in ("standings", "over", "winner", "tie")} == view.result.to_json()


def test_the_scorepad_command_result_agrees_with_the_view(scorepad_game, view):
    said = scorepad_game[1]
    assert {k: said[k] for k in ("standings", "over", "winner", "tie")} == view.result.to_json()


def test_the_page_result_agrees_with_the_view(client, game, view):
    page = page_html(client, game)
    found = re.search(r'<p class="standings( over)?"[^>]*>(.*?)</p>', page, re.S)
    assert found is not None
    said = page_text(found[2])
    assert bool(found[1]) == view.result.over
    if not view.result.over:
        assert f"Now: {view.state}." in page_text(page)
        assert not said.startswith(("Winner", "Game tied"))
    elif view.result.tie:
        tied = view.tied
        assert said.startswith(f"Game tied at {view.top:,}: {', '.join(tied[:-1])} and {tied[-1]}")
    else:
        assert said.startswith(f"Winner: {view.result.winner}, {view.top:,} to ")


def test_the_csv_result_agrees_with_the_view(client, game, view):
    said = csv_rows(client, game)[-1][-1]
    result = view.result
    assert said == (("tie" if result.tie else f"{result.winner} wins") if result.over else "")


def test_the_pdf_result_agrees_with_the_view(client, game, view):
    text = pdf_text(client, game)
    result = view.result
    if result.tie:
        assert f"A tie at {view.top:,} between {', '.join(view.tied)}." in text
        assert pdf_table(text).count(f"{view.top:,} (tie)") == len(view.tied)
    elif result.over:
        assert f"{result.winner} wins with {view.top:,}." in text
        assert f"{view.totals[result.winner]:,} (winner)" in pdf_table(text)
    else:
        last = view.sheet.last_deal()
        assert f"Game in progress: {len(view.rows)} deals recorded of {last};" in text
        assert "(winner)" not in text and "(tie)" not in text


# -- the game's problems ------------------------------------------------------------------------

def test_the_api_problems_agree_with_the_view(client, game, view):
    assert api_document(client, game)["problems"] == [p.to_json() for p in view.problems]


def test_the_cli_problems_agree_with_the_view(runner, game, view):
    assert cli_document(runner, game)["problems"] == [p.to_json() for p in view.problems]


def test_the_cli_sheet_changes_agree_with_the_api(client, runner, game):
    assert cli_document(runner, game)["sheet_changes"] == api_document(client, game)["sheet_changes"]


def test_the_page_problems_agree_with_the_view(client, game, view):
    said = re.findall(r'<p class="warning">(.*?)</p>', page_html(client, game), re.S)
    assert [html.unescape(s) for s in said] == [p.message for p in view.problems]


def test_the_scorepad_command_problems_agree_with_the_view(scorepad_game, view):
    status, said = scorepad_game
    assert said["problems"] == [p.to_json() for p in view.problems]
    assert said["ok"] is view.ok and status == (0 if view.ok else 1)
