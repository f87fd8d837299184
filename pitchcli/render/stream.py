"""Records written one at a time, as ``pitch fmt`` writes them together.

``fmt -o`` (``render.records.joined``), ``convert``, ``find``, ``split`` and
``cat`` all write records through ``RecordStream``, so that every command
writes the same bytes for the same records: one record alone is a plain
document (YAML without ``---``, pretty JSON), two or more a YAML stream (each
record after its own ``---``) or JSON Lines (``json`` included: a JSON file
holds one document). Only the first record is held back, until the second
says which of the two it is: memory does not grow with the records written.
"""

from __future__ import annotations

from typing import Any, TextIO

from pitchcli.record.comments import Comments
from pitchcli.record.write import dump, to_jsonl, to_yaml


def piece(record: dict[str, Any], fmt: str, notes: Comments | None = None) -> str:
    """One canonical record as it is written among others: ``---`` then the
    YAML document with its comments (``notes``), or one JSON line."""
    return "---\n" + to_yaml(record, notes) if fmt == "yaml" else to_jsonl(record)


class RecordStream:
    """Canonical records written to ``out`` in ``fmt`` (yaml, json, jsonl).

    ``add`` takes each record's stream piece (``piece``); the first one's
    record and comments too, for when it stays alone. ``modeline``: a first
    line for YAML (the ``# yaml-language-server`` line, when the comments
    don't already hold it). ``close`` writes what is held back."""

    def __init__(self, out: TextIO, fmt: str, modeline: str | None = None) -> None:
        self.out, self.fmt, self.modeline = out, fmt, modeline
        self.count = 0
        self._first: tuple[str, dict[str, Any] | None, Comments | None] | None = None
        self._alone: str | None = None

    def add(self, text: str, record: dict[str, Any] | None = None, notes: Comments | None = None,
            alone: str | None = None) -> None:
        """One record's piece (``record`` and ``notes``: needed for the first
        only; or ``alone``, the first as a plain document, made already, as a
        ``--jobs`` worker makes it: ``alone_text``)."""
        if self.count == 0:
            self._first = (text, record, notes)
            self._alone = alone
        else:
            if self._first is not None:
                self._head()
                self.out.write(modeline_first(self._first[0]))
                self._first = None
            self.out.write(text)
        self.count += 1

    def add_record(self, record: dict[str, Any], notes: Comments | None = None) -> None:
        """One canonical record, its piece made here."""
        self.add(piece(record, self.fmt, notes), record, notes)

    def _head(self) -> None:
        if self.fmt == "yaml" and self.modeline:
            self.out.write(self.modeline + "\n")

    def close(self) -> None:
        """Write a record held back: alone, as a plain document."""
        if self._first is None:
            return
        text, record, notes = self._first
        self._first = None
        self._head()
        if self._alone is not None:
            text = self._alone
        elif record is not None:
            text = alone_text(record, self.fmt, notes)
        self.out.write(modeline_first(text))


def alone_text(record: dict[str, Any], fmt: str, notes: Comments | None = None) -> str:
    """One canonical record written alone: a plain YAML document, pretty JSON, one JSON line."""
    return dump([record], fmt, [notes])


MODELINE = "# yaml-language-server:"


def modeline_first(text: str) -> str:
    """A YAML stream whose first document's comments hold the editor's modeline
    is written ``---`` first; editors read the modeline only as the file's
    first line, so it goes back above that ``---``."""
    if text.startswith("---\n" + MODELINE):
        line, _, rest = text[4:].partition("\n")
        return f"{line}\n---\n{rest}"
    return text
