"""Benchmarks: `python -m bench` runs every module here that has a `main()`."""

import sys
from pathlib import Path

# The layer's packages, as the Lambda runtime puts them on the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "layers" / "engine"))
