"""The web pages, through Flask's test client, each test on its own SQLite file.

Forms are filled the way a browser fills them: the page is fetched, its form's fields are
read from the HTML (:func:`fields`), a few are changed, and the lot is posted back.
"""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from scorepad.rules import Problem, preset
from scorepad.storage import reading
from scorepad.web.forms.deal import DealForm
from tests import json_writes as writing

DATA = Path(__file__).parent.parent / "data"
SCRIPT_NAME = "<script>alert(1)</script>"


# -- reading forms out of pages ---------------------------------------------------------------------


class _Forms(HTMLParser):
    """Every form of a page: its action and the name/value pairs a browser would send."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self._select: str | None = None
        self._select_value: str | None = None
        self._option: dict[str, Any] | None = None
        self._first_option: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self.forms.append({"action": a.get("action", ""), "method": a.get("method", "get"),
                               "id": a.get("id", ""), "fields": {}})
        if not self.forms:
            return
        fields = self.forms[-1]["fields"]
        if tag == "input" and a.get("name"):
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    fields[a["name"]] = a.get("value", "on")
            elif kind not in ("submit", "button"):
                fields[a["name"]] = a.get("value", "")
        elif tag == "select":
            self._select, self._select_value, self._first_option = a.get("name"), None, None
        elif tag == "option" and self._select:
            self._option = {"value": a.get("value"), "selected": "selected" in a, "text": ""}
        elif tag == "textarea" and a.get("name"):
            self._textarea = a["name"]
            fields[a["name"]] = ""

    def handle_data(self, data: str) -> None:
        if self._textarea is not None and self.forms:  # a text area sends what it holds
            self.forms[-1]["fields"][self._textarea] += data
        elif self._option is not None:
            self._option["text"] += data

    def _close_option(self) -> None:
        if self._option is None:
            return
        value = self._option["value"] if self._option["value"] is not None else self._option["text"].strip()
        if self._first_option is None:
            self._first_option = value
        if self._option["selected"]:
            self._select_value = value
        self._option = None

    def handle_endtag(self, tag: str) -> None:
        if tag == "textarea":
            self._textarea = None
        if tag in ("option", "select"):
            self._close_option()
        if tag == "select" and self._select:
            value = self._select_value if self._select_value is not None else self._first_option
            self.forms[-1]["fields"][self._select] = value or ""
            self._select = None


def forms_of(html: str) -> list[dict[str, Any]]:
    parser = _Forms()
    # An <option> without an end tag ends at the next <option>: close it there.
    parser.feed(re.sub(r"(?=<option)", "</option>", html))
    return parser.forms


def fields(html: str, method: str = "post", action: str | None = None) -> dict[str, str]:
    """The fields of the page's (first matching) form, as a browser would send them."""
    for form in forms_of(html):
        if form["method"].lower() == method and (action is None or form["action"] == action):
            return dict(form["fields"])
    raise AssertionError(f"no {method} form{' to ' + action if action else ''} on the page")


def text(response) -> str:
    return response.get_data(as_text=True)


# -- making games ---------------------------------------------------------------------------------


def new_game(client, players: list[list[str]], preset_id: str = "common", name: str = "Friday",
             options: dict[str, Any] | None = None, expect: int = 303):
    """Fill in the New game form and post it; returns the response."""
    page = text(client.get(f"/new?preset={preset_id}"))
    data = fields(page, action="/new")
    data["name"] = name
    for i, side in enumerate(players):
        for j, player in enumerate(side):
            data[f"side-{i}-p{j}"] = player
    for option, value in (options or {}).items():
        if value is False:
            data.pop(f"opt-{option}", None)
        else:
            data[f"opt-{option}"] = "1" if value is True else str(value)
    response = client.post("/new", data=data)
    assert response.status_code == expect, text(response)[:3000]
    return response


def game_id_of(response) -> str:
    return response.headers["Location"].rstrip("/").split("/games/")[1]


def start(client, players=(("Ann",), ("Bea",)), **kw) -> str:
    return game_id_of(new_game(client, [list(p) for p in players], **kw))


def deal_form(client, game_id: str, counted: bool = False) -> dict[str, str]:
    """The new deal form's fields as sent; unless ``counted``, every side itemised (a posted
    side without ``s{i}-mode=count`` is read in meld rows, as after "Itemise melds")."""
    response = client.get(f"/games/{game_id}/deals/new")
    assert response.status_code == 200
    data = fields(text(response), action=f"/games/{game_id}/deals/new")
    return data if counted else {k: v for k, v in data.items() if not k.endswith("-mode")}


def fill(data: dict[str, str], side: int, melds: list[tuple[str, int, int, int] | str] = (),
         red_threes: int = 0) -> None:
    """Put melds (rank, naturals, twos, jokers) or card strings in a side's rows."""
    for k, meld in enumerate(melds):
        if isinstance(meld, str):
            data[f"s{side}-m{k}-cards"] = meld
        else:
            rank, naturals, twos, jokers = meld
            data[f"s{side}-m{k}-rank"] = rank
            data[f"s{side}-m{k}-naturals"] = str(naturals)
            data[f"s{side}-m{k}-twos"] = str(twos)
            data[f"s{side}-m{k}-jokers"] = str(jokers)
    if red_threes:
        data[f"s{side}-red_threes"] = str(red_threes)


def valid_deal(client, game_id: str) -> dict[str, str]:
    """Ann goes out with a clean book of kings and a dirty book of queens; Bea holds an ace."""
    data = deal_form(client, game_id)
    fill(data, 0, [("K", 7, 0, 0), ("Q", 5, 2, 0)])
    fill(data, 1, ["J J J"])
    data["s1-p0-c-A"] = "1"
    data["s1-p0-left"] = "3B"
    data["ending"] = "s0-p0"
    data["action"] = "save"
    return data


def record(client, game_id: str, data: dict[str, str] | None = None, expect: int = 303):
    response = client.post(f"/games/{game_id}/deals/new", data=data or valid_deal(client, game_id))
    assert response.status_code == expect, text(response)[:3000]
    return response


def load(app, game_id: str):
    with app.app_context():
        return reading.load_game(game_id)


# -- every screen ---------------------------------------------------------------------------------


def screens(game_id: str) -> dict[str, str]:
    return {
        "game": f"/games/{game_id}", "sheet": f"/games/{game_id}/sheet", "history": f"/games/{game_id}/history",
        "deal": f"/games/{game_id}/deals/1",
    }


def editor_screens(game_id: str) -> dict[str, str]:
    return {
        "record": f"/games/{game_id}/deals/new", "correct": f"/games/{game_id}/deals/1/edit",
        "delete": f"/games/{game_id}/deals/1/delete", "amend": f"/games/{game_id}/sheet/amend",
    }


def test_every_screen_renders_for_the_editor(client):
    game_id = start(client)
    record(client, game_id)
    for name, url in {"home": "/", "new": "/new", **screens(game_id), **editor_screens(game_id)}.items():
        response = client.get(url)
        assert response.status_code == 200, name
        page = text(response)
        assert '<html lang="en">' in page and "<main" in page and "<header" in page, name
        assert len(re.findall(r"<h1[ >]", page)) == 1, name


def test_every_screen_a_viewer_may_see_renders_and_the_others_are_refused(client, viewer):
    game_id = start(client)
    record(client, game_id)
    for name, url in screens(game_id).items():
        assert viewer.get(url).status_code == 200, name
    for name, url in editor_screens(game_id).items():
        response = viewer.get(url)
        assert response.status_code == 403, name
        assert "only the edit link" in text(response)


def test_no_screen_has_inline_script_or_style(client):
    game_id = start(client)
    record(client, game_id)
    for url in ["/", "/new", "/games/nope", *screens(game_id).values(), *editor_screens(game_id).values()]:
        page = text(client.get(url))
        assert "<style" not in page, url
        assert not re.search(r"\sstyle=", page), url
        for tag in re.findall(r"<script[^>]*>", page):
            assert "src=" in tag, url
        assert not re.search(r"<script[^>]*>[^<]", page), url
        assert not re.search(r"\son[a-z]+=", page), url  # no inline event handlers either
        assert not re.search(r'(?:src|href)="(?:https?:)?//(?!localhost/)', page), url  # nothing off the host


def test_ids_on_every_screen_are_unique(client):
    game_id = start(client, players=(("Ann", "Cal"), ("Bea", "Dan")), preset_id="pagat")
    for url in ["/", "/new", *editor_screens(game_id).values()][:3] + [f"/games/{game_id}/sheet/amend"]:
        ids = re.findall(r'\sid="([^"]+)"', text(client.get(url)))
        assert len(ids) == len(set(ids)), (url, [i for i in ids if ids.count(i) > 1])


def test_the_home_page_lists_this_browsers_games_with_where_they_stand(client, viewer):
    first = start(client, name="Friday")
    record(client, first)
    page = text(client.get("/"))
    assert "Friday" in page and "deal 2 of 4" in page
    assert "Friday" not in text(viewer.get("/"))  # another phone has not opened the edit link


# -- a new game ----------------------------------------------------------------------------------


def test_creating_a_game_through_the_form_freezes_its_sheet_and_grants_editing(client, app):
    response = new_game(client, [["Ann", "Cal"], ["Bea", "Dan"]], preset_id="pagat", name="Club night",
                        options={"hand_size": 11, "foot_size": 11})
    game_id = game_id_of(response)
    game = load(app, game_id)
    assert game.name == "Club night"
    assert game.sheet.to_json() == {"preset": "pagat", "preset_version": 2, "hand_size": 11, "foot_size": 11}
    assert game.sides == [{"name": "Ann & Cal", "players": ["Ann", "Cal"]},
                          {"name": "Bea & Dan", "players": ["Bea", "Dan"]}]
    page = text(client.get(response.headers["Location"]))
    assert "Record deal 1" in page  # this browser may edit
    sheet = text(client.get(f"/games/{game_id}/sheet"))
    assert "Changed from the preset" in sheet and "Cards in the hand" in sheet
    assert re.search(r'class="changed"><dt>Cards in the hand', sheet)


def test_the_new_game_form_shows_every_option_grouped_in_collapsible_sections(client):
    page = text(client.get("/new"))
    from scorepad.rules import OPTIONS
    from scorepad.rules.catalogue import GROUPS
    for option in OPTIONS:
        assert f'id="opt-{option.name}-box"' in page, option.name
    assert page.count('<details class="group"') == len(GROUPS)
    assert '<select id="opt-wild_ratio"' in page  # a choice is a select
    assert 'type="checkbox" id="opt-wild_books"' in page  # a yes/no option is a checkbox
    assert re.search(r'id="opt-card_values-JK" name="opt-card_values-JK" value="50"', page)  # a box per card


def test_loading_a_preset_without_scripts_shows_its_values(client):
    page = text(client.get("/new?preset=pagat"))
    data = fields(page, action="/new")
    assert data["preset"] == "pagat" and data["opt-hand_size"] == "13" and data["opt-wild_books"] == "1"
    assert "Load preset" in page
    assert client.get("/new?preset=house").status_code == 404


def test_a_changed_option_is_highlighted_when_the_form_comes_back(client):
    response = new_game(client, [["Ann"], ["Bea"]], options={"hand_size": 13, "book_size": 2}, expect=400)
    page = text(response)
    assert re.search(r'class="opt changed" id="opt-hand_size-box"', page)
    assert re.search(r'class="opt changed invalid" id="opt-book_size-box"', page)
    assert re.search(r'class="opt" id="opt-foot_size-box"', page)  # unchanged: not marked
    assert 'value="13"' in page and 'value="Ann"' in page  # what was typed comes back


def test_an_impossible_option_is_shown_inline_naming_the_option_with_400(client):
    response = new_game(client, [["Ann"], ["Bea"]], options={"book_size": 2}, expect=400)
    page = text(response)
    box = re.search(r'id="opt-book_size-box">(.*?)</div>', page, re.S).group(1)
    assert "Cards in a book: must be from 3 to 13, not 2" in box
    assert 'aria-invalid="true"' in box
    assert '<details class="group" id="group-melds" open>' in page  # its group opens
    assert load_count(client) == 0


def load_count(client) -> int:
    return text(client.get("/")).count('class="card-link"')


@pytest.mark.parametrize("option, value, says", [
    ("card_values-K", "ten", "Card values (K): must be a whole number, not 'ten'"),
    ("card_values-K", "-1", "Card values (K): must be from 0 to 10000"),
    ("opening_minimums-2", "-5", "Minimum by deal (deal 2): must be from 0 to 10000, not -5"),
    ("meld_min", "8", "Fewest cards in a meld"),
    ("hand_size", "eleven", "Cards in the hand: must be a whole number, not 'eleven'"),
])
def test_each_unreadable_option_names_itself(client, option, value, says):
    page = text(new_game(client, [["Ann"], ["Bea"]], options={option: value}, expect=400))
    box = re.search(rf'id="opt-{option.split("-")[0]}-box">(.*?)(<div data-option|</details>)', page, re.S).group(1)
    assert says in html.unescape(box)


def test_structured_options_are_set_box_by_box(client, app):
    game_id = start(client, options={"opening_minimums-1": "60", "card_values-9": "5",
                                     "special_books-7": "1000", "pile_blocked_by-red-three": False,
                                     "pile_blocked_by-wild": False})
    sheet = load(app, game_id).sheet
    assert sheet.opening_minimums.values == (60, 90, 120, 150)
    assert sheet.card_values.to_json()["9"] == 5 and sheet.card_values.to_json()["8"] == 10
    assert sheet.describe("special_books") == "clean book of 7s: 1,000 points"
    assert sheet.describe("pile_blocked_by") == "a black three on top"


def test_a_table_the_sheet_does_not_fit_is_refused_next_to_the_sides(client):
    page = text(new_game(client, [["Ann"], ["Bea"]], preset_id="pagat", expect=400))
    assert "this sheet is for 4 to 4 players, not 2" in page
    page = text(new_game(client, [["Ann", "Cal"], ["Bea", "Ann"]], expect=400))
    assert "two players are called &#39;Ann&#39;" in page


def test_blank_side_names_come_from_the_players_and_blank_rows_are_ignored(client, app):
    data = fields(text(client.get("/new")), action="/new")
    data.update({"side-0-p0": "Ann", "side-2-p0": "Bea", "side-3-name": "", "side-5-p0": "Cal"})
    response = client.post("/new", data=data)
    assert response.status_code == 303
    game = load(app, game_id_of(response))
    assert [s["name"] for s in game.sides] == ["Ann", "Bea", "Cal"]
    assert game.name == "Ann v Bea v Cal"


# -- the game page ----------------------------------------------------------------------------------


def test_the_game_page_shows_the_score_table_next_deal_and_chart(client):
    game_id = start(client)
    record(client, game_id)
    page = text(client.get(f"/games/{game_id}"))
    assert f'href="/games/{game_id}/deals/1"' in page
    assert '<span class="pts">1,060</span>' in page and '<span class="pts">5</span>' in page
    assert "Deal 2 next" in page and "Ann: 90" in page  # the common sheet's minimum in deal 2
    assert "1 clean + 1 dirty books" in page
    chart = re.search(r'<svg class="chart".*?</svg>', page, re.S).group(0)
    assert 'role="img"' in chart and "<title" in chart and "<polyline" in chart
    assert f'href="/games/{game_id}/sheet"' in page and f'href="/games/{game_id}/history"' in page


def test_editors_see_both_links_with_qr_codes_and_viewers_never_see_the_edit_key(client, viewer, app):
    game_id = start(client)
    record(client, game_id)
    key = load(app, game_id).edit_key
    page = text(client.get(f"/games/{game_id}"))
    assert f"/games/{game_id}/edit/{key}" in page
    assert page.count('<svg role="img" aria-label="QR code: the edit link"') == 1  # the view link's is an image
    assert page.count('<img class="qr" src="') == 1 and 'alt="QR code: the view link"' in page
    for url in ["/", *screens(game_id).values()]:
        page = text(viewer.get(url))
        assert key not in page, url
        assert "Record deal" not in page and "/edit" not in page, url
    for url in editor_screens(game_id).values():
        assert key not in text(viewer.get(url)), url


def test_a_viewer_polling_the_game_gets_304_until_a_deal_changes_it(client, viewer):
    game_id = start(client)
    first = viewer.get(f"/games/{game_id}")
    etag = first.headers["ETag"]
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache"
    assert viewer.get(f"/games/{game_id}", headers={"If-None-Match": etag}).status_code == 304
    record(client, game_id)
    after = viewer.get(f"/games/{game_id}", headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.headers["ETag"] != etag
    assert '<span class="pts">1,060</span>' in text(after)  # the cached page moved with the revision


def test_the_edit_link_grants_editing_and_a_wrong_key_is_refused(client, viewer, app):
    game_id = start(client)
    key = load(app, game_id).edit_key
    assert viewer.get(f"/games/{game_id}/edit/not-the-key").status_code == 403
    assert viewer.get(f"/games/{game_id}/deals/new").status_code == 403
    response = viewer.get(f"/games/{game_id}/edit/{key}")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/games/{game_id}")
    assert viewer.get(f"/games/{game_id}/deals/new").status_code == 200
    assert "Friday" in text(viewer.get("/"))


def test_the_view_link_cannot_write(client, viewer, app):
    game_id = start(client)
    record(client, game_id)
    data = valid_deal(client, game_id)
    posts = [f"/games/{game_id}/deals/new", f"/games/{game_id}/deals/1/edit", f"/games/{game_id}/deals/1/delete",
             f"/games/{game_id}/sheet/amend"]
    for url in posts:
        response = viewer.post(url, data=dict(data, reason="because"))
        assert response.status_code == 403, url
    game = load(app, game_id)
    assert [d.number for d in game.deals] == [1] and game.revision == 1


def test_a_game_played_to_the_end_shows_the_winner(client, app):
    game_id = start(client)
    game_data = json.loads((DATA / "game-four-deals.json").read_text())
    with app.test_request_context():
        for deal in game_data["deals"]:
            writing.record_deal(game_id, deal)
    page = text(client.get(f"/games/{game_id}"))
    assert "Winner: Bea, 1,825 to 1,590" in page  # worked by hand in test_game.py
    assert "Record deal" not in page and "next" not in page.split("<h2")[1]
    assert "Bea wins" in text(client.get("/"))
    assert client.get(f"/games/{game_id}/deals/new").status_code == 303  # over: nothing to record


def test_a_game_ending_level_shows_a_tie(client, app):
    game_id = start(client, players=(("Ann",), ("Bea",), ("Cal",)))
    game_data = json.loads((DATA / "game-tie.json").read_text())
    with app.test_request_context():
        for deal in game_data["deals"]:
            writing.record_deal(game_id, deal)
        result = reading.load_game(game_id).rules.result()
    assert result.tie
    page = text(client.get(f"/games/{game_id}"))
    top = result.standings[0].total
    assert f"Game tied at {top:,}" in page
    assert "tie at" in text(client.get("/"))


def test_an_unknown_game_gets_a_friendly_404_page(client):
    response = client.get("/games/no-such-game")
    assert response.status_code == 404
    page = text(response)
    assert response.mimetype == "text/html"
    assert "<h1>Not found</h1>" in page and "no game at this address" in page
    assert '<html lang="en">' in page and "Traceback" not in page
    assert client.get("/games/no-such-game/deals/1").status_code == 404
    game_id = start(client)
    assert client.get(f"/games/{game_id}/deals/9").status_code == 404
    assert "Deal 9 of this game is not recorded" in text(client.get(f"/games/{game_id}/deals/9"))


# -- recording a deal ----------------------------------------------------------------------------------


def test_recording_a_valid_deal_through_the_form(client, app):
    game_id = start(client)
    response = record(client, game_id)
    assert response.headers["Location"].endswith(f"/games/{game_id}#main")
    game = load(app, game_id)
    deal = game.deal(1).deal.to_json(with_sheet=False)
    assert deal["ending"] == "went_out" and deal["went_out"] == "Ann"
    assert deal["sides"][0]["melds"] == [{"rank": "K", "naturals": 7}, {"rank": "Q", "naturals": 5, "twos": 2}]
    assert deal["sides"][1]["melds"] == [{"rank": "J", "naturals": 3}]
    assert deal["sides"][1]["players"][0]["cards_left"] == {"A": 1, "3B": 1}  # a count and a card string
    assert game.deal(1).verdict.breakdown.totals() == {"Ann": 1060, "Bea": 5}
    assert "Deal 1 saved." in text(client.get(f"/games/{game_id}"))


def itemised_page(client, game_id: str) -> str:
    """The new deal form with every side itemised (sent back with "Itemise melds")."""
    data = dict(deal_form(client, game_id), action="itemise-s0")
    response = client.post(f"/games/{game_id}/deals/new", data=data)
    assert response.status_code == 200
    return text(response)


def test_the_deal_form_lays_out_cards_left_by_the_sheets_values(client):
    game_id = start(client)
    page = itemised_page(client, game_id)
    assert "<p>50 each</p>" in page and "<p>20 each</p>" in page and "<p>10 each</p>" in page
    for card in ("A", "K", "10", "4", "2", "JK", "3B", "3R"):
        assert f'name="s0-p0-c-{card}"' in page
    assert len(re.findall(r'class="meld[ "]', page)) == 16  # eight blank rows for each of two sides
    assert f'data-preview="/games/{game_id}/deals/1/preview"' in page


# A sheet whose requirements change from deal to deal: each deal's pills must follow it.
PER_DEAL = {"preset": "common", "opening_minimums": [50, 90, 120, 150], "going_out_bonus": [100, 200, 300, 400],
            "draws_per_turn": [2, 2, 3, 3], "books_to_go_out": [{"clean": 1, "dirty": 1}, {"clean": 2, "dirty": 1},
                                                                {"clean": 2, "dirty": 2}, {"clean": 3}]}


def own_game(client, app, sheet: dict[str, Any], deals: int = 0, players=(("Ann",), ("Bea",))) -> str:
    """A game of ``sheet`` made through the store, with ``deals`` deals recorded, opened for editing."""
    with app.test_request_context():
        game = writing.create_game("Own rules", sheet, [{"name": p[0], "players": list(p)} for p in players])
        for _ in range(deals):
            writing.record_deal(game.id, {"ending": "stock_out", "sides": [
                {"name": p[0], "melds": [], "players": [{"name": n, "foot_picked_up": True} for n in p]}
                for p in players]}, repeat=True)
    client.get(f"/games/{game.id}/edit/{game.edit_key}")
    return game.id


def pills(page: str) -> list[str]:
    block = re.search(r'<ul class="pills"[^>]*>(.*?)</ul>', page, re.S).group(1)
    return [html.unescape(re.sub(r"<[^>]+>|\s+", lambda m: " " if m.group(0).strip() == "" else "", li)).strip()
            for li in re.findall(r"<li>(.*?)</li>", block, re.S)]


def test_the_deal_forms_pills_give_this_deals_rules_from_the_sheet(client, app):
    game_id = own_game(client, app, PER_DEAL, deals=2)
    assert pills(text(client.get(f"/games/{game_id}/deals/new"))) == [
        "Deal 3 of 4", "Draw 3", "Opening 120", "Go out: 2 clean + 2 dirty", "Going out +300"]
    assert pills(text(client.get(f"/games/{game_id}/deals/2/edit"))) == [  # a correction: that deal's own
        "Deal 2 of 4", "Draw 2", "Opening 90", "Go out: 2 clean + 1 dirty", "Going out +200"]


def test_the_pills_name_each_sides_minimum_when_they_differ_and_no_last_deal_on_a_target(client, app):
    banded = {"preset": "common", "game_length": "target", "target_score": 10_000, "opening_by": "running-total",
              "opening_bands": [{"below": 1000, "minimum": 50}, {"minimum": 90}]}  # by the running total
    game_id = own_game(client, app, banded)
    with app.test_request_context():
        writing.record_deal(game_id, {"ending": "went_out", "went_out": "Ann", "sides": [
            {"name": "Ann", "melds": ["Kx7", "Qx5 2 2"], "players": [{"name": "Ann", "foot_picked_up": True}]},
            {"name": "Bea", "melds": [], "players": [{"name": "Bea", "foot_picked_up": True}]}]})
    page = text(client.get(f"/games/{game_id}/deals/new"))
    assert pills(page)[:3] == ["Deal 2", "Draw 2", "Opening Ann 90, Bea 50"]  # Ann has 1,060, Bea 0


def test_who_went_out_comes_before_the_sides_with_each_sides_progress(client):
    game_id = start(client, players=(("Ann", "Cal"), ("Bea", "Dan")))
    page = text(client.get(f"/games/{game_id}/deals/new"))
    assert page.index('id="ending"') < page.index('id="s0"') < page.index('id="s1"')
    assert page.index('<ul class="pills"') < page.index('id="ending"')
    for key, side in (("s0-p0", 0), ("s0-p1", 0), ("s1-p0", 1), ("s1-p1", 1)):
        assert f'value="{key}" aria-describedby="s{side}-out"' in page  # each choice says why not
    data = {k: v for k, v in fields(page, action=f"/games/{game_id}/deals/new").items() if k != "s0-mode"}
    fill(data, 0, [("K", 7, 0, 0)])
    data.pop("s0-p1-picked")  # Cal never picked up his foot
    data["ending"] = "stock"
    checked = html.unescape(text(client.post(f"/games/{game_id}/deals/new", data=dict(data, action="check"))))
    out = re.search(r'<p class="out[^"]*" id="s0-out">(.*?)</p>', checked, re.S).group(1)
    assert out == ("<b>Ann & Cal</b> clean 1/1, dirty 0/1: not yet, 1 more dirty book; "
                   "Cal: The foot must be picked up and played before going out.")
    assert '<p class="out no" id="s1-out"><b>Bea & Dan</b> clean 0/1, dirty 0/1: not yet, ' in checked


def test_the_deal_forms_inputs_ask_for_the_right_keyboard(client):
    game_id = start(client, players=(("Ann", "Cal"), ("Bea", "Dan")))
    page = text(client.get(f"/games/{game_id}/deals/new"))  # counted: books, points, red threes, points left
    counts = re.findall(r'<input[^>]*name="s\d-(?:b-\w+|points|red_threes|p\d-pts)"[^>]*>', page)
    assert len(counts) == 2 * (3 + 1 + 1 + 2)
    assert all('inputmode="numeric"' in i for i in counts)
    feet = re.findall(r'<input[^>]*name="s\d-p\d-foot"[^>]*>', page)
    assert len(feet) == 4 and all('spellcheck="false"' in i for i in feet)
    page = itemised_page(client, game_id)
    counts = re.findall(r'<input[^>]*name="s\d-(?:m\d+-(?:naturals|twos|jokers)|red_threes|p\d-c-\w+)"[^>]*>', page)
    assert len(counts) == 2 * (8 * 3 + 1 + 2 * 15)  # two sides: 8 meld rows, red threes, two players' 15 kinds
    assert all('inputmode="numeric"' in i for i in counts)
    cards = re.findall(r'<input[^>]*name="s\d-(?:m\d+-cards|p\d-left|p\d-foot)"[^>]*>', page)
    assert len(cards) == 2 * (8 + 2 * 2)
    for attribute in ('autocapitalize="off"', 'autocorrect="off"', 'spellcheck="false"'):
        assert all(attribute in i for i in cards), attribute
    assert "<b>Kx7</b> is seven kings" in page and 'placeholder="or cards: Kx7"' in page


def test_the_preview_sends_the_bars_totals_and_each_sides_progress(client):
    game_id = start(client)
    data = valid_deal(client, game_id)
    live = html.unescape(text(client.post(f"/games/{game_id}/deals/1/preview", data=data)))
    assert ('<p class="score" id="bar-score"><span>Ann <strong>1,060</strong></span> · '
            '<span>Bea <strong>5</strong></span></p>') in live
    assert '<p class="out" id="s0-out">clean 1/1, dirty 1/1: may go out</p>' in live  # a player alone: no name
    assert '<p class="out no" id="s1-out">clean 0/1, dirty 0/1: not yet, 1 more clean book, 1 more dirty book</p>' \
        in live


def test_a_deal_with_violations_is_not_saved_and_each_problem_shows_next_to_its_field(client, app):
    game_id = start(client)
    data = valid_deal(client, game_id)
    fill(data, 1, ["J J J", ("Q", 2, 2, 0)])  # a meld with as many wilds as naturals, in row 2
    data["s1-p0-foot"] = "K K"  # Bea never picked up her foot, which holds 2 cards, not 11
    data.pop("s1-p0-picked")
    response = client.post(f"/games/{game_id}/deals/new", data=data)
    assert response.status_code == 422
    page = text(response)
    row = re.search(r'<div class="meld bad" id="s1-m1">(.*?)</div>', page, re.S).group(1)
    assert "This sheet needs more natural cards than wild cards" in row
    player = re.search(r'<fieldset class="player" id="s1-p0".*?</fieldset>\s*</fieldset>', page, re.S).group(0)
    assert "Bea's unopened foot holds 2 cards; a foot is dealt 11." in html.unescape(player)
    assert '<a href="#s1-m1">' in page  # the summary links to the row
    assert "Save as played" in page
    assert load(app, game_id).deals == []
    assert 'value="K K"' in page and 'value="J J J"' in page  # what was typed comes back


def test_a_deal_with_violations_saves_as_played_with_a_reason_and_is_marked(client, app):
    game_id = start(client)
    data = valid_deal(client, game_id)
    fill(data, 1, ["J J J", ("Q", 2, 2, 0)])
    response = client.post(f"/games/{game_id}/deals/new", data=dict(data, action="as_played", reason=""))
    assert response.status_code == 400
    assert "Say briefly why the deal stands as played." in text(response)
    assert load(app, game_id).deals == []
    response = client.post(f"/games/{game_id}/deals/new",
                           data=dict(data, action="as_played", reason="Bea's meld was allowed at the table"))
    assert response.status_code == 303
    record_ = load(app, game_id).deal(1)
    assert record_.as_played == "Bea's meld was allowed at the table"
    page = text(client.get(f"/games/{game_id}"))
    assert 'class="as-played"' in page
    assert 'title="Saved as played: Bea&#39;s meld was allowed at the table"' in page
    assert "Deal 1 was saved as played: “Bea&#39;s meld was allowed at the table”" in page
    detail = text(client.get(f"/games/{game_id}/deals/1"))
    assert "Saved as played" in detail and "This sheet needs more natural cards" in detail


def test_check_previews_the_score_and_problems_without_saving(client, app):
    game_id = start(client)
    page = text(client.post(f"/games/{game_id}/deals/new", data=dict(valid_deal(client, game_id), action="check")))
    assert "The referee finds nothing wrong" in page and "Ann <strong>1,060</strong>" in page
    assert load(app, game_id).deals == []
    data = valid_deal(client, game_id)
    data.pop("ending")
    response = client.post(f"/games/{game_id}/deals/new", data=dict(data, action="check"))
    assert response.status_code == 400
    assert "Say who went out, or that the stock ran out." in text(response)


def test_unreadable_boxes_are_named_and_nothing_is_saved(client, app):
    game_id = start(client)
    data = valid_deal(client, game_id)
    data["s0-m2-naturals"] = "3"  # no rank chosen
    data["s1-p0-left"] = "Z"
    data["s0-m3-cards"] = "K K Q"
    response = client.post(f"/games/{game_id}/deals/new", data=data)
    assert response.status_code == 400
    page = text(response)
    assert "Choose the meld&#39;s rank (or wild)." in re.search(r'id="s0-m2">(.*?)</div>', page, re.S).group(1)
    assert "Cards left: &#39;Z&#39; is not a card" in page
    assert load(app, game_id).deals == []
    data.pop("s0-m2-naturals"), data.pop("s1-p0-left")
    response = client.post(f"/games/{game_id}/deals/new", data=data)
    assert response.status_code == 400  # the store cannot read a meld of kings and a queen
    assert "a meld holds natural cards of one rank only" in re.search(r'id="s0-m3">(.*?)</div>', text(response),
                                                                     re.S).group(1)


def test_more_meld_rows_keeps_what_was_typed(client):
    game_id = start(client)
    data = valid_deal(client, game_id)
    page = text(client.post(f"/games/{game_id}/deals/new", data=dict(data, action="more")))
    assert page.count('id="s0-m') == 12 and 'name="s0-rows" value="12"' in page
    again = fields(page, action=f"/games/{game_id}/deals/new")
    assert again["s0-m0-rank"] == "K" and again["s0-m0-naturals"] == "7" and again["ending"] == "s0-p0"


def test_a_stale_form_is_refused_with_409_and_can_be_sent_again(client, app):
    game_id = start(client)
    data = valid_deal(client, game_id)
    with app.test_request_context():
        writing.amend_sheet(game_id, {"preset": "common", "going_out_bonus": 200}, "house rule")
    response = client.post(f"/games/{game_id}/deals/new", data=data)
    assert response.status_code == 409 and "the game changed since you loaded it" in text(response)
    again = fields(text(response), action=f"/games/{game_id}/deals/new")
    record(client, game_id, dict(again, action="save"))


# -- a recorded deal: detail, correction, deletion ----------------------------------------------------


def test_a_deals_detail_itemises_each_line_with_the_rule_behind_it(client):
    game_id = start(client)
    record(client, game_id)
    page = text(client.get(f"/games/{game_id}/deals/1"))
    assert "Melded kings" in page and "7 × 10" in page and ">70<" in page
    assert "Card values: joker: 50; 2 A: 20; K Q J 10 9 8: 10; 7 6 5 4 black 3: 5" in page
    assert "Clean book: 500 points" in page
    assert "Bea’s hand" in page.replace("'", "’") or "Bea&#39;s hand" in page
    assert "Recorded" in page  # its history


def test_correcting_a_deal_keeps_both_versions_in_its_history(client, app):
    game_id = start(client)
    record(client, game_id)
    page = text(client.get(f"/games/{game_id}/deals/1/edit"))
    data = fields(page, action=f"/games/{game_id}/deals/1/edit")
    assert data["s0-m0-rank"] == "K" and data["s0-m0-naturals"] == "7" and data["s1-p0-c-A"] == "1"
    data["s1-p0-c-A"] = ""  # Bea held no ace after all
    response = client.post(f"/games/{game_id}/deals/1/edit", data=dict(data, action="save"))
    assert response.status_code == 303
    assert load(app, game_id).deal(1).verdict.breakdown.totals() == {"Ann": 1060, "Bea": 25}
    history = text(client.get(f"/games/{game_id}/deals/1"))
    assert "Recorded deal 1" in history and "Corrected deal 1" in history
    assert "<td>5</td><td>25</td>" in history  # Bea's total before and after
    with app.app_context():
        assert [e["action"] for e in reading.history(game_id, 1)] == ["record", "edit"]


def test_saving_a_correction_identical_to_the_deal_says_unchanged_and_writes_nothing(client, app):
    game_id = start(client)
    record(client, game_id)
    data = fields(text(client.get(f"/games/{game_id}/deals/1/edit")), action=f"/games/{game_id}/deals/1/edit")
    response = client.post(f"/games/{game_id}/deals/1/edit", data=dict(data, action="save"), follow_redirects=True)
    assert "Deal 1 unchanged" in text(response) and "Deal 1 corrected" not in text(response)
    assert load(app, game_id).revision == 1
    with app.app_context():
        assert [e["action"] for e in reading.history(game_id, 1)] == ["record"]
    data["s1-p0-c-A"] = ""  # now a real correction
    response = client.post(f"/games/{game_id}/deals/1/edit", data=dict(data, action="save"), follow_redirects=True)
    assert "Deal 1 corrected" in text(response) and load(app, game_id).revision == 2


def test_deleting_a_deal_asks_first_and_keeps_it_in_the_history(client, app):
    game_id = start(client)
    record(client, game_id)
    confirm = text(client.get(f"/games/{game_id}/deals/1/delete"))
    assert "Delete deal 1?" in confirm and "Ann 1,060" in confirm
    response = client.post(f"/games/{game_id}/deals/1/delete", data=fields(confirm))
    assert response.status_code == 303
    assert load(app, game_id).deals == []
    history = text(client.get(f"/games/{game_id}/history"))
    assert "Recorded deal 1" in history and "Deleted deal 1" in history
    assert "<td>1,060</td><td>—</td>" in history
    assert client.get(f"/games/{game_id}/deals/1").status_code == 404


# -- the sheet -------------------------------------------------------------------------------------


def test_the_sheet_page_reads_in_plain_words_with_its_source(client):
    game_id = start(client, players=(("Ann", "Cal"), ("Bea", "Dan")), preset_id="bicycle",
                    options={"red_three_penalty_foot": 300})
    page = text(client.get(f"/games/{game_id}/sheet"))
    # The published source by title and address, never the project's own file of it
    bicycle = '<a href="https://bicyclecards.com/how-to-play/hand-and-foot">Bicycle Cards: Hand and Foot</a>'
    assert f"Source: {bicycle}" in page
    assert "sources/" not in page and ".txt" not in page
    assert "Red three in a foot never picked up" in page and "minus 300 points" in page
    assert "(preset: nothing)" in page
    assert "Preset’s note: not stated: the deal ends, as on Pagat&#39;s sheet" in page
    assert "Amend the sheet" in page


def test_amending_the_sheet_needs_a_reason_and_is_kept_in_history(client, app):
    game_id = start(client)
    record(client, game_id)
    page = text(client.get(f"/games/{game_id}/sheet/amend"))
    data = fields(page, action=f"/games/{game_id}/sheet/amend")
    data["opt-going_out_bonus-1"] = "200"
    response = client.post(f"/games/{game_id}/sheet/amend", data=data)
    assert response.status_code == 400 and "Say why the table changes the sheet" in text(response)
    assert re.search(r'class="opt changed" id="opt-going_out_bonus-box"', text(response))
    response = client.post(f"/games/{game_id}/sheet/amend", data=dict(data, reason="We agreed 200"))
    assert response.status_code == 303
    game = load(app, game_id)
    assert game.sheet.to_json() == {"preset": "common", "preset_version": 1, "going_out_bonus": 200}
    assert game.deal(1).verdict.breakdown.totals()["Ann"] == 1160
    sheet = text(client.get(f"/games/{game_id}/sheet"))
    assert "We agreed 200" in sheet and "Going out: 100 points → 200 points" in sheet
    loaded = fields(text(client.get(f"/games/{game_id}/sheet/amend?preset=pagat")),
                    action=f"/games/{game_id}/sheet/amend")
    assert loaded["preset"] == "pagat" and loaded["opt-hand_size"] == "13"  # "Load preset" without scripts
    assert "Sheet amended" in text(client.get(f"/games/{game_id}/history"))


def test_a_game_whose_sheet_has_no_preset_reads_and_amends(client, app):
    full = preset("common").to_json(full=True)
    del full["preset"]
    with app.test_request_context():
        game = writing.create_game("Own rules", full, [{"name": "Ann", "players": ["Ann"]},
                                                     {"name": "Bea", "players": ["Bea"]}])
    client.get(f"/games/{game.id}/edit/{game.edit_key}")
    assert "its own sheet (no preset)" in text(client.get(f"/games/{game.id}/sheet"))
    data = fields(text(client.get(f"/games/{game.id}/sheet/amend")), action=f"/games/{game.id}/sheet/amend")
    assert data["preset"] == ""
    data.update({"opt-hand_size": "12", "reason": "x" * 201})
    response = client.post(f"/games/{game.id}/sheet/amend", data=data)
    assert response.status_code == 400 and "must be at most 200 characters" in text(response)
    response = client.post(f"/games/{game.id}/sheet/amend", data=dict(data, reason="short hands"))
    assert response.status_code == 303
    assert load(app, game.id).sheet.hand_size == 12


# -- safety ---------------------------------------------------------------------------------------


def test_a_post_without_a_csrf_token_is_refused(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    page = text(client.get("/new"))
    data = fields(page, action="/new")
    assert data.get("csrf_token")
    data.update({"side-0-p0": "Ann", "side-1-p0": "Bea"})
    without = {k: v for k, v in data.items() if k != "csrf_token"}
    response = client.post("/new", data=without)
    assert response.status_code == 400
    assert "This form has expired" in text(response) and "<main" in text(response)
    response = client.post("/new", data=data)
    assert response.status_code == 303
    game_id = game_id_of(response)
    form = fields(text(client.get(f"/games/{game_id}/deals/new")), action=f"/games/{game_id}/deals/new")
    assert form.get("csrf_token")
    form.pop("csrf_token")
    assert client.post(f"/games/{game_id}/deals/new", data=form).status_code == 400


def test_a_player_called_a_script_tag_is_always_escaped(client, app):
    response = new_game(client, [[SCRIPT_NAME], ["Bea"]], name=SCRIPT_NAME)
    game_id = game_id_of(response)
    data = valid_deal(client, game_id)
    record(client, game_id, data)
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    for url in ["/", f"/games/{game_id}", f"/games/{game_id}/deals/1", f"/games/{game_id}/deals/1/edit",
                f"/games/{game_id}/deals/new", f"/games/{game_id}/history", f"/games/{game_id}/sheet",
                f"/games/{game_id}/deals/1/delete"]:
        page = text(client.get(url))
        assert SCRIPT_NAME not in page, url
        assert escaped in page, url
    # and where the referee quotes the name back, on a rejected deal
    data = valid_deal(client, game_id)
    data["s0-p0-c-K"] = "2"  # went out still holding cards
    page = text(client.post(f"/games/{game_id}/deals/new", data=data))
    assert SCRIPT_NAME not in page and f"{escaped} went out but still holds 2 cards." in page


# -- the deal page stays small -------------------------------------------------------------------------


@pytest.mark.parametrize("players, preset_id", [
    ((("Ann", "Cal"), ("Bea", "Dan")), "pagat"),
    ((("Ann",), ("Bea",), ("Cal",), ("Dan",), ("Eve",), ("Fay",)), "common"),
    ((("Ann", "Cal", "Eve"), ("Bea", "Dan", "Fay")), "common-3"),
    (tuple((f"Player number {n:02d}",) for n in range(6)), "common"),  # six longer names
])
def test_the_deal_page_with_its_css_and_script_is_under_40_kb(client, players, preset_id):
    options = {"side_sizes-1": False, "side_sizes-2": False, "side_sizes-3": True} if preset_id == "common-3" else {}
    game_id = start(client, players=players, preset_id=preset_id.removesuffix("-3"), options=options)
    page = client.get(f"/games/{game_id}/deals/new").get_data()
    assets = re.findall(r'(?:href|src)="(/static/[^"]+\.(?:css|js))"', page.decode())
    assert any(a.endswith(".css") for a in assets) and any(a.endswith(".js") for a in assets)
    total = len(page) + sum(len(client.get(a).get_data()) for a in assets)
    assert total < 40 * 1024, total
    assert not re.search(r'(?:href|src)="(?:https?:)?//', page.decode())  # nothing from another host


# -- placing problems on the deal form (unit) --------------------------------------------------------


def test_read_error_paths_land_on_the_fields_they_name():
    sides = [{"name": "NS", "players": ["Ann", "Cal"]}, {"name": "EW", "players": ["Bea", "Dan"]}]
    form = DealForm.from_form(sides, preset("pagat"), {
        "s0-rows": "4", "s0-m0-cards": "K K K", "s0-m2-rank": "Q", "s0-m2-naturals": "3", "ending": "stock"})
    assert form.to_json() is not None
    assert form.sides[0].row_of_meld == [0, 2]  # the blank row 1 is skipped
    where = {
        "sides[0].melds[1]": "s0-m2", "sides[0].melds": "s0", "sides[1].players[1].foot": "s1-p1",
        "sides[1].players[0].foot_picked_up": "s1-p0", "went_out": "ending", "sides": "top", "deal": "top",
        "sides[0].red_threes": "s0",
    }
    for path, anchor in where.items():
        assert form.place(path, path) == anchor, path
    assert form.sides[0].rows[2].problems == ["sides[0].melds[1]"]
    assert form.sides[1].players[1].problems == {"foot": ["sides[1].players[1].foot"]}
    assert form.sides[1].players[0].problems == {"picked": ["sides[1].players[0].foot_picked_up"]}
    assert form.ending_problems == ["went_out"]
    assert form.top == ["sides", "deal"]


def test_problems_land_on_the_side_player_meld_and_input_they_name():
    """Placed from the problem's side, player, meld and field: its ``where`` is never read."""
    sides = [{"name": "NS", "players": ["Ann", "Cal"]}, {"name": "EW", "players": ["Bea", "Dan"]}]
    form = DealForm.from_form(sides, preset("pagat"), {
        "s0-rows": "4", "s0-m0-cards": "K K K", "s0-m2-rank": "Q", "s0-m2-naturals": "3", "ending": "stock"})
    assert form.to_json() is not None
    nowhere = "not a path"
    placed = form.place_problems([
        Problem("meld", "second meld", None, nowhere, "NS", None, 1),
        Problem("foot", "Dan's foot", None, nowhere, "EW", "Dan", None, "foot"),
        Problem("picked", "Bea's pick-up", None, nowhere, "EW", "Bea", None, "foot_picked_up"),
        Problem("books", "NS's books, Ann going out", None, nowhere, "NS", "Ann", None, "melds"),
        Problem("red", "NS's red threes", None, nowhere, "NS", None, None, "red_threes"),
        Problem("player", "Cal as a whole", None, nowhere, "NS", "Cal"),
        Problem("out", "who went out", None, nowhere, field="went_out"),
        Problem("table", "the table", None, nowhere),
    ])
    assert [anchor for anchor, _ in placed] == ["s0-m2", "s1-p1", "s1-p0", "s0", "s0", "s0-p1", "ending", "top"]
    assert form.sides[0].rows[2].problems == ["second meld"]
    assert form.sides[1].players[1].problems == {"foot": ["Dan's foot"]}
    assert form.sides[1].players[0].problems == {"picked": ["Bea's pick-up"]}
    assert form.sides[0].problems == {"melds": ["NS's books, Ann going out"], "red_threes": ["NS's red threes"]}
    assert form.sides[0].players[1].problems == {"": ["Cal as a whole"]}
    assert form.ending_problems == ["who went out"] and form.top == ["the table"]


# -- the live preview of the deal form -------------------------------------------------------------------


def test_the_preview_scores_the_form_as_typed_with_nothing_saved(client, app):
    game_id = start(client)
    data = valid_deal(client, game_id)
    del data["ending"], data["action"]  # nobody has said yet who went out
    response = client.post(f"/games/{game_id}/deals/1/preview", data=data)
    assert response.status_code == 200 and response.mimetype == "text/html"
    live = html.unescape(text(response))
    # Kings 7 x 10 + a clean book 500; queens 5 x 10 + 2 x 20 + a dirty book 300. Bea: jacks 30,
    # an ace -20 and a black three -5 left.
    assert "Live score: Ann 960 · Bea 5" in live
    assert '<a href="#ending" data-bad="ending">Say which player went out.</a>' in live
    assert "finds nothing wrong" not in live
    data["ending"] = "s0-p0"
    live = html.unescape(text(client.post(f"/games/{game_id}/deals/1/preview", data=data)))
    assert "Live score: Ann 1,060 · Bea 5. The referee finds nothing wrong." in live
    assert load(app, game_id).deals == []


def test_the_preview_places_each_problem_as_the_check_button_does(client):
    game_id = start(client)
    data = valid_deal(client, game_id)
    fill(data, 1, ["J J J", ("Q", 2, 2, 0)])  # a meld with as many wilds as naturals, in row 2
    live = text(client.post(f"/games/{game_id}/deals/1/preview", data=data))
    assert '<li class="live-err"><a href="#s1-m1" data-bad="s1-m1">' in live
    data["action"] = "check"
    page = text(client.post(f"/games/{game_id}/deals/new", data=data))
    assert '<a href="#s1-m1">' in page


def test_the_preview_says_what_cannot_be_read_yet_and_never_counts_it(client):
    game_id = start(client)
    data = valid_deal(client, game_id)
    data["s0-m0-rank"] = ""  # counts without a rank
    live = html.unescape(text(client.post(f"/games/{game_id}/deals/1/preview", data=data)))
    assert "Not readable yet: Choose the meld's rank (or wild)." in live
    assert re.search(r"Live score: Ann \? · Bea -?[\d,]+", live)  # Ann's score not known; Bea's is
    assert '<span>Ann <strong>?</strong></span>' in live and "finds nothing wrong" not in live


def test_the_preview_needs_the_forms_csrf_token(make_app):
    client = make_app(WTF_CSRF_ENABLED=True).test_client()
    game_id = start(client)
    data = valid_deal(client, game_id)
    assert client.post(f"/games/{game_id}/deals/1/preview", data=data).status_code == 200
    del data["csrf_token"]
    assert client.post(f"/games/{game_id}/deals/1/preview", data=data).status_code == 400


def test_the_form_reads_a_foot_only_when_it_was_not_picked_up():
    sides = [{"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]
    data = {"s0-p0-picked": "1", "s0-p0-foot": "K K", "s1-p0-foot": "Q x11", "s1-p0-c-K": "2", "ending": "s0-p0"}
    deal = DealForm.from_form(sides, preset("common"), data).to_json()
    assert "foot" not in deal["sides"][0]["players"][0]
    assert deal["sides"][1]["players"][0] == {"name": "Bea", "foot_picked_up": False, "cards_left": {"K": 2},
                                              "foot": "Q x11"}
    assert deal["went_out"] == "Ann" and deal["ending"] == "went_out"


@pytest.mark.parametrize("page", ["new", "edit", "delete", "amend"])
def test_a_form_with_a_revision_ahead_of_the_game_is_answered_as_a_stale_form(client, app, page):
    """The store calls a revision the game never had unreadable (the API's 400); a page whose
    game went back (a database restored under it) shows the game as it is now instead."""
    game_id = start(client)
    record(client, game_id)  # revision 1
    before = load(app, game_id)
    if page == "new":
        response = client.post(f"/games/{game_id}/deals/new", data=dict(valid_deal(client, game_id), revision="9"))
        assert response.status_code == 409 and "the game changed since you loaded it" in text(response)
        assert fields(text(response), action=f"/games/{game_id}/deals/new")["revision"] == "1"
    elif page == "edit":
        data = fields(text(client.get(f"/games/{game_id}/deals/1/edit")), action=f"/games/{game_id}/deals/1/edit")
        data["s1-p0-c-A"] = ""
        response = client.post(f"/games/{game_id}/deals/1/edit", data=dict(data, action="save", revision="9"))
        assert response.status_code == 409 and "the game changed since you loaded it" in text(response)
    elif page == "delete":
        response = client.post(f"/games/{game_id}/deals/1/delete", data={"revision": "9"}, follow_redirects=True)
        assert "Not deleted: the game changed since you loaded it" in text(response)
    else:
        data = fields(text(client.get(f"/games/{game_id}/sheet/amend")), action=f"/games/{game_id}/sheet/amend")
        response = client.post(f"/games/{game_id}/sheet/amend", data=dict(data, reason="house", revision="9"))
        assert response.status_code == 409 and "the game changed since you loaded it" in text(response)
    after = load(app, game_id)
    assert (after.revision, after.deals[0].deal) == (before.revision, before.deals[0].deal)
