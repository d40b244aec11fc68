"""Which database the DATABASE setting names, built: a SQLite file (:class:`.db.Database`) or
a ``postgresql://`` URL (:class:`.postgresql.PostgreSQL`, with the ``postgresql`` extra:
psycopg and its pool). Both answer the same calls.

This module sits above both backends: :mod:`.postgresql` builds on :mod:`.db`, and only
this module knows both. psycopg is imported only when a URL is given (an optional
dependency), so SQLite runs where it is not installed.
"""

from __future__ import annotations

from pathlib import Path

from . import db
from .cache import ByteCache
from .errors import Unusable


def is_url(setting: str | Path) -> bool:
    """Whether the DATABASE setting names a PostgreSQL database rather than a file."""
    return str(setting).startswith(("postgresql://", "postgres://"))


def database(setting: str | Path, busy_timeout: float = db.BUSY_TIMEOUT, cache: ByteCache | None = None,
             pool_size: int | None = None, max_bytes: int | None = None) -> db.Database:
    """The :class:`~.db.Database` the DATABASE setting names: a ``postgresql://`` URL (with the
    ``postgresql`` extra installed; ``pool_size`` connections at most) or a SQLite file (which
    may grow to ``max_bytes``, DATABASE_MAX_BYTES, at most)."""
    if not is_url(setting):
        return db.Database(setting, busy_timeout, cache, max_bytes)
    try:
        from .postgresql import PostgreSQL  # psycopg is an optional extra: imported only for a URL
    except ImportError as err:
        raise Unusable(f"DATABASE names a PostgreSQL database, and psycopg is not installed ({err}): "
                       "pip install 'scorepad[postgresql]'") from None
    return PostgreSQL(str(setting), busy_timeout, cache, pool_size)


def open_database(setting: str | Path) -> int:
    """Create the file if missing, migrate it, and check this process can write it; returns
    its schema version. A file it cannot use raises :class:`Unusable`, naming the file.
    A ``postgresql://`` URL is migrated likewise (:mod:`.postgresql`)."""
    if is_url(setting):
        found = database(setting)
        try:
            return found.open()
        finally:
            found.close()
    return db.open_file(Path(setting))
