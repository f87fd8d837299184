"""The cycle collector held off while a test counts what a step left behind."""

from __future__ import annotations

import gc
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_off() -> Iterator[None]:
    """Collect once, then keep the collector off for the block."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def heap() -> tuple[int, Counter[str]]:
    """The Python objects alive, as the collector sees them: the bytes of every
    object it tracks and of the strings, numbers and other untracked objects
    they hold (each once), and how many of each type.

    Not tracemalloc: it also counts what CPython keeps for itself and fills
    slowly, up to a cap, whatever the games (the free lists of tuples gain a
    tuple or two per document up to 2,000 of each length; ``json.loads`` with
    hooks leaves about 10 KB over its first 100,000 calls, then nothing), which
    no bound both tight and safe could tell from a leak."""
    objects = gc.get_objects()
    seen: set[int] = set()
    size = 0
    kinds: Counter[str] = Counter()
    stack: list[object] = []
    for o in objects:
        size += sys.getsizeof(o)
        kinds[type(o).__name__] += 1
        stack += gc.get_referents(o)
        while stack:
            r = stack.pop()
            if gc.is_tracked(r) or id(r) in seen or r is objects:
                continue
            seen.add(id(r))
            size += sys.getsizeof(r)
            kinds[type(r).__name__] += 1
            if isinstance(r, tuple | dict | list):  # (untracked: holds untracked objects only)
                stack += gc.get_referents(r)
    return size, kinds
