"""Partial summaries are input too (issue 11): a JSON Schema of their own
(``schemas/pitch-summary-partial-1.schema.json``) and the consistency checks no
schema can express; a partial that fails either is refused by ``pitch merge``
with exit 3, the file and the JSON Pointer named. Before, 10**400 and
4,300-digit counts gave tracebacks, and negative counts, more wins than games,
made + set != bids and an event listed twice were merged and printed."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from support.fuzz_strategies import valid_partials

from pitchcli.cli import main
from pitchcli.views.partial import load_schema, problem

ROOT = Path(__file__).resolve().parents[2]
TOURNAMENT = ROOT / "samples" / "tournament"


def run(*args: object) -> Result:
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


@pytest.fixture(scope="module")
def partial() -> dict[str, Any]:
    r = run("summarize", "--partial", TOURNAMENT, ROOT / "samples-invalid" / "suit-not-followed.yaml")
    assert r.exit_code == 1
    return json.loads(r.stdout)


def _player(d: dict[str, Any]) -> dict[str, Any]:
    return next(iter(d["events"][0]["players"].values()))


def _first_name(d: dict[str, Any]) -> str:
    return next(iter(d["events"][0]["players"]))


def test_the_schema_is_shipped_and_versioned(partial: dict[str, Any]) -> None:
    schema = load_schema()
    assert schema["$id"] == "urn:pitchcli:schema:pitch-summary-partial:1"
    assert (ROOT / "schemas" / "pitch-summary-partial-1.schema.json").resolve() == \
        (ROOT / "pitchcli" / "data" / "pitch-summary-partial-1.schema.json").resolve()
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(partial)  # what summarize writes fits its schema
    assert problem(partial) is None


def _set_tally(key: str, value: Any):  # type: ignore[no-untyped-def]
    def change(d: dict[str, Any]) -> None:
        _player(d)[key] = value
    return change


def _twice(d: dict[str, Any]) -> None:
    d["events"].append(copy.deepcopy(d["events"][0]))


# (what is changed, the pointer or words the refusal names)
BROKEN = {
    "a count of 10**400": (_set_tally("games", 10**400), "/events/0/players/{name}/games must be at most"),
    "a count of 4,300 digits": (_set_tally("wins", int("9" * 4300)), "wins"),
    "a negative count": (_set_tally("hands", -1), "/events/0/players/{name}/hands must be 0 or more"),
    "a float count": (_set_tally("bid_total", 9.0), "/events/0/players/{name}/bid_total must be a whole number"),
    "more wins than games": (_set_tally("wins", 99), "/events/0/players/{name}/wins: 99 wins in"),
    "made + set != bids": (_set_tally("made", 50), "/events/0/players/{name}/bids: made 50 + set"),
    "a negative unreadable count": (lambda d: d["counts"].update(unreadable=-1), "/counts/unreadable must be 0"),
    "documents != valid + invalid": (lambda d: d["counts"].update(documents=1), "/counts/documents: 1 is not"),
    "the same event twice": (_twice, "event: the event"),
    "an unknown key": (lambda d: d.update(extra=1), "/extra is not a key"),
    "games that don't add up": (lambda d: d["events"][0].update(games=d["events"][0]["games"] + 1), "/events"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_an_inconsistent_partial_is_refused_by_merge(tmp_path: Path, partial: dict[str, Any], case: str) -> None:
    change, words = BROKEN[case]
    data = copy.deepcopy(partial)
    change(data)
    path = tmp_path / "part.json"
    path.write_text(json.dumps(data))
    r = run("merge", path)
    assert r.exit_code == 3, r.output
    words = words.replace("{name}", _first_name(partial))
    assert r.stderr.startswith(f"{path}: ") and words in r.stderr, r.stderr
    assert len(r.stderr) < 1_000 and r.stdout == ""


def _moved(d: dict[str, Any], folder: str) -> None:
    """The partial as if its files were read from ``folder``."""
    d["files"] = [folder + f for f in d["files"]]
    for row in [*(d["games"] or []), *d["problems"]]:
        row["file"] = folder + row["file"]


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(valid_partials(), valid_partials())
def test_every_partial_summarize_writes_or_merge_makes_passes(a: dict[str, Any], b: dict[str, Any]) -> None:
    from pitchcli.views.summary import Summary
    assert problem(a) is None and problem(b) is None
    _moved(b, "other/")  # two parts of one run read different files
    merged = Summary.from_json(a).merge(Summary.from_json(b)).to_json()
    assert problem(json.loads(json.dumps(merged))) is None


@pytest.mark.parametrize("fmt", [["--partial"], ["--format", "json"]])
def test_summarize_into_its_own_folder_does_not_read_its_output(tmp_path: Path, fmt: list[str]) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    for f in (TOURNAMENT / "winter-setback-open").iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    out = folder / "part.json"
    first = run("summarize", *fmt, "-o", out, folder)
    assert first.exit_code == 0, first.output
    before = json.loads(out.read_text())
    again = run("summarize", *fmt, "-o", out, folder)
    assert again.exit_code == 0, again.output  # its own earlier output is not an invalid record
    assert json.loads(out.read_text()) == before


# --- issue 27, item 8: sums no game can give -----------------------------------------
# One 4-player Auction game of 14 hands... of the sample's hands: every check
# below is a class (a bound over the event's players and hands), each case an
# instance the schema lets through.


@pytest.fixture(scope="module")
def one_game() -> dict[str, Any]:
    r = run("summarize", "--partial", ROOT / "samples" / "auction-full.yaml")
    assert r.exit_code == 0
    return json.loads(r.stdout)


def _players(d: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return d["events"][0]["players"]


def _all_win(d: dict[str, Any]) -> None:
    for t in _players(d).values():
        t["wins"] = t["games"]


def _many_players(d: dict[str, Any]) -> None:
    model = next(iter(_players(d).values()))
    for i in range(100):
        _players(d)[f"P{i}"] = dict(model, wins=0, bids=0, made=0, set=0, bid_total=0, high=0, low=0, jack=0,
                                    game=0)


def _high_everywhere(d: dict[str, Any]) -> None:
    for t in _players(d).values():  # each within its own hands, together far past the event's
        t["high"] = t["hands"]


def _bids_add_up_to_0(d: dict[str, Any]) -> None:
    for t in _players(d).values():
        t["bid_total"] = 0


def _first(d: dict[str, Any]) -> dict[str, Any]:
    return next(iter(_players(d).values()))


IMPOSSIBLE = {
    "every player of a one-game event winning": (_all_win, "a game has a player who didn't win"),
    "104 players in one 4-player game": (_many_players, "player-games in 1 games"),
    "High taken in every hand by everyone": (_high_everywhere, "High taken"),
    "High taken 99 times by one player": (lambda d: _first(d).update(high=99), "High taken 99 times"),
    "bids adding up to 0": (_bids_add_up_to_0, "every bid is at least 1"),
    "a score no hand can give": (lambda d: _first(d).update(score=10_000), "a hand gives at most"),
    "more bids than hands": (lambda d: _first(d).update(bids=_first(d)["bids"] + 1,
                                                      made=_first(d)["made"] + 1), "every hand has one bidder"),
    "a player with no game": (lambda d: _players(d).update(Zed=dict.fromkeys(_first(d), 0)),
                              "listed with 0 games"),
    "ten-point points in an Auction event": (lambda d: _first(d).update(taken=1), "no game that counts taken"),
    "games by profile that don't add up": (lambda d: d["events"][0]["profiles"].update(auction=5),
                                           "games by profile"),
    "a document listed twice": (lambda d: d["games"].append(dict(d["games"][0])), "is listed twice"),
    "a game row of a file not read": (lambda d: d["games"][0].update(file="elsewhere.yaml"), "is not in /files"),
    "game rows missing": (lambda d: d.update(games=[]), "every document has a row"),
    "more files than documents": (lambda d: d["files"].append("z.yaml"), "every file read gives one"),
    "an unreadable file without its error": (lambda d: d["counts"].update(unreadable=1), "unreadable files"),
}


@pytest.mark.parametrize("case", sorted(IMPOSSIBLE))
def test_sums_no_game_can_give_are_refused(tmp_path: Path, one_game: dict[str, Any], case: str) -> None:
    change, words = IMPOSSIBLE[case]
    data = copy.deepcopy(one_game)
    change(data)
    assert problem(copy.deepcopy(data)) is not None
    path = tmp_path / "part.json"
    path.write_text(json.dumps(data))
    r = run("merge", path)
    assert r.exit_code == 3 and r.stdout == "", r.output
    assert r.stderr.startswith(f"{path}: ") and words in r.stderr, r.stderr


def test_a_part_given_twice_is_read_once(tmp_path: Path, one_game: dict[str, Any]) -> None:
    path = tmp_path / "part.json"
    path.write_text(json.dumps(one_game))
    alone = run("merge", "--format", "json", path)
    twice = run("merge", "--format", "json", path, path, tmp_path / "." / "part.json")
    assert twice.exit_code == 0 and twice.stdout == alone.stdout
    assert twice.stderr.count("L113") == 2


def test_two_parts_that_count_the_same_file_are_refused(tmp_path: Path, one_game: dict[str, Any]) -> None:
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(json.dumps(one_game))
    r = run("merge", tmp_path / "a.json", tmp_path / "b.json")
    assert r.exit_code == 3 and r.stdout == "" and "which a part before it counts too" in r.stderr, r.output


def test_a_partial_with_a_skipped_fifo_merges(tmp_path: Path) -> None:
    """A walk's warning (a FIFO) is a problem entry but no invalid record: its
    partial merges (it was refused: 1 problem for 0 invalid records)."""
    import os
    import shutil
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(ROOT / "samples" / "auction-full.yaml", folder)
    os.mkfifo(folder / "pipe.yaml")
    part = tmp_path / "part.json"
    assert run("summarize", "--partial", "-o", part, folder).exit_code == 0
    r = run("merge", part)
    assert r.exit_code == 0, r.output
