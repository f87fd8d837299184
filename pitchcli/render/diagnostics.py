"""Output of diagnostics (``pitch validate``): the compiler convention in text,
a versioned JSON report. Each format is a consumer of the command driver
(``pitchcli.pipeline.driver``): it reads the checked documents as they come and
its ``end()`` gives the exit status; ``render.formats.VALIDATE`` names them."""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from typing import TextIO

from pitchcli import escape
from pitchcli.diagnostics import CODES, Diagnostic
from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.driver import Consumer, Run
from pitchcli.render.jsonstream import StreamedList
from pitchcli.render.style import paint
from pitchcli.views.verdict import Verdict

REPORT_VERSION = 2  # 2: "document" counts from 1 (was 0)


class ValidateReport(Consumer):
    """What every format of ``pitch validate`` shares: every document is
    reported on ``out`` (valid or not, nothing refused on the error stream),
    counted in a ``Verdict``; ``strict``: warnings fail too; ``quiet``: no
    summary."""

    def __init__(self, out: TextIO, strict: bool = False, quiet: bool = False) -> None:
        self.out, self.strict, self.quiet = out, strict, quiet
        self.tally = Verdict()

    def usable(self, c: Checked) -> bool:
        """Valid (``strict``: without warnings too)."""
        return c.valid(self.strict)

    def game(self, c: Checked) -> None:
        """A valid document: reported as any other."""
        self.document(c)

    def invalid(self, c: Checked) -> None:
        """An invalid document, an unreadable file, a skipped entry: reported."""
        self.document(c)

    def document(self, c: Checked) -> None:
        """Count one document and show it."""
        self.tally.add(c, self.strict)

    def end(self) -> int:
        """Finish the report; the exit status (``strict``: what a folder walk
        skipped, a warning, fails too)."""
        self.finish()
        if self.strict and self.run.skipped:
            self.run.failed = True
        return self.run.status()

    def finish(self) -> None:
        """What comes after the last document (the summary)."""


class TextReport(ValidateReport):
    """One diagnostic per line as documents are checked, then the summary line."""

    def __init__(self, out: TextIO, strict: bool = False, quiet: bool = False) -> None:
        super().__init__(out, strict, quiet)
        self.seen: dict[str, None] = {}  # the codes shown, in order

    def document(self, c: Checked) -> None:
        """The document's diagnostics, and the line saying how many more there were."""
        super().document(c)
        for d in c.diagnostics:
            self.shown(d)
        more = c.more_line()
        if more:
            self.out.write(more + "\n")

    def shown(self, d: Diagnostic) -> None:
        """One diagnostic's line."""
        self.out.write(d.as_text(paint) + "\n")
        self.seen[d.code] = None

    def finish(self) -> None:
        """The summary line, and where the codes shown are explained."""
        if not self.quiet:
            self.out.write(self.tally.line() + see_also(list(self.seen)) + "\n")


# How much of a long source line ``--show-source`` shows around the column.
BEFORE, WIDTH = 60, 140


def _width(text: str) -> int:
    """Terminal columns of ``text``: East Asian wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def source_excerpt(line_text: str, line: int, column: int) -> list[str]:
    """A source line as a gutter and the line (escaped: it is the record's
    text), then a caret under ``column`` (in characters, from 1)::

           22 |       - [KS, 3S, 10S, 3H]
              |                       ^
    """
    at = max(column - 1, 0)
    start = max(0, at - BEFORE)
    shown = line_text[start:start + WIDTH]
    head = "…" if start else ""
    tail = "…" if start + WIDTH < len(line_text) else ""
    gutter = f"{line:>6} | "
    pad = " " * _width(head + escape.text(shown[:at - start]))
    return [gutter + head + escape.text(shown) + tail, " " * 7 + "| " + pad + "^"]


class FullReport(TextReport):
    """The text report with each diagnostic's source line and a caret under its
    column (``--format full``, ``--show-source``), for people; problem matchers
    read ``text``."""

    def __init__(self, out: TextIO, strict: bool = False, quiet: bool = False) -> None:
        super().__init__(out, strict, quiet)
        from pitchcli.record.lines import SourceLines
        self.lines = SourceLines()

    def shown(self, d: Diagnostic) -> None:
        """The diagnostic's line, then its source line and caret, when it has one."""
        super().shown(d)
        text = self.lines.line(d.file, d.line) if d.line is not None else None
        if text is not None:
            self.out.write("\n".join(source_excerpt(text, d.line or 1, d.column or 1)) + "\n")

    def finish(self) -> None:
        """The summary line; the last source file closed."""
        self.lines.close()
        super().finish()


class StatisticsReport(ValidateReport):
    """``--statistics``: how many diagnostics of each code, the most frequent first."""

    def __init__(self, out: TextIO, strict: bool = False, quiet: bool = False) -> None:
        super().__init__(out, strict, quiet)
        self.counts: Counter[str] = Counter()

    def document(self, c: Checked) -> None:
        """Count the document's codes."""
        super().document(c)
        self.counts.update(d.code for d in c.diagnostics)

    def rows(self) -> list[tuple[str, int]]:
        """``(code, count)``, the most frequent first, then by code."""
        return sorted(self.counts.items(), key=lambda kv: (-kv[1], kv[0]))


class TextStatistics(StatisticsReport):
    """A line per code (``     3  C502  claimed hand score disagrees``), then the summary line."""

    def finish(self) -> None:
        """The table and the summary line."""
        for code, n in self.rows():
            self.out.write(f"{n:>6}  {code}  {CODES.get(code, '')}\n")
        if not self.quiet:
            self.out.write(self.tally.line() + see_also([code for code, _ in self.rows()]) + "\n")


class JsonStatistics(StatisticsReport):
    """``{"report": "pitch-statistics", "version": 1, "codes": [{"code", "title", "count"}], "summary"}``."""

    def finish(self) -> None:
        """The report."""
        codes = [{"code": code, "title": CODES.get(code, ""), "count": n} for code, n in self.rows()]
        json.dump({"report": "pitch-statistics", "version": 1, "codes": codes, "summary": self.tally.as_json()},
                  self.out, ensure_ascii=False, indent=2)
        self.out.write("\n")


def see_also(codes: list[str], most: int = 6) -> str:
    """Where the codes shown are explained: ``; see: pitch explain R407 C502``."""
    if not codes:
        return ""
    return f"; see: pitch explain {' '.join(codes[:most])}" + (" ..." if len(codes) > most else "")


class JsonReport(ValidateReport):
    """The JSON report (``version`` 2): documents with their diagnostics, and a
    summary; written as the documents come (``StreamedList``): memory does not
    grow with the number of documents."""

    def begin(self, run: Run) -> None:
        """The report's start."""
        super().begin(run)
        self.docs = StreamedList(self.out, lambda docs: {
            "report": "pitch-validate", "version": REPORT_VERSION, "documents": docs,
            "summary": self.tally.as_json()})

    def document(self, c: Checked) -> None:
        """The document's entry, written."""
        super().document(c)
        self.docs.add({"file": c.file, "document": c.number, "valid": c.valid(self.strict) and not c.unreadable,
                       "errors": c.errors, "warnings": c.warnings, "omitted": c.omitted,
                       "diagnostics": [d.as_json() for d in c.diagnostics]})

    def finish(self) -> None:
        """The rest of the report: the summary."""
        self.docs.close()
