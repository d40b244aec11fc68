"""The API's OpenAPI 3.1 description (``GET /api/v1/openapi.json``): a valid document, listing
exactly the routes of ``app.url_map`` under ``/api/v1`` (so a new route without a description
fails here), with every bound of :mod:`scorepad.rules.limits` where it applies, and schemas
that the API's real answers meet."""

from __future__ import annotations

import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import OpenAPIV31SpecValidator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from scorepad.api.problems import TYPES
from scorepad.rules import limits
from scorepad.rules.catalogue import OPTIONS
from tests.helpers import bearer, valid_deal

DOC = "urn:scorepad:openapi"  # the document's address for resolving its $refs
PAGE_FILES = {"/events/<event_id>/players.csv"}  # files of the pages, outside /api/v1, described with the PDFs


@pytest.fixture(scope="module")
def doc(module_app) -> dict[str, Any]:
    response = module_app.test_client().get("/api/v1/openapi.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    return response.get_json()


def at(doc: dict[str, Any], pointer: str) -> Any:
    """The value at a JSON pointer (``/components/schemas/Name``) of the document."""
    value: Any = doc
    for part in pointer.lstrip("/").split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def test_the_description_is_valid_openapi_3_1(doc):
    assert doc["openapi"].startswith("3.1")
    OpenAPIV31SpecValidator(doc).validate()


def test_the_description_lists_every_api_route_and_pdf_and_nothing_else(module_app, doc):
    served = {(re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule), method.lower())
              for rule in module_app.url_map.iter_rules()
              if rule.rule.startswith("/api/v1/") or rule.rule.endswith(".pdf") or rule.rule in PAGE_FILES
              for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}}
    described = {(path, method) for path, item in doc["paths"].items() for method in item if method != "parameters"}
    assert served - described == set(), "routes without a description"
    assert described - served == set(), "descriptions of routes the app does not serve"


def test_the_pdfs_answer_application_pdf_and_take_the_paper(doc):
    pdfs = {path: item for path, item in doc["paths"].items() if path.endswith(".pdf")}
    assert len(pdfs) == 7  # a game's three, a preset's two, a club night's table cards and results
    for path, item in pdfs.items():
        assert set(item["get"]["responses"]["200"]["content"]) == {"application/pdf"}, path
        assert "paper" in parameters(doc, path, "get")


def operations(doc) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, operation) for path, item in doc["paths"].items()
            for method, operation in item.items() if method != "parameters"]


def test_every_operation_has_its_own_operation_id_and_a_described_tag(doc):
    ids = [operation.get("operationId") for _, _, operation in operations(doc)]
    assert None not in ids
    assert all(re.fullmatch(r"[a-z]+(_[a-z]+)*", i) for i in ids), ids
    assert len(set(ids)) == len(ids), sorted(i for i in ids if ids.count(i) > 1)
    tags = {tag["name"]: tag["description"] for tag in doc["tags"]}
    for path, method, operation in operations(doc):
        assert len(operation["tags"]) == 1 and operation["tags"][0] in tags, (path, method)
    assert {t for *_, o in operations(doc) for t in o["tags"]} == set(tags), "a tag no operation has"


def unnamed_objects_in_unions(value: Any, where: str = "") -> list[str]:
    """Where an object schema written in place sits inside an anyOf or oneOf: a generated client
    cannot name its model ("Unable to process schema Meld_type_1")."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("anyOf", "oneOf"):
                found += [f"{where}/{key}/{i}" for i, branch in enumerate(item)
                          if isinstance(branch, dict) and "$ref" not in branch
                          and ("object" in (branch.get("type"), *(branch.get("type") or [])) or "properties" in branch)]
            found += unnamed_objects_in_unions(item, f"{where}/{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += unnamed_objects_in_unions(item, f"{where}/{i}")
    return found


def test_no_object_written_in_place_inside_a_union(doc):
    assert unnamed_objects_in_unions(doc) == []
    assert unnamed_objects_in_unions({"anyOf": [{"type": "string"}, {"type": "object"}]}) == ["/anyOf/1"]


def test_the_write_routes_describe_their_headers(doc):
    record = doc["paths"]["/api/v1/games/{game_id}/deals"]["post"]["responses"]["201"]["headers"]
    assert {"Location", "ETag", "Idempotent-Replayed", "RateLimit-Policy", "RateLimit"} <= set(record)
    create = doc["paths"]["/api/v1/games"]["post"]["responses"]["201"]["headers"]
    assert {"Location", "Idempotent-Replayed", "RateLimit-Policy", "RateLimit"} <= set(create)
    read = doc["paths"]["/api/v1/games/{game_id}/revision"]["get"]["responses"]["200"].get("headers", {})
    assert not {"RateLimit", "Idempotent-Replayed"} & set(read)
    assert set(doc["components"]["headers"]) >= {"ETag", "Location", "Idempotent-Replayed", "RateLimit-Policy",
                                                  "RateLimit"}


def test_every_error_is_one_problem_schema_as_application_problem_json(doc):
    for response in doc["components"]["responses"].values():
        assert response["content"] == {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
    problem = doc["components"]["schemas"]["Problem"]["properties"]
    assert {"type", "title", "status", "detail", "field", "error", "revision", "changes", "report",
            "may_save_as_played", "problems"} <= set(problem)
    urls = doc["components"]["schemas"]["ProblemTypeUrl"]["enum"]
    assert set(urls) == {"about:blank", *(f"/api/v1/problems/{slug}" for slug in TYPES)}
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if method == "parameters" or not path.startswith("/api/v1/"):  # a page's errors are its HTML
                continue
            for status, response in operation["responses"].items():
                if int(status) >= 400:
                    assert response["$ref"].startswith("#/components/responses/"), (method, status)


def test_the_headers_a_client_library_expects_are_declared(doc):
    responses = doc["components"]["responses"]
    assert set(responses["Unauthorized"]["headers"]) == {"WWW-Authenticate"}
    assert set(responses["Forbidden"]["headers"]) == {"WWW-Authenticate"}
    assert set(responses["MethodNotAllowed"]["headers"]) == {"Allow"}
    assert set(responses["Busy"]["headers"]) == {"Retry-After"}
    assert set(responses["TooManyRequests"]["headers"]) == {"Retry-After", "RateLimit-Policy", "RateLimit"}
    game = doc["paths"]["/api/v1/games/{game_id}"]["get"]["responses"]
    assert "ETag" in game["200"]["headers"] and "304" in game
    assert "Location" in doc["paths"]["/api/v1/games"]["post"]["responses"]["201"]["headers"]
    assert "Location" in doc["paths"]["/api/v1/games/{game_id}/deals"]["post"]["responses"]["201"]["headers"]


def parameters(doc, path: str, method: str) -> dict[str, dict[str, Any]]:
    item = doc["paths"][path]
    found = [*item.get("parameters", []), *item[method].get("parameters", [])]
    found = [at(doc, p["$ref"][1:]) if "$ref" in p else p for p in found]
    return {p["name"]: p for p in found}


def test_writes_take_the_edit_key_if_match_and_their_query(doc):
    writes = [("/api/v1/games/{game_id}/deals", "post"), ("/api/v1/games/{game_id}/deals/{number}", "put"),
              ("/api/v1/games/{game_id}/deals/{number}", "delete"), ("/api/v1/games/{game_id}/sheet", "put")]
    for path, method in writes:
        operation = doc["paths"][path][method]
        assert operation["security"] == [{"editKey": []}]
        assert {"401", "403", "409", "412"} <= set(operation["responses"])
        assert parameters(doc, path, method)["If-Match"]["in"] == "header"
    assert parameters(doc, "/api/v1/games/{game_id}/deals/{number}", "delete")["revision"]["in"] == "query"
    rescore = parameters(doc, "/api/v1/referee/games/{game_id}/rescore", "get")
    assert rescore["sheet"]["required"] and rescore["sheet"]["in"] == "query" and rescore["deal"]["in"] == "query"
    assert {"a", "b"} <= set(parameters(doc, "/api/v1/referee/compare", "get"))


@pytest.mark.parametrize(("path", "method"), [("/api/v1/games", "post"), ("/api/v1/games/import", "post"),
                                              ("/api/v1/games/{game_id}/deals", "post")])
def test_the_three_creating_posts_take_an_optional_idempotency_key(doc, path, method):
    key = parameters(doc, path, method)["Idempotency-Key"]
    assert key["in"] == "header" and not key.get("required", False)
    assert {"409", "422"} <= set(doc["paths"][path][method]["responses"])


# -- the bounds: each from the limits table, never a number typed again ----------------------------

SCHEMAS = "/components/schemas"
OPTION = f"{SCHEMAS}/SheetObject/properties"
DEAL_SIDE = f"{SCHEMAS}/DealSide/properties"
EVENTS = "/paths/~1api~1v1~1events"

# Each bound of limits.py: where the description states it, (pointer, value) pairs.
BOUNDS: dict[str, list[tuple[str, Any]]] = {
    # a game's sides; a deal of fewer is read and judged a breach of the rules (table.sides)
    "MIN_SIDES": [(f"{SCHEMAS}/Sides/minItems", limits.MIN_SIDES)],
    "MAX_SIDES": [(f"{SCHEMAS}/Sides/maxItems", limits.MAX_SIDES),
                  (f"{SCHEMAS}/Deal/properties/sides/maxItems", limits.MAX_SIDES)],
    "MAX_PER_SIDE": [(f"{SCHEMAS}/Side/properties/players/maxItems", limits.MAX_PER_SIDE),
                     (f"{DEAL_SIDE}/players/maxItems", limits.MAX_PER_SIDE),
                     (f"{OPTION}/side_sizes/anyOf/0/maximum", limits.MAX_PER_SIDE)],
    "MIN_PLAYERS": [(f"{OPTION}/min_players/minimum", limits.MIN_PLAYERS),
                    (f"{OPTION}/max_players/minimum", limits.MIN_PLAYERS)],
    "MAX_PLAYERS": [(f"{OPTION}/min_players/maximum", limits.MAX_PLAYERS),
                    (f"{OPTION}/max_players/maximum", limits.MAX_PLAYERS)],
    "MAX_NAME": [(f"{SCHEMAS}/Name/maxLength", limits.MAX_NAME),
                 (f"{SCHEMAS}/NewEvent/properties/name/$ref", "#/components/schemas/Name"),
                 (f"{SCHEMAS}/EntrantObject/properties/name/$ref", "#/components/schemas/Name"),
                 (f"{SCHEMAS}/EventExport/properties/name/$ref", "#/components/schemas/Name"),
                 ("/paths/~1api~1v1~1clubs~1{club}~1ladder/parameters/0/schema/maxLength", limits.MAX_NAME)],
    "MAX_GAME_ID": [("/paths/~1api~1v1~1games~1{game_id}/parameters/0/schema/maxLength", limits.MAX_GAME_ID)],
    "MAX_MELDS": [(f"{DEAL_SIDE}/melds/maxItems", limits.MAX_MELDS),
                  (f"{SCHEMAS}/Melds/anyOf/0/maxItems", limits.MAX_MELDS)],
    "MAX_COUNT": [(f"{SCHEMAS}/MeldCounts/properties/naturals/maximum", limits.MAX_COUNT),
                  (f"{SCHEMAS}/MeldCounts/properties/naturals/minimum", -limits.MAX_COUNT),
                  (f"{DEAL_SIDE}/red_threes/maximum", limits.MAX_COUNT),
                  (f"{SCHEMAS}/Books/properties/clean/maximum", limits.MAX_COUNT),
                  (f"{SCHEMAS}/Player/properties/red_threes_left/maximum", limits.MAX_COUNT)],
    "MAX_COUNTED_POINTS": [(f"{DEAL_SIDE}/meld_points/maximum", limits.MAX_COUNTED_POINTS),
                           (f"{DEAL_SIDE}/meld_points/minimum", -limits.MAX_COUNTED_POINTS),
                           (f"{SCHEMAS}/Player/properties/cards_left_points/maximum", limits.MAX_COUNTED_POINTS)],
    "MAX_CARD_STRING": [(f"{SCHEMAS}/Meld/anyOf/0/maxLength", limits.MAX_CARD_STRING)],
    "MAX_DEALS": [(f"{SCHEMAS}/Game/properties/deals/maxItems", limits.MAX_DEALS),
                  (f"{SCHEMAS}/Export/properties/deals/maxItems", limits.MAX_DEALS),
                  (f"{SCHEMAS}/DealWrite/properties/deal/maximum", limits.MAX_DEALS)],
    "MAX_REASON": [(f"{SCHEMAS}/DealWrite/properties/as_played/properties/reason/maxLength", limits.MAX_REASON),
                   (f"{SCHEMAS}/SheetAmendment/properties/reason/maxLength", limits.MAX_REASON)],
    "MAX_POINTS": [(f"{SCHEMAS}/Standing/properties/total/maximum", limits.MAX_POINTS),
                   (f"{SCHEMAS}/Standing/properties/total/minimum", -limits.MAX_POINTS)],
    "MAX_SHEET_DEALS": [(f"{OPTION}/{name}/anyOf/1/maxItems", limits.MAX_SHEET_DEALS) for name in (
        "opening_minimums", "going_out_bonus", "books_to_go_out", "pile_cards", "draws_per_turn")],
    "MAX_BANDS": [(f"{OPTION}/opening_bands/maxItems", limits.MAX_BANDS)],
    "MAX_SIDE_SIZES": [(f"{OPTION}/side_sizes/anyOf/1/maxItems", limits.MAX_SIDE_SIZES)],
    "MAX_CARD_VALUES": [(f"{OPTION}/card_values/maxProperties", limits.MAX_CARD_VALUES)],
    "MAX_SPECIAL_BOOKS": [(f"{OPTION}/special_books/maxProperties", limits.MAX_SPECIAL_BOOKS),
                          (f"{OPTION}/special_books_dirty/maxProperties", limits.MAX_SPECIAL_BOOKS)],
    "MAX_THREE_BOOKS": [(f"{OPTION}/three_books/maxProperties", limits.MAX_THREE_BOOKS)],
    "MAX_DECKS_BY_PLAYERS": [(f"{OPTION}/decks_by_players/maxProperties", limits.MAX_DECKS_BY_PLAYERS)],
    "MAX_PILE_BLOCKERS": [(f"{OPTION}/pile_blocked_by/maxItems", limits.MAX_PILE_BLOCKERS)],
    "MAX_HOUSE_RULES": [(f"{OPTION}/house_rules/maxItems", limits.MAX_HOUSE_RULES),
                        (f"{SCHEMAS}/Preset/properties/house_rules/maxItems", limits.MAX_HOUSE_RULES)],
    "MAX_HOUSE_RULE": [(f"{OPTION}/house_rules/items/maxLength", limits.MAX_HOUSE_RULE),
                       (f"{SCHEMAS}/Preset/properties/house_rules/items/maxLength", limits.MAX_HOUSE_RULE)],
    "MAX_PHONE": [("/paths/~1api~1v1~1games~1{game_id}~1deals~1{number}~1ending/put/parameters/0/schema/maxLength",
                   limits.MAX_PHONE)],
    "MAX_IDEMPOTENCY_KEY": [("/components/parameters/IdempotencyKey/schema/maxLength", limits.MAX_IDEMPOTENCY_KEY)],
    # a club night (scorepad/api/openapi_club_nights.py)
    "MAX_EVENT_TABLES": [(f"{SCHEMAS}/EventRound/properties/tables/maxItems", limits.MAX_EVENT_TABLES),
                         (f"{SCHEMAS}/NextRound/properties/tables/maxItems", limits.MAX_EVENT_TABLES),
                         (f"{SCHEMAS}/ExportedRound/properties/tables/maxItems", limits.MAX_EVENT_TABLES),
                         (f"{EVENTS}~1{{event_id}}~1rounds~1{{number}}~1tables~1{{table}}~1close/parameters/2/schema/"
                          "maximum", limits.MAX_EVENT_TABLES)],
    "MAX_EVENT_PLAYERS": [(f"{SCHEMAS}/NewEvent/properties/players/maxItems", limits.MAX_EVENT_PLAYERS),
                          (f"{SCHEMAS}/Arrivals/properties/players/maxItems", limits.MAX_EVENT_PLAYERS),
                          (f"{SCHEMAS}/Event/properties/players/maxItems", limits.MAX_EVENT_PLAYERS),
                          (f"{SCHEMAS}/EventExport/properties/players/maxItems", limits.MAX_EVENT_PLAYERS)],
    "MAX_EVENT_ROUNDS": [(f"{SCHEMAS}/NewEvent/properties/rounds/maximum", limits.MAX_EVENT_ROUNDS),
                         (f"{SCHEMAS}/Event/properties/rounds/maxItems", limits.MAX_EVENT_ROUNDS),
                         (f"{SCHEMAS}/EventExport/properties/rounds/maxItems", limits.MAX_EVENT_ROUNDS),
                         (f"{EVENTS}~1{{event_id}}~1rounds~1{{number}}~1end/parameters/1/schema/maximum",
                          limits.MAX_EVENT_ROUNDS)],
    "MAX_MEMBER": [(f"{SCHEMAS}/EntrantObject/properties/member/maxLength", limits.MAX_MEMBER)],
}
# The bounds no schema keyword states, and why; a bound added to limits.py must go in one of the two.
NOT_A_SCHEMA_BOUND = {
    "MAX_MELD_ROWS": "the deal form's rows",
    "ENTRY_BYTES": "the store's count of a game's bytes",
    "MAX_GAME_BYTES": "a game's stored bytes: a 409 naming game",
    "MAX_IMPORT_BYTES": "an import's bytes: a 413",
    "MAX_PROBLEMS_LISTED": "how many problems an answer lists",
    "MAX_PROBLEMS_SHOWN": "a page's or a PDF's problems",
    "MAX_GAME_PROBLEMS_LISTED": "how many problems a game's answer lists",
    "MAX_DEPTH": "nesting, which JSON Schema cannot bound",
    "MAX_NUMBER": "any number of any body, as the body is read",
    "MAX_INPUT": "form input",
    "MAX_GAMES_REMEMBERED": "the browser's cookie",
    "MAX_GAMES_WATCHED": "the browser's cookie",
    "MAX_EVENTS_LISTED": "the home page's club nights",
    "MAX_PHONE_CHOICES": "the browser's cookie (what each game's phone enters)",
    "MAX_FILENAME": "a download's file name",
    "MAX_EVENT_LISTENERS": "a server's open event streams: a 503 (the events route's description)",
    "MAX_EVENT_STREAM_SECONDS": "how long an event stream stays open (the events route's description)",
    "MOVEMENT_SEARCH_TRIES": "the seating search's attempts, no input at all",
    "MAX_EVENT_IMPORT_BYTES": "an event import's bytes (the import page's, POST /api/v1/events/import's): a 413 "
                              "(the import route's description)",
}


def test_an_event_imports_bound_in_bytes_is_stated_in_its_routes_description(doc):
    described = doc["paths"]["/api/v1/events/import"]["post"]
    assert f"{limits.MAX_EVENT_IMPORT_BYTES:,} bytes (a 413" in described["description"]
    assert "413" in described["responses"]


def test_every_bound_of_the_limits_table_is_placed_or_said_not_to_apply():
    defined = {name for name in vars(limits) if name.isupper()}
    assert set(BOUNDS) | set(NOT_A_SCHEMA_BOUND) == defined
    assert not set(BOUNDS) & set(NOT_A_SCHEMA_BOUND)


@pytest.mark.parametrize("name", sorted(BOUNDS))
def test_each_bound_is_stated_where_it_applies(doc, name):
    for pointer, value in BOUNDS[name]:
        assert at(doc, pointer) == value, pointer


def test_a_sheets_options_are_the_catalogues_each_with_its_default(doc):
    options = at(doc, OPTION)
    assert set(options) == {"preset", "preset_version", *(o.name for o in OPTIONS)}
    for option in OPTIONS:
        assert options[option.name]["default"] == option.write(option.default)
        assert options[option.name]["title"] == option.label
    assert options["hand_size"]["type"] == "integer" and options["pile_needs_opened"]["type"] == "boolean"
    assert options["wild_ratio"]["enum"] == ["twice", "more", "at-least", "none"]


def test_the_catalogue_bounds_agree_with_what_a_sheet_accepts(client):
    """The schema's bound is the reader's: one past it is refused, naming the option."""
    options = {o.name: o.schema() for o in OPTIONS}
    for name in ("hand_size", "decks", "target_score", "min_players"):
        highest = options[name]["maximum"]
        sheet = {"preset": "common", name: highest + 1}
        response = client.post("/api/v1/score", json={"sheet": sheet, **valid_deal(1)})
        assert response.status_code == 400 and response.get_json()["error"]["field"] == f"sheet.{name}"


# -- real answers meet the documented schemas -----------------------------------------------------------


def documented(doc: dict[str, Any], path: str, method: str, status: int) -> Draft202012Validator:
    """A validator of the body the document gives for this answer, its $refs resolved in the document."""
    pointer = "/paths/" + path.replace("~", "~0").replace("/", "~1") + f"/{method}/responses/{status}"
    response = at(doc, pointer)
    if "$ref" in response:
        pointer = response["$ref"][1:]
        response = at(doc, pointer)
    (media,) = response["content"]
    registry = Registry().with_resource(DOC, Resource.from_contents(doc, default_specification=DRAFT202012))
    schema = {"$ref": f"{DOC}#{pointer}/content/{media.replace('/', '~1')}/schema"}
    return Draft202012Validator(schema, registry=registry)


def assert_meets(doc, path: str, method: str, response) -> None:
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"[:300]
              for e in documented(doc, path, method, response.status_code).iter_errors(response.get_json())]
    assert not errors, errors[:5]


def test_real_answers_meet_their_documented_schemas(client, doc):
    created = client.post("/api/v1/games", json={"name": "Friday", "sheet": {"preset": "common", "cut_bonus": 50},
                                                 "sides": [{"name": "Ann", "players": ["Ann"]},
                                                           {"name": "Bea", "players": ["Bea"]}]})
    assert created.status_code == 201
    assert_meets(doc, "/api/v1/games", "post", created)
    game, key = created.get_json()["id"], created.get_json()["edit_key"]
    broken = valid_deal(2)
    broken["sides"][1]["melds"] = ["A A 2 2"]
    refused = client.post(f"/api/v1/games/{game}/deals", json=broken, headers=bearer(key))
    assert refused.status_code == 422
    assert_meets(doc, "/api/v1/games/{game_id}/deals", "post", refused)
    saved = client.post(f"/api/v1/games/{game}/deals", json=valid_deal(1), headers=bearer(key))
    assert saved.status_code == 201
    assert_meets(doc, "/api/v1/games/{game_id}/deals", "post", saved)
    as_played = client.post(f"/api/v1/games/{game}/deals", json={**broken, "as_played": {"reason": "let it stand"}},
                            headers=bearer(key))
    assert as_played.status_code == 201
    recorded = client.post(f"/api/v1/games/{game}/deals", json=valid_deal(1), headers=bearer(key))
    assert recorded.status_code == 409 and recorded.get_json()["recorded"]["history"]
    assert_meets(doc, "/api/v1/games/{game_id}/deals", "post", recorded)
    again = {**broken, "as_played": {"reason": "let it stand"}}
    del again["deal"]
    repeated = client.post(f"/api/v1/games/{game}/deals", json=again, headers=bearer(key))
    assert repeated.status_code == 422 and repeated.get_json()["previous"] == 2
    assert_meets(doc, "/api/v1/games/{game_id}/deals", "post", repeated)
    stale = client.delete(f"/api/v1/games/{game}/deals/2?revision=1", headers=bearer(key))
    assert stale.status_code == 409
    assert_meets(doc, "/api/v1/games/{game_id}/deals/{number}", "delete", stale)
    for path, url in [("/api/v1/games/{game_id}", f"/api/v1/games/{game}"),
                      ("/api/v1/games/{game_id}/deals/{number}", f"/api/v1/games/{game}/deals/2"),
                      ("/api/v1/games/{game_id}/history", f"/api/v1/games/{game}/history"),
                      ("/api/v1/games/{game_id}/revision", f"/api/v1/games/{game}/revision"),
                      ("/api/v1/games/{game_id}/export", f"/api/v1/games/{game}/export"),
                      ("/api/v1/referee/games/{game_id}/rescore", f"/api/v1/referee/games/{game}/rescore?sheet=pagat"),
                      ("/api/v1/referee/games/{game_id}/rescore",
                       f"/api/v1/referee/games/{game}/rescore?sheet=pagat&deal=1"),
                      ("/api/v1/referee/games/{game_id}/deals/{number}/explain",
                       f"/api/v1/referee/games/{game}/deals/1/explain"),
                      ("/api/v1/sheets", "/api/v1/sheets"), ("/api/v1/sheets/{sheet_id}", "/api/v1/sheets/pagat")]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert_meets(doc, path, "get", response)


def test_a_schema_refuses_what_it_does_not_describe(doc):
    """The check above can fail: a game's answer missing a key, or with a side too many, does not validate."""
    validator = documented(doc, "/api/v1/games", "post", 201)
    body = {"id": "x", "edit_key": "k", "revision": 0, "view_url": "http://h/g", "edit_url": "http://h/e",
            "api_url": "http://h/a"}
    assert validator.is_valid(body)
    assert not validator.is_valid({k: v for k, v in body.items() if k != "edit_key"})
    sides = documented(doc, "/api/v1/games/{game_id}", "get", 200)
    too_many = [{"name": f"S{i}", "players": ["P"]} for i in range(limits.MAX_SIDES + 1)]
    assert any("sides" in e.absolute_path for e in sides.iter_errors({"sides": too_many}))


def test_the_description_is_built_once_per_app(module_app):
    client = module_app.test_client()
    first = client.get("/api/v1/openapi.json").get_data()
    assert client.get("/api/v1/openapi.json").get_data() == first
    assert module_app.extensions["scorepad.openapi"] == first.decode()


def test_every_answer_of_a_write_that_carries_the_revision_declares_its_etag_and_a_limited_routes_its_limits(doc):
    """What the server sends (tests/api/test_conventions.py, test_ratelimit_fields.py), described."""
    paths = doc["paths"]
    for path, method, status in (("/api/v1/games", "post", "201"), ("/api/v1/games/import", "post", "201"),
                                 ("/api/v1/games/{game_id}/deals", "post", "201"),
                                 ("/api/v1/games/{game_id}/deals/{number}", "put", "200"),
                                 ("/api/v1/games/{game_id}/deals/{number}", "delete", "200"),
                                 ("/api/v1/games/{game_id}/sheet", "put", "200"),
                                 ("/api/v1/games/{game_id}/edit-key", "post", "200"),
                                 ("/api/v1/games/{game_id}/end", "post", "200"),
                                 ("/api/v1/games/{game_id}/reopen", "post", "200")):
        headers = paths[path][method]["responses"][status]["headers"]
        assert {"ETag", "RateLimit-Policy", "RateLimit"} <= set(headers), (path, method)
    assert "RateLimit" not in paths["/api/v1/games/{game_id}"]["get"]["responses"]["200"]["headers"]
    assert {"RateLimit-Policy", "RateLimit"} <= set(doc["components"]["headers"])


# -- examples: each the doc's story's own (scorepad/api/examples.json), each valid ---------------------


def schema_validator(doc: dict[str, Any], name: str) -> Draft202012Validator:
    registry = Registry().with_resource(DOC, Resource.from_contents(doc, default_specification=DRAFT202012))
    return Draft202012Validator({"$ref": f"{DOC}#/components/schemas/{name}"}, registry=registry,
                                format_checker=Draft202012Validator.FORMAT_CHECKER)


def test_every_example_meets_its_own_schema(doc):
    examples = {name: schema["examples"] for name, schema in doc["components"]["schemas"].items()
                if "examples" in schema}
    assert len(examples) >= 30
    for name, (example,) in examples.items():
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"[:200]
                  for e in schema_validator(doc, name).iter_errors(example)]
        assert not errors, (name, errors[:3])
    assert not schema_validator(doc, "NewGame").is_valid({**examples["NewGame"][0], "sides": []})


def test_every_schema_an_operation_reads_or_answers_has_an_example(doc):
    used = set()
    for *_, operation in operations(doc):
        holders = [operation.get("requestBody", {}), *operation["responses"].values()]
        for holder in holders:
            if "$ref" in holder:
                holder = at(doc, holder["$ref"][1:])
            for media in holder.get("content", {}).values():
                ref = media.get("schema", {}).get("$ref", "")
                if ref.startswith("#/components/schemas/"):
                    used.add(ref.rsplit("/", 1)[1])
    assert {"NewGame", "NewDeal", "Game", "Problem", "RescoreRequest"} <= used
    assert sorted(name for name in used if "examples" not in doc["components"]["schemas"][name]) == []


def test_an_export_is_a_game_the_rescore_reads(doc):
    """The doc: an export is rescored as it is (tests/api/test_rescore_export.py: the server does)."""
    export = doc["components"]["schemas"]["Export"]["examples"][0]
    rescore = schema_validator(doc, "RescoreRequest")
    assert rescore.is_valid({"sheet": "pagat", "game": export})
    assert not rescore.is_valid({"sheet": "pagat", "game": export, "deal": {}}), "a deal or a game, not both"
    assert not rescore.is_valid({"sheet": "pagat"}), "a deal or a game"
    question = schema_validator(doc, "MeldQuestion")
    assert question.is_valid({"sheet": "pagat", "meld": "9 9 2"}) and question.is_valid({"game": "x", "meld": "9 9 2"})
    assert not question.is_valid({"sheet": "pagat", "game": "x", "meld": "9 9 2"}), "the sheet or the game"
    assert not question.is_valid({"meld": "9 9 2"})
    name = schema_validator(doc, "Name")
    assert name.is_valid("Ann Lee") and not name.is_valid("   ") and not name.is_valid("A\u0000")


@pytest.mark.parametrize(("option", "value", "field"), [
    ("side_sizes", [1, 1], "sheet.side_sizes[1]"), ("pile_blocked_by", ["wild", "wild"], "sheet.pile_blocked_by[1]"),
    ("house_rules", [f"Rule {n}." for n in range(limits.MAX_HOUSE_RULES + 1)], "sheet.house_rules")])
def test_a_sheet_the_schema_refuses_the_server_refuses_naming_the_field(client, doc, option, value, field):
    """uniqueItems and maxItems (house rules: blank ones and spaces around one are tolerated,
    tests/rules/test_house_rules.py)."""
    sheet = {"preset": "common", option: value}
    assert not schema_validator(doc, "SheetObject").is_valid(sheet)
    response = client.post("/api/v1/score", json={"sheet": sheet, **valid_deal(1)})
    assert response.status_code == 400 and response.get_json()["field"] == field


def test_a_standalone_deal_past_the_last_deal_a_game_may_have_is_judged_a_breach_as_the_schema_says(client, doc):
    """A deal's number is read and its bound judged (deal.number: a game to a target keeps a
    hundred deals), as the referee reports any rule, so the schema reads it as a count."""
    deal = {"sheet": "pagat", **valid_deal(limits.MAX_DEALS + 1)}
    assert schema_validator(doc, "ScoreRequest").is_valid(deal)
    response = client.post("/api/v1/score", json=deal)
    assert response.status_code == 200
    assert "deal.number" in [p["code"] for p in response.get_json()["violations"]]
    assert not schema_validator(doc, "ScoreRequest").is_valid({**deal, "deal": limits.MAX_COUNT + 1})
