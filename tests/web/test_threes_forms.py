"""The deal form and the deal's page under issue 23's red threes and small bonuses: no "Red
threes laid" box where red threes are held (counted or itemised), a "mixed wild" box where
the sheet prices a mixed wild book apart, and a choice of who laid down first only on a
sheet with a bonus for it; the sheet editor, the score pad and the house-rule sheet show the
new options as the catalogue says."""

from __future__ import annotations

import io
import json

from markupsafe import escape
from pypdf import PdfReader

from scorepad.rules import load_sheet
from tests import json_writes as writing
from tests.helpers import api_game, form_fields, grant, text_of
from tests.web.test_pages import fields, load, text
from tests.web.test_sheet_editor import create, game_of

HELD = {"preset": "common", "red_three_mode": "held", "red_three_penalty_hand": 500}
APP = {"preset": "common", "wild_books": True, "wild_book_mixed_bonus": 1300, "first_meld_bonus": 100}


def deal_form(client, sheet) -> tuple[str, str, str]:
    """A new game of Ann v Bea under ``sheet``, its edit link opened: (id, page, action)."""
    game_id, key = api_game(client, sheet=sheet)
    grant(client, game_id, key)
    action = f"/games/{game_id}/deals/new"
    return game_id, client.get(action).get_data(as_text=True), action


def totals(client, game_id: str) -> dict[str, int]:
    return {s["name"]: s["total"] for s in client.get(f"/api/v1/games/{game_id}").get_json()["standings"]}


def pdf_text(data: bytes) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split())


def test_a_held_sheet_has_no_red_threes_laid_box_counted_or_itemised(client):
    game_id, page, action = deal_form(client, HELD)
    assert 'name="s0-red_threes"' not in page and "Red threes laid" not in page
    assert 'name="s0-p0-red_left"' in page  # red threes still in a hand: their penalty
    itemised = client.post(action, data=dict(form_fields(page, action), action="itemise-s0")).get_data(as_text=True)
    assert 'name="s0-m0-rank"' in itemised and 'name="s0-red_threes"' not in itemised
    # the near twin: where red threes are laid, both forms have the box
    _, laid, laid_action = deal_form(client, "common")
    assert 'name="s0-red_threes"' in laid and 'name="s1-red_threes"' in laid
    itemised = client.post(laid_action, data=dict(form_fields(laid, laid_action), action="itemise-s0"))
    assert 'name="s0-red_threes"' in itemised.get_data(as_text=True)


def test_a_red_three_in_a_hand_on_a_held_sheet_is_saved_with_its_penalty_and_no_warning(client):
    game_id, page, action = deal_form(client, HELD)
    form = dict(form_fields(page, action), action="check", ending="s0-p0")
    form.update({"s0-b-clean": "1", "s0-b-dirty": "1", "s0-points": "120", "s1-points": "30", "s1-p0-pts": "20",
                 "s1-p0-red_left": "1"})
    checked = client.post(action, data=form).get_data(as_text=True)
    assert "laid at once" not in checked and "still holds a red three" not in checked
    saved = client.post(action, data=dict(form, action="save"))
    assert saved.status_code == 303, text_of(saved.get_data(as_text=True))[:400]
    deal = client.get(f"/api/v1/games/{game_id}/deals/1").get_json()
    assert deal["report"]["warnings"][0]["code"] == "counted.unchecked"
    assert "red_three.in_hand" not in [w["code"] for w in deal["report"]["warnings"]]
    # Bea: 30 melded, 20 left, the red three -500
    assert totals(client, game_id)["Bea"] == 30 - 20 - 500


def test_a_held_deal_that_laid_red_threes_shows_the_box_to_correct_it(client):
    game_id, key = api_game(client, sheet=HELD, deals=())
    grant(client, game_id, key)
    body = {"deal": 1, "ending": "stock_out", "as_played": {"reason": "we laid them"}, "sides": [
        {"name": "Ann", "melds": ["K K K"], "red_threes": 1, "players": [{"name": "Ann", "foot_picked_up": True}]},
        {"name": "Bea", "melds": ["Q Q Q"], "players": [{"name": "Bea", "foot_picked_up": True}]}]}
    saved = client.post(f"/api/v1/games/{game_id}/deals", json=body, headers={"Authorization": f"Bearer {key}"})
    assert saved.status_code == 201, saved.get_json()
    assert saved.get_json()["report"]["violations"][0]["code"] == "red_three.laid"
    edit = client.get(f"/games/{game_id}/deals/1/edit").get_data(as_text=True)
    assert 'name="s0-red_threes" aria-label="Ann: red threes laid" value="1"' in edit
    assert 'name="s1-red_threes"' not in edit


def test_the_first_to_lay_down_is_a_choice_of_player_only_where_the_sheet_has_a_bonus(client):
    game_id, page, action = deal_form(client, APP)
    assert 'name="first_meld"' in page and "First to lay down (+100)" in page
    form = dict(form_fields(page, action), action="save", ending="s0-p0", first_meld="s1-p0")
    form.update({"s0-b-clean": "1", "s0-b-dirty": "1", "s0-points": "120", "s1-points": "30"})
    saved = client.post(action, data=form)
    assert saved.status_code == 303, text_of(saved.get_data(as_text=True))[:400]
    deal = client.get(f"/api/v1/games/{game_id}/deals/1").get_json()["deal"]
    assert deal["first_meld"] == "Bea"
    # Bea: 30 melded, first to meld 100
    assert totals(client, game_id)["Bea"] == 30 + 100
    shown = text_of(client.get(f"/games/{game_id}/deals/1").get_data(as_text=True))
    assert "Bea laid down first." in shown and "First to meld" in shown
    edit = f"/games/{game_id}/deals/1/edit"
    assert form_fields(client.get(edit).get_data(as_text=True), edit)["first_meld"] == "s1-p0"
    _, common, _ = deal_form(client, "common")  # the near twin: no bonus, no choice
    assert 'name="first_meld"' not in common


def test_a_mixed_wild_box_only_where_the_sheet_prices_mixed_wild_books(client):
    game_id, page, action = deal_form(client, APP)
    assert 'name="s0-b-wild_mixed"' in page and "Mixed wild books" in page
    form = dict(form_fields(page, action), action="save", ending="s0-p0")
    form.update({"s0-b-clean": "1", "s0-b-dirty": "1", "s0-b-wild_mixed": "1", "s0-points": "290",
                 "s1-points": "30"})
    saved = client.post(action, data=form)
    assert saved.status_code == 303, text_of(saved.get_data(as_text=True))[:400]
    deal = client.get(f"/api/v1/games/{game_id}/deals/1").get_json()["deal"]
    assert deal["sides"][0]["books"]["wild_mixed"] == 1
    # Ann: 290 melded + clean 500 + dirty 300 + mixed wild 1300 + going out 100
    assert totals(client, game_id)["Ann"] == 290 + 500 + 300 + 1300 + 100
    assert "1 mixed wild" in text_of(client.get(f"/games/{game_id}/deals/1").get_data(as_text=True))
    _, plain, _ = deal_form(client, {"preset": "common", "wild_books": True})
    assert 'name="s0-b-wild"' in plain and 'name="s0-b-wild_mixed"' not in plain


EVERY_NEW = {"preset": "common", "red_three_mode": "held", "red_three_bonus_not_out": 50,
             "red_three_penalty_hand": 500, "red_three_penalty_hand_when": "opponents-out", "wild_books": True,
             "wild_book_mixed_bonus": 1300, "first_meld_bonus": 100}


def test_the_sheet_editor_offers_every_new_option_and_reads_it_back(client, app):
    page = client.get("/new?preset=common").get_data(as_text=True)
    for name in ("red_three_mode", "red_three_bonus_not_out", "red_three_penalty_hand_when", "wild_book_mixed_bonus",
                 "first_meld_bonus"):
        assert f'name="opt-{name}"' in page, name
    assert 'value="held"' in page and 'value="opponents-out"' in page
    sheet = load_sheet(EVERY_NEW)
    with app.test_request_context():
        game = writing.create_game("Custom", sheet.to_json(), [{"name": "A", "players": ["A"]},
                                                             {"name": "B", "players": ["B"]}])
    client.get(f"/games/{game.id}/edit/{game.edit_key}")
    data = fields(text(client.get(f"/games/{game.id}/sheet/amend")), action=f"/games/{game.id}/sheet/amend")
    assert load(app, game_of(create(client, data, sheet))).sheet == sheet
    compare = client.get("/sheets/compare", query_string={"a": json.dumps(EVERY_NEW), "b": "common"})
    assert compare.status_code == 200
    for name in ("red_three_mode", "red_three_bonus_not_out", "red_three_penalty_hand_when", "wild_book_mixed_bonus",
                 "first_meld_bonus"):
        assert str(escape(sheet.cite(name).label)) in compare.get_data(as_text=True), name


def itemised(client, sheet) -> str:
    _, page, action = deal_form(client, sheet)
    return client.post(action, data=dict(form_fields(page, action), action="itemise-s0")).get_data(as_text=True)


def test_the_deal_form_says_when_a_red_three_in_a_hand_costs(client):
    assert "Red threes, minus 500 if another side goes out" in itemised(
        client, {**HELD, "red_three_penalty_hand_when": "opponents-out"})
    assert "Red threes, minus 500<" in itemised(client, HELD)


def test_the_pad_and_the_house_rules_leave_the_laid_bonus_off_a_held_sheet(client):
    held_id, _ = api_game(client, sheet=HELD)
    laid_id, _ = api_game(client, sheet={"preset": "common", "red_three_bonus_not_out": 50, **APP})
    held_pad = pdf_text(client.get(f"/games/{held_id}/pad.pdf").data)
    laid_pad = pdf_text(client.get(f"/games/{laid_id}/pad.pdf").data)
    assert "Red threes laid" not in held_pad and "Red threes left in a hand" in held_pad
    assert "Red threes laid × 100" in laid_pad and "Red threes laid, side not out × 50" in laid_pad
    assert "Mixed wild books × 1,300" in laid_pad and "First to meld (+100)" in laid_pad
    held_rules = pdf_text(client.get(f"/games/{held_id}/sheet.pdf").data)
    assert "Red threes: never laid" in held_rules
    assert "Red three laid:" not in held_rules and "Red three laid, side not out:" not in held_rules
    laid_rules = pdf_text(client.get(f"/games/{laid_id}/sheet.pdf").data)
    assert "Red three laid, side not out: 50 points" in laid_rules
    assert "Mixed wild book: 1,300 points" in laid_rules and "First to meld: 100 points" in laid_rules
    assert client.get(f"/api/v1/games/{held_id}").get_json()["sheet"]["red_three_mode"] == "held"
