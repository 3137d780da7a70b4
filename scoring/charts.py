"""Server-rendered SVG: the cumulative score of a match's four seats, round by round.

Plain SVG, no script: it prints, works without JavaScript and is read by screen readers through
its ``<title>`` and the table next to it on the page.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

COLOURS = ("#1f6f50", "#b23a48", "#2f5fa7", "#c98a14")
WIDTH, HEIGHT = 640, 260
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 44, 12, 12, 28


def _nice_step(span: int) -> int:
    """A round grid step (1, 2, 5, 10, 20, 50 …) giving at most six intervals.

    >>> _nice_step(5), _nice_step(13), _nice_step(260)
    (1, 5, 50)
    """
    magnitude = 1
    while True:
        for step in (magnitude, 2 * magnitude, 5 * magnitude):
            if span <= 6 * step:
                return step
        magnitude *= 10


def cumulative_chart(
    cumulative: Sequence[Sequence[int]], names: Sequence[str], *, title: str
) -> SafeString:
    """An SVG line chart: ``cumulative[r][seat]`` is the seat's running total after round r+1."""
    rounds = len(cumulative)
    values = [0, *(v for row in cumulative for v in row)]
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    step = _nice_step(high - low)
    low, high = (low // step) * step, -((-high) // step) * step
    plot_w = WIDTH - PAD_LEFT - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(i: int) -> float:
        return PAD_LEFT + (plot_w * i / rounds if rounds else 0)

    def y(v: int) -> float:
        return PAD_TOP + plot_h * (high - v) / (high - low)

    parts: list[str] = [
        format_html(
            '<svg class="score-chart" viewBox="0 0 {} {}" role="img" '
            'xmlns="http://www.w3.org/2000/svg"><title>{}</title>',
            WIDTH,
            HEIGHT,
            title,
        )
    ]
    for v in range(low, high + 1, step):
        parts.append(
            format_html(
                '<line x1="{}" x2="{}" y1="{}" y2="{}" class="grid{}"/>'
                '<text x="{}" y="{}" class="axis" text-anchor="end">{}</text>',
                PAD_LEFT,
                WIDTH - PAD_RIGHT,
                f"{y(v):.1f}",
                f"{y(v):.1f}",
                " zero" if v == 0 else "",
                PAD_LEFT - 6,
                f"{y(v) + 4:.1f}",
                v,
            )
        )
    label_every = max(1, rounds // 12)
    for i in range(1, rounds + 1):
        if i % label_every == 0 or i == rounds:
            parts.append(
                format_html(
                    '<text x="{}" y="{}" class="axis" text-anchor="middle">{}</text>',
                    f"{x(i):.1f}",
                    HEIGHT - 8,
                    i,
                )
            )
    for seat in range(4):
        points = " ".join(
            f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate([0, *(row[seat] for row in cumulative)])
        )
        name = names[seat] if seat < len(names) else str(seat)
        parts.append(
            format_html(
                '<polyline points="{}" fill="none" stroke="{}" stroke-width="2.5" '
                'data-seat="{}"><title>{}</title></polyline>',
                points,
                COLOURS[seat],
                seat,
                name,
            )
        )
    parts.append("</svg>")
    # Every piece above is built by format_html (escaped) or from numbers.
    return mark_safe("".join(str(p) for p in parts))


def legend(names: Sequence[str]) -> list[tuple[int, str]]:
    """``(seat, escaped name)`` pairs for the chart's legend; the page colours each swatch with
    the seat's class (``seat-N`` in scoring.css, the same colours as :data:`COLOURS`), not an
    inline style, which the Content-Security-Policy forbids."""
    return [(i, escape(n)) for i, n in enumerate(names[:4])]


RATING_POINTS = 240
"""At most this many points on a rating chart (a long history is sampled evenly, the last point
always kept)."""


def rating_chart(ratings: Sequence[float], *, title: str) -> SafeString:
    """An SVG line chart of a shown rating after each rated round (``ratings[g]`` after game
    g+1), on the same grid as :func:`cumulative_chart`."""
    games = len(ratings)
    if games > RATING_POINTS:
        picked = sorted(
            {round(i * (games - 1) / (RATING_POINTS - 1)) for i in range(RATING_POINTS)}
        )
    else:
        picked = list(range(games))
    values = [round(v) for v in ratings] or [0]
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    step = _nice_step(high - low)
    low, high = (low // step) * step, -((-high) // step) * step
    plot_w = WIDTH - PAD_LEFT - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(game: int) -> float:
        return PAD_LEFT + (plot_w * (game - 1) / (games - 1) if games > 1 else plot_w / 2)

    def y(v: float) -> float:
        return PAD_TOP + plot_h * (high - v) / (high - low)

    parts: list[str] = [
        format_html(
            '<svg class="score-chart rating-chart" viewBox="0 0 {} {}" role="img" '
            'xmlns="http://www.w3.org/2000/svg"><title>{}</title>',
            WIDTH,
            HEIGHT,
            title,
        )
    ]
    for v in range(low, high + 1, step):
        parts.append(
            format_html(
                '<line x1="{}" x2="{}" y1="{}" y2="{}" class="grid"/>'
                '<text x="{}" y="{}" class="axis" text-anchor="end">{}</text>',
                PAD_LEFT,
                WIDTH - PAD_RIGHT,
                f"{y(v):.1f}",
                f"{y(v):.1f}",
                PAD_LEFT - 6,
                f"{y(v) + 4:.1f}",
                v,
            )
        )
    for game in sorted({1, games}) if games else ():
        parts.append(
            format_html(
                '<text x="{}" y="{}" class="axis" text-anchor="middle">{}</text>',
                f"{x(game):.1f}",
                HEIGHT - 8,
                game,
            )
        )
    points = " ".join(f"{x(i + 1):.1f},{y(values[i]):.1f}" for i in picked)
    parts.append(
        format_html(
            '<polyline points="{}" fill="none" stroke="{}" stroke-width="2.5"/>',
            points,
            COLOURS[0],
        )
    )
    parts.append("</svg>")
    # Every piece above is built by format_html (escaped) or from numbers.
    return mark_safe("".join(str(p) for p in parts))
