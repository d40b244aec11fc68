"""A club night's tables read from their games once, for paper and the players' CSV
(:class:`EventResults`): each round's tables with their sides, totals and state, the byes and
what they score, and the standings over them, as :func:`.club_nights.standings_of` ranks them.

Each table's game is read once (a game is cached per revision); its revision goes into
:attr:`EventResults.revisions`, so a document built from these results can be kept until the
event or one of its games moves on.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.club_night import Format, Standings
from ..rules.event_results import RoundResult, SeatedSide, TableResult, TableState
from ..rules.standings import RoundPlay, Standing, TablePlay, bye_points, standings
from .club_nights import EventRecord, EventTable
from .reading import GameRecord, load_games


@dataclass(frozen=True)
class EventResults:
    """The event with its rounds as played and its overall standings; ``final`` once every
    round of the plan is finished, ``hidden`` while the plan keeps the standings from view links."""

    event: EventRecord
    rounds: tuple[RoundResult, ...]
    overall: tuple[Standing, ...]
    final: bool
    hidden: bool
    revisions: tuple[int | None, ...]  # each table's game's revision (None: deleted), round by round

    @property
    def players(self) -> dict[str, tuple[str, ...]]:
        """Each entrant's players: a partnership's two, a player's self."""
        if self.event.plan.format is Format.PARTNERS:
            return {p.name: p.players for p in self.event.partnerships}
        return {e.name: (e.name,) for e in self.event.roster}


def _table(event: EventRecord, table: EventTable, game: GameRecord | None) -> tuple[TableResult, TablePlay, int | None]:
    """One table as its game stands (None: deleted), for the paper and for the standings."""
    totals = game.rules.totals() if game is not None else {}
    names = [str(side["name"]) for side in game.sides] if game is not None else []
    over = game is not None and game.rules.result().over
    players = {p.name: p.players for p in event.partnerships}
    sides = []
    for i, entrants in enumerate(table.sides):
        name = names[i] if i < len(names) else " and ".join(entrants)
        sitting = players[entrants[0]] if len(entrants) == 1 and entrants[0] in players else entrants
        sides.append(SeatedSide(name, entrants, sitting, totals.get(name, 0)))
    state = (TableState.FINISHED if over else TableState.CLOSED if table.closed_at is not None
             else TableState.PLAYING)
    play = TablePlay(table.number, table.sides, tuple(s.total for s in sides), state is not TableState.PLAYING)
    return TableResult(table.number, table.game_id, tuple(sides), play.winners, state), play, (
        game.revision if game is not None else None)


def results_of(event: EventRecord) -> EventResults:
    """The event's rounds and standings from its tables' games as they stand now."""
    rounds, plays, revisions = [], [], []
    games = load_games([table.game_id for played in event.rounds for table in played.tables])
    for played in event.rounds:
        tables = []
        table_plays = []
        for table in played.tables:
            result, play, revision = _table(event, table, games.get(table.game_id))
            tables.append(result)
            table_plays.append(play)
            revisions.append(revision)
        play_round = RoundPlay(played.number, tuple(table_plays), played.byes)
        plays.append(play_round)
        rounds.append(RoundResult(played.number, tuple(tables), played.byes, bye_points(event.plan, play_round)))
    final = len(rounds) == event.plan.rounds and rounds[-1].finished
    return EventResults(event, tuple(rounds), tuple(standings(event.plan, event.entrants, plays)), final,
                        event.plan.standings is Standings.HIDDEN and not final, tuple(revisions))
