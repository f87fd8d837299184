"""pitch summarize / pitch merge: standings checked by hand, invalid records,
output formats, split-and-merge (a property), and --jobs."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitchcli.cli import main
from pitchcli.pipeline import pieces
from pitchcli.pipeline.check import check_source
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.write import canonical, to_jsonl, to_yaml_stream
from pitchcli.render.summary import write_report
from pitchcli.views import summarize as summarizing
from pitchcli.views.summary import Summary, merge_all

# A tiny corpus worked by hand (tally records: contract and points only).
#
# Club, game 1 (target 3; Ann, Ben, Cal):
#   hand 1  Ben bids 2, takes High+Low (2): made +2; Cal takes Game +1  -> 0 2 1
#   hand 2  Cal bids 3, takes Low+Game (2): set -3; Ann takes High +1   -> 1 2 -2
#   hand 3  Ben bids 1, takes High+Game: made +2 -> 4, wins; Ann Low +1 -> 2 4 -2
# Club, game 2: Cal bids 4 and takes all four: +4, wins              -> 0 0 4
# Club, game 3: a claimed hand score that is wrong (C502): invalid, not counted.
# Pairs night (auction-partners, target 4): North (Ann, Cal) bid 4 by Ann, all four.
CLUB = """\
---
format: pitch-record/1
variant: auction
rules: {target: 3}
event: Club
date: "2026-01-08"
round: 1
players: [Ann, Ben, Cal]
hands:
  - dealer: Ann
    contract: {bidder: Ben, bid: 2}
    points: {high: Ben, low: Ben, jack: null, game: Cal}
  - dealer: Ben
    contract: {bidder: Cal, bid: 3}
    points: {high: Ann, low: Cal, jack: null, game: Cal}
  - dealer: Cal
    contract: {bidder: Ben, bid: 1}
    points: {high: Ben, low: Ann, jack: null, game: Ben}
result: {winner: Ben, scores: {Ann: 2, Ben: 4, Cal: -2}}
---
format: pitch-record/1
variant: auction
rules: {target: 3}
event: Club
date: "2026-01-15"
round: 2
players: [Ann, Ben, Cal]
hands:
  - dealer: Ann
    contract: {bidder: Cal, bid: 4}
    points: {high: Cal, low: Cal, jack: Cal, game: Cal}
result: {winner: Cal, scores: {Ann: 0, Ben: 0, Cal: 4}}
---
format: pitch-record/1
variant: auction
event: Club
players: [Ann, Ben, Cal]
hands:
  - dealer: Ann
    contract: {bidder: Ben, bid: 2}
    points: {high: Ben, low: Ben, jack: null, game: Cal}
    score: {Ann: 0, Ben: 5, Cal: 1}
"""
PAIRS = json.dumps({
    "format": "pitch-record/1", "variant": "auction-partners", "rules": {"target": 4}, "event": "Pairs night",
    "date": "2026-01-09", "players": ["Ann", "Ben", "Cal", "Dot"],
    "teams": {"North": ["Ann", "Cal"], "East": ["Ben", "Dot"]},
    "hands": [{"dealer": "Dot", "contract": {"bidder": "Ann", "bid": 4},
               "points": {"high": "North", "low": "North", "jack": "North", "game": "North"}}]})


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    (tmp_path / "club.yaml").write_text(CLUB)
    (tmp_path / "pairs.json").write_text(PAIRS + "\n")
    return tmp_path


def run(*args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=input)


def report(*args: str) -> dict[str, Any]:
    r = run(*args, "--format", "json")
    assert r.exit_code in (0, 1), r.output
    return json.loads(r.output)


def by_name(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in rows}


# --- standings worked by hand -----------------------------------------------------


def test_standings_match_the_hand_count(corpus: Path) -> None:
    rep = report("summarize", str(corpus))
    club, pairs = rep["events"]  # by first date: Club (01-08) before Pairs night (01-09)
    assert (club["event"], club["games"], club["invalid"], club["hands"]) == ("Club", 2, 1, 4)
    assert (club["first_date"], club["last_date"]) == ("2026-01-08", "2026-01-15")
    assert [p["name"] for p in club["players"]] == ["Ben", "Cal", "Ann"]  # wins, win %, pts/hand
    p = by_name(club["players"])
    assert {k: p["Ben"][k] for k in ("rank", "games", "wins", "hands", "bids", "made", "set", "bid_total",
                                    "score", "high", "low", "jack", "game")} == \
        {"rank": 1, "games": 2, "wins": 1, "hands": 4, "bids": 2, "made": 2, "set": 0, "bid_total": 3,
         "score": 4, "high": 2, "low": 1, "jack": 0, "game": 1}
    assert (p["Ben"]["win_pct"], p["Ben"]["average_bid"], p["Ben"]["points_per_hand"]) == (50.0, 1.5, 1.0)
    assert {k: p["Cal"][k] for k in ("rank", "wins", "bids", "made", "set", "score", "high", "low", "jack",
                                    "game")} == \
        {"rank": 2, "wins": 1, "bids": 2, "made": 1, "set": 1, "score": 2, "high": 1, "low": 2, "jack": 1,
         "game": 3}
    assert (p["Cal"]["made_pct"], p["Cal"]["average_bid"], p["Cal"]["points_per_hand"]) == (50.0, 3.5, 0.5)
    assert (p["Ann"]["rank"], p["Ann"]["wins"], p["Ann"]["bids"], p["Ann"]["made_pct"], p["Ann"]["score"],
            p["Ann"]["high"], p["Ann"]["low"]) == (3, 0, 0, None, 2, 1, 1)
    # Fixed teams: the team is credited; a tally record doesn't say which partner took a point.
    north, east = pairs["teams"]
    assert (north["name"], north["members"], north["names"], north["wins"], north["bids"], north["made"],
            north["score"], north["high"] + north["low"] + north["jack"] + north["game"]) == \
        ("Ann & Cal", ["Ann", "Cal"], ["North"], 1, 1, 1, 4, 4)
    assert (east["rank"], east["wins"], east["score"]) == (2, 0, 0)
    q = by_name(pairs["players"])
    assert (q["Ann"]["rank"], q["Cal"]["rank"], q["Ann"]["bids"], q["Cal"]["bids"], q["Cal"]["wins"]) == \
        (1, 1, 1, 0, 1)  # equal figures share a rank
    assert q["Ann"]["high"] == 0
    assert rep["summary"] == {"files": 2, "documents": 4, "valid": 3, "invalid": 1, "unreadable": 0,
                              "errors": 1, "warnings": 0}


def test_game_rows_by_file_then_document(corpus: Path) -> None:
    rows = report("summarize", str(corpus))["games"]
    assert [(Path(r["file"]).name, r["document"]) for r in rows] == \
        [("club.yaml", 1), ("club.yaml", 2), ("club.yaml", 3), ("pairs.json", 1)]
    assert rows[0]["winner"] == "Ben" and rows[0]["scores"] == {"Ann": 2, "Ben": 4, "Cal": -2}
    assert rows[0]["round"] == 1 and rows[0]["profile"] == "auction" and rows[0]["hands"] == 3
    assert rows[2]["valid"] is False and rows[2]["winner"] is None
    assert rows[3]["scores"] == {"North": 4, "East": 0}


# --- invalid and unreadable inputs ---------------------------------------------------


def test_invalid_record_counted_listed_and_exit_1(corpus: Path) -> None:
    r = run("summarize", str(corpus))
    assert r.exit_code == 1
    assert f"{corpus / 'club.yaml'}:42:26: error: C502 hand 1: score change of Ben is recorded as 5" in r.output
    assert "(document 3)" in r.output
    assert r.output.rstrip().endswith("4 documents in 2 files: 3 valid, 1 invalid")
    assert "1 invalid record not counted" in r.output
    assert run("summarize", "--allow-invalid", str(corpus)).exit_code == 0


def test_unreadable_input_exit_3(corpus: Path) -> None:
    r = run("summarize", "--allow-invalid", str(corpus), str(corpus / "missing.yaml"))
    assert r.exit_code == 3
    assert "missing.yaml: error: L101" in r.output
    assert "1 file unreadable" in r.output


def test_standard_input_and_json_lines(corpus: Path) -> None:
    r = run("summarize", "--format", "json", "-", input=PAIRS + "\n\n" + PAIRS + "\n")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    assert rep["summary"]["documents"] == 2
    assert by_name(rep["events"][0]["teams"])["Ann & Cal"]["wins"] == 2


# --- formats ------------------------------------------------------------------------


def test_csv_standings_and_games_parse(corpus: Path) -> None:
    r = run("summarize", "--format", "csv", str(corpus))
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert [(x["event"], x["kind"], x["name"]) for x in rows][:3] == \
        [("Club", "player", "Ben"), ("Club", "player", "Cal"), ("Club", "player", "Ann")]
    team = next(x for x in rows if x["kind"] == "team" and x["name"] == "Ann & Cal")
    assert (team["members"], team["wins"], team["score"]) == ("Ann;Cal", "1", "4")
    r = run("summarize", "--format", "csv", "--no-standings", "--games", str(corpus))
    games = list(csv.DictReader(io.StringIO(r.stdout)))
    assert [g["valid"] for g in games] == ["true", "true", "false", "true"]
    assert games[0]["scores"] == "Ann=2;Ben=4;Cal=-2" and games[0]["players"] == "Ann;Ben;Cal"
    assert run("summarize", "--format", "csv", "--games", str(corpus)).exit_code == 2  # one table only


def test_markdown_and_table_outputs(corpus: Path) -> None:
    md = run("summarize", "--format", "markdown", str(corpus)).output
    assert md.startswith("# Summary\n")
    assert "## Club, 2026-01-08 to 2026-01-15: 2 games, 4 hands (auction x2); 1 invalid record not counted" in md
    tables = [line for line in md.splitlines() if line.startswith("|")]
    assert tables and all(line.endswith("|") for line in tables)
    header = next(line for line in tables if "Player" in line)
    assert header.count("|") == next(line for line in tables if "| Ben" in line).count("|")
    text = run("summarize", "--no-games", str(corpus)).output
    assert "Games (" not in text and "Player" in text
    text = run("summarize", "--no-standings", str(corpus)).output
    assert "Pts/hand" not in text and "Games (4) in" in text


def test_max_rows_bounds_rows_and_says_so(corpus: Path) -> None:
    rep = report("summarize", "--max-rows", "2", str(corpus))
    assert [r["document"] for r in rep["games"]] == [1, 2] and rep["summary"]["documents"] == 4
    assert "Games (2 of 4, the first by file)" in run("summarize", "--max-rows", "2", str(corpus)).output


# --- partial summaries and merge ---------------------------------------------------------


def test_partial_then_merge_equals_one_run(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    out = tmp_path_factory.mktemp("parts")
    for name in ("club.yaml", "pairs.json"):
        r = run("summarize", "--partial", "-o", str(out / f"{name}.part.json"), str(corpus / name))
        assert r.exit_code in (0, 1)
    part = json.loads((out / "club.yaml.part.json").read_text())
    assert (part["format"], part["version"]) == ("pitch-summary-partial", 1)
    for fmt in ("table", "json", "csv", "markdown"):
        one = run("summarize", "--format", fmt, str(corpus))
        merged = run("merge", "--format", fmt, str(out / "pairs.json.part.json"), str(out / "club.yaml.part.json"))
        assert merged.output == one.output and merged.exit_code == one.exit_code == 1
    assert run("merge", "--allow-invalid", *map(str, out.iterdir())).exit_code == 0
    (out / "bad.json").write_text('{"format": "something-else"}')
    r = run("merge", str(out / "bad.json"))
    assert r.exit_code == 3 and "not a partial summary" in r.output


def _variant_games() -> list[tuple[str, str, int]]:
    return [("auction", "Winter", 4), ("auction", "Winter", 3), ("auction-partners", "Winter", 4),
            ("ten-point", "Saturday", 4), ("ten-point-5", "Saturday", 5), ("auction", "Winter", 5)]


@pytest.fixture(scope="module")
def checked_corpus() -> list[Any]:
    """About 20 simulated games of five profiles in two events, and one broken game."""
    rng = random.Random(11)
    games = []
    for i in range(3):
        for variant, event, n in _variant_games():
            rec = canonical(simulate_game(variant, n, rng=rng))
            rec = canonical({**rec, "event": event, "date": f"2026-02-0{i + 1}", "round": i + 1})
            games.append(rec)
    broken = json.loads(json.dumps(games[4]))
    broken["hands"][0]["score"] = {k: v + 1 for k, v in broken["hands"][0]["score"].items()}
    games.insert(7, broken)
    out = []
    for k, name in enumerate(("a.jsonl", "b.yaml")):
        part = games[k::2]
        text = "".join(to_jsonl(g) for g in part) if name.endswith("jsonl") else to_yaml_stream(part)
        out += list(check_source(name, text.encode()))
    return out


def _summary(checked: list[Any], limit: int | None) -> Summary:
    s = Summary(limit)
    for c in checked:
        s.add_checked(c)
    return s


def _render(s: Summary) -> str:
    buf = io.StringIO()
    write_report(s, buf, "table")
    write_report(s, buf, "json")
    return buf.getvalue()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), limit=st.sampled_from([None, 3, 50]), parts=st.integers(1, 5))
def test_any_split_merged_equals_one_run(checked_corpus: list[Any], data: st.DataObject, limit: int | None,
                                         parts: int) -> None:
    """Split the documents into parts any way, summarize each (through the
    partial JSON file), merge in any order and grouping: the same summary."""
    assign = data.draw(st.lists(st.integers(0, parts - 1), min_size=len(checked_corpus),
                                max_size=len(checked_corpus)))
    pieces = [_summary([c for c, a in zip(checked_corpus, assign, strict=True) if a == k], limit)
              for k in range(parts)]
    pieces = [Summary.from_json(json.loads(json.dumps(p.to_json()))) for p in pieces]
    order = data.draw(st.permutations(range(parts)))
    pieces = [pieces[k] for k in order]
    while len(pieces) > 1:  # merge two neighbours at a time: any grouping
        i = data.draw(st.integers(0, len(pieces) - 2))
        pieces[i:i + 2] = [pieces[i].merge(pieces[i + 1])]
    whole = _summary(checked_corpus, limit)
    assert pieces[0].to_json() == whole.to_json()
    assert _render(pieces[0]) == _render(whole)
    assert merge_all([]).to_json()["counts"]["documents"] == 0


def test_corpus_has_teams_partners_and_an_invalid_game(checked_corpus: list[Any]) -> None:
    s = _summary(checked_corpus, None)
    assert s.counts["invalid"] == 1 and s.counts["valid"] == len(checked_corpus) - 1
    assert any(ev.teams for ev in s.events.values())
    assert any(t.partner for ev in s.events.values() for t in ev.players.values())


# --- --jobs ------------------------------------------------------------------------------


def test_jobs_2_gives_the_same_output(checked_corpus: list[Any], tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Files shared out and big files cut into pieces (every file is "big"
    here): the same report, line numbers of later pieces included."""
    rng = random.Random(5)
    games = [canonical(simulate_game("auction", 4, rng=rng)) for _ in range(12)]
    broken = json.loads(json.dumps(games[9]))
    broken["result"]["winner"] = "Nobody"
    games[9] = broken
    (tmp_path / "big.jsonl").write_text("".join(to_jsonl(g) for g in games[:10]) + "\n\n")
    (tmp_path / "big.yaml").write_text(to_yaml_stream(games))
    (tmp_path / "small").mkdir()
    (tmp_path / "small" / "club.yaml").write_text(CLUB)
    monkeypatch.setattr(pieces, "MIN_PIECE", 1)
    tasks = summarizing.plan([str(tmp_path / "big.jsonl"), str(tmp_path / "big.yaml")], 2)
    assert len(tasks) == 16  # 2 jobs x 4 pieces per file
    for fmt in ("json", "table"):
        one = run("summarize", "--format", fmt, str(tmp_path))
        two = run("summarize", "--jobs", "2", "--format", fmt, str(tmp_path))
        assert one.exit_code == two.exit_code == 1
        assert one.output == two.output
    problems = json.loads(run("summarize", "--jobs", "2", "--format", "json", str(tmp_path)).output)["problems"]
    late = [p for p in problems if p["file"].endswith("big.yaml")]
    assert late and late[0]["document"] == 10 and late[0]["line"] > 1000


def test_by_round_json_counts_documents_from_1_as_every_output(corpus: Path) -> None:
    # Game 3 of the club's stream is invalid: both reports name it document 3,
    # as the problem's text does.
    by_event = report("summarize", str(corpus))["problems"]
    by_round = report("summarize", "--by", "round", str(corpus))["problems"]
    assert [(p["file"], p["document"]) for p in by_round] == [(p["file"], p["document"]) for p in by_event]
    assert [p["document"] for p in by_round] == [3]
    assert "(document 3)" in by_round[0]["text"]
