"""Per-record schema validation time: jsonschema (reference) vs jsonschema_rs.

Run: ``python benchmarks/bench_schema.py [--seconds 1.0]``

The record is a 4-player Auction Pitch game of three hands (two played out with
bids and six tricks, one tally) with points, scores, totals and a result, about
1.6 KB as JSON: the record
size MEASURED.md uses. Both validators are built once, outside the timing, as
``pitchcli.record.schema`` builds them. Absolute times on a shared machine vary
by ±30%; trust the ratio.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from jsonschema import Draft202012Validator

from pitchcli.record import schema


def auction_record() -> dict[str, Any]:
    """A three-hand Auction Pitch game, schema-valid, about 1.6 KB as JSON."""
    return {
        "format": "pitch-record/1",
        "variant": "auction",
        "rules": {"target": 11},
        "event": "Thursday club ladder",
        "site": "Club room",
        "date": "2026-11-26",
        "round": 3,
        "table": 2,
        "id": "ladder-2026-11-26-r3-t2",
        "players": ["Ann", "Ben", "Cal", "Dot"],
        "hands": [
            {
                "dealer": "Ann",
                "bids": ["pass", 2, 3, 4],
                "contract": {"bidder": "Dot", "bid": 4},
                "trump": "S",
                "tricks": [
                    ["KS", "3S", "10S", "AS"],
                    ["QD", "5D", "JS", "9D"],
                    ["2S", "4H", "6C", "QS"],
                    ["AH", "KH", "7H", "8H"],
                    ["9C", "JC", "TC", "2C"],
                    ["4D", "QC", "6D", "KD"],
                ],
                "points": {"high": "Cal", "low": "Cal", "jack": "Dot", "game": "Ben"},
                "score": {"Ann": 0, "Ben": 1, "Cal": 2, "Dot": -4},
                "totals": {"Ann": 0, "Ben": 1, "Cal": 2, "Dot": -4},
            },
            {
                "dealer": "Ben",
                "bids": [2, "pass", 3, "pass"],
                "contract": {"bidder": "Dot", "bid": 3},
                "trump": "H",
                "tricks": [
                    ["AH", "2H", "5H", "8H"],
                    ["KC", "3C", "7C", "QC"],
                    ["JH", "4D", "6D", "TD"],
                    ["9S", "KS", "3S", "5S"],
                    ["QH", "6H", "AD", "7D"],
                    ["2D", "JD", "8C", "4C"],
                ],
                "points": {"high": "Dot", "low": "Ann", "jack": "Cal", "game": "Dot"},
                "score": {"Ann": 1, "Ben": 0, "Cal": 1, "Dot": 2},
                "totals": {"Ann": 1, "Ben": 1, "Cal": 3, "Dot": -2},
            },
            {
                "dealer": "Cal",
                "contract": {"bidder": "Ann", "bid": 2},
                "trump": "c",
                "points": {"high": "Ann", "low": "Ben", "jack": None, "game": "Ann"},
                "score": {"Ann": 2, "Ben": 1, "Cal": 0, "Dot": 0},
                "totals": {"Ann": 3, "Ben": 2, "Cal": 3, "Dot": -2},
                "notes": "tally only: the score sheet of this hand, no cards",
            },
        ],
        "result": {"winner": None, "scores": {"Ann": 3, "Ben": 2, "Cal": 3, "Dot": -2}},
    }


def per_call(fn: Callable[[], object], seconds: float) -> float:
    """Mean seconds per call, over repeated batches filling about ``seconds``."""
    fn()  # warm caches (compiled regexes, resolved $refs)
    calls, elapsed, batch = 0, 0.0, 1
    while elapsed < seconds:
        start = time.perf_counter()
        for _ in range(batch):
            fn()
        elapsed += time.perf_counter() - start
        calls += batch
        batch = min(batch * 2, 10_000)
    return elapsed / calls


def main() -> None:
    """Print the per-record times and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time budget per measurement")
    args = parser.parse_args()

    record = auction_record()
    size = len(json.dumps(record, ensure_ascii=False).encode())
    bad = json.loads(json.dumps(record))
    bad["hands"][1]["tricks"][2][1] = "1H"  # one bad card, deep in a trick

    start = time.perf_counter()
    reference = schema._reference()  # the module's: local $refs inlined
    built_reference = time.perf_counter() - start
    start = time.perf_counter()
    compiled = schema._compiled()
    built_compiled = time.perf_counter() - start
    shipped = Draft202012Validator(schema.load_schema())  # the schema file as is
    assert reference.is_valid(record) and not reference.is_valid(bad)

    times = {
        "shipped": per_call(lambda: shipped.is_valid(record), args.seconds),
        "reference": per_call(lambda: reference.is_valid(record), args.seconds),
    }
    rows = [
        ("jsonschema is_valid, schema as shipped", times["shipped"]),
        ("jsonschema is_valid, $refs inlined", times["reference"]),
    ]
    if compiled is not None:
        times["rs"] = per_call(lambda: compiled.is_valid(record), args.seconds)
        rows.append(("jsonschema_rs is_valid", times["rs"]))
    rows += [
        (f"validate(), valid [{schema.backend_name()}]",
         per_call(lambda: schema.validate(record), args.seconds)),
        ("validate(), invalid: with diagnostics", per_call(lambda: schema.validate(bad), args.seconds)),
    ]

    print(f"record: {size} bytes of JSON, {len(record['hands'])} hands")
    print(f"{'build once: jsonschema':40} {built_reference * 1000:9.1f} ms")
    if compiled is not None:
        print(f"{'build once: jsonschema_rs':40} {built_compiled * 1000:9.1f} ms")
    for name, seconds in rows:
        print(f"{name:40} {seconds * 1000:9.4f} ms/record")
    if compiled is not None:
        for name in ("shipped", "reference"):
            print(f"{'ratio jsonschema (' + name + ') / rs':40} {times[name] / times['rs']:9.0f}x")
    else:
        print("jsonschema_rs is not installed: pip install 'pitchcli[fast]'")


if __name__ == "__main__":
    main()
