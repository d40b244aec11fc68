"""``flask --app scorepad game ...``, ``flask --app scorepad deal ...`` and ``flask --app
scorepad backup PATH``: on the server, everything the pages and the JSON API do, through the
same core (:mod:`scorepad.storage.writing`), and a consistent copy of the database (a SQLite
file; on PostgreSQL, ``backup`` says how to use pg_dump).

Writes from these commands need no edit key: whoever runs them owns the database file.

Exit status: 0 when done; 1 when a deal has violations and was not saved (no
``--as-played`` reason, or a problem no reason can excuse), or is the same as the deal
before it (no ``--repeat``); 4 when the deal's number is recorded already (the saved deal
is shown beside the one given; ``deal correct`` replaces it); 2 when the input cannot be
used (no such game, unreadable JSON, a field the store refuses): the message, on stderr,
names the field; 3 when another program held the database's write lock for longer than
``BUSY_TIMEOUT``: nothing was saved, and the same command may be run again; 5 when the
database is out of space (its disk is full): nothing was saved.

``flask --app scorepad purge`` removes the games not changed for ``RETAIN_DAYS`` days.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import NoReturn, ParamSpec, TypeVar

import click
from flask import current_app
from flask.cli import with_appcontext

from .. import links
from ..rules import Deal
from ..rules.choices import Confirm
from ..rules.read import JSON
from ..rules.verdict import Verdict
from ..storage import checks, club_nights, db, reading, writing
from ..storage.backup import BackupError, backup
from ..storage.document import export_game, import_document, parse_text
from ..storage.errors import AlreadyRecorded, ImportRefused, RuleViolations, SameAsPrevious, StorageError, Unusable
from ..storage.reading import DealRecord, GameRecord
from .errors import EXIT_UNUSABLE, EXIT_VIOLATIONS, exit_code, failure
from .output import problem_words, standing, verdict_summary

P = ParamSpec("P")
T = TypeVar("T")
NO_KEY = "Writes need no edit key: whoever runs the command owns the database file."


class CommandError(click.ClickException):
    """Input the command cannot use: printed on stderr as ``Error: <field>: <message>``, exit 2."""

    exit_code = EXIT_UNUSABLE

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field




# -- helpers --------------------------------------------------------------------------------------


def store_call(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Call the store; its refusals are printed, exiting as :data:`.errors.EXIT_CODES` says
    (a deal's :class:`RuleViolations` is left to the command, which shows the verdict)."""
    try:
        return fn(*args, **kwargs)
    except (RuleViolations, AlreadyRecorded, SameAsPrevious):  # each command shows them itself
        raise
    except ImportRefused as err:
        lines = [f"{err.field}: {err.message}"] + [f"  - {problem_words(p)}" for p in err.problems]
        raise failure(err, "\n".join(lines)) from None
    except (StorageError, db.Busy, db.OutOfSpace) as err:
        raise failure(err) from None


def _read_text(source: str, what: str) -> str:
    """The text of the file ``source``, or of stdin when it is ``-``."""
    try:
        with click.open_file(source, "r", encoding="utf-8") as handle:
            text: str = handle.read()  # a text file: click types it IO[Any]
        return text
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise CommandError(what, f"cannot read {source}: {reason}") from None


def read_json(source: str, what: str) -> JSON:
    """The JSON in the file ``source`` (stdin for ``-``), for the store to read as ``what``."""
    text = _read_text(source, what)
    return store_call(parse_text, text, what)


def game_of(game_id: str) -> GameRecord:
    game = reading.load_game(game_id)
    if game is None:
        _missing(game_id)
    return game


def _missing(game_id: str) -> NoReturn:
    """There is no game ``game_id``: say when it was deleted, if it was (exit 2 either way)."""
    deleted = reading.gone(game_id)
    if deleted is not None:
        raise failure(deleted, f"game: {game_id} is no more. {deleted.sentence}")
    raise CommandError("game", f"there is no game {game_id!r}")


def _echo(lines: list[str]) -> None:
    for line in lines:
        click.echo(line)


def _echo_totals(game_id: str) -> None:
    """The game's totals after every recorded deal, and where it stands."""
    game = reading.load_game(game_id)
    if game is not None:
        view = game.view
        click.echo("Totals: " + ", ".join(f"{name} {points:,}" for name, points in view.totals.items())
                   + f"; {standing(view)}.")


def echo_saved(game_id: str, record: DealRecord, done: str) -> None:
    note = f" as played ({record.as_played})" if record.as_played else ""
    click.echo(f"Deal {record.number} {done}{note}.")
    _echo(verdict_summary(record.verdict))
    _echo_totals(game_id)


def rejected(err: RuleViolations, as_played: str | None) -> NoReturn:
    n = len(err.problems)
    never = err.never_as_played
    why = (f"{len(never)} of them can never be saved as played, whatever the reason: correct "
           f"{'it' if len(never) == 1 else 'them'} first" if never
           else "give --as-played REASON to save it as played" if not as_played else "")
    click.echo(f"Not saved: the deal has {n} problem{'s' if n != 1 else ''}" + (f"; {why}." if why else "."))
    _echo(verdict_summary(err.verdict, err.problems, frozenset(never)))
    raise click.exceptions.Exit(EXIT_VIOLATIONS)


def _side(text: str) -> dict[str, str | list[str]]:
    """``North-South=Ann,Cal`` → ``{"name": "North-South", "players": ["Ann", "Cal"]}``;
    a side with no ``=`` is one player of that name."""
    if "=" in text:
        name, _, players = text.partition("=")
        return {"name": name.strip(), "players": [p.strip() for p in players.split(",") if p.strip()]}
    return {"name": text.strip(), "players": [text.strip()]}


def game_document(game: GameRecord) -> dict[str, object]:
    """What ``game show --json`` prints: the game as the API shows it (every deal's report in
    full), without URLs or the key. The rows, totals, result, next deal and problems are the
    game's view (:attr:`GameRecord.view`)."""
    view = game.view
    return {
        "id": game.id, "name": game.name, "sheet": game.sheet.to_json(),
        "sheet_changes": [dataclasses.asdict(change) for change in game.sheet.changes()], "sides": game.sides,
        "revision": game.revision, "created_at": game.created_at, "updated_at": game.updated_at,
        "deals": [{"number": row.number, "deal": row.deal.to_json(with_sheet=False), "report": row.verdict.to_json(),
                   "as_played": row.as_played, "history_size": record.history_size}
                  for row, record in zip(view.rows, game.deals, strict=True)],
        "running_totals": [{"deal": row.number, "totals": row.running} for row in view.rows],
        "problems": [p.to_json() for p in view.problems],
        **view.result.to_json(),
        "next_deal": None if view.next_deal is None else view.next_deal.to_json(),
    }


# -- game -----------------------------------------------------------------------------------------


@click.group("game", help="Create, list, show, export and import games, replace an edit link, and end (or "
             f"reopen) a game its table ends. {NO_KEY}")
def game_group() -> None:
    pass


@game_group.command("new")
@click.option("--name", required=True, help="The game's name.")
@click.option("--sheet", "sheet", required=True, metavar="ID|FILE",
              help="A preset id (such as common), or a JSON file holding a rule sheet.")
@click.option("--side", "sides", multiple=True, required=True, metavar='"NAME=PLAYER,PLAYER"',
              help="A side and its players in seat order; repeat for each side.")
@click.option("--confirm", type=click.Choice([c.value for c in Confirm]), default=Confirm.NONE.value,
              show_default=True, help="opponents: a side's part of a deal entered part by part (deal part) is "
              "final once a phone of another side confirms it (deal confirm).")
@with_appcontext
def game_new(name: str, sheet: str, sides: tuple[str, ...], confirm: str) -> None:
    """Start a game; prints its id, view path and edit key. Needs no edit key."""
    sheet_data: object = sheet
    if sheet == "-" or Path(sheet).is_file():
        sheet_data = read_json(sheet, "sheet")
    game = store_call(_create_game, name, sheet_data, [_side(s) for s in sides], Confirm(confirm))
    click.echo(f"id: {game.id}")
    click.echo(f"view: {links.game_link(game.id)}")
    click.echo(f"edit key: {game.edit_key}")
    click.echo(f"edit: {links.game_link(game.id, 'edit', game.edit_key)}")


def _create_game(name: str, sheet_data: object, sides_data: object, confirm: Confirm) -> GameRecord:
    sheet = checks.read_sheet(sheet_data)
    sides = checks.read_sides(sides_data, sheet)  # first: a game named after its sides shows their own error
    return writing.create_game(checks.read_game_name(name, "name"), sheet, sides, confirm=confirm)


@game_group.command("list")
@click.option("--limit", default=20, show_default=True, type=click.IntRange(1, 1000), help="How many games.")
@with_appcontext
def game_list(limit: int) -> None:
    """The games most recently changed: id, name, and where each stands."""
    rows = db.query("game_all_recent", limit)
    games = [g for g in (reading.load_game(row["id"]) for row in rows) if g is not None]
    if not games:
        click.echo("No games yet.")
    for game in games:
        click.echo(f"{game.id}  {game.name}  ({len(game.deals)} deal{'s' if len(game.deals) != 1 else ''}; "
                   f"{standing(game.view)})")


@game_group.command("show")
@click.argument("game_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Print the game as JSON.")
@click.option("--edit-link", is_flag=True,
              help="Print only the game's edit link (it holds the key): from PUBLIC_URL when set, else from the root.")
@with_appcontext
def game_show(game_id: str, as_json: bool, edit_link: bool) -> None:
    """The score table with running totals, and the result; or the edit link again."""
    game = game_of(game_id)
    if edit_link:
        click.echo(links.game_link(game.id, "edit", game.edit_key))
        if links.public_base() is None:
            click.echo("(Put the address the phones open before it, such as http://192.168.1.20:8000, "
                       "or set SCOREPAD_PUBLIC_URL.)", err=True)
        return
    if as_json:
        click.echo(json.dumps(game_document(game), ensure_ascii=False, indent=2))
        return
    view = game.view
    names = view.sides
    click.echo(f"{game.name}  ({game.id}, revision {game.revision})")
    click.echo("Sides: " + "; ".join(f"{s['name']}: {', '.join(s['players'])}" for s in game.sides))
    header = ["Deal"] + [f"{n} pts" for n in names] + [f"{n} total" for n in names]
    rows = [header]
    for row in view.rows:
        note = (f"as played: {row.as_played}" if row.as_played
                else "breaks the sheet as amended" if row.breaks_sheet else "")
        rows.append([str(row.number)] + [f"{row.points[n]:,}" for n in names]
                    + [f"{row.running[n]:,}" for n in names] + ([note] if note else []))
    widths = [max(len(r[i]) for r in rows if i < len(r)) for i in range(len(header))]
    for line in rows:
        cells = [cell.rjust(widths[i]) if i < len(header) else cell for i, cell in enumerate(line)]
        click.echo("  ".join(cells).rstrip())
    if not view.rows:
        click.echo("(no deals yet)")
    result = view.result
    click.echo("Standings: " + ", ".join(f"{s.name} {s.total:,}" for s in result.standings))
    upcoming = view.next_deal  # None once the game is over
    if upcoming is None:
        click.echo("Result: " + ("a tie" if result.tie else f"{result.winner} wins"))
    else:
        click.echo(f"Result: game goes on; next is deal {upcoming.number}")
        click.echo(upcoming.words())


@game_group.command("rekey")
@click.argument("game_id", metavar="ID")
@with_appcontext
def game_rekey(game_id: str) -> None:
    """Replace the game's edit link: a new edit key, the old one refused from now on (phones
    holding it are told so and can only watch); kept in the game's history. Prints the new
    key and edit link."""
    game_of(game_id)
    game = store_call(writing.replace_edit_key, game_id)
    click.echo(f"The edit link of {game.name!r} was replaced; the old one can no longer change the game.")
    click.echo(f"edit key: {game.edit_key}")
    click.echo(f"edit: {links.game_link(game.id, 'edit', game.edit_key)}")


@game_group.command("export")
@click.argument("game_id", metavar="ID")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the document here instead of stdout.")
@with_appcontext
def game_export(game_id: str, output: Path | None) -> None:
    """The game as a scorepad export document (JSON), as the page's Export gives it."""
    document = export_game(game_id)
    if document is None:
        _missing(game_id)
    write_document(document, output)


def write_document(document: Mapping[str, object], output: Path | None) -> None:
    """An export document as indented JSON, to ``output`` (saying so on stderr) or to stdout."""
    text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as err:
        raise CommandError("output", f"cannot write {output}: {err.strerror or err}") from None
    click.echo(f"Wrote {output}.", err=True)


@game_group.command("import")
@click.argument("source", metavar="FILE|-")
@with_appcontext
def game_import(source: str) -> None:
    """Bring in an export document as a NEW game (new id and edit key). Needs no edit key."""
    data = read_json(source, "document")
    game = store_call(import_document, data)
    click.echo(f"Imported {game.name!r} with {len(game.deals)} deal{'s' if len(game.deals) != 1 else ''}.")
    click.echo(f"id: {game.id}")
    click.echo(f"view: /games/{game.id}")
    click.echo(f"edit key: {game.edit_key}")


@game_group.command("delete")
@click.argument("game_id", metavar="ID")
@click.option("--revision", type=click.IntRange(0), help="Delete only if the game is still at this revision.")
@click.option("--yes", is_flag=True, help="Do not ask first.")
@with_appcontext
def game_delete(game_id: str, revision: int | None, yes: bool) -> None:
    """Delete the game for good: its deals, history and kept answers; its links then say it
    was deleted. Asks first, unless --yes. Needs no edit key."""
    game = game_of(game_id)
    count = f"{len(game.deals)} deal{'s' if len(game.deals) != 1 else ''}"
    if not yes:
        click.confirm(f"Delete {game.name!r} ({game.id}, {count}) for good?", abort=True)
    at = store_call(writing.delete_game, game_id, revision)
    click.echo(f"Deleted {game.name!r} ({game.id}, {count}) at {at}.")


@game_group.command("end")
@click.argument("game_id", metavar="ID")
@click.option("--revision", type=click.IntRange(0), help="End it only if the game is still at this revision.")
@with_appcontext
def game_end(game_id: str, revision: int | None) -> None:
    """End a game its table ends (game length 'open', a game played to the clock) here: its
    result then names the winner, and no deal is recorded until `game reopen`. Kept in the
    game's history. Needs no edit key."""
    game_of(game_id)
    game = store_call(writing.end_game, game_id, revision)
    count = f"{len(game.deals)} deal{'s' if len(game.deals) != 1 else ''}"
    click.echo(f"Ended {game.name!r} ({game.id}) after {count}: {standing(game.view)}.")
    _echo_totals(game_id)


@game_group.command("reopen")
@click.argument("game_id", metavar="ID")
@click.option("--revision", type=click.IntRange(0), help="Reopen it only if the game is still at this revision.")
@with_appcontext
def game_reopen(game_id: str, revision: int | None) -> None:
    """Reopen a game its table ended: it goes on, and its next deal may be recorded. Kept in
    the game's history. Needs no edit key."""
    game_of(game_id)
    game = store_call(writing.reopen_game, game_id, revision)
    click.echo(f"Reopened {game.name!r} ({game.id}): {standing(game.view)}.")


# -- deal -----------------------------------------------------------------------------------------


AS_PLAYED = click.option("--as-played", "as_played", metavar="REASON",
                         help="Save a deal that breaks the sheet, as the table played it, with this reason.")


@click.group("deal", help=f"Record, correct and delete a game's deals. {NO_KEY} "
             "Exit 1 when a deal has violations (or repeats the deal before it) and was not saved; 2 when the "
             "input cannot be used; 4 when the deal is recorded already.")
def deal_group() -> None:
    pass


@deal_group.command("record")
@click.argument("game_id", metavar="ID")
@click.argument("source", metavar="DEAL.json|-")
@AS_PLAYED
@click.option("--repeat", is_flag=True,
              help="Record it even if it is the same as the deal before it (the table played it again).")
@with_appcontext
def deal_record(game_id: str, source: str, as_played: str | None, repeat: bool) -> None:
    """Record the deal its JSON names ("deal"), else the game's next, never another; prints the
    verdict. Exit 4 when that deal is recorded already (both are shown); 1 when it is the same
    as the deal before it (--repeat records it) or breaks the sheet."""
    _save_deal(game_id, source, as_played, "recorded",
               lambda game, data: writing.record_deal(game_id, *_read_new(game, data, as_played), repeat=repeat,
                                                      named=checks.names_its_number(data)))


@deal_group.command("correct")
@click.argument("game_id", metavar="ID")
@click.argument("number", metavar="N", type=int)
@click.argument("source", metavar="DEAL.json|-")
@AS_PLAYED
@with_appcontext
def deal_correct(game_id: str, number: int, source: str, as_played: str | None) -> None:
    """Correct deal N; the old version stays in its history. Prints the verdict."""
    _save_deal(game_id, source, as_played, "corrected",
               lambda game, data: writing.update_deal(game_id, number, *_read_correction(game, data, number,
                                                                                        as_played)))


def _read_new(game: GameRecord, data: object, as_played: str | None) -> tuple[Deal, str | None]:
    reason = checks.read_reason_field(as_played)
    return checks.read_new_deal(game, data), reason


def _read_correction(game: GameRecord, data: object, number: int, as_played: str | None) -> tuple[Deal, str | None]:
    reason = checks.read_reason_field(as_played)
    return checks.read_correction(game, data, number), reason


def _save_deal(game_id: str, source: str, as_played: str | None, done: str,
               save: Callable[[GameRecord, object], DealRecord]) -> None:
    """What ``deal record`` and ``deal correct`` do: read the deal in ``source``, ``save`` it,
    and print the verdict and totals; or why it was not saved, exiting as the refusal says."""
    game = game_of(game_id)
    data = read_json(source, "deal")
    try:
        record = store_call(save, game, data)
    except RuleViolations as err:
        rejected(err, as_played)
    except AlreadyRecorded as err:
        _already_recorded(game_id, err)
    except SameAsPrevious as err:
        click.echo(f"Not saved: deal {err.number} is the same as deal {err.previous}, every side and the ending. "
                   "If the table really played the same deal again, run it again with --repeat.")
        raise click.exceptions.Exit(exit_code(err)) from None
    echo_saved(game_id, record, done)


def _already_recorded(game_id: str, err: AlreadyRecorded) -> NoReturn:
    """Deal N recorded already: the saved one beside the one sent, and how to replace it."""
    def totals(verdict: Verdict) -> str:
        return ", ".join(f"{name} {points:,}" for name, points in verdict.breakdown.totals().items())

    when = f" at {err.recorded_at.replace('T', ' ').replace('+00:00', ' UTC')}" if err.recorded_at else ""
    click.echo(f"Not saved: deal {err.number} is already recorded (saved{when}); a deal is never moved to "
               "another number.")
    click.echo(f"  saved: {totals(err.recorded)}")
    click.echo(f"  yours: {totals(err.yours)}")
    click.echo(f"Keep the saved one, or replace it with yours: flask --app scorepad deal correct {game_id} "
               f"{err.number} DEAL.json")
    raise click.exceptions.Exit(exit_code(err))


@deal_group.command("delete")
@click.argument("game_id", metavar="ID")
@click.argument("number", metavar="N", type=int)
@with_appcontext
def deal_delete(game_id: str, number: int) -> None:
    """Delete deal N; what it held stays in the game's history."""
    game_of(game_id)
    revision = store_call(writing.delete_deal, game_id, number)
    click.echo(f"Deal {number} deleted (game revision {revision}).")
    _echo_totals(game_id)


# -- backup ---------------------------------------------------------------------------------------


@click.command("backup")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Overwrite PATH if it exists.")
@with_appcontext
def backup_command(path: Path, force: bool) -> None:
    """Copy the database to PATH, consistently, while the server runs.

    To restore: stop the server, delete instance/scorepad.sqlite-wal and -shm if present,
    copy the backup over instance/scorepad.sqlite, and start the server.

    Exit status 2 when PATH cannot be used: it exists (without --force), it is a folder or
    not a regular file, or it is the database itself or one of its -wal, -shm, -journal;
    and on PostgreSQL, which pg_dump backs up: the message gives the commands to run.
    """
    try:
        result = backup(current_app.config["DATABASE"], path, force)
    except (BackupError, Unusable) as err:
        raise failure(err) from None
    click.echo(f"Wrote {result.path}: {result.games} game{'s' if result.games != 1 else ''}, "
               f"{result.deals} deal{'s' if result.deals != 1 else ''} ({result.size:,} bytes).")


# -- purge ----------------------------------------------------------------------------------------


@click.command("purge")
@click.option("--days", type=click.IntRange(1), help="Remove games not changed for this many days (default: "
              "the setting RETAIN_DAYS).")
@click.option("--dry-run", is_flag=True, help="List what would be removed; remove nothing.")
@with_appcontext
def purge_command(days: int | None, dry_run: bool) -> None:
    """Remove the games not changed for RETAIN_DAYS days (or --days): each with its deals,
    history and kept answers, its links then saying it was removed. Prints each game removed.
    Run it daily (cron, a systemd timer) while the server runs.

    Exit status 2 when neither RETAIN_DAYS nor --days says how long to keep games."""
    days = days or current_app.config.get("RETAIN_DAYS")
    if not days:
        raise CommandError("RETAIN_DAYS", "is not set, so every game is kept: set it (SCOREPAD_RETAIN_DAYS), "
                           "or give --days N")
    before = datetime.now(UTC).replace(microsecond=0) - timedelta(days=days)
    games = store_call(writing.purge, before, dry_run)
    done = "Would remove" if dry_run else "Removed"
    for game in games:
        click.echo(f"{done} {game.id}  {game.name}  (last changed {game.updated_at}; "
                   f"{game.deals} deal{'s' if game.deals != 1 else ''})")
    click.echo(f"{done} {len(games)} game{'s' if len(games) != 1 else ''} not changed for {days} "
               f"day{'s' if days != 1 else ''} (since {before.isoformat()}).")
    events = store_call(club_nights.purge_events, before, dry_run)  # a club night goes whole, its games with it
    for event in events:
        tables = sum(len(r.tables) for r in event.rounds)
        click.echo(f"{done} the club night {event.id}  {event.name}  (last changed {event.updated_at}; "
                   f"{tables} game{'s' if tables != 1 else ''} with it)")
    if events:
        click.echo(f"{done} {len(events)} club night{'s' if len(events) != 1 else ''} not changed, nor any game "
                   "of them, in that time.")
