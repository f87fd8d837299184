"""``pitch fmt`` and ``pitch new``: the canonical form, round trips, filling in
what the engine derives, in-place safety, blank records.

The round trips are property tests over simulated games of every profile
(``simulate_game(variant, seed=...)``), written in a deliberately messy but
valid way (keys sorted alphabetically, block style, cards in lower case, with
``T`` for ten or with suit symbols), and over every record in ``samples/``.
PITCH_FMT_EXAMPLES sets the number of games per profile (default 6).
"""

from __future__ import annotations

import io
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.score_records import FORMAT_EXAMPLE, LONE_AND_TIE, TEN_POINT_TALLY

from pitchcli.cli import main
from pitchcli.pipeline.check import Checked, check_source
from pitchcli.pipeline.feed import GameAnalysis
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import builtin_profiles
from pitchcli.record import schema
from pitchcli.record.write import canonical
from pitchcli.render.records import fill, format_of, new_text, render, schema_path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("PITCH_FMT_EXAMPLES", "6"))
PROFILES = sorted(builtin_profiles())
SAMPLES = sorted(p for folder in ("samples", "samples-invalid") for p in (ROOT / folder).rglob("*")
                 if p.suffix in (".yaml", ".yml", ".json", ".jsonl", ".ndjson"))
DERIVED = ("score", "totals", "points")
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


# --- helpers -----------------------------------------------------------------


def load(text: str, name: str = "game.yaml") -> list[Checked]:
    return list(check_source(name, io.BytesIO(text.encode("utf-8"))))


def valid(text: str, name: str = "game.yaml") -> list[Checked]:
    checked = load(text, name)
    for c in checked:
        assert c.valid(), [d.as_text() for d in c.diagnostics]
    return checked


def game_of(a: GameAnalysis | None) -> Any:
    """What the engine made of a record, as plain comparable values."""
    assert a is not None
    hands = []
    for h in a.hands:
        assert h is not None
        hands.append((h.dealer, h.bidder, h.bid, h.trump, h.partners, h.level, h.made, h.delta, h.taken,
                      [(t.leader, [p.card.text for p in t.plays], t.winner) for t in h.tricks]))
    return hands, a.totals, a.winner


def messy_card(c: str, rng: random.Random) -> str:
    """The same card in another accepted notation (CARD-3)."""
    if c in ("BJ", "LJ"):
        return rng.choice([c, c.lower()])
    rank, suit = c[:-1], c[-1]
    style = rng.randrange(4)
    if style == 0:
        return (("T" if rank == "10" else rank) + suit).lower()
    if style == 1:
        return rank + SYMBOLS[suit]
    if style == 2:
        return ("T" if rank == "10" else rank) + suit.lower()
    return c


def messy(obj: Any, rng: random.Random) -> Any:
    """A copy of a record with every card re-written in a random notation."""
    if isinstance(obj, dict):
        return {k: messy(v, rng) for k, v in obj.items()}
    if isinstance(obj, list):
        return [messy(v, rng) for v in obj]
    if isinstance(obj, str) and len(obj) in (2, 3) and (obj[-1] in "SHDC" or obj in ("BJ", "LJ")) \
            and obj[:-1] in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "B", "L"):
        return messy_card(obj, rng)
    return obj


def bare(rec: dict[str, Any]) -> dict[str, Any]:
    """A record of play with nothing the engine derives: no claims, no Auction
    trump, tricks as plain lists."""
    out = json.loads(json.dumps(rec))
    out.pop("result", None)
    for h in out["hands"]:
        for k in DERIVED:
            h.pop(k, None)
        if out["variant"].startswith("auction"):
            h.pop("trump", None)
        h.pop("contract", None)
    return out


def fmt_cli(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(main, ["fmt", *args], input=stdin)


# --- round trips over simulated games ----------------------------------------


@pytest.mark.parametrize("variant", PROFILES)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), notation=st.integers(0, 10**6))
def test_round_trip_simulated(variant: str, seed: int, notation: int) -> None:
    rec = simulate_game(variant, seed=seed)
    source = yaml.dump(messy(rec, random.Random(notation)), Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper),
                       sort_keys=True, allow_unicode=True)
    before = valid(source)[0]
    # load -> fmt -> load gives the same game, and the data of its canonical form.
    text = render([before.data], "yaml")
    after = valid(text)[0]
    assert after.data == canonical(before.data)
    assert game_of(after.analysis) == game_of(before.analysis)
    # fmt of fmt changes nothing, in YAML and in JSON.
    assert render([after.data], "yaml") == text
    as_json = render([after.data], "json")
    again = valid(as_json, "game.json")[0]
    assert again.data == after.data and render([again.data], "json") == as_json
    # fill makes a bare record of play complete, and validate agrees with it.
    stripped = valid(render([bare(rec)], "yaml"))[0]
    filled = render([fill(stripped.data, stripped.analysis)], "yaml")
    done = valid(filled)[0]
    assert game_of(done.analysis) == game_of(before.analysis)
    for mine, original in zip(done.data["hands"], rec["hands"], strict=True):
        assert mine["score"] == original["score"] and mine["totals"] == original["totals"]
        assert all(isinstance(t, dict) and "lead" in t for t in mine["tricks"])
        assert "trump" in mine and "points" in mine
        if "partner" in mine:  # who holds the called card(s), TP5-3
            assert {"player", "players"} & mine["partner"].keys()
    assert done.data["result"] == rec["result"]
    assert render([done.data], "yaml") == filled  # filled and canonical: a fixed point
    assert fill(done.data, done.analysis) == done.data


def test_round_trip_through_the_command_line(tmp_path: Path) -> None:
    """The same round trip as a user runs it, on a two-game YAML stream."""
    games = [simulate_game("auction", seed=1), simulate_game("ten-point-5", seed=2)]
    path = tmp_path / "games.yaml"
    path.write_text(yaml.safe_dump_all([bare(g) for g in games], sort_keys=True), encoding="utf-8")
    r = fmt_cli(str(path))
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith("---\n") and r.stdout.count("\n---\n") == 1  # still two documents
    out = tmp_path / "out.yaml"
    assert fmt_cli(str(path), "--fill", "-o", str(out)).exit_code == 0
    v = CliRunner().invoke(main, ["validate", str(out)])
    assert v.exit_code == 0, v.stdout
    assert "2 documents in 1 file: 2 valid, 0 invalid" in v.stdout
    assert fmt_cli("--check", str(out)).exit_code == 0
    assert fmt_cli(str(out)).stdout == out.read_text(encoding="utf-8")
    # To JSON: two documents become JSON Lines, and stay two.
    r = fmt_cli(str(out), "--to", "json")
    assert r.exit_code == 0 and len(r.stdout.splitlines()) == 2
    assert [json.loads(line)["result"] for line in r.stdout.splitlines()] == [g["result"] for g in games]
    # Standard input.
    r = fmt_cli("-", stdin=path.read_text(encoding="utf-8"))
    assert r.exit_code == 0 and r.stdout == fmt_cli(str(path)).stdout


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_samples_round_trip(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    checked = load(text, path.name)
    if not all(c.valid() and c.document is not None for c in checked):
        r = fmt_cli(str(path))
        assert r.exit_code in (1, 3) and r.stdout == ""  # refused, never repaired
        return
    fmt = format_of(path.name, text)
    out = render([c.data for c in checked], fmt)
    again = valid(out, path.name)
    assert [c.data for c in again] == [canonical(c.data) for c in checked]
    assert [game_of(c.analysis) for c in again if c.analysis and all(c.analysis.hands)] == \
        [game_of(c.analysis) for c in checked if c.analysis and all(c.analysis.hands)]
    assert render([c.data for c in again], fmt) == out
    filled = render([fill(c.data, c.analysis) for c in checked], fmt)
    for c in valid(filled, path.name):
        assert c.valid()


def test_the_samples_are_canonical() -> None:
    """The help's own example: every bundled record is in the canonical form."""
    r = fmt_cli("--check", str(ROOT / "samples"))
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "would reformat" not in r.stdout + r.stderr


def test_the_modeline_of_a_stream_stays_the_first_line(tmp_path: Path) -> None:
    """A modeline above the first ``---`` of a stream stays above it: editors
    read it only as the file's first line."""
    game = (ROOT / "samples" / "auction-tally.yaml").read_text(encoding="utf-8").split("\n", 1)[1]
    line = "# yaml-language-server: $schema=../schemas/pitch-record-1.schema.json"
    path = tmp_path / "stream.yaml"
    path.write_text(f"{line}\n---\n{game}---\n{game}", encoding="utf-8")
    out = fmt_cli(str(path)).stdout
    assert out.splitlines()[:2] == [line, "---"], out[:200]
    assert out.count(line) == 1
    path.write_text(out, encoding="utf-8")
    assert fmt_cli("--check", str(path)).exit_code == 0  # a fixed point


# --- fill ----------------------------------------------------------------------


def test_fill_writes_trump_leads_points_score_totals_result() -> None:
    c = valid(LONE_AND_TIE)[0]
    rec = fill(c.data, c.analysis)
    h1, h2 = rec["hands"]
    assert h1["trump"] == "S"
    assert [t["lead"] for t in h1["tricks"]] == ["Cal", "Cal", "Ben", "Ben", "Ben", "Ann"]
    assert h1["points"] == {"high": "Cal", "low": "Cal", "jack": None, "game": "Ben"}
    assert h2["points"] == {"high": "Ann", "low": "Ann", "jack": None, "game": None}
    assert h2["score"] == {"Ann": 2, "Ben": -2, "Cal": 0, "Dot": 0}
    assert h2["totals"] == {"Ann": 2, "Ben": -1, "Cal": 2, "Dot": 0}
    assert rec["result"] == {"winner": None, "scores": {"Ann": 2, "Ben": -1, "Cal": 2, "Dot": 0}}
    # Tally hands and ten-point tallies fill their score and totals too.
    c = valid(TEN_POINT_TALLY)[0]
    rec = fill(c.data, c.analysis)
    assert rec["hands"][1]["totals"] == {"Us": 12, "Them": -1}
    assert rec["hands"][1]["points"] == {"Us": 5, "Them": 5}


def test_fill_keeps_extensions_and_skips_unscored_hands() -> None:
    text = LONE_AND_TIE.replace("  - dealer: Ben\n", "  - dealer: Ben\n    score: {Ann: 2, Ben: -2, Cal: 0, Dot: 0, "
                                "x-note: checked}\n") + "  - dealer: Cal\n    bids: [pass, 3, pass, pass]\n"
    c = valid(text)[0]
    rec = fill(c.data, c.analysis)
    assert rec["hands"][1]["score"]["x-note"] == "checked"
    assert rec["hands"][2] == {"dealer": "Cal", "bids": ["pass", 3, "pass", "pass"]}  # only the auction
    assert "result" not in rec  # totals unknown after an unscored hand


TP5 = ROOT / "samples" / "ten-point-5.yaml"


def test_fill_names_the_called_partner_from_the_engine(tmp_path: Path) -> None:
    """``partner: {card: BJ}`` gets ``player``, the holder the engine found
    (``HandResult.card_holders``); what the record names is kept; comments too."""
    c = valid(TP5.read_text(encoding="utf-8"), TP5.name)[0]
    assert c.data["hands"][0]["partner"] == {"card": "BJ"}  # the sample doesn't say who
    rec = fill(c.data, c.analysis)
    # Dot was dealt the big joker in hand 1, Ben the 2S in hand 2 (the deals).
    assert [h["partner"] for h in rec["hands"]][:2] == [{"card": "BJ", "player": "Dot"},
                                                        {"card": "2S", "player": "Ben"}]
    assert all(h["partner"]["player"] == c.analysis.table.players[r.card_holders[0]]
               for h, r in zip(rec["hands"], c.analysis.hands, strict=True))
    # A name the record has is never replaced (here: the same name, with an extension).
    text = TP5.read_text(encoding="utf-8").replace("partner: {card: BJ}",
                                                   "partner: {card: BJ, player: Dot, x-how: asked}  # Dot said so")
    kept = valid(text, TP5.name)[0]
    assert fill(kept.data, kept.analysis)["hands"][0]["partner"] == {"card": "BJ", "player": "Dot", "x-how": "asked"}
    # As a user runs it: written in place, the line's comment kept, and it validates.
    path = tmp_path / "tp5.yaml"
    path.write_text(TP5.read_text(encoding="utf-8").replace("partner: {card: BJ}", "partner: {card: BJ}  # big joker"),
                    encoding="utf-8")
    assert fmt_cli("--fill", "--in-place", str(path)).exit_code == 0
    out = path.read_text(encoding="utf-8")
    assert "    partner: {card: BJ, player: Dot}  # big joker\n" in out
    assert "    partner: {card: 2S, player: Ben}\n" in out
    assert CliRunner().invoke(main, ["validate", str(path)]).exit_code == 0


def test_fill_names_each_holder_of_two_called_cards() -> None:
    """``cards`` get ``players``, the holder of each card in the order called,
    the bidder's own name for a card he holds (FORMAT.md): here ten-point-7
    hands where one player holds both cards and where the bidder holds one."""
    rec = simulate_game("ten-point-7", seed=2)
    c = valid(render([bare(rec)], "yaml"))[0]
    hands = fill(c.data, c.analysis)["hands"]
    names = c.analysis.table.players
    assert (c.analysis.hands[0].bidder, c.analysis.hands[0].card_holders) == (1, [1, 1])  # the case below
    assert hands[0]["partner"] == {"cards": rec["hands"][0]["partner"]["cards"], "players": ["Ben", "Ben"]}
    assert (c.analysis.hands[7].bidder, c.analysis.hands[7].card_holders) == (0, [0, 6])
    assert hands[7]["partner"]["players"] == ["Ann", "Gus"]
    for h, r in zip(hands, c.analysis.hands, strict=True):
        assert h["partner"]["players"] == [names[s] for s in r.card_holders]


# --- refusing invalid records, and in place -----------------------------------------


def test_invalid_record_refused_never_repaired(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(FORMAT_EXAMPLE.replace("Cal: 3, Dot: -3}", "Cal: 2, Dot: -3}"), encoding="utf-8")
    for args in ([], ["--fill"], ["--check"], ["--to", "json"]):
        r = fmt_cli(str(bad), *args)
        assert r.exit_code == 1, args
        assert r.stdout == ""
        assert "C502" in r.stderr and "fmt never repairs a record" in r.stderr
    out = tmp_path / "out.yaml"
    assert fmt_cli(str(bad), "-o", str(out)).exit_code == 1 and not out.exists()
    assert fmt_cli(str(tmp_path / "missing.yaml")).exit_code == 3


def test_in_place_never_touches_an_invalid_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(LONE_AND_TIE.replace("[AS, 2C, 3C, 4C]", "[AS, 2C, 3C, 4X]") + "# a comment\n", encoding="utf-8")
    old = time.time() - 3600
    os.utime(bad, (old, old))
    before = (bad.read_bytes(), bad.stat().st_mtime_ns)
    for args in (["--in-place"], ["--in-place", "--fill"]):
        r = fmt_cli(*args, str(bad))
        assert r.exit_code == 1
        assert "bad.yaml" in r.stderr
        assert (bad.read_bytes(), bad.stat().st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.yaml"]  # no temporary file left


def test_in_place_rewrites_only_what_changes(tmp_path: Path) -> None:
    messy_file, neat = tmp_path / "messy.yaml", tmp_path / "neat.json"
    messy_file.write_text(FORMAT_EXAMPLE, encoding="utf-8")
    neat.write_text(render([valid(FORMAT_EXAMPLE)[0].data], "json"), encoding="utf-8")
    old = time.time() - 3600
    os.utime(neat, (old, old))
    neat_before = (neat.read_bytes(), neat.stat().st_mtime_ns)
    r = fmt_cli("--in-place", str(messy_file), str(neat))
    assert r.exit_code == 0, r.stderr
    assert "1 file reformatted, 1 unchanged" in r.stderr
    assert (neat.read_bytes(), neat.stat().st_mtime_ns) == neat_before
    assert messy_file.read_text(encoding="utf-8") == render([valid(FORMAT_EXAMPLE)[0].data], "yaml")
    assert "10D" in messy_file.read_text(encoding="utf-8") and "TD" not in messy_file.read_text(encoding="utf-8")
    assert fmt_cli("--check", str(messy_file), str(neat)).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["messy.yaml", "neat.json"]


def test_check_lists_files_not_canonical(tmp_path: Path) -> None:
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(FORMAT_EXAMPLE, encoding="utf-8")
    b.write_text(render([valid(FORMAT_EXAMPLE)[0].data], "yaml"), encoding="utf-8")
    r = fmt_cli("--check", str(a), str(b))
    assert r.exit_code == 1
    assert r.stdout == f"would reformat: {a}\n"
    assert "1 file would be reformatted, 1 already canonical" in r.stderr
    assert fmt_cli("--check", str(b)).exit_code == 0
    assert fmt_cli("--check", "--in-place", str(b)).exit_code == 2


# --- new -----------------------------------------------------------------------


def test_new_is_a_loadable_template(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["new", "--variant", "auction", "--players", "Ann,Ben,Cal,Dot", "--dealer", "Cal"])
    assert r.exit_code == 0, r.stderr
    text = r.stdout
    # No path of this machine's (a temporary venv's) in a file meant to be shared.
    assert "yaml-language-server" not in text and str(schema_path().parent) not in text
    assert "file://" not in text
    modeline = CliRunner().invoke(main, ["new", "--variant", "auction", "--players", "Ann,Ben,Cal",
                                         "--schema", "../schemas/pitch-record-1.schema.json"]).stdout
    assert modeline.splitlines()[0] == "# yaml-language-server: $schema=../schemas/pitch-record-1.schema.json"
    data = yaml.safe_load(text)
    assert list(schema.validate(data)) == []
    assert data["hands"] == [{"dealer": "Cal", "bids": [], "tricks": []}]
    # validate calls the blank hand incomplete (its calls are missing), nothing else.
    path = tmp_path / "new.yaml"
    path.write_text(text, encoding="utf-8")
    v = CliRunner().invoke(main, ["validate", str(path)])
    assert v.exit_code == 1
    codes = [line.split(": error: ", 1)[1].split()[0] for line in v.stdout.splitlines()[:-1]]
    assert codes == ["R404"], v.stdout
    assert "missing the call of Dot, Ann, Ben, Cal" in v.stdout


def test_new_filled_in_at_the_table_validates_and_keeps_its_modeline(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    r = CliRunner().invoke(main, ["new", "--variant", "auction", "--players", "Ann,Ben,Cal,Dot", "-o", str(path),
                                  "--schema", "pitch-record-1.schema.json"])
    assert r.exit_code == 0 and path.exists()
    assert CliRunner().invoke(main, ["new", "--variant", "auction", "--players", "A,B,C", "-o", str(path)]) \
        .exit_code == 2  # never overwrites a record by accident
    text = path.read_text(encoding="utf-8")
    played = yaml.safe_load(LONE_AND_TIE)["hands"][0]
    text = text.replace("bids: []", "bids: [pass, 2, pass, pass]")
    text = text.replace("tricks: []", "tricks: " + json.dumps(played["tricks"]).replace('"', ""))
    path.write_text(text, encoding="utf-8")
    assert CliRunner().invoke(main, ["validate", str(path)]).exit_code == 0
    assert fmt_cli("--in-place", "--fill", str(path)).exit_code == 0
    filled = path.read_text(encoding="utf-8")
    assert filled.startswith("# yaml-language-server: $schema=pitch-record-1.schema.json\n")
    assert "score: {Ann: 0, Ben: 1, Cal: 2, Dot: 0}" in filled
    assert CliRunner().invoke(main, ["validate", str(path)]).exit_code == 0


@pytest.mark.parametrize("variant", PROFILES)
def test_new_for_every_profile(variant: str) -> None:
    from pitchcli.profiles import resolve
    n = 4 if 4 in resolve(variant).players else resolve(variant).players[0]
    names = ["Ann", "Ben", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal"][:n]
    text = new_text(variant, names, schema_ref="pitch-record-1.schema.json")
    data = yaml.safe_load(text)
    assert [d for d in schema.validate(data) if d.severity == "error"] == []
    checked = load(text)[0]
    assert checked.analysis is not None and checked.analysis.table is not None
    assert not any(d.code.startswith(("S", "P", "L")) for d in checked.diagnostics)
    if resolve(variant).sides == "teams":
        assert sorted(m for ms in data["teams"].values() for m in ms) == sorted(names)


def test_new_refuses_a_table_the_profile_cant_seat() -> None:
    run = CliRunner().invoke
    r = run(main, ["new", "--variant", "ten-point", "--players", "Ann,Ben,Cal,Dot", "--teams", "Ann+Ben,Cal+Dot"])
    assert r.exit_code == 2 and "2 seats apart (TP4-1)" in r.stderr
    r = run(main, ["new", "--variant", "ten-point-5", "--players", "Ann,Ben,Cal"])
    assert r.exit_code == 2 and "not 3" in r.stderr
    r = run(main, ["new", "--variant", "auction", "--players", "Ann,Ann,Cal"])
    assert r.exit_code == 2
    r = run(main, ["new", "--variant", "auction", "--players", "Ann,Ben,Cal", "--teams", "Ann+Cal"])
    assert r.exit_code == 2 and "no fixed teams" in r.stderr
    r = run(main, ["new", "--variant", "ten-point", "--players", "Ann,Ben,Cal,Dot",
                   "--teams", "Us=Ann+Cal,Them=Ben+Dot"])
    assert r.exit_code == 0 and "teams: {Us: [Ann, Cal], Them: [Ben, Dot]}" in r.stdout


def test_schema_path_is_the_file_new_points_at() -> None:
    r = CliRunner().invoke(main, ["schema", "--path"])
    assert r.exit_code == 0
    path = Path(r.stdout.strip())
    assert json.loads(path.read_text(encoding="utf-8"))["$id"] == schema.SCHEMA_ID
    assert path.as_uri() == schema_path().resolve().as_uri()
