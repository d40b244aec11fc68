"""The desk's card pad in a real Chromium at phone size (390 × 844, touch): a tap on a card
adds one to the meld's box, − takes one away, each button shows the count the box holds
(typing too), and the meld tapped is the one answered. Checked by axe and for touch targets
in light and dark (``tests.web.test_e2e.Screens``)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser  # starts Chromium: -m "not browser" leaves it out

from playwright.sync_api import Page, expect  # noqa: E402

from tests.web import test_e2e  # noqa: E402
from tests.web.test_e2e import Screens  # noqa: E402

live_server, shots_dir, phone = test_e2e.live_server, test_e2e.shots_dir, test_e2e.phone  # browser: conftest.py


def tap(page: Page, code: str, times: int = 1, less: bool = False) -> None:
    button = page.locator(f"#meld .card-{'less' if less else 'add'}[data-card='{code}']")
    for _ in range(times):
        button.tap()


def test_tapping_cards_fills_the_meld_box_and_typing_updates_the_counts(phone: tuple[Page, Screens]) -> None:
    page, screens = phone
    page.goto("/referee?sheet=common")
    box = page.locator("#meld-meld")
    expect(page.locator("[data-card-pad='meld-meld']")).to_be_visible()
    expect(page.locator("#meld .card-less[data-card='K']")).to_be_disabled()  # none to take away yet
    tap(page, "K", 3)
    tap(page, "2")
    expect(box).to_have_value("K K K 2")
    expect(page.locator("#meld .card-add[data-card='K'] [data-count]")).to_have_text("×3")
    tap(page, "K", less=True)
    expect(box).to_have_value("K K 2")
    box.fill("q q q jk")
    expect(page.locator("#meld .card-add[data-card='Q'] [data-count]")).to_have_text("×3")
    expect(page.locator("#meld .card-add[data-card='K'] [data-count]")).to_have_text("")
    tap(page, "Q")
    expect(box).to_have_value("Q Q Q Q JK")
    page.locator("#meld-title").scroll_into_view_if_needed()
    screens.check("desk-card-pad", full_page=False)
    page.locator("#meld button[type=submit]").tap()
    expect(page.locator("#meld-answer")).to_contain_text("YES")
    expect(page.locator("#meld-meld")).to_have_value("Q Q Q Q JK")
    expect(page.locator("#meld .card-add[data-card='Q'] [data-count]")).to_have_text("×4")
    page.emulate_media(color_scheme="dark")
    page.evaluate("document.getElementById('meld-title').scrollIntoView()")
    screens.check("desk-card-pad-dark", full_page=False)
    screens.assert_clean()


def test_a_go_out_answer_on_a_phone_lists_every_condition_of_the_sheet(phone: tuple[Page, Screens]) -> None:
    page, screens = phone
    page.goto("/referee?sheet=pagat")
    for kind, n in (("clean", "2"), ("dirty", "2"), ("wild", "1")):
        page.locator(f"#go-out-books-{kind}").fill(n)
    page.locator("#go-out-partners-picked-up").select_option("yes")
    page.locator("#go-out button[type=submit]").tap()
    answer = page.locator("#go-out-answer")
    expect(answer).to_contain_text("NO")
    expect(answer).to_contain_text("not said yet: whether they have played from it")
    expect(answer).to_contain_text("Ask your partner")
    page.evaluate("document.getElementById('go-out-answer').scrollIntoView()")
    screens.check("desk-go-out", full_page=False)
    page.emulate_media(color_scheme="dark")
    screens.check("desk-go-out-dark", full_page=False)
    screens.assert_clean()
