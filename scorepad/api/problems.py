"""The API's errors as RFC 9457 problem details (``application/problem+json``): the table of
problem types (:data:`TYPES`), and :func:`answer`, the one way an error is answered::

    {"type": "/api/v1/problems/invalid-field", "title": "A field of the request is not valid",
     "status": 400, "detail": "must be a whole number, not '7'", "field": "sides[0].melds[0].naturals",
     "error": {"status": 400, "field": "sides[0].melds[0].naturals", "message": "must be ..."}}

``type`` names one of :data:`TYPES` (its documentation is at that URL), or is ``about:blank``
for a plain HTTP error (an unknown route, a method the route does not take, a body too
large), whose ``title`` is the status's reason phrase. ``detail`` says what was wrong with
this request, ``field`` where (a dotted path into the body, a header's name, or null).
``error`` is the shape errors had before they were problems, kept for clients written
then; the other members a type carries (``revision``, ``changes``, ``report``, ...) are
listed with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus

from flask import Response, json, request

from ..rules.limits import MAX_PROBLEMS_LISTED


@dataclass(frozen=True)
class ProblemType:
    """One kind of error: its ``slug`` (the last part of its ``type`` URL), the status it
    is answered with, a ``title`` that never changes, what it means and what to do
    (``description``), and the members it carries besides the common ones (``extensions``)."""

    slug: str
    status: int
    title: str
    description: str
    extensions: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"type": type_url(self.slug), "slug": self.slug, "status": self.status, "title": self.title,
                "description": self.description, "extensions": list(self.extensions)}


TYPES: dict[str, ProblemType] = {t.slug: t for t in (
    ProblemType("invalid-body", 400, "The request's body cannot be read",
                "The body is empty, not JSON, not a JSON object, or sent with another Content-Type. "
                "Nothing was saved; send a JSON object with Content-Type: application/json."),
    ProblemType("invalid-field", 400, "A field of the request is not valid",
                "`field` names what is wrong (a dotted path into the body, or a header such as If-Match or "
                "Idempotency-Key) and `detail` says why. Nothing was saved; correct it and send again."),
    ProblemType("edit-key-required", 401, "Changing a game needs its edit key",
                "The write came without 'Authorization: Bearer <edit_key>'. Send the key the game's "
                "creator was given (it is part of the edit link)."),
    ProblemType("edit-key-replaced", 401, "That edit key was replaced",
                "The game's edit link was replaced (POST /api/v1/games/<id>/edit-key, the page's \"Replace the "
                "edit link\" or `flask game rekey`): the key sent can no longer change it. `detail` says when; "
                "`view_url` is the view link, which still shows the game. Ask whoever keeps the score for the "
                "new edit link.", ("view_url",)),
    ProblemType("wrong-edit-key", 403, "That is not this game's edit key",
                "The key sent is another game's, or the game's id (the view link): it cannot change this game."),
    ProblemType("not-found", 404, "There is no such game, deal or preset",
                "The id or number in the URL names nothing recorded (`field` is `deal` for a deal that is not "
                "recorded, never or no longer)."),
    ProblemType("gone", 410, "The game was deleted",
                "Its editor deleted it, or the server removed it after RETAIN_DAYS days without a change; "
                "`deleted_at` says when. Its deals, history and links went with it, for good.",
                ("deleted_at",)),
    ProblemType("stale-revision", 409, "The game changed since that revision",
                "Another write came first. `revision` is the game's revision now and `changes` lists every "
                "change since the one the write was based on. Nothing was saved: reload, check, send again.",
                ("revision", "changes")),
    ProblemType("no-room", 409, "The game has no room for this write",
                "The game is over (a game its table ended is reopened with POST .../reopen before another "
                "deal), or the game would hold more than it may (`field` `game`), or the write ends a game "
                "whose sheet ends it itself (`field` `game_length`: only a game of length `open` is ended by "
                "hand). Nothing was saved."),
    ProblemType("deal-recorded", 409, "That deal is recorded already",
                "A deal is saved under the number it names (`deal`, else the next) and never moved to another: "
                "another phone saved this one first. `recorded` is that deal as GET .../deals/<n> gives it, "
                "`yours` the deal sent (number, deal, report, as_played) and `revision` the game's revision now. "
                "Nothing was saved: keep the recorded one, or replace it with yours by PUT .../deals/<n> with "
                "that revision (a correction, kept in its history).",
                ("recorded", "yours", "revision")),
    ProblemType("deal-open", 409, "That deal is being entered part by part",
                "Its parts are saved one by one (PUT .../deals/<n>/parts/<side> and .../ending) and it is "
                "written when the last one makes it whole: a whole deal is not saved over it. `number` is its "
                "number (`deal` too, deprecated), `parts` how many are saved; GET .../deals/<n>/open shows "
                "them, DELETE .../open abandons it.", ("number", "deal", "parts")),
    ProblemType("not-next-deal", 409, "Parts are entered for the next deal only",
                "The deal in the URL is recorded already (`recorded` true: another phone's part completed it), "
                "or is not the game's next (`next` is). Nothing was saved.", ("next", "recorded")),
    ProblemType("part-entered", 409, "Another phone entered that part",
                "Nothing is overwritten silently: `part` is the part as it stands (its body, who entered it, "
                "when, its `version`). Look at it; to replace it, send yours again with If-Match: "
                "\"part-<version>\".", ("part",)),
    ProblemType("confirmation-refused", 409, "That confirmation is not made",
                "`field` says why: `side`, a side confirms another side's part, not its own; `phone`, the "
                "phone that entered a part does not confirm it; `version`, the part changed since it was seen "
                "(look at it again); `part`, there is none to confirm; `confirm`, the game asks for none."),
    ProblemType("precondition-failed", 412, "The game changed since that ETag",
                "The If-Match sent is no longer the game's ETag. As for stale-revision, `revision` and "
                "`changes` say what happened since; nothing was saved.",
                ("revision", "changes")),
    ProblemType("rule-violations", 422, "The deal breaks the sheet's rules",
                "The deal was not saved. `report` is the referee's full report, `problems` the problems "
                "found (each with `never_as_played`), `may_save_as_played` whether the same deal, sent again "
                'with "as_played": {"reason": "..."}, would be saved. `errors` lists every problem as '
                f"`{{code, message, field}}`, the one `detail` names first (at most {MAX_PROBLEMS_LISTED}).",
                ("report", "problems", "may_save_as_played", "errors")),
    ProblemType("same-as-previous", 422, "The deal is the same as the one before it",
                "Every side and the ending equal those of deal `previous`, recorded just before it, as when one "
                "deal is sent twice. Nothing was saved. `problems` holds the one problem, code "
                '`deal.same_as_previous`; `report` is the referee\'s report on the deal sent. If the table '
                'really played the same deal again, send the same body with "repeat": true.',
                ("previous", "report", "problems")),
    ProblemType("import-refused", 422, "The document holds a deal the referee will not let in",
                "`number` is its number (`deal` too, deprecated) and `problems` say why (each with "
                "`never_as_played`). Nothing was imported.",
                ("number", "deal", "problems")),
    ProblemType("idempotency-key-reused", 422, "That Idempotency-Key was used for another request",
                "A key names one request: the same key with another body or route is refused. Use a new key "
                "for a new request."),
    ProblemType("request-in-progress", 409, "A request with that Idempotency-Key is still running",
                "The first request with this key has not finished. Send it again in a moment: it then "
                "answers what the first one did."),
    ProblemType("rate-limited", 429, "Too many requests",
                "This address sent more requests than the server takes in a while. Nothing was saved; send "
                "it again after the seconds in Retry-After."),
    ProblemType("busy", 503, "The server is busy for a moment",
                "Another write held the database, or a heavy document was being built, for longer than the "
                "server waits, or the database server could not be reached. Nothing was saved; send the same "
                "request again after Retry-After."),
    ProblemType("out-of-space", 507, "The server is out of space",
                "The server's database has no room left (its disk is full): nothing was saved. Send the same "
                "request again once whoever runs the server has freed space."),
)}


def type_url(slug: str) -> str:
    """The ``type`` of the problem ``slug`` names: the URL of its documentation."""
    root = request.script_root if request else ""
    return f"{root}/api/v1/problems/{slug}"


def body(status: int, detail: str, field: str | None = None, slug: str | None = None,
         **extensions: object) -> dict[str, object]:
    """The problem's members: a type of :data:`TYPES` when ``slug`` names one, else about:blank."""
    kind = TYPES[slug] if slug else None
    return {"type": type_url(kind.slug) if kind else "about:blank",
            "title": kind.title if kind else HTTPStatus(status).phrase,
            "status": status, "detail": detail, "field": field or None,
            "error": {"status": status, "field": field or None, "message": detail},
            **extensions}


def answer(status: int, detail: str, field: str | None = None, slug: str | None = None,
           headers: dict[str, str] | None = None, **extensions: object) -> Response:
    """The ``application/problem+json`` response of one error."""
    return Response(json.dumps(body(status, detail, field, slug, **extensions)) + "\n", status, headers,
                    mimetype="application/problem+json")


def for_status(status: int, field: str | None) -> str | None:
    """The type of an error the API raises knowing only its status (and whether it names a
    field): None for a plain HTTP error."""
    return {400: "invalid-field" if field else "invalid-body", 401: "edit-key-required",
            403: "wrong-edit-key", 404: "not-found", 409: "stale-revision", 412: "precondition-failed",
            410: "gone", 429: "rate-limited", 503: "busy", 507: "out-of-space"}.get(status)


def wanted() -> bool:
    """Whether this request's errors are answered as problems: always under ``/api/``, and
    elsewhere (a PDF, the CSV) when ``Accept`` prefers JSON to HTML."""
    if request.path.startswith("/api/"):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json", "application/problem+json"])
    return best in ("application/json", "application/problem+json")
