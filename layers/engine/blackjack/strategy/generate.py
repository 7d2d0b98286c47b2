"""Regenerate the shipped data, each table's strategy card and its index plays
(`indices.py`, read off the card):
`python -m blackjack.strategy.generate` (PYTHONPATH=layers/engine).
`--check` only compares them with a fresh computation."""

import argparse
import json
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from ..rules import TABLES
from .card import build_card, card_path
from .indices import build_indices, indices_path


def dumps(card: object) -> str:
    return json.dumps(card, separators=(",", ":"), sort_keys=False) + "\n"


def refresh(path: Path, build: Callable[[], object], write: bool) -> tuple[str, bool, float]:
    """Compute one data file; write it (unless only checking). Its text, whether the file
    already held exactly that, and the seconds the computation took."""
    start = time.perf_counter()
    text = dumps(build())
    elapsed = time.perf_counter() - start
    same = path.exists() and path.read_text(encoding="utf-8") == text
    if write:
        path.write_text(text, encoding="utf-8")
    return text, same, elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("tables", nargs="*", default=list(TABLES), help="table ids")
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    write = not args.check
    stale = []
    for table_id in args.tables:
        text, same, elapsed = refresh(card_path(table_id), partial(build_card, table_id), write)
        if not same:
            stale.append(table_id)
        ev = json.loads(text)["player_ev"]
        print(f"{table_id:9} player EV {ev:+.4f}%  computed in {elapsed:.2f} s", flush=True)
        # After the card: an index is where the chart at a true count leaves the card's.
        text, same, elapsed = refresh(
            indices_path(table_id), partial(build_indices, table_id), write
        )
        if not same:
            stale.append(f"{table_id} indices")
        count = len(json.loads(text)["indices"])
        print(f"{table_id:9} {count} index plays computed in {elapsed:.2f} s", flush=True)
    if stale and args.check:
        print(f"stale: {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
