"""One input read two ways and held to the same output: with a fast reading
allowed and with it off (``AVAILABLE`` False: a machine without its wheel).
Shared by the tests of ``record.yaml_fast`` and ``record.json_fast``."""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from pitchcli.diagnostics import Diagnostic
from pitchcli.record.load import Document, Limits, load_documents


def typed(value: Any) -> Any:
    """``value`` with every type spelled out (``1 == 1.0 == True`` in Python)."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [typed(v) for v in value])
    return (type(value).__name__, repr(value))


def loaded(raw: bytes, name: str, limits: Limits | None, seen: Callable[[Document], tuple[Any, ...]]) -> list[Any]:
    """What the loader makes of ``raw``, as comparable data: each diagnostic as
    its JSON, each document as ``seen`` makes it."""
    out: list[Any] = []
    kw: dict[str, Any] = {"limits": limits} if limits is not None else {}
    for item in load_documents(io.BytesIO(raw), name, **kw):
        if isinstance(item, Diagnostic):
            out.append(("diag", item.as_json()))
        else:
            assert isinstance(item, Document)
            out.append(("doc", *seen(item)))
    return out


def same_readings(raw: bytes, reading: Callable[[], Any], fast: ModuleType, call_site: str) -> int:
    """Assert ``reading()`` gives the same with ``fast``'s reading allowed and
    with it off; the number of documents the fast reading read, counted where
    the loader calls it (``call_site``: its dotted name there), so that a test
    can show the fast path was taken."""
    module, name = call_site.rsplit(".", 1)
    real = getattr(importlib.import_module(module), name)
    hits = 0

    def counting(*args: Any) -> Any:
        nonlocal hits
        got = real(*args)
        hits += got is not None
        return got

    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(call_site, counting)
        with_fast = reading()
        mp.setattr(fast, "AVAILABLE", False)
        without = reading()
    finally:
        mp.undo()
    assert with_fast == without, raw[:300]
    return hits
