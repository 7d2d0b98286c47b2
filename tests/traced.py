"""`make test` prints coverage, and its tracer makes the pure Python computations 2 to 4
times slower. A test that repeats lines other tests run traced (a simulation, a script
under many interleavings) is marked `no_cover`; a parametrized test whose cases all run
the same lines runs its first cases traced and the others untraced: the same figure, in
less time."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from blackjack.rules import TABLES


def first_traced(cases: Iterable[Any], traced: int = 1) -> list[Any]:
    """The cases for `pytest.mark.parametrize`, all but the first `traced` untraced (a
    case of several arguments is a tuple)."""
    return [
        pytest.param(
            *(case if isinstance(case, tuple) else (case,)),
            marks=() if n < traced else pytest.mark.no_cover,
        )
        for n, case in enumerate(cases)
    ]


# For a test that computes the same at every table: bicycle's runs traced, since it has
# insurance and splits of one rank only (classic has neither); the others untraced.
TABLES_ONE_TRACED = first_traced(sorted(TABLES, key=lambda table: table != "bicycle"))
