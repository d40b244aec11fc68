"""scorepad: a score pad and rules referee for Hand and Foot.

``create_app`` builds the web app (``flask --app scorepad run``); the rules core in
:mod:`scorepad.rules` and the ``scorepad`` command need no web framework, so importing this
package stays light.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Flask is imported only when the app is built
    from flask import Flask


def create_app(test_config: Mapping[str, object] | None = None) -> Flask:
    """The Flask app; see :func:`scorepad.app.create_app`."""
    from .app import create_app as build

    return build(test_config)
