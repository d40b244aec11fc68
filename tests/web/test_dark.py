"""Dark mode: every main page, in light and in dark, passes axe, at phone size.

The app runs under the production server (flask serve) on a free loopback port with a fresh
SQLite file; Debian's chromium (``/usr/bin/chromium``, driven by Playwright) opens each page three ways: with the
phone set to light, with the phone set to dark (``color_scheme="dark"``), and with the phone
set to light but dark chosen with the header's button. axe-core (every rule it runs by
default, colour contrast among them) must find no violation in any. Each screen is
photographed under ``test-output/dark/`` at the repository root.

Also: the button's choice is kept across a reload (and a new page) and the phone's own
setting comes back with "Auto"; without scripts the pages still follow the phone.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser  # starts Chromium: -m "not browser" leaves it out

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("browser tests need Debian's chromium at /usr/bin/chromium", allow_module_level=True)

from axe_playwright_python.sync_playwright import Axe  # noqa: E402
from playwright.sync_api import Browser, BrowserContext, Page, expect  # noqa: E402

from tests.helpers import served  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test-output" / "dark"
PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2)
CLUB = json.loads((ROOT / "tests" / "data" / "game-club-gather-together.json").read_text())
SIDES = [{"name": "North-South", "players": ["Ann", "Cal"]}, {"name": "East-West", "players": ["Bea", "Dan"]}]
WHITE, DARK = "rgb(255, 255, 255)", "rgb(18, 20, 23)"  # the page's background in each palette
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(tmp_path_factory.mktemp("dark-server") / "scorepad.sqlite", "dark-test-secret-key") as base:
        yield base




def make_game(context: BrowserContext, server: str, name: str, deals: int) -> dict[str, Any]:
    """The club game of tests/data with its first ``deals`` deals, made through the API."""
    created = context.request.post(f"{server}/api/v1/games",
                                   data={"name": name, "sheet": CLUB["sheet"], "sides": SIDES})
    assert created.status == 201, created.text()
    game = created.json()
    for deal in CLUB["deals"][:deals]:
        saved = context.request.post(f"{server}/api/v1/games/{game['id']}/deals", data=deal,
                                     headers={"Authorization": f"Bearer {game['edit_key']}"})
        assert saved.status == 201, saved.text()
    return game


@pytest.fixture(scope="module")
def games(browser: Browser, live_server: str) -> dict[str, dict[str, Any]]:
    """A game half played (two deals, the second corrected: the history has a change) and
    the same game played to the end."""
    context = browser.new_context()
    try:
        half = make_game(context, live_server, "Half played", 2)
        correction = json.loads(json.dumps(CLUB["deals"][1]))
        correction["sides"][0]["players"][0]["cards_left"] = "4"  # Ann held a four after all
        corrected = context.request.put(f"{live_server}/api/v1/games/{half['id']}/deals/2",
                                        data={**correction, "revision": 2},
                                        headers={"Authorization": f"Bearer {half['edit_key']}"})
        assert corrected.status == 200, corrected.text()
        return {"half": half, "over": make_game(context, live_server, "Played out", 4)}
    finally:
        context.close()


def main_pages(games: dict[str, dict[str, Any]]) -> dict[str, str]:
    """The pages a table uses, by name: their paths."""
    half, over = f"/games/{games['half']['id']}", f"/games/{games['over']['id']}"
    return {
        "home": "/", "new-game": "/new", "game": half, "game-over": over,
        "deal-form": f"{half}/deals/new", "deal": f"{half}/deals/1", "deal-correct": f"{half}/deals/2/edit",
        "referee-desk": f"{over}/referee", "sheet": f"{half}/sheet",
        "sheet-editor": f"{half}/sheet/amend", "history": f"{half}/history", "rescore": f"{over}/rescore",
        "compare": "/sheets/compare?a=pagat&b=common", "import": "/import", "not-found": "/games/no-such-game",
    }


def phone(browser: Browser, server: str, games: dict[str, dict[str, Any]], scheme: str) -> tuple[BrowserContext, Page]:
    """A phone-sized context whose phone is set to ``scheme``, holding both games' edit rights."""
    context = browser.new_context(base_url=server, color_scheme=scheme, **PHONE)
    context.set_default_timeout(20_000)
    page = context.new_page()
    for game in games.values():
        page.goto(game["edit_url"])
    return context, page


def background(page: Page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def axe_every_page(page: Page, games: dict[str, dict[str, Any]], mode: str, shade: str) -> list[str]:
    """axe on each main page, in the colours ``shade`` (the body's background); the
    violations found, worded."""
    OUT.mkdir(parents=True, exist_ok=True)
    axe, found = Axe(), []
    for name, path in main_pages(games).items():
        page.goto(path)
        page.wait_for_load_state("load")
        assert background(page) == shade, f"{name} in {mode}: background {background(page)}"
        page.screenshot(path=str(OUT / f"{name}-{mode}.png"), full_page=True)
        for violation in axe.run(page).response["violations"]:
            nodes = "; ".join(", ".join(map(str, node["target"])) + ": " + node.get("failureSummary", "")
                              .replace("\n", " ") for node in violation["nodes"][:6])
            found.append(f"{name} ({path}) in {mode}: {violation['id']}: {violation['help']}\n    {nodes}")
    return found


@pytest.fixture(scope="module", autouse=True)
def fresh_output() -> None:
    shutil.rmtree(OUT, ignore_errors=True)


def test_every_main_page_passes_axe_with_the_phone_set_to_light(browser, live_server, games):
    context, page = phone(browser, live_server, games, "light")
    try:
        assert axe_every_page(page, games, "light", WHITE) == []
    finally:
        context.close()


def test_every_main_page_passes_axe_with_the_phone_set_to_dark(browser, live_server, games):
    context, page = phone(browser, live_server, games, "dark")
    try:
        assert axe_every_page(page, games, "dark", DARK) == []
    finally:
        context.close()


def test_every_main_page_passes_axe_in_dark_chosen_with_the_button(browser, live_server, games):
    context, page = phone(browser, live_server, games, "light")
    try:
        page.goto("/")
        toggle = page.get_by_role("button", name="Colours: Auto")
        toggle.tap()  # the phone is light: the first tap gives dark
        expect(page.get_by_role("button", name="Colours: Dark")).to_be_visible()
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        assert axe_every_page(page, games, "dark-by-button", DARK) == []
    finally:
        context.close()


def test_the_colour_choice_is_kept_across_a_reload(browser, live_server, games):
    context, page = phone(browser, live_server, games, "dark")
    try:
        game = f"/games/{games['half']['id']}"
        page.goto(game)
        assert background(page) == DARK
        page.get_by_role("button", name="Colours: Auto").tap()  # the phone is dark: light
        expect(page.get_by_role("button", name="Colours: Light")).to_be_visible()
        assert background(page) == WHITE
        page.reload()
        expect(page.get_by_role("button", name="Colours: Light")).to_be_visible()
        assert background(page) == WHITE
        # Set before the first paint: the attribute is there as the body is parsed.
        other = context.new_page()
        other.add_init_script("document.addEventListener('readystatechange', () => { if (document.readyState"
                              " === 'interactive') window.themeAtParse = document.documentElement.dataset.theme; })")
        other.goto(f"{game}/history")
        assert other.evaluate("window.themeAtParse") == "light" and background(other) == WHITE
        # The next taps: the phone's own (dark) chosen, then back to following the phone.
        page.get_by_role("button", name="Colours: Light").tap()
        expect(page.get_by_role("button", name="Colours: Dark")).to_be_visible()
        page.get_by_role("button", name="Colours: Dark").tap()
        expect(page.get_by_role("button", name="Colours: Auto")).to_be_visible()
        assert page.evaluate("document.documentElement.hasAttribute('data-theme')") is False
        assert page.evaluate("localStorage.getItem('scorepad-theme')") == "auto"
        page.reload()
        assert background(page) == DARK
    finally:
        context.close()


def test_without_scripts_the_pages_follow_the_phone_and_show_no_button(browser, live_server, games):
    for scheme, shade in (("light", WHITE), ("dark", DARK)):
        context = browser.new_context(base_url=live_server, color_scheme=scheme, java_script_enabled=False, **PHONE)
        try:
            page = context.new_page()
            page.goto(f"/games/{games['over']['id']}")
            assert background(page) == shade
            expect(page.locator("#theme")).to_be_hidden()
            expect(page.locator("p.standings")).to_have_text("Winner: East-West, 1,215 to 1,200")
        finally:
            context.close()
