"""A table's strategy card (API.md `GET /v1/tables/{id}/strategy`): computed by `build_card`,
shipped as JSON in `data/`, read lazily by `strategy_card`; and the card of any composition
of unseen cards (`card_at`), computed on demand."""

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..rules import TABLES, Rules, Split
from .analysis import SPLIT, UpCardSolver, of_ranks, pair_rank, reference_solver
from .dealer import ACE, RANKS, TEN, Counts, total
from .solvers import solver

DATA = Path(__file__).parent / "data"

# API.md writes ranks 2..9, T, A in this order; internally the ace is rank 0.
RANK_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)
DIGITS = 8  # decimals kept in the shipped EVs


def label(rank: int) -> str:
    return "A" if rank == ACE else "T" if rank == TEN else str(rank + 1)


def hand_key(first: int, second: int) -> str:
    """ "2,9", "7,A", "T,A": the two ranks in API.md's order."""
    a, b = sorted((first, second), key=RANK_ORDER.index)
    return f"{label(a)},{label(b)}"


def two_card_hands() -> list[tuple[int, int]]:
    return [(a, b) for i, a in enumerate(RANK_ORDER) for b in RANK_ORDER[i:]]


def deal_chance(counts: Counts, first: int, second: int) -> float:
    """The chance of being dealt these two ranks from `counts` (the shoe less the up card)."""
    size = sum(counts)
    if first == second:
        return counts[first] * (counts[first] - 1) / (size * (size - 1))
    return 2 * counts[first] * counts[second] / (size * (size - 1))


@dataclass(frozen=True)
class UpCardResult:
    up: int
    solver: UpCardSolver
    values: dict[tuple[int, int], dict[str, float]]  # U of each first decision

    def unconditional_best(self, hand: tuple[int, int]) -> float:
        """The EV of the best first decision before the dealer checks for a natural, over
        the hands dealt as these two ranks: at `same_rank` tables two ten-value cards of
        unequal ranks are dealt as (T, T) too, and may not split."""
        comp = of_ranks(*hand)
        options = self.values[hand]
        best = max(options.values())
        if SPLIT in options and hand == (TEN, TEN) and self.solver.rules.split is Split.SAME_RANK:
            one_rank = self.solver.one_rank_chance()
            unsplit = max(value for action, value in options.items() if action != SPLIT)
            best = one_rank * best + (1.0 - one_rank) * unsplit
        if self.solver.peeked and total(comp)[0] != 21:
            best -= self.solver.natural_chance(comp)  # a dealer natural takes the bet
        return best


def analyse(rules: Rules) -> list[UpCardResult]:
    """Every first decision of every two-card hand against every up card, by the Python
    reference (the shipped cards are its figures, to the bit)."""
    return analyse_with(rules, [reference_solver(rules, up) for up in range(RANKS)])


def analyse_with(rules: Rules, solvers: Iterable[UpCardSolver]) -> list[UpCardResult]:
    """`analyse` by these solvers, one per up card, each of the pool its hands come from."""
    results = []
    for s in solvers:
        hands = [h for h in two_card_hands() if _possible(s.counts, h)]
        s.prepare_first_decisions([of_ranks(*h) for h in hands])
        values = {h: s.first_decision(of_ranks(*h)) for h in hands}
        results.append(UpCardResult(s.up, s, values))
    return results


def _possible(counts: Counts, hand: tuple[int, int]) -> bool:
    """The hand can be dealt: at whole counts, the pool holds its cards; at fractional
    counts (`card_at`), its chance is positive."""
    return deal_chance(counts, *hand) > 0


def player_ev(rules: Rules, results: list[UpCardResult]) -> float:
    """EV per initial bet of the best play at a fresh shoe, dealer naturals included."""
    full = sum(results[0].solver.counts) + 1
    ev = 0.0
    for result in results:
        up_chance = (result.solver.counts[result.up] + 1) / full
        for hand in result.values:
            chance = deal_chance(result.solver.counts, *hand)
            ev += up_chance * chance * result.unconditional_best(hand)
    return ev


def chart_rows() -> dict[str, dict[str, list[tuple[int, int]]]]:
    """The chart's rows and the two-card hands each covers."""
    hard: dict[str, list[tuple[int, int]]] = {str(t): [] for t in range(5, 20)}
    soft: dict[str, list[tuple[int, int]]] = {str(t): [] for t in range(13, 21)}
    pairs: dict[str, list[tuple[int, int]]] = {label(r): [] for r in RANK_ORDER}
    for a, b in two_card_hands():
        comp = of_ranks(a, b)
        points, is_soft = total(comp)
        if pair_rank(comp) is not None:
            pairs[label(a)].append((a, b))
        elif is_soft and str(points) in soft:
            soft[str(points)].append((a, b))
        elif not is_soft and str(points) in hard:
            hard[str(points)].append((a, b))
    return {"hard": hard, "soft": soft, "pairs": pairs}


def chart(results: list[UpCardResult]) -> dict[str, dict[str, dict[str, str]]]:
    """Per row and up card, the action of highest EV over the row's hands weighted by how
    likely each is to be dealt against that up card."""
    by_up = sorted(results, key=lambda r: RANK_ORDER.index(r.up))
    out: dict[str, dict[str, dict[str, str]]] = {}
    for kind, rows in chart_rows().items():
        out[kind] = {}
        for row, hands in rows.items():
            cells: dict[str, str] = {}
            for result in by_up:
                present = [h for h in hands if h in result.values]
                if not present:
                    continue  # a part-dealt shoe may deal no hand of the row (`card_at`)
                actions = set.intersection(*(set(result.values[h]) for h in present))
                weights = {h: deal_chance(result.solver.counts, *h) for h in present}
                scores = {
                    a: sum(weights[h] * result.values[h][a] for h in present) for a in actions
                }
                cells[label(result.up)] = max(sorted(scores), key=scores.__getitem__)
            out[kind][row] = cells
    return out


def build_card(table_id: str) -> dict[str, Any]:
    """The strategy card of a table, computed afresh."""
    rules = TABLES[table_id].rules
    return {"table": table_id, **card_of(rules, analyse(rules))}


def card_at(rules: Rules, composition: Sequence[float]) -> dict[str, Any]:
    """The strategy card of a shoe of this composition (by rank, the ace first: the
    unseen cards of a shoe part-dealt, or an index generator's average shoe, whose counts
    may be fractional): `player_ev`, the EV in percent of a round dealt from it with
    perfect play for it, the `chart` of its best plays and the `ev` of every first
    decision. By the analysis kernel where it is loaded, else by the Python reference
    (the same values, fractional counts included): `solvers` chooses."""
    return card_of(rules, analysis_at(rules, composition))


def player_ev_at(rules: Rules, composition: Sequence[float]) -> float:
    """`card_at`'s `player_ev` alone: the edge needs neither the chart nor the EVs."""
    return _percent(player_ev(rules, analysis_at(rules, composition)))


def analysis_at(rules: Rules, composition: Sequence[float]) -> list[UpCardResult]:
    """Every first decision against every up card of a shoe of this composition."""
    solvers = [
        solver(rules, up, [n - (rank == up) for rank, n in enumerate(composition)])
        for up in range(RANKS)
        if composition[up] > 0
    ]
    return analyse_with(rules, solvers)


def _percent(ev: float) -> float:
    return round(100 * ev, 6)


def card_of(rules: Rules, results: list[UpCardResult]) -> dict[str, Any]:
    """The card (`player_ev`, `chart`, `ev`) of these analysed first decisions."""
    by_up = sorted(results, key=lambda r: RANK_ORDER.index(r.up))
    ev: dict[str, dict[str, dict[str, float]]] = {}
    for hand in two_card_hands():
        row: dict[str, dict[str, float]] = {}
        for result in by_up:
            if hand not in result.values:
                continue
            comp = of_ranks(*hand)
            row[label(result.up)] = {
                action: round(result.solver.conditional(value, comp), DIGITS)
                for action, value in result.values[hand].items()
            }
        ev[hand_key(*hand)] = row
    return {
        "player_ev": _percent(player_ev(rules, results)),
        "chart": chart(results),
        "ev": ev,
    }


def card_path(table_id: str) -> Path:
    return DATA / f"{table_id}.json"


@cache
def _shipped_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def shipped_document(table_id: str, path: Path) -> dict[str, Any]:
    """A table's shipped document at `path` (a fresh copy); KeyError for an unknown table."""
    if table_id not in TABLES:
        raise KeyError(table_id)
    document: dict[str, Any] = json.loads(_shipped_text(path))
    return document


@cache
def shipped_ev(table_id: str) -> dict[str, dict[str, dict[str, float]]]:
    """The `ev` part of a shipped card, parsed once (shared: never mutate it)."""
    ev: dict[str, dict[str, dict[str, float]]] = strategy_card(table_id)["ev"]
    return ev


def strategy_card(table_id: str) -> dict[str, Any]:
    """The shipped strategy card of a table (a fresh copy); KeyError for an unknown table."""
    return shipped_document(table_id, card_path(table_id))


@cache
def table_of(rules: Rules) -> str | None:
    """The id of the table with these rules, if one is shipped."""
    return next((t.id for t in TABLES.values() if t.rules == rules), None)
