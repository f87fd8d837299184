"""Benchmark of ``pitch validate`` by kind of record (not a test): issue 22's
"fast path for every clean record".

    python benchmarks/bench_record_kinds.py [--games 2000] [--repeats 3]
                                            [--baseline-tree DIR] [--kinds auction,play,...]

For each kind it writes one JSON Lines file of ``--games`` simulated games
(``pitch simulate``, seed 22) into a cache folder (default
``~/.cache/pitchcli-bench/kinds``):

- ``auction``: full-detail Auction Pitch, 4 players (the deal and the tricks);
- ``play``: the same games play-level (every hand's ``deal`` dropped: the deal
  is recovered from the tricks);
- ``tally``: the same games as tallies (no deal, no tricks; each hand's
  ``points`` says who took High, Low, Jack and Game, as the replay found);
- ``ten-point``, ``ten-point-5``: the simulator's records of those profiles.

Then, per kind and repeat, side by side: ``json.loads`` of every line (CPU
seconds in this process), and ``pitch validate FILE`` as a child process
(its CPU seconds, user + system), for this tree and, with ``--baseline-tree``
(a checkout of main, say ``git archive main | tar -x -C DIR``), for that tree
run the same way (``PYTHONPATH=DIR``). It prints the medians, hands per second
and the ratios to ``json.loads``. Nothing is asserted: the machine is shared,
so trust the medians and the ratios measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from support.quick_streams import LEVELS  # noqa: E402  (the tests' helpers: one way to write each kind)

KINDS = ("auction", "play", "tally", "ten-point", "ten-point-5")

# Runs a command and prints the CPU time of its process tree.
_WRAP = """
import json, resource, subprocess, sys
rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"rc": rc, "cpu": u.ru_utime + u.ru_stime}))
"""


def generate(cache: Path, games: int, kinds: list[str]) -> dict[str, Path]:
    """The JSON Lines file of each kind (made once per size)."""
    cache.mkdir(parents=True, exist_ok=True)
    out: dict[str, Path] = {}
    for kind in kinds:
        path = cache / f"{kind}-{games}.jsonl"
        out[kind] = path
        if path.exists():
            continue
        variant = "auction" if kind in ("auction", "play", "tally") else kind
        source = cache / f"{variant}-{games}.jsonl"
        if not source.exists():
            subprocess.run([sys.executable, "-m", "pitchcli", "simulate", "--variant", variant, "--games",
                            str(games), "--seed", "22", "--format", "jsonl", "-o", str(source)], check=True)
        if kind in ("play", "tally"):
            change = LEVELS[kind]
            lines = [json.dumps(change(json.loads(line))) for line in source.read_text("utf-8").splitlines()]
            tmp = path.with_suffix(".tmp")
            tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
            tmp.replace(path)
    return out


def json_loads_cpu(path: Path) -> float:
    """CPU seconds of ``json.loads`` of every line of ``path``."""
    lines = path.read_bytes().splitlines()
    t = time.process_time()
    for line in lines:
        json.loads(line)
    return time.process_time() - t


def validate_cpu(path: Path, tree: Path | None) -> float:
    """CPU seconds of ``pitch validate path`` (of ``tree``'s code, if given) in a child."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    # Run from the data's folder: ``-m`` puts the working folder first on the
    # path, so from a source tree the child would import that tree's code.
    out = subprocess.run([sys.executable, "-c", _WRAP, sys.executable, "-m", "pitchcli", "validate", path.name],
                         capture_output=True, text=True, env=env, check=True, cwd=path.parent)
    found = json.loads(out.stdout)
    if found["rc"] != 0:
        raise SystemExit(f"pitch validate {path} exited {found['rc']}: the records should be valid")
    return float(found["cpu"])


def code_of(tree: Path | None, where: Path) -> str:
    """Where the child of ``validate_cpu`` imports pitchcli from (printed, so a run shows it)."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    return subprocess.run([sys.executable, "-c", "import pitchcli; print(pitchcli.__file__)"], capture_output=True,
                          text=True, env=env, check=True, cwd=where).stdout.strip()


def hands_in(path: Path) -> int:
    """The number of hands in a JSON Lines file of records."""
    return sum(len(json.loads(line)["hands"]) for line in path.read_bytes().splitlines())


def main() -> None:
    """Generate, measure side by side, print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--baseline-tree", type=Path, default=None)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "pitchcli-bench" / "kinds")
    args = ap.parse_args()
    kinds = [k for k in args.kinds.split(",") if k]
    files = generate(args.cache, args.games, kinds)
    trees: list[tuple[str, Path | None]] = [("this tree", None)]
    if args.baseline_tree is not None:
        trees.insert(0, ("baseline", args.baseline_tree.resolve()))
    for name, tree in trees:
        print(f"{name}: {code_of(tree, args.cache)}")
    print(f"{args.games} games per kind, medians of {args.repeats} (CPU seconds; ratio to json.loads per line)")
    header = f"{'kind':12} {'hands':>7} {'json.loads':>10}" + "".join(f" {name:>22}" for name, _ in trees)
    print(header)
    for kind in kinds:
        path = files[kind]
        base: list[float] = []
        times: dict[str, list[float]] = {name: [] for name, _ in trees}
        for _ in range(args.repeats):  # interleaved: the machine's noise falls on all alike
            base.append(json_loads_cpu(path))
            for name, tree in trees:
                times[name].append(validate_cpu(path, tree))
        hands = hands_in(path)
        b = statistics.median(base)
        cells = []
        for name, _ in trees:
            m = statistics.median(times[name])
            cells.append(f"{m:6.2f}s {hands / m:6.0f}/s {m / b:5.1f}x")
        print(f"{kind:12} {hands:7d} {b:9.3f}s" + "".join(f" {c:>22}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
