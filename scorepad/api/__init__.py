"""The JSON API under ``/api/v1``: ONE blueprint, :data:`.blueprint.bp`, and its error table (:mod:`.errors`). Every
error is answered as a problem (``application/problem+json``, :mod:`.problems`)::

    {"type": "/api/v1/problems/invalid-field", "title": "A field of the request is not valid",
     "status": 400, "detail": "...", "field": "sides[0].melds[1].naturals",
     "error": {"status": 400, "field": "sides[0].melds[1].naturals", "message": "..."}}

The routes: games, deals, sheets and scoring (:mod:`.games`), the referee's questions
(:mod:`.referee`), deals entered part by part (:mod:`.open_deals`), export and import
(:mod:`.exchange`), a game's events (:mod:`.events`), club nights (:mod:`.club_nights`; their export, import
and season ladder: :mod:`.club_night_exchange`), the problem types
(:mod:`.problems`) and the API's own OpenAPI description (:mod:`.openapi`); what they share
is :mod:`.http`.
:func:`blueprint` gives the blueprint with every route on it. See ``docs/api.md``.
"""

from __future__ import annotations

from flask import Blueprint

from . import club_night_exchange, club_nights, errors, events, exchange, games, open_deals, openapi, referee  # noqa: F401  (each adds its routes or handlers to bp)
from .blueprint import bp

__all__ = ["blueprint", "bp"]


def blueprint() -> Blueprint:
    """The API's blueprint with every route and error handler on it."""
    return bp
