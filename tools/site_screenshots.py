"""The README's screenshots of `pitch report`'s pages, one per page kind.

    python tools/site_screenshots.py        # writes docs/site-*.png

Builds the site of the bundled tournament (samples/tournament) in a
temporary folder and renders each kind of page in headless Chromium
(tests/support/browser.py) at a desktop's width (1280 px) and the index at a
phone's (390 px). Needs Debian's chromium.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from click.testing import CliRunner  # noqa: E402
from support.browser import render  # noqa: E402

from pitchcli.cli import main  # noqa: E402

SHOTS = [("index", "index.html", 1280), ("event", "winter-setback-open/index.html", 1280),
         ("game", "ten-point-saturday/game-1.html", 1280), ("player", "players/ann.html", 1280),
         ("ratings", "ratings.html", 1280), ("phone", "index.html", 390)]
TALL = {"game": 2200}  # the game page down to its first hand's deal (the hand diagram) and tricks


def main_() -> None:
    """Write docs/site-KIND.png for every page kind."""
    with tempfile.TemporaryDirectory(prefix="pitch-site-") as tmp:
        r = CliRunner().invoke(main, ["report", str(ROOT / "samples" / "tournament"), "-o", tmp])
        if r.exit_code != 0:
            raise SystemExit(r.output)
        for kind, page, width in SHOTS:
            (shown,) = render([Path(tmp) / page], width=width, height=TALL.get(kind, 900 if width > 500 else 844),
                              mobile=width < 500)
            out = ROOT / "docs" / f"site-{kind}.png"
            out.write_bytes(shown.screenshot)
            print(out.relative_to(ROOT))


if __name__ == "__main__":
    main_()
