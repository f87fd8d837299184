"""tabulate, as the table commands use it (``summarize``, ``ratings``,
``score``, ``find``), imported once a process; in the ``pitch`` program,
without two modules it imports at start-up that a table of plain text never
needs (``pitchcli.standin``; issue 22, start-up).

- **importlib.metadata.** tabulate 0.10 reads its own version with it as it
  starts (``importlib.metadata.version("tabulate")``: the import, with
  ``email``, ``zipfile`` and ``csv``, and a search of the installed packages).
  ``pitch`` never reads tabulate's version. The stand-in's ``version`` says
  "not found", which tabulate takes for "unknown".
- **wcwidth** (tabulate's ``widechars`` extra, which ``pitch`` asks for, so
  that a wide or combining character in a name keeps a table aligned): its
  import builds its tables of Unicode widths and compiles its patterns. The
  stand-in's ``wcswidth`` gives the width of a text of printable ASCII
  characters, which is its length (what wcwidth itself gives: one column
  each), and asks the real wcwidth, imported then, for any other text; any
  other name is the real module's. A club's table of ASCII names never
  imports it.

Measured (CPU of ``python -c`` importing tabulate and making a table, paired
with ``python -c pass``, 11 rounds): 103 ms plain, 41 ms with the stand-ins,
25 ms the interpreter alone. ``tests/render/test_tabulated.py`` holds the
tables of the two imports to the same text, wide and combining characters
included.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from functools import cache
from typing import Any

from pitchcli.standin import imported


class _NotFound(ModuleNotFoundError):
    """The stand-in's "package not found" (``importlib.metadata.PackageNotFoundError`` is one too)."""


def _no_version(name: str) -> str:
    raise _NotFound(name)


def _metadata() -> types.ModuleType:
    stand_in = types.ModuleType("importlib.metadata")
    stand_in.version = _no_version  # type: ignore[attr-defined]
    stand_in.PackageNotFoundError = _NotFound  # type: ignore[attr-defined]
    return stand_in


def _wcwidth() -> types.ModuleType:
    stand_in = types.ModuleType("wcwidth")

    def real() -> Any | None:
        # (While the stand-in is lent, during tabulate's own import, there is
        # no real module to ask: the lending import fails and is made the plain way.)
        if sys.modules.get("wcwidth") is stand_in:
            raise ImportError("wcwidth is lent a stand-in")
        try:
            return importlib.import_module("wcwidth")
        except ImportError:  # (installed but broken: measured by length, as tabulate does without it)
            return None

    def wcswidth(text: Any, *args: Any, **kwargs: Any) -> Any:
        """The columns ``text`` takes (wcwidth's ``wcswidth``)."""
        if not args and not kwargs and text.__class__ is str and text.isascii() and text.isprintable():
            return len(text)
        found = real()
        return len(text) if found is None else found.wcswidth(text, *args, **kwargs)

    def attribute(name: str) -> Any:
        found = real()
        if found is None:
            raise AttributeError(f"module 'wcwidth' has no attribute {name!r} (it could not be imported)")
        return getattr(found, name)

    stand_in.wcswidth = wcswidth  # type: ignore[attr-defined]
    stand_in.__getattr__ = attribute  # type: ignore[attr-defined]
    return stand_in


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # (``sys.modules[name] = None``: Python's way to say "not there")
        return False


@cache
def _module() -> Any:
    stand_ins = {"importlib.metadata": _metadata}
    if _installed("wcwidth"):  # (not installed: tabulate does without it, as it would)
        stand_ins["wcwidth"] = _wcwidth
    found = imported("tabulate", stand_ins)
    if found is None:
        raise ModuleNotFoundError("No module named 'tabulate'", name="tabulate")
    return found


def tabulate(*args: Any, **kwargs: Any) -> str:
    """``tabulate.tabulate``."""
    return _module().tabulate(*args, **kwargs)  # type: ignore[no-any-return]
