"""The locating loader: a chunk of a YAML stream composed by libyaml (or the
pure-Python reader) and built with the core schema (``yaml_build``), document by
document, into a :class:`Document` that keeps its node tree (every value's line
and column) or into that document's diagnostics (L103-L110).

``yaml_read`` hands a chunk here when the compiled parser's reading can't be
vouched for (``yaml_fast``), when the chunk has suppression comments, or on a
machine without yaml-rs.
"""

from __future__ import annotations

from collections.abc import Iterator

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from pitchcli.diagnostics import Diagnostic
from pitchcli.record import directives
from pitchcli.record.context import FileContext
from pitchcli.record.document import Document
from pitchcli.record.source import offset_position
from pitchcli.record.yaml_build import Refused, build_data
from pitchcli.record.yaml_parser import PLAIN, new_composer, reader_error_offset
from pitchcli.record.yaml_problems import problem_diagnostics, refusal_diagnostic
from pitchcli.record.yaml_scan import first_too_deep

__all__ = ["compose_chunk"]


def compose_chunk(chunk: bytes, text: str, line0: int, ctx: FileContext) -> Iterator[Document | Diagnostic]:
    """Compose and build every document of one chunk (``text``: its UTF-8
    text; ``line0``: the lines of the file before it)."""
    max_depth = ctx.limits.max_depth
    # Suppression comments, read only when the chunk may have one (a C-level search).
    marks = directives.find(text, line0) if directives.MARK in chunk else []
    try:
        composer = new_composer(chunk)  # the pure reader checks characters here
        while composer.check_node():
            ctx.next_document()
            root = composer.get_node()
            # A document's comments end where its node does (libyaml ends a block
            # after the comments that close it).
            end = line0 + root.end_mark.line + 1
            mine = tuple(d for d in marks if d.line <= end)
            marks = marks[len(mine):]
            yield from _yaml_document(root, chunk, line0, ctx, mine)
            ctx.index += 1
    except yaml.YAMLError as e:
        yield _yaml_error(e, chunk, line0, ctx)
        ctx.index += 1
    except RecursionError:
        # The pure-Python composer recurses (2 frames a level), so with a
        # max_depth raised near 500 Python's recursion limit comes first.
        deep = first_too_deep(chunk, max_depth) or first_too_deep(chunk, 256)
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
        line, column = offset_position(chunk, reader_error_offset(e, chunk), line0)
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


def _kind(node: Node) -> str:
    if isinstance(node, SequenceNode):
        return "a list"
    return "a mapping" if isinstance(node, MappingNode) else "a single value"


def _yaml_document(
    root: Node, chunk: bytes, line0: int, ctx: FileContext, marks: tuple[directives.Directive, ...] = ()
) -> Iterator[Document | Diagnostic]:
    """Build one composed YAML document: a Document, or its diagnostics."""

    def at(node: Node, code: str, message: str, pointer: str = "") -> Diagnostic:
        mark = node.start_mark
        return ctx.diag(code, message, line0 + mark.line + 1, mark.column + 1, pointer)

    if not isinstance(root, MappingNode):
        if isinstance(root, ScalarNode) and root.tag is PLAIN and root.value == "":
            yield at(root, "L109", "the document is empty")
        else:
            yield at(root, "L110", f"the document is {_kind(root)}; a record is a mapping")
        return
    try:
        data, problems, floats = build_data(root, ctx.limits, b"*" in chunk)
    except Refused as refused:
        yield from problem_diagnostics(root, refused.problems, at, line0)
        yield refusal_diagnostic(refused, root, chunk, line0, ctx, at)
        return
    if problems:
        yield from problem_diagnostics(root, problems, at, line0)
        return
    yield Document(ctx.file, ctx.index, data, "yaml", root=root, line0=line0, floats=floats, directives=marks,
                   size=len(chunk))
