"""Inputs the fuzz suite (tests/test_fuzz.py) found breaking the contract of
docs/hostile-input.md, kept as they were found: each one ran into a traceback,
a wrong exit status or a failure without a located diagnostic before its fix."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pitchcli.cli import main
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.write import dump

LOCATED = re.compile(r":\d+:\d+:( warning:)? [LSPRC]\d{3} ")


def run(*args: str) -> Result:
    r = CliRunner().invoke(main, list(args))
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    return r


# --------------------------------------------------------------------------- summarize --format csv

# A record written by PyYAML, which shares the last hand's totals with the
# result as an anchor and an alias (the simulator hands it one dict for both).
SHARED_TOTALS = b"""format: pitch-record/1
variant: auction
players: [Ann, Ben, Cal, Dot]
hands:
- dealer: Ann
  bids: [pass, 4]
  tricks:
  - [6S, 3S, QS, 2S]
  score: {Ann: 3, Ben: 0, Cal: -4, Dot: 0}
  totals: &id001 {Ann: 8, Ben: 11, Cal: -9, Dot: 0}
result:
  winner: Ben
  scores: *id001
"""


def test_summarize_csv_shows_the_problems_on_stderr(tmp_path: Path) -> None:
    # Exit 1 with nothing located anywhere: the CSV table has no room for the
    # problems, so they now go to standard error.
    path = tmp_path / "shared.yaml"
    path.write_bytes(SHARED_TOTALS)
    r = run("summarize", "--format", "csv", str(path))
    assert r.exit_code == 1
    assert f"{path}:13:11: error: L105 " in r.stderr
    assert "L105" not in r.stdout  # the CSV stays one table


# --------------------------------------------------------------------------- merge


def _partial(tmp_path: Path) -> dict:
    """The partial summary of a valid game in which somebody ends below zero."""
    rec = next(g for g in (simulate_game("auction", seed=s) for s in range(50))
               if min(g["result"]["scores"].values()) < 0)
    path = tmp_path / "game.yaml"
    path.write_text(dump([rec], "yaml"))
    r = run("summarize", "--partial", str(path))
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.mark.parametrize(("change", "words"), [
    # TypeError: slice indices must be integers (reading the file)
    ({"limit": "x"}, "/limit must be a whole number or null, not 'x'"),
    ({"limit": 1.5}, "/limit must be"),
    ({"limit": -3}, "/limit must be 1 or more, or null"),
    # found by the long fuzz run: limit 0 kept no problem, so merge exited 1
    # (a part counted an invalid record) without listing any
    ({"limit": 0}, "/limit must be 1 or more, or null, not 0"),
    # an event named by a number: TypeError comparing it with names (the report)
    ({"events": [{"event": 5, "games": 1}]}, "/events/0/event must be text or null"),
    # OverflowError: int(Infinity) in a tally
    ({"events": [{"event": "E", "players": {"Ann": {"wins": float("inf")}}}]},
     "/events/0/players/Ann/wins must be a whole number"),
    # KeyError when the report reads a row without its fields
    ({"games": [{"file": "a.yaml", "document": 0}]}, "/games/0/event is missing"),
    ({"problems": [{"file": "a.yaml", "document": "0"}]}, "/problems/0/document must be a whole number"),
    ({"counts": {"documents": "many"}}, "/counts/documents must be a whole number"),
    ({"files": [1, 2]}, "/files/0 must be text, not 1"),
])
def test_a_corrupt_partial_is_refused_with_what_is_wrong(tmp_path: Path, change: dict, words: str) -> None:
    data = _partial(tmp_path)
    data.update(change)
    part = tmp_path / "part.json"
    part.write_text(json.dumps(data))
    r = run("merge", str(part))
    assert r.exit_code == 3, r.output
    assert r.stderr.startswith(f"{part}: ") and words in r.stderr, r.stderr


def test_a_partial_with_negative_scores_still_merges(tmp_path: Path) -> None:
    data = _partial(tmp_path)
    part = tmp_path / "part.json"
    part.write_text(json.dumps(data))
    assert any(t["score"] < 0 for ev in data["events"] for t in ev["players"].values())
    r = run("merge", "--format", "json", str(part), str(part))
    assert r.exit_code == 0, r.output


# --------------------------------------------------------------------------- analysis


# Found by fuzzing fmt: `hands` retyped to a number. TypeError: 'int' object is
# not iterable, in every command (the engine iterated whatever `hands` held).
HANDS_IS_A_NUMBER = b"""format: pitch-record/1
variant: ten-point-3
players: [Ann, Ben, Cal]
hands: 1
result:
  winner: Ann
  scores: {Ann: 42, Ben: -15, Cal: 28}
"""


@pytest.mark.parametrize("hands", [b"1", b"'x'", b"{a: 1}", b"true", b"2.5", b"null"])
@pytest.mark.parametrize("command", ["validate", "score", "replay", "fmt", "summarize"])
def test_hands_that_are_not_a_list(tmp_path: Path, command: str, hands: bytes) -> None:
    path = tmp_path / "hands.yaml"
    path.write_bytes(HANDS_IS_A_NUMBER.replace(b"hands: 1", b"hands: " + hands))
    r = run(command, str(path))
    assert r.exit_code == 1
    assert f"{path}:4:8: error: S203 'hands' must be a list" in r.output
    # Nothing else: with no hands to replay the totals are unknown, so the
    # result's claims are not compared with zeros.
    assert "C504" not in r.output


# --------------------------------------------------------------------------- schema: quadratic reports

# Found while sizing the limits (test_limits.py): files under the 1 MiB document
# limit whose diagnostics cost quadratic time. Each took minutes. The guard
# against a return measures work, not time (no timing assertions): the Python
# lines and calls `pitch validate` runs (a tracer counts them, the same count on
# any machine, however loaded) for N and for 10N problems. Linear work is at most
# 10 times as much (less: the start is the same); quadratic work is 100 times as
# much for what grows. A quadratic loop inside C (a slice or `list.index` per
# item) is not seen by this count; the injected regressions below are the
# Python-level ones the two fixes removed.


def _many_unknown_keys(n: int) -> bytes:
    head = b"format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben]\nhands: []\n"
    return head + b"".join(b"k%d: 1\n" % i for i in range(n))


def _many_same_players(n: int) -> bytes:
    return b"format: pitch-record/1\nvariant: auction\nplayers: [" + b", ".join([b"Ann"] * n) + b"]\nhands: []\n"


def _many_repeated_players(n: int) -> bytes:
    """``n`` players, ``n / 2`` names each named twice: every repeat is found
    only by looking past all the names before it."""
    names = [b"P%d" % i for i in range(n // 2)]
    return b"format: pitch-record/1\nvariant: auction\nplayers: [" + b", ".join(names * 2) + b"]\nhands: []\n"


LINEAR = 12  # the most work 10N problems may cost, in units of N's (linear: 8.5-9.9)


def _work(path: Path) -> tuple[Result, int]:
    """``pitch validate`` of ``path`` (every diagnostic), and how many Python
    lines and calls it ran: a deterministic measure of its work."""
    import sys

    count = 0

    def tracer(frame: object, event: str, arg: object) -> object:
        nonlocal count
        count += 1
        return tracer

    before = sys.gettrace()
    sys.settrace(tracer)
    try:
        r = run("validate", "-q", "--max-errors", "0", str(path))
    finally:
        sys.settrace(before)
    return r, count


def _growth(tmp_path: Path, make, n: int) -> tuple[float, Result]:
    """The work for 10n problems over the work for n, and the 10n run."""
    path = tmp_path / "many.yaml"
    path.write_bytes(make(n // 4))
    _work(path)  # first use: imports and caches, not the work measured
    path.write_bytes(make(n))
    _, small = _work(path)
    path.write_bytes(make(10 * n))
    r, large = _work(path)
    return large / small, r


@pytest.mark.parametrize(("make", "n", "code", "found"), [
    # unknown keys: each S201 was put in document order by a scan of the
    # mapping (20,000 keys: 19 s); now the mapping is indexed once.
    (_many_unknown_keys, 200, "S201", 2000),
    # repeats in players: each compared with every name before it (100,000
    # copies: 51 s); now a set.
    (_many_same_players, 200, "S204", 1999),
    (_many_repeated_players, 200, "S204", 1000),
])
def test_many_diagnostics_cost_linear_work(tmp_path: Path, make, n: int, code: str, found: int) -> None:
    growth, r = _growth(tmp_path, make, n)
    assert r.exit_code == 1
    assert r.stdout.count(f": error: {code} ") == found  # every one of them
    assert growth < LINEAR, f"10x the problems cost {growth:.1f}x the work"


def test_the_work_measure_sees_quadratic_cost(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The two fixes undone, the measure trips (so the guard above can fail)."""
    from pitchcli.record import schema

    order = schema._document_order
    monkeypatch.setattr(schema, "_document_order", lambda data, path, positions=None: order(data, path, None))
    monkeypatch.setattr(schema, "_duplicates", lambda items: [
        i for i, item in enumerate(items) if any(item == other for other in items[:i])])
    for make in (_many_unknown_keys, _many_repeated_players):
        growth, r = _growth(tmp_path, make, 100)
        assert r.exit_code == 1 and growth > LINEAR, (make.__name__, growth)


def test_repeats_are_found_among_lists_and_mappings_too() -> None:
    from pitchcli.record.schema import _duplicates

    items = [[1], {"a": [1]}, [1.0], "x", {"a": [True]}, [[1, 2]], [[1, 2]], 1, True, "x"]
    assert _duplicates(items) == [2, 4, 6, 8, 9]


# --------------------------------------------------------------------------- score --check

# Found by fuzzing score: samples/auction-3-players.yaml as JSON with Ben's key
# in hand 1's score misspelt "Ren". `score --check` exited 1 saying "2 recorded
# values disagree with the cards" with no file:line:col anywhere on stderr.
SCORE_KEY_MISSPELT = b"""{
  "format": "pitch-record/1",
  "variant": "auction",
  "event": "Thursday club ladder",
  "site": "Riverside Club",
  "date": "2026-11-26",
  "notes": "three-handed",
  "players": ["Ann", "Ben", "Cal"],
  "hands": [
    {
      "dealer": "Ben",
      "deal": {
        "Ann": ["2H", "6C", "3D", "JH", "4H", "4C"],
        "Ben": ["2D", "6H", "KC", "6S", "8C", "10S"],
        "Cal": ["5S", "AC", "7H", "QS", "3H", "KH"]
      },
      "bids": [2, 4, "pass"],
      "tricks": [
        ["2H", "6H", "7H"],
        ["5S", "3D", "6S"],
        ["2D", "KH", "4C"],
        ["3H", "JH", "10S"],
        ["6C", "8C", "AC"],
        ["QS", "4H", "KC"]
      ],
      "score": {"Ann": -4, "Ren": 0, "Cal": 2},
      "totals": {"Ann": -4, "Ben": 0, "Cal": 2}
    },
    {
      "dealer": "Cal",
      "deal": {
        "Ann": ["3H", "AH", "4S", "5H", "QS", "QD"],
        "Ben": ["2C", "10H", "8H", "9H", "QH", "JH"],
        "Cal": ["9C", "QC", "6H", "6S", "3S", "6D"]
      },
      "bids": [4],
      "tricks": [
        ["QS", "9H", "3S"],
        ["QD", "10H", "6S"],
        ["QC", "4S", "2C"],
        ["5H", "8H", "6H"],
        ["QH", "9C", "AH"],
        ["3H", "JH", "6D"]
      ],
      "score": {"Ann": -4, "Ben": 0, "Cal": 1},
      "totals": {"Ann": -8, "Ben": 0, "Cal": 3}
    },
    {
      "dealer": "Ann",
      "deal": {
        "Ann": ["JH", "QS", "4D", "8C", "3C", "AC"],
        "Ben": ["6C", "5C", "AS", "KH", "3D", "10H"],
        "Cal": ["7C", "2C", "8H", "10C", "KD", "JS"]
      },
      "bids": ["pass", "pass", 2],
      "tricks": [
        ["3C", "6C", "10C"],
        ["2C", "AC", "5C"],
        ["JH", "10H", "7C"],
        ["KD", "8C", "3D"],
        ["QS", "AS", "JS"],
        ["KH", "8H", "4D"]
      ],
      "score": {"Ann": 2, "Ben": 0, "Cal": 1},
      "totals": {"Ann": -6, "Ben": 0, "Cal": 4}
    },
    {
      "dealer": "Ben",
      "deal": {
        "Ann": ["4S", "JH", "5C", "AH", "AS", "2C"],
        "Ben": ["AC", "QH", "2H", "3D", "7H", "9H"],
        "Cal": ["6H", "5S", "7D", "AD", "QS", "JD"]
      },
      "bids": [1, "pass", 1],
      "tricks": [
        ["3D", "7D", "AH"],
        ["QS", "AS", "2H"],
        ["2C", "AC", "6H"],
        ["QH", "AD", "JH"],
        ["JD", "5C", "9H"],
        ["5S", "4S", "7H"]
      ],
      "score": {"Ann": 0, "Ben": -1, "Cal": 4},
      "totals": {"Ann": -6, "Ben": -1, "Cal": 8}
    },
    {
      "dealer": "Cal",
      "deal": {
        "Ann": ["9C", "10H", "2D", "2H", "7H", "KD"],
        "Ben": ["AD", "7D", "8C", "QS", "8H", "AC"],
        "Cal": ["3H", "3D", "4C", "4S", "2C", "JD"]
      },
      "bids": ["pass", "pass", 2],
      "tricks": [
        ["4C", "9C", "8C"],
        ["2H", "8H", "2C"],
        ["4S", "KD", "QS"],
        ["AD", "JD", "2D"],
        ["7D", "3D", "10H"],
        ["AC", "3H", "7H"]
      ],
      "score": {"Ann": 0, "Ben": 2, "Cal": -2},
      "totals": {"Ann": -6, "Ben": 1, "Cal": 6}
    },
    {
      "dealer": "Ann",
      "deal": {
        "Ann": ["10C", "JH", "4C", "10D", "JC", "10H"],
        "Ben": ["6S", "QH", "4S", "KS", "9S", "9H"],
        "Cal": ["AC", "AH", "3D", "2D", "3S", "AD"]
      },
      "bids": ["pass", 1, "pass"],
      "tricks": [
        ["AC", "10C", "QH"],
        ["AH", "JC", "9H"],
        ["4C", "9S", "3D"],
        ["10D", "KS", "2D"],
        ["10H", "6S", "AD"],
        ["JH", "4S", "3S"]
      ],
      "score": {"Ann": 3, "Ben": 0, "Cal": 1},
      "totals": {"Ann": -3, "Ben": 1, "Cal": 7}
    }
  ],
  "result": {
    "winner": "Cal",
    "scores": {"Ann": -3, "Ben": 1, "Cal": 7}
  }
}
"""


@pytest.mark.parametrize("fmt", ["text", "json", "csv"])
def test_score_check_locates_the_claims_that_disagree(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "claims.json"
    path.write_bytes(SCORE_KEY_MISSPELT)
    r = run("score", "--check", "--format", fmt, str(path))
    assert r.exit_code == 1
    assert f"{path}:26:16: error: C502 hand 1: score change of Ben is missing" in r.stderr
    assert f"{path}:26:35: error: C502 hand 1: score change is recorded for 'Ren'" in r.stderr
    # Without --check the sheet is shown (exit 0) and the claims only counted.
    r = run("score", "--format", fmt, str(path))
    assert r.exit_code == 0 and "C502" not in r.stderr


# --------------------------------------------------------------------------- summarize --jobs


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-32"])
def test_summarize_jobs_does_not_cut_a_utf16_file(tmp_path: Path, codec: str) -> None:
    # Found by fuzzing summarize --jobs 2: a UTF-16 JSON Lines file of 1.7 MB
    # (a simulated game as one line, repeated; too big to keep here, so made
    # again the same way). One job: one L102 for the file. Two jobs: the file
    # was cut into pieces of 256 KB and each piece refused again, 7 "invalid
    # records" instead of 1.
    rec = simulate_game("auction", seed=3)
    line = json.dumps(rec) + "\n"
    path = tmp_path / "wide.jsonl"
    path.write_bytes((line * (1_200_000 // len(line) + 1)).encode(codec))
    one = run("summarize", "--format", "json", "--max-rows", "0", str(path))
    two = run("summarize", "--format", "json", "--max-rows", "0", "--jobs", "2", str(path))
    assert one.exit_code == two.exit_code == 1
    assert one.stdout == two.stdout
    assert [p["code"] for p in json.loads(two.stdout)["problems"]] == ["L102"]


# --------------------------------------------------------------------------- fmt --in-place and line ends

# Found by the long fuzz run (fmt -i, then fmt --check): a canonical record with
# bare CR line ends (here JSON; the same happened in YAML and with CRLF).
# fmt --in-place compared the file read with universal newlines, found it equal
# to the canonical text, and left it; fmt --check, comparing the bytes, said it
# would reformat it. Now fmt --in-place writes LF line ends.
CR_LINE_ENDS = b"""{
  "format": "pitch-record/1",
  "variant": "auction",
  "event": "Winter Setback Open",
  "date": "2026-11-21",
  "round": 4,
  "table": 3,
  "id": "1-4-3",
  "players": ["Hal", "Ann", "Eve"],
  "hands": [
    {
      "dealer": "Eve",
      "deal": {
        "Hal": ["3H", "KS", "AS", "7D", "JH", "JC"],
        "Ann": ["QS", "9C", "6S", "KH", "3D", "5D"],
        "Eve": ["4D", "9D", "10S", "QD", "QC", "2D"]
      },
      "bids": ["pass", 1, 1],
      "tricks": [
        ["2D", "7D", "3D"],
        ["AS", "6S", "9D"],
        ["10S", "KS", "5D"],
        ["9C", "QC", "JC"],
        ["QD", "JH", "KH"],
        ["4D", "3H", "QS"]
      ],
      "score": {"Hal": 1, "Ann": 0, "Eve": 2},
      "totals": {"Hal": 1, "Ann": 0, "Eve": 2}
    },
    {
      "dealer": "Hal",
      "deal": {
        "Hal": ["QD", "8C", "5D", "5S", "9D", "7S"],
        "Ann": ["4S", "10D", "2D", "5C", "AC", "6D"],
        "Eve": ["7D", "10C", "AD", "JS", "QH", "6S"]
      },
      "bids": [4, "pass"],
      "tricks": [
        ["AC", "10C", "8C"],
        ["4S", "JS", "7S"],
        ["7D", "9D", "6D"],
        ["QD", "2D", "AD"],
        ["6S", "5S", "10D"],
        ["QH", "5D", "5C"]
      ],
      "score": {"Hal": 0, "Ann": -4, "Eve": 1},
      "totals": {"Hal": 1, "Ann": -4, "Eve": 3}
    },
    {
      "dealer": "Ann",
      "deal": {
        "Hal": ["8H", "6D", "2C", "3H", "AH", "9S"],
        "Ann": ["9D", "QH", "AC", "6H", "5D", "8S"],
        "Eve": ["QD", "3C", "QS", "10D", "3S", "4D"]
      },
      "bids": [4],
      "tricks": [
        ["QD", "6D", "9D"],
        ["QS", "9S", "8S"],
        ["3C", "2C", "5D"],
        ["QH", "4D", "AH"],
        ["3S", "3H", "AC"],
        ["10D", "8H", "6H"]
      ],
      "score": {"Hal": 0, "Ann": 0, "Eve": -4},
      "totals": {"Hal": 1, "Ann": -4, "Eve": -1}
    },
    {
      "dealer": "Eve",
      "deal": {
        "Hal": ["7C", "6D", "10H", "4H", "6H", "3D"],
        "Ann": ["KC", "9C", "2C", "2H", "AD", "3S"],
        "Eve": ["9D", "5S", "2D", "QH", "2S", "QS"]
      },
      "bids": ["pass", 1, 1],
      "tricks": [
        ["9D", "3D", "AD"],
        ["KC", "2S", "7C"],
        ["2H", "QH", "6D"],
        ["6H", "2C", "5S"],
        ["10H", "3S", "QS"],
        ["4H", "9C", "2D"]
      ],
      "score": {"Hal": 1, "Ann": 1, "Eve": 1},
      "totals": {"Hal": 2, "Ann": -3, "Eve": 0}
    },
    {
      "dealer": "Hal",
      "deal": {
        "Hal": ["AD", "9D", "QC", "7D", "7H", "3S"],
        "Ann": ["5C", "10C", "JS", "8S", "6H", "4S"],
        "Eve": ["6D", "5S", "2S", "4C", "5D", "2H"]
      },
      "bids": [1, "pass", 1],
      "tricks": [
        ["QC", "10C", "4C"],
        ["3S", "8S", "2S"],
        ["4S", "5S", "9D"],
        ["2H", "7H", "5C"],
        ["JS", "6D", "7D"],
        ["6H", "5D", "AD"]
      ],
      "score": {"Hal": 3, "Ann": 0, "Eve": 0},
      "totals": {"Hal": 5, "Ann": -3, "Eve": 0}
    },
    {
      "dealer": "Ann",
      "deal": {
        "Hal": ["2D", "8S", "5C", "4S", "6D", "JC"],
        "Ann": ["QC", "AD", "2S", "3C", "AH", "4C"],
        "Eve": ["10D", "JD", "QD", "8D", "JH", "10S"]
      },
      "bids": [2, "pass", "pass"],
      "tricks": [
        ["JH", "4S", "AH"],
        ["AD", "10D", "6D"],
        ["QC", "10S", "JC"],
        ["2S", "JD", "8S"],
        ["5C", "3C", "QD"],
        ["2D", "4C", "8D"]
      ],
      "score": {"Hal": 0, "Ann": 4, "Eve": -2},
      "totals": {"Hal": 5, "Ann": 1, "Eve": -2}
    },
    {
      "dealer": "Eve",
      "deal": {
        "Hal": ["JC", "10C", "8C", "4D", "6H", "8H"],
        "Ann": ["6S", "7D", "10H", "9C", "4S", "5S"],
        "Eve": ["KD", "3D", "QS", "KS", "9H", "JD"]
      },
      "bids": [4],
      "tricks": [
        ["JC", "9C", "9H"],
        ["8C", "6S", "3D"],
        ["4D", "7D", "JD"],
        ["KS", "8H", "5S"],
        ["QS", "6H", "4S"],
        ["KD", "10C", "10H"]
      ],
      "score": {"Hal": 4, "Ann": 0, "Eve": 0},
      "totals": {"Hal": 9, "Ann": 1, "Eve": -2}
    }
  ],
  "result": {
    "winner": "Hal",
    "scores": {"Hal": 9, "Ann": 1, "Eve": -2}
  }
}
""".replace(b"\n", b"\r")


@pytest.mark.parametrize("ends", [b"\r", b"\r\n"])
def test_fmt_in_place_rewrites_cr_line_ends(tmp_path: Path, ends: bytes) -> None:
    path = tmp_path / "cr.json"
    path.write_bytes(CR_LINE_ENDS.replace(b"\r", ends))
    assert run("fmt", "--check", str(path)).exit_code == 1
    r = run("fmt", "--in-place", str(path))
    assert r.exit_code == 0 and "1 file reformatted" in r.stderr
    assert b"\r" not in path.read_bytes()
    assert run("fmt", "--check", str(path)).exit_code == 0
    assert run("validate", str(path)).exit_code == 0


# Found by the long fuzz run of summarize --jobs 2 against --jobs 1 (files of
# 730-810 KB, too big to keep here; made again the same way): a piece of a
# file cut for the workers was read as if it were a file.


def _same_with_two_jobs(path: Path) -> dict:
    one = run("summarize", "--format", "json", "--max-rows", "0", str(path))
    two = run("summarize", "--format", "json", "--max-rows", "0", "--jobs", "2", str(path))
    assert (one.exit_code, one.stdout) == (two.exit_code, two.stdout)
    return json.loads(one.stdout)


@pytest.mark.parametrize("start", [b"\xef\xbb\xbf", b"\xff", b"\xff\xfe", b"\x00"])
def test_summarize_jobs_does_not_cut_where_a_file_start_would_be_sniffed(tmp_path: Path, start: bytes) -> None:
    # A JSON Lines line starting with a UTF-8 BOM (L103 in the middle of a
    # file) became, at the start of a piece, the file's BOM (an L111 warning
    # and another error); a line starting with 0xff made the whole piece
    # "UTF-16 text", one L102 for 15 documents, which were lost.
    line = json.dumps(simulate_game("auction", seed=4)).encode() + b"\n"
    path = tmp_path / "odd.jsonl"
    path.write_bytes(b"".join(start + line if i % 50 else line for i in range(700_000 // len(line) + 1)))
    report = _same_with_two_jobs(path)
    assert report["summary"]["documents"] == 700_000 // len(line) + 1


def test_summarize_jobs_places_the_first_of_a_duplicate_key(tmp_path: Path) -> None:
    # L104 says where the first key was: "(first at line 93)" was the line in
    # the piece, not in the file (3282).
    rec = dump([simulate_game("auction", seed=5)], "yaml")
    bad = rec.replace("  - dealer: ", "  - dealer: Ann\n    dealer: ", 1)
    docs = [bad if i % 7 == 3 else rec for i in range(700_000 // len(rec) + 1)]
    path = tmp_path / "dup.yaml"
    path.write_text("".join("---\n" + d for d in docs))
    report = _same_with_two_jobs(path)
    last = report["problems"][-1]
    assert last["code"] == "L104"
    assert f"(first at line {last['line'] - 1})" in last["message"]


# --------------------------------------------------------------------------- text that isn't Unicode


def test_summarize_output_names_a_file_whose_name_is_not_utf8(tmp_path: Path) -> None:
    # Found while checking the next one: a scraped file saved under a Latin-1
    # name (caf\xe9.yaml). summarize -o crashed with UnicodeEncodeError (the
    # name, decoded by os.fsdecode, holds a lone surrogate); through stdout the
    # name's bytes went out as they were. Now -o writes them the same way, and
    # merge reads such a partial back.
    folder = tmp_path / "in"
    folder.mkdir()
    name = os.fsdecode(b"caf\xe9.yaml")
    (folder / name).write_text(dump([simulate_game("auction", seed=6)], "yaml"))
    part = tmp_path / "part.json"
    r = run("summarize", "--partial", "-o", str(part), str(folder))
    assert r.exit_code == 0, r.output
    assert b"caf\xe9.yaml" in part.read_bytes()
    out = tmp_path / "merged.json"
    r = run("merge", "--format", "json", "-o", str(out), str(part))
    assert r.exit_code == 0, r.output
    assert b"caf\xe9.yaml" in out.read_bytes()


def test_merge_refuses_a_partial_with_an_unpaired_surrogate(tmp_path: Path) -> None:
    # Found by the fuzz run after the fixes: a partial whose problem message
    # held "\ud800" (valid JSON, not Unicode text) crashed merge with
    # UnicodeEncodeError when it wrote the report.
    data = _partial(tmp_path)
    data["files"].append("x\ud800.yaml")
    part = tmp_path / "part.json"
    part.write_text(json.dumps(data))  # ensure_ascii: the escape \ud800
    r = run("merge", "--format", "json", str(part))
    assert r.exit_code == 3
    assert f"{part}: a string in it is not Unicode text" in r.stderr
