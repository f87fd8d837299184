"""The verdict over checked documents: the counts of the summary line and the exit status."""

from __future__ import annotations

from typing import Any

from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.driver import exit_status
from pitchcli.text import plural


class Verdict:
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
        return exit_status(self.unreadable, self.invalid)

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
