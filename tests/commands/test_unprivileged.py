"""Exit codes as a user who is not root (issue 27, item 14).

An input the user may not read is exit 3 with ``L101`` (it was Click's usage
error, exit 2: ``Path 'x' is not readable``), and ``-o`` over a file the user
may not write is exit 3 (it was ``File 'x' is not writable``, exit 2), for
every command. As root, ``access()`` says yes to both, so these run the
command as ``nobody`` (``support.unprivileged``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.unprivileged import pitch_unprivileged, shared_folder

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "samples" / "auction-full.yaml"

# Every command that reads records named on the command line.
READERS = [["validate"], ["score"], ["replay"], ["solve"], ["fmt"], ["fmt", "--check"], ["summarize"],
           ["summarize", "--jobs", "2"], ["ratings"], ["chart"], ["report", "-o", "site"]]


@pytest.fixture
def folder() -> Path:  # type: ignore[misc]
    with shared_folder() as f:
        shutil.copy(VALID, f / "game.yaml")
        (f / "game.yaml").chmod(0o644)
        yield f


@pytest.mark.parametrize("command", READERS, ids=" ".join)
def test_an_unreadable_input_is_exit_3_with_l101(folder: Path, command: list[str]) -> None:
    (folder / "secret.yaml").write_bytes(VALID.read_bytes())
    (folder / "secret.yaml").chmod(0o000)
    r = pitch_unprivileged(*command, "secret.yaml", cwd=folder)
    assert r.returncode == 3, (r.returncode, r.stderr)
    assert "Usage:" not in r.stderr and "Traceback" not in r.stderr + r.stdout
    assert "L101" in r.stdout + r.stderr


def test_an_unreadable_part_is_exit_3(folder: Path) -> None:
    part = folder / "part.json"
    assert pitch_unprivileged("summarize", "--partial", "-o", part.name, "game.yaml", cwd=folder).returncode == 0
    part.chmod(0o000)
    r = pitch_unprivileged("merge", part.name, cwd=folder)
    assert r.returncode == 3 and "Usage:" not in r.stderr and "Permission denied" in r.stderr, r.stderr


# Every command with -o, over a file this user may not write.
WRITERS = [["fmt", "game.yaml"], ["summarize", "game.yaml"], ["summarize", "--partial", "game.yaml"],
           ["chart", "game.yaml"], ["simulate", "--variant", "auction"],
           ["new", "--variant", "auction", "--players", "A,B", "--force"]]


@pytest.mark.parametrize("command", WRITERS, ids=" ".join)
def test_o_over_a_read_only_file_is_exit_3(folder: Path, command: list[str]) -> None:
    out = folder / "out.txt"
    out.write_text("keep me\n")
    out.chmod(0o444)
    r = pitch_unprivileged(*command, "-o", out.name, cwd=folder)
    assert r.returncode == 3, (r.returncode, r.stderr)
    assert "Usage:" not in r.stderr and "cannot write" in r.stderr
    assert out.read_text() == "keep me\n"


def test_merge_o_over_a_read_only_file_is_exit_3(folder: Path) -> None:
    assert pitch_unprivileged("summarize", "--partial", "-o", "part.json", "game.yaml", cwd=folder).returncode == 0
    out = folder / "out.txt"
    out.write_text("keep me\n")
    out.chmod(0o444)
    r = pitch_unprivileged("merge", "part.json", "-o", out.name, cwd=folder)
    assert r.returncode == 3 and "Usage:" not in r.stderr and out.read_text() == "keep me\n", r.stderr


@pytest.mark.parametrize("command", [["chart", "game.yaml"], ["summarize", "game.yaml"], ["fmt", "game.yaml"]],
                         ids=" ".join)
def test_o_naming_a_folder_is_exit_3(folder: Path, command: list[str]) -> None:
    (folder / "sub").mkdir()
    r = pitch_unprivileged(*command, "-o", "sub", cwd=folder)
    assert r.returncode == 3 and "Usage:" not in r.stderr, (r.returncode, r.stderr)


def test_report_into_a_folder_this_user_may_not_write_is_exit_3(folder: Path) -> None:
    (folder / "site").mkdir()
    (folder / "site").chmod(0o555)
    r = pitch_unprivileged("report", "game.yaml", "-o", "site", cwd=folder)
    assert r.returncode == 3 and "Usage:" not in r.stderr and "Traceback" not in r.stderr, r.stderr
