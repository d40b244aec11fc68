"""The printed paper: real PDFs, built through the routes or scorepad.pdf, read back with pypdf
(and rendered with poppler's pdftoppm where the page itself is what matters)."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import segno
from flask import url_for
from pypdf import PdfReader

from scorepad.paper import common
from scorepad.paper.common import MARGIN, MIN_SIZE, GameInfo, load_fonts, printed_date
from scorepad.paper.house_rules import house_rules
from scorepad.paper.pad import score_pad
from scorepad.rules import OPTIONS, PRESETS, load_sheet
from scorepad.rules.game import Game
from tests.helpers import api_game

ROOT = Path(__file__).resolve().parents[2]
API = "/api/v1"
PAIRS = [{"name": "North-South", "players": ["Ann", "Cal"]}, {"name": "East-West", "players": ["Bea", "Dan"]}]
SCRIPT = "<script>alert(1)</script>"
needs_pdftoppm = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                    reason="pdftoppm (Debian package poppler-utils) is not installed, "
                                           "so the PDFs cannot be rendered to count their pages")

# A sheet with as much to say as a table could want: every per-deal option listed for twenty
# deals at their widest values, every rank a special book, ten opening bands, every card's
# value changed, partnerships of any size.
DEALS = 20
LONGEST = {
    "preset": "common", "min_players": 2, "max_players": 8, "side_sizes": [1, 2, 3, 4],
    "decks_rule": "fixed", "decks": 12, "jokers_per_deck": 4, "hand_size": 30, "foot_size": 30,
    "card_values": {card: 10_000 - i for i, card in
                    enumerate(["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "2", "JK", "3B"])},
    "cut_bonus": 100_000, "upcard": "bury-wild-red-three", "draws_per_turn": [10] * DEALS,
    "meld_min": 4, "book_size": 13, "book_growth": "naturals", "second_meld": "anytime", "wild_ratio": "at-least",
    "max_wilds": 12, "min_naturals_with_wilds": 12, "wild_books": True,
    "clean_book_bonus": 100_000, "dirty_book_bonus": 99_999, "wild_book_bonus": 99_998,
    "special_books": {rank: 100_000 for rank in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]},
    "going_out_bonus": [100_000 - i for i in range(DEALS)],
    "red_three_bonus": 100_000, "red_three_penalty_hand": 100_000, "red_three_penalty_foot": 100_000,
    "opening_by": "running-total", "opening_minimums": [10_000 - i for i in range(DEALS)],
    "opening_bands": [{"below": 100_000 + i * 10_000, "minimum": 10_000 - i} for i in range(10)] + [{"minimum": 9_999}],
    "opening_who": "side", "opening_pile_cards": "none", "pile_take": "top-if-full",
    "pile_cards": [200 - i for i in range(DEALS)], "pile_needs": "meld-top-card", "pile_needs_opened": False,
    "pile_blocked_by": ["black-three", "wild"], "pile_frozen_by_wild": True,
    "books_to_go_out": [{"clean": 20, "dirty": 20, "wild": 20}] * DEALS, "go_out_foot": False,
    "go_out_partner_foot": True, "go_out_permission": True, "last_card": "meld",
    "stock_out": "reshuffle", "game_length": "deals", "deals": DEALS, "target_score": 1_000_000,
}
# Eight sides of one, with names as long as the store allows.
EIGHT = GameInfo(
    "A game name as long as the store takes: 40",
    tuple((f"Side {i} with a name that is long enough", (f"Player {i} whose name is long enough",))
          for i in range(1, 9)),
    "http://scorepad.example.org:8000/games/AAAAAAAAAAAAAAAAAAAAAA", "28 September 2026")


# -- helpers ---------------------------------------------------------------------------------------


def norm(text: str) -> str:
    return " ".join(text.split())


def text_of(body: bytes) -> str:
    """Every page's text, whitespace collapsed (lines wrap anywhere)."""
    reader = PdfReader(io.BytesIO(body))
    return norm(" ".join(page.extract_text() for page in reader.pages))


def page_count(body: bytes) -> int:
    return len(PdfReader(io.BytesIO(body)).pages)


def rendered_pages(body: bytes, tmp_path: Path, name: str = "page") -> list[Path]:
    """Render with pdftoppm (low resolution) and return the PNG of each page."""
    source = tmp_path / f"{name}.pdf"
    source.write_bytes(body)
    subprocess.run(["pdftoppm", "-r", "24", "-png", str(source), str(tmp_path / name)], check=True,
                   capture_output=True, timeout=60)
    return sorted(tmp_path.glob(f"{name}-*.png"))


def font_sizes(body: bytes) -> set[float]:
    """The size of every piece of text drawn (reportlab draws text unscaled)."""
    sizes: set[float] = set()

    def visit(text, cm, tm, font, size):
        if text.strip():
            sizes.add(round(size * tm[3] * cm[3], 2))

    for page in PdfReader(io.BytesIO(body)).pages:
        page.extract_text(visitor_text=visit)
    return sizes


def new_game(client, sheet="pagat", sides=PAIRS, name="Friday night") -> tuple[str, str]:
    """A game made through the API, by default Friday night's partnerships on Pagat's sheet."""
    return api_game(client, name, sheet, sides)


def record(client, game_id: str, key: str, deal: dict, status: int = 201) -> None:
    response = client.post(f"{API}/games/{game_id}/deals", json=deal, headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == status, response.get_json()


def get_pdf(client, path: str) -> bytes:
    response = client.get(path)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF-")
    return response.data


@pytest.fixture
def four_deals():
    """tests/data/game-four-deals.json: Ann and Bea, four deals on the common sheet."""
    return json.loads((ROOT / "tests" / "data" / "game-four-deals.json").read_text())


@pytest.fixture
def played(client, four_deals):
    """That game, recorded through the API; returns (id, key, the rules' own Game)."""
    sides = [{"name": name, "players": [name]} for name in four_deals["sides"]]
    game_id, key = new_game(client, "common", sides, "Friday night")
    for deal in four_deals["deals"]:
        record(client, game_id, key, deal)
    return game_id, key, Game.from_json(four_deals)


@pytest.fixture
def restore_fonts():
    yield
    load_fonts.cache_clear()


# -- the house-rule sheet: what it says -------------------------------------------------------------


def assert_states_every_option(sheet, text: str) -> None:
    """Every option that applies, in plain words; none that another option makes moot."""
    missing = [o.name for o in OPTIONS if not sheet.unused(o.name) and o.name != "house_rules"
               and norm(sheet.describe(o.name)) not in text]
    missing += [f"house_rules[{i}]" for i, rule in enumerate(sheet.house_rules) if f"• {norm(rule)}" not in text]
    assert not missing, f"options not stated in plain words: {missing}"
    changed = {c.option for c in sheet.changes()}  # listed as changed, moot or not
    moot = [o.label for o in OPTIONS if sheet.unused(o.name) and o.name not in changed]
    assert not [label for label in moot if f"{label}:" in text], moot


@pytest.mark.parametrize("preset_id", sorted(PRESETS))
def test_the_house_rule_sheet_of_every_preset_states_every_option_its_title_source_and_silences(client, preset_id):
    text = text_of(get_pdf(client, f"/sheets/{preset_id}.pdf"))
    found = PRESETS[preset_id]
    assert_states_every_option(found.sheet, text)
    assert found.title in text and norm(str(found.source)) in norm(text)
    assert "sources/" not in text and ".txt" not in text  # the published source, not the project's file
    for option, note in found.not_stated.items():
        assert norm(note) in text, option
    for group in ("The cards and the deal", "Melds and wild cards", "Books and bonuses", "Red and black threes",
                  "Opening minimums", "Taking the pile", "Going out", "Scoring and game length"):
        assert group in text
    assert "CHANGED" not in text.replace("marked * CHANGED", "")


@pytest.mark.parametrize("options, moot", [
    ({"preset": "common"}, ["Decks (when fixed)", "Decks by number of players", "Cards in the knee",
                            "No wild card onto a clean book", "Mixed wild book", "Wild cards in a special book",
                            "First to meld", "Red three laid, side not out",
                            "Red three in a hand: when it costs", "Red three in a foot: when it costs",
                            "Minimum by running total", "Special books toward going out",
                            "Wild books toward going out", "Target score"]),
    ({"preset": "pagat", "game_length": "target", "pile_take": "whole"},
     ["Decks by number of players", "Cards in the knee", "No wild card onto a clean book", "Mixed wild book",
      "Wild cards in a special book", "First to meld", "Red three laid, side not out",
      "Red three in a hand: when it costs", "Minimum by running total",
      "Cards taken from the pile", "Special books toward going out", "Deals in a game"]),
    # issue 23: red threes held, what one laid earns is moot; a mixed wild book priced apart is said
    ({"preset": "pagat", "red_three_mode": "held", "red_three_penalty_hand": 500, "wild_book_mixed_bonus": 1300},
     ["Decks by number of players", "Cards in the knee", "No wild card onto a clean book",
      "Wild cards in a special book", "First to meld", "Red three laid", "Red three laid, side not out",
      "Minimum by running total", "Special books toward going out", "Target score"]),
])
def test_the_house_rule_sheet_leaves_out_options_another_option_makes_moot(options, moot):
    """The common preset counts decks from the players, plays four deals, takes its minimums
    by deal and names no special book, wild book or red-three penalty in a foot: the fixed
    number of decks, the table of decks, a target score, bands by running total and how such
    books count or when such a penalty applies are not printed (they were, marked "(not used)")."""
    sheet = load_sheet(options)
    text = text_of(house_rules(sheet))
    assert [o.label for o in OPTIONS if sheet.unused(o.name)] == moot
    for label in moot:
        assert f"{label}:" not in text, label
    assert "not used" not in text
    assert_states_every_option(sheet, text)


def test_the_house_rule_sheet_prints_the_card_value_table_marking_changed_values():
    text = text_of(house_rules(load_sheet({"preset": "pagat", "card_values": {"9": 5, "JK": 100}})))
    cards = ["JK", "2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3B"]
    values = ["100*", "20", "20", "10", "10", "10", "10", "5*", "10", "5", "5", "5", "5", "5"]
    # rows of card names, each followed by the row of their values; as many to a row as fit
    layouts = [" ".join(" ".join(cards[i:i + n] + values[i:i + n]) for i in range(0, 14, n)) for n in range(2, 8)]
    assert any(layout in text for layout in layouts)
    assert "JK: joker. 3B: black three" in text and "*: changed by this table" in text


def test_a_customised_sheet_states_every_option_and_marks_and_lists_what_it_changed(client):
    sheet = load_sheet({"preset": "pagat", "hand_size": 11, "red_three_penalty_foot": 300})
    game_id, _key = new_game(client, {"preset": "pagat", "hand_size": 11, "red_three_penalty_foot": 300})
    text = text_of(get_pdf(client, f"/games/{game_id}/sheet.pdf"))
    assert_states_every_option(sheet, text)
    assert "2 options changed by this table, marked * CHANGED" in text
    # listed first, preset value -> new value
    arrow = load_fonts().arrow  # "→", or "->" in a font without it
    assert f"Changed from the preset (2) * Cards in the hand: 13 {arrow} 11" in text
    assert f"* Red three in a foot never picked up: minus 100 points {arrow} minus 300 points" in text
    # and marked where they stand; an option left alone is not
    assert "* Cards in the hand: 11 CHANGED" in text
    assert "* Red three in a foot never picked up: minus 300 points CHANGED" in text
    assert re.search(r"Cards in the foot: 13 (?!CHANGED)", text)
    assert text.count("CHANGED") == 3  # the two options and the header's key


def test_a_game_sheet_names_the_sides_and_players_and_links_the_view_page(app, client):
    game_id, _key = new_game(client)
    text = text_of(get_pdf(client, f"/games/{game_id}/sheet.pdf"))
    assert "Friday night: house rules" in text
    assert "Sides: North-South (Ann, Cal); East-West (Bea, Dan)" in text
    for label in ("Ann (North-South)", "Cal (North-South)", "Bea (East-West)", "Dan (East-West)", "Date"):
        assert label in text  # under the lines to sign
    assert printed_date() in text
    with app.test_request_context():
        view = url_for("games.game", game_id=game_id, _external=True)
    assert view in text


@needs_pdftoppm
def test_the_qr_code_on_a_game_sheet_is_the_view_link(app, client, tmp_path):
    """Render the corner where the code is drawn and read its modules back."""
    game_id, _key = new_game(client)
    body = get_pdf(client, f"/games/{game_id}/sheet.pdf")
    with app.test_request_context():
        view = url_for("games.game", game_id=game_id, _external=True)
    matrix = segno.make(view, error="m").matrix
    scale = 4  # pixels per point at 288 dpi
    size, width = 74, 612
    left, top = (width - MARGIN - size) * scale, MARGIN * scale
    (tmp_path / "sheet.pdf").write_bytes(body)
    subprocess.run(["pdftoppm", "-r", "288", "-gray", "-x", str(int(left)), "-y", str(int(top)),
                    "-W", str(size * scale), "-H", str(size * scale), str(tmp_path / "sheet.pdf"),
                    str(tmp_path / "qr")], check=True, capture_output=True, timeout=60)
    image = next(tmp_path.glob("qr*.pgm")).read_bytes()
    header = re.match(rb"P5\s+(\d+)\s+(\d+)\s+255\s", image)
    w = int(header.group(1))
    pixels = image[header.end():]
    cell = size * scale / len(matrix)
    read = [[pixels[int((r + 0.5) * cell) * w + int((c + 0.5) * cell)] < 128 for c in range(len(matrix))]
            for r in range(len(matrix))]
    assert read == [[bool(v) for v in row] for row in matrix]


def test_a_preset_sheet_has_blank_lines_to_sign():
    text = text_of(house_rules(PRESETS["pagat"].sheet))
    assert "We agree to play by these rules: Player Player Player Player Date" in text


# -- the house-rule sheet: exactly one page -----------------------------------------------------------


@needs_pdftoppm
@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("preset_id", sorted(PRESETS))
def test_the_house_rule_sheet_of_every_preset_renders_on_exactly_one_page(client, tmp_path, preset_id, paper):
    body = get_pdf(client, f"/sheets/{preset_id}.pdf?paper={paper}")
    assert len(rendered_pages(body, tmp_path)) == 1


@needs_pdftoppm
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_sheet_with_the_most_to_say_renders_on_one_page_stating_everything_at_7pt_or_more(tmp_path, paper):
    sheet = load_sheet(LONGEST)
    body = house_rules(sheet, paper, EIGHT)
    assert len(rendered_pages(body, tmp_path)) == 1
    text = text_of(body)
    assert_states_every_option(sheet, text)  # nothing cut short
    assert len(sheet.changes()) == text.count("CHANGED") - 1
    for player in ("Player 1 whose name", "Player 8 whose name"):
        assert player in text
    assert min(font_sizes(body)) >= MIN_SIZE


@needs_pdftoppm
def test_even_a_sheet_no_table_could_play_stays_on_one_page(tmp_path):
    """Fifty-deal lists and twenty opening bands (the most a sheet may list): the longest values
    are cut short, marked …"""
    data = dict(LONGEST, game_length="target", draws_per_turn=[10] * 50, going_out_bonus=[99_999] * 50,
                opening_minimums=[9_999] * 50, pile_cards=[199] * 50,
                books_to_go_out=[{"clean": 20, "dirty": 20, "wild": 20}] * 50,
                opening_bands=[{"below": 100_000 + i, "minimum": 9_999} for i in range(19)] + [{"minimum": 1}])
    body = house_rules(load_sheet(data), "letter", EIGHT)
    assert len(rendered_pages(body, tmp_path)) == 1
    assert "…" in text_of(body)
    assert min(font_sizes(body)) >= MIN_SIZE


@needs_pdftoppm
def test_the_sheet_fits_one_page_with_the_fonts_that_ship_inside_reportlab(tmp_path, monkeypatch, restore_fonts):
    """Without DejaVu on the system, the wider Bitstream Vera still fits (smaller)."""
    monkeypatch.setattr(common, "FONT_DIRS", [])
    load_fonts.cache_clear()
    assert load_fonts().regular.startswith("SPVera")
    sheet = load_sheet(LONGEST)
    for paper in ("letter", "a4"):
        body = house_rules(sheet, paper, EIGHT)
        assert len(rendered_pages(body, tmp_path, paper)) == 1
        assert_states_every_option(sheet, text_of(body))
    assert "Cards in the hand: 13 -> 11" in text_of(house_rules(load_sheet({"preset": "pagat", "hand_size": 11})))


@pytest.mark.parametrize("paper, size", [("letter", (612, 792)), ("a4", (595, 842)), ("A4", (595, 842))])
def test_paper_is_letter_by_default_or_a4(client, paper, size):
    game_id, _key = new_game(client)
    for path in (f"/games/{game_id}/sheet.pdf", f"/games/{game_id}/pad.pdf", f"/games/{game_id}/results.pdf",
                 "/sheets/bicycle.pdf", "/sheets/bicycle/pad.pdf"):
        for query in ([f"?paper={paper}"] + ([""] if paper == "letter" else [])):
            box = PdfReader(io.BytesIO(get_pdf(client, path + query))).pages[0].mediabox
            assert (round(float(box.width)), round(float(box.height))) == size, path + query


def test_a_bad_paper_is_refused_naming_it(client):
    game_id, _key = new_game(client)
    for path in (f"/games/{game_id}/sheet.pdf", f"/games/{game_id}/pad.pdf", f"/games/{game_id}/results.pdf",
                 "/sheets/pagat.pdf", "/sheets/pagat/pad.pdf"):
        response = client.get(path + "?paper=legal")
        assert response.status_code == 400
        assert "legal" in response.get_data(as_text=True) and "a4" in response.get_data(as_text=True)


# -- the score pad ------------------------------------------------------------------------------------------


def test_the_pad_has_a_block_per_deal_with_its_minimum_and_going_out_requirement(client):
    text = text_of(get_pdf(client, "/sheets/pagat/pad.pdf"))
    at = 0
    for number, minimum in zip(range(1, 5), (50, 90, 120, 150), strict=True):
        block = (f"Deal {number} Side 1 Side 2 Opening minimum {minimum} (the side, once). "
                 "To go out: 2 clean + 2 dirty + 1 wild books. Going out +100.")
        found = text.find(block, at)
        assert found > at, block
        at = found
    assert "Deal 5" not in text
    assert text.count("Running total") == 4


def test_the_pad_has_the_lines_this_sheet_scores():
    pagat = text_of(score_pad(load_sheet({"preset": "pagat", "red_three_penalty_foot": 300})))
    for line in ("Melded card points", "Clean books × 500", "Dirty books × 300", "Wild books × 1,500",
                 "Red threes laid × 100", "Going out (+100)", "Cards left in hands and feet (minus)",
                 "Red threes in an unopened foot × -300", "Deal total", "Running total"):
        assert pagat.count(line) == 4, line
    common = text_of(score_pad(load_sheet({"preset": "common", "special_books": {"7": 1000},
                                                "cut_bonus": 100, "red_three_penalty_hand": 500})))
    assert "Wild books" not in common and "unopened foot" not in common
    for line in ("Clean books of 7s × 1,000", "Cut bonus (+100)", "Red threes left in a hand × -500"):
        assert common.count(line) == 4, line


def test_the_pad_follows_per_deal_schedules_and_target_games():
    sheet = load_sheet({"preset": "common", "going_out_bonus": [100, 200, 300, 400],
                        "books_to_go_out": [{"clean": 1, "dirty": 1}, {"clean": 2, "dirty": 1},
                                            {"clean": 2, "dirty": 2}, {"clean": 3, "dirty": 2}]})
    text = text_of(score_pad(sheet))
    for books, bonus in (("1 clean + 1 dirty", 100), ("2 clean + 1 dirty", 200),
                         ("2 clean + 2 dirty", 300), ("3 clean + 2 dirty", 400)):
        assert f"To go out: {books} books. Going out +{bonus}." in text
        assert f"Going out (+{bonus})" in text
    target = text_of(score_pad(load_sheet({"preset": "common", "game_length": "target"})))
    assert "Deal 6" in target and "Deal 7" not in target and "Play to 10,000" in target
    bands = text_of(score_pad(load_sheet({"preset": "common", "opening_by": "running-total"})))
    assert "Opening minimum by the side's total before the deal (each player): below 2,500: 50;" in bands


def test_a_game_pad_has_a_column_per_side_with_its_players(client):
    game_id, _key = new_game(client)
    text = text_of(get_pdf(client, f"/games/{game_id}/pad.pdf"))
    assert "Friday night: score pad" in text
    assert text.count("Deal 1 North-South Ann, Cal East-West Bea, Dan") == 1
    assert text.count("North-South Ann, Cal East-West Bea, Dan") == 4


def test_a_pad_for_many_sides_turns_the_page(client):
    body = get_pdf(client, "/sheets/common/pad.pdf?sides=6")
    box = PdfReader(io.BytesIO(body)).pages[0].mediabox
    assert float(box.width) > float(box.height)
    assert "Side 6" in text_of(body)
    assert client.get("/sheets/common/pad.pdf?sides=9").status_code == 400


# -- results -------------------------------------------------------------------------------------------------


def test_the_results_total_equal_the_games_and_name_the_winner(client, played):
    game_id, _key, game = played
    text = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    result = game.result()
    assert result.over and result.winner == "Bea"
    assert f"Bea wins with {result.standings[0].total:,}." in text
    running = game.running_totals()
    for number, (verdict, totals) in enumerate(zip(game.verdicts, running, strict=True), 1):
        scores = verdict.breakdown.totals()
        row = f"Deal {number} " + " ".join(f"{scores[s]:,} {load_fonts().arrow} {totals[s]:,}"
                                           for s in game.sides)
        assert row in text
    final = game.totals()
    assert f"Total {final['Ann']:,} {final['Bea']:,} (winner)" in text


def test_the_results_itemise_every_line_of_every_deal(client, played):
    game_id, _key, game = played
    text = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    at = 0
    for number, (verdict, totals) in enumerate(zip(game.verdicts, game.running_totals(), strict=True), 1):
        at = text.index(f"Deal {number}: ", at)
        for side in verdict.breakdown.sides:
            lines = " ".join(f"{norm(line.label)} {line.count:,} × {line.each:,} = {line.points:,}"
                             for line in side.lines)
            assert f"{side.name} {lines} Deal total {side.total:,} Running total {totals[side.name]:,}" in text
    assert "Deal 1: Ann went out" in text and "Deal 2: the stock ran out" in text


def test_the_results_show_deals_saved_as_played_and_amendments(client):
    game_id, key = new_game(client, "common", [{"name": "Ann", "players": ["Ann"]},
                                               {"name": "Bea", "players": ["Bea"]}])
    bad = {"ending": "stock_out",
           "sides": [{"name": "Ann", "melds": ["K K K"], "players": [{"name": "Ann", "foot_picked_up": True}]},
                     {"name": "Bea", "melds": ["Q Q 2 2"], "players": [{"name": "Bea", "foot_picked_up": True}]}]}
    record(client, game_id, key, {**bad, "as_played": {"reason": "Bea's meld stood, we agreed"}})
    response = client.put(f"{API}/games/{game_id}/sheet", headers={"Authorization": f"Bearer {key}"},
                          json={"sheet": {"preset": "common", "going_out_bonus": 200}, "reason": "We pay 200"})
    assert response.status_code == 200, response.get_json()
    text = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    assert re.search(r"Game in progress: 1 deal recorded of 4; "
                     r"(\S+ leads by [0-9,]+ over \S+|Ann and Bea are level at \S+)\.", text)
    assert "Deal 1 (as played)" in text and "Deal 1: the stock ran out (saved as played)" in text
    assert "Deal 1: Bea's meld stood, we agreed. The referee found:" in text
    assert f"We pay 200. Changed: Going out: 100 points {load_fonts().arrow} 200 points" in text


def test_a_tie_is_printed_as_a_tie(client):
    game_id, key = new_game(client, {"preset": "common", "deals": 1},
                            [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}])
    record(client, game_id, key, {"ending": "stock_out", "sides": [
        {"name": "Ann", "melds": ["K K K"], "players": [{"name": "Ann", "foot_picked_up": True}]},
        {"name": "Bea", "melds": ["Q Q Q"], "players": [{"name": "Bea", "foot_picked_up": True}]}]})
    text = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    assert "A tie at 30 between Ann, Bea." in text and "Total 30 (tie) 30 (tie)" in text


# -- the web side ----------------------------------------------------------------------------------------------


def test_the_filename_carries_the_game_name(client):
    game_id, _key = new_game(client, name="Friday night")
    for path, what in (("sheet.pdf", "house rules"), ("pad.pdf", "score pad"), ("results.pdf", "results")):
        header = client.get(f"/games/{game_id}/{path}").headers["Content-Disposition"]
        assert f'filename="Friday night - {what}.pdf"' in header
        assert f"filename*=UTF-8''Friday%20night%20-%20{what.replace(' ', '%20')}.pdf" in header
    header = client.get("/sheets/gather-together.pdf").headers["Content-Disposition"]
    assert 'filename="Gather Together Games - house rules.pdf"' in header


def test_a_filename_is_sanitised_with_an_ascii_fallback(client):
    game_id, _key = new_game(client, name='Zoë\'s "café" / table: 2')
    header = client.get(f"/games/{game_id}/sheet.pdf").headers["Content-Disposition"]
    assert header.startswith("inline; ")
    assert 'filename="Zoe\'s cafe table 2 - house rules.pdf"' in header
    assert "filename*=UTF-8''Zo%C3%AB%27s%20caf%C3%A9%20table%202%20-%20house%20rules.pdf" in header


def test_names_with_markup_are_printed_literally(client):
    sides = [{"name": SCRIPT, "players": [SCRIPT]}, {"name": "Tom & <b>Jerry</b>", "players": ["Tom & <b>Jerry</b>"]}]
    game_id, key = new_game(client, "common", sides, name="<i>Friday</i> & co")
    record(client, game_id, key, {"ending": "went_out", "went_out": SCRIPT, "sides": [
        {"name": SCRIPT, "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"],
         "players": [{"name": SCRIPT, "foot_picked_up": True}]},
        {"name": "Tom & <b>Jerry</b>", "melds": ["J J J"],
         "players": [{"name": "Tom & <b>Jerry</b>", "foot_picked_up": True, "cards_left": "A"}]}]})
    for path in ("sheet.pdf", "pad.pdf", "results.pdf"):
        text = text_of(get_pdf(client, f"/games/{game_id}/{path}"))
        assert SCRIPT in text and "Tom & <b>Jerry</b>" in text and "<i>Friday</i> & co" in text, path
    text = text_of(get_pdf(client, f"/games/{game_id}/results.pdf"))
    assert f"Deal 1: {SCRIPT} went out" in text and "Tom & <b>Jerry</b>'s hand: A 1 × -20 = -20" in text


def test_viewers_without_edit_rights_may_download_every_pdf(app, client):
    game_id, _key = new_game(client)
    viewer = app.test_client()  # another phone: no edit key in its session
    for path in ("sheet.pdf", "pad.pdf", "results.pdf"):
        assert viewer.get(f"/games/{game_id}/{path}").status_code == 200


def test_an_unknown_game_or_preset_is_a_friendly_404(client):
    for path in ("/games/nope/sheet.pdf", "/games/nope/pad.pdf", "/games/nope/results.pdf",
                 "/sheets/house.pdf", "/sheets/house/pad.pdf", "/games/" + "x" * 100 + "/sheet.pdf"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.mimetype == "text/html"
    body = client.get("/sheets/house.pdf").get_data(as_text=True)
    assert "house" in body and "pagat" in body


def test_a_pdf_is_shown_inline_with_a_policy_a_browser_viewer_can_live_with(client):
    response = client.get("/sheets/pagat.pdf")
    assert response.headers["Content-Disposition"].startswith("inline;")
    policy = response.headers["Content-Security-Policy"]
    assert "object-src 'self'" in policy and "frame-ancestors 'self'" in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
