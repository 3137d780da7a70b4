"""Server messages for the page's reducer tests (``tests/js/*.test.js``), made by the engine.

The JSON files in ``tests/js/fixtures/`` are what this module writes; ``tests/js/test_fixtures.py``
fails when they differ from what the engine produces now (run this module to write them again:
``python -m tests.js.fixtures``). A fixture is a ``decision`` message built by
the server's own ``tables.selectors.decision_message`` (the view is the engine's ``seat_view``).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from datetime import datetime
from pathlib import Path
from typing import Any

from rules.engine import apply, legal_actions, new_round
from rules.engine.core import seats_to_act
from rules.engine.state import ClaimPhase, EndedPhase, RoundState, TurnPhase
from rules.registry import get_variant
from rules.views import seat_view
from tests.rules.flow_helpers import play_eager_rounds

HERE = Path(__file__).resolve().parent / "fixtures"
DEADLINE = "2030-01-01T00:00:00+00:00"


def decision(state: RoundState, seat: int | None, *, round_id: int = 7) -> dict[str, Any]:
    """A ``decision`` message for ``seat``, built by the server's own builder
    (``tables.selectors.decision_message``) for an unsaved round at ``state``."""
    from tables.models import Round
    from tables.selectors import decision_message

    ended = isinstance(state.phase, EndedPhase)
    rnd = Round(
        pk=round_id,
        status=Round.Status.ENDED if ended else Round.Status.PLAYING,
        decision_version=state.version,
        deadline=None if ended else datetime.fromisoformat(DEADLINE),
    )
    return decision_message(rnd, state, seat)


def _quiet(state: RoundState, seat: int) -> Any:
    """Win, pass, else the first plain discard: never declares ting."""
    legal = legal_actions(state, seat)
    for action in legal:
        if action.kind in ("self_draw_win", "declare_win", "pass"):
            return action
    return next(a for a in legal if a.kind == "discard" and not a.ting)


def lisi_ting() -> dict[str, Any]:
    """Li-Si: a seat on its turn whose only ting discards are standing tiles (立牌)."""
    for i in range(200):
        seed = hashlib.sha256(b"queyou lisi ting %d" % i).digest()
        state, _ = new_round(variant=get_variant("taiyuan_lisi"), seed=seed, dealer=0)
        while not isinstance(state.phase, EndedPhase):
            seat = seats_to_act(state)[0]
            if isinstance(state.phase, TurnPhase):
                legal = legal_actions(state, seat)
                ting = [a.tile for a in legal if a.kind == "discard" and a.ting]
                standing = state.extra["standing"][seat]
                concealed = state.seats[seat].concealed
                if ting and all(concealed.count(t) == standing.count(t) for t in ting):
                    return decision(state, seat)
            state, _ = apply(state, _quiet(state, seat))
    raise AssertionError("no Li-Si ting position")


def changchun_ting() -> dict[str, Any]:
    """Changchun: a seat on its turn that may declare ting (no standing tiles, no automatic win)."""
    for i in range(200):
        seed = hashlib.sha256(b"queyou changchun ting %d" % i).digest()
        state, _ = new_round(variant=get_variant("changchun"), seed=seed, dealer=0)
        while not isinstance(state.phase, EndedPhase):
            seat = seats_to_act(state)[0]
            legal = legal_actions(state, seat)
            if isinstance(state.phase, TurnPhase) and any(
                a.kind == "discard" and a.ting for a in legal
            ):
                return decision(state, seat)
            state, _ = apply(state, _quiet(state, seat))
    raise AssertionError("no Changchun ting position")


def claim() -> dict[str, Any]:
    """Changchun: a claim window in which the viewer may pong (and pass)."""
    for state, _ in play_eager_rounds("changchun", "fixture/claim", rounds=20):
        phase = state.phase
        if isinstance(phase, ClaimPhase) and phase.kind == "claims":
            for seat in phase.asked:
                kinds = {a.kind for a in legal_actions(state, seat)}
                if "pong" in kinds and "chow" in kinds:
                    return decision(state, seat)
    raise AssertionError("no claim window with a pong and a chow")


def settlement() -> dict[str, Any]:
    """Harbin with 点炮包三家 and a cap of 6: a won round with a kong and a cap line."""
    options = {"dianpao_baosan": True, "cap": 6}
    for state, _ in play_eager_rounds("harbin", "fixture/settle", rounds=60, options=options):
        result = state.result
        if result is None or result.winner is None:
            continue
        kinds = {line["kind"] for line in seat_view(state, 0)["result"]["settlement"]["lines"]}
        if {"win", "kong", "cap"} <= kinds:
            return decision(state, 0)
    raise AssertionError("no Harbin round with a win, a kong and a cap")


def huansanzhang() -> dict[str, Any]:
    """成麻 with 换三张 on, from the dealer's seat (14 tiles, the drawn one apart): the choice as
    dealt (``asked``), after another seat answered (``other_answered``: a new version, the same
    offers), after the dealer answered too (``answered``), and the 定缺 that follows
    (``dingque``). The seed deals the dealer a pair in a suit it may pass on."""
    cm = get_variant("chengma")
    for i in range(100):
        seed = hashlib.sha256(b"queyou huansanzhang %d" % i).digest()
        state, _ = new_round(variant=cm, seed=seed, dealer=0, options={"huansanzhang": True})
        offers = legal_actions(state, 0)
        if not any(len(set(a.tiles)) < 3 for a in offers):  # type: ignore[attr-defined]
            continue
        asked = decision(state, 0)
        state, _ = apply(state, legal_actions(state, 1)[0])
        other = decision(state, 0)
        state, _ = apply(state, offers[0])
        answered = decision(state, 0)
        for seat in (2, 3):
            state, _ = apply(state, legal_actions(state, seat)[0])
        after = decision(state, 0)
        return {"asked": asked, "other_answered": other, "answered": answered, "dingque": after}
    raise AssertionError("no 换三张 deal with a pair in a suit to pass on")


CHENGMA_WINS_SEED = hashlib.sha256(b"queyou chengma wins 1").digest()
"""成麻, dealt by seat 0 and played by the browser test's player: three wins, in the order seat 0
(on seat 1's discard), seat 2 (self-draw), seat 1 (on seat 3's discard), and two kong payments."""


def chengma_round() -> tuple[list[Any], RoundState]:
    """The moves of the :data:`CHENGMA_WINS_SEED` round and its end (the browser test plays the
    same moves through the services)."""
    from tests.tables.test_browser_chengma import _choose

    state, _ = new_round(variant=get_variant("chengma"), seed=CHENGMA_WINS_SEED, dealer=0)
    moves = []
    while state.result is None:
        action = _choose(state, seats_to_act(state)[0])
        moves.append(action)
        state, _ = apply(state, action)
    return moves, state


def chengma_wins() -> dict[str, Any]:
    """成麻 血战到底: the settlement of three wins not in seat order (two discarders)."""
    _, state = chengma_round()
    return decision(state, 3)


def labels_en() -> dict[str, Any]:
    """The rule words the 成麻 table page gets in English (``{% rule_data %}``'s ``rules-labels``,
    built by the server's own :func:`tables.labels.page_labels`): the marks, units, terms …"""
    from django.utils import translation

    from tables.labels import page_labels

    with translation.override("en"):
        return page_labels("chengma")


FIXTURES = {
    "chengma_wins": chengma_wins,
    "labels_en": labels_en,
    "lisi_ting": lisi_ting,
    "changchun_ting": changchun_ting,
    "claim": claim,
    "settlement": settlement,
    "huansanzhang": huansanzhang,
}


def text(name: str) -> str:
    return json.dumps(FIXTURES[name](), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("QUEYOU_TESTING", "1")
    import django

    django.setup()
    HERE.mkdir(exist_ok=True)
    random.seed(0)
    for name in FIXTURES:
        (HERE / f"{name}.json").write_text(text(name), encoding="utf-8")
        print(f"wrote {name}.json")


if __name__ == "__main__":
    main()
