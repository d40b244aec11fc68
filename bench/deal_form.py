"""How tall the record-a-deal form is on a phone, and where its Save button sits.

Run from the repository root::

    python bench/deal_form.py [--shots DIR]

It serves the app in-process (waitress on a free loopback port, a fresh SQLite file in a
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
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=1,
             color_scheme="light")

# A filled deal: input name -> value (melds, red threes, cards left, who went out).
FILLED = {
    "s0-m0-rank": "K", "s0-m0-naturals": "7",
    "s0-m1-rank": "Q", "s0-m1-naturals": "5", "s0-m1-twos": "2",
    "s0-m2-rank": "9", "s0-m2-naturals": "4", "s0-m2-jokers": "1",
    "s0-red_threes": "2", "s0-p1-left": "Kx2 4",
    "s1-m0-rank": "J", "s1-m0-naturals": "3", "s1-red_threes": "1",
    "s1-p0-c-A": "1", "s1-p1-left": "3B 7",
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

    from playwright.sync_api import sync_playwright
    from waitress import create_server

    from scorepad import create_app

    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": str(Path(folder) / "bench.sqlite"), "SECRET_KEY": "bench-deal-form"})
        server = create_server(app, host="127.0.0.1", port=0, threads=4)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        base = f"http://127.0.0.1:{server.effective_port}"
        try:
            game = api(f"{base}/api/v1/games", {"name": "Bench", "sheet": "common", "sides": [
                {"name": "Us", "players": ["Ann", "Cal"]}, {"name": "Them", "players": ["Bea", "Dan"]}]})
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM,
                                             args=["--headless", "--no-sandbox", "--disable-gpu"])
                try:
                    page = browser.new_context(**PHONE).new_page()
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
                finally:
                    browser.close()
        finally:
            server.trigger.pull_trigger(server.close)
            thread.join(timeout=5)
    print(f"deal_form: page {m['page']} px, form {m['form']} px, save at y {m['save']} px "
          f"(in view at load: {'yes' if m['inView'] else 'no'}), ending at y {m['ending']} px")
    return 0


if __name__ == "__main__":
    sys.exit(main())
