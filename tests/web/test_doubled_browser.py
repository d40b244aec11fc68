"""Two phones on one "Record deal 1" form, in a real browser (Debian's Chromium at 390 x 844,
Playwright, deal.js at work; waitress in this process over one SQLite file): the first saves;
the second's save is never moved to deal 2. It comes back with the deal as saved beside its
own, in the sticky bar and at the top, both in view, and "Replace it with mine" corrects deal
1, or "Keep the saved one" discards the draft.

Skipped only when ``/usr/bin/chromium`` is missing."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser  # starts Chromium: -m "not browser" leaves it out

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

from tests.helpers import Restartable  # noqa: E402
from tests.web.test_live import CHROMIUM_ARGS, in_own_thread  # noqa: E402
from tests.web.test_offline_browser import PHONE, draft_of, new_game, open_form, type_deal  # noqa: E402


@pytest.fixture
def server(tmp_path: Path):
    with Restartable(tmp_path / "scorepad.sqlite", "doubled-test") as running:
        yield running


def stored(server: Restartable, game_id: str) -> list[tuple[Any, ...]]:
    """Each deal's number and its history entries' actions; then the game's revision."""
    conn = sqlite3.connect(server.database)
    try:
        deals = [(n, tuple(a for (a,) in conn.execute(
                     "SELECT action FROM history WHERE game_id = ? AND deal_number = ? ORDER BY id", (game_id, n))))
                 for (n,) in conn.execute("SELECT number FROM deal WHERE game_id = ? ORDER BY number", (game_id,))]
        (revision,) = conn.execute("SELECT revision FROM game WHERE id = ?", (game_id,)).fetchone()
        return [*deals, revision]
    finally:
        conn.close()


def second_phone_saves_deal_1_after_the_first(server: Restartable, first: Page, second: Page,
                                              game: dict[str, Any]) -> None:
    """Both phones open Record deal 1 and type it (the second: Ann melded 125, not 120); the first
    saves; the second, scrolled down to its bar as after typing, taps "Save deal 1"."""
    for page in (first, second):
        open_form(page, game)
    type_deal(first)
    type_deal(second, ann="125")
    expect(second.locator("#bar-score")).to_have_text("Ann 125 · Bea 60")
    first.get_by_role("button", name="Save deal 1").click()
    expect(first.get_by_role("status").filter(has_text="Deal 1 saved.")).to_be_visible()
    second.mouse.wheel(0, 5000)  # at the foot of the form, where the last box was typed
    second.get_by_role("button", name="Save deal 1").click()
    expect(second.locator("#bar")).to_contain_text("Deal 1 is already saved")


def test_the_second_phones_save_shows_the_saved_deal_in_view_and_replace_corrects_it(server: Restartable):
    game = new_game(server)

    def run() -> None:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                first, second = (browser.new_context(**PHONE).new_page() for _ in range(2))
                second_phone_saves_deal_1_after_the_first(server, first, second, game)
                bar, top = second.locator("#bar"), second.locator("#recorded")
                expect(bar).to_be_in_viewport()
                expect(top).to_be_in_viewport()
                expect(second.get_by_role("alert").filter(has_text="Not saved: deal 1 was already saved")) \
                    .to_be_in_viewport()
                expect(bar).to_contain_text("Ann 120 · Bea 60. Yours: Ann 125 · Bea 60.")
                expect(top.locator("tbody tr").first).to_have_text("Ann120125")
                expect(second.get_by_role("heading", level=1)).to_have_text("Record deal 1")
                expect(second.get_by_role("button", name="Save deal 2")).to_have_count(0)
                assert second.locator("input[name=deal_number]").input_value() == "1"
                assert draft_of(second, game["id"]) is not None  # what was typed is still kept
                assert stored(server, game["id"]) == [(1, ("record",)), 1]
                bar.get_by_role("button", name="Replace it with mine").click()
                expect(second.get_by_role("status").filter(has_text="Deal 1 corrected.")).to_be_visible()
                expect(second.locator("tr#deal-1 td .pts")).to_have_text(["125", "60"])
                assert draft_of(second, game["id"]) is None
            finally:
                browser.close()

    in_own_thread(run)
    assert stored(server, game["id"]) == [(1, ("record", "edit")), 2]


def test_keep_the_saved_one_discards_the_second_phones_draft(server: Restartable):
    game = new_game(server)

    def run() -> None:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                first, second = (browser.new_context(**PHONE).new_page() for _ in range(2))
                second_phone_saves_deal_1_after_the_first(server, first, second, game)
                second.locator("#bar").get_by_role("link", name="Keep the saved one").click()
                expect(second.locator("tr#deal-1 td .pts")).to_have_text(["120", "60"])
                assert draft_of(second, game["id"]) is None
                second.get_by_role("link", name="Record deal 2").click()
                expect(second.get_by_role("heading", level=1)).to_have_text("Record deal 2")
                expect(second.locator(".draft")).to_have_count(0)  # no draft offered back
            finally:
                browser.close()

    in_own_thread(run)
    assert stored(server, game["id"]) == [(1, ("record",)), 1]


def test_a_save_queued_offline_is_still_deal_1_when_the_phone_is_back_after_another_saved_it(server: Restartable):
    """The second phone taps Save with no network; meanwhile the first saves deal 1. Back online,
    the queued draft is sent as what it was typed for, deal 1: the conflict, never deal 2."""
    game = new_game(server)

    def run() -> None:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                first = browser.new_context(**PHONE).new_page()
                away = browser.new_context(**PHONE)
                second = away.new_page()
                for page in (first, second):
                    open_form(page, game)
                type_deal(first)
                type_deal(second, ann="125")
                expect(second.locator("#bar-score")).to_have_text("Ann 125 · Bea 60")
                away.set_offline(True)
                second.get_by_role("button", name="Save deal 1").click()
                expect(second.locator("#save-status")).to_have_text("Not saved: offline, retrying")
                first.get_by_role("button", name="Save deal 1").click()
                expect(first.get_by_role("status").filter(has_text="Deal 1 saved.")).to_be_visible()
                away.set_offline(False)  # back: the queued draft goes at once
                expect(second.locator("#bar")).to_contain_text("Deal 1 is already saved", timeout=20_000)
                expect(second.locator("#bar")).to_be_in_viewport()
                expect(second.get_by_role("heading", level=1)).to_have_text("Record deal 1")
            finally:
                browser.close()

    in_own_thread(run)
    assert stored(server, game["id"]) == [(1, ("record",)), 1]
