"""Never replace an input, nor what the command did not write (issue 27, item 10).

- ``chart REC -o REC``, ``summarize REC -o REC``, ``merge PART -o PART``,
  ``fmt REC -o REC`` replaced the input with their output: every command with
  ``-o`` now refuses an output that is one of its inputs (by device and inode:
  another name of the same file too, and standard input redirected from it),
  exit 3, the input untouched.
- ``report -o DIR`` replaced an ``index.html`` or ``game-1.html`` it had not
  written, and a write that failed half way left the old index over a mix of
  new and old pages: it now replaces only the files its manifest lists
  (``record.owned``), puts the pages in place only once all are written, and
  removes the pages of an earlier run it no longer writes.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pitchcli.cli import main

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "samples" / "auction-full.yaml"
TOURNAMENT = ROOT / "samples" / "tournament"


def run(*args: object, input: bytes | None = None) -> Result:
    r = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def _snapshot(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


@pytest.fixture
def record(tmp_path: Path) -> Path:
    out = tmp_path / "game.yaml"
    shutil.copy(GAME, out)
    return out


@pytest.fixture
def part(tmp_path: Path, record: Path) -> Path:
    out = tmp_path / "part.json"
    assert run("summarize", "--partial", "-o", out, record).exit_code == 0
    return out


def _commands(record: Path, part: Path) -> dict[str, tuple[list[object], Path]]:
    """Each command with -o, its output one of its inputs."""
    other = record.parent / "other-name.yaml"
    os.link(record, other)
    return {
        "chart": (["chart", record, "-o", record], record),
        "summarize": (["summarize", record, "-o", record], record),
        "summarize --partial": (["summarize", "--partial", record, "-o", record], record),
        "summarize --jobs 2": (["summarize", "--jobs", "2", record, "-o", record], record),
        "summarize another name": (["summarize", record, "-o", other], record),
        "summarize ./name": (["summarize", record, "-o", record.parent / "." / record.name], record),
        "fmt -o": (["fmt", record, "-o", record], record),
        "fmt --to json -o": (["fmt", "--to", "json", record, "-o", record], record),
        "merge": (["merge", part, "-o", part], part),
        "merge --partial": (["merge", "--partial", part, "-o", part], part),
        "find": (["find", "--player", "Ann", record, "-o", record], record),
        "find --format paths": (["find", "--format", "paths", record, "-o", record], record),
        "convert": (["convert", "--to", "json", record, "-o", record], record),
        "convert another name": (["convert", record, "-o", other], record),
        "cat": (["cat", record, "-o", record], record),
    }


# Each command with -o, given the record's folder: -o names the record in it.
IN_A_FOLDER = {
    "chart": None,  # reads one file, named: no folder
    "summarize": ["summarize", "{dir}", "-o", "{rec}"],
    "summarize --partial": ["summarize", "--partial", "{dir}", "-o", "{rec}"],
    "summarize --jobs 2": ["summarize", "--jobs", "2", "{dir}", "-o", "{rec}"],
    "fmt -o": ["fmt", "{dir}", "-o", "{rec}"],
    "find": ["find", "--player", "Ann", "{dir}", "-o", "{rec}"],
    "convert": ["convert", "--to", "jsonl", "{dir}", "-o", "{rec}"],
    "cat": ["cat", "{dir}", "-o", "{rec}"],
}


@pytest.mark.parametrize("case", [k for k, v in IN_A_FOLDER.items() if v is not None])
@pytest.mark.parametrize("suffix", [".yaml", ".json", ".jsonl"])
def test_an_output_that_is_a_record_in_a_searched_folder_is_refused(tmp_path: Path, case: str,
                                                                   suffix: str) -> None:
    """``summarize DIR -o DIR/a.yaml`` would replace the record the walk
    reads (the walk leaves the output out, so nothing else would notice)."""
    folder = tmp_path / "games"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(GAME, folder / "first.yaml")
    victim = folder / "sub" / f"kept{suffix}"
    if suffix == ".yaml":
        shutil.copy(GAME, victim)
    else:
        assert run("convert", "--to", suffix[1:], GAME, "-o", victim).exit_code == 0
    before = _snapshot(victim)
    args = [a.format(dir=folder, rec=victim) for a in IN_A_FOLDER[case]]  # type: ignore[union-attr]
    r = run(*args)
    assert r.exit_code == 3, (case, r.output)
    assert f"it is one of the inputs (a record in {folder}, which is read)" in r.stderr, (case, r.stderr)
    assert _snapshot(victim) == before, case


def test_split_never_writes_over_an_input(tmp_path: Path) -> None:
    """``pitch split DIR -o DIR``: a game whose file is named by its id would
    be written over the record it was read from; nothing is written then."""
    folder = tmp_path / "games"
    folder.mkdir()
    text = GAME.read_text("utf-8")
    assert "\nid: ladder-r1-t1\n" in text
    victim = folder / "g1.yaml"
    victim.write_text(text.replace("\nid: ladder-r1-t1\n", "\nid: g1\n"), "utf-8")
    (folder / "g2.yaml").write_text(victim.read_text("utf-8").replace("id: g1", "id: g2"), "utf-8")
    before = {p.name: _snapshot(p) for p in folder.iterdir()}
    for args in (["split", folder, "-o", folder], ["split", victim, "-o", folder]):
        r = run(*args)
        assert r.exit_code == 3, r.output
        assert "g1.yaml: cannot write: it is one of the inputs" in r.stderr and "nothing written" in r.stderr
        assert {p.name: _snapshot(p) for p in folder.iterdir()} == before
    assert run("split", folder, "-o", tmp_path / "out").exit_code == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["g1.yaml", "g2.yaml"]


def test_an_output_that_is_an_input_is_refused(record: Path, part: Path) -> None:
    for case, (args, victim) in _commands(record, part).items():
        before = _snapshot(victim)
        r = run(*args)
        assert r.exit_code == 3, (case, r.output)
        assert "is one of the inputs" in r.stderr and r.stdout == "", (case, r.output)
        assert _snapshot(victim) == before, case


def test_standard_input_redirected_from_the_output_is_refused(record: Path) -> None:
    before = _snapshot(record)
    with open(record, "rb") as f:
        r = subprocess.run([sys.executable, "-m", "pitchcli", "summarize", "-", "-o", str(record)], stdin=f,
                           capture_output=True, text=True, timeout=120)
    assert r.returncode == 3 and "standard input" in r.stderr, r.stderr
    assert _snapshot(record) == before


def test_an_output_in_a_searched_folder_is_not_read_and_is_written(tmp_path: Path, record: Path) -> None:
    """Found while walking a folder, the output is not an input (issue 11):
    run again, ``summarize --partial -o DIR/part.json DIR`` gives the same."""
    out = tmp_path / "part.json"
    assert run("summarize", "--partial", "-o", out, tmp_path).exit_code == 0
    first = out.read_text()
    assert run("summarize", "--partial", "-o", out, tmp_path).exit_code == 0
    assert out.read_text() == first


def test_a_device_output_is_no_input(record: Path) -> None:
    assert run("summarize", record, "-o", os.devnull).exit_code == 0


# --- report ----------------------------------------------------------------------------


def test_report_does_not_replace_pages_it_did_not_write(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    for name in ("index.html", "ratings.html"):  # pages report writes at the top of the site
        (site / name).write_text("the user's own page\n")
        r = run("report", "-o", site, TOURNAMENT)
        assert r.exit_code == 3 and f"{site / name}: not written by pitch report" in r.stderr, r.output
        assert (site / name).read_text() == "the user's own page\n"
        assert sorted(p.name for p in site.iterdir()) == [name]  # nothing else written
        (site / name).unlink()


def test_report_replaces_its_own_pages_and_removes_those_it_no_longer_writes(tmp_path: Path) -> None:
    site = tmp_path / "site"
    assert run("report", "-o", site, TOURNAMENT).exit_code == 0
    many = {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    (site / "notes.txt").write_text("mine\n")
    assert run("report", "-o", site, GAME).exit_code == 0  # one game now
    left = {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
    assert "index.html" in left and len(many) > len(left)
    assert not any((site / gone).exists() for gone in many - left)  # the pages of the games no longer there
    assert (site / "notes.txt").read_text() == "mine\n"
    game = next(p for p in sorted(left) if p.endswith("game-1.html"))
    (site / game).write_text("edited by hand\n")
    r = run("report", "-o", site, GAME)
    assert r.exit_code == 3 and "changed since" in r.stderr


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (its path inside it) with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_failed_report_leaves_the_old_site_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pitchcli.record import write

    site = tmp_path / "site"
    assert run("report", "-o", site, GAME).exit_code == 0
    before = _files(site)
    calls = {"n": 0}
    real = write.Staged.flush

    def full_disk(self: write.Staged) -> None:
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError(28, "No space left on device")
        real(self)

    monkeypatch.setattr(write.Staged, "flush", full_disk)
    r = run("report", "-o", site, TOURNAMENT)
    assert r.exit_code == 3 and "No space left on device" in r.stderr, r.output
    assert _files(site) == before  # no temporary file left either
    monkeypatch.undo()
    assert run("report", "-o", site, TOURNAMENT).exit_code == 0  # and the folder is still report's own
    manifest = json.loads((site / ".pitch-report.json").read_text())
    assert set(manifest["files"]) == {p.relative_to(site).as_posix() for p in site.rglob("*.html")}
