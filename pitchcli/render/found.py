"""``pitch find``: the driver's consumer, and each output of the games found.

Records (``yaml``, ``jsonl``) are written in the canonical form through the
one record writer (``render.stream.RecordStream``), a YAML record with its
comments; a list (``paths``, ``table``, ``json``) is written as the games are
found, one line or entry each, so that memory does not grow with the matches
(``table`` aligns its columns: it holds its rows until the end).
Text from a record is escaped for the terminal in ``paths`` and ``table``
(``escape.text``); JSON keeps it exact.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from pitchcli import escape
from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.driver import Consumer, write_diagnostics
from pitchcli.pipeline.lint import Judge
from pitchcli.pipeline.parallel import Prepared
from pitchcli.render.convert import Notes, Writer, Written, records_in_order, whole
from pitchcli.render.stream import RecordStream
from pitchcli.render.tabulated import tabulate
from pitchcli.text import plural
from pitchcli.views.find import Conditions, Found, match

REPORT, VERSION = "pitch-find", 1


class Sink:
    """Where the games found go; one subclass per ``--format``. ``per_hand``:
    a list shows a line per hand found (``--hands``)."""

    per_hand = False

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self.out, self.err = out, err

    def add(self, found: Found, written: Written | None) -> None:
        """One game found (``written``: its record, made ready by ``ToFind``)."""

    def end(self, searched: int, matched: int, invalid: int) -> None:
        """After the last game."""


class Records(Sink):
    """The games found, as records in the canonical form (``fmt``: yaml or jsonl)."""

    fmt = "yaml"

    def __init__(self, out: TextIO, err: TextIO) -> None:
        super().__init__(out, err)
        self.stream = RecordStream(out, self.fmt)
        self.notes = Notes(self.fmt)  # comment lines a JSON format can't hold, YAML files too big

    def add(self, found: Found, written: Written | None) -> None:
        """Write the record (one that did not load as a mapping can't be: said on ``err``)."""
        if written is None:
            where = found.file + (f" (document {found.document})" if found.document > 1 else "")
            self.err.write(escape.text(f"{where}: not written: it did not load as a record") + "\n")
            return
        self.notes.add(written, found.file)
        self.stream.add(written.text, alone=written.alone)

    def end(self, searched: int, matched: int, invalid: int) -> None:
        """Write a record held back; the notes on comments."""
        self.stream.close()
        self.notes.write(self.err)


class YamlRecords(Records):
    """A YAML stream (one record alone: a plain document)."""

    fmt = "yaml"


class JsonlRecords(Records):
    """JSON Lines (one record alone: still one line)."""

    fmt = "jsonl"

    def __init__(self, out: TextIO, err: TextIO) -> None:
        super().__init__(out, err)
        # JSON Lines whatever the count: one record alone is one line too (a script reads lines).
        self.stream = RecordStream(out, "jsonl")


class Paths(Sink):
    """The files that hold a game found, each once, in the order read."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        super().__init__(out, err)
        self.last: str | None = None

    def add(self, found: Found, written: Written | None) -> None:
        """The file's name, the first time one of its games is found."""
        if found.file != self.last:
            self.out.write(escape.text(found.file) + "\n")
            self.last = found.file


def _cell(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, list):
        return ", ".join(map(str, v)) or "-"
    return str(v)


class Table(Sink):
    """One row per game found: where, event, date, variant, winner, the hands
    that matched (``--hands`` or a hand condition) or an invalid record's codes.

    An aligned table (``tabulate``, widths by ``wcwidth``: a wide character
    takes two columns, a combining one none), so it holds its rows — the
    cells' text, about 100 bytes a game — until the last game; ``paths``,
    ``json`` and the records are written as they are found."""

    HEAD = ("file", "document", "event", "date", "variant", "winner", "hands", "codes")

    def __init__(self, out: TextIO, err: TextIO) -> None:
        super().__init__(out, err)
        self.rows: list[list[str]] = []

    def add(self, found: Found, written: Written | None) -> None:
        """One row (a row per hand with ``per_hand``), each cell escaped for the terminal."""
        for hands in ([[n] for n in found.hands] if self.per_hand and found.hands else [found.hands]):
            cells = (found.file, found.document, found.event, found.date, found.variant, found.winner, hands,
                     found.codes)
            self.rows.append([escape.text(_cell(v)) for v in cells])

    def end(self, searched: int, matched: int, invalid: int) -> None:
        """The table (nothing when no game was found); the closing line, on the error stream."""
        if self.rows:
            head = self.HEAD if not self.per_hand else (*self.HEAD[:6], "hand", self.HEAD[7])
            self.out.write(tabulate(self.rows, head, tablefmt="simple", disable_numparse=True,
                                    colalign=["left", "right", *["left"] * 6]) + "\n")
        self.err.write(f"{plural(matched, 'game')} found in {plural(searched, 'document')}\n")


class JsonList(Sink):
    """The versioned report: ``{"report": "pitch-find", "version": 1, "games":
    [...], "summary": {"searched", "matched", "invalid"}}``, written as found."""

    def __init__(self, out: TextIO, err: TextIO) -> None:
        super().__init__(out, err)
        out.write(f'{{"report": "{REPORT}", "version": {VERSION}, "games": [')
        self.count = 0

    def add(self, found: Found, written: Written | None) -> None:
        """One entry (``Found.as_json``)."""
        self.out.write(("\n  " if not self.count else ",\n  ") + json.dumps(found.as_json(), ensure_ascii=False))
        self.count += 1

    def end(self, searched: int, matched: int, invalid: int) -> None:
        """Close the list; the summary."""
        summary = {"searched": searched, "matched": matched, "invalid": invalid}
        self.out.write(("\n" if self.count else "") + f'], "summary": {json.dumps(summary)}}}\n')


class Finding(Consumer):
    """``pitch find``'s part of the command driver: each document checked, the
    games that meet ``cond`` handed to ``sink``.

    An invalid record is not searched (its conditions can't be answered)
    unless ``cond.invalid`` asks for the invalid records; a line on ``err``
    says how many were left out. Exit status: 0 a game was found; 1 none was,
    or a record was invalid (unless ``allow_invalid``, or ``--invalid``); 3
    an input could not be read (its diagnostic on ``err``)."""

    refusal = None  # invalid records are counted and named at the end, not refused one by one

    def __init__(self, sink: Sink, cond: Conditions, err: TextIO, allow_invalid: bool = False) -> None:
        self.sink, self.cond, self.err, self.allow_invalid = sink, cond, err, allow_invalid
        self.matched = 0

    def usable(self, c: Checked) -> bool:
        """A valid game: loaded, seated, no error (a claim that disagrees is one)."""
        return whole(c)

    def _take(self, c: Prepared) -> None:
        if c.payload is None:
            return
        found, written = c.payload  # type: ignore[misc]
        found.file, found.document = c.file, c.number  # (a piece of a file is renumbered)
        self.matched += 1
        self.sink.add(found, written)

    def game(self, c: Prepared) -> None:  # type: ignore[override]
        """A valid game: matched against the conditions (by ``ToFind``)."""
        self._take(c)

    def invalid(self, c: Prepared) -> None:  # type: ignore[override]
        """An unreadable input (its diagnostic shown) or an invalid record (searched with ``--invalid``)."""
        if c.unreadable:
            write_diagnostics(c, self.err)
        elif not c.skipped:
            self._take(c)

    def end(self) -> int:
        """The sink's end, the line on invalid records; the exit status."""
        run = self.run
        self.sink.end(run.documents, self.matched, run.invalid)
        if run.invalid and not self.cond.invalid:
            self.err.write(f"note: {plural(run.invalid, 'invalid record')} not searched (`pitch find --invalid` "
                           f"lists them, `pitch validate` says why)\n")
        run.failed = run.failed or not self.matched
        return run.status(allow_invalid=self.allow_invalid or self.cond.invalid)


@dataclass
class ToFind:
    """What a ``find`` task makes of each document (``InOrder``'s ``make``):
    ``(Found, Written | None)`` when it meets ``cond`` (``records``: the
    format its record is written in, if the games are written as records),
    else None."""

    cond: Conditions
    records: str | None = None

    def __call__(self) -> Callable[[Checked], tuple[Found, Written | None] | None]:
        """A new task's ``prepare``."""
        writer = Writer(self.records) if self.records else None

        def prepare(c: Checked) -> tuple[Found, Written | None] | None:
            if c.unreadable:
                return None
            found = match(c, self.cond, whole(c))
            if found is None:
                return None
            return found, writer.write(c) if writer is not None and isinstance(c.data, dict) else None
        return prepare


def search(paths: tuple[str, ...] | list[str], cond: Conditions, sink_of: Any, out: TextIO, err: TextIO,
           allow_invalid: bool = False, judge: Judge | None = None, jobs: int = 1) -> int:
    """Run ``pitch find``: every document of ``paths`` checked (the quick pass
    where it decides) and judged (``pipeline.lint.Judge``: what a record's
    comments suppress or the selection leaves out doesn't make it invalid),
    the games found written by the sink ``sink_of(out, err)`` makes; the exit
    status (``Finding``). ``jobs``: worker processes (a query reads a game's
    document number: its files are not cut in pieces)."""
    from pitchcli.pipeline.driver import drive

    sink = sink_of(out, err)
    sink.per_hand = cond.hands
    make = ToFind(cond, sink.fmt if isinstance(sink, Records) else None)
    with records_in_order(paths, jobs, make, judge, cut=cond.query is None) as items:
        return drive(items, Finding(sink, cond, err, allow_invalid), err)
