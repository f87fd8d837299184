"""Benchmark of the whole pipeline (not a test): parse, validate, summarize.

    python benchmarks/bench_pipeline.py [--cache DIR] [--yaml-games 1000]
                                        [--jsonl-games 3000,30000] [--skip-big]

Games are generated once with ``pitch simulate`` (Auction Pitch, 4 players) into
a cache folder (default ``~/.cache/pitchcli-bench``): a YAML stream of
``--yaml-games`` games, and a JSON Lines file of the smaller ``--jsonl-games``
size; the bigger JSON Lines file repeats the smaller one's games (every game is
still loaded and checked in full, so the work is the same as for new games,
without minutes of generating them).

It prints, in one run:

- the machine's own parallel baseline: two processes of a pure CPU loop
  against one (on a shared 2-core machine this can be far below 2x);
- YAML: libyaml parse-only (``yaml.compose_all`` with ``CSafeLoader``, which is
  what the loader does), ``validate`` in-process (``check_paths``), and
  ``pitch summarize`` with ``--jobs 1`` and ``--jobs 2`` (subprocesses);
- JSON Lines: parse-only (``json.loads`` per line), then ``pitch summarize``
  at both sizes in a subprocess, with its CPU time, games/s and peak memory
  (``ru_maxrss`` of the biggest process of the run, read with
  ``getrusage(RUSAGE_CHILDREN)`` in a fresh wrapper process), and ``--jobs 2``
  at the smaller size;
- each figure's ratio to parse-only, and the targets as PASS/MISS (nothing is
  asserted).

Times are CPU seconds (user + system, all processes of the run) and wall
seconds; on a shared machine trust the CPU figures and the ratios more.
The default sizes keep the run under 5 minutes here (about 2 ms of CPU per
game: 100,000 games alone take minutes); ``--jsonl-games 10000,100000`` runs
the full-size check.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
PITCH = [sys.executable, "-m", "pitchcli"]

# Runs a command and prints the resources of its whole process tree (the pool
# workers of --jobs included: they are waited for by the summarize process).
_WRAP = """
import json, resource, subprocess, sys, time
t = time.perf_counter()
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
wall = time.perf_counter() - t
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"rc": rc, "wall": wall, "cpu": u.ru_utime + u.ru_stime, "maxrss_kb": u.ru_maxrss}))
"""


def measured(cmd: list[str]) -> dict[str, Any]:
    """Run ``cmd`` in a fresh wrapper: exit code, wall and CPU seconds, peak RSS."""
    out = subprocess.run([sys.executable, "-c", _WRAP, *cmd], capture_output=True, text=True, check=True,
                         cwd=ROOT)
    return json.loads(out.stdout)


# --- data ---------------------------------------------------------------------------


def generate(cache: Path, yaml_games: int, jsonl_sizes: list[int]) -> tuple[Path, list[Path]]:
    """The YAML stream and the JSON Lines files, made once (in parallel)."""
    cache.mkdir(parents=True, exist_ok=True)
    ypath = cache / f"auction4-{yaml_games}-seed1.yaml"
    small = jsonl_sizes[0]
    base = cache / f"auction4-{small}.jsonl"
    procs = []
    if not ypath.exists():
        procs.append(_simulate(yaml_games, 1, "yaml", ypath))
    halves = [cache / f"auction4-{small}.part{k}.jsonl" for k in (1, 2)]
    if not base.exists():
        n1 = small // 2
        procs += [_simulate(n1, 101, "jsonl", halves[0]), _simulate(small - n1, 102, "jsonl", halves[1])]
    if procs:
        t = time.perf_counter()
        print(f"generating games with pitch simulate into {cache} ...", flush=True)
        for p in procs:
            if p.wait() != 0:
                sys.exit("pitch simulate failed")
        print(f"  done in {time.perf_counter() - t:.0f} s", flush=True)
    if not base.exists():
        with open(base.with_suffix(".tmp"), "wb") as out:
            for h in halves:
                out.write(h.read_bytes())
        os.replace(base.with_suffix(".tmp"), base)
        for h in halves:
            h.unlink()
    files = [base]
    lines = base.read_bytes().splitlines(keepends=True)
    for n in jsonl_sizes[1:]:
        path = cache / f"auction4-{n}.jsonl"
        if not path.exists():
            with open(path.with_suffix(".tmp"), "wb") as out:
                for i in range(n):
                    out.write(lines[i % len(lines)])
            os.replace(path.with_suffix(".tmp"), path)
        files.append(path)
    return ypath, files


def _simulate(games: int, seed: int, fmt: str, path: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*PITCH, "simulate", "--variant", "auction", "--players", "4", "--games", str(games),
                             "--seed", str(seed), "--format", fmt, "-o", str(path)], cwd=ROOT)


# --- measurements ---------------------------------------------------------------------


def _spin(n: int) -> int:
    s = 0
    for i in range(n):
        s += i * i
    return s


def parallel_baseline(n: int = 4_000_000) -> float:
    """Throughput of two processes of a pure CPU loop over one (1.0 to 2.0)."""
    ctx = multiprocessing.get_context("fork")
    t = time.perf_counter()
    _spin(n)
    one = time.perf_counter() - t
    with ctx.Pool(2) as pool:
        pool.map(_spin, [1000, 1000])  # start the workers first
        t = time.perf_counter()
        pool.map(_spin, [n, n], chunksize=1)
        two = time.perf_counter() - t
    return 2 * one / two


def timed(fn: Any) -> tuple[float, float, Any]:
    """Wall and CPU seconds of ``fn()`` in this process, and its result."""
    w, c = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - w, time.process_time() - c, result


def yaml_parse_only(path: Path) -> int:
    with open(path, "rb") as f:
        return sum(1 for _ in yaml.compose_all(f, Loader=yaml.CSafeLoader))


def json_parse_only(path: Path) -> int:
    n = 0
    with open(path, "rb") as f:
        for line in f:
            if line.strip():
                json.loads(line)
                n += 1
    return n


def validate_in_process(path: Path) -> tuple[int, int]:
    from pitchcli.pipeline.check import check_paths
    docs = bad = 0
    for c in check_paths([str(path)]):
        docs += 1
        bad += not c.valid()
    return docs, bad


def summarize_cmd(path: Path, jobs: int) -> list[str]:
    return [*PITCH, "summarize", "--no-games", "--format", "json", "--jobs", str(jobs), "--no-progress", str(path)]


# --- report ------------------------------------------------------------------------------


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", type=Path, default=Path(os.environ.get("PITCH_BENCH_CACHE",
                                                                    Path.home() / ".cache" / "pitchcli-bench")))
    ap.add_argument("--yaml-games", type=int, default=1000)
    ap.add_argument("--jsonl-games", default="3000,30000",
                    help="JSON Lines sizes, smallest first (default 3000,30000; the full check: 10000,100000)")
    ap.add_argument("--skip-big", action="store_true", help="Only the smaller JSON Lines size.")
    args = ap.parse_args()
    sizes = [int(x) for x in args.jsonl_games.split(",")]
    if args.skip_big:
        sizes = sizes[:1]
    started = time.perf_counter()
    ypath, jfiles = generate(args.cache, args.yaml_games, sizes)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\nmachine: {os.cpu_count()} CPUs, load average {load:.2f}; Python {sys.version.split()[0]}, "
          f"libyaml {yaml.__with_libyaml__}")

    base = parallel_baseline()
    print(f"parallel baseline: 2 CPU-bound processes = {base:.2f}x one process")

    rows: list[list[str]] = []

    def row(what: str, games: int, wall: float, cpu: float, ref: float | None, rss: int | None = None) -> None:
        ratio = f"{cpu / ref:.2f}x" if ref else "-"
        rows.append([what, f"{games:,}", f"{wall:.2f}", f"{cpu:.2f}", f"{games / cpu:,.0f}" if cpu else "-",
                     f"{cpu / games * 1000:.2f}", ratio, f"{rss / 1024:.0f}" if rss else "-"])

    # YAML
    yw, yc, ydocs = timed(lambda: yaml_parse_only(ypath))
    row("YAML parse-only (compose_all, CSafeLoader)", ydocs, yw, yc, yc)
    vw, vc, (vdocs, vbad) = timed(lambda: validate_in_process(ypath))
    row("YAML validate (in-process, check_paths)", vdocs, vw, vc, yc)
    ys = {}
    for jobs in (1, 2):
        m = measured(summarize_cmd(ypath, jobs))
        ys[jobs] = m
        row(f"YAML pitch summarize --jobs {jobs}", ydocs, m["wall"], m["cpu"], yc, m["maxrss_kb"])
    # JSON Lines
    small = jfiles[0]
    jw, jc, jdocs = timed(lambda: json_parse_only(small))
    row("JSONL parse-only (json.loads per line)", jdocs, jw, jc, jc)
    js: dict[int, dict[str, Any]] = {}
    for n, path in zip(sizes, jfiles, strict=True):
        m = measured(summarize_cmd(path, 1))
        js[n] = m
        row(f"JSONL pitch summarize --jobs 1, {n:,} games", n, m["wall"], m["cpu"], jc * n / jdocs, m["maxrss_kb"])
    m2 = measured(summarize_cmd(small, 2))
    row(f"JSONL pitch summarize --jobs 2, {sizes[0]:,} games", sizes[0], m2["wall"], m2["cpu"], jc, m2["maxrss_kb"])

    head = ["run", "games", "wall s", "CPU s", "games/CPU-s", "CPU ms/game", "CPU vs parse-only", "peak MB"]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    print()
    for r in [head, ["-" * w for w in widths], *rows]:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))))

    print("\ntargets:")
    v_ratio = vc / yc
    print(f"  {verdict(v_ratio <= 1.5)}  validate <= 1.5x parse-only on YAML: {v_ratio:.2f}x (CPU); "
          f"{vdocs:,} documents, {vbad} invalid")
    rate = sizes[0] / js[sizes[0]]["cpu"]
    print(f"  {verdict(rate >= 2000)}  >= 2,000 games/s per core on JSON Lines: {rate:,.0f} games per CPU-second "
          f"(summarize --jobs 1, {sizes[0]:,} games; process start-up included)")
    if len(sizes) > 1:
        a, b = js[sizes[0]]["maxrss_kb"], js[sizes[-1]]["maxrss_kb"]
        print(f"  {verdict(b <= a * 1.10)}  peak memory flat from {sizes[0]:,} to {sizes[-1]:,} games: "
              f"{a / 1024:.1f} MB -> {b / 1024:.1f} MB ({b / a:.2f}x)")
    for label, one, two in (("YAML", ys[1], ys[2]), ("JSONL", js[sizes[0]], m2)):
        sp = one["wall"] / two["wall"]
        print(f"  {verdict(sp >= 1.7)}  --jobs 2 >= 1.7x --jobs 1 ({label}, wall): {sp:.2f}x; the machine's own "
              f"parallel baseline is {base:.2f}x, so --jobs 2 reached {sp / base:.0%} of what this machine allows; "
              f"with two free cores the CPU figures allow at most {2 * one['cpu'] / two['cpu']:.2f}x")
    print(f"\ntotal {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
