"""How tall the record-a-deal form is on a phone, and where its Save button sits.

Run from the repository root::

    python bench/deal_form.py [--shots DIR]

It serves the app with the production server (flask serve on a free loopback port, a fresh SQLite file in a
temporary folder), creates a four-player partnership game of the ``common`` preset through the
JSON API (sides Us: Ann, Cal and Them: Bea, Dan), takes its edit link, and opens the form for
deal 1 in Debian's Chromium (``/usr/bin/chromium``, driven by Playwright) at 390 × 844 with
touch, light scheme. It prints one line::

    deal_form: page H px, form F px, save at y Y px (in view at load: yes|no), ending at y E px

``H`` is the document's height, ``F`` the form's, ``Y`` the top of the "Save deal 1" button
in the document (scrolled to the top) and ``E`` the top of the "Who went out?" group. With
``--shots DIR`` it also saves ``deal-form-empty.png`` and, after filling a deal through the
inputs' names (the boxes a script may hide are set as a browser would, with input events),
``deal-form-filled.png`` (both full-page, and the first screen of each as ``-top.png``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from phone import phone, served

# A filled deal, counted (the form's default): input name -> value (books, melded points, red
# threes, points left, who went out): the deal bench/entry.py enters by touch.
FILLED = {
    "s0-b-clean": "3", "s0-b-dirty": "2", "s0-points": "415", "s0-red_threes": "4", "s0-p1-pts": "45",
    "s1-b-clean": "1", "s1-b-dirty": "1", "s1-points": "235", "s1-red_threes": "2",
    "s1-p0-pts": "30", "s1-p1-pts": "55",
    "ending": "s0-p0",
}

MEASURE = """() => {
  const top = (el) => el ? Math.round(el.getBoundingClientRect().top + window.scrollY) : -1;
  const save = [...document.querySelectorAll('button')].find((b) => /^Save deal/.test(b.textContent.trim()));
  const r = save.getBoundingClientRect();
  const ending = document.getElementById('ending');
  return {page: document.documentElement.scrollHeight,
          form: Math.round(document.getElementById('deal-form').getBoundingClientRect().height),
          save: top(save), inView: r.top >= 0 && r.bottom <= window.innerHeight, ending: top(ending)};
}"""

FILL = """(values) => {
  const form = document.getElementById('deal-form');
  for (const [name, value] of Object.entries(values)) {
    const el = form.elements.namedItem(name);
    const one = el instanceof RadioNodeList ? [...el].find((r) => r.value === value) : el;
    if (one.type === 'radio' || one.type === 'checkbox') one.checked = true; else one.value = value;
    one.dispatchEvent(new Event('input', {bubbles: true}));
    one.dispatchEvent(new Event('change', {bubbles: true}));
  }
}"""


def api(url: str, body: Any) -> Any:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shots", type=Path, help="a folder for screenshots")
    args = parser.parse_args()

    with served("deal-form") as base:
        game = api(f"{base}/api/v1/games", {"name": "Bench", "sheet": "common", "sides": [
            {"name": "Us", "players": ["Ann", "Cal"]}, {"name": "Them", "players": ["Bea", "Dan"]}]})
        with phone() as page:
            page.goto(game["edit_url"])
            page.goto(f"{base}/games/{game['id']}/deals/new")
            page.wait_for_load_state("networkidle")
            m = page.evaluate(MEASURE)
            if args.shots:
                args.shots.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(args.shots / "deal-form-empty.png"), full_page=True)
                page.screenshot(path=str(args.shots / "deal-form-empty-top.png"))
                page.evaluate(FILL, FILLED)
                time.sleep(1.0)  # the live preview answers after 400 ms of quiet
                page.wait_for_load_state("networkidle")
                page.screenshot(path=str(args.shots / "deal-form-filled.png"), full_page=True)
                page.screenshot(path=str(args.shots / "deal-form-filled-top.png"))
    print(f"deal_form: page {m['page']} px, form {m['form']} px, save at y {m['save']} px "
          f"(in view at load: {'yes' if m['inView'] else 'no'}), ending at y {m['ending']} px")
    return 0


if __name__ == "__main__":
    sys.exit(main())
