"""The API's routes come from template.yaml: read from it in a checkout; in Lambda, which has
no template, from the file the layer's build writes beside the code (layers/engine/Makefile)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from blackjack_service.openapi import openapi_document

from .harness import ROOT

LAYER = ROOT / "layers" / "engine"

_SERVED_BY_THE_LAYER_ALONE = """
import json, sys
from blackjack_service.openapi import openapi_document
print(json.dumps(openapi_document()))
assert "local_stack" not in sys.modules, "the template was read"
"""


def _python(cwd: Path, path: Path, *arguments: str) -> str:
    """What Python prints, run in cwd with only path added to sys.path."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=cwd,
        env={**env, "PYTHONPATH": str(path)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def test_the_built_layer_serves_the_same_document(tmp_path: Path) -> None:
    layer = tmp_path / "python"
    for package in ("blackjack", "blackjack_service"):
        shutil.copytree(LAYER / package, layer / package, ignore=shutil.ignore_patterns("__pyc*"))
    built = _python(ROOT, LAYER, "-m", "blackjack_service.routes")  # the build's step
    (layer / "blackjack_service" / "routes.json").write_text(built)
    # The layer alone, as in Lambda: no checkout on sys.path.
    served = _python(tmp_path, layer, "-c", _SERVED_BY_THE_LAYER_ALONE)
    assert json.loads(served) == openapi_document()
