"""jsonschema_rs, the compiled schema check, imported once a process.

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
"""

from __future__ import annotations

import datetime
import sys
import types
from functools import cache
from typing import Any

from pitchcli import program

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


def _with_stand_in() -> Any:
    """``import jsonschema_rs`` with the stand-in ``email.utils`` in place."""
    stand_in = types.ModuleType(_STAND_IN)
    stand_in.parsedate_to_datetime = parsedate_to_datetime  # type: ignore[attr-defined]
    sys.modules[_STAND_IN] = stand_in
    try:
        import jsonschema_rs
    finally:
        # (Found in ``sys.modules``, the stand-in is never set as an attribute
        # of the ``email`` package: taking it out of there is enough.)
        if sys.modules.get(_STAND_IN) is stand_in:
            del sys.modules[_STAND_IN]
    return jsonschema_rs


@cache
def jsonschema_rs() -> Any | None:
    """The ``jsonschema_rs`` module, or None when it is not installed."""
    if program.claimed() and _STAND_IN not in sys.modules:
        try:
            return _with_stand_in()
        except Exception:  # (not installed, or the stand-in did not do: the plain import says which)
            pass
    try:
        import jsonschema_rs
    except ImportError:
        return None
    return jsonschema_rs
