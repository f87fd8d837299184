"""A simulated league for measuring ``pitch report`` at scale: 30 players, 3
events (Auction Pitch, Auction Pitch with fixed partners, ten-point), 15
nights, rounds of 7 tables; each game 4 players of the 30 drawn at random.
One JSON Lines file per event and night. The same games every time.

Used by the report's scale tests (tests/render/test_report_scale.py) and
``python benchmarks/bench_report_scale.py`` (which writes a league to measure).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from pitchcli.pipeline.simulate import NAMES, simulate_game
from pitchcli.record.write import canonical

PLAYERS = [f"{a} {b}" for a in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo") for b in ("Ash", "Birch", "Cole", "Dale", "Elm")]
EVENTS = [("Monday Auction League", "auction"), ("Partners Cup", "auction-partners"),
          ("Ten-Point Open", "ten-point")]
NIGHTS = 15
TABLES = 7


def _renamed(rec: dict[str, object], names: list[str]) -> dict[str, object]:
    """``rec`` with the simulator's player names replaced by ``names`` (as JSON strings)."""
    text = json.dumps(rec)
    for old, new in zip(NAMES, names, strict=False):
        text = text.replace(json.dumps(old), json.dumps(new))
    return json.loads(text)  # type: ignore[no-any-return]


def league(games: int, folder: Path, seed: int = 24) -> None:
    """Write ``games`` games into ``folder``."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    per_night = -(-games // (NIGHTS * len(EVENTS)))
    made = 0
    for night in range(NIGHTS):
        date = f"2026-{9 + night // 28:02d}-{1 + night % 28:02d}"
        for event, variant in EVENTS:
            lines = []
            for k in range(per_night):
                if made >= games:
                    break
                rec = canonical(simulate_game(variant, 4, rng=rng, game_id=f"g{made + 1}"))
                rec = _renamed(rec, rng.sample(PLAYERS, 4))
                rec["event"], rec["date"] = event, date
                rec["round"], rec["table"] = k // TABLES + 1, k % TABLES + 1
                lines.append(json.dumps(rec, ensure_ascii=False))
                made += 1
            if lines:
                name = f"{variant}-{date}.jsonl"
                (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
