"""四平麻将 Siping (spec ``siping.md``): everything of the variant.

``flow.py`` the round flow, ``wins.py`` winning conditions, fan and payments, ``options.py`` the
room options with their bounds, ``labels.py`` what players read. :data:`VARIANT` is the one
object the registry (:mod:`rules.registry`) lists and the engine is handed.
"""

from __future__ import annotations

from rules.variant import Variant
from rules.variants.siping.flow import SipingFlow
from rules.variants.siping.labels import FAN, NAME, REASONS
from rules.variants.siping.options import OPTIONS
from rules.variants.siping.wins import SipingRules

VARIANT = Variant(
    key="siping",
    name=NAME,
    flow=SipingFlow(),
    rules=SipingRules(),
    options=OPTIONS,
    fan=FAN,
    reasons=REASONS,
)
