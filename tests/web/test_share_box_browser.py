"""The game page's share box in a real Chromium at phone size (390 × 844, touch), for the
owner (the edit link's phone) and for a watcher: near the top, the view link and its QR code
in view on opening; the owner's edit link a tap away, the watcher's never there. Checked by
axe and for touch targets in light and dark (``tests.web.test_e2e.Screens``)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser  # starts Chromium: -m "not browser" leaves it out

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from tests.helpers import ANN_BEA  # noqa: E402
from tests.web import test_e2e  # noqa: E402
from tests.web.test_e2e import Screens, open_phone  # noqa: E402

live_server, shots_dir, phone = test_e2e.live_server, test_e2e.shots_dir, test_e2e.phone  # browser: conftest.py


def test_owner_and_watcher_see_the_share_box_at_the_top_the_watcher_without_the_edit_link(
        phone: tuple[Page, Screens], browser: Browser, live_server: str, request: pytest.FixtureRequest) -> None:
    page, screens = phone
    made = page.request.post("/api/v1/games", data={"name": "Friday", "sheet": "common", "sides": ANN_BEA})
    assert made.status == 201
    body = made.json()
    game, key = body["id"], body["edit_key"]
    page.goto(f"/games/{game}/edit/{key}")
    qr = page.locator("#share img[alt='QR code: the view link']")
    expect(qr).to_be_in_viewport()  # the view link's QR code shows without scrolling
    page.wait_for_load_state("load")
    assert qr.evaluate("img => img.complete && img.naturalWidth > 0")  # the image loaded, and drew
    box = qr.bounding_box()
    assert box is not None and box["width"] == box["height"] >= 150  # square, big enough to scan
    expect(page.locator("#edit-link")).to_be_visible()
    screens.check("game-share-owner", full_page=False)
    page.emulate_media(color_scheme="dark")
    screens.check("game-share-owner-dark", full_page=False)
    screens.assert_clean()

    folder = screens.folder
    context, watching, watcher = open_phone(browser, live_server, folder)
    try:
        watcher.count = screens.count
        watching.goto(f"/games/{game}")
        expect(watching.locator("#share img[alt='QR code: the view link']")).to_be_in_viewport()
        expect(watching.locator("#share .url a")).to_have_text(f"{live_server}/games/{game}")
        expect(watching.locator("#edit-link")).to_have_count(0)
        assert key not in watching.content()
        watcher.check("game-share-watcher", full_page=False)
        watching.emulate_media(color_scheme="dark")
        watcher.check("game-share-watcher-dark", full_page=False)
        watcher.assert_clean()
    finally:
        context.close()
