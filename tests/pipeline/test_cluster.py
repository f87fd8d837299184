"""``pitch summarize --cluster``: on a Dask LocalCluster and on a scheduler with
two workers started here as separate processes, the output is the same as
``--jobs 1``; a worker killed mid-run, a scheduler that can't be reached, Dask
not installed: each ends as documented, never in a hang.

Every process a test starts is stopped by it (process groups, with timeouts);
the workers' ``--death-timeout`` ends them too should the scheduler go first.
Size: ``PITCH_CLUSTER_GAMES`` simulated games over many files (default 1,000,
plus a YAML stream and a file with a broken line).
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

import pitchcli
from pitchcli.cli import main
from pitchcli.pipeline import pieces
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.write import canonical, to_jsonl, to_yaml_stream
from pitchcli.render.summary import write_summary
from pitchcli.views import summarize as summarizing
from pitchcli.views.summary import Summary
from tests.support.dask_cluster import Cluster, wait_for_progress

ROOT = Path(__file__).resolve().parents[2]
TOURNAMENT = "samples/tournament"
GAMES = int(os.environ.get("PITCH_CLUSTER_GAMES", "1000"))
PER_FILE = 50
FORMATS = (("--format", "table"), ("--format", "json"), ("--format", "csv"), ("--format", "markdown"),
           ("--partial",))


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def pitch(*args: str, timeout: float = 120, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``python -m pitchcli ARGS`` as its own process (``spawn`` re-imports
    the main module: the real entry point must survive that)."""
    return subprocess.run([sys.executable, "-m", "pitchcli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


# --- a corpus: many files, big files cut into byte ranges ------------------------------


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``GAMES`` games in files of 50 (300 distinct games, mixed profiles and
    events, re-used across files), a broken line inside one file and an
    invalid record in another; a YAML stream of 40 games, a JSON Lines file of
    120 (big enough to be cut)."""
    rng = random.Random(16)
    kinds = [("auction", 4, "Spring"), ("auction-partners", 4, "Spring"), ("ten-point", 4, "Summer"),
             ("auction", 3, "Summer")]
    distinct = []
    for i in range(300):
        variant, n, event = kinds[i % len(kinds)]
        rec = simulate_game(variant, n, rng=rng, game_id=f"g{i}")
        distinct.append(canonical({**rec, "event": event, "date": f"2026-03-{1 + i % 28:02d}"}))
    root = tmp_path_factory.mktemp("cluster") / "archive"
    (root / "many").mkdir(parents=True)
    for k in range(max(GAMES // PER_FILE, 1)):
        lines = [to_jsonl(distinct[(k * 37 + j) % len(distinct)]) for j in range(PER_FILE)]
        if k == 7:
            lines[20] = '{"format": "pitch-record/1", "variant": \n'  # a broken line mid-file
        if k == 13:
            bad = json.loads(lines[31])
            bad["result"]["winner"] = "Nobody"
            lines[31] = to_jsonl(bad)
        (root / "many" / f"part-{k:03d}.jsonl").write_text("".join(lines))
    (root / "stream.yaml").write_text(to_yaml_stream(distinct[:40]))
    # Over 2 x summarize.MIN_PIECE: cut into byte ranges even by a `pitch` of its own.
    (root / "big.jsonl").write_text("".join(to_jsonl(g) for g in distinct[100:220]))
    return root


@pytest.fixture()
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cut every file of 64 KiB or more (the plan is made in this process):
    byte ranges of every file, renumbered, through the cluster."""
    monkeypatch.setattr(pieces, "MIN_PIECE", 1 << 16)


@pytest.fixture(scope="module")
def reference(corpus: Path) -> dict[str, str]:
    """``--jobs 1`` over the tournament and the corpus, as a partial summary
    and as a table (written by the CLI's own writer; the summary is made once:
    it is the slow part)."""
    s = summarizing.summarize_paths([TOURNAMENT, str(corpus)], jobs=1)
    out = {}
    for fmt, partial in (("partial", True), ("table", False)):
        buf = io.StringIO()
        write_summary(s, buf, fmt, True, True, partial)
        out[fmt] = buf.getvalue()
    return out


@pytest.fixture(autouse=True)
def _in_the_project(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # (TOURNAMENT is relative)


def test_the_corpus_is_cut_into_byte_ranges(corpus: Path, reference: dict[str, str], small_pieces: None) -> None:
    files = sorted(str(p) for p in corpus.rglob("*.*"))
    assert len(summarizing.plan(files, 2)) > 2 * len(files)  # files of 50 games: 3 pieces each
    s = Summary.from_json(json.loads(reference["partial"]))
    assert s.counts["invalid"] == 2  # the broken line, the wrong winner
    assert s.counts["valid"] > GAMES // PER_FILE * PER_FILE + 150
    assert s.exit_code() == 1


def test_a_big_file_is_cut_without_help(corpus: Path) -> None:
    assert len(summarizing.plan([str(corpus / "big.jsonl")], 2)) >= 2


# --- a LocalCluster -------------------------------------------------------------------------


def test_local_cluster_is_jobs_1(corpus: Path, reference: dict[str, str]) -> None:
    """The real entry point with its own LocalCluster of 2 worker processes,
    on the tournament and the corpus."""
    r = pitch("summarize", "--partial", "--cluster", "local:2", TOURNAMENT, str(corpus))
    assert r.returncode == 1, r.stderr
    assert r.stdout == reference["partial"]
    assert "summarize:" not in r.stderr  # no progress when standard error isn't a terminal


# --- a scheduler and two workers, separate processes ------------------------------------------------


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        yield c
    finally:
        c.stop()


@pytest.mark.parametrize("args", FORMATS, ids=lambda a: a[-1])
def test_scheduler_on_the_tournament_is_jobs_1(cluster: Cluster, args: tuple[str, ...]) -> None:
    one = run("summarize", *args, TOURNAMENT)
    two = run("summarize", *args, "--cluster", cluster.address, TOURNAMENT)
    assert one.exit_code == two.exit_code == 0, two.output
    assert two.stdout == one.stdout


def test_scheduler_on_many_files_is_jobs_1(cluster: Cluster, corpus: Path, reference: dict[str, str],
                                           small_pieces: None) -> None:
    r = run("summarize", "--format", "table", "--cluster", cluster.address, TOURNAMENT, str(corpus))
    assert r.exit_code == 1, r.output
    assert r.stdout == reference["table"]


def test_scheduler_leaves_its_own_output_out_of_the_folder(cluster: Cluster, tmp_path: Path) -> None:
    """As with --jobs: ``-o DIR/part.json DIR/`` run twice doesn't read its own
    earlier output as an invalid record."""
    folder = tmp_path / "games"
    folder.mkdir()
    for f in (ROOT / TOURNAMENT / "winter-setback-open").iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    out = folder / "part.json"
    first = run("summarize", "--partial", "--cluster", cluster.address, "-o", str(out), str(folder))
    assert first.exit_code == 0, first.output
    before = out.read_text()
    again = run("summarize", "--partial", "--cluster", cluster.address, "-o", str(out), str(folder))
    assert again.exit_code == 0, again.output
    assert out.read_text() == before


# --- what can't work ------------------------------------------------------------------------


def test_unreachable_scheduler_exit_3() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = run("summarize", "--cluster", f"tcp://127.0.0.1:{port}", "--cluster-timeout", "2", TOURNAMENT)
    assert r.exit_code == 3
    assert "cannot reach the Dask scheduler" in r.stderr
    assert "Traceback" not in r.output


def test_the_scheduler_is_given_the_cluster_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Promptly, without a clock: the greeting's probe and Dask are told
    --cluster-timeout (instead of Dask's own 30 s) for the client and for
    every connection attempt."""
    import dask
    import distributed
    from dask.utils import parse_timedelta

    from pitchcli.pipeline import cluster as clustering

    asked: list[tuple[Any, float]] = []
    probed: list[float] = []

    def client(address: str, timeout: float, **kw: Any) -> None:
        asked.append((timeout, parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"))))
        raise OSError("Timed out trying to connect")

    monkeypatch.setattr(distributed, "Client", client)
    monkeypatch.setattr(clustering, "probe", lambda address, timeout, security=None: probed.append(timeout))
    r = run("summarize", "--cluster", "tcp://127.0.0.1:1", "--cluster-timeout", "2.5", TOURNAMENT)
    assert r.exit_code == 3 and "cannot reach the Dask scheduler" in r.stderr
    assert asked == [(2.5, 2.5)] and probed == [2.5]


def test_no_worker_for_the_timeout_gives_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cluster left without workers ends the run after --cluster-timeout
    seconds, not before and never in a hang: on a clock that moves one second
    per look (no real time passes)."""
    import distributed

    from pitchcli.pipeline import cluster as clustering

    now = iter(range(1000))
    monkeypatch.setattr(clustering, "time", SimpleNamespace(monotonic=lambda: next(now)))
    looks = 0

    def wait(pending: Any, timeout: float, return_when: str) -> Any:
        nonlocal looks
        looks += 1
        raise TimeoutError  # nothing finished in this step

    class Client:
        status = "running"

        def nthreads(self, callback_timeout: float | None = None) -> dict[str, int]:
            assert callback_timeout == 3  # every question to the scheduler is bounded
            return {}  # no worker

    class Future:
        key = "task-0"

    monkeypatch.setattr(distributed, "wait", wait)
    with pytest.raises(clustering.ClusterError, match="no worker left on the cluster for 3 s") as e:
        list(clustering.in_order(Client(), [Future()], 3, lambda r: None))
    assert e.value.code == 3
    # the first look without workers starts the clock (at 0); it gives up at
    # the first look more than 3 s later (4): five looks
    assert looks == 5


def test_without_the_extra_says_how_to_install_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("dask", "distributed"):
        monkeypatch.setitem(sys.modules, name, None)  # importing it fails, as when not installed
    r = run("summarize", "--cluster", "local:2", TOURNAMENT)
    assert r.exit_code == 2
    assert "pip install 'pitchcli[dask]'" in r.stderr


@pytest.mark.parametrize("args", [("--cluster", "local:0"), ("--cluster", "local:two"), ("--cluster", ""),
                                  ("--cluster", "local:2", "--jobs", "2"), ("--cluster", "local:2", "--by", "round")])
def test_usage_errors_exit_2(args: tuple[str, ...]) -> None:
    r = run("summarize", *args, TOURNAMENT)
    assert r.exit_code == 2, r.output


def test_pitch_does_not_import_dask_at_start_up() -> None:
    code = ("import sys, pitchcli.cli; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'dask', 'distributed'}))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.stdout.strip() == "[]", r.stderr


# --- the Python API and the README's example -----------------------------------------------------------


def test_public_api_summarize_file_merge_json(corpus: Path) -> None:
    a, b = sorted((corpus / "many").iterdir())[:2]
    parts = [pitchcli.summarize_file(str(p)) for p in (b, a)]
    shipped = [pitchcli.Summary.from_json(json.loads(json.dumps(p.to_json()))) for p in parts]
    merged = shipped[0].merge(shipped[1])
    assert merged.to_json() == summarizing.summarize_paths([str(a), str(b)]).to_json()
    assert merged.counts["documents"] == 2 * PER_FILE


EXAMPLE = ROOT / "docs" / "examples" / "dask_bag.py"


def test_the_readme_example_is_the_file() -> None:
    readme = (ROOT / "README.md").read_text()
    m = re.search(r"<!-- docs/examples/dask_bag\.py[^>]*-->\n```python\n(.*?)```\n", readme, re.S)
    assert m, "the README has no block marked as docs/examples/dask_bag.py"
    assert m[1] == EXAMPLE.read_text()


def test_the_example_runs_and_prints_the_report() -> None:
    r = subprocess.run([sys.executable, str(EXAMPLE), TOURNAMENT], cwd=ROOT, capture_output=True, text=True,
                       timeout=120, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert r.stdout == run("summarize", TOURNAMENT).stdout


# --- last: kills the module's workers -------------------------------------------------------


def test_a_worker_killed_mid_run_then_the_last(cluster: Cluster, corpus: Path) -> None:
    """Kill one of two workers mid-run: Dask runs its tasks again on the other
    and the result is right (or exit 3). Kill the last one mid-run: exit 3
    after --cluster-timeout, never a hang. (The last test of the module: it
    leaves the module's cluster without workers.)"""
    files = sorted(str(p) for p in (corpus / "many").iterdir())[:6]
    expect = run("summarize", "--partial", *files)
    for victim, last in ((cluster.workers[0], False), (cluster.workers[1], True)):
        proc = subprocess.Popen([sys.executable, "-m", "pitchcli", "summarize", "--partial", "--progress",
                                 "--cluster", cluster.address, "--cluster-timeout", "3", *files], cwd=ROOT,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            err = wait_for_progress(proc, 90)
            assert proc.poll() is None, "the run ended before a worker could be killed"
            cluster.kill(victim)
            assert proc.stdout is not None
            out = proc.stdout.read()
            code = proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=30)
        if last:
            assert code == 3, err.decode(errors="replace")  # (proc.wait's timeout: never a hang)
        else:
            assert code in (expect.exit_code, 3), err.decode(errors="replace")
            if code == expect.exit_code:
                assert out.decode() == expect.stdout, err.decode(errors="replace")
