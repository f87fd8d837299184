"""Text from a record or a file name is data, in every output (issue 27, items 11-13, 15).

- ``--format github`` wrote ESC, OSC, BEL, bidi controls and line separators
  from names raw into the annotations; SARIF made ``\\\\srv\\share\\x.json``,
  ``c:\\temp\\x.json`` and ``//tmp/x`` (relative names on POSIX, and
  ``/tmp/x``) into URIs with a host or a scheme.
- A file name holding escapes or a newline was written raw by ``chart``,
  ``fmt --check``, report's and chart's messages: a forged
  ``file:1:1: error: L000`` line appeared.
- ``chart -o`` wrote U+FFFE/U+FFFF raw: the SVG was not well-formed XML.
- ``validate --format json|sarif`` held every document until the end; they
  are written as they come, the same bytes.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import tracemalloc
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from pitchcli.cli import main
from pitchcli.render.ci import annotation, artifact_uri

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "samples" / "auction-full.yaml"
INVALID = ROOT / "samples" / "invalid" / "suit-not-followed.yaml"

# What no output line may carry raw: C0 (but newline) and C1 controls, DEL,
# bidi controls, the line and paragraph separators.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
FORGED = "\nx.yaml:1:1: error: L000 forged"
NAMES = ["esc\x1b[2Jclear", "osc\x1b]52;c;SGVsbG8=\x07", "bidi\u202eevil", "sep\u2028x", "nl" + FORGED, "cr\rx"]


def run(*args: object) -> Result:
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def _clean(text: str) -> bool:
    return not RAW.search(text) and "L000 forged" not in "".join(
        line for line in text.splitlines() if line.startswith("x.yaml:"))


# --- item 11: GitHub annotations and SARIF URIs -------------------------------------------


def _hostile_record(tmp_path: Path, name: str, file_name: str) -> Path:
    data = yaml.safe_load(GAME.read_text())
    data["players"][0] = name
    text = GAME.read_text().replace("Ann", json.dumps(name))
    path = tmp_path / file_name
    path.write_text(text)
    return path


@pytest.mark.parametrize("name", NAMES)
def test_github_annotations_escape_names_and_file_names(tmp_path: Path, name: str) -> None:
    path = _hostile_record(tmp_path, name, "g" + name.replace("\n", "_").replace("/", "_") + ".yaml")
    r = run("validate", "--format", "github", path, INVALID)
    lines = r.stdout.splitlines()
    assert all(line.startswith("::") for line in lines[:-1]), lines
    for line in lines:
        assert not RAW.search(line), repr(line)


def test_an_annotation_escapes_every_control_of_its_parts() -> None:
    from pitchcli.diagnostics import Diagnostic
    d = Diagnostic("R407", "Ann\x1b]8;;x\x07 \u202e played\u2029", file="a\x1b[31m.yaml", line=1, column=2,
                   pointer="/hands/0")
    line = annotation(d)
    assert not RAW.search(line) and "\\x1b" in line and "\\u202e" in line and "\\u2029" in line


@pytest.mark.parametrize(("name", "uri"), [
    ("\\\\srv\\share\\x.json", "%5C%5Csrv%5Cshare%5Cx.json"),
    ("c:\\temp\\x.json", "c%3A%5Ctemp%5Cx.json"),
    ("//tmp/x", "file:///tmp/x"),
    ("/tmp/a b.json", "file:///tmp/a%20b.json"),
    ("a:b.json", "a%3Ab.json"),
    ("rel/x.json", "rel/x.json"),
    ("x%41?#.json", "x%2541%3F%23.json"),
    ("caf\udce9.yaml", "caf%E9.yaml"),  # a name that isn't UTF-8: its own bytes
])
def test_sarif_uris_of_posix_names_have_no_host_and_no_scheme(name: str, uri: str) -> None:
    got = artifact_uri(name, windows=False)
    assert got == uri
    assert not got.startswith("//") and ("://" not in got or got.startswith("file:///"))
    assert ":" not in got.removeprefix("file:")  # no colon a reader could take for a scheme


def test_sarif_uris_on_windows_keep_the_drive() -> None:
    assert artifact_uri("c:\\temp\\x.json", windows=True) == "file:///c:/temp/x.json"
    assert artifact_uri("sub\\x.json", windows=True) == "sub/x.json"


# --- item 12: file names written by chart, fmt --check and the messages -------------------


@pytest.mark.parametrize("name", NAMES)
def test_file_names_are_escaped_by_every_command(tmp_path: Path, name: str) -> None:
    base = name.replace("/", "_")
    record = tmp_path / f"{base}.yaml"
    record.write_text(GAME.read_text().replace("players: [Ann", "players:   [Ann"))  # not canonical
    blocker = tmp_path / f"{base}-dir"
    blocker.mkdir()
    runs = [
        ("fmt", "--check", record),
        ("chart", record, "-o", blocker),
        ("chart", record, "-o", tmp_path / f"{base}-missing" / "x.svg"),
        ("chart", tmp_path / f"{base}-multi.yaml"),
        ("report", "-o", record, GAME),
        ("report", "-o", tmp_path / f"{base}-site", GAME),
        ("summarize", record, "-o", record),
        ("fmt", record, "-o", record),
        ("validate", record, record),
        ("merge", record),
    ]
    (tmp_path / f"{base}-multi.yaml").write_text(GAME.read_text() + "---\n" + GAME.read_text())
    for args in runs:
        r = run(*args)
        assert _clean(r.stdout) and _clean(r.stderr), (args, r.stdout, r.stderr)


def test_fmt_check_names_the_file_escaped(tmp_path: Path) -> None:
    record = tmp_path / ("x" + FORGED.replace("/", "_") + ".yaml")
    record.write_text(GAME.read_text().replace("players: [Ann", "players:   [Ann"))
    r = run("fmt", "--check", record)
    assert r.exit_code == 1 and "would reformat:" in r.stdout and "\\x0a" in r.stdout
    assert len(r.stdout.splitlines()) == 1


# --- item 13: the SVG is XML ----------------------------------------------------------------


@pytest.mark.parametrize("odd", ["\ufffe", "\uffff", "\U0001fffe", "\ufdd0", "\x0b", "\x00", "\x85"])
def test_chart_svg_is_well_formed_xml_whatever_the_names(tmp_path: Path, odd: str) -> None:
    path = tmp_path / "game.yaml"
    code = ord(odd)
    escaped = f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"  # a YAML escape: the loader takes it
    path.write_text(GAME.read_text().replace("Ann", f'"A{escaped}nn"'))
    out = tmp_path / "race.svg"
    r = run("chart", path, "-o", out)
    assert r.exit_code == 0, r.output
    ET.fromstring(out.read_bytes())  # raises on a character XML 1.0 forbids
    assert not RAW.search(r.stdout)


# --- item 15: the JSON and SARIF reports are written as they come ------------------------------


class _Sink(io.TextIOBase):
    """An output that keeps nothing (what a pipe to another program is)."""

    def write(self, s: str) -> int:
        return len(s)


def _peak(fmt: str, path: Path) -> int:
    """validate's peak memory (traced) with the report written to a sink."""
    from pitchcli.pipeline.check import check_paths
    from pitchcli.pipeline.driver import drive
    from pitchcli.render.formats import VALIDATE
    tracemalloc.start()
    try:
        drive(check_paths([str(path)], quick=True), VALIDATE[fmt](_Sink()))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_and_sarif_memory_does_not_grow_with_documents(tmp_path: Path, fmt: str) -> None:
    small, big = tmp_path / "small.jsonl", tmp_path / "big.jsonl"
    small.write_text("{}\n" * 600)  # (more than a chunk of the quick pass: its memory is in both)
    big.write_text("{}\n" * 3_000)
    _peak(fmt, small)  # the imports, once
    assert _peak(fmt, big) < _peak(fmt, small) + 1_000_000  # (held whole: about 17 MB more)


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_and_sarif_are_valid_json_on_every_kind_of_input(tmp_path: Path, fmt: str) -> None:
    (tmp_path / "empty").mkdir()
    shutil.copy(GAME, tmp_path / "good.yaml")
    for args in ([tmp_path / "empty"], [tmp_path / "good.yaml"], [ROOT / "samples" / "invalid"],
                 [tmp_path / "missing.yaml", tmp_path / "good.yaml"]):
        r = run("validate", "--format", fmt, *args)
        data = json.loads(r.stdout)
        if fmt == "json":
            assert data["summary"]["documents"] == len([d for d in data["documents"] if d["errors"] or d["valid"]]) \
                - sum(1 for d in data["documents"] if any(x["code"] == "L101" for x in d["diagnostics"]))
        else:
            run_ = data["runs"][0]
            assert {r_["ruleId"] for r_ in run_["results"]} == {rule["id"] for rule in run_["tool"]["driver"]["rules"]}


# --- the chart's names: written as text, each where it appears ------------------------------


@pytest.mark.parametrize("name", ['A<b>&"\'nn</text><x/>', "bidi\u202eevil", "amp&amp;"])
def test_every_name_the_chart_writes_is_text(name: str) -> None:
    """``race_svg`` writes a unit's name in the title, the line's
    ``data-unit``, the legend, and as the line another coincides with: each
    read back from the SVG is the name (printable), never markup."""
    from pitchcli.pipeline.check import check_paths
    from pitchcli.render.chart import chart_data, race_svg
    from pitchcli.render.templating import printable
    from pitchcli.views.game import game_view

    checked, = check_paths([str(GAME)])
    c = chart_data(game_view(checked))
    first, second = c["series"][:2]
    first.unit, second.same_as, c["title"] = name, name, f"Score race: {name}"
    svg = ET.fromstring(race_svg(c, standalone=True).encode())
    ns = "{http://www.w3.org/2000/svg}"
    shown = printable(name)
    assert svg.find(f"{ns}title").text == f"Score race: {shown}"
    assert svg.find(f"{ns}polyline").get("data-unit") == shown
    legends = ["".join(g.find(f"{ns}text").itertext()) for g in svg.iter(f"{ns}g")]
    assert legends[0].startswith(f"{shown}: ")
    assert legends[1].endswith(f"(the same line as {shown})")
