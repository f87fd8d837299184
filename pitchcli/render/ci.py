"""Diagnostics for CI systems: GitHub workflow annotations and SARIF 2.1.0.

Both are formats of ``pitch validate`` (``--format github|sarif``), consumers of
the command driver like the text and JSON reports (``render.diagnostics``):
they read the checked documents as they come, and the driver's counts decide
the exit status.
"""

from __future__ import annotations

import os
from pathlib import PureWindowsPath
from typing import Any, TextIO
from urllib.parse import quote

from pitchcli import __version__, escape
from pitchcli.diagnostics import CODES, WARNING, Diagnostic
from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.driver import Run
from pitchcli.render.diagnostics import ValidateReport
from pitchcli.render.jsonstream import StreamedList

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"


# --- GitHub Actions workflow commands -------------------------------------------
# Escaping as the runner reads it (actions/toolkit, command.ts): in the message
# % CR LF; in a property value also : and , (they separate the properties).


def escape_data(text: str) -> str:
    """The message of a workflow command, escaped: first as any text shown to
    a reader (``escape.text``: ESC, OSC, BEL, bidi controls, U+2028/9 shown as
    ``\\x1b``, ``\\u202e``...; the runner's log is a terminal too), then as
    the runner reads it."""
    return escape.text(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value (file, title) of a workflow command, escaped."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(d: Diagnostic) -> str:
    """One diagnostic as ``::error file=…,line=…,col=…,title=…::message``."""
    props = [f"file={escape_property(d.file)}"]
    if d.line is not None:
        props += [f"line={d.line}", f"col={d.column or 1}"]
    title = d.code + (f" [{d.rule}]" if d.rule else "") + f" {CODES.get(d.code, '')}".rstrip()
    props.append(f"title={escape_property(title)}")
    level = "warning" if d.severity == WARNING else "error"
    doc = f" (document {d.document + 1})" if d.document else ""
    message = f"{d.message} (at {d.pointer or '/'}){doc}"
    return f"::{level} {','.join(props)}::{escape_data(message)}"


class GithubReport(ValidateReport):
    """One workflow annotation per diagnostic, then the summary as a log line."""

    def document(self, c: Checked) -> None:
        """The document's annotations."""
        super().document(c)
        for d in c.diagnostics:
            self.out.write(annotation(d) + "\n")

    def finish(self) -> None:
        """The summary line."""
        if not self.quiet:
            self.out.write(self.tally.line() + "\n")


# --- SARIF 2.1.0 ------------------------------------------------------------------


def artifact_uri(path: str, windows: bool = os.name == "nt") -> str:
    """A file name as a SARIF artifact URI: relative names stay relative (code
    scanning resolves them against the checkout), absolute ones become
    ``file:///`` URIs, never with a host.

    The name is read as the system that gave it reads it: on POSIX a backslash
    and a colon are characters of a name (``\\\\srv\\share\\x.json`` and
    ``c:\\temp\\x.json`` are relative names), ``//tmp/x`` is ``/tmp/x``. Every
    byte but the unreserved ones and ``/`` is percent-encoded (a name that is
    not UTF-8 as its own bytes), so a colon can't be read as a scheme, nor
    ``//`` as a host."""
    if windows:
        win = PureWindowsPath(path)
        if win.drive and win.is_absolute():
            return win.as_uri()  # (a UNC name's server is the URI's host: that is where the file is)
        path = path.replace("\\", "/")
    raw = os.fsencode(path) if not windows else path.encode("utf-8", "surrogateescape")
    if raw.startswith(b"/"):
        return "file:///" + quote(raw.lstrip(b"/"), safe="/")
    return quote(raw, safe="/")


def _rule_descriptor(code: str) -> dict[str, Any]:
    from pitchcli.views.reference import codes
    doc = codes().get(code)
    out: dict[str, Any] = {"id": code, "shortDescription": {"text": CODES.get(code, code)}}
    if doc is not None:
        out["fullDescription"] = {"text": doc.explain}
        out["help"] = {"text": f"{doc.explain}\n\nExample:\n{doc.example}\n\n{doc.says}\n\n"
                               f"See: pitch explain {code}"}
    return out


def _result(d: Diagnostic, rule_index: int) -> dict[str, Any]:
    location: dict[str, Any] = {"artifactLocation": {"uri": artifact_uri(d.file)}}
    if d.line is not None:
        location["region"] = {"startLine": d.line, "startColumn": d.column or 1}
    props: dict[str, Any] = {"pointer": d.pointer or "/", "document": d.document + 1}
    if d.rule:
        props["rule"] = d.rule
    if d.hand is not None:
        props["hand"] = d.hand
    if d.trick is not None:
        props["trick"] = d.trick
    text = (f"[{d.rule}] " if d.rule else "") + f"{d.message} (at {d.pointer or '/'})"
    return {"ruleId": d.code, "ruleIndex": rule_index, "level": "warning" if d.severity == WARNING else "error",
            "message": {"text": text}, "locations": [{"physicalLocation": location}], "properties": props}


class SarifReport(ValidateReport):
    """A SARIF 2.1.0 log of one run: one result per diagnostic, with its region
    and the code as ``ruleId``; the codes used are the run's ``tool.driver.rules``
    (after the results in the run object: they are known at the end). Written
    as the documents come (``StreamedList``): memory does not grow with the
    number of results."""

    def __init__(self, out: TextIO, strict: bool = False, quiet: bool = False) -> None:
        super().__init__(out, strict, quiet)
        self.index: dict[str, int] = {}

    def begin(self, run: Run) -> None:
        """The log's start."""
        super().begin(run)
        self.results = StreamedList(self.out, self._log)

    def _log(self, results: Any) -> dict[str, Any]:
        driver = {"name": "pitch", "semanticVersion": __version__, "version": __version__,
                  "rules": [_rule_descriptor(code) for code in self.index]}
        return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION,
                "runs": [{"columnKind": "unicodeCodePoints", "results": results, "tool": {"driver": driver}}]}

    def document(self, c: Checked) -> None:
        """The document's results, written."""
        super().document(c)
        for d in c.diagnostics:
            self.results.add(_result(d, self.index.setdefault(d.code, len(self.index))))

    def finish(self) -> None:
        """The rest of the log: the rules used."""
        self.results.close()
