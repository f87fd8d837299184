"""Regenerate the bundled samples (samples/*.yaml, samples/tournament/) from fixed seeds.

Run from the repository root: ``python tools/make_samples.py``. The files are
committed; this script documents how they were made and keeps them reproducible.
"""

from __future__ import annotations

import copy
import os
import random
from pathlib import Path
from typing import Any

from pitchcli.pipeline.simulate import NAMES, simulate_game
from pitchcli.record.write import canonical, to_yaml, to_yaml_stream

ROOT = Path(__file__).resolve().parent.parent / "samples"
SCHEMA = ROOT.parent / "schemas" / "pitch-record-1.schema.json"


def write_sample(path: Path, text: str) -> None:
    """Write a sample; a YAML one starts with the modeline editors read, the
    schema's path relative to the file (so it works in any checkout)."""
    if path.suffix in (".yaml", ".yml"):
        text = f"# yaml-language-server: $schema={os.path.relpath(SCHEMA, path.parent)}\n" + text
    path.write_text(text)


def with_meta(rec: dict[str, Any], **meta: Any) -> dict[str, Any]:
    """Metadata first, in canonical order."""
    out = dict(rec)
    out.update(meta)
    return canonical(out)


def play_level(rec: dict[str, Any]) -> dict[str, Any]:
    """The same game recorded as play: bids and tricks, no deal."""
    rec = copy.deepcopy(rec)
    for h in rec["hands"]:
        h.pop("deal", None)
    return rec


def tally_level(rec: dict[str, Any]) -> dict[str, Any]:
    """A score sheet: hands with contract and points only."""
    from pitchcli.pipeline.feed import analyze

    a = analyze(rec)
    out = {k: v for k, v in rec.items() if k != "hands"}
    out["hands"] = []
    assert a.table is not None
    names = a.table.unit_names
    for h, r in zip(rec["hands"], a.hands, strict=True):
        assert r is not None
        hand: dict[str, Any] = {"dealer": h["dealer"],
                                "contract": {"bidder": a.table.players[r.bidder], "bid": r.bid},
                                "trump": r.trump}
        hand["points"] = {k: (None if aw.unit is None else names[aw.unit]) for k, aw in r.awards.items()}
        hand["score"] = h["score"]
        hand["totals"] = h["totals"]
        out["hands"].append(hand)
    return out


def main() -> None:
    """Write every sample file."""
    ROOT.mkdir(exist_ok=True)
    club = {"event": "Thursday club ladder", "site": "Riverside Club", "date": "2026-11-26"}
    full = with_meta(simulate_game("auction", 4, seed=7), **club, round=1, table=1,
                     id="ladder-r1-t1")
    write_sample(ROOT / "auction-full.yaml", to_yaml(full))
    write_sample(ROOT / "auction-play.yaml", to_yaml(canonical(play_level(full))))
    write_sample(ROOT / "auction-tally.yaml", to_yaml(canonical(tally_level(full))))
    write_sample(ROOT / "auction-3-players.yaml",
        to_yaml(with_meta(simulate_game("auction", 3, seed=11), **club, notes="three-handed")))
    write_sample(ROOT / "auction-partners.yaml",
        to_yaml(with_meta(simulate_game("auction-partners", 4, seed=5), **club)))
    write_sample(ROOT / "ten-point.yaml",
        to_yaml(with_meta(simulate_game("ten-point", seed=3), event="Saturday ten-point",
                          date="2026-11-28")))
    write_sample(ROOT / "ten-point-5.yaml",
        to_yaml(with_meta(simulate_game("ten-point-5", seed=4), event="Saturday ten-point",
                          date="2026-11-28")))
    tournament(ROOT / "tournament")


def tournament(folder: Path) -> None:
    """A small club tournament: two events, rounds and tables, several profiles."""
    rng = random.Random(2026)
    events = [
        ("Winter Setback Open", "2026-11-21", [("auction", 4), ("auction", 4), ("auction", 3),
                                                ("auction-partners", 4)]),
        ("Ten-point Saturday", "2026-11-28", [("ten-point", 4), ("ten-point-5", 5),
                                              ("ten-point", 4)]),
    ]
    pool = [*NAMES, "Ida", "Jon", "Kim", "Lou"]
    for e, (event, date, tables) in enumerate(events):
        sub = folder / event.lower().replace(" ", "-")
        sub.mkdir(parents=True, exist_ok=True)
        for rnd in range(1, 5):
            games = []
            for t, (variant, n) in enumerate(tables, start=1):
                rec = simulate_game(variant, n, rng=rng)
                names = rng.sample(pool, n)
                rec = _rename(rec, names)
                games.append(with_meta(rec, event=event, date=date, round=rnd, table=t,
                                       id=f"{e + 1}-{rnd}-{t}"))
            write_sample(sub / f"round-{rnd}.yaml", to_yaml_stream(games))


def _rename(rec: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """Seat other players (simulate uses fixed names)."""
    import json
    import re

    table = {f'"{old}"': f'"{new}"' for old, new in zip(rec["players"], names, strict=True)}
    pattern = re.compile("|".join(map(re.escape, table)))
    return json.loads(pattern.sub(lambda m: table[m.group(0)], json.dumps(rec)))


if __name__ == "__main__":
    main()
