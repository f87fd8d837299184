"""Reading a file's bytes, bounded, and checking that they are UTF-8.

``open_source`` turns what ``load_documents`` reads (a path, bytes, a binary
file) into a binary handle, refusing a path it cannot open (L101) or a regular
file over ``max_file_bytes`` from its size (L106). :class:`Reader` reads it in
lines of bounded length, counting every byte against ``max_file_bytes``.

**Encoding**: UTF-8 only. A UTF-8 byte-order mark is an L111 warning and the
file is read; UTF-16/32 (by BOM or by NUL bytes) is L102 for the file
(``sniff_encoding``); an invalid UTF-8 sequence is L102 for its document,
located (``not_utf8``).
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO

from pitchcli.diagnostics import WARNING, Diagnostic
from pitchcli.record.context import FileContext, StopFile

__all__ = ["PIECE", "Reader", "Source", "not_utf8", "offset_position", "open_source", "sniff_encoding"]

Source = str | os.PathLike[str] | bytes | bytearray | memoryview | IO[bytes]
"""What ``load_documents`` reads: a path, the bytes themselves, or a binary file."""

PIECE = 64 * 1024
"""The longest piece of a line read at once (``Reader.readline``)."""
_SNIFF = 64 * 1024  # bytes read to find the first non-blank byte
_BLOCK = 1024 * 1024  # bytes read at once when a file is read whole
_WHOLE = 64 * 1024  # a regular file of at most this many bytes is read in one call (``open_source``)
_BOM = b"\xef\xbb\xbf"
_WIDE_BOMS = (b"\x00\x00\xfe\xff", b"\xff\xfe", b"\xfe\xff")


@contextmanager
def open_source(source: Source, ctx: FileContext) -> Iterator[IO[bytes]]:
    """A binary handle on ``source``: the bytes themselves, the file at a path
    (opened here, and closed when the block ends), or the file object as it is
    (not closed). Raises :class:`StopFile` with L101 when the path cannot be
    opened, and with L106 when it is a regular file larger than
    ``max_file_bytes`` (refused from its size, unread)."""
    if isinstance(source, bytes | bytearray | memoryview):
        yield io.BytesIO(bytes(source))
        return
    if not isinstance(source, str | os.PathLike):
        yield source
        return
    try:
        # Unbuffered first: a small regular file (most records) is then read in
        # one call, with none of the buffer's own system calls (a terminal's
        # test, a seek); anything else gets the buffer as before.
        raw = open(source, "rb", buffering=0)  # noqa: SIM115 (closed in finally)
    except OSError as e:
        raise StopFile(ctx.diag("L101", f"cannot open the file: {e.strerror or e}")) from e
    try:
        try:
            info = os.fstat(raw.fileno())
        except OSError as e:
            raise StopFile(ctx.diag("L101", f"cannot open the file: {e.strerror or e}")) from e
        limit = ctx.limits.max_file_bytes
        regular = stat.S_ISREG(info.st_mode)
        if regular and info.st_size > limit:
            raise StopFile(
                ctx.diag(
                    "L106",
                    f"the file has {info.st_size} bytes, more than the limit of {limit}",
                )
            )
        whole = _whole(raw, info.st_size, ctx) if regular and info.st_size <= _WHOLE else None
        yield io.BufferedReader(raw) if whole is None else io.BytesIO(whole)
    finally:
        raw.close()


def _whole(raw: IO[bytes], size: int, ctx: FileContext) -> bytes | None:
    """The small regular file ``raw`` of ``size`` bytes, read in one call; None
    when the read gave another size (it grew or shrank since, or the read fell
    short), with ``raw`` back at its start to be read as any other file."""
    try:
        data = raw.read(size + 1)
        if len(data) == size:
            return data
        raw.seek(0)
    except OSError as e:
        raise _cannot_read(ctx, e) from e
    return None


def _cannot_read(ctx: FileContext, e: Exception) -> StopFile:
    """L101 for a file that stopped being readable."""
    return StopFile(ctx.diag("L101", f"cannot read the file: {e}"))


class Reader:
    """Binary input read in lines of at most ``PIECE`` bytes, counting bytes
    against ``max_file_bytes``; a head read ahead for sniffing is served first."""

    def __init__(self, handle: IO[bytes], ctx: FileContext) -> None:
        self._handle = handle
        self._ctx = ctx
        self._total = 0
        self._head = io.BytesIO()
        self._head_left = 0

    def _got(self, data: bytes) -> bytes:
        # Counted as consumed, not as read ahead, so the limit falls on a line.
        self.count(len(data))
        return data

    def count(self, n: int) -> None:
        """Count ``n`` bytes as consumed (of what ``block`` gave): raises
        :class:`StopFile` with L106 once the file's bytes pass ``max_file_bytes``,
        so that a caller counting line by line stops on the line ``readline``
        would have stopped on."""
        self._total += n
        if self._total > self._ctx.limits.max_file_bytes:
            raise StopFile(
                self._ctx.diag(
                    "L106",
                    f"the file is larger than the limit of {self._ctx.limits.max_file_bytes} "
                    "bytes; the rest is not read",
                )
            )

    def _failed(self, e: Exception) -> StopFile:
        return _cannot_read(self._ctx, e)

    def sniff(self) -> bytes:
        """Read ahead until the first non-blank byte (or ``_SNIFF`` bytes, or the
        end); return what was read, which ``readline`` then serves first."""
        head = b""
        # read1 returns what a pipe has now rather than waiting for 64 KiB.
        read = getattr(self._handle, "read1", self._handle.read)
        try:
            # At least 4 bytes (the longest byte-order mark) and a non-blank one.
            while len(head) < _SNIFF:
                data = read(_SNIFF - len(head))
                if not data:
                    break
                head += data
                if len(head) >= 4 and head.strip():
                    break
        except (OSError, ValueError) as e:
            raise self._failed(e) from e
        self._head = io.BytesIO(head)
        self._head_left = len(head)
        return head

    def skip(self, n: int) -> None:
        """Drop ``n`` bytes of the head (a byte-order mark)."""
        self._head.read(n)
        self._head_left -= n

    def readline(self) -> bytes:
        """The next line, or a piece of a longer line; ``b""`` at the end."""
        if self._head_left:
            # A head that ends mid-line gives a piece without its newline; the
            # rest of the line comes from the file next (callers join pieces).
            piece = self._head.readline(PIECE)
            self._head_left -= len(piece)
            return self._got(piece)
        try:
            return self._got(self._handle.readline(PIECE))
        except (OSError, ValueError) as e:
            raise self._failed(e) from e

    def block(self, n: int) -> bytes:
        """The next block of at most ``n`` bytes (what is left of the head
        first; ``b""`` at the end), *not* counted: the caller counts what it
        consumes (``count``). A pipe gives what it has (``read1``) rather than
        waiting for a whole block."""
        if self._head_left:
            piece = self._head.read()
            self._head_left = 0
            return piece
        read = getattr(self._handle, "read1", self._handle.read)
        try:
            return read(n)
        except (OSError, ValueError) as e:
            raise self._failed(e) from e

    def read(self, n: int) -> bytes:
        """Up to ``n`` bytes (fewer only at the end), the head first: the rest
        of a file read whole (a JSON document), in blocks rather than lines."""
        parts = []
        if self._head_left:
            piece = self._head.read(min(n, self._head_left))
            self._head_left -= len(piece)
            parts.append(self._got(piece))
            n -= len(piece)
        try:
            while n > 0:
                block = self._handle.read(min(n, _BLOCK))
                if not block:
                    break
                parts.append(self._got(block))
                n -= len(block)
        except (OSError, ValueError) as e:
            raise self._failed(e) from e
        return b"".join(parts)


def sniff_encoding(reader: Reader, ctx: FileContext) -> tuple[bytes | None, Diagnostic | None]:
    """Read the head of the file and check its encoding: ``(head, None)`` for
    UTF-8 text; ``(head after the mark, L111 warning)`` when it starts with a
    UTF-8 byte-order mark, which is skipped; ``(None, L102)`` for UTF-16 or
    UTF-32 text, which is not read."""
    head = reader.sniff()
    if head.startswith(_WIDE_BOMS) or b"\x00" in head[:4]:
        return None, ctx.diag(
            "L102",
            "the file is UTF-16 or UTF-32 text; save it as UTF-8",
            line=1,
            column=1,
        )
    if head.startswith(_BOM):
        reader.skip(len(_BOM))
        return head[len(_BOM) :], ctx.diag(
            "L111",
            "the file starts with a byte-order mark; UTF-8 needs none (it was ignored)",
            line=1,
            column=1,
            severity=WARNING,
        )
    return head, None


def offset_position(data: bytes, offset: int, line0: int) -> tuple[int, int]:
    """1-based (line, column in characters) of byte ``offset`` of ``data``, whose
    first line is line ``line0`` (0-based) of the file."""
    offset = max(0, min(offset, len(data)))
    line_start = data.rfind(b"\n", 0, offset) + 1
    column = len(data[line_start:offset].decode("utf-8", "replace"))
    return line0 + data.count(b"\n", 0, offset) + 1, column + 1


def not_utf8(ctx: FileContext, data: bytes, offset: int, line0: int) -> Diagnostic:
    """L102 for the invalid UTF-8 byte at ``offset`` of ``data``."""
    line, column = offset_position(data, offset, line0)
    return ctx.diag(
        "L102",
        f"byte 0x{data[offset]:02x} is not UTF-8 text (Latin-1 or another encoding?); "
        "save the file as UTF-8",
        line=line,
        column=column,
    )
