"""Each input read once, and a warning never fails a run (issue 27, items 7 and 9).

- The same games reached twice from the command line — a folder and a folder
  inside it, a file named twice or by two names, a hard link, a link to a
  file — were counted (and rated) twice. The one walk every command uses
  (``pipeline.walk.Seen``) now reads a file once, by the first name the
  command reads it by, and skips the others with a warning (``L113``).
- What a walk skips (a FIFO, a loop) is a warning: ``ratings`` exited 1 on it
  and ``summarize --format csv`` printed it as ``error:``.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pitchcli.cli import main

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "samples" / "auction-full.yaml"
OTHER = ROOT / "samples" / "auction-play.yaml"


def run(*args: object) -> Result:
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """top/a.yaml, top/sub/b.yaml: two games."""
    (tmp_path / "top" / "sub").mkdir(parents=True)
    shutil.copy(GAME, tmp_path / "top" / "a.yaml")
    shutil.copy(OTHER, tmp_path / "top" / "sub" / "b.yaml")
    return tmp_path / "top"


def _ways_in(tree: Path) -> dict[str, list[str]]:
    """Command lines that reach the same two games more than once."""
    (tree / "hard.yaml").hardlink_to(tree / "a.yaml")
    os.symlink("a.yaml", tree / "link.yaml")
    return {
        "a folder and a folder in it": [str(tree), str(tree / "sub")],
        "a folder in it first": [str(tree / "sub"), str(tree)],
        "a file and its folder": [str(tree / "a.yaml"), str(tree)],
        "a file named twice": [str(tree), str(tree / "a.yaml"), str(tree / "a.yaml")],
        "two names of one file": [str(tree), str(tree / "." / "a.yaml")],
        "a hard link and a link": [str(tree)],
    }


def _games(paths: list[str]) -> int:
    r = run("summarize", "--partial", *paths)
    return json.loads(r.stdout)["counts"]["documents"]


def test_the_same_games_are_counted_once(tree: Path) -> None:
    for case, paths in _ways_in(tree).items():
        assert _games(paths) == 2, case
        partial = json.loads(run("summarize", "--partial", "--jobs", "2", *paths).stdout)
        assert partial["counts"]["documents"] == 2, case
        r = run("validate", *paths)
        assert r.exit_code == 0 and "2 documents in 2 files" in r.stdout and "L113" in r.stdout, (case, r.stdout)
        rated = json.loads(run("ratings", "--format", "json", *paths).stdout)["games"]["rated"]
        assert rated == 2, case


def test_report_and_score_count_once(tree: Path, tmp_path: Path) -> None:
    paths = [str(tree), str(tree / "sub"), str(tree / "a.yaml")]
    r = run("report", "-o", tmp_path / "site", *paths)
    assert r.exit_code == 0 and "(2 games" in r.stderr, r.stderr
    r = run("score", "--format", "json", *paths)
    scored = [d for d in json.loads(r.stdout)["documents"] if d["valid"]]
    assert r.exit_code == 0 and len(scored) == 2


def test_the_warning_names_the_first_way_in(tree: Path) -> None:
    r = run("validate", tree / "a.yaml", tree)
    assert f"{tree / 'a.yaml'}:1:1: warning: L113 skipped: named twice, already read" in r.stdout
    os.symlink("a.yaml", tree / "link.yaml")
    r = run("validate", tree)
    assert f"{tree / 'link.yaml'}:1:1: warning: L113 skipped: the same file as {tree / 'a.yaml'}" in r.stdout


def test_stdin_and_fifos_named_are_read_as_given(tree: Path) -> None:
    """Standard input is no file to compare: named twice, it is read twice (the
    second time empty), as before."""
    r = CliRunner().invoke(main, ["validate", "-", str(tree / "a.yaml")], input=GAME.read_bytes())
    assert "2 documents" in r.stdout


# --- item 9: a warning alone never fails a run ---------------------------------------


@pytest.fixture
def with_fifo(tree: Path) -> Path:
    os.mkfifo(tree / "pipe.yaml")
    return tree


def test_ratings_with_only_a_skipped_fifo_is_exit_0(with_fifo: Path) -> None:
    r = run("ratings", with_fifo)
    assert r.exit_code == 0, r.output
    assert "warning: L113" in r.stderr and "invalid" not in r.stdout
    assert json.loads(run("ratings", "--format", "json", with_fifo).stdout)["games"]["skipped"] == 1


@pytest.mark.parametrize("fmt", ["csv", "table", "markdown"])
def test_summarize_shows_a_skipped_fifo_as_a_warning(with_fifo: Path, fmt: str) -> None:
    r = run("summarize", "--format", fmt, with_fifo)
    assert r.exit_code == 0
    assert "warning: L113" in r.output and "error: L113" not in r.output


def test_every_reader_exits_0_on_a_folder_whose_only_problem_is_a_warning(with_fifo: Path, tmp_path: Path) -> None:
    for args in (["validate"], ["summarize"], ["ratings"], ["score"], ["fmt", "--check"],
                 ["report", "-o", str(tmp_path / "site")]):
        (with_fifo / "a.yaml").write_text(run("fmt", GAME).stdout)  # canonical, for fmt --check
        (with_fifo / "sub" / "b.yaml").write_text(run("fmt", OTHER).stdout)
        r = run(*args, with_fifo)
        assert r.exit_code == 0, (args, r.output)
        r = run(*args, "--strict", with_fifo) if args == ["validate"] else None
        assert r is None or r.exit_code == 1
