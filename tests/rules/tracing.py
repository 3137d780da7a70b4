"""Round traces: whole rounds written as data, one JSON line per step, read like perft files.

A trace file (``tests/rules/traces/<variant>.jsonl``) holds a few rounds. Each round starts with
a header line and the deal, then one line per action, and ends with the result::

    {"round": "changchun random 0", "variant": "changchun", "seed": "trace/changchun/random/0",
     "dealer": 0, "options": {}, "events": ["round_started variant=changchun dealer=0 …", …]}
    {"seat": 0, "legal": "discard 1m2m3m4p 7z | concealed_kong tile=1m", "play": "discard tile=7z",
     "events": ["discarded seat=0 tile=7z", "turn_started seat=1", "drew seat=1 tile=5s"]}
    …
    {"result": {"winner": 2, "nets": [-2, -2, 6, -2], …}}

``legal`` is every action the seat is offered (plain discards as one tile string, in tile
order; every other action in the engine's order, separated by ``|``); ``play`` is the action
taken; ``events`` are exactly the events :func:`rules.engine.apply` returned, each as its kind
and its fields (``name=value``; a field that is false or null is left out). The test
(``test_traces.py``) deals each round again from its seed, checks every step's offers, plays
its action and compares the events; a change in behaviour shows as a readable diff.

Pin new traces after an intended rule change (never to make a failing test pass unread)::

    .venv/bin/python -m tests.rules.tracing --write
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from rules.engine import (
    Action,
    RoundState,
    action_from_json,
    apply,
    legal_actions,
    new_round,
    seats_to_act,
)
from rules.engine.actions import Discard
from rules.engine.events import Event
from rules.registry import get_variant
from rules.simulate import random_bot
from rules.tiles import format_tiles
from rules.wall import seed_from_text
from tests.rules.flow_helpers import eager_choice

FOLDER = Path(__file__).resolve().parent / "traces"
VARIANTS = ("changchun", "harbin", "siping", "taiyuan_lisi", "taiwan16", "chengma")
EAGER_OPTIONS: Mapping[str, Mapping[str, Any]] = {
    "changchun": {"ting_required": True, "dianpao_quanbao": True},
    "harbin": {"dianpao_baosan": True},
    "siping": {"liting": True, "fengang": True, "zfbgang": True, "chen_zfb": True},
    "taiyuan_lisi": {},
    "taiwan16": {"tai_value": 2},
    "chengma": {"huansanzhang": True, "zimo": "jiafan", "cap": None},
}
"""Room options of the ting-seeking rounds (the variants' own options on)."""
MAX_STEPS = 2000

_SIMPLE = re.compile(r"[0-9A-Za-z_.-]+")


# --- the notation ----------------------------------------------------------------------------


def _value(value: Any) -> str:
    """A field's value: tiles, numbers and names bare; lists and objects in brackets, their
    false and null members left out; any other text as a JSON string."""
    if value is True or value is False or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        simple = _SIMPLE.fullmatch(value) and value not in ("true", "false", "null")
        return value if simple else json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ",".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        members = (f"{k}:{_value(v)}" for k, v in value.items() if v is not False and v is not None)
        return "{" + ",".join(members) + "}"
    raise TypeError(f"not JSON: {value!r}")


def _fields(data: Mapping[str, Any], skip: tuple[str, ...]) -> str:
    parts = [
        f"{name}={_value(value)}"
        for name, value in data.items()
        if name not in skip and value is not False and value is not None
    ]
    return " ".join(parts)


def event_text(event: Event) -> str:
    """``kind name=value …`` (false and null fields left out)."""
    data = event.to_json()
    rest = _fields(data, ("kind",))
    return f"{data['kind']} {rest}".rstrip()


def action_text(action: Action, *, seat: bool = False) -> str:
    """``kind name=value …`` of an action (its seat only if asked)."""
    data = action.to_json()
    rest = _fields(data, ("kind",) if seat else ("kind", "seat"))
    return f"{data['kind']} {rest}".rstrip()


def legal_text(actions: list[Action]) -> str:
    """The offers: plain discards as one tile string, the rest in order, ``|`` between."""
    plain = [a.tile for a in actions if type(a) is Discard and not a.ting]
    parts = [f"discard {format_tiles(plain)}"] if plain else []
    parts += [action_text(a) for a in actions if not (type(a) is Discard and not a.ting)]
    return " | ".join(parts)


def _parse_value(text: str) -> Any:
    """A bare value of an action (actions have flags, numbers, names and tile lists only)."""
    if text in ("true", "false"):
        return text == "true"
    if text.lstrip("-").isdigit():
        return int(text)
    if text.startswith("["):
        return [_parse_value(v) for v in text[1:-1].split(",") if v]
    return text


def parse_action(text: str, seat: int) -> Action:
    """The action an :func:`action_text` line names (for ``seat``)."""
    kind, *pairs = text.split(" ")
    data: dict[str, Any] = {"kind": kind, "seat": seat}
    for pair in pairs:
        name, _, value = pair.partition("=")
        data[name] = _parse_value(value)
    return action_from_json(data)


def result_json(state: RoundState) -> dict[str, Any]:
    result = state.result
    assert result is not None
    return {
        "winner": result.winner,
        "win_by": result.win_by,
        "discarder": result.discarder,
        "fan": dict(result.verdict.fan) if result.verdict else {},
        "nets": list(result.nets),
        "next_dealer": result.next_dealer,
        # 成麻 (血战到底): every seat that won, in order (the fields above are the first win's).
        **({"wins": [w["seat"] for w in state.extra["wins"]]} if "wins" in state.extra else {}),
    }


# --- recording and replaying -----------------------------------------------------------------


def deal(
    variant: str, seed: bytes, dealer: int, options: Mapping[str, Any]
) -> tuple[RoundState, list[Event]]:
    return new_round(variant=get_variant(variant), seed=seed, dealer=dealer, options=options)


Chooser = Callable[[RoundState, int, list[Action]], Action]


def record_round(
    name: str, variant: str, seed: str, dealer: int, options: Mapping[str, Any], choose: Chooser
) -> list[dict[str, Any]]:
    """The lines of one round played by ``choose``."""
    state, events = deal(variant, seed_from_text(seed), dealer, options)
    lines: list[dict[str, Any]] = [
        {
            "round": name,
            "variant": variant,
            "seed": seed,
            "dealer": dealer,
            "options": dict(options),
            "events": [event_text(e) for e in events],
        }
    ]
    for _ in range(MAX_STEPS):
        if state.result is not None:
            break
        seat = seats_to_act(state)[0]
        actions = legal_actions(state, seat)
        action = choose(state, seat, actions)
        state, events = apply(state, action)
        lines.append(
            {
                "seat": seat,
                "legal": legal_text(actions),
                "play": action_text(action),
                "events": [event_text(e) for e in events],
            }
        )
    lines.append({"result": result_json(state)})
    return lines


def rounds_in(path: Path) -> Iterator[list[dict[str, Any]]]:
    """The rounds of a trace file, each as its lines (header first, result last)."""
    current: list[dict[str, Any]] = []
    for text in path.read_text(encoding="utf-8").splitlines():
        if not text.strip():
            continue
        line = json.loads(text)
        if "round" in line and current:
            yield current
            current = []
        current.append(line)
    if current:
        yield current


def replay_round(lines: list[dict[str, Any]]) -> Iterator[tuple[str, Any, Any]]:
    """Deal and play a recorded round: ``(where, expected, got)`` for every check, in order."""
    head = lines[0]
    state, events = deal(
        head["variant"], seed_from_text(head["seed"]), head["dealer"], head["options"]
    )
    yield f"{head['round']}: deal", head["events"], [event_text(e) for e in events]
    for number, step in enumerate(lines[1:-1], 1):
        where = f"{head['round']}: step {number}"
        seat = step["seat"]
        yield f"{where} seats to act", seat, seats_to_act(state)[0]
        yield f"{where} legal", step["legal"], legal_text(legal_actions(state, seat))
        state, events = apply(state, parse_action(step["play"], seat))
        yield f"{where} events", step["events"], [event_text(e) for e in events]
    yield f"{head['round']}: result", lines[-1]["result"], result_json(state)


# --- the pinned rounds -----------------------------------------------------------------------


def _pick(
    variant: str,
    kind: str,
    options: Mapping[str, Any],
    make: Callable[[int], Chooser],
    *,
    won: bool,
    count: int = 1,
) -> list[list[dict[str, Any]]]:
    """The first ``count`` rounds (seeds 0, 1, …) of ``kind`` that end in a win (or a draw)."""
    found: list[list[dict[str, Any]]] = []
    for index in range(200):
        seed = f"trace/{variant}/{kind}/{index}"
        lines = record_round(
            f"{variant} {kind} {index}", variant, seed, index % 4, options, make(index)
        )
        if (lines[-1]["result"]["winner"] is not None) == won:
            found.append(lines)
            if len(found) == count:
                return found
    raise AssertionError(f"not {count} such {kind} rounds of {variant} in 200")


def _random(index: int) -> Chooser:
    bot = random_bot(random.Random(index))
    return lambda _state, _seat, actions: bot(actions)


def _eager(index: int) -> Chooser:
    rng = random.Random(index)
    return lambda state, seat, _actions: eager_choice(state, seat, rng)


def pinned_rounds(variant: str) -> list[list[dict[str, Any]]]:
    """A variant's traced rounds: random bots (a win, and a round drawn at the wall's end) and
    ting-seeking bots with the variant's room options on (two wins and a drawn round)."""
    options = EAGER_OPTIONS[variant]
    return [
        *_pick(variant, "random", {}, _random, won=True),
        *_pick(variant, "random", {}, _random, won=False),
        *_pick(variant, "eager", options, _eager, won=True, count=2),
        *_pick(variant, "eager", options, _eager, won=False),
    ]


def write_traces() -> None:
    FOLDER.mkdir(exist_ok=True)
    for variant in VARIANTS:
        text = "".join(
            json.dumps(line, ensure_ascii=False) + "\n"
            for lines in pinned_rounds(variant)
            for line in lines
        )
        (FOLDER / f"{variant}.jsonl").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.rules.tracing --write")
    write_traces()
