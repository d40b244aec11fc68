"""A club's season ladder (:func:`club_ladder`): its events read from the store, oldest
evening first, each table's game as it stands, ranked by :func:`scorepad.rules.ladder.ladder`."""

from __future__ import annotations

from ..rules.ladder import LadderEvent, LadderRow, LadderTable, ladder
from .club_nights import EventRecord, events_of_club, load_event
from .reading import load_games


def club_ladder(club: str) -> list[LadderRow]:
    """Every player of the club's events, with their figures across the season, ranked; none
    for a name no club could have (NUL, which PostgreSQL cannot even compare; a lone surrogate)."""
    if "\x00" in club or any("\ud800" <= ch <= "\udfff" for ch in club):
        return []
    events = [event for event in (load_event(event_id) for event_id in events_of_club(club)) if event is not None]
    return ladder([_ladder_event(event) for event in events])


def _ladder_event(event: EventRecord) -> LadderEvent:
    """The event as the ladder reads it: its roster, and each table's game with its sides' players."""
    tables = []
    games = load_games([table.game_id for played in event.rounds for table in played.tables])
    for played in event.rounds:
        for table in played.tables:
            game = games.get(table.game_id)
            if game is None:  # deleted meanwhile, with its event: nothing to count
                continue
            finished = table.closed_at is not None or game.rules.result().over
            tables.append(LadderTable(game.rules, tuple(tuple(side["players"]) for side in game.sides), finished))
    return LadderEvent(event.roster, tuple(tables))
