"""The running-totals chart: an inline SVG drawn on the server, no chart library, no script.

Each side is a line from 0 (before the first deal) through its running total after each
deal, told apart by colour, dash pattern and marker shape (set in ``static/app.css`` by the
classes ``s0`` to ``s7``). The SVG is ``role="img"`` with a ``<title>`` and a ``<desc>``
that says the same numbers in words; the score table beside it holds them too.

>>> svg = running_totals_chart(("Ann", "<Bea>"), [1, 2], [{"Ann": 100, "<Bea>": -50}, {"Ann": 150, "<Bea>": 400}])
>>> "&lt;Bea&gt;" in svg and "<Bea>" not in svg
True
>>> running_totals_chart(("Ann", "Bea"), [], []) is None
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from markupsafe import Markup, escape

WIDTH, HEIGHT = 340, 200
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 12, 30
MARKERS = ("circle", "square", "diamond", "triangle")


def nice_step(span: float, ticks: int = 4) -> int:
    """A round step (1, 2 or 5 times a power of ten) giving about ``ticks`` intervals.

    >>> nice_step(1000), nice_step(3700), nice_step(7)
    (250, 1000, 2)
    """
    raw = max(span / ticks, 1)
    power = 10 ** math.floor(math.log10(raw))
    for mult in (1, 2, 2.5, 5, 10):
        if raw <= mult * power:
            step = mult * power
            return int(step) if step >= 1 else 1
    return int(10 * power)


def _marker(kind: str, x: float, y: float, cls: str) -> str:
    if kind == "circle":
        return f'<circle class="{cls}" cx="{x:.1f}" cy="{y:.1f}" r="4"/>'
    if kind == "square":
        return f'<rect class="{cls}" x="{x - 3.5:.1f}" y="{y - 3.5:.1f}" width="7" height="7"/>'
    if kind == "diamond":
        return (f'<path class="{cls}" d="M{x:.1f} {y - 5:.1f}L{x + 5:.1f} {y:.1f}L{x:.1f} {y + 5:.1f}'
                f'L{x - 5:.1f} {y:.1f}Z"/>')
    return (f'<path class="{cls}" d="M{x:.1f} {y - 5:.1f}L{x + 5:.1f} {y + 4:.1f}'
            f'L{x - 5:.1f} {y + 4:.1f}Z"/>')


def running_totals_chart(sides: Sequence[str], deals: Sequence[int],
                         running: Sequence[dict[str, int]], title: str = "Running totals after each deal"
                         ) -> Markup | None:
    """The chart as inline SVG markup, or None before the first deal."""
    if not deals or not sides:
        return None
    series = {name: [0] + [totals.get(name, 0) for totals in running] for name in sides}
    values = [v for points in series.values() for v in points]
    step = nice_step(max(values) - min(values) or 100)
    low = math.floor(min(values) / step) * step
    high = math.ceil(max(values) / step) * step
    if high == low:
        high = low + step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    count = len(deals)

    def x(i: int) -> float:
        return LEFT + plot_w * i / count

    def y(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'aria-labelledby="chart-title chart-desc" focusable="false">',
             f'<title id="chart-title">{escape(title)}</title>']
    desc = "; ".join(f"{name}: " + ", ".join(f"{v:,}" for v in points[1:]) for name, points in series.items())
    parts.append(f'<desc id="chart-desc">{escape(desc)}</desc>')
    # The grid and the axes' numbers.
    tick = low
    while tick <= high:
        ty = y(tick)
        parts.append(f'<line class="{"zero" if tick == 0 else "grid"}" x1="{LEFT}" x2="{WIDTH - RIGHT}" '
                     f'y1="{ty:.1f}" y2="{ty:.1f}"/>')
        parts.append(f'<text class="tick" x="{LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end">{tick:,}</text>')
        tick += step
    for i, number in enumerate(deals, 1):
        parts.append(f'<text class="tick" x="{x(i):.1f}" y="{HEIGHT - 10}" text-anchor="middle">{number}</text>')
    parts.append(f'<text class="tick" x="{LEFT}" y="{HEIGHT - 10}" text-anchor="middle">0</text>')
    # One line per side, with a marker at each deal.
    for k, points in enumerate(series.values()):
        cls = f"s{k % 8}"
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(points))
        parts.append(f'<g class="series {cls}"><polyline class="line" points="{coords}"/>')
        kind = MARKERS[k % len(MARKERS)]
        parts += [_marker(kind, x(i), y(v), "dot") for i, v in enumerate(points) if i]
        parts.append("</g>")
    parts.append("</svg>")
    return Markup("".join(parts))
