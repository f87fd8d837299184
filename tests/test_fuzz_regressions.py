"""Inputs the fuzz suite (tests/test_fuzz.py) found breaking the contract of
docs/hostile-input.md, kept as they were found: each one ran into a traceback,
a wrong exit status or a failure without a located diagnostic before its fix."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pitchcli.cli import main
from pitchcli.record.write import dump
from pitchcli.simulate import simulate_game

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
    assert f"{path}:13:11: L105 " in r.stderr
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
    ({"limit": -3}, "/limit must be 0 or more"),
    # an event named by a number: TypeError comparing it with names (the report)
    ({"events": [{"event": 5, "games": 1}]}, "/events/0/event must be text or null"),
    # OverflowError: int(Infinity) in a tally
    ({"events": [{"event": "E", "players": {"Ann": {"wins": float("inf")}}}]},
     "/events/0/players/Ann/wins must be a whole number"),
    # KeyError when the report reads a row without its fields
    ({"games": [{"file": "a.yaml", "document": 0}]}, "/games/0/event is missing"),
    ({"problems": [{"file": "a.yaml", "document": "0"}]}, "/problems/0/document must be a whole number"),
    ({"counts": {"documents": "many"}}, "/counts/documents must be a whole number"),
    ({"files": [1, 2]}, "/files must be a list of file names"),
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
    assert f"{path}:4:8: S203 'hands' must be a list" in r.output
    # Nothing else: with no hands to replay the totals are unknown, so the
    # result's claims are not compared with zeros.
    assert "C504" not in r.output


# --------------------------------------------------------------------------- schema: quadratic reports

# Found while sizing the limits (test_limits.py): files under the 1 MiB document
# limit whose diagnostics cost quadratic time. Each took minutes; the bound
# here is ten times what it takes now, a guard against a return, not a speed test.


def _many_unknown_keys(n: int) -> bytes:
    head = b"format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben]\nhands: []\n"
    return head + b"".join(b"k%d: 1\n" % i for i in range(n))


def _many_same_players(n: int) -> bytes:
    return b"format: pitch-record/1\nvariant: auction\nplayers: [" + b", ".join([b"Ann"] * n) + b"]\nhands: []\n"


@pytest.mark.parametrize(("make", "n", "code", "seconds"), [
    # 20,000 unknown keys: 19 s (each S201 was put in document order by a scan
    # of the mapping); now about 1.5 s for the whole command.
    (_many_unknown_keys, 20_000, "S201", 15),
    # 30,000 copies of one name in players: 10^9 comparisons to find the
    # repeats (51 s for 100,000); now linear.
    (_many_same_players, 30_000, "S204", 15),
])
def test_many_diagnostics_cost_linear_time(tmp_path: Path, make, n: int, code: str, seconds: float) -> None:
    import time

    path = tmp_path / "many.yaml"
    path.write_bytes(make(n))
    start = time.monotonic()
    r = run("validate", "-q", str(path))
    took = time.monotonic() - start
    assert r.exit_code == 1
    assert r.stdout.count(f": {code} ") >= n - 1
    assert took < seconds, f"{took:.1f} s"


def test_repeats_are_found_among_lists_and_mappings_too() -> None:
    from pitchcli.record.schema import _duplicates

    items = [[1], {"a": [1]}, [1.0], "x", {"a": [True]}, [[1, 2]], [[1, 2]], 1, True, "x"]
    assert _duplicates(items) == [2, 4, 6, 8, 9]
