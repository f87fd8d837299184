"""`pitch find`: each condition on records whose answer was worked out by hand.

The archive (built in ``archive``) is four tally games and one invalid record,
so that every answer can be read off the score sheets below without the engine
(Auction Pitch, AP-SCORE-1..5: the bidder keeps his points when they reach his
bid, else loses the bid; every other point goes to who took it):

ladder.yaml, game 1 — Thursday club ladder, 2026-11-26, Ann Ben Cal Dot (the
sample ``auction-tally.yaml``), target 7:

    hand  bidder bid  High Low  Jack Game   bidder took  result   totals after
    1     Cal    2    Cal  Ben  -    Ben    1            set      Ann 0  Ben 2  Cal -2 Dot 0
    2     Ann    4    Cal  Ann  Cal  Cal    1            set      Ann -4 Ben 2  Cal 1  Dot 0
    3     Ann    1    Ben  Ben  Ben  Cal    0            set      Ann -5 Ben 5  Cal 2  Dot 0
    4     Ben    1    Ben  Ann  -    Ben    2            made     Ann -4 Ben 7  Cal 2  Dot 0

    Ben wins with 7; the best other total is Cal's 2: a margin of 5.

finals.jsonl, game 1 — Spring Finals, 2027-04-10: game 1 with Eve Fay Gus Hal
for Ann Ben Cal Dot (Fay wins by 5). Game 2 — Spring Finals, 2027-04-11,
Ann Ben Cal Dot: hands 1 and 2 of game 1 only, no result: unfinished, Ben
leading with 2.

pairs.yaml — Thursday club ladder, 2026-12-03, auction-partners, teams
team-1 Ann+Cal, team-2 Ben+Dot, target 7; one hand: Ben bids 4 (the
maximum) and team-2 takes all four points: made, +4, then a second hand,
Dot bids 3, takes High, Low, Jack: made, +3 -> team-2 7, team-1 0: team-2
wins by 7.

broken.yaml — game 1 of ladder.yaml whose hand 1 score claims Cal +2: the
engine derives -2 (a claim that disagrees, C5xx): invalid.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
import wcwidth
import yaml
from click.testing import CliRunner, Result

from pitchcli.cli import main

ROOT = Path(__file__).resolve().parents[2]
LADDER = yaml.safe_load((ROOT / "samples" / "auction-tally.yaml").read_text("utf-8"))


def renamed(rec: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    text = json.dumps(rec)
    for old, new in names.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    return json.loads(text)


def pairs() -> dict[str, Any]:
    return {
        "format": "pitch-record/1", "variant": "auction-partners", "event": "Thursday club ladder",
        "date": "2026-12-03", "players": ["Ann", "Ben", "Cal", "Dot"],
        "teams": {"team-1": ["Ann", "Cal"], "team-2": ["Ben", "Dot"]},
        "hands": [
            {"dealer": "Ann", "contract": {"bidder": "Ben", "bid": 4}, "trump": "S",
             "points": {"high": "team-2", "low": "team-2", "jack": "team-2", "game": "team-2"}},
            {"dealer": "Ben", "contract": {"bidder": "Dot", "bid": 3}, "trump": "H",
             "points": {"high": "team-2", "low": "team-2", "jack": "team-2", "game": None}},
        ],
    }


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("archive")
    (root / "ladder.yaml").write_text((ROOT / "samples" / "auction-tally.yaml").read_text("utf-8"), "utf-8")
    spring = renamed(LADDER, {"Ann": "Eve", "Ben": "Fay", "Cal": "Gus", "Dot": "Hal"})
    spring.update(event="Spring Finals", date="2027-04-10")
    unfinished = copy.deepcopy(LADDER)
    unfinished.update(event="Spring Finals", date="2027-04-11")
    unfinished["hands"] = unfinished["hands"][:2]
    del unfinished["result"]
    (root / "finals.jsonl").write_text("".join(json.dumps(r) + "\n" for r in (spring, unfinished)), "utf-8")
    (root / "pairs.yaml").write_text(yaml.safe_dump(pairs(), sort_keys=False), "utf-8")
    broken = copy.deepcopy(LADDER)
    broken["hands"][0]["score"]["Cal"] = 2
    (root / "broken.yaml").write_text(yaml.safe_dump(broken, sort_keys=False), "utf-8")
    return root


def find(archive: Path, *args: str) -> Result:
    r = CliRunner().invoke(main, ["find", *args, "--format", "json", "--allow-invalid", str(archive)])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def games(archive: Path, *args: str) -> list[tuple[str, int, list[int]]]:
    """(file name, document, hands) of each game found."""
    r = find(archive, *args)
    assert r.exit_code in (0, 1), r.output
    data = json.loads(r.stdout)
    assert data["report"] == "pitch-find" and data["version"] == 1
    return [(Path(g["file"]).name, g["document"], g["hands"]) for g in data["games"]]


LADDER_1 = ("ladder.yaml", 1, [])
SPRING = ("finals.jsonl", 1, [])
UNFINISHED = ("finals.jsonl", 2, [])
PAIRS = ("pairs.yaml", 1, [])


@pytest.mark.parametrize(("args", "expected"), [
    ((), [SPRING, UNFINISHED, LADDER_1, PAIRS]),  # every valid game (broken.yaml is not)
    (("--player", "Ann"), [UNFINISHED, LADDER_1, PAIRS]),
    (("--player", "Eve", "--player", "Dot"), [SPRING, UNFINISHED, LADDER_1, PAIRS]),  # any of them
    (("--with", "Eve", "--with", "Dot"), []),  # never at one table
    (("--with", "Ann", "--with", "Dot"), [UNFINISHED, LADDER_1, PAIRS]),
    (("--player", "Ann", "--against", "Cal"), [UNFINISHED, LADDER_1]),  # partners in pairs.yaml
    (("--player", "Ann", "--against", "Ben"), [UNFINISHED, LADDER_1, PAIRS]),
    (("--event", "Spring Finals"), [SPRING, UNFINISHED]),
    (("--event", "Thursday*"), [LADDER_1, PAIRS]),
    (("--event", "Spring"), []),  # exact without a wildcard
    (("--since", "2026-12-01"), [SPRING, UNFINISHED, PAIRS]),
    (("--since", "2026-11-26", "--until", "2026-11-26"), [LADDER_1]),
    (("--until", "2027-04-10"), [SPRING, LADDER_1, PAIRS]),
    (("--variant", "auction-partners"), [PAIRS]),
    (("--players", "4"), [SPRING, UNFINISHED, LADDER_1, PAIRS]),
    (("--players", "3"), []),
    (("--winner", "Ben"), [LADDER_1, PAIRS]),  # and Ben is a member of team-2
    (("--winner", "Fay"), [SPRING]),
    (("--winner", "Dot"), [PAIRS]),  # a member of the winning team
    (("--winner", "team-2"), [PAIRS]),
    (("--winner", "Ann"), []),
    (("--unfinished",), [UNFINISHED]),
    (("--margin-at-least", "5"), [SPRING, LADDER_1, PAIRS]),
    (("--margin-at-least", "6"), [PAIRS]),
    (("--margin-at-most", "5"), [SPRING, LADDER_1]),  # the unfinished game has no margin
])
def test_game_conditions(archive: Path, args: tuple[str, ...], expected: list[Any]) -> None:
    assert games(archive, *args) == expected


L, S, U, P = "ladder.yaml", "finals.jsonl", "finals.jsonl", "pairs.yaml"


@pytest.mark.parametrize(("args", "expected"), [
    (("--bid-at-least", "4"), [(S, 1, [2]), (U, 2, [2]), (L, 1, [2]), (P, 1, [1])]),
    (("--bid-at-least", "2"), [(S, 1, [1, 2]), (U, 2, [1, 2]), (L, 1, [1, 2]), (P, 1, [1, 2])]),
    (("--made",), [(S, 1, [4]), (L, 1, [4]), (P, 1, [1, 2])]),
    (("--set",), [(S, 1, [1, 2, 3]), (U, 2, [1, 2]), (L, 1, [1, 2, 3])]),
    (("--max-bid",), [(S, 1, [2]), (U, 2, [2]), (L, 1, [2]), (P, 1, [1])]),
    (("--max-bid", "--made"), [(P, 1, [1])]),  # in one hand: the ladder's 4 was set
    (("--bid-at-least", "2", "--made"), [(P, 1, [1, 2])]),
    (("--set-by", "jack"), [(S, 1, [2, 3]), (U, 2, [2]), (L, 1, [2, 3])]),  # hand 1's Jack: nobody
    (("--set-by", "game"), [(S, 1, [1, 2, 3]), (U, 2, [1, 2]), (L, 1, [1, 2, 3])]),
    (("--set-by", "high"), [(S, 1, [2, 3]), (U, 2, [2]), (L, 1, [2, 3])]),  # hand 1: Cal, the bidder, took it
    (("--set-by", "low"), [(S, 1, [1, 3]), (U, 2, [1]), (L, 1, [1, 3])]),  # hand 2: Ann, the bidder, took it
    # Set by a margin (the bid less what the bidder took; the sheet above):
    # hand 1 Cal bid 2 took 1 (High), hand 3 Ann bid 1 took 0: short 1;
    # hand 2 Ann bid 4 took 1 (Low): short 3; nobody short 2; pairs made both.
    (("--set-by", "1"), [(S, 1, [1, 3]), (U, 2, [1]), (L, 1, [1, 3])]),
    (("--set-by", "3"), [(S, 1, [2]), (U, 2, [2]), (L, 1, [2])]),
    (("--set-by", "2"), []),
    (("--set-by", "3", "--bid-at-least", "5"), []),  # in one hand: the 4 was short 3
])
def test_hand_conditions(archive: Path, args: tuple[str, ...], expected: list[Any]) -> None:
    assert games(archive, *args) == expected


def test_the_unfinished_game_has_the_ladder_s_first_two_hands(archive: Path) -> None:
    # (the fixture's claim, read back through a query)
    assert games(archive, "--unfinished", "--query", "totals.Ben == `2` && totals.Ann == `-4`") == [UNFINISHED]


def test_invalid_records_are_listed_with_their_codes(archive: Path) -> None:
    r = find(archive, "--invalid")
    data = json.loads(r.stdout)
    assert [(Path(g["file"]).name, g["codes"]) for g in data["games"]] == [("broken.yaml", ["C502"])]
    assert r.exit_code == 0
    assert games(archive, "--invalid", "--event", "Spring*") == []


def test_an_invalid_record_is_not_searched_and_fails_the_run_unless_allowed(archive: Path) -> None:
    r = CliRunner().invoke(main, ["find", "--player", "Ann", "--format", "paths", str(archive)])
    assert r.exit_code == 1
    assert "1 invalid record not searched" in r.stderr
    assert [Path(p).name for p in r.stdout.split()] == ["finals.jsonl", "ladder.yaml", "pairs.yaml"]


def test_nothing_found_is_exit_1(archive: Path) -> None:
    r = find(archive, "--player", "Nobody")
    assert r.exit_code == 1 and json.loads(r.stdout)["games"] == []


@pytest.mark.parametrize(("query", "expected"), [
    ("winner == 'Ben'", [LADDER_1]),
    ("length(hands) > `3`", [SPRING, LADDER_1]),
    ("hands[?bidder == 'Dot' && made]", [PAIRS]),
    ("record.date < '2026-12-01'", [LADDER_1]),
    ("margin", [SPRING, LADDER_1, PAIRS]),  # JMESPath's truth: 0 would be true, null is false
])
def test_query(archive: Path, query: str, expected: list[Any]) -> None:
    assert games(archive, "--query", query) == expected


def test_a_bad_query_is_a_usage_error(archive: Path) -> None:
    r = find(archive, "--query", "hands[?")
    assert r.exit_code == 2 and "--query" in r.stderr


def test_hands_lists_one_line_per_hand(archive: Path) -> None:
    r = CliRunner().invoke(main, ["find", "--set", "--hands", "--format", "table", str(archive / "ladder.yaml")])
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert re.split(r"\s{2,}", lines[0])[6] == "hand"
    assert [re.split(r"\s{2,}", line)[6] for line in lines[2:]] == ["1", "2", "3"]


def test_jsonl_writes_the_games_found_as_records(archive: Path, tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["find", "--player", "Ann", "--format", "jsonl", "--allow-invalid", str(archive)])
    assert r.exit_code == 0
    found = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(g["event"], g["date"]) for g in found] == [
        ("Spring Finals", "2027-04-11"), ("Thursday club ladder", "2026-11-26"), ("Thursday club ladder", "2026-12-03")]
    # -o with a .yaml name: a YAML stream, written atomically
    out = tmp_path / "ann.yaml"
    r = CliRunner().invoke(main, ["find", "--player", "Ann", "--allow-invalid", "-o", str(out), str(archive)])
    assert r.exit_code == 0
    assert [d["date"] for d in yaml.safe_load_all(out.read_text("utf-8"))] == ["2027-04-11", "2026-11-26",
                                                                                 "2026-12-03"]


def test_a_yaml_record_found_keeps_its_comments(archive: Path) -> None:
    r = CliRunner().invoke(main, ["find", "--winner", "Ben", "--format", "yaml", str(archive / "ladder.yaml")])
    assert r.exit_code == 0
    fmt = CliRunner().invoke(main, ["fmt", str(archive / "ladder.yaml")])
    assert r.stdout == fmt.stdout and r.stdout.startswith("# yaml-language-server")


def test_text_from_a_record_is_escaped_in_lists(tmp_path: Path) -> None:
    rec = copy.deepcopy(LADDER)
    rec["event"] = "Club\x1b[2J\tnight"
    (tmp_path / "x.json").write_text(json.dumps(rec), "utf-8")
    r = CliRunner().invoke(main, ["find", "--format", "table", str(tmp_path)])
    assert "\x1b" not in r.stdout and "Club\\x1b[2J\\x09night" in r.stdout
    assert "\t" not in r.stdout
    data = json.loads(CliRunner().invoke(main, ["find", "--format", "json", str(tmp_path)]).stdout)
    assert data["games"][0]["event"] == rec["event"]  # JSON keeps the exact text


def test_the_table_is_aligned_by_display_width(tmp_path: Path) -> None:
    # A wide name (two columns a character), a combining accent (none) and a
    # control (shown escaped, four columns): every column starts at the same
    # place on the screen on every line, whatever the event's characters.
    events = ["東京 night", "Cafe\u0301 club", "Club\x07 bell", "Plain"]
    for i, event in enumerate(events):
        rec = copy.deepcopy(LADDER)
        rec["event"] = event
        (tmp_path / f"{i}.json").write_text(json.dumps(rec), "utf-8")
    r = CliRunner().invoke(main, ["find", "--format", "table", str(tmp_path)])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].split()[:3] == ["file", "document", "event"] and set(lines[1]) == {"-", " "}
    body = lines[2:]
    assert len(body) == 4 and "Club\\x07 bell" in r.stdout and "\x07" not in r.stdout
    starts = {wcwidth.wcswidth(line[:line.index("2026-11-26")]) for line in body}
    assert len(starts) == 1 and starts == {wcwidth.wcswidth(lines[0][:lines[0].index("date")])}


# A ten-point tally worked out by hand (TP-SCORE-2: the bidding team scores
# what it took when that reaches its bid, else minus the bid; the other team
# what it took). Teams team-1 Ann+Cal, team-2 Ben+Dot, 10 points a hand:
#
#     hand  bidder (team)  bid  took (bidding side)  result         totals after
#     1     Ben (team-2)   6    5                    set, short 1   team-1 5   team-2 -6
#     2     Cal (team-1)   7    3                    set, short 4   team-1 -2  team-2 1
#     3     Dot (team-2)   5    8                    made           team-1 0   team-2 9
#     4     Ann (team-1)   8    4                    set, short 4   team-1 -8  team-2 15
TEN_POINT_TALLY = """\
format: pitch-record/1
variant: ten-point
event: Ten-point tally
date: "2026-12-05"
players: [Ann, Ben, Cal, Dot]
teams: {team-1: [Ann, Cal], team-2: [Ben, Dot]}
hands:
  - {dealer: Ann, contract: {bidder: Ben, bid: 6}, trump: H, points: {team-1: 5, team-2: 5},
     score: {team-1: 5, team-2: -6}, totals: {team-1: 5, team-2: -6}}
  - {dealer: Ben, contract: {bidder: Cal, bid: 7}, trump: S, points: {team-1: 3, team-2: 7},
     score: {team-1: -7, team-2: 7}, totals: {team-1: -2, team-2: 1}}
  - {dealer: Cal, contract: {bidder: Dot, bid: 5}, trump: C, points: {team-1: 2, team-2: 8},
     score: {team-1: 2, team-2: 8}, totals: {team-1: 0, team-2: 9}}
  - {dealer: Dot, contract: {bidder: Ann, bid: 8}, trump: D, points: {team-1: 4, team-2: 6},
     score: {team-1: -8, team-2: 6}, totals: {team-1: -8, team-2: 15}}
"""


@pytest.mark.parametrize(("args", "hands"), [
    (("--set-by", "1"), [1]),
    (("--set-by", "4"), [2, 4]),
    (("--set-by", "2"), None),
    (("--set-by", "4", "--bid-at-least", "8"), [4]),
    (("--set-by", "4", "--player", "Ben", "--against", "Ann"), [2, 4]),
    (("--set",), [1, 2, 4]),
    (("--made",), [3]),
    (("--query", "hands[?short == `4` && bidder == 'Cal']"), [1, 2, 3, 4]),  # a query lists every hand
])
def test_set_by_a_margin_in_a_ten_point_game(tmp_path: Path, args: tuple[str, ...], hands: list[int] | None) -> None:
    path = tmp_path / "tally.yaml"
    path.write_text(TEN_POINT_TALLY, "utf-8")
    r = CliRunner().invoke(main, ["find", "--format", "json", "--hands", *args, str(path)])
    assert "Traceback" not in r.output
    found = json.loads(r.stdout)["games"]
    assert [g["hands"] for g in found] == ([] if hands is None else [hands])
    assert r.exit_code == (1 if hands is None else 0)


def test_set_by_neither_a_point_nor_a_number_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "tally.yaml"
    path.write_text(TEN_POINT_TALLY, "utf-8")
    for bad in ("0", "-1", "queen"):
        r = CliRunner().invoke(main, ["find", "--set-by", bad, str(path)])
        assert r.exit_code == 2 and "--set-by" in r.stderr
