"""长春麻将 Changchun (spec ``changchun.md``), the reference variant: everything of the variant.

``flow.py`` the round flow, ``wins.py`` winning conditions, fan and payments, ``options.py`` the
room options with their bounds, ``labels.py`` what players read. :data:`VARIANT` is the one
object the registry (:mod:`rules.registry`) lists and the engine is handed.
"""

from __future__ import annotations

from rules.variant import Variant
from rules.variants.changchun.flow import ChangchunFlow
from rules.variants.changchun.labels import FAN, NAME, REASONS
from rules.variants.changchun.options import OPTIONS
from rules.variants.changchun.wins import ChangchunRules

VARIANT = Variant(
    key="changchun",
    name=NAME,
    flow=ChangchunFlow(),
    rules=ChangchunRules(),
    options=OPTIONS,
    fan=FAN,
    reasons=REASONS,
)
