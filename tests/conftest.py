"""Fixtures shared by the web tests: an app on its own SQLite file, and its test client.

Rate limits are off in every test but the limits' own (tests/test_ratelimit.py passes
``RATELIMIT_ENABLED: True``): set here in the environment, at import, so servers and
commands the tests start as subprocesses inherit it.
"""

from __future__ import annotations

import os

import pytest

from scorepad.app import create_app

os.environ.setdefault("SCOREPAD_RATELIMIT_ENABLED", "false")


@pytest.fixture
def app(tmp_path):
    """The app with a fresh database file in this test's temporary folder."""
    return create_app({
        "TESTING": True,
        "DATABASE": str(tmp_path / "scorepad.sqlite"),
        "SECRET_KEY": "test",
        "WTF_CSRF_ENABLED": False,
    })


@pytest.fixture
def client(app):
    return app.test_client()
