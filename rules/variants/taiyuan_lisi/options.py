"""太原立四 Taiyuan Li-Si: its room options, with their defaults and bounds
(spec ``taiyuan_lisi.md``).

The authority on a room's options: the admin form, the API schema, the calculator's option boxes
and :meth:`rules.variant.Variant.validate_options` all read this tuple.
"""

from __future__ import annotations

from rules.options import BASE, HINTS, Option, cap

OPTIONS: tuple[Option, ...] = (
    BASE,
    cap(None),
    HINTS,
)
