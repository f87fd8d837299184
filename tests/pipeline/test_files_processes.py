"""Lose nothing, trust nothing: files and processes (issue 11, docs/hostile-input.md).

- Writes: ``-o`` never replaces what is not a regular file (a FIFO gets the
  output, a link to a device stays a link), writes through a symbolic link;
  ``fmt --in-place`` writes through links, keeps mode, owner and group, refuses
  a read-only file and a hard-linked one; 255-byte file names can be written.
- Reads: ``fmt`` and ``merge`` read through one bounded reader (``/dev/zero``,
  ``yes |`` end in a located error, in bounded memory).
- Folder walks: a FIFO in a folder is skipped with L113 (named, it is read),
  an unreadable folder is L101 (exit 3), a linked folder is followed once.
- Processes: a dead ``summarize --jobs`` worker is exit 3, SIGINT/SIGTERM end
  everything quietly with 130/143, a broken pipe with 141, an output that
  can't be written (``/dev/full``, a closed stdout) with 3 and one line.

A test that could hang on a regression (a FIFO opened with no writer, a
worker lost) runs under a timeout: ``alarm`` in-process, ``timeout=`` for a
child process, which is always killed at the end.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.fuzz_strategies import adversarial_streams, within
from support.processes import children, state

from pitchcli.cli import main
from pitchcli.pipeline import pieces as piecing
from pitchcli.pipeline.check import check_source
from pitchcli.record import read
from pitchcli.render.summary import write_report
from pitchcli.views import summarize as summarizing
from pitchcli.views.summary import Summary

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
VALID = SAMPLES / "auction-full.yaml"
HANG = 60  # seconds: a does-not-hang guard, not a speed test
IS_ROOT = os.geteuid() == 0


def run(*args: object) -> Result:
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in r.output, r.output
    return r


def pitch(*args: object, **kw: object) -> subprocess.Popen[bytes]:
    """``pitch ARGS`` in a child process."""
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.Popen([sys.executable, "-m", "pitchcli", *map(str, args)], **kw)  # type: ignore[call-overload]


def finish(p: subprocess.Popen[bytes], timeout: int = HANG) -> tuple[int, bytes, bytes]:
    try:
        out, err = p.communicate(timeout=timeout)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return p.returncode, out or b"", err or b""


def messy(tmp_path: Path, name: str = "messy.yaml") -> Path:
    f = tmp_path / name
    f.write_text(VALID.read_text().replace("dealer: ", "dealer:   "))
    return f


def canonical_text() -> str:
    return run("fmt", VALID).stdout


# --- writes that destroy what was there ---------------------------------------------------


def test_o_into_a_fifo_writes_to_its_reader_and_keeps_the_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    try:
        with within(HANG):
            r = run("fmt", VALID, "-o", fifo)
        _, got, _ = finish(reader)
    finally:
        if reader.poll() is None:
            reader.kill()
            reader.wait()
    assert r.exit_code == 0, r.output
    assert stat.S_ISFIFO(fifo.lstat().st_mode)  # not replaced by a regular file
    assert got.decode() == canonical_text()


def test_o_through_a_link_to_a_device_writes_the_device(tmp_path: Path) -> None:
    link = tmp_path / "null"
    link.symlink_to("/dev/null")
    r = run("summarize", SAMPLES / "tournament", "-o", link)
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and os.readlink(link) == "/dev/null"
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["null"]  # no temporary file left


def test_o_through_a_symlink_replaces_its_target(tmp_path: Path) -> None:
    target = tmp_path / "real.yaml"
    target.write_text("old\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(target.name)
    assert run("fmt", VALID, "-o", link).exit_code == 0
    assert link.is_symlink() and target.read_text() == canonical_text()


def test_fmt_in_place_writes_through_a_symlink(tmp_path: Path) -> None:
    target = messy(tmp_path)
    link = tmp_path / "link.yaml"
    link.symlink_to(target.name)
    r = run("fmt", "--in-place", link)
    assert r.exit_code == 0, r.output
    assert link.is_symlink() and target.read_text() == canonical_text()


def test_fmt_in_place_refuses_a_hard_linked_file(tmp_path: Path) -> None:
    target = messy(tmp_path)
    other = tmp_path / "other.yaml"
    os.link(target, other)
    before = target.read_bytes()
    r = run("fmt", "--in-place", target)
    assert r.exit_code == 3 and "hard links" in r.stderr
    assert target.read_bytes() == before and os.stat(target).st_nlink == 2
    assert os.path.samefile(target, other)


def test_fmt_in_place_keeps_mode_owner_and_group(tmp_path: Path) -> None:
    target = messy(tmp_path)
    os.chmod(target, 0o2751)  # setgid, and an unusual mode
    if IS_ROOT:
        os.chown(target, 4321, 4322)
        os.chmod(target, 0o6751)  # setuid and setgid (chown cleared them)
    before = os.stat(target)
    r = run("fmt", "--in-place", target)
    assert r.exit_code == 0, r.output
    after = os.stat(target)
    assert target.read_text() == canonical_text()
    assert stat.S_IMODE(after.st_mode) == stat.S_IMODE(before.st_mode)
    assert (after.st_uid, after.st_gid) == (before.st_uid, before.st_gid)


def test_a_read_only_file_is_refused(tmp_path: Path) -> None:
    target = messy(tmp_path)
    os.chmod(target, 0o444)
    before = target.read_bytes()
    r = run("fmt", "--in-place", target)
    assert r.exit_code == 3 and "read-only" in r.stderr
    r = run("fmt", VALID, "-o", target)
    assert r.exit_code == 3 and "read-only" in r.stderr
    assert target.read_bytes() == before and stat.S_IMODE(os.stat(target).st_mode) == 0o444


@pytest.mark.parametrize("length", [242, 250, 255])
def test_long_file_names_can_be_written(tmp_path: Path, length: int) -> None:
    name = "g" * (length - len(".yaml")) + ".yaml"
    out = tmp_path / name
    assert run("fmt", VALID, "-o", out).exit_code == 0
    assert out.read_text() == canonical_text()
    target = messy(tmp_path, "m" * (length - len(".yaml")) + ".yaml")
    assert run("fmt", "--in-place", target).exit_code == 0
    assert target.read_text() == canonical_text()


# --- reads that never end ------------------------------------------------------------------


def _limited() -> None:
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # 1 GiB: an unbounded read fails


def test_fmt_dev_zero_ends_with_a_located_error() -> None:
    status, _, err = finish(pitch("fmt", "/dev/zero", preexec_fn=_limited))
    assert status == 1, err
    assert b"/dev/zero:1:1: error: L106" in err and b"Traceback" not in err


def test_an_endless_stdin_ends_merge_and_fmt(tmp_path: Path) -> None:
    for args in (["merge", "-"], ["fmt", "-"]):
        yes = subprocess.Popen(["yes"], stdout=subprocess.PIPE)
        try:
            status, _, err = finish(pitch(*args, stdin=yes.stdout, preexec_fn=_limited))
        finally:
            yes.kill()
            yes.wait()
            assert yes.stdout is not None
            yes.stdout.close()
        assert b"Traceback" not in err
        assert status == (3 if args[0] == "merge" else 1), err
        assert b"more than the limit" in err


def test_every_whole_file_read_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(read, "WHOLE_FILE_BYTES", 1000)
    big = tmp_path / "big.yaml"
    big.write_text(VALID.read_text() + "# padding\n" * 200)
    r = CliRunner().invoke(main, ["fmt", "--check", "--", "-"], input=big.read_bytes())
    assert r.exit_code == 1 and "-:1:1: error: L106" in r.stderr
    r = run("fmt", "--check", big)  # a regular file: refused from its size
    assert r.exit_code == 1 and f"L106 the file has {big.stat().st_size} bytes, more" in r.stderr
    part = tmp_path / "part.json"
    part.write_text(json.dumps({"format": "pitch-summary-partial", "pad": "x" * 2000}))
    r = run("merge", part)
    assert r.exit_code == 3 and "more than the limit of 1000 bytes" in r.stderr


# --- folder walks ----------------------------------------------------------------------------


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    d = tmp_path / "tree"
    (d / "sub").mkdir(parents=True)
    shutil.copy(VALID, d / "a.yaml")
    os.mkfifo(d / "sub" / "pipe.yaml")
    return d


@pytest.mark.parametrize("args", [["validate", "--format", "json"], ["summarize", "--format", "json"],
                                  ["fmt", "--check"], ["score", "--format", "json"]])
def test_a_fifo_in_a_folder_is_skipped_with_a_warning(tree: Path, args: list[str]) -> None:
    with within(HANG):
        r = run(*args, tree)
    assert r.exit_code == 0, r.output
    fifo = str(tree / "sub" / "pipe.yaml")
    if args[0] == "validate":
        docs = json.loads(r.stdout)["documents"]
        skipped = [d for doc in docs for d in doc["diagnostics"] if d["file"] == fifo]
        assert [(d["code"], d["severity"]) for d in skipped] == [("L113", "warning")]
        assert sum(1 for doc in docs if doc["file"] != fifo) == 1
    elif args[0] == "summarize":
        report = json.loads(r.stdout)
        assert [p["code"] for p in report["problems"] if p["file"] == fifo] == ["L113"]
    else:
        assert f"{fifo}: warning: L113" in r.stderr or f"{fifo}:" in r.stderr


def test_a_fifo_named_on_the_command_line_is_read(tree: Path) -> None:
    fifo = tree / "sub" / "pipe.yaml"
    writer = subprocess.Popen(["sh", "-c", f'cat "{VALID}" > "{fifo}"'])
    try:
        with within(HANG):
            r = run("validate", "--format", "json", fifo)
    finally:
        finish(writer)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["documents"][0]["valid"] is True


def test_an_unreadable_folder_is_an_error(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locked = tree / "locked"
    locked.mkdir()
    shutil.copy(VALID, locked / "hidden.yaml")
    if IS_ROOT:  # root reads any folder: make it unreadable the way a permission would
        real = os.scandir

        def scandir(path: object) -> object:
            if os.fspath(path) == str(locked):  # type: ignore[call-overload]
                raise PermissionError(13, "Permission denied", str(path))
            return real(path)  # type: ignore[call-overload]
        monkeypatch.setattr(os, "scandir", scandir)
    else:
        os.chmod(locked, 0)
    os.unlink(tree / "sub" / "pipe.yaml")
    try:
        r = run("validate", "--format", "json", tree)
    finally:
        os.chmod(locked, 0o755)
    assert r.exit_code == 3, r.output
    diags = [d for doc in json.loads(r.stdout)["documents"] for d in doc["diagnostics"]]
    assert [(d["code"], d["file"]) for d in diags] == [("L101", str(locked))]
    assert "Permission denied" in diags[0]["message"]


def test_a_linked_folder_is_followed_once(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shutil.copy(VALID, shared / "game.yaml")
    top = tmp_path / "top"
    (top / "inner").mkdir(parents=True)
    (top / "inner" / "loop").symlink_to(top)  # a loop
    (top / "one").symlink_to(shared)
    (top / "two").symlink_to(shared)  # a second way in
    with within(HANG):
        r = run("validate", "--format", "json", top)
    assert r.exit_code == 0, r.output
    docs = json.loads(r.stdout)["documents"]
    read_ = [d["file"] for d in docs if not d["diagnostics"]]
    assert read_ == [str(top / "one" / "game.yaml")]
    skipped = sorted(d["file"] for doc in docs for d in doc["diagnostics"] if d["code"] == "L113")
    assert skipped == [str(top / "inner" / "loop"), str(top / "two")]


# --- processes ---------------------------------------------------------------------------


def _busy_summarize(tmp_path: Path) -> tuple[subprocess.Popen[bytes], Path, list[int]]:
    """``summarize --jobs 2`` whose workers are started and one of them waits
    on a FIFO that nobody writes."""
    fifo = tmp_path / "wait.yaml"
    os.mkfifo(fifo)
    p = pitch("summarize", "--jobs", "2", fifo, VALID)
    deadline = time.monotonic() + HANG
    while len(kids := children(p.pid)) < 2 and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.05)
    return p, fifo, kids


def _release(fifo: Path) -> None:
    with contextlib.suppress(OSError):  # a worker still waiting on the FIFO gets its end of file
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def test_a_killed_worker_is_exit_3_never_a_hang(tmp_path: Path) -> None:
    p, fifo, kids = _busy_summarize(tmp_path)
    try:
        assert kids, "no worker started"
        os.kill(kids[0], signal.SIGKILL)
        status, _, err = finish(p)
    finally:
        _release(fifo)
    assert status == 3, err
    assert b"worker process died" in err and str(fifo).encode() in err
    assert b"Traceback" not in err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_ends_every_process_quietly(tmp_path: Path, signum: int) -> None:
    p, fifo, kids = _busy_summarize(tmp_path)
    try:
        assert kids, "no worker started"
        p.send_signal(signum)
        status, out, err = finish(p)
        time.sleep(0.2)
        alive = [k for k in kids if os.path.exists(f"/proc/{k}") and "Z" not in state(k)]
    finally:
        _release(fifo)
    assert status == 128 + signum
    assert err == b"" and out == b""
    assert alive == []



def test_a_broken_pipe_ends_quietly() -> None:
    r, w = os.pipe()
    os.close(r)  # nobody reads: the first write fails with EPIPE
    try:
        status, _, err = finish(pitch("validate", VALID, stdout=w))
    finally:
        os.close(w)
    assert (status, err) == (141, b"")


# Each command in turn in one child process (starting Python costs seconds
# here), its standard output /dev/full, as `pitch ... > /dev/full` has it.
FULL_CHILD = """
import io, json, sys
from pitchcli.cli import main
report = sys.stdout
results = []
for args in json.loads(sys.argv[1]):
    sys.stdout = open("/dev/full", "w", encoding="utf-8")
    sys.stderr = io.StringIO()
    try:
        main(args, prog_name="pitch")
    except SystemExit as e:
        results.append([args[0], e.code, sys.stderr.getvalue()])
print(json.dumps(results), file=report)
"""


def test_an_output_that_cannot_be_written_is_exit_3_and_one_line(tmp_path: Path) -> None:
    part = tmp_path / "part.json"
    assert run("summarize", "--partial", "-o", part, VALID).exit_code == 0
    commands = [["validate", VALID], ["score", VALID], ["replay", VALID], ["fmt", VALID],
                ["summarize", VALID], ["merge", part], ["schema"], ["profiles"],
                ["simulate", "--variant", "auction", "--seed", "1"],
                ["new", "--variant", "auction", "--players", "A,B,C,D"]]
    child = subprocess.run([sys.executable, "-c", FULL_CHILD, json.dumps([[str(a) for a in c] for c in commands])],
                           capture_output=True, timeout=HANG * 2)
    assert child.returncode == 0, child.stderr
    results = json.loads(child.stdout)
    assert [r[0] for r in results] == [c[0] for c in commands]
    for name, status, err in results:
        assert (name, status, err) == (name, 3, "pitch: standard output: No space left on device\n")


def test_a_closed_stdout_is_exit_3_and_one_line() -> None:
    status, _, err = finish(pitch("validate", VALID, stdout=subprocess.DEVNULL,
                                  preexec_fn=lambda: os.close(1)))
    assert status == 3, err
    assert err.decode().splitlines() == ["pitch: standard output: Bad file descriptor"]


# --- --jobs never changes the answer ----------------------------------------------------------

JOBS_EXAMPLES = int(os.environ.get("PITCH_JOBS_EXAMPLES", "30"))


def _one_run(path: str) -> Summary:
    s = Summary(None)
    for c in check_source(path, path):
        s.add_checked(c)
    return s


def _in_pieces(path: str, jobs: int) -> tuple[Summary, list[summarizing.Task]]:
    """What ``summarize --jobs`` computes, with the pieces run in this process."""
    tasks = summarizing.plan([path], jobs)
    total = Summary(None)
    for part in summarizing.renumbered(summarizing.run_piece(t, None, True) for t in tasks):
        total.merge(part.summary)
    return total, tasks


def _report(s: Summary) -> str:
    buf = io.StringIO()
    write_report(s, buf, "table", True, True)
    return buf.getvalue()


@settings(max_examples=JOBS_EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(stream=adversarial_streams(), jobs=st.integers(2, 4))
def test_jobs_2_equals_jobs_1_on_adversarial_streams(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     stream: tuple[str, bytes], jobs: int) -> None:
    """Every file is "big" here (MIN_PIECE 1), so each is cut into as many
    pieces as it can be: the pieces merged say exactly what one run says."""
    monkeypatch.setattr(piecing, "MIN_PIECE", 1)
    suffix, raw = stream
    path = tmp_path / f"stream{suffix}"
    path.write_bytes(raw)
    whole = _one_run(str(path))
    pieces, tasks = _in_pieces(str(path), jobs)
    assert (tasks[0].start or 0) == 0 and all(a.end == b.start for a, b in itertools.pairwise(tasks))
    assert pieces.to_json() == whole.to_json()
    assert _report(pieces) == _report(whole)


def test_directives_before_long_comments_are_not_cut_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue's stream: each document a %YAML directive, 5 KB of comments,
    then ---: --jobs 2 read 2 more documents, both syntax errors."""
    comment = "".join(f"# comment line {i} {'x' * 60}\n" for i in range(70))
    body = VALID.read_text()
    path = tmp_path / "directives.yaml"
    path.write_text("".join("%YAML 1.1\n" + comment + "---\n" + body for _ in range(12)))
    monkeypatch.setattr(piecing, "MIN_PIECE", 1)
    assert len(summarizing.plan([str(path)], 2)) > 1
    one = run("summarize", "--format", "json", path)
    two = run("summarize", "--format", "json", "--jobs", "2", path)
    assert one.exit_code == two.exit_code == 0, two.output
    assert one.stdout == two.stdout
    assert json.loads(two.stdout)["summary"]["documents"] == 12
