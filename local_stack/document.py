"""The OpenAPI document written where the project's layer reads it in a checkout
(`blackjack_service.openapi.DOCUMENT_FILE`): `make run`, `make invoke` and the tests write it
before any function answers `GET /v1/openapi.json`, as `make build` does before `sam build`.

It is put together (`local_stack.openapi`) in a process of its own, since that imports every
function with placeholder settings, which the stack's process and the tests' must not keep.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "template.yaml"
LAYER = ROOT / "layers" / "engine"
DOCUMENT = LAYER / "openapi.json"


def write_for(template: Path) -> None:
    """The document, if the stack about to start is this project's."""
    if template.resolve() == TEMPLATE:
        write()


def write() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(LAYER), str(ROOT)])}
    command = [sys.executable, "-m", "local_stack.openapi"]
    with DOCUMENT.open("w") as out:
        subprocess.run(command, cwd=ROOT, env=env, stdout=out, check=True)
