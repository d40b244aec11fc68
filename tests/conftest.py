"""Fixtures shared by the web tests: an app on its own SQLite file, its test clients and its
command runner. Helpers that make games and deals are plain functions in ``hardening.py``.

Every app starts from a copy of one database file migrated once a session
(:func:`migrated_database`): creating and migrating a file costs more than the rest of
making an app. Tests of migrations, or of what start-up does to a new or odd file, call
``create_app`` on a path of their own and start from nothing. Tests that write nothing, and
check so, may share one app a module (:func:`module_app`): making an app costs more than they do.

Rate limits are off in every test but the limits' own (tests/api/test_ratelimit.py passes
``RATELIMIT_ENABLED: True``): set here in the environment, at import, so servers and
commands the tests start as subprocesses inherit it. Shared limits' tests count in a
throwaway Redis (:func:`redis_url`).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorepad.app import create_app
from scorepad.storage import db
from tests.hardening import RedisServer

os.environ.setdefault("SCOREPAD_RATELIMIT_ENABLED", "false")

TEST_CONFIG = {"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False}


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file with every migration applied (by the app's own start-up code), made
    once a session; tests get copies, never this file."""
    path = tmp_path_factory.mktemp("template") / "scorepad.sqlite"
    db.open_database(path)
    assert not Path(f"{path}-wal").exists()  # closed and checkpointed: the one file is the database
    return path


@pytest.fixture
def make_app(tmp_path: Path, migrated_database: Path) -> Callable[..., Flask]:
    """``make_app(**config)``: the app with the test settings and ``config`` on top, on
    ``scorepad.sqlite`` in this test's folder, copied from the migrated template unless
    it is there already (so a second app of one test shares the first one's games).
    ``DATABASE`` in ``config`` names another file, copied likewise when missing."""

    def make(**config: Any) -> Flask:
        database = Path(config.pop("DATABASE", tmp_path / "scorepad.sqlite"))
        if not database.exists():
            shutil.copyfile(migrated_database, database)
        return create_app({**TEST_CONFIG, "DATABASE": str(database), **config})

    return make


@pytest.fixture(scope="module")
def module_app(tmp_path_factory: pytest.TempPathFactory, migrated_database: Path) -> Flask:
    """One app with the test settings for a module's tests that write nothing (each checks
    that it wrote nothing): making an app costs more than such a test does."""
    database = tmp_path_factory.mktemp("module") / "scorepad.sqlite"
    shutil.copyfile(migrated_database, database)
    return create_app({**TEST_CONFIG, "DATABASE": str(database)})


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    """The app with a database of its own in this test's temporary folder."""
    return make_app()


@pytest.fixture
def client(app: Flask):
    """A browser (or phone) on the app; it may change a game once it opens the edit link."""
    return app.test_client()


@pytest.fixture
def viewer(app: Flask):
    """A second browser, holding only the view link: it may not change any game."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask):
    """Runs the app's ``flask`` commands (``game``, ``deal``, ``backup``) in this process."""
    return app.test_cli_runner()


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory):
    """A throwaway ``redis-server`` for this session (each xdist worker starts its own), on a
    free loopback port, keeping nothing on disk: its URL, database 0. Stopped after. Without
    the program the test skips, saying how to install it, unless ``CI`` is set: then it fails."""
    if not RedisServer.available():
        message = "redis-server is not installed: apt-get install redis-server"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with RedisServer(tmp_path_factory.mktemp("redis")) as url:
        yield url
