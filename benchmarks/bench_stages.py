"""Where the time of ``pitch validate`` goes, stage by stage (not a test).

    python benchmarks/bench_stages.py FILE.jsonl|FOLDER [--repeat 3]

Runs each stage of the check pipeline over every document of a JSON Lines file,
in this process, with the CLI's garbage-collector thresholds, and prints the
median CPU time of each next to ``json.loads`` of the same lines:

- ``load``: ``load_documents`` (reading, orjson or ``json.loads``, the limits);
- ``schema``: ``schema.validate`` (jsonschema-rs decides a valid record);
- ``profile fields``: ``profile_fields.validate``;
- ``analyze``: the engine (``analysis.analyze``: every rule, every claim);
- ``quick pass``: ``analysis.analyze_many`` over chunks of documents, as
  ``pitch validate`` runs the engine (a game it can't decide is left out here);
- ``check_document``: schema, profile fields and engine (the full replay) with
  the diagnostics located, as the other commands run them after loading;
- ``checked in chunks, quick``: the same with the quick pass, as ``pitch
  validate`` runs them after loading.

A file to try: ``pitch simulate --games 1000 --format jsonl -o games.jsonl``.

Given a folder instead (of one-game YAML files, as ``pitch split`` writes
them), the baseline is CSafeLoader's ``compose_all`` of each file (issue 22's)
and a row ``yaml_rs.loads`` shows the compiled parser alone, so that the stages
``pitch summarize`` can't do without (parse, schema) read as a floor.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
import yaml_rs

from pitchcli.diagnostics import DEFAULT_MAX_ERRORS
from pitchcli.pipeline.check import QUICK_CHUNK, check_chunk, check_document
from pitchcli.pipeline.feed import analyze, analyze_many
from pitchcli.record import profile_fields, schema
from pitchcli.record.load import Document, load_documents


def each(f: Callable[[Any], object], items: list[Any]) -> Callable[[], None]:
    """A stage: ``f`` of every item, its results dropped at once, as the pipeline drops them."""
    def run() -> None:
        for x in items:
            f(x)
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    gc.set_threshold(20_000, 50, 100)  # as pitchcli.cli sets it
    if args.file.is_dir():
        files = sorted(str(f) for f in args.file.glob("*.yaml"))
        texts = [Path(f).read_text(encoding="utf-8") for f in files]
        baseline = ("compose_all (baseline)", each(lambda t: list(yaml.compose_all(t, Loader=yaml.CSafeLoader)), texts))
        extra = {"yaml_rs.loads": each(lambda t: yaml_rs.loads(t, parse_datetime=False), texts)}
        load = lambda: sum(1 for f in files for _ in load_documents(f, name=f))  # noqa: E731
        docs = [d for f in files for d in load_documents(f, name=f) if isinstance(d, Document)]
    else:
        path = str(args.file)
        lines = args.file.read_bytes().splitlines()
        baseline = ("json.loads (baseline)", each(json.loads, lines))
        extra = {}
        load = lambda: sum(1 for _ in load_documents(path, name=path))  # noqa: E731
        docs = [d for d in load_documents(path, name=path) if isinstance(d, Document)]
    hands = sum(len(d.data.get("hands") or []) for d in docs)
    stages: dict[str, Callable[[], object]] = {
        baseline[0]: baseline[1],
        **extra,
        "load": load,
        "schema": each(lambda d: schema.validate(d.data, d.floats), docs),
        "profile fields": each(lambda d: profile_fields.validate(d.data), docs),
        "analyze (the engine)": each(lambda d: analyze(d.data), docs),
        "quick pass (analyze_many)": lambda: [analyze_many([d.data for d in docs[i:i + QUICK_CHUNK]])
                                              for i in range(0, len(docs), QUICK_CHUNK)],
        "check_document": each(check_document, docs),
        "checked in chunks, quick": lambda: [list(check_chunk(docs[i:i + QUICK_CHUNK], DEFAULT_MAX_ERRORS))
                                             for i in range(0, len(docs), QUICK_CHUNK)],
    }
    times: dict[str, list[float]] = {k: [] for k in stages}
    for _ in range(args.repeat):
        for name, stage in stages.items():  # in turn, so that a busy moment hits them all
            t0 = time.process_time()
            stage()
            times[name].append(time.process_time() - t0)
    base = statistics.median(times[baseline[0]])
    print(f"{len(docs)} documents, {hands} hands; CPU seconds, median of {args.repeat}")
    for name, t in times.items():
        m = statistics.median(t)
        print(f"  {name:<24} {m:8.3f} s  {m / base:6.2f}x  {hands / m:10,.0f} hands/s")


if __name__ == "__main__":
    main()
