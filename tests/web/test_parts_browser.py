"""Two phones entering one deal together (issue 24 §1, §2), in a real Chromium: two browser
contexts at 390 × 844, each a phone at the table, on the production server. A four-deal
partnership game (the common sheet: Us, Ann and Cal, v Them, Bea and Dan), each side's part
on its own phone at once: a clean deal, where the phone that was waiting sees the other's part
come in and, once its own save writes the deal, the other phone says so in sight; a deal with
a problem on one side, which each phone sees on its own side only until it is corrected; a
deal where both phones say who went out, the later keeping the earlier's; then a last deal.
And a game whose parts opponents confirm: each phone sees the other side's part line by line
and taps "Confirmed". axe finds no violation on any screen, in light and in dark; each screen
is photographed in both under ``test-output/parts/``.
"""

from __future__ import annotations

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
from playwright.sync_api import Browser, Page, expect  # noqa: E402

from tests.helpers import served  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "test-output" / "parts"
PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=1)
SIDES = [{"name": "Us", "players": ["Ann", "Cal"]}, {"name": "Them", "players": ["Bea", "Dan"]}]
US = dict(clean=3, dirty=2, red=4, points=415, left={"Cal": 45})  # with Ann out: Us 2,970
THEM = dict(clean=1, dirty=1, red=2, points=235, left={"Bea": 30, "Dan": 55})  # Them 1,150


def them(deal: int) -> dict[str, Any]:
    """Them's part of deal ``deal``: Dan holds 5 more each deal (Them 1,150, 1,145...), so no deal
    is the same as the one before it."""
    return dict(THEM, left={"Bea": 30, "Dan": 50 + 5 * deal})
EDIT: dict[str, str] = {}
expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    with served(tmp_path_factory.mktemp("parts") / "scorepad.sqlite", "parts-secret") as base:
        yield base


def look(page: Page, name: str) -> list[str]:
    """axe on the screen as it is, in light and in dark (the phone's setting), each photographed:
    the violations, worded."""
    found = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_timeout(150)
        page.screenshot(path=str(OUT / f"{name}-{scheme}.png"))
        for violation in Axe().run(page).response["violations"]:
            nodes = "; ".join(", ".join(map(str, n["target"])) for n in violation["nodes"][:4])
            found.append(f"{name} in {scheme}: {violation['id']}: {violation['help']} ({nodes})")
    page.emulate_media(color_scheme="light")
    return found


def table(browser: Browser, server: str, name: str, confirm: str = "none") -> tuple[str, Page, Page]:
    """A new game and its two phones: Ann's enters Us, Bea's enters Them (each said once).
    The game's edit link is kept as ``EDIT[game id]``, for a third phone."""
    first = browser.new_context(base_url=server, **PHONE)
    made = first.request.post(f"{server}/api/v1/games", data={"name": name, "sheet": "common", "sides": SIDES,
                                                               "confirm": confirm})
    assert made.status == 201, made.text()
    game = made.json()
    EDIT[game["id"]] = game["edit_url"]
    phones = []
    for context, side, owner in ((first, "0", "Ann"), (browser.new_context(base_url=server, **PHONE), "1", "Bea")):
        context.set_default_timeout(20_000)
        page = context.new_page()
        page.goto(game["edit_url"])
        page.goto(f"/games/{game['id']}/phone")
        page.locator(f"input[name=side][value='{side}']").check()
        page.locator(f"input[name=owner][value='{owner}']").check()
        phones.append(page)
    return game["id"], phones[0], phones[1]


def use_phone(page: Page) -> None:
    page.get_by_role("button", name="Use this phone so").tap()
    page.wait_for_url("**/part")


def open_part(page: Page, game_id: str) -> None:
    page.goto(f"/games/{game_id}/deals/new")
    page.wait_for_url("**/part")
    page.wait_for_load_state("load")  # deal.js (deferred) makes the segments


def enter(page: Page, name: str, clean: int, dirty: int, red: int, points: int, left: dict[str, int]) -> None:
    """A side's part as its phone enters it: the books, melded points, red threes, points left."""
    box = page.get_by_role("group", name=name, exact=True)
    for what, n in (("clean books", clean), ("dirty books", dirty), ("red threes laid", red)):
        box.get_by_role("radiogroup", name=f"{name}: {what}", exact=True).get_by_text(str(n), exact=True).tap()
    box.get_by_label("Melded card points", exact=True).fill(str(points))
    for player, pts in left.items():
        box.get_by_role("group", name=f"{player} ({name})", exact=True).get_by_label(
            "Points left in hand", exact=True).fill(str(pts))


def went_out(page: Page, player: str) -> None:
    page.get_by_role("radio", name=player, exact=True).tap()


def save(page: Page, side: str) -> None:
    page.get_by_role("button", name=f"Save {side}’s part").tap()


def totals(page: Page, game_id: str, number: int) -> dict[str, int]:
    """Deal ``number``'s own points, side by side, as the API gives the game (written: else it fails)."""
    game = page.request.get(f"/api/v1/games/{game_id}").json()
    rows = [row["totals"] for row in game["running_totals"]]
    assert len(rows) >= number, f"deal {number} is not written"
    before = rows[number - 2] if number > 1 else {name: 0 for name in rows[0]}
    return {name: total - before[name] for name, total in rows[number - 1].items()}


def test_a_four_deal_game_with_each_sides_part_on_its_own_phone(browser, server):
    game_id, ann, bea = table(browser, server, "Four deals")
    found = look(ann, "this-phone")
    use_phone(ann)
    use_phone(bea)

    # Deal 1: both phones at once; Bea's sees Ann's part come in, and Ann's sees the deal written.
    open_part(ann, game_id)
    open_part(bea, game_id)
    found += look(ann, "part-empty")
    went_out(ann, "Ann")
    enter(ann, "Us", **US)
    enter(bea, "Them", **them(1))
    save(ann, "Us")
    expect(ann.locator("#progress")).to_contain_text("Us: entered by Ann’s phone, 2,970")
    expect(ann.locator("#progress")).to_contain_text("Them: waiting")
    found += look(ann, "part-saved")
    expect(bea.locator("#progress")).to_contain_text("Us: entered by Ann’s phone", timeout=12_000)  # live, no reload
    expect(bea.locator("#bar-progress")).to_contain_text("Us: in, 2,970 · ending: said")  # in sight too
    expect(bea.locator("#progress")).to_contain_text("The ending: Ann went out (Ann’s phone)")
    expect(bea.get_by_label("Points left in hand").first).to_have_value("30")  # what Bea typed is untouched
    found += look(bea, "part-other-came-in")
    save(bea, "Them")
    bea.wait_for_url("**/games/*#main")
    expect(bea.locator(".flashes")).to_contain_text("Deal 1 was written by Ann’s phone and Bea’s phone.")
    found += look(bea, "game-written")
    written = ann.locator("#bar-progress")  # in sight, in the sticky bar, wherever the phone is scrolled
    expect(written).to_contain_text("Deal 1 was written by Ann’s phone and Bea’s phone.", timeout=12_000)
    expect(written).to_be_in_viewport()
    found += look(ann, "written-notice")
    assert totals(bea, game_id, 1) == {"Us": 2970, "Them": 1150}

    # Deal 2: Us's part has a problem; each phone sees its own side's, until Ann's phone corrects it.
    open_part(ann, game_id)
    open_part(bea, game_id)
    went_out(ann, "Ann")
    enter(ann, "Us", **dict(US, clean=0))  # Ann went out without a clean book
    save(ann, "Us")
    expect(ann.locator("#progress")).to_contain_text("Us: entered by Ann’s phone")
    enter(bea, "Them", **them(2))
    save(bea, "Them")
    expect(bea.locator(".flash.error, p.flash[role=alert]").first).to_contain_text("Not written")
    expect(bea.locator("#problems")).to_have_count(0)  # Us's problem is not Them's to correct
    expect(bea.get_by_role("button", name="Save as played")).to_be_visible()
    found += look(bea, "problems-other-side")
    ann.reload()
    expect(ann.locator("#problems")).to_be_visible()
    found += look(ann, "problems-own-side")
    assert ann.request.get(f"/api/v1/games/{game_id}/deals/2").status == 404
    ann.get_by_role("group", name="Us", exact=True).get_by_role(
        "radiogroup", name="Us: clean books", exact=True).get_by_text("3", exact=True).tap()
    save(ann, "Us")
    ann.wait_for_url("**/games/*#main")
    assert totals(ann, game_id, 2) == {"Us": 2970, "Them": 1145}

    # Deal 3: both phones say how it ended; Bea's, later, sees Ann's ending and keeps it.
    open_part(ann, game_id)
    open_part(bea, game_id)
    went_out(ann, "Ann")
    enter(ann, "Us", **US)
    save(ann, "Us")
    expect(ann.locator("#progress")).to_contain_text("Us: entered by Ann’s phone")
    went_out(bea, "Nobody: the stock ran out")  # Bea's form was opened before Ann's phone saved
    enter(bea, "Them", **them(3))
    save(bea, "Them")
    expect(bea.locator("#taken")).to_contain_text("The ending was entered by Ann’s phone")
    expect(bea.locator("#taken")).to_contain_text("Ann went out")
    found += look(bea, "taken")
    bea.locator("#taken").get_by_role("button", name="Keep theirs").tap()
    bea.wait_for_url("**/games/*#main")
    assert totals(bea, game_id, 3) == {"Us": 2970, "Them": 1140}

    # Deal 4, the last: at once again; Cal's phone, entering every side, sees it open meanwhile.
    open_part(ann, game_id)
    open_part(bea, game_id)
    went_out(ann, "Ann")
    enter(ann, "Us", **US)
    enter(bea, "Them", **them(4))
    save(bea, "Them")
    expect(bea.locator("#progress")).to_contain_text("Them: entered by Bea’s phone")
    cal = browser.new_context(base_url=server, **PHONE).new_page()
    cal.goto(EDIT[game_id])
    cal.goto(f"/games/{game_id}/deals/new")
    expect(cal.locator("#open-deal")).to_contain_text("Other phones saved 1 part of it.")
    expect(cal.locator(".this-phone")).to_contain_text("This phone enters every side")
    found += look(cal, "every-side-open-deal")
    cal.context.close()
    save(ann, "Us")
    ann.wait_for_url("**/games/*#main")
    standings = ann.request.get(f"/api/v1/games/{game_id}").json()["standings"]
    assert {s["name"]: s["total"] for s in standings} == {"Us": 4 * 2970, "Them": 1150 + 1145 + 1140 + 1135}
    assert found == []


def test_opponents_confirm_each_others_parts(browser, server):
    game_id, ann, bea = table(browser, server, "Confirmed", confirm="opponents")
    use_phone(ann)
    use_phone(bea)
    open_part(ann, game_id)
    open_part(bea, game_id)
    went_out(ann, "Ann")
    enter(ann, "Us", **US)
    enter(bea, "Them", **THEM)
    save(ann, "Us")
    save(bea, "Them")
    progress = bea.locator("#progress")
    expect(progress).to_contain_text("Us: entered by Ann’s phone, 2,970 · waiting for another side to confirm")
    expect(progress.get_by_role("table", name="Us’s score, line by line")).to_contain_text("Melded card points")
    expect(progress.get_by_role("button", name="Confirmed: Them’s part")).to_have_count(0)  # never its own
    found = look(bea, "confirm")
    progress.get_by_role("button", name="Confirmed: Us’s part").tap()
    expect(bea.locator("#progress")).to_contain_text("Us: entered by Ann’s phone, 2,970 · confirmed by Bea’s phone")
    expect(ann.locator("#progress")).to_contain_text("confirmed by Bea’s phone", timeout=12_000)  # live
    found += look(ann, "confirmed-one")
    assert ann.request.get(f"/api/v1/games/{game_id}/deals/1").status == 404  # Them's part waits for Us
    ann.locator("#progress").get_by_role("button", name="Confirmed: Them’s part").tap()
    ann.wait_for_url("**/games/*#main")
    assert totals(ann, game_id, 1) == {"Us": 2970, "Them": 1150}
    assert found == []


def test_without_scripts_a_part_saves_and_a_reload_shows_the_progress(browser, server):
    first = browser.new_context(base_url=server, java_script_enabled=False, **PHONE)
    game = first.request.post(f"{server}/api/v1/games", data={"name": "No scripts", "sheet": "common",
                                                               "sides": SIDES}).json()
    phones = []
    second = browser.new_context(base_url=server, java_script_enabled=False, **PHONE)
    for context, side, owner in ((first, "0", "Ann"), (second, "1", "Bea")):
        page = context.new_page()
        page.goto(game["edit_url"])
        page.goto(f"/games/{game['id']}/phone")
        page.locator(f"input[name=side][value='{side}']").check()
        page.locator(f"input[name=owner][value='{owner}']").check()
        page.get_by_role("button", name="Use this phone so").click()
        page.wait_for_url("**/part")
        phones.append(page)
    ann, bea = phones
    ann.get_by_role("radio", name="Ann", exact=True).check()
    for key, value in (("s0-b-clean", "3"), ("s0-b-dirty", "2"), ("s0-red_threes", "4"), ("s0-points", "415"),
                       ("s0-p1-pts", "45")):
        ann.locator(f"input[name='{key}']").fill(value)
    ann.get_by_role("button", name="Save Us’s part").click()
    expect(ann.locator("#progress")).to_contain_text("Us: entered by Ann’s phone, 2,970")
    bea.reload()
    expect(bea.locator("#progress")).to_contain_text("Us: entered by Ann’s phone, 2,970")
    for key, value in (("s1-b-clean", "1"), ("s1-b-dirty", "1"), ("s1-red_threes", "2"), ("s1-points", "235"),
                       ("s1-p0-pts", "30"), ("s1-p1-pts", "55")):
        bea.locator(f"input[name='{key}']").fill(value)
    bea.get_by_role("button", name="Save Them’s part").click()
    bea.wait_for_url("**/games/*")
    expect(bea.locator(".flashes")).to_contain_text("Deal 1 was written")
    assert totals(bea, game["id"], 1) == {"Us": 2970, "Them": 1150}
