"""pitchcli: the toolkit and record format for the card game Pitch.

Layers, data flowing one way: ``record`` (bytes -> documents with positions,
schema) -> ``engine`` (rules, no I/O) -> ``analysis`` (a record replayed in the
engine: diagnostics and results) -> ``report`` / ``cli``.

The Python API for summarizing on other engines (Dask, Spark, ...; README
"Summarize on a cluster"):

- ``summarize_file(path) -> Summary``: one record file (or folder), every
  document validated and counted as by ``pitch summarize``;
- ``Summary.merge(other)``: add another summary (associative, commutative);
- ``Summary.to_json()`` / ``Summary.from_json(data)``: the partial summary as
  plain JSON data, to ship between machines (``pitch merge`` reads it too);
- ``write_report(summary, out, fmt)``: the report ``pitch summarize`` prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from pitchcli.render.summary import write_report
    from pitchcli.views.summarize import summarize_file
    from pitchcli.views.summary import Summary

# Imported on first use, so that ``import pitchcli`` (and ``pitch`` start-up)
# doesn't load the loader, the engine and the reports for a version string.
_LAZY = {"summarize_file": "pitchcli.views.summarize", "Summary": "pitchcli.views.summary",
         "write_report": "pitchcli.render.summary"}

__all__ = ["Summary", "__version__", "summarize_file", "write_report"]


def __getattr__(name: str) -> Any:
    """The public API names, imported lazily (PEP 562)."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'pitchcli' has no attribute {name!r}")
