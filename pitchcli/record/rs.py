"""The compiled extensions, imported once a process: jsonschema_rs (the
schema check) and yaml-rs (YAML's happy path), each, in the ``pitch`` program,
without a standard module it imports and ``pitch`` never uses.

**jsonschema_rs.**

Its extension module reads, as it starts, its own build date with
``email.utils.parsedate_to_datetime`` (pyo3-built's ``__build__``; an open
issue upstream, PyO3/pyo3-built#29). ``email.utils`` imports socket,
selectors, random, calendar, base64 and ``email.charset``: about 7 ms of the
110-120 ms of CPU that ``pitch validate ONE_FILE`` takes (measured, issue 22),
for a date ``pitch`` never reads.

So the ``pitch`` program (``program.claimed()``: it owns its process) lends
the import a stand-in ``email.utils`` with that one function, which reads the
date exactly (``parsedate_to_datetime``, for the RFC 2822 form
the build writes), and takes the stand-in out of ``sys.modules`` as soon as the
import is over: whoever imports ``email.utils`` later gets the real module.
The stand-in is used only while ``email.utils`` is not imported yet; should it
not do (a later jsonschema_rs reading more of ``email.utils``, a date in
another form), the import is made again the plain way. The library (``import
pitchcli`` in a host's process) always imports the plain way: a host's other
threads may import ``email.utils`` at any moment.

**yaml-rs** (0.1.6) imports ``pathlib`` for its ``dump`` to a file's name, which
``pitch`` never calls; ``pathlib`` with the ``urllib.parse`` and ``ipaddress`` it
imports is about 3.7 ms of CPU that ``pitch validate ONE_FILE`` of a YAML file
needed for nothing else (installed as a user installs it: a development
install's import hook has loaded ``pathlib`` already; issue 22). The program
lends that import a stand-in ``pathlib`` whose ``Path`` makes and recognises
real paths (``pathlib`` imported then, on first use), the same way: taken out
of ``sys.modules`` as soon as the import is over, only while ``pathlib`` is not
imported yet, the plain import if it does not do, never in the library.

The lending itself is ``pitchcli.standin``'s, which ``render.tabulated`` uses too.
"""

from __future__ import annotations

import datetime
import sys
import types
from functools import cache
from typing import Any

from pitchcli.standin import imported

_STAND_IN = "email.utils"
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def parsedate_to_datetime(text: str) -> datetime.datetime:
    """``email.utils.parsedate_to_datetime`` for the one form jsonschema_rs
    gives it, ``"Thu, 12 Nov 2026 07:50:16 +0000"``; ValueError otherwise.
    (Not ``datetime.strptime``: its ``%a`` and ``%b`` follow the locale, and
    its ``_strptime`` imports ``calendar`` and ``locale``, the cost avoided.)"""
    try:
        _day, day, month, year, clock, zone = text.split()
        hour, minute, second = (int(part) for part in clock.split(":"))
        if zone[0] not in "+-" or len(zone) != 5:
            raise ValueError
        sign = -1 if zone[0] == "-" else 1
        offset = datetime.timedelta(hours=int(zone[1:3]), minutes=int(zone[3:5]))
        return datetime.datetime(int(year), _MONTHS.index(month.lower()) + 1, int(day), hour, minute, second,
                                 tzinfo=datetime.timezone(sign * offset))
    except (ValueError, IndexError) as e:
        raise ValueError(f"not a date of the form jsonschema_rs builds with: {text!r}") from e


def _email_utils() -> types.ModuleType:
    stand_in = types.ModuleType(_STAND_IN)
    stand_in.parsedate_to_datetime = parsedate_to_datetime  # type: ignore[attr-defined]
    return stand_in


@cache
def jsonschema_rs() -> Any | None:
    """The ``jsonschema_rs`` module, or None when it is not installed."""
    return imported("jsonschema_rs", {_STAND_IN: _email_utils})


class _LazyPathType(type):
    """``isinstance(x, Path)`` of the stand-in: whether ``x`` is a real path."""

    def __instancecheck__(cls, obj: object) -> bool:
        real = sys.modules.get("pathlib")
        return real is not None and isinstance(obj, real.PurePath)


class LazyPath(metaclass=_LazyPathType):
    """The stand-in ``pathlib.Path``: calling it makes a real ``pathlib.Path``
    (imported then), and real paths are its instances."""

    def __new__(cls, *parts: Any) -> Any:
        """A real ``pathlib.Path`` of ``parts``."""
        import pathlib

        return pathlib.Path(*parts)


def _pathlib() -> types.ModuleType:
    stand_in = types.ModuleType("pathlib")
    stand_in.Path = LazyPath  # type: ignore[attr-defined]
    return stand_in


@cache
def yaml_rs() -> Any | None:
    """The ``yaml_rs`` module, or None when it is not installed."""
    return imported("yaml_rs", {"pathlib": _pathlib})
