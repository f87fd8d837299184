"""Benchmark (not a test): reading results through the API against ``pitch validate``
of the same input, side by side.

    python benchmarks/bench_api.py [--games 2000] [--repeat 5] [--format jsonl|yaml] [--no-hands]

Makes ``--games`` simulated Auction games (``pitchcli.simulate``, seed 1) into a
temporary JSON Lines file (or a YAML stream), then runs in turn, ``--repeat``
times each (interleaved, so a change of the machine's load falls on both):

- ``pitch validate -q FILE`` (the baseline);
- a script that reads every result a standings table needs through the API:
  ``for c in pitchcli.validate(FILE)``: validity, winner, totals;
- the same script reading every hand too (``Game.hands``: the full replay of
  each game the quick pass decided).

Prints each command's median CPU seconds (user + system of the child), and its
ratio to the baseline as the median of the paired ratios (each repeat's run
against the baseline run just before it: a change of the machine's load between
repeats falls on both sides of a pair) with their spread. The issue's target:
reading results costs at most 1.10x.

Why a single run could say 1.18x: in-process (cProfile, and ``process_time``
of the same loop) the API's own work — ``checked_document``, ``game_of``, the
frozen values — is about 3% of the pipeline's, and start-up is the same
(``import pitchcli`` is lazy); what varied was the machine, with two cores
shared by many jobs: the ratio of two medians taken over different moments can
move by 10% either way. Paired ratios don't.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import resource
import statistics
import subprocess

from bench_engine import PITCH, PY, ROOT

import pitchcli

RESULTS = """
import sys, pitchcli
valid = won = 0
for c in pitchcli.validate(sys.argv[1]):
    valid += c.valid
    g = c.game
    if g is not None and g.winner is not None:
        won += g.totals[g.winner] > 0
print(valid, won)
"""

HANDS = """
import sys, pitchcli
made = 0
for c in pitchcli.validate(sys.argv[1]):
    if c.game is not None:
        made += sum(1 for h in c.game.hands if h.made)
print(made)
"""


def _cpu(cmd: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def paired(cmds: list[list[str]], repeat: int) -> tuple[list[float], list[list[float]]]:
    """Each command's median CPU seconds, and each command's ratios to the
    first (the baseline), one per repeat, the pair run back to back."""
    cpus: list[list[float]] = [[] for _ in cmds]
    for _ in range(repeat):
        for cmd, out in zip(cmds, cpus, strict=True):
            out.append(_cpu(cmd))
    ratios = [[t / b for t, b in zip(c, cpus[0], strict=True)] for c in cpus]
    return [statistics.median(c) for c in cpus], ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--format", choices=("jsonl", "yaml"), default="jsonl")
    parser.add_argument("--no-hands", action="store_true",
                        help="leave out the script reading every hand (the slow one), for more pairs")
    args = parser.parse_args()
    fmt = pitchcli.RecordFormat(args.format)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"games.{args.format}"
        pitchcli.write(pitchcli.simulate("auction", games=args.games, seed=1), path, fmt)
        print(f"{args.games} Auction games, {path.stat().st_size:,} bytes of {args.format}; "
              f"load average {os.getloadavg()[0]:.2f}", flush=True)
        cmds = {
            "pitch validate -q": [*PITCH, "validate", "-q", str(path)],
            "API: validity, winner, totals": [PY, "-c", RESULTS, str(path)],
            "API: every hand too": [PY, "-c", HANDS, str(path)],
        }
        if args.no_hands:
            del cmds["API: every hand too"]
        times, ratios = paired(list(cmds.values()), args.repeat)
        for (name, _), t, r in zip(cmds.items(), times, ratios, strict=True):
            print(f"{name:32} {t:8.2f} s  {statistics.median(r):5.2f}x  (paired: {min(r):.2f} to {max(r):.2f})")
        print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
