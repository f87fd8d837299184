"""pitch report's pages in a real browser (headless Chromium, tests/support/browser.py)
and through the tools a web developer would run on them (issue 24):

- axe-core (tests/browser/node_modules, `npm ci` there), injected through the
  DevTools protocol into the index, an event, a game, a player and the
  ratings page, at a phone's width (390 px) and a desktop's (1280 px), light
  and dark: any violation fails;
- html-validate's CLI on the same pages: any error fails;
- no horizontal cut-off: at 1280 and 1920 px no table's box scrolls (every
  column shown), at 390 px the page itself is no wider than the screen (a
  wide table scrolls in its own box, which axe checks a keyboard can reach);
- column heads aligned as their cells; the chart's text at least 12 px on a
  phone; dark when the reader asks for it; on paper every column and the
  header readable.

Skipped when Chromium or the npm tools are missing outside CI (CI=true:
missing fails; .ci/run installs both).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from render.test_site import two_nights

from pitchcli.cli import main

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tests" / "browser"
PAGES = ["index.html", "winter-setback-open/index.html", "winter-setback-open/game-1.html",
         "ten-point-saturday/game-1.html", "players/ann.html", "ratings.html"]


def need(what: str, found: object) -> None:
    if not found:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{what} is missing in CI: .ci/run installs it")
        pytest.skip(f"{what} is not installed; CI runs this test")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled tournament, and the Winter Setback Open on a second night."""
    records = tmp_path_factory.mktemp("records")
    shutil.copytree(ROOT / "samples" / "tournament", records / "tournament")
    two_nights(records / "second")
    for f in (records / "second").rglob("*.yaml"):
        f.write_text(f.read_text(encoding="utf-8").replace('date: "2026-11-21"', 'date: "2026-11-14"'),
                     encoding="utf-8")  # a night before: the event's first night
    out = tmp_path_factory.mktemp("site")
    r = CliRunner().invoke(main, ["report", str(records / "tournament"),
                                  str(records / "second" / "2026-11-21"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out


_SHOWN: dict[tuple[Path, int, str | None, str | None], list[Any]] = {}


def rendered(site: Path, width: int, scheme: str | None = None, media: str | None = None) -> list[Any]:
    """The pages as shown at ``width`` (rendered once per module: Chromium is slow on a shared machine)."""
    from support.browser import axe_source, chromium, render
    need("chromium", chromium())
    need("axe-core (npm ci in tests/browser)", axe_source())
    key = (site, width, scheme, media)
    if key not in _SHOWN:
        _SHOWN[key] = render([site / p for p in PAGES], width=width, height=900, mobile=width < 500,
                             axe=axe_source(), scheme=scheme, media=media)
    return _SHOWN[key]


@pytest.mark.parametrize(("width", "scheme"), [(390, "light"), (1280, "light"), (390, "dark"), (1280, "dark")])
def test_axe_finds_no_violation(site: Path, width: int, scheme: str) -> None:
    for name, shown in zip(PAGES, rendered(site, width, scheme=scheme), strict=True):
        assert shown.violations == [], (name, width, scheme, shown.violations)
        assert shown.console == [], (name, shown.console)


@pytest.mark.parametrize("width", [1280, 1920])
def test_every_column_is_shown_at_desktop_widths(site: Path, width: int) -> None:
    for name, shown in zip(PAGES, rendered(site, width, "light"), strict=True):
        m = shown.measure
        assert m["scrollWidth"] <= width, (name, m["scrollWidth"])
        cut = [b for b in m["scrollBoxes"] if b["scrollWidth"] > b["clientWidth"]]
        assert not cut, (name, cut)
        assert m["misaligned"] == [], (name, m["misaligned"])


def test_standings_sort_when_a_column_head_is_pressed(site: Path) -> None:
    """The inline script (issue 24: sortable standings) makes each head a
    button: pressed, the rows are sorted down by it, pressed again up, and
    aria-sort says so. Without script the pages are as before (the HTML
    tests read them so); pages without standings have no script."""
    for name, shown in zip(PAGES, rendered(site, 1280, "light"), strict=True):
        s = shown.measure["sorting"]
        if not name.endswith("index.html"):  # (the index and event pages have standings)
            assert s is None and shown.measure["scripts"] == 0, name
            continue
        assert s is not None, name
        assert s["down"] == sorted(s["before"], reverse=True) and s["downSort"] == "descending", (name, s)
        assert s["up"] == sorted(s["before"]) and s["upSort"] == "ascending", (name, s)


def test_a_phone_scrolls_tables_not_the_page(site: Path) -> None:
    for name, shown in zip(PAGES, rendered(site, 390, "light"), strict=True):
        m = shown.measure
        assert m["scrollWidth"] <= 390, (name, m["scrollWidth"])
        assert m["smallestText"] >= 12, (name, m["smallestText"])
        if m["smallestChartText"] is not None:
            assert m["smallestChartText"] >= 12, (name, m["smallestChartText"])
        assert m["misaligned"] == [], (name, m["misaligned"])


def test_dark_when_the_reader_asks(site: Path) -> None:
    light, dark = (rendered(site, 1280, s)[0] for s in ("light", "dark"))
    assert light.measure["background"] == "rgb(255, 255, 255)"
    assert dark.measure["background"] == "rgb(22, 24, 28)"


def test_on_paper_every_column_and_the_header_show(site: Path) -> None:
    # An A4 page's width at 96 dpi, less its margins.
    for name, shown in zip(PAGES, rendered(site, 720, "light", "print"), strict=True):
        m = shown.measure
        cut = [b for b in m["scrollBoxes"] if b["scrollWidth"] > b["clientWidth"]]
        assert not cut, (name, cut)
        assert m["headerInk"] == "rgb(0, 0, 0)" and m["headerBackground"] in ("rgb(255, 255, 255)",
                                                                            "rgba(0, 0, 0, 0)"), (name, m)


def test_html_validate_finds_no_error(site: Path) -> None:
    cli = TOOLS / "node_modules" / "html-validate" / "bin" / "html-validate.mjs"
    need("node", shutil.which("node"))
    need("html-validate (npm ci in tests/browser)", cli.is_file())
    r = subprocess.run(["node", str(cli), "--formatter", "json", *[str(site / p) for p in PAGES]],
                       capture_output=True, text=True, timeout=120, cwd=TOOLS)
    problems = [(Path(f["filePath"]).name, m["ruleId"], m["message"]) for f in json.loads(r.stdout or "[]")
                for m in f["messages"]]
    assert r.returncode == 0 and problems == [], problems or r.stderr
