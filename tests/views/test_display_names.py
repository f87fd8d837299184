"""A game page and a chart show names cut short (issue 27, item 16).

A game page wrote each name whole wherever it names a player: 55 KB names
made a 42 MB page from a 1 MB record. ``views.game.for_display`` cuts names
and labels to ``DISPLAY_NAME`` characters, keeping them distinct.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from pitchcli.cli import main
from pitchcli.views.game import DISPLAY_NAME, short_names
from tests.support.games import base_game

LONG = 55_000


def _record(tmp: Path) -> tuple[Path, list[str]]:
    """The base game with three 55 KB names, two alike but for the last character."""
    names = ["A" * LONG + "1", "A" * LONG + "2", "Cal", "B" * LONG]
    text = json.dumps(base_game(event="E" * LONG))
    for old, new in zip(["Ann", "Ben", "Dot"], [names[0], names[1], names[3]], strict=True):
        text = text.replace(json.dumps(old), json.dumps(new))
    path = tmp / "long.json"
    path.write_text(text, encoding="utf-8")
    return path, names


def test_a_game_page_with_55_kb_names_stays_small(tmp_path: Path) -> None:
    record, names = _record(tmp_path)
    r = CliRunner().invoke(main, ["report", str(record), "-o", str(tmp_path / "site")])
    assert r.exit_code == 0, r.output
    [game] = (tmp_path / "site").glob("*/game-1.html")  # the site's folder per event
    page = game.read_text(encoding="utf-8")
    assert len(page) < 100_000, len(page)  # the record's names alone are 165 KB; whole, they were on every line
    shown = short_names(names)
    assert len(set(shown.values())) == len(names)  # still four players
    assert all(s in page for s in shown.values())


def test_the_chart_shows_distinct_short_names(tmp_path: Path) -> None:
    record, names = _record(tmp_path)
    r = CliRunner().invoke(main, ["chart", str(record), "-o", str(tmp_path / "race.svg")])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert len(lines) == len(names) + 1 and all(len(ln) < 3 * DISPLAY_NAME for ln in lines)
    assert (tmp_path / "race.svg").stat().st_size < 50_000


def test_short_names_are_distinct_and_short_names_stay_whole() -> None:
    names = ["x" * 100, "x" * 100 + "y", "x" * 59 + "…", "Ann"]
    shown = short_names(names)
    assert shown["Ann"] == "Ann" and shown["x" * 59 + "…"] == "x" * 59 + "…"
    assert len(set(shown.values())) == len(names)
    assert all(len(s) <= DISPLAY_NAME for s in shown.values())


def test_for_display_keeps_short_labels_whole(tmp_path: Path) -> None:
    from pitchcli.pipeline.check import check_paths
    from pitchcli.views.game import for_display, game_view

    record = tmp_path / "short.json"
    record.write_text(json.dumps(base_game(event="Winter Open", round=2, table=3, id="g7")), encoding="utf-8")
    v = game_view(next(iter(check_paths([str(record)]))))
    shown = for_display(v)
    assert (shown.event, shown.round, shown.table, shown.id) == (v.event, v.round, v.table, v.id)
    assert shown.event == "Winter Open"


def test_every_page_of_the_site_shows_names_cut(tmp_path: Path) -> None:
    """The index, the event, the player and the ratings pages list names too
    (issue 24): each stays small, and no 55 KB name is on any page whole."""
    record, _ = _record(tmp_path)
    r = CliRunner().invoke(main, ["report", str(record), "-o", str(tmp_path / "site")])
    assert r.exit_code == 0, r.output
    pages = sorted((tmp_path / "site").rglob("*.html"))
    kinds = {p.relative_to(tmp_path / "site").as_posix().split("/")[0] for p in pages}
    assert {"index.html", "ratings.html", "players"} <= kinds
    for p in pages:
        html = p.read_text(encoding="utf-8")
        assert len(html) < 100_000, (p.name, len(html))
        assert "A" * (DISPLAY_NAME + 1) not in html and "E" * (DISPLAY_NAME + 1) not in html, p.name


def test_links_to_games_of_long_rounds_and_tables_say_them_cut(tmp_path: Path) -> None:
    """A game page links to the previous and next game and to the other tables
    of its round, by round and table: a long label is cut there as on the
    game's own page (whole, it was on every game page of the round), and a
    short one is written whole."""
    from pitchcli import escape

    long_round, long_table = "R" * 300, "T" * 300
    for n, table in enumerate([long_table, "2", long_table + "x"], 1):
        rec = base_game(event="Open", round=long_round, table=table, date="2026-11-21")
        (tmp_path / f"g{n}.json").write_text(json.dumps(rec), encoding="utf-8")
    out = tmp_path / "site"
    r = CliRunner().invoke(main, ["report", str(tmp_path), "-o", str(out)])
    assert r.exit_code == 0, r.output
    pages = {p.name: p.read_text(encoding="utf-8") for p in (out / "open").glob("game-*.html")}
    assert len(pages) == 3
    cut_round, cut_table = escape.short(long_round, DISPLAY_NAME), escape.short(long_table, DISPLAY_NAME)
    for name, page in pages.items():
        assert "R" * (DISPLAY_NAME + 1) not in page and "T" * (DISPLAY_NAME + 1) not in page, name
        nav = page.split("The round's other tables", 1)
        assert len(nav) == 2, name  # every game links to the round's two other tables
        links = nav[1].split("</span>", 1)[0]
        assert links.count("<a ") == 2, links
    # (tables are in order: "2" first; the long ones are each cut alike, so both say cut_table)
    mates = {name: page.split("The round's other tables", 1)[1].split("</span>", 1)[0] for name, page in pages.items()}
    assert mates["game-1.html"].count(f"Table {cut_table}</a>") == 2
    assert "Table 2</a>" in mates["game-2.html"] and "Table 2</a>" in mates["game-3.html"]
    assert f"Next: Round {cut_round} of 2026-11-21 Table {cut_table}" in pages["game-1.html"]
    assert f"Previous: Round {cut_round} of 2026-11-21 Table 2</a>" in pages["game-2.html"]
