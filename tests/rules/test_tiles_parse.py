"""The notation parser's fast path reads exactly what the careful one reads."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.errors import NotationError
from rules.tiles import _parse_slow, format_tiles, parse_plain_tiles, parse_tiles

NOTATION_CHARS = st.text(alphabet="0123456789mpszfx ²", max_size=24)
TILES = st.lists(st.integers(min_value=0, max_value=41), max_size=17)


@given(NOTATION_CHARS)
def test_fast_path_agrees_or_defers(text: str) -> None:
    """Where the fast path answers, the careful parser gives the same tiles; where it defers
    (None), the careful parser either raises or the text has spaces."""
    fast = parse_plain_tiles(text)
    try:
        slow = _parse_slow(text)
    except NotationError:
        assert fast is None
        return
    assert fast is None or fast == slow
    if fast is None:
        assert any(ch.isspace() for ch in text)


@given(TILES)
def test_canonical_notation_takes_the_fast_path(tiles: list[int]) -> None:
    text = format_tiles(tiles)
    assert parse_plain_tiles(text) == sorted(tiles)
    assert parse_tiles(text, max_copies=None) == sorted(tiles)


@given(st.lists(st.integers(min_value=0, max_value=33), min_size=13, max_size=13))
def test_shape_ting_shortcut_answers_as_the_general_rule(tiles: list[int]) -> None:
    """``shape``'s own ting answer equals the general one (every wait asked as a win)."""
    from rules.hand import TingContext
    from rules.hand_rules import HandRules
    from rules.variants.shape import SHAPE

    if max(tiles.count(t) for t in tiles) > 4:
        return
    ctx = TingContext(
        variant="shape",
        dealer=0,
        seat=0,
        concealed=tuple(sorted(tiles)),
        melds=(),
        opened=(False, False, False, False),
        options={},
        extra={},
    )
    assert SHAPE.rules.judge_ting(ctx) == HandRules.judge_ting(SHAPE.rules, ctx)
