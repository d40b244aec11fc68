"""What the phone benches share: the app served by the production server on a fresh database, and a page
of Debian's Chromium at 390 × 844 with touch (light scheme), driven by Playwright.

    with served("entry") as base, phone() as page:
        page.goto(base + "/new")
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=1,
             color_scheme="light")


@contextmanager
def served(name: str) -> Iterator[str]:
    """The production server (``flask --app scorepad serve``, granian) on a free loopback port,
    on a fresh SQLite file: its base URL. Stopped after."""
    from web import PRODUCTION, Server  # bench/web.py: the same server harness

    with tempfile.TemporaryDirectory() as folder:
        server = Server(name, PRODUCTION, {"SCOREPAD_DATABASE": str(Path(folder) / "bench.sqlite"),
                                           "SCOREPAD_SECRET_KEY": f"bench-{name}",
                                           "SCOREPAD_INSTANCE_PATH": folder, "PYTHONPATH": str(ROOT)},
                        Path(folder), 4)
        try:
            server.wait_ready("/")
            yield f"http://127.0.0.1:{server.port}"
        finally:
            server.stop()


@contextmanager
def phone() -> Iterator[Any]:
    """A new page in a phone-sized Chromium context; the browser is closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            yield browser.new_context(**PHONE).new_page()
        finally:
            browser.close()
