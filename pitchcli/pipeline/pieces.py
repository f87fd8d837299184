"""Inputs cut into pieces for parallel work: one task per file, and a big JSON
Lines file or YAML stream cut into byte ranges at document boundaries (a new
line in JSON Lines, a ``---`` line in YAML), each read as that part of the
whole file would be."""

from __future__ import annotations

import io
import itertools
import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from pitchcli.diagnostics import Diagnostic
from pitchcli.pipeline.check import iter_sources
from pitchcli.record.document import DEFAULT_LIMITS
from pitchcli.record.read import FileRange
from pitchcli.record.yaml_stream import stream_marker

# A file is cut into pieces only when it is at least this big; each worker
# gets about four pieces so that an uneven piece doesn't leave a core idle.
MIN_PIECE = 1 << 18
PIECES_PER_JOB = 4

SPLIT_AT = {".jsonl": "line", ".ndjson": "line", ".yaml": "yaml", ".yml": "yaml"}
# For the readers that keep comments (find, convert, cat, split): a YAML stream
# is cut only at a ``---`` line right after a document's content ("clean"), with
# no comment, directive or ``...`` between. A comment belongs to the document
# whose ``---`` it follows (``record.comments.of_document``): above a cut made
# anywhere else it would go to the next piece's first document instead.
SPLIT_KEEPING_COMMENTS = {**SPLIT_AT, ".yaml": "yaml-clean", ".yml": "yaml-clean"}


@dataclass(frozen=True)
class Task:
    """One unit of work: a whole file (``start is None``) or one byte range of it."""

    name: str
    start: int | None = None
    end: int | None = None
    piece: int = 0  # the index of this piece in its file


class ByteRange(FileRange):
    """Bytes ``start`` to ``end`` of the file at ``path``, read in constant
    memory (``record.read.FileRange``); counts the line feeds it hands out (to
    renumber the lines of the next piece)."""

    def __init__(self, path: str, start: int, end: int) -> None:
        self._f = open(path, "rb")  # noqa: SIM115 - closed in close()
        super().__init__(self._f.fileno(), start, end)
        self.newlines = 0

    def received(self, data: bytes) -> None:
        """Count the line feeds read."""
        self.newlines += data.count(b"\n")

    def close(self) -> None:
        """Close the file."""
        self._f.close()
        super().close()


def boundaries(path: str, size: int, kind: str, pieces: int) -> list[int]:
    """Offsets where a document starts, near ``size * i / pieces``; every piece
    holds at least one document (so no piece is "a file with no document")."""
    cuts = [0]
    with open(path, "rb") as f:
        first = _next_start(f, 0, kind, size)
        if first is None:
            return [0, size]
        for i in range(1, pieces):
            target = max(size * i // pieces, cuts[-1] + 1)
            if kind == "yaml-clean" and target <= first:
                # (``first`` is already a place to cut, after the first document's content)
                cut: int | None = first
            else:
                target = max(target, first + 1)
                cut = _next_start(f, target, kind, size) if target < size else None
            if cut is not None and cut > cuts[-1] and cut < size:
                cuts.append(cut)
    return [*cuts, size]


_SCAN_PIECE = 1 << 16  # a long line is scanned in pieces, never read whole


def _next_start(f: BinaryIO, target: int, kind: str, size: int) -> int | None:
    """The first place at or after ``target`` where the loader itself starts a
    document (JSON Lines: a line that is not blank) or a chunk (YAML), so that
    a piece starting there is read exactly as that part of the whole file is.

    ``yaml-clean`` only at a ``---`` line that follows a line of content
    (``SPLIT_KEEPING_COMMENTS``). YAML mirrors ``pitchcli.record.yaml_stream.yaml_chunks``: a chunk ends where a
    line starts with a boundary marker (``---``, ``...``, a ``%`` directive)
    after the chunk has content. Scanning from the middle of a file, what came
    before is unknown, so a cut is only made at a marker that follows content
    seen by the scan itself: comments and directives of any length before a
    ``---`` (a ``%YAML`` line then 5 KB of comments) stay with their document.
    Lines end at LF only, as the loader's do: a file with CR-only line ends is
    one line, and one piece. ``None`` when there is no such place.
    """
    if target == 0:
        f.seek(0)
    else:
        f.seek(target - 1)
        while True:  # the rest of the line that holds byte target - 1
            rest = f.readline(_SCAN_PIECE)
            if not rest or rest.endswith(b"\n"):
                break
    pos = f.tell()
    content = False  # the scan has seen document content since the last place it could not cut
    clean = False  # "yaml-clean": the last line was content (no comment, directive or "..." since)
    at_start = True
    while pos < size:
        piece = f.readline(_SCAN_PIECE)
        if not piece:
            return None
        here, pos = pos, pos + len(piece)
        if at_start:
            if kind == "line":
                if piece.strip() and not _looks_like_a_file_start(f, here):
                    return here
            elif kind == "yaml-clean":
                marker = stream_marker(piece)
                if marker == b"---" and content and clean and not _looks_like_a_file_start(f, here):
                    return here
                text = piece.strip()
                if marker:
                    content, clean = marker == b"---", False
                elif text.startswith(b"#"):
                    clean = False
                elif text:
                    content = clean = True
            else:
                marker = stream_marker(piece)
                if marker and content and marker != b"...":
                    if not _looks_like_a_file_start(f, here):
                        return here
                    content = marker == b"---"
                elif marker == b"..." and content:
                    content = False
                    if piece.endswith(b"\n") and not _looks_like_a_file_start(f, pos):
                        return pos  # "..." ends its document: the next chunk starts after it
                elif marker == b"---":
                    content = True
                elif not marker:
                    text = piece.strip()
                    content = content or bool(text and not text.startswith(b"#"))
        at_start = piece.endswith(b"\n")
    return None


def _looks_like_a_file_start(f: BinaryIO, pos: int) -> bool:
    """Whether the bytes at ``pos`` would be read, at the start of a piece, as a
    byte-order mark or as UTF-16/32 text (the loader sniffs the first 4 bytes of
    a file): a line that starts so is not a place to cut, or the piece would be
    read otherwise than the same line in the middle of the file (a UTF-8 BOM
    taken for the file's, a stray 0xff byte refusing the whole piece)."""
    here = f.tell()
    f.seek(pos)
    head = f.read(4)
    f.seek(here)
    return head.startswith((b"\xef\xbb\xbf", b"\x00\x00\xfe\xff", b"\xff\xfe", b"\xfe\xff")) or b"\x00" in head


def _wide_text(path: str) -> bool:
    """Whether a file is UTF-16 or UTF-32 (a byte-order mark, or a NUL in its
    first bytes), which the loader refuses whole with one L102: cut into
    pieces, each piece but the first would be refused again on its own."""
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError:
        return False
    return head.startswith((b"\x00\x00\xfe\xff", b"\xff\xfe", b"\xfe\xff")) or b"\x00" in head


def plan(names: Iterable[str], jobs: int, sizes: dict[str, int] | None = None,
         split_at: dict[str, str] | None = None) -> list[Task]:
    """The tasks for these files: big splittable files in pieces (``split_at``:
    the suffixes that may be cut and how, by default ``SPLIT_AT``)."""
    tasks: list[Task] = []
    for name in names:
        kind = (SPLIT_AT if split_at is None else split_at).get(os.path.splitext(name)[1].lower())
        try:
            info = os.stat(name)
            # Only a regular file is cut (a FIFO named on the command line is read
            # whole by one worker; probing it here would wait for its writer).
            size = (sizes[name] if sizes is not None else info.st_size) if stat.S_ISREG(info.st_mode) else 0
        except OSError:
            size = 0
        pieces = min(jobs * PIECES_PER_JOB, size // MIN_PIECE) if kind and jobs > 1 else 1
        if pieces < 2 or kind is None or size > DEFAULT_LIMITS.max_file_bytes or _wide_text(name):
            # (a file over the size limit, or in UTF-16/32, is refused whole, as with one job)
            tasks.append(Task(name))
            continue
        cuts = boundaries(name, size, kind, pieces)
        if len(cuts) == 2:
            tasks.append(Task(name))
            continue
        tasks += [Task(name, a, b, k) for k, (a, b) in enumerate(itertools.pairwise(cuts))]
    return tasks


def task_source(task: Task, path: str | None = None) -> tuple[str | BinaryIO, ByteRange | None]:
    """What to read for a task: the file's path (``path``, else its name), or
    its byte range, buffered, with the ``ByteRange`` that counts its lines."""
    path = path or task.name
    if task.start is None:
        return path, None
    reader = ByteRange(path, task.start, task.end or 0)
    return io.BufferedReader(reader, 1 << 16), reader


# The loader's message for a repeated key (L104) names the line of the first
# key too: renumbered with the diagnostic's own line.
FIRST_AT = re.compile(r"\(first at line (\d+)\)")


def shifted_message(code: str, message: str, lines_before: int) -> str:
    """A diagnostic's message in a piece that starts after ``lines_before`` lines of its file."""
    if not lines_before or code != "L104":
        return message
    return FIRST_AT.sub(lambda m: f"(first at line {int(m[1]) + lines_before})", message)


def size_of(path: str) -> int:
    """A file's size in bytes (0 when it can't be read: reported when it is read)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return 0  # unreadable: reported as L101 when it is read


def inputs(paths: Iterable[str], output: str | None) -> Iterator[tuple[str, str | BinaryIO | Diagnostic]]:
    """``iter_sources``, less the file ``output`` names when it is found in a
    folder: ``summarize --partial -o DIR/part.json DIR/`` run again must not
    read its own earlier output as a record (named on its own, it is read)."""
    return iter_sources(paths, output)


def split_inputs(paths: Iterable[str], output: str | None = None
                 ) -> tuple[list[str], list[tuple[str, BinaryIO | Diagnostic]]]:
    """The files of ``paths`` (folders searched; ``output`` left out, see
    ``inputs``), for workers to open, and what the parent reads itself: the
    standard input, and what the walk skipped or could not read (a warning or
    an error to pass on)."""
    files: list[str] = []
    stdin: list[tuple[str, BinaryIO | Diagnostic]] = []
    for name, source in inputs(paths, output):
        if isinstance(source, str):
            files.append(name)
        else:
            stdin.append((name, source))
    return files, stdin
