"""Where the time of ``pitch validate`` goes, stage by stage (not a test).

    python benchmarks/bench_stages.py FILE.jsonl [--repeat 3]

Runs each stage of the check pipeline over every document of a JSON Lines file,
in this process, with the CLI's garbage-collector thresholds, and prints the
median CPU time of each next to ``json.loads`` of the same lines:

- ``load``: ``load_documents`` (reading, ``json.loads``, the limits);
- ``schema``: ``schema.validate`` (jsonschema-rs decides a valid record);
- ``profile fields``: ``profile_fields.validate``;
- ``analyze``: the engine (``analysis.analyze``: every rule, every claim);
- ``check_document``: schema, profile fields and engine with the diagnostics
  located, as ``pitch validate`` runs them after loading.

A file to try: ``pitch simulate --games 1000 --format jsonl -o games.jsonl``.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from pitchcli.analysis import analyze
from pitchcli.check import check_document
from pitchcli.record import profile_fields, schema
from pitchcli.record.load import Document, load_documents


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    gc.set_threshold(20_000, 50, 100)  # as pitchcli.cli sets it
    path = str(args.file)
    lines = args.file.read_bytes().splitlines()
    docs: list[Document] = [d for d in load_documents(path, name=path) if isinstance(d, Document)]
    hands = sum(len(d.data.get("hands") or []) for d in docs)
    def each(f: Callable[[object], object], items: list) -> Callable[[], None]:
        def run() -> None:
            for x in items:  # results dropped at once, as the pipeline drops them
                f(x)
        return run

    stages: dict[str, Callable[[], None]] = {
        "json.loads (baseline)": each(json.loads, lines),
        "load": lambda: sum(1 for _ in load_documents(path, name=path)),
        "schema": each(lambda d: schema.validate(d.data, d.floats), docs),
        "profile fields": each(lambda d: profile_fields.validate(d.data), docs),
        "analyze (the engine)": each(lambda d: analyze(d.data), docs),
        "analyze, quick pass": each(lambda d: analyze(d.data, quick=True), docs),
        "check_document": each(check_document, docs),
        "check_document, quick": each(lambda d: check_document(d, quick=True), docs),
    }
    times: dict[str, list[float]] = {k: [] for k in stages}
    for _ in range(args.repeat):
        for name, stage in stages.items():  # in turn, so that a busy moment hits them all
            t0 = time.process_time()
            stage()
            times[name].append(time.process_time() - t0)
    base = statistics.median(times["json.loads (baseline)"])
    print(f"{len(docs)} documents, {hands} hands; CPU seconds, median of {args.repeat}")
    for name, t in times.items():
        m = statistics.median(t)
        print(f"  {name:<24} {m:8.3f} s  {m / base:6.2f}x  {hands / m:10,.0f} hands/s")


if __name__ == "__main__":
    main()
