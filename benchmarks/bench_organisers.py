"""Benchmark (not a test): every row of issue 22's "Targets" table, side by side
with its baseline in the same run.

    python benchmarks/bench_organisers.py [--games 300] [--repeat 3] [--vs OTHER_PITCH] [--only ROW,...]

Makes ``--games`` simulated games per layout in a temporary folder (a JSON
Lines file, a folder of one-game JSON files, one of one-game YAML files, a
YAML stream; ten-point, ten-point-5, play-level (ten-point's, and
ten-point-5's filled first, so that a called card nobody played has its holder
named) and tally JSON Lines; Auction
and ten-point filled by ``pitch fmt --fill``, every claim written; one-game
ten-point YAML files, whose teams are named "Ann & Cal", and Auction YAML files
with CRLF line ends), then,
for each row, runs ``pitch`` (this tree's; ``--vs``: another ``pitch``
executable too, such as main's, so that before and after are measured in the
same run) and the row's baseline in turn, ``--repeat`` times each,
interleaved (``report`` and ``ratings``: every tree's and this tree's ``summarize``,
all in the same rounds). Prints the median CPU seconds (user + system of the child) of
each and the ratio to the baseline (of the medians, and ``paired``: the median of
each round's own ratio, ``bench_engine.paired_ratio``; every row with a
baseline), and the peak memory (one run) where the target names memory. Small
by default; the issue's sizes are 10,000 and 2,000 games (``--games 2000``).

The ``memory`` row asks whether memory is flat in the number of games: the
peak of ``validate``, ``summarize`` and ``ratings`` over a fifth of the games
and over all of them, one-game YAML files and JSON Lines (``report``: the YAML
files), and what the difference is a game.

The ``startup-commands`` rows time ``summarize``, ``score``, ``ratings``,
``find`` and ``report`` of one sample against this tree's ``validate`` of it.

The ``startup`` rows time ``pitch validate`` of one sample against ``python -c
"import click, yaml"``: in a folder of records (the sample copied to one of its
own: no configuration file, as an organiser's folder has none), the same game
as JSON there, and in this repository, whose ``pyproject.toml`` pitch reads for
a ``[tool.pitch]`` table.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import ROOT, compile_tree, measure_rounds, measure_side_by_side, paired_ratio, peak_kib

PY = sys.executable
PITCH = str(Path(PY).with_name("pitch"))

JSON_LINES = "import json, sys\nfor line in open(sys.argv[1], 'rb'):\n    json.loads(line)\n"
JSON_FILES = ("import json, os, sys\nfor n in sorted(os.listdir(sys.argv[1])):\n"
              "    json.loads(open(os.path.join(sys.argv[1], n), 'rb').read())\n")
YAML_FILES = ("import os, sys, yaml\nfor n in sorted(os.listdir(sys.argv[1])):\n"
              "    with open(os.path.join(sys.argv[1], n), 'rb') as f:\n"
              "        list(yaml.compose_all(f, Loader=yaml.CSafeLoader))\n")
YAML_STREAM = ("import sys, yaml\nwith open(sys.argv[1], 'rb') as f:\n"
               "    list(yaml.compose_all(f, Loader=yaml.CSafeLoader))\n")
ROWS = ("jsonl", "json-files", "json-pretty", "yaml-files", "yaml-block", "yaml-stream", "ten-point", "ten-point-5",
        "ten-point-play", "ten-point-5-play", "play", "tally", "filled", "ten-point-filled", "yaml-teams", "yaml-crlf",
        "summarize", "summarize-block", "report", "ratings", "startup", "startup-commands", "memory")


def simulate(variant: str, games: int, path: Path, fmt: str = "jsonl") -> None:
    subprocess.run([PITCH, "simulate", "--variant", variant, "--games", str(games), "--seed", "22", "--format", fmt,
                    "-o", str(path)], check=True, cwd=ROOT)


def _play_level(rec: dict) -> dict:
    """The record with no deal: the engine recovers it from the tricks."""
    for h in rec["hands"]:
        h.pop("deal", None)
    return rec


def _tally(rec: dict) -> dict:
    """The record as a tally: contract, trump and who took each point, from the engine's replay."""
    sys.path.insert(0, str(ROOT))
    from pitchcli.pipeline.feed import analyze

    a = analyze(rec)
    assert a.table is not None
    names, units = a.table.players, a.table.unit_names
    hands = []
    for h, r in zip(rec["hands"], a.hands, strict=True):
        assert r is not None
        hands.append({"dealer": h["dealer"], "contract": {"bidder": names[r.bidder], "bid": r.bid}, "trump": r.trump,
                      "points": {k: None if aw.unit is None else units[aw.unit] for k, aw in r.awards.items()},
                      **{k: h[k] for k in ("score", "totals") if k in h}})
    return {**{k: v for k, v in rec.items() if k != "hands"}, "hands": hands}


def _ten_point_play_level(rec: dict) -> dict:
    """A ten-point record play-level: trump and the tricks, none of the places before the play."""
    for h in rec["hands"]:
        for key in ("deal", "discards", "draws", "kitty", "dead"):
            h.pop(key, None)
    return rec


def filled(source: Path, path: Path) -> None:
    """``source`` with everything the engine derives written in, as ``pitch fmt
    --fill`` writes it: each trick as ``{lead, cards}``, the points, scores,
    totals and the result (a league's archive of filled records)."""
    subprocess.run([PITCH, "fmt", "--fill", str(source), "-o", str(path)], check=True, cwd=ROOT)


def derived(source: Path, path: Path, change: Callable[[dict], dict]) -> None:
    with source.open("rb") as f, path.open("w") as out:
        for line in f:
            out.write(json.dumps(change(json.loads(line))) + "\n")


def split(source: Path, folder: Path, fmt: str) -> None:
    """One file per game of a JSON Lines file: ``json`` a line each, ``json-pretty``
    as ``pitch convert --to json`` writes it (one value over many lines), YAML
    (``pitch fmt``'s form), or ``yaml-block``: YAML in block style, a card a
    line, as PyYAML's ``safe_dump`` (and many a hand-edited record) writes it."""
    sys.path.insert(0, str(ROOT))
    from pitchcli.record.write import canonical, to_json, to_yaml

    folder.mkdir()
    with source.open("rb") as f:
        for i, line in enumerate(f):
            rec = json.loads(line)
            text = (json.dumps(rec) if fmt == "json" else to_json(canonical(rec)) if fmt == "json-pretty"
                    else yaml.safe_dump(rec, sort_keys=False) if fmt == "yaml-block" else to_yaml(canonical(rec)))
            if fmt == "yaml-crlf":
                text = text.replace("\n", "\r\n")  # (saved on Windows)
            suffix = "yaml" if fmt.startswith("yaml") else fmt.removesuffix("-pretty")
            (folder / f"game-{i:05d}.{suffix}").write_text(text)


def yaml_stream(folder: Path, path: Path) -> None:
    with path.open("w") as out:
        for p in sorted(folder.iterdir()):
            out.write("---\n" + p.read_text())


def _row(label: str, who: str, mine: list[float], base: list[float], peak: str = "") -> None:
    """Print one row: the medians of ``mine`` and of its baseline's rounds,
    their ratio, the paired ratio, and ``peak`` (the peak MiB, or nothing)."""
    cpu, base_cpu = statistics.median(mine), statistics.median(base)
    print(f"{label:<40} {who:>10} {cpu:8.3f} {base_cpu:9.3f} {cpu / base_cpu:6.2f}x "
          f"{paired_ratio(mine, base):6.2f}x {peak}", flush=True)


def _memory_rows(t: Path, n: int, pitches: list[tuple[str, str]], repeat: int) -> None:
    """Is memory flat in the number of games? The peak of each command over a
    fifth of the games and over all of them (the lowest of ``repeat`` runs:
    noise only adds to a peak), and what the difference is a game. (Read it
    from a few thousand games up: under 64 games the quick pass, and numpy
    with it, is not loaded at all.)"""
    fifth = max(1, n // 5)
    small = t / "yaml-fifth"
    small.mkdir()
    for p in sorted((t / "yaml").iterdir())[:fifth]:
        os.link(p, small / p.name)
    with (t / "auction.jsonl").open("rb") as f, (t / "auction-fifth.jsonl").open("wb") as out:
        out.writelines(line for _, line in zip(range(fifth), f, strict=False))
    print(f"{'memory (peak MiB)':<40} {'':>10} {f'{fifth} games':>10} {f'{n} games':>10} {'a game':>8}")
    layouts = (("YAML files", small, t / "yaml"), ("JSON Lines", t / "auction-fifth.jsonl", t / "auction.jsonl"))
    for command in (["validate", "-q"], ["summarize"], ["ratings"], ["report", "-o", str(t / "site-memory")]):
        for layout, few, many in layouts[:1] if command[0] == "report" else layouts:
            for who, p in pitches:
                a, b = (min(peak_kib([p, *command, str(x)]) for _ in range(repeat)) for x in (few, many))
                print(f"{command[0] + ', ' + layout:<40} {who:>10} {a / 1024:10.1f} {b / 1024:10.1f} "
                      f"{(b - a) * 1024 / (n - fifth):6.0f} B", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300, help="games per layout (the issue: 10,000 and 2,000)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--vs", help="another pitch executable to measure beside this tree's (before/after)")
    ap.add_argument("--only", default=",".join(ROWS), help=f"rows, of {', '.join(ROWS)}")
    args = ap.parse_args()
    compile_tree()
    only = set(args.only.split(","))
    pitches = [("pitch", PITCH), *([("vs", args.vs)] if args.vs else [])]
    n = args.games
    with tempfile.TemporaryDirectory(prefix="bench-organisers-") as tmp:
        t = Path(tmp)
        auction = t / "auction.jsonl"
        simulate("auction", n, auction)
        split(auction, t / "json", "json")
        split(auction, t / "json-pretty", "json-pretty")
        split(auction, t / "yaml", "yaml")
        split(auction, t / "yaml-block", "yaml-block")
        yaml_stream(t / "yaml", t / "stream.yaml")
        for v in ("ten-point", "ten-point-5"):
            if v in only or (v == "ten-point" and only & {"ten-point-play", "ten-point-filled", "yaml-teams"}) or (
                    v == "ten-point-5" and "ten-point-5-play" in only):
                simulate(v, n, t / f"{v}.jsonl")
        if "yaml-teams" in only:
            split(t / "ten-point.jsonl", t / "yaml-teams", "yaml")
        if "yaml-crlf" in only:
            split(auction, t / "yaml-crlf", "yaml-crlf")
        if "filled" in only:
            filled(auction, t / "filled.jsonl")
        if "ten-point-filled" in only:
            filled(t / "ten-point.jsonl", t / "ten-point-filled.jsonl")
        if "ten-point-play" in only:
            derived(t / "ten-point.jsonl", t / "ten-point-play.jsonl", _ten_point_play_level)
        if "ten-point-5-play" in only:  # (filled first: a called card nobody played has its holder named, TP5-3)
            filled(t / "ten-point-5.jsonl", t / "ten-point-5-filled.jsonl")
            derived(t / "ten-point-5-filled.jsonl", t / "ten-point-5-play.jsonl", _ten_point_play_level)
        derived(auction, t / "play.jsonl", _play_level)
        derived(auction, t / "tally.jsonl", _tally)
        base_jl = [PY, "-c", JSON_LINES]
        rows: list[tuple[str, str, list[str], list[str], bool]] = [  # (row, label, pitch args, baseline, peak)
            ("jsonl", f"JSON Lines, {n} Auction games", ["validate", "-q", str(auction)], [*base_jl, str(auction)],
             False),
            ("json-files", f"folder of {n} one-game JSON files", ["validate", "-q", str(t / "json")],
             [PY, "-c", JSON_FILES, str(t / "json")], False),
            ("json-pretty", f"folder of {n} pretty JSON files", ["validate", "-q", str(t / "json-pretty")],
             [PY, "-c", JSON_FILES, str(t / "json-pretty")], False),
            ("yaml-files", f"folder of {n} one-game YAML files", ["validate", "-q", str(t / "yaml")],
             [PY, "-c", YAML_FILES, str(t / "yaml")], True),
            ("yaml-block", f"folder of {n} block-style YAML files", ["validate", "-q", str(t / "yaml-block")],
             [PY, "-c", YAML_FILES, str(t / "yaml-block")], True),
            ("yaml-teams", f"folder of {n} ten-point YAML files (teams)", ["validate", "-q", str(t / "yaml-teams")],
             [PY, "-c", YAML_FILES, str(t / "yaml-teams")], False),
            ("yaml-crlf", f"folder of {n} YAML files, CRLF", ["validate", "-q", str(t / "yaml-crlf")],
             [PY, "-c", YAML_FILES, str(t / "yaml-crlf")], False),
            ("yaml-stream", f"one YAML stream of {n} games", ["validate", "-q", str(t / "stream.yaml")],
             [PY, "-c", YAML_STREAM, str(t / "stream.yaml")], True),
            *((v, f"{v}, JSON Lines", ["validate", "-q", str(t / f"{v}.jsonl")], [*base_jl, str(t / f"{v}.jsonl")],
               True) for v in ("ten-point", "ten-point-5")),
            ("ten-point-play", "play-level ten-point, JSON Lines", ["validate", "-q", str(t / "ten-point-play.jsonl")],
             [*base_jl, str(t / "ten-point-play.jsonl")], True),
            ("ten-point-5-play", "play-level ten-point-5, filled, JSON Lines",
             ["validate", "-q", str(t / "ten-point-5-play.jsonl")], [*base_jl, str(t / "ten-point-5-play.jsonl")],
             False),
            ("play", "play-level Auction, JSON Lines", ["validate", "-q", str(t / "play.jsonl")],
             [*base_jl, str(t / "play.jsonl")], False),
            ("tally", "tally Auction, JSON Lines", ["validate", "-q", str(t / "tally.jsonl")],
             [*base_jl, str(t / "tally.jsonl")], False),
            *((row, f"{label} filled (fmt --fill), JSON Lines", ["validate", "-q", str(t / f"{row}.jsonl")],
               [*base_jl, str(t / f"{row}.jsonl")], False)
              for row, label in (("filled", "Auction"), ("ten-point-filled", "ten-point"))),
        ]
        print(f"{'row':<40} {'':>10} {'cpu s':>8} {'baseline':>9} {'ratio':>7} {'paired':>7} {'peak MiB':>9}")
        for row, label, pargs, base, peak in rows:
            if row not in only:
                continue
            cmds = [[p, *pargs] for _, p in pitches] + [base]
            rounds = measure_rounds(cmds, args.repeat)
            for (who, p), mine in zip(pitches, rounds, strict=False):
                _row(label, who, mine, rounds[-1], f"{peak_kib([p, *pargs]) / 1024:9.0f}" if peak else "")
        summarize = ["summarize", str(t / "yaml")]
        for row, folder, label in (("summarize", "yaml", "summarize, folder of YAML files"),
                                   ("summarize-block", "yaml-block", "summarize, block-style YAML files")):
            if row not in only:
                continue
            cmd = ["summarize", str(t / folder)]
            found = measure_side_by_side([[p, *cmd] for _, p in pitches], args.repeat)
            for (who, p), cpu in zip(pitches, found, strict=True):
                print(f"{label:<40} {who:>10} {cpu:8.3f} {'':>9} {n / cpu:6.0f}/s "
                      f"{peak_kib([p, *cmd]) / 1024:9.0f}  (games per CPU second)", flush=True)
        for row in ("report", "ratings"):
            if row not in only:
                continue
            # Every tree's command and this tree's `summarize` in the same rounds
            # (interleaved): the trees' ratios share their baseline's every round,
            # where runs of each tree beside its own `summarize` fell minutes apart
            # on this machine, whose speed moves by a fifth within minutes.
            cmds = [[p, row, *(["-o", str(t / f"site-{k}")] if row == "report" else []), str(t / "yaml")]
                    for k, (_, p) in enumerate(pitches)]
            *mine, base = measure_rounds([*cmds, [PITCH, *summarize]], args.repeat)
            for (who, _), cmd, cpus in zip(pitches, cmds, mine, strict=True):
                _row(f"{row} vs summarize, YAML files", who, cpus, base, f"{peak_kib(cmd) / 1024:9.0f}")
        if "memory" in only:
            _memory_rows(t, n, pitches, args.repeat)
        if "startup" in only:
            # A record in a folder of records (no configuration file: pitch reads
            # none), the same game as JSON there (a YAML file's reader, yaml-rs,
            # imports pathlib; a JSON file's reading needs none), and the record in
            # this repository, whose pyproject.toml pitch parses for a [tool.pitch]
            # table (tomllib's import and the parse).
            records = t / "records"
            records.mkdir()
            sample = ROOT / "samples" / "auction-full.yaml"
            shutil.copy(sample, records)
            (records / "auction-full.json").write_text(json.dumps(yaml.safe_load(sample.read_text("utf-8"))))
            for where, folder, label in ((records, "auction-full.yaml", "validate ONE_FILE, records folder"),
                                         (records, "auction-full.json", "the same game as JSON"),
                                         (ROOT, "samples/auction-full.yaml", "validate ONE_FILE, this repository")):
                cmds = [[p, "validate", folder] for _, p in pitches] + [[PY, "-c", "import click, yaml"]]
                rounds = measure_rounds(cmds, max(args.repeat, 5), cwd=where)
                for (who, _), mine in zip(pitches, rounds, strict=False):
                    _row(label, who, mine, rounds[-1])
        if "startup-commands" in only:
            # The other commands a scorer or a player runs on one file (score a
            # hand at the table, a night's standings), each against this tree's
            # ``validate`` of the same file: what a command imports beyond
            # validating it (tabulate, the worker pool, the ratings, the site's
            # templates).
            sample = str(ROOT / "samples" / "auction-full.yaml")
            site = t / "one-site"
            commands = (["summarize"], ["score"], ["ratings"], ["find", "--player", "Ann"], ["report", "-o", str(site)])
            for words in commands:
                cmds = [[p, *words, sample] for _, p in pitches] + [[PITCH, "validate", sample]]
                rounds = measure_rounds(cmds, max(args.repeat, 5), cwd=ROOT)
                for (who, _), mine in zip(pitches, rounds, strict=False):
                    _row(f"{words[0]} ONE_FILE, against validate of it", who, mine, rounds[-1])


if __name__ == "__main__":
    main()
