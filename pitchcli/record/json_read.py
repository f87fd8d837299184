"""Reading JSON and JSON Lines: one document per line, or the whole file as one
document.

**JSON**: ``json.loads`` with a duplicate-detecting ``object_pairs_hook``; when
a position is needed (a diagnostic, ``Document.locate``), the text is scanned
once by :func:`pitchcli.record.locate.compose_json`. A ``.json`` file (or
sniffed JSON) whose first non-blank line is a complete JSON value is read as
JSON Lines (a one-line document reads the same either way); otherwise it is one
document, and data after it is L103. Infinity and NaN (JSON ``Infinity``/``NaN``,
or a float too large such as ``1e999``) are refused with L112, as in YAML.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from pitchcli.diagnostics import Diagnostic
from pitchcli.escape import quote
from pitchcli.record.context import FileContext
from pitchcli.record.document import Document
from pitchcli.record.json_fast import fast_json
from pitchcli.record.json_limits import check_json, json_within
from pitchcli.record.pointer import join_pointer
from pitchcli.record.source import Reader, not_utf8

__all__ = ["read_json"]


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


_OPENING = (b"{", b"[")  # a first line that is one of these only opens a collection


def read_json(reader: Reader, ctx: FileContext, lines_only: bool) -> Iterator[Document | Diagnostic]:
    """Every document of the JSON or JSON Lines file ``reader`` reads, or its
    diagnostics; ``lines_only`` reads JSON Lines without looking at the first line."""
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
        if undecided and raw.strip() in _OPENING:
            # A line that only opens a collection is no whole value: the file is
            # one document, pretty-printed (told without two failed parses of it).
            yield from _read_json_whole(raw, lineno, reader, ctx)
            return
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            ctx.next_document()
            yield not_utf8(ctx, raw, e.start, lineno)
            ctx.index += 1
            if undecided:
                return
            continue
        fast = fast_json(raw, ctx.limits)
        if undecided:
            undecided = False
            # (Read by orjson, the line is one value: no second parse to tell.)
            if fast is None and not _is_one_value(text):
                yield from _read_json_whole(raw, lineno, reader, ctx)
                return
        ctx.next_document()
        # Without its line end, an error at the end of the line is placed on it.
        yield from _json_document(text.rstrip("\r\n"), lineno, ctx, fast)
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
    reader: Reader,
    ctx: FileContext,
) -> Iterator[Document | Diagnostic]:
    """Read the rest of the file as one JSON document starting at line ``line0``
    (``first``: its first line, already read)."""
    limit = ctx.limits.max_document_bytes
    # In blocks, not lines: a pretty-printed record has hundreds of short lines,
    # and reading them one by one cost more than decoding the JSON (issue 22).
    rest = reader.read(limit - len(first) + 1)
    if len(first) + len(rest) > limit:
        ctx.next_document()
        yield ctx.diag(
            "L106",
            f"the document is larger than the limit of {limit} bytes",
            line=line0 + 1,
            column=1,
        )
        ctx.index += 1
        return
    data = first + rest
    ctx.next_document()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        yield not_utf8(ctx, data, e.start, line0)
    else:
        yield from _json_document(text, line0, ctx, fast_json(data, ctx.limits))
    ctx.index += 1


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _json_document(text: str, line0: int, ctx: FileContext,
                   fast: dict[str, Any] | None = None) -> Iterator[Document | Diagnostic]:
    """Load one JSON document (the text of a file or of one line); ``fast``:
    its data as ``json_fast`` read it (then it holds no float), if it could."""
    if fast is not None:
        yield Document(ctx.file, ctx.index, fast, "json", text=text, line0=line0, floats=False, size=len(text))
        return
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
        # (The scanner and its node types are imported on the paths that need a
        # position: a clean JSON record imports no PyYAML.)
        from pitchcli.record.locate import JsonScanError, JsonTooDeep, compose_json

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
    doc = Document(ctx.file, ctx.index, data, "json", text=text, line0=line0, floats=floats, size=len(text))
    if duplicates:
        from pitchcli.record.locate import iter_duplicate_keys

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
    if nonfinite or check_strings or not json_within(text, limits.max_depth, limits.max_nodes):
        refused = check_json(data, limits.max_depth, limits.max_nodes, check_strings)
    else:
        refused = None
    if refused is not None:
        code, message, path, is_key = refused
        yield doc.place(ctx.diag(code, message, pointer=join_pointer(path)), key=is_key)
        return
    yield doc


def _json_kind(data: Any) -> str:
    return "a list" if isinstance(data, list) else "a single value"


def _json_long_number(text: str, line0: int, ctx: FileContext) -> Iterator[Diagnostic]:
    """L112 for the integer ``int()`` refused (more than 4,300 digits), placed on
    the first number of more than 4,000."""
    from yaml.nodes import MappingNode, Node, SequenceNode

    from pitchcli.record.locate import JSON_TOKEN_TAG

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

