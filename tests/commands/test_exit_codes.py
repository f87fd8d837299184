"""The exit-code contract (docs/hostile-input.md), one test per status per command.

    0  done: every record valid (and, for score --check / fmt --check, nothing to report)
    1  a record is invalid, or a check failed
    2  usage error: a missing argument, an unknown option, options that don't go together
    3  a file could not be read (or an output could not be written)

Commands without input files (simulate, schema, profiles, new) have only 0, 2
and, when they write a file, 3.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pitchcli.cli import main

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "samples" / "auction-full.yaml"
INVALID = ROOT / "samples-invalid" / "suit-not-followed.yaml"
CLAIM = ROOT / "samples-invalid" / "score-claim-wrong.yaml"  # valid play, one wrong claim


def run(*args: object, input: bytes | None = None) -> Result:
    r = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    return r


@pytest.fixture
def missing(tmp_path: Path) -> Path:
    return tmp_path / "no-such-file.yaml"


@pytest.fixture
def folder_file(tmp_path: Path) -> Path:
    """A path that exists but can't be read as a file: a folder named like a record
    (given as a record it is searched; so name a path under a regular file)."""
    (tmp_path / "plain").write_text("x")
    return tmp_path / "plain" / "inside.yaml"


@pytest.fixture
def partial(tmp_path: Path) -> Path:
    out = tmp_path / "valid.part.json"
    assert run("summarize", "--partial", "-o", out, VALID).exit_code == 0
    return out


@pytest.fixture
def invalid_partial(tmp_path: Path) -> Path:
    out = tmp_path / "invalid.part.json"  # (not VALID again: two parts may not count one file)
    assert run("summarize", "--partial", "-o", out, INVALID).exit_code == 1
    return out


def _no_dir(tmp_path: Path) -> Path:
    return tmp_path / "no-such-folder" / "out.yaml"


# --------------------------------------------------------------------------- validate


def test_validate_0_all_valid() -> None:
    assert run("validate", VALID).exit_code == 0


def test_validate_1_some_invalid() -> None:
    r = run("validate", VALID, INVALID)
    assert r.exit_code == 1 and f"{INVALID}:" in r.stdout


def test_validate_2_usage() -> None:
    assert run("validate").exit_code == 2
    assert run("validate", "--format", "xml", VALID).exit_code == 2


def test_validate_3_unreadable(missing: Path) -> None:
    r = run("validate", VALID, INVALID, missing)
    assert r.exit_code == 3  # 3 wins over 1: a file was not even read
    assert f"{missing}:1:1: error: L101" in r.stdout


def test_validate_3_not_a_file(folder_file: Path) -> None:
    assert run("validate", folder_file).exit_code == 3


# --------------------------------------------------------------------------- score


def test_score_0() -> None:
    assert run("score", VALID).exit_code == 0
    assert run("score", CLAIM).exit_code == 0  # a wrong claim is shown, not fatal ...


def test_score_1() -> None:
    assert run("score", INVALID).exit_code == 1
    assert run("score", "--check", CLAIM).exit_code == 1  # ... unless --check
    assert run("score", "--hand", "99", VALID).exit_code == 1


def test_score_2() -> None:
    assert run("score").exit_code == 2
    assert run("score", "--hand", "0", VALID).exit_code == 2


def test_score_3(missing: Path) -> None:
    assert run("score", VALID, missing).exit_code == 3


# --------------------------------------------------------------------------- replay


def test_replay_0() -> None:
    assert run("replay", VALID).exit_code == 0


def test_replay_1() -> None:
    assert run("replay", INVALID).exit_code == 1
    assert run("replay", "--hand", "99", VALID).exit_code == 1


def test_replay_2() -> None:
    assert run("replay").exit_code == 2
    assert run("replay", VALID, INVALID).exit_code == 2  # one game at a time


def test_replay_3(missing: Path) -> None:
    assert run("replay", missing).exit_code == 3


# --------------------------------------------------------------------------- fmt


def test_fmt_0(tmp_path: Path) -> None:
    assert run("fmt", VALID).exit_code == 0
    out = tmp_path / "out.json"
    assert run("fmt", "-o", out, VALID).exit_code == 0 and out.exists()


def test_fmt_1(tmp_path: Path) -> None:
    assert run("fmt", INVALID).exit_code == 1
    messy = tmp_path / "messy.yaml"
    messy.write_text(VALID.read_text().replace("dealer: ", "dealer:    "))
    assert run("fmt", "--check", messy).exit_code == 1


def test_fmt_2(tmp_path: Path) -> None:
    assert run("fmt").exit_code == 2
    assert run("fmt", "--check", "--in-place", VALID).exit_code == 2
    assert run("fmt", "--in-place", "-").exit_code == 2


def test_fmt_3(missing: Path) -> None:
    assert run("fmt", VALID, missing).exit_code == 3


# --------------------------------------------------------------------------- summarize


def test_summarize_0() -> None:
    assert run("summarize", VALID).exit_code == 0
    assert run("summarize", "--allow-invalid", VALID, INVALID).exit_code == 0


def test_summarize_1() -> None:
    for fmt in ("table", "json", "csv", "markdown"):
        r = run("summarize", "--format", fmt, VALID, INVALID)
        assert r.exit_code == 1, fmt
        assert f"{INVALID}:" in r.output, fmt  # the problem is shown, located


def test_summarize_2() -> None:
    assert run("summarize").exit_code == 2
    assert run("summarize", "--format", "csv", "--games", VALID).exit_code == 2


def test_summarize_3(missing: Path) -> None:
    assert run("summarize", VALID, missing).exit_code == 3


# --------------------------------------------------------------------------- merge


def test_merge_0(partial: Path) -> None:
    assert run("merge", partial, partial).exit_code == 0


def test_merge_1(partial: Path, invalid_partial: Path) -> None:
    r = run("merge", partial, invalid_partial)
    assert r.exit_code == 1 and f"{INVALID}:" in r.output


def test_merge_2() -> None:
    assert run("merge").exit_code == 2


def test_merge_3(tmp_path: Path, partial: Path, missing: Path) -> None:
    assert run("merge", partial, missing).exit_code == 3
    for name, text in (("not-json.json", "{"), ("a-record.json", VALID.read_text()),
                       ("wrong-version.json", json.dumps({"format": "pitch-summary-partial", "version": 99})),
                       ("wrong-shape.json", json.dumps({**json.loads(partial.read_text()), "counts": []}))):
        bad = tmp_path / name
        bad.write_text(text)
        r = run("merge", partial, bad)
        assert r.exit_code == 3, name
        assert r.stderr.startswith(f"{bad}: "), name


# --------------------------------------------------------------------------- commands without inputs


def test_simulate_0_and_2() -> None:
    assert run("simulate", "--variant", "auction", "--seed", "1").exit_code == 0
    assert run("simulate").exit_code == 2
    assert run("simulate", "--variant", "auction-partners", "--players", "3").exit_code == 2


def test_schema_0_and_2() -> None:
    assert run("schema").exit_code == 0
    assert run("schema", "--nope").exit_code == 2


def test_profiles_0_and_2() -> None:
    assert run("profiles").exit_code == 0
    assert run("profiles", "auction").exit_code == 0
    assert run("profiles", "no-such-profile").exit_code == 2


def test_new_0_and_2(tmp_path: Path) -> None:
    out = tmp_path / "new.yaml"
    assert run("new", "--variant", "auction", "--players", "Ann,Ben,Cal", "-o", out).exit_code == 0
    assert run("new", "--variant", "auction", "--players", "Ann,Ben,Cal", "-o", out).exit_code == 2  # exists
    assert run("new", "--variant", "auction", "--players", "Ann").exit_code == 2


# --------------------------------------------------------------------------- 3: an output that can't be written


@pytest.mark.parametrize("args", [
    ["simulate", "--variant", "auction", "--seed", "1"],
    ["fmt", str(VALID)],
    ["summarize", str(VALID)],
    ["summarize", "--partial", str(VALID)],
    ["new", "--variant", "auction", "--players", "Ann,Ben,Cal"],
])
def test_3_output_cannot_be_written(tmp_path: Path, args: list[str]) -> None:
    # (was a FileNotFoundError traceback from the temporary file of the atomic write)
    target = _no_dir(tmp_path)
    r = run(*args, "-o", target)
    assert r.exit_code == 3
    assert r.stderr.strip().endswith(f"{target}: cannot write: No such file or directory")
    assert not target.parent.exists()


def test_merge_3_output_cannot_be_written(tmp_path: Path, partial: Path) -> None:
    target = _no_dir(tmp_path)
    r = run("merge", partial, "-o", target)
    assert r.exit_code == 3 and f"{target}: cannot write" in r.stderr
