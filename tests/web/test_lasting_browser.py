"""Rights and links that last, in a real browser (Debian's chromium, driven by Playwright):

* the session cookie has an expiry about 180 days out, so closing the browser (here: closing
  the context and opening a new one from its saved ``storage_state``, as a phone keeps its
  cookies) leaves the editor able to edit, home listing its games, edited and watched, and
  the edit link and its QR code on the game page;
* a game made in the browser on the serving machine (``http://127.0.0.1:PORT``) under
  ``flask serve --advertise 192.0.2.7`` shows links and QR codes at http://192.0.2.7:PORT/.

Skipped only when ``/usr/bin/chromium`` is missing."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser  # starts Chromium: -m "not browser" leaves it out

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402

from tests.cli.test_serve import ADVERTISED, Serve  # noqa: E402
from tests.helpers import ANN_BEA, served  # noqa: E402
from tests.web.test_live import CHROMIUM_ARGS, in_own_thread  # noqa: E402

PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
DAY = 24 * 3600
KEY = "[A-Za-z0-9_-]{22}"  # an edit key (reading.new_id)


def _api_game(base: str, name: str) -> dict[str, Any]:
    request = urllib.request.Request(f"{base}/api/v1/games", json.dumps(
        {"name": name, "sheet": "common", "sides": ANN_BEA}).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def _start_a_game(page: Page, base: str, name: str) -> None:
    page.goto(f"{base}/new")
    for i, player in enumerate(("Ann", "Bea"), start=1):
        page.get_by_role("group", name=f"Side {i}", exact=True).get_by_label("Player 1", exact=True).fill(player)
    page.get_by_label("Game name (optional)").fill(name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)


def _home_names(page: Page, base: str) -> list[str]:
    page.goto(f"{base}/")
    return page.locator(".game-name").all_inner_texts()


def test_edit_rights_and_your_games_outlast_the_browser(tmp_path):
    with served(tmp_path / "lasting.sqlite", "lasting-test") as base:
        in_own_thread(lambda: _close_and_reopen(base, tmp_path / "state.json"))


def _close_and_reopen(base: str, state: Path) -> None:
    watched = _api_game(base, "Watched")
    with sync_playwright() as pw:
        browser: Browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(**PHONE)
            page = context.new_page()
            _start_a_game(page, base, "Edited")
            game_url = page.url
            page.goto(watched["view_url"])  # the view link only
            expect(page.get_by_role("heading", level=1)).to_have_text("Watched")
            assert _home_names(page, base) == ["Watched", "Edited"]
            cookie, = [c for c in context.cookies() if c["name"] == "session"]
            assert 179 * DAY < cookie["expires"] - time.time() < 181 * DAY, cookie  # not a browser-session cookie
            context.storage_state(path=str(state))
            context.close()  # the browser is closed

            context = browser.new_context(**PHONE, storage_state=str(state))
            page = context.new_page()
            assert _home_names(page, base) == ["Watched", "Edited"]
            page.goto(game_url)
            expect(page.get_by_role("link", name="Record deal 1")).to_be_visible()  # still the editor
            assert page.goto(f"{game_url}/deals/new").status == 200
            page.goto(game_url)
            page.get_by_text("Show the edit link").click()  # the edit link, again, at any time
            share = page.locator(".link-box.edit")
            link = share.get_by_role("link", name=re.compile("^http"))  # the box also offers "Replace the edit link"
            expect(link).to_have_text(re.compile(rf"^{re.escape(game_url)}/edit/{KEY}$"))
            expect(share.get_by_role("img", name="QR code: the edit link")).to_be_visible()
            edit_url = link.inner_text()
            context.close()

            other = browser.new_page(**PHONE)  # another phone, given the edit link shown again
            other.goto(edit_url)
            expect(other.get_by_role("link", name="Record deal 1")).to_be_visible()
        finally:
            browser.close()


def test_a_game_made_on_the_serving_machine_shows_links_the_phones_can_open(tmp_path):
    with Serve(tmp_path / "scorepad.sqlite", "--host", "127.0.0.1", "--threads", "2",
               "--advertise", ADVERTISED) as server:
        in_own_thread(lambda: _made_on_loopback(server.local, f"http://{ADVERTISED}:{server.port}/"))


def _made_on_loopback(local: str, lan: str) -> None:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(**PHONE)
            _start_a_game(page, local, "Friday")
            game_id = page.url.rsplit("/", 1)[-1]
            view = page.locator(".link-box").first
            expect(view.get_by_role("link")).to_have_text(f"{lan}games/{game_id}")
            expect(view.get_by_role("img", name="QR code: the view link")).to_be_visible()
            page.get_by_text("Show the edit link").click()
            edit = page.locator(".link-box.edit").get_by_role("link", name=re.compile("^http"))  # not "Replace ..."
            expect(edit).to_have_text(re.compile(rf"^{re.escape(lan)}games/{game_id}/edit/{KEY}$"))
            assert edit.get_attribute("href") == edit.inner_text()
            assert "127.0.0.1" not in page.locator(".share").inner_html()
        finally:
            browser.close()
