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

Decisions:

- **YAML** is read with libyaml (``yaml._yaml.CParser``) when PyYAML has it, the
  pure-Python parser otherwise. We keep libyaml's node tree (it has the positions)
  and build the data ourselves with the YAML 1.2 *core schema*, for plain
  (unquoted, untagged) scalars only: ``null Null NULL ~`` and empty are None;
  ``true True TRUE false False FALSE`` are booleans; ``[-+]?[0-9]+`` is an int
  (so ``017`` is 17, decimal as in YAML 1.2; ``0x1F``, ``0o17``, ``1_000`` stay
  strings); ``[-+]?(.[0-9]+|[0-9]+(.[0-9]*)?)([eE][-+]?[0-9]+)?`` is a float.
  Everything else is a string: ``no``, ``yes``, ``on``, ``off``, ``2026-11-28``,
  ``12:30``. Quoted scalars are always strings.
- Standard tags ``!!str !!int !!float !!bool !!null !!map !!seq`` are accepted
  when the value fits them; the non-specific tag ``!`` reads as no tag (libyaml
  and PyYAML treat it so); any other tag (``!!python/object``, ``!!timestamp``,
  ``!local`` ...) is L112, never built.
- **Infinity and NaN** (YAML ``.inf``/``.nan``, JSON ``Infinity``/``NaN``, or a
  float too large such as ``1e999``) are refused with L112: no record field holds
  them and they cannot be written back as JSON.
- **Mapping keys** are strings: a plain scalar key is kept as its text, so
  ``1: x`` has the key ``"1"`` and ``null: x`` the key ``"null"`` (JSON keys are
  strings, and a player may be named anything). A key that is a collection or
  has a non-``!!str`` tag is L112. A repeated key is L104 at the repetition.
- **Aliases** (``*a``) are refused (L105), found as a node reached twice while we
  build the data (libyaml shares the anchored node), so a "billion laughs" or a
  cyclic ``&a [*a]`` is refused at its first alias in bounded time. An anchor
  that is never used is harmless and is accepted.
- **Nesting**: libyaml's composer recurses in C without a limit (this libyaml,
  0.2.5, has no 1,000-level stop: it composed 20,000 levels and crashed the
  process with 40,000) and its scanner is quadratic in flow depth (30,000 levels
  of ``[``: 1.8 s), so a YAML document is never given to it unless a cheap byte-level bound
  shows its depth is under 1,000, or an event-level scan (which stops at
  ``max_depth``) has shown it is within ``Limits.max_depth``. Deeper than
  ``max_depth`` is L107 at the first too-deep collection.
- **Splitting a YAML stream**: a line starting with ``---`` or ``...`` (followed
  by a blank or the end of the line) or ``%`` is a document boundary, as YAML
  says, so each document's bytes are checked (UTF-8, size) and parsed on their
  own, with their line offset. A syntax error therefore ends only its document,
  and the next one is read.
- **Limits** (see :class:`Limits`): 2 GiB a file, 1 MiB a document, depth 64,
  1,000,000 documents a file, 200,000 values a document.
- **JSON**: ``json.loads`` with a duplicate-detecting ``object_pairs_hook``; when
  a position is needed (a diagnostic, ``Document.locate``), the text is scanned
  once by :func:`pitchcli.record.locate.compose_json`. A ``.json`` file (or
  sniffed JSON) whose first non-blank line is a complete JSON value is read as
  JSON Lines (a one-line document reads the same either way); otherwise it is one
  document, and data after it is L103.
- **Encoding**: UTF-8 only. A UTF-8 byte-order mark is an L111 warning and the
  file is read; UTF-16/32 (by BOM or by NUL bytes) is L102 for the file; an
  invalid UTF-8 sequence is L102 for its document, located.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
from collections.abc import Iterator
from typing import Any

from yaml.nodes import MappingNode, Node, SequenceNode

from pitchcli.diagnostics import Diagnostic
from pitchcli.escape import quote
from pitchcli.record.context import FileContext, StopFile
from pitchcli.record.document import DEFAULT_LIMITS, Document, Limits
from pitchcli.record.locate import (
    JSON_TOKEN_TAG,
    JsonScanError,
    JsonTooDeep,
    compose_json,
    iter_duplicate_keys,
    join_pointer,
)
from pitchcli.record.source import Reader, Source, not_utf8, open_source, sniff_encoding
from pitchcli.record.yaml_read import read_yaml

__all__ = ["DEFAULT_LIMITS", "FORMATS", "Document", "Limits", "Source", "load_documents"]

FORMATS = ("yaml", "json", "jsonl")
"""Formats ``load_documents(fmt=...)`` accepts (also ``yml`` and ``ndjson``)."""


# --------------------------------------------------------------------------- entry point


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


_FORMAT_NAMES = {"yaml": "yaml", "yml": "yaml", "json": "json", "jsonl": "jsonl", "ndjson": "jsonl"}
_SUFFIXES = {".yaml": "yaml", ".yml": "yaml", ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl"}


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
    if fmt == "yaml":
        yield from read_yaml(reader, ctx)
    else:
        yield from _read_json(reader, ctx, lines_only=fmt == "jsonl")
    if ctx.index == 0:
        yield ctx.diag("L109", "the file holds no document", line=1, column=1)


# --------------------------------------------------------------------------- JSON


def _json_lines(reader: Reader, max_bytes: int) -> Iterator[tuple[bytes | None, int, int]]:
    """``(line bytes or None if over max_bytes, 0-based line number, size)``."""
    parts: list[bytes] = []
    size = 0
    lineno = 0
    while True:
        piece = reader.readline()
        if not piece:
            break
        size += len(piece)
        if size <= max_bytes:
            parts.append(piece)
        if piece.endswith(b"\n"):
            yield (b"".join(parts) if size <= max_bytes else None), lineno, size
            parts, size = [], 0
            lineno += 1
    if size:
        yield (b"".join(parts) if size <= max_bytes else None), lineno, size


def _read_json(reader: Reader, ctx: FileContext, lines_only: bool) -> Iterator[Document | Diagnostic]:
    limit = ctx.limits.max_document_bytes
    lines = _json_lines(reader, limit)
    undecided = not lines_only  # JSON or JSON Lines: the first non-blank line decides
    for raw, lineno, size in lines:
        if raw is not None and not raw.strip():
            continue
        if raw is None:
            ctx.next_document()
            yield ctx.diag(
                "L106",
                f"the document has {size} bytes or more, more than the limit of {limit}",
                line=lineno + 1,
                column=1,
            )
            ctx.index += 1
            if undecided:
                return  # one huge document: nothing more to read as JSON
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            ctx.next_document()
            yield not_utf8(ctx, raw, e.start, lineno)
            ctx.index += 1
            if undecided:
                return
            continue
        if undecided:
            undecided = False
            if not _is_one_value(text):
                yield from _read_json_whole(raw, lineno, lines, ctx)
                return
        ctx.next_document()
        # Without its line end, an error at the end of the line is placed on it.
        yield from _json_document(text.rstrip("\r\n"), lineno, ctx)
        ctx.index += 1


def _is_one_value(text: str) -> bool:
    """Whether a line is a whole JSON value, so the file is read as JSON Lines."""
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return False
    except (ValueError, RecursionError):
        return True  # valid JSON that json cannot hold: reported per line
    return True


def _read_json_whole(
    first: bytes,
    line0: int,
    lines: Iterator[tuple[bytes | None, int, int]],
    ctx: FileContext,
) -> Iterator[Document | Diagnostic]:
    """Read the rest of the file as one JSON document starting at line ``line0``."""
    limit = ctx.limits.max_document_bytes
    parts = [first]
    total = len(first)
    for raw, _, size in lines:
        total += size
        if raw is None or total > limit:
            ctx.next_document()
            yield ctx.diag(
                "L106",
                f"the document is larger than the limit of {limit} bytes",
                line=line0 + 1,
                column=1,
            )
            ctx.index += 1
            return
        parts.append(raw)
    data = b"".join(parts)
    ctx.next_document()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        yield not_utf8(ctx, data, e.start, line0)
    else:
        yield from _json_document(text, line0, ctx)
    ctx.index += 1


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _json_document(text: str, line0: int, ctx: FileContext) -> Iterator[Document | Diagnostic]:
    """Load one JSON document (the text of a file or of one line)."""
    duplicates = nonfinite = floats = False

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal duplicates
        d = dict(pairs)
        if len(d) != len(pairs):
            duplicates = True
        return d

    def float_hook(token: str) -> float:
        # Called for number tokens with a fraction or exponent (rare in records),
        # and for NaN/Infinity: flags 1e999 and friends without walking the data.
        nonlocal nonfinite, floats
        floats = True
        f = float(token)
        if f - f != 0:  # inf - inf and nan - nan are nan
            nonfinite = True
        return f

    def at_index(index: int) -> tuple[int, int]:
        line = text.count("\n", 0, index)
        return line0 + line + 1, index - (text.rfind("\n", 0, index) + 1) + 1

    limits = ctx.limits
    try:
        data = json.loads(
            text, object_pairs_hook=pairs_hook, parse_float=float_hook, parse_constant=float_hook
        )
    except json.JSONDecodeError as e:
        message = e.msg
        if message == "Extra data":
            message = "extra data after the JSON document (one document per file, or JSON Lines)"
        yield ctx.diag("L103", f"JSON: {message}", line0 + e.lineno, e.colno)
        return
    except RecursionError:
        try:
            compose_json(text, max_depth=limits.max_depth)
        except JsonTooDeep as deep:
            line, column = at_index(deep.pos)
            yield ctx.diag(
                "L107",
                f"collections nested more than {limits.max_depth} deep",
                line,
                column,
                join_pointer(deep.path),
            )
            return
        except JsonScanError:
            pass
        yield ctx.diag("L107", "collections nested too deep", line0 + 1, 1)
        return
    except ValueError:
        # int() refuses more than 4300 digits; find the number for the location.
        yield from _json_long_number(text, line0, ctx)
        return
    doc = Document(ctx.file, ctx.index, data, "json", text=text, line0=line0, floats=floats)
    if duplicates:
        tree = doc.node_tree()
        if tree is not None:
            for path, first, again in iter_duplicate_keys(tree):
                yield ctx.diag(
                    "L104",
                    f"duplicate key {quote(again.value)} (first at line "
                    f"{line0 + first.start_mark.line + 1})",
                    line0 + again.start_mark.line + 1,
                    again.start_mark.column + 1,
                    join_pointer([*path, again.value]),
                )
            return
    if not isinstance(data, dict):
        yield doc.place(ctx.diag("L110", f"the document is {_json_kind(data)}; a record is a mapping"))
        return
    # Walk the data only if a limit may be exceeded: the text's brackets bound
    # the depth and its length the number of values, exactly enough to skip the
    # walk for nearly every record (the walk then finds where).
    check_strings = _SURROGATE_ESCAPE.search(text) is not None
    if nonfinite or check_strings or not _json_within(text, limits.max_depth, limits.max_nodes):
        refused = _check_json(data, limits.max_depth, limits.max_nodes, check_strings)
    else:
        refused = None
    if refused is not None:
        code, message, path, is_key = refused
        yield doc.place(ctx.diag(code, message, pointer=join_pointer(path)), key=is_key)
        return
    yield doc


# The bytes of a JSON text that can be structure: brackets (braces read as
# brackets, as the depth counts both alike) and quotes; everything else is deleted.
_BRACKETS = bytes.maketrans(b"{}", b"[]")
_NOT_STRUCTURE = bytes(c for c in range(256) if c not in b'[]{}"')


def _json_within(text: str, max_depth: int, max_nodes: int) -> bool:
    """True when the JSON text ``text`` (which ``json.loads`` accepted) surely
    nests at most ``max_depth`` deep and holds at most ``max_nodes`` values, as
    :func:`_check_json` counts them; False when it may not (the walk decides).

    Read from the text at C speed rather than by walking the data: the
    structure's brackets, without those inside strings, nest exactly as the
    collections do, and removing every empty ``[]`` takes one level off each
    round, so the text is within ``max_depth`` iff that many rounds leave
    nothing. A bracket is inside a string iff an odd number of quotes comes
    before it; once escaped backslashes and quotes are gone, every run of quotes
    of even length means none is (its ``""`` pairs vanish), and a quote left
    over sends the text to the walk instead.
    """
    raw = text.encode("utf-8", "surrogatepass")  # only ASCII bytes matter here
    if b"\\" in raw:
        # Backslashes occur only in strings, paired left to right: \\ is one
        # escaped backslash, then a \" left is an escaped quote.
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    skeleton = raw.translate(_BRACKETS, _NOT_STRUCTURE).replace(b'""', b"")
    if b'"' in skeleton:
        return False
    # Values: a collection counts 1 and 1 per item (_check_json); every item
    # but a collection's first follows a comma, and a collection has 2 brackets.
    if len(text) > max_nodes and text.count(",") + len(skeleton) > max_nodes:
        return False
    for _ in range(max_depth):
        skeleton = skeleton.replace(b"[]", b"")
        if not skeleton:
            return True
    return False


def _json_kind(data: Any) -> str:
    return "a list" if isinstance(data, list) else "a single value"


def _json_long_number(text: str, line0: int, ctx: FileContext) -> Iterator[Diagnostic]:
    doc = Document(ctx.file, ctx.index, None, "json", text=text, line0=line0)
    tree = doc.node_tree()
    stack: list[tuple[Node, list[str | int]]] = [(tree, [])] if tree is not None else []
    while stack:
        node, path = stack.pop()
        if isinstance(node, MappingNode):
            stack.extend((v, [*path, k.value]) for k, v in node.value)
        elif isinstance(node, SequenceNode):
            stack.extend((v, [*path, i]) for i, v in enumerate(node.value))
        elif node.tag == JSON_TOKEN_TAG and len(node.value) > 4000:
            yield doc.place(
                ctx.diag("L112", "a number with too many digits", pointer=join_pointer(path))
            )
            return
    yield ctx.diag("L112", "a number with too many digits", line0 + 1, 1)


class _Found(Exception):
    """A problem found in loaded JSON data; ``path`` grows from it to the root."""

    def __init__(self, code: str, message: str, is_key: bool = False) -> None:
        super().__init__(message)
        self.code, self.message, self.is_key = code, message, is_key
        self.path: list[str | int] = []


def _json_plain(data: dict[str, Any], max_depth: int, max_nodes: int) -> bool:
    """The fast pass of :func:`_check_json`: True when the data is within the
    depth and size limits and holds no infinite or NaN float. Values only, no
    keys or paths: the slow pass finds where, in the rare case there is a problem."""
    count = 0

    def fine(value: dict[str, Any] | list[Any], depth: int) -> bool:
        nonlocal count
        count += len(value) + 1
        if depth > max_depth or count > max_nodes:
            return False
        for v in value.values() if type(value) is dict else value:
            t = type(v)
            if t is dict or t is list:
                if not fine(v, depth + 1):
                    return False
            elif t is float and v - v != 0:  # inf - inf and nan - nan are nan
                return False
        return True

    return fine(data, 1)


def _check_json(
    data: dict[str, Any], max_depth: int, max_nodes: int, check_strings: bool
) -> tuple[str, str, list[str | int], bool] | None:
    """The first problem of loaded JSON data that json.loads lets through:
    too deep (L107), too many values (L106), a non-finite number (L112) or, when
    ``check_strings``, a string with a lone surrogate escape (L112); as
    ``(code, message, path, is_key)``."""
    if not check_strings and _json_plain(data, max_depth, max_nodes):
        return None
    count = 0

    def bad_string(s: str) -> bool:
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False

    def walk(value: dict[str, Any] | list[Any], depth: int) -> None:
        nonlocal count
        if depth > max_depth:
            raise _Found("L107", f"collections nested more than {max_depth} deep")
        count += len(value) + 1
        if count > max_nodes:
            raise _Found("L106", f"the document has more than {max_nodes} values")
        items = value.items() if type(value) is dict else enumerate(value)
        for k, v in items:
            t = type(v)
            try:
                if check_strings and type(k) is str and bad_string(k):
                    raise _Found("L112", "a key with an unpaired surrogate escape", True)
                if t is dict or t is list:
                    walk(v, depth + 1)
                elif t is float:
                    if not math.isfinite(v):
                        raise _Found("L112", f"{v} (infinity, NaN or too large) cannot be in a record")
                elif check_strings and t is str and bad_string(v):
                    raise _Found("L112", "a string with an unpaired surrogate escape")
            except _Found as found:
                found.path.append(k)
                raise

    try:
        walk(data, 1)
    except _Found as found:
        return found.code, found.message, found.path[::-1], found.is_key
    return None
