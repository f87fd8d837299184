"""Source lines of the files diagnostics point at, for ``--show-source``.

Diagnostics come in file order and, in a file, mostly in line order: the
file is read forward, one line at a time, and reopened only when a line
before the last one read is asked for. One file is open at a time, and a
line is read at most ``MAX_LINE`` bytes deep (the rest of a longer line is
skipped, not kept): memory stays bounded whatever the file holds. Standard
input can't be read twice, nor a FIFO: they have no source lines to show.
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO

__all__ = ["MAX_LINE", "SourceLines"]

MAX_LINE = 4096


class SourceLines:
    """``line(file, n)``: the text of line ``n`` (from 1) of ``file``, or None
    (standard input, a file that can't be read now, no such line)."""

    def __init__(self) -> None:
        self.file: str | None = None
        self.handle: BinaryIO | None = None
        self.read = 0  # lines read from the handle
        self.last: str | None = None  # the text of line ``read``

    def close(self) -> None:
        """Close the file being read."""
        if self.handle is not None:
            self.handle.close()
        self.file, self.handle, self.read, self.last = None, None, 0, None

    def _open(self, file: str) -> bool:
        self.close()
        try:
            if not stat.S_ISREG(os.stat(file).st_mode):
                return False  # a FIFO or a device was read once already: opening it again would wait
            self.handle = open(file, "rb")  # noqa: SIM115 - kept open across calls, closed by close()
        except OSError:
            return False
        self.file = file
        return True

    def _next(self) -> str | None:
        assert self.handle is not None
        data = self.handle.readline(MAX_LINE)
        if not data:
            return None
        if not data.endswith(b"\n"):  # longer than MAX_LINE: skip the rest of it
            rest = data
            while rest and not rest.endswith(b"\n"):
                rest = self.handle.readline(65536)
        self.read += 1
        return data.rstrip(b"\r\n").decode("utf-8", "replace")

    def line(self, file: str, n: int) -> str | None:
        """The text of line ``n`` of ``file`` (without its line break)."""
        if file == "-" or n < 1:
            return None
        try:
            if (self.file != file or n < self.read) and not self._open(file):
                return None
            if n == self.read:
                return self.last
            while self.read < n:
                text = self._next()
                if text is None:
                    return None
                self.last = text
            return self.last
        except OSError:
            self.close()
            return None
