"""Store a round played by the engine elsewhere as a finished table stores it (test fixtures and
benchmark data)."""

from __future__ import annotations

from typing import Any

from tables import gameplay
from tables.game import store
from tables.models import Round, RoundAction


def log_played(rnd: Round, actions: list[dict[str, Any]]) -> None:
    """Log ``actions`` as the whole of ``rnd`` in one go, each action with the kong payments it
    made (replayed from the round's seed, as a live table logs them with each action)."""
    kongs = gameplay.replay_kong_payments(store.replay_steps(rnd, actions=actions))
    RoundAction.objects.bulk_create(
        RoundAction(
            round_id=rnd.pk,
            n=i + 1,
            seat=int(a.get("seat", 0)),
            source="auto",
            action=a,
            kong_payments=made,
        )
        for i, (a, made) in enumerate(zip(actions, kongs, strict=True))
    )
    rnd.action_count = len(actions)
    Round.objects.filter(pk=rnd.pk).update(action_count=len(actions))
