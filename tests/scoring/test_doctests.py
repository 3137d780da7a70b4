"""The examples in the scoring modules' docstrings hold (placements, chart grid, rating)."""

from __future__ import annotations

import doctest

import pytest

from scoring import charts, ratings, selectors


@pytest.mark.parametrize("module", [selectors, charts, ratings])
def test_the_docstring_examples_hold(module):
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0
