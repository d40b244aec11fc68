"""The SQL statements one save of a deal runs, from SQLite's own trace.

Run from the repository root::

    python bench/trace.py

It makes an app on a fresh SQLite file in a temporary folder and makes the two saves
tests/storage/test_statement_count.py counts (its ``saved_by_page_and_api``, the one
measurement): a four-player game of the ``common`` preset, one deal saved from the phone's
deal form (``POST /games/<id>/deals/new`` with the form's hidden ``idempotency_key``) and one
through the API (``POST /api/v1/games/<id>/deals`` with ``Idempotency-Key``). Each save's
statements come from ``sqlite3.Connection.set_trace_callback`` on the connection the request
uses, BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE and PRAGMAs left out, and are printed with
their count::

    page save: N statements
      1  SELECT revision, updated_at FROM game WHERE id = ...
      ...
    api save: N statements
      ...

The test holds the count at 7 at most; this prints what the statements are.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's scorepad, and its tests' helpers
os.environ.setdefault("SCOREPAD_RATELIMIT_ENABLED", "false")

from scorepad.app import create_app  # noqa: E402
from tests.storage.test_statement_count import saved_by_page_and_api  # noqa: E402  (the one measurement)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "SECRET_KEY": "trace", "WTF_CSRF_ENABLED": False,
                          "DATABASE": str(Path(folder) / "trace.sqlite")})
        for door, statements in saved_by_page_and_api(app, app.test_client()).items():
            print(f"{door} save: {len(statements)} statements")
            for i, statement in enumerate(statements, 1):
                print(f"  {i:2d}  {' '.join(statement.split())[:150]}")


if __name__ == "__main__":
    main()
