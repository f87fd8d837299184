"""Importing a third-party module, in the ``pitch`` program, with stand-ins for
modules it imports at start-up and ``pitch`` never uses (issue 22, start-up).

``imported(module, stand_ins)`` lends each stand-in (a module made by its
factory) to ``sys.modules`` under its name while ``module`` is imported, and
takes it out as soon as the import is over: whoever imports that name later
gets the real module. A stand-in is lent only in the program
(``program.claimed()``: it owns its process) and only while its name is not
imported yet; should the import fail with the stand-ins lent (a later
version reading more of a module than its stand-in has), it is made again
the plain way. The library (``import pitchcli`` in a host's process) always
imports the plain way: a host's other threads may import those names at any
moment. ``record.rs`` (jsonschema_rs, yaml-rs) and ``render.tabulated``
(tabulate) say which stand-ins each gets and why.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any

from pitchcli import program


def lending(stand_ins: Mapping[str, types.ModuleType], module: str) -> Any:
    """``import module`` with each of ``stand_ins`` in ``sys.modules`` under
    its name; taken out as soon as it is over. (Found in ``sys.modules``, a
    stand-in is never set as an attribute of its package: taking it out of
    there is enough.)"""
    sys.modules.update(stand_ins)
    try:
        return importlib.import_module(module)
    finally:
        for name, stand_in in stand_ins.items():
            if sys.modules.get(name) is stand_in:
                del sys.modules[name]


def imported(module: str, stand_ins: Mapping[str, Callable[[], types.ModuleType]]) -> Any | None:
    """The module ``module``, imported with a stand-in (its factory's module)
    lent for each name of ``stand_ins`` in the program while that name is not
    imported yet; the plain import otherwise, or when the stand-ins do not do.
    None when it is not installed."""
    lent = {name: make for name, make in stand_ins.items() if name not in sys.modules}
    if program.claimed() and lent and module not in sys.modules:
        try:
            return lending({name: make() for name, make in lent.items()}, module)
        except Exception:  # (not installed, or a stand-in did not do: the plain import says which)
            pass
    try:
        return importlib.import_module(module)
    except ImportError:
        return None
