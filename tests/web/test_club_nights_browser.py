"""A club night run from a phone in a real Chromium (390 × 844, touch): the organiser creates
the event through the form (a refused roster comes back with the error beside the box and
the names kept), keeps the organiser link shown once, previews round 1's seats and starts it,
closes both tables from the "Start round 2" page and starts round 2; a viewer follows the
event page, and the wall board shows at 1920 × 1080, and refreshes itself. Every screen is checked by axe and for
touch targets, in the style of ``tests.web.test_e2e`` (:class:`~tests.web.test_e2e.Screens`)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser  # starts Chromium: -m "not browser" leaves it out

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from tests.web import test_e2e  # noqa: E402
from tests.web.test_e2e import Screens, open_phone  # noqa: E402

live_server, shots_dir, phone = test_e2e.live_server, test_e2e.shots_dir, test_e2e.phone  # browser: conftest.py

PLAYERS = ["Ann Smith #1042", "Ben Jones", "Cy Brown", "Di Patel", "Ed Moore", "Fay Long", "Gus Hill", "Hal Ray"]


def test_an_organiser_runs_two_rounds_from_a_phone_and_the_board_shows_the_standings(
        phone: tuple[Page, Screens], browser: Browser, live_server: str) -> None:
    page, screens = phone
    page.goto("/")
    page.get_by_role("link", name="Run a club night").click()
    expect(page.get_by_role("heading", name="Run a club night")).to_be_visible()
    screens.check("event-new")
    page.fill("#ev-name", "Tuesday club night")
    page.fill("#ev-club", "Riverside")
    page.fill("#ev-rounds", "3")
    page.fill("#ev-players", "\n".join([*PLAYERS, "Ben Jones"]))
    page.get_by_role("button", name="Create the club night").click()
    expect(page.locator("#ev-players-error")).to_contain_text("Line 9: 'Ben Jones' is in the event already")
    expect(page.locator("#ev-club")).to_have_value("Riverside")
    screens.check("event-new-refused")
    page.fill("#ev-players", "\n".join(PLAYERS))
    page.get_by_role("button", name="Create the club night").click()
    expect(page.get_by_role("heading", name="The organiser link: keep it")).to_be_visible()
    event_url = page.url
    screens.check("event-created")

    page.get_by_role("link", name="Start round 1").click()
    expect(page.get_by_role("heading", name="The seats of round 1")).to_be_visible()
    screens.check("event-round-1-seats")
    page.get_by_role("button", name="Start round 1").click()
    expect(page.get_by_role("heading", name="Round 1, being played")).to_be_visible()
    expect(page.get_by_role("heading", name="The organiser link: keep it")).to_have_count(0)  # shown once
    screens.check("event-round-1-playing")

    page.get_by_role("link", name="Start round 2").click()
    expect(page.get_by_role("heading", name="Round 1: 2 tables still playing")).to_be_visible()
    expect(page.get_by_role("button", name="Start round 2")).to_have_count(0)
    screens.check("event-round-2-waiting")
    page.get_by_role("button", name="Close table 1 as played").click()
    page.get_by_role("button", name="Close table 2 as played").click()
    page.get_by_role("button", name="Start round 2").click()
    expect(page.get_by_role("heading", name="Round 2, being played")).to_be_visible()
    screens.check("event-round-2-playing")
    screens.assert_clean()

    context, watching, watcher = open_phone(browser, live_server, screens.folder)
    try:
        watcher.count = screens.count
        watching.goto(event_url)
        expect(watching.get_by_role("heading", name="Standings")).to_be_visible()
        expect(watching.get_by_role("button", name="Close table 1 as played")).to_have_count(0)
        watcher.check("event-viewer")
        watcher.assert_clean()
    finally:
        context.close()

    wall = browser.new_context(base_url=live_server, viewport={"width": 1920, "height": 1080})
    try:
        board = wall.new_page()
        board_screens = Screens(board, screens.folder, live_server)
        board_screens.count = screens.count + 1
        board.clock.install()  # the board's 20 s timer, run on by the test
        board.goto(event_url + "/board")
        expect(board.get_by_text("Round 2")).to_have_count(2)  # the round being played, and its standings
        expect(board.get_by_text("Still playing: tables 1, 2")).to_be_visible()
        board_screens.check("event-board", full_page=False)
        board_screens.assert_clean()
        page.goto(event_url)  # the organiser closes table 1: the board shows it at its next refresh
        page.get_by_role("button", name="Close table 1 as played").click()
        expect(page.get_by_text("Table 1 of round 2 is closed as played.")).to_be_visible()
        board.clock.run_for(21_000)
        expect(board.get_by_text("Still playing: table 2")).to_be_visible()
    finally:
        wall.close()
