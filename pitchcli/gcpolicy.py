"""How often the cycle collector runs while records are read in a batch, and
what the C allocator does with the memory a batch frees.

Reading and checking a record allocates many short-lived objects that
reference counting frees; the default generation-0 threshold (700) runs the
cycle collector far more often than that needs (measured: about 8% of the
engine's time on 300 games, and 15% of ``pitchcli.validate``'s over 2,000 JSON
Lines games on a quiet machine, where ``pitch validate`` had it already).
``pitch`` sets ``BATCH`` for its whole run; the library's batch readers
(``pitchcli.read``, ``validate``, ``score``, ``summarize``) set it only while they
work, a step at a time, and give the caller's setting back between documents: a library
must not change its host's process for good.

**Freed memory.** A batch frees a chunk of records (tens of MiB of parsed data
and the quick pass's arrays) and allocates the next one just after. glibc's
``malloc`` gives the top of its heap back to the system as soon as 128 KiB of
it are free, and serves every block over its (adaptive) mmap threshold with a
fresh mapping, so each chunk's memory was faulted in anew: 48,000-65,000 page
faults a run where 9,000-11,000 are the memory first touched, and 0.1-0.25 s
of system time (measured, issue 22, ``pitch validate`` of 10,000 one-game JSON
files, of 10,000 Auction games and of 2,000 ten-point games as JSON Lines).
When a batch begins (``batch_begins``: the quick pass's first chunk), the
program (``program.claimed()``, never the library) asks glibc (``mallopt``) to keep
what it frees, up to ``KEEP_FREED`` bytes, and to map afresh only blocks of
``MAPPED_FROM`` bytes or more. The peak is unchanged (a chunk is the same size
the second time); what a run frees is kept for the next chunk instead of being
handed back and faulted in again. Elsewhere (no glibc, no ``mallopt``) nothing
changes.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from pitchcli import program

BATCH = (20_000, 50, 100)
"""The collector's thresholds (``gc.set_threshold``) for a batch of records."""

T = TypeVar("T")

KEEP_FREED = 512 << 20
"""Free memory glibc keeps at the top of its heap rather than hand back (``M_TRIM_THRESHOLD``)."""
MAPPED_FROM = 32 << 20
"""The smallest block glibc maps on its own (``M_MMAP_THRESHOLD``: its adaptive threshold's ceiling)."""
HEAP_STEP = 64 << 20
"""How much more the heap asks the system for when it grows (``M_TOP_PAD``)."""
# glibc's mallopt() parameters (malloc.h).
_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3

_kept = False  # the allocator's batch settings are made (once a process)


def set_batch() -> None:
    """Use ``BATCH`` from now on (the ``pitch`` program, for its whole run;
    ``batch_begins`` sets the allocator for a batch in the program's process)."""
    gc.set_threshold(*BATCH)


def batch_begins() -> None:
    """A batch of records begins (the pipeline's quick pass, at its first
    chunk): in the ``pitch`` program, glibc keeps the memory the batch frees
    (module docstring); in a library's host process, nothing happens."""
    global _kept
    if not program.claimed() or _kept:
        return
    _kept = True
    mallopt = _glibc_mallopt()
    if mallopt is not None:
        for param, value in ((_M_MMAP_THRESHOLD, MAPPED_FROM), (_M_TRIM_THRESHOLD, KEEP_FREED),
                             (_M_TOP_PAD, HEAP_STEP)):
            mallopt(param, value)  # (0 back: a value refused, and glibc keeps its own)


def _glibc_mallopt() -> Any:
    """glibc's ``mallopt``, or None where the C library is another (musl,
    macOS, Windows) or can't be reached."""
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return None
    except (AttributeError, ValueError, OSError):  # no confstr, or no such name here: not glibc
        return None
    import ctypes  # (numpy, which a batch's quick pass imports, loads it anyway)

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return None
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return mallopt


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
