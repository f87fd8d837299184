"""`pitch validate` with a linter's manners: selection, suppression comments, a
configuration file, statistics, -o, the full text form, JUnit and GitLab."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from pitchcli.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
INVALID = ROOT / "samples-invalid"
SCORE_WRONG = INVALID / "score-claim-wrong.yaml"  # C502 on line 26
SCORE_LINE = "    score: {Ann: 0, Ben: 3, Cal: -2, Dot: 0}"


def run(*args: str, input: bytes | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), input=input)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output + r.stderr
    return r.exit_code, r.stdout, r.stderr


def record(tmp_path: Path, comment: str = "", name: str = "game.yaml", head: str = "") -> Path:
    """The score-claim-wrong sample with ``comment`` at the end of its wrong score's line."""
    text = SCORE_WRONG.read_text("utf-8")
    assert SCORE_LINE + "\n" in text
    text = head + text.replace(SCORE_LINE + "\n", f"{SCORE_LINE}{comment}\n")
    p = tmp_path / name
    p.write_text(text, "utf-8")
    return p


def codes(out: str) -> list[str]:
    return [line.split(": ")[2].split()[0] for line in out.splitlines() if ": error: " in line or ": warning: " in line]


# --- suppression comments ------------------------------------------------------------


def test_a_comment_at_the_end_of_the_line_suppresses_its_code(tmp_path: Path) -> None:
    p = record(tmp_path, "   # pitch: ignore[C502]")
    status, out, _ = run("validate", str(p))
    assert status == 0 and codes(out) == []
    assert "1 valid, 0 invalid (0 errors, 0 warnings)" in out
    # Without the comment the same record fails.
    assert run("validate", str(record(tmp_path, "", "plain.yaml")))[0] == 1


def test_an_unused_suppression_is_a_warning_n601(tmp_path: Path) -> None:
    p = record(tmp_path, "   # pitch: ignore[C502, C503]")
    status, out, _ = run("validate", str(p))
    assert status == 0 and codes(out) == ["N601"]
    assert f"{p}:26:48: warning: N601 unused suppression: nothing here has C503" in out
    assert run("validate", "--strict", str(p))[0] == 1
    assert run("validate", "--ignore", "N601", str(p))[1].count("N601") == 0


@pytest.mark.parametrize(("comment", "words"), [
    ("   # pitch: ignore", "a suppression names its codes"),
    ("   # pitch: ignore[C5O2]", "unknown code 'C5O2'"),
])
def test_a_suppression_that_cannot_be_read_is_n602_and_suppresses_nothing(tmp_path: Path, comment: str,
                                                                         words: str) -> None:
    status, out, _ = run("validate", str(record(tmp_path, comment)))
    assert status == 1 and sorted(codes(out)) == ["C502", "N602"]
    assert words in out


def test_a_line_suppression_on_a_line_of_its_own_is_n602(tmp_path: Path) -> None:
    p = record(tmp_path)
    p.write_text(p.read_text().replace(SCORE_LINE, "    # pitch: ignore[C502]\n" + SCORE_LINE))
    status, out, _ = run("validate", str(p))
    assert status == 1 and sorted(codes(out)) == ["C502", "N602"]
    assert "goes at the end of the offending line" in out


def test_ignore_file_suppresses_in_the_rest_of_the_file_and_says_when_unused(tmp_path: Path) -> None:
    p = record(tmp_path, head="# pitch: ignore-file[C502]\n")
    stream = p.read_text() + "---\n" + SCORE_WRONG.read_text()
    p.write_text(stream)
    status, out, _ = run("validate", str(p))
    assert status == 0 and codes(out) == [], out  # both documents of the stream
    p.write_text(p.read_text().replace("ignore-file[C502]", "ignore-file[C502, R407]"))
    status, out, _ = run("validate", str(p))
    assert status == 0 and codes(out) == ["N601"]
    assert f"{p}:1:1: warning: N601 unused suppression: nothing in the rest of the file has R407" in out


def test_a_directive_inside_a_string_or_in_json_is_no_comment(tmp_path: Path) -> None:
    p = record(tmp_path)
    quoted = 'format: pitch-record/1\nnotes: "# pitch: ignore-file[C502]"'
    p.write_text(p.read_text().replace("format: pitch-record/1", quoted))
    assert codes(run("validate", str(p))[1]) == ["C502"]
    # JSON has no comments: a JSON record can't suppress (use --ignore or the configuration).
    import yaml
    data = yaml.safe_load(SCORE_WRONG.read_text())
    data["notes"] = "# pitch: ignore-file[C502]"
    j = tmp_path / "game.json"
    j.write_text(json.dumps(data))
    assert codes(run("validate", str(j))[1]) == ["C502"]


def test_fmt_keeps_the_suppression_on_its_line(tmp_path: Path) -> None:
    # fmt refuses an invalid record, so: a valid one whose score line carries a
    # suppression, and a score then changed by hand in the formatted text.
    line = "    score: {Ann: 0, Ben: 2, Cal: -2, Dot: 0}"
    p = tmp_path / "game.yaml"
    p.write_text((SAMPLES / "auction-full.yaml").read_text().replace(line, line + "  # pitch: ignore[C502]", 1))
    status, out, _ = run("fmt", str(p))
    assert status == 0
    kept = [x for x in out.splitlines() if "# pitch: ignore[C502]" in x]
    assert len(kept) == 1 and kept[0].startswith("    score: {Ann: 0, Ben: 2")
    formatted = tmp_path / "formatted.yaml"
    formatted.write_text(out.replace("score: {Ann: 0, Ben: 2,", "score: {Ann: 0, Ben: 3,", 1))
    status, out, _ = run("validate", str(formatted))
    assert status == 0 and codes(out) == []  # the comment still suppresses, on its line


# --- selection, exit status, statistics, -o ----------------------------------------


def test_select_ignore_and_extend_select_by_code_or_prefix() -> None:
    invalid = str(INVALID)
    _, out, _ = run("validate", "--select", "C5", invalid)
    assert set(codes(out)) == {"C502", "C504", "C506", "C508"}
    _, out, _ = run("validate", "--select", "C5", "--ignore", "C502,C504", invalid)
    assert set(codes(out)) == {"C506", "C508"}
    _, out, _ = run("validate", "--select", "C506", "--extend-select", "R407", invalid)
    assert set(codes(out)) == {"C506", "R407"}
    # What is not shown is not counted, and doesn't fail the run.
    status, out, _ = run("validate", "--ignore", "C502", str(SCORE_WRONG))
    assert status == 0 and "1 valid, 0 invalid (0 errors" in out


def test_what_a_folder_walk_skipped_can_be_ignored(tmp_path: Path) -> None:
    import os
    os.mkfifo(tmp_path / "pipe.yaml")
    status, out, _ = run("validate", str(tmp_path))
    assert status == 0 and codes(out) == ["L113"]
    status, out, _ = run("validate", "--ignore", "L113", str(tmp_path))
    assert status == 0 and codes(out) == [] and out.startswith("0 documents in 0 files")


def test_an_unknown_code_is_a_usage_error() -> None:
    status, _, err = run("validate", "--select", "C599", str(SCORE_WRONG))
    assert status == 2 and "unknown code or prefix 'C599'" in err


def test_exit_zero_but_not_for_an_unreadable_file(tmp_path: Path) -> None:
    assert run("validate", "--exit-zero", str(SCORE_WRONG))[0] == 0
    assert run("validate", "--exit-zero", str(tmp_path / "gone.yaml"))[0] == 3


def test_statistics_count_each_code() -> None:
    status, out, _ = run("validate", "--statistics", str(INVALID))
    assert status == 1
    lines = out.splitlines()
    assert lines[0].split() == ["2", "R403", "wrong", "cards", "dealt", "or", "held"]
    assert "     1  C502  claimed hand score disagrees" in lines
    assert lines[-1].startswith("19 documents in 19 files")
    status, out, _ = run("validate", "--statistics", "--format", "json", "--select", "C", str(INVALID))
    report = json.loads(out)
    assert report["report"] == "pitch-statistics" and report["summary"]["errors"] == 4
    assert {c["code"]: c["count"] for c in report["codes"]} == {"C502": 1, "C504": 1, "C506": 1, "C508": 1}
    assert run("validate", "--statistics", "--format", "sarif", str(SCORE_WRONG))[0] == 2


def test_statistics_count_past_max_errors(tmp_path: Path) -> None:
    _, out, _ = run("validate", "--statistics", "--max-errors", "1", str(INVALID / "card-dealt-twice.yaml"))
    assert sum(int(line.split()[0]) for line in out.splitlines()[:-1]) > 1


def test_output_file_is_written_and_never_an_input(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    status, stdout, _ = run("validate", "--format", "json", "-o", str(out), str(SCORE_WRONG))
    assert status == 1 and stdout == ""
    assert json.loads(out.read_text())["summary"]["invalid"] == 1
    p = record(tmp_path)
    before = p.read_bytes()
    status, _, err = run("validate", "-o", str(p), str(p))
    assert status == 2 and "is an input" in err and p.read_bytes() == before
    # A record file in a folder that is searched would be read as a record too.
    status, _, err = run("validate", "-o", str(tmp_path / "new.json"), str(tmp_path))
    assert status == 2 and "read for records" in err and not (tmp_path / "new.json").exists()
    assert run("validate", "-o", str(tmp_path / "report.txt"), str(tmp_path))[0] == 1
    status, _, err = run("validate", "-o", str(tmp_path / "no" / "such" / "r.txt"), str(p))
    assert status == 3 and "cannot write" in err


# --- the configuration ------------------------------------------------------------


def test_the_configuration_up_from_the_input_is_applied(tmp_path: Path) -> None:
    club = tmp_path / "club"
    club.mkdir()
    p = record(club)
    (tmp_path / "pyproject.toml").write_text('[tool.pitch]\nignore = ["C502"]\nformat = "json"\n')
    status, out, _ = run("validate", "--format", "text", str(p))
    assert status == 0 and codes(out) == []
    # The command line wins over it: --select starts the selection again.
    status, out, _ = run("validate", "--format", "text", "--select", "C502", str(p))
    assert status == 1 and codes(out) == ["C502"]
    assert run("validate", "--isolated", str(p))[0] == 1
    other = tmp_path / "other.toml"
    other.write_text('select = ["R"]\n')
    assert run("validate", "--config", str(other), str(p))[0] == 0


def test_the_format_comes_from_the_current_folder_and_max_errors_from_the_inputs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pitch.toml").write_text('format = "json"\n')
    club = tmp_path / "club"
    club.mkdir()
    (club / "pitch.toml").write_text("max-errors = 1\n")
    p = club / "game.yaml"
    p.write_text((INVALID / "card-dealt-twice.yaml").read_text())
    monkeypatch.chdir(tmp_path)
    status, out, _ = run("validate", "club/game.yaml")
    report = json.loads(out)  # the current folder's format
    assert status == 1 and len(report["documents"][0]["diagnostics"]) == 1  # the input's own cap
    assert report["documents"][0]["omitted"] >= 1
    report = json.loads(run("validate", "--max-errors", "0", "club/game.yaml")[1])
    assert report["documents"][0]["omitted"] == 0


@pytest.mark.parametrize(("text", "words"), [
    ("selct = []\n", "unknown key 'selct'; did you mean 'select'?"),
    ("select = [\n", "not valid TOML"),
    ('format = "xml"\n', "format must be one of text, full, json"),
    ('variant = "setback"\n', "unknown profile 'setback'"),
])
def test_a_bad_configuration_is_a_usage_error(tmp_path: Path, text: str, words: str) -> None:
    (tmp_path / "pitch.toml").write_text(text)
    p = record(tmp_path)
    status, _out, err = run("validate", str(p))
    assert status == 2 and words in err and str(tmp_path / "pitch.toml") in err


def test_a_config_file_that_cannot_be_read_is_a_usage_error(tmp_path: Path) -> None:
    status, _, err = run("validate", "--config", str(tmp_path / "missing.toml"), str(SCORE_WRONG))
    assert status == 2 and "cannot read the configuration" in err


def test_a_bad_configuration_in_a_folder_below_stops_the_run(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "pitch.toml").write_text("nope = 1\n")
    record(sub)
    status, _, err = run("validate", "-o", str(tmp_path / "r.txt"), str(tmp_path))
    assert status == 2 and "unknown key 'nope'" in err and not (tmp_path / "r.txt").exists()


def test_house_rules_never_change_a_verdict_silently(tmp_path: Path) -> None:
    game = SAMPLES / "auction-full.yaml"
    data = game.read_text()
    assert "\nrules:" not in data
    (tmp_path / "pitch.toml").write_text('variant = "auction"\nrules = {target = 21}\n')
    p = tmp_path / "game.yaml"
    p.write_text(data)
    status, out, _ = run("validate", str(p))
    # The record is checked by its own rules (valid), and told that it doesn't name the house's.
    assert status == 0 and codes(out) == ["P304"]
    assert "set target 21; this record has" in out and "write `rules: {target: 21}`" in out
    assert run("validate", "--strict", str(p))[0] == 1
    p.write_text(data.replace("variant: auction", "variant: auction\nrules: {target: 21}", 1))
    status, out, _ = run("validate", str(p))
    assert "P304" not in out
    (tmp_path / "pitch.toml").write_text('variant = "auction-partners"\n')
    assert "are variant 'auction-partners'; this record names 'auction'" in run("validate", str(p))[1]


# --- output forms ---------------------------------------------------------------------


def test_show_source_puts_a_caret_under_the_column() -> None:
    _status, out, _ = run("validate", "--show-source", str(SCORE_WRONG))
    lines = out.splitlines()
    assert lines[0].startswith(f"{SCORE_WRONG}:26:26: error: C502")
    assert lines[1] == "    26 | " + SCORE_LINE
    assert lines[2] == "       | " + " " * 25 + "^"
    assert run("validate", "--format", "full", str(SCORE_WRONG))[1] == out


def test_show_source_escapes_the_line_and_skips_standard_input(tmp_path: Path) -> None:
    p = record(tmp_path, "  # \x1b[2J")
    _, out, _ = run("validate", "--show-source", str(p))
    assert "\x1b" not in out and "\\x1b[2J" in out
    _, out, _ = run("validate", "--show-source", "-", input=SCORE_WRONG.read_bytes())
    assert " | " not in out and "-:26:26: error: C502" in out


def test_an_unreadable_file_is_at_line_1_column_1(tmp_path: Path) -> None:
    _, out, _ = run("validate", str(tmp_path / "gone.yaml"))
    assert out.startswith(f"{tmp_path / 'gone.yaml'}:1:1: error: L101 ")


def test_junit_has_a_case_per_document_failed_when_invalid(tmp_path: Path) -> None:
    status, out, _ = run("validate", "--format", "junit", str(SCORE_WRONG), str(SAMPLES / "auction-full.yaml"),
                         str(tmp_path / "gone.yaml"))
    assert status == 3
    root = ET.fromstring(out)
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("3", "1", "1")
    suites = {s.get("name"): s for s in root}
    failure = suites[str(SCORE_WRONG)].find("testcase/failure")
    assert failure is not None and failure.get("type") == "C502" and ":26:26: error: C502" in (failure.text or "")
    assert suites[str(SAMPLES / "auction-full.yaml")].find("testcase/failure") is None
    assert suites[str(tmp_path / "gone.yaml")].find("testcase/error") is not None


def test_junit_keeps_control_characters_out_of_the_xml(tmp_path: Path) -> None:
    p = tmp_path / "bad\x01name.yaml"
    p.write_text("format: [")
    _, out, _ = run("validate", "--format", "junit", str(p))
    ET.fromstring(out)  # well-formed
    assert "\\x01" in out


def test_gitlab_code_quality_issues(tmp_path: Path) -> None:
    status, out, _ = run("validate", "--format", "gitlab", str(INVALID))
    issues = json.loads(out)
    assert status == 1 and len(issues) == 22
    for issue in issues:
        assert set(issue) == {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["severity"] in {"major", "minor"}
        assert set(issue["location"]) == {"path", "lines"} and issue["location"]["lines"]["begin"] >= 1
    assert len({i["fingerprint"] for i in issues}) == len(issues)  # GitLab keeps one issue per fingerprint
    c502 = next(i for i in issues if i["check_name"] == "C502")
    assert c502["location"] == {"path": str(SCORE_WRONG), "lines": {"begin": 26}}
    # The fingerprint doesn't move with the line: a comment added above keeps it.
    p = tmp_path / "x.yaml"
    p.write_text(SCORE_WRONG.read_text())
    first = json.loads(run("validate", "--format", "gitlab", str(p))[1])[0]["fingerprint"]
    p.write_text("# a comment\n" + SCORE_WRONG.read_text())
    assert json.loads(run("validate", "--format", "gitlab", str(p))[1])[0]["fingerprint"] == first
