"""Fixtures shared by the web tests: an app on its own SQLite file, and its test client."""

from __future__ import annotations

import pytest

from scorepad.app import create_app


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
