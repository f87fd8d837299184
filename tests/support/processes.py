"""Child processes of a command under test, read from /proc (Linux)."""

from __future__ import annotations


def children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children (none once it has ended)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def state(pid: int) -> str:
    """A process's state letter (``Z`` once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"
