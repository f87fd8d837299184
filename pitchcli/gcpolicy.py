"""How often the cycle collector runs while records are read in a batch.

Reading and checking a record allocates many short-lived objects that
reference counting frees; the default generation-0 threshold (700) runs the
cycle collector far more often than that needs (measured: about 8% of the
engine's time on 300 games, and 15% of ``pitchcli.validate``'s over 2,000 JSON
Lines games on a quiet machine, where ``pitch validate`` had it already).
``pitch`` sets ``BATCH`` for its whole run; the library's batch readers
(``pitchcli.read``, ``validate``, ``score``, ``summarize``) set it only while they
work, a step at a time, and give the caller's setting back between documents: a library
must not change its host's process for good.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

BATCH = (20_000, 50, 100)
"""The collector's thresholds (``gc.set_threshold``) for a batch of records."""

T = TypeVar("T")


def set_batch() -> None:
    """Use ``BATCH`` from now on (the ``pitch`` program, for its whole run)."""
    gc.set_threshold(*BATCH)


@contextmanager
def batch() -> Iterator[None]:
    """``BATCH`` in force for the block (a call that returns when the batch is
    done: ``pitchcli.summarize``), the caller's thresholds restored after (a
    higher one of the caller's kept)."""
    caller = gc.get_threshold()
    gc.set_threshold(max(caller[0], BATCH[0]), *caller[1:])
    try:
        yield
    finally:
        gc.set_threshold(*caller)


def stepped(items: Iterator[T]) -> Iterator[T]:
    """``items``, with ``batch()`` in force while each one is made and the
    caller's thresholds restored before it is handed over."""
    while True:
        with batch():
            try:
                item = next(items)
            except StopIteration:
                return
        yield item
