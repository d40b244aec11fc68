"""Fixtures shared by the web tests: an app on its own SQLite file, its test clients and its
command runner. Helpers that make games and deals are plain functions in ``helpers.py``.

Every app starts from a copy of one database file migrated once a session
(:func:`migrated_database`): creating and migrating a file costs more than the rest of
making an app. Tests of migrations, or of what start-up does to a new or odd file, call
``create_app`` on a path of their own and start from nothing. Tests that write nothing, and
check so, may share one app a module (:func:`module_app`): making an app costs more than they do.

Tests marked ``backends`` run twice, on SQLite and on PostgreSQL (a throwaway cluster
started once a worker, :mod:`tests.postgres`; each test gets a new database copied from one
migrated once): the ``backend`` fixture says which, and ``database_setting`` is the
DATABASE setting of the test's own database, which ``make_app`` and ``database`` use.

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
from scorepad.storage import backends
from tests import postgres
from tests.helpers import Nginx, ProductionServer, RedisServer

os.environ.setdefault("SCOREPAD_RATELIMIT_ENABLED", "false")

TEST_CONFIG = {"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False}


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file with every migration applied (by the app's own start-up code), made
    once a session; tests get copies, never this file."""
    path = tmp_path_factory.mktemp("template") / "scorepad.sqlite"
    backends.open_database(path)
    assert not Path(f"{path}-wal").exists()  # closed and checkpointed: the one file is the database
    return path


BACKENDS = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test marked ``backends`` runs once on each backend (the ``backend`` parameter); one
    marked ``backends("sqlite")`` (closer than the module's mark) only on those named: a test
    of what only SQLite has (its file, its write lock). The mark reaches only tests on a
    database of their own (through ``backend``: ``database_setting``, ``database``,
    ``make_app``, ``app``, ``client``); one on a module's shared app, or on a server of its
    own it starts, runs once, on what it was given."""
    marked = metafunc.definition.get_closest_marker("backends")
    if "backend" in metafunc.fixturenames and marked:
        metafunc.parametrize("backend", marked.args or BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The backend this test runs on: ``sqlite`` unless the test is marked ``backends``."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture(scope="session")
def postgresql() -> Any:
    """A throwaway PostgreSQL server for this test worker (:class:`tests.postgres.Cluster`);
    the test skips without PostgreSQL, but under CI, where it fails."""
    cluster = postgres.start_cluster()
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def migrated_postgresql(postgresql: Any) -> str:
    """The name of a PostgreSQL database with every migration applied (by the app's own
    start-up code), made once a worker; tests get copies."""
    url = postgresql.new_database()
    backends.open_database(url)
    return url.rsplit("/", 1)[1]


@pytest.fixture
def database_setting(backend: str, tmp_path: Path, migrated_database: Path,
                     request: pytest.FixtureRequest) -> str:
    """The DATABASE setting of this test's own migrated database: ``scorepad.sqlite`` in its
    folder, or a new PostgreSQL database, as ``backend`` says."""
    if backend == "postgresql":
        cluster = request.getfixturevalue("postgresql")
        return str(cluster.new_database(template=request.getfixturevalue("migrated_postgresql")))
    path = tmp_path / "scorepad.sqlite"
    if not path.exists():
        shutil.copyfile(migrated_database, path)
    return str(path)


@pytest.fixture
def database(database_setting: str) -> Any:
    """This test's database (:func:`scorepad.storage.backends.database`), without any app; closed after."""
    found = backends.database(database_setting)
    yield found
    found.close()


@pytest.fixture
def make_app(database_setting: str, migrated_database: Path) -> Any:
    """``make_app(**config)``: the app with the test settings and ``config`` on top, on this
    test's database (:func:`database_setting`), so a second app of one test shares the
    first one's games. ``DATABASE`` in ``config`` names another: a file is copied from the
    migrated template when missing. Each app's database is closed after the test."""
    made: list[Flask] = []

    def make(**config: Any) -> Flask:
        database = str(config.pop("DATABASE", database_setting))
        if not backends.is_url(database) and not Path(database).exists():
            shutil.copyfile(migrated_database, database)
        app = create_app({**TEST_CONFIG, "DATABASE": database, **config})
        made.append(app)
        return app

    yield make
    for app in made:
        app.extensions["scorepad.database"].close()


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


@pytest.fixture
def production_server(tmp_path: Path):
    """Start the production server (:class:`tests.helpers.ProductionServer`, granian) on a
    free loopback port: ``production_server(database=None, threads=4, **env)`` serves
    ``database`` (a new SQLite file in the test's folder when None) with ``env`` added to its
    environment (``SCOREPAD_PROXIES="1"``, ...), and gives the started server; every server
    started is stopped after the test."""
    started: list[ProductionServer] = []

    def start(database: str | None = None, threads: int = 4, **env: str) -> ProductionServer:
        n = len(started)
        server = ProductionServer(database or str(tmp_path / f"server-{n}.sqlite"), str(tmp_path / f"server-{n}.log"),
                                  threads=threads, env=env)
        started.append(server)
        return server.__enter__()

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def nginx_proxy(tmp_path: Path):
    """Start nginx in front of a server on loopback (:class:`tests.helpers.Nginx`):
    ``nginx_proxy(upstream_port, tls=True)`` gives the started proxy (``.base``,
    ``.https_base``, ``.connection(source, https)``); stopped after the test. Without nginx
    (or openssl) the test skips, saying how to install it, unless ``CI`` is set: then it fails."""
    if not Nginx.available():
        message = "nginx (and openssl) are not installed: apt-get install nginx openssl"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    started: list[Nginx] = []

    def start(upstream_port: int, tls: bool = True) -> Nginx:
        proxy = Nginx(tmp_path / f"nginx-{len(started)}", upstream_port, tls=tls)
        started.append(proxy)
        return proxy.__enter__()

    yield start
    for proxy in started:
        proxy.__exit__()
