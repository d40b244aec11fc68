"""One table of limits (scorepad/rules/limits.py): every module takes its bounds from it,
docs/api.md states them as it has them, every list a rule sheet holds is bounded, and the
table itself: 2 to 8 sides of 1 to 4 players, sheets for 2 to 12 players, 60 melds a side.

The doors are real: the Flask test client on a SQLite file of its own, the ``scorepad``
command as a subprocess, PDFs read back with pypdf.
"""

from __future__ import annotations

import ast
import html
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from scorepad.rules import OPTIONS, PRESETS, SheetError, limits, load_sheet, preset
from scorepad.rules.cards import CARDS, NATURALS, Card
from scorepad.rules.choices import Band, PileBlocker
from scorepad.rules.limits import (
    MAX_BANDS,
    MAX_MELD_ROWS,
    MAX_MELDS,
    MAX_PER_SIDE,
    MAX_PLAYERS,
    MAX_SHEET_DEALS,
    MAX_SIDES,
)
from tests.helpers import api_game, assert_error_shape, bearer, form_fields, text_of, valid_deal

ROOT = Path(__file__).resolve().parents[2]
API = "/api/v1"
RANKS = [card.value for card in NATURALS]
VALUED = [card.value for card in CARDS if card is not Card.RED_THREE]


def bands(n: int) -> list[dict[str, int]]:
    """``n`` opening bands that rise, the last open-ended."""
    return [{"below": 1_000 * (i + 1), "minimum": 50 + i} for i in range(n - 1)] + [{"minimum": 999}]


def sides_of(count: int, size: int, long: bool = False) -> list[dict[str, Any]]:
    def name(kind: str, i: int) -> str:
        return f"{kind} {i} {'x' * (limits.MAX_NAME - len(kind) - 6)}"[:limits.MAX_NAME] if long else f"{kind}{i}"
    return [{"name": name("Side", i), "players": [name("Player", i * 10 + j) for j in range(size)]}
            for i in range(count)]


def deal_of(sides: list[dict[str, Any]], sheet: Any = "common") -> dict[str, Any]:
    return {"sheet": sheet, "deal": 1, "ending": "stock_out",
            "sides": [{"name": s["name"], "melds": ["K K K"],
                       "players": [{"name": p, "foot_picked_up": True} for p in s["players"]]} for s in sides]}


def new_game_form(client, **changes: str) -> dict[str, str]:
    data = form_fields(client.get("/new").get_data(as_text=True), "/new")
    data.update({"name": "Big table"})
    data.update(changes)
    return data


def option_box(page: str, option: str) -> str:
    return html.unescape(re.search(rf'id="opt-{option}-box">(.*?)(?:<div data-option|</details>)', page, re.S).group(1))


def pages_of(body: bytes) -> int:
    return len(PdfReader(io.BytesIO(body)).pages)


# -- one table ----------------------------------------------------------------------------------------


def test_no_module_keeps_a_bound_of_its_own():
    """Every bound (a MAX_ constant, or any name of the table) is defined in rules/limits.py
    and only imported elsewhere."""
    table = {name for name in vars(limits) if name.isupper()}
    own = []
    for path in sorted((ROOT / "scorepad").rglob("*.py")):
        if path.name == "limits.py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
                if isinstance(node, ast.AnnAssign) else []
            own += [f"{path.relative_to(ROOT)}: {t.id}" for t in targets
                    if isinstance(t, ast.Name) and (t.id.startswith("MAX_") or t.id in table)]
    assert own == []


def test_each_bound_has_a_comment_saying_what_it_bounds_and_why():
    for line in (ROOT / "scorepad" / "rules" / "limits.py").read_text(encoding="utf-8").splitlines():
        if re.match(r"(MAX|MIN)_\w+ = ", line):
            assert re.search(r"#\s*\S.*:\s*\S", line), line  # "# what: why"


def test_the_counted_bounds_of_a_sheet_are_one_of_each_kind():
    assert limits.MAX_CARD_VALUES == len(VALUED)
    assert limits.MAX_SPECIAL_BOOKS == len(NATURALS)
    assert limits.MAX_PILE_BLOCKERS == len(PileBlocker)
    assert limits.MAX_SIDE_SIZES == MAX_PER_SIDE
    assert MAX_MELD_ROWS > MAX_MELDS


# -- docs/api.md states the bounds as the table has them --------------------------------------------


# Each row of the Bounds table in docs/api.md: the numbers it must state, in order.
DOC_BOUNDS: dict[str, tuple[int, ...]] = {
    "a name: of a game, a side, a player, `went_out`": (limits.MAX_NAME,),
    "sides in a game or a deal": (limits.MIN_SIDES, limits.MAX_SIDES),
    "players on a side": (1, limits.MAX_PER_SIDE),
    "a sheet's `min_players` and `max_players`": (limits.MIN_PLAYERS, limits.MAX_PLAYERS),
    "melds on a side, and a referee question's `melds` or `table`": (limits.MAX_MELDS,),
    "a count of cards": (-limits.MAX_COUNT, limits.MAX_COUNT),
    "points counted: a side's `meld_points`, a player's `cards_left_points`":
        (-limits.MAX_COUNTED_POINTS, limits.MAX_COUNTED_POINTS),
    "cards of one kind in a card string (`\"Kx600 Kx401\"` is refused), or in a referee question's meld, "
    "cards or pile": (limits.MAX_COUNT,),
    "a card string": (limits.MAX_CARD_STRING,),
    "deals in a game, a game file (`/referee/rescore`) or an export; a deal number for the referee":
        (limits.MAX_DEALS,),
    "a reason (a deal saved as played, an amended sheet)": (limits.MAX_REASON,),
    "a side's points (a `running_total`, a total in an export)": (-limits.MAX_POINTS, limits.MAX_POINTS),
    "values in a per-deal sheet option (`opening_minimums`, `going_out_bonus`, `books_to_go_out`, "
    "`pile_cards`, `draws_per_turn`, `knee_size`)": (limits.MAX_SHEET_DEALS,),
    "`opening_bands`": (limits.MAX_BANDS,),
    "`side_sizes`": (limits.MAX_SIDE_SIZES,),
    "`card_values`": (limits.MAX_CARD_VALUES,),
    "`special_books`, `special_books_dirty`": (limits.MAX_SPECIAL_BOOKS,),
    "`three_books`": (limits.MAX_THREE_BOOKS,),
    "`decks_by_players`": (limits.MAX_DECKS_BY_PLAYERS,),
    "`pile_blocked_by`": (limits.MAX_PILE_BLOCKERS,),
    "`house_rules`": (limits.MAX_HOUSE_RULES, limits.MAX_HOUSE_RULE),
    "a game's stored deals and history (a write past it is a 409 naming `game`)": (limits.MAX_GAME_BYTES,),
    "an import's body (the export of the fullest game)": (limits.MAX_IMPORT_BYTES,),
    "a club night's import body (the export of its fullest evening)": (limits.MAX_EVENT_IMPORT_BYTES,),
}

# Bounds the doc states in its prose: (pattern, the value every match must have).
DOC_PROSE: list[tuple[str, int]] = [
    (r"nested more than ([\d,]+) levels", limits.MAX_DEPTH),
    (r"a number larger than ([\d,]+)", limits.MAX_NUMBER),
    (r"a `name` \(at most ([\d,]+) characters\)", limits.MAX_NAME),
    (r"a reason of at most ([\d,]+) characters", limits.MAX_REASON),
    (r"a `reason` \(required, at most ([\d,]+) characters\)", limits.MAX_REASON),
    (r"1 to ([\d,]+) printable ASCII characters", limits.MAX_IDEMPOTENCY_KEY),
]


def number(text: str) -> int:
    return int(text.replace(",", ""))


def api_doc() -> str:
    return (ROOT / "docs" / "api.md").read_text(encoding="utf-8")


def doc_bounds_table() -> dict[str, str]:
    section = api_doc().split("**Bounds.**", 1)[1].split("\n\n", 2)[1]
    rows = [line for line in section.splitlines() if line.startswith("|")][2:]
    out = {}
    for row in rows:
        what, bound = [cell.strip() for cell in row.strip("|").rsplit(" | ", 1)]
        out[what] = bound
    return out


def test_the_doc_lists_each_bound_as_the_table_of_limits_has_it():
    table = doc_bounds_table()
    assert set(table) == set(DOC_BOUNDS), "a row of docs/api.md's Bounds table was added, renamed or removed"
    for what, bound in table.items():
        stated = tuple(number(n) for n in re.findall(r"-?\d[\d,]*", bound))
        assert stated == DOC_BOUNDS[what], (what, bound)


def test_the_doc_states_its_other_bounds_as_the_table_has_them(app):
    doc = " ".join(api_doc().split())
    for pattern, value in DOC_PROSE:
        found = re.findall(pattern, doc)
        assert found, pattern
        assert {number(n) for n in found} == {value}, (pattern, found)
    for n in re.findall(r"at most ([\d,]+) characters", doc):
        assert number(n) in (limits.MAX_NAME, limits.MAX_REASON, limits.MAX_CARD_STRING), n
    body = app.config["MAX_CONTENT_LENGTH"]
    assert {number(n) for n in re.findall(r"([\d,]+) KB", doc)} == {body // 1024}


# -- every list a sheet holds is bounded ----------------------------------------------------------------


# One past each bound, for every option whose value is a list or an object.
OVERSIZE: dict[str, Any] = {
    "opening_bands": bands(MAX_BANDS + 1),
    "opening_minimums": [50] * (MAX_SHEET_DEALS + 1),
    "going_out_bonus": [100] * (MAX_SHEET_DEALS + 1),
    "draws_per_turn": [2] * (MAX_SHEET_DEALS + 1),
    "knee_size": [13] * (MAX_SHEET_DEALS + 1),
    "pile_cards": [7] * (MAX_SHEET_DEALS + 1),
    "books_to_go_out": [{"clean": 1, "dirty": 1}] * (MAX_SHEET_DEALS + 1),
    "side_sizes": [1, 2, 3, 4, 2],
    "card_values": {**{card: 10 for card in VALUED}, "a": 20},
    "special_books": {**{rank: 1000 for rank in RANKS}, "k": 900},
    "special_books_dirty": {**{rank: 500 for rank in RANKS}, "k": 400},
    "three_books": {"3R": 1000, "3B": 500, "3r": 900},
    "book_caps": {"wild": 3, **{rank: 2 for rank in RANKS}, "3R": 1, "3B": 1, "k": 1},
    "decks_by_players": {**{str(n): 5 for n in range(limits.MIN_PLAYERS, MAX_PLAYERS + 1)}, "13": 6},
    "pile_blocked_by": ["black-three", "red-three", "wild", "wild"],
    "house_rules": [f"House rule {n}." for n in range(limits.MAX_HOUSE_RULES + 1)],
}


def takes_a_list(option) -> bool:
    """Whether the option's JSON form is (or may be) a list or an object."""
    value = option.write(getattr(preset("common"), option.name))
    if isinstance(value, (list, dict)):
        return True
    try:
        option.read([value], option.name, None)
    except SheetError:
        return False
    return True


def test_every_list_option_of_the_catalogue_has_a_bound_case():
    assert {o.name for o in OPTIONS if takes_a_list(o)} == set(OVERSIZE)


@pytest.mark.parametrize("option", sorted(OVERSIZE))
def test_every_list_in_a_sheet_is_bounded_naming_the_option(option):
    with pytest.raises(SheetError) as err:
        load_sheet({"preset": "common", option: OVERSIZE[option]})
    assert err.value.field == f"sheet.{option}"
    assert "a sheet lists at most" in err.value.reason


def test_a_sheet_built_in_python_is_bounded_too():
    with pytest.raises(SheetError) as err:
        preset("common").replace(opening_bands=tuple(Band(i, 50) for i in range(MAX_BANDS)) + (Band(None, 90),))
    assert err.value.field == "opening_bands"


def test_too_many_bands_are_refused_by_the_api_naming_opening_bands(client):
    sheet = {"preset": "common", "opening_by": "running-total", "opening_bands": bands(MAX_BANDS + 1)}
    response = client.post(f"{API}/games", json={"name": "x", "sheet": sheet, "sides": sides_of(2, 1)})
    assert "at most 20" in assert_error_shape(response, 400, "sheet.opening_bands")["message"]
    game, key = api_game(client)
    response = client.put(f"{API}/games/{game}/sheet", json={"sheet": sheet, "reason": "bands"}, headers=bearer(key))
    assert_error_shape(response, 400, "sheet.opening_bands")
    response = client.post(f"{API}/score", json={**valid_deal(1), "sheet": sheet})
    assert_error_shape(response, 400, "sheet.opening_bands")
    sheet["opening_bands"] = bands(MAX_BANDS)
    assert client.post(f"{API}/games", json={"name": "x", "sheet": sheet, "sides": sides_of(2, 1)}).status_code == 201


def test_too_many_bands_are_a_form_error_on_the_new_game_page(client):
    rows = {f"opt-opening_bands-{i}-{key}": str(value)
            for i, band in enumerate(bands(MAX_BANDS + 1), 1) for key, value in band.items()}
    data = new_game_form(client, **{"side-0-p0": "Ann", "side-1-p0": "Bea", "opt-opening_by": "running-total", **rows})
    response = client.post("/new", data=data)
    assert response.status_code == 400
    box = option_box(response.get_data(as_text=True), "opening_bands")
    assert "Minimum by running total: lists 21 bands; a sheet lists at most 20" in box
    assert 'aria-invalid="true"' in box
    assert client.get("/").get_data(as_text=True).count('class="card-link"') == 0


def test_too_many_bands_make_the_command_exit_2_naming_opening_bands(tmp_path):
    path = tmp_path / "house.json"
    path.write_text(json.dumps({"preset": "common", "opening_bands": bands(MAX_BANDS + 1)}), encoding="utf-8")
    for argv in (["sheet", path], ["score", ROOT / "tests" / "data" / "deal-common.json", "--sheet", path]):
        done = subprocess.run([sys.executable, "-m", "scorepad.cli", *map(str, argv)], cwd=ROOT, capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 2, (done.stdout, done.stderr)
        assert "sheet.opening_bands: lists 21 bands; a sheet lists at most 20" in done.stderr
        assert "Traceback" not in done.stderr


def largest_sheet(**changes: Any) -> dict[str, Any]:
    """Every list a sheet holds at its bound, with the widest values the options take."""
    n = MAX_SHEET_DEALS
    sheet = {
        "preset": "common", "min_players": limits.MIN_PLAYERS, "max_players": MAX_PLAYERS,
        "side_sizes": list(range(1, MAX_PER_SIDE + 1)), "decks_rule": "fixed", "decks": 12, "jokers_per_deck": 4,
        "hand_size": 30, "foot_size": 30, "card_values": {card: 10_000 - i for i, card in enumerate(VALUED)},
        "cut_bonus": 100_000, "draws_per_turn": [10] * n, "wild_books": True,
        "special_books": {rank: 100_000 - i for i, rank in enumerate(RANKS)},
        "special_books_dirty": {rank: 99_000 - i for i, rank in enumerate(RANKS)},
        "three_books": {"3R": 100_000, "3B": 99_999},
        "book_caps": {"wild": 20, **{rank: 20 for rank in RANKS}, "3R": 20, "3B": 20},
        "going_out_bonus": [100_000 - i for i in range(n)], "opening_by": "running-total",
        "opening_minimums": [10_000 - i for i in range(n)],
        "opening_bands": [{"below": -100_000 + i * 55_555, "minimum": 10_000 - i} for i in range(MAX_BANDS - 1)]
        + [{"minimum": 9_999}],
        "pile_cards": [200 - i for i in range(n)], "books_to_go_out": [{"clean": 20, "dirty": 20, "wild": 20}] * n,
        "pile_blocked_by": ["black-three", "red-three", "wild"], "game_length": "deals", "deals": 20,
        "house_rules": [f"{i:02d} " + "w" * (limits.MAX_HOUSE_RULE - 3) for i in range(limits.MAX_HOUSE_RULES)],
    }
    sheet.update(changes)
    return sheet


def test_the_largest_sheet_allowed_prints_its_sheet_and_each_deal_of_its_pad_on_one_page(client):
    """Every list at its bound, twelve players with names as long as allowed: the house-rule
    sheet is one page, and the pad one page a deal (it was a 500 with 448 bands)."""
    for deals in (1, 20):
        sheet = largest_sheet(deals=deals)
        assert all(len(v) == MAX_SHEET_DEALS for v in (sheet["opening_minimums"], sheet["pile_cards"]))
        response = client.post(f"{API}/games", json={"name": "L" * limits.MAX_NAME, "sheet": sheet,
                                                     "sides": sides_of(3, 4, long=True)})
        assert response.status_code == 201, response.get_json()
        game = response.get_json()["id"]
        for paper in ("letter", "a4"):
            body = client.get(f"/games/{game}/sheet.pdf?paper={paper}")
            assert body.status_code == 200 and pages_of(body.data) == 1
            pad = client.get(f"/games/{game}/pad.pdf?paper={paper}")
            assert pad.status_code == 200 and pages_of(pad.data) == deals
            assert f"Deal {deals}" in text_of(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pad.data)).pages))
    for sides in (2, MAX_SIDES):
        pad = client.get(f"/sheets/common/pad.pdf?sides={sides}")
        assert pad.status_code == 200


# -- the table: 2 to 8 sides of 1 to 4 players, sheets for 2 to 12 ----------------------------------------


def test_a_sheet_is_written_for_two_to_twelve_players():
    assert load_sheet({"preset": "common", "max_players": 12}).max_players == 12
    assert load_sheet({"preset": "common", "min_players": 12, "max_players": 12, "side_sizes": [4]}).min_players == 12
    for option in ("min_players", "max_players"):
        with pytest.raises(SheetError) as err:
            load_sheet({"preset": "common", option: 13})
        assert (err.value.field, err.value.reason) == (f"sheet.{option}", "must be from 2 to 12, not 13")
    with pytest.raises(SheetError) as err:
        load_sheet({"preset": "common", "side_sizes": [5]})
    assert err.value.field == "sheet.side_sizes[0]"
    # raising the limit changed no preset; bga, added since, seats 12 in teams as its site does
    assert all(p.sheet.max_players <= 8 for p in PRESETS.values() if p.id != "bga")
    assert PRESETS["bga"].sheet.max_players == 12


def test_max_players_13_is_refused_in_the_api_and_on_the_page(client):
    response = client.post(f"{API}/games", json={"name": "x", "sheet": {"preset": "common", "max_players": 13},
                                                 "sides": sides_of(2, 1)})
    assert_error_shape(response, 400, "sheet.max_players")
    data = new_game_form(client, **{"side-0-p0": "Ann", "side-1-p0": "Bea", "opt-max_players": "13"})
    response = client.post("/new", data=data)
    assert response.status_code == 400
    assert "Most players: must be from 2 to 12, not 13" in option_box(response.get_data(as_text=True),
                                                                                   "max_players")


@pytest.mark.parametrize("count, size", [(3, 4), (4, 3), (6, 2), (8, 1)])
def test_the_largest_tables_are_games(client, count, size):
    sheet = {"preset": "common", "max_players": min(MAX_PLAYERS, count * size), "side_sizes": [size]}
    game, key = api_game(client, sheet=sheet, sides=sides_of(count, size, long=True))
    body = client.get(f"{API}/games/{game}").get_json()
    assert [len(side["players"]) for side in body["sides"]] == [size] * count
    page = client.get(f"/games/{game}/edit/{key}", follow_redirects=True)
    assert page.status_code == 200
    form = client.get(f"/games/{game}/deals/new").get_data(as_text=True)
    assert f'id="s{count - 1}-p{size - 1}"' in form  # every player of every side has a row


def test_a_deal_of_eight_sides_of_four_is_read_and_judged(client):
    """Eight sides of four are within the bounds of a deal; no sheet seats 32, so the referee says so."""
    response = client.post(f"{API}/score", json=deal_of(sides_of(MAX_SIDES, MAX_PER_SIDE), {
        "preset": "common", "max_players": 12, "side_sizes": [4]}))
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert len(body["sides"]) == 8 and not body["ok"]
    assert [v["code"] for v in body["violations"]] == ["table.players"]


def test_nine_sides_or_five_players_are_refused_by_the_api_naming_the_field(client):
    sheet = {"preset": "common", "max_players": 12}
    for sides, field, says in ((sides_of(9, 1), "sides", "2 to 8"),
                               (sides_of(2, 5), "sides[0].players", "at most 4")):
        response = client.post(f"{API}/games", json={"name": "x", "sheet": sheet, "sides": sides})
        assert says in assert_error_shape(response, 400, field)["message"]
        response = client.post(f"{API}/score", json=deal_of(sides, sheet))
        assert says.split()[-1] in assert_error_shape(response, 400, field)["message"]


def test_the_new_game_page_offers_eight_sides_of_four_players(client):
    page = client.get("/new").get_data(as_text=True)
    assert f'name="side-{MAX_SIDES - 1}-p{MAX_PER_SIDE - 1}"' in page
    assert f'name="side-{MAX_SIDES}-p0"' not in page and f'name="side-0-p{MAX_PER_SIDE}"' not in page
    more = page[page.index('<details class="more-sides"'):]
    assert "Sides 3 to 8" in more and 'name="side-2-p0"' in more and " open>" not in more[:60]
    # Players 3 and 4 of each side fold away like sides 3 to 8: an individual game's page stays short.
    assert page.count('<details class="more-players"><summary>Players 3 and 4</summary>') == MAX_SIDES
    players = {f"side-{i}-p{j}": f"P{i}{j}" for i in range(3) for j in range(4)}
    data = new_game_form(client, **players, **{"opt-max_players": "12", "opt-side_sizes-4": "1"})
    data = {k: v for k, v in data.items() if k not in ("opt-side_sizes-1", "opt-side_sizes-2")}
    response = client.post("/new", data=data)
    assert response.status_code == 303, text_of(response.get_data(as_text=True))[:2000]
    game = response.headers["Location"].rsplit("/", 1)[1]
    sides = client.get(f"{API}/games/{game}").get_json()["sides"]
    assert sides[2] == {"name": "P20 & P21 & P22 & P23", "players": ["P20", "P21", "P22", "P23"]}


def test_a_ninth_side_or_fifth_player_on_the_page_is_refused_and_kept(client):
    base = {f"side-{i}-p0": f"P{i}" for i in range(8)}
    response = client.post("/new", data=new_game_form(client, **base, **{"opt-max_players": "12",
                                                                        "side-8-p0": "Ninth"}))
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert re.search(r'<p class="error" id="sides-error">give from 2 to 8 sides', page)
    assert 'name="side-8-p0" value="Ninth"' in page  # what was typed comes back
    five = {f"side-0-p{j}": f"A{j}" for j in range(4)}
    response = client.post("/new", data=new_game_form(client, **five, **{
        "opt-max_players": "12", "side-0-p4": "Fifth", "side-1-p0": "B"}))
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert re.search(r'<p class="error" id="side-0-error">lists 5 players; a side has at most 4', page)
    assert 'name="side-0-p4" value="Fifth"' in page
    assert '<details class="more-players" open><summary>Players 3 to 5</summary>' in page
    assert client.get("/").get_data(as_text=True).count('class="card-link"') == 0


# -- a side holds at most 60 melds ----------------------------------------------------------------------


def test_a_side_holds_at_most_60_melds_in_the_api(client):
    deal = valid_deal(1)
    deal["sides"][0]["melds"] = ["K K K"] * MAX_MELDS
    assert client.post(f"{API}/score", json={**deal, "sheet": "common"}).status_code == 200
    deal["sides"][0]["melds"].append("Q Q Q")
    response = client.post(f"{API}/score", json={**deal, "sheet": "common"})
    assert "lists 61 melds; at most 60" in assert_error_shape(response, 400, "sides[0].melds")["message"]
    for question, field in (({"meld": "K K K", "table": ["Q Q Q"] * 61}, "table"),
                            ({"melds": ["Q Q Q"] * 61}, "melds")):
        url = f"{API}/referee/{'meld' if 'meld' in question else 'minimum'}"
        assert_error_shape(client.post(url, json={"sheet": "common", **question}), 400, field)


def test_a_side_holds_at_most_60_melds_on_the_deal_form(client):
    game, key = api_game(client)
    client.get(f"/games/{game}/edit/{key}")
    url = f"/games/{game}/deals/new"
    data = form_fields(client.get(url).get_data(as_text=True), url)
    data = {k: v for k, v in data.items() if not k.endswith("-mode")}  # both sides itemised (meld rows)
    data.update({"s0-rows": str(MAX_MELD_ROWS), "s1-m0-cards": "J J J", "ending": "stock", "action": "save"})
    data.update({f"s0-m{k}-cards": "K K K" for k in range(MAX_MELDS + 1)})
    response = client.post(url, data=data)
    assert response.status_code == 400
    assert "lists 61 melds; at most 60" in text_of(response.get_data(as_text=True))
    assert client.get(f"{API}/games/{game}").get_json()["deals"] == []
    more = client.post(url, data={**data, "action": "more"}).get_data(as_text=True)
    assert f'name="s0-m{MAX_MELD_ROWS - 1}-rank"' in more and f'name="s0-m{MAX_MELD_ROWS}-rank"' not in more
