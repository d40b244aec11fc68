"""A page that keeps what was typed when a form could not be handled now.

When the server refuses a form for a reason that passes (too many requests, the database
busy), the player must not lose the deal they just typed. :func:`send_again_page` answers with
a page that says why, and holds every field that was sent as hidden inputs behind a
"Send it again" button that posts them back to the same address. Files cannot be carried
over: the page says to choose them again. A question asked in a query (a rescore page's
sheet) is kept the same way, behind a button that asks it again.
"""

from __future__ import annotations

from flask import Response, make_response, render_template, request


def send_again_page(code: int, title: str, message: str, retry_after: int | None = None) -> Response:
    """The HTML answer ``code`` for this request, with the posted form (or a GET's query) kept for a resend."""
    asked = request.method == "GET"
    sent = request.args if asked else request.form if request.method == "POST" else None
    fields = [(name, value) for name, values in sent.lists() if name != "csrf_token"
              for value in values] if sent is not None else []
    response = make_response(render_template(
        "retry.html", code=code, title=title, message=message, fields=fields, method="get" if asked else "post",
        files=[f.filename for f in request.files.values() if f.filename],
        action=request.full_path if request.query_string and not asked else request.path), code)
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    response.headers["Cache-Control"] = "no-store"  # it holds what a player typed
    return response
