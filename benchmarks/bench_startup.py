"""Benchmark (not a test): where ``pitch validate ONE_FILE``'s start-up goes.

    python benchmarks/bench_startup.py [--repeat 21]

Times, as wall-clock medians of ``--repeat`` runs interleaved, a Python child
that imports a growing set of what ``validate`` needs — the interpreter alone,
``click`` and ``yaml`` (issue 22's baseline), then jsonschema_rs, the engine,
the record readers, the pipeline and the command — and then ``pitch validate``
of one sample (copied to a folder of its own, as a folder of records is: no
configuration file; and in this repository, whose pyproject.toml pitch searches for
a ``[tool.pitch]`` table),
and prints each step's cost (and each child's CPU, user + system) and the ratio
to the baseline, of CPU (the issue's measure) and of wall-clock, which adds the
file reads and waits (target: ``pitch validate ONE_FILE`` ≤ 1.5× ``python -c
"import click, yaml"``),
then what defining the package's dataclasses costs of its own import (a child
that times each, CPU medians).
Run it where bytecode is written (``PYTHONDONTWRITEBYTECODE`` unset), as an
installed package runs: the first round warms the caches and is not counted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import ROOT, compile_tree, in_turn, paired_ratio

PY = sys.executable
BASE = "click, yaml (the baseline)"
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


# A child that times every dataclass the modules of ``validate`` define (each
# generated method is compiled at import: the biggest share of pitch's own import).
_DATACLASSES = """
import dataclasses, sys, time
made, spent, real = 0, 0.0, dataclasses.dataclass
def timed(cls=None, **kw):
    def wrap(c):
        global made, spent
        start = time.process_time()
        out = real(c, **kw)
        spent += time.process_time() - start
        made += 1
        return out
    return wrap if cls is None else wrap(cls)
dataclasses.dataclass = timed
import click, yaml
start = time.process_time()
import {modules}
print(made, spent, time.process_time() - start)
"""


def _dataclasses(modules: list[str]) -> tuple[int, float, float]:
    """How many dataclasses importing ``modules`` defines, the CPU seconds that
    took, and the CPU seconds of the whole import (after click and yaml)."""
    code = _DATACLASSES.replace("{modules}", ", ".join(m for m in modules if m not in ("click", "yaml")))
    out = subprocess.run([PY, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), float(out[1]), float(out[2])


def _run(argv: list[str], cwd: str | None = None) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system) of the child running ``argv``."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, cwd=cwd)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, argv)
    return wall, usage.ru_utime + usage.ru_stime


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
    # The record in a folder of records, as an organiser has it: no configuration
    # file, so pitch reads none. In this repository pitch would also parse its
    # pyproject.toml for a [tool.pitch] table (the last row).
    records = tempfile.mkdtemp(prefix="bench-startup-")
    shutil.copy(SAMPLE, records)
    commands.append(("pitch validate ONE_FILE", [PITCH, "validate", Path(SAMPLE).name]))
    commands.append(("  the same, in this repository", [PITCH, "validate", SAMPLE]))
    where = {"pitch validate ONE_FILE": records}
    times: dict[str, list[float]] = {name: [] for name, _ in commands}
    cpu: dict[str, list[float]] = {name: [] for name, _ in commands}
    try:
        for name, argv in commands:  # warm the bytecode and the file caches
            _run(argv, where.get(name))
        for round_ in range(args.repeat):
            for name, argv in in_turn(commands, round_):
                wall, spent = _run(argv, where.get(name))
                times[name].append(wall)
                cpu[name].append(spent)
    finally:
        shutil.rmtree(records)
    before = 0.0
    print(f"{'step':34s} {'median':>9s} {'step cost':>10s} {'CPU':>9s}")
    for name, got in times.items():
        m = statistics.median(got)
        print(f"{name:34s} {m * 1000:7.1f} ms {(m - before) * 1000:+8.1f} ms "
              f"{statistics.median(cpu[name]) * 1000:6.1f} ms")
        before = m
    for name, what in (("pitch validate ONE_FILE", "a folder of records"),
                       ("  the same, in this repository", "in a project with a pyproject.toml")):
        # (The measure is the child's CPU; wall-clock adds the file reads and waits.)
        ratios = [paired_ratio(got[name], got[BASE]) for got in (cpu, times)]
        print(f"pitch validate ONE_FILE ({what}) / import click, yaml: {ratios[0]:.2f}x CPU, "
              f"{ratios[1]:.2f}x wall-clock (medians of paired runs; target 1.5x)")
    runs = [_dataclasses(modules) for _ in range(min(args.repeat, 7))]
    made = runs[0][0]
    spent, whole = statistics.median(r[1] for r in runs), statistics.median(r[2] for r in runs)
    print(f"of pitch's own import ({whole * 1000:.1f} ms of CPU, after click and yaml): defining its {made} "
          f"dataclasses {spent * 1000:.1f} ms ({spent / whole:.0%})")


if __name__ == "__main__":
    main()
