"""The JSON API's one blueprint, :data:`bp`, under ``/api/v1``: every routes module of
:mod:`scorepad.api` adds its routes to it, and :mod:`.errors` its error handlers; and the
converter of a game's id (and an event's) in its paths (:class:`GameId`)."""

from __future__ import annotations

from flask import Blueprint
from flask.blueprints import BlueprintSetupState
from werkzeug.routing import BaseConverter

bp = Blueprint("api", __name__, url_prefix="/api/v1")

NOT_GAME_IDS = frozenset({"import"})  # /games/import, /events/import: routes of their own (POST: an export brought in)


class GameId(BaseConverter):
    """``<game:game_id>``: the game's id where a path's last segment could also be one of the
    routes under ``/games/`` (:data:`NOT_GAME_IDS`). A game's id is 22 characters
    (:func:`scorepad.storage.reading.new_id`), so never one of them; without this, ``GET
    /games/import`` would read as the game ``import`` and ``OPTIONS /games/import`` would
    offer GET and DELETE. With it, the path is only the route's: a 405 naming ``POST``. The
    routing reads it from the regex (a segment the regex refuses matches no rule, so offers
    none of its methods). ``<event:event_id>`` is the same for an event's id (``/events/import``)."""

    regex = "(?!(?:" + "|".join(sorted(NOT_GAME_IDS)) + r")\Z)[^/]+"


def _converters(state: BlueprintSetupState) -> None:
    state.app.url_map.converters["game"] = state.app.url_map.converters["event"] = GameId


bp.record_once(_converters)  # before any route is added: each rule is read with the map's converters
