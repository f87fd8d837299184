"""pitch report and pitch chart: the site as a person would see it.

- The figures on the pages are checked against the other commands' JSON
  (`summarize`, `score`): the standings, the running totals, the winner.
- The SVG chart's points are checked against the game's totals, using only
  the chart's own zero and target lines to read its scale.
- Hostile names (markup, quotes, control characters) never reach a page
  unescaped: a Hypothesis test (PITCH_REPORT_EXAMPLES, default 25).
- A real browser (headless Chromium, tests/browser.py) renders index.html and
  a game page at a phone's width: no horizontal overflow, the standings table
  and the chart drawn, no console error, a screenshot taken. Skipped only when
  Chromium is missing outside CI (CI=true: a missing Chromium fails).
"""

from __future__ import annotations

import itertools
import json
import os
import posixpath
import re
import shutil
import struct
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape as html_escape
from support.characters import named_by, printable_among

from pitchcli.cli import main
from pitchcli.pipeline.check import check_paths
from pitchcli.render.site import collect, pages
from pitchcli.render.templating import UNPRINTABLE, environment, printable

ROOT = Path(__file__).resolve().parents[2]
TOURNAMENT = ROOT / "samples" / "tournament"
INVALID = ROOT / "samples-invalid" / "wrong-dealer.yaml"
EXAMPLES = int(os.environ.get("PITCH_REPORT_EXAMPLES", "25"))
SVG_NS = "{http://www.w3.org/2000/svg}"


# The tournament's games in the order `pitch score` lists them (by file: the
# events' folders, then rounds, then tables), as the site's pages: a folder
# per event, games numbered in play order within it.
GAME_PAGES = [f"ten-point-saturday/game-{n}.html" for n in range(1, 13)] + [
    f"winter-setback-open/game-{n}.html" for n in range(1, 17)]
EVENT_PAGES = ["winter-setback-open/index.html", "ten-point-saturday/index.html"]  # by first date


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def run_json(*args: str) -> Any:
    r = run(*args)
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "nested" / "site"  # created if missing
    r = run("report", str(TOURNAMENT), str(INVALID), "-o", str(out))
    assert r.exit_code == 1, r.output  # an invalid record: listed, and exit 1 as summarize
    return out


@pytest.fixture(scope="module")
def scores() -> list[dict[str, Any]]:
    """The score sheets of the tournament's games, in the report's order."""
    docs = run_json("score", "--format", "json", str(TOURNAMENT))["documents"]
    return [d for d in docs if d["valid"]]


@pytest.fixture(scope="module")
def by_round() -> dict[str, Any]:
    """summarize --by round over the tournament, as JSON."""
    return run_json("summarize", "--by", "round", "--format", "json", str(TOURNAMENT))


class Page(HTMLParser):
    """The tags, attributes, text and tables of a page."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.tables: list[dict[str, Any]] = []
        self._cell: list[str] | None = None
        self._row: list[str] | None = None
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "table":
            self.tables.append({"class": dict(attrs).get("class"), "rows": []})
        elif tag == "tr" and self.tables:
            self._row = []
            self.tables[-1]["rows"].append(self._row)
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def read(path: Path) -> Page:
    return Page(path.read_text(encoding="utf-8"))


def svg_of(html: str) -> ET.Element:
    m = re.search(r"<svg .*?</svg>", html, re.S)
    assert m, "no chart in the page"
    return ET.fromstring(m.group())


# --- the figures -------------------------------------------------------------------


def test_index_has_the_standings_of_summarize(site: Path) -> None:
    report = run_json("summarize", "--format", "json", "--allow-invalid", str(TOURNAMENT), str(INVALID))
    page = read(site / "index.html")
    tables = [t for t in page.tables if t["class"] == "standings"]
    expected = []
    for ev in report["events"]:
        if not ev["games"]:
            continue
        expected.append([[str(p["rank"]), p["name"], str(p["games"]), str(p["wins"]), str(p["score"])]
                         for p in ev["players"]])
        if ev["teams"]:
            expected.append([[str(t["rank"]), str(t["games"]), str(t["wins"]), str(t["score"])]
                             for t in ev["teams"]])
    assert len(tables) == len(expected) == 4
    for table, want in zip(tables, expected, strict=True):
        head, *rows = table["rows"]
        col = {h: i for i, h in enumerate(head)}
        if "Player" in col:
            got = [[r[col["#"]], r[col["Player"]], r[col["Games"]], r[col["Wins"]], r[col["Score"]]] for r in rows]
        else:
            got = [[r[col["#"]], r[col["Games"]], r[col["Wins"]], r[col["Score"]]] for r in rows]
        assert got == want


def test_game_pages_show_the_engines_totals(site: Path, scores: list[dict[str, Any]]) -> None:
    assert len(scores) == 28
    for n, sheet in enumerate(scores, 1):
        html = (site / GAME_PAGES[n - 1]).read_text(encoding="utf-8")
        hands = Page(re.search(r'<table class="hands">.*?</table>', html, re.S).group()).tables[0]
        head, *rows = hands["rows"]
        units = sheet["units"]
        assert head[-len(units):] == units
        assert len(rows) == len(sheet["hands"])
        for row, h in zip(rows, sheet["hands"], strict=True):
            assert row[-len(units):] == [str(h["totals"][u]) for u in units]
            assert row[head.index("Made")] == ("made" if h["made"] else "set")
            assert row[head.index("Dealer")] == h["dealer"]
            assert row[head.index("Contract")] == f"{h['bidder']} {h['bid']}"
        assert f"<strong>{sheet['winner']}</strong> won in hand {sheet['winner_hand']}" in html


def test_tricks_are_rows_with_the_winner_marked(site: Path) -> None:
    game = TOURNAMENT / "ten-point-saturday" / "round-1.yaml"
    replay = [json.loads(line) for line in run("replay", "--format", "json", str(game)).stdout.splitlines()]
    first_game = replay[:next(i for i, e in enumerate(replay) if e["event"] == "game_end")]
    won = [e for e in first_game if e["event"] == "trick_won" and e["hand"] == 1]
    page = read(site / GAME_PAGES[0])
    trick_tables = [t for t in page.tables if t["class"] == "trick"]
    rows = trick_tables[0]["rows"][1:]
    assert [r[-1].rstrip(" ★") for r in rows] == [e["winner"] or "nobody" for e in won]
    html = (site / GAME_PAGES[0]).read_text(encoding="utf-8")
    # Cards as cards: rank and suit symbol, red for hearts and diamonds.
    assert re.search(r'<span class="card red[^"]*" title="\w+[HD]">\w+<span class="suit">[♥♦]</span>', html)
    assert re.search(r'<span class="card black[^"]*" title="\w+[SC]">\w+<span class="suit">[♠♣]</span>', html)


def test_auction_pages_say_who_took_high_low_jack_game(site: Path, scores: list[dict[str, Any]]) -> None:
    n, sheet = next((i, s) for i, s in enumerate(scores, 1) if s["hands"][0]["awards"])
    page = read(site / GAME_PAGES[n - 1])
    head, first, *_ = next(t for t in page.tables if t["class"] == "hands")["rows"]
    for kind in ("high", "low", "jack", "game"):
        award = sheet["hands"][0]["awards"][kind]
        cell = first[head.index(kind.capitalize())]
        assert cell.startswith(award["unit"] or "—")


def test_invalid_records_are_listed_with_their_diagnostics(site: Path) -> None:
    text = "".join(read(site / "index.html").text)
    assert "wrong-dealer.yaml" in text
    assert "R405 [AP-DEAL-2]" in text


def test_pages_are_self_contained(site: Path) -> None:
    names = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assert {"index.html", "ratings.html", "players/ann.html", *EVENT_PAGES, *GAME_PAGES} <= names
    for name in names:
        html = (site / name).read_text(encoding="utf-8")
        assert not re.search(r"<(link|img|iframe|object|embed|base)\b", html, re.I), name
        # The one script is the standings' sorting (issue 24), inline, on pages with standings only,
        # and it reaches nothing outside the page.
        scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", html, re.S | re.I)
        assert len(scripts) <= 1 and (not scripts or "table.standings" in html), name
        for attrs, code in scripts:
            assert attrs == "" and not re.search(r"fetch|XMLHttpRequest|import|src|http|eval|location", code), name
        for value in re.findall(r'\s(?:href|src)="([^"]*)"', html):
            # every link relative, and to a page of the site
            target = value.split("#")[0]
            assert value.startswith("#") or posixpath.normpath(posixpath.join(posixpath.dirname(name), target)) \
                in names, (name, value)
        assert "url(" not in html and "@import" not in html


# --- the chart ------------------------------------------------------------------------


def check_chart(svg: ET.Element, sheet: dict[str, Any], ns: str = "") -> None:
    """Every point of every line is the unit's total after that hand; the
    scale is read from the chart's zero and target lines only."""
    lines = {el.get("class"): el for el in svg.iter(f"{ns}line") if el.get("class") in ("zero", "target")}
    zero_y, target_y = float(lines["zero"].get("y1")), float(lines["target"].get("y1"))
    target = int(lines["target"].get("data-total"))
    assert target == sheet["target"]
    per_point = (zero_y - target_y) / target
    polylines = [el for el in svg.iter(f"{ns}polyline") if el.get("class") == "race"]
    assert [p.get("data-unit") for p in polylines] == sheet["units"]
    for p in polylines:
        unit = p.get("data-unit")
        points = [tuple(map(float, xy.split(","))) for xy in p.get("points").split()]
        totals = [0] + [h["totals"][unit] for h in sheet["hands"]]
        assert len(points) == len(totals)
        for (_, y), total in zip(points, totals, strict=True):
            assert abs((zero_y - y) / per_point - total) < 0.01, (unit, y, total)
        xs = [x for x, _ in points]
        steps = [b - a for a, b in itertools.pairwise(xs)]
        assert min(steps) > 0 and max(steps) - min(steps) < 0.05  # one hand per step, left to right
    won = next(el for el in svg.iter(f"{ns}line") if el.get("class") == "won")
    assert int(won.get("data-hand")) == sheet["winner_hand"]
    winner_points = next(p for p in polylines if p.get("data-unit") == sheet["winner"]).get("points").split()
    assert float(won.get("x1")) == float(winner_points[sheet["winner_hand"]].split(",")[0])


def test_chart_points_are_the_games_totals(site: Path, scores: list[dict[str, Any]]) -> None:
    for n, sheet in enumerate(scores, 1):
        check_chart(svg_of((site / GAME_PAGES[n - 1]).read_text(encoding="utf-8")), sheet)


def test_chart_command_writes_svg_and_a_sparkline(tmp_path: Path) -> None:
    game = ROOT / "samples" / "auction-partners.yaml"
    out = tmp_path / "race.svg"
    r = run("chart", str(game), "-o", str(out))
    assert r.exit_code == 0
    sheet = run_json("score", "--format", "json", str(game))["documents"][0]
    lines = r.stdout.splitlines()
    assert [ln.split()[0] for ln in lines] == [*sheet["units"], "target"]
    winner_line = next(ln for ln in lines if ln.startswith(sheet["winner"]))
    assert winner_line.endswith(f"{sheet['totals'][sheet['winner']]}  won in hand {sheet['winner_hand']}")
    assert all(len(ln.split()[1]) == len(sheet["hands"]) + 1 for ln in lines[:-1])  # one bar per total
    svg = ET.parse(out).getroot()
    assert svg.tag == f"{SVG_NS}svg"
    check_chart(svg, sheet, SVG_NS)


def test_chart_refuses_invalid_records_and_non_regular_outputs(tmp_path: Path) -> None:
    r = run("chart", str(INVALID))
    assert r.exit_code == 1 and "R405" in r.stderr
    kept = tmp_path / "kept.svg"
    kept.write_text("mine")
    link = tmp_path / "race.svg"
    link.symlink_to(kept)
    r = run("chart", str(ROOT / "samples" / "auction-full.yaml"), "-o", str(link))
    assert r.exit_code == 3 and "not a regular file" in r.stderr
    assert link.is_symlink() and kept.read_text() == "mine"
    assert run("chart", str(tmp_path / "missing.yaml")).exit_code == 3


# --- writing the site ---------------------------------------------------------------


def test_report_never_replaces_what_is_not_a_regular_file(tmp_path: Path) -> None:
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").mkdir()
    other = tmp_path / "other.html"
    other.write_text("mine")
    (out / "ratings.html").symlink_to(other)
    r = run("report", str(ROOT / "samples" / "auction-full.yaml"), "-o", str(out))
    assert r.exit_code == 3 and "not a regular file" in r.stderr
    assert (out / "index.html").is_dir() and other.read_text() == "mine"
    assert sorted(p.name for p in out.iterdir()) == ["index.html", "ratings.html"]  # nothing written
    (out / "index.html").rmdir()
    (out / "ratings.html").unlink()
    (out / "players").symlink_to(tmp_path)  # a link where the site needs a folder: nothing written through it
    r = run("report", str(ROOT / "samples" / "auction-full.yaml"), "-o", str(out))
    assert r.exit_code == 3 and "not a folder" in r.stderr
    assert sorted(p.name for p in out.iterdir()) == ["players"]
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert run("report", str(ROOT / "samples" / "auction-full.yaml"), "-o", str(afile)).exit_code == 3


def test_report_rewrites_its_own_pages_and_exits_0_when_all_valid(tmp_path: Path) -> None:
    out = tmp_path / "site"
    for _ in range(2):
        r = run("report", str(ROOT / "samples" / "auction-full.yaml"), "-o", str(out))
        assert r.exit_code == 0, r.output
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html")) == [
        "index.html", "players/ann.html", "players/ben.html", "players/cal.html", "players/dot.html", "ratings.html",
        "thursday-club-ladder/game-1.html", "thursday-club-ladder/index.html"]
    assert run("report", str(tmp_path / "missing.yaml"), "-o", str(out)).exit_code == 3


# --- hostile names ---------------------------------------------------------------------

HOSTILE = st.one_of(
    st.sampled_from(["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "' onmouseover='x",
                     "</title><h1>", "&amp;", "&lt;b&gt;", "<!--", "]]>", "{{ 7 * 7 }}", "\x00", "\x1b[31mred",
                     "a\u202eb", "<svg onload=alert(1)>", "x\x7fy", "\r\n", "\x85"]),
    st.text(alphabet=st.sampled_from(list("<>&\"'=/ ab\x01\x08\x0b\x1f\x7f\x9f\u2028")), min_size=1, max_size=12),
)
TAGS = {"html", "head", "meta", "title", "style", "body", "header", "nav", "a", "div", "main", "h1", "h2", "h3", "h4",
        "p", "section", "table", "caption", "thead", "tbody", "tr", "th", "td", "span", "strong", "ul", "li", "code",
        "dl", "dt", "dd", "figure", "footer", "svg", "rect", "line", "text", "polyline", "circle", "g"}
ATTRS = {"lang", "charset", "name", "content", "href", "class", "id", "title", "scope", "viewbox", "width",
         "height", "role", "aria-labelledby", "data-target", "data-hands", "font-family", "font-size", "x", "y",
         "fill", "x1", "x2", "y1", "y2", "stroke", "stroke-width", "stroke-dasharray", "data-total", "text-anchor",
         "data-hand", "data-unit", "data-totals", "points", "stroke-linejoin", "stroke-linecap", "cx", "cy", "r",
         "transform", "font-weight", "tabindex", "aria-label", "aria-hidden", "rel"}


def _rename(v: Any, names: dict[str, str]) -> Any:
    if isinstance(v, dict):
        return {names.get(k, k): _rename(x, names) for k, x in v.items()}
    if isinstance(v, list):
        return [_rename(x, names) for x in v]
    return names.get(v, v) if isinstance(v, str) else v


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(names=st.lists(HOSTILE, min_size=6, max_size=6, unique=True).filter(
    lambda ns: all(not n.startswith("x-") for n in ns)))
def test_hostile_names_never_reach_a_page_unescaped(tmp_path: Path, names: list[str]) -> None:
    from pitchcli.record.load import load_documents
    doc = next(d for d in load_documents(str(ROOT / "samples" / "auction-partners.yaml")) if hasattr(d, "data"))
    players, event = ["Ann", "Ben", "Cal", "Dot", "team-1", "team-2"], "Thursday club ladder"
    record = _rename(doc.data, dict(zip(players, names, strict=True)))
    record["event"] = names[0] + names[5]
    record["round"] = names[1]
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    site = collect(check_paths([str(path)]))
    assert len(site.games) == 1, [d.as_text() for c in site.invalid for d in c.diagnostics]
    assert event not in record.values()
    for name, html in pages(site).items():
        page = Page(html)
        # the one script a page may have is the standings' sorting, with no attribute (test_pages_are_self_contained)
        assert [attrs for tag, attrs in page.tags if tag == "script"] in ([], [{}]), name
        for tag, attrs in page.tags:
            assert tag in TAGS | {"script"}, (name, tag)
            assert set(attrs) <= ATTRS, (name, tag, attrs)
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]", html), name
        text = "".join(page.text)
        for n in names[:4]:
            if re.search(r"<[A-Za-z!/?]", n):  # could open a tag or a comment
                assert n not in html, (name, n)
            assert printable(n) in text, (name, n)
        if "/game-" in name:
            svg = svg_of(html)  # well-formed XML, whatever the names
            # (XML reads a tab or line feed in an attribute as a space)
            assert [p.get("data-unit") for p in svg.iter("polyline")] == [
                re.sub("[\t\n]", " ", printable(n)) for n in names[4:]]


# --- summarize --by round ------------------------------------------------------------------


def test_standings_after_each_round(by_round: dict[str, Any]) -> None:
    rounds = by_round
    whole = run_json("summarize", "--format", "json", str(TOURNAMENT))
    assert [e["event"] for e in rounds["events"]] == [e["event"] for e in whole["events"]]
    folders = {run_json("summarize", "--format", "json", str(p))["events"][0]["event"]: p for p in TOURNAMENT.iterdir()}
    for ev, total in zip(rounds["events"], whole["events"], strict=True):
        assert [r["round"] for r in ev["rounds"]] == ["1", "2", "3", "4"]
        assert ev["rounds"][-1]["players"] == total["players"]  # after the last round: the final standings
        assert ev["rounds"][-1]["teams"] == total["teams"]
        folder = folders[ev["event"]]
        first = run_json("summarize", "--format", "json", str(folder / "round-1.yaml"))["events"][0]
        assert ev["rounds"][0]["players"] == first["players"]  # after round 1: round 1 alone


def test_by_round_text_and_csv() -> None:
    one = str(TOURNAMENT / "winter-setback-open")
    text = run("summarize", "--by", "round", one).stdout
    assert "Players after round 1" in text and "Teams after round 4" in text
    rows = run("summarize", "--by", "round", "--format", "csv", one).stdout.splitlines()
    assert rows[0].startswith("round,date,event,kind,rank,name")
    assert {r.split(",")[0] for r in rows[1:]} == {"1", "2", "3", "4"}
    r = run("summarize", "--by", "round", "--partial", one)
    assert r.exit_code == 2


# --- in a browser ----------------------------------------------------------------------------


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_pages_in_a_browser_at_a_phones_width(site: Path, tmp_path: Path) -> None:
    from support.browser import chromium, render
    if chromium() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is missing in CI: .ci/run installs Debian's chromium package")
        pytest.skip("chromium is not installed (apt-get install chromium); CI runs this test")
    game = next(g for g in GAME_PAGES if "auction" in (site / g).read_text(encoding="utf-8"))
    index, page = render([site / "index.html", site / game], width=375)
    for shown, name in ((index, "index"), (page, "game")):
        m = shown.measure
        assert shown.console == [], (name, shown.console)
        assert m["scrollWidth"] <= 375, (name, m)  # no horizontal overflow at a phone's width
        assert m["smallestText"] >= 12, (name, m)
        assert m["scripts"] == (1 if name == "index" else 0)  # the standings' sorting only
        w, h = _png_size(shown.screenshot)
        assert (w, h) == (375, 812) and len(shown.screenshot) > 20_000  # a page was drawn, not a blank
        (tmp_path / f"{name}.png").write_bytes(shown.screenshot)
    assert index.measure["standings"] and min(index.measure["standings"]) >= 2  # a head and rows
    (chart,) = page.measure["charts"]
    assert chart["width"] > 300 and chart["height"] > 150
    assert chart["lines"] and all(ln["width"] > 100 and ln["stroke"] != "none" for ln in chart["lines"])
    if os.environ.get("PITCH_SCREENSHOTS"):
        shutil.copytree(tmp_path, os.environ["PITCH_SCREENSHOTS"], dirs_exist_ok=True)


def test_every_character_a_page_replaces_is_not_printable() -> None:
    # A page's every value skips the pattern when ``str.isprintable`` says it
    # may: right only while that is False for every character the pattern names.
    named = named_by(UNPRINTABLE)
    assert len(named) == 9 + 21 + 33 + 2048 + 32 + 2 + 32
    assert printable_among(named) == []


@given(st.text(alphabet=st.characters(codec=None), max_size=30)
       | st.text(alphabet="a\t\n\x00\x1f\x7f\x85\ud800\ufdd0\ufffe\U0010ffff\u2028", max_size=12))
def test_a_page_shows_each_value_made_printable(s: str) -> None:
    shown = environment().from_string("{{ v }}").render(v=s)
    assert shown == str(html_escape(printable(s)))
