"""The sheet editor's "Now:" hints in a real Chromium at phone size (390 × 844, touch): they
follow what is typed, without sending the page; and the "Is this right?" question for a
value far from every published sheet, asked once. Checked by axe and for touch targets in
light and dark (``tests.web.test_e2e.Screens``)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser  # starts Chromium: -m "not browser" leaves it out

from playwright.sync_api import Page, expect  # noqa: E402

from scorepad.rules import PRESETS  # noqa: E402
from tests.web import test_e2e  # noqa: E402
from tests.web.test_e2e import Screens  # noqa: E402

live_server, shots_dir, phone = test_e2e.live_server, test_e2e.shots_dir, test_e2e.phone  # browser: conftest.py


def open_group(page: Page, group: str) -> None:
    details = page.locator(f"#group-{group}")
    if details.get_attribute("open") is None:
        details.locator("summary").tap()


def test_the_now_hint_follows_what_is_typed(phone: tuple[Page, Screens]) -> None:
    page, screens = phone
    page.goto("/new?preset=common")
    common = PRESETS["common"].sheet
    hint = page.locator("#opt-hand_size-box [data-words]")
    open_group(page, "table")
    expect(hint).to_have_text(f"Now: {common.describe('hand_size')}.")
    page.locator("#opt-hand_size").fill("13")
    expect(hint).to_have_text(f"Now: {common.replace(hand_size=13).describe('hand_size')}.")
    page.locator("#opt-hand_size").fill("")
    expect(hint).to_be_hidden()  # a box that cannot be read has no hint
    page.locator("#opt-hand_size").fill("12")
    expect(hint).to_have_text(f"Now: {common.replace(hand_size=12).describe('hand_size')}.")
    page.evaluate("document.getElementById('opt-hand_size-box').scrollIntoView()")
    screens.check("sheet-editor-now", full_page=False)
    page.emulate_media(color_scheme="dark")
    screens.check("sheet-editor-now-dark", full_page=False)
    screens.assert_clean()


def test_a_red_three_worth_99999_asks_once_on_the_page(phone: tuple[Page, Screens]) -> None:
    page, screens = phone
    page.goto("/new?preset=common")
    page.locator("#side-0-p0").fill("Ann")
    page.locator("#side-1-p0").fill("Bea")
    open_group(page, "threes")
    page.locator("#opt-red_three_bonus").fill("99999")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#error-summary")).to_contain_text("Is this right?")
    screens.check("sheet-editor-is-this-right", full_page=False)
    page.evaluate("document.getElementById('sheet-confirm').scrollIntoView()")
    page.emulate_media(color_scheme="dark")
    screens.check("sheet-editor-is-this-right-dark", full_page=False)
    page.locator("#confirm-unusual").check()
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("h1")).not_to_have_text("New game")
    screens.assert_clean()
