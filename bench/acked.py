"""What the bench's phones were answered, checked against the database afterwards (for
``bench/load.py`` and ``bench/paced.py``); and the environment their servers run in."""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from web import ROOT  # bench/web.py: the server harness

from scorepad.storage import db
from scorepad.storage.backends import database as named


def server_env(database: str | Path, root: Path = ROOT) -> dict[str, str]:
    """The server's environment: its database, a secret key, the rate limits on, and the
    checkout it serves (``root``: this one, unless a comparison names another)."""
    return {"SCOREPAD_DATABASE": str(database), "SCOREPAD_SECRET_KEY": "load-" + os.urandom(16).hex(),
            "SCOREPAD_RATELIMIT_ENABLED": "true", "PYTHONPATH": str(root)}


def check_database(setting: str | Path, acked: list[tuple[str, int, int, dict[str, Any]]],
                   writes: dict[str, int]) -> tuple[list[str], list[str]]:
    """Read the games the phones created (``writes``: game id -> deals sent), and only those,
    through the store's named queries on either backend. Lost: an acknowledged deal not
    stored with the body answered. Doubled: a deal number with more than one ``record`` in
    the history, more deals or history entries than deals acknowledged, or a revision beyond
    the writes sent (a game starts at revision 0; each deal recorded moves it on by one)."""
    mine: dict[str, list[tuple[int, int, dict[str, Any]]]] = defaultdict(list)
    for game_id, number, revision, deal in acked:
        mine[game_id].append((number, revision, deal))
    lost: list[str] = []
    doubled: list[str] = []
    database = named(setting)
    try:
        with db.using(database):
            for game_id in sorted(set(writes) | set(mine)):
                ours = mine.get(game_id, [])
                row = db.one("game_get", game_id)
                if row is None:
                    lost += [f"{game_id} deal {n} (revision {r}): no such game" for n, r, _ in ours]
                    continue
                stored = {d["number"]: json.loads(d["body"]) for d in db.query("deals_of_game", game_id)}
                history = db.query("history_of_game", game_id)
                records = Counter(h["deal_number"] for h in history if h["action"] == "record")
                for number, revision, deal in ours:
                    if stored.get(number) != deal:
                        lost.append(f"{game_id} deal {number} (revision {revision})")
                    if records[number] > 1:
                        doubled.append(f"{game_id} deal {number}: {records[number]} records in the history")
                    elif records[number] == 0:
                        lost.append(f"{game_id} deal {number}: no record in the history")
                if len(stored) > len(ours) or len(history) > len(ours):
                    doubled.append(f"{game_id}: {len(stored)} deals and {len(history)} history entries stored, "
                                   f"{len(ours)} deals acknowledged")
                sent = writes.get(game_id, len(ours))
                if row["revision"] > sent:
                    doubled.append(f"{game_id}: revision {row['revision']} after {sent} writes")
        return lost, doubled
    finally:
        database.close()
