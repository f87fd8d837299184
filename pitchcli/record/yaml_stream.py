"""Cutting a YAML stream into its documents' bytes, before any parsing.

**Splitting a YAML stream**: a line starting with ``---`` or ``...`` (followed
by a blank or the end of the line) or ``%`` is a document boundary, as YAML
says, so each document's bytes are checked (UTF-8, size) and parsed on their
own, with their line offset. A syntax error therefore ends only its document,
and the next one is read. ``pitchcli.pipeline.pieces`` cuts big streams for
parallel work at the same boundaries (``stream_marker``).
"""

from __future__ import annotations

from collections.abc import Iterator

from pitchcli.record.source import Reader

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


def yaml_chunks(reader: Reader, max_bytes: int) -> Iterator[tuple[bytes | None, int, int]]:
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
