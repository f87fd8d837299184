"""``pitch convert``, ``pitch cat`` and ``pitch split``: records rewritten in
another format, joined into one stream, or cut into files.

Each record is written in the canonical form by the writer ``fmt`` uses
(``render.stream``), so a record converted is byte for byte what ``pitch fmt
--to FORMAT`` writes, and a round trip YAML -> JSON Lines -> YAML gives
``fmt``'s output back. A YAML record keeps its comments when written as YAML;
written as JSON they can't be kept, and a note on the error stream says how
many were not. An invalid record is never converted (``fmt`` never repairs):
its diagnostics go to the error stream.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from pitchcli import escape
from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.driver import Consumer
from pitchcli.pipeline.noted import Unread
from pitchcli.pipeline.walk import input_named
from pitchcli.record.write import OutputError, atomic_output, canonical, check_replaceable
from pitchcli.render.stream import RecordStream
from pitchcli.text import plural
from pitchcli.views.dedup import play_key

SUFFIX = {"yaml": ".yaml", "json": ".json", "jsonl": ".jsonl"}


class Notes:
    """The notes on comments a JSON output can't hold, and on YAML files too
    big to look for them in: counted as records are written, said at the end."""

    def __init__(self, fmt: str) -> None:
        self.fmt = fmt
        self.dropped = 0
        self.unread: set[str] = set()

    def keep(self, c: Checked) -> object:
        """The comments to write with ``c`` (None for JSON: counted as not written)."""
        if isinstance(c, Unread):
            self.unread.add(c.file)
        if self.fmt == "yaml":
            return c.notes
        if c.notes:
            self.dropped += c.notes.count()
        return None

    def write(self, err: TextIO) -> None:
        """The notes, on the error stream."""
        if self.dropped:
            err.write(f"note: {plural(self.dropped, 'comment')} not written: {self.fmt.upper()} has no comments\n")
        for name in sorted(self.unread):
            err.write(escape.text(f"{name}: note: its comments were not kept: the file is too big to read whole")
                      + "\n")


class Converting(Consumer):
    """Every valid record to ``out`` in ``fmt``, as one stream (``convert``, ``cat``)."""

    refusal = "{file}: not converted: the record is invalid ({errors}); see `pitch validate`"

    def __init__(self, out: TextIO, err: TextIO, fmt: str, unique: bool = False) -> None:
        self.err = err
        self.stream = RecordStream(out, fmt)
        self.notes = Notes(fmt)
        # --unique: the play keys written (views.dedup), 16 bytes a game
        self.seen: set[bytes] | None = set() if unique else None
        self.copies = 0

    def usable(self, c: Checked) -> bool:
        """A record with no error at all (a claim that disagrees is one): fmt's rule."""
        return not c.blocked and c.errors == 0

    def game(self, c: Checked) -> None:
        """Write the record (with ``unique``, unless a copy of it was written)."""
        assert isinstance(c.data, dict)
        if self.seen is not None:
            key = play_key(c.data)
            if key in self.seen:
                self.copies += 1
                return
            self.seen.add(key)
        self.stream.add_record(canonical(c.data), self.notes.keep(c))  # type: ignore[arg-type]

    def end(self) -> int:
        """Write what is held back; the notes; the exit status."""
        self.stream.close()
        self.notes.write(self.err)
        if self.copies:
            self.err.write(f"{self.copies} {'copy' if self.copies == 1 else 'copies'} of a game already written "
                           f"left out (--unique)\n")
        return self.run.status()


# --- split ------------------------------------------------------------------------

_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
OPEN_PARTS = 64  # output files kept open at once; the others are reopened to append


def file_stem(text: str | None, empty: str) -> str:
    """A file name from a record's text: letters, digits, ``. _ -`` kept, the
    rest one ``-``; never empty, hidden, ``.`` or ``..``; at most 100 characters."""
    stem = _UNSAFE_NAME.sub("-", text or "").strip("-.")[:100]
    return stem or empty


@dataclass
class _Part:
    """One output file being written: its records so far in a temporary file."""

    target: Path
    tmp: Path
    stream: RecordStream
    handle: TextIO | None = None


class Splitting(Consumer):
    """Each valid record to a file of ``folder`` named by its ``key`` (``split``).

    ``key`` is ``event``, ``date`` or ``game``: the file is the event's or the
    date's name (``no-event``, ``undated`` without one) or, one per game, its
    ``id`` (else its input file's name and document number). Records go to
    temporary files as they come (at most ``OPEN_PARTS`` open at a time);
    at the end each is written to its target through ``atomic_output``. An
    invalid record is refused and nothing is written: the folder is left as
    it was."""

    refusal = "{file}: not split: the record is invalid ({errors}); see `pitch validate`"

    def __init__(self, folder: str, err: TextIO, fmt: str, key: str, inputs: Sequence[str] = ()) -> None:
        self.folder, self.err, self.fmt, self.key = Path(folder), err, fmt, key
        self.inputs = inputs  # the command line's paths: no file is written over one of them
        self.notes = Notes(fmt)
        self.parts: dict[str, _Part] = {}
        self.names: dict[str, str] = {}  # file name -> the key it was given to (two keys, one slug)
        self.open: list[_Part] = []
        self.scratch = tempfile.TemporaryDirectory(prefix="pitch-split-")

    def usable(self, c: Checked) -> bool:
        """A record with no error at all."""
        return not c.blocked and c.errors == 0

    def _key(self, c: Checked) -> tuple[str, str]:
        rec = c.data if isinstance(c.data, dict) else {}
        if self.key == "game":
            given = rec.get("id")
            text = str(given) if given is not None and not isinstance(given, dict | list) else \
                f"{Path(c.file).stem}-{c.number}"
            return f"game:{c.file}:{c.number}", file_stem(text, "game")
        value = rec.get(self.key)
        text = None if value is None or isinstance(value, dict | list) else str(value)
        return f"{self.key}:{text}", file_stem(text, "no-event" if self.key == "event" else "undated")

    def _part(self, c: Checked) -> _Part:
        key, stem = self._key(c)
        part = self.parts.get(key)
        if part is None:
            name, n = stem + SUFFIX[self.fmt], 1
            while name in self.names:  # another key, or game, with the same file name
                n += 1
                name = f"{stem}-{n}{SUFFIX[self.fmt]}"
            self.names[name] = key
            tmp = Path(self.scratch.name) / f"{len(self.parts)}.part"
            part = self.parts[key] = _Part(self.folder / name, tmp, RecordStream(None, self.fmt))  # type: ignore[arg-type]
        if part.handle is None:
            if len(self.open) >= OPEN_PARTS:
                old = self.open.pop(0)
                assert old.handle is not None
                old.handle.close()
                old.handle = None
            part.handle = open(part.tmp, "a", encoding="utf-8", errors="surrogateescape", newline="\n")  # noqa: SIM115
            self.open.append(part)
        part.stream.out = part.handle
        return part

    def game(self, c: Checked) -> None:
        """Write the record to its part."""
        assert isinstance(c.data, dict)
        part = self._part(c)
        part.stream.add_record(canonical(c.data), self.notes.keep(c))  # type: ignore[arg-type]
        if self.key == "game":  # one record a file: no use keeping it open
            self._close(part)

    def _close(self, part: _Part) -> None:
        if part.handle is not None:
            part.handle.close()
            part.handle = None
            self.open.remove(part)

    def _finish(self, part: _Part) -> None:
        """Close a part and write its target (atomically, never over what is not a regular file)."""
        if part.handle is None:
            part.handle = open(part.tmp, "a", encoding="utf-8", errors="surrogateescape", newline="\n")  # noqa: SIM115
        part.stream.out = part.handle
        part.stream.close()
        part.handle.close()
        part.handle = None
        if part in self.open:
            self.open.remove(part)
        check_replaceable(part.target)
        with open(part.tmp, encoding="utf-8", errors="surrogateescape", newline="\n") as src, \
                atomic_output(part.target) as dst:
            shutil.copyfileobj(src, dst)
        os.unlink(part.tmp)

    def _not_over_inputs(self) -> None:
        """Refuse, before any file is written, a target that is one of the
        inputs (``pitch split DIR -o DIR`` would replace the records it read)."""
        for part in self.parts.values():
            found = input_named(str(part.target), self.inputs)
            if found is not None:
                raise OutputError(None, f"it is one of the inputs ({found}); nothing written", str(part.target))

    def end(self) -> int:
        """Write every part (unless a record was invalid or unreadable); the exit status."""
        try:
            if not self.run.invalid and not self.run.unreadable:
                self._not_over_inputs()
                self.folder.mkdir(parents=True, exist_ok=True)
                for part in self.parts.values():
                    self._finish(part)
                self.err.write(f"{plural(self.run.used, 'record')} written to "
                               f"{plural(len(self.names), 'file')} in {escape.text(str(self.folder))}\n")
            else:
                self.err.write(f"{escape.text(str(self.folder))}: nothing written: a record was invalid or an "
                               f"input unreadable (`pitch find --format jsonl` writes the valid games)\n")
        except OSError as e:
            self.err.write(escape.text(f"{getattr(e, 'filename', None) or self.folder}: cannot write: "
                                       f"{e.strerror or e}") + "\n")
            self.run.broken = True
        finally:
            for part in self.open:
                if part.handle is not None:
                    part.handle.close()
            self.scratch.cleanup()
        self.notes.write(self.err)
        return self.run.status()
