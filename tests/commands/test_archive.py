"""`pitch convert`, `cat`, `split` and `dedup` (issue 25): exact conversions,
round trips byte-identical to `fmt`, cutting an archive, and copies of a game
found by what was played.

Sizes: ``PITCH_CONVERT_GAMES`` simulated games per profile in the round trips
(default 20; the issue's run: 1,000), ``PITCH_DEDUP_GAMES`` games among which
copies are planted (default 300; the tool run of the README: 100,000).
"""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result
from support.games import base_game
from support.retyped import played_otherwise, rekeyed, renotated

from pitchcli.cli import main
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import builtin_profiles
from pitchcli.record.write import canonical, dump, to_json

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p for p in (ROOT / "samples").rglob("*.yaml") if "invalid" not in p.parts)
CONVERT_GAMES = int(os.environ.get("PITCH_CONVERT_GAMES", "20"))
DEDUP_GAMES = int(os.environ.get("PITCH_DEDUP_GAMES", "300"))


def run(*args: object) -> Result:
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def ok(*args: object) -> str:
    r = run(*args)
    assert r.exit_code == 0, r.output
    return r.stdout


# --- convert: exact, and a round trip is fmt's output ---------------------------------------------


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: str(p.relative_to(ROOT / "samples")))
def test_every_sample_converts_as_fmt_writes_it_and_round_trips(sample: Path, tmp_path: Path) -> None:
    # YAML to YAML: fmt's bytes, comments kept
    assert ok("convert", "--to", "yaml", sample) == ok("fmt", "--to", "yaml", sample)
    for to in ("json", "jsonl"):
        out = tmp_path / f"game.{to}"
        assert run("convert", "--to", to, sample, "-o", out).exit_code == 0
        assert out.read_text("utf-8") == ok("fmt", "--to", to, sample)
        back = ok("convert", "--to", "yaml", out)
        assert back == ok("fmt", "--to", "yaml", out)  # the round trip is fmt's output
        again = tmp_path / f"again.{to}"
        (tmp_path / "back.yaml").write_text(back, "utf-8")
        assert run("convert", "--to", to, tmp_path / "back.yaml", "-o", again).exit_code == 0
        assert again.read_bytes() == out.read_bytes()  # and there and back again changes nothing


def test_comments_a_json_output_cant_hold_are_counted_on_stderr() -> None:
    r = run("convert", "--to", "jsonl", ROOT / "samples" / "auction-full.yaml")
    assert r.exit_code == 0 and "note: 1 comment not written: JSONL has no comments" in r.stderr


@pytest.mark.parametrize("variant", sorted(builtin_profiles()))
def test_simulated_games_round_trip_exactly(variant: str, tmp_path: Path) -> None:
    rng = random.Random(variant)
    games = [canonical(simulate_game(variant, rng=rng, game_id=f"g{i}")) for i in range(CONVERT_GAMES)]
    src = tmp_path / "games.jsonl"
    src.write_text(dump(games, "jsonl"), "utf-8")
    as_yaml = tmp_path / "games.yaml"
    assert run("convert", src, "-o", as_yaml).exit_code == 0
    assert as_yaml.read_text("utf-8") == ok("fmt", "--to", "yaml", src)
    back = tmp_path / "back.jsonl"
    assert run("convert", as_yaml, "-o", back).exit_code == 0
    assert back.read_bytes() == src.read_bytes()


def test_one_file_per_game_becomes_one_stream_and_back(tmp_path: Path) -> None:
    tournament = ROOT / "samples" / "tournament"
    stream = tmp_path / "all.jsonl"
    assert run("convert", tournament, "-o", stream).exit_code == 0
    lines = stream.read_text("utf-8").splitlines()
    assert len(lines) == 28
    assert run("split", "--by", "game", "--to", "json", stream, "-o", tmp_path / "games").exit_code == 0
    files = sorted((tmp_path / "games").iterdir())
    assert len(files) == 28 and all(f.suffix == ".json" for f in files)
    by_id = {json.loads(line)["id"]: line for line in lines}
    for f in files:  # each game alone: fmt's pretty JSON, named by its id
        rec = json.loads(f.read_text("utf-8"))
        assert f.name == f"{rec['id']}.json" and f.read_text("utf-8") == to_json(json.loads(by_id[rec["id"]]))


def test_an_invalid_record_is_not_converted_and_o_is_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("old\n", "utf-8")
    r = run("convert", ROOT / "samples" / "auction-full.yaml", ROOT / "samples-invalid" / "wrong-dealer.yaml",
            "-o", out)
    assert r.exit_code == 1
    assert "not converted: the record is invalid" in r.stderr and "out.jsonl: not written" in r.stderr
    assert out.read_text("utf-8") == "old\n"
    assert run("convert", tmp_path / "missing.yaml").exit_code == 3


# --- cat and split -----------------------------------------------------------------------------------


def test_cat_is_the_records_of_every_input_as_one_stream(tmp_path: Path) -> None:
    event = ROOT / "samples" / "tournament" / "winter-setback-open"
    out = ok("cat", event)
    docs = list(yaml.safe_load_all(out))
    assert len(docs) == 16 and "---" in out.split("\n", 2)[:2]  # (after the modeline, which stays first)
    assert run("fmt", "-o", tmp_path / "all.yaml", *sorted(event.iterdir())).exit_code == 0
    assert out == (tmp_path / "all.yaml").read_text("utf-8")  # what fmt -o writes of the same files


def test_split_by_event_and_by_date(tmp_path: Path) -> None:
    tournament = ROOT / "samples" / "tournament"
    assert run("split", "--by", "event", tournament, "-o", tmp_path / "ev").exit_code == 0
    names = sorted(p.name for p in (tmp_path / "ev").iterdir())
    assert names == ["Ten-point-Saturday.yaml", "Winter-Setback-Open.yaml"]
    winter = list(yaml.safe_load_all((tmp_path / "ev" / "Winter-Setback-Open.yaml").read_text("utf-8")))
    assert len(winter) == 16 and {d["event"] for d in winter} == {"Winter Setback Open"}
    assert run("split", "--by", "date", "--to", "jsonl", tournament, "-o", tmp_path / "d").exit_code == 0
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == ["2026-11-21.jsonl", "2026-11-28.jsonl"]


def test_split_writes_nothing_when_a_record_is_invalid_and_never_over_a_link(tmp_path: Path) -> None:
    bad = ROOT / "samples-invalid" / "wrong-dealer.yaml"
    r = run("split", "--by", "event", ROOT / "samples" / "auction-full.yaml", bad, "-o", tmp_path / "out")
    assert r.exit_code == 1 and not (tmp_path / "out").exists()
    folder = tmp_path / "linked"
    folder.mkdir()
    (tmp_path / "elsewhere.yaml").write_text("keep\n", "utf-8")
    (folder / "Thursday-club-ladder.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    r = run("split", "--by", "event", ROOT / "samples" / "auction-full.yaml", "-o", folder)
    assert r.exit_code == 3 and "not a regular file" in r.stderr
    assert (tmp_path / "elsewhere.yaml").read_text("utf-8") == "keep\n"


def test_split_names_from_records_are_file_names_not_paths(tmp_path: Path) -> None:
    rec = canonical(simulate_game("auction", seed=1))
    rec["event"] = "../../etc/passwd"
    other = copy.deepcopy(rec)
    other["event"] = "etc/passwd"
    (tmp_path / "in.jsonl").write_text(dump([rec, other], "jsonl"), "utf-8")
    assert run("split", "--by", "event", tmp_path / "in.jsonl", "-o", tmp_path / "out").exit_code == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["etc-passwd-2.yaml", "etc-passwd.yaml"]


# --- dedup -------------------------------------------------------------------------------------------

def test_dedup_finds_planted_copies_and_nothing_else(tmp_path: Path) -> None:
    rng = random.Random(25)
    variants = sorted(builtin_profiles())
    games = [canonical(simulate_game(variants[i % len(variants)], rng=rng, game_id=f"g{i}"))
             for i in range(DEDUP_GAMES)]
    (tmp_path / "archive.jsonl").write_text(dump(games, "jsonl"), "utf-8")
    planted = {  # game index -> how its copy was typed again
        3: "rekeyed", 10: "respaced", 17: "renotated", 40: "other event", 41: "filled",
    }
    names = {}
    for i, how in planted.items():
        rec = json.loads(json.dumps(games[i]))  # no shared objects: PyYAML would write an alias
        if how == "rekeyed":
            text = json.dumps(rekeyed(rec, rng)) + "\n"
            name = f"copy-{i}.json"
        elif how == "respaced":
            text = json.dumps(rec, indent=7, separators=(" ,", " :  ")) + "\n"
            name = f"copy-{i}.json"
        elif how == "renotated":
            text = yaml.safe_dump(renotated(rec), sort_keys=True, default_flow_style=False)
            name = f"copy-{i}.yaml"
        elif how == "other event":
            rec.update(event="Typed again", date="2027-01-01", notes="from the paper sheet")
            text = yaml.safe_dump(rec, sort_keys=False)
            name = f"copy-{i}.yaml"
        else:
            (tmp_path / "plain.json").write_text(json.dumps(rec), "utf-8")
            text = ok("fmt", "--fill", tmp_path / "plain.json")
            (tmp_path / "plain.json").unlink()
            name = f"copy-{i}.json"
        (tmp_path / name).write_text(text, "utf-8")
        names[i] = name
    # and a stream that repeats a game: the copy is its document 3
    (tmp_path / "stream.jsonl").write_text(dump([games[60], games[61], games[60]], "jsonl"), "utf-8")
    # a near-duplicate: the same deal, another trick
    (tmp_path / "base.json").write_text(json.dumps(base_game()), "utf-8")
    (tmp_path / "base-other.json").write_text(json.dumps(played_otherwise(base_game())), "utf-8")
    r = run("dedup", "--format", "json", tmp_path)
    assert r.exit_code == 1, r.output  # copies found
    data = json.loads(r.stdout)
    assert data["report"] == "pitch-dedup" and data["version"] == 1
    found = {frozenset((Path(c["file"]).name, c["document"]) for c in g["copies"]) for g in data["duplicates"]}
    expected = {frozenset({("archive.jsonl", i + 1), (name, 1)}) for i, name in names.items()}
    expected.add(frozenset({("archive.jsonl", 61), ("stream.jsonl", 1), ("stream.jsonl", 3)}))
    expected.add(frozenset({("archive.jsonl", 62), ("stream.jsonl", 2)}))  # the stream's other game is one too
    assert found == expected
    assert [{Path(c["file"]).name for c in g["copies"]} for g in data["near_duplicates"]] == [
        {"base.json", "base-other.json"}]
    assert data["summary"]["extra_copies"] == len(planted) + 3
    # the list to act on: every copy after the first (files are read in name order)
    listed = run("dedup", "--format", "list", tmp_path).stdout.splitlines()
    assert len(listed) == len(planted) + 3 and all("\t" in line for line in listed)


def test_dedup_without_copies_is_0_and_never_changes_an_input(tmp_path: Path) -> None:
    src = ROOT / "samples" / "tournament"
    before = {p: p.read_bytes() for p in src.rglob("*.yaml")}
    r = run("dedup", src)
    assert r.exit_code == 0 and "28 games: 28 distinct, 0 extra copies" in r.stdout
    assert {p: p.read_bytes() for p in src.rglob("*.yaml")} == before


@pytest.mark.parametrize("command", [["find"], ["convert"], ["cat"], ["dedup"], ["split", "-o", "out"]])
def test_an_unreadable_input_is_exit_3_with_its_diagnostic(command: list[str], tmp_path: Path) -> None:
    r = run(*command[:1], *[str(tmp_path / a) if a == "out" else a for a in command[1:]], tmp_path / "missing.yaml")
    assert r.exit_code == 3 and "L101" in r.stderr
    assert not (tmp_path / "out").exists()
