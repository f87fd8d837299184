"""Diagnostics for CI systems: GitHub workflow annotations, SARIF 2.1.0, JUnit
XML and GitLab Code Quality.

Each is a format of ``pitch validate`` (``--format github|sarif|junit|gitlab``), a consumer of
the command driver like the text and JSON reports (``render.diagnostics``):
they read the checked documents as they come, and the driver's counts decide
the exit status.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import PureWindowsPath
from typing import Any, TextIO
from urllib.parse import quote

from pitchcli import __version__, escape
from pitchcli.diagnostics import CODES, WARNING, Diagnostic
from pitchcli.pipeline.check import Checked
from pitchcli.render.diagnostics import ValidateReport

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"


# --- GitHub Actions workflow commands -------------------------------------------
# Escaping as the runner reads it (actions/toolkit, command.ts): in the message
# % CR LF; in a property value also : and , (they separate the properties).


def escape_data(text: str) -> str:
    """The message of a workflow command, escaped."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


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
    scanning resolves them against the checkout), absolute ones become file URIs.

    The name is the running system's: on POSIX, ``C:x.json`` is a relative
    name holding a colon (percent-encoded, so the reference can't be read as
    a scheme) and a backslash is a character of the name. Its bytes are
    encoded, not its text: a name that isn't UTF-8 (``os.fsdecode`` kept its
    bytes as lone surrogates) becomes ``%FF``, which a reader maps back to
    the very file, where encoding the text raised ``UnicodeEncodeError``.
    """
    if windows:
        w = PureWindowsPath(path)
        if w.is_absolute():
            return w.as_uri()
        return quote(path.replace("\\", "/").encode("utf-8", "surrogatepass"), safe="/")
    raw = os.fsencode(path)
    if raw.startswith(b"/"):
        return "file://" + quote(raw, safe="/")
    return quote(raw, safe="/")


# A lone surrogate: what ``os.fsdecode`` makes of a byte of a file name that
# isn't UTF-8. JSON text must be Unicode, so the log shows it as U+FFFD.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


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
    and the code as ``ruleId``; the codes used are the run's ``tool.driver.rules``."""

    def __init__(self, out: TextIO, strict: bool = False, quiet: bool = False) -> None:
        super().__init__(out, strict, quiet)
        self.results: list[dict[str, Any]] = []
        self.index: dict[str, int] = {}

    def document(self, c: Checked) -> None:
        """The document's results, kept for the log."""
        super().document(c)
        for d in c.diagnostics:
            self.results.append(_result(d, self.index.setdefault(d.code, len(self.index))))

    def finish(self) -> None:
        """The log."""
        driver = {"name": "pitch", "semanticVersion": __version__, "version": __version__,
                  "rules": [_rule_descriptor(code) for code in self.index]}
        log = {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION,
               "runs": [{"tool": {"driver": driver}, "columnKind": "unicodeCodePoints", "results": self.results}]}
        # Any text in the log (a message naming a file that isn't UTF-8)
        # must be Unicode for the log to be written and read as UTF-8 JSON.
        self.out.write(_LONE_SURROGATE.sub("\ufffd", json.dumps(log, ensure_ascii=False, indent=2)) + "\n")


# --- JUnit XML ---------------------------------------------------------------------
# As CI systems read test reports (GitLab's artifacts:reports:junit, Jenkins,
# Azure): a test suite per file, a test case per document, failed when the
# document is invalid (with --strict, when it has a warning too). The case's
# failure lists its diagnostics in the text format; a valid document's warnings
# are its system-out. A file that could not be read is a case in error, what a
# folder walk skipped a skipped case.


def _xml_text(text: str) -> str:
    """Text XML 1.0 can hold: controls escaped as everywhere (``escape.text``),
    a lone surrogate (a file name that is not UTF-8) as ``\\udcxx``."""
    return escape.text(text).encode("utf-8", "backslashreplace").decode("utf-8")


class JunitReport(ValidateReport):
    """``<testsuites>``: a ``<testsuite>`` per file, a ``<testcase>`` per document."""

    def __init__(self, out: TextIO, strict: bool = False, quiet: bool = False) -> None:
        super().__init__(out, strict, quiet)
        self.root = ET.Element("testsuites", name="pitch validate")
        self.suites: dict[str, ET.Element] = {}

    def _suite(self, file: str) -> ET.Element:
        suite = self.suites.get(file)
        if suite is None:
            suite = self.suites[file] = ET.SubElement(self.root, "testsuite", name=_xml_text(file))
        return suite

    def document(self, c: Checked) -> None:
        """The document's test case."""
        super().document(c)
        case = ET.SubElement(self._suite(c.file), "testcase", classname=_xml_text(c.file),
                             name=f"document {c.number}")
        lines = [d.as_text() for d in c.diagnostics] + [c.more_line() or ""]
        body = "\n".join(line for line in lines if line)
        first = c.diagnostics[0] if c.diagnostics else None
        if c.unreadable or c.skipped:
            kind = "error" if c.unreadable else "skipped"
            ET.SubElement(case, kind, message=_xml_text(first.message if first else kind)).text = _xml_text(body)
        elif not c.valid(self.strict):
            ET.SubElement(case, "failure", type=first.code if first else "", message=(
                f"{c.errors} error{'' if c.errors == 1 else 's'}, "
                f"{c.warnings} warning{'' if c.warnings == 1 else 's'}")).text = _xml_text(body)
        elif body:
            ET.SubElement(case, "system-out").text = _xml_text(body)

    def finish(self) -> None:
        """The XML document, with each suite's counts and the totals."""
        totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
        for suite in self.root:
            counts = {"tests": len(suite), "failures": len(suite.findall("testcase/failure")),
                      "errors": len(suite.findall("testcase/error")),
                      "skipped": len(suite.findall("testcase/skipped"))}
            for k, v in counts.items():
                suite.set(k, str(v))
                totals[k] += v
        for k, v in totals.items():
            self.root.set(k, str(v))
        ET.indent(self.root)
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        self.out.write(ET.tostring(self.root, encoding="unicode") + "\n")


# --- GitLab Code Quality ---------------------------------------------------------
# The report of artifacts:reports:codequality: a JSON array of issues with
# description, check_name, fingerprint, severity and location.path /
# location.lines.begin (GitLab's documented subset of the Code Climate spec).
# GitLab shows one issue per fingerprint, so each must be unique; it is made of
# what doesn't move when lines are added above (the file, document, pointer,
# code and message), so an issue keeps its fingerprint from one run to the next.

GITLAB_SEVERITY = {"error": "major", "warning": "minor"}


def fingerprint(d: Diagnostic, seen: dict[str, int]) -> str:
    """A stable, unique fingerprint of ``d`` (``seen`` counts those already given)."""
    key = "\0".join((d.file, str(d.document), d.pointer, d.code, d.message))
    base = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    n = seen.get(base, 0)
    seen[base] = n + 1
    return base if n == 0 else hashlib.sha256(f"{base}:{n}".encode()).hexdigest()


class GitlabReport(ValidateReport):
    """A GitLab Code Quality report: one issue per diagnostic."""

    def __init__(self, out: TextIO, strict: bool = False, quiet: bool = False) -> None:
        super().__init__(out, strict, quiet)
        self.issues: list[dict[str, Any]] = []
        self.seen: dict[str, int] = {}

    def document(self, c: Checked) -> None:
        """The document's issues."""
        super().document(c)
        for d in c.diagnostics:
            rule = f" [{d.rule}]" if d.rule else ""
            doc = f" (document {d.document + 1})" if d.document else ""
            self.issues.append({
                "description": f"{d.code}{rule} {d.message} (at {d.pointer or '/'}){doc}",
                "check_name": d.code,
                "fingerprint": fingerprint(d, self.seen),
                "severity": GITLAB_SEVERITY.get(d.severity, "major"),
                "location": {"path": d.file, "lines": {"begin": d.line or 1}},
            })

    def finish(self) -> None:
        """The array of issues."""
        json.dump(self.issues, self.out, ensure_ascii=False, indent=2)
        self.out.write("\n")
