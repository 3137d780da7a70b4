"""What every variant's hand rules share (:mod:`rules.wins.base`) and the judge's ``shape``.

A variant's own hand rules are in its package (``rules/variants/<key>/wins.py``) and reached
through its :class:`~rules.variant.Variant` (``variant.rules``). The round engine and the judge
ask exactly the same questions of a :class:`~rules.wins.base.HandRules`:

* ``judge_win(WinContext) -> WinVerdict``: legal, fan, total, capped ``payments`` and the
  uncapped pairwise ``transfers`` of the win alone; or the first failing ``reason``;
* ``judge_ting(TingContext) -> TingVerdict``: legal waits if ting were declared now, whether
  ting is allowed, and the reason when it is not; ``ting_ok_after(ctx)`` is its yes/no;
* ``kong_transfers(konger=, meld=, options=)``: what the others pay for a kong (杠分);
* Harbin also has ``ting_conditions(ctx)`` (its ting conditions 1–6 for 听 / 吃听).

>>> from rules.registry import judged_variant
>>> judged_variant("changchun").rules.conditions[:2]
('not_complete', 'not_ting')
"""

from __future__ import annotations

from rules.wins.base import HandRules

__all__ = ["HandRules"]
