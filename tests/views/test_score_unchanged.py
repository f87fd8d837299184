"""Golden test: ``pitch score`` prints byte for byte what it printed before the
score sheet moves onto the public API (issue 26).

The data file holds a sha256 of the output (and exit code) of every score format,
plain, ``--explain`` and ``--check``, for every record in samples/ and for
simulated games of every variant. Regenerate it only on purpose:
``PITCH_REGOLD=1 python -m pytest tests/views/test_score_unchanged.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from pitchcli.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("data") / "score_golden.json"
RUNS = (("text",), ("json",), ("csv",), ("text", "--explain"), ("json", "--explain"), ("text", "--check"),
        ("json", "--check"))
VARIANTS = ("auction", "auction-partners", "ten-point", "ten-point-2", "ten-point-3", "ten-point-5",
            "ten-point-6", "ten-point-7", "ten-point-8")
SEEDS = (1, 7)


def _digest(args: list[str]) -> str:
    r = CliRunner().invoke(main, args)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return hashlib.sha256(f"{r.exit_code}\n{r.output}".encode()).hexdigest()


def _scores(name: str) -> dict[str, str]:
    return {f"{' '.join(run)} {name}": _digest(["score", "--isolated", "--color", "never", "--format", run[0],
                                                *run[1:], name])
            for run in RUNS}


def _current(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    out: dict[str, str] = {}
    # Relative names, so the output (which names the file) is the same wherever it runs.
    monkeypatch.chdir(ROOT)
    for record in sorted(ROOT.glob("samples*/**/*")):
        if record.is_file() and record.suffix in {".yaml", ".yml", ".json", ".jsonl"}:
            out.update(_scores(record.relative_to(ROOT).as_posix()))
    monkeypatch.chdir(tmp_path)
    for variant in VARIANTS:
        for seed in SEEDS:
            name = f"{variant}-{seed}.yaml"
            r = CliRunner().invoke(main, ["simulate", "--variant", variant, "--seed", str(seed), "-o", name])
            assert r.exit_code == 0, r.output
            out.update(_scores(name))
    return out


def test_score_output_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    current = _current(tmp_path, monkeypatch)
    if os.environ.get("PITCH_REGOLD") == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(current, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert current == golden
