"""On a terminal only: progress bars and colour, seen on a pseudo-terminal (pty),
and nothing of either in a pipe or a file."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from pitchcli.cli import main
from pitchcli.progress import Progress
from pitchcli.render import style

ROOT = Path(__file__).resolve().parents[2]
INVALID = ROOT / "samples-invalid"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def on_pty(args: list[str], env: dict[str, str] | None = None) -> str:
    """Run ``python -m pitchcli ARGS`` with stdout and stderr on a pseudo-terminal;
    everything it wrote there."""
    master, slave = pty.openpty()
    full_env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    full_env.update({"TERM": "xterm", **(env or {})})
    proc = subprocess.Popen([sys.executable, "-m", "pitchcli", *args], stdin=subprocess.DEVNULL, stdout=slave,
                            stderr=slave, env=full_env, cwd=ROOT)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    proc.wait(timeout=120)
    return b"".join(chunks).decode("utf-8", "replace")


def piped(args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    return subprocess.run([sys.executable, "-m", "pitchcli", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120, stdin=subprocess.DEVNULL)


def test_simulate_shows_a_bar_on_a_terminal_and_nothing_in_a_pipe(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    seen = on_pty(["simulate", "--variant", "auction", "--games", "12", "--seed", "3", "--format", "jsonl",
                   "-o", str(out)])
    last = re.findall(r"simulate: [^\r\n]*", seen)[-1]  # the bar's final state
    assert "simulate: [########################] 100%" in last, seen[-500:]
    assert "12/12 games" in last and "/s)" in last and "done in" in last
    assert len(out.read_text().splitlines()) == 12
    r = piped(["simulate", "--variant", "auction", "--games", "12", "--seed", "3", "--format", "jsonl", "-o",
               str(out)])
    assert r.returncode == 0 and r.stderr == ""


def test_summarize_bar_has_files_and_bytes(tmp_path: Path) -> None:
    folder = ROOT / "samples" / "tournament"
    files = sorted(folder.rglob("*.yaml"))
    size = sum(f.stat().st_size for f in files)
    seen = on_pty(["summarize", "--no-games", str(folder)])
    last = re.findall(r"summarize: [^\r\n]*", seen)[-1]  # the bar's final state
    assert f"{len(files)}/{len(files)} files" in last, seen[-500:]
    assert "100%" in last and "documents" in last and "done in" in last
    kb = f"{size / 1000:,.1f} KB"
    assert f"{kb}/{kb}" in last
    r = piped(["summarize", "--no-games", str(folder)])
    assert "summarize:" not in r.stderr


def test_the_bar_reports_time_left_while_running() -> None:
    p = Progress(True, label="simulate", item="games", total_items=200)
    p.start = 0.0
    p.done = 50
    line = p.line(10.0)  # 50 games in 10 s: 150 left at 5/s
    assert line == "simulate: [######..................]  25% 50/200 games (5/s) 0:30 left"
    p = Progress(True, total_bytes=4_000_000, total_files=4)
    p.start, p.done, p.bytes, p.files = 0.0, 30, 1_000_000, 1
    assert p.line(2.0) == ("summarize: [######..................]  25% 1/4 files 1.0 MB/4.0 MB "
                           "30 documents (15/s) 0:06 left")
    unknown = Progress(True)
    unknown.start, unknown.done = 0.0, 7
    assert unknown.line(1.0) == "summarize: 7 documents (7/s)"  # no total: no bar, no time left


def test_colour_only_on_a_terminal() -> None:
    bad = str(INVALID / "suit-not-followed.yaml")
    coloured = on_pty(["validate", bad])
    assert "\x1b[" in coloured
    plain = ANSI.sub("", coloured).replace("\r\n", "\n")
    assert f"{bad}:22:22: error: R407 [AP-PLAY-2]" in plain
    assert "\x1b[" not in on_pty(["validate", bad], env={"NO_COLOR": "1"})
    assert "\x1b[" not in on_pty(["--color", "never", "validate", bad])
    assert "\x1b[" not in piped(["validate", bad]).stdout
    assert "\x1b[" in piped(["--color", "always", "validate", bad]).stdout


def test_colour_marks_errors_warnings_codes_made_and_set() -> None:
    try:
        r = CliRunner().invoke(main, ["--color", "always", "validate", str(INVALID / "suit-not-followed.yaml")])
        first = r.stdout.splitlines()[0]
        assert style.paint("error", "error:") in first and style.paint("code", "R407") in first
        score = CliRunner().invoke(main, ["--color", "always", "score", str(ROOT / "samples" / "auction-full.yaml")])
        assert style.paint("set", "set back") in score.stdout or style.paint("made", "made") in score.stdout
        plain = CliRunner().invoke(main, ["validate", str(INVALID / "suit-not-followed.yaml")])
        assert "\x1b[" not in plain.stdout  # auto, and CliRunner's output is not a terminal
    finally:
        style.enable(False)


def test_summarize_mixed_absolute_and_relative_names() -> None:
    r = CliRunner().invoke(main, ["summarize", str(ROOT / "samples" / "auction-full.yaml"),
                                  os.path.relpath(ROOT / "samples" / "auction-play.yaml")])
    assert r.exit_code == 0, r.output
