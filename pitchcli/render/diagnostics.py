"""Output of diagnostics (``pitch validate``): the compiler convention in text,
a versioned JSON report. Each format is a consumer of the command driver
(``pitchcli.pipeline.driver``): it reads the checked documents as they come and
its ``end()`` gives the exit status; ``render.formats.VALIDATE`` names them."""

from __future__ import annotations

from typing import TextIO

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
            self.out.write(d.as_text(paint) + "\n")
            self.seen[d.code] = None
        more = c.more_line()
        if more:
            self.out.write(more + "\n")

    def finish(self) -> None:
        """The summary line, and where the codes shown are explained."""
        if not self.quiet:
            self.out.write(self.tally.line() + see_also(list(self.seen)) + "\n")


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
