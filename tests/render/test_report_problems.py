"""A report page lists at most ``MAX_ROWS`` invalid records, and counts the
rest (issue 22, stop 53: a page's weight is bounded, as every list's is).

The index and the event's page listed every invalid record: 1,000 of them
made each page 262 KB, so 100,000 would make 26 MB pages. Now each lists the
first 200, says how many more there are, and where to see them all; the
heading counts them all. A site with fewer is as it was.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pitchcli.cli import main
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.views.site import MAX_ROWS


def _site(tmp_path: Path, invalid: int) -> Path:
    game = {**simulate_game("auction", seed=1), "event": "Club"}
    broken = {"format": "pitch-record/1", "event": "Club", "variant": "auction"}  # no players, no hands
    records = tmp_path / "club.jsonl"
    records.write_text("".join(json.dumps(r) + "\n" for r in [game, *[broken] * invalid]), encoding="utf-8")
    out = tmp_path / "site"
    r = CliRunner().invoke(main, ["report", "--allow-invalid", "-o", str(out), str(records)])
    assert r.exit_code == 0, r.output
    return out


@pytest.mark.parametrize("invalid", [3, MAX_ROWS, MAX_ROWS + 5])
def test_a_page_lists_at_most_max_rows_invalid_records(tmp_path: Path, invalid: int) -> None:
    site = _site(tmp_path, invalid)
    for page in (site / "index.html", site / "club" / "index.html"):
        html = page.read_text(encoding="utf-8")
        assert f"Records not counted ({invalid})" in html
        assert html.count('<li class="invalid">') == min(invalid, MAX_ROWS)
        more = re.findall(r"… and (\d+) more, not listed here: <code>pitch validate</code> lists every one", html)
        assert more == ([str(invalid - MAX_ROWS)] if invalid > MAX_ROWS else [])
