"""The record loader: bytes -> documents of plain data, with source positions.

``load_documents(source)`` reads a file (YAML, a YAML stream, JSON or JSON Lines)
and yields, lazily and in file order, one :class:`Document` for every document it
could load and :class:`~pitchcli.diagnostics.Diagnostic` objects (codes L101-L112)
for every problem. It never raises for anything a file can contain, and it reads
a stream in constant memory: one document at a time.

Contract of the output, for each document of a file (``index`` 0, 1, 2 ...):
either a ``Document`` (possibly after warnings such as L111), or one or more
error diagnostics whose ``document`` is that index and no ``Document`` (a record
whose data is ambiguous or unsafe, e.g. with a duplicate key or an alias, is not
handed on half-loaded). Problems found before a refusal (an alias, too deep,
too many values) are reported with it. Errors that end the file (unreadable,
too large, UTF-16/32, too many documents) come last. A file with no document at
all gives L109.

This module chooses the format and hands the file to its reader; each of the
loader's decisions is in the module that carries it out:

- ``document``: :class:`Document`, :class:`Limits` and ``DEFAULT_LIMITS``;
- ``context``: what the readers of one file share, and the diagnostic that
  ends a file;
- ``source``: opening and reading bytes, bounded; the encoding (UTF-8 only);
- ``yaml_stream``: a YAML stream cut into documents at ``---``, ``...``, ``%``;
- ``yaml_scan``: the safety scans before libyaml composes (depth, aliases);
- ``yaml_parser``: libyaml's or the pure-Python parser, with tags only;
- ``yaml_build``: the data built with the core schema (no implicit dates,
  duplicate keys and aliases refused, the number policy);
- ``yaml_fast``: the happy path read by a compiled parser (yaml-rs) when that
  reading can be vouched for; every other document is composed and built;
- ``yaml_problems``: the problems found while building, located;
- ``yaml_compose``: the locating loader, a chunk composed and built, with the
  diagnostics of each of its documents;
- ``yaml_read``: a YAML stream, document by document (the compiled parser's
  reading, or the locating loader's);
- ``json_read`` and ``json_limits``: JSON and JSON Lines, and the limits
  ``json.loads`` does not check.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator

from pitchcli.diagnostics import Diagnostic
from pitchcli.record.context import FileContext, StopFile
from pitchcli.record.document import DEFAULT_LIMITS, Document, Limits
from pitchcli.record.source import Reader, Source, open_source, sniff_encoding

__all__ = ["DEFAULT_LIMITS", "FORMATS", "Document", "Limits", "Source", "load_documents"]

FORMATS = ("yaml", "json", "jsonl")
"""Formats ``load_documents(fmt=...)`` accepts (also ``yml`` and ``ndjson``)."""

_FORMAT_NAMES = {"yaml": "yaml", "yml": "yaml", "json": "json", "jsonl": "jsonl", "ndjson": "jsonl"}
_SUFFIXES = {".yaml": "yaml", ".yml": "yaml", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def load_documents(
    source: Source,
    name: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
    fmt: str | None = None,
) -> Iterator[Document | Diagnostic]:
    """Read every document of ``source``, lazily, in constant memory per document.

    ``source`` is a path (``str`` or ``os.PathLike``), the bytes of a file, or a
    binary file object such as ``sys.stdin.buffer`` (read, not closed). ``name``
    is the file name put in documents and diagnostics (default: the path, or
    ``"-"``); its extension also chooses the format. ``fmt`` forces one of
    ``"yaml"``, ``"json"`` (one document, or JSON Lines if the first line is a
    whole value) or ``"jsonl"``; otherwise ``.yaml``/``.yml``, ``.json``,
    ``.jsonl``/``.ndjson`` decide, and anything else is sniffed: a first
    non-blank byte ``{`` or ``[`` means JSON, anything else YAML.

    Yields :class:`Document` and :class:`Diagnostic` objects (see the module
    docstring for the contract). Raises only ``ValueError`` for a bad ``fmt``
    and ``TypeError`` for a text (not binary) file object, at once.
    The file is opened on the first ``next()`` and closed when the iterator ends
    or is closed.
    """
    if isinstance(source, io.TextIOBase):
        raise TypeError("load_documents reads bytes: pass sys.stdin.buffer, not sys.stdin")
    if fmt is not None:
        known = _FORMAT_NAMES.get(fmt.lower())
        if known is None:
            raise ValueError(f"unknown format {fmt!r}: one of {', '.join(FORMATS)}")
        fmt = known
    if name is None:
        name = os.fsdecode(source) if isinstance(source, str | os.PathLike) else "-"
    return _load(source, name, limits, fmt)


def _load(
    source: Source, file: str, limits: Limits, fmt: str | None
) -> Iterator[Document | Diagnostic]:
    ctx = FileContext(file, limits)
    try:
        with open_source(source, ctx) as handle:
            yield from _read_file(Reader(handle, ctx), ctx, fmt or _format_of(file))
    except StopFile as stop:
        yield stop.diagnostic
    except MemoryError:
        yield ctx.diag("L106", "the document is too large to load in memory")
    except Exception as e:  # pragma: no cover - a bug; a run over many files goes on
        yield ctx.diag("L101", f"internal error while reading: {type(e).__name__}: {e}",
                       internal=True)


def _format_of(file: str) -> str | None:
    return _SUFFIXES.get(os.path.splitext(file)[1].lower())


def _read_file(reader: Reader, ctx: FileContext, fmt: str | None) -> Iterator[Document | Diagnostic]:
    head, encoding = sniff_encoding(reader, ctx)
    if encoding is not None:
        yield encoding  # L102 (then head is None: the file is not read) or L111
    if head is None:
        return
    if fmt is None:
        first = head.lstrip()[:1]
        fmt = "json" if first in (b"{", b"[") else "yaml"
    # Each reader is imported with the first file of its format: a run over
    # JSON imports no YAML parser, one over YAML no orjson (start-up;
    # tests/commands/test_lazy_commands.py).
    if fmt == "yaml":
        from pitchcli.record.yaml_read import read_yaml

        yield from read_yaml(reader, ctx)
    else:
        from pitchcli.record.json_read import read_json

        yield from read_json(reader, ctx, lines_only=fmt == "jsonl")
    if ctx.index == 0:
        yield ctx.diag("L109", "the file holds no document", line=1, column=1)
