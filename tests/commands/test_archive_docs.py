"""docs/archive.md is run: every line of its ``sh`` blocks (a trailing ``# exit N``
says the status expected, else 0) and every ``console`` block (``$ command``,
then its standard output, exactly), in order, in a folder holding a copy of
``samples/``, as a user would type them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "archive.md"
BLOCK = re.compile(r"^```(sh|console)\n(.*?)^```", re.M | re.S)
EXIT = re.compile(r"#\s*exit (\d+)\s*$")


def steps() -> list[tuple[str, int, str | None]]:
    """(command, expected status, expected output or None) in page order."""
    out: list[tuple[str, int, str | None]] = []
    for kind, body in BLOCK.findall(PAGE.read_text("utf-8")):
        if kind == "sh":
            for line in body.splitlines():
                if line.strip():
                    m = EXIT.search(line)
                    out.append((line, int(m[1]) if m else 0, None))
        else:
            first, _, rest = body.partition("\n")
            assert first.startswith("$ "), first
            out.append((first[2:], 0, rest))
    return out


def test_every_recipe_of_docs_archive_runs(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "samples", tmp_path / "samples")
    found = steps()
    assert len(found) >= 12 and sum(1 for s in found if s[2] is not None) >= 3
    env = {**os.environ, "NO_COLOR": "1", "PY": sys.executable}
    for command, status, output in found:
        r = subprocess.run(["bash", "-c", 'pitch() { "$PY" -m pitchcli "$@"; }\n' + command], cwd=tmp_path,
                           capture_output=True, text=True, timeout=120, env=env)
        assert r.returncode == status, f"{command}\n{r.stdout}{r.stderr}"
        assert "Traceback" not in r.stderr
        if output is not None:
            assert r.stdout == output, command
    # what the recipes made
    assert len((tmp_path / "ann.jsonl").read_text("utf-8").splitlines()) == 12  # Ann played 12 of the 28 games
    assert len((tmp_path / "clean.jsonl").read_text("utf-8").splitlines()) == 28
    assert len((tmp_path / "to-check.tsv").read_text("utf-8").splitlines()) == 16
    assert len(list((tmp_path / "games").iterdir())) == 28
