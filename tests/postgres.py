"""A throwaway PostgreSQL server for the tests: ``initdb`` in a temporary folder, started on
a free loopback port, removed after.

Run as root (as CI is), the cluster belongs to the ``postgres`` user the Debian package
makes (``initdb`` refuses root); otherwise to the user running the tests. Without PostgreSQL
installed, the tests that need it skip, saying how to install it, except when the
environment variable ``CI`` is set: there a missing PostgreSQL fails them.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from tests.helpers import free_port

INSTALL = ("PostgreSQL is not installed (no initdb found): install it (Debian or Ubuntu: "
           "apt-get install postgresql) to run the tests on PostgreSQL, and pip install -e '.[test]'")


def programs() -> Path | None:
    """The folder holding initdb and pg_ctl: on PATH, else Debian's /usr/lib/postgresql/N/bin."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda f: int(f.split("/")[-2]))
    return Path(folders[-1]) if folders and Path(folders[-1], "initdb").exists() else None


def unavailable(why: str) -> None:
    """Skip the test that needs PostgreSQL, saying why; fail it under CI."""
    if os.environ.get("CI"):
        pytest.fail(f"{why} (CI is set, so the PostgreSQL tests may not skip)", pytrace=False)
    pytest.skip(why)


class Cluster:
    """A PostgreSQL server of its own: :meth:`start`, :meth:`new_database` (a URL), :meth:`stop`
    (and removed); :meth:`halt` and :meth:`resume` stop it and start it again as it was."""

    def __init__(self, bin_dir: Path, durable: bool = False) -> None:
        self.bin_dir, self.durable = bin_dir, durable  # durable: fsync on, as a real server (bench/load.py)
        self.folder = Path(tempfile.mkdtemp(prefix="scorepad-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.as_postgres = os.geteuid() == 0
        self.user = "postgres" if self.as_postgres else None

    def _run(self, *command: str) -> subprocess.CompletedProcess[str]:
        argv = [str(self.bin_dir / command[0]), *command[1:]]
        if self.as_postgres:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)

    def start(self) -> None:
        if self.as_postgres:
            shutil.chown(self.folder, "postgres", "postgres")
        done = self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                         "--locale=C", *(() if self.durable else ("--no-sync",)))
        if done.returncode:
            raise RuntimeError(f"initdb failed: {done.stderr or done.stdout}")
        self.resume()

    def resume(self) -> None:
        """Start the server on its data folder and port: after :meth:`start`'s ``initdb``, or
        again after :meth:`halt`."""
        fast = "" if self.durable else "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 {fast}-c max_connections=200"
        done = self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"),
                         "-w", "-t", "60", "start")
        if done.returncode:
            log = (self.folder / "log").read_text() if (self.folder / "log").exists() else ""
            raise RuntimeError(f"PostgreSQL did not start: {done.stderr or done.stdout}\n{log[-2000:]}")

    def url(self, name: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def sql(self, statement: str) -> None:
        """Run one statement as the superuser, outside any transaction (CREATE DATABASE)."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(statement)  # type: ignore[arg-type]

    def new_database(self, template: str | None = None) -> str:
        """A new empty database (or a copy of ``template``): its URL."""
        name = f"t_{uuid.uuid4().hex[:16]}"
        self.sql(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
        return self.url(name)

    def halt(self) -> None:
        """Stop the server as an administrator would (its connections closed, what it
        acknowledged kept), keeping its data folder and port for :meth:`resume`."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def start_cluster() -> Cluster:
    """A started cluster, or the test skipped (failed under CI) when PostgreSQL is missing."""
    bin_dir = programs()
    if bin_dir is None:
        unavailable(INSTALL)
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        unavailable("psycopg is not installed: pip install -e '.[test]' (the test extra includes postgresql)")
    cluster = Cluster(bin_dir)  # type: ignore[arg-type]
    started = time.monotonic()
    try:
        cluster.start()
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as err:
        cluster.stop()
        unavailable(f"PostgreSQL could not be started here: {err}")
    cluster.started_in = time.monotonic() - started  # type: ignore[attr-defined]
    return cluster
