"""The deal form's keyboard and live total in a real Chromium at phone size (issue 24): Enter (the
keyboard's Next) in a box goes to the next box shown in the order a side counts, never sending
the form, and the last box's key says "done" and goes to Save; the player who went out has no
points-left box; a box holding a negative or unreadable number makes its side's live total "?".
Every screen is checked by axe and for touch targets (``tests.web.test_e2e.Screens``)."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser  # starts Chromium: -m "not browser" leaves it out

from playwright.sync_api import Page, expect  # noqa: E402

from tests.web import test_e2e  # noqa: E402
from tests.web.test_e2e import Screens  # noqa: E402

# The end-to-end tests' fixtures: the served app, Chromium, a phone's page and its checker.
live_server, shots_dir, phone = test_e2e.live_server, test_e2e.shots_dir, test_e2e.phone  # browser: conftest.py


def deal_form(page: Page) -> str:
    """A common-preset game, Us (Ann, Cal) v Them (Bea, Dan), this phone holding its edit key,
    on its deal 1 form; returns the game's id."""
    made = page.request.post("/api/v1/games", data={"name": "Keys", "sheet": {"preset": "common"}, "sides": [
        {"name": "Us", "players": ["Ann", "Cal"]}, {"name": "Them", "players": ["Bea", "Dan"]}]})
    assert made.status == 201, made.text()
    game = made.json()
    page.goto(f"/games/{game['id']}/edit/{game['edit_key']}")
    page.goto(f"/games/{game['id']}/deals/new")
    page.wait_for_load_state("load")
    expect(page.locator("#bar-score")).not_to_have_text("Score after Check")  # the first preview came back
    return str(game["id"])


def focused(page: Page) -> str:
    """The focused box's name, or the focused button's words."""
    return str(page.evaluate("(e => e.tagName === 'BUTTON' ? e.textContent.trim() : e.name)(document.activeElement)"))


def test_next_goes_from_box_to_box_in_the_order_a_side_counts_and_done_goes_to_save(
        phone: tuple[Page, Screens]) -> None:
    page, screens = phone
    game_id = deal_form(page)
    page.get_by_role("radio", name="Ann", exact=True).tap()  # Ann went out: no box of hers
    expect(page.locator("#s0-p0 .pts")).to_be_hidden()
    page.locator("[name=s0-points]").tap()
    page.keyboard.type("415")
    order = []
    for _ in range(5):
        page.keyboard.press("Enter")
        order.append(focused(page))
    assert order == ["s0-p1-pts", "s1-points", "s1-p0-pts", "s1-p1-pts", "Save deal 1"]
    assert page.locator("[name=s0-points]").get_attribute("enterkeyhint") == "next"
    assert page.locator("[name=s1-p1-pts]").get_attribute("enterkeyhint") == "done"  # the last box shown
    assert page.url.endswith("/deals/new")  # Enter sent nothing
    screens.check("next-and-done", full_page=False)
    page.locator("#s1-p1").get_by_label("Picked up the foot").uncheck()  # Dan's unopened foot: the last box now
    assert page.locator("[name=s1-p1-pts]").get_attribute("enterkeyhint") == "next"
    assert page.locator("[name=s1-p1-foot]").get_attribute("enterkeyhint") == "done"
    page.get_by_role("radio", name="Cal", exact=True).tap()  # Cal went out instead: Ann's box is back
    expect(page.locator("#s0-p0 .pts")).to_be_visible()
    expect(page.locator("#s0-p1 .pts")).to_be_hidden()
    deals = page.request.get(f"/api/v1/games/{game_id}").json()["deals"]
    assert deals == []  # nothing saved by a key
    screens.assert_clean()


def test_a_negative_or_unreadable_box_makes_its_sides_live_total_a_question_mark(phone: tuple[Page, Screens]) -> None:
    page, screens = phone
    deal_form(page)
    score, live = page.locator("#bar-score"), page.locator("#live-now")
    page.locator("[name=s0-points]").fill("415")
    expect(score).to_have_text(re.compile(r"^Us 415 · Them 0$"))
    for refused in ("-35", "35x"):
        page.locator("[name=s1-points]").fill(refused)
        expect(score).to_have_text("Us 415 · Them ?")
        page.wait_for_timeout(900)  # the live score's answer (400 ms of quiet) does not count it either
        expect(score).to_have_text("Us 415 · Them ?")
    page.locator("[name=s1-points]").fill("-35")
    page.wait_for_timeout(900)
    expect(live).to_contain_text("Live score: Us 415 · Them ?")
    screens.check("a-refused-box", full_page=False)
    page.locator("[name=s1-points]").fill("35")
    expect(score).to_have_text("Us 415 · Them 35")
    screens.assert_clean()


def seg(page: Page, name: str, value: str) -> None:
    page.get_by_role("radiogroup", name=name, exact=True).get_by_text(value, exact=True).tap()


def test_a_count_tapped_goes_on_to_the_box_that_comes_next_while_it_is_empty(phone: tuple[Page, Screens]) -> None:
    page, screens = phone
    deal_form(page)
    page.get_by_role("radio", name="Ann", exact=True).tap()  # Ann went out: Cal's box is Us's first
    seg(page, "Us: clean books", "3")
    assert focused(page) != "s0-points"  # the dirty books come next
    seg(page, "Us: dirty books", "2")
    assert focused(page) == "s0-points"  # past the wild books, still unsaid
    page.keyboard.type("415")
    seg(page, "Us: red threes laid", "4")
    assert focused(page) == "s0-p1-pts"
    page.keyboard.type("45")
    seg(page, "Us: red threes laid", "3")  # a count changed: its box holds points already, the focus stays put
    assert focused(page) != "s0-p1-pts"
    seg(page, "Us: dirty books", "1")
    assert focused(page) != "s0-points"
    seg(page, "Them: red threes laid", "6+")  # the top segment: tapped again it opens its own box
    assert focused(page) != "s1-p0-pts"
    screens.check("onward", full_page=False)
    screens.assert_clean()
