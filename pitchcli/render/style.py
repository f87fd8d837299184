"""Colour on a terminal only: errors, warnings, codes, made and set.

``--color auto|always|never`` (default ``auto``; given to ``pitch`` or after
any command's name) decides once per run, with the conventions of
https://no-color.org and https://force-color.org: ``auto`` colours when
standard output is a terminal (and ``TERM`` is not ``dumb``); a non-empty
``NO_COLOR`` turns it off, a non-empty ``FORCE_COLOR`` on (in a pipe too),
``NO_COLOR`` winning when both are set; ``always`` and ``never`` override
them all. Renderers
call ``paint(role, text)``; with colour off it returns the text unchanged, so
files, pipes and tests see plain text.
"""

from __future__ import annotations

import os
from typing import TextIO

import click

# role -> click.style arguments
ROLES: dict[str, dict[str, object]] = {
    "error": {"fg": "red", "bold": True},
    "warning": {"fg": "yellow", "bold": True},
    "code": {"fg": "cyan"},
    "made": {"fg": "green", "bold": True},
    "set": {"fg": "red", "bold": True},
}

_enabled = False


def decide(choice: str, stream: TextIO) -> bool:
    """Whether to colour output to ``stream`` for ``--color choice``."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    # NO_COLOR first: a user who turns colour off is not overruled by a tool
    # that forces it on (CPython's own order, Python 3.13).
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False


def enable(on: bool) -> None:
    """Turn colour on or off for this run (the ``pitch`` group does it once)."""
    global _enabled
    _enabled = on


def enabled() -> bool:
    """True when this run colours its output."""
    return _enabled


def paint(role: str, text: str) -> str:
    """``text`` in the colour of ``role`` when colour is on, else unchanged."""
    if not _enabled:
        return text
    return click.style(text, **ROLES[role])  # type: ignore[arg-type]
