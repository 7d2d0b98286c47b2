"""One user at several tables at once (issue 43): a thread a table, one request at a time
at each, so that no request races another at its own table. A write that loses to another
table's change of the player item plays again on it: no request is answered 409, and the
ledger holds. (A race at the same table is still 409: test_races.)"""

from __future__ import annotations

import pytest

from bench.tables import play_at_once

from .helpers import Player, assert_ledger


@pytest.mark.parametrize("tables", [2, 4])
def test_tables_at_once_see_no_conflict(alice: Player, tables: int) -> None:
    requests, conflicts = play_at_once("alice1", tables, rounds=8)
    assert requests >= 8 * tables and conflicts == 0
    assert_ledger("alice1")
