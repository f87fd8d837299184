"""A YAML stream is cut into documents in blocks exactly as line by line.

``yaml_chunks`` reads blocks and takes a document's lines up to the next
boundary at once; the cut must be the one the line-by-line reading gives
(``line_by_line`` below: the rules of ``yaml_stream``, one piece of at most
``PIECE`` bytes at a time, each counted against the file limit): the same
chunks, the same first lines and sizes, ``None`` for the same chunks over the
document limit, and the file limit stopping the stream after the same chunks.
Checked on hand-made edges, every sample, generated streams, and with a handle
that gives its bytes a few at a time.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitchcli.record.context import FileContext, StopFile
from pitchcli.record.document import Limits
from pitchcli.record.source import PIECE, Reader
from pitchcli.record.yaml_stream import stream_marker, yaml_chunks

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("PITCH_CHUNK_EXAMPLES", "300"))


class Stopped(Exception):
    """The reference stopped by the file limit."""


def line_by_line(data: bytes, max_bytes: int, max_file: int) -> Iterator[tuple[bytes | None, int, int]]:
    """The reference: the stream read one piece at a time (``readline(PIECE)``),
    each counted; L106 (``StopFile``) once the bytes pass ``max_file``."""
    f = io.BytesIO(data)
    lines: list[bytes] = []
    size = start = lineno = total = 0
    in_doc = directive = False
    at_start = True

    def emit() -> tuple[bytes | None, int, int]:
        return (b"".join(lines) if size <= max_bytes else None), start, size

    while piece := f.readline(PIECE):
        total += len(piece)
        if total > max_file:
            raise Stopped
        marker = stream_marker(piece) if at_start else b""
        if marker and in_doc and marker != b"...":
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
            lines = []
        at_start = piece.endswith(b"\n")
        if at_start:
            lineno += 1
        if marker == b"..." and in_doc:
            yield emit()
            lines, size, start = [], 0, lineno
            in_doc = directive = False
    if in_doc or directive:
        yield emit()


class Trickle(io.RawIOBase):
    """A handle that gives at most ``step`` bytes a read (a slow pipe)."""

    def __init__(self, data: bytes, step: int) -> None:
        self._data, self._at, self._step = data, 0, step

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        out = self._data[self._at:self._at + min(len(buffer), self._step)]
        buffer[:len(out)] = out
        self._at += len(out)
        return len(out)


def outcome(chunks: Iterator[tuple[bytes | None, int, int]]) -> tuple[list[tuple[bytes | None, int, int]], bool]:
    """The chunks given, and whether the file limit stopped the stream."""
    got = []
    try:
        for c in chunks:
            got.append(c)
    except (StopFile, Stopped):
        return got, True
    return got, False


def blocks(data: bytes, max_bytes: int, max_file: int, step: int | None = None) -> tuple[list, bool]:
    ctx = FileContext("t.yaml", Limits(max_file_bytes=max_file, max_document_bytes=max_bytes))
    handle = io.BufferedReader(Trickle(data, step), buffer_size=step) if step else io.BytesIO(data)
    return outcome(yaml_chunks(Reader(handle, ctx), max_bytes))


def same(data: bytes, max_bytes: int = 1 << 20, max_file: int = 1 << 30) -> None:
    want = outcome(line_by_line(data, max_bytes, max_file))
    assert blocks(data, max_bytes, max_file) == want
    for step in (1, 3, 7, 4096):
        if step > 1 or len(data) < 5000:
            assert blocks(data, max_bytes, max_file, step) == want, step


EDGES = [
    b"",
    b"a: 1\n",
    b"a: 1",
    b"---\na: 1\n---\nb: 2\n",
    b"a: 1\n---",
    b"a: 1\n--- \nb: 2\n---\t\nc: 3\n---\r\nd: 4\r\n",
    b"a: 1\n---x\n----\n--- #c\n",
    b"a: 1\n...\n# between\n\n%YAML 1.2\n---\nb: 2\n...\n",
    b"%YAML 1.2\n%TAG ! tag:x,2026:\n---\na: 1\n",
    b"# only a comment\n\n   \n",
    b"%YAML 1.2\n",
    b"...\n...\na: 1\n",
    b"a: 1\r---\rb: 2\r",  # bare CR line ends: one line for the reader
    b"a: |\n  ---\n  text\n---\nb: 2\n",
    b"  ---\n---\n",
    b"a: 1\n" + b"x" * (PIECE + 10) + b"\n---\n" + b"---" * (PIECE // 2) + b"\n",
    b"a: 1\n...   " + b" " * (PIECE * 2) + b"\nb: 2\n",  # a long "..." line: its tail is the next chunk's
    b" " * (PIECE + 5) + b"x\n---\n",  # a preamble line blank for a whole piece
    b"---" + b"\n" * 3 + b"-" * PIECE + b"\n",
    "a: é\n---\nb: ü\n".encode(),
]


@pytest.mark.parametrize("data", EDGES, ids=range(len(EDGES)))
def test_edges(data: bytes) -> None:
    same(data)
    same(data, max_bytes=8)


def test_the_samples_and_a_stream_of_them() -> None:
    files = sorted(p for p in (ROOT / "samples").rglob("*.yaml")) + sorted((ROOT / "samples-invalid").glob("*.yaml"))
    stream = b"".join(b"---\n" + p.read_bytes() for p in files)
    for data in [p.read_bytes() for p in files] + [stream]:
        same(data)
        same(data, max_bytes=2000)


def test_the_file_limit_stops_on_the_same_line() -> None:
    data = b"".join(b"---\na: %d\nb: [1, 2]\n" % i for i in range(50))
    for limit in range(1, len(data) + 2, 7):
        got, stopped = blocks(data, 1 << 20, limit)
        assert (got, stopped) == outcome(line_by_line(data, 1 << 20, limit)), limit
        assert stopped == (limit < len(data))


LINES = st.sampled_from([b"---", b"--- ", b"---\t", b"...", b"... ", b"%YAML 1.2", b"%", b"# c", b"", b"  ",
                         b"a: 1", b"- x", b"  - y", b"---x", b"..x", b"  ---", b"k: |", b"  ...", b"\t"])
ENDS = st.sampled_from([b"\n", b"\n", b"\n", b"\r\n", b"\r"])


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(LINES, ENDS), max_size=40), st.booleans(), st.integers(1, 60), st.integers(1, 2000))
def test_generated_streams(lines: list[tuple[bytes, bytes]], last_end: bool, max_bytes: int,
                           max_file: int) -> None:
    data = b"".join(a + b for a, b in lines)
    if not last_end and data.endswith(b"\n"):
        data = data[:-1]
    want = outcome(line_by_line(data, max_bytes, max_file))
    assert blocks(data, max_bytes, max_file) == want
    assert blocks(data, max_bytes, max_file, 5) == want
