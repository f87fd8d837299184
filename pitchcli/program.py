"""Whether this process is the ``pitch`` program's own.

``pitchcli.cli.main`` says so as it starts (``claim``): the one word on it.
The program may then change its own process for speed where the library,
imported into a host's process, must not: ``gcpolicy.batch_begins`` sets the C
allocator for a batch, and ``record.rs`` imports jsonschema_rs with a stand-in
module in ``sys.modules`` for a moment, which a host's other threads could see.
"""

from __future__ import annotations

_claimed = False


def claim() -> None:
    """Say that this process is the ``pitch`` program's (``cli.main`` only)."""
    global _claimed
    _claimed = True


def claimed() -> bool:
    """Whether the ``pitch`` program runs this process (``claim`` was called)."""
    return _claimed
