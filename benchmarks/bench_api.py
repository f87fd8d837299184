"""Benchmark (not a test): reading results through the API against ``pitch validate``
of the same input, side by side.

    python benchmarks/bench_api.py [--games 2000] [--repeat 5] [--format jsonl|yaml]

Makes ``--games`` simulated Auction games (``pitchcli.simulate``, seed 1) into a
temporary JSON Lines file (or a YAML stream), then runs in turn, ``--repeat``
times each (interleaved, so a change of the machine's load falls on both):

- ``pitch validate -q FILE`` (the baseline);
- a script that reads every result a standings table needs through the API:
  ``for c in pitchcli.validate(FILE)``: validity, winner, totals;
- the same script reading every hand too (``Game.hands``: the full replay of
  each game the quick pass decided).

Prints each command's median CPU seconds (user + system of the child) and its
ratio to the baseline (the issue's target: reading results costs at most 1.10x).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import PITCH, PY, measure_side_by_side

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--format", choices=("jsonl", "yaml"), default="jsonl")
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
        times = measure_side_by_side(list(cmds.values()), args.repeat)
        base = times[0]
        for (name, _), t in zip(cmds.items(), times, strict=True):
            print(f"{name:32} {t:8.2f} s  {t / base:5.2f}x")
        print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
