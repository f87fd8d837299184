"""Benchmark of ``pitch find`` and ``pitch dedup`` against ``pitch validate`` on
the same input, and the planted-duplicates check of issue 25.

A JSON Lines archive of N simulated games (default 10,000; every profile in
turn, or ``--profiles``) is written, then C copies of some of its games are
planted in other files, each typed again another way: keys shuffled,
re-spaced JSON, YAML with the cards in another notation (``TS``, lower case),
another event and date. Then, each a child process, CPU seconds (user +
system), median of R runs, side by side in turn:

- ``validate``: ``pitch validate -q`` — the baseline (1.00x);
- ``find (record fields)``: ``pitch find --player Ann --format paths``: the
  record's own fields, the engine's quick pass;
- ``find (hand conditions)``: ``pitch find --bid-at-least 3 --set --format paths``:
  every hand's results, the engine's full replay;
- ``dedup``: ``pitch dedup --format json``.

The dedup run's report is then checked: exactly the planted groups, nothing
else (exit 2 from this script if not).

Run: ``python benchmarks/bench_archive.py [--games N] [--copies C] [--repeat R]``.
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
from pathlib import Path

import yaml

from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import builtin_profiles
from pitchcli.record.write import canonical, to_jsonl

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.retyped import rekeyed, renotated  # the tests' helpers: one way to retype a record


def make_archive(root: Path, games: int, copies: int, profiles: list[str]) -> dict[int, str]:
    """The archive and its planted copies; game index (from 0) -> the copy's file name."""
    rng = random.Random(25)
    planted = set(rng.sample(range(games), copies))
    kept: dict[int, dict] = {}
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
    return names


def cpu_of(args: list[str], cwd: Path) -> tuple[float, subprocess.CompletedProcess[str]]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, "-m", "pitchcli", *args], cwd=cwd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), r


RUNS = {
    "validate": ["validate", "-q", "archive.jsonl", "copies"],
    "find (record fields)": ["find", "--player", "Ann", "--format", "paths", "archive.jsonl", "copies"],
    "find (hand conditions)": ["find", "--bid-at-least", "3", "--set", "--format", "paths", "archive.jsonl",
                               "copies"],
    "dedup": ["dedup", "--format", "json", "archive.jsonl", "copies"],
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--copies", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profiles", default=",".join(sorted(builtin_profiles())))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        names = make_archive(root, args.games, args.copies, args.profiles.split(","))
        size = os.path.getsize(root / "archive.jsonl")
        print(f"{args.games:,} games ({size / 1e6:.1f} MB of JSON Lines) + {len(names)} planted copies; "
              f"CPU s, median of {args.repeat}")
        times: dict[str, list[float]] = {k: [] for k in RUNS}
        report = None
        for _ in range(args.repeat):
            for name, cmd in RUNS.items():  # side by side: each run in turn
                t, r = cpu_of(cmd, root)
                times[name].append(t)
                if name == "dedup":
                    report = json.loads(r.stdout)
        base = statistics.median(times["validate"])
        for name, ts in times.items():
            m = statistics.median(ts)
            print(f"  {name:<24} {m:8.2f} s  {m / base:5.2f}x validate  {args.games / m:8.0f} games/s")
        assert report is not None
        found = {frozenset((Path(c["file"]).name, c["document"]) for c in g["copies"]) for g in report["duplicates"]}
        expected = {frozenset({("archive.jsonl", i + 1), (n, 1)}) for i, n in names.items()}
        near = len(report["near_duplicates"])
        print(f"dedup: {len(found)} groups found, {len(expected)} planted, "
              f"{'exactly those' if found == expected else 'NOT those'}; {near} near-duplicate groups")
        return 0 if found == expected and not near else 2


if __name__ == "__main__":
    sys.exit(main())
