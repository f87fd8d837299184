"""Output of diagnostics: the compiler convention in text, a versioned JSON report."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TextIO

from pitchcli.pipeline.check import Checked
from pitchcli.render.style import paint
from pitchcli.views.verdict import Verdict

REPORT_VERSION = 2  # 2: "document" counts from 1 (was 0)


def write_text(checked: Iterable[Checked], out: TextIO, strict: bool, quiet: bool = False) -> Verdict:
    """One diagnostic per line as documents are checked, then the summary line."""
    tally = Verdict()
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


def write_json(checked: Iterable[Checked], out: TextIO, strict: bool, quiet: bool = False) -> Verdict:
    """The JSON report (``version`` 1): documents with their diagnostics, and a summary."""
    tally = Verdict()
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
