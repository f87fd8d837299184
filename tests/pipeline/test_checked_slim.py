"""``Checked.slim``: what a command keeps of a record it lists but does not
use (report's list of problems, the records `ratings` left out). Before it
was report's own (``render.site._slim``); `ratings` kept the records whole."""

from __future__ import annotations

from pitchcli.diagnostics import ERROR, WARNING, Diagnostic
from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.walk import SKIPPED


def _d(code: str, severity: str) -> Diagnostic:
    return Diagnostic(code, f"{code} here", severity=severity, file="a.yaml", document=0)


WARN, FIRST, SECOND = _d("S101", WARNING), _d("C503", ERROR), _d("C504", ERROR)


def _record() -> Checked:
    return Checked("a.yaml", 0, document=object(), analysis=object(),  # type: ignore[arg-type]
                   diagnostics=[WARN, FIRST, SECOND], omitted_errors=2, omitted_warnings=1)


def test_it_keeps_where_and_the_first_diagnostics_with_the_first_error() -> None:
    one = _record().slim(1)
    assert (one.file, one.index, one.document, one.analysis, one.notes) == ("a.yaml", 0, None, None, None)
    assert one.diagnostics == [FIRST]  # (the first error, in place of the warning before it)
    assert (one.errors, one.warnings) == (_record().errors, _record().warnings) == (4, 2)
    two = _record().slim(2)
    assert two.diagnostics == [WARN, FIRST] and (two.omitted_errors, two.omitted_warnings) == (3, 1)
    assert _record().slim(5).diagnostics == [WARN, FIRST, SECOND]


def test_what_it_was_it_still_is() -> None:
    skipped = Checked("fifo.yaml", 0, diagnostics=[_d(SKIPPED, WARNING)])
    unreadable = Checked("gone.yaml", 0, diagnostics=[_d("L101", ERROR)])
    assert skipped.slim(1).skipped and not skipped.slim(1).unreadable
    assert unreadable.slim(1).unreadable and not unreadable.slim(1).skipped
    assert not _record().slim(1).skipped
