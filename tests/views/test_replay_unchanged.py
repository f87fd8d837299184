"""Golden test: ``pitch replay`` prints byte for byte what it printed before the
replay moved onto the public API (issue 26).

The data file holds a sha256 of the output (and exit code) of every replay format
for every record in samples/ and for simulated games of every variant. Regenerate
it only on purpose: ``PITCH_REGOLD=1 python -m pytest tests/views/test_replay_unchanged.py``.
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
GOLDEN = Path(__file__).with_name("data") / "replay_golden.json"
FORMATS = ("text", "json")
VARIANTS = ("auction", "auction-partners", "ten-point", "ten-point-2", "ten-point-3", "ten-point-5",
            "ten-point-6", "ten-point-7", "ten-point-8")
SEEDS = (1, 7)


def _digest(args: list[str]) -> str:
    r = CliRunner().invoke(main, args)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return hashlib.sha256(f"{r.exit_code}\n{r.output}".encode()).hexdigest()


def _replays(name: str) -> dict[str, str]:
    return {f"{fmt} {name}": _digest(["replay", "--isolated", "--format", fmt, name]) for fmt in FORMATS}


def _current(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    out: dict[str, str] = {}
    # Relative names, so the output (which names the file) is the same wherever it runs.
    monkeypatch.chdir(ROOT)
    for record in sorted(ROOT.glob("samples/**/*")):
        if record.is_file() and record.suffix in {".yaml", ".yml", ".json", ".jsonl"}:
            out.update(_replays(record.relative_to(ROOT).as_posix()))
    monkeypatch.chdir(tmp_path)
    for variant in VARIANTS:
        for seed in SEEDS:
            name = f"{variant}-{seed}.yaml"
            r = CliRunner().invoke(main, ["simulate", "--variant", variant, "--seed", str(seed), "-o", name])
            assert r.exit_code == 0, r.output
            out.update(_replays(name))
    return out


def test_replay_output_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    current = _current(tmp_path, monkeypatch)
    if os.environ.get("PITCH_REGOLD") == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(current, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert current == golden


def test_the_variants_are_all_simulate_offers() -> None:
    r = CliRunner().invoke(main, ["simulate", "--help"])
    offered = r.output.split("--variant [", 1)[1].split("]", 1)[0].split("|")
    assert tuple(offered) == VARIANTS
