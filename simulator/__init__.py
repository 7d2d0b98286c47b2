"""Play many rounds and compare the player's result with the exact analysis:
`python -m simulator --table european --level hard --rounds 10000000 [--engine]`."""

import sys
from pathlib import Path

# The layer's packages, as the Lambda runtime puts them on the path (as `bench` does).
_ENGINE = str(Path(__file__).resolve().parent.parent / "layers" / "engine")
if _ENGINE not in sys.path:
    sys.path.insert(0, _ENGINE)
