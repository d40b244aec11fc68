"""The command line's referee: ``scorepad referee meld|go-out|pile|minimum``, ``scorepad compare``
and ``scorepad rescore``. Exit status: 0 yes (or nothing new against the rules), 1 no (or
something illegal under the other sheet), 2 input that cannot be read (a message naming it)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from scorepad.cli.scorepad_command import main
from scorepad.rules import Meld, preset
from scorepad.rules.catalogue import OPTION_BY_NAME
from scorepad.rules.dispute import rescore_game, sheet_name
from scorepad.rules.game import Game
from scorepad.rules.questions import ask_go_out
from scorepad.rules.rulings import can_meld
from tests.api.test_rescore_export import BY_HAND, exported_game

DATA = Path(__file__).parent.parent / "data"
CLUB = DATA / "game-club-gather-together.json"  # gather-together: North-South 1,200, East-West 1,215
COMMON_DEAL = DATA / "deal-common.json"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main([str(a) for a in argv], out=out)
    return code, out.getvalue()


def rule(preset_id: str, option: str) -> str:
    return f"rule: {OPTION_BY_NAME[option].label}: {preset(preset_id).describe(option)}"


# -- the four questions ----------------------------------------------------------------------------

# (arguments, exit status, option the answer must cite) for each preset, a yes and a no.
ASKED = [
    (("meld", "--sheet", "common", "Q Q 2"), 0, "wild_ratio"),
    (("meld", "--sheet", "common", "Q Q 2 2"), 1, "wild_ratio"),
    (("meld", "--sheet", "pagat", "9 9 2"), 0, "wild_ratio"),
    (("meld", "--sheet", "pagat", "9 9 9 2 2"), 1, "wild_ratio"),
    (("meld", "--sheet", "bicycle", "2", "--adding-to", "Q Q Q Q"), 0, "wild_ratio"),
    (("meld", "--sheet", "bicycle", "Q Q Q 2"), 1, "min_naturals_with_wilds"),
    (("meld", "--sheet", "gather-together", "K K K", "--table", "Q Q Q; K K K K K K K"), 0, "meld_min"),
    (("meld", "--sheet", "gather-together", "K K K", "--table", "K K K K"), 1, "second_meld"),
    (("go-out", "--sheet", "common", "--books", "1,1"), 0, "books_to_go_out"),
    (("go-out", "--sheet", "common", "--books", "1,1", "--foot-not-played"), 1, "go_out_foot"),
    (("go-out", "--sheet", "pagat", "--books", "2,2,1", "--partner-foot", "yes", "--permission", "yes"), 0,
     "go_out_permission"),
    (("go-out", "--sheet", "pagat", "--melds", "K K K K K K K; Q Q Q Q Q 2 2"), 1, "books_to_go_out"),
    (("go-out", "--sheet", "bicycle", "--books", "1,1", "--last-card", "discard"), 0, "last_card"),
    (("go-out", "--sheet", "bicycle", "--books", "1,1", "--last-card", "meld"), 1, "last_card"),
    (("go-out", "--sheet", "gather-together", "--books", "1,1", "--partner-foot", "yes"), 0, "go_out_partner_foot"),
    (("go-out", "--sheet", "gather-together", "--books", "1,1", "--partner-foot", "no"), 1, "go_out_partner_foot"),
    (("go-out", "--sheet", "pagat", "--books", "2,2,1", "--partner-foot", "yes", "--partner-played", "no",
      "--permission", "yes"), 1, "go_out_partner_foot"),
    (("pile", "--sheet", "common", "9", "--pair", "2", "--pile-size", "7", "--opened"), 0, "pile_take"),
    (("pile", "--sheet", "common", "9", "--pair", "2", "--pile-size", "7"), 1, "pile_needs_opened"),
    # 5 nines on the table + the pair + the top card = 8, past a book; 4 + 3 = 7 makes the book.
    (("pile", "--sheet", "common", "9", "--pair", "2", "--pile-size", "7", "--opened", "--table", "K K K; 9 9 9 9 9"),
     1, "second_meld"),
    (("pile", "--sheet", "common", "9", "--pair", "2", "--pile-size", "7", "--opened", "--table", "K K K; 9 9 9 9"),
     0, "second_meld"),
    (("pile", "--sheet", "pagat", "9", "--pair", "2", "--pile-size", "3"), 0, "pile_cards"),
    (("pile", "--sheet", "pagat", "3R", "--pair", "2", "--pile-size", "3"), 1, "pile_blocked_by"),
    (("pile", "--sheet", "bicycle", "9", "--pair", "2", "--pile-size", "3"), 0, "pile_needs"),
    (("pile", "--sheet", "bicycle", "9", "--pair", "1", "--wilds", "1", "--pile-size", "3"), 1, "pile_needs"),
    (("pile", "--sheet", "gather-together", "2", "--pile-size", "9", "--table", "K K K K"), 0, "pile_needs"),
    (("pile", "--sheet", "gather-together", "3B", "--pair", "2", "--pile-size", "9"), 1, "pile_blocked_by"),
    (("minimum", "--sheet", "common", "K K K", "Q Q Q"), 0, "opening_minimums"),
    (("minimum", "--sheet", "common", "--deal", "3", "K K K", "Q Q Q"), 1, "opening_minimums"),
    # Common: the pile waits for the first melds, so its top 9 never counts: 40 from the hand.
    (("minimum", "--sheet", "common", "9 9 9", "5 5 5 5", "--top-card", "9"), 1, "pile_needs_opened"),
    (("minimum", "--sheet", "pagat", "9 9 9 2", "--top-card", "9"), 0, "opening_pile_cards"),
    (("minimum", "--sheet", "pagat", "9 9 9 2", "--top-card", "9", "--buried", "2"), 1, "opening_minimums"),
    (("minimum", "--sheet", "bicycle", "--deal", "2", "A A A", "K K K"), 0, "opening_minimums"),
    (("minimum", "--sheet", "bicycle", "9 9 9 2", "--top-card", "9"), 1, "min_naturals_with_wilds"),
    (("minimum", "--sheet", "gather-together", "9 9 9", "5 5 5 5", "--top-card", "9"), 0, "opening_pile_cards"),
    (("minimum", "--sheet", "gather-together", "--deal", "2", "K K K", "Q Q Q"), 1, "opening_minimums"),
]


@pytest.mark.parametrize("args, status, option", ASKED, ids=[" ".join(a) for a, _, _ in ASKED])
def test_each_question_answers_yes_or_no_with_the_rule_it_rests_on(args, status, option):
    code, out = run("referee", *args)
    assert code == status
    lines = out.splitlines()
    preset_id = args[args.index("--sheet") + 1]
    assert lines[0] == f"Under {sheet_name(preset(preset_id))}:"
    assert lines[1].startswith("YES: " if status == 0 else "NO: ")
    assert rule(preset_id, option) in out
    if status:
        assert lines[2].startswith("  [NOT MET] ")


def test_the_json_answer_is_the_apis_answer():
    code, out = run("referee", "meld", "--sheet", "pagat", "9 9 9 2 2", "--json")
    assert code == 1
    sheet = preset("pagat")
    assert json.loads(out) == can_meld(sheet, Meld.from_json("9 9 9 2 2")).to_json(sheet)


def test_a_book_grown_with_naturals_holds_no_more_wilds_than_a_book_new_or_added_to(tmp_path):
    # Bicycle, books growing with naturals only: a book of 7 holds at most 3 wilds, so
    # 8 8 8 8 2 2 JK JK (4 wilds in 8) is refused as a new meld, as adding the 2 is.
    path = tmp_path / "house.json"
    path.write_text(json.dumps({"preset": "bicycle", "book_growth": "naturals"}))
    assert run("referee", "meld", "--sheet", path, "8 8 8 8 2 2 JK JK")[0] == 1
    assert run("referee", "meld", "--sheet", path, "2", "--adding-to", "8 8 8 8 2 2 JK")[0] == 1
    code, out = run("referee", "meld", "--sheet", path, "8 8 8 8 8 2 2 JK")
    assert code == 0, out


def test_a_sheet_file_answers_as_well_as_a_preset(tmp_path):
    path = tmp_path / "house.json"
    path.write_text(json.dumps({"preset": "pagat", "wild_ratio": "more"}))
    code, out = run("referee", "meld", "--sheet", path, "9 9 9 2 2")
    assert code == 0
    assert "Under Pagat, four-player partnerships (changed):" in out


# -- go-out's books by kind: every kind the API's question reads ---------------------------------

def go_out(sheet: object, books: str, *more: str) -> int:
    return run("referee", "go-out", "--sheet", sheet, "--books", books, *more)[0]


def sheet_file(tmp_path: Path, name: str = "house", **options: object) -> Path:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"preset": "common", **options}))
    return path


def test_a_clean_book_of_sevens_counts_as_clean_toward_going_out_on_the_progressive_sheet():
    # Progressive, deal 1: 3 clean + 3 dirty to go out; a clean book of sevens (special_books)
    # counts as a clean book (special_books_count_as clean). 2 clean + 1 sevens = 3 clean: out.
    assert go_out("progressive", "clean=2,dirty=3,special=1") == 0
    # Its near twin without the sevens: 2 clean + 3 dirty, one clean book short.
    assert go_out("progressive", "2,3") == 1


def test_a_dirty_book_of_sevens_counts_as_dirty_never_as_clean():
    # Progressive, deal 1, 3 clean + 3 dirty: 3 clean, 2 dirty + 1 dirty sevens = 3 dirty: out.
    assert go_out("progressive", "clean=3,dirty=2,special_dirty=1") == 0
    # 2 clean + 3 dirty + 1 dirty sevens: the dirty sevens cannot stand in for the third clean book.
    assert go_out("progressive", "clean=2,dirty=3,special_dirty=1") == 1


def test_a_book_of_threes_fills_a_special_book_the_sheet_asks_for(tmp_path):
    # Common with books of threes (three_books) and 1 clean + 1 dirty + 1 special book to go
    # out: a book of red threes is a special book, so 1 + 1 + 1 goes out; 1 + 1 alone does not.
    path = sheet_file(tmp_path, three_books={"3R": 1000, "3B": 500},
                      books_to_go_out={"clean": 1, "dirty": 1, "special": 1})
    assert go_out(path, "clean=1,dirty=1,special=1") == 0
    assert go_out(path, "1,1") == 1


def test_special_books_asked_for_by_rank_are_counted_by_rank(tmp_path):
    # Hand, Knee and Foot's contract: 1 clean + 1 dirty + a book of sevens + a book of fives.
    path = sheet_file(tmp_path, special_books={"7": 5000, "5": 3000},
                      books_to_go_out={"clean": 1, "dirty": 1, "special": {"7": 1, "5": 1}})
    assert go_out(path, "clean=1,dirty=1,special.7=1,special.5=1") == 0
    # Two books of sevens are no book of fives; two special books of no rank said fill neither.
    assert go_out(path, "clean=1,dirty=1,special.7=2") == 1
    assert go_out(path, "clean=1,dirty=1,special=2") == 1


def test_special_books_counting_as_none_fill_no_clean_book(tmp_path):
    # Common, 1 clean + 1 dirty to go out, a book of sevens special. Counted as none, the
    # sevens fill nothing: 0 clean + 1 dirty + 1 sevens is short; counted as clean, it goes out.
    none = sheet_file(tmp_path, "none", special_books={"7": 1000}, special_books_count_as="none")
    assert go_out(none, "dirty=1,special=1") == 1
    clean = sheet_file(tmp_path, "clean", special_books={"7": 1000}, special_books_count_as="clean")
    assert go_out(clean, "dirty=1,special=1") == 0


def test_books_by_kind_and_in_order_say_the_same():
    # Pagat: 2 clean + 2 dirty + 1 wild to go out, the same books written either way.
    more = ("--partner-foot", "yes", "--permission", "yes", "--json")
    assert run("referee", "go-out", "--sheet", "pagat", "--books", "2,2,1", *more) == \
        run("referee", "go-out", "--sheet", "pagat", "--books", "wild=1, Dirty=2, clean=2", *more)


def test_books_by_kind_get_the_apis_answer():
    code, out = run("referee", "go-out", "--sheet", "progressive", "--books", "clean=2,dirty=3,special=1", "--json")
    sheet = preset("progressive")
    asked = ask_go_out(sheet, {"books": {"clean": 2, "dirty": 3, "special": 1}})
    assert (code, json.loads(out)) == (0, asked.to_json(sheet))


@pytest.mark.parametrize("books, message", [
    ("sevens=1", "--books: 'sevens' is not a kind of book "
                 "(clean, dirty, wild, special, special_dirty, special_count, special_dirty_count)"),
    ("clean=1,threes=1", "--books: 'threes' is not a kind of book"),
    ("clean=1,2", "--books: '2' names no kind"),
    ("clean=1,clean=2", "--books: clean is given twice"),
    ("special.7=1,special.7=2", "--books: special.7 is given twice, or special takes no rank"),
    ("clean.7=1", "--books: clean.7 is given twice, or clean takes no rank"),
    ("clean=1,special=x", "--books special: must be a whole number"),
    ("1,1,1,1", "--books: give CLEAN,DIRTY or CLEAN,DIRTY,WILD"),
])
def test_books_the_go_out_question_cannot_read_exit_2_naming_the_option(capsys, books, message):
    code, out = run("referee", "go-out", "--sheet", "progressive", "--books", books)
    assert code == 2 and out == ""
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("args, message", [
    (("pile", "--sheet", "common", "9", "--pair", "x", "--pile-size", "5"), "--pair: must be a whole number"),
    (("pile", "--sheet", "common", "3", "--pile-size", "5"), "TOP_CARD: a three is red (3R) or black (3B)"),
    (("minimum", "--sheet", "pagat", "9 9 9 2", "--top-card", "8"), "--top-card: the melds hold no 8"),
    (("meld", "--sheet", "pagat", "K K X"), "MELD: 'X' is not a card"),
    (("go-out", "--sheet", "pagat"), "give the side's books (--books 1,1) or its melds"),
    (("go-out", "--sheet", "pagat", "--books", "1"), "--books: give CLEAN,DIRTY"),
    (("go-out", "--sheet", "pagat", "--books", "1,x"), "--books dirty: must be a whole number"),
    (("minimum", "--sheet", "pagat", "K K K", "Q Q"), None),
    (("minimum", "--sheet", "pagat", "K K K", "Q J"), "MELDS: a meld holds natural cards of one rank only"),
    (("meld", "--sheet", "house", "K K K"), "'house' is neither a preset"),
])
def test_input_that_cannot_be_read_exits_2_naming_it(capsys, args, message):
    if message is None:  # "Q Q" reads as a meld (too small a one): the answer is no, not an error
        assert run("referee", *args)[0] == 1
        return
    code, out = run("referee", *args)
    assert code == 2 and out == ""
    assert message in capsys.readouterr().err


# -- compare and rescore ------------------------------------------------------------------------------


def test_compare_pagat_with_common_lists_hand_size_13_against_11():
    code, out = run("compare", "pagat", "common")
    assert code == 0
    assert out.splitlines()[0].startswith(
        "Pagat, four-player partnerships | Common rules (individuals or partnerships): ")
    table = out.split("\n\nThe cards and the deal\n")[1].split("\n\n")[0]
    assert "  Cards in the hand: 13 | 11" in table.splitlines()
    assert "Clean book:" not in out


def test_compare_json_and_a_sheet_with_itself():
    code, out = run("compare", "bicycle", "bicycle", "--json")
    assert code == 0 and json.loads(out)["same"] is True
    assert run("compare", "bicycle", "bicycle")[1].endswith("the same in every option.\n")


def test_rescore_the_club_game_under_pagat_prints_the_totals_worked_by_hand():
    code, out = run("rescore", CLUB, "--sheet", "pagat")
    assert code == 1  # Dan's foot of 11 and North-South's books are illegal under Pagat
    assert "  East-West: -5 -> -205 (-200)" in out
    assert "    Dan's unopened foot: red threes: 2 x 0 = 0 -> 2 x -100 = -200 (-200)" in out
    assert "  North-South: 1,200 -> 1,200 (no change)" in out
    assert "  East-West: 1,215 -> 1,015 (-200)" in out
    assert "Result: North-South wins (under the game's own sheet: East-West wins)." in out
    assert "foot.size" in out and "went_out.books" in out


def test_rescore_json_is_the_cores_rescoring():
    code, out = run("rescore", CLUB, "--sheet", "pagat", "--json")
    game = Game.from_json(json.loads(CLUB.read_text()))
    assert code == 1
    assert json.loads(out) == json.loads(json.dumps(rescore_game(game, preset("pagat")).to_json()))


def test_rescore_reads_sides_as_names_or_as_name_and_players_alike(tmp_path):
    data = json.loads(CLUB.read_text())
    data["sides"] = [{"name": "North-South", "players": ["Ann", "Cal"]},
                     {"name": "East-West", "players": ["Bea", "Dan"]}]
    as_exported = tmp_path / "club-sides-with-players.json"
    as_exported.write_text(json.dumps(data))
    assert run("rescore", as_exported, "--sheet", "pagat") == run("rescore", CLUB, "--sheet", "pagat")


def test_rescore_reads_a_games_export_as_it_is(client, tmp_path):
    """The export (``GET /api/v1/games/<id>/export``, with an as-played deal and a deleted
    deal) rescores as the same game written by hand, in words and in JSON, as the API does."""
    _, document = exported_game(client)
    export, by_hand = tmp_path / "export.json", tmp_path / "by-hand.json"
    export.write_text(json.dumps(document))
    by_hand.write_text(json.dumps(BY_HAND))
    words = run("rescore", export, "--sheet", "pagat")
    assert words == run("rescore", by_hand, "--sheet", "pagat")
    assert words[0] == 1 and "Totals:" in words[1]
    code, out = run("rescore", export, "--sheet", "pagat", "--json")
    api = client.post("/api/v1/referee/rescore", json={"sheet": "pagat", "game": document}).get_json()
    assert json.loads(out) == api


def test_scorepad_game_reads_a_games_export_as_it_is(client, tmp_path):
    """``scorepad game`` scores an export as the same game written by hand."""
    _, document = exported_game(client)
    export, by_hand = tmp_path / "export.json", tmp_path / "by-hand.json"
    export.write_text(json.dumps(document))
    by_hand.write_text(json.dumps(BY_HAND))
    assert run("game", export, "--json") == run("game", by_hand, "--json")
    code, words = run("game", export)
    assert "Running totals" in words


def test_rescore_of_an_unreadable_export_names_the_field(client, tmp_path, capsys):
    _, document = exported_game(client)
    document["deals"][0]["history"][0]["action"] = "undo"
    bad = tmp_path / "export.json"
    bad.write_text(json.dumps(document))
    assert run("rescore", bad, "--sheet", "pagat")[0] == 2
    assert "deals[0].history[0].action" in capsys.readouterr().err


def test_rescore_a_deal_under_its_own_sheet_changes_nothing_and_exits_0():
    code, out = run("rescore", COMMON_DEAL, "--sheet", "common")
    assert code == 0
    assert "  Ann: 1,060 -> 1,060 (no change)" in out and "Illegal" not in out


def test_rescore_of_an_unreadable_file_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"sheet": "common", "deals": [{"ending": "?"}]}')
    assert run("rescore", bad, "--sheet", "pagat")[0] == 2
    assert "deals[0].ending" in capsys.readouterr().err
