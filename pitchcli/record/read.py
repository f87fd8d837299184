"""Reading one input whole, bounded: the reader of every command that needs a
file's bytes at once (``fmt``, which rewrites the file; ``merge``, whose partial
summaries are single JSON documents). Validation streams through the loader
instead (``pitchcli.record.load``), one document at a time.

The bound is ``WHOLE_FILE_BYTES`` (or the loader's ``max_file_bytes``, when
smaller): ``pitch fmt /dev/zero`` or ``yes | pitch merge -`` read that much,
then stop with ``TooLarge``; a regular file over it is refused from its size,
unread. Memory stays bounded by it.
"""

from __future__ import annotations

import io
import os
import stat
from typing import Any, BinaryIO

from pitchcli.record.document import DEFAULT_LIMITS, Limits

WHOLE_FILE_BYTES = 64 * 1024**2
"""The most a command holds of one input in memory (64 MiB: about 13,000
games of YAML; a bigger stream can be split, and validated or summarized as is)."""

_CHUNK = 1 << 16


class TooLarge(Exception):
    """The input holds more than ``limit`` bytes (``size`` when known)."""

    def __init__(self, limit: int, size: int | None = None) -> None:
        self.limit, self.size = limit, size
        has = f"has {size} bytes," if size is not None else "holds"
        super().__init__(f"the file {has} more than the limit of {limit} bytes that can be read whole")


def whole_file_limit(limits: Limits = DEFAULT_LIMITS) -> int:
    """The bound of ``read_bounded`` for these loader limits."""
    return min(WHOLE_FILE_BYTES, limits.max_file_bytes)


def read_bounded(name: str, stdin: BinaryIO | None = None, limits: Limits = DEFAULT_LIMITS,
                 stream: BinaryIO | None = None) -> bytes:
    """The bytes of the file ``name`` (``-``: ``stdin``; ``stream``: that
    stream, a piece of the file named, rather than the file), at most
    ``whole_file_limit(limits)`` of them. Raises ``TooLarge`` past the bound,
    ``OSError`` when the file can't be opened or read. A FIFO or a device is
    read as ``cat`` would read it (up to the bound)."""
    limit = whole_file_limit(limits)
    if stream is not None:
        return _read(stream, limit)
    if name == "-" and stdin is not None:
        return _read(stdin, limit)
    with open(name, "rb") as f:
        info = os.fstat(f.fileno())
        if stat.S_ISREG(info.st_mode) and info.st_size > limit:
            raise TooLarge(limit, info.st_size)
        return _read(f, limit)


def _read(f: BinaryIO, limit: int) -> bytes:
    parts: list[bytes] = []
    total = 0
    # read1: what a pipe holds now, rather than waiting to fill a whole chunk.
    read = getattr(f, "read1", f.read)
    while True:
        data = read(_CHUNK)
        if not data:
            return b"".join(parts)
        total += len(data)
        if total > limit:
            raise TooLarge(limit)
        parts.append(data)


class FileRange(io.RawIOBase):
    """Bytes ``start`` to ``end`` of the open file ``fd``, read in constant
    memory with ``os.pread``: each range keeps its own place, so many ranges of
    one file are read at once with no shared file position (a piece of a big
    input, ``pipeline.pieces``; a sorted run on disk, ``record.spool``)."""

    def __init__(self, fd: int, start: int, end: int) -> None:
        super().__init__()
        self._fd, self._at, self._end = fd, start, end

    def readable(self) -> bool:
        """Always: a range is read."""
        return True

    def readinto(self, buffer: Any) -> int:
        """Fill ``buffer`` from the range; 0 at its end."""
        n = min(len(buffer), self._end - self._at)
        if n <= 0:
            return 0
        data = os.pread(self._fd, n, self._at)
        buffer[:len(data)] = data
        self._at += len(data)
        self.received(data)
        return len(data)

    def received(self, data: bytes) -> None:
        """Each piece as it is read, for a subclass to look at (nothing here)."""
