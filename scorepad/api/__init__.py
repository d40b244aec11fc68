"""The JSON API under ``/api/v1``: ONE blueprint, :data:`bp`, and its error table, the one
shape of every error::

    {"error": {"status": 400, "field": "sides[0].melds[1].naturals", "message": "..."}}

The routes: games, deals, sheets and scoring (:mod:`.games`), the referee's questions
(:mod:`.referee`), export and import (:mod:`.exchange`), and the API's own OpenAPI
description (:mod:`.openapi`); what they share is :mod:`.http`.
:func:`blueprint` gives the blueprint with every route on it. See ``docs/api.md``.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from ..storage.errors import Busy, Conflict, Full, Invalid, NotFound, Refused, Rejected, StorageError, Unusable
from ..storage.store import never_as_played
from .http import ApiError, PreconditionFailed, error_body

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def blueprint() -> Blueprint:
    """The API's blueprint with every route: each routes module adds its own as it is imported."""
    from . import exchange, games, openapi, referee  # noqa: F401

    return bp


# -- the error table ------------------------------------------------------------------------------

# What the API answers to each storage error. Busy is answered by the app's handler
# (scorepad.app), with Retry-After; Unusable stops the app at start-up.
ERROR_STATUS: dict[type[Exception], int] = {
    Invalid: 400, NotFound: 404, Conflict: 409, Full: 409, Rejected: 422, Refused: 422, Busy: 503, Unusable: 500,
}


def error_status(err: Exception) -> int:
    """The status of ``err``'s kind in :data:`ERROR_STATUS`, or of the nearest kind it is one of."""
    return next(ERROR_STATUS[kind] for kind in type(err).__mro__ if kind in ERROR_STATUS)


@bp.errorhandler(ApiError)
@bp.errorhandler(StorageError)
def refused(err: ApiError | StorageError) -> tuple[Response, int, dict[str, str]]:
    status, headers = (err.status, err.headers) if isinstance(err, ApiError) else (error_status(err), {})
    return jsonify(error_body(status, err.field, err.message)), status, headers


@bp.errorhandler(Conflict)
def conflict(err: Conflict) -> tuple[Response, int]:
    """A stale write (409, or 412 when its revision came in ``If-Match``): the error, the
    game's revision now, and every change since the revision the write was based on."""
    status = err.status if isinstance(err, PreconditionFailed) else error_status(err)
    return jsonify({**error_body(status, err.field, err.message), "revision": err.revision,
                    "changes": err.changes}), status


@bp.errorhandler(Rejected)
def rejected(err: Rejected) -> tuple[Response, int]:
    """A deal not saved (422): the report, every problem (each saying whether it can
    ever be saved as played), and ``may_save_as_played`` for the deal as a whole."""
    n = len(err.problems)
    named = err.never_as_played or err.problems  # the first problem to correct
    first = named[0] if named else None
    message = (f"the deal breaks the rules in {n} place{'s' if n != 1 else ''} and was not saved: "
               f"{first.message if first else ''} Correct it, or save it as played with "
               '"as_played": {"reason": "..."}.')
    if first is not None and first.code.startswith(("game.", "deal.number")):
        message = f"the deal does not fit this game and was not saved: {first.message}"
    elif first is not None and not err.may_save_as_played:
        message = (f"the deal was not saved, and cannot be saved as played until this is corrected: "
                   f"{first.message}")
    body = error_body(error_status(err), first.where if first else None, message)
    body["report"] = err.verdict.to_json()
    body["may_save_as_played"] = err.may_save_as_played
    never = set(err.never_as_played)
    body["problems"] = [{**p.to_json(), "never_as_played": p in never} for p in err.problems]
    return jsonify(body), error_status(err)


@bp.errorhandler(Refused)
def refused_import(err: Refused) -> tuple[Response, int]:
    """An import with a deal the referee will not let in (422): the deal's number and its problems."""
    status = error_status(err)
    body = error_body(status, err.field, err.message)
    body["deal"] = err.number
    body["problems"] = [{**p.to_json(), "never_as_played": never_as_played(p)} for p in err.problems]
    return jsonify(body), status
