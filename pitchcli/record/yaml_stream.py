"""Cutting a YAML stream into its documents' bytes, before any parsing.

**Splitting a YAML stream**: a line starting with ``---`` or ``...`` (followed
by a blank or the end of the line) or ``%`` is a document boundary, as YAML
says, so each document's bytes are checked (UTF-8, size) and parsed on their
own, with their line offset. A syntax error therefore ends only its document,
and the next one is read. ``pitchcli.pipeline.pieces`` cuts big streams for
parallel work at the same boundaries (``stream_marker``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pitchcli.record.source import PIECE, Reader

__all__ = ["stream_marker", "yaml_chunks"]


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


# Read in small blocks: what the cut holds between two documents is at most a
# block and a line, the same however far into the stream (a summary's memory
# is flat to the KiB, tests/pipeline/test_summarize_memory.py), and a block
# costs one search.
_BLOCK = 2048
# The newline before a line that is a boundary: ``---`` or ``...`` followed by
# a blank or the end of the line (``stream_marker``), or a directive. Searched
# for at C speed inside a document, where no other line matters (the pattern
# starts with a literal newline, so the search skips from line to line).
_MARK = re.compile(rb"\n(?=%|(?:---|\.\.\.)(?:[ \t\r\n]|\Z))")


def yaml_chunks(reader: Reader, max_bytes: int) -> Iterator[tuple[bytes | None, int, int]]:
    """Split a YAML stream into documents: ``(bytes or None if over max_bytes,
    0-based line of its first line, its size in bytes)``.

    A boundary is a line starting ``---`` or ``...`` followed by a blank, or a
    directive (``%``) line, at column 0 outside a document's scalars: YAML forbids
    these at column 0 inside a document, so the split is the one libyaml makes.
    Blank, comment and directive lines before a document belong to it. A chunk
    rarely holds more than one document (a file with bare CR line ends); the
    caller composes every document of a chunk.

    The stream is read in blocks (``Reader.block``) and cut as if it were read
    line by line (``Reader.readline``'s pieces of at most ``PIECE`` bytes):
    inside a document, the lines up to the next boundary are taken at once
    (a regular-expression search); every other line, piece by piece, as the
    rules above say. Each piece is counted as it is consumed, so the file
    limit stops the stream on the line it always did
    (tests/record/test_yaml_chunks.py holds the cut to the line-by-line one).
    """
    parts: list[bytes] = []  # the current chunk's bytes, while it is within max_bytes
    size = 0
    start = 0  # first line of the chunk
    lineno = 0  # line of the next piece
    in_doc = False  # the chunk has document content (or a "---")
    directive = False  # the chunk's preamble has a directive or "..."
    at_start = True  # the next piece starts a line
    buf, pos, eof = b"", 0, False

    def emit() -> tuple[bytes | None, int, int]:
        return (b"".join(parts) if size <= max_bytes else None), start, size

    def take(data: bytes) -> None:
        nonlocal size, parts
        size += len(data)
        if size <= max_bytes:
            parts.append(data)
        elif parts:
            parts = []  # too large: keep counting, stop keeping

    while True:
        nl = buf.find(b"\n", pos)
        if nl < 0 and len(buf) - pos < PIECE and not eof:
            block = reader.block(_BLOCK)  # (a whole piece, or the end, is needed first)
            if block:
                buf, pos = buf[pos:] + block, 0
            else:
                eof = True
            continue
        if pos >= len(buf):
            break
        if at_start and in_doc:
            # Inside a document only a boundary matters: take the whole lines before the next one.
            region = len(buf) if eof else buf.rfind(b"\n", pos) + 1
            if region > pos and not stream_marker(buf[pos:pos + 4]):
                # (the line at pos is no boundary, so a match ends past it)
                m = _MARK.search(buf, pos, region)
                stop = region if m is None else m.end()
                seg = buf[pos:stop]
                reader.count(len(seg))
                take(seg)
                lineno += seg.count(b"\n")
                at_start = seg.endswith(b"\n")
                pos = stop
                continue
        # One piece, as ``Reader.readline`` gives it: a line, or a piece of a longer one.
        end = nl + 1 if 0 <= nl < pos + PIECE else min(len(buf), pos + PIECE)
        piece = buf[pos:end]
        pos = end
        reader.count(len(piece))
        marker = stream_marker(piece) if at_start else b""
        if marker and in_doc and marker != b"...":
            # This line starts the next document (or the directives before it).
            yield emit()
            parts, size, start = [], 0, lineno
            in_doc = directive = False
        if marker == b"---":
            in_doc = True
        elif marker:
            directive = True
        elif at_start and not in_doc:
            stripped = piece.strip()
            if stripped and not stripped.startswith(b"#"):
                in_doc = True
        take(piece)
        at_start = piece.endswith(b"\n")
        if at_start:
            lineno += 1
        if marker == b"..." and in_doc:
            # "..." ends its document; what follows is the next one's preamble.
            yield emit()
            parts, size, start = [], 0, lineno
            in_doc = directive = False
    if in_doc or directive:
        yield emit()
