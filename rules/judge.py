"""``python -m rules judge``: check and score hands given as JSON lines (spec ``judge.md``).

Each input line is one case; each gets exactly one output line, in order: the verdict of the
variant's hand rules (``variant.rules`` of :func:`rules.registry.judged_variant`, the same
object the live tables call), or
``{"id": ..., "error": "..."}`` for a line that is not JSON (nested deeper than
:data:`rules.json_input.MAX_DEPTH` included) or not a valid case (every
invalid-input rule of ``judge.md`` raises :class:`~rules.errors.InvalidCase`). A blank line is
not a case either and is answered with an error line, so that answers stay aligned with inputs.
The exit status is 0 unless the input cannot be read at all.
"""

from __future__ import annotations

import io
import json
import select
import sys
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any, TextIO, cast

from rules import json_input
from rules.errors import InvalidCase, RulesError
from rules.hand import (
    SPECIAL_KONGS,
    Meld,
    MeldKind,
    SpecialKongName,
    TingContext,
    TingVerdict,
    WinBy,
    WinContext,
)
from rules.hand_rules import HandRules
from rules.registry import JUDGED, judged_variant
from rules.tiles import (
    FLOWER,
    NUM_KINDS,
    Tile,
    count_tiles,
    format_tiles,
    is_suited,
    parse_plain_tiles,
    parse_tiles,
    tile_name,
)
from rules.variant import JudgeKind, Variant

WIN_BYS: tuple[str, ...] = ("discard", "self_draw", "kong_draw", "rob_kong")
SPECIAL_KONG_FAMILIES: Mapping[str, tuple[Tile, ...]] = {k: v for k, v in SPECIAL_KONGS.items()}
"""特殊杠 families: 旋风杠 东南西北, 喜杠 中发白, 幺蛋 1m1p1s, 九蛋 9m9p9s."""


def case_field(
    case: Mapping[str, Any], name: str, kind: type | tuple[type, ...], default: Any
) -> Any:
    """The case's field ``name``, of type ``kind``, or ``default`` when it is absent."""
    value = case.get(name, default)
    if value is default and name not in case:
        return default
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise InvalidCase(f"{name} has the wrong type: {value!r}")
    return value


def case_seat(case: Mapping[str, Any], name: str, *, required: bool = True) -> int | None:
    """The case's seat field ``name`` (0–3), or None when it is absent and not ``required``."""
    value = case.get(name)
    if value is None:
        if required:
            raise InvalidCase(f"{name} is missing")
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 3:
        raise InvalidCase(f"{name} must be a seat 0–3, got {value!r}")
    return value


def case_tiles(text: Any, what: str) -> list[Tile]:
    """Tiles in mpsz notation (``what`` names the field in the error)."""
    if not isinstance(text, str):
        raise InvalidCase(f"{what} must be a tile string, got {text!r}")
    try:
        return parse_tiles(text, max_copies=None)
    except RulesError as exc:
        raise InvalidCase(f"{what}: {exc}") from None


def _one_tile(text: Any, what: str) -> Tile:
    tiles = case_tiles(text, what)
    if len(tiles) != 1:
        raise InvalidCase(f"{what} must be one tile, got {text!r}")
    return tiles[0]


def _check_meld_shape(kind: str, tiles: list[Tile], name: str | None) -> None:
    """A chow is three consecutive suited tiles, a pong three and a kong four of a kind."""
    tiles = sorted(tiles)
    if kind == "chow":
        ok = (
            len(tiles) == 3
            and is_suited(tiles[0])
            and tiles[0] % 9 <= 6
            and tiles == [tiles[0], tiles[0] + 1, tiles[0] + 2]
        )
    elif kind in ("pong", "kong"):
        ok = len(tiles) == (3 if kind == "pong" else 4) and len(set(tiles)) == 1
    else:
        family = SPECIAL_KONG_FAMILIES.get(name or "")
        ok = family is not None and set(tiles) == set(family)
        if name == "xuanfeng" or name == "xi":
            ok = ok and len(tiles) >= len(family or ())
    if not ok:
        label = f"special kong {name!r}" if kind == "special_kong" else f"a {kind}"
        raise InvalidCase(f"{format_tiles(tiles)} is not {label}")


def case_meld(
    raw: Any,
    *,
    variant: str,
    rules: HandRules,
    winner: int,
    options: Mapping[str, Any],
    of_winner: bool = True,
) -> Meld:
    """A case's meld (judge.md, *A case*: ``melds``), checked against the variant's rules; a
    meld ``of_winner`` may not be a pong or kong claimed from ``winner``'s own discard."""
    if not isinstance(raw, Mapping):
        raise InvalidCase(f"a meld must be an object, got {raw!r}")
    kind = raw.get("type")
    if kind not in ("chow", "pong", "kong", "special_kong"):
        raise InvalidCase(f"unknown meld type {kind!r}")
    tiles = case_tiles(raw.get("tiles"), "meld tiles")
    name = raw.get("name") if kind == "special_kong" else None
    _check_meld_shape(kind, tiles, name)
    concealed = case_field(raw, "concealed", bool, False)
    if concealed and kind != "kong":
        raise InvalidCase("only a kong can be concealed (暗杠)")
    from_seat = case_seat(raw, "from", required=False)
    if kind == "chow":
        if not rules.has_chow:
            raise InvalidCase(f"{variant} has no chow")
        if from_seat is not None and from_seat != (winner - 1) % 4:
            raise InvalidCase(f"a chow can only be claimed from the previous seat, not {from_seat}")
    # judge.md: "a pong or exposed kong claimed from the winner"; a ting query (or a settle
    # seat) has no winner, its ``winner`` is only the asking seat (成麻's cm-t4).
    if of_winner and kind in ("pong", "kong") and not concealed and from_seat == winner:
        raise InvalidCase(f"a {kind} cannot be claimed from the player's own discard")
    if kind == "special_kong" and name not in rules.special_kongs(options):
        raise InvalidCase(f"special kong {name!r} does not exist in {variant}")
    added = case_field(raw, "added", bool, False)
    return Meld(
        kind=cast(MeldKind, kind),
        tiles=tuple(sorted(tiles)),
        concealed=concealed,
        from_seat=from_seat,
        added=added,
        name=cast(SpecialKongName | None, name),
    )


def _check_hand_size(rules: HandRules, kind: str, size: int, melds: int) -> None:
    """14 − 3 × melds tiles for a win, one fewer for ting (judge.md, *A case*); 17 − 3 × melds
    for a 16-tile variant (``taiwan16.md``). ``shape`` takes either (five sets and a pair too), as
    judge.md says (:meth:`~rules.hand_rules.HandRules.hand_sizes`).
    """
    allowed = _hand_sizes(rules, kind, melds)
    if size not in allowed:
        need = " or ".join(str(n) for n in allowed)
        raise InvalidCase(f"the hand has {size} tiles; {melds} melds need {need}")


@lru_cache(maxsize=256)
def _hand_sizes(rules: HandRules, kind: str, melds: int) -> tuple[int, ...]:
    short = 1 if kind == "ting" else 0
    return tuple(hand_size + 1 - 3 * melds - short for hand_size in rules.hand_sizes())


def check_tiles_exist(rules: HandRules, tiles: Iterable[Tile], variant: str) -> None:
    """More than four of a kind, flowers outside Taiwan, or a kind the variant does not use."""
    ordered = sorted(tiles)
    if rules.tiles_used.issuperset(ordered) and not any(map(int.__eq__, ordered, ordered[4:])):
        return  # the common case (no kind five times when sorted), without the 42 counts
    counts = count_tiles(ordered)
    for tile, n in enumerate(counts):
        if not n:
            continue
        if tile >= FLOWER and rules.has_flowers:
            raise InvalidCase(
                f"flower {tile_name(tile)} is set aside at once (补花): give it in extra.flowers"
            )
        if tile >= FLOWER:
            raise InvalidCase(f"flower {tile_name(tile)} is not used in {variant}")
        if tile not in rules.tiles_used:
            raise InvalidCase(f"{tile_name(tile)} is not used in {variant}")
        if n > 4:
            raise InvalidCase(f"{n} copies of {tile_name(tile)} in hand and melds")


_NOBODY_OPENED = (False, False, False, False)


def _opened(case: Mapping[str, Any]) -> tuple[bool, bool, bool, bool]:
    """``opened``: four true/false values, nobody opened when absent."""
    if "opened" not in case:
        return _NOBODY_OPENED
    opened_raw = case_field(case, "opened", list, None)
    if len(opened_raw) != 4 or not all(isinstance(x, bool) for x in opened_raw):
        raise InvalidCase("opened must be four true/false values")
    return cast(tuple[bool, bool, bool, bool], tuple(opened_raw))


def _own_kind(case: Any) -> JudgeKind | None:
    """The answer to a case kind of the case's variant's own beyond ``win`` and ``ting`` (its
    :attr:`~rules.variant.Variant.judge_kinds`; 成麻's ``settle``, judge.md), if the case is
    one; the variant is looked up only for such a kind."""
    if not isinstance(case, Mapping):
        return None
    kind, key = case.get("kind"), case.get("variant")
    if not isinstance(kind, str) or kind in ("win", "ting") or not isinstance(key, str):
        return None
    return judged_variant(key).judge_kinds.get(kind)


def parse_case(case: Any) -> WinContext | TingContext:
    """A judge case as the context its variant's rules are asked about; InvalidCase if invalid."""
    if not isinstance(case, Mapping):
        raise InvalidCase("a case must be a JSON object")
    kind = case.get("kind")
    if kind not in ("win", "ting"):
        raise InvalidCase(f"kind must be 'win' or 'ting', got {kind!r}")
    variant = case.get("variant")
    if not isinstance(variant, str):
        raise InvalidCase(f"variant must be a string, got {variant!r}")
    judged = judged_variant(variant)
    rules = judged.rules
    options = judged.validate_options(case_field(case, "options", dict, {}))
    dealer = cast(int, case_seat(case, "dealer"))
    winner = cast(int, case_seat(case, "winner"))
    hand = case_tiles(case.get("hand"), "hand")
    raw_melds = case_field(case, "melds", list, [])
    melds = (
        tuple(
            case_meld(
                m,
                variant=variant,
                rules=rules,
                winner=winner,
                options=options,
                of_winner=kind == "win",
            )
            for m in raw_melds
        )
        if raw_melds
        else ()
    )
    _check_hand_size(rules, kind, len(hand), len(melds))
    check_tiles_exist(rules, [*hand, *(t for m in melds for t in m.tiles)], variant)
    extra = dict(case_field(case, "extra", dict, {}))
    for flag in ("duibao", "chen", "discarder_ting"):
        if flag in extra and not isinstance(extra[flag], bool):
            raise InvalidCase(f"extra.{flag} must be true or false, got {extra[flag]!r}")
    rules.validate_extra(extra)
    opened = _opened(case)
    if kind == "ting":
        ting = TingContext(
            variant=variant,
            dealer=dealer,
            seat=winner,
            concealed=tuple(sorted(hand)),
            melds=melds,
            opened=opened,
            options=options,
            extra=extra,
        )
        rules.validate_ting(ting)
        return ting
    ctx = _win_context(case, rules, variant, dealer, winner, hand, melds, opened, options, extra)
    rules.validate_win(ctx)
    return ctx


def _win_context(
    case: Mapping[str, Any],
    rules: HandRules,
    variant: str,
    dealer: int,
    winner: int,
    hand: list[Tile],
    melds: tuple[Meld, ...],
    opened: tuple[bool, bool, bool, bool],
    options: Mapping[str, Any],
    extra: dict[str, Any],
) -> WinContext:
    win_tile = _one_tile(case.get("win_tile"), "win_tile")
    if win_tile not in hand:
        raise InvalidCase(f"win_tile {tile_name(win_tile)} is not in the hand")
    win_by = case.get("win_by")
    if win_by not in WIN_BYS:
        raise InvalidCase(f"win_by must be one of {', '.join(WIN_BYS)}, got {win_by!r}")
    discarder = case_seat(case, "discarder", required=win_by in ("discard", "rob_kong"))
    if win_by in ("discard", "rob_kong") and discarder == winner:
        raise InvalidCase("the winner cannot be the discarder")
    if win_by not in ("discard", "rob_kong"):
        discarder = None
    if win_by == "kong_draw" and not any(m.is_kong for m in melds):
        raise InvalidCase("kong_draw needs a kong among the melds")
    ting = case_field(case, "ting", bool, False)
    treasure_raw = case.get("treasure")
    treasure = None if treasure_raw is None else _one_tile(treasure_raw, "treasure")
    if treasure is not None and (treasure >= NUM_KINDS or treasure not in rules.tiles_used):
        raise InvalidCase(f"treasure {tile_name(treasure)} is not used in {variant}")
    treasure_win = case_field(case, "treasure_win", bool, False)
    if treasure_win and (
        win_by not in ("self_draw", "kong_draw") or treasure is None or win_tile != treasure
    ):
        raise InvalidCase("treasure_win needs a self-draw with win_tile equal to treasure")
    duibao = extra.get("duibao", False)
    if not isinstance(duibao, bool):
        raise InvalidCase("extra.duibao must be true or false")
    if duibao and (win_by != "self_draw" or treasure is None or win_tile != treasure):
        raise InvalidCase("duibao needs a self-draw with win_tile equal to treasure")
    if treasure_win and duibao:
        raise InvalidCase("a win is either 摸宝 (treasure_win) or 对宝 (duibao), not both")
    if (treasure_win or duibao) and not rules.has_treasure:
        raise InvalidCase(f"{variant} has no treasure")
    if duibao and not rules.has_duibao:
        raise InvalidCase(f"duibao (对宝) does not exist in {variant}")
    return WinContext(
        variant=variant,
        dealer=dealer,
        winner=winner,
        concealed=tuple(sorted(hand)),
        melds=melds,
        win_tile=win_tile,
        win_by=cast(WinBy, win_by),
        discarder=discarder,
        ting=ting,
        treasure=treasure,
        treasure_win=treasure_win,
        opened=opened,
        options=options,
        extra=extra,
    )


def judge_case(case: Any) -> dict[str, Any]:
    """The answer to one decoded case (without its id); raises InvalidCase for invalid input."""
    own = _own_kind(case)
    if own is not None:
        return own(judged_variant(case["variant"]), case)
    ctx = parse_case(case)
    rules = judged_variant(ctx.variant).rules
    if isinstance(ctx, TingContext):
        return _ting_answer(rules.judge_ting(ctx))
    return rules.judge_answer(ctx)


def _ting_answer(verdict: TingVerdict) -> dict[str, Any]:
    """A ting verdict as its answer (judge.md, *The answer*): waits by name, and the reason
    when ting is not allowed."""
    answer: dict[str, Any] = {
        "waits": [tile_name(t) for t in verdict.waits],
        "ting_allowed": verdict.ting_allowed,
    }
    if not verdict.ting_allowed:
        answer["reason"] = verdict.reason
    return answer


def judge_line(line: str) -> dict[str, Any]:
    """One output object for one input line, never raising for bad input."""
    try:
        case = json_input.loads(line)
    except json.JSONDecodeError as exc:  # json_input.TooDeep too: "[" × 1000 is an error line
        message = "empty line" if not line.strip() else f"not valid JSON: {exc.msg}"
        return {"id": None, "error": message}
    case_id = case.get("id") if isinstance(case, dict) else None
    try:
        return {"id": case_id, **judge_case(case)}
    except RulesError as exc:
        return {"id": case_id, "error": str(exc)}
    except Exception as exc:  # a bug must not desynchronise the output from the input
        return {"id": case_id, "error": f"internal error: {type(exc).__name__}: {exc}"}


def judge_lines(lines: Iterable[str]) -> Iterable[str]:
    """Answer lines (JSON, no newline) for input lines, one for one."""
    for line in lines:
        yield answer_line(line.rstrip("\r\n"))


def answer_line(line: str) -> str:
    """The answer to one input line as JSON text: ``judge_line``'s answer, encoded. A plain
    ``kind: ting`` case takes :func:`_plain_ting_answer` (the same answer, with less asked on
    the way); everything else, and every line that would be an error, is judged by
    :func:`judge_line`."""
    answer = _plain_ting_answer(line)
    return answer if answer is not None else _ENCODE(judge_line(line))


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
"""``json.dumps(…, ensure_ascii=False)`` without building an encoder for every answer."""

_RAW_DECODE = json.JSONDecoder().raw_decode
"""What ``json.loads`` runs (the C scanner), without its checks around it: a line it cannot
read whole is left to :func:`judge_line`, which says what is wrong."""

_PLAIN_CACHE_SIZE = 4096


def _plain_ting_answer(line: str) -> str | None:
    """The answer to a well-formed ``kind: ting`` case with no melds, options, extra or opened
    (a program asking for the waits of many hands: tens of thousands a second), or None.

    It asks exactly what :func:`parse_case` and :func:`judge_case` ask of such a case (the same
    rules object, the same context, the same verdict), leaving out the checks that the shape
    of the case already answers: a line it does not recognise as plain and valid, in any way,
    is None, and :func:`judge_line` answers it (its error message included).
    ``test_judge_fast_path.py`` pins that both give the same text."""
    if line[:1] != "{" or line.count("[") + line.count("{") > json_input.MAX_DEPTH:
        return None
    try:
        case, end = _RAW_DECODE(line)
    except Exception:  # bad JSON (a ValueError, a RecursionError): the careful path
        return None
    if (
        end != len(line)
        or type(case) is not dict
        or case.get("kind") != "ting"
        or "opened" in case
        # Only an empty dict equals {} and only an empty list equals []: given empty, each is
        # what parse_case makes of it absent.
        or case.get("options", {}) != {}
        or case.get("extra", {}) != {}
        or case.get("melds", []) != []
    ):
        return None
    variant = case.get("variant")
    dealer = case.get("dealer")
    winner = case.get("winner")
    hand = case.get("hand")
    if (
        type(variant) is not str
        or variant not in JUDGED
        or type(dealer) is not int
        or not 0 <= dealer <= 3
        or type(winner) is not int
        or not 0 <= winner <= 3
        or type(hand) is not str
    ):
        return None
    try:
        judged = JUDGED[variant]
        rules = judged.rules
        concealed = _plain_hand(hand)
        if (
            concealed is None
            or len(concealed) not in _hand_sizes(rules, "ting", 0)
            or not _tiles_plainly_exist(rules, concealed)
        ):
            return None
        extra: dict[str, Any] = {}
        rules.validate_extra(extra)
        ctx = TingContext(
            variant=variant,
            dealer=dealer,
            seat=winner,
            concealed=concealed,
            melds=(),
            opened=_NOBODY_OPENED,
            options=_default_options(judged),
            extra=extra,
        )
        rules.validate_ting(ctx)
        verdict = rules.judge_ting(ctx)
        body = _ting_body(verdict.waits, verdict.ting_allowed, verdict.reason)
    except Exception:  # an invalid case or a bug: judge_line answers it, as it would
        return None
    case_id = case.get("id")
    if case_id is None:
        id_text = "null"
    elif type(case_id) is int:
        id_text = int.__repr__(case_id)
    else:
        id_text = _ENCODE(case_id)
    return f'{{"id": {id_text}, {body}'


_PLAIN_HANDS: dict[str, tuple[Tile, ...]] = {}
"""Plain hands seen, notation → sorted tiles (the first few thousand)."""


def _plain_hand(text: str) -> tuple[Tile, ...] | None:
    """The sorted tiles of plain notation (what ``parse_tiles`` reads on its fast path), or
    None for anything it would have to read character by character."""
    known = _PLAIN_HANDS.get(text)
    if known is None:
        tiles = parse_plain_tiles(text)
        if tiles is None:
            return None
        known = tuple(sorted(tiles))
        if len(_PLAIN_HANDS) < _PLAIN_CACHE_SIZE:
            _PLAIN_HANDS[text] = known
    return known


def _tiles_plainly_exist(rules: HandRules, ordered: tuple[Tile, ...]) -> bool:
    """:func:`check_tiles_exist`'s common case: every tile used by the variant, none five
    times (``ordered`` is sorted)."""
    return rules.tiles_used.issuperset(ordered) and not any(map(int.__eq__, ordered, ordered[4:]))


_DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {}


def _default_options(judged: Variant) -> dict[str, Any]:
    """``judged.validate_options({})`` (the defaults), worked out once per variant; a fresh
    copy for each case, as :func:`parse_case` gives."""
    defaults = _DEFAULT_OPTIONS.get(judged.key)
    if defaults is None:
        defaults = _DEFAULT_OPTIONS[judged.key] = judged.validate_options({})
    return dict(defaults)


@lru_cache(maxsize=_PLAIN_CACHE_SIZE, typed=True)
def _ting_body(waits: tuple[Tile, ...], ting_allowed: bool, reason: str | None) -> str:
    """:func:`_ting_answer` as JSON text without the opening ``{`` (what ``_ENCODE`` writes
    after the id), worked out once per verdict (``typed``: ``1`` is not ``true``)."""
    verdict = TingVerdict(waits=waits, ting_allowed=ting_allowed, reason=reason)
    return _ENCODE(_ting_answer(verdict))[1:]


def judge_stream(stream: TextIO, out: TextIO, *, interactive: bool = True) -> None:
    """Answer every line of ``stream`` on ``out``. ``interactive``: someone may be waiting for
    each answer before sending the next line (a pipe from a program), so an answer is flushed
    whenever no further input is already waiting; a file's answers are written in blocks (one
    write per answer cost the judge a third of its time on 20,000 lines)."""
    waiting = _input_waiting(stream) if interactive else None
    block: list[str] = []
    for answer in judge_lines(stream):
        block.append(answer)
        if len(block) >= _BLOCK_LINES or (waiting is not None and not waiting()):
            _write_block(out, block)
    _write_block(out, block)


_BLOCK_LINES = 512
"""Answers written at once when nobody waits for them one by one."""


def _write_block(out: TextIO, block: list[str]) -> None:
    if block:
        out.write("\n".join(block) + "\n")
        block.clear()
    out.flush()


def _input_waiting(stream: TextIO) -> Callable[[], bool]:
    """A test of whether more input can be read from ``stream`` without blocking (always false,
    so every answer is flushed, for a stream without a file descriptor)."""
    try:
        fd = stream.fileno()
    except (OSError, ValueError, io.UnsupportedOperation):
        return lambda: False

    def waiting() -> bool:
        try:
            readable, _, _ = select.select([fd], [], [], 0)
        except (OSError, ValueError):
            return False
        return bool(readable)

    return waiting


def judge_main(file: str = "-", out: TextIO | None = None) -> int:
    """Judge the JSON lines of ``file`` (``-``: standard input); 0 unless it cannot be read."""
    target = out if out is not None else sys.stdout
    try:
        if file == "-":
            stream = sys.stdin
            if isinstance(stream, io.TextIOWrapper):
                stream.reconfigure(errors="replace")
            judge_stream(stream, target)
        else:
            with open(file, encoding="utf-8", errors="replace") as handle:
                judge_stream(handle, target, interactive=False)
    except OSError as exc:
        print(f"cannot read {file}: {exc}", file=sys.stderr)
        return 2
    return 0
