"""The SQL statements one save of a deal runs, from SQLite's own trace.

Run from the repository root::

    python bench/trace.py

It makes an app on a fresh SQLite file in a temporary folder, creates a four-player game of
the ``common`` preset through the JSON API (Us: Ann, Cal v Them: Bea, Dan), and saves two
deals, each with its idempotency key as the doors send it: one from the phone's deal form
(the page's ``POST /games/<id>/deals/new``, its hidden ``idempotency_key`` as the page
gives it), one through the API (``POST /api/v1/games/<id>/deals`` with ``Idempotency-Key``).
Each save's statements are taken from ``sqlite3.Connection.set_trace_callback`` on the
connection the request uses, leaving out BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE and
PRAGMAs, and printed with their count::

    page save: N statements
      1  SELECT revision, updated_at FROM game WHERE id = ...
      ...
    api save: N statements
      ...

tests/storage/test_statement_count.py holds the count at 7 at most.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SCOREPAD_RATELIMIT_ENABLED", "false")

from scorepad.app import create_app  # noqa: E402
from scorepad.storage import db  # noqa: E402

SIDES = [{"name": "Us", "players": ["Ann", "Cal"]}, {"name": "Them", "players": ["Bea", "Dan"]}]
# A deal as the counted form sends it (books, melded points, red threes, points left, who went out).
FORM = {"s0-b-clean": "3", "s0-b-dirty": "2", "s0-red_threes": "4", "s0-points": "415", "s0-p1-pts": "45",
        "s1-b-clean": "1", "s1-b-dirty": "1", "s1-red_threes": "2", "s1-points": "235", "s1-p0-pts": "30",
        "s1-p1-pts": "55", "ending": "s0-p0", "action": "save",
        **{f"s{side}-p{player}-picked": "1" for side in (0, 1) for player in (0, 1)}}
LEFT_OUT = re.compile(r"\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA)\b", re.IGNORECASE)


class _Fields(HTMLParser):
    """The named inputs of a page's forms, with their values (the first of each name)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        name = found.get("name")
        if tag == "input" and name and found.get("type") not in ("radio", "checkbox", "submit"):
            self.fields.setdefault(name, found.get("value") or "")


def form_of(page: str) -> dict[str, str]:
    parser = _Fields()
    parser.feed(page)
    return parser.fields


def counted(statements: list[str]) -> list[str]:
    """The statements that count: BEGIN/COMMIT/ROLLBACK, savepoints and PRAGMAs left out."""
    return [s for s in statements if not LEFT_OUT.match(s)]


@contextmanager
def traced(app: Any) -> Iterator[list[str]]:
    """Every statement the app's database runs on this thread's connection (the Flask test
    client serves a request on the thread that sends it), while the block runs."""
    statements: list[str] = []
    with app.app_context():
        conn = db.get_db()
        conn.set_trace_callback(statements.append)
        try:
            yield statements
        finally:
            conn.set_trace_callback(None)


def saves(folder: Path) -> dict[str, list[str]]:
    """The counted statements of a page save and of an API save, each with its key."""
    app = create_app({"TESTING": True, "SECRET_KEY": "trace", "WTF_CSRF_ENABLED": False,
                      "DATABASE": str(folder / "trace.sqlite")})
    client = app.test_client()
    created = client.post("/api/v1/games", json={"name": "Friday", "sheet": "common", "sides": SIDES}).get_json()
    game_id, key = created["id"], created["edit_key"]
    client.get(f"/games/{game_id}/edit/{key}")  # this phone may edit
    new = f"/games/{game_id}/deals/new"
    form = {**form_of(client.get(new).get_data(as_text=True)), **FORM}
    assert form.get("idempotency_key"), "the deal form carries its idempotency key"
    found: dict[str, list[str]] = {}

    def again() -> dict[str, Any]:
        """Deal 2 through the API: the deal the page saved, played again."""
        saved = client.get(f"/api/v1/games/{game_id}/deals/1").get_json()["deal"]
        return {**saved, "deal": 2, "repeat": True}

    sends: dict[str, Callable[[], Any]] = {
        "page save": lambda: client.post(new, data=form),
        "api save": lambda: client.post(f"/api/v1/games/{game_id}/deals", json=body,
                                        headers={"Authorization": f"Bearer {key}", "Idempotency-Key": "trace-2"}),
    }
    for name, send in sends.items():
        body = again() if name == "api save" else None
        with traced(app) as statements:
            response = send()
        assert response.status_code in (201, 303), (name, response.status_code, response.get_data(as_text=True))
        found[name] = counted(statements)
    return found


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for name, statements in saves(Path(folder)).items():
            print(f"{name}: {len(statements)} statements")
            for i, statement in enumerate(statements, 1):
                print(f"  {i:2d}  {' '.join(statement.split())[:150]}")


if __name__ == "__main__":
    main()
