"""Objects kept on disk rather than in memory, read back one at a time.

``pitch report`` makes a view of every game in one pass and writes the game
pages only once every game is known (a page links to the next game and names
the round's other tables). Held in memory, the views of 10,000 games are
gigabytes; a ``Spool`` keeps each one pickled in an anonymous temporary file
(removed by the system when it is closed or the process ends, even when
killed) and hands it back by its handle. Reads use ``os.pread``, so worker
processes forked with the spool open read it at once without sharing a file
position.

Only what this process wrote is read back: the file is never named, so
nothing else can put an object in it.
"""

from __future__ import annotations

import contextlib
import heapq
import io
import os
import pickle
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from pitchcli.record.read import FileRange


@contextmanager
def _saying_where() -> Iterator[None]:
    """An ``OSError`` while objects are kept on disk (a full disk, a temporary
    folder that can't be written) raised as one that says where: the
    temporary folder. (The guard at the top names the file of an ``OSError``,
    or else standard output, which would be the wrong place to look.)"""
    try:
        yield
    except OSError as e:
        if e.filename is not None:
            raise
        raise OSError(e.errno, e.strerror or str(e), f"a temporary file in {tempfile.gettempdir()}") from e


class Spool:
    """An append-only store of picklable objects in a temporary file."""

    def __init__(self) -> None:
        with _saying_where():
            self._file = tempfile.TemporaryFile(prefix="pitch-spool-")  # noqa: SIM115 - closed in close()
        self._end = 0

    def put(self, obj: Any) -> tuple[int, int]:
        """Store ``obj``; its handle (offset and length) to ``get`` it back."""
        data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
        with _saying_where():
            self._file.seek(self._end)
            self._file.write(data)
        handle = (self._end, len(data))
        self._end += len(data)
        return handle

    def get(self, handle: tuple[int, int]) -> Any:
        """The object stored under ``handle`` (a fresh copy each time)."""
        offset, length = handle
        with _saying_where():
            self._file.flush()
            data = os.pread(self._file.fileno(), length, offset)
        return pickle.loads(data)  # (only what ``put`` wrote into our own unnamed file)

    @property
    def size(self) -> int:
        """Bytes on disk."""
        return self._end

    def close(self) -> None:
        """Remove the file."""
        with contextlib.suppress(OSError):  # (what was not yet written is not wanted: a full disk says no more)
            self._file.close()

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *rest: object) -> None:
        self.close()


class SortedSpool:
    """Objects handed back sorted by ``key``, however many: up to ``run`` of
    them are sorted in memory; past that, each ``run`` sorted is pickled into
    an anonymous temporary file, and the runs are merged as they are read
    back (an external merge sort). Memory holds one run, and a small buffer
    and one object of each run written, not every object. Equal keys keep the
    order they were added in, as ``sorted`` does."""

    def __init__(self, key: Callable[[Any], Any], run: int = 16384) -> None:
        self._key, self._run = key, run
        self._items: list[Any] = []
        self._runs: list[tuple[int, int, int]] = []  # each run written: its start, its end, how many
        self._file: Any = None

    def add(self, obj: Any) -> None:
        """Keep ``obj``."""
        self._items.append(obj)
        if len(self._items) >= self._run:
            self._spill()

    def _spill(self) -> None:
        self._items.sort(key=self._key)
        with _saying_where():
            if self._file is None:
                self._file = tempfile.TemporaryFile(prefix="pitch-sort-")  # noqa: SIM115 - closed in close()
            start = self._file.seek(0, os.SEEK_END)
            for obj in self._items:
                pickle.dump(obj, self._file, protocol=pickle.HIGHEST_PROTOCOL)
            self._runs.append((start, self._file.tell(), len(self._items)))
        self._items = []

    def __len__(self) -> int:
        return len(self._items) + sum(n for _, _, n in self._runs)

    @property
    def on_disk(self) -> bool:
        """Whether runs are written (their temporary file open)."""
        return self._file is not None

    def __iter__(self) -> Iterator[Any]:
        """Every object kept, in ``key`` order (those on disk read back once, as merged)."""
        last = sorted(self._items, key=self._key)
        if not self._runs:
            yield from last
            return
        with _saying_where():
            self._file.flush()
        runs = [self._read(*run) for run in self._runs]
        yield from heapq.merge(*runs, last, key=self._key)  # (the runs first: a tie keeps the order added)

    def _read(self, start: int, end: int, count: int) -> Iterator[Any]:
        reader = io.BufferedReader(FileRange(self._file.fileno(), start, end), _READ_BUFFER)
        for _ in range(count):
            with _saying_where():
                obj = pickle.load(reader)  # (only what ``_spill`` wrote into our own unnamed file)
            yield obj

    def close(self) -> None:
        """Remove the runs on disk."""
        if self._file is not None:
            with contextlib.suppress(OSError):  # (as ``Spool.close``)
                self._file.close()
            self._file = None
        self._runs, self._items = [], []

    def __enter__(self) -> SortedSpool:
        return self

    def __exit__(self, *rest: object) -> None:
        self.close()


_READ_BUFFER = 1 << 14  # per run being merged
