"""Peak memory of ``pitch find``, ``convert`` and ``dedup`` on N and 10 N games
(issue 25: streaming in bounded memory): the peak RSS of each child process
(``ru_maxrss``), side by side, and for dedup the bytes per distinct game it keeps.

The games: ``--base`` simulated Auction Pitch games, then copies of them with
every player renamed (``Ann`` -> ``Ann-7``), so that every game is distinct
(dedup keeps each one's keys) without simulating N games.

Run: ``python benchmarks/bench_archive_memory.py [--games N] [--base B]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.write import canonical, to_jsonl


def games_file(path: Path, games: int, base: list[dict]) -> None:
    """``games`` distinct games: the base games, each again with its players renamed."""
    with open(path, "w", encoding="utf-8") as f:
        for i in range(games):
            rec = base[i % len(base)]
            text = json.dumps(rec)
            for name in rec["players"]:
                text = text.replace(json.dumps(name), json.dumps(f"{name}-{i // len(base)}"))
            f.write(to_jsonl(json.loads(text)))


def peak_of(args: list[str], cwd: Path) -> tuple[float, int]:
    """The child's peak RSS in MiB, and its exit status."""
    code = ("import resource, runpy, sys; sys.argv = ['pitch', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('pitchcli', run_name='__main__')\n"
            "finally:\n    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True)
    return int(r.stderr.strip().splitlines()[-1]) / 1024, r.returncode


RUNS = {
    "validate": ["validate", "-q"],
    "find --player": ["find", "--player", "Ann", "--format", "jsonl"],
    "find --set (hands)": ["find", "--set", "--format", "paths"],
    "convert --to yaml": ["convert", "--to", "yaml"],
    "dedup": ["dedup", "--format", "json"],
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--base", type=int, default=500)
    args = ap.parse_args()
    rng = random.Random(25)
    base = [canonical(simulate_game("auction", rng=rng, game_id=f"g{i}")) for i in range(args.base)]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        sizes = (args.games, 10 * args.games)
        for n in sizes:
            games_file(root / f"{n}.jsonl", n, base)
        print(f"peak RSS, MiB: {sizes[0]:,} games vs {sizes[1]:,} "
              f"({os.path.getsize(root / f'{sizes[1]}.jsonl') / 1e6:.0f} MB of JSON Lines)")
        peaks: dict[str, list[float]] = {}
        for name, cmd in RUNS.items():
            for n in sizes:  # side by side
                peak, _status = peak_of([*cmd, f"{n}.jsonl"], root)
                peaks.setdefault(name, []).append(peak)
            a, b = peaks[name]
            print(f"  {name:<20} {a:8.1f} {b:8.1f}  (+{b - a:.1f} MiB)")
        a, b = peaks["dedup"]
        print(f"dedup: {(b - a) * 2**20 / (sizes[1] - sizes[0]):.0f} bytes per distinct game more "
              f"(peak RSS, {sizes[1] - sizes[0]:,} more games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
