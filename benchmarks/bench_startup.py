"""Benchmark (not a test): where ``pitch validate ONE_FILE``'s start-up goes.

    python benchmarks/bench_startup.py [--repeat 21]

Times, as wall-clock medians of ``--repeat`` runs interleaved, a Python child
that imports a growing set of what ``validate`` needs — the interpreter alone,
``click`` and ``yaml`` (issue 22's baseline), then jsonschema_rs, the engine,
the record readers, the pipeline and the command — and then ``pitch validate``
of one sample, and prints each step's cost and the ratio to the baseline
(target: ``pitch validate ONE_FILE`` ≤ 1.5× ``python -c "import click, yaml"``).
Run it where bytecode is written (``PYTHONDONTWRITEBYTECODE`` unset), as an
installed package runs: the first round warms the caches and is not counted.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import ROOT, compile_tree

PY = sys.executable
PITCH = str(Path(PY).with_name("pitch"))
SAMPLE = str(ROOT / "samples" / "auction-full.yaml")

_STEPS = [
    ("the interpreter", []),
    ("click, yaml (the baseline)", ["click", "yaml"]),
    ("+ jsonschema_rs", ["jsonschema_rs"]),
    ("+ the engine", ["pitchcli.engine.game"]),
    ("+ the record readers", ["pitchcli.record.load", "pitchcli.record.comments", "pitchcli.record.schema"]),
    ("+ the pipeline and the command", ["pitchcli.cli", "pitchcli.pipeline.lint", "pitchcli.pipeline.driver",
                                        "pitchcli.commands.validate", "pitchcli.views.verdict",
                                        "pitchcli.render.jsonstream"]),
]


def _run(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> None:
    """Print each step's median and the ratio of ``pitch validate`` to the baseline."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=21)
    args = ap.parse_args()
    compile_tree()
    commands: list[tuple[str, list[str]]] = []
    modules: list[str] = []
    for name, more in _STEPS:
        modules += more
        commands.append((name, [PY, "-c", "import " + ", ".join(modules) if modules else "pass"]))
    commands.append(("pitch validate ONE_FILE", [PITCH, "validate", SAMPLE]))
    times: dict[str, list[float]] = {name: [] for name, _ in commands}
    for _, argv in commands:  # warm the bytecode and the file caches
        _run(argv)
    for _ in range(args.repeat):
        for name, argv in commands:
            times[name].append(_run(argv))
    base = times["click, yaml (the baseline)"]
    before = 0.0
    print(f"{'step':34s} {'median':>9s} {'step cost':>10s}")
    for name, got in times.items():
        m = statistics.median(got)
        print(f"{name:34s} {m * 1000:7.1f} ms {(m - before) * 1000:+8.1f} ms")
        before = m
    ratio = statistics.median(p / b for p, b in zip(times["pitch validate ONE_FILE"], base, strict=True))
    print(f"pitch validate ONE_FILE / import click, yaml: {ratio:.2f}x (medians of paired runs; target 1.5x)")


if __name__ == "__main__":
    main()
