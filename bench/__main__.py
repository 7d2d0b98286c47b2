"""Run every benchmark module of this package (or those named on the command line)."""

import importlib
import pkgutil
import sys
from pathlib import Path


def main(names: list[str]) -> None:
    package = Path(__file__).parent
    modules = names or sorted(
        info.name for info in pkgutil.iter_modules([str(package)]) if not info.name.startswith("_")
    )
    for name in modules:
        module = importlib.import_module(f"bench.{name}")
        print(f"== {name}", flush=True)
        module.main()


if __name__ == "__main__":
    main(sys.argv[1:])
