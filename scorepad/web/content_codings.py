"""Content codings (RFC 9110 section 8.4): which one a client's ``Accept-Encoding`` takes, a
body coded in it, and the coded representation's own ETag.

What is compressed, and why only that. Compression over HTTPS leaks, through the length of
what is sent, whether a secret in a body shares a run of bytes with input the request put in
the same body (BREACH). So a body carrying a secret (a CSRF token, an edit key) beside text
the request chose (a game's name typed in, a query echoed) is never compressed: an editor's
pages (``no-store``, with the form's token and the game's edit link), the forms, the API's
answers to writes (the edit key of a game just made), the session's pages. What is
compressed carries no secret:

* the watchers' shared answers (:mod:`.replay`): a 200 with ``Cache-Control: no-cache`` and
  the game's ETag that set no cookie, the same for every watcher at a revision (no token, no
  edit link: a watcher may not edit);
* the static files, the service worker and the web app manifest (:mod:`.static_files`): the
  same bytes for everyone.

Left uncompressed though they carry no secret: the answers the watchers' layer does not keep
(the house-rule sheet and score pad PDFs, the exports, the referee's answers), which would
be coded again on every request, CPU per request on the one server process for answers
asked seldom; and the revision polls (:mod:`.revision_polls`), under a hundred bytes.

Levels, measured on a game's shared answers (coded once per kept answer): brotli's quality 5
makes a game page of 7.2 KB 1.95 KB in 0.10 ms (gzip's level 6: 2.17 KB in 0.06 ms); quality 4 makes 2.10 KB, 6 to 8 no
smaller, and 11 makes 1.73 KB in 7 ms (70 times the time for a tenth fewer bytes). The route
answers that page in 0.2 ms. A static file is coded once per process, so there the slowest
levels are worth it: brotli 11 and gzip 9 (``deal.js``, 15.5 KB: 4.7 KB in 14 ms, once).
"""

from __future__ import annotations

import functools
import gzip

import brotli

CODINGS = ("br", "gzip")  # the codings sent, preferred in this order where the client's q is equal
SHARED_LEVELS = {"br": 5, "gzip": 6}  # coded once per revision (:mod:`.replay`)
STATIC_LEVELS = {"br": 11, "gzip": 9}  # coded once per process (:mod:`.static_files`)
WORTH_CODING = 0.9  # a coded body is sent only when it is at most this share of the body


@functools.lru_cache(maxsize=256)  # a room's phones send a few headers, the same again and again
def preferred(accept_encoding: str) -> str | None:
    """The coding to send a client whose ``Accept-Encoding`` is ``accept_encoding``: of br
    and gzip (``x-gzip`` is gzip), the one with the highest q above 0, br where equal; a
    coding not named takes ``*``'s q, and ``q=0`` refuses. None: identity (no header, or
    neither coding taken).

    >>> preferred("gzip, deflate, br"), preferred("gzip;q=1, br;q=0.5"), preferred("*;q=0.1, gzip;q=0")
    ('br', 'gzip', 'br')
    >>> preferred(""), preferred("br;q=0, gzip;q=0"), preferred("identity")
    (None, None, None)
    """
    named: dict[str, float] = {}
    for element in accept_encoding.split(","):
        coding, _, parameters = element.partition(";")
        quality = _quality(parameters)
        if quality is not None:
            named.setdefault(coding.strip().lower(), quality)
    star = named.get("*", 0.0)
    taken = {"br": named.get("br", star), "gzip": named.get("gzip", named.get("x-gzip", star))}
    best = max(CODINGS, key=lambda coding: taken[coding])  # max keeps the first of equals: br
    return best if taken[best] > 0 else None


def _quality(parameters: str) -> float | None:
    """The q of one element's parameters (1 when none); None when it is not a qvalue (0 to 1),
    and the element is left out."""
    for parameter in parameters.split(";"):
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "q":
            try:
                quality = float(value.strip())
            except ValueError:
                return None
            return quality if 0 <= quality <= 1 else None
    return 1.0


def coded(body: bytes, coding: str, levels: dict[str, int]) -> bytes | None:
    """``body`` in ``coding`` at its level in ``levels``; None where that saves less than a
    tenth (a PDF's pages are compressed already, its fonts are not)."""
    if coding == "br":
        packed: bytes = brotli.compress(body, quality=levels["br"])
    else:
        packed = gzip.compress(body, levels["gzip"], mtime=0)
    return packed if len(packed) <= WORTH_CODING * len(body) else None


def tag(etag: str, coding: str) -> str:
    """The ETag of the representation coded in ``coding``: another one than the plain one's
    (``"g.4"`` is ``"g.4-br"``), as another representation has."""
    return etag[:-1] + f'-{coding}"' if etag.endswith('"') else f"{etag}-{coding}"


def untagged(if_none_match: str) -> str:
    """An ``If-None-Match`` with each coded representation's ETag as the plain one's, for a
    route that knows only its own: ``"g.4-br", W/"g.3"`` is ``"g.4", W/"g.3"``."""
    tags = [held.strip() for held in if_none_match.split(",")]
    for coding in CODINGS:
        tags = [held[: -len(coding) - 2] + '"' if held.endswith(f'-{coding}"') else held for held in tags]
    return ", ".join(tags)


def varied(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``headers`` with ``Accept-Encoding`` in their ``Vary`` (one header, last): an answer
    that another ``Accept-Encoding`` would have had coded otherwise says so to caches."""
    vary = [value for name, value in headers if name.lower() == "vary"]
    if any("accept-encoding" in value.lower() for value in vary):
        return headers
    return [*[(k, v) for k, v in headers if k.lower() != "vary"], ("Vary", ", ".join([*vary, "Accept-Encoding"]))]


def coded_headers(headers: list[tuple[str, str]], coding: str, length: int) -> list[tuple[str, str]]:
    """The headers of ``headers``' representation coded in ``coding``, ``length`` bytes long:
    its own ETag, ``Content-Encoding``, ``Content-Length`` and ``Vary``."""
    kept = [(k, tag(v, coding) if k.lower() == "etag" else v) for k, v in varied(headers)
            if k.lower() != "content-length"]
    return [*kept, ("Content-Encoding", coding), ("Content-Length", str(length))]
