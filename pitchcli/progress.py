"""A progress bar on standard error, for long work on a terminal only.

``summarize`` (files and bytes known before it starts) and ``simulate`` (the
number of games) draw one: done and total, a bar when the total is known, the
rate and the time left, redrawn at most 5 times a second on one line. When not
``enabled`` (standard error is not a terminal, or ``--no-progress``) nothing is
written at all, so logs and pipes stay clean.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

WIDTH = 24  # characters of the bar


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1000
    raise AssertionError("unreachable")


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class Progress:
    """Counts ``items`` (documents, games) and, when known, the files and bytes
    of the work; ``total_*`` of ``None`` means unknown (no bar, no time left)."""

    def __init__(self, enabled: bool, stream: TextIO | None = None, label: str = "summarize",
                 item: str = "documents", total_items: int | None = None, total_bytes: int | None = None,
                 total_files: int | None = None) -> None:
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.label, self.item = label, item
        self.total_items, self.total_bytes, self.total_files = total_items, total_bytes, total_files
        self.done = self.bytes = self.files = 0
        self.start = self.last = time.monotonic()
        self._width = 0

    def tick(self, items: int = 1, nbytes: int = 0, files: int = 0) -> None:
        """``items`` more done (and ``nbytes`` bytes, ``files`` files finished)."""
        self.done += items
        self.bytes += nbytes
        self.files += files
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.last >= 0.2:
            self.last = now
            self._draw(now)

    def fraction(self) -> float | None:
        """How much of the work is done (bytes first, then items), if known."""
        if self.total_bytes:
            return min(1.0, self.bytes / self.total_bytes)
        if self.total_items:
            return min(1.0, self.done / self.total_items)
        return None

    def line(self, now: float) -> str:
        """The text of the bar at time ``now``."""
        elapsed = max(now - self.start, 1e-9)
        parts = [f"{self.label}:"]
        frac = self.fraction()
        if frac is not None:
            filled = int(frac * WIDTH)
            parts.append(f"[{'#' * filled}{'.' * (WIDTH - filled)}] {frac * 100:3.0f}%")
        if self.total_files is not None:
            parts.append(f"{self.files:,}/{self.total_files:,} files")
        if self.total_bytes is not None:
            parts.append(f"{_size(self.bytes)}/{_size(self.total_bytes)}")
        counted = f"{self.done:,}" + (f"/{self.total_items:,}" if self.total_items is not None else "")
        parts.append(f"{counted} {self.item} ({self.done / elapsed:,.0f}/s)")
        if frac is not None and 0 < frac < 1:
            parts.append(f"{_clock(elapsed * (1 - frac) / frac)} left")
        elif frac is not None and frac >= 1:
            parts.append(f"done in {_clock(elapsed)}")
        return " ".join(parts)

    def _draw(self, now: float) -> None:
        text = self.line(now)
        pad = max(0, self._width - len(text))  # wipe what a longer line left
        self._width = len(text)
        self.stream.write("\r" + text + " " * pad)
        self.stream.flush()

    def close(self) -> None:
        """Draw the final state and end the line."""
        if self.enabled:
            self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()
