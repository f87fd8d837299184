"""`validate --format github` and `--format sarif`, checked against the shapes
GitHub's workflow commands and SARIF 2.1.0 document."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from jsonschema import Draft202012Validator

from pitchcli.cli import main
from pitchcli.diagnostics import WARNING, Diagnostic
from pitchcli.render.ci import annotation, artifact_uri, escape_data, escape_property
from pitchcli.render.formats import VALIDATE

ROOT = Path(__file__).resolve().parents[2]
INVALID = ROOT / "samples-invalid"
FILES = [str(INVALID / n) for n in ("suit-not-followed.yaml", "wrong-dealer.yaml", "typo-in-key.yaml",
                                    "top-level-list.yaml")]


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def json_diagnostics(*paths: str) -> list[dict[str, Any]]:
    report = json.loads(run("validate", "--format", "json", *paths).stdout)
    return [d for doc in report["documents"] for d in doc["diagnostics"]]


# --- GitHub workflow commands --------------------------------------------------
# ::error file={name},line={line},col={col},title={title}::{message}
COMMAND = re.compile(r"^::(error|warning) ([^:]*)::(.*)$")


def unescape(text: str) -> str:
    return (text.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",")
            .replace("%25", "%"))


def test_github_annotations_one_per_diagnostic_on_its_line() -> None:
    r = run("validate", "--format", "github", "-q", *FILES)
    assert r.exit_code == 1
    expected = json_diagnostics(*FILES)
    lines = r.stdout.splitlines()
    assert len(lines) == len(expected)
    for line, d in zip(lines, expected, strict=True):
        m = COMMAND.match(line)
        assert m, line
        props = dict(p.split("=", 1) for p in m[2].split(","))
        assert m[1] == d["severity"]
        assert unescape(props["file"]) == d["file"]
        assert (int(props["line"]), int(props["col"])) == (d["line"], d["column"])
        assert unescape(props["title"]).startswith(d["code"] + (f" [{d['rule']}]" if d["rule"] else ""))
        assert unescape(m[3]).startswith(d["message"])


def test_github_escaping_of_data_and_properties() -> None:
    # CR and LF from a record are shown as the text format shows them (escape.text), then % as the runner reads it
    assert escape_data("50% done\r\nnext") == "50%25 done\\x0d\\x0anext"
    assert escape_property("a,b:c%.yaml") == "a%2Cb%3Ac%25.yaml"
    d = Diagnostic("C502", "score of 'Ann\nBen' is 100%", file="x:y,z.yaml", line=3, column=4, rule=None,
                   pointer="/hands/0/score/Ann\nBen")
    line = annotation(d)
    assert line == ("::error file=x%3Ay%2Cz.yaml,line=3,col=4,title=C502 claimed hand score disagrees"
                    "::score of 'Ann\\x0aBen' is 100%25 (at /hands/0/score/Ann\\x0aBen)")
    assert "\n" not in line  # a record's text can't start a workflow command of its own
    w = Diagnostic("L111", "a byte-order mark", severity=WARNING, file="a.yaml", line=1, column=1)
    assert annotation(w).startswith("::warning file=a.yaml,line=1,col=1,title=L111 byte-order mark::")
    unlocated = annotation(Diagnostic("L101", "gone", file="g.yaml"))
    assert unlocated == "::error file=g.yaml,title=L101 file unreadable::gone (at /)"


# --- SARIF 2.1.0 ------------------------------------------------------------------
# The properties SARIF 2.1.0 requires (OASIS SARIF 2.1.0, §3.13 sarifLog, §3.14 run,
# §3.18 tool, §3.19 toolComponent, §3.49 reportingDescriptor, §3.27 result, §3.11
# message, §3.29 physicalLocation, §3.30 region), as a schema of our own: the
# official one is not in any package we have, and tests don't fetch from the web.
MESSAGE = {"type": "object", "anyOf": [{"required": ["text"]}, {"required": ["id"]}],
           "properties": {"text": {"type": "string", "minLength": 1}}}
SARIF_SHAPE = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "$schema": {"type": "string", "minLength": 1},
        "version": {"const": "2.1.0"},
        "runs": {"type": "array", "items": {
            "type": "object",
            "required": ["tool"],
            "properties": {
                "tool": {"type": "object", "required": ["driver"], "properties": {"driver": {
                    "type": "object", "required": ["name"],
                    "properties": {"name": {"type": "string"},
                                   "rules": {"type": "array", "items": {
                                       "type": "object", "required": ["id"],
                                       "properties": {"id": {"type": "string"},
                                                      "shortDescription": MESSAGE,
                                                      "fullDescription": MESSAGE,
                                                      "help": MESSAGE}}}}}}},
                "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},
                "results": {"type": "array", "items": {
                    "type": "object",
                    "required": ["message"],
                    "properties": {
                        "ruleId": {"type": "string"},
                        "ruleIndex": {"type": "integer", "minimum": -1},
                        "level": {"enum": ["none", "note", "warning", "error"]},
                        "message": MESSAGE,
                        "locations": {"type": "array", "items": {"type": "object", "properties": {
                            "physicalLocation": {
                                "type": "object",
                                "anyOf": [{"required": ["artifactLocation"]}, {"required": ["address"]}],
                                "properties": {
                                    "artifactLocation": {"type": "object", "required": ["uri"],
                                                         "properties": {"uri": {"type": "string", "minLength": 1}}},
                                    "region": {"type": "object", "required": ["startLine"], "properties": {
                                        "startLine": {"type": "integer", "minimum": 1},
                                        "startColumn": {"type": "integer", "minimum": 1}}}}}}}},
                        "properties": {"type": "object"}}}}}}},
    },
}


def test_sarif_has_the_documented_shape_and_one_result_per_diagnostic(tmp_path: Path) -> None:
    bom = tmp_path / "with space.yaml"
    bom.write_bytes(b"\xef\xbb\xbf" + (ROOT / "samples" / "auction-full.yaml").read_bytes())
    paths = [*FILES, str(bom)]
    r = run("validate", "--format", "sarif", *paths)
    assert r.exit_code == 1
    log = json.loads(r.stdout)
    errors = sorted(Draft202012Validator(SARIF_SHAPE).iter_errors(log), key=str)
    assert not errors, [e.message for e in errors]
    [sarif_run] = log["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    results = sarif_run["results"]
    expected = json_diagnostics(*paths)
    assert len(results) == len(expected)
    assert len({x["id"] for x in rules}) == len(rules)  # each code described once
    for res, d in zip(results, expected, strict=True):
        assert res["ruleId"] == d["code"] and rules[res["ruleIndex"]]["id"] == d["code"]
        assert res["level"] == d["severity"]
        region = res["locations"][0]["physicalLocation"]["region"]
        assert (region["startLine"], region["startColumn"]) == (d["line"], d["column"])
        assert res["properties"]["rule"] == d["rule"] if d["rule"] else "rule" not in res["properties"]
        assert d["message"] in res["message"]["text"]
    uris = {res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for res in results}
    assert bom.as_uri() in uris and "%20" in bom.as_uri()
    assert {res["level"] for res in results} == {"error", "warning"}


def test_sarif_of_valid_records_has_no_results() -> None:
    r = run("validate", "--format", "sarif", str(ROOT / "samples" / "auction-full.yaml"))
    assert r.exit_code == 0
    log = json.loads(r.stdout)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []


def test_artifact_uris() -> None:
    assert artifact_uri("samples/a b.yaml") == "samples/a%20b.yaml"
    assert artifact_uri("/srv/x.yaml") == "file:///srv/x.yaml"
    assert artifact_uri("-") == "-"


def test_every_format_is_a_renderer_of_one_interface() -> None:
    assert list(VALIDATE) == ["text", "full", "json", "github", "sarif", "junit", "gitlab"]
    choices = next(p for p in main.commands["validate"].params if p.name == "fmt").type.choices  # type: ignore[attr-defined]
    assert list(choices) == list(VALIDATE)
    # one interface: each is a consumer of the command driver, made alike
    from pitchcli.pipeline.driver import Consumer
    assert all(isinstance(VALIDATE[name](io.StringIO(), False, False), Consumer) for name in VALIDATE)
