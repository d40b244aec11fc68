"""The component schemas of the API's description (:mod:`.openapi`): what the routes read and
answer, each named (no unnamed object inside a union, so a generated client names every model),
and the referee's question bodies (:func:`question`). Every bound is a constant of
:mod:`scorepad.rules.limits`; a sheet's options are the catalogue's own schemas.
"""

from __future__ import annotations

from ..rules import PRESETS
from ..rules.cards import CARDS, Rank
from ..rules.catalogue import OPTION_BY_NAME, OPTIONS
from ..rules.limits import (
    MAX_COUNT,
    MAX_DEALS,
    MAX_MELDS,
    MAX_NAME,
    MAX_PER_SIDE,
    MAX_PROBLEMS_LISTED,
    MAX_REASON,
    MAX_SIDES,
    MIN_SIDES,
)
from ..rules.problems import UNCHECKED
from ..rules.published import GROUPS
from ..rules.questions import BOOK_KINDS, BY_RANK, PERMISSION_WORDS, QUESTIONS
from ..rules.read import JSON
from .openapi_club_nights import event_schemas
from .openapi_open import open_schemas
from .problems import TYPES, type_url
from .schema import (
    BOOLEAN,
    CARD_STRING,
    COUNT,
    COUNTED,
    DEAL_NUMBER,
    GAME_TEXT,
    INTEGER,
    NAME_PATTERN,
    POINTS,
    REVISION,
    STRING,
    TIME,
    TOTALS,
    UNIQUE_NAMES,
    URL,
    Schema,
    array,
    between,
    nullable,
    obj,
    ref,
)


def one_of(a: str, b: str) -> Schema:
    """Exactly one of the properties ``a`` and ``b``: not both, and ``b`` without ``a``. Said
    with not and if/then rather than a oneOf of two ``required``, which a generated client reads
    as two shapes of no properties."""
    return {"not": {"required": [a, b]}, "if": {"not": {"required": [a]}}, "then": {"required": [b]}}


def camel(name: str) -> str:
    """``books_to_go_out`` as a schema's name: ``BooksToGoOut``."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def hoisted(name: str, schema: JSON, named: dict[str, Schema]) -> JSON:
    """``schema`` with every object written in place inside an anyOf or oneOf moved to
    ``named`` under ``name`` and the properties it lies under (``BooksToGoOutSpecial``), and
    referred to there: the catalogue writes an option's schema whole, a generated client wants
    each union's object named."""
    if isinstance(schema, list):
        return [hoisted(name, item, named) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: Schema = {}
    for key, value in schema.items():
        if key in ("anyOf", "oneOf") and isinstance(value, list):
            out[key] = [_named_branch(name, hoisted(name, branch, named), named) for branch in value]
        elif key == "properties" and isinstance(value, dict):
            out[key] = {prop: hoisted(name + camel(prop), item, named) for prop, item in value.items()}
        else:
            out[key] = hoisted(name, value, named)
    return out


def _named_branch(name: str, branch: JSON, named: dict[str, Schema]) -> JSON:
    if not (isinstance(branch, dict) and branch.get("type") == "object"):
        return branch
    while name in named and named[name] != branch:
        name += "Item"
    named[name] = branch
    return ref(name)


# A player's name, or nobody: left out, null, or only spaces, as the server reads them.
NOBODY: Schema = {"anyOf": [ref("Name"), ref("Blank"), {"type": "null"}]}


def schemas() -> Schema:
    """The component schemas: what the routes read and answer."""
    options: dict[str, Schema] = {}
    cards: Schema = {"anyOf": [CARD_STRING, ref("CardCounts")], "description": "cards: one by one, or counted"}
    card_counts: Schema = {"type": "object", "propertyNames": ref("Card"), "additionalProperties": COUNT,
                           "description": "counts by card"}
    meld: Schema = {"anyOf": [CARD_STRING, ref("MeldCounts")], "description": "a meld: its cards one by one, "
                    "or counted by kind"}
    meld_counts = obj(rank={"enum": [r.value for r in Rank]}, naturals=COUNT, twos=COUNT, jokers=COUNT,
                      cards=ref("Cards"))
    meld_counts["description"] = "a meld counted: its rank and how many naturals, 2s and jokers (or its cards)"
    opening = obj(("melds",), melds=array(ref("Meld"), MAX_MELDS), pile_top={
        "anyOf": [BOOLEAN, ref("Card")],
        "description": "the pile's top card when the first melds used it (true: the card not said)"})
    opening["description"] = ("first melds, laid together to meet the opening minimum: the side's, or each "
                              "player's where the sheet's minimum is each player's")
    player = obj(("name", "foot_picked_up"), name=ref("Name"), foot_picked_up=BOOLEAN, cards_left=ref("Cards"),
                 foot=ref("Cards"), cut_bonus=BOOLEAN, opening=ref("Opening"),
                 foot_played={**nullable(BOOLEAN), "description": "whether the player played from the foot; "
                              "absent or null: as foot_picked_up"},
                 knee_picked_up={**nullable(BOOLEAN), "description": "in a deal with a knee (the sheet's "
                                 "knee_size): whether the player picked up the knee; absent or null: as "
                                 "foot_picked_up. A deal without a knee leaves it out"},
                 knee={**ref("Cards"), "description": "the unopened knee's cards, when knee_picked_up is false"},
                 cards_left_points={**COUNTED, "description": "counted entry: the hand's points, not cards_left"},
                 red_threes_left={**COUNT, "description": "counted entry: red threes still in the hand"})
    player["not"] = {"required": ["cards_left", "cards_left_points"]}
    player["dependentRequired"] = {"red_threes_left": ["cards_left_points"]}
    ranks: Schema = {"enum": [r.value for r in list(Rank)[:11]]}
    books = obj(clean=COUNT, dirty=COUNT, wild=COUNT,
                special={"type": "object", "propertyNames": ranks,
                         "additionalProperties": COUNT, "description": "clean books of a rank the sheet's "
                         "special_books names, by rank; not also in clean"},
                special_dirty={"type": "object", "propertyNames": ranks, "additionalProperties": COUNT,
                               "description": "dirty books of a rank the sheet's special_books_dirty names, by "
                               "rank; not also in dirty"},
                threes={"type": "object", "propertyNames": {"enum": [Rank.RED_THREE.value, Rank.BLACK_THREE.value]},
                        "additionalProperties": COUNT, "description": "books of threes the sheet's three_books "
                        "allows, by colour"},
                wild_mixed={**COUNT, "description": "wild books mixing 2s and jokers, where the sheet's "
                            "wild_book_mixed_bonus prices them; not also in wild"})
    deal_side = obj(("name",), name=ref("Name"), melds=array(ref("Meld"), MAX_MELDS),
                    books={**ref("Books"), "description": "counted entry: books by kind (a missing key is 0), "
                           "instead of melds"},
                    meld_points={**COUNTED, "description": "counted entry: the points of every card melded"},
                    red_threes=COUNT, players=array(ref("Player"), MAX_PER_SIDE),
                    opening=ref("Opening"),
                    running_total={**POINTS, "description": "a standalone deal: the side's total before it, where "
                                   "the minimum follows the running total (a game knows its own)"},
                    failed_takes={**COUNT, "description": "times a player of the side took the pile and could not "
                                  "meld its top card as the sheet asks, each costing the sheet's pile_take_penalty"})
    # itemised (melds, or nothing melded) or counted (books with meld_points, no melds)
    deal_side["dependentRequired"] = {"books": ["meld_points"], "meld_points": ["books"]}
    deal_side["not"] = {"required": ["melds", "books"]}
    deal: Schema = {"number": {**DEAL_NUMBER, "description": "the deal's number, in a request"},
                    "deal": {**DEAL_NUMBER, "description": "the deal's number, as the canonical form (and every "
                             "answer) writes it; a request may say number instead (not both, unless equal)"},
                    "ending": {"enum": ["went_out", "stock_out"]},
                    "went_out": {**NOBODY, "description": "the player who went out"},
                    # fewer than two sides are read, and judged a breach of the rules (table.sides), not refused
                    "sides": {**array(ref("DealSide"), MAX_SIDES), **UNIQUE_NAMES},
                    "last_card": {"enum": ["discard", "meld"],
                                  "description": "how the player who went out played the last card"},
                    "permission": {"enum": ["asked-yes", "asked-no", "not-asked"],
                                   "description": "whether the player who went out asked a partner, and the answer"},
                    "first_meld": {**NOBODY, "description": "the player who laid down first, where "
                                   "the sheet has a first_meld_bonus (to that player's side)"}}
    said: Schema = {"code": STRING, "message": STRING, "option": nullable(STRING), "where": nullable(STRING),
                    "side": nullable(STRING), "player": nullable(STRING), "meld": nullable(INTEGER)}
    rule_problem = obj(("code", "message"), **said)
    not_checked = array(obj(("what", "option", "reason", "where", "side", "player"),
                            what={"enum": list(UNCHECKED)}, option=STRING, reason=STRING, where=STRING,
                            side=nullable(STRING), player=nullable(STRING)))
    not_checked["description"] = "rules of the sheet the deal gave nothing to judge by: neither violations nor warnings"
    line = obj(("code", "label", "count", "each", "points", "option"), code=STRING, label=STRING, count=INTEGER,
               each=INTEGER, points=INTEGER, option=STRING, player=nullable(STRING))
    side_score = obj(("name", "total", "lines"), name=STRING, total=POINTS, lines=array(ref("ScoreLine")))
    standing = obj(("name", "total"), name=STRING, total=POINTS)
    game_deal: Schema = {"number": DEAL_NUMBER, "deal": ref("Deal"), "report": ref("Report"),
                         "as_played": nullable(STRING), "history_size": INTEGER}
    entry = obj((), False, id=INTEGER, number={**nullable(DEAL_NUMBER), "description": "the deal's number (an "
                "amendment's: null)"}, game={**STRING, "description": "the game's id"},
                game_id={**STRING, "deprecated": True, "description": "deprecated: the game's id, as game"},
                deal_number={**nullable(INTEGER), "deprecated": True, "description": "deprecated: as number"},
                action=ref("Action"), at=TIME,
                before={"type": ["object", "null"]}, after={"type": ["object", "null"]},
                old_totals=nullable(ref("Totals")),
                new_totals=nullable(ref("Totals")), reason=nullable(STRING), revision=INTEGER, seq=INTEGER,
                entered_by={"type": ["object", "null"], "description": "a deal entered part by part: by part, the "
                                     "phone that entered it and the one that confirmed it"})
    created = ("id", "edit_key", "revision", "view_url", "edit_url", "api_url")
    preset: Schema = {"id": ref("PresetId"), "title": STRING, "source": STRING, "source_url": nullable(STRING),
                      "preset_version": INTEGER,
                      "not_stated": {"type": "object", "additionalProperties": STRING},
                      "house_rules": {**OPTION_BY_NAME["house_rules"].schema(),
                                      "description": "the preset's own rules of play that no other option says and "
                                                     "no recorded deal can break (its sheet's house_rules): printed, "
                                                     "never checked"},
                      "group": {"type": "string", "enum": [group for group, _ in GROUPS],
                                "description": "where its source was published: books and rules pages, card rooms "
                                               "and house sheets, apps and online"}}
    write: Schema = {**deal, "revision": REVISION, "as_played": obj(  # a deal sent to record or correct
        ("reason",), reason={"type": "string", "minLength": 1, "maxLength": MAX_REASON, "pattern": "\\S"})}
    return {
        "Card": {"type": "string", "enum": [c.value for c in CARDS], "description": "a card: its rank's letter, "
                 "3R and 3B the threes by colour, JK a joker"},
        "Cards": cards, "CardCounts": card_counts, "MeldCounts": meld_counts, "Opening": opening, "Player": player,
        "Books": books, "DealSide": deal_side, "ScoreLine": line, "SideScore": side_score,
        "OpenSide": {**{k: v for k, v in deal_side.items() if k != "required"},
                     "description": "a side's part of an open deal: the deal's side object (its name may be left out)"},
        **open_schemas(),
        **event_schemas(),
        "Problem": obj(
            ("type", "title", "status", "detail", "field", "error"), False,
            type=ref("ProblemTypeUrl"),
            title=STRING, status=between(400, 599), detail=STRING,
            field={"type": ["string", "null"], "description": "a dotted path into the request, or a header's name"},
            error=obj(("status", "field", "message"), status=INTEGER, field={"type": ["string", "null"]},
                      message=STRING),
            revision={**INTEGER, "description": "409, 412: the game's revision now"},
            changes={**array(ref("Change")), "description": "409, 412: every change since the request's revision"},
            report={**ref("Report"), "description": "422 (a deal): the referee's report"},
            may_save_as_played={**BOOLEAN, "description": "422 (a deal): whether it would be saved as played"},
            view_url={**URL, "description": "401 (edit-key-replaced): the view link, which still shows the game"},
            problems={**array(ref("ListedProblem")),
                      "description": "422: every problem, each saying whether it can ever be saved as played"},
            errors={**array(ref("ListedError"), MAX_PROBLEMS_LISTED),
                    "description": "422 rule-violations: every rule the deal breaks, the one `detail` names first"},
            number={**INTEGER, "description": "422 (an import): the number of the deal refused; 409 deal-open: "
                                              "the deal being entered part by part"},
            deal={**INTEGER, "deprecated": True, "description": "deprecated: as number"},
            parts={**INTEGER, "description": "409 deal-open: how many of its parts are saved"},
            next={**nullable(INTEGER), "description": "409 not-next-deal: the game's next deal"},
            part={**ref("OpenPart"), "description": "409 part-entered: the part as another phone entered it"},
            recorded={"anyOf": [ref("RecordedDeal"), BOOLEAN],
                      "description": "409 deal-recorded: the deal as recorded, as GET gives it; 409 not-next-deal: "
                                     "whether the deal is recorded already"},
            yours={**obj(("number", "deal", "report", "as_played"), number=DEAL_NUMBER, deal=ref("Deal"),
                         report=ref("Report"), as_played=nullable(STRING)),
                   "description": "409 deal-recorded: the deal sent, judged as that deal of the game"},
            previous={**DEAL_NUMBER, "description": "422 same-as-previous: the deal recorded just before it, "
                                                    "which it repeats"},
            deleted_at={**TIME, "description": "410 gone: when the game was deleted"}),
        "ProblemTypeUrl": {"type": "string", "format": "uri-reference", "enum": ["about:blank", *map(type_url, TYPES)],
                           "description": "`about:blank` (a plain HTTP error: its title is the status's reason), or "
                                          "`/api/v1/problems/<slug>`, whose GET documents it"},
        "ProblemType": obj(("type", "slug", "title", "status", "description", "extensions"), False,
                           type=STRING, slug={"type": "string", "enum": list(TYPES)},
                           title=STRING, status=INTEGER, description=STRING,
                           extensions=array(STRING)),
        "Blank": {"type": "string", "pattern": "^\\s*$", "description": "nothing, or only spaces: read as if left out"},
        "ListedProblem": obj(("code", "message", "never_as_played"), **said, never_as_played=BOOLEAN),
        "Name": {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "pattern": NAME_PATTERN,
                 "description": "some text a person types (no control character), not only spaces; runs of spaces "
                                "are read as one, and names are matched ignoring case"},
        "Side": obj(("name", "players"), name=ref("Name"), players={**array(ref("Name"), MAX_PER_SIDE, 1),
                                                                     "description": "in seat order"}),
        "Sides": {**array(ref("Side"), MAX_SIDES, MIN_SIDES), **UNIQUE_NAMES,
                  "description": "the game's sides. What JSON Schema cannot say, the server refuses with a 400: two "
                                 "sides of one name, or two players of one name (across the game, ignoring case); "
                                 "sides of different sizes; a number of players or a side's size the sheet does "
                                 "not play (its min_players, max_players, side_sizes)"},
        "Sheet": {"anyOf": [ref("PresetId"), ref("SheetObject")]},
        "PresetId": {"type": "string", "enum": [*sorted(PRESETS)]},
        "SheetObject": {**obj(preset=ref("PresetId"), preset_version={"type": ["integer", "null"], "minimum": 1,
                                                           "description": "the preset's version; null: as if left out"},
                           **{option.name: hoisted(camel(option.name), option.schema(), options)
                              for option in OPTIONS}),
            "description": "a preset and the options it changes. What JSON Schema cannot say, the server refuses "
                           "with a 400 naming the option: a per-deal list (opening_minimums, going_out_bonus, "
                           "books_to_go_out, pile_cards, draws_per_turn) lists one value for every deal of a game of "
                           "a set number of deals, or a single value for all; a special book asked for to go out is "
                           "one special_books names; min_players is at most max_players"},
        **options, "Totals": TOTALS,
        "Meld": meld,
        "Melds": {"anyOf": [array(ref("Meld"), MAX_MELDS),
                            {"type": "string", "description": "melds as card strings split by `;`"}]},
        "Deal": obj((), **deal),
        # A deal judged on its own: a number below 1, or past a game's last, is read and judged a
        # breach of the rules (deal.number), as the referee reports it, not refused.
        "ScoreRequest": {**obj(("sheet", "ending", "sides"), sheet=ref("Sheet"),
                               **{**deal, "number": {**COUNT, "description": "the deal's number (below 1 or past "
                                                     "the game's last: judged a breach, deal.number)"},
                                  "deal": {**COUNT, "description": "the deal's number, as number (its new name)"}}),
                         "if": {"not": {"required": ["number"]}}, "then": {"required": ["deal"]},
                         "description": "a deal to judge on its own: its number as number (or deal, its old name)"},
        "DealWrite": obj(("ending", "sides"), **write),
        "NewDeal": obj(("ending", "sides"), **write,
                       repeat={**BOOLEAN, "description": "record it even if every side and the ending equal the "
                                                         "deal recorded just before it (the table played it again)"}),
        "RuleProblem": rule_problem,
        "Report": obj(("ok", "violations", "warnings", "not_checked", "sides"), ok=BOOLEAN,
                      violations=array(ref("RuleProblem")), warnings=array(ref("RuleProblem")), not_checked=not_checked,
                      sides=array(ref("SideScore")),
                      problems_omitted={"type": "integer", "minimum": 0,
                                        "description": f"in a game: problems past the {MAX_PROBLEMS_LISTED} listed"}),
        "GameDeal": obj(tuple(game_deal), **game_deal),
        "SavedDeal": obj((*game_deal, "revision"), **game_deal, revision=INTEGER),
        "RecordedDeal": obj((*game_deal, "history"), **game_deal, history=array(ref("HistoryEntry"))),
        "Standing": standing,
        "Game": obj(("id", "name", "view_url", "sheet", "sheet_changes", "sides", "revision", "created_at",
                     "updated_at", "deals", "running_totals", "problems", "standings", "over", "winner", "tie",
                     "next_deal"),
                    id=STRING, name=STRING, view_url=URL, sheet=ref("SheetObject"),
                    sheet_changes=array(obj(("option", "label", "preset_value", "value"), option=STRING,
                                            label=STRING, preset_value=STRING, value=STRING)),
                    sides=ref("Sides"), revision=INTEGER, created_at=TIME, updated_at=TIME,
                    confirm={"enum": ["none", "opponents"], "description": "whether a side's part of a deal entered "
                             "part by part waits for a phone of another side to confirm it"},
                    deals=array(ref("GameDeal"), MAX_DEALS),
                    running_totals=array(ref("RunningTotal"), MAX_DEALS),
                    problems=array(ref("RuleProblem")), standings=array(ref("Standing")), over=BOOLEAN,
                    winner=nullable(STRING), tie=BOOLEAN, next_deal=nullable(ref("NextDeal"))),
        "NextDeal": obj(("number", "opening_minimums", "opening_who", "going_out_books", "going_out_bonus", "draws",
                         "totals_before"),
                        number=DEAL_NUMBER, opening_minimums=TOTALS, opening_who={"enum": ["player", "side"]},
                        going_out_books=obj(("clean", "dirty", "wild"), clean=INTEGER, dirty=INTEGER, wild=INTEGER,
                                            special={"anyOf": [INTEGER, ref("CountsByRank")],
                                                     "description": "special books: a number, or by rank"}),
                        going_out_bonus=INTEGER, draws=INTEGER, totals_before=TOTALS,
                        opening_book={**BOOLEAN, "description": "true (else left out) when the deal's first melds "
                                      "must include a complete book instead of a number of points; the minimums "
                                      "are then 0"}),
        "CountsByRank": {"type": "object", "additionalProperties": INTEGER,
                         "description": "by rank, such as {\"7\": 1, \"5\": 1} (3R and 3B: books of threes)"},
        "Created": obj(created, id=STRING, edit_key=STRING, revision=INTEGER, view_url=URL, edit_url=URL, api_url=URL),
        "Action": {"enum": ["record", "edit", "delete", "amend", "import", "rekey", "end", "reopen"]},
        "Ended": obj(("id", "revision", "ended_at", "standings", "over", "winner", "tie", "next_deal"), False,
                     id=STRING, revision=INTEGER,
                     ended_at={**nullable(TIME), "description": "when the table ended the game; null while it goes on"},
                     standings=array(ref("Standing")), over=BOOLEAN, winner=nullable(STRING), tie=BOOLEAN,
                     next_deal=nullable(ref("NextDeal"))),
        "HistoryEntry": entry,
        "GameEvent": obj(("revision",), revision=INTEGER, open=INTEGER, updated_at=TIME,
                         deleted={**BOOLEAN, "description": "true (else left out): the game was deleted, "
                                  "the stream ends"}),
        "Change": obj(("revision", "action", "deal", "at", "totals", "reason", "message"), revision=INTEGER,
                      action=ref("Action"), number=nullable(INTEGER),
                      deal={**nullable(INTEGER), "deprecated": True, "description": "deprecated: as number"},
                      at=TIME, totals=nullable(ref("Totals")),
                      reason=nullable(STRING), message=STRING),
        "Export": obj(("format", "version", "name", "sheet", "sides"), False, format={"const": "scorepad.game"},
                      version={"const": 1}, name=ref("Name"), sheet=ref("Sheet"), sides=ref("Sides"),
                      confirm={"enum": ["none", "opponents"], "description": "whether a side's part of a deal "
                               "entered part by part waits for another side's phone; none when left out"},
                      created_at=TIME, exported_at=TIME,
                      deals=array(ref("ExportedDeal"), MAX_DEALS),
                      deleted_deals=array(ref("ExportedDeletion")), amendments=array(ref("HistoryEntry")),
                      ended_at={**TIME, "description": "when the table ended the game (game length `open`)"}),
        "ExportedDeal": obj(("number", "deal"), False, number=DEAL_NUMBER, deal=ref("Deal"),
                            as_played=nullable(STRING), history=array(ref("HistoryEntry"))),
        "ExportedDeletion": obj(("number",), False, number={**INTEGER, "description": "as its history keeps it"},
                                history=array(ref("HistoryEntry"))),
        "GameFile": obj(("sheet", "sides", "deals"), sheet=ref("Sheet"),
                        sides={"anyOf": [ref("Sides"), array(ref("Name"), MAX_SIDES, MIN_SIDES)]},
                        deals={**array(ref("Deal"), MAX_DEALS), "description": "the deals in order, each numbered "
                               "by its place unless it says its deal"}),
        "ExplainRequest": obj(("deal",), deal=ref("ScoreRequest")),
        "RescoreRequest": {**obj(sheet=ref("Sheet"), deal=ref("ScoreRequest"), game={
            "anyOf": [ref("GameFile"), ref("Export")],
            "description": "a game: its sheet, sides and deals, or an export as GET .../export gives it"}),
            "required": ["sheet"], **one_of("deal", "game"),
            "description": "a deal (with its own sheet) or a game, one of them, and the other sheet"},
        "NewGame": obj(("name", "sheet", "sides"), name=ref("Name"), sheet=ref("Sheet"), sides=ref("Sides"),
                       confirm={"enum": ["none", "opponents"], "default": "none",
                                "description": "opponents: a side's part of a deal entered part by part is final "
                                               "once a phone of another side confirms it"}),
        "SheetAmendment": obj(("sheet", "reason"), sheet=ref("Sheet"), reason={
            "type": "string", "minLength": 1, "maxLength": MAX_REASON, "pattern": "\\S",
            "description": "why the sheet changed, some text"}, revision=REVISION),
        "Based": {**obj((), revision=REVISION), "description": "optionally, the revision the write is based on"},
        "DeletedGame": obj(("deleted", "deleted_at"), deleted=STRING, deleted_at=TIME),
        "DeletedDeal": obj(("deleted", "revision"), deleted=DEAL_NUMBER, revision=INTEGER),
        "Revision": obj(("id", "revision", "updated_at", "open"), id=STRING, revision=INTEGER, updated_at=TIME,
                        open={**INTEGER, "description": "the changes to the game's open deal, which the revision "
                              "does not count"}),
        "History": obj(("history",), history=array(ref("HistoryEntry"))),
        "Presets": obj(("sheets",), sheets=array(ref("Preset"))),
        **question_schemas(),
        "Answer": obj(("yes", "reasons"), yes=BOOLEAN, reasons=array(obj(
            ("ok", "message", "option", "label", "sheet_says"), ok=BOOLEAN, message=STRING, option=nullable(STRING),
            label=nullable(STRING), sheet_says=nullable(STRING)))),
        "Explained": obj(("deal", "ok", "sides", "violations", "warnings", "not_checked"), False, deal=INTEGER,
                         ok=BOOLEAN, sides=array(obj(("name", "total", "lines"), False, name=STRING, total=POINTS,
                                                     lines=array({"type": "object"}))),
                         violations=array(ref("CitedProblem")), warnings=array(ref("CitedProblem")),
                         not_checked=not_checked),
        "Rescored": {"anyOf": [ref("RescoredDeal"), ref("RescoredGame")],
                     "description": "a deal or a game under two sheets: a deal's has `deal`, a game's `deals`"},
        **rescored_schemas(),
        "Compared": obj(("a", "b", "same", "count", "groups"), False, a={"type": "object"}, b={"type": "object"},
                        same=BOOLEAN, count=INTEGER, groups=array({"type": "object"})),
        "Preset": obj(tuple(preset), **preset),
        "PresetSheet": obj((*preset, "sheet", "groups"), **preset, sheet=ref("SheetObject"), groups=array(obj(
            ("id", "title", "options"), id=STRING, title=STRING, options=array(obj(
                ("name", "label", "help", "value", "words", "not_stated"), name=STRING, label=STRING, help=STRING,
                value={}, words=STRING, not_stated=nullable(STRING)))))),
    }


def rescored_schemas() -> dict[str, Schema]:
    """A deal or a game rescored under another sheet (:mod:`scorepad.rules.dispute`)."""
    cited = array(ref("CitedProblem"))
    part = obj(("count", "each", "points"), count=INTEGER, each=INTEGER, points=INTEGER)
    return {
        "CitedProblem": obj(("code", "message", "label", "sheet_says"), code=STRING, message=STRING,
                            option=nullable(STRING), where=nullable(STRING), side=nullable(STRING),
                            player=nullable(STRING), meld=nullable(INTEGER), label=nullable(STRING),
                            sheet_says=nullable(STRING)),
        "RunningTotal": obj(("number", "deal", "totals"), number=DEAL_NUMBER, totals=TOTALS, deal={
            **DEAL_NUMBER, "deprecated": True, "description": "deprecated: as number"}),
        "ListedError": obj(("code", "message", "field"), code=STRING, message=STRING, field=nullable(STRING)),
        "LinePart": part,
        "Scored": obj(("total", "lines"), total=POINTS, lines=array(ref("ScoreLine"))),
        "LineChange": obj(("status", "code", "label", "option", "old", "new", "change", "player"),
                          status={"enum": ["same", "changed", "new", "gone"]}, code=STRING, label=STRING,
                          option=nullable(STRING), old=nullable(ref("LinePart")), new=nullable(ref("LinePart")),
                          change=INTEGER, player=nullable(STRING)),
        "RescoredSide": obj(("name", "old", "new", "difference", "diff", "new_violations", "cleared_violations"),
                            name=STRING, old=ref("Scored"), new=ref("Scored"), difference=INTEGER,
                            diff=array(ref("LineChange")), new_violations=cited, cleared_violations=cited),
        "RescoredDeal": obj(("number", "deal", "old_sheet", "new_sheet", "old_ok", "new_ok", "sides", "new_violations",
                             "cleared_violations"),
                            # the deal's own number, as sent (a standalone deal's may be out of a game's range)
                            number=COUNT, deal={**COUNT, "deprecated": True, "description": "deprecated: as number"},
                            old_sheet=ref("Sheet"), new_sheet=ref("Sheet"), old_ok=BOOLEAN,
                            new_ok=BOOLEAN, sides=array(ref("RescoredSide")), new_violations=cited,
                            cleared_violations=cited),
        "Result": obj(("standings", "over", "winner", "tie"), standings=array(ref("Standing")), over=BOOLEAN,
                      winner=nullable(STRING), tie=BOOLEAN),
        "RescoredGame": obj(("old_sheet", "new_sheet", "sides", "deals", "totals", "old_running_totals",
                             "new_running_totals", "old_result", "new_result", "winner_changes", "new_problems"),
                            old_sheet=ref("Sheet"), new_sheet=ref("Sheet"), sides=array(STRING),
                            deals=array(ref("RescoredDeal"), MAX_DEALS),
                            totals=array(obj(("name", "old", "new", "difference"), name=STRING, old=POINTS,
                                             new=POINTS, difference=INTEGER)),
                            old_running_totals=array(ref("RunningTotal")),
                            new_running_totals=array(ref("RunningTotal")), old_result=ref("Result"),
                            new_result=ref("Result"), winner_changes=BOOLEAN, new_problems=cited),
    }


# -- the referee's questions: one schema per field, each question's body from QUESTIONS ------------


# The go-out question's special books: counts by rank (BooksByRank), as a deal's books.special; a
# bare count, the old spelling, is deprecated (special_count, special_dirty_count say it).
BY_RANK_COUNT: Schema = {"anyOf": [ref("BooksByRank"), {
    **between(0, MAX_MELDS), "deprecated": True,
    "description": "deprecated: a count without ranks; send it as special_count or special_dirty_count"}]}
# The go-out question's permission, in a deal's words; true or false (yes, no) is deprecated.
PERMISSION: Schema = {"anyOf": [{"enum": list(PERMISSION_WORDS)}, {**BOOLEAN, "deprecated": True,
                      "description": "deprecated: true for asked-yes, false for asked-no"}, {"type": "null"}],
                      "description": "the partner's answer to \"may I go out?\", as a deal's permission "
                                     "(null or absent: not said)"}
QUESTION_FIELDS: dict[str, Schema] = {
    "meld": ref("Meld"), "adding_to": ref("Meld"), "table": ref("Melds"), "melds": ref("Melds"),
    "deal": DEAL_NUMBER, "books": ref("BooksMade"),
    "foot_played": BOOLEAN, "knee_played": BOOLEAN, "partners_picked_up": array(BOOLEAN, MAX_PER_SIDE - 1),
    "partners_played": nullable(array(BOOLEAN, MAX_PER_SIDE - 1)), "permission": PERMISSION,
    "last_card": {"enum": ["meld", "discard", None]}, "top_card": ref("Card"),
    "pair": {**between(0, MAX_COUNT), "description": "natural cards of the top card's rank in the hand"},
    "wilds": {**between(0, MAX_COUNT), "description": "wild cards in the hand"}, "pile_size": between(0, MAX_COUNT),
    "opened": BOOLEAN, "pile_has_wild": BOOLEAN, "buried": ref("Cards"), "running_total": POINTS, "side": ref("Name"),
}


# Each question's body, by its route's name: the schema's name, what it asks.
QUESTION_SCHEMAS = {"meld": "MeldQuestion", "go-out": "GoOutQuestion", "pile": "PileQuestion",
                    "minimum": "MinimumQuestion"}


# What each question cannot be asked without (go-out: its books, or the melds to count them from,
# which its description says).
QUESTION_NEEDS = {"meld": ("meld",), "pile": ("top_card",), "minimum": ("melds",)}


def _or_left_out(field: Schema) -> Schema:
    """A question's field as the questions read it: a text of only spaces is as if left out
    (:func:`scorepad.rules.questions.blank`). A null is refused where the field has none
    (:mod:`scorepad.api.nulls`)."""
    kinds = field["anyOf"] if "anyOf" in field else [field]
    assert isinstance(kinds, list)
    extra = [k for k in (ref("Blank"),) if k not in kinds]
    return {"anyOf": [*kinds, *extra], **({"description": field["description"]} if "description" in field else {})}


def question_schemas() -> dict[str, Schema]:
    """The referee's question bodies, each named, and the books a go-out question counts."""
    out: dict[str, Schema] = {
        "BooksByRank": {"type": "object", "additionalProperties": between(0, MAX_MELDS),
                        "description": "by rank, such as {\"7\": 1, \"5\": 1} (3R and 3B: books of threes)"},
        "BooksMade": obj(**{kind: BY_RANK_COUNT if kind in BY_RANK else between(0, MAX_MELDS) for kind in BOOK_KINDS}),
    }
    for name, schema_name in QUESTION_SCHEMAS.items():
        needs = QUESTION_NEEDS.get(name, ())
        body = obj(needs, True, sheet=ref("Sheet"),
                   game={**GAME_TEXT, "description": "a game's id: its sheet, its deal"},
                   **({"number": _or_left_out(DEAL_NUMBER), "deal": {**_or_left_out(DEAL_NUMBER), "deprecated": True,
                       "description": "deprecated: as number"}} if "deal" in QUESTIONS[name][1] else {}),
                   **{f: QUESTION_FIELDS[f] if f in needs else _or_left_out(QUESTION_FIELDS[f])
                      for f in QUESTIONS[name][1] if f != "deal"})
        out[schema_name] = {**body, **one_of("sheet", "game"),
                            "description": "the sheet, or the game whose sheet to use: one of them"
                            + ("; and the books on the table, or the melds to count them from" if name == "go-out"
                               else "")}
    return out
