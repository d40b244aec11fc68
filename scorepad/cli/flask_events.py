"""``flask --app scorepad event ...``: a club night (issue 27) run from the server, through the
same store as the pages and the JSON API (:mod:`scorepad.storage.club_nights`). Registered on
the app by :mod:`scorepad.app`.

The command line runs on the server, so it acts as the organiser: no organiser key is asked
for, and the standings are shown even while the plan hides them from the board (with a note
saying so). ``event create FILE|-`` reads the JSON the API's create reads
(:func:`~scorepad.storage.club_night_input.read_new_event`); ``add-players`` reads late
arrivals as ``NAME`` or ``NAME#MEMBER`` (and, for a partners event, ``--partner A B``).

Exit status as ``flask game``: 0 done; 2 when the input cannot be used (no such event, a field
the store refuses: the message, on stderr, names it); 3 when the database was busy; 5 when it
is out of space. Never a traceback.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import click
from flask.cli import with_appcontext

from .. import links
from ..rules import ReadError
from ..rules.club_night import EventPlan, Format
from ..rules.dispute import sheet_name
from ..rules.movements import RoundSeats
from ..rules.read import JSON
from ..rules.standings import Standing
from ..storage import club_nights, reading
from ..storage.club_ladder import club_ladder
from ..storage.club_night_document import export_event, import_event
from ..storage.club_night_input import read_arrivals, read_new_event
from ..storage.club_nights import EventRecord, EventRound, EventStandings, EventTable
from .flask_commands import CommandError, read_json, store_call, write_document
from .output import standing

AS_ORGANISER = "The command line acts as the event's organiser: no organiser key is needed."
HIDDEN_NOTE = "(hidden on the board until the last round is over)"


def event_link(event_id: str, *rest: str) -> str:
    """The link to the event's page, or to a page under it (``event_link(id, "board")``; the
    organiser's link, which holds the key: ``event_link(id, "organise", key)``), from the
    root unless ``PUBLIC_URL`` is set, as :func:`scorepad.links.game_link` gives a game's."""
    return links.link_base() + "/".join(("events", event_id, *rest))


def event_of(event_id: str) -> EventRecord:
    """The event ``event_id`` as it stands; exit 2 naming the field when there is none."""
    event = store_call(club_nights.load_event, event_id)
    if event is None:
        raise CommandError("event", f"there is no event {event_id!r}")
    return event


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _side_words(side: tuple[str, ...]) -> str:
    """One side of a table: its partnership's name, or its two players'."""
    return " and ".join(side)


def _seats_words(plan: EventPlan, sides: tuple[tuple[str, ...], ...]) -> str:
    """A table's seats: ``North-South: Ann and Ben; East-West: Cat and Dan`` for a progressive
    event (North, South, East, West in seat order), ``Ann and Ben v Cat and Dan`` for partners."""
    if plan.format is Format.PROGRESSIVE and len(sides) == 2:
        return f"North-South: {_side_words(sides[0])}; East-West: {_side_words(sides[1])}"
    return " v ".join(_side_words(side) for side in sides)


# -- the event --------------------------------------------------------------------------------------


@click.group("event", help="Run a club night: create it, add late arrivals, start each round, close a "
             "table as played, end an open round, show the standings, delete it; export and import a whole "
             f"event; a club's season ladder. {AS_ORGANISER} Exit 2 when the input cannot be used (the message "
             "names the field).")
def event_group() -> None:
    pass


def created_document(event: EventRecord) -> dict[str, JSON]:
    """What ``event create --json`` prints: the id, the organiser key and the links."""
    return {"id": event.id, "name": event.name, "date": event.held_on, "club": event.club,
            "organiser_key": event.organiser_key, "organiser_link": event_link(event.id, "organise",
                                                                               event.organiser_key),
            "board_link": event_link(event.id, "board"), "plan": event.plan.to_json(),
            "players": [entrant.to_json() for entrant in event.roster],
            "partnerships": [partnership.to_json() for partnership in event.partnerships]}


@event_group.command("create")
@click.argument("source", metavar="FILE|-")
@click.option("--json", "as_json", is_flag=True, help="Print the new event's id, key and links as JSON.")
@with_appcontext
def event_create(source: str, as_json: bool) -> None:
    """Create an event from its JSON (name, date, club, sheet, players, partnerships, format,
    movement, rounds, round_length, ranking, bye_score, standings); prints its id, the
    organiser key, the organiser's link (it holds the key: keep it) and the board's link."""
    data = read_json(source, "event")
    if not isinstance(data, Mapping):
        raise CommandError("event", 'must be a JSON object, such as {"name": "Tuesday club", "format": '
                           '"progressive", "rounds": 4, "players": ["Ann", "Ben", "Cat", "Dan"]}')
    event = store_call(club_nights.create_event, store_call(read_new_event, data))
    if as_json:
        click.echo(json.dumps(created_document(event), ensure_ascii=False, indent=2))
        return
    click.echo(f"id: {event.id}")
    click.echo(f"organiser key: {event.organiser_key}")
    click.echo(f"organiser: {event_link(event.id, 'organise', event.organiser_key)}")
    click.echo(f"board: {event_link(event.id, 'board')}")


# -- show -------------------------------------------------------------------------------------------


def plan_lines(event: EventRecord) -> list[str]:
    """The event's heading and its plan in words."""
    plan = event.plan
    club = f", {event.club}" if event.club else ""
    how = (f"progressive, movement {plan.movement.value}" if plan.format is Format.PROGRESSIVE
           else "partners, a round robin of fixed partnerships")
    length = "open (the organiser ends each round)" if plan.round_length.value == "open" else "a game of the sheet"
    return [f"{event.name}  ({event.id}, revision {event.revision})",
            f"Held on {event.held_on}{club}; sheet: {sheet_name(event.sheet)}",
            f"Format: {how}; {_plural(plan.rounds, 'round')}, each {length}",
            f"Ranking: {plan.tie_break}",
            f"Byes: {plan.bye_words}",
            "Standings: " + ("hidden on the board until the end" if plan.standings.value == "hidden"
                             else "live on the board")]


def roster_lines(event: EventRecord) -> list[str]:
    """Every player, with a member number when there is one, then the partnerships."""
    players = ", ".join(e.name + (f" (#{e.member})" if e.member else "") for e in event.roster)
    lines = [f"Players ({len(event.roster)}): {players or 'none'}"]
    if event.plan.format is Format.PARTNERS:
        paired = "; ".join(p.name for p in event.partnerships)
        lines.append(f"Partnerships ({len(event.partnerships)}): {paired or 'none'}")
    return lines


def table_lines(event: EventRecord, table: EventTable) -> list[str]:
    """One table of a round: its seats, its game's id, totals and where it stands."""
    game = reading.load_game(table.game_id)
    closed = f"closed as played at {table.closed_at}" if table.closed_at else None
    lines = [f"  Table {table.number}: {_seats_words(event.plan, table.sides)}"]
    if game is None:
        return [*lines, f"    game {table.game_id}: no more; {closed or 'counts as no points'}"]
    view = game.view
    totals = ", ".join(f"{name} {points:,}" for name, points in view.totals.items())
    return [*lines, f"    game {game.id}: {_plural(len(game.deals), 'deal')}; {totals}; {closed or standing(view)}"]


def round_lines(event: EventRecord, played_round: EventRound) -> list[str]:
    lines = [f"Round {played_round.number} (started {played_round.started_at}):"]
    for table in played_round.tables:
        lines += table_lines(event, table)
    if played_round.byes:
        lines.append(f"  Bye: {', '.join(played_round.byes)}")
    return lines


def seats_lines(event: EventRecord, seats: RoundSeats) -> list[str]:
    """A round's seats per table, and who sits it out."""
    lines = [f"  Table {table.table}: {_seats_words(event.plan, table.sides)}" for table in seats.tables]
    if seats.byes:
        lines.append(f"  Bye: {', '.join(seats.byes)}")
    return lines


def next_lines(event: EventRecord) -> list[str]:
    """The next round's seats (a preview: nothing is started), or why there is none."""
    if len(event.rounds) >= event.plan.rounds:
        return [f"Every one of the {_plural(event.plan.rounds, 'round')} has been started."]
    number = len(event.rounds) + 1
    try:
        seats = club_nights.next_seats(event)
    except ReadError as err:
        return [f"Round {number} cannot be seated yet: {err.field}: {err.reason}"]
    return [f"Round {number} would seat (start-round starts it):", *seats_lines(event, seats)]


@event_group.command("show")
@click.argument("event_id", metavar="ID")
@with_appcontext
def event_show(event_id: str) -> None:
    """The plan, the roster, each round's tables (seats, game id, totals), the next round's
    seats and the tables still playing."""
    event = event_of(event_id)
    lines = [*plan_lines(event), *roster_lines(event), ""]
    for played_round in event.rounds:
        lines += [*round_lines(event, played_round), ""]
    if not event.rounds:
        lines += ["No round started yet.", ""]
    lines += next_lines(event)
    playing = club_nights.unfinished_tables(event)
    if playing:
        lines.append(f"Still playing in round {event.rounds[-1].number}: table{'s' if len(playing) > 1 else ''} "
                     f"{', '.join(map(str, playing))}")
    elif event.rounds:
        lines.append("Over: every round has been played." if club_nights.is_over(event)
                     else f"Every table of round {event.rounds[-1].number} is finished.")
    for line in lines:
        click.echo(line)


# -- the organiser's writes --------------------------------------------------------------------------


def _entrant(text: str) -> JSON:
    """``Ann`` or ``Ann#1042`` (a member number) as the roster's JSON reads it."""
    name, mark, member = text.rpartition("#")
    if not mark:
        return text
    return {"name": name, "member": member}


@event_group.command("add-players")
@click.argument("event_id", metavar="ID")
@click.argument("names", metavar="NAME...", nargs=-1)
@click.option("--partner", "partners", nargs=2, multiple=True, metavar="A B",
              help="Pair two players (added here or unpaired on the roster): a partners event; repeat per pair.")
@with_appcontext
def event_add_players(event_id: str, names: tuple[str, ...], partners: tuple[tuple[str, str], ...]) -> None:
    """Add late arrivals (NAME, or NAME#MEMBER with a member number); they play from the next
    round on."""
    if not names and not partners:
        raise CommandError("players", "name at least one player to add (or --partner A B)")
    event = event_of(event_id)
    data: dict[str, JSON] = {"players": [_entrant(name) for name in names]}
    if partners or event.plan.format is Format.PARTNERS:
        data["partnerships"] = [list(pair) for pair in partners]
    roster, partnerships = store_call(read_arrivals, data, event.plan, event.roster, event.partnerships)
    event = store_call(club_nights.add_players, event, roster, partnerships)
    click.echo(f"Added {_plural(len(names), 'player')} to {event.name!r}: the roster has {len(event.roster)}"
               + (f", in {_plural(len(event.partnerships), 'partnership')}" if event.plan.format is Format.PARTNERS
                  else "") + ".")


@event_group.command("start-round")
@click.argument("event_id", metavar="ID")
@with_appcontext
def event_start_round(event_id: str) -> None:
    """Start the next round: one game per table with its seats. Refused while a table of the
    round before is still playing (close-table closes one as played). Prints each table's
    seats, game id and edit link (the table's phones join by it)."""
    event = store_call(club_nights.start_round, event_of(event_id))
    started = event.rounds[-1]
    click.echo(f"Round {started.number} of {event.plan.rounds} started: {_plural(len(started.tables), 'table')}.")
    for table in started.tables:
        click.echo(f"  Table {table.number}: {_seats_words(event.plan, table.sides)}")
        game = reading.load_game(table.game_id)
        if game is not None:
            click.echo(f"    game {game.id}; edit: {links.game_link(game.id, 'edit', game.edit_key)}")
    if started.byes:
        click.echo(f"  Bye: {', '.join(started.byes)}")


@event_group.command("close-table")
@click.argument("event_id", metavar="ID")
@click.argument("round_number", metavar="ROUND", type=int)
@click.argument("table", metavar="TABLE", type=int)
@with_appcontext
def event_close_table(event_id: str, round_number: int, table: int) -> None:
    """Close a table as played: its game stands as it is for the standings."""
    event = store_call(club_nights.close_table, event_of(event_id), round_number, table)
    click.echo(f"Table {table} of round {round_number} closed as played.")
    _echo_playing(event)


@event_group.command("end-round")
@click.argument("event_id", metavar="ID")
@with_appcontext
def event_end_round(event_id: str) -> None:
    """End the last round (an open round, played to the clock): each table's game with a deal
    is ended, and every table of the round is closed as played."""
    event = store_call(club_nights.end_round, event_of(event_id))
    last = event.rounds[-1]
    click.echo(f"Round {last.number} ended: {_plural(len(last.tables), 'table')} closed as played.")
    _echo_playing(event)


def _echo_playing(event: EventRecord) -> None:
    """What the organiser does next: wait for tables, start the next round, or nothing."""
    playing = club_nights.unfinished_tables(event)
    if playing:
        click.echo(f"Still playing: table{'s' if len(playing) > 1 else ''} {', '.join(map(str, playing))}.")
    elif club_nights.is_over(event):
        click.echo("The event is over: the standings are final.")
    else:
        click.echo(f"Every table is finished: start-round {event.id} starts round {len(event.rounds) + 1}.")


# -- standings --------------------------------------------------------------------------------------


def standings_lines(rows: tuple[Standing, ...]) -> list[str]:
    """The standings as a plain-text table: place, name, wins, losses, ties, byes, points."""
    header = ("Place", "Name", "Wins", "Losses", "Ties", "Byes", "Points")
    cells = [header, *((str(s.place), s.name, str(s.wins), str(s.losses), str(s.ties), str(s.byes),
                        f"{s.points:,}") for s in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return ["  ".join(cell.ljust(widths[i]) if i == 1 else cell.rjust(widths[i])
                      for i, cell in enumerate(row)).rstrip() for row in cells]


def _chosen(event: EventRecord, found: EventStandings, round_number: int | None) -> tuple[str, tuple[Standing, ...]]:
    if round_number is None:
        return ("Final standings" if found.final else "Standings so far"), found.overall
    if not 1 <= round_number <= len(found.by_round):
        raise CommandError("round", f"the event has no round {round_number}"
                           + (f": {_plural(len(found.by_round), 'round')} started" if found.by_round else
                              ": no round started yet"))
    return f"Round {round_number} of {event.plan.rounds}", found.by_round[round_number - 1]


@event_group.command("standings")
@click.argument("event_id", metavar="ID")
@click.option("--round", "round_number", type=int, metavar="N", help="Round N's standings alone.")
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@with_appcontext
def event_standings(event_id: str, round_number: int | None, as_json: bool) -> None:
    """The standings, overall (or round N's alone), live as the tables play, and how ties are
    broken. Shown here even while the board hides them, with a note saying so."""
    event = event_of(event_id)
    found = store_call(club_nights.standings_of, event)
    title, rows = _chosen(event, found, round_number)
    if as_json:
        click.echo(json.dumps({"round": round_number, "final": found.final, "hidden": found.hidden,
                               "tie_break": event.plan.tie_break, "byes": event.plan.bye_words,
                               "standings": [row.to_json() for row in rows]}, ensure_ascii=False, indent=2))
        return
    click.echo(f"{event.name}: {title}" + (f" {HIDDEN_NOTE}" if found.hidden else ""))
    for line in standings_lines(rows) if rows else ["(no one has played yet)"]:
        click.echo(line)
    click.echo(f"Ties: {event.plan.tie_break}.")
    click.echo(f"Byes: {event.plan.bye_words}.")


# -- delete -----------------------------------------------------------------------------------------


@event_group.command("delete")
@click.argument("event_id", metavar="ID")
@click.option("--yes", is_flag=True, help="Do not ask first.")
@with_appcontext
def event_delete(event_id: str, yes: bool) -> None:
    """Delete the event for good, with every game of its rounds (their links then say so).
    Asks first, unless --yes."""
    event = event_of(event_id)
    games = sum(len(r.tables) for r in event.rounds)
    what = f"{event.name!r} ({event.id}, {_plural(len(event.rounds), 'round')}, {_plural(games, 'game')})"
    if not yes:
        click.confirm(f"Delete {what} for good?", abort=True)
    at = store_call(club_nights.delete_event, event)
    click.echo(f"Deleted {what} at {at}.")


# -- after the evening: export, import, the club's ladder ---------------------------------------------


@event_group.command("export")
@click.argument("event_id", metavar="ID")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the document here instead of stdout.")
@with_appcontext
def event_export(event_id: str, output: Path | None) -> None:
    """The whole event as one export document (JSON): its plan, roster, rounds and every table's game."""
    write_document(store_call(export_event, event_of(event_id)), output)


@event_group.command("import")
@click.argument("source", metavar="FILE|-")
@with_appcontext
def event_import(source: str) -> None:
    """Bring in an event's export document as a NEW event (new ids and keys, every game with it)."""
    event = store_call(import_event, read_json(source, "document"))
    click.echo(f"Imported {event.name!r} with {_plural(len(event.rounds), 'round')}.")
    click.echo(f"id: {event.id}")
    click.echo(f"organiser key: {event.organiser_key}")
    click.echo(f"organiser: {event_link(event.id, 'organise', event.organiser_key)}")


@event_group.command("ladder")
@click.argument("club")
@click.option("--json", "as_json", is_flag=True, help="Print the ladder as JSON.")
@with_appcontext
def event_ladder(club: str, as_json: bool) -> None:
    """The club's season ladder across its events: each player's events, games, wins, average
    deal score, books per deal and how often they went out (players matched by member number,
    else by name)."""
    rows = store_call(club_ladder, club)
    if as_json:
        click.echo(json.dumps({"club": club, "players": [row.to_json() for row in rows]}, ensure_ascii=False,
                              indent=2))
        return
    if not rows:
        raise CommandError("club", f"no event of the club {club!r} is kept")
    click.echo(f"{'':>4} {'player':<28}{'events':>7}{'games':>6}{'wins':>5}{'avg deal':>9}{'books/deal':>11}"
               f"{'went out':>9}")
    for row in rows:
        name = row.name if row.member is None else f"{row.name} #{row.member}"
        click.echo(f"{row.place:>4} {name:<28.28}{row.events:>7}{row.games:>6}{row.wins:>5}{row.average:>9.1f}"
                   f"{row.books_per_deal:>11.2f}{row.went_out_share:>9.0%}")


# -- someone leaves the evening -----------------------------------------------------------------------


@event_group.command("leave")
@click.argument("event_id", metavar="ID")
@click.argument("name")
@click.option("--back", is_flag=True, help="They came back: seat them again from the next round.")
@with_appcontext
def event_leave(event_id: str, name: str, back: bool) -> None:
    """NAME (a player, or a partners event's partnership) leaves the evening: the movement seats
    them no more from the next round, and what they played stands. --back seats them again."""
    event = store_call(club_nights.set_withdrawn, event_of(event_id), name, not back)
    named = next(entrant for entrant in event.entrants if entrant.casefold() == name.strip().casefold())
    left = ", ".join(event.withdrawn) or "nobody"
    click.echo(f"{named} {'is back' if back else 'leaves the evening'}. Left the evening: {left}.")
