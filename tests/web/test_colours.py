"""The colours: one palette of custom properties in app.css, a light one and a dark one, that
every style sheet uses; the theme script runs in <head> before the first paint.

The browser side (axe in light and dark, the button remembered) is tests/web/test_dark.py.
"""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "static"
SHEETS = ("app.css", "pages.css", "deal.css", "referee.css")
COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}\b|rgba?\(|hsla?\(")
# Colours that stay the same in both palettes: white on the header (dark blue in both), white
# on the red "warn" button, and the white behind a QR code (a scanner needs dark on light).
FIXED = {".top{background:var(--top);color:#fff}", ".top a{color:#fff", ".top .theme{", "button.warn,.button.warn{",
         ".qr{"}


def palettes() -> dict[str, dict[str, str]]:
    """app.css's palettes by where they apply: their custom properties, name -> value."""
    css = (STATIC / "app.css").read_text()
    blocks = {
        "light": re.search(r"^:root\{(.*?)\}$", css, re.M),
        "dark, by the phone": re.search(r"^@media \(prefers-color-scheme:dark\)\{"
                                        r":root:not\(\[data-theme=light\]\)\{(.*?)\}\}$", css, re.M),
        "dark, by the button": re.search(r"^:root\[data-theme=dark\]\{(.*?)\}$", css, re.M),
    }
    found = {}
    for name, block in blocks.items():
        assert block is not None, f"app.css has no {name} palette"
        found[name] = dict(item.split(":", 1) for item in block[1].split(";"))
    return found


def test_the_dark_palette_is_the_same_for_the_phones_setting_and_the_button():
    found = palettes()
    assert found["dark, by the phone"] == found["dark, by the button"]
    assert found["dark, by the phone"]["color-scheme"] == "dark" and found["light"]["color-scheme"] == "light"


def test_light_and_dark_give_every_colour():
    found = palettes()
    assert set(found["light"]) == set(found["dark, by the phone"])
    used = {name for sheet in SHEETS for name in re.findall(r"var\((--[\w-]+)\)", (STATIC / sheet).read_text())}
    assert used <= set(found["light"]), used - set(found["light"])
    assert {name for name in found["light"] if name.startswith("--")} <= used  # none left over


def test_every_style_sheet_takes_its_colours_from_the_palette():
    for sheet in SHEETS:
        css = (STATIC / sheet).read_text()
        css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
        css = re.sub(r"^(:root|@media \(prefers-color-scheme:dark\)).*$", "", css, flags=re.M)  # the palettes
        for rule in re.findall(r"[^{}]*\{[^{}]*\}", css):
            rule = rule.strip()
            if COLOUR.search(rule):
                assert rule.startswith(tuple(FIXED)), f"{sheet}: a colour outside the palette: {rule}"


def test_the_theme_is_set_in_the_head_before_the_style_sheets_and_the_button_waits_for_scripts(client):
    page = client.get("/").get_data(as_text=True)
    head = page.split("</head>", 1)[0]
    script = re.search(r'<script src="/static/theme.js"([^>]*)></script>', head)
    assert script is not None and "defer" not in script[1] and "async" not in script[1]
    assert head.index("theme.js") < head.index("app.css")
    assert '<meta name="color-scheme" content="light dark">' in head
    button = re.search(r'<button type="button" id="theme"[^>]*>', page)
    assert button is not None and " hidden" in button[0]  # shown by theme.js: without scripts it does nothing
    assert client.get("/static/theme.js").status_code == 200
