"""pitch ratings: openskill (Plackett-Luce) over a league's games in date order."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pitchcli.cli import main
from pitchcli.views.game import GameView
from pitchcli.views.ratings import places, rate_games

ROOT = Path(__file__).resolve().parents[2]
TOURNAMENT = ROOT / "samples" / "tournament"


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def game(units: list[str], totals: list[int], winner: str | None, date: str | None = "2026-01-01",
         teams: dict[str, list[str]] | None = None, doc: int = 0) -> GameView:
    players = [p for u in units for p in (teams or {}).get(u, [u])]
    return GameView(file="f.yaml", document=doc, event="E", date=date, round=None, table=None, id=None,
                    variant="v", players=players, units=units, teams=teams or {}, target=11, hands=[],
                    totals=dict(zip(units, totals, strict=True)), winner=winner, winner_hand=1 if winner else None)


@pytest.fixture(scope="module")
def league() -> dict[str, Any]:
    r = run("ratings", "--format", "json", "--head-to-head", str(TOURNAMENT))
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_every_player_of_the_tournament_is_rated(league: dict[str, Any]) -> None:
    summary = json.loads(run("summarize", "--format", "json", str(TOURNAMENT)).stdout)
    names = {p["name"] for ev in summary["events"] for p in ev["players"]}
    rows = league["players"]
    assert {p["name"] for p in rows} == names
    assert [p["rank"] for p in rows] == list(range(1, len(rows) + 1))
    assert [p["ordinal"] for p in rows] == sorted((p["ordinal"] for p in rows), reverse=True)
    for p in rows:
        assert p["ordinal"] == pytest.approx(p["mu"] - 3 * p["sigma"], abs=0.02)
        assert 0 < p["sigma"] < 25 / 3  # every rated player is less uncertain than the prior
    games = {p["name"]: (p["games"], p["wins"]) for p in rows}
    for name in names:
        played = sum(p["games"] for ev in summary["events"] for p in ev["players"] if p["name"] == name)
        won = sum(p["wins"] for ev in summary["events"] for p in ev["players"] if p["name"] == name)
        assert games[name] == (played, won)
    assert league["games"] == {"rated": 28, "unfinished": 0, "invalid": 0, "unreadable": 0, "skipped": 0}


def test_same_files_same_ratings_in_any_order(league: dict[str, Any]) -> None:
    files = sorted(str(p) for p in TOURNAMENT.rglob("*.yaml"))
    random.Random(7).shuffle(files)
    again = json.loads(run("ratings", "--format", "json", "--head-to-head", *files).stdout)
    assert again == league


def test_head_to_head_counts(league: dict[str, Any]) -> None:
    rows = league["head_to_head"]
    assert rows and all(r["a"] < r["b"] for r in rows)
    assert all(r["a_ahead"] + r["b_ahead"] + r["level"] == r["games"] for r in rows)
    assert {r["kind"] for r in rows} == {"player", "team"}


def test_places_put_the_winner_first_then_by_total() -> None:
    # Auction Pitch: only the pitcher can win, so the winner may not have the highest total.
    assert places(game(["A", "B", "C", "D"], [11, 12, 5, 5], "A")) == [1, 2, 3, 3]


def test_places_order_the_new_ratings() -> None:
    r = rate_games([game(["A", "B", "C"], [11, 4, 2], "A")])
    by = {p.name: p for p in r.players.values()}
    assert by["A"].mu > by["B"].mu > by["C"].mu and by["A"].mu > 25 > by["C"].mu
    assert r.rated == 1


def test_partners_move_together_and_unfinished_games_are_not_rated() -> None:
    teams = {"us": ["A", "C"], "them": ["B", "D"]}
    r = rate_games([game(["us", "them"], [21, 9], "us", teams=teams),
                    game(["us", "them"], [3, 4], None, teams=teams, doc=1)])
    by = {p.name: p for p in r.players.values()}
    assert by["A"].mu == by["C"].mu > 25 > by["B"].mu == by["D"].mu
    assert r.rated == 1 and r.unfinished == 1
    assert all(p.games == 1 for p in by.values())


def test_games_are_rated_in_date_order_whatever_the_input_order() -> None:
    a = game(["A", "B"], [11, 3], "A", date="2026-01-01")
    b = game(["A", "B"], [2, 11], "B", date="2026-02-01", doc=1)
    one, two = rate_games([a, b]), rate_games([b, a])
    assert {n: (p.mu, p.sigma) for n, p in one.players.items()} == {n: (p.mu, p.sigma) for n, p in two.players.items()}
    # Change is over the last date by default: B's win on 2026-02-01 moved him up.
    assert one.since == "2026-02-01" and one.players["B"].change > 0 > one.players["A"].change


def test_table_csv_and_exit_codes(tmp_path: Path) -> None:
    one = str(TOURNAMENT / "winter-setback-open" / "round-1.yaml")
    table = run("ratings", one).stdout
    assert "mu - 3 sigma" in table and "4 games rated" in table
    csv = run("ratings", "--format", "csv", one).stdout.splitlines()
    assert csv[0].startswith("rank,name,games,wins,mu,sigma,ordinal,change")
    assert len(csv) == 1 + 10  # a head, and the 10 players of round 1
    bad = run("ratings", one, str(ROOT / "samples-invalid" / "wrong-dealer.yaml"))
    assert bad.exit_code == 1 and "R405" in bad.stderr
    assert run("ratings", "--allow-invalid", str(ROOT / "samples-invalid" / "wrong-dealer.yaml")).exit_code == 0
    assert run("ratings", str(tmp_path / "missing.yaml")).exit_code == 3


@pytest.mark.parametrize("since", ["yesterday", "2026-13-45", "2026-1-5", "20261128"])
def test_since_that_is_not_a_date_is_a_usage_error(since: str) -> None:
    r = run("ratings", "--since", since, str(TOURNAMENT))
    assert r.exit_code == 2, r.stdout
    assert f"'{since}' is not a date: write YYYY-MM-DD, such as 2026-11-28" in r.stderr
    assert r.stdout == ""


def test_a_fixed_team_has_its_rating_history() -> None:
    from openskill.models import PlackettLuce
    teams = {"t1": ["Ann", "Cal"], "t2": ["Ben", "Dot"]}
    swapped = {"t1": ["Ann", "Ben"], "t2": ["Cal", "Dot"]}
    games = [game(["t1", "t2"], [11, 4], "t1", "2026-01-01", teams),
             game(["t1", "t2"], [3, 11], "t2", "2026-01-02", teams, doc=1),
             game(["t1", "t2"], [11, 9], "t1", "2026-01-03", swapped, doc=2)]
    out = rate_games(games)
    assert sorted(out.teams) == ["Ann & Ben", "Ann & Cal", "Ben & Dot", "Cal & Dot"]
    ac = out.teams["Ann & Cal"]
    assert (ac.members, ac.games, ac.wins) == (("Ann", "Cal"), 2, 1)
    assert [d for d, _ in ac.history] == ["2026-01-01", "2026-01-02"]
    # openskill run directly: the side's rating after each game is its members' mu summed, variances summed
    model = PlackettLuce()
    r = {n: model.rating(name=n) for n in ("Ann", "Ben", "Cal", "Dot")}
    expected = []
    for (a, b), (c, d), ranks in ((("Ann", "Cal"), ("Ben", "Dot"), [1, 2]), (("Ann", "Cal"), ("Ben", "Dot"), [2, 1])):
        new = model.rate([[r[a], r[b]], [r[c], r[d]]], ranks=ranks)
        for side in new:
            for x in side:
                r[x.name] = x
        mu, var = r[a].mu + r[b].mu, r[a].sigma ** 2 + r[b].sigma ** 2
        expected.append(mu - 3 * var ** 0.5)
    assert [v for _, v in ac.history] == pytest.approx(expected)
    assert out.teams["Ann & Ben"].history[-1][1] == pytest.approx(out.teams["Ann & Ben"].ordinal)
    assert rate_games([game(["Ann", "Ben"], [11, 3], "Ann")]).teams == {}  # players alone are no team


def test_a_team_members_page_shows_the_teams_rating_history(tmp_path: Path) -> None:
    r = run("report", str(TOURNAMENT), "-o", str(tmp_path / "site"))
    assert r.exit_code == 0, r.output
    page = (tmp_path / "site" / "players" / "ann.html").read_text(encoding="utf-8")
    section = page[page.index("<h2>Rating with a fixed team</h2>"):page.index("<h2>Games</h2>")]
    assert '<a href="../players/ida.html">Ida</a></h3>' in section
    assert section.count('aria-label="Rating of the team Ann &amp; Ida after each of 2 games') == 1
    assert "2 games together, 2 won" in section


def test_a_history_reads_as_its_pairs() -> None:
    from pitchcli.views.ratings import History

    h = History()
    assert h == [] and len(h) == 0 and list(h) == []
    h.append(("2026-01-01", 1.5))
    h.append((None, -0.25))
    assert h == [("2026-01-01", 1.5), (None, -0.25)] and h == History(h)
    assert h != [("2026-01-01", 1.5)] and h != [("2026-01-01", 1.5), (None, 0.0)]
    assert h[-1] == (None, -0.25) and h[0][1] == 1.5 and h[1:] == [(None, -0.25)]
    assert [d for d, _ in h] == ["2026-01-01", None] and len(h) == 2
    assert (h == "ab") is False
