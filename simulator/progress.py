"""A one-line progress bar on stderr (no dependency)."""

import sys
import time


class Progress:
    def __init__(self, total: int, label: str = "", enabled: bool = True) -> None:
        self.total = total
        self.label = label
        self.enabled = enabled
        self.start = time.perf_counter()
        self.done = 0

    def restart(self) -> None:
        """Count the rate from now (after any set-up)."""
        self.start = time.perf_counter()

    def advance(self, count: int) -> None:
        self.done += count
        if not self.enabled:
            return
        fraction = self.done / self.total if self.total else 1.0
        width = 30
        filled = int(width * fraction)
        elapsed = time.perf_counter() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        bar = "#" * filled + "-" * (width - filled)
        sys.stderr.write(
            f"\r{self.label} [{bar}] {100 * fraction:5.1f}% {self.done:,}/{self.total:,} "
            f"{rate:,.0f}/s"
        )
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()
