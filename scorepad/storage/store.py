"""Games as the app keeps them: the one place where the rules core meets the database.

Pages, the JSON API and the CLI's web counterparts all go through these functions, so a
deal is validated, scored and recorded (with its history) the same way whichever door it
came in by. Every write is one transaction, bumps the game's revision, and is refused when
it would leave the game holding more than :data:`MAX_GAME_BYTES`; a correction that changes
nothing writes nothing. Creating, importing, recording and correcting a deal and replacing
the edit key may be made once per idempotency key of one client (:func:`once`): the key and
its answer (never an edit key) are kept in the write's transaction, so the same request sent
again by the same client is answered the same and writes nothing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import Enum
from functools import cached_property
from typing import Any, Generic, Protocol, TypeVar

from ..rules import Deal, ReadError, RuleSheet, judge, load_sheet
from ..rules.game import Game
from ..rules.limits import (
    ENTRY_BYTES,
    MAX_GAME_BYTES,
    MAX_GAME_ID,
    MAX_NAME,
    MAX_PER_SIDE,
    MAX_REASON,
    MAX_SIDES,
    MIN_SIDES,
)
from ..rules.text import read_name, read_reason, readable
from ..rules.validate import Problem
from ..rules.verdict import Verdict
from ..rules.views import GameView, view_of
from . import db
from .errors import AlreadyRecorded, Conflict, Full, Gone, Invalid, KeyReplaced, NotFound, Rejected, SameAsPrevious

log = logging.getLogger(__name__)

# Problems no reason lets stand, so a deal with one is never saved "as played": the deal is
# not one of this game's (its number; with ``game.*``, its sides and players), or it cannot
# be scored (a count below zero; two sides or players of one name, a side of nobody, a table
# the sheet is not for, which a deal of this game's sides and players never has).
NEVER_AS_PLAYED = ("deal.number", "count.negative", "side.name", "side.players", "player.name",
                   "table.sides", "table.players")


def never_as_played(problem: Problem) -> bool:
    """Whether a deal with this problem can never be saved as played, whatever the reason."""
    return problem.code.startswith("game.") or problem.code in NEVER_AS_PLAYED


@dataclass
class DealRecord:
    number: int
    deal: Deal
    as_played: str | None
    history_size: int = 0
    revision: int | None = None  # the game's revision once this deal was saved, when known
    verdict: Verdict = None  # type: ignore[assignment]  # judged on creation when not given
    stored_size: int = 0  # the length of its stored JSON: what the cache counts it as

    def __post_init__(self) -> None:
        if self.verdict is None:
            self.verdict = judge(self.deal)


@dataclass
class GameRecord:
    id: str
    edit_key: str
    name: str
    sheet: RuleSheet
    sides: list[dict[str, Any]]
    revision: int
    created_at: str
    updated_at: str
    deals: list[DealRecord]
    game: Game  # the rules' view of the same deals, judged once
    # How many history entries each deal number has, recorded or deleted (a deal recorded
    # again after a deletion goes on counting from its earlier entries).
    history_counts: dict[int, int] = dataclasses.field(default_factory=dict)

    @cached_property
    def view(self) -> GameView:
        """The game as every output shows it (rows, totals, result, next deal, problems),
        worked out once per revision: the record is cached per revision, and the view with it."""
        return view_of(self.game, [d.as_played for d in self.deals])

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(side["name"] for side in self.sides)

    def totals_before(self, number: int) -> dict[str, int]:
        """Each side's total from the deals recorded before deal ``number`` (the rules' game decides)."""
        return self.game.totals_before(number)

    def deal(self, number: int) -> DealRecord | None:
        return next((d for d in self.deals if d.number == number), None)

    @property
    def next_number(self) -> int | None:
        """The next deal's number, or None when the game is over (the rules' game decides)."""
        return self.game.next_deal


def _now() -> str:
    return _stamp(datetime.now(UTC))


def _stamp(moment: datetime) -> str:
    """A time as the database keeps it: ISO 8601 in UTC, to the second (its text sorts as the time)."""
    return moment.isoformat(timespec="seconds")


def new_id() -> str:
    """128 bits of randomness, url-safe (22 characters), never starting with ``-``: a
    command line would read such an id (``flask game show -AbC...``) as an option."""
    while True:
        found = secrets.token_urlsafe(16)
        if not found.startswith("-"):
            return found


def key_digest(edit_key: str) -> str:
    """What is kept of an edit key where the key itself must not be: a SHA-256 digest (hex).
    The key is 128 random bits, so its digest gives nothing away. A game write's idempotency
    keys are scoped by it (:class:`Once`), and a replaced key is remembered by it."""
    return hashlib.sha256(edit_key.encode("utf-8", "replace")).hexdigest()


# -- reading ------------------------------------------------------------------------------------


# Stored JSON escapes every character outside printable ASCII: text without an escape holds
# nothing readable() would replace, so most deals skip its walk.
_ESCAPE = re.compile(r"\\[ubfnrt]")


def _stored_json(text: str) -> Any:
    """Stored JSON read back, through :func:`readable` when it holds any escaped character."""
    data = json.loads(text)
    return readable(data) if _ESCAPE.search(text) else data


def _record(row: db.Row, deals: list[db.Row], history_counts: dict[int, int],
            judged: Mapping[str, Verdict] | None = None) -> GameRecord:
    """The record of a game's rows; ``judged`` holds verdicts already found, by stored body.
    Text is read through readable(): a name stored before names were checked still loads."""
    sheet = load_sheet(json.loads(row["sheet"]), stored=True)
    sides = readable(json.loads(row["sides"]))
    found = [judged.get(deal_row["body"]) for deal_row in deals] if judged else []
    known = [v for v in found if v is not None and v.deal.sheet == sheet]
    if len(known) != len(deals):
        known = []  # not every deal judged, or under another sheet: judge them all here
    parsed = [v.deal for v in known] if known else [Deal.from_json(_stored_json(d["body"]), sheet) for d in deals]
    game = Game(sheet, tuple(side["name"] for side in sides), tuple(parsed), tuple(known) or None)
    records = [DealRecord(deal_row["number"], deal, readable(deal_row["as_played"], True),
                          history_counts.get(deal_row["number"], 0), verdict=verdict,
                          stored_size=len(deal_row["body"]))
               for deal_row, deal, verdict in zip(deals, parsed, game.verdicts, strict=True)]
    return GameRecord(row["id"], row["edit_key"], readable(row["name"]), sheet, sides, row["revision"],
                      row["created_at"], row["updated_at"], records, game, dict(history_counts))


# A parsed, judged deal takes many times its JSON in memory (objects, its verdict's lines
# and problems): tracemalloc measured about 23 times on a game of deals with hundreds of
# violations each (bench/large.py's game). The record's view (:attr:`GameRecord.view`) is
# counted in it: tracemalloc measured it at about 80 KB for 100 deals, large or small (on
# 6.5 MB of record for the largest game, 0.34 MB for 100 one-meld deals).
MEMORY_PER_JSON_BYTE = 24
RECORD_BASE_BYTES = 16 * 1024  # the sheet, sides and the record's own objects


def record_size(record: GameRecord) -> int:
    """What a game record is counted as in the cache: its stored JSON, times what parsing
    and judging it costs in memory."""
    return RECORD_BASE_BYTES + MEMORY_PER_JSON_BYTE * sum(d.stored_size for d in record.deals)


def load_game(game_id: str, judged: Mapping[str, Verdict] | None = None) -> GameRecord | None:
    """The game as it stands; None if there is none.

    A game is read and judged once per revision: every write bumps the revision, so a
    cached record is never stale. Callers must treat the record as read-only. ``judged``
    gives verdicts the caller found already, by the deal's stored body (an import's).
    """
    found = revision(game_id)
    if found is None:
        return None
    cached = db.current().cache.get(("game", db.path(), game_id))
    if isinstance(cached, GameRecord) and cached.revision == found[0]:
        return cached
    record = _read(game_id, judged)
    if record is not None:
        _remember(record)
    return record


def _read(game_id: str, judged: Mapping[str, Verdict] | None = None) -> GameRecord | None:
    """The game as the database holds it, read and judged afresh (not from the cache, nor
    kept in it); None if there is none."""
    with db.snapshot():  # the game, its deals and history as of one moment
        row = db.one("game_get", game_id)
        if row is None:  # deleted in between: there is none
            return None
        counts = {h["deal_number"]: h["n"] for h in db.query("history_counts", game_id)}
        deals = db.query("deals_of_game", game_id)
    return _record(row, deals, counts, judged)


def _remember(record: GameRecord) -> None:
    """Keep ``record`` as its game's cached state, unless a later revision is kept already."""
    db.current().cache.put(("game", db.path(), record.id), record, record_size(record),
                        replaces=lambda cached: cached.revision < record.revision)


def _after_write(game: GameRecord, deals: list[DealRecord], number: int, updated_at: str) -> GameRecord:
    """The game one revision on, with these deals, deal ``number`` given one more history
    entry: built from records already read and judged, so the next read of the game neither
    reads nor judges its deals again."""
    deals = sorted(deals, key=lambda d: d.number)
    played = Game(game.sheet, game.side_names, tuple(d.deal for d in deals), tuple(d.verdict for d in deals))
    counts = {**game.history_counts, number: game.history_counts.get(number, 0) + 1}
    return dataclasses.replace(game, revision=game.revision + 1, updated_at=updated_at, deals=deals, game=played,
                               history_counts=counts)


def recent_games(ids: list[str], limit: int = 20) -> list[GameRecord]:
    """The first ``limit`` games of these ids that still exist, in the order given."""
    return [g for g in (load_game(game_id) for game_id in ids[:limit]) if g is not None]


def history(game_id: str, deal_number: int | None = None) -> list[dict[str, Any]]:
    """The game's history entries, oldest first; an amendment's sheets as preset + changes."""
    rows = (db.query("history_of_game", game_id) if deal_number is None
            else db.query("history_of_deal", game_id, deal_number))
    return _entries(rows)


def amendments(game_id: str) -> list[dict[str, Any]]:
    """The game's amendments of its sheet, oldest first, as :func:`history` gives them
    (without reading every deal the history holds)."""
    return _entries(db.query("amendments_of_game", game_id))


def _entries(rows: list[db.Row]) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        entry = dict(row)
        for key in ("before", "after", "old_totals", "new_totals"):
            entry[key] = readable(json.loads(entry[key])) if entry[key] else None
            if entry["action"] == "amend" and key in ("before", "after") and entry[key] is not None:
                entry[key] = _brief(entry[key])
        entry["reason"] = readable(entry["reason"], True)
        out.append(entry)
    return out


def _stored(sheet: RuleSheet) -> str:
    """A sheet as the database keeps it: every option (see ``RuleSheet.to_stored_json``)."""
    return json.dumps(sheet.to_stored_json())


def _brief(stored: Any) -> Any:
    """A stored sheet as the API shows it (preset + changes); left as it is if unreadable."""
    try:
        return load_sheet(stored, stored=True).to_json()
    except ReadError:
        return stored


_DONE = {"record": "recorded", "edit": "corrected", "delete": "deleted"}


def changes_since(game_id: str, revision: int) -> list[dict[str, Any]]:
    """What happened to the game after ``revision``, oldest first: each change's
    ``revision``, ``action``, ``deal`` (its number, or None for the sheet), ``at``, the
    deal's ``totals`` (after the change; before it, for a deletion), ``reason``, and a
    ``message`` in words (``deal 3 was recorded``)."""
    out = []
    for row in db.query("history_since", game_id, revision):
        action, number = row["action"], row["deal_number"]
        if action == "amend":
            message = "the sheet was amended" + (f" ({row['reason']})" if row["reason"] else "")
        elif action == "rekey":
            message = "the edit link was replaced"
        elif number is not None and action in _DONE:
            message = f"deal {number} was {_DONE[action]}"
        else:
            message = f"the game was changed ({action})"
        totals = row["new_totals"] or row["old_totals"]
        out.append({"revision": row["revision"], "action": action, "deal": number, "at": row["at"],
                    "totals": json.loads(totals) if totals else None, "reason": row["reason"],
                    "message": message})
    return out


def could_be_an_id(game_id: str) -> bool:
    """Whether ``game_id`` could name a game: ids are printable ASCII (:func:`new_id`) of at
    most :data:`MAX_GAME_ID` characters, so a longer one is not looked for, and text a
    database cannot even hold (a lone surrogate; NUL, on PostgreSQL) names none."""
    return len(game_id) <= MAX_GAME_ID and game_id.isascii() and game_id.isprintable()


def gone(game_id: str) -> Gone | None:
    """Why there is no game ``game_id`` (:class:`Gone`, saying when and why it was deleted),
    or None when there never was one. Asked only once a game is not found."""
    if not could_be_an_id(game_id):
        return None
    row = db.one("deleted_get", game_id)
    return None if row is None else Gone(row["deleted_at"], row["why"])


def no_game(game_id: str) -> NotFound:
    """The error for a game that is not there: :class:`Gone` if it was deleted, else :class:`NotFound`."""
    return gone(game_id) or NotFound("game", "no such game")


def revision(game_id: str) -> tuple[int, str] | None:
    """The game's revision and when it last changed, without reading its deals; None if no game."""
    if not could_be_an_id(game_id):
        return None
    row = db.one("game_revision", game_id)
    return None if row is None else (row["revision"], row["updated_at"])


# -- checking input -----------------------------------------------------------------------------


def read_sides(data: Any, sheet: RuleSheet) -> list[dict[str, Any]]:
    """Sides as ``[{"name", "players": [names]}]``, checked against the sheet's table."""
    if not isinstance(data, list) or not MIN_SIDES <= len(data) <= MAX_SIDES:
        raise Invalid("sides", f"give from {MIN_SIDES} to {MAX_SIDES} sides")
    sides: list[dict[str, Any]] = []
    side_names: set[str] = set()
    player_names: set[str] = set()
    for i, side in enumerate(data):
        if not isinstance(side, dict):
            raise Invalid(f"sides[{i}]", 'must be an object such as {"name": "Us", "players": ["Ann"]}')
        name = _name(side.get("name"), f"sides[{i}].name")
        if name.casefold() in side_names:
            raise Invalid(f"sides[{i}].name", f"two sides are called {name!r}")
        side_names.add(name.casefold())
        players = side.get("players")
        if not isinstance(players, list) or not players:
            raise Invalid(f"sides[{i}].players", "list the side's players, in seat order")
        if len(players) > MAX_PER_SIDE:
            raise Invalid(f"sides[{i}].players", f"lists {len(players)} players; a side has at most "
                             f"{MAX_PER_SIDE}")
        names = [_name(p, f"sides[{i}].players[{j}]") for j, p in enumerate(players)]
        for j, player in enumerate(names):
            if player.casefold() in player_names:
                raise Invalid(f"sides[{i}].players[{j}]", f"two players are called {player!r}")
            player_names.add(player.casefold())
        sides.append({"name": name, "players": names})
    players = sum(len(s["players"]) for s in sides)
    if not sheet.min_players <= players <= sheet.max_players:
        raise Invalid("sides", f"this sheet is for {sheet.min_players} to {sheet.max_players} players, "
                         f"not {players}")
    sizes = {len(s["players"]) for s in sides}
    if len(sizes) > 1:
        raise Invalid("sides", "every side must have the same number of players")
    if sizes.pop() not in sheet.side_sizes:
        raise Invalid("sides", f"this sheet plays {sheet.describe('side_sizes')}")
    return sides


def _name(value: Any, where: str) -> str:
    try:
        return read_name(value, where, MAX_NAME)
    except ReadError as err:
        raise Invalid(err.field, err.reason) from None


def read_deal(game: GameRecord, data: Any, number: int | None) -> Deal:
    """A deal for this game from its canonical JSON (without a sheet)."""
    if isinstance(data, dict) and "sheet" in data:
        raise Invalid("sheet", "a game's deals use the game's sheet; leave 'sheet' out")
    try:
        deal = Deal.from_json(data, game.sheet, number=number)
    except ReadError as err:
        raise Invalid(err.field or "deal", err.reason) from None
    if number is not None and deal.number != number:
        raise Invalid("deal", f"this is deal {number}, not {deal.number}")
    return deal


def game_problems(game: Table, deal: Deal) -> list[Problem]:
    """What is wrong with this deal as part of this game: its sides and players."""
    found = []
    want = {s["name"]: s["players"] for s in game.sides}
    got = {s.name: [p.name for p in s.players] for s in deal.sides}
    if set(got) != set(want):
        found.append(Problem("game.sides", f"This game's sides are {', '.join(want)}; the deal has "
                             f"{', '.join(got) or 'none'}.", None, "sides"))
    else:
        for i, side in enumerate(deal.sides):
            if sorted(got[side.name]) != sorted(want[side.name]):
                found.append(Problem("game.players", f"{side.name}'s players are {', '.join(want[side.name])}.",
                                     None, f"sides[{i}].players", side.name))
    return found


# -- writing ------------------------------------------------------------------------------------


def create_game(name: Any, sheet_data: Any, sides_data: Any, once: Once[GameRecord] | None = None) -> GameRecord:
    """A new game, with a new id and edit key; made once per ``once``'s key (:func:`once`)."""
    try:
        sheet = load_sheet(sheet_data)
    except ReadError as err:
        raise Invalid(err.field or "sheet", err.reason) from None
    sides = read_sides(sides_data, sheet)  # first: a game named after its sides shows their own error
    name = _name(name, "name")
    game_id, key, now = new_id(), new_id(), _now()
    record = GameRecord(game_id, key, name, sheet, sides, 0, now, now, [],
                        Game(sheet, tuple(side["name"] for side in sides)))
    with db.transaction():
        db.run("game_insert", game_id, key, name, _stored(sheet), json.dumps(sides), now, now)
        _keep(once, record, key)
    _remember(record)
    return record


def import_game(name: Any, sheet: RuleSheet, sides_data: Any, created_at: str, deals: list[tuple[int, str, str | None]],
                entries: list[tuple[Any, ...]], note: str, judged: Mapping[str, Verdict] | None = None,
                once: Once[GameRecord] | None = None) -> GameRecord:
    """A new game (new id and key) from an export that :mod:`scorepad.storage.document` has read and
    judged: ``deals`` as (number, canonical body, as-played reason), ``entries`` as the
    history's (deal_number, action, at, before, after, old_totals, new_totals, reason), in
    order, then an ``import`` entry saying so. Each entry adds 1 to the revision, as a write does.
    ``judged`` holds the deals' verdicts by body, so the new game is not judged again. Made
    once per ``once``'s key (:func:`once`)."""
    name = _name(name, "name")
    sides = read_sides(sides_data, sheet)
    game_id, key, now = new_id(), new_id(), _now()
    with db.transaction():
        db.run("game_insert", game_id, key, name, _stored(sheet), json.dumps(sides), created_at, now)
        for number, body, as_played in deals:
            db.run("deal_insert", game_id, number, body, as_played)
        for entry in [*entries, (None, "import", now, None, None, None, None, note)]:
            db.run("history_insert", game_id, *entry)
            db.run("game_touch", now, game_id)
        _check_size(game_id)
        record: GameRecord = _read(game_id, judged)  # type: ignore[assignment]  # just written
        _keep(once, record, key)
    _remember(record)  # once committed: a record cached inside the transaction could outlive a failed commit
    return record


def _check_size(game_id: str) -> None:
    """Inside a write transaction, once written: refuse the write (:class:`Full` naming ``game``, so it
    rolls back) when it leaves the game holding more than :data:`MAX_GAME_BYTES`."""
    size = db.value("game_stored_bytes", game_id, ENTRY_BYTES)
    if size > MAX_GAME_BYTES:
        raise Full("game", f"a game may hold at most {MAX_GAME_BYTES / 2**20:g} MB of deals and "
                         f"history, and this would make it {size / 2**20:.2f} MB, so nothing was saved; "
                         "start a new game to go on (an export keeps this one)")


def _check_revision(game: GameRecord, based_on: int | None) -> None:
    """A write based on a revision the game has moved past is stale (:class:`Conflict`); one
    based on a revision the game has not reached cannot be read (:class:`Invalid`)."""
    if based_on is not None and based_on > game.revision:
        raise Invalid("revision", f"is {based_on}, ahead of the game's revision {game.revision}: send the "
                      "revision the game had when you loaded it")
    if based_on is not None and based_on != game.revision:
        raise Conflict(based_on, game.revision, changes_since(game.id, based_on))


def _fresh(game_id: str, based_on: int | None, once: Once[Any] | None = None, key: str | None = None,
           first: bool = False) -> GameRecord:
    """The game as it stands, for a write about to be prepared (again, after another write came
    first). With ``key``, the edit key the door allowed the write with: :class:`KeyReplaced`
    once it is not the game's, so a write that waited while the edit link was replaced is
    never made with the old one.

    A ``first`` try takes the game as this process cached it, without reading its revision
    again (the door read it a moment ago, to allow the write): the write transaction moves
    the revision on only from the revision it was prepared against, so a game another
    process wrote to meanwhile is read again, and the write prepared again. Before refusing
    the write (a replaced key, a stale revision), ``once``'s key is looked for: a write with
    the key made before it (by another process) is replayed, not refused."""
    game = _cached(game_id) if first else None
    if game is None or (based_on is not None and based_on > game.revision):
        game = load_game(game_id)
    if game is None:
        raise no_game(game_id)
    if key is not None and not secrets.compare_digest(key.encode("utf-8", "replace"), game.edit_key.encode()):
        _look(once)
        raise KeyReplaced(replaced_at(game_id, key) or _now())
    if based_on is not None and based_on != game.revision:
        _look(once)
    _check_revision(game, based_on)
    return game


def _cached(game_id: str) -> GameRecord | None:
    """The game as this process's cache holds it, at the revision it was last read or written at; None if not held."""
    cached = db.current().cache.get(("game", db.path(), game_id))
    return cached if isinstance(cached, GameRecord) else None


class Table(Protocol):
    """What :func:`game_problems` and :func:`refusal` read of a game: its sides."""

    @property
    def sides(self) -> list[dict[str, Any]]: ...


def refusal(game: Table, deal: Deal, verdict: Verdict | None = None) -> Rejected | None:
    """Why this game would refuse this deal sent without a reason (None: it would save it),
    judged by the referee unless ``verdict`` is given. ``game`` needs only its ``sides``."""
    verdict = judge(deal) if verdict is None else verdict
    problems = list(verdict.report.violations) + game_problems(game, deal)
    return Rejected(verdict, problems, [p for p in problems if never_as_played(p)]) if problems else None


def _judge_for_game(game: GameRecord, deal: Deal, as_played: str | None) -> Verdict:
    verdict = game.game.judge(deal)
    refused = refusal(game, deal, verdict)
    if refused is not None and not (as_played and refused.may_save_as_played):
        raise refused
    return verdict


def _reason(value: Any, field: str = "as_played.reason",
            ask: str = "say briefly why the deal stands as played") -> str | None:
    if value is None:
        return None
    try:
        return read_reason(value, field, MAX_REASON, ask)
    except ReadError as err:
        raise Invalid(err.field, err.reason) from None


def _totals(verdict: Verdict | None) -> str | None:
    return json.dumps(verdict.breakdown.totals()) if verdict else None


T = TypeVar("T")


class _Moved(Exception):
    """The game moved on between preparing a write and taking the write lock."""


class _Unchanged(Generic[T]):
    """What ``prepare`` returns for a write that would change nothing: its ``result``."""

    def __init__(self, result: T) -> None:
        self.result = result


# -- writes made once: idempotency keys --------------------------------------------------------------

KEEP_KEYS = timedelta(hours=24)  # how long a key is kept with its answer; then it is forgotten


@dataclass(frozen=True)
class Once(Generic[T]):
    """A write to make at most once for one ``key`` of one ``client`` on one ``route`` (what
    the write does, as the door names it) and ``game_id`` (``""`` for a new game). ``client``
    is whose key it is, as the door tells (a digest: of the edit key sent, for a game's
    writes, :func:`key_digest`; of the session or the address, for a new game), so one
    client's key never answers another's request. ``digest`` stands for the whole request:
    the key sent with another request is refused. ``answer(result)`` is the status and body
    (JSON text) the door answers the write's result with: it is kept with the key in the
    write's transaction, so the same request sent again is answered exactly the same. It
    never holds an edit key (a write that makes one refuses to keep such an answer): the
    door adds the game's key to what it replays, for the client whose key it is."""

    route: str
    game_id: str
    key: str
    digest: str
    answer: Callable[[T], tuple[int, str]]
    client: str = dataclasses.field(kw_only=True)


@dataclass(frozen=True)
class Answer:
    """What a write made once answers: the ``status`` and ``body`` kept with its key;
    ``replayed`` when an earlier request made the write, and nothing was written now."""

    status: int
    body: str
    replayed: bool


class KeyRefused(Enum):
    """Why a write made once was neither made nor answered from its key (nothing was written)."""

    REUSED = "the key was kept for another request (its digest differs)"
    IN_PROGRESS = "a request with the key is being written in this process now"


class _Kept(Exception):
    """The key of a write made once is kept: the write stops, having written nothing, and
    :func:`once` answers ``found``."""

    def __init__(self, found: Answer | KeyRefused) -> None:
        super().__init__(found)
        self.found = found


# The keys of the writes this process is making now, by database. Only here can a second
# request with a key see the first still being made: it is refused at once (IN_PROGRESS)
# rather than made to wait. A request to another process (another server) waits for the
# first's transaction instead (SQLite's write lock; on PostgreSQL, the game's row, or the
# key's), then finds the key kept and answers what it kept.
_in_flight: set[tuple[str, str, str, str, str]] = set()
_in_flight_guard = threading.Lock()


def once(keyed: Once[T], write: Callable[[Once[T]], T]) -> Answer | KeyRefused:
    """``write(keyed)``, a write of this module given ``keyed`` (:func:`create_game`,
    :func:`import_game`, :func:`record_deal`, :func:`update_deal`), made at most once per key. When a request
    with the same key was written within :data:`KEEP_KEYS`, its kept answer is replayed and
    nothing is written; :attr:`KeyRefused.REUSED` when it was another request (its digest
    differs), :attr:`KeyRefused.IN_PROGRESS` while this process is still writing it.

    Only a write that is made keeps its key: what the write raises (a refusal, a stale
    revision, a busy database) keeps nothing, and neither does a write that changes nothing
    (a correction to the deal as it stands), so the same request may be sent again and is
    judged again. A kept key older than :data:`KEEP_KEYS` is forgotten by the next write
    made once."""
    slot = (db.path(), keyed.route, keyed.game_id, keyed.client, keyed.key)
    with _in_flight_guard:
        if slot in _in_flight:
            return KeyRefused.IN_PROGRESS
        _in_flight.add(slot)
    try:
        try:
            _look(keyed)  # kept already: the request is not read or judged again
            result = write(keyed)
        except _Kept as kept:
            return kept.found
        # What the write kept with its key (the same answer to the same result), or, for a
        # write that changed nothing and so kept nothing, its answer now.
        return Answer(*keyed.answer(result), replayed=False)
    finally:
        with _in_flight_guard:
            _in_flight.discard(slot)


def _kept(once: Once[Any]) -> Answer | KeyRefused | None:
    """The answer kept for ``once``'s key, replayed; REUSED when it was kept for another
    request; None when none is kept, or it is older than :data:`KEEP_KEYS`."""
    row = db.one("idempotency_get", once.route, once.game_id, once.client, once.key,
                 _stamp(datetime.now(UTC) - KEEP_KEYS))
    if row is None:
        return None
    if row["digest"] != once.digest:
        return KeyRefused.REUSED
    return Answer(row["status"], row["body"], replayed=True)


def _look(once: Once[Any] | None) -> None:
    """Before a write made once, and again inside its transaction (another process may have
    made it while this one waited for the write lock): stop it (:class:`_Kept`) when its
    key is kept."""
    if once is not None:
        found = _kept(once)
        if found is not None:
            raise _Kept(found)


def _keep(once: Once[T] | None, result: T, edit_key: str | None = None) -> None:
    """Inside a write's transaction, once written: keep ``once``'s key with its answer to
    ``result``, and forget every key kept longer than :data:`KEEP_KEYS` (by the index on
    their time, so a write forgets only what expired since the last one). An answer holding
    ``edit_key`` (the key the write made or kept) is never kept: the write fails, as a
    mistake of the door's."""
    if once is None:
        return
    now = datetime.now(UTC)
    if _time_to_forget(db.path()):
        db.run("idempotency_forget", _stamp(now - KEEP_KEYS))
    status, body = once.answer(result)
    if edit_key and edit_key in body:
        raise RuntimeError(f"the answer {once.route} keeps with its Idempotency-Key holds the game's edit key: "
                           "keep the answer without it, and add it to what is replayed")
    if not db.run("idempotency_insert", once.route, once.game_id, once.client, once.key, once.digest, status, body,
                  _stamp(now), _stamp(now - KEEP_KEYS)):
        _look(once)  # kept meanwhile by another process's write, now committed: roll this one back, answer that
        raise _Kept(KeyRefused.IN_PROGRESS)  # kept, then forgotten within the moment: not this write's to make


# Expired keys are forgotten by one keyed write a minute in each process (for each database),
# not by every one: a save runs at most 7 statements (bench/trace.py), the one save a minute
# that forgets 8. The first keyed write a process makes to a database starts its minute. What
# expired is forgotten by the index on the keys' time, so however long since the last time,
# it costs what expired. A key sent again after it expired is written over where it is kept
# (the insert replaces an expired key's row), so an expired key not yet forgotten is never in
# the way of a new write with it.
FORGET_EVERY = 60.0  # seconds
_forgot_at: dict[str, float] = {}


def _time_to_forget(database: str) -> bool:
    """Whether the keyed write now being made forgets the expired keys of ``database``:
    :data:`FORGET_EVERY` seconds after the last that did in this process (or after this
    process's first keyed write to it)."""
    now = time.monotonic()
    with _in_flight_guard:
        last = _forgot_at.setdefault(database, now)
        if now - last < FORGET_EVERY:
            return False
        _forgot_at[database] = now
        return True


def _write(game_id: str, based_on: int | None,
           prepare: Callable[[GameRecord], Callable[[str], tuple[T, list[DealRecord], int]] | _Unchanged[T]],
           once: Once[T] | None = None, key: str | None = None) -> T:
    """One write to a game, in two steps. ``prepare(game)`` reads and judges the request
    against the game as read, outside the write lock (it may raise: nothing is written),
    and returns ``apply``, or :class:`_Unchanged` when the write would change nothing (then
    nothing is written, the revision stays, and its result is the answer). Inside the write
    transaction, the game's revision moves on by 1 only if it is still the one the write was
    prepared against; ``apply(now)`` then writes the change and its history entry, and
    returns (result, the game's deals after it, the number of the deal written).

    If another write came in between, a write based on a revision is refused as stale
    (:class:`Conflict`, with what changed), and any other is prepared again. The lock is
    held for a handful of statements and the commit. Once committed, the game as it now
    stands is cached, so the next read of it neither reads nor judges its deals again.

    With ``once``, the write is made once per its key (:func:`once`): the key is looked for
    before the write, and kept inside its transaction with its answer. A request with the key
    that another process made meanwhile (while this one waited for the write lock) moved the
    game's revision on, so it is found there (:func:`_moved`), or else when its key is kept.
    """
    first = True
    while True:
        game = _fresh(game_id, based_on, once, key, first)
        first = False
        apply = prepare(game)
        if isinstance(apply, _Unchanged):
            return apply.result  # nothing written, so no key kept: sent again, it is judged again
        try:
            with db.transaction():
                now = _now()
                if not db.run("game_touch_at", now, game_id, game.revision):
                    _moved(game_id, based_on, once)
                result, deals, number = apply(now)
                _keep(once, result)
                _check_size(game_id)
        except _Moved:
            continue
        _remember(_after_write(game, deals, number, now))
        return result


def _moved(game_id: str, based_on: int | None, once: Once[Any] | None = None) -> None:
    """Inside a write's transaction, when the game has moved past the revision the write was
    prepared against: the key kept by the write that moved it (:class:`_Kept`; on PostgreSQL
    seen only now), or no game (:class:`NotFound`), or a stale write (:class:`Conflict`, when
    based on a revision), or else :class:`_Moved`, to prepare it again."""
    _look(once)
    found = revision(game_id)
    if found is None:
        raise no_game(game_id)
    if based_on is not None:
        raise Conflict(based_on, found[0], changes_since(game_id, based_on))
    raise _Moved


def _history(game: GameRecord, number: int | None, action: str, now: str, before: str | None, after: str | None,
             old: Verdict | None, new: Verdict | None, reason: str | None) -> None:
    db.run("history_add", game.id, number, action, now, before, after, _totals(old), _totals(new), reason,
             game.revision + 1)


def record_deal(game_id: str, data: Any, as_played: Any = None, based_on: int | None = None,
                once: Once[DealRecord] | None = None, repeat: bool = False, key: str | None = None) -> DealRecord:
    """Validate and save a new deal: the deal ``data`` names (its ``deal``), else the game's
    next. A save is never moved to another number: when that deal is recorded already, it is
    :class:`AlreadyRecorded` (rather than the :class:`Conflict` of a stale revision, which it
    explains), with the deal as saved beside the one sent. A deal whose every side and ending
    equal the deal recorded just before it is :class:`SameAsPrevious`, unless ``repeat`` says
    the table played it again; one with violations and no reason, :class:`Rejected`. Made
    once per ``once``'s key (:func:`once`)."""
    as_played = _reason(as_played)
    named = isinstance(data, dict) and "deal" in data

    def prepare(game: GameRecord) -> Callable[[str], tuple[DealRecord, list[DealRecord], int]]:
        if not named and game.next_number is None:
            raise Full("deal", "the game is over")
        deal = read_deal(game, data, None if named else game.next_number)
        _not_recorded(game, deal, as_played)
        if game.next_number is None:
            raise Full("deal", "the game is over")
        if not repeat:
            _not_repeated(game, deal)
        verdict = _judge_for_game(game, deal, as_played)
        body = json.dumps(deal.to_json(with_sheet=False))
        kept = as_played if not verdict.ok else None
        earlier = game.history_counts.get(deal.number, 0)  # deleted, now recorded again
        saved = DealRecord(deal.number, deal, kept, earlier + 1, game.revision + 1, verdict, len(body))

        def apply(now: str) -> tuple[DealRecord, list[DealRecord], int]:
            db.run("deal_insert", game_id, deal.number, body, kept)
            _history(game, deal.number, "record", now, None, body, None, verdict, kept)
            return saved, [*game.deals, saved], deal.number
        return apply

    try:
        return _write(game_id, based_on, prepare, once, key)
    except Conflict as stale:
        if named:  # stale because another phone recorded this very deal: say that
            _recorded_meanwhile(game_id, data, as_played)
        raise stale from None


def _not_recorded(game: GameRecord, deal: Deal, as_played: str | None) -> None:
    """A new deal whose number the game holds already is :class:`AlreadyRecorded`, carrying both."""
    found = game.deal(deal.number)
    if found is None:
        return
    entries = db.query("history_of_deal", game.id, deal.number)
    raise AlreadyRecorded(deal.number, game.revision, found.verdict, found.as_played,
                          entries[-1]["at"] if entries else None, game.game.judge(deal), as_played)


def _recorded_meanwhile(game_id: str, data: Any, as_played: str | None) -> None:
    """After a stale write of a new deal that names its number: :class:`AlreadyRecorded` when
    that deal is recorded now (nothing, when the deal cannot be read or is not recorded)."""
    game = load_game(game_id)
    if game is None:
        return
    try:
        deal = read_deal(game, data, None)
    except Invalid:
        return
    _not_recorded(game, deal, as_played)


def _not_repeated(game: GameRecord, deal: Deal) -> None:
    """A new deal that ends just as the deal recorded before it (by number) did is :class:`SameAsPrevious`."""
    previous = max((d for d in game.deals if d.number < deal.number), key=lambda d: d.number, default=None)
    if previous is not None and deal.repeats(previous.deal):
        raise SameAsPrevious(deal.number, previous.number, game.game.judge(deal))


def update_deal(game_id: str, number: int, data: Any, as_played: Any = None,
                based_on: int | None = None, once: Once[DealRecord] | None = None,
                key: str | None = None) -> DealRecord:
    """Correct a recorded deal; the old and new versions go into its history. The same deal
    with the same as-played reason changes nothing: the stored deal, at the game's revision.
    Made once per ``once``'s key (:func:`once`)."""
    as_played = _reason(as_played)

    def prepare(game: GameRecord) -> Callable[[str], tuple[DealRecord, list[DealRecord], int]] | _Unchanged[DealRecord]:
        old = game.deal(number)
        if old is None:
            raise NotFound("deal", f"deal {number} is not recorded")
        deal = read_deal(game, data, number)
        verdict = _judge_for_game(game, deal, as_played)
        before, after = json.dumps(old.deal.to_json(with_sheet=False)), json.dumps(deal.to_json(with_sheet=False))
        kept = as_played if not verdict.ok else None
        if (before, kept) == (after, old.as_played):
            return _Unchanged(dataclasses.replace(old, revision=game.revision))
        saved = DealRecord(number, deal, kept, old.history_size + 1, game.revision + 1, verdict, len(after))

        def apply(now: str) -> tuple[DealRecord, list[DealRecord], int]:
            db.run("deal_update", after, kept, game_id, number)
            _history(game, number, "edit", now, before, after, old.verdict, verdict, kept)
            return saved, [d for d in game.deals if d.number != number] + [saved], number
        return apply

    return _write(game_id, based_on, prepare, once, key)


def delete_deal(game_id: str, number: int, based_on: int | None = None, key: str | None = None) -> int:
    """Remove a deal; what it held stays in the history. Returns the game's new revision."""

    def prepare(game: GameRecord) -> Callable[[str], tuple[int, list[DealRecord], int]]:
        old = game.deal(number)
        if old is None:
            raise NotFound("deal", f"deal {number} is not recorded")
        before = json.dumps(old.deal.to_json(with_sheet=False))

        def apply(now: str) -> tuple[int, list[DealRecord], int]:
            db.run("deal_delete", game_id, number)
            _history(game, number, "delete", now, before, None, old.verdict, None, None)
            return game.revision + 1, [d for d in game.deals if d.number != number], number
        return apply

    return _write(game_id, based_on, prepare, key=key)


def amend_sheet(game_id: str, sheet_data: Any, reason: Any, based_on: int | None = None,
                key: str | None = None) -> GameRecord:
    """Change the game's frozen sheet: an explicit act, kept in the game's history."""
    reason = _reason(reason, "reason", "say why the table changed the sheet")
    if reason is None:
        raise Invalid("reason", "say why the table changed the sheet")
    try:
        sheet = load_sheet(sheet_data)
    except ReadError as err:
        raise Invalid(err.field or "sheet", err.reason) from None
    first = True
    while True:
        game = _fresh(game_id, based_on, key=key, first=first)
        first = False
        read_sides(game.sides, sheet)  # the table must still fit the new sheet
        before, after = _stored(game.sheet), _stored(sheet)
        try:
            with db.transaction():
                now = _now()
                if not db.run("game_touch_at", now, game_id, game.revision):
                    _moved(game_id, based_on)
                db.run("game_set_sheet", after, game_id)
                _history(game, None, "amend", now, before, after, None, None, reason)
                _check_size(game_id)
        except _Moved:
            continue
        # Read it back only once committed: a record cached inside the transaction would
        # outlive a failed commit, and judging every deal again need not hold the write lock.
        return load_game(game_id)  # type: ignore[return-value]


def replace_edit_key(game_id: str, once: Once[GameRecord] | None = None, key: str | None = None) -> GameRecord:
    """Give the game a new edit key: the old one changes nothing from now on (its digest is
    kept, so :func:`replaced_at` can say when it was replaced), and a ``rekey`` entry goes
    into the history (without either key). Returns the game with its new key. Made once per
    ``once``'s key (:func:`once`), whose answer must not hold the new key. Every answer kept
    before it for the game (its writes, earlier replacements, the request that created or
    imported it) is forgotten: each was made under a key that no longer works, so sent again,
    it is a new request (refused for the replaced key; a create makes a new game). With
    ``key``, the key the door allowed it with (:func:`_fresh`)."""
    first = True
    while True:
        game = _fresh(game_id, None, once, key, first)
        first = False
        new_key = new_id()
        try:
            with db.transaction():
                now = _now()
                if not db.run("game_touch_at", now, game_id, game.revision):
                    _moved(game_id, None, once)
                db.run("game_set_edit_key", new_key, game_id)
                db.run("edit_key_replaced", game_id, key_digest(game.edit_key), now)
                _history(game, None, "rekey", now, None, None, None, None, None)
                record = dataclasses.replace(game, edit_key=new_key, revision=game.revision + 1, updated_at=now)
                # Every answer kept for the game's earlier writes and the one of the request that made
                # it were given under a key that no longer works: none is replayed from now on.
                db.run("idempotency_forget_game", game_id, json.dumps(game_id))
                _keep(once, record, new_key)
                _check_size(game_id)
        except _Moved:
            continue
        _remember(record)  # once committed; the deals are the game's as read, so nothing is judged again
        return record


def replaced_at(game_id: str, edit_key: str | None) -> str | None:
    """When ``edit_key`` stopped being the game's edit key (:func:`replace_edit_key`), as the
    database keeps times; None when it never was one of its keys (or none is given)."""
    if not edit_key or not could_be_an_id(game_id):
        return None
    row = db.one("edit_key_replaced_at", game_id, key_digest(edit_key))
    return None if row is None else str(row["at"])


# -- deleting games ---------------------------------------------------------------------------------

EDITOR, RETENTION = "editor", "retention"  # why a game was deleted (errors.DELETED_BY words them)


def delete_game(game_id: str, based_on: int | None = None, key: str | None = None) -> str:
    """Delete the game for its editor: its deals, its history, the answers kept for its
    writes and the one of the request that created it, and everything the cache holds of it.
    Its id is kept as deleted, so its links answer :class:`Gone`. A write like the others:
    one based on a revision the game has moved past is refused (:class:`Conflict`). Returns
    when it was deleted; logged."""
    first = True
    while True:
        game = _fresh(game_id, based_on, key=key, first=first)
        first = False
        try:
            with db.transaction():
                now = _now()
                if not db.run("game_delete_at", game_id, game.revision):
                    _moved(game_id, based_on)
                _remove(game_id, now, EDITOR)
        except _Moved:
            continue
        db.current().cache.discard_games(db.path(), {game_id})
        log.warning("game %s (%r) deleted by its editor at revision %d, with %d deals", game_id, game.name,
                    game.revision, len(game.deals))
        return now


def _remove(game_id: str, now: str, why: str) -> None:
    """Inside the transaction that deleted the game's row: the answers kept about it, and its
    id kept as deleted (its deals, history and replaced keys went with the row: ON DELETE CASCADE)."""
    db.run("idempotency_forget_game", game_id, json.dumps(game_id))
    db.run("deleted_insert", game_id, now, why)


@dataclass(frozen=True)
class Unchanged:
    """A game not changed since a time (what :func:`purge` removes): its ``id``, ``name``,
    when it last changed (``updated_at``) and how many ``deals`` it held."""

    id: str
    name: str
    updated_at: str
    deals: int


PURGE_BATCH = 100  # games one query of purge reads (by the index on updated_at), then the next after them


def unchanged_since(moment: datetime) -> list[Unchanged]:
    """Every game not changed since ``moment``, the oldest first (read a batch at a time)."""
    found: list[Unchanged] = []
    after = ("", "")
    while True:
        rows = db.query("games_unchanged_since", _stamp(moment), *after, PURGE_BATCH)
        found += [Unchanged(row["id"], readable(row["name"]), row["updated_at"], row["deals"]) for row in rows]
        if len(rows) < PURGE_BATCH:
            return found
        after = (rows[-1]["updated_at"], rows[-1]["id"])


def purge(moment: datetime, dry_run: bool = False) -> list[Unchanged]:
    """Remove every game not changed since ``moment`` (the setting RETAIN_DAYS, by ``flask
    purge``), as :func:`delete_game` does, each in a transaction of its own that removes it
    only if it has still not changed (a write meanwhile keeps it); the games removed, oldest
    first. With ``dry_run``, the games it would remove, removing none."""
    found = unchanged_since(moment)
    if dry_run:
        return found
    removed = []
    for game in found:
        with db.transaction():
            now = _now()
            if db.run("game_delete_unchanged", game.id, _stamp(moment)):
                _remove(game.id, now, RETENTION)
                removed.append(game)
    db.current().cache.discard_games(db.path(), {game.id for game in removed})
    if removed:
        log.warning("purge: %d games not changed since %s removed", len(removed), _stamp(moment))
    return removed
