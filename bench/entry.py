"""How many touches recording a deal takes on a phone, in counted entry (issue 11).

Run from the repository root::

    python bench/entry.py [--shots DIR] [--phones 2]

It serves the app with the production server (flask serve on a free loopback port, a fresh SQLite file in a
temporary folder) and drives Debian's Chromium (``/usr/bin/chromium``, Playwright) at
390 × 844 with touch. The game is started through the New game page (``common`` preset;
sides Us: Ann, Cal and Them: Bea, Dan; not counted), then deal 1 is recorded in counted
entry, every touch counted:

* Us: 3 clean, 2 dirty, 4 red threes, 415 melded points, Ann went out, Cal 45 left;
* Them: 1 clean, 1 dirty, 2 red threes, 235 points, Bea 30 left, Dan 55 left;
* every foot picked up (the form's default), then Save.

It enters the deal as the form leads (issue 24): who went out first (the form's first question),
then each side's books, where the dirty books' segment goes on to the melded points box, then
the red threes, whose segment goes on to the first points-left box shown (the player who went
out has none), and the keyboard's Next (Enter) from one player's box to the next. A box already
focused is typed into; any other is tapped first.
A tap is one touch on the screen (a segment, a radio button, focusing a box, Save); each
character typed, Tab and Enter is a keystroke; scrolling is free. The saved totals must be
Us 2,970 and Them 1,150 (else it exits 1). It prints one line::

    entry: side T taps K keys; deal T taps K keys; form H px

"side" is Us alone plus Save, "deal" the whole deal. ``H`` is the bounding height of all of
Us's controls plus the sticky Save, with the page scrolled to Us's heading. Targets (the
peer takes 19 taps + 6 keys for a deal): side at most 15 taps + keys together, deal at most
25, H at most 844. With ``--shots DIR`` it saves the form at the first screen of each side,
filled, as ``entry-us.png`` and ``entry-them.png``.

With ``--phones 2`` (issue 24) it also plays the same deal on a second game with two phones,
two Chromium contexts at 390 × 844: each says once (not counted) which side it enters and
whose phone it is (Us on Ann's phone, Them on Bea's), then both enter their own side's part at
once, Us's phone saying who went out, and each taps Save; the second save writes the deal
(the same totals, else it exits 1). A phone's time is its taps × 1.0 s plus its keystrokes ×
0.4 s; the deal's wall time is the slower phone's, plus any time one waits for the other
(none here: neither needs the other's part). It prints::

    entry: phone T taps K keys (max of phones); one phone T taps K keys; wall S s

"phone" is the phone with the most taps and keys together, "one phone" the first game's whole
deal on one phone, and "wall" the two-phone deal's wall time, then ``(one phone S s)``.
Targets: each phone at most 12 taps + keys, one phone at most 20, the wall with two phones at
most 0.6 × one phone's.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.request
from pathlib import Path
from typing import Any

from phone import PHONE, phone, served

EXPECTED = {"Us": 2970, "Them": 1150}

# The bounding box of a side's visible controls (segments, boxes, buttons, checkboxes' labels)
# and the sticky Save, with the side's heading scrolled to the top of the screen.
HEIGHT = """(side) => {
  const box = document.getElementById(side);
  box.querySelector('legend').scrollIntoView({block: 'start'});
  const seen = (el) => { const r = el.getBoundingClientRect(); return r.width > 1 && r.height > 1; };
  const parts = [...box.querySelectorAll('input, button, select, .seg span, label')].filter(seen);
  parts.push(document.querySelector('#bar button'));
  const rects = parts.map((el) => el.getBoundingClientRect());
  return Math.round(Math.max(...rects.map((r) => r.bottom)) - Math.min(...rects.map((r) => r.top)));
}"""


class Touches:
    """Taps and keystrokes, as a player makes them."""

    def __init__(self, page: Any) -> None:
        self.page, self.taps, self.keys = page, 0, 0

    def tap(self, locator: Any) -> None:
        locator.tap()
        self.taps += 1

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.keys += len(text)

    def box(self, locator: Any, text: str) -> None:
        """Focus a box (a tap, unless the form has focused it already), then type into it."""
        if not locator.evaluate("(box) => box === document.activeElement"):
            self.tap(locator)
        self.type(text)

    def next(self) -> None:
        """The keyboard's Next (Enter): the form goes on to its next box."""
        self.page.keyboard.press("Enter")
        self.keys += 1


def segment(scope: Any, name: str, value: int) -> Any:
    return scope.get_by_role("radiogroup", name=name, exact=True).get_by_text(str(value), exact=True)


def side(t: Touches, name: str, clean: int, dirty: int, red: int, points: int, left: dict[str, int]) -> None:
    box = t.page.get_by_role("group", name=name, exact=True)
    t.tap(segment(box, f"{name}: clean books", clean))
    t.tap(segment(box, f"{name}: dirty books", dirty))
    t.box(box.get_by_label("Melded card points", exact=True), str(points))
    t.tap(segment(box, f"{name}: red threes laid", red))
    for k, (player, pts) in enumerate(left.items()):
        if k:
            t.next()
        hand = box.get_by_role("group", name=f"{player} ({name})", exact=True)
        t.box(hand.get_by_label("Points left in hand", exact=True), str(pts))


TAP_S, KEY_S = 1.0, 0.4  # a phone's time: each tap, each keystroke


def seconds(t: Touches) -> float:
    return t.taps * TAP_S + t.keys * KEY_S


def two_phones(browser: Any, base: str, shots: Path | None) -> tuple[Touches, Touches, dict[str, int]]:
    """The bench deal on a new game, each side's part on its own phone at once (Us's phone
    says who went out): both phones' touches and the totals saved."""
    body = json.dumps({"name": "Two phones", "sheet": "common",
                       "sides": [{"name": "Us", "players": ["Ann", "Cal"]},
                                 {"name": "Them", "players": ["Bea", "Dan"]}]}).encode()
    made = urllib.request.Request(f"{base}/api/v1/games", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(made, timeout=10) as response:
        game = json.loads(response.read())
    pages = []
    for side_index, owner in ((0, "Ann"), (1, "Bea")):  # once a game, not counted
        page = browser.new_context(**PHONE).new_page()
        page.goto(game["edit_url"])
        page.goto(f"{base}/games/{game['id']}/phone")
        page.locator(f"input[name=side][value='{side_index}']").check()
        page.locator(f"input[name=owner][value='{owner}']").check()
        page.get_by_role("button", name="Use this phone so").click()
        page.wait_for_load_state("load")
        page.get_by_role("radiogroup", name=f"{('Us', 'Them')[side_index]}: clean books").wait_for()
        pages.append(page)
    us, them = Touches(pages[0]), Touches(pages[1])
    us.tap(pages[0].get_by_role("radio", name="Ann", exact=True))  # Ann went out: Us's phone says so
    side(us, "Us", 3, 2, 4, 415, {"Cal": 45})
    side(them, "Them", 1, 1, 2, 235, {"Bea": 30, "Dan": 55})
    if shots:
        for page, name in ((pages[0], "us"), (pages[1], "them")):
            page.wait_for_timeout(1200)
            page.screenshot(path=str(shots / f"entry-phone-{name}.png"))
    us.tap(pages[0].get_by_role("button", name="Save Us’s part"))
    pages[0].wait_for_url("**/part")
    them.tap(pages[1].get_by_role("button", name="Save Them’s part"))
    pages[1].wait_for_url("**/games/*#main")
    standings = api_get(f"{base}/api/v1/games/{game['id']}")["standings"]
    return us, them, {s["name"]: s["total"] for s in standings}


def api_get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def new_game(page: Any, base: str) -> str:
    """The game, started through the New game page (not counted); returns its id."""
    page.goto(f"{base}/new?preset=common")
    page.fill("#side-0-p0", "Ann")
    page.fill("#side-0-p1", "Cal")
    page.fill("#side-0-name", "Us")
    page.fill("#side-1-p0", "Bea")
    page.fill("#side-1-p1", "Dan")
    page.fill("#side-1-name", "Them")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/games/*")
    return page.url.split("/games/", 1)[1].split("/")[0].split("#")[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shots", type=Path, help="a folder for screenshots")
    parser.add_argument("--phones", type=int, choices=(1, 2), default=1,
                        help="2: the same deal again with each side's part on its own phone at once")
    args = parser.parse_args()

    with served("entry") as base:
        with phone() as page:
            game_id = new_game(page, base)
            page.goto(f"{base}/games/{game_id}/deals/new")
            page.wait_for_load_state("load")  # deal.js (deferred) makes the segments
            page.get_by_role("radiogroup", name="Us: clean books").wait_for()
            height = page.evaluate(HEIGHT, "s0")
            t = Touches(page)
            t.tap(page.get_by_role("radio", name="Ann", exact=True))  # Ann went out
            side(t, "Us", 3, 2, 4, 415, {"Cal": 45})
            us = (t.taps, t.keys)
            side(t, "Them", 1, 1, 2, 235, {"Bea": 30, "Dan": 55})
            if args.shots:
                args.shots.mkdir(parents=True, exist_ok=True)
                page.wait_for_timeout(1200)  # the live preview answers after 400 ms of quiet
                for key, name in (("s0", "us"), ("s1", "them")):
                    page.evaluate(HEIGHT, key)
                    page.screenshot(path=str(args.shots / f"entry-{name}.png"))
            t.tap(page.get_by_role("button", name="Save deal 1"))
            page.wait_for_url("**/games/*#main")
            if args.phones == 2:
                phones = two_phones(page.context.browser, base, args.shots)
        standings = api_get(f"{base}/api/v1/games/{game_id}")["standings"]
    totals = {s["name"]: s["total"] for s in standings}
    print(f"entry: side {us[0] + 1} taps {us[1]} keys; deal {t.taps} taps {t.keys} keys; form {height} px")
    if totals != EXPECTED:
        print(f"entry: saved totals {totals}, expected {EXPECTED}", file=sys.stderr)
        return 1
    if args.phones == 2:
        each = max(phones[:2], key=lambda p: p.taps + p.keys)
        wall = max(seconds(p) for p in phones[:2])  # neither phone waits for the other's part
        print(f"entry: phone {each.taps} taps {each.keys} keys (max of phones); one phone {t.taps} taps {t.keys} keys; "
              f"wall {wall:.1f} s (one phone {seconds(t):.1f} s)")
        if phones[2] != EXPECTED:
            print(f"entry: two phones saved totals {phones[2]}, expected {EXPECTED}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
