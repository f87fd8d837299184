"""Text from a record is data (issue 11): one escaper for every human-readable
output, CSV cells that are never formulas, Markdown tables that hold together.

Each test here failed before ``pitchcli/escape.py``: the names were printed raw.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import NamedTuple

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from support.characters import named_by, printable_among
from support.fuzz_strategies import RAW_UNSAFE, _renamed

from pitchcli import escape
from pitchcli.cli import main

ROOT = Path(__file__).resolve().parents[2]
PLAY = ROOT / "samples" / "auction-play.yaml"

# A newline that forges a diagnostic line, a spreadsheet formula, Markdown/HTML,
# a bidi override, and an OSC 52 clipboard write in the event.
HOSTILE = {"Ann": "Ann\nx.yaml:1:1: R407 forged", "Ben": '=HYPERLINK("http://e.x")',
           "Cal": "Cal|<img src=x onerror=alert(1)>", "Dot": "Dot\u202etxt.exe"}
EVENT = "Ladder\x1b]52;c;SGVsbG8=\x07\r"


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """A valid record whose players and event are hostile text (JSON: YAML can't hold every one plain)."""
    rec = _renamed(yaml.safe_load(PLAY.read_text()), HOSTILE)
    rec["event"] = EVENT
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(rec))
    return path


@pytest.fixture
def hostile_invalid(tmp_path: Path) -> Path:
    """The same, with a dealer nobody knows and a wrong score: diagnostics quote the names."""
    rec = _renamed(yaml.safe_load(PLAY.read_text()), HOSTILE)
    rec["hands"][0]["dealer"] = "Eve\x1b[2J\nfake.yaml:9:9: S201 forged"
    rec["hands"][1]["score"] = {v: 9 for v in HOSTILE.values()}
    path = tmp_path / "bad\x1b[31m.json"
    path.write_text(json.dumps(rec))
    return path


def run(*args: object) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, r.stdout, r.stderr


def test_text_escapes_controls_bidi_and_separators() -> None:
    assert escape.text("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert escape.text("l\nr\r\t") == "l\\x0ar\\x0d\\x09"
    assert escape.text("x\u202ey\u2066\u200f") == "x\\u202ey\\u2066\\u200f"
    assert escape.text("\u2028\u2029\x85\ufeff\x9b\x7f") == "\\u2028\\u2029\\x85\\ufeff\\x9b\\x7f"
    plain = "Åsa Ölund, 李, 🂡 ♠ — O'Neil (A&B)"
    assert escape.text(plain) is plain or escape.text(plain) == plain


def test_csv_cell_neutralises_formulas_but_not_negative_numbers() -> None:
    for s in ("=1+1", "+1", "-1+2", "@SUM(A1)", "\tx", "\rx", "-x", "-"):
        assert escape.csv_cell(s) == "'" + s
    for v in ("-3", "-2.5", "Ann", "", 0, -3, None, "a=b"):
        assert escape.csv_cell(v) == v


def test_markdown_cell() -> None:
    assert escape.markdown("a|b") == "a\\|b"
    assert escape.markdown("<b>&") == "&lt;b&gt;&amp;"
    assert escape.markdown("[x](javascript:y) *e* `c`") == "\\[x\\](javascript:y) \\*e\\* \\`c\\`"
    assert escape.markdown("a\nb") == "a\\\\x0ab"


def test_code_span_cannot_be_ended_by_its_text() -> None:
    assert escape.code_span("a`b") == "``a`b``"
    assert escape.code_span("`x`") == "`` `x` ``"
    assert escape.code_span("f.yaml:1:1: R413 <b>") == "`f.yaml:1:1: R413 <b>`"


def test_short_is_bounded() -> None:
    assert escape.short("x" * 200_000) == "x" * 59 + "…"
    assert escape.short("Ann") == "Ann"


class _Named(NamedTuple):
    name: str
    seats: tuple[str, ...]


def test_deep_escapes_every_string_and_keeps_each_kind() -> None:
    hostile = "Ann\nx.yaml:1:1: R407 forged"
    got = escape.deep({"k\x1b": [hostile, (hostile,), _Named(hostile, (hostile,))]})
    [(key, [in_list, in_tuple, named])] = got.items()
    assert key == escape.text("k\x1b") and in_list == escape.text(hostile)
    assert type(in_tuple) is tuple and in_tuple == (escape.text(hostile),)
    # A named tuple stays one, its fields escaped (it was passed through raw).
    assert type(named) is _Named and named == _Named(escape.text(hostile), (escape.text(hostile),))


def _no_raw(text: str) -> None:
    found = RAW_UNSAFE.search(text)
    assert found is None, f"raw {found.group()!r} in output: {text[max(0, found.start() - 40):found.end() + 40]!r}"


@pytest.mark.parametrize("command", [["score"], ["score", "--explain"], ["replay"], ["summarize"],
                                     ["summarize", "--format", "markdown"]])
def test_human_outputs_carry_no_raw_control_characters(hostile: Path, command: list[str]) -> None:
    code, out, err = run(*command, hostile)
    assert code == 0, err
    _no_raw(out)
    _no_raw(err)
    assert "x.yaml:1:1: R407 forged" in out  # the name is shown, on the line it belongs to...
    assert not any(line.startswith("x.yaml:1:1:") for line in out.splitlines())  # ...never as a line
    assert "\\u202e" in out
    if command[0] == "summarize":
        assert "x1b" in out and "52;c;SGVsbG8" in out


def test_diagnostics_cannot_be_forged(hostile_invalid: Path) -> None:
    code, out, err = run("validate", hostile_invalid)
    assert code == 1
    _no_raw(out)
    lines = out.splitlines()
    _, js, _ = run("validate", "--format", "json", hostile_invalid)
    diags = json.loads(js)["documents"][0]["diagnostics"]
    assert len(lines) == len(diags) + 1  # one line per diagnostic, and the summary line
    assert all(line.startswith(str(hostile_invalid).replace("\x1b", "\\x1b")) for line in lines[:-1])
    # JSON keeps the exact text.
    assert any("score change of Ann\nx.yaml:1:1: R407 forged" in d["message"] for d in diags)
    assert diags[0]["file"] == str(hostile_invalid)
    for command in (["score"], ["replay"]):
        code, _, err = run(*command, hostile_invalid)
        assert code == 1
        _no_raw(err)
        assert not any(line.startswith("fake.yaml") for line in err.splitlines())


def test_markdown_table_keeps_its_columns(hostile: Path) -> None:
    _, out, _ = run("summarize", "--format", "markdown", hostile)
    tables = [block.splitlines() for block in out.split("\n\n") if block.startswith("|")]
    assert len(tables) >= 2
    for rows in tables:  # every row of a table has its header's number of cells
        widths = {len(re.split(r"(?<!\\)\|", line)) for line in rows}
        assert len(widths) == 1, rows
    assert "<img" not in out and "&lt;img" in out


def _csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("command", [["summarize", "--format", "csv"],
                                     ["summarize", "--format", "csv", "--no-standings", "--games"],
                                     ["score", "--format", "csv"]])
def test_csv_cells_are_never_formulas(hostile: Path, command: list[str]) -> None:
    code, out, _ = run(*command, hostile)
    assert code == 0
    rows = _csv(out)
    cells = [c for row in rows[1:] for c in row]
    assert any(c.startswith("'=HYPERLINK") for c in cells)
    for c in cells:
        assert not c.startswith(("=", "+", "@", "\t", "\r")), c
        assert not c.startswith("-") or re.fullmatch(r"-[0-9]+(\.[0-9]+)?", c), c
    if "--games" not in command:
        assert any(re.fullmatch(r"-[0-9]+", c) for c in cells)  # a negative score stays a number


def test_json_keeps_the_exact_text(hostile: Path) -> None:
    _, out, _ = run("summarize", "--format", "json", hostile)
    names = {p["name"] for e in json.loads(out)["events"] for p in e["players"]}
    assert names == set(HOSTILE.values())
    _, out, _ = run("score", "--format", "json", hostile)
    assert json.dumps(HOSTILE["Ann"])[1:-1] in out


def test_every_character_text_escapes_is_not_printable() -> None:
    # ``text`` returns a printable string as it is, without the pattern: right
    # only while ``str.isprintable`` is False for every character it names.
    named = named_by(escape.UNSAFE)
    assert len(named) == 32 + 33 + 1 + 2 + 7 + 4 + 1
    assert printable_among(named) == []


@given(st.text(alphabet=st.characters(codec=None), max_size=40)
       | st.text(alphabet="a \t\x1b\x85\u00a0\u061c\u200e\u2028\u202e\u2066\ufeff\U0001f0a1", max_size=20))
def test_text_is_the_pattern_applied(s: str) -> None:
    unsafe = re.compile(escape.UNSAFE)
    expected = unsafe.sub(lambda m: (f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                                     else f"\\u{ord(m.group()):04x}"), s)
    assert escape.text(s) == expected
