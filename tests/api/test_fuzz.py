"""Fuzzing every route of ``app.url_map`` with hypothesis: random and mutated JSON at every API
route (every method, with and without a game's edit key), random and mutated form posts and
query strings at every page route (CSRF off in this app), on a SQLite file and on a
PostgreSQL database.

For every request: never a 500 and never a traceback; an API answer of 4xx is the one error
shape; a page's 4xx is an HTML page; and a refused request (4xx) or a read (GET) leaves the
database exactly as it was (every table compared, row by row). A write the app accepts may
change it, and then every page of each game it changed is read again (the game page as its
editor and as a viewer, each deal, the history, the CSV, the export, the referee page, and
the home page of the browser that holds the game's edit link): what was stored must show.

Texts include lone surrogates and control characters. JSON carries a surrogate as an
escape; a form or query string carries it as the bytes ``surrogatepass`` gives (a browser
cannot send it, an attacker can send the bytes).

Every route is also sent methods it does not take (a 405, in the error shape under /api).

Routes come from ``app.url_map`` when this file is collected, so a new route is fuzzed with
no change here; ``test_every_route_can_be_fuzzed`` fails if a new route has a path argument,
a JSON body or a form this file does not know how to fill (add it to ``ARGS``,
``VALID_BODIES`` or ``VALID_FORMS``). About 6 examples a route and method, a few hundred in
all; SCOREPAD_FUZZ_SCALE=20 (say) searches twenty times as long.
"""

from __future__ import annotations

import copy
import io
import json
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorepad.api.problems import TYPES
from scorepad.app import create_app
from tests.helpers import (
    ANN_BEA,
    api_game,
    assert_error_shape,
    assert_no_traceback,
    bearer,
    dump,
    form_fields,
    grant,
    sql,
    valid_deal,
)

SCALE = max(float(os.environ.get("SCOREPAD_FUZZ_SCALE", "1")), 0.01)
EXAMPLES = max(int(6 * SCALE), 1)
# No example database: the examples start from the game as the fuzz has left it, so one saved
# from an earlier run would not replay the same requests; a failure prints its blob instead.
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])
IGNORED_METHODS = {"HEAD", "OPTIONS"}


def _rules() -> list[tuple[str, str, str]]:
    """(rule, endpoint, method) of every route, from a throwaway app's url_map."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "DATABASE": os.path.join(folder, "s.sqlite"), "SECRET_KEY": "t"})
        return sorted((rule.rule, rule.endpoint, method) for rule in app.url_map.iter_rules()
                      for method in (rule.methods or set()) - IGNORED_METHODS)


ROUTES = _rules()


# -- the world the requests land in -------------------------------------------------------------------


@dataclass
class World:
    app: Any
    editor: Any  # a browser holding the game's edit link
    viewer: Any  # a browser with only the view link
    api: Any  # a client of the JSON API
    game: str
    key: str
    other: str  # a second game, whose key the editor does not hold
    db: str
    event: str = ""  # a club night with its first round started
    organiser: str = ""  # its organiser key


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def world(tmp_path_factory, request):
    """Two games to fuzz around, on a SQLite file and on a PostgreSQL database (whose text
    refuses what SQLite keeps, NUL)."""
    if request.param == "postgresql":
        path = request.getfixturevalue("postgresql").new_database(request.getfixturevalue("migrated_postgresql"))
    else:
        path = str(tmp_path_factory.mktemp("fuzz") / "scorepad.sqlite")
    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "fuzz", "WTF_CSRF_ENABLED": False})
    request.addfinalizer(app.extensions["scorepad.database"].close)
    client = app.test_client()
    game, key = api_game(client, name="Friday")
    assert client.post(f"/api/v1/games/{game}/deals", json=valid_deal(1), headers=bearer(key)).status_code == 201
    other, _ = api_game(client, name="Saturday", sheet="pagat", sides=[
        {"name": "North-South", "players": ["Ann", "Cal"]}, {"name": "East-West", "players": ["Bea", "Dan"]}])
    editor = app.test_client()
    grant(editor, game, key)
    made = World(app, editor, app.test_client(), client, game, key, other, path)
    _new_event(made)
    return made


def _new_event(world: World) -> None:
    """A club night of eight players, its first round started: what the event routes aim at."""
    made = world.api.post("/api/v1/events", json={"name": "Tuesday club", "format": "progressive", "rounds": 3,
                                                   "players": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]})
    assert made.status_code == 201, made.get_data(as_text=True)
    world.event, world.organiser = made.get_json()["id"], made.get_json()["organiser_key"]
    assert world.api.post(f"/api/v1/events/{world.event}/rounds", headers=bearer(world.organiser)).status_code == 201
    assert world.editor.get(f"/events/{world.event}/organise/{world.organiser}").status_code == 303  # its organiser


# -- strategies --------------------------------------------------------------------------------------

FIELD_NAMES = ("name", "sheet", "sides", "players", "deal", "ending", "went_out", "as_played", "reason",
               "revision", "melds", "rank", "naturals", "twos", "jokers", "cards", "red_threes", "cards_left",
               "foot", "foot_picked_up", "cut_bonus", "preset", "hand_size", "decks", "card_values", "meld",
               "adding_to", "table", "books", "clean", "top_card", "pile_size", "pair", "wilds", "opened",
               "running_total", "buried", "side", "game", "format", "version", "history", "number", "action",
               "a", "b", "ask", "paper", "sheet_json")
UNTYPED = ["\udc00", "\ud800", "\udfff", "\udc00", "\x00", "\x01", "\x07", "\t", "\n", "\r", "\x1b", "\x1f", "\x7f",
           "\x85", "\x9f"]
texts = (st.text(st.characters(exclude_categories=()), max_size=24)  # surrogates and control characters too
         | st.tuples(st.sampled_from(["", "Ann", "Bea", "K K"]), st.sampled_from(UNTYPED),
                     st.sampled_from(["", "x", " K"])).map("".join))
tricky_texts = st.sampled_from([
    "", " ", "K", "Kx3", "K K K 2", "Kx9999", "3R 3B", "wild", "JK", "Ann", "Bea", "common", "pagat", "house",
    "went_out", "stock_out", "<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "=SUM(A1)", "\x00",
    "ä" * 41, "N" * 41, "x" * 201, "K " * 1500, "9" * 30, "-1", "1e999", "NaN", "[" * 200, "{", "null", "²",
    "../../etc/passwd", "%00", "s0-p0", "stock", "save", "check", "as_played", "more", "letter", "a4", "all",
    "A\udc00", "Ann\x00", "B\tea", "two\nlines", "a;=1+1;", "x,@SUM(1)",
])
long_texts = st.integers(200, 20_000).map(lambda n: "K " * (n // 2))
any_text = texts | tricky_texts | long_texts
numbers = (st.integers(-(2**70), 2**70) | st.sampled_from([0, 1, 2, -1, 40, 41, 200, 201, 1000, 1001, 10**6, 10**9,
                                                             10**9 + 1, 2**63])
           | st.floats(allow_nan=True, allow_infinity=True))
json_leaves = st.none() | st.booleans() | numbers | any_text
json_values = st.recursive(
    json_leaves,
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(FIELD_NAMES) | texts, children, max_size=4),
    max_leaves=16,
)


def pick(draw: Callable[[Any], Any], items: list[Any]) -> Any:
    """One of ``items``, drawn as an index: the same draws whatever the list holds (the valid
    bodies and forms come from the game as it stands, which the fuzz itself changes), so
    hypothesis can replay and shrink a failing example."""
    return items[draw(st.integers(0, 2**16)) % len(items)]


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every place in a JSON value, as a path of keys and indexes."""
    out = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            out += _paths(child, path + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            out += _paths(child, path + (i,))
    return out


def _untyped(draw: Callable[[Any], Any], text: str) -> str:
    """``text`` with a character nobody types put in it somewhere."""
    at = draw(st.integers(0, len(text)))
    return text[:at] + draw(st.sampled_from(UNTYPED)) + text[at:]


def _mutate(draw: Callable[[Any], Any], value: Any) -> Any:
    """One change at one random place: replaced, removed, a key added, a list grown, a
    character nobody types put into a text, ..."""
    op = draw(st.sampled_from(["replace", "replace", "remove", "add", "grow", "wrap", "stretch", "untype", "untype"]))
    paths = _paths(value)
    if op == "untype":  # aimed at the texts: names, reasons, card strings
        texts_at = [p for p in paths if p and isinstance(_at(value, p), str)]
        paths = texts_at or paths
    path = pick(draw, paths)
    if not path:
        return draw(json_values) if op in ("replace", "remove") else [value] if op == "wrap" else value
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    target = parent[last]
    if op == "replace":
        parent[last] = draw(json_values)
    elif op == "remove":
        del parent[last]
    elif op == "add" and isinstance(target, dict):
        target[draw(st.sampled_from(FIELD_NAMES) | texts)] = draw(json_values)
    elif op == "grow" and isinstance(target, list) and target:
        parent[last] = target * draw(st.integers(2, 12))
    elif op == "wrap":
        parent[last] = [target]
    elif op == "stretch" and isinstance(target, str):
        parent[last] = target * draw(st.integers(2, 3000)) if target else "x" * 50_000
    elif op == "untype" and isinstance(target, str):
        parent[last] = _untyped(draw, target)
    elif op == "stretch" and isinstance(target, int) and not isinstance(target, bool):
        parent[last] = draw(st.sampled_from([target * 10**6, -target - 1, 2**64, 10**9 + 1]))
    else:
        parent[last] = draw(json_values)
    return value


def _at(value: Any, path: tuple) -> Any:
    for key in path:
        value = value[key]
    return value


def mutated(base: Any) -> st.SearchStrategy:
    @st.composite
    def build(draw):
        value = copy.deepcopy(base)
        for _ in range(draw(st.integers(1, 3))):
            value = _mutate(draw, value)
        return value
    return build()


# -- how to fill each route ------------------------------------------------------------------------


def _args(world: World) -> dict[str, st.SearchStrategy]:
    """A strategy for each path argument a route may have."""
    return {
        "game_id": mostly([world.game] * 6 + [world.other, "nope", "x" * 1000, "a\x00b"], texts),
        "number": mostly([1, 1, 1, 2, 3, 0], st.integers(0, 10**30)),
        "key": mostly([world.key] * 4 + ["nope", "k" * 5000, "\u00e9"], texts),
        "sheet_id": mostly(["common", "pagat", "bicycle", "house"], texts),
        "preset_id": mostly(["common", "pagat", "gather-together", "house"], texts),
        "filename": mostly(["app.css", "live.js", "favicon.svg", "../scorepad/app.py", "nope.js"], texts),
        "slug": mostly([*TYPES, "nope"], texts),
        "side": mostly([1, 1, 2, 2, 3, 0], st.integers(0, 10**30)),
        "event_id": mostly([world.event] * 6 + ["nope", "x" * 1000, "a\x00b"], texts),
        "table": mostly([1, 1, 2, 3, 0], st.integers(0, 10**30)),
        "round_number": mostly([1, 1, 1, 2, 0], st.integers(0, 10**30)),
        "club": mostly(["Lakemont", "Nobody", "x" * 1000], texts),
    }


def mostly(values: list[Any], other: st.SearchStrategy) -> st.SearchStrategy:
    """One of ``values`` nine times in ten, else ``other``: requests that reach past the 404."""
    return st.integers(0, 9).flatmap(lambda n: other if n == 9 else st.sampled_from(values))


ARGS = ("game_id", "number", "key", "sheet_id", "preset_id", "filename", "slug", "side", "event_id", "table",
        "round_number", "club")


def _scored() -> dict[str, Any]:
    return {**valid_deal(1), "sheet": "common"}


VALID_BODIES: dict[str, Callable[[World], Any]] = {
    "api.score_deal": lambda w: _scored(),
    "api.create_game": lambda w: {"name": "Fuzz", "sheet": "common", "sides": ANN_BEA},
    "api.amend_sheet": lambda w: {"sheet": {"preset": "common", "hand_size": 13}, "reason": "thirteen"},
    "api.record_deal": lambda w: valid_deal(None),
    "api.correct_deal": lambda w: {**valid_deal(1), "as_played": {"reason": "fine"}},
    "api.import_api": lambda w: json.loads(w.api.get(f"/api/v1/games/{w.game}/export").get_data()),
    "api.meld": lambda w: {"sheet": "pagat", "meld": "9 9 9 2 2", "table": ["K K K"]},
    "api.go_out": lambda w: {"sheet": "pagat", "deal": 1, "partners_picked_up": [True], "permission": True,
                                     "melds": ["K K K K K K K", "A A A A A A A"]},
    "api.pile": lambda w: {"sheet": "pagat", "deal": 1, "top_card": "9", "pair": 2, "wilds": 1,
                                   "opened": False, "pile_size": 10},
    "api.minimum": lambda w: {"game": w.game, "melds": ["9 9 9 2"], "top_card": "9", "buried": "2",
                                      "side": "Ann"},
    "api.explain": lambda w: {"deal": _scored()},
    "api.rescore": lambda w: {"sheet": "pagat", "deal": _scored()},
    "api.replace_edit_key": lambda w: {},
    "api.end_game": lambda w: {"revision": 1},  # the fuzz's game plays four deals: refused, 409
    "api.reopen_game": lambda w: {},
    "api.save_part": lambda w: valid_deal()["sides"][0],
    "api.save_ending": lambda w: {"ending": "went_out", "went_out": "Ann"},
    "api.confirm_part": lambda w: {"by_side": 2, "version": 1},
    "api.create_event": lambda w: {"name": "Fuzz night", "players": ["Ann", "Ben", "Cat", "Dan"],
                                   "format": "progressive", "rounds": 2},
    "api.add_players": lambda w: {"players": ["Zed", {"name": "Yan", "member": "7"}]},
    "api.start_round": lambda w: {},
    "api.set_leaving": lambda w: {"name": "Ann", "gone": False},  # Ann stays (or comes back): seated as before
    "api.close_table": lambda w: {},
    "api.end_round": lambda w: {},
    "api.import_event": lambda w: json.loads(w.api.get(f"/api/v1/events/{w.event}/export").get_data()),
}
EVENT_WRITES = ("api.create_event", "api.add_players", "api.start_round", "api.close_table", "api.end_round",
                "api.set_leaving", "api.import_event")


def _page_form(url: str, form_action: str | None = None, **changes: str) -> Callable[[World], dict[str, str]]:
    def build(world: World) -> dict[str, str]:
        response = world.editor.get(url.format(game=world.game))
        if response.status_code != 200:  # (the game is over, say: no form to start from)
            return dict(changes)
        data = form_fields(response.get_data(as_text=True),
                           form_action.format(game=world.game) if form_action else url.format(game=world.game))
        data.update(changes)
        return data
    return build


def _event_form(url: str, form_action: str | None = None, **changes: str) -> Callable[[World], dict[str, str]]:
    """A form of the club night's pages, as the organiser's page fills it (``{event}``: its id)."""
    def build(world: World) -> dict[str, str]:
        response = world.editor.get(url.format(event=world.event))
        if response.status_code != 200:
            return dict(changes)
        action = (form_action or url).format(event=world.event)
        try:
            return {**form_fields(response.get_data(as_text=True), action), **changes}
        except AssertionError:  # no such form now (the fuzz closed the table, say): the fields as typed
            return dict(changes)
    return build


VALID_FORMS: dict[str, Callable[[World], dict[str, str]]] = {
    "events.new_event": _page_form("/events/new", name="Fuzz night", rounds="2", players="Ann\nBen\nCy\nDi"),
    "events.add_players": _event_form("/events/{event}", "/events/{event}/players", players="Eve"),
    "events.start_round": _event_form("/events/{event}/rounds/next", "/events/{event}/rounds"),  # round 1 plays: {}
    "events.close_table": _event_form("/events/{event}", "/events/{event}/rounds/1/tables/1/close"),
    "events.leaving": lambda w: {"name": "Ann", "gone": "1"},  # without a revision: Ann leaves (or comes back)
    "events.end_round": lambda w: {"revision": "1"},  # a round of games: nothing to end (refused)
    "events.delete_event": _event_form("/events/{event}/delete"),
    "event_exchange.import_page": lambda w: {
        "document": w.editor.get(f"/events/{w.event}/export.json").get_data(as_text=True)},
    "games.new_game": _page_form("/new", **{"name": "Fuzz", "side-0-p0": "Ann", "side-1-p0": "Bea"}),
    "deals.new_deal": _page_form("/games/{game}/deals/new", **{
        "s0-m0-rank": "K", "s0-m0-naturals": "7", "s0-m1-cards": "Q Q Q Q Q 2 2", "s1-m0-cards": "J J J",
        "s1-p0-left": "A 3B", "ending": "s0-p0", "action": "save"}),
    "deals.edit_deal": _page_form("/games/{game}/deals/1/edit", action="save"),
    "deals.preview": _page_form("/games/{game}/deals/new", **{  # the record form, as typed so far
        "s0-m0-rank": "K", "s0-m0-naturals": "7", "s1-m0-cards": "J J J", "s1-p0-left": "A 3B"}),
    "deals.delete_deal": _page_form("/games/{game}/deals/1/delete"),
    "games.delete_game": _page_form("/games/{game}/delete"),
    "sheets.amend_sheet": _page_form("/games/{game}/sheet/amend", reason="we play 13 cards"),
    "games.replace_edit_link": _page_form("/games/{game}/replace-edit-link"),
    "games.end_game": _page_form("/games/{game}/end"),  # four deals: no form (409), so only what the fuzz sends
    "games.reopen_game": _page_form("/games/{game}/reopen"),
    "parts.this_phone": _page_form("/games/{game}/phone", side="0", owner="Ann"),
    # The fuzz's game has played its four deals: no part form to start from, so these fields as typed.
    "parts.part": _page_form("/games/{game}/deals/5/part", **{
        "s0-m0-rank": "K", "s0-m0-naturals": "7", "ending": "s0-p0", "action": "save"}),
    "parts.part_preview": _page_form("/games/{game}/deals/5/part", **{"s0-m0-rank": "K", "s0-m0-naturals": "7"}),
    "parts.confirm": lambda w: {"part": "1", "version": "1"},
    "parts.abandon": lambda w: {},
    "exchange.import_page": lambda w: {"document": w.api.get(f"/api/v1/games/{w.game}/export").get_data(as_text=True)},
}

QUERY_NAMES = ("sheet", "sheet_json", "a", "b", "deal", "revision", "paper", "sides", "preset", "ask", "meld",
               "adding_to", "table", "books.clean", "books.dirty", "melds", "top_card", "pile_size", "pair",
               "wilds", "opened", "pile_has_wild", "running_total", "side", "buried", "foot_played",
               "partners_picked_up", "permission", "last_card", "round")
query_strings = st.dictionaries(st.sampled_from(QUERY_NAMES) | texts, any_text | numbers.map(str), max_size=6)

# Query strings that get an answer, for the routes that read one: the fuzz changes them.
VALID_QUERIES: dict[str, dict[str, str]] = {
    "api.compare": {"a": "pagat", "b": "common"},
    "api.rescore_recorded": {"sheet": "pagat", "deal": "1"},
    "api.delete_deal": {"revision": "1"},
    "api.delete_game": {"revision": "1"},
    "desk.compare": {"a": "pagat", "b": '{"preset": "common", "hand_size": 13}'},
    "desk.rescore": {"sheet": "pagat", "deal": "1"},
    "desk.referee": {"sheet": "common", "ask": "pile", "top_card": "9", "pile_size": "10", "pair": "2"},
    "desk.game_referee": {"ask": "minimum", "melds": "9 9 9 2; K K K", "top_card": "9", "side": "Ann"},
    "games.new_game": {"preset": "pagat"},
    "sheets.amend_sheet": {"preset": "pagat"},
    "paper.game_sheet": {"paper": "a4"},
    "paper.game_pad": {"paper": "a4"},
    "paper.game_results": {"paper": "letter"},
    "paper.preset_sheet": {"paper": "a4"},
    "paper.preset_pad": {"sides": "4", "paper": "a4"},
    "club_night_paper.table_cards_pdf": {"round": "1", "paper": "a4"},
    "club_night_paper.results_pdf": {"paper": "letter"},
}


def _query(endpoint: str, draw) -> dict[str, str]:
    base = VALID_QUERIES.get(endpoint)
    if base is None or not draw(st.integers(0, 3)):
        return draw(query_strings)
    query = dict(base)
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(["change", "drop", "add"]))
        if op == "change" and query:
            query[pick(draw, sorted(query))] = draw(any_text | numbers.map(str))
        elif op == "drop" and query:
            query.pop(pick(draw, sorted(query)))
        else:
            query[draw(st.sampled_from(QUERY_NAMES) | texts)] = draw(any_text)
    return query


def _url(rule: str, values: dict[str, Any]) -> str:
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>",
                  lambda m: quote(str(values[m.group(1)]), safe="", errors="surrogatepass"), rule)


def _wire(fields: dict[str, Any]) -> str:
    """A query string or form body as sent: a lone surrogate goes as its surrogatepass bytes."""
    return urlencode(fields, errors="surrogatepass")


def _utf8(text: str) -> str:
    """What the server reads of text sent as bytes: a lone surrogate arrives as U+FFFDs."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def _headers(world: World, draw) -> dict[str, str]:
    choice = draw(st.sampled_from(["none", "key", "key", "key", "key", "phone", "phone", "other", "garbage",
                                   "organiser", "organiser"]))
    if choice == "key":
        return bearer(world.key)
    if choice == "organiser":  # a club night's organiser key: every right on the event and its games
        return bearer(world.organiser)
    if choice == "phone":  # a part of an open deal says whose phone sends it
        return {**bearer(world.key), "Scorepad-Phone": draw(st.sampled_from(["Dan's phone", "Eve's phone", ""])
                                                           | st.text(st.characters(min_codepoint=32,
                                                                                   max_codepoint=126), max_size=50))}
    if choice == "other":
        return bearer("VlqGQlARfj_B1VbAaGzbjw")
    if choice == "garbage":
        return {"Authorization": draw(st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=60))}
    return {}


def _json_request(world: World, endpoint: str, draw) -> dict[str, Any]:
    """A JSON body: the route's valid body, mutated or not, random JSON, or no JSON at all."""
    base = VALID_BODIES.get(endpoint)
    kind = draw(st.sampled_from(["valid", "valid", "mutated", "mutated", "mutated", "mutated", "random", "raw"]
                                if base else ["random", "random", "raw", "none"]))
    if kind == "valid":
        body: Any = base(world)
    elif kind == "mutated":
        body = draw(mutated(base(world)))
    elif kind == "random":
        body = draw(json_values)
    elif kind == "raw":
        raw = draw(st.binary(max_size=200) | st.sampled_from([b"{", b"[" * 100_000, b'{"a": 1,}', b"\xff\xfe",
                                                               b"NaN", b'"x"', b"null", b"{}" * 10]))
        return {"data": raw, "content_type": draw(st.sampled_from(["application/json", "text/plain"]))}
    else:
        return {}
    if isinstance(body, dict) and "revision" not in body and draw(st.booleans()):
        body["revision"] = draw(st.sampled_from([0, 1, 2, -1, 10**10, "1", None]))
    content_type = draw(st.sampled_from(["application/json"] * 5 + ["text/plain", "application/x-www-form-urlencoded"]))
    return {"data": json.dumps(body), "content_type": content_type}


def _form_request(world: World, endpoint: str, draw) -> dict[str, Any]:
    """A form: the route's valid form mutated (values changed, fields dropped, random fields
    added), or a form of random names and values."""
    base = VALID_FORMS.get(endpoint)
    if base is not None and draw(st.integers(0, 4)):
        form = base(world)
        for _ in range(draw(st.integers(1, 4))):
            op = draw(st.sampled_from(["change", "change", "drop", "add", "untype"]))
            if op == "untype" and form:
                name = pick(draw, sorted(form))
                form[name] = _untyped(draw, str(form[name]))
            elif op == "change" and form:
                form[pick(draw, sorted(form))] = draw(any_text | numbers.map(str))
            elif op == "drop" and form:
                form.pop(pick(draw, sorted(form)))
            else:
                form[draw(st.sampled_from(FIELD_NAMES) | texts)] = draw(any_text)
    else:
        form = draw(st.dictionaries(st.sampled_from(FIELD_NAMES) | texts, any_text, max_size=8))
    if endpoint == "exchange.import_page" and draw(st.booleans()):  # multipart: its text as the server reads it
        data: dict[str, Any] = {_utf8(k): _utf8(v) for k, v in form.items()}
        file = draw(st.binary(max_size=300) | any_text.map(lambda t: t.encode("utf-8", "surrogatepass")))
        data["file"] = (io.BytesIO(file), "game.json")
        return {"data": data}
    return {"data": _wire(form), "content_type": "application/x-www-form-urlencoded"}


# -- the property ----------------------------------------------------------------------------------------


def _check(world: World, method: str, url: str, response, before: Any) -> None:
    status = response.status_code
    assert status < 500, (method, url, status, response.get_data(as_text=True)[:1000])
    assert_no_traceback(response)
    if url.startswith("/api/") and status >= 400:
        assert_error_shape(response)
    elif url.startswith("/api/") and status < 300 and status != 204:  # 204: no body (an event deleted)
        assert response.mimetype in ("application/json", "text/csv"), (method, url, status, response.mimetype)
    elif status >= 400:  # a page: HTML, as the fuzz sends no Accept
        assert response.mimetype == "text/html", (method, url, status, response.mimetype)
    if status >= 400 or method == "GET":
        assert dump(world.db) == before, (method, url, status, response.get_data(as_text=True)[:500])


@pytest.mark.parametrize("rule, endpoint, method", ROUTES, ids=[f"{m} {r}" for r, _, m in ROUTES])
@FUZZ
@given(data=st.data())
def test_no_route_fails_or_writes_on_bad_input(world, rule, endpoint, method, data):
    strategies = _args(world)
    values = {name: data.draw(strategies[name], label=name) for name in re.findall(r"<(?:[^:<>]+:)?([^<>]+)>", rule)}
    url = _url(rule, values)
    kwargs: dict[str, Any] = {"query_string": _wire(_query(endpoint, data.draw))}
    if url.startswith("/api/"):
        client = world.api
        kwargs["headers"] = _headers(world, data.draw)
        kwargs.update(_json_request(world, endpoint, data.draw))
    else:
        client = data.draw(st.sampled_from([world.editor, world.editor, world.editor, world.viewer]))
        if method == "POST":
            kwargs.update(_form_request(world, endpoint, data.draw))
    before = dump(world.db)
    response = client.open(url, method=method, **kwargs)
    if response.mimetype == "text/event-stream":  # a game's events: a stream that does not end, so not read
        response.close()
        assert response.status_code == 200 and dump(world.db) == before, url
        return
    _check(world, method, url, response, before)
    if response.status_code < 400 and method != "GET":
        _read_again(world, client, response, before)
    _restore(world)


def _changed(before: Any, after: Any) -> dict[str, list[int]]:
    """The games a write added or changed rows of, each with the numbers of its deals."""
    old = {(table, row) for table, rows in before for row in rows}
    games: set[str] = set()
    for table, rows in after:
        for row in rows:
            if (table, row) not in old and table in ("game", "deal", "history"):
                games.add(row[1] if table == "history" else row[0])  # history: (id, game_id, ...)
    deals = dict(after)["deal"]
    return {game: sorted(row[1] for row in deals if row[0] == game) for game in games}


def _read_again(world: World, client: Any, response: Any, before: Any) -> None:
    """Every page of what an accepted write stored answers, for its editor and a viewer."""
    changed = _changed(before, dump(world.db))
    if not changed:
        return
    editor = client
    created = response.get_json(silent=True) if response.mimetype == "application/json" else None
    if isinstance(created, dict) and created.get("edit_key"):  # a game made through the API: open its edit link
        editor = world.app.test_client()
        assert editor.get(f"/games/{created['id']}/edit/{created['edit_key']}").status_code == 303
    for game, deals in changed.items():
        urls = [f"/games/{game}", f"/games/{game}/history", f"/games/{game}/scores.csv",
                f"/games/{game}/export.json", f"/games/{game}/referee", "/",
                *(f"/games/{game}/deals/{n}" for n in deals)]
        for who in (editor, world.viewer):
            for url in urls:
                again = who.get(url)
                assert again.status_code == 200, (url, again.status_code, again.get_data(as_text=True)[:500])
                assert_no_traceback(again)


def _restore(world: World) -> None:
    """Put deal 1 back if a fuzzed request deleted it, so the next examples have it to aim at;
    and after a fuzzed request replaced the game's edit key, aim with the new one; a new game in place
    of the game if one deleted that (its id answers 410 for good)."""
    if world.api.get(f"/api/v1/events/{world.event}").status_code == 404:  # a fuzzed request deleted it
        _new_event(world)
    if world.api.get(f"/api/v1/games/{world.game}").status_code == 410:
        world.game, world.key = api_game(world.api, name="Friday", deals=[valid_deal(1)])
        grant(world.editor, world.game, world.key)
        return
    [(key,)] = sql(world.db, "SELECT edit_key FROM game WHERE id = ?", (world.game,))
    if key != world.key:
        world.key = key
        grant(world.editor, world.game, key)
    if world.api.get(f"/api/v1/games/{world.game}/deals/1").status_code == 404:
        world.api.post(f"/api/v1/games/{world.game}/deals", headers=bearer(world.key),
                       json={**valid_deal(1), "as_played": {"reason": "put back for the fuzz"}})


OTHER_METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")
RULES = sorted({(rule, endpoint) for rule, endpoint, _ in ROUTES})


@pytest.mark.parametrize("rule, endpoint", RULES, ids=[r for r, _ in RULES])
@settings(FUZZ, max_examples=max(EXAMPLES // 2, 1))
@given(data=st.data())
def test_a_method_no_route_takes_is_405_and_writes_nothing(world, rule, endpoint, data):
    taken = {m for r, _, m in ROUTES if r == rule}
    others = [m for m in OTHER_METHODS if m not in taken]
    if not others:
        return
    method = data.draw(st.sampled_from(others), label="method")
    values = {name: data.draw(_args(world)[name], label=name) for name in re.findall(r"<(?:[^:<>]+:)?([^<>]+)>", rule)}
    url = _url(rule, values)
    kwargs: dict[str, Any] = {"query_string": _wire(data.draw(query_strings, label="query"))}
    if url.startswith("/api/"):
        client = world.api
        kwargs["headers"] = _headers(world, data.draw)
        kwargs.update(_json_request(world, endpoint, data.draw))
    else:
        client = world.editor
        kwargs.update(_form_request(world, endpoint, data.draw))
    before = dump(world.db)
    response = client.open(url, method=method, **kwargs)
    _check(world, method, url, response, before)
    assert response.status_code in (404, 405, 308), (method, url, response.status_code)  # 404: another route's id


def test_every_route_can_be_fuzzed(world):
    """Every route's arguments, JSON bodies and forms have something to start from here."""
    unknown = []
    for rule, endpoint, method in ROUTES:
        for name in re.findall(r"<(?:[^:<>]+:)?([^<>]+)>", rule):
            if name not in ARGS:
                unknown.append(f"{rule}: argument {name!r} (add it to ARGS and _args)")
        if rule.startswith("/api/") and method in ("POST", "PUT") and endpoint not in VALID_BODIES:
            unknown.append(f"{method} {rule}: no valid body in VALID_BODIES to mutate")
        if not rule.startswith("/api/") and method == "POST" and endpoint not in VALID_FORMS:
            unknown.append(f"{method} {rule}: no valid form in VALID_FORMS to mutate")
    assert not unknown, "; ".join(unknown)
    assert set(_args(world)) == set(ARGS)
    for endpoint, build in VALID_BODIES.items():  # each valid body is valid: the fuzz starts near the mark
        rule, method = next((r, m) for r, e, m in ROUTES if e == endpoint)
        if endpoint in ("api.record_deal", "api.correct_deal", "api.amend_sheet", "api.import_api",
                        "api.create_game", "api.replace_edit_key", "api.end_game", "api.reopen_game",
                        "api.save_part", "api.save_ending", "api.confirm_part", *EVENT_WRITES):
            continue  # writes: the fuzz itself sends them
        url = _url(rule, {"game_id": world.game, "number": 1})
        response = world.api.open(url, method=method, json=build(world))
        assert response.status_code == 200, (endpoint, response.get_data(as_text=True)[:500])


def test_a_refused_write_changes_nothing_and_an_accepted_one_does(world):
    """The dump comparison itself: it sees a write, and sees none after a refusal."""
    before = dump(world.db)
    response = world.api.post(f"/api/v1/games/{world.game}/deals", json={**valid_deal(None), "sides": []},
                              headers=bearer(world.key))
    assert response.status_code in (400, 409, 422)
    assert dump(world.db) == before
    response = world.api.post("/api/v1/games", json=VALID_BODIES["api.create_game"](world))
    assert response.status_code == 201
    assert dump(world.db) != before


@settings(FUZZ, max_examples=EXAMPLES * 2)
@given(data=st.data())
def test_whatever_names_and_reason_a_game_is_given_every_page_of_it_answers(world, data):
    """Names and a reason of any text (surrogates and control characters above all): a new
    game and its first deal are refused naming the field, or stored and every page shows them."""
    ann, bea, cal, reason = (prefix + data.draw(texts, label=prefix or "reason")
                             for prefix in ("Ann", "Bea", "Cal", ""))
    sides = [{"name": ann, "players": [ann]}, {"name": f"{bea} & {cal}"[:40], "players": [bea]}]
    before = dump(world.db)
    created = world.api.post("/api/v1/games", json={"name": cal, "sheet": "common", "sides": sides})
    _check(world, "POST", "/api/v1/games", created, before)
    if created.status_code != 201:
        assert created.status_code == 400 and created.get_json()["error"]["field"], created.get_json()
        return
    _read_again(world, world.api, created, before)
    game, key = created.get_json()["id"], created.get_json()["edit_key"]
    stored = world.api.get(f"/api/v1/games/{game}").get_json()["sides"]
    deal = valid_deal(None, ann=stored[0]["players"][0], bea=stored[1]["players"][0])
    deal["sides"][1]["name"] = stored[1]["name"]
    before = dump(world.db)
    url = f"/api/v1/games/{game}/deals"
    response = world.api.post(url, headers=bearer(key), json={**deal, "as_played": {"reason": reason}})
    _check(world, "POST", url, response, before)
    if response.status_code == 201:
        _read_again(world, world.api, created, before)
