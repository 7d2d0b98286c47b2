"""The one place that chooses how the analysis runs: by the kernel (`native`, the fast
path) where it is loaded, else by the Python reference (`analysis.UpCardSolver`). Both
answer the reference's methods, whole counts or real, and the kernel is tested equal to
it. The shipped data is computed by the reference alone (`card.analyse`), whose
sums come in the fixed order `generate --check` compares to the bit."""

from collections.abc import Sequence
from functools import cache, lru_cache

from ..rules import Rules
from . import native
from .analysis import UpCardSolver, reference_solver
from .dealer import Counts


def solver(rules: Rules, up: int, pool: Sequence[float] | None = None) -> UpCardSolver:
    """A new solver of `pool` (the cards the player's come from; by default the full shoe
    less the up card) against `up`."""
    return _new(rules, up, None if pool is None else tuple(pool), native.library() is not None)


def kept_solver(rules: Rules, up: int, pool: Sequence[float] | None = None) -> UpCardSolver:
    """`solver`, kept with its memo: a fresh shoe's for the life of the process (the hints
    of every table; without the kernel, the reference the shipped data is computed by), a
    pool's among the last few (a hand playing on, and its grade at the same moment, ask it
    again)."""
    kernel = native.library() is not None
    if pool is not None:
        return _kept(rules, up, tuple(pool), kernel)
    return _fresh_kernel_solver(rules, up) if kernel else reference_solver(rules, up)


def _new(rules: Rules, up: int, pool: Counts | None, kernel: bool) -> UpCardSolver:
    if kernel:
        return native.KernelSolver(rules, up, pool=pool)
    return UpCardSolver(rules, up, pool=pool)


_kept = lru_cache(maxsize=16)(_new)


@cache
def _fresh_kernel_solver(rules: Rules, up: int) -> UpCardSolver:
    return native.KernelSolver(rules, up)


def forget() -> None:
    """Drop every kept solver with its memo, so the next analysis starts cold (as the
    benchmarks measure it)."""
    _kept.cache_clear()
    _fresh_kernel_solver.cache_clear()
    reference_solver.cache_clear()
