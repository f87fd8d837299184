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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from pitchcli import escape
from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.driver import Consumer
from pitchcli.pipeline.lint import Judge
from pitchcli.pipeline.noted import Unread, judged_reading
from pitchcli.pipeline.parallel import InOrder, Prepare, Prepared
from pitchcli.pipeline.pieces import SPLIT_KEEPING_COMMENTS
from pitchcli.pipeline.walk import input_named
from pitchcli.record.write import OutputError, atomic_output, canonical, check_replaceable
from pitchcli.render.stream import RecordStream, alone_text, piece
from pitchcli.text import plural
from pitchcli.views.dedup import play_key

SUFFIX = {"yaml": ".yaml", "json": ".json", "jsonl": ".jsonl"}


def whole(c: Checked) -> bool:
    """A record with no error at all (a claim that disagrees is one): fmt's
    rule, and what convert, cat, split, find and dedup use as a game."""
    return not c.blocked and c.errors == 0


@dataclass
class Written:
    """A record made ready to write where it was checked (this process, or a
    ``--jobs`` worker): its piece among others (``render.stream.piece``), the
    record alone (``alone``: the first of its task only, the one that may
    stay alone), the comment lines its format can't hold (``dropped``), and
    whether its comments were not looked for (``unread``: a YAML file too big)."""

    text: str
    alone: str | None
    dropped: int = 0
    unread: bool = False
    key: bytes | None = None  # --unique: its play key (views.dedup)


class Writer:
    """Records made ready to write in ``fmt``, one task's at a time (``first``:
    no record made yet, so the next is made alone too)."""

    def __init__(self, fmt: str) -> None:
        self.fmt = fmt
        self.first = True

    def write(self, c: Checked, alone: bool | None = None, text: bool = True) -> Written:
        """``c``'s record (loaded as a mapping) made ready: its piece (unless
        ``text`` is false), and the record alone when ``alone`` (None: when it
        is the first of the task)."""
        assert isinstance(c.data, dict)
        rec = canonical(c.data)
        notes = c.notes if self.fmt == "yaml" else None
        if alone is None:
            alone = self.first
        self.first = False
        return Written(piece(rec, self.fmt, notes) if text else "",
                       alone_text(rec, self.fmt, notes) if alone else None,
                       0 if notes is not None or not c.notes else c.notes.count(), isinstance(c, Unread))


class Notes:
    """The notes on comments a JSON output can't hold, and on YAML files too
    big to look for them in: counted as records are written, said at the end."""

    def __init__(self, fmt: str) -> None:
        self.fmt = fmt
        self.dropped = 0
        self.unread: set[str] = set()

    def add(self, w: Written, file: str) -> None:
        """Count what the record ``w`` of ``file`` could not keep."""
        if w.unread:
            self.unread.add(file)
        self.dropped += w.dropped

    def write(self, err: TextIO) -> None:
        """The notes, on the error stream."""
        if self.dropped:
            err.write(f"note: {plural(self.dropped, 'comment')} not written: {self.fmt.upper()} has no comments\n")
        for name in sorted(self.unread):
            err.write(escape.text(f"{name}: note: its comments were not kept: the file is too big to read whole")
                      + "\n")


@dataclass
class ToConvert:
    """What a ``convert`` or ``cat`` task makes of each document (``InOrder``'s
    ``make``): a valid record's ``Written`` (with ``unique``, its play key too),
    else None."""

    fmt: str
    unique: bool = False

    def __call__(self) -> Callable[[Checked], Written | None]:
        """A new task's ``prepare``."""
        writer = Writer(self.fmt)

        def prepare(c: Checked) -> Written | None:
            if not whole(c):
                return None
            w = writer.write(c)
            if self.unique:
                w.key = play_key(c.data)  # type: ignore[arg-type]
            return w
        return prepare


def records_in_order(paths: Iterable[str], jobs: int, make: Callable[[], Prepare], judge: Judge,
                     cut: bool = True) -> InOrder:
    """The records of ``paths`` with their comments (``noted_source``, the
    engine's quick pass), judged by ``judge`` (``pipeline.lint``), each
    prepared by ``make()``'s function, in the order read, over ``jobs``
    processes (``cut``: big files in pieces where a reader of comments may cut
    them, ``pieces.SPLIT_KEEPING_COMMENTS``: JSON Lines at line ends, a YAML
    stream only at a ``---`` right after a document's content)."""
    return InOrder(paths, jobs, judged_reading(judge), make, split_at=SPLIT_KEEPING_COMMENTS if cut else {},
                   read_in_workers=partial(judged_reading, judge))


class Converting(Consumer):
    """Every valid record to ``out`` in ``fmt``, as one stream (``convert``, ``cat``),
    from the items ``ToConvert`` prepared."""

    refusal = "{file}: not converted: the record is invalid ({errors}); see `pitch validate`"

    def __init__(self, out: TextIO, err: TextIO, fmt: str, unique: bool = False) -> None:
        self.err = err
        self.stream = RecordStream(out, fmt)
        self.notes = Notes(fmt)
        # --unique: the play keys written (views.dedup), 16 bytes a game
        self.seen: set[bytes] | None = set() if unique else None
        self.copies = 0

    def usable(self, c: Checked) -> bool:
        """A record with no error at all (``whole``)."""
        return whole(c)

    def game(self, c: Prepared) -> None:  # type: ignore[override]
        """Write the record (with ``unique``, unless a copy of it was written)."""
        w = c.payload
        assert isinstance(w, Written)
        if self.seen is not None:
            assert w.key is not None
            if w.key in self.seen:
                self.copies += 1
                return
            self.seen.add(w.key)
        self.stream.add(w.text, alone=w.alone)
        self.notes.add(w, c.file)

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


def split_value(rec: dict[str, Any], key: str) -> str | None:
    """The text a record is split by: its ``id`` (``key`` game), event or date; None without one."""
    value = rec.get("id" if key == "game" else key)
    return None if value is None or isinstance(value, dict | list) else str(value)


@dataclass
class ToSplit:
    """What a ``split`` task makes of each document: a valid record's value
    (``split_value``) and its ``Written`` (alone too when it is the first of
    its value in the task: the one that may start a file; by game, every
    record is alone), else None."""

    fmt: str
    key: str

    def __call__(self) -> Callable[[Checked], tuple[str | None, Written] | None]:
        """A new task's ``prepare``."""
        writer = Writer(self.fmt)
        seen: set[str | None] = set()

        def prepare(c: Checked) -> tuple[str | None, Written] | None:
            if not whole(c):
                return None
            value = split_value(c.data, self.key)  # type: ignore[arg-type]
            if self.key == "game":
                return value, writer.write(c, alone=True, text=False)
            first = value not in seen
            seen.add(value)
            return value, writer.write(c, alone=first)
        return prepare


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
        """A record with no error at all (``whole``)."""
        return whole(c)

    def _key(self, c: Checked, value: str | None) -> tuple[str, str]:
        if self.key == "game":
            text = value if value is not None else f"{Path(c.file).stem}-{c.number}"
            return f"game:{c.file}:{c.number}", file_stem(text, "game")
        return f"{self.key}:{value}", file_stem(value, "no-event" if self.key == "event" else "undated")

    def _part(self, c: Checked, value: str | None) -> _Part:
        key, stem = self._key(c, value)
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

    def game(self, c: Prepared) -> None:  # type: ignore[override]
        """Write the record to its part."""
        value, w = c.payload  # type: ignore[misc]
        part = self._part(c, value)
        part.stream.add(w.text, alone=w.alone)
        self.notes.add(w, c.file)
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
