"""Benchmark of ``pitch summarize --cluster`` (not a test; needs ``pitchcli[dask]``).

    python benchmarks/bench_cluster.py [--games 20000] [--files 200] [--repeat 1] [--cache DIR]

``--games`` games in ``--files`` JSON Lines files (made once in a cache folder,
default ``~/.cache/pitchcli-bench``: 1,000 simulated 4-player Auction Pitch
games, repeated across the files; every game is still loaded and checked in
full). Then, side by side in one run, each ``--repeat`` times (medians):

- the machine's own baseline: two processes of a pure CPU loop against one;
- ``pitch summarize --jobs 1``, ``--jobs 2``, ``--cluster local:2`` (a
  LocalCluster started and stopped by the run), and ``--cluster tcp://...`` on
  a scheduler with two one-thread workers started beforehand (so without the
  cluster's start-up);
- ``--cluster local:2`` on one small file: the cluster's start-up and stop;
- the speed-ups over ``--jobs 1``, and the cluster's overhead per file against
  ``--jobs 2``: (wall of the cluster run - wall of --jobs 2) / files.

Wall and CPU seconds (user + system of every process of the run, workers
included for --jobs and local:N; the tcp workers are not children of the run,
so its CPU is only the client's). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pipeline import PITCH, ROOT, measured, parallel_baseline


def corpus(cache: Path, games: int, files: int) -> Path:
    """``files`` JSON Lines files holding ``games`` games in all (made once)."""
    base = cache / "auction4-1000-seed16.jsonl"
    if not base.exists():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run([*PITCH, "simulate", "--variant", "auction", "--games", "1000", "--seed", "16",
                        "--format", "jsonl", "-o", str(base)], check=True, cwd=ROOT)
    lines = base.read_text().splitlines(keepends=True)
    out = cache / f"cluster-{games}-in-{files}"
    if not (out / "done").exists():
        out.mkdir(parents=True, exist_ok=True)
        per, extra = divmod(games, files)
        at = 0
        for k in range(files):
            n = per + (k < extra)
            (out / f"part-{k:04d}.jsonl").write_text("".join(lines[(at + j) % len(lines)] for j in range(n)))
            at += n
        (out / "done").write_text("")
    return out


class Scheduler:
    """A ``dask scheduler`` and two one-thread ``dask worker`` processes on 127.0.0.1."""

    def __init__(self, where: Path) -> None:
        where.mkdir(parents=True, exist_ok=True)
        file = where / "scheduler.json"
        file.unlink(missing_ok=True)
        self.procs = [self._start(where, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                  "--scheduler-file", str(file))]
        deadline = time.monotonic() + 60
        while not file.exists() or not file.read_text().strip():
            if time.monotonic() > deadline:
                self.stop()
                raise SystemExit("the scheduler did not start")
            time.sleep(0.2)
        time.sleep(0.2)
        self.address = json.loads(file.read_text())["address"]
        self.procs += [self._start(where, "worker", self.address, "--nworkers", "1", "--nthreads", "1",
                                   "--no-dashboard", "--host", "127.0.0.1", "--death-timeout", "60")
                       for _ in range(2)]
        from distributed import Client

        with Client(self.address, timeout=30) as c:
            c.wait_for_workers(2, timeout=120)

    @staticmethod
    def _start(where: Path, *args: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-m", "dask", *args], cwd=where, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def stop(self) -> None:
        for p in reversed(self.procs):
            try:
                os.killpg(p.pid, signal.SIGTERM)
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(timeout=20)
            except ProcessLookupError:
                pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "pitchcli-bench")
    args = ap.parse_args()
    data = corpus(args.cache, args.games, args.files)
    one_file = str(next(iter(sorted(data.glob("*.jsonl")))))
    print(f"{args.games:,} games in {args.files} files ({data}); load average {os.getloadavg()[0]:.1f}")
    sched = Scheduler(args.cache / "dask")
    try:
        runs = {
            "--jobs 1": ["summarize", "--partial", "--jobs", "1", str(data)],
            "--jobs 2": ["summarize", "--partial", "--jobs", "2", str(data)],
            "--cluster local:2": ["summarize", "--partial", "--cluster", "local:2", str(data)],
            "--cluster tcp (2 workers, started)": ["summarize", "--partial", "--cluster", sched.address, str(data)],
            "--cluster local:2, one file": ["summarize", "--partial", "--cluster", "local:2", one_file],
        }
        got: dict[str, list[dict[str, float]]] = {k: [] for k in runs}
        baselines = []
        for _ in range(args.repeat):
            baselines.append(parallel_baseline())
            for name, cmd in runs.items():  # interleaved: a change of load hits every figure alike
                r = measured([*PITCH, *cmd])
                if r["rc"] not in (0, 1):
                    raise SystemExit(f"{name}: exit {r['rc']}")
                got[name].append(r)
    finally:
        sched.stop()
    wall = {k: statistics.median(r["wall"] for r in v) for k, v in got.items()}
    cpu = {k: statistics.median(r["cpu"] for r in v) for k, v in got.items()}
    base = wall["--jobs 1"]
    print(f"machine's two-process baseline (two CPU loops vs one): {statistics.median(baselines):.2f}x")
    print(f"{'run':38} {'wall s':>8} {'CPU s':>8} {'vs --jobs 1':>12}")
    for k in runs:
        print(f"{k:38} {wall[k]:8.2f} {cpu[k]:8.2f} {base / wall[k]:11.2f}x")
    for k in ("--cluster local:2", "--cluster tcp (2 workers, started)"):
        per_file = (wall[k] - wall["--jobs 2"]) / args.files * 1000
        print(f"overhead of {k} over --jobs 2: {per_file:+.1f} ms per file")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
