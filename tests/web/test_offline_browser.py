"""Never lose a deal, in a real browser (issue 12, section 1): a phone (Debian's Chromium at
390 x 844, Playwright) records a deal while the server (the production server, flask serve, on one
fixed port over one SQLite file: :class:`tests.helpers.Restartable`) goes away and comes
back, or answers a save whose answer never reaches the phone. Each ends with one deal and one
history entry. Also: a draft offered back after the browser is closed and opened again, the
offline page for a page the server cannot give, and the manifest and service worker.

Skipped only when ``/usr/bin/chromium`` is missing."""

from __future__ import annotations

import json
import sqlite3
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser  # starts Chromium: -m "not browser" leaves it out

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

from tests.helpers import ANN_BEA, Restartable  # noqa: E402
from tests.web.test_live import CHROMIUM_ARGS, in_own_thread  # noqa: E402

PHONE: dict[str, Any] = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
OFFLINE = "Not saved: offline, retrying"


@pytest.fixture
def server(tmp_path: Path):
    with Restartable(tmp_path / "scorepad.sqlite", "offline-test") as running:
        yield running


def new_game(server: Restartable) -> dict[str, Any]:
    request = urllib.request.Request(f"{server.base}/api/v1/games", json.dumps(
        {"name": "Offline", "sheet": "common", "sides": ANN_BEA}).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def deals_and_history(server: Restartable, game_id: str) -> tuple[int, int]:
    conn = sqlite3.connect(server.database)
    try:
        return (conn.execute("SELECT COUNT(*) FROM deal WHERE game_id = ?", (game_id,)).fetchone()[0],
                conn.execute("SELECT COUNT(*) FROM history WHERE game_id = ?", (game_id,)).fetchone()[0])
    finally:
        conn.close()


def open_form(page: Page, game: dict[str, Any]) -> None:
    """The edit link, then Record deal 1, with deal.js at work."""
    page.goto(game["edit_url"])
    page.get_by_role("link", name="Record deal 1").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Record deal 1")
    page.wait_for_load_state("load")
    expect(page.locator("#bar-score")).to_have_text("Ann 0 · Bea 0")  # the first preview came back


def type_deal(page: Page, ann: str = "120") -> None:
    """The stock ran out; Ann melded ``ann`` points, Bea 60."""
    page.get_by_role("radio", name="Nobody: the stock ran out").check()
    page.get_by_label("Melded card points").first.fill(ann)
    page.get_by_label("Melded card points").nth(1).fill("60")


def draft_of(page: Page, game_id: str) -> Any:
    return page.evaluate(f"JSON.parse(localStorage.getItem('scorepad-draft:{game_id}:1'))")


def saved(page: Page) -> None:
    expect(page.get_by_role("status").filter(has_text="Deal 1 saved.")).to_be_visible(timeout=40_000)
    expect(page.locator("tr#deal-1")).to_be_visible()


def test_a_deal_saved_while_the_server_is_down_is_saved_once_when_it_is_back(server: Restartable):
    game = new_game(server)

    def run() -> None:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                page = browser.new_context(**PHONE).new_page()
                open_form(page, game)
                type_deal(page)
                expect(page.locator("#bar-score")).to_have_text("Ann 120 · Bea 60")
                server.stop()  # mid-entry
                page.get_by_label("Melded card points").first.fill("125")
                status = page.locator("#save-status")
                expect(status).to_have_text("Score not up to date: the server cannot be reached.")
                expect(page.locator("#bar")).to_have_class("bar stale")
                page.get_by_role("button", name="Save deal 1").click()
                expect(status).to_have_text(OFFLINE)
                expect(status).to_be_visible()
                assert status.get_attribute("role") == "status"  # read out as it changes
                kept = draft_of(page, game["id"])
                assert ["s0-points", "125"] in kept["fields"] and len(kept["key"]) == 36
                page.wait_for_timeout(2500)  # a retry or two while the server is away
                expect(status).to_have_text(OFFLINE)
                assert deals_and_history(server, game["id"]) == (0, 0)
                server.start()
                saved(page)
                expect(page.locator("tr#deal-1 td .pts")).to_have_text(["125", "60"])
                assert draft_of(page, game["id"]) is None  # saved: the draft is gone
            finally:
                browser.close()

    in_own_thread(run)
    assert deals_and_history(server, game["id"]) == (1, 1)


def test_a_save_whose_answer_was_lost_is_sent_again_and_ends_on_the_saved_deal(server: Restartable):
    game = new_game(server)
    cut: list[int] = []

    def run() -> None:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                # page.route sees only what no service worker answers: the worker stays out of it here.
                page = browser.new_context(service_workers="block", **PHONE).new_page()

                def lose_the_answer(route: Any) -> None:
                    if route.request.method == "POST" and not cut:
                        answer = route.fetch(max_redirects=0)  # the server saves the deal...
                        cut.append(answer.status)
                        route.abort("connectionreset")  # ...and its answer never reaches the phone
                    else:
                        route.continue_()

                page.route(f"**/games/{game['id']}/deals/new", lose_the_answer)
                open_form(page, game)
                type_deal(page)
                page.get_by_role("button", name="Save deal 1").click()
                saved(page)  # the same draft again, answered from its key: not "the game changed"
                assert cut == [303]
                expect(page.locator("main")).not_to_contain_text("changed since you loaded it")
                expect(page.locator("tr#deal-1 td .pts")).to_have_text(["120", "60"])
                assert draft_of(page, game["id"]) is None
            finally:
                browser.close()

    in_own_thread(run)
    assert deals_and_history(server, game["id"]) == (1, 1)


def test_a_draft_is_offered_back_after_the_browser_is_closed_and_opened_again(server: Restartable,
                                                                             tmp_path: Path):
    game = new_game(server)
    profile = tmp_path / "phone-profile"

    def run() -> None:
        with sync_playwright() as pw:
            def phone() -> Any:
                return pw.chromium.launch_persistent_context(
                    str(profile), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, **PHONE)

            first = phone()
            page = first.new_page()
            open_form(page, game)
            type_deal(page, ann="135")
            expect(page.locator("#bar-score")).to_have_text("Ann 135 · Bea 60")
            key = draft_of(page, game["id"])["key"]
            first.close()  # the browser is closed, the deal not saved

            again = phone()
            try:
                page = again.new_page()
                open_form(page, game)  # the edit link again: the session cookie went with the browser
                offer = page.get_by_role("alert").filter(has_text="A deal you typed was not saved")
                expect(offer).to_be_visible()
                expect(page.get_by_label("Melded card points").first).to_have_value("")
                offer.get_by_role("button", name="Restore it").click()
                expect(offer).to_have_count(0)
                expect(page.get_by_label("Melded card points").first).to_have_value("135")
                expect(page.get_by_role("radio", name="Nobody: the stock ran out")).to_be_checked()
                expect(page.locator("#bar-score")).to_have_text("Ann 135 · Bea 60")
                assert draft_of(page, game["id"])["key"] == key  # the same draft, the same key
                page.get_by_role("button", name="Save deal 1").click()
                saved(page)
                assert draft_of(page, game["id"]) is None
            finally:
                again.close()

    in_own_thread(run)
    assert deals_and_history(server, game["id"]) == (1, 1)


def test_a_discarded_draft_is_gone(server: Restartable):
    game = new_game(server)

    def run() -> None:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                page = browser.new_context(**PHONE).new_page()
                open_form(page, game)
                type_deal(page)
                page.reload()
                offer = page.get_by_role("alert").filter(has_text="A deal you typed was not saved")
                offer.get_by_role("button", name="Discard").click()
                assert draft_of(page, game["id"]) is None
                page.reload()
                page.wait_for_load_state("load")
                expect(page.locator("#bar-score")).to_have_text("Ann 0 · Bea 0")
                expect(page.get_by_role("alert")).to_have_count(0)
            finally:
                browser.close()

    in_own_thread(run)


def test_the_app_installs_and_a_visited_page_shows_the_offline_page_without_the_server(server: Restartable):
    game = new_game(server)

    def run() -> None:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                page = browser.new_context(**PHONE).new_page()
                page.goto(game["view_url"])
                manifest = page.locator('link[rel="manifest"]')
                expect(manifest).to_have_attribute("href", "/manifest.webmanifest")
                assert page.evaluate("fetch('/manifest.webmanifest').then((r) => r.json())")["display"] == "standalone"
                worker = page.evaluate("navigator.serviceWorker.ready.then((r) => [r.active.scriptURL, r.scope])")
                assert worker == [f"{server.base}/sw.js", f"{server.base}/"]
                page.reload()  # now under the worker
                assert page.evaluate("navigator.serviceWorker.controller !== null")
                server.stop()
                page.reload()
                expect(page.get_by_role("heading", level=1)).to_have_text("No connection")
                expect(page.locator("main")).to_contain_text("A deal you were typing is kept on this phone")
                assert page.url == game["view_url"]  # the page asked for, answered by the worker
                server.start()
                page.get_by_role("link", name="Try again").click()
                expect(page.get_by_role("heading", level=1)).to_have_text("Offline")  # the game's name
            finally:
                browser.close()

    in_own_thread(run)
