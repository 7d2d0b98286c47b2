"""`python -m blackjack.strategy.generate --check` (issue 34: in `make test`): every table's
shipped card and index plays are, byte for byte, what a fresh computation
writes."""

import json
from pathlib import Path

import pytest

from blackjack.strategy import generate
from tests.traced import TABLES_ONE_TRACED

from .helpers import needs_kernel


@needs_kernel
@pytest.mark.parametrize("table_id", TABLES_ONE_TRACED)
def test_the_shipped_data_is_what_generate_writes(
    table_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert generate.main([table_id, "--check"]) == 0, capsys.readouterr().err
    printed = capsys.readouterr().out
    assert f"{table_id:9} player EV" in printed and "index plays computed" in printed


def test_a_check_finds_a_file_that_differs_and_leaves_it_alone(tmp_path: Path) -> None:
    path = tmp_path / "data.json"
    path.write_text('{"stale":true}\n', encoding="utf-8")
    text, same, _ = generate.refresh(path, lambda: {"fresh": True}, write=False)
    assert not same and json.loads(text) == {"fresh": True}
    assert path.read_text(encoding="utf-8") == '{"stale":true}\n'
    generate.refresh(path, lambda: {"fresh": True}, write=True)
    assert generate.refresh(path, lambda: {"fresh": True}, write=False)[1]
