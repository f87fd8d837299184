"""Golden outputs of a command: a sha256 of its exit code and output for every
record in samples/ and for simulated games of every variant, so that a move of
the code behind it (issue 26: onto the public API) can be shown to change no
byte. ``PITCH_REGOLD=1`` rewrites the data file; do so only on purpose.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from pitchcli.cli import main

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ("auction", "auction-partners", "ten-point", "ten-point-2", "ten-point-3", "ten-point-5",
            "ten-point-6", "ten-point-7", "ten-point-8")
SEEDS = (1, 7)


def digest(args: list[str]) -> str:
    """The sha256 of ``pitch ARGS``'s exit code and output (no traceback allowed)."""
    r = CliRunner().invoke(main, args)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return hashlib.sha256(f"{r.exit_code}\n{r.output}".encode()).hexdigest()


def outputs(runs: Callable[[str], dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
            samples: str = "samples/**/*") -> dict[str, str]:
    """``runs(name)`` for every record matching ``samples`` (relative names, so
    the output, which names the file, is the same wherever it runs) and for a
    simulated game of every variant and seed."""
    out: dict[str, str] = {}
    monkeypatch.chdir(ROOT)
    for record in sorted(ROOT.glob(samples)):
        if record.is_file() and record.suffix in {".yaml", ".yml", ".json", ".jsonl"}:
            out.update(runs(record.relative_to(ROOT).as_posix()))
    monkeypatch.chdir(tmp_path)
    for variant in VARIANTS:
        for seed in SEEDS:
            name = f"{variant}-{seed}.yaml"
            r = CliRunner().invoke(main, ["simulate", "--variant", variant, "--seed", str(seed), "-o", name])
            assert r.exit_code == 0, r.output
            out.update(runs(name))
    return out


def check(current: dict[str, str], golden: Path) -> None:
    """Assert ``current`` is the golden data (rewritten first with ``PITCH_REGOLD=1``)."""
    if os.environ.get("PITCH_REGOLD") == "1":
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(json.dumps(current, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    assert current == json.loads(golden.read_text(encoding="utf-8"))
