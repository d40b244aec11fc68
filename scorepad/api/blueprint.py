"""The JSON API's one blueprint, :data:`bp`, under ``/api/v1``: every routes module of
:mod:`scorepad.api` adds its routes to it, and :mod:`.errors` its error handlers."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")
