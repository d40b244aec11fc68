"""End to end: a whole game of Hand and Foot played through the pages, at phone size.

The app runs under the production server (flask serve) on a free loopback port with a fresh
SQLite file; Debian's chromium (``/usr/bin/chromium``, driven by Playwright, never downloaded) plays a table of
two on a 390 × 844 touch screen. Every screen is

* photographed, under ``test-output/e2e/`` at the repository root (the path is printed);
* checked by axe-core (every rule axe runs by default: WCAG 2.x A and AA and best
  practices), and must have no violation;
* checked for touch targets of at least 44 × 44 CSS pixels (see :data:`TARGETS_JS`).

The page must also make no request off the loopback server and raise no script error.

A second test takes a recorded game (the gather-together club game of ``tests/data``, set up
through the JSON API) to the referee's desk: the four questions asked through their forms,
a deal's score explained, the game rescored under another sheet, two sheets compared, and
the game's PDFs fetched.

The module is skipped only when ``/usr/bin/chromium`` is missing (CI installs it).
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

pytestmark = pytest.mark.browser  # starts Chromium: -m "not browser" leaves it out

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("end-to-end tests need Debian's chromium at /usr/bin/chromium "
                "(apt-get install chromium)", allow_module_level=True)

from axe_playwright_python.sync_playwright import Axe  # noqa: E402
from playwright.sync_api import Browser, BrowserContext, Page, expect  # noqa: E402

from tests.helpers import served  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test-output" / "e2e"
# A busy 2-core machine can be slow to answer: give every wait and expectation room.
expect.set_options(timeout=15_000)
PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2)
MIN_TARGET = 44

# Touch targets. Every visible a[href], button, input (not hidden), select, textarea,
# summary, and every label tied to a control (label.control), must measure at least 44 × 44
# CSS pixels (WCAG 2.5.5, the stricter AAA size; 2.5.8 asks only 24). Exceptions:
#   * an inline link inside running text (display inline, and its nearest block ancestor
#     sets other text on its lines: text, or non-interactive inline elements such as
#     <strong>; other links, buttons and fields do not count): WCAG 2.5.8's "inline" exception;
#   * a checkbox or radio button whose own label (the thing a thumb taps) is 44 × 44;
#   * anything not rendered: display none, visibility hidden, zero size, inside a closed
#     <details>, or in or under the 1 px "visually hidden" pattern (a skip link until focused,
#     a custom control whose visible label is checked instead).
TARGETS_JS = r"""
(min) => {
  const eps = 0.01;
  const rendered = (el) => {
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden' || cs.visibility === 'collapse') return false;
    if (r.width <= 1 || r.height <= 1) return false;
    return true;
  };
  const big = (el) => {
    const r = el.getBoundingClientRect();
    return r.width + eps >= min && r.height + eps >= min;
  };
  const isBlock = (el) => !getComputedStyle(el).display.startsWith('inline')
                          && getComputedStyle(el).display !== 'contents';
  // Text set on the same lines as the link: text nodes and non-interactive inline elements
  // of its nearest block ancestor (blocks, buttons, fields and other links do not count).
  const interactive = 'a, button, input, select, textarea, label, summary';
  const lineText = (node, skip) => Array.from(node.childNodes).map((n) => {
    if (n.nodeType === Node.TEXT_NODE) return n.textContent;
    if (n.nodeType !== Node.ELEMENT_NODE || n === skip || isBlock(n) || n.matches(interactive)) return '';
    return lineText(n, skip);
  }).join('');
  const inRunningText = (a) => {
    if (getComputedStyle(a).display !== 'inline') return false;
    let p = a.parentElement;
    while (p && !isBlock(p)) p = p.parentElement;
    return !!p && lineText(p, a).replace(/\s+/g, '').length > 0;
  };
  // Inside a clipped 1 px box (the "visually hidden" pattern): not on screen.
  const clippedAway = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const r = p.getBoundingClientRect();
      const cs = getComputedStyle(p);
      if (r.width <= 1 && r.height <= 1 && (cs.overflow !== 'visible' || cs.clip !== 'auto')) return true;
    }
    return false;
  };
  const describe = (el) => {
    const r = el.getBoundingClientRect();
    const name = (el.getAttribute('aria-label') || el.textContent || el.value || el.name || el.id || '')
                   .replace(/\s+/g, ' ').trim().slice(0, 50);
    let where = el.tagName.toLowerCase();
    if (el.id) where += '#' + el.id;
    else if (el.name) where += '[name="' + el.name + '"]';
    if (el.type && el.tagName === 'INPUT') where += '[type=' + el.type + ']';
    return {where, name, width: Math.round(r.width * 10) / 10, height: Math.round(r.height * 10) / 10};
  };
  const small = [];
  let checked = 0;
  const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, label';
  for (const el of document.querySelectorAll(sel)) {
    if (el.tagName === 'LABEL' && !el.control) continue;
    if (!rendered(el) || clippedAway(el)) continue;
    if (el.closest('details:not([open]) > :not(summary)')) continue;
    checked += 1;
    if (big(el)) continue;
    if (el.tagName === 'A' && inRunningText(el)) continue;
    if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')
        && Array.from(el.labels || []).some((l) => rendered(l) && big(l))) continue;
    small.push(describe(el));
  }
  return {checked, small};
}
"""


# -- the server -----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app under the production server on a free loopback port, with a fresh database; yields its URL."""
    with served(tmp_path_factory.mktemp("e2e-server") / "scorepad.sqlite", "e2e-test-secret-key") as base:
        yield base




@pytest.fixture(scope="session")
def shots_dir() -> Path:
    """``test-output/e2e/`` at the repository root, emptied at the start of the run."""
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    print(f"\nscreenshots: {OUT}")
    return OUT


class Screens:
    """Photographs and checks each screen a test visits; collects every problem found."""

    def __init__(self, page: Page, folder: Path, server: str) -> None:
        self.page, self.folder, self.server = page, folder, server
        self.count = 0
        self.problems: list[str] = []
        self.offsite: list[str] = []
        self.errors: list[str] = []
        self.axe = Axe()
        self.log: list[str] = []

    def check(self, name: str, *, page: Page | None = None, full_page: bool = True) -> None:
        """Screenshot, axe and touch targets for the page as it is now (by default, the
        checker's own page)."""
        page = page or self.page
        page.wait_for_load_state("load")
        self.count += 1
        path = self.folder / f"{self.count:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        where = f"{self.count:02d}-{name} ({urlparse(page.url).path})"

        response = self.axe.run(page).response
        for violation in response["violations"]:
            nodes = "\n".join(f"      {', '.join(map(str, node['target']))}: "
                              f"{node.get('failureSummary', '').replace(chr(10), ' ')}"
                              for node in violation["nodes"][:8])
            self.problems.append(f"{where}: axe {violation['id']} ({violation.get('impact')}): "
                                 f"{violation['help']}\n    {violation['helpUrl']}\n{nodes}")

        targets = page.evaluate(TARGETS_JS, MIN_TARGET)
        self.log.append(f"  {where}: {len(response['violations'])} axe violation(s), "
                        f"{len(targets['small'])} of {targets['checked']} touch targets too small")
        for item in targets["small"]:
            self.problems.append(f"{where}: touch target {item['where']} {item['name']!r} is "
                                 f"{item['width']} x {item['height']} px, under {MIN_TARGET} x {MIN_TARGET}")

    def report(self) -> str:
        lines = [f"{len(self.problems)} problem(s) over {self.count} screens (screenshots: {self.folder}):"]
        lines += self.log + self.problems
        if self.offsite:
            lines.append("requests off the loopback server: " + ", ".join(self.offsite))
        if self.errors:
            lines.append("script errors: " + "; ".join(self.errors))
        return "\n".join(lines)

    def assert_clean(self) -> None:
        if self.problems or self.offsite or self.errors:
            pytest.fail(self.report(), pytrace=False)


def open_phone(browser: Browser, server: str, folder: Path) -> tuple[BrowserContext, Page, Screens]:
    """A fresh phone-sized touch context (no cookies), its page and the page's screen checker.

    Any request off the server is refused and recorded, as are script errors and resources
    (stylesheets, scripts, fetches) that fail to load."""
    context = browser.new_context(base_url=server, **PHONE)
    context.set_default_timeout(20_000)
    page = context.new_page()
    screens = Screens(page, folder, server)
    host = urlparse(server).netloc

    def guard(route: Any) -> None:
        url = route.request.url
        if urlparse(url).scheme in ("data", "blob") or urlparse(url).netloc == host:
            route.continue_()
        else:
            screens.offsite.append(url)
            route.abort()

    context.route("**/*", guard)
    page.on("pageerror", lambda err: screens.errors.append(f"{page.url}: {err}"))
    # A page the test expects to be refused (a 403) logs "Failed to load resource" too: the
    # test checks pages' statuses itself, and here every resource a page loads must load.
    page.on("console", lambda msg: screens.errors.append(f"{page.url}: console {msg.type}: {msg.text}")
            if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
    page.on("response", lambda resp: screens.errors.append(f"{page.url}: {resp.url} answered {resp.status}")
            if resp.status >= 400 and resp.request.resource_type != "document" else None)
    return context, page, screens


@pytest.fixture
def phone(browser: Browser, live_server: str, shots_dir: Path,
          request: pytest.FixtureRequest) -> Iterator[tuple[Page, Screens]]:
    """A phone's page and its screen checker; screenshots go in a folder named after the test."""
    folder = shots_dir / request.node.name
    folder.mkdir(parents=True, exist_ok=True)
    context, page, screens = open_phone(browser, live_server, folder)
    try:
        yield page, screens
    finally:
        print(f"\n{request.node.name}: {screens.count} screens in {folder}")
        context.close()


# -- the game ---------------------------------------------------------------------------------------

SIDES = {"North-South": ["Ann", "Cal"], "East-West": ["Bea", "Dan"]}

# Four deals of the gather-together preset (partnerships, 1 clean + 1 dirty book to go out).
# melds: side -> [(rank, naturals, twos)]; left: player -> {card: count}; red: side -> red
# threes laid; out: who went out (None: the stock ran out); totals: the referee's scores.
DEALS: dict[int, dict[str, Any]] = {
    1: {"melds": {"North-South": [("K", 7, 0), ("Q", 5, 2)], "East-West": [("J", 3, 0)]},
        "left": {"Bea": {"A": 1}}, "red": {}, "out": "Ann",
        "totals": {"North-South": "1,060", "East-West": "10"}},
    2: {"melds": {"North-South": [("8", 3, 0)], "East-West": [("A", 7, 0)]},
        "left": {"Cal": {"K": 1}, "Dan": {"4": 2}}, "red": {"East-West": 1}, "out": None,
        "totals": {"North-South": "20", "East-West": "730"}},
    3: {"melds": {"North-South": [("5", 3, 0)], "East-West": [("10", 7, 0), ("9", 5, 2)]},
        "left": {"Ann": {"JK": 1}}, "red": {}, "out": "Bea",
        "totals": {"North-South": "-35", "East-West": "1,060"}},
    4: {"melds": {"North-South": [("7", 7, 0), ("6", 3, 1)], "East-West": [("J", 3, 1)]},
        "left": {"Cal": {"3B": 1}, "Dan": {"Q": 2}}, "red": {}, "out": None,
        "totals": {"North-South": "565", "East-West": "30"}},
}
# Before the correction: North-South 1,610, East-West 1,830. The correction makes North-South's
# 8s of deal 2 a clean book (7 naturals, not 3): 560 instead of 20, and North-South wins, 2,150.


def side_box(page: Page, side: str) -> Any:
    return page.get_by_role("group", name=side, exact=True)


def segment(scope: Any, count: str, value: int, top: int) -> Any:
    """The segment for ``value`` in the row of segments of a count (its last one reads "top+")."""
    return scope.get_by_role("radiogroup", name=count, exact=True).get_by_text(
        f"{value}+" if value >= top else str(value), exact=True)


def itemise(page: Page, side: str) -> None:
    """Switch a side of the deal form (counted by default) to meld rows: its "Itemise melds"."""
    side_box(page, side).get_by_role("button", name="Itemise melds").tap()
    expect(side_box(page, side).get_by_label("Meld 1 rank", exact=True)).to_be_visible()
    page.wait_for_load_state("load")  # deal.js (deferred) makes the segments


def enter_meld(page: Page, side: str, row: int, rank: str, naturals: int, twos: int) -> None:
    """Choose the rank, then tap each count once (its segment: a book of seven is "7+")."""
    box = side_box(page, side)
    box.get_by_label(f"Meld {row} rank", exact=True).select_option(rank)
    segment(box, f"Meld {row} naturals", naturals, 7).tap()
    if twos:
        segment(box, f"Meld {row} 2s", twos, 3).tap()
    expect(box.get_by_label(f"Meld {row} naturals, as a number", exact=True)).to_have_value(str(naturals))
    expect(box.get_by_label(f"Meld {row} 2s, as a number", exact=True)).to_have_value(str(twos) if twos else "")


def enter_deal(page: Page, number: int, screens: Screens) -> None:
    deal = DEALS[number]
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Record deal {number}")
    page.wait_for_load_state("load")  # deal.js (deferred) makes the segments
    for side in SIDES:
        itemise(page, side)  # these deals are played meld by meld
    for side, melds in deal["melds"].items():
        for row, (rank, naturals, twos) in enumerate(melds, start=1):
            enter_meld(page, side, row, rank, naturals, twos)
            if number == 1 and side == "North-South" and row == 1:
                # The live score follows the taps: seven kings, a clean book, 570 so far.
                expect(page.locator("#live")).to_contain_text("Live score: North-South 570")
    for side, count in deal["red"].items():
        segment(side_box(page, side), f"{side}: red threes laid", count, 6).tap()
    for player, cards in deal["left"].items():
        hand = page.get_by_role("group", name=re.compile(rf"^Cards left in {player}\W"))
        for card, count in cards.items():
            hand.get_by_label(card, exact=True).fill(str(count))
    if deal["out"]:
        page.get_by_role("radio", name=deal["out"], exact=True).check()
    else:
        page.get_by_role("radio", name=re.compile("^Nobody")).check()
    totals = " · ".join(f"{side} {total}" for side, total in deal["totals"].items())
    expect(page.locator("#live")).to_contain_text(f"Live score: {totals}. The referee finds nothing wrong.")
    screens.check(f"deal-{number}-form")


def expect_row(page: Page, number: int, totals: dict[str, str]) -> None:
    row = page.locator(f"tr#deal-{number}")
    for i, total in enumerate(totals.values()):
        expect(row.locator("td").nth(i).locator(".pts")).to_have_text(total)


def test_a_whole_game_on_a_phone(phone: tuple[Page, Screens], browser: Browser, live_server: str) -> None:
    """New game from a preset, four deals tapped in, a correction, the winner; every screen checked."""
    page, screens = phone
    try:
        # Home, then a new game from the gather-together preset: two partnerships.
        page.goto("/")
        expect(page.get_by_role("heading", level=1)).to_have_text("Your games")
        screens.check("home-empty")
        page.get_by_role("link", name="New game").tap()
        expect(page.get_by_role("heading", level=1)).to_have_text("New game")
        page.wait_for_load_state("load")  # sheet.js (deferred) listens for the preset choice
        page.get_by_label("Rules to start from").select_option("gather-together")
        expect(page.locator("[data-preset-title]")).to_have_text("Gather Together Games")
        expect(page.locator("#preset-value")).to_have_value("gather-together")
        for i, (side, players) in enumerate(SIDES.items(), start=1):
            box = page.get_by_role("group", name=f"Side {i}", exact=True)
            for j, player in enumerate(players, start=1):
                box.get_by_label(f"Player {j}", exact=True).fill(player)
            box.get_by_label("Side name (optional)").fill(side)
        page.get_by_label("Game name (optional)").fill("Friday night")
        screens.check("new-game")
        groups = page.locator("details.group")
        assert groups.count() >= 5, "the sheet's options come in <details> groups"
        for summary in groups.locator("summary").all():
            summary.tap()  # open every group: every option is on screen, and checked too
        expect(page.locator("details.group:not([open])")).to_have_count(0)
        screens.check("new-game-every-option")
        page.get_by_role("button", name="Start the game").tap()

        # The game page, then the four deals.
        expect(page.get_by_role("heading", level=1)).to_have_text("Friday night")
        expect(page.get_by_role("heading", name="Deal 1 next")).to_be_visible()
        game_path = urlparse(page.url).path
        screens.check("game-new")
        running = {side: 0 for side in SIDES}
        for number in DEALS:
            page.get_by_role("link", name=f"Record deal {number}").tap()
            enter_deal(page, number, screens)
            page.get_by_role("button", name=f"Save deal {number}").tap()
            expect(page.get_by_role("status").filter(has_text=f"Deal {number} saved.")).to_be_visible()
            expect_row(page, number, DEALS[number]["totals"])
            for side, total in DEALS[number]["totals"].items():
                running[side] += int(total.replace(",", ""))
            screens.check(f"game-after-deal-{number}")
        assert running == {"North-South": 1610, "East-West": 1830}
        expect(page.locator("p.standings")).to_have_text("Winner: East-West, 1,830 to 1,610")
        expect(page.locator("table.score tfoot td")).to_have_text(["1,610", "1,830"])
        expect(page.locator("figure.chart-box svg").first).to_be_visible()
        expect(page.get_by_role("link", name=re.compile("^Record deal"))).to_have_count(0)

        # A correction: deal 2's 8s were a clean book of seven, not three.
        page.get_by_role("link", name="Deal 2", exact=True).tap()
        expect(page.get_by_role("heading", level=1)).to_have_text("Deal 2")
        expect(page.get_by_role("heading", name="North-South: 20")).to_be_visible()
        screens.check("deal-2")
        page.get_by_role("link", name="Correct deal 2").tap()
        expect(page.get_by_role("heading", level=1)).to_have_text("Correct deal 2")
        page.wait_for_load_state("load")  # deal.js makes the segments
        ns = side_box(page, "North-South")
        expect(ns.get_by_label("Meld 1 rank", exact=True)).to_have_value("8")
        naturals = ns.get_by_label("Meld 1 naturals, as a number", exact=True)
        expect(naturals).to_have_value("3")
        expect(ns.get_by_role("radiogroup", name="Meld 1 naturals").get_by_role("radio", name="3")).to_be_checked()
        expect(naturals).to_be_hidden()  # the box shows only for more than the segments hold
        segment(ns, "Meld 1 naturals", 7, 7).tap()
        expect(naturals).to_have_value("7")
        expect(page.locator("#live")).to_contain_text("Live score: North-South 560 · East-West 730")
        screens.check("deal-2-correct")
        page.get_by_role("button", name="Save the correction").tap()
        expect(page.get_by_role("status").filter(has_text="Deal 2 corrected.")).to_be_visible()

        # The winner changes.
        expect_row(page, 2, {"North-South": "560", "East-West": "730"})
        expect(page.locator("table.score tfoot td")).to_have_text(["2,150", "1,830"])
        expect(page.locator("p.standings")).to_have_text("Winner: North-South, 2,150 to 1,830")
        screens.check("game-over")

        # The sheet, the corrected deal, and the home page.
        page.get_by_role("link", name="Sheet", exact=True).tap()
        expect(page.get_by_role("heading", level=1)).to_have_text("The sheet")
        screens.check("sheet")
        page.goto(f"{game_path}/deals/2")
        expect(page.get_by_role("heading", name="North-South: 560")).to_be_visible()
        screens.check("deal-2-corrected")
        page.get_by_role("link", name="scorepad", exact=True).tap()
        expect(page.get_by_role("link", name=re.compile("Friday night"))).to_contain_text("North-South wins")
        screens.check("home-one-game")

        # Someone at the table follows the view link: the winner, and no way to change a deal.
        viewer_context, viewer, watcher = open_phone(browser, live_server, screens.folder)
        try:
            viewer.goto(game_path)
            expect(viewer.locator("p.standings")).to_have_text("Winner: North-South, 2,150 to 1,830")
            expect(viewer.get_by_role("heading", name="Share this game")).to_have_count(0)
            screens.check("game-viewer", page=viewer)
            viewer.goto(f"{game_path}/deals/2")
            expect(viewer.get_by_role("link", name="Correct deal 2")).to_have_count(0)
            assert viewer.goto(f"{game_path}/deals/2/edit").status == 403
            screens.check("deal-2-edit-refused", page=viewer)
        finally:
            viewer_context.close()
            screens.offsite += watcher.offsite
            screens.errors += watcher.errors
    finally:
        print("\n" + screens.report())
    screens.assert_clean()


def test_the_deal_forms_sticky_bar_shows_the_live_total_and_saves(phone: tuple[Page, Screens],
                                                                  live_server: str) -> None:
    """Deal 1 of a pagat game (books needed: 2 clean, 2 dirty, 1 wild): the rules as pills, who
    went out above the sides with each side's progress, counts tapped once each, and the sticky
    bar at the bottom of the screen with the live total; its Save records the deal."""
    page, screens = phone
    try:
        sides = [{"name": side, "players": players} for side, players in SIDES.items()]
        created = page.request.post(f"{live_server}/api/v1/games",
                                    data={"name": "Bar", "sheet": "pagat", "sides": sides})
        assert created.status == 201, created.text()
        page.goto(created.json()["edit_url"])
        page.get_by_role("link", name="Record deal 1").tap()
        page.wait_for_load_state("load")
        expect(page.locator(".pills li")).to_have_text(
            ["Deal 1 of 4", "Draw 2", "Opening 50", "Go out: 2 clean + 2 dirty + 1 wild", "Going out +100"])
        bar, save = page.locator("#bar"), page.get_by_role("button", name="Save deal 1")
        expect(page.locator("#bar-score")).to_have_text("North-South 0 · East-West 0")  # the first preview
        ns_out = page.locator("#s0-out")
        expect(ns_out).to_have_text(re.compile(r"^North-South clean 0/2, dirty 0/2, wild 0/1: not yet, "
                                               r"2 more clean books, 2 more dirty books, 1 more wild book$"))
        screens.check("deal-form-empty")

        itemise(page, "North-South")
        ns = side_box(page, "North-South")
        ns.get_by_label("Meld 1 rank", exact=True).select_option("K")
        segment(ns, "Meld 1 naturals", 7, 7).tap()
        kings = ns.get_by_label("Meld 1 naturals, as a number", exact=True)
        expect(kings).to_be_hidden()  # seven: the segment says it
        segment(ns, "Meld 1 naturals", 7, 7).tap()  # "7+" again: the box, for more
        expect(kings).to_be_visible()
        expect(kings).to_have_value("7")  # (pagat closes a book at seven: no more to give)
        segment(ns, "North-South: red threes laid", 2, 6).tap()
        page.get_by_role("radio", name="Nobody: the stock ran out").check()
        # Kings 7 x 10 + a clean book 500; two red threes 200 (pagat: 100 each).
        expect(page.locator("#bar-score")).to_have_text("North-South 770 · East-West 0")
        expect(ns_out).to_contain_text("North-South clean 1/2, dirty 0/2, wild 0/1: not yet")
        for where in (0, 1500, 99_999):  # at the top, half-way and at the end, the bar is on screen
            page.evaluate(f"window.scrollTo(0, {where})")
            box = bar.bounding_box()
            assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844 + 0.5, (where, box)
        screens.check("deal-form-filled", full_page=False)
        save.tap()
        expect(page.get_by_role("status").filter(has_text="Deal 1 saved.")).to_be_visible()
        expect_row(page, 1, {"North-South": "770", "East-West": "0"})
    finally:
        print("\n" + screens.report())
    screens.assert_clean()


# Four deals of the common preset entered by counts, as a table keeps a paper pad: per side
# books (clean, dirty), red threes, melded points; per player the points left. Deal 1 is the
# bench deal of issue 11 (Us 2,970, Them 1,150); in deal 3 Them is itemised (meld rows,
# cards left as cards). The totals each deal must show are the API's score of the same deal.
COUNTED_SIDES = {"Us": ["Ann", "Cal"], "Them": ["Bea", "Dan"]}
COUNTED_DEALS: dict[int, dict[str, Any]] = {
    1: {"out": "Ann", "Us": {"books": (3, 2), "red": 4, "points": 415, "left": {"Cal": 45}},
        "Them": {"books": (1, 1), "red": 2, "points": 235, "left": {"Bea": 30, "Dan": 55}}},
    2: {"out": "Bea", "Us": {"books": (2, 1), "red": 1, "points": 300, "left": {"Ann": 10, "Cal": 20}},
        "Them": {"books": (3, 2), "red": 0, "points": 500, "left": {"Dan": 15}}},
    3: {"out": "Cal", "Us": {"books": (3, 2), "red": 2, "points": 420, "left": {"Ann": 25}},
        "Them": {"melds": ["Jx7", "Qx5 2"], "red": 1, "left": {"Bea": "K", "Dan": "4 4"}}},
    4: {"out": None, "Us": {"books": (1, 0), "red": 0, "points": 100, "left": {"Ann": 40, "Cal": 60}},
        "Them": {"books": (0, 0), "red": 0, "points": 60, "left": {"Bea": 10, "Dan": 5}}},
}


def counted_json(number: int) -> dict[str, Any]:
    """The deal as JSON, as the form should read it (for the API's score of it)."""
    deal = COUNTED_DEALS[number]
    sides = []
    for name, players in COUNTED_SIDES.items():
        s = deal[name]
        if "melds" in s:
            side: dict[str, Any] = {"name": name, "melds": s["melds"], "players": [
                {"name": p, "foot_picked_up": True, "cards_left": s["left"].get(p, "")} for p in players]}
        else:
            side = {"name": name, "books": {"clean": s["books"][0], "dirty": s["books"][1]},
                    "meld_points": s["points"], "players": [
                        {"name": p, "foot_picked_up": True, "cards_left_points": s["left"].get(p, 0)}
                        for p in players]}
        sides.append(dict(side, red_threes=s["red"]))
    ending = {"ending": "went_out", "went_out": deal["out"]} if deal["out"] else {"ending": "stock_out"}
    return {"sheet": "common", "deal": number, **ending, "sides": sides}


def enter_counted(page: Page, number: int) -> None:
    """Deal ``number`` tapped in: counts in one touch each, points typed, who went out."""
    deal = COUNTED_DEALS[number]
    for name in COUNTED_SIDES:
        s, box = deal[name], side_box(page, name)
        if "melds" in s:
            itemise(page, name)
            box = side_box(page, name)
            for row, cards in enumerate(s["melds"], start=1):
                box.get_by_label(f"Meld {row} as cards", exact=True).fill(cards)
            for player, cards in s["left"].items():
                page.get_by_role("group", name=re.compile(rf"^Cards left in {player}\W")).get_by_label(
                    "Or as cards").fill(cards)
        else:
            for kind, n in zip(("clean", "dirty"), s["books"], strict=True):
                segment(box, f"{name}: {kind} books", n, 6).tap()
            box.get_by_label("Melded card points", exact=True).fill(str(s["points"]))
            for player, pts in s["left"].items():
                box.get_by_role("group", name=f"{player} ({name})", exact=True).get_by_label(
                    "Points left in hand").fill(str(pts))
        if s["red"]:
            segment(box, f"{name}: red threes laid", s["red"], 6).tap()
    if deal["out"]:
        page.get_by_role("radio", name=deal["out"], exact=True).check()
    else:
        page.get_by_role("radio", name=re.compile("^Nobody")).check()


def test_a_partnership_game_entered_by_counts_with_one_side_itemised(phone: tuple[Page, Screens],
                                                                       live_server: str) -> None:
    """Four deals in counted entry (the form's default), one side itemised in deal 3; every
    screen checked by axe. Each deal saves the totals the API scores for the same deal JSON."""
    page, screens = phone
    try:
        sides = [{"name": side, "players": players} for side, players in COUNTED_SIDES.items()]
        created = page.request.post(f"{live_server}/api/v1/games",
                                    data={"name": "Counted", "sheet": "common", "sides": sides})
        assert created.status == 201, created.text()
        page.goto(created.json()["edit_url"])
        running = {name: 0 for name in COUNTED_SIDES}
        for number in COUNTED_DEALS:
            scored = page.request.post(f"{live_server}/api/v1/score", data=counted_json(number))
            assert scored.status == 200 and scored.json()["ok"], scored.text()
            totals = {s["name"]: s["total"] for s in scored.json()["sides"]}
            assert number != 1 or totals == {"Us": 2970, "Them": 1150}  # the bench deal of issue 11
            page.get_by_role("link", name=f"Record deal {number}").tap()
            expect(page.get_by_role("heading", level=1)).to_have_text(f"Record deal {number}")
            page.wait_for_load_state("load")
            if number == 1:
                screens.check("counted-empty")
            enter_counted(page, number)
            shown = " · ".join(f"{name} {total:,}" for name, total in totals.items())
            expect(page.locator("#live")).to_contain_text(f"Live score: {shown}. The referee finds nothing wrong.")
            screens.check(f"counted-deal-{number}")
            page.get_by_role("button", name=f"Save deal {number}").tap()
            expect(page.get_by_role("status").filter(has_text=f"Deal {number} saved.")).to_be_visible()
            expect_row(page, number, {name: f"{total:,}" for name, total in totals.items()})
            for name, total in totals.items():
                running[name] += total
            screens.check(f"counted-game-after-{number}")
        expect(page.locator("table.score tfoot td")).to_have_text([f"{t:,}" for t in running.values()])
        # A counted deal opens counted for correcting, its counts in place.
        page.goto(f"{urlparse(page.url).path}/deals/1/edit")
        us = side_box(page, "Us")
        expect(us.get_by_label("Melded card points", exact=True)).to_have_value("415")
        expect(us.get_by_role("radiogroup", name="Us: clean books").get_by_role("radio", name="3")).to_be_checked()
        screens.check("counted-correct-1")
    finally:
        print("\n" + screens.report())
    screens.assert_clean()


# -- the referee's desk -------------------------------------------------------------------------------

# The gather-together game of tests/data, worked by hand in test_dispute.club_game:
# North-South 1,155 / 15 / 15 / 15 = 1,200; East-West -5 / 1,030 / 40 / 150 = 1,215.
CLUB = json.loads((ROOT / "tests" / "data" / "game-club-gather-together.json").read_text())

# Each question once, under the game's sheet (gather-together): its section's heading, the
# fields to fill (by label), the selects to choose (by label, the option's words), the answer
# (YES or NO, and its words) and the sheet option the answer must quote.
DESK_QUESTIONS: list[dict[str, Any]] = [
    {"id": "meld", "title": "Is this meld legal?",
     "fill": {"The meld, or the cards you add": "2", "Adding to this meld (optional)": "K K 2"},
     "choose": {}, "yes": True, "words": "this meld is legal.", "option": "wild_ratio"},
    {"id": "go-out", "title": "May we go out now?",
     "fill": {"Clean": "1", "Dirty": "1"},
     "choose": {"Has your partner picked up their foot?": "No"},
     "yes": False, "words": "you may not go out yet.", "option": "go_out_partner_foot"},
    {"id": "pile", "title": "May I take the pile?",
     "fill": {"Top card of the pile": "9", "Natural cards of that rank you hold": "1",
              "Wild cards you hold": "1", "Cards in the pile": "12"},
     "choose": {"Has your side met its opening minimum?": "No, not yet"},
     "yes": True, "words": "you may take the pile.", "option": "pile_needs"},
    {"id": "minimum", "title": "Do these first melds meet the minimum?",
     "fill": {"Deal number": "2", "Your first melds": "K K K; Q Q Q"},  # 60 against 90
     "choose": {}, "yes": False, "words": "these melds do not meet the minimum.", "option": "opening_minimums"},
]


def rule_text(sheet_id: str, option: str) -> str:
    """How the page quotes a sheet option: ``Rule: <its label>: <what the sheet says>``."""
    from scorepad.rules import preset
    from scorepad.rules.catalogue import OPTION_BY_NAME

    return f"Rule: {OPTION_BY_NAME[option].label}: {preset(sheet_id).describe(option)}"


def club_game(page: Page, server: str) -> str:
    """The club game, created and its four deals recorded through the JSON API; its edit link."""
    sides = [{"name": side, "players": players} for side, players in SIDES.items()]
    assert [s["name"] for s in sides] == CLUB["sides"]
    created = page.request.post(f"{server}/api/v1/games",
                                data={"name": "Club night", "sheet": CLUB["sheet"], "sides": sides})
    assert created.status == 201, created.text()
    game = created.json()
    for deal in CLUB["deals"]:
        saved = page.request.post(f"{server}/api/v1/games/{game['id']}/deals", data=deal,
                                  headers={"Authorization": f"Bearer {game['edit_key']}"})
        assert saved.status == 201, saved.text()
    return game["edit_url"]


def test_the_referee_desk_on_a_phone(phone: tuple[Page, Screens], live_server: str) -> None:
    """A recorded game's referee desk: four questions asked, a score explained, the game under
    another sheet, two sheets compared, and the game's PDFs; every screen checked."""
    page, screens = phone
    try:
        page.goto(club_game(page, live_server))  # the edit link: this phone keeps the game
        expect(page.get_by_role("heading", level=1)).to_have_text("Club night")
        expect(page.locator("p.standings")).to_have_text("Winner: East-West, 1,215 to 1,200")
        game_path = urlparse(page.url).path
        screens.check("club-game")

        # The game's paper: each PDF link answers with a PDF (fetched, not navigated to:
        # headless Chromium would download it).
        pdfs = page.get_by_role("link", name=re.compile(r"\(PDF\)$"))
        expect(pdfs).to_have_text(["House rules (PDF)", "Blank score pad (PDF)", "Results (PDF)"])
        for link in pdfs.all():
            href = link.get_attribute("href")
            assert href, "a PDF link without an address"
            response = page.request.get(href if "://" in href else live_server + href)
            assert response.status == 200, f"{href} answered {response.status}"
            assert response.headers["content-type"].startswith("application/pdf"), \
                f"{href} is {response.headers['content-type']}"
            assert response.body().startswith(b"%PDF-"), f"{href} is not a PDF"

        # The referee's desk, from the game page.
        page.get_by_role("link", name="Ask the referee", exact=True).tap()
        expect(page.get_by_role("heading", level=1)).to_have_text("Referee: Club night")
        expect(page.get_by_role("main")).to_contain_text("The game is over; its last deal was deal 4.")
        screens.check("referee-desk")

        # Each question: fill its form, tap its button, read the answer and the rule it quotes.
        for q in DESK_QUESTIONS:
            section = page.get_by_role("region", name=q["title"], exact=True)
            for label, value in q["fill"].items():
                section.get_by_label(label, exact=True).fill(value)
            for label, words in q["choose"].items():
                section.get_by_label(label, exact=True).select_option(label=words)
            section.get_by_role("button", name="Ask the referee").tap()
            answer = page.locator(f"#{q['id']}-answer")
            verdict = "YES" if q["yes"] else "NO"
            expect(answer).to_have_class(re.compile(rf"\banswer {verdict.lower()}\b"))
            expect(answer.locator(".verdict")).to_have_text(f"{verdict}: {q['words']}")
            expect(answer.locator(".rule").filter(has_text=rule_text(CLUB["sheet"], q["option"]))).to_have_count(1)
            expect(page.locator(".answer")).to_have_count(1)  # only the question asked is answered
            for label, value in q["fill"].items():  # the form shows back what was asked
                expect(page.get_by_role("region", name=q["title"], exact=True)
                       .get_by_label(label, exact=True)).to_have_value(value)
            screens.check(f"referee-{q['id']}")

        # A score explained, on the deal's page.
        page.get_by_role("navigation").get_by_role("link", name="Game", exact=True).tap()
        expect(page.get_by_role("heading", level=1)).to_have_text("Club night")
        assert urlparse(page.url).path == game_path
        page.get_by_role("link", name="Deal 1", exact=True).tap()
        expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1")  # the deal's page explains it
        expect(page.get_by_role("heading", name="North-South: 1,155")).to_be_visible()
        expect(page.get_by_role("heading", name="East-West: -5")).to_be_visible()
        red = page.get_by_role("row").filter(has_text="Dan's unopened foot: red threes")
        expect(red.locator(".rule")).to_have_text("Rule: Red three in a foot never picked up: nothing")
        screens.check("deal-1")

        # The same deal under Pagat (the deal page's own form), then the whole game.
        expect(page.get_by_label("Another sheet", exact=True)).to_have_value("pagat")
        page.get_by_role("button", name="Rescore deal 1").tap()
        expect(page.get_by_role("heading", level=1)).to_have_text("Deal 1 under another sheet")
        # Pagat takes 100 for each of Dan's two red threes left in his unopened foot.
        expect(page.get_by_role("heading", name="East-West: -5 → -205 (-200)")).to_be_visible()
        expect(page.get_by_role("main")).to_contain_text(rule_text("pagat", "foot_size"))
        screens.check("rescore-deal-1-pagat")
        page.get_by_label("What to rescore", exact=True).select_option(label="The whole game")
        page.get_by_role("button", name="Rescore", exact=True).tap()
        expect(page.get_by_role("heading", level=1)).to_have_text("Club night under another sheet")
        expect(page.locator("p.result-line")).to_contain_text(
            "Under this game’s sheet: East-West wins with 1,215. Under Pagat, four-player partnerships: "
            "North-South wins with 1,200. The result changes.")
        expect(page.get_by_role("heading", name="Deal 2: nothing changes")).to_be_visible()
        page.locator("summary", has_text=re.compile(r"options? differ$")).tap()  # every difference shown
        expect(page.locator("details[open] table.compare").first).to_be_visible()
        screens.check("rescore-game-pagat")

        # Two sheets side by side.
        page.goto("/sheets/compare?a=pagat&b=common")
        expect(page.get_by_role("heading", level=1)).to_have_text("Compare two sheets")
        expect(page.get_by_label("First sheet", exact=True)).to_have_value("pagat")
        expect(page.get_by_label("Second sheet", exact=True)).to_have_value("common")
        hand = page.get_by_role("row").filter(has=page.get_by_role("rowheader", name="Cards in the hand", exact=True))
        expect(hand.locator("td")).to_have_text(["13", "11"])
        screens.check("compare-pagat-common")
    finally:
        print("\n" + screens.report())
    screens.assert_clean()
