"""Output of diagnostics: the compiler convention in text, a versioned JSON report."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from pitchcli.check import Checked
from pitchcli.style import paint

REPORT_VERSION = 2  # 2: "document" counts from 1 (was 0)


def plural(n: int, word: str) -> str:
    """'1 error', '2 errors'."""
    return f"{n} {word}{'' if n == 1 else 's'}"


class Tally:
    """Counts for the summary line and the exit status."""

    def __init__(self) -> None:
        self.files: set[str] = set()
        self.documents = self.valid = self.invalid = self.errors = self.warnings = 0
        self.unreadable = 0

    def add(self, c: Checked, strict: bool) -> None:
        """Count one checked document."""
        if c.skipped:  # not a document, not a file read: only its warning counts
            self.warnings += c.warnings
            return
        self.files.add(c.file)
        if c.unreadable:
            self.unreadable += 1
        else:
            self.documents += 1
            if c.valid(strict):
                self.valid += 1
            else:
                self.invalid += 1
        self.errors += c.errors
        self.warnings += c.warnings

    def exit_code(self) -> int:
        """0 all valid, 1 some invalid, 3 some file unreadable (README, exit codes)."""
        if self.unreadable:
            return 3
        return 1 if self.invalid else 0

    def line(self) -> str:
        """The summary line."""
        text = (f"{plural(self.documents, 'document')} in {plural(len(self.files), 'file')}: "
                f"{self.valid} valid, {self.invalid} invalid "
                f"({plural(self.errors, 'error')}, {plural(self.warnings, 'warning')})")
        if self.unreadable:
            text += f"; {plural(self.unreadable, 'file')} unreadable"
        return text

    def as_json(self) -> dict[str, Any]:
        """The summary object of the JSON report."""
        return {"files": len(self.files), "documents": self.documents, "valid": self.valid,
                "invalid": self.invalid, "unreadable": self.unreadable, "errors": self.errors,
                "warnings": self.warnings}


def write_text(checked: Iterable[Checked], out: TextIO, strict: bool, quiet: bool = False) -> Tally:
    """One diagnostic per line as documents are checked, then the summary line."""
    tally = Tally()
    seen: dict[str, None] = {}  # the codes shown, in order
    for c in checked:
        tally.add(c, strict)
        for d in c.diagnostics:
            out.write(d.as_text(paint) + "\n")
            seen[d.code] = None
        more = c.more_line()
        if more:
            out.write(more + "\n")
    if not quiet:
        out.write(tally.line() + see_also(list(seen)) + "\n")
    return tally


def see_also(codes: list[str], most: int = 6) -> str:
    """Where the codes shown are explained: ``; see: pitch explain R407 C502``."""
    if not codes:
        return ""
    return f"; see: pitch explain {' '.join(codes[:most])}" + (" ..." if len(codes) > most else "")


def write_json(checked: Iterable[Checked], out: TextIO, strict: bool, quiet: bool = False) -> Tally:
    """The JSON report (``version`` 1): documents with their diagnostics, and a summary."""
    tally = Tally()
    docs = []
    for c in checked:
        tally.add(c, strict)
        docs.append({"file": c.file, "document": c.index + 1, "valid": c.valid(strict) and not c.unreadable,
                     "errors": c.errors, "warnings": c.warnings, "omitted": c.omitted,
                     "diagnostics": [d.as_json() for d in c.diagnostics]})
    json.dump({"report": "pitch-validate", "version": REPORT_VERSION, "documents": docs,
               "summary": tally.as_json()}, out, ensure_ascii=False, indent=2)
    out.write("\n")
    return tally


# A renderer writes the checked documents to ``out`` as they come and returns
# the tally (exit status): (checked, out, strict, quiet) -> Tally.
Renderer = Callable[[Iterable[Checked], TextIO, bool, bool], Tally]


def renderers() -> dict[str, Renderer]:
    """The output formats of ``pitch validate``, by name: one interface, so the
    command picks a renderer rather than branching on the format."""
    return {"text": write_text, "json": write_json, "github": _write_github, "sarif": _write_sarif}


# The CI formats' module (and what it imports) is read only when one is asked for.
def _write_github(checked: Iterable[Checked], out: TextIO, strict: bool, quiet: bool) -> Tally:
    from pitchcli.report_ci import write_github
    return write_github(checked, out, strict, quiet)


def _write_sarif(checked: Iterable[Checked], out: TextIO, strict: bool, quiet: bool) -> Tally:
    from pitchcli.report_ci import write_sarif
    return write_sarif(checked, out, strict, quiet)
