"""Games as the app keeps them, read: the records of a game and its deals, the game as it
stands (read once per revision, then cached; each deal judged when its verdict is first
asked for, its score when a total is), its history, what changed since a
revision, and the games gone or not changed for a while.

Writing them is :mod:`.writing`; what a write is given is checked by :mod:`.checks`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import secrets
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from typing import Any, TypedDict

from ..rules import Deal, ReadError, RuleSheet, judge, load_sheet
from ..rules.choices import Confirm
from ..rules.game import Game
from ..rules.limits import MAX_GAME_ID
from ..rules.read import JSON
from ..rules.score import Breakdown
from ..rules.text import readable
from ..rules.verdict import Verdict
from ..rules.views import GameView, view_of
from . import db
from .errors import Gone, NotFound


@dataclass
class DealRecord:
    """A deal of a game as stored. Its verdict is given, or judged when first asked for: by
    the game it was read in (``game``, at ``place``), where the totals before it may count,
    else on its own."""

    number: int
    deal: Deal
    as_played: str | None
    history_size: int = 0
    revision: int | None = None  # the game's revision once this deal was saved, when known
    given: Verdict | None = None  # its verdict, when the writer judged it already
    stored_size: int = 0  # the length of its stored JSON: what the cache counts it as
    game: Game | None = dataclasses.field(default=None, repr=False, compare=False)
    place: int = 0  # its place in ``game``'s deals

    @property
    def verdict(self) -> Verdict:
        if self.given is None:
            if self.game is not None:
                return self.game.verdict(self.place)
            self.given = judge(self.deal)
        return self.given

    @property
    def score(self) -> Breakdown:
        """Its score, without validating it (a score never depends on the totals before it)."""
        if self.given is None and self.game is not None:
            return self.game.scores[self.place]
        return self.verdict.breakdown

    @property
    def found(self) -> Verdict | None:
        """Its verdict if found already (given, or judged by its game), else None: judges nothing."""
        return self.given if self.given is not None or self.game is None else self.game.found(self.place)


def judged_in(game: Game, deals: Sequence[DealRecord]) -> list[DealRecord]:
    """``deals``, the deals of ``game`` in its order, as records judged by it (when first asked)."""
    return [dataclasses.replace(d, given=None, game=game, place=place) for place, d in enumerate(deals)]


class GameSide(TypedDict):
    """One side of a game's table, as the game keeps it: its name and its players, in seat order."""

    name: str
    players: list[str]


@dataclass
class GameRecord:
    id: str
    edit_key: str
    name: str
    sheet: RuleSheet
    sides: list[GameSide]
    revision: int
    created_at: str
    updated_at: str
    deals: list[DealRecord]
    rules: Game  # the rules core's game of the same deals, judged once (it judges a deal in it)
    # How many history entries each deal number has, recorded or deleted (a deal recorded
    # again after a deletion goes on counting from its earlier entries).
    history_counts: dict[int, int] = dataclasses.field(default_factory=dict)
    # When the table ended the game (an open sheet's; writing.end_game), None while it goes on.
    ended_at: str | None = None
    # Whether a side's part of a deal entered part by part waits for another side's confirmation.
    confirm: Confirm = Confirm.NONE
    # The club night (storage/club_nights.py) this game is a table of, or None.
    event_id: str | None = None

    @cached_property
    def view(self) -> GameView:
        """The game as every output shows it (rows, totals, result, next deal, problems),
        worked out once per revision: the record is cached per revision, and the view with it."""
        return view_of(self.rules, [d.as_played for d in self.deals])

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(side["name"] for side in self.sides)

    def totals_before(self, number: int) -> dict[str, int]:
        """Each side's total from the deals recorded before deal ``number`` (the rules' game decides)."""
        return self.rules.totals_before(number)

    def deal(self, number: int) -> DealRecord | None:
        return next((d for d in self.deals if d.number == number), None)

    @property
    def next_number(self) -> int | None:
        """The next deal's number, or None when the game is over (the rules' game decides)."""
        return self.rules.next_deal


def stamp_now() -> str:
    return stamp(datetime.now(UTC))


def stamp(moment: datetime) -> str:
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




# Stored JSON (json.dumps) escapes every character outside printable ASCII: text with no
# escape, and no raw character outside printable ASCII (JSON written another way), holds
# nothing readable() would replace, so most deals and history entries skip its walk (a call
# per string). Looked for with str's own scans, several times faster than one regex's.
_ESCAPE = re.compile(r"\\[ubfnrt]")


def _maybe_untyped(text: str) -> bool:
    """Whether stored JSON text may hold a character :func:`readable` replaces."""
    return ("\\" in text and _ESCAPE.search(text) is not None) or not (text.isascii() and text.isprintable())


def _stored_json(text: str) -> JSON:
    """Stored JSON read back, through :func:`readable` when it holds any escaped character
    or any character outside printable ASCII."""
    data: JSON = json.loads(text)
    return readable(data) if _maybe_untyped(text) else data


def _record(row: db.Row, deals: list[db.Row], history_counts: dict[int, int],
            judged: Mapping[str, Verdict] | None = None) -> GameRecord:
    """The record of a game's rows; ``judged`` holds verdicts already found, by stored body.
    Text is read through readable(): a name stored before names were checked still loads."""
    sheet = load_sheet(json.loads(row["sheet"]), stored=True)
    sides: list[GameSide] = readable(json.loads(row["sides"]))
    found = [judged.get(deal_row["body"]) for deal_row in deals] if judged else []
    known = [v for v in found if v is not None and v.deal.sheet == sheet]
    if len(known) != len(deals):
        known = []  # not every deal judged, or under another sheet: judge them all here
    parsed = [v.deal for v in known] if known else [Deal.from_json(_stored_json(d["body"]), sheet) for d in deals]
    ended_at: str | None = row["ended_at"]
    game = Game(sheet, tuple(side["name"] for side in sides), tuple(parsed), tuple(known) or None,
                ended=ended_at is not None)
    records = [DealRecord(deal_row["number"], deal, readable(deal_row["as_played"], True),
                          history_counts.get(deal_row["number"], 0), stored_size=len(deal_row["body"]),
                          game=game, place=place)
               for place, (deal_row, deal) in enumerate(zip(deals, parsed, strict=True))]
    return GameRecord(row["id"], row["edit_key"], readable(row["name"]), sheet, sides, row["revision"],
                      row["created_at"], row["updated_at"], records, game, dict(history_counts), ended_at,
                      Confirm(row["confirm"]), row["event_id"])


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
    record = read_afresh(game_id, judged)
    if record is not None:
        remember(record)
    return record


def read_afresh(game_id: str, judged: Mapping[str, Verdict] | None = None) -> GameRecord | None:
    """The game as the database holds it, read and judged afresh (not from the cache, nor
    kept in it); None if there is none."""
    with db.snapshot():  # the game, its deals and history as of one moment
        row = db.one("game_get", game_id)
        if row is None:  # deleted in between: there is none
            return None
        counts = {h["deal_number"]: h["n"] for h in db.query("history_counts", game_id)}
        deals = db.query("deals_of_game", game_id)
    return _record(row, deals, counts, judged)


def remember(record: GameRecord) -> None:
    """Keep ``record`` as its game's cached state, unless a later revision is kept already."""
    db.current().cache.put(("game", db.path(), record.id), record, record_size(record),
                        replaces=lambda cached: cached.revision < record.revision)


def recent_games(ids: list[str], limit: int = 20) -> list[GameRecord]:
    """The first ``limit`` games of these ids that still exist, in the order given."""
    return [g for g in (load_game(game_id) for game_id in ids[:limit]) if g is not None]


# A history entry as :func:`history` gives it: the entry's row (deal_number, action, at, reason,
# revision) with its deals or sheets (before, after) and totals (old_totals, new_totals) read.
# Any: the pages add their own keys to it (web.common.history_entries), read as they are set.
Entry = dict[str, Any]


def history(game_id: str, deal_number: int | None = None) -> list[Entry]:
    """The game's history entries, oldest first; an amendment's sheets as preset + changes."""
    rows = (db.query("history_of_game", game_id) if deal_number is None
            else db.query("history_of_deal", game_id, deal_number))
    return _entries(rows)


@dataclass(frozen=True)
class PartEntry:
    """Who entered one part of a deal written from an open deal (:mod:`.open_deals`): the
    ``phone``'s label, and the phone of another side that confirmed it (None when the game
    asks for no confirmation)."""

    phone: str
    confirmed_by: str | None


def parts_entered(stored: object) -> dict[str, PartEntry]:
    """A history entry's ``entered_by`` (``{part: {"phone", "confirmed_by"}}``, as
    :func:`history` reads it) as :class:`PartEntry` values by part; empty for a deal sent whole."""
    if not isinstance(stored, Mapping):
        return {}
    found: dict[str, PartEntry] = {}
    for name, part in stored.items():
        phone, confirmed = (part.get("phone"), part.get("confirmed_by")) if isinstance(part, Mapping) else (None, None)
        if isinstance(phone, str):
            found[str(name)] = PartEntry(phone, confirmed if isinstance(confirmed, str) else None)
    return found


def entered_by(game_id: str) -> dict[int, dict[str, PartEntry]]:
    """For each deal of the game as it stands that was written from its parts, by number: who
    entered each part (a side's position, or ``ending``), as its ``record`` history entry says.
    The deal's latest entry decides: a deal recorded again, or corrected, sent whole (or
    deleted) is not in it, nor is a deal sent whole."""
    found: dict[int, dict[str, PartEntry]] = {}
    for row in db.query("entered_by_of_game", game_id):
        parts = parts_entered(readable(json.loads(row["entered_by"]))) if row["entered_by"] else {}
        if parts:
            found[row["deal_number"]] = parts
        else:
            found.pop(row["deal_number"], None)
    return found


def amendments(game_id: str) -> list[Entry]:
    """The game's amendments of its sheet, oldest first, as :func:`history` gives them
    (without reading every deal the history holds)."""
    return _entries(db.query("amendments_of_game", game_id))


def history_shown(game_id: str) -> list[Entry]:
    """The game's history as its page lists it: :func:`history`, but the deals before and
    after only of the entries that corrected a deal (the page shows the lines they changed)
    and the sheets only of amendments; None for every other entry's (a deal as recorded,
    or deleted, is not shown, and reading them was half the reading of the largest game's)."""
    return _entries(db.query("history_shown_of_game", game_id))


def corrections(game_id: str) -> list[Entry]:
    """The game's entries that corrected or deleted a deal, oldest first, as :func:`history`
    gives them but without the deals before and after (what the results print of them)."""
    return _entries(db.query("corrections_of_game", game_id))


def _entries(rows: list[db.Row]) -> list[Entry]:
    out = []
    for row in rows:
        entry: Entry = {key: row[key] for key in row.keys()}
        for key in ("before", "after", "old_totals", "new_totals", "entered_by"):
            if key not in entry:  # a query that does not read it
                continue
            stored = entry[key]
            entry[key] = _stored_json(stored) if isinstance(stored, str) and stored else None
            if entry["action"] == "amend" and key in ("before", "after") and entry[key] is not None:
                entry[key] = _brief(entry[key])
        entry["reason"] = readable(entry["reason"], True)
        out.append(entry)
    return out


def _brief(stored: JSON) -> JSON:
    """A stored sheet as the API shows it (preset + changes); left as it is if unreadable."""
    try:
        return load_sheet(stored, stored=True).to_json()
    except ReadError:
        return stored


_DONE = {"record": "recorded", "edit": "corrected", "delete": "deleted"}


def changes_since(game_id: str, revision: int) -> list[dict[str, JSON]]:
    """What happened to the game after ``revision``, oldest first: each change's
    ``revision``, ``action``, ``deal`` (its number, or None for the sheet), ``at``, the
    deal's ``totals`` (after the change; before it, for a deletion), ``reason``, and a
    ``message`` in words (``deal 3 was recorded``)."""
    out: list[dict[str, JSON]] = []
    for row in db.query("history_since", game_id, revision):
        action, number = row["action"], row["deal_number"]
        if action == "amend":
            message = "the sheet was amended" + (f" ({row['reason']})" if row["reason"] else "")
        elif action == "rekey":
            message = "the edit link was replaced"
        elif action in ("end", "reopen"):
            message = "the game was ended at the table" if action == "end" else "the game was reopened"
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


@dataclass(frozen=True)
class Moved:
    """How far a game has moved: its ``revision``, its ``open`` counter (its open deal's
    changes, which the revision does not count) and when it last changed (``updated_at``)."""

    revision: int
    open: int
    updated_at: str


def moved(game_id: str) -> Moved | None:
    """How far the game has moved (its revision, open counter and last change), as of one
    moment, in one read; None if there is no game: what a watching phone polls."""
    if not could_be_an_id(game_id):
        return None
    row = db.one("game_moved", game_id)
    return None if row is None else Moved(int(row["revision"]), int(row["open_counter"]), str(row["updated_at"]))


def revisions(game_ids: Collection[str]) -> dict[str, Moved]:
    """How far each of these games has moved, in one read; a game deleted (or never made) is not in it."""
    ids = [game_id for game_id in game_ids if could_be_an_id(game_id)]
    if not ids:
        return {}
    return {row["id"]: Moved(int(row["revision"]), int(row["open_counter"]), str(row["updated_at"]))
            for row in db.query("games_revisions", json.dumps(ids))}


def load_games(game_ids: Collection[str]) -> dict[str, GameRecord]:
    """Each of these games as it stands (:func:`load_game`), their revisions read in one query:
    a club night's standings read every table's game, and most are cached at their revision.
    A game deleted (or never made) is not in it."""
    found: dict[str, GameRecord] = {}
    cache = db.current().cache
    for game_id, moved in revisions(game_ids).items():
        cached = cache.get(("game", db.path(), game_id))
        record = cached if isinstance(cached, GameRecord) and cached.revision == moved.revision else load_game(game_id)
        if record is not None:
            found[game_id] = record
    return found


def cached_game(game_id: str) -> GameRecord | None:
    """The game as this process's cache holds it, at the revision it was last read or written at; None if not held."""
    cached = db.current().cache.get(("game", db.path(), game_id))
    return cached if isinstance(cached, GameRecord) else None


def organiser_key_of(game_id: str) -> str | None:
    """The organiser's key of the club night the game is a table of (:mod:`.club_nights`); None
    for a game of no event."""
    row = db.one("event_key_of_game", game_id)
    return None if row is None else str(row["organiser_key"])


def replaced_at(game_id: str, edit_key: str | None) -> str | None:
    """When ``edit_key`` stopped being the game's edit key (:func:`replace_edit_key`), as the
    database keeps times; None when it never was one of its keys (or none is given)."""
    if not edit_key or not could_be_an_id(game_id):
        return None
    row = db.one("edit_key_replaced_at", game_id, key_digest(edit_key))
    return None if row is None else str(row["at"])


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
        rows = db.query("games_unchanged_since", stamp(moment), *after, PURGE_BATCH)
        found += [Unchanged(row["id"], readable(row["name"]), row["updated_at"], row["deals"]) for row in rows]
        if len(rows) < PURGE_BATCH:
            return found
        after = (rows[-1]["updated_at"], rows[-1]["id"])
