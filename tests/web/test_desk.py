"""The referee's desk: its pages and its JSON API (/api/v1/referee), through Flask's test client,
each test on its own SQLite file (the ``app`` and ``client`` fixtures of conftest.py); questions
and bad input that write nothing share one (``asker``, with ``club``), each checking that it wrote nothing.

Every question is asked under each preset, once for a YES and once for a NO, both through
the page and through the API, and every answer must name the sheet option it rests on (on
the page: the option's label and what the sheet says, as ``Rule: label: words``).
"""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from scorepad.rules import load_sheet, preset
from scorepad.rules.catalogue import OPTION_BY_NAME
from scorepad.rules.dispute import compare_sheets
from tests.helpers import api_game, dump
from tests.web.test_pages import forms_of

DATA = Path(__file__).parent.parent / "data"
API = "/api/v1/referee"
PRESET_IDS = ("common", "pagat", "bicycle", "gather-together")
CLUB = json.loads((DATA / "game-club-gather-together.json").read_text())
TWO_DEAL = {k: v for k, v in json.loads((DATA / "deal-common.json").read_text()).items() if k != "sheet"}


# -- the questions, a YES and a NO under each preset -------------------------------------------------

# question -> preset -> (a YES and the option it must cite, a NO and the option it fails on)
CASES: dict[str, dict[str, tuple[dict, str, dict, str]]] = {
    "meld": {
        "common": ({"meld": "Q Q 2"}, "wild_ratio",                      # more naturals than wilds
                   {"meld": "K K K", "table": ["K K K K"]}, "second_meld"),  # an unfinished meld of kings is down
        "pagat": ({"meld": "9 9 2"}, "wild_ratio",                       # naturals at least twice the wilds
                  {"meld": "9 9 9 2 2"}, "wild_ratio"),
        "bicycle": ({"meld": "Q Q Q Q 2"}, "wild_ratio",                 # 4 naturals with a wild
                    {"meld": "Q Q Q 2"}, "min_naturals_with_wilds"),
        "gather-together": ({"meld": "2", "adding_to": "K K 2"}, "wild_ratio",  # K K 2 2: equal is fine
                            {"meld": "2", "adding_to": "K K 2 2"}, "wild_ratio"),
    },
    "go-out": {
        "common": ({"books": {"clean": 1, "dirty": 1}}, "books_to_go_out",
                   {"melds": ["K K K K K K K", "A A A A A A A"]}, "books_to_go_out"),  # 2 clean, no dirty
        "pagat": ({"books": {"clean": 2, "dirty": 2, "wild": 1}, "partners_picked_up": [True],
                   "partners_played": [True], "permission": True},
                  "go_out_permission",
                  {"books": {"clean": 2, "dirty": 2, "wild": 1}, "partners_picked_up": [True],
                   "partners_played": [True], "permission": False},
                  "go_out_permission"),
        "bicycle": ({"books": {"clean": 1, "dirty": 1}, "last_card": "discard"}, "last_card",
                    {"books": {"clean": 1, "dirty": 1}, "last_card": "meld"}, "last_card"),
        "gather-together": ({"books": {"clean": 1, "dirty": 1}, "partners_picked_up": [True]}, "go_out_partner_foot",
                            {"books": {"clean": 1, "dirty": 1}, "partners_picked_up": [False]},
                            "go_out_partner_foot"),
    },
    "pile": {
        "common": ({"top_card": "9", "pair": 2, "opened": True, "pile_size": 7}, "pile_take",
                   {"top_card": "9", "pair": 2, "opened": True, "pile_size": 6}, "pile_take"),  # 7 or more
        "pagat": ({"top_card": "9", "pair": 2, "opened": False, "pile_size": 3}, "pile_cards",
                  {"top_card": "3R", "pair": 2, "opened": False, "pile_size": 3}, "pile_blocked_by"),
        "bicycle": ({"top_card": "9", "pair": 2, "opened": False, "pile_size": 3}, "pile_needs",
                    {"top_card": "9", "pair": 1, "wilds": 1, "opened": False, "pile_size": 3}, "pile_needs"),
        "gather-together": ({"top_card": "9", "pair": 1, "wilds": 1, "opened": False, "pile_size": 12}, "pile_needs",
                            {"top_card": "3B", "pair": 2, "opened": False, "pile_size": 12}, "pile_blocked_by"),
    },
    "minimum": {
        "common": ({"melds": ["K K K", "Q Q Q"], "deal": 1}, "opening_minimums",   # 60 against 50
                   {"melds": ["K K K", "Q Q Q"], "deal": 3}, "opening_minimums"),  # 60 against 120
        "pagat": ({"melds": ["9 9 9 2"], "top_card": "9"}, "opening_pile_cards",   # 50, the top 9 counting
                  {"melds": ["9 9 9 2"], "top_card": "9", "buried": "2"}, "opening_minimums"),  # a buried 2: 30
        "bicycle": ({"melds": ["A A A", "K K K"], "deal": 2}, "opening_minimums",   # 90 against 90
                    {"melds": ["9 9 9 2"], "top_card": "9"}, "min_naturals_with_wilds"),
        "gather-together": ({"melds": ["9 9 9", "5 5 5 5"], "top_card": "9"}, "opening_pile_cards",
                            {"melds": ["K K K", "Q Q Q"], "deal": 2}, "opening_minimums"),  # 60 against 90
    },
}
QUESTIONS = tuple(CASES)
ASKED = [(q, p, yes) for q in QUESTIONS for p in PRESET_IDS for yes in (True, False)]


def case(question: str, preset_id: str, yes: bool) -> tuple[dict, str]:
    yes_data, yes_option, no_data, no_option = CASES[question][preset_id]
    return (yes_data, yes_option) if yes else (no_data, no_option)


def as_query(data: dict[str, Any]) -> dict[str, str]:
    """A question's JSON fields as the page's form sends them."""
    out: dict[str, str] = {}
    for key, value in data.items():
        if key == "books":
            out.update({f"books.{kind}": str(n) for kind, n in value.items()})
        elif key in ("partners_picked_up", "partners_played"):
            out[key] = "yes" if value[0] else "no"
        elif isinstance(value, bool):
            out[key] = "yes" if value else "no"
        elif isinstance(value, list):
            out[key] = "; ".join(value)
        else:
            out[key] = str(value)
    return out


def rule_words(preset_id: str | Any, option: str) -> str:
    sheet = preset(preset_id) if isinstance(preset_id, str) else preset_id
    return f"Rule: {OPTION_BY_NAME[option].label}: {sheet.describe(option)}"


def text_of(fragment: str) -> str:
    """Visible text: inline tags dropped, other tags a space, entities read, spaces collapsed."""
    fragment = re.sub(r"</?(?:strong|em|a|code)\b[^>]*>", "", fragment)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def page_answer(page: str, question: str) -> tuple[bool, str, int]:
    """The page's answer to ``question``: yes or no, its text, and how many reasons it gives."""
    found = re.search(rf'<div class="answer (yes|no)" id="{question}-answer"[^>]*>(.*?)</div>', page, re.S)
    assert found, f"no answer to {question} on the page"
    return found.group(1) == "yes", text_of(found.group(2)), found.group(2).count("<li")


def assert_api_answer(body: dict, yes: bool, option: str, sheet) -> None:
    assert set(body) == {"yes", "reasons"}
    assert body["yes"] is yes
    cited = {r["option"]: r for r in body["reasons"]}
    assert option in cited, f"{option} not among {list(cited)}"
    reason = cited[option]
    assert reason["ok"] is yes or not yes and any(not r["ok"] for r in body["reasons"])
    assert reason["label"] == OPTION_BY_NAME[option].label
    assert reason["sheet_says"] == sheet.describe(option)
    if not yes:
        assert body["reasons"][0]["ok"] is False
        assert option in [r["option"] for r in body["reasons"] if not r["ok"]]
    for r in body["reasons"]:
        assert set(r) == {"ok", "message", "option", "sheet_says", "label"}


@pytest.fixture
def asker(module_app):
    """A client of the module's one app, for questions asked under a preset (no game): the
    test fails if it wrote to the database."""
    before = dump(module_app.config["DATABASE"])
    yield module_app.test_client()
    assert dump(module_app.config["DATABASE"]) == before, "a question under a preset wrote to the database"


@pytest.mark.parametrize("question, preset_id, yes", ASKED)
def test_each_question_through_the_api_answers_and_cites_the_option(asker, question, preset_id, yes):
    data, option = case(question, preset_id, yes)
    response = asker.post(f"{API}/{question}", json={"sheet": preset_id, **data})
    assert response.status_code == 200, response.get_json()
    assert_api_answer(response.get_json(), yes, option, preset(preset_id))


@pytest.mark.parametrize("question, preset_id, yes", ASKED)
def test_each_question_through_the_page_answers_in_words_and_quotes_the_rule(asker, question, preset_id, yes):
    data, option = case(question, preset_id, yes)
    response = asker.get("/referee", query_string={"sheet": preset_id, "ask": question, **as_query(data)})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    answered_yes, text, reasons = page_answer(page, question)
    assert answered_yes is yes
    assert text.startswith("YES:" if yes else "NO:")
    assert rule_words(preset_id, option) in text
    assert text.count("Rule:") == reasons  # every reason quotes its rule
    assert page.count('class="answer ') == 1  # only the question asked is answered


@pytest.mark.parametrize("question, preset_id, yes", [(q, "gather-together", y) for q in QUESTIONS
                                                      for y in (True, False)])
def test_a_games_referee_page_answers_under_the_games_sheet(client, question, preset_id, yes):
    game_id = club_game(client)
    data, option = case(question, preset_id, yes)
    if question != "meld":
        data = {"deal": 1, **data}
    page = client.get(f"/games/{game_id}/referee", query_string={"ask": question, **as_query(data)})
    assert page.status_code == 200
    answered_yes, text, _ = page_answer(page.get_data(as_text=True), question)
    assert answered_yes is yes and rule_words(preset_id, option) in text
    body = client.post(f"{API}/{question}", json={"game": game_id, **data}).get_json()
    assert_api_answer(body, yes, option, preset(preset_id))


# (question, sheet, a NO and the option it fails on, its legal near twin): issue 8's rules.
AUDITED = [
    # A book grows with naturals only: at most 3 wilds in a Bicycle book of 7, so not 4 in 8.
    ("meld", {"preset": "bicycle", "book_growth": "naturals"}, {"meld": "8 8 8 8 2 2 JK JK"}, "book_growth",
     {"meld": "8 8 8 8 8 2 2 JK"}),
    # 5 nines down: the pair and the top card go onto them, 5 + 3 = 8, past a book; 4 + 3 = 7 is a book.
    ("pile", "common", {"top_card": "9", "pair": 2, "opened": True, "pile_size": 7, "table": ["9 9 9 9 9"]},
     "second_meld", {"top_card": "9", "pair": 2, "opened": True, "pile_size": 7, "table": ["9 9 9 9"]}),
    # Common: the pile waits for the first melds, so its top 9 never counts (40, not 50).
    ("minimum", "common", {"melds": ["9 9 9", "5 5 5 5"], "top_card": "9"}, "pile_needs_opened",
     {"melds": ["9 9 9", "5 5 5 5", "4 4 4"]}),
]


@pytest.mark.parametrize("question, sheet, no, option, yes", AUDITED, ids=[a[0] for a in AUDITED])
def test_audited_rules_answer_the_same_on_the_page_and_through_the_api(asker, question, sheet, no, option, yes):
    for data, expect in ((no, False), (yes, True)):
        body = asker.post(f"{API}/{question}", json={"sheet": sheet, **data}).get_json()
        assert body["yes"] is expect, body
        query = {"sheet": sheet, "ask": question, **as_query(data)} if isinstance(sheet, str) else \
            {"sheet": sheet["preset"], "sheet_json": json.dumps(sheet), "ask": question, **as_query(data)}
        answered_yes, text, _ = page_answer(asker.get("/referee", query_string=query).get_data(as_text=True),
                                            question)
        assert answered_yes is expect, text
        if not expect:
            assert option in [r["option"] for r in body["reasons"] if not r["ok"]]
            assert f"Rule: {OPTION_BY_NAME[option].label}:" in text


def test_adding_a_natural_of_another_rank_rests_on_no_option_and_says_so(client):
    page = client.get("/referee", query_string={"sheet": "common", "ask": "meld", "meld": "Q",
                                                "adding_to": "K K K"}).get_data(as_text=True)
    yes, text, _ = page_answer(page, "meld")
    assert not yes and "Queens cannot go on a meld of kings" in text and "Rule: the same on every sheet" in text
    body = client.post(f"{API}/meld", json={"sheet": "common", "meld": "Q", "adding_to": "K K K"}).get_json()
    assert body["reasons"][0] == {"ok": False, "message": "Queens cannot go on a meld of kings.", "option": None,
                                  "sheet_says": None, "label": None}


def test_the_side_must_play_its_foot_before_going_out(client):
    body = client.post(f"{API}/go-out", json={"sheet": "common", "books": {"clean": 1, "dirty": 1},
                                             "foot_played": False}).get_json()
    assert body["yes"] is False and body["reasons"][0]["option"] == "go_out_foot"


def test_a_sheet_given_as_json_on_the_page_is_the_one_that_answers(client):
    custom = json.dumps({"preset": "pagat", "wild_ratio": "more"})
    page = client.get("/referee", query_string={"sheet": "pagat", "sheet_json": custom, "ask": "meld",
                                                "meld": "9 9 9 2 2"}).get_data(as_text=True)
    yes, text, _ = page_answer(page, "meld")  # 3 naturals, 2 wilds: legal once naturals need only outnumber
    assert yes and rule_words(load_sheet(json.loads(custom)), "wild_ratio") in text
    assert "Pagat, four-player partnerships (changed)" in text_of(page)


def form_on(page: str, holding: str) -> dict[str, str]:
    """The fields a browser sends from the page's form holding a field named ``holding``
    (the sheet editor's: ``opt-hand_size``; a question's: ``ask``, the first one)."""
    for form in forms_of(page):
        if holding in form["fields"]:
            return dict(form["fields"])
    raise AssertionError(f"no form with {holding} on the page")


def question_form(page: str, question: str) -> dict[str, str]:
    return next(dict(f["fields"]) for f in forms_of(page) if f["fields"].get("ask") == question)


def test_the_desk_answers_under_a_sheet_built_in_its_sheet_editor(client):
    """Pagat wants naturals at least twice the wilds, so 9 9 9 2 2 is illegal; with the
    editor's wild ratio changed to "more" (naturals need only outnumber wilds) 3 > 2 is legal."""
    start = client.get("/referee", query_string={"sheet": "pagat"}).get_data(as_text=True)
    assert "sheet_json" not in start  # no JSON box: every option is its own control
    editor = form_on(start, "opt-wild_ratio")
    assert (editor["preset"], editor["opt-wild_ratio"]) == ("pagat", "twice")
    response = client.get("/referee", query_string={**editor, "opt-wild_ratio": "more"})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Now answering under: Pagat, four-player partnerships (changed)." in text_of(page)
    assert form_on(page, "opt-wild_ratio")["opt-wild_ratio"] == "more"  # the editor shows the sheet in use
    edited = load_sheet({"preset": "pagat", "wild_ratio": "more"})
    for sheet, legal in ((edited, True), (preset("pagat"), False)):
        ask = question_form(page if sheet is edited else start, "meld")
        answer = client.get("/referee", query_string={**ask, "meld": "9 9 9 2 2"}).get_data(as_text=True)
        yes, words, _ = page_answer(answer, "meld")
        assert yes is legal and rule_words(sheet, "wild_ratio") in words


def test_a_bad_value_in_the_desks_sheet_editor_is_a_400_naming_the_box_and_keeping_what_was_typed(client):
    editor = form_on(client.get("/referee").get_data(as_text=True), "opt-hand_size")
    for typed, message in (("eleven", "must be a whole number, not 'eleven'"), ("99", "must be from")):
        response = client.get("/referee", query_string={**editor, "opt-hand_size": typed})
        assert response.status_code == 400
        page = response.get_data(as_text=True)
        summary = text_of(page.split('id="error-summary"', 1)[1].split("</div>", 1)[0])
        assert "Cards in the hand: " + message in summary
        assert re.search(rf'id="opt-hand_size" name="opt-hand_size" value="{typed}"[^>]*aria-invalid="true"', page)
        assert 'href="#opt-hand_size"' in page
        assert 'class="answer' not in page and 'name="ask"' not in page  # no question under a sheet not read


# -- a recorded game ---------------------------------------------------------------------------------


def club_game(client) -> str:
    """The gather-together game of tests/data (worked by hand in test_dispute.club_game):
    North-South 1,155 / 15 / 15 / 15 = 1,200; East-West -5 / 1,030 / 40 / 150 = 1,215."""
    sides = [{"name": "North-South", "players": ["Ann", "Cal"]}, {"name": "East-West", "players": ["Bea", "Dan"]}]
    return api_game(client, "Club", CLUB["sheet"], sides, CLUB["deals"])[0]


@pytest.fixture(scope="module")
def club(module_app) -> str:
    """club_game on the module's one app, made once for the tests that only read it (``asker``)."""
    return club_game(module_app.test_client())


TWO = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]
BANDS = {"preset": "common", "opening_by": "running-total",
         "opening_bands": [{"below": 1000, "minimum": 50}, {"minimum": 150}]}


def test_a_games_referee_page_fills_in_the_current_deal_and_the_running_totals(client):
    game_id, _ = api_game(client, "Club", "common", TWO, [TWO_DEAL])  # deal 1: Ann 1,060, Bea 5
    response = client.get(f"/games/{game_id}/referee")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    text = text_of(page)
    assert "The table is playing deal 2." in text
    assert "Running totals before deal 2: Ann 1,060; Bea 5." in text
    assert re.search(r'id="minimum-deal" name="deal" type="number"[^>]* value="2"', page)
    assert re.search(r'<option value="Ann">Ann \(running total 1,060\)</option>', page)


def test_a_finished_games_page_works_on_its_last_deal_and_gives_the_final_totals(client):
    game_id = club_game(client)
    text = text_of(client.get(f"/games/{game_id}/referee").get_data(as_text=True))
    assert "The game is over; its last deal was deal 4." in text
    assert "Final totals, after deal 4: North-South 1,200; East-West 1,215." in text
    assert "Running totals before" not in text  # the game is over: nothing comes after deal 4
    for n in (1, 2, 3, 4):
        assert f"Deal {n}:" in text  # a link to explain each deal


@pytest.mark.parametrize("side, running_total, yes", [("Ann", "", False), ("Bea", "", True), ("Ann", "0", True)])
def test_band_minimum_follows_the_sides_running_total(client, side, running_total, yes):
    game_id, _ = api_game(client, "Club", BANDS, TWO, [TWO_DEAL])
    # Before deal 2 Ann has 1,060 (minimum 150) and Bea 5 (minimum 50); 60 points are laid.
    query = {"ask": "minimum", "melds": "K K K; Q Q Q", "side": side, "running_total": running_total}
    page = client.get(f"/games/{game_id}/referee", query_string=query).get_data(as_text=True)
    answered, text, _ = page_answer(page, "minimum")
    assert answered is yes
    assert rule_words(load_sheet(BANDS), "opening_bands") in text
    body = {"game": game_id, "melds": ["K K K", "Q Q Q"], "side": side}
    if running_total:
        body["running_total"] = int(running_total)
    assert_api_answer(client.post(f"{API}/minimum", json=body).get_json(), yes, "opening_bands", load_sheet(BANDS))


# -- explaining a score --------------------------------------------------------------------------------


def test_the_deal_page_gives_each_line_of_each_side_with_the_rule_behind_it_once(client):
    game_id = club_game(client)
    response = client.get(f"/games/{game_id}/deals/1")
    assert response.status_code == 200
    text = text_of(response.get_data(as_text=True))
    sheet = preset("gather-together")
    api = client.get(f"{API}/games/{game_id}/deals/1/explain").get_json()
    assert [(s["name"], s["total"]) for s in api["sides"]] == [("North-South", 1155), ("East-West", -5)]
    for side in api["sides"]:
        assert f"{side['name']}: {side['total']:,}" in text
        cited = set()
        for line in side["lines"]:
            assert line["rule"] == OPTION_BY_NAME[line["option"]].label
            assert line["sheet_says"] == sheet.describe(line["option"])
            if line["option"] in cited:  # stated once per table
                assert f"{line['label']} Rule: {line['rule']}, as above" in text
            else:
                assert f"{line['label']} {rule_words(sheet, line['option'])}" in text
            cited.add(line["option"])
    assert "Dan's unopened foot: red threes Rule: Red three in a foot never picked up: nothing" in text


def test_explain_an_unrecorded_deal_through_the_api(client):
    deal = json.loads((DATA / "deal-common.json").read_text())
    body = client.post(f"{API}/explain", json={"deal": deal}).get_json()
    assert [(s["name"], s["total"]) for s in body["sides"]] == [("Ann", 1060), ("Bea", 5)]
    assert body["sides"][0]["lines"][3] == {"code": "books.clean", "label": "Clean books", "count": 1, "each": 500,
                                           "points": 500, "option": "clean_book_bonus", "player": None,
                                           "rule": "Clean book", "sheet_says": "500 points"}


# -- under another sheet -------------------------------------------------------------------------------


def test_rescoring_the_game_under_pagat_on_the_page_shows_the_totals_worked_by_hand(client):
    game_id = club_game(client)
    response = client.get(f"/games/{game_id}/rescore", query_string={"sheet": "pagat"})
    assert response.status_code == 200
    text = text_of(response.get_data(as_text=True))
    # Pagat takes 100 for each of Dan's two red threes left in his unopened foot (deal 1).
    assert "North-South 1,200 1,200 0" in text
    assert "East-West 1,215 1,015 -200" in text
    assert ("Under this game’s sheet: East-West wins with 1,215. Under Pagat, four-player partnerships: "
            "North-South wins with 1,200. The result changes.") in text
    assert "East-West: -5 → -205 (-200)" in text
    assert "Dan's unopened foot: red threes Rule: Red three in a foot never picked up: minus 100 points" in text
    assert "Illegal under Pagat, four-player partnerships" in text
    assert rule_words("pagat", "foot_size") in text and rule_words("pagat", "books_to_go_out") in text
    assert "Deal 2: nothing changes" in text


def test_rescoring_the_game_under_pagat_through_the_api(client):
    game_id = club_game(client)
    body = client.get(f"{API}/games/{game_id}/rescore", query_string={"sheet": "pagat"}).get_json()
    assert body["totals"] == [{"name": "North-South", "old": 1200, "new": 1200, "difference": 0},
                              {"name": "East-West", "old": 1215, "new": 1015, "difference": -200}]
    assert (body["old_result"]["winner"], body["new_result"]["winner"]) == ("East-West", "North-South")
    assert [d["sides"][1]["difference"] for d in body["deals"]] == [-200, 0, 0, 0]
    posted = client.post(f"{API}/rescore", json={"game": CLUB, "sheet": "pagat"}).get_json()
    assert posted["totals"] == body["totals"]


def test_an_exported_game_is_rescored_as_it_is_exported(client):
    """The export's sheet, sides (``{name, players}``) and deals go to rescore unchanged, and
    answer as the same game with its sides given by name."""
    game_id = club_game(client)
    document = client.get(f"/api/v1/games/{game_id}/export").get_json()
    assert all(isinstance(side, dict) for side in document["sides"])
    exported = {"sheet": document["sheet"], "sides": document["sides"],
                "deals": [entry["deal"] for entry in document["deals"]]}
    by_name = {**exported, "sides": [side["name"] for side in document["sides"]]}
    as_exported = client.post(f"{API}/rescore", json={"game": exported, "sheet": "pagat"})
    as_names = client.post(f"{API}/rescore", json={"game": by_name, "sheet": "pagat"})
    assert (as_exported.status_code, as_names.status_code) == (200, 200), as_exported.get_data(as_text=True)
    assert as_exported.get_json() == as_names.get_json()
    assert as_exported.get_json()["totals"] == client.get(
        f"{API}/games/{game_id}/rescore", query_string={"sheet": "pagat"}).get_json()["totals"]


def test_rescoring_one_deal_under_a_sheet_given_as_json(client):
    game_id = club_game(client)
    custom = json.dumps({"preset": "gather-together", "clean_book_bonus": 300})
    response = client.get(f"/games/{game_id}/rescore", query_string={"sheet_json": custom, "deal": "1"})
    assert response.status_code == 200
    text = text_of(response.get_data(as_text=True))
    # North-South's clean book of kings: 500 -> 300.
    assert "North-South: 1,155 → 955 (-200)" in text
    assert "East-West: -5 → -5 (no change)" in text
    assert "Clean books Rule: Clean book: 300 points 500 1 × 500 300 1 × 300 -200" in text
    body = client.get(f"{API}/games/{game_id}/rescore", query_string={"sheet": custom, "deal": "1"}).get_json()
    assert [s["difference"] for s in body["sides"]] == [-200, 0]


def test_rescoring_the_game_under_a_sheet_edited_on_the_page_gives_the_rescored_totals(client):
    """The club game's own sheet with a clean book worth 300, not 500: North-South's clean
    book of deal 1 and East-West's of deal 2 each lose 200, so 1,200 -> 1,000 and
    1,215 -> 1,015; East-West still wins."""
    game_id = club_game(client)
    start = client.get(f"/games/{game_id}/rescore", query_string={"sheet": "gather-together"})
    editor = form_on(start.get_data(as_text=True), "opt-clean_book_bonus")
    assert (editor["preset"], editor["opt-clean_book_bonus"], editor["deal"]) == ("gather-together", "500", "all")
    response = client.get(f"/games/{game_id}/rescore", query_string={**editor, "opt-clean_book_bonus": "300"})
    assert response.status_code == 200
    text = text_of(response.get_data(as_text=True))
    assert "North-South 1,200 1,000 -200" in text
    assert "East-West 1,215 1,015 -200" in text
    assert "Under Gather Together" in text and "(changed): East-West wins with 1,015. The result is the same." in text
    assert "Clean books Rule: Clean book: 300 points" in text
    assert "Deal 3: nothing changes" in text and "Deal 4: nothing changes" in text


def test_a_bad_value_in_the_rescore_pages_sheet_editor_is_a_400_naming_the_box(client):
    game_id = club_game(client)
    editor = form_on(client.get(f"/games/{game_id}/rescore").get_data(as_text=True), "opt-clean_book_bonus")
    response = client.get(f"/games/{game_id}/rescore", query_string={**editor, "opt-clean_book_bonus": "3OO"})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Clean book: must be a whole number, not '3OO'" in text_of(page)
    assert re.search(r'id="opt-clean_book_bonus" name="opt-clean_book_bonus" value="3OO"[^>]*aria-invalid="true"',
                     page)
    assert "The totals" not in page


def test_rescoring_a_posted_deal_shows_what_becomes_illegal(client):
    deal = json.loads((DATA / "deal-common.json").read_text())
    body = client.post(f"{API}/rescore", json={"deal": deal, "sheet": "pagat"}).get_json()
    assert [s["difference"] for s in body["sides"]] == [0, 0]
    assert {p["code"] for p in body["new_violations"]} == {"table.players", "table.sides", "went_out.books"}
    assert body["old_ok"] is True and body["new_ok"] is False


def test_the_rescore_page_without_a_sheet_offers_the_choice(client):
    game_id = club_game(client)
    response = client.get(f"/games/{game_id}/rescore")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'name="sheet"' in page and "The totals" not in page


# -- two sheets -----------------------------------------------------------------------------------------


def test_compare_pagat_with_common_on_the_page_lists_hand_size_13_against_11(client):
    response = client.get("/sheets/compare", query_string={"a": "pagat", "b": "common"})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert re.search(r"<caption>The cards and the deal</caption>.*?<th scope=\"row\">Cards in the hand</th>"
                     r"<td>13</td><td>11</td>", page, re.S)
    count = len(compare_sheets(preset("pagat"), preset("common")).options)
    assert f"They differ in {count} options, in 6 groups" in text_of(page)
    assert "Clean book" not in text_of(page)  # the same on both: not listed


def test_compare_through_the_api(client):
    body = client.get(f"{API}/compare", query_string={"a": "pagat", "b": "common"}).get_json()
    table = next(g for g in body["groups"] if g["id"] == "table")
    assert {"option": "hand_size", "label": "Cards in the hand", "a": "13", "b": "11"} in table["options"]
    same = client.get(f"{API}/compare", query_string={"a": "bicycle", "b": "bicycle"}).get_json()
    assert same["same"] is True and same["groups"] == []


def test_compare_a_sheet_with_itself_says_they_are_the_same(client):
    text = text_of(client.get("/sheets/compare?a=common&b=common").get_data(as_text=True))
    assert "These two sheets are the same in every option." in text


# -- bad input: a 400 naming the field, never a 500 -----------------------------------------------------

GAME_ID = "{game}"  # replaced by the club game's id

API_BAD = [
    ("POST", "meld", {"meld": "K K K"}, "sheet"),
    ("POST", "meld", {"sheet": "house", "meld": "K K K"}, "sheet"),
    ("POST", "meld", {"sheet": {"preset": "pagat", "hand_size": 0}, "meld": "K K K"}, "sheet.hand_size"),
    ("POST", "meld", {"sheet": "pagat"}, "meld"),
    ("POST", "meld", {"sheet": "pagat", "meld": ""}, "meld"),
    ("POST", "meld", {"sheet": "pagat", "meld": "K K X"}, "meld"),
    ("POST", "meld", {"sheet": "pagat", "meld": "K K Q"}, "meld"),
    ("POST", "meld", {"sheet": "pagat", "meld": {"rank": "K", "naturals": -3}}, "meld"),
    ("POST", "meld", {"sheet": "pagat", "meld": "K K K", "adding_to": 5}, "adding_to"),
    ("POST", "meld", {"sheet": "pagat", "meld": "K K K", "table": [1]}, "table[0]"),
    ("POST", "meld", {"sheet": "pagat", "meld": "K K K", "table": {"K": 3}}, "table"),
    ("POST", "meld", {"sheet": "pagat", "meld": "K K K", "colour": "red"}, "colour"),
    ("POST", "meld", {"sheet": "pagat", "game": GAME_ID, "meld": "K K K"}, "game"),
    ("POST", "go-out", {"sheet": "pagat"}, "books"),
    ("POST", "go-out", {"sheet": "pagat", "books": [1, 1]}, "books"),
    ("POST", "go-out", {"sheet": "pagat", "books": {"clean": -1}}, "books.clean"),
    ("POST", "go-out", {"sheet": "pagat", "books": {"clean": "2"}}, "books.clean"),
    ("POST", "go-out", {"sheet": "pagat", "books": {"gold": 1}}, "books.gold"),
    ("POST", "go-out", {"sheet": "pagat", "books": {}, "melds": ["K K K"]}, "books"),
    ("POST", "go-out", {"sheet": "pagat", "books": {}, "deal": 0}, "deal"),
    ("POST", "go-out", {"sheet": "pagat", "books": {}, "deal": "1"}, "deal"),
    ("POST", "go-out", {"sheet": "pagat", "books": {}, "last_card": "throw"}, "last_card"),
    ("POST", "go-out", {"sheet": "pagat", "books": {}, "permission": "yes"}, "permission"),
    ("POST", "go-out", {"sheet": "pagat", "books": {}, "foot_played": 1}, "foot_played"),
    ("POST", "go-out", {"sheet": "pagat", "books": {}, "partners_picked_up": "yes"}, "partners_picked_up"),
    ("POST", "go-out", {"sheet": "pagat", "books": {}, "partners_picked_up": [1]}, "partners_picked_up[0]"),
    ("POST", "go-out", {"sheet": "pagat", "melds": ["K K K", "Q J"]}, "melds[1]"),
    ("POST", "pile", {"sheet": "pagat", "pile_size": 3}, "top_card"),
    ("POST", "pile", {"sheet": "pagat", "top_card": "3", "pile_size": 3}, "top_card"),
    ("POST", "pile", {"sheet": "pagat", "top_card": 9, "pile_size": 3}, "top_card"),
    ("POST", "pile", {"sheet": "pagat", "top_card": "9"}, "pile_size"),
    ("POST", "pile", {"sheet": "pagat", "top_card": "9", "pile_size": -1}, "pile_size"),
    ("POST", "pile", {"sheet": "pagat", "top_card": "9", "pile_size": 3, "pair": 2.5}, "pair"),
    ("POST", "pile", {"sheet": "pagat", "top_card": "9", "pile_size": 3, "opened": "yes"}, "opened"),
    ("POST", "pile", {"sheet": "pagat", "top_card": "9", "pile_size": 3, "table": "K Q"}, "table[0]"),
    ("POST", "pile", {"sheet": "pagat", "top_card": "9", "pile_size": 3, "pile_has_wild": None}, "pile_has_wild"),
    ("POST", "minimum", {"sheet": "pagat"}, "melds"),
    ("POST", "minimum", {"sheet": "pagat", "melds": []}, "melds"),
    ("POST", "minimum", {"sheet": "pagat", "melds": ["K K K"], "top_card": "9"}, "top_card"),
    ("POST", "minimum", {"sheet": "pagat", "melds": ["K K K"], "buried": "2"}, "buried"),
    ("POST", "minimum", {"sheet": "pagat", "melds": ["K K K"], "buried": {"K": -1}}, "buried"),
    ("POST", "minimum", {"sheet": "pagat", "melds": ["K K K"], "running_total": "x"}, "running_total"),
    ("POST", "minimum", {"sheet": "pagat", "melds": ["K K K"], "side": "Ann"}, "side"),
    ("POST", "minimum", {"game": GAME_ID, "melds": ["K K K"], "side": "Nobody"}, "side"),
    ("POST", "minimum", {"game": 7, "melds": ["K K K"]}, "game"),
    ("POST", "rescore", {"sheet": "pagat"}, "deal"),
    ("POST", "rescore", {"sheet": "pagat", "deal": {}, "game": {}}, "deal"),
    ("POST", "rescore", {"deal": {"sheet": "common"}}, "sheet"),
    ("POST", "rescore", {"sheet": "pagat", "deal": {"sheet": "common", "deal": 1, "ending": "x"}}, "deal.ending"),
    ("POST", "rescore", {"sheet": "pagat", "deal": []}, "deal"),
    ("POST", "rescore", {"sheet": "pagat", "game": {"sheet": "common", "deals": [{"ending": "?"}]}},
     "game.deals[0].ending"),
    ("POST", "rescore", {"sheet": "pagat", "game": {"deals": []}}, "game.sheet"),
    ("POST", "rescore", {"sheet": "pagat", "game": {"sheet": "common", "sides": "Ann"}}, "game.sides"),
    ("POST", "rescore", {"sheet": "pagat", "game": {"sheet": "common", "sides": [5]}}, "game.sides[0]"),
    ("POST", "rescore", {"sheet": "pagat", "game": {"sheet": "common", "sides": ["Ann", {"players": ["Bea"]}]}},
     "game.sides[1].name"),
    ("POST", "rescore", {"sheet": "pagat", "game": {"sheet": "common", "sides": [{"name": "Ann", "players": "Ann"}]}},
     "game.sides[0].players"),
    ("POST", "rescore", {"sheet": "pagat", "game": {"sheet": "common", "sides": [{"name": "Ann", "players": [""]}]}},
     "game.sides[0].players[0]"),
    ("POST", "rescore", {"sheet": "pagat", "game": {"sheet": "common", "sides": [{"name": "Ann", "seat": 1}]}},
     "game.sides[0].seat"),
    ("POST", "explain", {}, "deal"),
    ("POST", "explain", {"deal": {"deal": 1}}, "deal.sheet"),
    ("GET", "compare?a=pagat", None, "b"),
    ("GET", "compare?b=pagat", None, "a"),
    ("GET", "compare?a=house&b=pagat", None, "a"),
    ("GET", "compare?a=pagat&b={bad", None, "b"),
    ("GET", 'compare?a=pagat&b={"preset":"pagat","decks":0}', None, "b.decks"),
    ("GET", f"games/{GAME_ID}/rescore", None, "sheet"),
    ("GET", f"games/{GAME_ID}/rescore?sheet=house", None, "sheet"),
    ("GET", f"games/{GAME_ID}/rescore?sheet=pagat&deal=x", None, "deal"),
]


@pytest.mark.parametrize("method, path, body, field", API_BAD, ids=[f"{m} {p} {f}" for m, p, _, f in API_BAD])
def test_bad_input_to_the_api_is_a_400_naming_the_field(asker, club, method, path, body, field):
    game_id = club if GAME_ID in path or (body and GAME_ID in body.values()) else None
    path = path.replace(GAME_ID, game_id or "")
    if body:
        body = {k: (game_id if v == GAME_ID else v) for k, v in body.items()}
    response = asker.open(f"{API}/{path}", method=method, json=body)
    assert response.status_code == 400, response.get_data(as_text=True)
    error = response.get_json()["error"]
    assert (error["status"], error["field"]) == (400, field)
    assert isinstance(error["message"], str) and error["message"]


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_body_that_is_not_a_json_object_is_a_400_without_a_field(asker, question):
    for data, kind in (("not json", "application/json"), ("[1]", "application/json"), ("", "application/json"),
                       ('{"sheet": "pagat"}', "text/plain")):
        response = asker.post(f"{API}/{question}", data=data, content_type=kind)
        assert response.status_code == 400
        assert response.get_json()["error"]["field"] is None


def test_unknown_games_and_deals_are_404s_in_the_one_error_shape(client):
    game_id = club_game(client)
    for method, path, body in (("GET", "games/nope/rescore?sheet=pagat", None),
                               ("GET", "games/nope/deals/1/explain", None),
                               ("GET", f"games/{game_id}/deals/9/explain", None),
                               ("GET", f"games/{game_id}/rescore?sheet=pagat&deal=9", None),
                               ("POST", "meld", {"game": "nope", "meld": "K K K"})):
        response = client.open(f"{API}/{path}", method=method, json=body)
        assert response.status_code == 404, path
        assert set(response.get_json()["error"]) == {"status", "field", "message"}


ODD_VALUES = [None, True, False, -1, 0, 10**9, 2.5, "", " ", "x", "K", "3", "2 2 2 2 2 2 2 2 2", "Kx9999",
              "K " * 400, [], [None], ["K K K", 5], {}, {"rank": "K"}, {"K": 3}, {"clean": 1}, "{", "; ;"]
FIELDS = {q: fields for q, fields in (("meld", ("meld", "adding_to", "table")),
                                      ("go-out", ("deal", "books", "melds", "foot_played", "partners_picked_up",
                                                  "permission", "last_card")),
                                      ("pile", ("deal", "top_card", "pair", "wilds", "opened", "pile_size",
                                                "pile_has_wild", "table")),
                                      ("minimum", ("deal", "melds", "top_card", "buried", "running_total")))}


@pytest.mark.parametrize("question", QUESTIONS)
def test_odd_values_in_any_field_are_answered_or_refused_naming_a_field_never_a_500(asker, question):
    base, _ = case(question, "pagat", True)
    for field in FIELDS[question]:
        for value in ODD_VALUES:
            body = {"sheet": "pagat", **base, field: value}
            response = asker.post(f"{API}/{question}", json=body)
            assert response.status_code in (200, 400), (field, value, response.get_data(as_text=True))
            if response.status_code == 400:
                assert response.get_json()["error"]["field"], (field, value)
            query = {"sheet": "pagat", "ask": question, **as_query(base),
                     field: value if isinstance(value, str) else json.dumps(value)}
            page = asker.get("/referee", query_string=query)
            assert page.status_code in (200, 400), (field, value)


PAGE_BAD = [
    ("/referee?sheet=house", "preset-choice", "'house' is not a preset"),
    # A sheet as JSON comes only in links now (the page has no box for it): its error heads the page.
    ('/referee?sheet_json={"preset":"common","book_size":2}', "error-summary", "sheet_json.book_size: must be from 3"),
    ("/referee?sheet_json={nope", "error-summary", "is not valid JSON"),
    ("/referee?sheet=common&ask=pile&top_card=3&pile_size=5", "pile-top-card", "a three is red (3R) or black (3B)"),
    ("/referee?sheet=common&ask=go-out&deal=0", "go-out-deal", "must be from 1 to 100, not 0"),
    ("/referee?sheet=common&ask=go-out&deal=2&books.clean=lots", "go-out-books-clean", "must be a whole number"),
    ("/referee?sheet=common&ask=minimum&melds=K+K+K&top_card=9", "minimum-top-card", "the melds hold no 9"),
    ("/referee?sheet=common&ask=minimum&melds=K+K+K%3B+Q+Q", "minimum-melds", None),
    ("/referee?sheet=common&ask=meld&meld=", "meld-meld", "is missing"),
    ("/referee?sheet=common&ask=meld&meld=K+K+K&table=K+K+K%3B+Q+J", "meld-table", "of one rank only"),
    ("/games/{game}/referee?ask=minimum&melds=K+K+K&side=Nobody", "minimum-side", "must be one of this game's sides"),
    ("/games/{game}/rescore?sheet=house", "preset-choice", "'house' is not a preset"),
    ("/games/{game}/rescore?sheet=pagat&deal=x", "other-deal", "must be a whole number"),
    ("/sheets/compare?a=house&b=common", "compare-a", "'house' is not a preset"),
]


@pytest.mark.parametrize("url, input_id, message", PAGE_BAD)
def test_bad_input_on_a_page_is_a_400_with_the_error_at_its_field(asker, club, url, input_id, message):
    if "{game}" in url:
        url = url.replace("{game}", club)
    response = asker.get(url)
    page = response.get_data(as_text=True)
    if url.endswith("Q+Q"):  # "Q Q" is too small a meld: a NO, not an error
        assert response.status_code == 200 and page_answer(page, "minimum")[0] is False
        return
    assert response.status_code == 400
    if message:
        assert message in text_of(page)
    if input_id == "compare-a":
        return  # the select still offers the presets; the error stands next to it
    if input_id == "error-summary":
        assert message in text_of(page.split('id="error-summary"', 1)[1].split("</div>", 1)[0])
        return
    assert re.search(rf'id="{input_id}"[^>]*aria-invalid="true"', page), f"{input_id} is not marked invalid"


def test_a_side_given_without_a_game_is_ignored_on_the_page_and_refused_by_the_api(client):
    page = client.get("/referee?sheet=common&ask=minimum&melds=K+K+K%3B+Q+Q+Q&side=Ann")
    assert page.status_code == 200 and page_answer(page.get_data(as_text=True), "minimum")[0] is True
    response = client.post(f"{API}/minimum", json={"sheet": "common", "melds": ["K K K"], "side": "Ann"})
    assert response.get_json()["error"]["field"] == "side"


def test_pages_for_unknown_games_and_deals_are_404s(client):
    game_id = club_game(client)
    for url in ("/games/nope/referee", "/games/nope/rescore?sheet=pagat", f"/games/{game_id}/deals/9/explain",
                f"/games/{game_id}/rescore?sheet=pagat&deal=9", "/games/" + "x" * 80 + "/referee"):
        assert client.get(url).status_code == 404, url


# -- every page: renders, one h1, every input labelled, nothing inline -----------------------------------


class _Audit(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.h1 = 0
        self.fields: list[tuple[str, str | None, str | None]] = []
        self.labels: set[str] = set()
        self.ids: list[str] = []
        self.inline: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"] or "")
        if "style" in a or tag == "style" or tag == "script" and "src" not in a:
            self.inline.append(tag)
        if any(name.startswith("on") for name in a):
            self.inline.append(f"{tag} handler")
        if tag == "h1":
            self.h1 += 1
        if tag == "label" and a.get("for"):
            self.labels.add(a["for"] or "")
        if tag in ("select", "textarea") or tag == "input" and a.get("type") not in ("hidden", "submit"):
            self.fields.append((tag, a.get("id"), a.get("aria-labelledby")))


def audit(page: str) -> None:
    found = _Audit()
    found.feed(page)
    assert found.h1 == 1
    assert not found.inline, found.inline
    assert len(found.ids) == len(set(found.ids)), "ids repeat"
    for tag, id_, labelled_by in found.fields:
        if labelled_by:  # a box of the sheet editor's tables: named by its row and its column
            assert set(labelled_by.split()) <= set(found.ids), f"{tag}#{id_} is labelled by ids not on the page"
            continue
        assert id_ and id_ in found.labels, f"{tag}#{id_} has no label"


def pages(game_id: str) -> list[str]:
    return ["/referee", "/referee?sheet=pagat", "/referee?sheet=pagat&ask=meld&meld=9+9+2",
            "/referee?sheet=house", "/sheets/compare", "/sheets/compare?a=pagat&b=common",
            f"/games/{game_id}/referee", f"/games/{game_id}/referee?ask=go-out&books.clean=9",
            f"/games/{game_id}/deals/1", f"/games/{game_id}/rescore",
            f"/games/{game_id}/rescore?sheet=pagat", f"/games/{game_id}/rescore?sheet=common&deal=2"]


def test_every_page_has_one_h1_labels_every_input_and_nothing_inline(client):
    game_id = club_game(client)
    for url in pages(game_id):
        response = client.get(url)
        assert response.status_code in (200, 400), url
        assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")
        audit(response.get_data(as_text=True))


def test_the_referee_pages_link_to_the_games_pages(client, app):
    game_id = club_game(client)
    page = client.get(f"/games/{game_id}/referee").get_data(as_text=True)
    with app.test_request_context():
        from flask import url_for
        assert f'href="{url_for("games.game", game_id=game_id)}"' in page
        assert f'href="{url_for("sheets.sheet", game_id=game_id)}"' in page
        for n in (1, 2, 3, 4):  # each deal's line leads to its page, which explains it
            assert f'href="{url_for("deals.deal", game_id=game_id, number=n)}"' in page


def test_the_question_forms_are_get_forms_carrying_the_chosen_sheet(client):
    page = client.get("/referee?sheet=bicycle").get_data(as_text=True)
    forms = re.findall(r'<form method="(\w+)" action="([^"]+)"', page)
    assert [m for m, _ in forms] == ["get"] * 6  # the preset chooser, the sheet editor, the four questions
    assert page.count('<input type="hidden" name="sheet" value="bicycle">') == 4
    assert 'name="csrf_token"' not in page


def test_the_api_needs_no_csrf_token_even_with_csrf_on(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    response = client.post(f"{API}/meld", json={"sheet": "pagat", "meld": "9 9 2"})
    assert response.status_code == 200 and response.get_json()["yes"] is True
    assert client.get("/referee?sheet=pagat&ask=meld&meld=9+9+2").status_code == 200
