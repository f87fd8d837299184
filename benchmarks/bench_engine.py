"""Benchmark of issue 10's targets (not a test): each figure next to its baseline, in one run.

    python benchmarks/bench_engine.py [--games 10000] [--yaml-games 1000]
                                      [--big 100000] [--repeat 3] [--cache DIR]
                                      [--only json,yaml,startup,memory]

Prints, each as a median of ``--repeat`` runs of CPU time (user + system of the
child process) and the ratio to the baseline measured in the same run (the
commands of a part run in turn, so a change of the machine's load falls on
both), with the load average at the start and the end; ``--only`` picks parts:

- JSON Lines of ``--games`` simulated games, for ``auction`` (4 players),
  ``ten-point`` and ``ten-point-5``: ``pitch validate -q FILE`` against a bare
  Python process that ``json.loads`` every line of the same file; hands/s per
  core (target: at most 8x, at least 20,000 hands/s for Auction Pitch);
- YAML, a stream of ``--yaml-games`` Auction Pitch games: ``pitch validate``
  against ``yaml.compose_all`` with libyaml's ``CSafeLoader`` (target 1.2x);
- start-up: ``pitch --help`` and ``pitch validate`` of one small file against
  ``python -c "import click, yaml"`` (target 2x), with the bytecode of every
  module cached as an installed package has it, and with none for our modules
  (``PYTHONDONTWRITEBYTECODE=1`` with an editable install compiles them at
  every start);
- ``pitch summarize`` peak memory (``ru_maxrss`` of the child) on ``--games``
  and on ``--big`` games (the small file's lines repeated: the same work per
  game, without minutes of generating), which should stay within 10%.

Games are generated once with ``pitch simulate`` into ``--cache`` (default
``~/.cache/pitchcli-bench``): ``--unique`` distinct games per profile (simulating
replays every hand as it is made, so it is slow), repeated to the size asked
for. Every game is still loaded and checked in full, so the work per game is the
work of new games. The YAML stream is the first games written as YAML by the
project's own writer. Nothing is asserted: the figures are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
PITCH = [PY, "-m", "pitchcli"]
PARTS = ("json", "yaml", "startup", "memory")


def compile_tree() -> None:
    """Write this tree's bytecode, as ``pip install`` does for an installed
    package: where ``PYTHONDONTWRITEBYTECODE`` is set (this machine sets it), an
    editable install would otherwise compile every module again in each child,
    some 50 ms a run that no user pays."""
    import compileall

    compileall.compile_dir(str(ROOT / "pitchcli"), quiet=1)


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


T = TypeVar("T")


def in_turn(items: Sequence[T], round_: int) -> Sequence[T]:
    """``items`` in the order given in an even round and the other way round in
    an odd one. The machine's speed drifts within a round of paired runs, and a
    fixed order hands the drift to one command (issue 22, stop 50: two trees
    measured 0.88x of each other, twice, and 0.98x with the order alternating)."""
    return items if round_ % 2 == 0 else items[::-1]


def measure_rounds(cmds: list[list[str]], repeat: int, env: dict[str, str] | None = None,
                   cwd: Path = ROOT) -> list[list[float]]:
    """The CPU seconds of each command in each round, run in ``cwd``: the commands
    run in turn ``repeat`` times (interleaved, so a change in the machine's load
    falls on all of them; ``in_turn``)."""
    cpus: list[list[float]] = [[] for _ in cmds]
    for round_ in range(repeat):
        for cmd, out in in_turn(list(zip(cmds, cpus, strict=True)), round_):
            before = _child_cpu()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, cwd=cwd,
                           env=env)
            out.append(_child_cpu() - before)
    return cpus


def measure_side_by_side(cmds: list[list[str]], repeat: int, env: dict[str, str] | None = None) -> list[float]:
    """Median CPU seconds of each command over ``measure_rounds``."""
    return [statistics.median(c) for c in measure_rounds(cmds, repeat, env)]


def paired_ratio(these: Sequence[float], those: Sequence[float]) -> float:
    """The median over rounds of ``these[i] / those[i]``: two commands' ratio
    read round by round, each round's two runs side by side in time. On this
    shared machine, whose speed moves by a fifth within minutes, the ratio of
    the two medians can pair a fast round of one with a slow round of the other."""
    return statistics.median(a / b for a, b in zip(these, those, strict=True))


def peak_kib(cmd: list[str]) -> int:
    """Peak resident memory (KiB) of ``cmd``, read in a fresh wrapper process
    (RUSAGE_CHILDREN is the biggest child ever waited for, so it needs a new parent)."""
    code = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
            "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([PY, "-c", code, *cmd], capture_output=True, text=True, check=True, cwd=ROOT)
    return int(out.stdout.strip())


def unique(cache: Path, variant: str, games: int) -> Path:
    """A JSON Lines file of ``games`` distinct simulated games (made once, then cached)."""
    path = cache / f"i10-{variant}-{games}.jsonl"
    if not path.exists():
        print(f"  (simulating {games} {variant} games ...)", flush=True)
        tmp = path.with_suffix(".tmp")
        subprocess.run([*PITCH, "simulate", "--variant", variant, "--games", str(games), "--seed", "10",
                        "--format", "jsonl", "-o", str(tmp)], check=True, cwd=ROOT)
        tmp.rename(path)
    return path


def sized(cache: Path, variant: str, games: int, distinct: int) -> Path:
    """A JSON Lines file of ``games`` games: ``distinct`` simulated ones, repeated."""
    small = unique(cache, variant, min(games, distinct))
    path = cache / f"i10-{variant}-{games}-of-{min(games, distinct)}.jsonl"
    if not path.exists():
        lines = small.read_bytes().splitlines(keepends=True)
        with path.open("wb") as f:
            for i in range(games):
                f.write(lines[i % len(lines)])
    return path


def as_yaml(source: Path, games: int) -> Path:
    """The first ``games`` games of a JSON Lines file as one YAML stream."""
    path = source.with_name(f"{source.stem}-{games}.yaml")
    if not path.exists():
        sys.path.insert(0, str(ROOT))
        from pitchcli.record.write import canonical, to_yaml

        with source.open("rb") as f, path.open("w", encoding="utf-8") as out:
            for i, line in enumerate(f):
                if i == games:
                    break
                out.write("---\n" + to_yaml(canonical(json.loads(line))))
    return path


def hands_in(path: Path) -> int:
    """How many hands the JSON Lines file holds."""
    with path.open("rb") as f:
        return sum(len(json.loads(line)["hands"]) for line in f)


def row(label: str, cpu: float, base: float, extra: str = "") -> None:
    print(f"  {label:<44} {cpu:8.3f} s  {cpu / base:6.2f}x{extra}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000, help="JSON Lines games per profile")
    ap.add_argument("--yaml-games", type=int, default=1_000)
    ap.add_argument("--big", type=int, default=100_000, help="games for the peak-memory run (0: skip)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--unique", type=int, default=1_000, help="distinct simulated games per profile")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "pitchcli-bench")
    ap.add_argument("--profiles", default="auction,ten-point,ten-point-5")
    ap.add_argument("--only", default=",".join(PARTS),
                    help=f"the parts to run, comma-separated, of {','.join(PARTS)}")
    args = ap.parse_args()
    parts = set(args.only.split(","))
    if not parts <= set(PARTS):
        ap.error(f"--only: unknown part(s) {', '.join(sorted(parts - set(PARTS)))}")
    args.cache.mkdir(parents=True, exist_ok=True)
    os.environ.pop("PITCHCLI_SCHEMA_BACKEND", None)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; CPU seconds, median of {args.repeat}")
    print(f"load average at the start: {_load()}")
    if "json" in parts:
        _json_part(args)
    if "yaml" in parts:
        _yaml_part(args)
    if "startup" in parts:
        _startup_part(args)
    if "memory" in parts and args.big:
        _memory_part(args)
    print(f"\nload average at the end: {_load()}")


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _json_part(args: argparse.Namespace) -> None:
    print(f"\nJSON Lines, {args.games} games: pitch validate vs json.loads of every line")
    loads = "import json, sys\nfor line in open(sys.argv[1], 'rb'):\n    json.loads(line)"
    for variant in args.profiles.split(","):
        path = sized(args.cache, variant, args.games, args.unique)
        hands = hands_in(path)
        base, cpu = measure_side_by_side(
            [[PY, "-c", loads, str(path)], [*PITCH, "validate", "-q", str(path)]], args.repeat
        )
        print(f" {variant}: {hands} hands")
        row("json.loads (baseline)", base, base)
        row("pitch validate", cpu, base, f"  {hands / cpu:9,.0f} hands/s")


def _yaml_part(args: argparse.Namespace) -> None:
    print(f"\nYAML, a {args.yaml_games}-game stream: pitch validate vs yaml.compose_all (CSafeLoader)")
    ypath = as_yaml(unique(args.cache, "auction", min(args.yaml_games, args.unique)), args.yaml_games)
    compose = ("import sys, yaml\nfor _ in yaml.compose_all(open(sys.argv[1], 'rb'), Loader=yaml.CSafeLoader):"
               "\n    pass")
    base, cpu = measure_side_by_side(
        [[PY, "-c", compose, str(ypath)], [*PITCH, "validate", "-q", str(ypath)]], args.repeat
    )
    row("yaml.compose_all CSafeLoader (baseline)", base, base)
    row("pitch validate", cpu, base)


def _startup_part(args: argparse.Namespace) -> None:
    one = ROOT / "samples" / "auction-full.yaml"
    cmds = [[PY, "-c", "import click, yaml"], [*PITCH, "--help"], [*PITCH, "validate", "-q", str(one)]]
    # As installed (pip writes the bytecode of every module), and with every
    # module compiled at each start (PYTHONDONTWRITEBYTECODE=1 and an editable
    # install: our modules have no bytecode then, click's and yaml's do).
    cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cached["PYTHONPYCACHEPREFIX"] = str(args.cache / "pycache")
    uncached = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    uncached.pop("PYTHONPYCACHEPREFIX", None)
    for cmd in cmds:  # write the bytecode once
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=cached, cwd=ROOT)
    labels = ("bytecode cached, as installed", "no bytecode (PYTHONDONTWRITEBYTECODE=1)")
    for label, env in zip(labels, (cached, uncached), strict=True):
        print(f"\nStart-up, {label}: vs python -c 'import click, yaml'")
        base, helped, validated = measure_side_by_side(cmds, args.repeat * 3, env)
        row("import click, yaml (baseline)", base, base)
        row("pitch --help", helped, base)
        row(f"pitch validate {one.name}", validated, base)


def _memory_part(args: argparse.Namespace) -> None:
    print(f"\nSummarize peak memory: {args.games} vs {args.big} games (auction)")
    small = sized(args.cache, "auction", args.games, args.unique)
    big = sized(args.cache, "auction", args.big, args.unique)
    a = peak_kib([*PITCH, "summarize", str(small)])
    b = peak_kib([*PITCH, "summarize", str(big)])
    print(f"  {args.games:>7} games {a / 1024:8.1f} MiB")
    print(f"  {args.big:>7} games {b / 1024:8.1f} MiB  {b / a:6.2f}x")


if __name__ == "__main__":
    main()
