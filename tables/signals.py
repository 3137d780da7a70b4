"""Signals of the live tables.

``round_finished`` is sent after the commit of the transaction that ended a round, with
``round=<tables.models.Round>`` (its ``result`` holds the nets and the next dealer). The settlement
(:mod:`scoring.hooks`) connects to it; nothing in ``tables`` depends on who listens.
"""

from __future__ import annotations

from django.dispatch import Signal

round_finished = Signal()
