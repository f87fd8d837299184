"""Golden test: ``pitch score`` prints byte for byte what it printed before the
score sheet moves onto the public API (issue 26).

The data file holds a sha256 of the output (and exit code) of every score format,
plain, ``--explain`` and ``--check``, for every record in samples/ and
samples-invalid/ and for simulated games of every variant. Regenerate it only on
purpose: ``PITCH_REGOLD=1 python -m pytest tests/views/test_score_unchanged.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.golden import check, digest, outputs

GOLDEN = Path(__file__).with_name("data") / "score_golden.json"
RUNS = (("text",), ("json",), ("csv",), ("text", "--explain"), ("json", "--explain"), ("text", "--check"),
        ("json", "--check"))


def _scores(name: str) -> dict[str, str]:
    return {f"{' '.join(run)} {name}": digest(["score", "--isolated", "--color", "never", "--format", run[0],
                                               *run[1:], name])
            for run in RUNS}


def test_score_output_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check(outputs(_scores, tmp_path, monkeypatch, samples="samples*/**/*"), GOLDEN)
