"""The simulator: the fast path plays exactly the rounds the state machine plays, and a
short run of each mode agrees with the analysis within 3 standard errors."""

from decimal import Decimal
from functools import cache

import numpy as np
import pytest

from blackjack.cards import RANKS
from blackjack.players import POLICIES
from blackjack.round import Round
from blackjack.rules import TABLES
from blackjack.shoe import Shoe
from simulator import fast
from simulator.cli import main, simulate
from simulator.tables import Compiled, compile_table


@cache
def compiled(table: str, level: str) -> Compiled:
    return compile_table(TABLES[table], level)


@pytest.mark.no_cover
@pytest.mark.parametrize("level", ["hard", "medium"])
@pytest.mark.parametrize("table", list(TABLES))
def test_fast_path_plays_the_rounds_of_the_engine(table: str, level: str) -> None:
    t = TABLES[table]
    policy = POLICIES[level]
    tables = compiled(table, level)
    for nonce in range(1, 301):
        shoe = Shoe.shuffle("ab" * 32, f"sim-{level}", nonce, t.rules.decks, None)
        ranks = np.array([RANKS.index(card[0]) for card in shoe.cards], dtype=np.int64)
        round_ = Round.deal(t, shoe, {0: Decimal(t.min_bet)})
        while (view := round_.player_view()) is not None:
            round_.act(policy(view))
        assert round_.net is not None
        assert fast.play_cards(tables, ranks) == float(round_.net / t.min_bet), shoe.cards[:12]


@pytest.mark.no_cover
@pytest.mark.parametrize("table", list(TABLES))
def test_fast_path_agrees_with_the_analysis(table: str) -> None:
    compiled(table, "hard")  # built once for both tests
    report = simulate(table, "hard", 2_000_000, seed=3, progress=False)
    assert abs(report.z) < 3, report.text()


@pytest.mark.no_cover
def test_engine_path_agrees_with_the_analysis() -> None:
    report = simulate("european", "hard", 20_000, engine=True, seed=5, workers=1, progress=False)
    assert abs(report.z) < 3, report.text()
    assert report.rounds == 20_000 and report.se > 0


def test_cli_reports(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["--table", "classic", "--level", "easy", "--rounds", "100000", "--no-progress"]) == 0
    )
    out = capsys.readouterr().out
    assert "player EV per initial bet" in out and "hands per second" in out
