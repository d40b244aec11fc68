"""The sheet editor in a real Chromium at phone size (390 × 844, touch): the error summary
takes the focus at the top of the page, its links lead to the boxes, curly quotes are names'
own, and choosing a preset loads its values into the new controls without a round trip; the
referee's desk and the rescore page take another sheet from the same editor.
Every screen is checked by axe and for touch targets (``tests.web.test_e2e.Screens``)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser  # starts Chromium: -m "not browser" leaves it out

from playwright.sync_api import Page, expect  # noqa: E402

from tests.web import test_e2e  # noqa: E402
from tests.web.test_e2e import Screens  # noqa: E402

# The end-to-end tests' fixtures: the served app, Chromium, a phone's page and its checker.
live_server, shots_dir, phone = test_e2e.live_server, test_e2e.shots_dir, test_e2e.phone  # browser: conftest.py


def summary_has_focus_at_the_top(page: Page) -> None:
    expect(page.locator("#error-summary")).to_be_focused()
    box = page.locator("#error-summary").bounding_box()
    assert box is not None and 0 <= box["y"] < 844 / 2, box  # on screen, in its upper half
    assert page.evaluate("window.scrollY") < 300


def test_a_curly_quoted_name_and_a_bad_box_give_a_focused_summary_at_the_top(phone: tuple[Page, Screens]) -> None:
    page, screens = phone
    page.goto("/new")
    page.wait_for_load_state("load")
    page.get_by_label("Player 1").first.fill("“Doc” Ann")
    side2 = page.get_by_role("group", name="Side 2", exact=True)
    side2.get_by_label("Player 1", exact=True).fill("“Doc” Ann")  # the same name twice: refused
    page.get_by_role("button", name="Start the game").tap()

    expect(page.locator("#error-summary")).to_contain_text("Side 2: two sides are called '“Doc” Ann'")
    summary_has_focus_at_the_top(page)
    screens.check("summary-for-a-name", full_page=False)
    expect(page.locator("#side-0-p0")).to_have_value("“Doc” Ann")  # kept as typed

    # A negative minimum for deal 2: the summary names the box, and its link leads there.
    side2.get_by_label("Player 1", exact=True).fill("Bea’s mum")
    page.locator("#group-opening summary").tap()
    page.locator("#opt-opening_minimums-2").fill("-5")
    page.get_by_role("button", name="Start the game").tap()
    link = page.locator("#error-summary a")
    expect(link).to_have_text("Minimum by deal (deal 2): must be from 0 to 10000, not -5")
    summary_has_focus_at_the_top(page)
    screens.check("summary-for-a-box", full_page=False)
    link.tap()
    expect(page.locator("#opt-opening_minimums-2")).to_be_focused()
    expect(page.locator("#opt-opening_minimums-2")).to_have_value("-5")
    expect(page.locator("#side-1-p0")).to_have_value("Bea’s mum")
    screens.check("the-box-in-error", full_page=False)

    page.locator("#opt-opening_minimums-2").fill("")  # blank: as deal 1
    page.get_by_role("button", name="Start the game").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("“Doc” Ann v Bea’s mum")
    screens.assert_clean()


def test_choosing_a_preset_loads_its_values_into_every_control(phone: tuple[Page, Screens]) -> None:
    page, screens = phone
    page.goto("/new")
    page.wait_for_load_state("load")  # sheet.js (deferred) listens for the preset choice
    page.get_by_label("Rules to start from").select_option("pagat")
    expect(page.locator("#preset-value")).to_have_value("pagat")
    expect(page.locator("#opt-hand_size")).to_have_value("13")
    expect(page.locator("#opt-books_to_go_out-1-clean")).to_have_value("2")
    expect(page.locator("#opt-books_to_go_out-1-wild")).to_have_value("1")
    expect(page.locator("#opt-side_sizes-1")).not_to_be_checked()
    expect(page.locator("#opt-side_sizes-2")).to_be_checked()
    expect(page.locator(".opt.changed")).to_have_count(0)
    for group in page.locator("details.group").all():  # each group opened by a tap on its summary
        if not group.evaluate("details => details.open"):
            group.locator("summary").tap()
        expect(group).to_have_attribute("open", "")  # (a loaded machine: wait for it, never tap twice)
    page.locator("#opt-going_out_bonus-2").fill("300")
    expect(page.locator("#opt-going_out_bonus-box")).to_have_class("opt changed")
    expect(page.locator("#group-books [data-count]")).to_have_text("1 changed")
    screens.check("every-option-open")
    page.locator("#opt-going_out_bonus-2").fill("")
    expect(page.locator("#opt-going_out_bonus-box")).to_have_class("opt")
    screens.assert_clean()


def test_more_deals_bring_a_box_for_each_new_deal(phone: tuple[Page, Screens], live_server: str) -> None:
    page, screens = phone
    page.goto("/new")
    page.wait_for_load_state("load")
    page.locator("#side-0-p0").fill("Ann")
    page.locator("#side-1-p0").fill("Bea")
    for summary in page.locator("details.group summary").all():
        summary.tap()
    page.locator("#opt-deals").fill("6")
    page.locator("#opt-deals").blur()
    for option in ("draws_per_turn", "going_out_bonus", "opening_minimums", "pile_cards"):
        expect(page.locator(f"#opt-{option}-6")).to_have_accessible_name("Deal 6")
        expect(page.locator(f"#opt-{option}-7")).to_have_count(0)
    expect(page.locator("#opt-books_to_go_out-6-wild")).to_have_accessible_name("Deal 6 Wild")
    expect(page.locator("#opt-books_to_go_out-6-wild")).to_have_attribute("placeholder", "same")
    page.locator("#opt-opening_minimums-6").fill("200")
    expect(page.locator("#opt-opening_minimums-box")).to_have_class("opt changed")
    screens.check("six-deals")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ann v Bea")
    game_id = page.url.rstrip("/").rsplit("/", 1)[1]
    sheet = page.request.get(f"{live_server}/api/v1/games/{game_id}").json()["sheet"]
    assert sheet["deals"] == 6 and sheet["opening_minimums"] == [50, 90, 120, 150, 150, 200]
    assert "books_to_go_out" not in sheet  # its new blank deals left it one requirement for every deal
    screens.assert_clean()


def test_the_rescore_page_and_the_desk_take_another_sheet_from_the_editor(phone: tuple[Page, Screens],
                                                                           live_server: str) -> None:
    """The club game (gather-together, tests/data) rescored under its own sheet with a clean
    book worth 300 (chosen with scripts on: the preset loads without a round trip): its two
    clean books, one a side, each lose 200, 1,200 -> 1,000 and 1,215 -> 1,015. A box left
    blank heads the page with a focused summary. Then the desk: Pagat's wild ratio eased to
    "more", so 9 9 9 2 2 (3 naturals, 2 wilds) is a legal meld."""
    page, screens = phone
    game_id = test_e2e.club_game(page, live_server).split("/games/")[1].split("/")[0]
    page.goto(f"/games/{game_id}/rescore")
    page.wait_for_load_state("load")
    expect(page.locator("#preset-chooser [data-load]")).to_be_hidden()  # scripts load a preset at once
    page.get_by_label("Rules to start from").select_option("gather-together")
    expect(page.locator("#preset-value")).to_have_value("gather-together")
    page.locator("summary", has_text="Change any option of the sheet").tap()
    page.locator("#group-books summary").tap()
    page.locator("#opt-clean_book_bonus").fill("")
    page.get_by_role("button", name="Rescore", exact=True).tap()
    expect(page.locator("#error-summary a")).to_have_text("Clean book: needs a number")
    summary_has_focus_at_the_top(page)
    screens.check("rescore-a-blank-box", full_page=False)
    page.locator("#error-summary a").tap()
    expect(page.locator("#opt-clean_book_bonus")).to_be_focused()
    page.locator("#opt-clean_book_bonus").fill("300")
    page.get_by_role("button", name="Rescore", exact=True).tap()
    for side, cells in (("North-South", ["1,200", "1,000", "-200"]), ("East-West", ["1,215", "1,015", "-200"])):
        expect(page.locator("table.totals-diff tr").filter(has_text=side).locator("td")).to_have_text(cells)
    expect(page.locator("summary", has_text="Change any option of the sheet")).to_contain_text("(1 changed)")
    screens.check("rescore-edited")

    page.goto("/referee")
    page.wait_for_load_state("load")
    page.get_by_label("Rules to start from").select_option("pagat")
    page.locator("summary", has_text="Change any option of the sheet").tap()
    page.locator("#group-melds summary").tap()
    page.locator("#opt-wild_ratio").select_option("more")
    page.get_by_role("button", name="Use these rules").tap()
    expect(page.locator("p.now")).to_have_text("Now answering under: Pagat, four-player partnerships (changed).")
    meld = page.get_by_role("region", name="Is this meld legal?", exact=True)
    meld.get_by_label("The meld, or the cards you add", exact=True).fill("9 9 9 2 2")
    meld.get_by_role("button", name="Ask the referee").tap()
    expect(page.locator("#meld-answer .verdict")).to_have_text("YES: this meld is legal.")
    screens.check("desk-edited")
    screens.assert_clean()
