"""The largest club night the limits allow, read through every GET route of an event, cold and warm.

Run from the repository root::

    python bench/club_night.py [--tables 40] [--rounds 12]

It builds, in a temporary SQLite file, a progressive event of ``4 × tables`` players (at most
40 tables, 12 rounds: ``rules/limits.py``) on the common sheet, every round started and every
table's game played to its end (four legal deals each, so 1,920 deals at 40 tables and 12
rounds), through the storage functions the doors share. Then, for each GET route of the
event, a fresh app (nothing read, judged or built yet) answers it once cold, and again warm,
through Flask's test client in this process; it prints both times and the answer's size. The
board refreshes itself every 20 seconds on every screen that shows it: its warm time is what
each refresh costs the server. No target is enforced: the figures are printed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorepad.app import create_app  # noqa: E402
from scorepad.rules import Deal, preset  # noqa: E402
from scorepad.rules.club_night import EventPlan, Format, read_roster  # noqa: E402
from scorepad.storage import club_nights, reading, writing  # noqa: E402
from scorepad.storage.club_night_input import NewEvent  # noqa: E402

CONFIG = {"TESTING": True, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False}


def table_deal(game: reading.GameRecord, number: int) -> Deal:
    """A legal deal of a table's game: the sides take turns going out with two books."""
    out = (number - 1) % len(game.sides)
    sides = []
    for i, side in enumerate(game.sides):
        sides.append({"name": side["name"], "melds": ["K K K K K K K", "Q Q Q Q Q 2 2"] if i == out else ["J J J"],
                      "players": [{"name": p, "foot_picked_up": True, "cards_left": {} if i == out else "A 3B"}
                                  for p in side["players"]]})
    return Deal.from_json({"deal": number, "ending": "went_out", "went_out": game.sides[out]["players"][0],
                           "sides": sides}, game.sheet)


def build(database: Path, tables: int, rounds: int) -> tuple[str, str, int]:
    """The event, played to its end: (its id, its organiser key, the deals recorded)."""
    app = create_app({**CONFIG, "DATABASE": str(database)})
    players = [f"Player {i + 1:03d}" for i in range(4 * tables)]
    deals = 0
    with app.app_context():
        event = club_nights.create_event(NewEvent("Club night", "2026-12-04", "Bench club", preset("common"),
                                                  EventPlan(Format.PROGRESSIVE, rounds), read_roster(players), ()))
        for _ in range(rounds):
            event = club_nights.start_round(event)
            for table in event.rounds[-1].tables:
                for number in range(1, 5):
                    game = reading.load_game(table.game_id)
                    assert game is not None
                    writing.record_deal(game.id, table_deal(game, number))
                    deals += 1
        app.extensions["scorepad.database"].close()
    return event.id, event.organiser_key, deals


def routes(event_id: str, rounds: int) -> list[str]:
    e, a = f"/events/{event_id}", f"/api/v1/events/{event_id}"
    return [e, f"{e}/board", f"{e}/rounds/next", f"{e}/results.pdf", f"{e}/players.csv", f"{e}/export.json",
            f"{e}/table-cards.pdf?round={rounds}", a, f"{a}/standings", f"{a}/export", "/clubs/Bench club/ladder",
            "/api/v1/clubs/Bench club/ladder"]


def timed(client: object, path: str, key: str) -> tuple[float, int, int]:
    start = time.perf_counter()
    response = client.get(path, headers={"Authorization": f"Bearer {key}"})  # type: ignore[attr-defined]
    return time.perf_counter() - start, response.status_code, len(response.get_data())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=12)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "club.sqlite"
        start = time.perf_counter()
        event_id, key, deals = build(database, args.tables, args.rounds)
        print(f"built {args.tables} tables x {args.rounds} rounds ({4 * args.tables} players, {deals:,} deals) "
              f"in {time.perf_counter() - start:.1f} s")
        print(f"{'route':<58}{'cold ms':>9}{'warm ms':>9}{'status':>8}{'bytes':>11}")
        for path in routes(event_id, args.rounds):
            app = create_app({**CONFIG, "DATABASE": str(database)})
            client = app.test_client()
            client.get(f"/events/{event_id}/organise/{key}")  # the organiser's browser (the table cards)
            cold, status, size = timed(client, path, key)
            warm, _, _ = timed(client, path, key)
            shown = path.replace(event_id, "<id>")
            print(f"{shown:<58}{cold * 1000:9.0f}{warm * 1000:9.0f}{status:>8}{size:>11,}")
            app.extensions["scorepad.database"].close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
