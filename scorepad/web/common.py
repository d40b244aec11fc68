"""What several web modules share: the editable game, the form's revision (and a revision
ahead of the game's, answered as a stale form), a QR code, what changed, in words, and the
helpers every template may call.

The blueprints are :mod:`.games`, :mod:`.sheets`, :mod:`.deals`, :mod:`.referee`,
:mod:`.paper` and :mod:`.exchange`; :mod:`scorepad.app` registers them, with
:func:`template_helpers` as the templates' globals.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TypedDict

import segno
from markupsafe import Markup

from .. import access
from ..paper.results import entered_words
from ..rules import PRESETS, RuleSheet, load_sheet
from ..rules.catalogue import OPTION_BY_NAME
from ..rules.dispute import corrected_lines
from ..rules.lines import Line
from ..rules.sheet import Cited, presets_by_group
from ..rules.verdict import Verdict
from ..storage import cache, checks, db, reading
from ..storage.errors import Conflict, Invalid, StorageError
from ..storage.reading import GameRecord


def template_helpers() -> dict[str, object]:
    """What every template may use: the presets with their titles, and in their groups."""
    return {"presets_meta": list(PRESETS.items()), "preset_titles": {k: p.title for k, p in PRESETS.items()},
            "preset_groups": presets_by_group()}


def editable(game_id: str) -> GameRecord:
    """The game, when this browser may change it (else a 404 or 403)."""
    game = access.game_or_404(game_id)
    access.require_edit(game)
    return game


def read_revision(value: str | None) -> int | None:
    """The form's hidden revision; None (no check) when it is not one a game could have."""
    if value is None:
        return None
    try:
        revision = int(value)
    except ValueError:
        return None
    return revision if 0 <= revision <= 1_000_000_000 else None


@contextmanager
def ahead_is_stale(game_id: str, based_on: int | None) -> Iterator[None]:
    """A form whose revision is ahead of the game's (the database was restored from a backup
    under an open page) is answered as a stale form (:class:`Conflict`, with no changes):
    the page shows the game as it is now and keeps what was typed. The store, like the
    API, calls such a revision unreadable (:class:`Invalid` naming ``revision``)."""
    try:
        yield
    except Invalid as err:
        found = reading.revision(game_id)
        if err.field != "revision" or based_on is None or found is None:
            raise
        raise Conflict(based_on, found[0], []) from None


def qr(url: str, what: str) -> Markup:
    """A QR code as inline SVG (presentation attributes only, no style)."""
    svg = segno.make(url, error="m").svg_inline(scale=4, border=2, omitsize=True, svgclass="qr", lineclass="qr-dark",
                                                 dark="#000", light="#fff", title=f"QR code: {what}")
    return Markup(svg.replace("<svg ", f'<svg role="img" aria-label="QR code: {Markup.escape(what)}" ', 1))


def kept_qr(game_id: str, url: str, what: str) -> Markup:
    """:func:`qr`, made once per game and link (about 19 ms each) and kept in the app's cache
    under both: the code is the link's alone, so it is never stale, and a deleted game's go with it."""
    kept = cache.current()
    key = ("qr", db.path(), game_id, url, what)
    code = kept.get(key)
    if not isinstance(code, bytes):
        code = str(qr(url, what)).encode()
        kept.put(key, code)
    return Markup(code.decode())


def qr_image(url: str, what: str) -> bytes:
    """A QR code as an SVG file of its own (an ``<img>``'s source): the same drawing as
    :func:`qr`, with its namespace, and its title naming what it links to."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2, omitsize=True, svgclass=None,
                                    lineclass=None, dark="#000", light="#fff", title=f"QR code: {what}",
                                    xmldecl=False)
    return out.getvalue()


def link_tag(url: str) -> str:
    """A short digest of ``url``, which names a QR code's image of it (``?link=``): a page's
    image address changes with the link it shows, so the image may be kept for ever."""
    return hashlib.sha256(url.encode()).hexdigest()[:16]


def ago(at: object) -> str:
    """When a change happened, as a phone at the table would say it."""
    if not isinstance(at, str):
        return ""
    try:
        seconds = (datetime.now(UTC) - datetime.fromisoformat(at)).total_seconds()
    except (TypeError, ValueError):
        return ""
    if seconds < 90:
        return "a moment ago"
    if seconds < 3600:
        return f"{round(seconds / 60)} minutes ago"
    return "over an hour ago"


def what_changed(changes: Sequence[Mapping[str, object]]) -> str:
    """``Deal 3 was recorded a moment ago``: the changes a stale form missed, in words."""
    shown = [f"{c['message']} {ago(c['at'])}".strip() for c in changes[-4:]]
    if len(changes) > 4:
        shown.insert(0, f"{len(changes) - 4} earlier change{'s' if len(changes) > 5 else ''}")
    text = "; ".join(shown) or "someone else changed the game"
    return text[0].upper() + text[1:]


def sheet_changes(before: object, after: object) -> list[dict[str, str]]:
    """What an amendment changed, option by option, in words."""
    try:
        old, new = load_sheet(before), load_sheet(after)
    except Exception:  # an old sheet that no longer reads: say nothing rather than fail
        return []
    out = []
    for option in OPTION_BY_NAME.values():
        if getattr(old, option.name) != getattr(new, option.name):
            out.append({"label": option.label, "old": old.describe(option.name), "new": new.describe(option.name)})
    if old.preset != new.preset:
        out.insert(0, {"label": "Preset", "old": str(old.preset), "new": str(new.preset)})
    return out


def history_entries(game: GameRecord, entries: list[dict[str, object]]) -> list[dict[str, object]]:
    """History entries as the pages show them: an amendment's ``changes`` option by option,
    a correction's ``lines``: each side whose score changed, with the lines that changed
    (:func:`~scorepad.rules.dispute.compare_deals`, scored under the game's sheet); a deal's
    ``record`` entry written part by part, ``entered``: which phone entered each side and the
    ending, and which confirmed each side, a line a part (:func:`~scorepad.paper.results.entered_words`,
    as the results PDF prints them)."""
    for entry in entries:
        if entry["action"] == "record" and entry.get("entered_by"):
            entry["entered"] = entered_words(reading.parts_entered(entry["entered_by"]), game.side_names)
        if entry["action"] == "amend":
            entry["changes"] = sheet_changes(entry["before"], entry["after"])
        elif entry["action"] == "edit" and entry["before"] and entry["after"]:
            number = entry["deal_number"] if isinstance(entry["deal_number"], int) else None  # a correction's
            now = game.deal(number) if number is not None else None
            try:
                before = checks.read_deal(game, entry["before"], number)
                as_now = now is not None and entry["after"] == now.deal.to_json(with_sheet=False)
                after = now.score if now is not None and as_now else checks.read_deal(  # scored already
                    game, entry["after"], number)
            except StorageError:  # a deal that no longer reads under the sheet: its totals say enough
                continue
            entry["lines"] = corrected_lines(before, after)
    return entries


class ExplainedLine(TypedDict):
    line: Line
    rule: Cited | None
    again: bool


class ExplainedSide(TypedDict):
    name: str
    total: int
    lines: list[ExplainedLine]


def explained_sides(verdict: Verdict, sheet: RuleSheet) -> list[ExplainedSide]:
    """Each side's lines, each with the rule behind it as ``sheet`` cites it (its label and
    words), and ``again`` when an earlier line of the side rests on the same rule (stated
    once per table: the card values price every melded and every left card line)."""
    out: list[ExplainedSide] = []
    for side in verdict.breakdown.sides:
        seen: set[str] = set()
        lines: list[ExplainedLine] = []
        for line in side.lines:
            rule = sheet.cite(line.option)
            lines.append({"line": line, "rule": rule, "again": rule is not None and rule.option in seen})
            seen.add(line.option)
        out.append({"name": side.name, "total": side.total, "lines": lines})
    return out
