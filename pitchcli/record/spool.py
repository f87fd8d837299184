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

import os
import pickle
import tempfile
from typing import Any


class Spool:
    """An append-only store of picklable objects in a temporary file."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="pitch-spool-")  # noqa: SIM115 - closed in close()
        self._end = 0

    def put(self, obj: Any) -> tuple[int, int]:
        """Store ``obj``; its handle (offset and length) to ``get`` it back."""
        data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
        self._file.seek(self._end)
        self._file.write(data)
        handle = (self._end, len(data))
        self._end += len(data)
        return handle

    def get(self, handle: tuple[int, int]) -> Any:
        """The object stored under ``handle`` (a fresh copy each time)."""
        self._file.flush()
        offset, length = handle
        data = os.pread(self._file.fileno(), length, offset)
        return pickle.loads(data)  # (only what ``put`` wrote into our own unnamed file)

    @property
    def size(self) -> int:
        """Bytes on disk."""
        return self._end

    def close(self) -> None:
        """Remove the file."""
        self._file.close()

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *rest: object) -> None:
        self.close()
