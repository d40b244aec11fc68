"""A consistent copy of the whole database, made while the server keeps writing.

:func:`backup` copies the database with SQLite's online backup API, in one step (one read
transaction, so one consistent moment). It never writes over the database or the files
SQLite keeps beside it, nor over anything that is not a regular file: such a target is
:class:`BackupError`, naming it (``flask backup`` answers it with exit status 2). A copy
that fails its integrity check is :class:`~scorepad.storage.errors.Unusable`.

A PostgreSQL database is PostgreSQL's to copy: :func:`backup` copies nothing and raises
:class:`BackupError` with the ``pg_dump`` and ``pg_restore`` commands to run instead
(:func:`use_pg_dump`).
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import backends, db
from .errors import Invalid, Unusable


class BackupError(Invalid):
    """A backup target (or database) that cannot be used: the message names it."""

    def __init__(self, message: str) -> None:
        super().__init__("", message)


@dataclass
class BackupResult:
    path: Path
    games: int
    deals: int
    size: int


def backup(source: str | Path, target: str | Path, force: bool = False) -> BackupResult:
    """Copy the database at ``source`` to ``target`` with SQLite's online backup API (a
    PostgreSQL URL is :class:`BackupError`, saying to use pg_dump).

    The copy is made in one step, inside one read transaction: it is the database as it
    stood at one moment, and writers (in WAL mode) carry on meanwhile. It is written to a
    temporary file beside ``target``, checked (``PRAGMA integrity_check``), switched to a
    single self-contained file (no ``-wal``), and only then put in place; an existing
    ``target`` is refused unless ``force``. A ``target`` that is the database or one of the
    files SQLite keeps beside it, or that exists and is not a regular file, is always refused.
    """
    if backends.is_url(source):
        raise BackupError(use_pg_dump(backends.database(source).path))
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    if _is_the_database(target, source):
        raise BackupError(f"{target} is the live database or one of its own files ({source} and its -wal, "
                          "-shm and -journal); writing there would destroy it. Give another file's name")
    if target.is_dir():
        raise BackupError(f"{target} is a folder; give the backup file's name")
    if target.exists() and not target.is_file():
        raise BackupError(f"{target} is not a regular file (a device, a pipe or a socket); give the backup "
                          "file's name")
    if target.exists() and not force:
        raise BackupError(f"{target} already exists; choose another name, or pass --force to overwrite it")
    if not target.parent.is_dir():
        raise BackupError(f"there is no folder {target.parent}")
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    temporary = Path(name)
    try:
        src = db.connect(source)
        try:
            dst = sqlite3.connect(temporary, isolation_level=None)
            try:
                src.backup(dst)  # pages=-1: every page in one step, one consistent snapshot
                dst.execute("PRAGMA journal_mode = DELETE")
                check = [row[0] for row in dst.execute("PRAGMA integrity_check")]
                if check != ["ok"]:
                    raise Unusable(f"the copy failed its integrity check: {'; '.join(check[:5])}")
                games: int = dst.execute("SELECT COUNT(*) FROM game").fetchone()[0]
                deals: int = dst.execute("SELECT COUNT(*) FROM deal").fetchone()[0]
            finally:
                dst.close()
        finally:
            src.close()
        _put_in_place(temporary, target, force)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return BackupResult(target, games, deals, target.stat().st_size)


def use_pg_dump(url: str) -> str:
    """What to run to back up and restore the PostgreSQL database ``url`` (given without its
    password: pg_dump and pg_restore ask for it, or read PGPASSWORD or ~/.pgpass)."""
    quoted = "'" + url.replace("'", "'\\''") + "'"
    return (f"the database is PostgreSQL ({url}), which flask backup does not copy; back it up with "
            f"PostgreSQL's pg_dump, while the servers run:\n"
            f"  pg_dump --format=custom --file=scorepad.dump {quoted}\n"
            f"and restore it, with the servers stopped, with:\n"
            f"  pg_restore --clean --if-exists --dbname {quoted} scorepad.dump\n"
            "(each asks for the database's password, or reads it from PGPASSWORD or ~/.pgpass)")


def _is_the_database(target: Path, database: Path) -> bool:
    """Whether ``target`` names the database file or a file SQLite keeps beside it (``-wal``,
    ``-shm``, ``-journal``), through any symlink or hard link."""
    names = {database, database.resolve()}
    own = [Path(f"{name}{suffix}") for name in names for suffix in ("", "-wal", "-shm", "-journal")]
    try:
        resolved = target.resolve()
    except RuntimeError:  # a symlink loop
        raise BackupError(f"{target} is a symlink that leads back to itself; give the backup file's name") from None
    return any(resolved == path.resolve() or (target.exists() and path.exists() and os.path.samefile(target, path))
               for path in own)


def _put_in_place(temporary: Path, target: Path, force: bool) -> None:
    if force:
        os.replace(temporary, target)
        return
    try:
        os.link(temporary, target)  # fails if target appeared meanwhile: never overwrite by accident
    except FileExistsError:
        raise BackupError(f"{target} already exists; choose another name, or pass --force to overwrite it") from None
    except OSError:  # a file system without hard links
        if target.exists():
            raise BackupError(f"{target} already exists; choose another name, or pass --force to overwrite it") \
                from None
        os.replace(temporary, target)
        return
    temporary.unlink()

