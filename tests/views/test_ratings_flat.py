"""``pitch ratings`` holds nothing per game (issue 22: memory flat in the
number of games).

Before, it kept every game's result in a list, sorted them all, and kept each
player's ordinal after every game (a history only a report's charts read):
about 0.7 KB a game, 6 MB more at 10,000 games than at 2,000. Now the
results are sorted on disk past a run of them (``record.spool.SortedSpool``,
an external merge sort) and rated without the histories.

- The ratings are those ``rate_games`` gives over the same games, with runs
  small enough that every merge path is taken (one run, many, ties in the
  rating order, a period given and not).
- What ``Collecting`` holds grows by a run's worth at most, not by the games:
  measured by ``tracemalloc``, and a keeper of every game fails the same bound.
"""

from __future__ import annotations

import random
import tracemalloc
from itertools import cycle, islice

import pytest

from pitchcli.pipeline.check import Checked, check_source
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.spool import SortedSpool
from pitchcli.record.write import to_jsonl
from pitchcli.views.game import game_result, usable
from pitchcli.views.ratings import Collecting, Ratings, rate_games


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> list[Checked]:
    """Valid games of three profiles over a few nights (fixed teams among
    them), one undated, and two games played at the same place in the order
    (equal rating keys)."""
    games = []
    for seed, variant in enumerate(["auction"] * 8 + ["auction-partners"] * 4 + ["ten-point"] * 4):
        rec = simulate_game(variant, seed=300 + seed)
        rec.update(event="League", date=f"2026-10-{1 + seed % 4:02d}", round=str(1 + seed % 3))
        games.append(rec)
    games[3].pop("date")
    path = tmp_path_factory.mktemp("flat") / "league.jsonl"
    path.write_text("".join(to_jsonl(g) for g in games) + to_jsonl(games[5]), encoding="utf-8")
    out = [c for c in check_source(str(path), str(path)) if usable(c)]
    assert len(out) == len(games) + 1
    return out


def _facts(r: Ratings) -> object:
    players = {n: (p.mu, p.sigma, p.games, p.wins, p.first_date, p.last_date, p.start_ordinal)
               for n, p in r.players.items()}
    teams = {n: (t.members, t.games, t.wins, t.mu, t.sigma) for n, t in r.teams.items()}
    meetings = {k: (m.games, m.a_ahead, m.b_ahead) for k, m in r.meetings.items()}
    return players, teams, meetings, r.rated, r.unfinished, r.since


@pytest.mark.parametrize("run", [1, 2, 5, 16384])
@pytest.mark.parametrize("since", [None, "2026-10-03"])
def test_the_ratings_are_rate_games_own(checked: list[Checked], run: int, since: str | None) -> None:
    order = list(checked)
    random.Random(run).shuffle(order)  # (the order read must not matter)
    collecting = Collecting(since, run=run)
    for c in order:
        collecting.game(c)
    collecting.end()
    expected = rate_games([game_result(c) for c in checked], since)
    assert expected.rated > 10 and len(expected.teams) > 0
    assert _facts(collecting.ratings) == _facts(expected)
    assert all(p.history == [] for p in collecting.ratings.players.values())  # (no one reads them here)


def test_a_sorted_spool_is_sorted_and_stable() -> None:
    rng = random.Random(5)
    for n, run in [(0, 3), (2, 3), (3, 3), (50, 4), (500, 7), (300, 1)]:
        items = [(rng.randint(0, 9), i) for i in range(n)]
        with SortedSpool(key=lambda t: t[0], run=run) as spool:
            for item in items:
                spool.add(item)
            assert len(spool) == n
            assert list(spool) == sorted(items, key=lambda t: t[0])


def _held(checked: list[Checked], games: int, run: int) -> int:
    """What a ``Collecting`` holds (tracemalloc) after ``games`` games."""
    tracemalloc.start()
    try:
        collecting = Collecting(run=run)
        base = tracemalloc.get_traced_memory()[0]
        for c in islice(cycle(checked), games):
            collecting.game(c)
        held = tracemalloc.get_traced_memory()[0] - base
        collecting.games.close()
        return held
    finally:
        tracemalloc.stop()


def _growth(checked: list[Checked], run: int) -> float:
    """Bytes a game more held after 3,000 games than after 600 (a first
    round of 3,000 warms what is made once: caches, the file's buffers)."""
    _held(checked, 3000, run)
    return (_held(checked, 3000, run) - _held(checked, 600, run)) / 2400


def test_what_the_ratings_hold_does_not_grow_with_the_games(checked: list[Checked]) -> None:
    """A run of 100 games: 3,000 games hold what 600 do, within 20 bytes a game
    (the runs' places on disk, 100 bytes a run); a kept result is about 600 bytes."""
    grew = _growth(checked, 100)
    assert grew < 20, f"{grew:.0f} bytes a game"


def test_the_measure_sees_a_keeper_of_every_game(checked: list[Checked]) -> None:
    """Not vacuous: with one run of every game (nothing written to disk) the
    same measure grows by what each game's result holds."""
    grew = _growth(checked, 10**9)
    assert grew >= 200, f"{grew:.0f} bytes a game"


def test_the_runs_on_disk_are_removed(checked: list[Checked]) -> None:
    collecting = Collecting(run=3)
    for c in checked:
        collecting.game(c)
    assert collecting.games.on_disk
    collecting.end()
    assert not collecting.games.on_disk and len(collecting.games) == 0


@pytest.fixture(scope="module")
def invalid_stream(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, int]:
    """60 games, each with a wrong running total written in its first hand
    (C503: the record loads and is replayed in full, then refused)."""
    games = []
    for seed in range(60):
        rec = simulate_game("auction", seed=500 + seed)
        totals = rec["hands"][0]["totals"]
        totals[next(iter(totals))] += 1
        games.append(rec)
    path = tmp_path_factory.mktemp("invalid") / "invalid.jsonl"
    path.write_text("".join(to_jsonl(g) for g in games), encoding="utf-8")
    return str(path), len(games)


def _held_a_record(path: str, keep: object) -> float:
    """Bytes ``keep`` (the ratings' ``Collecting.invalid``, or another
    keeper) holds a refused record, by tracemalloc, the records read one at a
    time (once before, unmeasured: the first refused record imports the
    reference validator)."""
    for _ in check_source(path, path):
        pass
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        n = 0
        for c in check_source(path, path):
            assert c.errors and c.analysis is not None
            keep(c)  # type: ignore[operator]
            n += 1
        del c
        return (tracemalloc.get_traced_memory()[0] - base) / n
    finally:
        tracemalloc.stop()


def test_a_refused_record_is_kept_as_its_first_error(invalid_stream: tuple[str, int]) -> None:
    """`pitch ratings` over 10,000 games, half of them refused, once peaked at
    4.3 GB: each refused record was kept whole, its replay with it (860 KB).
    Now its first error is kept, and the same lines follow the ratings."""
    path, n = invalid_stream
    collecting = Collecting()
    per_record = _held_a_record(path, collecting.invalid)
    assert per_record < 4000, f"{per_record:.0f} bytes a refused record"
    assert len(collecting.bad) == n and all(len(c.diagnostics) == 1 for c in collecting.bad)
    whole = [c.diagnostics[0].as_text() for c in check_source(path, path)]
    assert [c.diagnostics[0].as_text() for c in collecting.bad] == whole


def test_the_measure_sees_a_keeper_of_whole_records(invalid_stream: tuple[str, int]) -> None:
    """Not vacuous: keeping the records whole, as before, fails the bound."""
    kept: list[Checked] = []
    assert _held_a_record(invalid_stream[0], kept.append) >= 4000
