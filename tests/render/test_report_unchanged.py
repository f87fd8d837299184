"""Golden test: ``pitch report`` writes byte for byte the site it wrote before
its game pages were made faster (issue 22: the game views read from the public
``Hand`` values rather than the replay's event stream, a trick's cells and a
row of cards rendered once per distinct fragment).

The data file holds a sha256 of every page (and of the list of pages) of the
site of ``samples/`` and of a folder of simulated games of every variant, each
as full detail, play-level and (Auction) tally records, with a record whose
names and event are long and hold markup. Regenerate it only on purpose:
``PITCH_REGOLD=1 python -m pytest tests/render/test_report_unchanged.py``.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from support.golden import ROOT, VARIANTS, check
from support.quick_streams import LEVELS

from pitchcli.cli import main

GOLDEN = Path(__file__).with_name("data") / "report_golden.json"


def _site(inputs: Path, out: Path) -> dict[str, str]:
    r = CliRunner().invoke(main, ["report", "--isolated", str(inputs), "-o", str(out)])
    assert r.exit_code == 0, r.output
    pages = sorted(p for p in out.rglob("*") if p.is_file() and p.name != ".pitch-report.json")
    got = {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in pages}
    got["(pages)"] = hashlib.sha256("\n".join(got).encode()).hexdigest()
    return got


def _games(folder: Path) -> None:
    """Simulated games of every variant (full detail and play-level; Auction also
    as a tally) and a record with long names holding markup."""
    folder.mkdir()
    for variant in VARIANTS:
        r = CliRunner().invoke(main, ["simulate", "--variant", variant, "--seed", "3", "--games", "2",
                                      "--format", "jsonl"])
        assert r.exit_code == 0, r.output
        for n, line in enumerate(r.output.splitlines()):
            rec = yaml.safe_load(line)
            levels = ("full", "play", "tally") if variant.startswith("auction") else ("full", "play")
            for level in levels:
                out = LEVELS[level](rec)
                out["event"] = f"{variant} {level}"
                (folder / f"{variant}-{n}-{level}.yaml").write_text(yaml.safe_dump(out), encoding="utf-8")
    text = (ROOT / "samples" / "auction-full.yaml").read_text(encoding="utf-8")
    text = re.sub(r"\bAnn\b", "'Ann <b>&amp;</b> " + "W" * 70 + "'", text)
    text = text.replace("Ben", "'Ben " + "W" * 70 + "'")
    text = text.replace("Thursday club ladder", "'Thursday <script>x</script> " + "L" * 90 + "'")
    (folder / "long-names.yaml").write_text(text, encoding="utf-8")


def test_report_pages_unchanged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # (the pages name the records relative to their common folder)
    got = {f"samples {k}": v for k, v in _site(Path("samples"), tmp_path / "samples-site").items()}
    _games(tmp_path / "games")
    got.update({f"games {k}": v for k, v in _site(tmp_path / "games", tmp_path / "games-site").items()})
    check(got, GOLDEN)
