"""One key set per kind of object: an optional key of an object the API answers is always
there (``null``, ``0`` or ``[]`` when empty), never there for one instance and missing from
the next (issue 10, item 5).

Many real requests (deals legal, breaking the rules, with warnings; games with a deleted
deal, a deal saved as played, a correction, an amendment, a stale write, a refusal, an
export and import; every referee route with several kinds of question) are collected, and
every object in every answer is sorted into a kind: by the list it is in (``violations``
hold problems, ``reasons`` reasons, ``lines`` lines, ...), by its key (``report``), or else
by its route, status and place in the body. Every instance of a kind must have the same keys.

Not objects of a kind: deal bodies and sheets (documents in their canonical form, as a
client sends them: a default is left out) and maps keyed by side or option names
(``totals``, ``points``, ``opening_minimums``...). The top level of an error body carries
its problem type's own extensions, so only its ``error`` object is checked.
"""

from __future__ import annotations

import json
import shutil
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from scorepad.app import create_app
from tests.api.test_api import BAD_DEAL, two_player_deal
from tests.api.test_rescore_export import BY_HAND
from tests.helpers import bearer, valid_deal, violating_deal

ROOT = Path(__file__).resolve().parents[2]
API = "/api/v1"

PROBLEM_LISTS = ("violations", "warnings", "problems", "new_violations", "cleared_violations", "new_problems")
# the kind of object each list holds, wherever it is in a body
LIST_KINDS = {**{name: "problem" for name in PROBLEM_LISTS}, "reasons": "reason", "lines": "line",
              "diff": "line change", "history": "history entry", "changes": "change", "amendments": "amendment",
              "standings": "standing", "deleted_deals": "deleted deal", "sheet_changes": "sheet change",
              "running_totals": "running total", "old_running_totals": "running total",
              "new_running_totals": "running total"}
PROBLEM_KEYS = {"code", "message", "option", "where", "side", "player", "meld"}
# a kind's extra keys in some answers: named apart, checked to be the plain kind's keys and these
EXTRAS = {"problem, as the referee cites it": ("problem", {"label", "sheet_says"}),
          "problem, in a refusal": ("problem", {"never_as_played"}),
          "line, as the referee explains it": ("line", {"rule", "sheet_says"})}
# values that are documents (deal bodies, sheets) or maps keyed by names, not objects of a kind
DOCUMENTS = {"sheet", "old_sheet", "new_sheet", "before", "after", "value"}  # value: an option's, as a sheet has it
MAPS = {"totals", "points", "running", "opening_minimums", "totals_before", "old_totals", "new_totals", "not_stated"}
# optional keys each kind must show both empty and not, so the corpus exercises them
EXERCISED = {"problem": ("option", "side", "player", "meld"), "problem, as the referee cites it": ("option", "label"),
             "reason": ("option", "label", "sheet_says"), "line": ("player",), "line change": ("player", "old", "new"),
             "report of a recorded deal": ("problems_omitted",), "history entry": ("deal_number", "reason")}


@dataclass
class Answer:
    route: str  # method and route template
    status: int
    body: Any


# -- the requests --------------------------------------------------------------------------------


WARNED = two_player_deal(bea_melds=(), bea_left="3R")  # side.no_melds (no option), red_three.in_hand
THREES = two_player_deal(ann_melds=("3B 3B 3B",))  # meld.rank: a rule every sheet shares
LEFT_HOLDING = two_player_deal(ann_left="4 4", went_out="Ann")  # went_out.cards_left, went_out.books


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory, migrated_database: Path) -> list[Answer]:
    database = tmp_path_factory.mktemp("shapes") / "scorepad.sqlite"
    shutil.copyfile(migrated_database, database)
    client = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(database)}).test_client()
    out: list[Answer] = []

    def ask(method: str, route: str, url: str | None = None, what: str = "", **kwargs: Any) -> Any:
        """Send a request to ``url`` (else ``route``); ``what`` names the kind of answer
        when one route answers two kinds (a deal or a game rescored)."""
        response = client.open(API + (url or route), method=method, **kwargs)
        assert response.is_json, (method, url or route, response.status_code)
        out.append(Answer(f"{method} {route}{what}", response.status_code, response.get_json()))
        return response

    _scoring(ask)
    game_id = _a_game(ask)
    _a_game_of_many_problems(ask)
    _referee(ask, game_id)
    return out


def _scoring(ask) -> None:
    ask("GET", "/sheets")
    ask("GET", "/sheets/<id>", "/sheets/pagat")
    ask("GET", "/sheets/<id>", "/sheets/nowhere")
    for deal in (valid_deal(), BAD_DEAL, WARNED, THREES, LEFT_HOLDING):
        ask("POST", "/score", json={"sheet": "common", "deal": 1, **deal})
    ask("POST", "/score", json=json.loads((ROOT / "examples" / "deal.json").read_text()))
    ask("POST", "/score", json={"sheet": "common", "deal": 1, "ending": "?"})


def _a_game(ask) -> str:
    """Ann v Bea on the common sheet: every write, a stale one, a refusal, a gap, an amendment."""
    made = ask("POST", "/games", json={"name": "Friday", "sheet": "common", "sides": [
        {"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]}).get_json()
    game_id, auth = made["id"], bearer(made["edit_key"])
    deals, one = "/games/<id>/deals", "/games/<id>/deals/<n>"
    at = f"/games/{game_id}"
    ask("POST", deals, f"{at}/deals", json=valid_deal(None), headers=auth)
    ask("POST", deals, f"{at}/deals", json=BAD_DEAL, headers=auth)  # 422
    ask("POST", deals, f"{at}/deals", json={**LEFT_HOLDING, "as_played": {"reason": "we let it stand"}}, headers=auth)
    ask("POST", deals, f"{at}/deals", json={**WARNED, "deal": 3}, headers=auth)
    ask("PUT", one, f"{at}/deals/3", json={**THREES, "deal": 3, "as_played": {"reason": "agreed"}}, headers=auth)
    ask("POST", deals, f"{at}/deals", json={**valid_deal(None), "revision": 1}, headers=auth)  # 409, changes
    ask("DELETE", one, f"{at}/deals/2", headers=auth)
    ask("GET", "/games/<id>", at)  # a gap: deal 2 is not recorded, and deal 3 is
    ask("GET", one, f"{at}/deals/2")  # 404
    ask("POST", deals, f"{at}/deals", json={**LEFT_HOLDING, "as_played": {"reason": "again"}}, headers=auth)
    ask("POST", deals, f"{at}/deals", json=WARNED, headers=auth)
    ask("DELETE", one, f"{at}/deals/4", headers=auth)  # deleted, not recorded again
    ask("PUT", "/games/<id>/sheet", f"{at}/sheet", headers=auth, json={
        "sheet": {"preset": "common", "game_length": "target", "target_score": 500}, "reason": "short evening"})
    for path in ("", "/revision", "/history", "/deals/1", "/deals/3", "/export"):
        ask("GET", f"/games/<id>{path.replace('/1', '/<n>').replace('/3', '/<n>')}", at + path)
    document = ask("GET", "/games/<id>/export", f"{at}/export").get_json()
    ask("POST", "/games/import", json=document)
    refused = {**document, "deals": [{**d, "as_played": None} for d in document["deals"]]}
    ask("POST", "/games/import", json=refused)  # 422, the problems
    ask("GET", "/games/<id>/deals/<n>", "/games/nowhere/deals/1")  # 404
    return game_id


def _a_game_of_many_problems(ask) -> None:
    """A deal of more problems than a game's JSON lists: its report counts the rest."""
    made = ask("POST", "/games", json={"name": "Many", "sheet": "common", "sides": [
        {"name": "Side 1", "players": ["Player 1"]}, {"name": "Side 2", "players": ["Player 2"]}]}).get_json()
    game_id, key = made["id"], made["edit_key"]
    ask("POST", "/games/<id>/deals", f"/games/{game_id}/deals", headers=bearer(key),
        json={**violating_deal(1, 2, 20), "as_played": {"reason": "the table let it stand"}})
    ask("GET", "/games/<id>", f"/games/{game_id}")
    ask("GET", "/games/<id>/deals/<n>", f"/games/{game_id}/deals/1")


QUESTIONS = [
    ("meld", {"sheet": "pagat", "meld": "9 9 9 2 2"}),
    ("meld", {"sheet": "pagat", "meld": "9 9 2"}),
    ("meld", {"sheet": "common", "meld": "Q", "adding_to": "K K K"}),  # a reason no option decides
    ("meld", {"sheet": "gather-together", "meld": "K K K", "table": "K K K K"}),
    ("go-out", {"sheet": "pagat", "deal": 1, "partners_picked_up": [True], "permission": True,
                "melds": ["K K K K K K K", "A A A A A A A", "Q Q Q Q Q 2 2", "J J J J J JK 2"]}),
    ("go-out", {"sheet": "common", "books": {"clean": 1, "dirty": 1}}),
    ("pile", {"sheet": "pagat", "deal": 1, "top_card": "9", "pair": 2, "wilds": 1, "pile_size": 10}),
    ("pile", {"sheet": "common", "top_card": "9", "pile_size": 0}),  # the pile is empty: no option
    ("pile", {"sheet": "common", "top_card": "3B", "pile_size": 5, "opened": True}),
    ("minimum", {"sheet": "pagat", "deal": 1, "melds": ["9 9 9 2"], "top_card": "9", "buried": "2"}),
    ("minimum", {"sheet": "common", "melds": ["K K K", "Q Q Q"]}),
    ("minimum", {"sheet": "common", "melds": ["K K K"], "top_card": "8"}),  # 400
]


def _referee(ask, game_id: str) -> None:
    for name, body in QUESTIONS:
        ask("POST", f"/referee/{name}", json=body)
    ask("POST", "/referee/go-out", json={"game": game_id, "books": {"clean": 0, "dirty": 1}})
    ask("POST", "/referee/pile", json={"game": game_id, "top_card": "K", "pair": 2, "pile_size": 4})
    for deal in (valid_deal(), BAD_DEAL, WARNED, THREES, LEFT_HOLDING):
        ask("POST", "/referee/explain", json={"deal": {"sheet": "common", "deal": 1, **deal}})
        ask("POST", "/referee/rescore", what=" (a deal)",
            json={"sheet": "pagat", "deal": {"sheet": "common", "deal": 1, **deal}})
    nines_are_five = {"preset": "common", "card_values": {"9": 5}}  # K 9 in hand: one line, then two
    ask("POST", "/referee/rescore", what=" (a deal)", json={"sheet": nines_are_five, "deal": {
        "sheet": "common", "deal": 1, **two_player_deal(ann_left="K 9")}})
    for number in (1, 3, 9):
        ask("GET", "/referee/games/<id>/deals/<n>/explain", f"/referee/games/{game_id}/deals/{number}/explain")
    short = {"preset": "common", "game_length": "target", "target_score": 1000}
    for sheet in ("pagat", short):
        ask("POST", "/referee/rescore", what=" (a game)", json={"sheet": sheet, "game": BY_HAND})
    for query in ("sheet=pagat", "sheet=bicycle&deal=1", "sheet=common&deal=3", "deal=1"):
        ask("GET", "/referee/games/<id>/rescore", f"/referee/games/{game_id}/rescore?{query}",
            what=" (a deal)" if "deal=" in query else " (a game)")
    for query in ("a=pagat&b=common", "a=common&b=common", "a=pagat"):
        ask("GET", "/referee/compare", f"/referee/compare?{query}")


# -- sorting objects into kinds ------------------------------------------------------------------


@dataclass
class Instance:
    kind: str
    keys: frozenset[str]
    obj: dict[str, Any]
    seen: str  # the answer and the place in its body


def _kind(answer: Answer, path: tuple[str, ...]) -> str:
    """The kind of the object at ``path`` (keys, ``[]`` for a list's item) in ``answer``."""
    route = answer.route
    if path == ("error",):
        return "error"
    if path[-1:] == ("report",) or (route == "POST /score" and not path):
        return "verdict" if answer.status == 422 or route == "POST /score" else "report of a recorded deal"
    held_in = path[-2] if len(path) >= 2 and path[-1] == "[]" else None
    kind = LIST_KINDS.get(held_in or "")
    if kind == "problem" and ("explain" in route or "rescore" in route):
        return "problem, as the referee cites it"
    if kind == "problem" and answer.status == 422 and path == ("problems", "[]"):
        return "problem, in a refusal"
    if kind == "line" and "explain" in route:
        return "line, as the referee explains it"
    if kind == "history entry" and "export" in route:
        return "history entry, in an export"
    if kind is not None:
        return kind
    return f"{route} {answer.status}: {'.'.join(path) or '(the body)'}"


def _walk(value: Any, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    if isinstance(value, list):
        for item in value:
            yield from _walk(item, (*path, "[]"))
    elif isinstance(value, dict):
        yield path, value
        for key, item in value.items():
            if key in DOCUMENTS or (key in MAPS or key == "deal") and isinstance(item, dict):
                continue
            yield from _walk(item, (*path, key))


def instances(answers: list[Answer]) -> dict[str, list[Instance]]:
    found: dict[str, list[Instance]] = defaultdict(list)
    for i, answer in enumerate(answers):
        for path, obj in _walk(answer.body, ()):
            if not path and answer.status >= 400:
                continue  # the error body's top level: its problem type's extensions
            kind = _kind(answer, path)
            where = f"answer {i} ({answer.route} {answer.status}) at {'.'.join(path) or '(the body)'}"
            found[kind].append(Instance(kind, frozenset(obj), obj, where))
    return found


def odd_keys(group: list[Instance]) -> str:
    """Where a kind's instances disagree: each key set, the keys it lacks or adds, and an example."""
    every = frozenset.intersection(*(i.keys for i in group))
    some = frozenset.union(*(i.keys for i in group))
    lines = [f"odd keys: {sorted(some - every)}"]
    by_keys: dict[frozenset[str], list[Instance]] = defaultdict(list)
    for instance in group:
        by_keys[instance.keys].append(instance)
    for keys, seen in by_keys.items():
        lines.append(f"  {len(seen)} without {sorted(some - keys)}, e.g. {seen[0].seen}")
    return "\n".join(lines)


# -- the tests ------------------------------------------------------------------------------------

NAMED = sorted({*LIST_KINDS.values(), *EXTRAS, "error", "verdict", "report of a recorded deal",
                "history entry, in an export"})


@pytest.mark.parametrize("kind", NAMED)
def test_every_object_of_a_named_kind_has_the_same_keys(answers, kind):
    group = instances(answers).get(kind, [])
    assert group, f"no {kind} in any answer: the requests must show one"
    assert len({i.keys for i in group}) == 1, f"objects of the kind {kind!r} differ in their keys:\n{odd_keys(group)}"


def test_every_object_of_one_place_in_one_answer_has_the_same_keys(answers):
    differ = {kind: odd_keys(group) for kind, group in instances(answers).items()
              if kind not in NAMED and len({i.keys for i in group}) > 1}
    assert not differ, "\n".join(f"{kind}:\n{odd}" for kind, odd in differ.items())


def test_a_problem_has_the_same_keys_wherever_it_is_with_its_extras_named(answers):
    found = instances(answers)
    assert {i.keys for i in found["problem"]} == {frozenset(PROBLEM_KEYS)}
    for kind, (plain, extra) in EXTRAS.items():
        expected = {i.keys for i in found[plain]}
        assert {i.keys - extra for i in found[kind]} == expected, f"{kind}: {odd_keys(found[kind])}"


@pytest.mark.parametrize("kind, keys", EXERCISED.items(), ids=list(EXERCISED))
def test_the_requests_show_each_optional_key_both_empty_and_not(answers, kind, keys):
    """Else the tests above could not catch an optional key left out when empty."""
    group = instances(answers)[kind]
    for key in keys:
        values = [i.obj.get(key) for i in group]
        assert any(v in (None, 0, []) for v in values), f"no {kind} with {key} empty"
        assert any(v not in (None, 0, []) for v in values), f"no {kind} with {key} given"
