"""scorepad: a score pad and rules referee for Hand and Foot.

``create_app`` builds the web app (``flask --app scorepad run``); the rules core in
:mod:`scorepad.rules` and the ``scorepad`` command need no web framework, so importing this
package stays light.
"""

from __future__ import annotations

from typing import Any


def create_app(test_config: dict[str, Any] | None = None):  # -> flask.Flask
    """The Flask app; see :func:`scorepad.app.create_app`."""
    from .app import create_app as build

    return build(test_config)
