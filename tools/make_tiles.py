"""Draw the tile faces served by the site (``static/tiles/<tile>.svg``): dots, bamboo, characters,
winds, dragons and flowers, as plain SVG with no font and no script.

The Chinese characters (萬, 一…九, 東南西北, 中, 發, 春夏秋冬, 梅蘭菊竹) are outlines taken from
Noto Serif CJK Bold (SIL Open Font License 1.1), so a tile looks the same on every device, with or
without a Chinese font. Everything else is drawn here. Run it again after changing a drawing:

    python -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools
    /tmp/ft/bin/python tools/make_tiles.py [/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc]

(Debian's ``fonts-noto-cjk`` package provides the font.) The faces are 60 × 80 units with a
transparent ground: the page draws the tile's body, edge and shadow (``static/css/tiles.css``).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

FONT = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
OUT = Path(__file__).resolve().parent.parent / "static" / "tiles"
W, H = 60, 80

BLUE = "#1d4f9c"
GREEN = "#11784a"
RED = "#c3122f"
INK = "#1b1f2a"
DARK_GREEN = "#0b5534"

NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
FLOWERS = "春夏秋冬梅蘭菊竹"


class Glyphs:
    """Outlines of CJK characters from one face of a TrueType/OpenType collection."""

    def __init__(self, path: str) -> None:
        from fontTools.ttLib import TTCollection

        fonts = TTCollection(path).fonts
        # The Traditional Chinese face has every form the tiles use (萬, 發, 東, 蘭).
        self.font = next(f for f in fonts if " TC " in f["name"].getDebugName(4))
        self.cmap = self.font.getBestCmap()
        self.glyphs = self.font.getGlyphSet()

    def path(self, char: str, box: tuple[float, float, float, float], fill: str) -> str:
        """``char`` scaled to fit ``box`` (x, y, width, height), centred, as an SVG path."""
        from fontTools.pens.boundsPen import BoundsPen
        from fontTools.pens.svgPathPen import SVGPathPen

        name = self.cmap[ord(char)]
        bounds = BoundsPen(self.glyphs)
        self.glyphs[name].draw(bounds)
        assert bounds.bounds is not None, char
        x0, y0, x1, y1 = bounds.bounds
        bx, by, bw, bh = box
        scale = min(bw / (x1 - x0), bh / (y1 - y0))
        # Font units grow upwards; SVG's y grows downwards.
        tx = bx + (bw - (x1 - x0) * scale) / 2 - x0 * scale
        ty = by + (bh - (y1 - y0) * scale) / 2 + y1 * scale
        pen = SVGPathPen(self.glyphs, ntos=lambda v: f"{v:.0f}")
        self.glyphs[name].draw(pen)
        return (
            f'<path fill="{fill}" transform="translate({tx:.2f} {ty:.2f}) '
            f'scale({scale:.5f} {-scale:.5f})" d="{pen.getCommands()}"/>'
        )


# --- dots (筒) ------------------------------------------------------------------------------


def dot(cx: float, cy: float, r: float, colour: str) -> str:
    """One 筒 coin: a coloured ring, a white ring, a coloured heart with a white eye and eight
    small notches, as on a carved tile."""
    notches = "".join(
        f'<circle cx="{cx + 0.62 * r * math.cos(a):.2f}" cy="{cy + 0.62 * r * math.sin(a):.2f}" '
        f'r="{0.09 * r:.2f}" fill="#fff"/>'
        for a in (i * math.pi / 4 for i in range(8))
    )
    return (
        f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{colour}"/>'
        f'<circle cx="{cx}" cy="{cy}" r="{0.8 * r:.2f}" fill="#fff"/>'
        f'<circle cx="{cx}" cy="{cy}" r="{0.72 * r:.2f}" fill="{colour}"/>'
        f"{notches}"
        f'<circle cx="{cx}" cy="{cy}" r="{0.3 * r:.2f}" fill="#fff"/>'
        f'<circle cx="{cx}" cy="{cy}" r="{0.16 * r:.2f}" fill="{colour}"/>'
    )


def big_dot() -> str:
    """一筒: one large coin of rings in the three colours around a flower."""
    cx, cy = 30, 40
    rings = [(25, GREEN), (22.5, "#fff"), (21, BLUE), (17.5, "#fff"), (16, RED), (12.5, "#fff")]
    out = "".join(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{c}"/>' for r, c in rings)
    for i in range(12):
        a = i * math.pi / 6
        x, y = cx + 19.25 * math.cos(a), cy + 19.25 * math.sin(a)
        out += f'<circle cx="{x:.2f}" cy="{y:.2f}" r="1.1" fill="#fff"/>'
    for i in range(8):
        a = i * math.pi / 4
        x, y = cx + 7.5 * math.cos(a), cy + 7.5 * math.sin(a)
        out += f'<circle cx="{x:.2f}" cy="{y:.2f}" r="3.2" fill="{GREEN}"/>'
    out += f'<circle cx="{cx}" cy="{cy}" r="4.2" fill="{RED}"/>'
    out += f'<circle cx="{cx}" cy="{cy}" r="1.6" fill="#fff"/>'
    return out


B, G, R = BLUE, GREEN, RED
DOTS: dict[int, list[tuple[float, float, float, str]]] = {
    2: [(30, 22, 12, G), (30, 58, 12, B)],
    3: [(15, 16, 10, B), (30, 40, 10, R), (45, 64, 10, G)],
    4: [(17.5, 22, 11, B), (42.5, 22, 11, G), (17.5, 58, 11, G), (42.5, 58, 11, B)],
    5: [(16, 17, 9.5, B), (44, 17, 9.5, G), (30, 40, 9.5, R), (16, 63, 9.5, G), (44, 63, 9.5, B)],
    6: [(18, 14, 9, G), (42, 14, 9, G)] + [(x, y, 9, R) for y in (42, 65) for x in (18, 42)],
    7: [(14, 11, 7.2, G), (30, 19, 7.2, G), (46, 27, 7.2, G)]
    + [(x, y, 8.3, R) for y in (47, 67) for x in (19, 41)],
    8: [(x, y, 8.2, B) for y in (12.5, 31, 49.5, 68) for x in (19, 41)],
    9: [(x, y, 8, c) for y, c in ((15, B), (40, R), (65, G)) for x in (13.5, 30, 46.5)],
}


def dots(n: int) -> str:
    if n == 1:
        return big_dot()
    return "".join(dot(*d) for d in DOTS[n])


# --- bamboo (条) ----------------------------------------------------------------------------


def stick(cx: float, cy: float, h: float, colour: str, angle: float = 0) -> str:
    """One bamboo stick: a rod with swollen nodes at its ends and its middle."""
    w = 7.2
    top, bottom = cy - h / 2, cy + h / 2
    dark = DARK_GREEN if colour == GREEN else "#7d0b1f"
    body = (
        f'<rect x="{cx - w / 2:.2f}" y="{top:.2f}" width="{w}" height="{h:.2f}" rx="{w / 2:.2f}" '
        f'fill="{colour}"/>'
        f'<rect x="{cx - 0.9:.2f}" y="{top + 2:.2f}" width="1.8" height="{h - 4:.2f}" rx="0.9" '
        f'fill="#fff" opacity=".55"/>'
    )
    for y in (top + 1.2, cy, bottom - 1.2):
        body += (
            f'<rect x="{cx - w / 2 - 0.8:.2f}" y="{y - 1.1:.2f}" width="{w + 1.6:.2f}" '
            f'height="2.2" rx="1.1" fill="{dark}"/>'
        )
    if angle:
        return f'<g transform="rotate({angle} {cx} {cy})">{body}</g>'
    return body


SG = GREEN
Stick = tuple[float, float, float, str] | tuple[float, float, float, str, float]
STICKS: dict[int, list[Stick]] = {
    2: [(30, 22, 25, SG), (30, 58, 25, SG)],
    3: [(30, 21, 28, SG), (18, 59, 28, SG), (42, 59, 28, SG)],
    4: [(x, y, 28, SG) for y in (21, 59) for x in (18, 42)],
    5: [(x, y, 28, SG) for y in (21, 59) for x in (13, 47)] + [(30, 40, 28, RED)],
    6: [(x, y, 28, SG) for y in (21, 59) for x in (13, 30, 47)],
    7: [(30, 13, 20, RED)] + [(x, y, 21, SG) for y in (40, 66) for x in (13, 30, 47)],
    8: [
        (9, 21, 28, SG),
        (23, 21, 28, SG, 20),
        (37, 21, 28, SG, -20),
        (51, 21, 28, SG),
        (9, 59, 28, SG),
        (23, 59, 28, SG, -20),
        (37, 59, 28, SG, 20),
        (51, 59, 28, SG),
    ],
    9: [(x, y, 21, RED if x == 30 else SG) for y in (14, 40, 66) for x in (13, 30, 47)],
}


def bamboo(n: int) -> str:
    if n == 1:
        return bird()
    return "".join(stick(*s) for s in STICKS[n])


def bird() -> str:
    """一条 (幺鸡): a peacock standing on a bamboo twig, its tail fanned behind it."""
    feathers = ""
    for i, a in enumerate(range(-75, 46, 15)):
        rad = math.radians(a - 90)
        x, y = 27 + 19 * math.cos(rad), 46 + 19 * math.sin(rad)
        colour = (GREEN, BLUE)[i % 2]
        feathers += (
            f'<ellipse cx="{x:.2f}" cy="{y:.2f}" rx="5.2" ry="9" fill="{colour}" '
            f'transform="rotate({a} {x:.2f} {y:.2f})"/>'
            f'<circle cx="{x:.2f}" cy="{y:.2f}" r="2.4" fill="{RED}"/>'
            f'<circle cx="{x:.2f}" cy="{y:.2f}" r="1" fill="#fff"/>'
        )
    return (
        feathers
        + f'<path d="M18 70 Q30 64 46 71" stroke="{DARK_GREEN}" stroke-width="3" fill="none" '
        'stroke-linecap="round"/>'
        + f'<path d="M30 61 l-3 9 M36 61 l2 9" stroke="{RED}" stroke-width="2" fill="none" '
        'stroke-linecap="round"/>'
        + f'<ellipse cx="33" cy="50" rx="10" ry="13" fill="{GREEN}"/>'
        + f'<ellipse cx="35" cy="52" rx="5" ry="8" fill="{BLUE}"/>'
        + f'<path d="M38 40 Q44 30 41 22" stroke="{GREEN}" stroke-width="6" fill="none" '
        'stroke-linecap="round"/>'
        + f'<circle cx="42" cy="20" r="5.2" fill="{GREEN}"/>'
        + '<circle cx="43.5" cy="19" r="1.5" fill="#fff"/>'
        + f'<circle cx="43.8" cy="19" r=".8" fill="{INK}"/>'
        + f'<path d="M46.5 20 l6 1.6 l-6 1.6 z" fill="{RED}"/>'
        + f'<path d="M40 15 l-2 -6 M42 14.5 l0 -7 M44 15 l2 -6" stroke="{RED}" '
        'stroke-width="1.6" stroke-linecap="round"/>'
        + f'<circle cx="38" cy="9" r="1.5" fill="{RED}"/><circle cx="42" cy="7.5" r="1.5" '
        f'fill="{RED}"/><circle cx="46" cy="9" r="1.5" fill="{RED}"/>'
    )


# --- characters, honours, flowers ---------------------------------------------------------


def characters(glyphs: Glyphs, n: int) -> str:
    return glyphs.path(NUMERALS[n - 1], (12, 5, 36, 30), INK) + glyphs.path(
        "萬", (9, 38, 42, 37), RED
    )


def wind(glyphs: Glyphs, n: int) -> str:
    return glyphs.path(WINDS[n - 1], (7, 12, 46, 56), INK)


def dragon(glyphs: Glyphs, n: int) -> str:
    if n == 5:  # 白: the blue frame
        return (
            f'<rect x="11" y="12" width="38" height="56" rx="3" fill="none" stroke="{BLUE}" '
            'stroke-width="4"/>'
            f'<rect x="17" y="18" width="26" height="44" rx="1.5" fill="none" stroke="{BLUE}" '
            'stroke-width="1.6"/>'
        )
    if n == 6:
        return glyphs.path("發", (6, 12, 48, 56), GREEN)
    return glyphs.path("中", (8, 10, 44, 60), RED)


def flower(glyphs: Glyphs, n: int) -> str:
    """春夏秋冬 (1f–4f, seasons) in red, 梅蘭菊竹 (5f–8f, plants) in green, with their number."""
    colour = RED if n <= 4 else GREEN
    number = "一二三四"[(n - 1) % 4]
    return (
        glyphs.path(FLOWERS[n - 1], (10, 22, 40, 50), colour)
        + glyphs.path(number, (5, 5, 13, 13), BLUE)
        + f'<circle cx="48" cy="11" r="4.5" fill="none" stroke="{colour}" stroke-width="1.5"/>'
        + f'<circle cx="48" cy="11" r="1.6" fill="{colour}"/>'
    )


def svg(body: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" '
        f'height="{H}">'
        "<!-- Queyou tile face. Glyph outlines: Noto Serif CJK (SIL Open Font License 1.1). -->"
        f"{body}</svg>\n"
    )


def faces(glyphs: Glyphs) -> dict[str, str]:
    out: dict[str, str] = {}
    for n in range(1, 10):
        out[f"{n}m"] = characters(glyphs, n)
        out[f"{n}p"] = dots(n)
        out[f"{n}s"] = bamboo(n)
    for n in range(1, 5):
        out[f"{n}z"] = wind(glyphs, n)
    for n in range(5, 8):
        out[f"{n}z"] = dragon(glyphs, n)
    for n in range(1, 9):
        out[f"{n}f"] = flower(glyphs, n)
    return out


def main(argv: list[str]) -> None:
    glyphs = Glyphs(argv[1] if len(argv) > 1 else FONT)
    OUT.mkdir(parents=True, exist_ok=True)
    for name, body in faces(glyphs).items():
        (OUT / f"{name}.svg").write_text(svg(body), encoding="utf-8")
    print(f"wrote {len(faces(glyphs))} faces to {OUT}")


if __name__ == "__main__":
    main(sys.argv)
