"""Lose nothing: no command modifies its inputs, and `fmt --in-place`, the one
command that rewrites a file, does it atomically.

- Every command, on valid, invalid and unreadable inputs, leaves each input's
  bytes and modification time as they were.
- `fmt --in-place` leaves an invalid file and an already canonical one alone
  (bytes and mtime), and rewrites a valid one in one step: an interruption at
  any point (the write, the fsync, the rename; an error or Ctrl-C) leaves the
  original intact and no temporary file behind.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pitchcli.cli import main
from pitchcli.record import write

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def run(*args: object) -> Result:
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in r.output
    return r


def state(path: Path) -> tuple[bytes, int, int]:
    st = path.stat()
    return path.read_bytes(), st.st_mtime_ns, st.st_mode


@pytest.fixture
def inputs(tmp_path: Path) -> dict[str, Path]:
    """A folder of inputs: valid YAML and JSON Lines, a non-canonical valid
    record, invalid ones, a broken one, a non-UTF-8 one and an empty one."""
    d = tmp_path / "in"
    d.mkdir()
    files = {
        "valid": d / "valid.yaml",
        "messy": d / "messy.yaml",
        "invalid": d / "invalid.yaml",
        "broken": d / "broken.json",
        "latin1": d / "latin1.yaml",
        "empty": d / "empty.yaml",
        "stream": d / "stream.jsonl",
    }
    shutil.copy(SAMPLES / "auction-full.yaml", files["valid"])
    files["messy"].write_text((SAMPLES / "auction-play.yaml").read_text().replace("dealer: ", "dealer:   "))
    shutil.copy(SAMPLES.parent / "samples-invalid" / "suit-not-followed.yaml", files["invalid"])
    shutil.copy(SAMPLES.parent / "samples-invalid" / "truncated.json", files["broken"])
    files["latin1"].write_bytes("format: pitch-record/1\nnotes: caf\xe9\n".encode("latin-1"))
    files["empty"].write_bytes(b"")
    out = run("simulate", "--variant", "ten-point", "--games", "3", "--seed", "5", "--format", "jsonl")
    files["stream"].write_text(out.stdout)
    # An old mtime, so that a rewrite within the same clock tick would still show.
    for p in files.values():
        os.utime(p, ns=(1_000_000_000_000_000_000, 1_000_000_000_000_000_000))
    return files


def _commands(files: dict[str, Path], tmp_path: Path) -> list[list[object]]:
    every = list(files.values())
    folder = every[0].parent
    part = tmp_path / "part.json"
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    cmds: list[list[object]] = [
        ["validate", *every], ["validate", "--format", "json", folder], ["validate", "--strict", folder],
        ["score", *every], ["score", "--check", "--explain", *every], ["score", "--format", "csv", folder],
        ["fmt", *every], ["fmt", "--check", *every], ["fmt", "--fill", files["valid"]],
        ["fmt", "--to", "json", files["valid"], files["stream"]], ["fmt", "-o", out / "all.yaml", folder],
        ["summarize", folder], ["summarize", "--format", "json", *every], ["summarize", "--jobs", "2", folder],
        ["summarize", "--partial", "-o", part, folder],
    ]
    cmds += [["replay", p] for p in every]
    cmds += [["replay", "--format", "json", p] for p in every]
    return cmds


def test_no_command_modifies_its_inputs(inputs: dict[str, Path], tmp_path: Path) -> None:
    before = {name: state(p) for name, p in inputs.items()}
    for cmd in _commands(inputs, tmp_path):
        r = run(*cmd)
        assert r.exit_code in (0, 1, 3), (cmd, r.output)
        after = {name: state(p) for name, p in inputs.items()}
        assert after == before, f"pitch {' '.join(map(str, cmd))} changed " + \
            ", ".join(n for n in before if after[n] != before[n])
    # merge reads partial summaries: they stay as they were too
    part = tmp_path / "part.json"
    saved = state(part)
    for cmd in (["merge", part, part], ["merge", "--partial", part], ["merge", "--format", "csv", part]):
        assert run(*cmd).exit_code in (0, 1)
        assert state(part) == saved
    assert sorted(p.name for p in inputs["valid"].parent.iterdir()) == sorted(p.name for p in inputs.values())


def test_fmt_in_place_leaves_invalid_and_canonical_files_alone(inputs: dict[str, Path], tmp_path: Path) -> None:
    canonical = tmp_path / "canonical.yaml"
    canonical.write_text(run("fmt", inputs["valid"]).stdout)
    os.utime(canonical, ns=(10**18, 10**18))
    untouched = [inputs[n] for n in ("invalid", "broken", "latin1", "empty")] + [canonical]
    before = [state(p) for p in untouched]
    r = run("fmt", "--in-place", *untouched, inputs["messy"])
    assert r.exit_code == 1  # some inputs are invalid ...
    assert [state(p) for p in untouched] == before
    # ... and the valid, non-canonical one was rewritten, still valid, now canonical
    assert inputs["messy"].read_text() != (SAMPLES / "auction-play.yaml").read_text().replace("dealer: ", "dealer:   ")
    assert run("validate", inputs["messy"]).exit_code == 0
    assert run("fmt", "--check", inputs["messy"]).exit_code == 0
    assert not [p for p in inputs["valid"].parent.iterdir() if p.name.endswith(".tmp")]


# --------------------------------------------------------------------------- interrupted writes


class Interrupted(Exception):
    pass


def _half_writer(real_fdopen):  # type: ignore[no-untyped-def]
    """os.fdopen whose file writes some of the text, then fails (a full disk)."""
    def fdopen(fd, *args, **kwargs):  # type: ignore[no-untyped-def]
        f = real_fdopen(fd, *args, **kwargs)
        real_write = f.write

        def write_then_fail(text: str) -> int:
            real_write(text[: len(text) // 2])
            f.flush()
            raise OSError(errno.ENOSPC, "No space left on device")

        f.write = write_then_fail
        return f
    return fdopen


@pytest.mark.parametrize("where", ["write", "fsync", "replace", "replace-ctrl-c", "chmod"])
def test_fmt_in_place_interrupted_leaves_the_original(inputs: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
                                                      where: str) -> None:
    target = inputs["messy"]
    before = state(target)
    folder = target.parent
    listing = sorted(p.name for p in folder.iterdir())
    if where == "write":
        monkeypatch.setattr(write.os, "fdopen", _half_writer(os.fdopen))
    elif where == "fsync":
        def fsync(fd: int) -> None:
            raise OSError(errno.EIO, "Input/output error")
        monkeypatch.setattr(write.os, "fsync", fsync)
    elif where == "chmod":
        def chmod(*a: object, **k: object) -> None:
            raise OSError(errno.EPERM, "Operation not permitted")
        monkeypatch.setattr(write.os, "fchmod", chmod)  # the new file gets the old one's mode
    else:
        def replace(src: object, dst: object) -> None:
            # The temporary file is complete here: only the rename is missing.
            assert Path(str(src)).read_text() == run("fmt", target).stdout
            if where == "replace-ctrl-c":
                raise KeyboardInterrupt
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        monkeypatch.setattr(write.os, "replace", replace)
    r = run("fmt", "--in-place", target)
    if where == "replace-ctrl-c":
        assert r.exit_code == 1 and "Aborted" in r.output  # Click's answer to Ctrl-C
    else:
        assert r.exit_code == 3, r.output
        assert f"{target}: cannot write: " in r.stderr
    assert state(target) == before  # the original, byte for byte, and its mtime
    assert sorted(p.name for p in folder.iterdir()) == listing  # no temporary file left


def test_fmt_in_place_goes_on_after_a_file_it_cannot_write(inputs: dict[str, Path], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = inputs["messy"], tmp_path / "messy2.yaml"
    shutil.copy(first, second)
    before = state(second)
    real_replace = os.replace

    def replace(src: str, dst: str) -> None:
        if Path(dst) == second:
            raise OSError(errno.EACCES, "Permission denied")
        real_replace(src, dst)

    monkeypatch.setattr(write.os, "replace", replace)
    r = run("fmt", "--in-place", first, second)
    assert r.exit_code == 3
    assert run("fmt", "--check", first).exit_code == 0  # rewritten
    assert state(second) == before  # left whole
    assert not [p for p in tmp_path.rglob("*.tmp")]


@pytest.mark.parametrize("args", [
    ["simulate", "--variant", "auction", "--seed", "2"],
    ["summarize", str(SAMPLES / "tournament")],
])
def test_an_interrupted_output_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  args: list[str]) -> None:
    out = tmp_path / "out.txt"
    out.write_text("the previous output\n")
    monkeypatch.setattr(write.os, "fdopen", _half_writer(os.fdopen))
    r = run(*args, "-o", out)
    assert r.exit_code == 3 and f"{out}: cannot write: No space left on device" in r.stderr
    assert out.read_text() == "the previous output\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_the_partial_summary_written_is_whole_json(tmp_path: Path) -> None:
    out = tmp_path / "part.json"
    assert run("summarize", "--partial", "-o", out, SAMPLES / "tournament").exit_code == 0
    assert json.loads(out.read_text())["format"] == "pitch-summary-partial"
