"""`pitch report` at scale (issue 24 "Scale", issue 27 item 5): pages are
written as they are made, so memory does not grow with what each game holds.

Before, every game's whole view (hands, tricks, cards) stayed in memory until
the last page was rendered: 1,500 games took 415 MB, and 40 MB of records
under a 2 GiB address-space limit died with MemoryError, nothing written.
Now a game's view goes to a spool on disk as it is made, and only its entry
(the view without its hands) stays for the pages that list it.

- traced memory: the peak of the whole run (check, spool, layout, render,
  write) grows by under ``PER_GAME`` bytes a game between 10 and 50 games of
  one table (measured, 10 to 40: 13 KB a game, most of it the event page's
  row for the game; main: 490 KB a game);
- address space: ``pitch report`` in a subprocess under ``RLIMIT_AS`` set to
  what a one-game site needs plus ``AS_FACTOR`` times the records' size
  writes the whole site (before: MemoryError, exit 1, no page). Its size is
  ``PITCH_REPORT_AS_MB`` MB of records (default 2; 40 with a 2 GiB limit is
  issue 27's case: ``PITCH_REPORT_AS_MB=40 PITCH_REPORT_AS_LIMIT=2048``);
- ``--jobs 2`` writes the same bytes as ``--jobs 1``.
"""

from __future__ import annotations

import gc
import os
import random
import re
import subprocess
import sys
import textwrap
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.league import EVENTS, PLAYERS, league

from pitchcli.pipeline.check import check_paths
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.owned import write_owned_stream
from pitchcli.record.write import canonical, to_jsonl
from pitchcli.render.site import collect, plan, write_site
from pitchcli.views.site import INLINE_GAMES, MAX_ROWS

SHORT, LONG = 10, 50  # games of the two leagues traced
PER_GAME = 40_000  # bytes of traced peak a game may add (measured 13 KB: mostly the event page's row, bounded
# past INLINE_GAMES; main held every view: 490 KB a game)
AS_MB = float(os.environ.get("PITCH_REPORT_AS_MB", "2"))
AS_LIMIT_MB = os.environ.get("PITCH_REPORT_AS_LIMIT")  # a fixed limit in MiB, else measured + AS_FACTOR x records
AS_FACTOR = 8  # address space a MB of records may take (before: about 30)
GAMES_A_MB = 125  # the league's games in a MB of JSON Lines (12 MB for 1,500)


def _traced_peak(folder: Path, out: Path) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        site = collect(check_paths([str(folder)]))
        write_site(site, out)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _one_table(n: int, folder: Path) -> None:
    """``n`` games of the same four players on one night: what the standings
    and ratings hold is the same for any ``n``, only the number of games differs."""
    rec = canonical(simulate_game("auction", 4, rng=random.Random(27)))
    folder.mkdir()
    # (one game again and again: the largest page, and so the peak while it is made, is the same)
    games = [{**rec, "id": f"g{k}", "event": "Club night", "date": "2026-12-01", "round": k // 7 + 1,
              "table": k % 7 + 1} for k in range(n)]
    (folder / "games.jsonl").write_text("".join(to_jsonl(g) for g in games), encoding="utf-8")


def test_traced_memory_is_flat_in_the_games(tmp_path: Path) -> None:
    for n in (SHORT, LONG):
        _one_table(n, tmp_path / f"l{n}")
    _traced_peak(tmp_path / f"l{SHORT}", tmp_path / "warm")  # imports, caches: made once, not per game
    short = _traced_peak(tmp_path / f"l{SHORT}", tmp_path / "s")
    long = _traced_peak(tmp_path / f"l{LONG}", tmp_path / "l")
    per_game = (long - short) / (LONG - SHORT)
    assert per_game < PER_GAME, f"{per_game:.0f} bytes a game ({short} -> {long})"
    assert len(list((tmp_path / "l").rglob("game-*.html"))) == LONG


KEPT_A_PAGE = 1_000  # bytes a written page may keep until the last is written (measured: about 640; before
# issue 22's stop 52, 2.2 KB: the closed file object, its Path and a set of one digest for every page)


def test_a_written_page_keeps_little_until_the_site_is_done(tmp_path: Path) -> None:
    # Every page is staged until all are written (then all are renamed into
    # place): what each keeps meanwhile is most of what a site of many games
    # holds per game, past the layout.
    def kept(n: int, tag: str) -> int:
        folder = tmp_path / f"site-{tag}"
        names = [f"event/game-{k}.html" for k in range(n)]
        held = []

        def pages() -> Iterator[tuple[str, str]]:
            for name in names:
                yield name, "<p>a page</p>\n"
            gc.collect()
            held.append(tracemalloc.get_traced_memory()[0])  # every page staged, none yet in place

        tracemalloc.start()
        try:
            write_owned_stream(folder, names, pages(), ".manifest.json", "a test")
        finally:
            tracemalloc.stop()
        assert len(list((folder / "event").iterdir())) == n
        return held[0]

    # (The warm-up: imports and caches, made once, not per page; and the pages'
    # names, whose parts pathlib interns: the interpreter's table of interned
    # strings grows once to hold them, a block of 2 MB that a run after many
    # others saw grow here, as 5 KB "a page".)
    kept(420, "warm")
    per_page = (kept(420, "many") - kept(20, "few")) / 400
    assert per_page < KEPT_A_PAGE, f"{per_page:.0f} bytes a page"


_RUN = textwrap.dedent("""
    import resource, sys
    limit = int(sys.argv[1])
    if limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from pitchcli.cli import main
    try:
        main(sys.argv[2:], standalone_mode=True)
    finally:
        with open("/proc/self/status") as f:
            peak = next(line for line in f if line.startswith("VmPeak:"))
        sys.stderr.write("peak " + peak.split()[1] + "\\n")
""")


def _report(limit: int, folder: Path, out: Path) -> tuple[subprocess.CompletedProcess[str], int]:
    r = subprocess.run([sys.executable, "-c", _RUN, str(limit), "report", str(folder), "-o", str(out)],
                       capture_output=True, text=True, timeout=1800)
    peak = [line for line in r.stderr.splitlines() if line.startswith("peak ")]
    return r, int(peak[-1].split()[1]) * 1024 if peak else 0


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmPeak from /proc")
def test_report_runs_under_an_address_space_limit(tmp_path: Path) -> None:
    one, big = tmp_path / "one", tmp_path / "big"
    league(1, one)
    league(max(2, int(AS_MB * GAMES_A_MB)), big)
    size = sum(p.stat().st_size for p in big.iterdir())
    r, base = _report(0, one, tmp_path / "site-one")
    assert r.returncode == 0 and base, r.stderr
    limit = int(AS_LIMIT_MB) << 20 if AS_LIMIT_MB else base + AS_FACTOR * size
    r, _ = _report(limit, big, tmp_path / "site")
    assert r.returncode == 0, (limit, size, r.stderr[-2000:])
    assert "MemoryError" not in r.stderr
    games = len(list((tmp_path / "site").rglob("game-*.html")))
    assert games == max(2, int(AS_MB * GAMES_A_MB))
    assert (tmp_path / "site" / "index.html").exists()


def test_jobs_write_the_same_site(tmp_path: Path) -> None:
    league(45, tmp_path / "games")
    sites = {}
    for jobs in (1, 2):
        out = tmp_path / f"site-{jobs}"
        r = subprocess.run([sys.executable, "-m", "pitchcli", "report", "--jobs", str(jobs),
                            str(tmp_path / "games"), "-o", str(out)], capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        sites[jobs] = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert sites[1] == sites[2]
    assert sum(1 for n in sites[1] if "/game-" in n) == 45


WEIGHT_GAMES = int(os.environ.get("PITCH_REPORT_WEIGHT_GAMES", "1500"))
MAX_PAGE = 1 << 20  # bytes: no page over 1 MB (an event page of 1,470 games was 5.6 MB)


def test_no_page_over_a_megabyte(tmp_path: Path) -> None:
    """1,500 games of a league (30 players, 3 events, 15 nights): every page
    under 1 MB, the nights of a big event on pages of their own, a player's
    games in parts, every game still reachable by a link."""
    league(WEIGHT_GAMES, tmp_path / "games")
    out = tmp_path / "site"
    site = collect(check_paths([str(tmp_path / "games")]))
    write_site(site, out)
    pages = {p.relative_to(out).as_posix(): p.stat().st_size for p in out.rglob("*.html")}
    heavy = {n: s for n, s in pages.items() if s > MAX_PAGE}
    assert not heavy, heavy
    assert sum(1 for n in pages if "/game-" in n) == WEIGHT_GAMES
    linked = set()
    for name in pages:
        html = (out / name).read_text(encoding="utf-8")
        base = name.rsplit("/", 1)[0] + "/" if "/" in name else ""
        linked |= {base + h for h in re.findall(r'href="(game-\d+\.html)"', html)}
    assert linked == {n for n in pages if "/game-" in n}
    if INLINE_GAMES * len(EVENTS) < WEIGHT_GAMES:
        assert any("/night-" in n for n in pages)
    if WEIGHT_GAMES * 4 // len(PLAYERS) > MAX_ROWS:
        assert any(".games-2.html" in n for n in pages)


def test_the_player_links_are_made_once_for_every_page(tmp_path: Path) -> None:
    # Every page links the players it names; the map of every player's link was
    # made anew on each page (a league's 1,500 players on each of its 3,500
    # pages). It is made once per depth in the site and shared.
    league(12, tmp_path / "games")
    site = collect(check_paths([str(tmp_path / "games")]))
    lay = plan(site).layout
    deep, top = lay.player_links("../"), lay.player_links("")
    assert lay.player_links("../") is deep and lay.player_links("") is top
    assert set(deep) == set(lay.players) and all(deep[n] == "../" + top[n] for n in lay.players)
    assert top == {n: p.path for n, p in lay.players.items()}


KEPT_A_GAME = 2_400  # bytes a site keeps of each game once laid out (stop 60: about 1,900; before it 2,950:
# each game's copy of its names and dates, a list of its round's nearest two dozen tables, a tuple and a
# float for each player's rating after it, a row object for each of its players)


def _league(n: int, folder: Path) -> None:
    """``n`` games of a league of twelve players, seven tables a round, four rounds a night."""
    rec = canonical(simulate_game("auction", 4, rng=random.Random(27)))
    players = [f"Player {k}" for k in range(12)]
    rng = random.Random(5)
    folder.mkdir()
    lines = []
    for k in range(n):
        night = k // 28
        date = f"2026-{1 + night // 28:02d}-{1 + night % 28:02d}"
        text = to_jsonl({**rec, "id": f"g{k}", "event": "League", "date": date, "round": k // 7 + 1,
                         "table": k % 7 + 1})
        for old, new in zip(rec["players"], rng.sample(players, 4), strict=True):
            text = text.replace(f'"{old}"', f'"{new}"')
        lines.append(text)
    (folder / "games.jsonl").write_text("".join(lines), encoding="utf-8")


def test_what_a_site_keeps_of_a_game_is_small(tmp_path: Path) -> None:
    """Until the last page is written a site keeps something of every game
    (its entry for the pages that list it, its place in the layout, its
    players' ratings after it): that is what grows with a league's games."""
    for n in (28, 252):
        _league(n, tmp_path / f"l{n}")

    def kept(n: int) -> int:
        gc.collect()
        tracemalloc.start()
        try:
            site = collect(check_paths([str(tmp_path / f"l{n}")]))
            p = plan(site)
            gc.collect()
            assert len(p.layout.games) == n
            return tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()

    kept(252)  # (imports, caches and the interned names' table: grown once, not per game)
    per_game = (kept(252) - kept(28)) / 224
    assert per_game < KEPT_A_GAME, f"{per_game:.0f} bytes a game"
