"""The analysis kernel (`layers/engine/native/kernel.c`), the analysis's fast path: the
solver's values in plain C, loaded through ctypes, with `analysis.UpCardSolver` as the
reference it is tested against (`solvers` chooses between the two).

The kernel holds one pool against one up card with its memos (the dealer's chances per
composition removed, each hand's best value), so a hint is a handful of calls instead of
thousands of Python frames. Python keeps the rules: which actions a hand may take (the
engine's `play_actions`) is tabulated here once per rule set and up card and handed to
the kernel, which only counts. The pool's counts may be fractional (kernel.h).

The library is built by `make` (the host's, for tests and the local stack) and by the
layer's Makefile (aarch64, for Lambda) next to this file. Where it is missing or does not
load, one line is logged and `library()` is None: the Python reference runs instead.
`BLACKJACK_ANALYSIS=python` forces that path (the tests run both).
"""

import ctypes
import logging
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ..actions import Action
from ..rules import Rules, Split
from .analysis import EMPTY, UpCardSolver
from .dealer import ACE, OUTCOMES, RANKS, TEN, Comp

LIBRARY = Path(__file__).with_name("_kernel.so")
FORCE_PYTHON = "BLACKJACK_ANALYSIS"  # set to "python": the Python analysis, kernel or not

_SPLIT_MAY_HIT = 1
_SPLIT_MAY_DOUBLE = 2

_log = logging.getLogger(__name__)

Counts = ctypes.c_double * RANKS
Cards = ctypes.c_int32 * RANKS
Outcomes = ctypes.c_double * OUTCOMES


class Config(ctypes.Structure):
    """kernel.h's `bj_config`, field for field."""

    _fields_ = (
        ("counts", Counts),
        ("ten_of_rank", ctypes.c_double),
        ("up", ctypes.c_int32),
        ("peeked", ctypes.c_int32),
        ("any_21_pays_3_2", ctypes.c_int32),
        ("same_rank_tens", ctypes.c_int32),
        ("max_hands", ctypes.c_int32 * RANKS),
        ("split_legal", (ctypes.c_uint8 * RANKS) * RANKS),
    )


def _declare(lib: ctypes.CDLL) -> ctypes.CDLL:
    pointer, value, cards = ctypes.c_void_p, ctypes.c_double, ctypes.POINTER(ctypes.c_int32)
    signatures = {
        "bj_config_size": (ctypes.c_int32, []),
        "bj_finals_new": (pointer, [ctypes.c_int32, ctypes.c_int32]),
        "bj_finals_free": (None, [pointer]),
        "bj_finals_count": (ctypes.c_int32, [pointer]),
        "bj_solver_new": (pointer, [ctypes.POINTER(Config), pointer]),
        "bj_solver_free": (None, [pointer]),
        "bj_dealer": (ctypes.c_int32, [pointer, cards, ctypes.POINTER(ctypes.c_double)]),
        "bj_stand": (value, [pointer, cards, cards]),
        "bj_hit": (value, [pointer, cards, cards]),
        "bj_best": (value, [pointer, cards]),
        "bj_double": (value, [pointer, cards, cards]),
        "bj_surrender": (value, [pointer, cards, cards]),
        "bj_split": (value, [pointer, ctypes.c_int32, cards, ctypes.c_int32]),
    }
    for name, (restype, argtypes) in signatures.items():
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = argtypes
    if lib.bj_config_size() != ctypes.sizeof(Config):
        raise OSError(f"{LIBRARY.name} is not built from these sources: make builds it again")
    return lib


@cache
def _loaded() -> ctypes.CDLL | None:
    # PyDLL, not CDLL: its calls keep the GIL, so that threads sharing a cached solver
    # (functions served in one process) never run inside its memos at once.
    try:
        return _declare(ctypes.PyDLL(str(LIBRARY)))
    except (OSError, AttributeError) as error:
        _log.warning("analysis kernel not loaded, the Python analysis runs: %s", error)
        return None


def library() -> ctypes.CDLL | None:
    """The kernel, or None where it is not built, does not load, or Python is forced."""
    if os.environ.get(FORCE_PYTHON) == "python":
        return None
    return _loaded()


class _Finals:
    """The dealer's finals of an up card and soft-17 rule, owned (freed) by this object."""

    def __init__(self, lib: ctypes.CDLL, up: int, hits_soft_17: bool) -> None:
        self._free = lib.bj_finals_free
        self.pointer = lib.bj_finals_new(up, hits_soft_17)
        if not self.pointer:
            raise MemoryError("the analysis kernel could not build the dealer's finals")

    def __del__(self) -> None:
        if getattr(self, "pointer", None):
            self._free(self.pointer)


@cache
def _finals(up: int, hits_soft_17: bool) -> _Finals:
    lib = _loaded()
    assert lib is not None
    return _Finals(lib, up, hits_soft_17)


@cache
def _split_table(rules: Rules, up: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Per pair rank, the hands a box may hold after splitting it; per (pair, second card),
    what the split hand may do (the engine's rules, as `UpCardSolver.legal` reads them)."""
    reader = UpCardSolver(rules, up)
    max_hands = tuple(
        rules.max_hands if pair != ACE or rules.resplit_aces else 2 for pair in range(RANKS)
    )
    legal = []
    for pair in range(RANKS):
        row = []
        for second in range(RANKS):
            hand = tuple(int(r == pair) + int(r == second) for r in range(RANKS))
            actions = reader.legal(hand, pair=pair) if rules.split is not Split.NONE else ()
            row.append(
                (_SPLIT_MAY_HIT if Action.HIT in actions else 0)
                | (_SPLIT_MAY_DOUBLE if Action.DOUBLE in actions else 0)
            )
        legal.append(tuple(row))
    return max_hands, tuple(legal)


def config_of(s: UpCardSolver) -> Config:
    """The kernel's configuration of a solver: its pool and up card, and its rules as the
    kernel reads them."""
    rules = s.rules
    max_hands, legal = _split_table(rules, s.up)
    config = Config()
    config.counts = Counts(*s.counts)
    # Same-rank splits of tens: as `UpCardSolver.split` estimates the tens of one rank.
    config.ten_of_rank = 4 * rules.decks if s.pool is None else s.counts[TEN] / 4
    config.up = s.up
    config.peeked = s.peeked
    config.any_21_pays_3_2 = rules.any_21_pays_3_2
    config.same_rank_tens = rules.split is Split.SAME_RANK
    config.max_hands = (ctypes.c_int32 * RANKS)(*max_hands)
    for pair, row in enumerate(legal):
        config.split_legal[pair] = (ctypes.c_uint8 * RANKS)(*row)
    return config


def _cards(comp: Iterable[int]) -> ctypes.Array[ctypes.c_int32]:
    return Cards(*comp)


def _checked(value: float) -> float:
    if math.isnan(value):
        raise MemoryError("the analysis kernel ran out of memory")
    return value


@dataclass
class KernelSolver(UpCardSolver):
    """`UpCardSolver` with its values from the kernel: the same methods and conventions
    (U, `extra` for a split hand's sibling card), everything computed on demand in C, so
    `prepare` has nothing to batch."""

    config: Config = field(init=False, repr=False)
    _native: ctypes.c_void_p = field(init=False, repr=False)
    _lib: ctypes.CDLL = field(init=False, repr=False)
    _finals_kept: _Finals = field(init=False, repr=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        lib = library()
        if lib is None:
            raise RuntimeError("the analysis kernel is not loaded")
        self.config = config_of(self)
        self._finals_kept = _finals(self.up, self.rules.dealer_hits_soft_17)
        self._lib = lib
        self._native = lib.bj_solver_new(ctypes.byref(self.config), self._finals_kept.pointer)
        if not self._native:
            raise MemoryError("the analysis kernel could not make a solver")

    def __del__(self) -> None:
        native = getattr(self, "_native", None)
        if native:
            self._lib.bj_solver_free(native)

    def prepare(
        self, hands: Iterable[Comp] = (), shallow: Iterable[tuple[Comp, Comp]] = ()
    ) -> None:
        """Nothing to batch: the kernel values what it is asked, memoised."""

    def decision_roots(
        self, hand: Comp, double: bool, pair: int | None, extra: Comp = EMPTY
    ) -> tuple[list[Comp], list[tuple[Comp, Comp]]]:
        """Nothing for `prepare` to batch."""
        return [], []

    def prepare_first_decisions(self, hands: Sequence[Comp]) -> None:
        """Nothing to batch."""

    def dealer(self, removed: Comp) -> list[float]:
        """The dealer's chance of each outcome (17..21, bust, natural) with `removed` gone."""
        out = Outcomes()
        if self._lib.bj_dealer(self._native, _cards(removed), out) < 0:
            raise MemoryError("the analysis kernel ran out of memory")
        return list(out)

    def stand(self, extra: Comp, hand: Comp) -> float:
        return _checked(self._lib.bj_stand(self._native, _cards(extra), _cards(hand)))

    def hit(self, extra: Comp, hand: Comp) -> float:
        return _checked(self._lib.bj_hit(self._native, _cards(extra), _cards(hand)))

    def best(self, hand: Comp) -> float:
        return _checked(self._lib.bj_best(self._native, _cards(hand)))

    def double(self, extra: Comp, hand: Comp) -> float:
        return _checked(self._lib.bj_double(self._native, _cards(extra), _cards(hand)))

    def surrender(self, extra: Comp, hand: Comp) -> float:
        return _checked(self._lib.bj_surrender(self._native, _cards(extra), _cards(hand)))

    def split(self, pair: int, extra: Comp = EMPTY, hands: int = 1) -> float:
        return _checked(self._lib.bj_split(self._native, pair, _cards(extra), hands))
