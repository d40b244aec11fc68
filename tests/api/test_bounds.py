"""Every input has a bound, and input past it is a 4xx naming the field: the API's one error
shape, or the page again with the message beside the input (never a 500, never a traceback).

``CASES`` is the audit: at least one out-of-bounds request for every route and method of
``app.url_map`` (``test_every_route_has_an_out_of_bounds_case`` fails on a new route
without one). Below it, the bounds themselves (names, sides, players, melds, counts, card
strings, reasons, request size) and the real problems these tests found.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

import pytest

from scorepad.rules import Deal, ReadError
from scorepad.rules.cards import Cards
from scorepad.rules.game import Game
from scorepad.rules.limits import MAX_CARD_STRING, MAX_EVENT_IMPORT_BYTES, MAX_IMPORT_BYTES
from scorepad.storage import cache, reading
from tests.helpers import (
    ANN_BEA,
    api_game,
    assert_error_shape,
    assert_no_traceback,
    bearer,
    dump,
    form_fields,
    grant,
    text_of,
    valid_deal,
)

LONG_ID = "x" * 1000
TOKENS_10K = " ".join(["K"] * 10_000)  # a card string of 10,000 tokens (19,999 characters)
DEEP_SHEET = '{"preset": "common", "card_values": ' + "[" * 50_000 + "]" * 50_000 + "}"
NAME_41 = "N" * 41
REASON_500 = "r" * 500
BIG_BODY = "x" * (300 * 1024)
IMPORT_TOO_BIG = "x" * (MAX_IMPORT_BYTES + 1)  # an import takes more: the export of the largest game
EVENT_IMPORT_TOO_BIG = "x" * (MAX_EVENT_IMPORT_BYTES + 1)  # an event's import, more still: its fullest evening


@dataclass
class World:
    """A game (Ann v Bea on the common sheet) with deal 1 recorded, and a client that holds its edit link."""

    app: Any
    client: Any
    game: str
    key: str


@pytest.fixture
def world(app):
    client = app.test_client()
    game, key = api_game(client)
    assert client.post(f"/api/v1/games/{game}/deals", json=valid_deal(1), headers=bearer(key)).status_code == 201
    grant(client, game, key)
    return World(app, client, game, key)


@pytest.fixture(scope="module")
def recorded(module_app) -> tuple[Any, str, str]:
    """``world``'s game, made once for the cases that must write nothing: (app, game, key)."""
    client = module_app.test_client()
    game, key = api_game(client)
    assert client.post(f"/api/v1/games/{game}/deals", json=valid_deal(1), headers=bearer(key)).status_code == 201
    return module_app, game, key


@pytest.fixture
def refused_world(recorded) -> World:
    """``world`` on the module's one game, with a client of its own: for a test that checks
    it wrote nothing, so the game is as ``world`` makes it for each of them."""
    app, game, key = recorded
    client = app.test_client()
    grant(client, game, key)
    return World(app, client, game, key)


def phone(world: World, label: str = "Dan's phone") -> dict[str, str]:
    """The headers of a write to the open deal: the edit key and whose phone sends it."""
    return {**bearer(world.key), "Scorepad-Phone": label}


def deal_with(change: Callable[[dict[str, Any]], None], number: int | None = 2, **extra: Any) -> dict[str, Any]:
    deal = valid_deal(number)
    change(deal)
    return {**deal, **extra}


def scored(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    return {**deal_with(change, 1), "sheet": "common"}


def setp(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change setting ``path`` (``sides[1].players[0].cards_left``) of a deal to ``value``."""
    keys = [int(k) if k.isdigit() else k for k in re.findall(r"\w+", path)]

    def change(deal: dict[str, Any]) -> None:
        node = deal
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value
    return change


def new_game_form(client, **changes: str) -> dict[str, str]:
    data = form_fields(client.get("/new").get_data(as_text=True), "/new")
    data.update({"name": "Friday", "side-0-p0": "Ann", "side-1-p0": "Bea"})
    data.update(changes)
    return data


def deal_form(client, game: str, number: int | None = None, **changes: str) -> dict[str, str]:
    """The record (or correct) form of a game, filled in with a legal deal, then ``changes``."""
    url = f"/games/{game}/deals/{number}/edit" if number else f"/games/{game}/deals/new"
    data = form_fields(client.get(url).get_data(as_text=True), url)
    if not number:
        data = {k: v for k, v in data.items() if not k.endswith("-mode")}  # every side itemised
        data.update({"s0-m0-rank": "K", "s0-m0-naturals": "7", "s0-m1-cards": "Q Q Q Q Q 2 2",
                     "s1-m0-cards": "J J J", "s1-p0-left": "A 3B", "ending": "s0-p0"})
    data["action"] = "save"
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}  # None: left out (a box not ticked)


def amend_form(client, game: str, **changes: str) -> dict[str, str]:
    url = f"/games/{game}/sheet/amend"
    data = form_fields(client.get(url).get_data(as_text=True), url)
    data.update({"reason": "we play 13 cards"})
    data.update(changes)
    return data


def export_doc(client, game: str) -> dict[str, Any]:
    return json.loads(client.get(f"/api/v1/games/{game}/export").get_data(as_text=True))


def new_event(**changes: Any) -> dict[str, Any]:
    """A club night's body (four players, progressive, two rounds), then ``changes``."""
    return {"name": "Tuesday club", "players": ["Ann", "Ben", "Cat", "Dan"], "format": "progressive", "rounds": 2,
            **changes}


def event_doc(**changes: Any) -> dict[str, Any]:
    """A club night's export document written by hand (four players, no round started), then ``changes``."""
    return {"format": "scorepad.event", "version": 1, "name": "Tuesday club", "sheet": "common",
            "plan": {"format": "progressive", "rounds": 2}, "players": ["Ann", "Ben", "Cat", "Dan"], **changes}


def event_round(tables: int) -> dict[str, Any]:
    """Round 1 of ``event_doc``, at ``tables`` tables (their seats, each its game, are never read past the count)."""
    return {"number": 1, "tables": [{"number": n, "seats": [["Ann", "Ben"], ["Cat", "Dan"]]}
                                    for n in range(1, tables + 1)]}


@dataclass
class Case:
    """One out-of-bounds request: ``request(world)`` gives (method, url, keyword arguments of
    the test client); ``status`` and, for the API, ``field`` (or, for a page, ``says``: text
    the page must show) say how it is refused."""

    endpoint: str
    method: str
    name: str
    request: Callable[[World], tuple[str, dict[str, Any]]]
    status: int
    field: Any = ...
    says: str | None = None
    kind: str = dc_field(default="api")

    @property
    def id(self) -> str:
        return f"{self.endpoint}-{self.method}-{self.name}"


def api(endpoint, method, name, request, status, field=..., says=None):
    return Case(endpoint, method, name, request, status, field, says, "api")


def page(endpoint, method, name, request, status, says=None):
    return Case(endpoint, method, name, request, status, ..., says, "page")


J = "application/json"

CASES: list[Case] = [
    # -- /api/v1: no game ------------------------------------------------------------------------
    api("api.score_deal", "POST", "300KB body", lambda w: ("/api/v1/score", {"data": BIG_BODY, "content_type": J}),
        413, None, "256 KB"),
    api("api.score_deal", "POST", "meld count 10**6",
        lambda w: ("/api/v1/score", {"json": scored(setp("sides[0].melds[0]", {"rank": "K", "naturals": 10**6}))}),
        400, "sides[0].melds[0].naturals"),
    api("api.score_deal", "POST", "card string of 10,000 tokens",
        lambda w: ("/api/v1/score", {"json": scored(setp("sides[1].players[0].cards_left", TOKENS_10K))}),
        400, "sides[1].players[0].cards_left", "at most 2,000"),
    api("api.score_deal", "POST", "1,001 kings in a card string",
        lambda w: ("/api/v1/score", {"json": scored(setp("sides[1].players[0].foot", "Kx600 Kx401"))}),
        400, "sides[1].players[0].foot", "1,001 kings"),
    api("api.score_deal", "POST", "41-character side name",
        lambda w: ("/api/v1/score", {"json": scored(setp("sides[0].name", NAME_41))}), 400, "sides[0].name"),
    api("api.score_deal", "POST", "41-character player name",
        lambda w: ("/api/v1/score", {"json": scored(setp("sides[0].players[0].name", NAME_41))}),
        400, "sides[0].players[0].name"),
    api("api.score_deal", "POST", "41-character went_out",
        lambda w: ("/api/v1/score", {"json": scored(setp("went_out", NAME_41))}), 400, "went_out"),
    api("api.score_deal", "POST", "9 sides",
        lambda w: ("/api/v1/score", {"json": scored(lambda d: d["sides"].extend(
            {"name": f"S{i}", "melds": [], "players": [{"name": f"P{i}", "foot_picked_up": True}]}
            for i in range(7)))}), 400, "sides"),
    api("api.score_deal", "POST", "9 players on a side",
        lambda w: ("/api/v1/score", {"json": scored(setp("sides[0].players", [
            {"name": f"P{i}", "foot_picked_up": True} for i in range(9)]))}), 400, "sides[0].players"),
    api("api.score_deal", "POST", "61 melds",
        lambda w: ("/api/v1/score", {"json": scored(setp("sides[0].melds", ["K K K"] * 61))}), 400, "sides[0].melds",
        "at most 60"),
    api("api.score_deal", "POST", "5 players on a side",
        lambda w: ("/api/v1/score", {"json": scored(setp("sides[0].players", [
            {"name": f"P{i}", "foot_picked_up": True} for i in range(5)]))}), 400, "sides[0].players", "at most 4"),
    api("api.score_deal", "POST", "deal number 10**6",
        lambda w: ("/api/v1/score", {"json": scored(setp("deal", 10**6))}), 400, "deal"),
    api("api.score_deal", "POST", "a number past 10**9",
        lambda w: ("/api/v1/score", {"json": scored(setp("sides[0].red_threes", 10**12))}), 400, "sides[0].red_threes"),
    api("api.score_deal", "POST", "nested 21 deep",
        lambda w: ("/api/v1/score", {"json": {"sheet": "common", "sides": [[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]}}),
        400, None, "nested"),
    api("api.list_sheets", "GET", "a method it does not take",
        lambda w: ("/api/v1/sheets", {"method": "DELETE"}), 405, None),
    api("api.get_sheet", "GET", "1,000-character id",
        lambda w: ("/api/v1/sheets/" + LONG_ID, {}), 404, None),
    api("api.openapi", "GET", "a method it does not take",
        lambda w: ("/api/v1/openapi.json", {"method": "POST", "json": {}}), 405, None),
    api("api.create_game", "POST", "41-character name",
        lambda w: ("/api/v1/games", {"json": {"name": NAME_41, "sheet": "common", "sides": ANN_BEA}}), 400, "name"),
    api("api.create_game", "POST", "41-character player",
        lambda w: ("/api/v1/games", {"json": {"name": "x", "sheet": "common", "sides": [
            {"name": "Ann", "players": [NAME_41]}, {"name": "Bea", "players": ["Bea"]}]}}),
        400, "sides[0].players[0]", "at most 40 characters"),
    api("api.create_game", "POST", "9 sides",
        lambda w: ("/api/v1/games", {"json": {"name": "x", "sheet": "common", "sides": [
            {"name": f"S{i}", "players": [f"P{i}"]} for i in range(9)]}}), 400, "sides", "from 2 to 8"),
    api("api.create_game", "POST", "5 players on a side",
        lambda w: ("/api/v1/games", {"json": {"name": "x", "sheet": {"preset": "common", "max_players": 8}, "sides": [
            {"name": "A", "players": ["A1", "A2", "A3", "A4", "A5"]},
            {"name": "B", "players": ["B1", "B2", "B3", "B4", "B5"]}]}}), 400, "sides[0].players", "at most 4"),
    api("api.create_game", "POST", "hand of 31 cards",
        lambda w: ("/api/v1/games", {"json": {"name": "x", "sheet": {"preset": "common", "hand_size": 31},
                                              "sides": ANN_BEA}}), 400, "sheet.hand_size"),
    api("api.create_game", "POST", "13 decks",
        lambda w: ("/api/v1/games", {"json": {"name": "x", "sides": ANN_BEA, "sheet": {
            "preset": "common", "decks_rule": "fixed", "decks": 13}}}), 400, "sheet.decks"),
    api("api.create_game", "POST", "51 deals of opening minimums",
        lambda w: ("/api/v1/games", {"json": {"name": "x", "sides": ANN_BEA, "sheet": {
            "preset": "common", "opening_minimums": [50] * 51}}}), 400, "sheet.opening_minimums"),
    api("api.create_game", "POST", "300KB body",
        lambda w: ("/api/v1/games", {"data": BIG_BODY, "content_type": J}), 413, None),
    # -- /api/v1: a game ---------------------------------------------------------------------------
    api("api.get_game", "GET", "1,000-character id", lambda w: ("/api/v1/games/" + LONG_ID, {}), 404, None),
    api("api.game_revision", "GET", "1,000-character id",
        lambda w: (f"/api/v1/games/{LONG_ID}/revision", {}), 404, None),
    api("api.game_events", "GET", "1,000-character id",
        lambda w: (f"/api/v1/games/{LONG_ID}/events", {}), 404, None),
    api("api.game_events", "GET", "Last-Event-ID of 5,000 digits",
        lambda w: (f"/api/v1/games/{w.game}/events", {"headers": {"Last-Event-ID": "9" * 5000}}), 400,
        "Last-Event-ID"),
    api("api.game_history", "GET", "1,000-character id",
        lambda w: (f"/api/v1/games/{LONG_ID}/history", {}), 404, None),
    api("api.replace_edit_key", "POST", "1,000-character id",
        lambda w: (f"/api/v1/games/{LONG_ID}/edit-key", {"headers": bearer(w.key)}), 404, None),
    api("api.replace_edit_key", "POST", "a body with a field",
        lambda w: (f"/api/v1/games/{w.game}/edit-key", {"json": {"key": "mine"}, "headers": bearer(w.key)}), 400,
        "key"),
    api("api.replace_edit_key", "POST", "300KB body",
        lambda w: (f"/api/v1/games/{w.game}/edit-key", {"data": BIG_BODY, "content_type": J,
                                                        "headers": bearer(w.key)}), 413, None),
    api("api.end_game", "POST", "1,000-character id",
        lambda w: (f"/api/v1/games/{LONG_ID}/end", {"headers": bearer(w.key)}), 404, None),
    api("api.end_game", "POST", "revision 10**30",
        lambda w: (f"/api/v1/games/{w.game}/end", {"json": {"revision": 10**30}, "headers": bearer(w.key)}), 400,
        "revision"),
    api("api.reopen_game", "POST", "300KB body",
        lambda w: (f"/api/v1/games/{w.game}/reopen", {"data": BIG_BODY, "content_type": J,
                                                      "headers": bearer(w.key)}), 413, None),
    api("api.amend_sheet", "PUT", "reason of 500 characters",
        lambda w: (f"/api/v1/games/{w.game}/sheet", {"json": {"sheet": "common", "reason": REASON_500},
                                                     "headers": bearer(w.key)}), 400, "reason"),
    api("api.amend_sheet", "PUT", "13 decks",
        lambda w: (f"/api/v1/games/{w.game}/sheet", {"json": {"sheet": {"preset": "common", "decks_rule": "fixed",
                                                                         "decks": 13}, "reason": "more decks"},
                                                     "headers": bearer(w.key)}), 400, "sheet.decks"),
    api("api.amend_sheet", "PUT", "revision past 10**9",
        lambda w: (f"/api/v1/games/{w.game}/sheet", {"json": {"sheet": "common", "reason": "x", "revision": 10**10},
                                                     "headers": bearer(w.key)}), 400, "revision"),
    api("api.record_deal", "POST", "meld count 10**6",
        lambda w: (f"/api/v1/games/{w.game}/deals", {
            "json": deal_with(setp("sides[0].melds[0]", {"rank": "K", "naturals": 10**6})), "headers": bearer(w.key)}),
        400, "sides[0].melds[0].naturals"),
    api("api.record_deal", "POST", "reason of 500 characters",
        lambda w: (f"/api/v1/games/{w.game}/deals", {
            "json": deal_with(lambda d: None, as_played={"reason": REASON_500}), "headers": bearer(w.key)}),
        400, "as_played.reason", "at most 200 characters"),
    api("api.record_deal", "POST", "card string of 10,000 tokens",
        lambda w: (f"/api/v1/games/{w.game}/deals", {
            "json": deal_with(setp("sides[1].players[0].cards_left", TOKENS_10K)), "headers": bearer(w.key)}),
        400, "sides[1].players[0].cards_left"),
    api("api.record_deal", "POST", "a meld of 1,200 threes",
        lambda w: (f"/api/v1/games/{w.game}/deals", {
            "json": deal_with(setp("sides[1].melds[0]", "3Rx600 3Bx600"), as_played={"reason": "ok"}),
            "headers": bearer(w.key)}), 400, "sides[1].melds[0]"),
    api("api.record_deal", "POST", "deal number 1,001",
        lambda w: (f"/api/v1/games/{w.game}/deals", {"json": deal_with(lambda d: None, 1001),
                                                     "headers": bearer(w.key)}), 400, "deal"),
    api("api.record_deal", "POST", "300KB body",
        lambda w: (f"/api/v1/games/{w.game}/deals", {"data": BIG_BODY, "content_type": J, "headers": bearer(w.key)}),
        413, None),
    api("api.record_deal", "POST", "an edit key with a non-ASCII character",
        lambda w: (f"/api/v1/games/{w.game}/deals", {"json": valid_deal(2), "headers": {"Authorization": "Bearer é"}}),
        403, None),
    # -- a deal entered part by part (the open deal: its next deal, 2) --------------------------------
    api("api.save_part", "PUT", "meld count 10**6",
        lambda w: (f"/api/v1/games/{w.game}/deals/2/parts/1", {
            "json": {"melds": [{"rank": "K", "naturals": 10**6}], "players": []}, "headers": phone(w)}),
        400, "melds[0].naturals"),
    api("api.save_part", "PUT", "side 10**30",
        lambda w: (f"/api/v1/games/{w.game}/deals/2/parts/{10**30}", {"json": {"melds": []}, "headers": phone(w)}),
        400, "side"),
    api("api.save_part", "PUT", "41-character phone",
        lambda w: (f"/api/v1/games/{w.game}/deals/2/parts/1", {"json": {"melds": []},
                                                              "headers": phone(w, "p" * 41)}),
        400, "Scorepad-Phone", "at most 40 characters"),
    api("api.save_ending", "PUT", "41-character went_out",
        lambda w: (f"/api/v1/games/{w.game}/deals/2/ending", {"json": {"ending": "went_out", "went_out": NAME_41},
                                                             "headers": phone(w)}), 400, "went_out"),
    api("api.save_ending", "PUT", "reason of 500 characters",
        lambda w: (f"/api/v1/games/{w.game}/deals/2/ending", {
            "json": {"ending": "stock_out", "as_played": {"reason": REASON_500}}, "headers": phone(w)}),
        400, "as_played.reason", "at most 200 characters"),
    api("api.confirm_part", "POST", "by_side 10**30",
        lambda w: (f"/api/v1/games/{w.game}/deals/2/parts/1/confirmation", {
            "json": {"by_side": 10**30, "version": 1}, "headers": phone(w)}), 400, "by_side"),
    api("api.get_open", "GET", "deal 10**30",
        lambda w: (f"/api/v1/games/{w.game}/deals/{10**30}/open", {}), 409, "deal"),
    api("api.abandon", "DELETE", "1,000-character id",
        lambda w: (f"/api/v1/games/{LONG_ID}/deals/2/open", {"headers": bearer(w.key)}), 404, None),
    api("api.get_deal", "GET", "deal 10**30", lambda w: (f"/api/v1/games/{w.game}/deals/{10**30}", {}), 404, "deal"),
    api("api.correct_deal", "PUT", "41-character went_out",
        lambda w: (f"/api/v1/games/{w.game}/deals/1", {
            "json": deal_with(setp("went_out", NAME_41), 1, as_played={"reason": "ok"}), "headers": bearer(w.key)}),
        400, "went_out"),
    api("api.correct_deal", "PUT", "revision -1",
        lambda w: (f"/api/v1/games/{w.game}/deals/1", {"json": deal_with(lambda d: None, 1, revision=-1),
                                                       "headers": bearer(w.key)}), 400, "revision"),
    api("api.correct_deal", "PUT", "deal 10**30",
        lambda w: (f"/api/v1/games/{w.game}/deals/{10**30}", {"json": valid_deal(None), "headers": bearer(w.key)}),
        404, "deal"),
    api("api.delete_deal", "DELETE", "revision of 5,000 digits",
        lambda w: (f"/api/v1/games/{w.game}/deals/1?revision={'9' * 5000}", {"headers": bearer(w.key)}),
        400, "revision"),
    api("api.delete_deal", "DELETE", "revision in other digits",
        lambda w: (f"/api/v1/games/{w.game}/deals/1?revision=²", {"headers": bearer(w.key)}), 400, "revision"),
    api("api.delete_game", "DELETE", "revision of 5,000 digits",
        lambda w: (f"/api/v1/games/{w.game}?revision={'9' * 5000}", {"headers": bearer(w.key)}), 400, "revision"),
    api("api.delete_game", "DELETE", "1,000-character id",
        lambda w: (f"/api/v1/games/{LONG_ID}", {"headers": bearer(w.key)}), 404, None),
    # -- /api/v1/events: a club night (its writes refused before the event is found, or the key checked)
    api("api.create_event", "POST", "41-character name",
        lambda w: ("/api/v1/events", {"json": new_event(name=NAME_41)}), 400, "name", "at most 40 characters"),
    api("api.create_event", "POST", "161 players",
        lambda w: ("/api/v1/events", {"json": new_event(players=[f"P{i}" for i in range(161)])}), 400, "players"),
    api("api.create_event", "POST", "13 rounds",
        lambda w: ("/api/v1/events", {"json": new_event(rounds=13)}), 400, "rounds", "from 1 to 12"),
    api("api.create_event", "POST", "21-character member number",
        lambda w: ("/api/v1/events", {"json": new_event(players=[{"name": "Ann", "member": "9" * 21}, "Ben", "Cat",
                                                                  "Dan"])}), 400, "players[0].member"),
    api("api.get_event", "GET", "1,000-character id", lambda w: (f"/api/v1/events/{LONG_ID}", {}), 404, None),
    api("api.get_standings", "GET", "1,000-character id",
        lambda w: (f"/api/v1/events/{LONG_ID}/standings", {}), 404, None),
    api("api.add_players", "POST", "1,000-character id",
        lambda w: (f"/api/v1/events/{LONG_ID}/players", {"json": {"players": ["Ivy"]}, "headers": bearer(w.key)}),
        404, None),
    api("api.set_leaving", "POST", "a name of 1,000 characters",
        lambda w: (f"/api/v1/events/{LONG_ID}/leaving", {"json": {"name": LONG_ID}, "headers": bearer(w.key)}),
        404, None),
    api("api.start_round", "POST", "1,000-character id",
        lambda w: (f"/api/v1/events/{LONG_ID}/rounds", {"headers": bearer(w.key)}), 404, None),
    api("api.close_table", "POST", "round and table 10**30",
        lambda w: (f"/api/v1/events/{LONG_ID}/rounds/{10**30}/tables/{10**30}/close", {"headers": bearer(w.key)}),
        404, None),
    api("api.end_round", "POST", "round 10**30",
        lambda w: (f"/api/v1/events/{LONG_ID}/rounds/{10**30}/end", {"headers": bearer(w.key)}), 404, None),
    api("api.delete_event", "DELETE", "1,000-character id",
        lambda w: (f"/api/v1/events/{LONG_ID}", {"headers": bearer(w.key)}), 404, None),
    # -- a club night's export, import and a club's ladder
    api("api.export_event", "GET", "1,000-character id", lambda w: (f"/api/v1/events/{LONG_ID}/export", {}), 404,
        None),
    api("api.import_event", "POST", "nested past the parser's depth",
        lambda w: ("/api/v1/events/import", {"data": "[" * 100_000, "content_type": J}), 400, None, "nested"),
    api("api.import_event", "POST", "41-character name",
        lambda w: ("/api/v1/events/import", {"json": event_doc(name=NAME_41)}), 400, "name", "at most 40 characters"),
    api("api.import_event", "POST", "161 players",
        lambda w: ("/api/v1/events/import", {"json": event_doc(players=[f"P{i}" for i in range(161)])}), 400,
        "players"),
    api("api.import_event", "POST", "a plan of 13 rounds",
        lambda w: ("/api/v1/events/import", {"json": event_doc(plan={"format": "progressive", "rounds": 13})}), 400,
        "plan.rounds", "from 1 to 12"),
    api("api.import_event", "POST", "3 rounds listed of a plan's 2",
        lambda w: ("/api/v1/events/import", {"json": event_doc(rounds=[event_round(1)] * 3)}), 400, "rounds"),
    api("api.import_event", "POST", "a round of 41 tables",
        lambda w: ("/api/v1/events/import", {"json": event_doc(rounds=[event_round(41)])}), 400, "rounds[0].tables",
        "at most 40"),
    api("api.import_event", "POST", "a 21-character member number",
        lambda w: ("/api/v1/events/import", {"json": event_doc(players=[{"name": "Ann", "member": "9" * 21}, "Ben",
                                                                        "Cat", "Dan"])}), 400, "players[0].member"),
    api("api.import_event", "POST", "a time of 1,000 characters",
        lambda w: ("/api/v1/events/import", {"json": event_doc(created_at="2" * 1000)}), 400, "created_at"),
    api("api.import_event", "POST", "body past the event import limit",
        lambda w: ("/api/v1/events/import", {"data": EVENT_IMPORT_TOO_BIG, "content_type": J}), 413, None,
        f"{MAX_EVENT_IMPORT_BYTES // 1024:,} KB"),
    api("api.get_club_ladder", "GET", "a club name of 1,000 characters",
        lambda w: (f"/api/v1/clubs/{LONG_ID}/ladder", {}), 404, None),
    api("api.export_api", "GET", "1,000-character id",
        lambda w: (f"/api/v1/games/{LONG_ID}/export", {}), 404, None),
    api("api.scores_api", "GET", "1,000-character id",
        lambda w: (f"/api/v1/games/{LONG_ID}/scores.csv", {}), 404, None),
    api("api.import_api", "POST", "nested past the parser's depth",
        lambda w: ("/api/v1/games/import", {"data": "[" * 100_000, "content_type": J}), 400, None, "nested"),
    api("api.import_api", "POST", "41-character name",
        lambda w: ("/api/v1/games/import", {"json": {**export_doc(w.client, w.game), "name": NAME_41}}), 400, "name"),
    api("api.import_api", "POST", "history reason of 500 characters",
        lambda w: ("/api/v1/games/import", {"json": (lambda d: (d["deals"][0]["history"][0].update(
            reason=REASON_500), d)[1])(export_doc(w.client, w.game))}), 400, "deals[0].history[0].reason"),
    api("api.import_api", "POST", "as_played of 500 characters",
        lambda w: ("/api/v1/games/import", {"json": (lambda d: (d["deals"][0].update(
            as_played=REASON_500), d)[1])(export_doc(w.client, w.game))}), 400, "deals[0].as_played"),
    api("api.import_api", "POST", "a time of 1,000 characters",
        lambda w: ("/api/v1/games/import", {"json": {**export_doc(w.client, w.game), "created_at": "2" * 1000}}),
        400, "created_at"),
    api("api.import_api", "POST", "101 deals",
        lambda w: ("/api/v1/games/import", {"json": (lambda d: {**d, "deals": [
            {**d["deals"][0], "number": n, "history": []} for n in range(1, 102)]})(export_doc(w.client, w.game))}),
        400, "deals", "at most 100"),
    api("api.import_api", "POST", "body past the import limit",
        lambda w: ("/api/v1/games/import", {"data": IMPORT_TOO_BIG, "content_type": J}), 413, None, "4,160 KB"),
    # -- /api/v1/referee ---------------------------------------------------------------------------
    api("api.compare", "GET", "a sheet nested past the parser's depth",
        lambda w: ("/api/v1/referee/compare", {"query_string": {"a": DEEP_SHEET, "b": "common"}}), 400, "a", "nested"),
    api("api.compare", "GET", "hand of 31 cards",
        lambda w: ("/api/v1/referee/compare", {"query_string": {
            "a": "pagat", "b": '{"preset": "common", "hand_size": 31}'}}),
        400, "b.hand_size"),
    api("api.explain", "POST", "9 sides",
        lambda w: ("/api/v1/referee/explain", {"json": {"deal": scored(lambda d: d["sides"].extend(
            {"name": f"S{i}", "melds": [], "players": []} for i in range(7)))}}), 400, "deal.sides"),
    api("api.problem_type", "GET", "a slug of 10,000 characters",
        lambda w: ("/api/v1/problems/" + "x" * 10_000, {}), 404, None),
    api("api.explain_recorded", "GET", "deal 10**30",
        lambda w: (f"/api/v1/referee/games/{w.game}/deals/{10**30}/explain", {}), 404, "deal"),
    api("api.rescore_recorded", "GET", "deal 101",
        lambda w: (f"/api/v1/referee/games/{w.game}/rescore", {"query_string": {"sheet": "pagat", "deal": "101"}}),
        400, "deal"),
    api("api.rescore_recorded", "GET", "a sheet nested past the parser's depth",
        lambda w: (f"/api/v1/referee/games/{w.game}/rescore", {"query_string": {"sheet": DEEP_SHEET}}), 400, "sheet"),
    api("api.rescore", "POST", "a game of 101 deals",
        lambda w: ("/api/v1/referee/rescore", {"json": {"sheet": "pagat", "game": {
            "sheet": {"preset": "common", "game_length": "target"},
            "deals": [valid_deal(None)] * 101}}}), 400, "game.deals"),
    api("api.go_out", "POST", "61 clean books",
        lambda w: ("/api/v1/referee/go-out", {"json": {"sheet": "pagat", "books": {"clean": 61}}}), 400, "books.clean"),
    api("api.go_out", "POST", "9 partners",
        lambda w: ("/api/v1/referee/go-out", {"json": {"sheet": "pagat", "books": {"clean": 1},
                                                       "partners_picked_up": [True] * 9}}), 400, "partners_picked_up"),
    api("api.meld", "POST", "card string of 10,000 tokens",
        lambda w: ("/api/v1/referee/meld", {"json": {"sheet": "pagat", "meld": TOKENS_10K}}), 400, "meld"),
    api("api.meld", "POST", "61 melds on the table",
        lambda w: ("/api/v1/referee/meld", {"json": {"sheet": "pagat", "meld": "K K K", "table": ["Q Q Q"] * 61}}),
        400, "table"),
    api("api.minimum", "POST", "running total past 10**9",
        lambda w: ("/api/v1/referee/minimum", {"json": {"sheet": "common", "melds": ["K K K"],
                                                        "running_total": 10**9 + 1}}), 400, "running_total"),
    api("api.pile", "POST", "pile of 1,001 cards",
        lambda w: ("/api/v1/referee/pile", {"json": {"sheet": "pagat", "top_card": "9", "pile_size": 1_001}}),
        400, "pile_size"),
    api("api.pile", "POST", "top card of 10,000 characters",
        lambda w: ("/api/v1/referee/pile", {"json": {"sheet": "pagat", "top_card": "K" * 10_000, "pile_size": 5}}),
        400, "top_card"),
    # -- pages ---------------------------------------------------------------------------------------
    page("games.home", "GET", "a method it does not take", lambda w: ("/", {"method": "POST"}), 405),
    page("games.new_game", "GET", "preset id of 1,000 characters",
         lambda w: ("/new", {"query_string": {"preset": LONG_ID}}), 404),
    page("games.new_game", "POST", "41-character name",
         lambda w: ("/new", {"data": new_game_form(w.client, name=NAME_41)}), 400, "at most 40 characters"),
    page("games.new_game", "POST", "41-character player",
         lambda w: ("/new", {"data": new_game_form(w.client, **{"side-1-p0": NAME_41})}), 400, "at most 40 characters"),
    page("games.new_game", "POST", "hand of 31 cards",
         lambda w: ("/new", {"data": new_game_form(w.client, **{"opt-hand_size": "31"})}), 400,
         "must be from 1 to 30, not 31"),
    page("games.new_game", "POST", "a card value of 50,000 characters",
         lambda w: ("/new", {"data": new_game_form(w.client, **{"opt-card_values-K": "9" * 50_000})}), 400,
         "Card values (K): must be a whole number, not '9999999999999999999…'"),
    page("games.new_game", "POST", "a choice that is not one",
         lambda w: ("/new", {"data": new_game_form(w.client, **{"opt-wild_ratio": "x" * 1000})}), 400,
         "must be one of"),
    page("games.new_game", "POST", "300KB body", lambda w: ("/new", {"data": {"name": BIG_BODY}}), 413,
         "That was too large"),
    page("games.game", "GET", "1,000-character id", lambda w: (f"/games/{LONG_ID}", {}), 404),
    page("deals.deal", "GET", "deal 10**30", lambda w: (f"/games/{w.game}/deals/{10**30}", {}), 404),
    page("deals.new_deal", "GET", "1,000-character id", lambda w: (f"/games/{LONG_ID}/deals/new", {}), 404),
    page("deals.new_deal", "POST", "meld count 10**6",
         lambda w: (f"/games/{w.game}/deals/new", {"data": deal_form(w.client, w.game, **{
             "s0-m0-naturals": "1000000"})}),
         400, "Naturals: 1000000 is too many"),
    page("deals.new_deal", "POST", "card string of 10,000 tokens",
         lambda w: (f"/games/{w.game}/deals/new", {"data": deal_form(w.client, w.game, **{"s1-p0-left": TOKENS_10K})}),
         400, "a card string has at most 2,000"),
    page("deals.new_deal", "POST", "reason of 500 characters",
         lambda w: (f"/games/{w.game}/deals/new", {"data": deal_form(w.client, w.game, **{
             "s1-m0-cards": "J J", "reason": REASON_500, "action": "as_played"})}), 400, "at most 200 characters"),
    page("deals.new_deal", "POST", "a revision no game has",
         lambda w: (f"/games/{w.game}/deals/new", {"data": deal_form(w.client, w.game, **{
             "revision": "9" * 30, "s1-p0-foot": "K" * 3000, "s1-p0-picked": None})}), 400,
         "a card string has at most 2,000"),
    page("deals.preview", "POST", "card string of 10,000 tokens",  # said in the live box, as typed
         lambda w: (f"/games/{w.game}/deals/2/preview", {"data": deal_form(w.client, w.game, **{
             "s1-p0-left": TOKENS_10K})}), 200, "a card string has at most 2,000"),
    page("deals.preview", "POST", "deal 10**30",
         lambda w: (f"/games/{w.game}/deals/{10**30}/preview", {"data": deal_form(w.client, w.game)}), 200,
         "Deal 1000000000000000000000000000000 is not in this game"),
    page("parts.this_phone", "GET", "1,000-character id", lambda w: (f"/games/{LONG_ID}/phone", {}), 404),
    page("parts.this_phone", "POST", "a side the game has not",
         lambda w: (f"/games/{w.game}/phone", {"data": {"side": "99", "owner": "Ann"}}), 400,
         "Choose a side of this game"),
    page("parts.part", "GET", "deal 10**30", lambda w: (f"/games/{w.game}/deals/{10**30}/part", {}), 303),
    page("parts.part", "POST", "deal 10**30",
         lambda w: (f"/games/{w.game}/deals/{10**30}/part", {"data": deal_form(w.client, w.game)}), 303),
    page("parts.confirm", "POST", "a version of 30 digits",
         lambda w: (f"/games/{w.game}/deals/2/confirm", {"data": {"part": "1", "version": "9" * 30}}), 303),
    page("parts.abandon", "POST", "deal 10**30", lambda w: (f"/games/{w.game}/deals/{10**30}/abandon", {}), 409,
         "is not the game's next deal"),
    page("parts.progress", "GET", "deal 10**30", lambda w: (f"/games/{w.game}/deals/{10**30}/progress", {}), 404),
    page("parts.part_preview", "POST", "card string of 10,000 tokens",  # said in the live box, as typed
         lambda w: (f"/games/{w.game}/deals/2/part/preview", {"data": deal_form(w.client, w.game, **{
             "s1-p0-left": TOKENS_10K})}), 200, "a card string has at most 2,000"),
    page("deals.edit_deal", "GET", "deal 10**30", lambda w: (f"/games/{w.game}/deals/{10**30}/edit", {}), 404),
    page("deals.edit_deal", "POST", "a card string of 2,001 characters",
         lambda w: (f"/games/{w.game}/deals/1/edit", {"data": deal_form(w.client, w.game, 1, **{
             "s0-m2-cards": "K" + " " * 1999 + "K"})}), 400, "a card string has at most 2,000"),
    page("deals.edit_deal", "POST", "a revision no game has",
         lambda w: (f"/games/{w.game}/deals/1/edit", {"data": deal_form(w.client, w.game, 1, **{
             "revision": "9" * 30, "s0-red_threes": "123456"})}), 400, "Red threes laid: 123456 is too many"),
    page("deals.delete_deal", "GET", "deal 10**30", lambda w: (f"/games/{w.game}/deals/{10**30}/delete", {}), 404),
    page("deals.delete_deal", "POST", "deal 10**30",
         lambda w: (f"/games/{w.game}/deals/{10**30}/delete", {"data": {"revision": "1"}}), 404),
    page("games.end_game", "GET", "1,000-character id", lambda w: (f"/games/{LONG_ID}/end", {}), 404),
    page("games.end_game", "POST", "1,000-character id",
         lambda w: (f"/games/{LONG_ID}/end", {"data": {"revision": "1"}}), 404),
    page("games.reopen_game", "GET", "1,000-character id", lambda w: (f"/games/{LONG_ID}/reopen", {}), 404),
    page("games.reopen_game", "POST", "1,000-character id",
         lambda w: (f"/games/{LONG_ID}/reopen", {"data": {"revision": "1"}}), 404),
    page("games.delete_game", "GET", "1,000-character id", lambda w: (f"/games/{LONG_ID}/delete", {}), 404),
    page("games.delete_game", "POST", "1,000-character id",
         lambda w: (f"/games/{LONG_ID}/delete", {"data": {"revision": "1"}}), 404),
    page("desk.explain", "GET", "deal 10**30", lambda w: (f"/games/{w.game}/deals/{10**30}/explain", {}), 404),
    page("games.edit_link", "GET", "key of 10,000 characters",
         lambda w: (f"/games/{w.game}/edit/{'k' * 10_000}", {}), 403),
    page("games.edit_link", "GET", "key with a non-ASCII character",
         lambda w: (f"/games/{w.game}/edit/%C3%A9", {}), 403),
    page("exchange.export_page", "GET", "1,000-character id", lambda w: (f"/games/{LONG_ID}/export.json", {}), 404),
    page("games.history", "GET", "1,000-character id", lambda w: (f"/games/{LONG_ID}/history", {}), 404),
    page("games.watching", "GET", "1,000-character id", lambda w: (f"/games/{LONG_ID}/watching", {}), 404),
    page("games.view_qr", "GET", "1,000-character id", lambda w: (f"/games/{LONG_ID}/view-link.svg", {}), 404),
    page("paper.game_pad", "GET", "paper of 1,000 characters",
         lambda w: (f"/games/{w.game}/pad.pdf", {"query_string": {"paper": "a" * 1000}}), 400, "paper must be"),
    page("desk.game_referee", "GET", "pile of 1,001 cards",
         lambda w: (f"/games/{w.game}/referee", {"query_string": {
             "ask": "pile", "top_card": "9", "pile_size": "1001"}}), 400, "must be from 0 to 1,000, not 1,001"),
    page("desk.game_referee", "GET", "card string of 10,000 tokens",
         lambda w: (f"/games/{w.game}/referee", {"query_string": {"ask": "meld", "meld": TOKENS_10K}}), 400,
         "a card string has at most 2,000"),
    page("desk.rescore", "GET", "deal 101",
         lambda w: (f"/games/{w.game}/rescore", {"query_string": {"sheet": "pagat", "deal": "101"}}), 400,
         "must be from 1 to 100, not 101"),
    page("desk.rescore", "GET", "a sheet nested past the parser's depth",
         lambda w: (f"/games/{w.game}/rescore", {"query_string": {"sheet_json": DEEP_SHEET}}), 400,
         "nested too deeply"),
    page("paper.game_results", "GET", "paper of 1,000 characters",
         lambda w: (f"/games/{w.game}/results.pdf", {"query_string": {"paper": "a" * 1000}}), 400, "paper must be"),
    page("exchange.scores_page", "GET", "1,000-character id", lambda w: (f"/games/{LONG_ID}/scores.csv", {}), 404),
    page("sheets.sheet", "GET", "1,000-character id", lambda w: (f"/games/{LONG_ID}/sheet", {}), 404),
    page("paper.game_sheet", "GET", "paper of 1,000 characters",
         lambda w: (f"/games/{w.game}/sheet.pdf", {"query_string": {"paper": "a" * 1000}}), 400, "paper must be"),
    page("games.replace_edit_link", "GET", "1,000-character id",
         lambda w: (f"/games/{LONG_ID}/replace-edit-link", {}), 404),
    page("games.replace_edit_link", "POST", "1,000-character id",
         lambda w: (f"/games/{LONG_ID}/replace-edit-link", {"data": {}}), 404),
    # The editor's words answer every query, reading at most the sheet's own bounds (no band past 20).
    Case("sheets.words", "GET", "5,000 opening band rows and a preset id of 1,000 characters",
         lambda w: ("/sheets/words", {"query_string": {"preset": LONG_ID, **{
             f"opt-opening_bands-{i}-below": "1" for i in range(5000)}}}), 200, kind="words"),
    page("sheets.amend_sheet", "GET", "preset id of 1,000 characters",
         lambda w: (f"/games/{w.game}/sheet/amend", {"query_string": {"preset": LONG_ID}}), 404),
    page("sheets.amend_sheet", "POST", "reason of 500 characters",
         lambda w: (f"/games/{w.game}/sheet/amend", {"data": amend_form(w.client, w.game, reason=REASON_500)}), 400,
         "at most 200 characters"),
    page("sheets.amend_sheet", "POST", "13 decks",
         lambda w: (f"/games/{w.game}/sheet/amend", {"data": amend_form(w.client, w.game, **{
             "opt-decks_rule": "fixed", "opt-decks": "13"})}), 400, "must be from 1 to 12, not 13"),
    page("sheets.amend_sheet", "POST", "a revision no game has",
         lambda w: (f"/games/{w.game}/sheet/amend", {"data": amend_form(w.client, w.game, **{
             "revision": "9" * 30, "opt-opening_minimums-1": "[" * 50_000})}), 400, "must be a whole number"),
    page("exchange.import_page", "GET", "a method it does not take", lambda w: ("/import", {"method": "PUT"}), 405),
    page("exchange.import_page", "POST", "body past the import limit",
         lambda w: ("/import", {"data": {"document": IMPORT_TOO_BIG}}), 413, "That was too large"),
    page("exchange.import_page", "POST", "a paste nested past the parser's depth",
         lambda w: ("/import", {"data": {"document": "[" * 50_000}}), 400, "nested too deeply"),
    page("exchange.import_page", "POST", "41-character name",
         lambda w: ("/import", {"data": {"document": json.dumps({**export_doc(w.client, w.game), "name": NAME_41})}}),
         400, "at most 40 characters"),
    page("desk.referee", "GET", "a sheet nested past the parser's depth",
         lambda w: ("/referee", {"query_string": {"sheet_json": DEEP_SHEET}}), 400, "nested too deeply"),
    page("desk.referee", "GET", "61 melds",
         lambda w: ("/referee", {"query_string": {"sheet": "common", "ask": "minimum",
                                                  "melds": ";".join(["K K K"] * 61)}}),
         400, "lists 61 melds; at most 60"),
    page("paper.preset_sheet", "GET", "preset id of 1,000 characters", lambda w: (f"/sheets/{LONG_ID}.pdf", {}), 404),
    page("paper.preset_pad", "GET", "9 sides",
         lambda w: ("/sheets/common/pad.pdf", {"query_string": {"sides": "9"}}), 400, "from 2 to 8"),
    page("paper.preset_pad", "GET", "sides in other digits",
         lambda w: ("/sheets/common/pad.pdf", {"query_string": {"sides": "²"}}), 400, "from 2 to 8"),
    page("desk.compare", "GET", "a sheet nested past the parser's depth",
         lambda w: ("/sheets/compare", {"query_string": {"a": DEEP_SHEET, "b": "common"}}), 400, "nested too deeply"),
    page("installable.worker", "GET", "a method it does not take", lambda w: ("/sw.js", {"method": "POST"}), 405),
    page("installable.manifest", "GET", "a method it does not take",
         lambda w: ("/manifest.webmanifest", {"method": "POST"}), 405),
    page("installable.offline", "GET", "a method it does not take", lambda w: ("/offline", {"method": "POST"}), 405),
    page("static", "GET", "a path out of the folder",
         lambda w: ("/static/../scorepad/app.py", {}), 404),
    page("static", "GET", "a name of 1,000 characters", lambda w: ("/static/" + LONG_ID, {}), 404),
    # -- a club night's pages (no event of a 1,000-character id; the form's bounds beside their boxes)
    page("events.new_event", "GET", "a query of 1,000 characters", lambda w: ("/events/new?x=" + LONG_ID, {}), 200),
    page("events.new_event", "POST", "41-character name",
         lambda w: ("/events/new", {"data": {"name": NAME_41, "rounds": "2", "players": "Ann\nBen\nCy\nDi"}}), 400,
         "at most 40 characters"),
    page("events.new_event", "POST", "13 rounds",
         lambda w: ("/events/new", {"data": {"name": "Tuesday", "rounds": "13", "players": "Ann\nBen\nCy\nDi"}}),
         400, "from 1 to 12"),
    page("events.new_event", "POST", "161 players",
         lambda w: ("/events/new", {"data": {"name": "Tuesday", "rounds": "2",
                                             "players": "\n".join(f"P{i}" for i in range(161))}}), 400, "at most 160"),
    page("events.organise", "GET", "1,000-character id and key",
         lambda w: (f"/events/{LONG_ID}/organise/{LONG_ID}", {}), 404),
    page("events.event", "GET", "1,000-character id", lambda w: (f"/events/{LONG_ID}", {}), 404),
    page("events.board", "GET", "1,000-character id", lambda w: (f"/events/{LONG_ID}/board", {}), 404),
    page("events.add_players", "POST", "1,000-character id",
         lambda w: (f"/events/{LONG_ID}/players", {"data": {"players": "Ivy"}}), 404),
    page("events.leaving", "POST", "a name of 1,000 characters",
         lambda w: (f"/events/{LONG_ID}/leaving", {"data": {"name": LONG_ID}}), 404),
    page("events.next_round", "GET", "1,000-character id", lambda w: (f"/events/{LONG_ID}/rounds/next", {}), 404),
    page("events.start_round", "POST", "1,000-character id", lambda w: (f"/events/{LONG_ID}/rounds", {}), 404),
    page("events.close_table", "POST", "round and table 10**30",
         lambda w: (f"/events/{LONG_ID}/rounds/{10**30}/tables/{10**30}/close", {}), 404),
    page("events.end_round", "POST", "1,000-character id", lambda w: (f"/events/{LONG_ID}/rounds/end", {}), 404),
    page("events.delete_event", "GET", "1,000-character id", lambda w: (f"/events/{LONG_ID}/delete", {}), 404),
    page("events.delete_event", "POST", "1,000-character id", lambda w: (f"/events/{LONG_ID}/delete", {}), 404),
    page("club_night_paper.table_cards_pdf", "GET", "round 10**30 of no event",
         lambda w: (f"/events/{LONG_ID}/table-cards.pdf?round={10**30}", {}), 404),
    page("club_night_paper.results_pdf", "GET", "1,000-character id", lambda w: (f"/events/{LONG_ID}/results.pdf", {}),
         404),
    page("club_night_paper.players_csv_file", "GET", "1,000-character id",
         lambda w: (f"/events/{LONG_ID}/players.csv", {}), 404),
    page("event_exchange.export_page", "GET", "1,000-character id", lambda w: (f"/events/{LONG_ID}/export.json", {}),
         404),
    page("event_exchange.import_page", "GET", "a query of 1,000 characters",
         lambda w: ("/events/import?x=" + LONG_ID, {}), 200),
    page("event_exchange.import_page", "POST", "a document nested past the parser's depth",
         lambda w: ("/events/import", {"data": {"document": "[" * 100_000}}), 400, "nested"),
    page("event_exchange.ladder", "GET", "a club name of 1,000 characters", lambda w: (f"/clubs/{LONG_ID}/ladder", {}),
         404),
]


def _send(world: World, case: Case):
    url, kwargs = case.request(world)
    kwargs = dict(kwargs)
    method = kwargs.pop("method", case.method)
    return world.client.open(url, method=method, **kwargs)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_out_of_bounds_input_is_refused_naming_the_field(refused_world, case):
    world = refused_world
    before = dump(world.app.config["DATABASE"])
    response = _send(world, case)
    assert_no_traceback(response)
    assert response.status_code == case.status, (response.status_code, response.get_data(as_text=True)[:2000])
    if case.kind == "api":
        error = assert_error_shape(response, case.status, case.field)
        if case.says:
            assert case.says in error["message"], error
    elif case.kind == "words":
        words = response.get_json()["words"]
        assert words and all(said is None for said in words.values())  # an unreadable sheet: no hint
    else:
        assert response.mimetype == "text/html"
        page_text = text_of(response.get_data(as_text=True))
        if case.says:
            assert case.says in page_text, page_text[:3000]
    assert dump(world.app.config["DATABASE"]) == before  # nothing refused is written


def test_every_route_has_an_out_of_bounds_case(app):
    covered = {(c.endpoint, c.method) for c in CASES}
    missing = []
    for rule in app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            if (rule.endpoint, method) not in covered:
                missing.append(f"{method} {rule.rule} ({rule.endpoint})")
    assert not missing, "routes without an out-of-bounds case in CASES: " + "; ".join(missing)


# -- the pages' messages sit beside the input they are about ------------------------------------------


def test_a_long_player_name_on_the_new_game_form_is_shown_on_its_row(world):
    response = world.client.post("/new", data=new_game_form(world.client, **{"side-1-p0": NAME_41}))
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert re.search(r'<p class="error" id="side-1-error">[^<]*at most 40 characters', page)
    assert f'value="{NAME_41}"' in page  # what was typed comes back


def test_an_over_long_card_string_is_shown_on_its_player_and_never_shortened(world):
    client, game = world.client, world.game
    before = dump(world.app.config["DATABASE"])
    response = client.post(f"/games/{game}/deals/1/edit", data=deal_form(client, game, 1, **{
        "s1-p0-left": "A " * 1000 + "3B"}))  # 2,002 characters: never cut down to the first 1,000 aces
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    block = page[page.index('id="s1-p0"'):page.index('name="s1-p0-foot"')]  # Bea's cards left
    assert "a card string has at most 2,000" in text_of(block)
    assert dump(world.app.config["DATABASE"]) == before


def test_the_largest_card_string_allowed_is_read_whole(world):
    client, game = world.client, world.game
    left = " ".join(["A"] * 999)  # 1,997 characters: 999 aces (and the ace already in the box)
    assert len(left) <= MAX_CARD_STRING
    response = client.post(f"/games/{game}/deals/1/edit", data=deal_form(client, game, 1, **{
        "s1-p0-left": left, "reason": "a big hand", "action": "as_played"}))
    assert response.status_code == 303, text_of(response.get_data(as_text=True))[:2000]
    with world.app.app_context():
        cache.current().clear()
        deal = reading.load_game(game).deal(1).deal
    assert deal.sides[1].players[0].cards_left.to_json() == {"A": 1000, "3B": 1}


def test_correcting_a_deal_with_more_melds_than_the_page_adds_rows_for_keeps_them_all(world):
    """A deal recorded through the API may hold up to MAX_MELDS melds a side; the page shows
    them all, and posting it back keeps them all (it used to keep the first 40 rows)."""
    client, game = world.client, world.game
    deal = deal_with(setp("sides[0].melds", ["K K K"] * 45 + ["Q Q Q Q Q 2 2"]), 2, as_played={"reason": "a long deal"})
    response = client.post(f"/api/v1/games/{game}/deals", json=deal, headers=bearer(world.key))
    assert response.status_code == 201, response.get_json()
    data = deal_form(client, game, 2, action="as_played")
    assert data["s0-rows"] == "48"
    response = client.post(f"/games/{game}/deals/2/edit", data=data)
    assert response.status_code == 303, text_of(response.get_data(as_text=True))[:1000]
    saved = client.get(f"/api/v1/games/{game}/deals/2").get_json()["deal"]
    assert len(saved["sides"][0]["melds"]) == 46
    more = client.post(f"/games/{game}/deals/2/edit", data={**data, "action": "more"})
    assert 's0-m47-rank' in more.get_data(as_text=True)  # "More meld rows" never takes rows away


# -- the bounds themselves, in the rules core ------------------------------------------------------


@pytest.mark.parametrize("text, field_says", [
    (" ".join(["K"] * 600) + " Kx401", "holds 1,001 kings"),
    ("Kx600 Kx401", "holds 1,001 kings"),
    ("Kx9999", "holds 9,999 kings"),
    ("K" + " " * MAX_CARD_STRING, "a card string has at most 2,000"),
    (TOKENS_10K, "a card string has at most 2,000"),
], ids=["1,001 kings", "Kx600 Kx401", "Kx9999", "2,001 characters", "10,000 tokens"])
def test_a_card_string_is_bounded_like_the_object_form(text, field_says):
    with pytest.raises(ReadError) as err:
        Cards.from_json(text, "cards_left")
    assert err.value.field == "cards_left" and field_says in err.value.reason
    assert Cards.from_json("Kx1000", "x").to_json() == {"K": 1000}  # the object form's bound, exactly


def test_a_meld_of_both_threes_is_bounded_too():
    with pytest.raises(ReadError) as err:
        Deal.from_json(scored(setp("sides[1].melds[0]", "3Rx600 3Bx600")))
    assert err.value.field == "sides[1].melds[0]"


def test_a_game_file_is_bounded_in_deals_and_sides():
    with pytest.raises(ReadError) as err:
        Game.from_json({"sheet": {"preset": "common", "game_length": "target"}, "deals": [valid_deal(None)] * 101})
    assert err.value.field == "deals"
    with pytest.raises(ReadError) as err:
        Game.from_json({"sheet": "common", "sides": [f"S{i}" for i in range(9)], "deals": []})
    assert err.value.field == "sides"
    with pytest.raises(ReadError) as err:
        Game.from_json({"sheet": "common", "sides": ["Ann", NAME_41], "deals": []})
    assert err.value.field == "sides[1]"


def test_every_bound_is_generous_for_a_real_table(world):
    """A larger deal than any table plays: 8 players in 4 partnerships, 40 melds a side,
    40-character names, a hand of 34 cards; it is read and scored."""
    names = [f"{'P' * 38}{i:02d}" for i in range(8)]
    sheet = {"preset": "pagat", "min_players": 8, "max_players": 8}
    deal = {"sheet": sheet, "deal": 1, "ending": "stock_out", "sides": [
        {"name": f"{'S' * 39}{k}", "melds": ["K K K"] * 40, "red_threes": 4,
         "players": [{"name": names[2 * k + j], "foot_picked_up": False, "foot": "A " * 12 + "3R",
                      "cards_left": "Kx30 Q Q 2 JK"} for j in range(2)]} for k in range(4)]}
    assert Deal.from_json(deal).sides[3].players[1].cards_left.total == 34
    response = world.client.post("/api/v1/score", json=deal)
    assert response.status_code == 200, response.get_json()
    assert [side["name"] for side in response.get_json()["sides"]] == [f"{'S' * 39}{k}" for k in range(4)]


# -- request size ---------------------------------------------------------------------------------


@pytest.mark.parametrize("csrf", [False, True])
def test_a_body_over_the_limit_is_413_json_for_the_api_and_a_friendly_page_otherwise(make_app, csrf):
    app = make_app(WTF_CSRF_ENABLED=csrf)
    client = app.test_client()
    limit = app.config["MAX_CONTENT_LENGTH"]
    assert limit == 256 * 1024
    for url, most in (("/api/v1/score", limit), ("/api/v1/games", limit), ("/api/v1/referee/explain", limit),
                      ("/api/v1/games/import", MAX_IMPORT_BYTES), ("/api/v1/events/import", MAX_EVENT_IMPORT_BYTES)):
        response = client.post(url, data="x" * (most + 1), content_type=J)
        assert_error_shape(response, 413, None)
        assert f"{most // 1024:,} KB" in response.get_json()["error"]["message"]
    for url, most in (("/new", limit), ("/import", MAX_IMPORT_BYTES)):
        response = client.post(url, data={"name": "x" * (most + 1)})
        assert response.status_code == 413 and response.mimetype == "text/html"
        page = text_of(response.get_data(as_text=True))
        assert "That was too large" in page and f"{most // 1024:,} KB" in page
        assert_no_traceback(response)
