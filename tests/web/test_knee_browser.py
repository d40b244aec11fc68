"""The deal form's knee in a real Chromium at phone size: the unopened knee's box shows only once
"Picked up the knee" is unticked (as the foot's does with "Picked up the foot"), and a deal typed
so is saved with the knee. Every screen is checked by axe and for touch targets
(``tests.web.test_e2e.Screens``)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser  # starts Chromium: -m "not browser" leaves it out

from playwright.sync_api import Page, expect  # noqa: E402

from tests.web import test_e2e  # noqa: E402
from tests.web.test_e2e import Screens  # noqa: E402

# The end-to-end tests' fixtures: the served app, Chromium, a phone's page and its checker.
live_server, shots_dir, phone = test_e2e.live_server, test_e2e.shots_dir, test_e2e.phone  # browser: conftest.py

KNEE = {"preset": "common", "hand_size": 15, "knee_size": 13}


def test_the_unopened_knee_shows_once_the_knee_is_not_picked_up(phone: tuple[Page, Screens]) -> None:
    page, screens = phone
    made = page.request.post("/api/v1/games", data={"name": "Knees", "sheet": KNEE, "sides": [
        {"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]})
    assert made.status == 201, made.text()
    game = made.json()
    page.goto(f"/games/{game['id']}/edit/{game['edit_key']}")
    page.goto(f"/games/{game['id']}/deals/new")
    page.wait_for_load_state("load")
    bea = page.locator("#s1-p0")
    knee, foot = bea.locator("p.knee"), bea.locator("p.foot:not(.knee)")
    expect(knee).to_be_hidden()
    expect(foot).to_be_hidden()
    bea.get_by_label("Picked up the knee").uncheck()
    expect(knee).to_be_visible()
    expect(foot).to_be_hidden()
    bea.get_by_label("Picked up the foot").uncheck()
    expect(foot).to_be_visible()
    screens.check("the-knee-and-the-foot-unopened", full_page=False)
    knee.get_by_role("textbox").fill("K K Q Q J J 9 9 6 6 4 4 8")
    foot.get_by_role("textbox").fill("A A 10 10 10 8 8 7 6 5 JK")
    page.get_by_label("Nobody: the stock ran out").check()
    page.get_by_role("button", name="Save deal 1").first.tap()
    expect(page.get_by_role("heading", level=1)).to_have_text("Knees")  # saved: the game's page
    saved = page.request.get(f"/api/v1/games/{game['id']}/deals/1").json()["deal"]
    player = saved["sides"][1]["players"][0]
    assert player["knee_picked_up"] is False and sum(player["knee"].values()) == 13
    screens.assert_clean()
