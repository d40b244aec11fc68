"""Where games are kept: the SQLite database and its migrations (:mod:`.db`), PostgreSQL
(:mod:`.postgresql`), the one a DATABASE setting names (:mod:`.backends`), games read
(:mod:`.reading`), the one write path with its revision check (:mod:`.writing`), what a write is
given, checked (:mod:`.checks`), writes made once per idempotency key (:mod:`.idempotency`),
the per-revision cache (:mod:`.cache`), a game
as an export document and as CSV (:mod:`.document`), a copy of the whole database
(:mod:`.backup`), and what storage refuses (:mod:`.errors`).

Storage reads and writes rules values (:mod:`scorepad.rules`); it knows nothing of HTTP and
imports no web framework. It works on the database in use (:func:`.db.current`): the app
factory puts each app's in use for each of its app contexts; a script uses
``with db.using(backends.database(path)):``.
"""
