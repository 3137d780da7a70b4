"""A settled round as a picture to share (结算图, "a shareable result image of a
settlement (PNG made by the server)").

The picture says what the round page says, in the viewer's language: the variant, the room, each
win in win order with its tile, who dealt in and its fan items, then every player's result of
the round and of the match so far. Drawn with Pillow in a CJK font found on the system (Debian's
``fonts-noto-cjk``; :data:`FONT_CANDIDATES`); without one, Pillow's own font draws what it can,
so the page never fails for want of a font.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.utils import timezone
from django.utils.translation import gettext as _
from PIL import Image, ImageDraw, ImageFont

from scoring.selectors import RoundRow
from tables.labels import tile_names

WIDTH = 720
MARGIN = 32
LINE = 34
FONT_CANDIDATES = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/System/Library/Fonts/PingFang.ttc",
)
"""CJK fonts tried in order (the first that exists); Pillow's default font otherwise."""

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

INK = (34, 34, 34)
MUTED = (110, 110, 110)
RED = (184, 38, 26)
GREEN = (31, 111, 80)
PAPER = (251, 248, 240)
FELT = (31, 94, 69)


@cache
def font_path() -> str | None:
    """The first CJK font of :data:`FONT_CANDIDATES` on this machine, or None."""
    return next((path for path in FONT_CANDIDATES if Path(path).is_file()), None)


@cache
def font(size: int) -> Font:
    path = font_path()
    if path is None:
        return ImageFont.load_default(size=size)
    return ImageFont.truetype(path, size=size)


@dataclass(frozen=True)
class Line:
    """One line of the picture: its text, size and colour."""

    text: str
    size: int = 22
    color: tuple[int, int, int] = INK
    gap: int = 0


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def result_lines(
    *, row: RoundRow, names: list[str], variant: str, room: str, club: str
) -> list[Line]:
    """What the picture says, line by line (also what its test reads)."""
    tiles = tile_names()
    lines = [
        Line(_("雀友 · 第 %(n)s 盘结算") % {"n": row.number}, size=30, color=FELT),
        Line(f"{variant} · {club} · {room}", size=20, color=MUTED, gap=8),
    ]
    if not row.winners:
        lines.append(Line(_("荒庄（流局）"), size=26, color=RED, gap=6))
    single = len(row.wins) == 1  # 成麻's later wins have tiles of their own, not row.win_tile
    for win in row.wins:
        who = names[win.seat]
        tile = tiles.get(row.win_tile, row.win_tile)
        if win.self_drawn and single:
            head = _("%(who)s 自摸 %(tile)s") % {"who": who, "tile": tile}
        elif win.self_drawn:
            head = _("%(who)s 自摸") % {"who": who}
        elif row.discarder is not None and single:
            head = _("%(who)s 胡 %(tile)s（%(from)s 点炮）") % {
                "who": who,
                "tile": tile,
                "from": names[row.discarder],
            }
        else:
            head = _("%(who)s 胡") % {"who": who}
        lines.append(Line(head, size=26, color=RED, gap=6))
        items = "、".join(f"{item.label} {item.value}" for item in win.fan)
        total = _("共 %(total)s %(unit)s") % {"total": win.fan_total, "unit": row.unit}
        lines.append(Line(f"{items}  {total}" if items else total, size=20))
    if row.capped and row.cap is not None:
        lines.append(Line(_("封顶 %(cap)s") % {"cap": row.cap}, size=20, color=MUTED))
    lines.append(Line(f"\t{_('本盘')}\t{_('累计')}", size=20, color=MUTED, gap=12))
    for seat in range(4):
        dealer = _("（庄）") if seat == row.dealer else ""
        lines.append(
            Line(
                f"{names[seat]}{dealer}\t{signed(row.nets[seat])}\t{signed(row.cumulative[seat])}",
                size=24,
                color=GREEN if row.nets[seat] > 0 else RED if row.nets[seat] < 0 else INK,
            )
        )
    ended = timezone.localtime(row.ended_at).strftime("%Y-%m-%d %H:%M")
    lines.append(Line(ended, size=16, color=MUTED, gap=12))
    return lines


def _wrap(draw: ImageDraw.ImageDraw, text: str, face: Font, width: int) -> list[str]:
    """``text`` cut into lines no wider than ``width`` (character by character: Chinese has no
    spaces to break at)."""
    out: list[str] = []
    current = ""
    for char in text:
        if current and draw.textlength(current + char, font=face) > width:
            out.append(current)
            current = char
        else:
            current += char
    return [*out, current]


def result_png(*, row: RoundRow, names: list[str], variant: str, room: str, club: str) -> bytes:
    """The settlement of ``row`` as a PNG (:func:`result_lines` drawn on paper)."""
    lines = result_lines(row=row, names=names, variant=variant, room=room, club=club)
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    inner = WIDTH - 2 * MARGIN
    laid: list[tuple[Line, list[str]]] = []
    height = MARGIN
    for line in lines:
        parts = (
            [line.text] if "\t" in line.text else _wrap(measure, line.text, font(line.size), inner)
        )
        laid.append((line, parts))
        height += line.gap + len(parts) * (line.size + LINE - 22)
    height += MARGIN
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, 6), fill=FELT)
    y = MARGIN
    for line, parts in laid:
        y += line.gap
        face = font(line.size)
        for part in parts:
            if "\t" in part:  # a player's row: name, the round, the match so far
                name, net, total = part.split("\t")
                draw.text((MARGIN, y), name, font=face, fill=INK)
                ink = line.color if line.color == MUTED else INK
                right = WIDTH - MARGIN - 200 - draw.textlength(net, font=face)
                draw.text((right, y), net, font=face, fill=line.color)
                right = WIDTH - MARGIN - draw.textlength(total, font=face)
                draw.text((right, y), total, font=face, fill=ink)
            else:
                draw.text((MARGIN, y), part, font=face, fill=line.color)
            y += line.size + LINE - 22
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
