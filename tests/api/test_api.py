"""The public API (``import pitchcli``): each entry point against what the
commands print for the same input, so that a script reads what ``pitch`` shows."""

from __future__ import annotations

import dataclasses
import importlib
import io
import json
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import pitchcli
from pitchcli.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
INVALID = ROOT / "samples-invalid"
FULL = str(SAMPLES / "auction-full.yaml")


def run(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args))
    return result


def cli_json(*args: str) -> Any:
    return json.loads(run(*args).stdout)


# --- read -----------------------------------------------------------------------


def test_read_a_path_a_folder_and_several() -> None:
    docs = list(pitchcli.read(FULL))
    assert [(d.file, d.number, d.format, d.loaded) for d in docs] == [(FULL, 1, pitchcli.RecordFormat.YAML, True)]
    assert docs[0].data is not None and docs[0].data["players"] == ["Ann", "Ben", "Cal", "Dot"]
    folder = list(pitchcli.read(SAMPLES / "tournament"))
    assert len(folder) == 28 and all(d.loaded for d in folder)
    both = list(pitchcli.read(FULL, str(SAMPLES / "tournament")))
    assert [d.file for d in both] == [FULL] + [d.file for d in folder]


def test_read_bytes_text_and_streams_give_the_same_data() -> None:
    raw = Path(FULL).read_bytes()
    want = next(pitchcli.read(FULL)).data
    assert next(pitchcli.read(raw)).data == want
    assert next(pitchcli.read(text=raw.decode())).data == want
    assert next(pitchcli.read(io.BytesIO(raw))).data == want
    assert next(pitchcli.read(io.StringIO(raw.decode()))).data == want
    with open(FULL, "rb") as f:
        assert next(pitchcli.read(f)).file == FULL  # a file object keeps its name
    assert next(pitchcli.read(text=raw.decode())).file == "<text>"
    assert next(pitchcli.read(raw, name="game.yaml")).file == "game.yaml"


def test_read_json_lines_by_name_and_by_content() -> None:
    lines = b'{"format": "pitch-record/1"}\n{"format": "pitch-record/1"}\n'
    assert [d.number for d in pitchcli.read(lines, name="x.jsonl")] == [1, 2]
    assert [d.format for d in pitchcli.read(lines)] == [pitchcli.RecordFormat.JSON] * 2


def test_read_never_raises_for_what_a_file_holds(tmp_path: Path) -> None:
    missing = list(pitchcli.read(tmp_path / "missing.yaml"))
    assert [(d.loaded, [x.code for x in d.diagnostics]) for d in missing] == [(False, ["L101"])]
    broken = list(pitchcli.read(text="a: [1\n"))
    assert not broken[0].loaded and broken[0].diagnostics[0].code == "L103"
    assert broken[0].diagnostics[0].severity is pitchcli.Severity.ERROR
    stream = list(pitchcli.read(text="players: [A]\n---\na: [1\n---\nb: 2\n"))
    assert [(d.number, d.loaded) for d in stream] == [(1, True), (2, False), (3, True)]


def test_read_refuses_another_type_at_once() -> None:
    with pytest.raises(TypeError, match="not int"):
        pitchcli.read(3)  # type: ignore[arg-type]


def test_read_is_bounded_by_the_limits() -> None:
    docs = list(pitchcli.read(text="a: 1\n" * 100, limits=pitchcli.Limits(max_file_bytes=64)))
    assert any(d.code == "L106" for doc in docs for d in doc.diagnostics)


# --- validate ---------------------------------------------------------------------


def test_validate_diagnostics_have_the_json_reports_fields_and_values() -> None:
    paths = sorted(str(p) for p in INVALID.iterdir())
    report = cli_json("validate", "--format", "json", "--max-errors", "0", *paths)
    checked = list(pitchcli.validate(*paths))
    assert len(checked) == len(report["documents"])
    for c, want in zip(checked, report["documents"], strict=True):
        assert (c.file, c.number, c.valid, c.errors, c.warnings) == (
            want["file"], want["document"], want["valid"], want["errors"], want["warnings"])
        got = [{**dataclasses.asdict(d), "severity": d.severity.value} for d in c.diagnostics]
        for g in got:
            if not g["details"]:
                del g["details"]
        assert got == want["diagnostics"]


def test_a_diagnostic_prints_as_validate_prints_it() -> None:
    path = str(INVALID / "suit-not-followed.yaml")
    text = run("validate", path).output.splitlines()
    assert [str(d) for c in pitchcli.validate(path) for d in c.diagnostics] == text[:-1]


def test_validate_max_errors_keeps_the_first_and_counts_all() -> None:
    path = str(INVALID / "suit-not-followed.yaml")
    c = next(pitchcli.validate(path, max_errors=1))
    assert len(c.diagnostics) == 1 and c.errors == 2


def test_validate_gives_the_game_the_commands_show() -> None:
    for path in sorted(SAMPLES.glob("*.yaml")):
        c = next(pitchcli.validate(path))
        assert c.valid and c.game is not None
        sheet = cli_json("score", "--format", "json", str(path))["documents"][0]
        g = c.game
        assert g.winner == sheet["winner"]
        assert dict(g.totals or {}) == sheet["totals"]
        assert [dict(h.score) for h in g.hands] == [h["score"] for h in sheet["hands"]]
        assert [h.made for h in g.hands] == [h["made"] for h in sheet["hands"]]


def test_trick_winners_and_points_are_the_replays() -> None:
    g = next(pitchcli.score(FULL))
    events = [json.loads(line) for line in run("replay", "--format", "json", FULL).output.splitlines()]
    won = [(e["hand"], e["trick"], e["winner"], e["card"], e["reason"]) for e in events if e["event"] == "trick_won"]
    assert [(h.number, t.number, t.winner, t.card and t.card.text, t.reason.value)
            for h in g.hands for t in h.tricks] == won
    awards = [(e["hand"], k, a["unit"], a["card"]) for e in events if e["event"] == "points"
              for k, a in e["awards"].items()]
    assert [(h.number, p.kind.value, p.side, p.card and p.card.text) for h in g.hands for p in h.points] == awards


def test_ten_point_credits_are_read_not_recomputed() -> None:
    g = next(pitchcli.score(SAMPLES / "ten-point-5.yaml"))
    assert g.family is pitchcli.Family.TEN_POINT and not g.hands[0].points
    h = g.hands[0]
    assert sum(pc.value for pc in h.point_cards) == sum(h.taken.values())
    assert {pc.how for pc in h.point_cards} <= set(pitchcli.Credit)


def test_the_event_log_is_typed_and_indexes_the_games_players() -> None:
    g = next(pitchcli.score(FULL))
    events = list(g.events(1))
    assert isinstance(events[0], pitchcli.HandStarted)
    from pitchcli.api.games import EVENTS

    assert EVENTS == pitchcli.EVENTS
    calls = [e for e in events if isinstance(e, pitchcli.CallMade)]
    assert [(g.players[e.seat], e.bid, e.kind) for e in calls] == [
        (c.player, c.bid, c.kind) for c in g.hands[0].calls]


def test_a_stream_the_quick_pass_decides_gives_the_same_games_as_a_full_replay() -> None:
    records = list(pitchcli.simulate("auction", games=70, seed=3))
    text = pitchcli.dumps(records, pitchcli.RecordFormat.JSONL)
    quick = list(pitchcli.validate(text=text, name="s.jsonl"))
    one_by_one = [next(pitchcli.validate(text=pitchcli.dumps(r, pitchcli.RecordFormat.JSON))) for r in records]
    assert all(c.valid for c in quick)
    for a, b in zip(quick, one_by_one, strict=True):
        assert a.game is not None and b.game is not None
        assert (a.game.winner, a.game.totals, a.game.winner_hand) == (b.game.winner, b.game.totals,
                                                                      b.game.winner_hand)
        assert a.game.hands == b.game.hands
        assert a.game.end == b.game.end


def test_a_record_that_cant_be_seated_has_no_game() -> None:
    c = next(pitchcli.validate(text="format: pitch-record/1\nvariant: nope\nplayers: [A, B]\nhands: []\n"))
    assert not c.valid and c.game is None and not c.scorable


def test_an_invalid_record_has_the_game_the_engine_could_make() -> None:
    c = next(pitchcli.validate(INVALID / "suit-not-followed.yaml"))
    assert c.game is not None and not c.scorable
    assert c.document.data is not None and len(c.game.hands) == len(c.document.data["hands"])


# --- score ------------------------------------------------------------------------


def test_score_accepts_claims_that_disagree_and_refuses_a_broken_record() -> None:
    claim = INVALID / "wrong-result.yaml"
    assert not next(pitchcli.validate(claim)).valid
    sheet = cli_json("score", "--format", "json", str(claim))["documents"][0]
    game = next(pitchcli.score(claim))  # as `pitch score` scores it: the engine's figures
    assert (game.winner, dict(game.totals or {})) == (sheet["winner"], sheet["totals"])
    with pytest.raises(pitchcli.RecordError) as e:
        list(pitchcli.score(INVALID / "suit-not-followed.yaml"))
    assert "R407" in [d.code for d in e.value.diagnostics]


# --- solve, simulate, profiles, writing -------------------------------------------


def test_a_games_sides_members_margin_and_profile() -> None:
    teams = next(pitchcli.score(SAMPLES / "auction-partners.yaml"))
    assert teams.members("team-1") == ("Ann", "Cal") and teams.members("Ann") == ()
    assert [teams.side_of(p) for p in ("Ann", "Ben", "Zed")] == ["team-1", "team-2", None]
    assert teams.profile.name == teams.variant and teams.profile.has_teams
    solo = next(pitchcli.score(SAMPLES / "auction-3-players.yaml"))
    assert solo.members("Cal") == ("Cal",) and solo.side_of("Cal") == "Cal"
    assert solo.winner == "Cal" and dict(solo.totals or {}) == {"Ann": -3, "Ben": 1, "Cal": 7}
    assert solo.margin == 6  # Cal's 7 less Ben's 1, the best other side
    found = cli_json("find", "--format", "json", "--margin-at-least", "6", "--margin-at-most", "6",
                     str(SAMPLES / "auction-3-players.yaml"))["games"]
    assert [g["winner"] for g in found] == ["Cal"]
    house = next(pitchcli.score(text=(SAMPLES / "auction-3-players.yaml").read_text(encoding="utf-8")
                                .replace("variant: auction", "variant: auction\nrules: {target: 11}", 1)))
    assert house.profile.target == house.target == 11 and house.margin is None  # nobody reached 11


def test_solve_is_what_pitch_solve_reports() -> None:
    report = cli_json("solve", "--format", "json", FULL)["documents"][0]["hands"]
    solved = pitchcli.solve(next(pitchcli.score(FULL)))
    assert [(s.hand, s.bidder, s.bid, s.value, s.makeable, s.solved, s.nodes) for s in solved] == [
        (h["hand"], h["bidder"], h["bid"], h["value"], h["makeable"], h["solved"], h["nodes"]) for h in report]
    assert [[(c.trick, c.player, c.card.text, c.before, c.after, c.better.text) for c in s.costly]
            for s in solved] == [[(c["trick"], c["player"], c["card"], c["before"], c["after"], c["better"])
                                  for c in h["costly"]] for h in report]
    tally = pitchcli.solve(next(pitchcli.score(SAMPLES / "auction-tally.yaml")))
    assert not any(s.solvable for s in tally)


def test_simulate_makes_the_games_pitch_simulate_makes() -> None:
    out = run("simulate", "--variant", "auction", "--seed", "7", "--games", "2", "--format", "jsonl").stdout
    assert pitchcli.dumps(pitchcli.simulate("auction", seed=7, games=2), pitchcli.RecordFormat.JSONL) == out
    with pytest.raises(pitchcli.ProfileError):
        pitchcli.simulate("auction-partners", players=5)


def test_profiles_and_house_rules() -> None:
    names = [p.name for p in pitchcli.rule_profiles()]
    assert names[0] == "auction" and "ten-point-5" in names
    house = pitchcli.profile("auction", {"target": 21, "win_on_set": True})
    assert (house.target, house.win_on_set) == (21, True)
    with pytest.raises(pitchcli.ProfileError, match="unknown rule option"):
        pitchcli.profile("auction", {"targte": 21})
    with pytest.raises(pitchcli.ProfileError):
        pitchcli.profile("nope")


def test_dumps_is_the_canonical_form_of_pitch_fmt() -> None:
    doc = next(pitchcli.read(FULL))
    assert pitchcli.dumps(doc, pitchcli.RecordFormat.JSON) == run("fmt", "--to", "json", FULL).stdout
    fmt_yaml = run("fmt", FULL).stdout  # fmt keeps the file's comments; a record as data has none
    assert pitchcli.dumps(doc) == "".join(line for line in fmt_yaml.splitlines(True) if not line.startswith("#"))
    again = next(pitchcli.read(text=pitchcli.dumps(doc)))
    assert again.data == doc.data
    with pytest.raises(TypeError):
        pitchcli.dumps(next(pitchcli.read(text="a: [1\n")))


def test_write_is_atomic_and_chooses_the_format_by_suffix(tmp_path: Path) -> None:
    records = list(pitchcli.simulate("auction", seed=1, games=2))
    pitchcli.write(records, tmp_path / "g.jsonl")
    assert [d.data for d in pitchcli.read(tmp_path / "g.jsonl")] == records
    pitchcli.write(records[0], tmp_path / "g.json")
    assert json.loads((tmp_path / "g.json").read_text()) == records[0]
    buffer = io.StringIO()
    pitchcli.write(records, buffer)
    assert buffer.getvalue().startswith("---\n") or buffer.getvalue().count("\n---\n") == 1
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".pitch-")] == []  # no temporary left
    with pytest.raises(OSError):
        pitchcli.write(records, tmp_path / "no-such-folder" / "g.yaml")


# --- summarize ------------------------------------------------------------------------


def test_summarize_is_pitch_summarize_and_merges() -> None:
    folder = SAMPLES / "tournament"
    whole = pitchcli.summarize(folder)
    out = io.StringIO()
    pitchcli.write_report(whole, out, "json")
    assert json.loads(out.getvalue()) == cli_json("summarize", "--format", "json", str(folder))
    parts = [pitchcli.summarize_file(str(p)) for p in sorted(folder.iterdir())]
    merged = pitchcli.merge(*parts)
    assert merged.to_json() == whole.to_json()
    assert parts[0].to_json() == pitchcli.summarize_file(str(sorted(folder.iterdir())[0])).to_json()  # unchanged


def test_a_summary_s_typed_rows_are_its_json_report_s() -> None:
    """``count``, ``game_rows`` and ``problem_rows`` hold what the JSON report
    writes (documents from 1 there too), for valid and invalid records."""
    for folder in (SAMPLES, INVALID):
        s = pitchcli.summarize(folder)
        report = cli_json("summarize", "--format", "json", "--games", str(folder))
        counts = dataclasses.asdict(s.count)
        assert counts == s.counts and all(isinstance(v, int) for v in counts.values())
        assert s.game_rows is not None
        assert [dataclasses.asdict(r) | {"players": list(r.players)} for r in s.game_rows] == \
            [{k: r[k] for k in dataclasses.asdict(s.game_rows[0])} for r in report["games"]]
        assert [dataclasses.asdict(p) for p in s.problem_rows] == \
            [{k: p[k] for k in dataclasses.asdict(pitchcli.ProblemRow.of({**p, "document": 0}))}
             for p in report["problems"]]
    bad = pitchcli.summarize(INVALID)
    assert bad.count.invalid > 0 and len(bad.problem_rows) == bad.count.invalid + bad.count.unreadable
    assert all(not r.valid and r.winner is None for r in bad.game_rows or ())
    assert pitchcli.Summary(keep_games=False).game_rows is None


# --- the promise ---------------------------------------------------------------------

# Every public name. A name may be added here; one removed fails this test, and
# per the promise (docs/scripting.md) it is first deprecated for a minor release.
PUBLIC = {
    "Awarded", "CallMade", "CardPlayed", "ContractSet", "Discarded", "Drew", "HandSettled", "HandStarted",
    "PartnerCalled", "PointCredit", "PointsTaken", "TrickStarted", "TrickWon", "TrumpSet",
    "Call", "CallKind", "Card", "CheckedDocument", "CostlyCard", "Credit", "Diagnostic", "Document", "EndReason",
    "Family", "Game", "Hand", "HandEvent", "Level", "Limits", "Play", "Point", "PointCard", "PointKind", "Profile",
    "ProfileError", "RecordError", "RecordFormat", "Severity", "SolvedHand", "Source", "Summary", "Trick",
    "TrumpBy", "WonWith", "Scoring", "Words", "Win", "NoWin", "NotWon",
    "Counts", "GameRow", "ProblemRow", "__version__", "dumps", "merge", "profile", "read", "rule_profiles",
    "score", "simulate",
    "solve", "summarize", "summarize_file", "validate", "write", "write_report",
}


def test_no_public_name_disappears() -> None:
    assert set(pitchcli.__all__) >= PUBLIC, f"removed: {sorted(PUBLIC - set(pitchcli.__all__))}"
    for module in ("pitchcli.api.checking", "pitchcli.api.rules", "pitchcli.cli"):  # every submodule loaded
        importlib.import_module(module)
    for name in pitchcli.__all__:
        # A submodule of the same name would shadow the name once imported.
        assert not isinstance(getattr(pitchcli, name), types.ModuleType), name


def test_the_public_values_are_frozen() -> None:
    g = next(pitchcli.score(FULL))
    for value in (g, g.hands[0], g.hands[0].tricks[0], g.hands[0].tricks[0].plays[0], g.hands[0].points[0],
                  g.hands[0].calls[0], next(pitchcli.read(FULL)), next(pitchcli.validate(FULL))):
        field = dataclasses.fields(value)[0].name  # type: ignore[arg-type]
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, None)


def test_import_pitchcli_loads_none_of_the_api() -> None:
    code = "import sys, pitchcli; print(sorted(m for m in sys.modules if m.startswith('pitchcli')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout
    assert out.strip() == "['pitchcli']"
