"""Benchmark of the record loader against libyaml's bare composer.

A ~1.6 KB Auction Pitch record (FORMAT.md's shape: 4 players, three hands of six
tricks of four cards, one with its deal) is repeated 1,000 times as one YAML stream. We time
``yaml.compose_all`` with ``CSafeLoader`` (the floor: libyaml parsing and
composing nodes) and ``load_documents`` (splitting, UTF-8 and depth checks,
composing, and building plain data with core-schema scalars; no ``locate``),
both reading the stream from a binary file handle, and print the ratio. The
budget of the whole validate path is 1.5x the bare parse. The same records as
JSON Lines are timed too, against ``json.loads`` per line, for scale.

Run: ``python benchmarks/bench_load.py [--records N] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import time
from collections.abc import Callable

import yaml

from pitchcli.record.load import Document, load_documents

RECORD = """\
---
format: pitch-record/1
variant: auction
rules: {target: 11}
event: Thursday club ladder
site: Back room
date: "2026-11-26"
round: 3
table: 2
id: thu-2026-11-26-r3-t2
notes: Transcribed at the table; second hand from memory.
players: [Ann, Ben, Cal, Dot]
hands:
  - dealer: Ann
    bids: [pass, 2, 3, pass]
    trump: S
    tricks:
      - [KS, 3S, 10S, AS]
      - [QD, 5D, JS, 9D]
      - [2S, 4H, 6C, 7S]
      - [AH, KH, 9H, 3H]
      - [QC, 8C, JC, 10C]
      - [6D, 8D, 4D, 7H]
    points: {high: Cal, low: Dot, jack: Ben, game: Cal}
    score: {Ann: 0, Ben: 1, Cal: 2, Dot: -3}
    totals: {Ann: 0, Ben: 1, Cal: 2, Dot: -3}
  - dealer: Ben
    bids: [3, pass, 4]
    trump: H
    tricks:
      - [AH, 2H, 9H, KH]
      - [10D, QD, 3D, 5D]
      - [JH, 4S, 6H, 8H]
      - [7C, QC, AC, 9C]
      - [KD, 2D, 6S, 8S]
      - [5C, 10H, 4C, 3C]
    points: {high: Dot, low: Ann, jack: Cal, game: Dot}
    score: {Ann: 1, Ben: 0, Cal: 1, Dot: 2}
    totals: {Ann: 1, Ben: 1, Cal: 3, Dot: -1}
  - dealer: Cal
    deal:
      Dot: [AD, 7D, 3S, JC, 9S, 4H]
      Ann: [KC, 2C, 10S, QH, 5S, 8D]
      Ben: [AS, JD, 6H, 7S, 2S, QS]
      Cal: [9C, 10C, KS, 3H, 5H, 6C]
    bids: [pass, pass, 2, pass]
    tricks:
      - [AS, 9S, JD, 3S]
      - [QS, 5S, 3H, 9C]
      - [7S, KS, AD, 10S]
      - [6C, JC, KC, 2S]
      - [QH, 6H, 5H, 4H]
      - [8D, 10C, 7D, 2C]
    score: {Ann: 0, Ben: 2, Cal: 1, Dot: 0}
    totals: {Ann: 1, Ben: 3, Cal: 4, Dot: -1}
result:
  winner: null
  scores: {Ann: 1, Ben: 3, Cal: 4, Dot: -1}
"""


def bare_compose(stream: bytes) -> int:
    """libyaml alone: compose every document's node tree."""
    return sum(1 for _ in yaml.compose_all(io.BytesIO(stream), Loader=yaml.CSafeLoader))


def full_load(stream: bytes) -> int:
    """Our loader: every document built into plain data."""
    count = 0
    for item in load_documents(io.BytesIO(stream), name="bench.yaml"):
        if not isinstance(item, Document):
            raise SystemExit(f"unexpected diagnostic: {item.as_text()}")
        count += 1
    return count


def bare_json_lines(stream: bytes) -> int:
    """json.loads alone, line by line."""
    return sum(1 for line in io.BytesIO(stream) if line.strip() and json.loads(line) is not None)


def full_load_json_lines(stream: bytes) -> int:
    """Our loader on JSON Lines (duplicate-key hook, depth and number checks)."""
    count = 0
    for item in load_documents(io.BytesIO(stream), name="bench.jsonl"):
        if not isinstance(item, Document):
            raise SystemExit(f"unexpected diagnostic: {item.as_text()}")
        count += 1
    return count


def best_of(fn: Callable[[bytes], int], stream: bytes, repeat: int, expected: int) -> float:
    """The median of ``repeat`` timings (the machine is noisy)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        n = fn(stream)
        times.append(time.perf_counter() - start)
        assert n == expected, (fn.__name__, n)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if not yaml.__with_libyaml__:
        raise SystemExit("PyYAML has no libyaml here: nothing to compare with")
    stream = (RECORD * args.records).encode("utf-8")
    print(f"record: {len(RECORD.encode())} bytes; stream: {args.records} records, "
          f"{len(stream) / 1e6:.2f} MB")
    # Interleave the two so drifts of a noisy machine hit both alike.
    bare_t, ours_t = [], []
    for _ in range(args.repeat):
        bare_t.append(best_of(bare_compose, stream, 1, args.records))
        ours_t.append(best_of(full_load, stream, 1, args.records))
    bare, ours = statistics.median(bare_t), statistics.median(ours_t)
    per = 1e3 / args.records
    print(f"yaml.compose_all (CSafeLoader): {bare:.3f} s  ({bare * per:.3f} ms/record)")
    print(f"load_documents (full build):    {ours:.3f} s  ({ours * per:.3f} ms/record)")
    print(f"ratio: {ours / bare:.2f}x")
    # The same records as JSON Lines, for scale (not part of the budget).
    data = [json.dumps(d) for d in yaml.safe_load_all(RECORD * args.records)]
    lines = ("\n".join(data) + "\n").encode()
    jb = statistics.median(
        best_of(bare_json_lines, lines, 1, args.records) for _ in range(args.repeat)
    )
    jo = statistics.median(
        best_of(full_load_json_lines, lines, 1, args.records) for _ in range(args.repeat)
    )
    print(f"JSON Lines: json.loads {jb * per:.3f} ms/record, load_documents "
          f"{jo * per:.3f} ms/record ({jo / jb:.2f}x)")


if __name__ == "__main__":
    main()
