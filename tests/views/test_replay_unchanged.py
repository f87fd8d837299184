"""Golden test: ``pitch replay`` prints byte for byte what it printed before the
replay moved onto the public API (issue 26).

The data file holds a sha256 of the output (and exit code) of every replay format
for every record in samples/ and for simulated games of every variant. Regenerate
it only on purpose: ``PITCH_REGOLD=1 python -m pytest tests/views/test_replay_unchanged.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from support.golden import VARIANTS, check, digest, outputs

from pitchcli.cli import main

GOLDEN = Path(__file__).with_name("data") / "replay_golden.json"
FORMATS = ("text", "json")


def _replays(name: str) -> dict[str, str]:
    return {f"{fmt} {name}": digest(["replay", "--isolated", "--format", fmt, name]) for fmt in FORMATS}


def test_replay_output_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check(outputs(_replays, tmp_path, monkeypatch), GOLDEN)


def test_the_variants_are_all_simulate_offers() -> None:
    r = CliRunner().invoke(main, ["simulate", "--help"])
    offered = r.output.split("--variant [", 1)[1].split("]", 1)[0].split("|")
    assert tuple(offered) == VARIANTS
