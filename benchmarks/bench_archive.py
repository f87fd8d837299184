"""Benchmark of ``pitch find`` and ``pitch dedup`` against ``pitch validate`` on
the same input, and the planted-duplicates check of issue 25.

A JSON Lines archive of N simulated games (default 10,000; every profile in
turn, or ``--profiles``) is written, then C copies of some of its games are
planted in other files, each typed again another way: keys shuffled,
re-spaced JSON, YAML with the cards in another notation (``TS``, lower case),
another event and date. A near-duplicate is planted too (a sample game and
the same deal played otherwise, ``support.retyped.played_otherwise``). Then, each a child process, CPU seconds (user +
system), median of R runs, side by side in turn:

- ``validate``: ``pitch validate -q`` — the baseline (1.00x);
- ``find (record fields)``: ``pitch find --player Ann --format paths``: the
  record's own fields, the engine's quick pass;
- ``find (hand conditions)``: ``pitch find --bid-at-least 3 --set --format paths``:
  every hand's results, the engine's full replay;
- ``dedup``: ``pitch dedup --format json``.

The dedup run's report is then checked exactly: its groups of copies are the
planted pairs (the game in the archive, its copy), its near-duplicate groups
the planted pair, its counts those of the archive; anything more or less is
exit 2 from this script.

Run: ``python benchmarks/bench_archive.py [--games N] [--copies C] [--repeat R]
[--runs validate,dedup] [--jobs J] [--archive FILE]`` (``--jobs``: every command run with
``--jobs J`` as well, side by side; ``--archive``: N games already simulated,
``pitch simulate --format jsonl`` in a few processes being the fastest way to
make 100,000).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import builtin_profiles
from pitchcli.record.write import canonical, to_jsonl

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.games import base_game
from support.retyped import played_otherwise, rekeyed, renotated  # the tests' helpers: one way to retype a record


def make_archive(root: Path, games: int, copies: int, profiles: list[str],
                 given: Path | None = None) -> dict[int, str]:
    """The archive and its planted copies; game index (from 0) -> the copy's file name.
    ``given``: a JSON Lines file of ``games`` games (``pitch simulate --format
    jsonl``, the fastest way to make many) linked in as the archive instead."""
    rng = random.Random(25)
    planted = set(rng.sample(range(games), copies))
    kept: dict[int, dict] = {}
    if given is not None:
        (root / "archive.jsonl").symlink_to(given.resolve())
        with open(given, encoding="utf-8") as f:
            for i, line in enumerate(f):
                if i in planted:
                    kept[i] = json.loads(line)
    else:
        with open(root / "archive.jsonl", "w", encoding="utf-8") as f:
            for i in range(games):
                rec = canonical(simulate_game(profiles[i % len(profiles)], rng=rng, game_id=f"g{i}"))
                f.write(to_jsonl(rec))
                if i in planted:
                    kept[i] = json.loads(json.dumps(rec))
    names: dict[int, str] = {}
    for k, (i, rec) in enumerate(sorted(kept.items())):
        how = k % 4
        if how == 0:
            name, text = f"copy-{i}.json", json.dumps(rekeyed(rec, rng))
        elif how == 1:
            name, text = f"copy-{i}.json", json.dumps(rec, indent=3, separators=(" ,", " : "))
        elif how == 2:
            name, text = f"copy-{i}.yaml", yaml.safe_dump(renotated(rec), sort_keys=True)
        else:
            rec.update(event="Typed again", date="2027-01-01")
            name, text = f"copy-{i}.yaml", yaml.safe_dump(rec, sort_keys=False)
        (root / "copies").mkdir(exist_ok=True)
        (root / "copies" / name).write_text(text, "utf-8")
        names[i] = name
    (root / "near").mkdir()
    (root / "near" / "base.json").write_text(json.dumps(base_game()), "utf-8")
    (root / "near" / "base-other.json").write_text(json.dumps(played_otherwise(base_game())), "utf-8")
    return names


PEAK: dict[str, list[int]] = {}  # command -> peak RSS (KB) of each run, by /usr/bin/time


def cpu_of(args: list[str], cwd: Path) -> tuple[float, subprocess.CompletedProcess[str]]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    timer = Path("/usr/bin/time")
    rss = cwd / "peak-rss.txt"
    wrap = [str(timer), "-f", "%M", "-o", str(rss)] if timer.exists() else []
    r = subprocess.run([*wrap, sys.executable, "-m", "pitchcli", *args], cwd=cwd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if wrap:
        PEAK.setdefault(args[0], []).append(int(rss.read_text().split()[-1]))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), r


INPUTS = ["archive.jsonl", "copies", "near"]
RUNS = {
    "validate": ["validate", "-q", *INPUTS],
    "find (record fields)": ["find", "--player", "Ann", "--format", "paths", *INPUTS],
    "find (hand conditions)": ["find", "--bid-at-least", "3", "--set", "--format", "paths", *INPUTS],
    "dedup": ["dedup", "--format", "json", *INPUTS],
}


def check(report: dict, games: int, names: dict[int, str]) -> bool:
    """Whether dedup's report is exactly what was planted (printed either way)."""
    found = {frozenset((Path(c["file"]).name, c["document"]) for c in g["copies"]) for g in report["duplicates"]}
    expected = {frozenset({("archive.jsonl", i + 1), (n, 1)}) for i, n in names.items()}
    near = [{Path(c["file"]).name for c in g["copies"]} for g in report["near_duplicates"]]
    counts = {k: report["summary"][k] for k in ("games", "extra_copies", "duplicate_groups", "invalid")}
    want = {"games": games + len(names) + 2, "extra_copies": len(names), "duplicate_groups": len(names),
            "invalid": 0}
    exact = found == expected and near == [{"base.json", "base-other.json"}] and counts == want
    print(f"{len(found)} groups of copies found, {len(expected)} planted, "
          f"{len(found & expected)} of them found, {len(found - expected)} found that were not planted; "
          f"{len(near)} near-duplicate groups (1 planted); counts {counts}: {'EXACT' if exact else 'NOT exact'}")
    return exact


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--copies", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profiles", default=",".join(sorted(builtin_profiles())))
    ap.add_argument("--runs", default=",".join(RUNS), help="which runs, of: " + ", ".join(RUNS))
    ap.add_argument("--jobs", type=int, default=1, help="also run each command with --jobs J")
    ap.add_argument("--archive", type=Path, help="a JSON Lines file of --games games to plant copies of "
                    "(made with pitch simulate --format jsonl) instead of simulating them here")
    args = ap.parse_args()
    runs = {k: RUNS[k] for k in args.runs.split(",")}
    if args.jobs > 1:
        runs.update({f"{k} --jobs {args.jobs}": [v[0], "--jobs", str(args.jobs), *v[1:]]
                     for k, v in list(runs.items())})
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        names = make_archive(root, args.games, args.copies, args.profiles.split(","), args.archive)
        size = os.path.getsize(root / "archive.jsonl")
        print(f"{args.games:,} games ({size / 1e6:.1f} MB of JSON Lines) + {len(names)} planted copies; "
              f"CPU s, median of {args.repeat}")
        times: dict[str, list[float]] = {k: [] for k in runs}
        walls: dict[str, list[float]] = {k: [] for k in runs}
        reports: dict[str, str] = {}
        for _ in range(args.repeat):
            for name, cmd in runs.items():  # side by side: each run in turn
                t0 = time.perf_counter()
                t, r = cpu_of(cmd, root)
                walls[name].append(time.perf_counter() - t0)
                times[name].append(t)
                if cmd[0] == "dedup":
                    reports[name] = r.stdout
        base = statistics.median(times["validate"]) if "validate" in times else None
        for name, ts in times.items():
            m, w = statistics.median(ts), statistics.median(walls[name])
            ratio = f"{m / base:5.2f}x validate" if base else ""
            print(f"  {name:<32} {m:8.2f} CPU s {w:8.2f} wall s  {ratio}  {args.games / m:8.0f} games/CPU s")
        for cmd, kb in PEAK.items():
            print(f"  peak RSS of {cmd}: {', '.join(f'{k / 1024:.0f} MB' for k in kb)}")
        ok = True
        for name, text in reports.items():
            print(f"{name}: ", end="")
            ok = check(json.loads(text), args.games, names) and ok
        if len(set(reports.values())) > 1:
            print("dedup's reports differ between the runs")
            ok = False
        return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
