"""The OpenAPI document written where the layer reads it in a checkout
(`blackjack_service.openapi.DOCUMENT_FILE`), before a function answers `GET /v1/openapi.json`.

It is put together (`local_stack.openapi`) in a process of its own, which imports every
function with placeholder settings. It replaces the file whole: a stack already running
(another test's) may read it at any moment, and a half-written document would be its 500.
"""

import os
import subprocess
import sys
import tempfile
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
    with tempfile.NamedTemporaryFile("w", dir=LAYER, prefix=".openapi.", delete=False) as out:
        try:
            subprocess.run(command, cwd=ROOT, env=env, stdout=out, check=True)
        except BaseException:
            os.unlink(out.name)
            raise
    os.chmod(out.name, 0o644)  # a temporary file's 0600 would keep Lambda's user from it
    os.replace(out.name, DOCUMENT)


if __name__ == "__main__":
    write()
