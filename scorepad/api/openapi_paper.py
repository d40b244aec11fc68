"""The OpenAPI description of the game's and the presets' PDFs: page routes of
:mod:`scorepad.web.paper`, outside ``/api/v1`` but reachable from the description, so a client
finds the paper it can print. :mod:`.openapi` puts :data:`PAPER_PATHS` among its paths.

They serve browsers as well as programs, so an error's form follows ``Accept``: the API's
problem (``application/problem+json``) when it prefers JSON, else the page's HTML.
"""

from __future__ import annotations

from ..rules.limits import MAX_SIDES, MIN_SIDES
from .schema import GAME_ID, Schema, between, query, ref

PAPER: Schema = query("paper", {"type": "string", "enum": ["letter", "a4"], "default": "letter"},
                      "the paper size (ignoring case)")
PRESET: Schema = {"name": "preset_id", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1},
                  "description": "a preset's id, as GET /api/v1/sheets lists them"}
ERROR: Schema = {"application/problem+json": {"schema": ref("Problem")}, "text/html": {"schema": {"type": "string"}}}


def _pdf(operation_id: str, summary: str, *params: Schema, game: bool = True) -> Schema:
    return {"get": {
        "operationId": operation_id, "tags": ["paper"], "summary": summary, "parameters": [PAPER, *params],
        "responses": {
            "200": {"description": "the PDF, as a download named after the game or preset",
                    "headers": {"Content-Disposition": {"$ref": "#/components/headers/Content-Disposition"}},
                    "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}}},
            "400": {"description": "a paper (or sides) it does not print", "content": ERROR},
            "404": {"description": "no such game or preset", "content": ERROR},
            **({"410": {"description": "the game was deleted", "content": ERROR}} if game else {}),
            "503": {"description": "the PDF waited its turn to be built too long: send it again",
                    "headers": {"Retry-After": ref("Retry-After", "headers")}, "content": ERROR}}}}


PAPER_PATHS: dict[str, Schema] = {
    "/games/{game_id}/sheet.pdf": {"parameters": [GAME_ID], **_pdf(
        "get_game_sheet_pdf", "the game's house rules, on one page, with a link to the game")},
    "/games/{game_id}/pad.pdf": {"parameters": [GAME_ID], **_pdf(
        "get_game_pad_pdf", "a blank score pad for the game's sides and sheet")},
    "/games/{game_id}/results.pdf": {"parameters": [GAME_ID], **_pdf(
        "get_game_results_pdf", "the game's results: every deal, its score and its problems, the amendments")},
    "/sheets/{preset_id}.pdf": {"parameters": [PRESET], **_pdf("get_preset_sheet_pdf", "a preset's house rules",
                                                            game=False)},
    "/sheets/{preset_id}/pad.pdf": {"parameters": [PRESET], **_pdf(
        "get_preset_pad_pdf", "a blank score pad for a preset",
        query("sides", between(MIN_SIDES, MAX_SIDES), "how many sides the pad has columns for"), game=False)},
}
