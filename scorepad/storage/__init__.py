"""Where games are kept: the SQLite database and its migrations (:mod:`.db`), the one write
path with its revision check (:mod:`.store`), and the per-revision cache (:mod:`.cache`).

Storage reads and writes rules values (:mod:`scorepad.rules`); it knows nothing of HTTP.
"""
