"""The view link follows the game by itself: ``static/live.js`` polls the game's revision
and swaps in the new score when another phone changes the game.

A real browser (Debian's chromium, driven by Playwright, as in ``test_e2e.py``) watches a
game served by the production server on a loopback port while deals are recorded and corrected through
the API. Skipped only when ``/usr/bin/chromium`` is missing.
"""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser  # starts Chromium: -m "not browser" leaves it out

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from tests.helpers import served  # noqa: E402
from tests.storage.test_two_phones import TWO, deal_body  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def live_server(tmp_path) -> Iterator[str]:
    with served(tmp_path / "live.sqlite", "live-test") as base:
        yield base


def api(url: str, method: str, body: Any = None, key: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(urllib.request.Request(url, data, headers, method=method), timeout=10) as response:
        return json.loads(response.read())


def in_own_thread(run) -> None:
    """Run ``run`` in a thread of its own: Playwright's sync API refuses a thread where another
    Playwright (``test_e2e.py``'s session browser) already runs its event loop."""
    failed: list[BaseException] = []

    def target() -> None:
        try:
            run()
        except BaseException as err:  # noqa: BLE001  (raised again below, in the test's thread)
            failed.append(err)

    thread = threading.Thread(target=target, name="live-browser")
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive(), "the browser test did not finish in 120 s"
    if failed:
        raise failed[0]


def test_the_view_link_updates_by_itself_when_another_phone_changes_the_game(live_server):
    in_own_thread(lambda: watch_a_game(live_server))


def watch_a_game(live_server: str) -> None:
    game = api(f"{live_server}/api/v1/games", "POST", {"name": "Live", "sheet": "common", "sides": TWO})
    deals = f"{live_server}/api/v1/games/{game['id']}/deals"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda err: errors.append(str(err)))
            page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
            page.goto(game["view_url"])
            expect(page.locator("#live-game")).to_contain_text("No deal recorded yet.")
            expect(page.locator("#live-game")).to_have_attribute("data-revision", "0")

            api(deals, "POST", {**deal_body(0, went_out=True), "revision": 0}, game["edit_key"])  # another phone
            score = page.locator("#deal-1")
            expect(score).to_contain_text("1,060", timeout=15_000)  # without a reload
            expect(page.locator("#live-game")).to_have_attribute("data-revision", "1")
            expect(page.locator("p.standings")).to_have_text("Ann ahead by 1,030: 1,060 to 30")  # the top line too
            expect(page.locator("#live-status")).to_have_text("The score was updated.")
            assert page.evaluate("performance.getEntriesByType('navigation').length") == 1  # never reloaded

            api(f"{deals}/1", "PUT", {**deal_body(0), "revision": 1}, game["edit_key"])  # a correction
            expect(score).not_to_contain_text("1,060", timeout=15_000)
            expect(score).to_contain_text("30")
            expect(page.locator("#live-game")).to_have_attribute("data-revision", "2")
            expect(page.locator("p.standings")).to_have_text("Tied at 30: Ann and Bea")
            assert not errors, errors
        finally:
            browser.close()


def test_a_watched_game_deleted_by_its_editor_says_so_on_the_watchers_page(live_server):
    in_own_thread(lambda: watch_a_game_deleted(live_server))


def watch_a_game_deleted(live_server: str) -> None:
    game = api(f"{live_server}/api/v1/games", "POST", {"name": "Live", "sheet": "common", "sides": TWO})
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(game["view_url"])
            expect(page.locator("#live-game")).to_have_attribute("data-revision", "0")
            api(f"{live_server}/api/v1/games/{game['id']}", "DELETE", key=game["edit_key"])  # the editor's phone
            expect(page.locator("h1")).to_have_text("This game was deleted", timeout=15_000)  # reloaded by itself
            expect(page.locator("main")).to_contain_text("This game was deleted by its editor on")
        finally:
            browser.close()
