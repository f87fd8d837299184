"""What the readers of one file share while loading it: its name, its limits and
the index of the next document (:class:`FileContext`, which also makes the
file's diagnostics), and :class:`StopFile`, which ends the file with one last
diagnostic."""

from __future__ import annotations

from typing import Any

from pitchcli.diagnostics import ERROR, Diagnostic
from pitchcli.record.document import Limits

__all__ = ["FileContext", "StopFile"]


class StopFile(Exception):
    """Ends the file with one last diagnostic (unreadable, too large, too many
    documents): the loader yields ``diagnostic`` and reads no more."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


class FileContext:
    """What the readers of one file share: its name, limits and document counter."""

    __slots__ = ("file", "index", "limits")

    def __init__(self, file: str, limits: Limits) -> None:
        self.file = file
        self.limits = limits
        self.index = 0  # index of the next document

    def diag(
        self,
        code: str,
        message: str,
        line: int | None = None,
        column: int | None = None,
        pointer: str = "",
        severity: str = ERROR,
        **extra: Any,
    ) -> Diagnostic:
        """A diagnostic of this file's current document (``index``)."""
        return Diagnostic(
            code,
            message,
            severity=severity,
            pointer=pointer,
            file=self.file,
            document=self.index,
            line=line,
            column=column,
            extra=extra,
        )

    def next_document(self) -> None:
        """Count a document; past ``max_documents``, end the file (L108)."""
        if self.index >= self.limits.max_documents:
            raise StopFile(
                self.diag(
                    "L108",
                    f"more than {self.limits.max_documents} documents in one file; "
                    "the rest is not read",
                )
            )
