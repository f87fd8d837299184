"""Reading a YAML file or stream: each chunk of the stream (``yaml_stream``) is
checked (size, UTF-8, depth: ``yaml_scan``) and read by the compiled parser
when its reading can be vouched for (``yaml_fast``), or else by the locating
loader (``yaml_compose``), into one :class:`Document` per document, or into
that document's diagnostics. A syntax error (L103) ends only its chunk; the
next one is read.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

from pitchcli.diagnostics import Diagnostic
from pitchcli.record.context import FileContext
from pitchcli.record.directives import MARK
from pitchcli.record.document import Document
from pitchcli.record.source import Reader, not_utf8
from pitchcli.record.yaml_fast import fast_read
from pitchcli.record.yaml_scan import first_too_deep, may_be_deep_in_blocks, may_be_deep_in_flow
from pitchcli.record.yaml_stream import yaml_chunks

__all__ = ["read_yaml"]


def read_yaml(reader: Reader, ctx: FileContext) -> Iterator[Document | Diagnostic]:
    """Every document of the YAML stream ``reader`` reads, or its diagnostics."""
    for chunk, line0, size in yaml_chunks(reader, ctx.limits.max_document_bytes):
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
    """Every document of one chunk of a YAML stream, or its diagnostics."""
    try:
        text = chunk.decode("utf-8")
    except UnicodeDecodeError as e:
        ctx.next_document()
        yield not_utf8(ctx, chunk, e.start, line0)
        ctx.index += 1
        return
    # Depth is bounded before a parser sees the chunk: by indentation before
    # either (yaml-rs recurses through block nesting without a limit), by the
    # brackets too before libyaml (it recurses through both): a too-deep
    # collection is L107, found by an event scan that stops at ``max_depth``.
    # (yaml-rs stops flow nesting at 256 levels itself, so a long record's
    # many brackets cost the compiled reading no scan.)
    scanned = may_be_deep_in_blocks(chunk)
    if scanned and (yield from _too_deep(chunk, line0, ctx)):
        return
    if MARK not in chunk:
        # The happy path: the compiled parser's reading, when it can be vouched
        # for (a chunk with suppression comments is composed: which document a
        # comment belongs to is read from the node tree).
        fast = fast_read(chunk, text, ctx.limits)
        if fast is not None:
            ctx.next_document()
            data, floats = fast
            yield Document(ctx.file, ctx.index, data, "yaml", chunk=chunk, line0=line0, floats=floats,
                           size=len(chunk))
            ctx.index += 1
            return
    if not scanned and may_be_deep_in_flow(chunk) and (yield from _too_deep(chunk, line0, ctx)):
        return
    # The locating loader: PyYAML, imported with the first document that needs it
    # (a run whose records the compiled parser reads never imports it: start-up).
    from pitchcli.record.yaml_compose import compose_chunk

    yield from compose_chunk(chunk, text, line0, ctx)


def _too_deep(chunk: bytes, line0: int, ctx: FileContext) -> Generator[Diagnostic, None, bool]:
    """L107 at the first collection of ``chunk`` nested deeper than
    ``max_depth``, if there is one; returns whether there was."""
    max_depth = ctx.limits.max_depth
    deep = first_too_deep(chunk, max_depth)
    if deep is None:
        return False
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
    return True
