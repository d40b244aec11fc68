"""The smaller things players noticed (issue 12, section 5) that only a script shows, in a real
Chromium at phone size: history times in the phone's own time zone, and the deal form's one
"More meld rows" showing the rows the script kept back before it asks the server for more.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

pytestmark = pytest.mark.browser  # starts Chromium: -m "not browser" leaves it out

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("browser tests need Debian's chromium at /usr/bin/chromium", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from tests.helpers import served, valid_deal  # noqa: E402

PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "noticed"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("noticed") / "scorepad.sqlite", "noticed-secret") as base:
        yield base




def game(page: Page, server: str, deals: int = 0) -> dict:
    """A game of Ann v Bea made through the API, with ``deals`` deals and deal 1 corrected once."""
    made = page.request.post(f"{server}/api/v1/games", data={"name": "Noticed", "sheet": "common", "sides": [
        {"name": "Ann", "players": ["Ann"]}, {"name": "Bea", "players": ["Bea"]}]})
    assert made.status == 201, made.text()
    body = made.json()
    auth = {"Authorization": f"Bearer {body['edit_key']}", "Content-Type": "application/json"}
    for n in range(1, deals + 1):
        assert page.request.post(f"{server}/api/v1/games/{body['id']}/deals", data=json.dumps(valid_deal(n)),
                                 headers=auth).status == 201
    if deals:
        corrected = valid_deal(1)
        corrected["sides"][1]["melds"] = ["J J J J"]
        assert page.request.put(f"{server}/api/v1/games/{body['id']}/deals/1", data=json.dumps(corrected),
                                headers=auth).status == 200
    return body


@pytest.mark.parametrize("zone", ["Asia/Tokyo", "America/Los_Angeles"])
def test_history_times_show_in_the_phones_own_time_zone(browser: Browser, server: str, zone: str) -> None:
    context = browser.new_context(timezone_id=zone, locale="en-GB", **PHONE)
    try:
        page = context.new_page()
        body = game(page, server, deals=1)
        page.goto(f"{server}/games/{body['id']}/history")
        page.wait_for_load_state("load")
        times = page.locator("time[datetime]")
        expect(times).to_have_count(2)
        for i in range(2):
            at = times.nth(i).get_attribute("datetime")
            assert at is not None
            local = datetime.fromisoformat(at).astimezone(ZoneInfo(zone))
            expect(times.nth(i)).to_contain_text(f"{local.day} {local:%b} {local.year}")
            expect(times.nth(i)).to_contain_text(f"{local:%H:%M}")
            expect(times.nth(i)).not_to_contain_text("UTC")
            expect(times.nth(i)).to_have_attribute("title", at.replace("T", " ").replace("+00:00", " UTC"))
        expect(page.locator("ul.diff li").first).to_have_text("Bea: Melded jacks: 3 × 10 → 4 × 10 (+10)")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"history-{zone.replace('/', '-')}.png"), full_page=True)
    finally:
        context.close()


def test_more_meld_rows_is_the_one_way_to_more_rows_and_shows_the_hidden_ones_first(browser: Browser,
                                                                                     server: str) -> None:
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        body = game(page, server)
        page.goto(body["edit_url"])
        page.goto(f"{server}/games/{body['id']}/deals/new")
        ann = page.get_by_role("group", name="Ann", exact=True)
        ann.get_by_role("button", name="Itemise melds").tap()
        expect(ann.get_by_label("Meld 1 rank", exact=True)).to_be_visible()
        page.wait_for_load_state("load")
        expect(page.get_by_role("button", name="Add a meld")).to_have_count(0)
        more = page.get_by_role("button", name="More meld rows")
        expect(more).to_have_count(1)
        expect(ann.get_by_label("Meld 3 rank", exact=True)).to_be_hidden()  # two blank rows shown
        url = page.url
        more.tap()
        expect(ann.get_by_label("Meld 3 rank", exact=True)).to_be_visible()  # shown, without a round trip
        expect(ann.get_by_label("Meld 3 rank", exact=True)).to_be_focused()
        assert page.url == url
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "more-meld-rows.png"), full_page=True)
    finally:
        context.close()
