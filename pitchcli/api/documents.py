"""Reading records: ``read(...)`` -> ``Document``s, and the ``Diagnostic`` type.

``read`` takes what the command line takes — files, folders (searched for
``.yaml .yml .json .jsonl .ndjson``), ``"-"`` for standard input — and also
the bytes of a file, a binary or text stream, or ``text=``. It yields one
``Document`` per document found, lazily, in file order, and never raises for
anything a file can hold: a document that could not be loaded (a syntax error,
a duplicate key, a file that can't be opened) is a ``Document`` with
``data`` ``None`` and the reason in ``diagnostics``. Reading is bounded by the
loader's limits (``Limits``: file and document size, depth, documents, values).
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import IO, Any, BinaryIO, TypeAlias

from pitchcli.api.kinds import RecordFormat, Severity
from pitchcli.diagnostics import Diagnostic as Found
from pitchcli.gcpolicy import stepped
from pitchcli.pipeline.check import iter_sources
from pitchcli.record.document import DEFAULT_LIMITS, Limits
from pitchcli.record.document import Document as Loaded
from pitchcli.record.load import load_documents

__all__ = ["Diagnostic", "Document", "Limits", "Source", "diagnostics_of", "document_of", "read", "source_kind",
           "sources"]

Source: TypeAlias = str | os.PathLike[str] | bytes | IO[bytes] | IO[str]
"""What ``read`` and ``validate`` take: a path (a file, a folder, or ``"-"`` for
standard input), the bytes of a file, or an open binary or text stream (read,
not closed)."""


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in a record, with the fields of ``pitch validate
    --format json``'s report (and their values: documents, hands and tricks
    count from 1; ``pointer`` is the JSON Pointer of the value, from 0).

    ``code`` is stable (``pitch explain CODE``); ``rule`` the rule book's id
    (``pitch rules ID``) or ``None`` for a problem of loading, shape or a
    claim; ``line`` and ``column`` are 1-based (``None`` when not located);
    ``details`` holds what a claim's check compared (``claimed``, ``derived``).
    ``str(d)`` is the line ``pitch validate`` prints, escaped for a terminal.
    """

    file: str
    document: int
    line: int | None
    column: int | None
    pointer: str
    code: str
    rule: str | None
    severity: Severity
    message: str
    hand: int | None
    trick: int | None
    details: Mapping[str, Any]

    def __str__(self) -> str:
        found = Found(self.code, self.message, self.severity.value, self.rule, self.pointer, self.file,
                      self.document - 1, self.line, self.column, self.hand, self.trick)
        return found.as_text()


def diagnostics_of(found: Iterable[Found]) -> tuple[Diagnostic, ...]:
    """The package's diagnostics as the public type."""
    return tuple(Diagnostic(d.file, d.document + 1, d.line, d.column, d.pointer, d.code, d.rule,
                            Severity(d.severity), d.message, d.hand, d.trick, dict(d.extra)) for d in found)


@dataclass(frozen=True, slots=True)
class Document:
    """One document of one input, as loaded.

    ``file`` is the input's name (the path as given, ``"-"`` for standard
    input, or the ``name`` passed to ``read``); ``number`` the document's place
    in the file, from 1 (a YAML stream or JSON Lines file holds several);
    ``format`` how it was written; ``line`` where it starts (``None`` when it
    could not be loaded). ``data`` is the record as plain JSON data (``None``:
    not loaded; see ``diagnostics``). ``diagnostics`` are the problems found
    while loading (codes ``L1xx``: warnings such as a byte-order mark, or the
    error that stopped it); the schema and the rules are ``validate``'s job.
    """

    file: str
    number: int
    format: RecordFormat | None
    line: int | None
    data: Mapping[str, Any] | None
    diagnostics: tuple[Diagnostic, ...]

    @property
    def loaded(self) -> bool:
        """True when the document was loaded (``data`` is not ``None``)."""
        return self.data is not None


def document_of(loaded: Loaded | None, file: str, index: int, found: Iterable[Found]) -> Document:
    """The public ``Document`` of what the loader made of document ``index``
    (0-based) of ``file`` (``None``: it could not be loaded), with ``found``."""
    if loaded is None:
        return Document(file, index + 1, None, None, None, diagnostics_of(found))
    return Document(loaded.file, loaded.index + 1, RecordFormat(loaded.format), loaded.line, loaded.data,
                    diagnostics_of(found))


class _EncodedText(io.RawIOBase):
    """A text stream read as UTF-8 bytes, a piece at a time (the loader bounds
    how much it reads)."""

    def __init__(self, text: IO[str]) -> None:
        self._text, self._left = text, b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._left:
            piece = self._text.read(16 * 1024)
            if not piece:
                return 0
            self._left = piece.encode("utf-8", "surrogateescape")
        n = min(len(buffer), len(self._left))
        buffer[:n] = self._left[:n]
        self._left = self._left[n:]
        return n


def source_kind(item: object) -> str:
    """What a source is: ``path``, ``bytes``, ``text`` (a text stream) or
    ``binary`` (a binary stream); ``TypeError`` for anything else."""
    if isinstance(item, str | os.PathLike):
        if not isinstance(os.fspath(item), str):
            raise TypeError("a path must be text (str or os.PathLike[str]), not bytes")
        return "path"
    if isinstance(item, bytes | bytearray | memoryview):
        return "bytes"
    if isinstance(item, io.TextIOBase):
        return "text"
    if hasattr(item, "read"):
        return "binary"
    raise TypeError(f"read a path, bytes or a stream, not {type(item).__name__}")


def sources(items: Iterable[Source], name: str | None = None
            ) -> Iterator[tuple[str, str | bytes | BinaryIO | Found]]:
    """``(name, what the loader reads)`` for each source: a path as the command
    line reads it (a folder searched, ``"-"`` standard input; what a walk
    skipped or could not list comes as a diagnostic), bytes as they are, a text
    stream encoded as UTF-8 as it is read. ``name`` names bytes and streams."""
    for item in items:
        kind = source_kind(item)
        if kind == "path":
            yield from iter_sources([os.fspath(item)])  # type: ignore[arg-type]
        elif kind == "bytes":
            yield (name or "<bytes>"), bytes(item)  # type: ignore[arg-type]
        else:
            own = name if name is not None else str(getattr(item, "name", f"<{kind}>"))
            yield own, (io.BufferedReader(_EncodedText(item)) if kind == "text"  # type: ignore[arg-type]
                        else item)  # type: ignore[misc]


def _documents(name: str, source: str | bytes | BinaryIO | Found, limits: Limits) -> Iterator[Document]:
    if isinstance(source, Found):
        yield document_of(None, name, source.document, [source])
        return
    pending: list[Found] = []
    for item in load_documents(source, name=name, limits=limits):
        if isinstance(item, Found):
            if pending and pending[-1].document != item.document:
                yield document_of(None, name, pending[0].document, pending)
                pending = []
            pending.append(item)
            continue
        early = [d for d in pending if d.document == item.index]
        rest = [d for d in pending if d.document != item.index]
        if rest:
            yield document_of(None, name, rest[0].document, rest)
        pending = []
        yield document_of(item, name, item.index, early)
    if pending:
        yield document_of(None, name, pending[0].document, pending)


def read(*sources_: Source, text: str | None = None, name: str | None = None,
         limits: Limits = DEFAULT_LIMITS) -> Iterator[Document]:
    """Every document of every source, lazily, in order (see the module doc).

    ``read("game.yaml")``, ``read("records/", "more.jsonl")``,
    ``read(sys.stdin)``, ``read(text="format: pitch-record/1\\n...")``.
    ``name`` is the file name documents and diagnostics carry for bytes, a
    stream or ``text`` (default ``<bytes>``, the stream's ``name``, ``<text>``);
    its suffix chooses the format as a file's would, else the content does.
    Raises ``TypeError`` at once for a source of another type.
    """
    items: list[Source] = list(sources_)
    if text is not None:
        items.append(text.encode("utf-8", "surrogateescape"))
        name = name or "<text>"
    for item in items:
        source_kind(item)  # a wrong type fails now, not at the first next()
    return stepped(doc for n, s in sources(items, name) for doc in _documents(n, s, limits))
