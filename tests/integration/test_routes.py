"""The OpenAPI document comes from the functions' declarations and the template: put
together in a checkout; in Lambda, which has neither, read from the file the layer's build
ships beside the service's code (layers/engine/Makefile)."""

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
assert "local_stack" not in sys.modules, "the checkout was read"
"""


def _python(cwd: Path, path: Path, *arguments: str) -> str:
    """What Python prints, run in cwd with only path added to sys.path, and no settings:
    the build has none."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env = {
        key: value for key, value in env.items() if key not in ("TABLE_NAME", "TOKEN_SECRET_ARN")
    }
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
    built = _python(ROOT, LAYER, "-m", "local_stack.openapi")  # `make build`'s step
    (layer / "openapi.json").write_text(built)  # at the layer's root, as the build ships it
    # The layer alone, as in Lambda: no checkout on sys.path.
    served = _python(tmp_path, layer, "-c", _SERVED_BY_THE_LAYER_ALONE)
    assert json.loads(served) == openapi_document()
