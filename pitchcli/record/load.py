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
from collections.abc import Callable, Iterator
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    MappingStartEvent,
    ScalarEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from pitchcli.diagnostics import Diagnostic
from pitchcli.escape import quote
from pitchcli.record.context import FileContext, StopFile
from pitchcli.record.document import DEFAULT_LIMITS, SAFE_DEPTH, Document, Limits
from pitchcli.record.locate import (
    JSON_TOKEN_TAG,
    MAP_TAG,
    SEQ_TAG,
    STR_TAG,
    JsonScanError,
    JsonTooDeep,
    compose_json,
    iter_duplicate_keys,
    join_pointer,
)
from pitchcli.record.source import Reader, Source, not_utf8, offset_position, open_source, sniff_encoding

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
        yield from _read_yaml(reader, ctx)
    else:
        yield from _read_json(reader, ctx, lines_only=fmt == "jsonl")
    if ctx.index == 0:
        yield ctx.diag("L109", "the file holds no document", line=1, column=1)


# --------------------------------------------------------------------------- YAML stream


def stream_marker(piece: bytes) -> bytes:
    """``---``, ``...`` or ``%`` when a line starts with that boundary, else ``b""``."""
    c = piece[:1]
    if c == b"%":
        return c
    if c == b"-" or c == b".":
        head = piece[:3]
        if (head == b"---" or head == b"...") and piece[3:4] in (b"", b" ", b"\t", b"\r", b"\n"):
            return head
    return b""


def _yaml_chunks(reader: Reader, max_bytes: int) -> Iterator[tuple[bytes | None, int, int]]:
    """Split a YAML stream into documents: ``(bytes or None if over max_bytes,
    0-based line of its first line, its size in bytes)``.

    A boundary is a line starting ``---`` or ``...`` followed by a blank, or a
    directive (``%``) line, at column 0 outside a document's scalars: YAML forbids
    these at column 0 inside a document, so the split is the one libyaml makes.
    Blank, comment and directive lines before a document belong to it. A chunk
    rarely holds more than one document (a file with bare CR line ends); the
    caller composes every document of a chunk.
    """
    lines: list[bytes] = []
    size = 0
    start = 0  # first line of the chunk
    lineno = 0  # line of the next piece
    in_doc = False  # the chunk has document content (or a "---")
    directive = False  # the chunk's preamble has a directive or "..."
    at_start = True  # the next piece starts a line

    def emit() -> tuple[bytes | None, int, int]:
        return (b"".join(lines) if size <= max_bytes else None), start, size

    while True:
        piece = reader.readline()
        if not piece:
            break
        marker = stream_marker(piece) if at_start else b""
        if marker and in_doc and marker != b"...":
            # This line starts the next document (or the directives before it).
            yield emit()
            lines, size, start = [], 0, lineno
            in_doc = directive = False
        if marker == b"---":
            in_doc = True
        elif marker:
            directive = True
        elif at_start and not in_doc:
            stripped = piece.strip()
            if stripped and not stripped.startswith(b"#"):
                in_doc = True
        size += len(piece)
        if size <= max_bytes:
            lines.append(piece)
        elif lines:
            lines = []  # too large: keep counting, stop keeping
        at_start = piece.endswith(b"\n")
        if at_start:
            lineno += 1
        if marker == b"..." and in_doc:
            # "..." ends its document; what follows is the next one's preamble.
            yield emit()
            lines, size, start = [], 0, lineno
            in_doc = directive = False
    if in_doc or directive:
        yield emit()


def _read_yaml(reader: Reader, ctx: FileContext) -> Iterator[Document | Diagnostic]:
    for chunk, line0, size in _yaml_chunks(reader, ctx.limits.max_document_bytes):
        if chunk is None:
            ctx.next_document()
            yield ctx.diag(
                "L106",
                f"the document has {size} bytes, more than the limit of "
                f"{ctx.limits.max_document_bytes}",
                line=line0 + 1,
                column=1,
            )
            ctx.index += 1
            continue
        yield from _read_yaml_chunk(chunk, line0, ctx)


def _read_yaml_chunk(chunk: bytes, line0: int, ctx: FileContext) -> Iterator[Document | Diagnostic]:
    """Compose and build every document of one chunk of a YAML stream."""
    try:
        chunk.decode("utf-8")
    except UnicodeDecodeError as e:
        ctx.next_document()
        yield not_utf8(ctx, chunk, e.start, line0)
        ctx.index += 1
        return
    max_depth = ctx.limits.max_depth
    if _may_be_deep(chunk):
        deep = _first_too_deep(chunk, max_depth)
        if deep is not None:
            ctx.next_document()
            mark, pointer = deep
            yield ctx.diag(
                "L107",
                f"collections nested more than {max_depth} deep",
                line=line0 + mark.line + 1,
                column=mark.column + 1,
                pointer=pointer,
            )
            ctx.index += 1
            return
    try:
        composer = _new_composer(chunk)  # the pure reader checks characters here
        while composer.check_node():
            ctx.next_document()
            root = composer.get_node()
            yield from _yaml_document(root, chunk, line0, ctx)
            ctx.index += 1
    except yaml.YAMLError as e:
        yield _yaml_error(e, chunk, line0, ctx)
        ctx.index += 1
    except RecursionError:
        # The pure-Python composer recurses (2 frames a level), so with a
        # max_depth raised near 500 Python's recursion limit comes first.
        deep = _first_too_deep(chunk, max_depth) or _first_too_deep(chunk, 256)
        mark, pointer = deep if deep else (None, "")
        yield ctx.diag(
            "L107",
            "collections nested too deep for the pure-Python YAML parser",
            line=line0 + (mark.line if mark else 0) + 1,
            column=mark.column + 1 if mark else 1,
            pointer=pointer,
        )
        ctx.index += 1


def _yaml_error(e: yaml.YAMLError, chunk: bytes, line0: int, ctx: FileContext) -> Diagnostic:
    """L103 for a YAML syntax error, at its mark."""
    if isinstance(e, yaml.reader.ReaderError):
        # libyaml counts the position in bytes, the pure reader in characters.
        offset = e.position
        if not _USE_LIBYAML:
            offset = len(chunk.decode("utf-8")[:offset].encode("utf-8"))
        line, column = offset_position(chunk, offset, line0)
        return ctx.diag("L103", f"YAML: {e.reason}", line=line, column=column)
    if isinstance(e, yaml.MarkedYAMLError):
        mark = e.problem_mark or e.context_mark
        problem = e.problem or "syntax error"
        if e.context and e.problem:
            problem = f"{e.context}: {e.problem}"
        if mark is not None:
            return ctx.diag(
                "L103", f"YAML: {problem}", line=line0 + mark.line + 1, column=mark.column + 1
            )
        return ctx.diag("L103", f"YAML: {problem}", line=line0 + 1, column=1)
    return ctx.diag("L103", f"YAML: {e}", line=line0 + 1, column=1)


# Two lines of defence before libyaml sees a document: the C composer recurses
# without limit (a crash past ~30,000 levels here) and the scanner's cost grows
# with the square of the flow depth. Depth in flow style needs a '[' or '{' per
# level; in block style every level but one of each two needs a column further
# right, reached only by indentation and '-', '?', ':' indicators at the start
# of a line. So without many brackets and without a line starting with 250 such
# characters the depth is under ~1,000, safe to compose; our walk then applies
# max_depth with a location. Otherwise an event scan (iterative, stopping at
# max_depth) decides first.
_LONG_LEAD = re.compile(rb"\n[ \t?:\-]{%d}" % (SAFE_DEPTH // 4))
_LONG_LEAD_AT_START = re.compile(rb"[ \t?:\-]{%d}" % (SAFE_DEPTH // 4))


def _may_be_deep(chunk: bytes) -> bool:
    """False when the nesting depth of this YAML text is surely under SAFE_DEPTH."""
    if chunk.count(b"[") + chunk.count(b"{") > SAFE_DEPTH // 2:
        return True
    return _LONG_LEAD.search(chunk) is not None or _LONG_LEAD_AT_START.match(chunk) is not None


def _first_too_deep(chunk: bytes, max_depth: int, pure: bool = False) -> tuple[yaml.Mark, str] | None:
    """The start and pointer of the first collection nested deeper than
    ``max_depth``, by an event scan that stops there (so its cost stays bounded);
    None if there is none, or if a syntax error comes first (the composer reports it)."""
    parser = _PyComposer(chunk) if pure else _new_event_parser(chunk)
    # One frame per open collection: [is_mapping, children seen, last key].
    frames: list[list[Any]] = []
    try:
        while parser.check_event():
            event = parser.get_event()
            if isinstance(event, CollectionEndEvent):
                frames.pop()
                continue
            if not isinstance(event, ScalarEvent | AliasEvent | CollectionStartEvent):
                continue  # stream and document events
            if frames:
                frame = frames[-1]
                frame[1] += 1
                if frame[0] and frame[1] % 2 and isinstance(event, ScalarEvent):
                    frame[2] = event.value  # a key (1st, 3rd ... child of a mapping)
            if isinstance(event, CollectionStartEvent):
                frames.append([isinstance(event, MappingStartEvent), 0, None])
                if len(frames) > max_depth:
                    path = [f[2] if f[0] else f[1] - 1 for f in frames[:-1]]
                    return event.start_mark, join_pointer(path)
    except yaml.YAMLError as e:
        # libyaml 0.2.6 refuses flow nesting past 1,000 while scanning ahead,
        # before the parser reaches our limit: find the exact place with the
        # pure-Python parser, which stops at ``max_depth`` (bounded cost).
        if not pure and "nesting depth" in str(getattr(e, "problem", "")):
            return _first_too_deep(chunk, max_depth, pure=True)
        return None
    except RecursionError:
        return None
    return None


def _first_alias(chunk: bytes, after: int) -> AliasEvent | None:
    """The first alias event at or after character index ``after`` (for L105)."""
    parser = _new_event_parser(chunk)
    try:
        while parser.check_event():
            event = parser.get_event()
            if isinstance(event, AliasEvent) and event.start_mark.index >= after:
                return event
    except yaml.YAMLError:
        return None
    return None


# --------------------------------------------------------------------------- composers

# Tags our resolver gives: untagged plain scalars get _PLAIN (core-schema
# resolution happens when we build the data), quoted ones and "!" get str.
_PLAIN = "\x00plain"  # cannot clash: libyaml refuses control characters in tags
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"


class _CoreTags:
    """Resolver for the composers: tags only, no YAML 1.1 implicit types, no
    path resolvers (libyaml's composer calls these three methods)."""

    def resolve(self, kind: type, value: str | None, implicit: Any) -> str:
        if kind is ScalarNode:
            # implicit = (plain_implicit, quoted_implicit): plain and untagged.
            return _PLAIN if implicit[0] else STR_TAG
        return MAP_TAG if kind is MappingNode else SEQ_TAG

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        pass

    def ascend_resolver(self) -> None:
        pass


class _PyComposer(
    yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer, _CoreTags
):
    """The pure-Python composer, for PyYAML without libyaml."""

    def __init__(self, stream: bytes) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)


# Tests set this to False to run the pure-Python path.
_USE_LIBYAML = bool(getattr(yaml, "__with_libyaml__", False))
if _USE_LIBYAML:
    from yaml._yaml import CParser

    class _CComposer(CParser, _CoreTags):  # type: ignore[misc, valid-type]
        """libyaml's parser and composer with our resolver."""


def _new_composer(chunk: bytes) -> Any:
    return _CComposer(chunk) if _USE_LIBYAML else _PyComposer(chunk)


def _new_event_parser(chunk: bytes) -> Any:
    return CParser(chunk) if _USE_LIBYAML else _PyComposer(chunk)


# --------------------------------------------------------------------------- building data

_NULLS = {"": None, "~": None, "null": None, "Null": None, "NULL": None}
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_SPECIAL: dict[str, Any] = {**_NULLS, **_BOOLS}
_MISSING = object()
# Plain scalars whose value is known without a look: the specials, and the texts
# that start like a number once resolved (an int, or the text: cards such as
# 10H, bids). Floats are left out (a document's float flag is set as they are
# read). Bounded: hostile files have many texts.
_RESOLVED: dict[str, Any] = dict(_SPECIAL)
_RESOLVED_MAX = len(_SPECIAL) + 4096
_NUMBER_START = frozenset("0123456789+-.")
_INT_RE = re.compile(r"[-+]?[0-9]+\Z")
_FLOAT_RE = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_INF_NAN_RE = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z|\.(?:nan|NaN|NAN)\Z")


class _Refused(Exception):
    """A problem that stops building a document (alias, depth, size). ``path``
    collects the keys and indices from the problem up to the root."""

    def __init__(self, code: str, message: str, node: Node) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.node = node
        self.path: list[str | int] = []
        self.problems: list[tuple[str, str, Node]] = []


def _short_tag(tag: str) -> str:
    return "!!" + tag[18:] if tag.startswith("tag:yaml.org,2002:") else tag


def _build(
    root: Node, limits: Limits, check_shared: bool
) -> tuple[Any, list[tuple[str, str, Node]], bool]:
    """The plain data of a composed YAML document, its problems
    ``(code, message, node)`` (duplicate keys, refused tags and keys, numbers a
    record cannot hold) and whether it holds a float. Raises :class:`_Refused` for an alias (when
    ``check_shared``: the text has a ``*``), too deep or too many nodes."""
    problems: list[tuple[str, str, Node]] = []
    seen: set[int] = set()
    max_depth = limits.max_depth
    max_nodes = limits.max_nodes
    count = 0
    floats = False

    def number(value: str, node: Node) -> Any:
        nonlocal floats
        if _INT_RE.match(value):
            try:
                return int(value)
            except ValueError:  # more digits than int() converts (4300)
                problems.append(("L112", "an integer with too many digits", node))
                return None
        if _FLOAT_RE.match(value):
            f = float(value)
            if math.isfinite(f):
                floats = True
                return f
            problems.append(("L112", f"{value} is too large a number", node))
            return None
        if _INF_NAN_RE.match(value):
            problems.append(("L112", f"{value} (infinity or NaN) cannot be in a record", node))
            return None
        return value

    def tagged(node: ScalarNode) -> Any:
        nonlocal floats
        tag, value = node.tag, node.value
        if tag == _INT and _INT_RE.match(value):
            return number(value, node)
        if tag == _FLOAT and (_FLOAT_RE.match(value) or _INF_NAN_RE.match(value)):
            f = number(value, node)
            floats = True
            return float(f) if isinstance(f, int) else f
        if tag == _BOOL and value in _BOOLS:
            return _BOOLS[value]
        if tag == _NULL and value in _NULLS:
            return None
        if tag in (_INT, _FLOAT, _BOOL, _NULL):
            problems.append(("L112", f"{quote(value)} is not a valid {_short_tag(tag)}", node))
        else:
            problems.append(("L112", f"the tag {_short_tag(tag)} is not allowed in a record", node))
        return None

    def shared(node: Node) -> None:
        raise _Refused(
            "L105", "an alias (*) is not allowed in a record: write the value out", node
        )

    def plain(node: ScalarNode) -> Any:
        """The value of a plain (unquoted, untagged) scalar: the core schema."""
        value = node.value
        r = _RESOLVED.get(value, _MISSING)
        if r is not _MISSING:
            return r
        if value[0] not in _NUMBER_START:
            return value
        r = number(value, node)
        if r is not None and r.__class__ is not float and len(_RESOLVED) < _RESOLVED_MAX:
            _RESOLVED[value] = r
        return r

    # The loops below take a plain scalar (most values: cards, bids, names) in
    # line, without a call of build(), when build()'s checks surely pass: no
    # alias can be in the text and the count stays within max_nodes.
    def build(node: Node, depth: int) -> Any:
        nonlocal count
        count += 1
        if count > max_nodes:
            raise _Refused("L106", f"the document has more than {max_nodes} values", node)
        if check_shared:
            i = id(node)
            if i in seen:
                shared(node)
            seen.add(i)
        cls = node.__class__
        if cls is ScalarNode:
            tag = node.tag
            if tag is _PLAIN:  # identity: our resolver returns this very object
                return plain(node)
            if tag == STR_TAG:
                return node.value
            return tagged(node)
        if depth > max_depth:
            raise _Refused("L107", f"collections nested more than {max_depth} deep", node)
        if node.tag != (MAP_TAG if cls is MappingNode else SEQ_TAG):
            problems.append(
                ("L112", f"the tag {_short_tag(node.tag)} is not allowed in a record", node)
            )
        if cls is MappingNode:
            d: dict[str, Any] = {}
            key: str | None = None
            try:
                for knode, vnode in node.value:
                    key = None
                    if check_shared:
                        i = id(knode)
                        if i in seen:
                            shared(knode)
                        seen.add(i)
                    if knode.__class__ is not ScalarNode or not (
                        knode.tag is _PLAIN or knode.tag == STR_TAG
                    ):
                        problems.append(("L112", "a mapping key must be a plain string", knode))
                        count += 1
                        continue
                    key = knode.value
                    if (vnode.__class__ is ScalarNode and vnode.tag is _PLAIN and count < max_nodes
                            and not check_shared):
                        count += 1
                        text = vnode.value
                        value = _RESOLVED.get(text, _MISSING)
                        if value is _MISSING:
                            value = plain(vnode) if text[0] in _NUMBER_START else text
                    else:
                        value = build(vnode, depth + 1)
                    if key in d:
                        problems.append(("L104", key, knode))
                    else:
                        d[key] = value
            except _Refused as refused:
                if key is not None:
                    refused.path.append(key)
                raise
            return d
        out: list[Any] = []
        append = out.append
        try:
            for item in node.value:
                if (item.__class__ is ScalarNode and item.tag is _PLAIN and count < max_nodes
                        and not check_shared):
                    count += 1
                    text = item.value
                    value = _RESOLVED.get(text, _MISSING)
                    if value is _MISSING:
                        value = plain(item) if text[0] in _NUMBER_START else text
                    append(value)
                else:
                    append(build(item, depth + 1))
        except _Refused as refused:
            refused.path.append(len(out))
            raise
        return out

    try:
        data = build(root, 1)
        return data, problems, floats
    except _Refused as refused:
        refused.problems = problems  # found before it: reported too
        raise
    finally:
        # build() calls itself through its closure: a reference cycle per
        # document, which only the cyclic collector would free (summarize's
        # memory must not wait for it). Cut it.
        build = None  # type: ignore[assignment]


def _index_tree(root: Node) -> tuple[dict[int, list[str | int]], dict[int, MappingNode]]:
    """For every node (values and keys, by id): its path from the root, and for
    every key node its mapping. One pass, each node visited once, so shared
    (aliased) and cyclic nodes cost nothing more; only run for documents with
    problems."""
    paths: dict[int, list[str | int]] = {id(root): []}
    owner: dict[int, MappingNode] = {}
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        path = paths[id(node)]
        if isinstance(node, MappingNode):
            children: list[tuple[str | int, Node]] = []
            for k, v in node.value:
                key = k.value if isinstance(k, ScalarNode) else "?"
                owner.setdefault(id(k), node)
                paths.setdefault(id(k), [*path, key])
                children.append((key, v))
        elif isinstance(node, SequenceNode):
            children = list(enumerate(node.value))
        else:
            continue
        for segment, child in children:
            if id(child) not in paths:
                paths[id(child)] = [*path, segment]
                stack.append(child)
    return paths, owner


def _kind(node: Node) -> str:
    if isinstance(node, SequenceNode):
        return "a list"
    return "a mapping" if isinstance(node, MappingNode) else "a single value"


def _yaml_document(
    root: Node, chunk: bytes, line0: int, ctx: FileContext
) -> Iterator[Document | Diagnostic]:
    """Build one composed YAML document: a Document, or its diagnostics."""

    def at(node: Node, code: str, message: str, pointer: str = "") -> Diagnostic:
        mark = node.start_mark
        return ctx.diag(code, message, line0 + mark.line + 1, mark.column + 1, pointer)

    if not isinstance(root, MappingNode):
        if isinstance(root, ScalarNode) and root.tag is _PLAIN and root.value == "":
            yield at(root, "L109", "the document is empty")
        else:
            yield at(root, "L110", f"the document is {_kind(root)}; a record is a mapping")
        return
    try:
        data, problems, floats = _build(root, ctx.limits, b"*" in chunk)
    except _Refused as refused:
        yield from _problems(root, refused.problems, at, line0)
        yield _refusal(refused, root, chunk, line0, ctx, at)
        return
    if problems:
        yield from _problems(root, problems, at, line0)
        return
    yield Document(ctx.file, ctx.index, data, "yaml", root=root, line0=line0, floats=floats)


def _problems(
    root: Node,
    problems: list[tuple[str, str, Node]],
    at: Callable[[Node, str, str, str], Diagnostic],
    line0: int,
) -> Iterator[Diagnostic]:
    """Diagnostics for the problems ``_build`` collected (for L104 the message
    slot holds the repeated key)."""
    if not problems:
        return
    paths, owner = _index_tree(root)
    firsts: dict[int, dict[str, Node]] = {}  # per mapping: key -> its first key node
    for code, message, node in problems:
        pointer = join_pointer(paths.get(id(node), []))
        if code == "L104":
            mapping = owner[id(node)]
            if id(mapping) not in firsts:
                keys: dict[str, Node] = {}
                for k, _ in mapping.value:
                    if isinstance(k, ScalarNode):
                        keys.setdefault(k.value, k)
                firsts[id(mapping)] = keys
            first = firsts[id(mapping)][message]
            message = (
                f"duplicate key {quote(message)} (first at line {line0 + first.start_mark.line + 1})"
            )
        yield at(node, code, message, pointer)


def _refusal(
    refused: _Refused,
    root: Node,
    chunk: bytes,
    line0: int,
    ctx: FileContext,
    at: Callable[[Node, str, str, str], Diagnostic],
) -> Diagnostic:
    """The diagnostic for a refusal; an alias is placed on the ``*`` itself (the
    shared node's own mark is its anchor's place)."""
    pointer = join_pointer(refused.path[::-1])
    if refused.code == "L105":
        alias = _first_alias(chunk, root.start_mark.index)
        if alias is not None:
            mark = alias.start_mark
            return ctx.diag(
                "L105",
                f"alias *{alias.anchor} is not allowed in a record: write the value out",
                line0 + mark.line + 1,
                mark.column + 1,
                pointer,
            )
    return at(refused.node, refused.code, refused.message, pointer)


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
