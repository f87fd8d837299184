"""Benchmark of ``pitch fmt`` keeping comments, against parse-only, the
comment-less writer and ruamel.yaml's round trip (issue 11).

A stream of N simulated Auction Pitch games (default 1,000) is written twice:
bare (as ``pitch simulate`` makes it) and commented (a head comment, a comment
before each hand and at the end of its bids line, every run of tricks). Timed,
CPU seconds, median of R runs, side by side in the same run:

- ``parse``: libyaml's ``compose_all`` (CSafeLoader) of the stream: the floor;
- ``fmt, no comments``: what fmt did before (check every document, write the
  canonical form, comments dropped), on the commented stream;
- ``fmt``: ``pitchcli.render.records.read_input`` + ``output`` now, on the bare stream
  (the fast path: no ``#``) and on the commented one (comments found by one
  libyaml token scan and put back);
- ``ruamel rt``: ruamel.yaml's round-trip load and dump of the commented
  stream — only its own work, none of fmt's checking — on a tenth of the
  games (it is that slow), scaled per game.

Run: ``python benchmarks/bench_fmt.py [--games N] [--repeat R]`` (ruamel.yaml
is not a dependency: the last row needs ``pip install ruamel.yaml``).
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.write import canonical, dump
from pitchcli.render import records as fmt


def _stream(games: int) -> tuple[str, str]:
    rng = random.Random(11)
    recs = [canonical(simulate_game("auction", 4, rng=rng, game_id=f"g{i}")) for i in range(games)]
    bare = dump(recs, "yaml")
    lines = []
    for line in bare.splitlines():
        if line == "---":
            lines += [line, "# typed from the club's score sheet"]
            continue
        if line.startswith("  - dealer:"):
            lines.append("  # a hand")
        if line.lstrip().startswith("bids:"):
            line += "  # as called"
        if line.lstrip().startswith("tricks:"):
            line += "  # in play order"
        lines.append(line)
    return bare, "\n".join(lines) + "\n"


def _time(f: Callable[[], object], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.process_time()
        f()
        runs.append(time.process_time() - start)
    return statistics.median(runs)


def _fmt(text: str, keep_comments: bool = True) -> str:
    path = Path(tempfile.gettempdir()) / "pitch-bench-fmt.yaml"
    path.write_text(text, encoding="utf-8")
    r = fmt.read_input(str(path))
    assert r.valid, r.diagnostics[:1]
    if not keep_comments:
        r.comments = [None] * len(r.records)
    return r.output()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    bare, commented = _stream(a.games)
    out = _fmt(commented)
    assert out.count("#") == commented.count("#"), "a comment was lost"
    assert _fmt(out) == out, "not idempotent"
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    rows = [
        ("parse (compose_all, commented stream)", _time(lambda: list(yaml.compose_all(commented, Loader=loader)),
                                                        a.repeat)),
        ("fmt, no comments (the old writer)", _time(lambda: _fmt(commented, keep_comments=False), a.repeat)),
        ("fmt, bare stream (no '#')", _time(lambda: _fmt(bare), a.repeat)),
        ("fmt, commented stream (comments kept)", _time(lambda: _fmt(commented), a.repeat)),
    ]
    try:
        from ruamel.yaml import YAML
    except ImportError:
        YAML = None
    if YAML is not None:
        tenth = max(1, a.games // 10)
        _, small = _stream(tenth)
        rt = YAML(typ="rt")

        def roundtrip() -> None:
            buf = io.StringIO()
            rt.dump_all(list(rt.load_all(small)), buf)

        rows.append((f"ruamel rt load+dump ({tenth} games, scaled)", _time(roundtrip, a.repeat) * a.games / tenth))
    base, old = rows[0][1], rows[1][1]
    print(f"{a.games} games, {len(commented) / 1e6:.1f} MB commented; CPU s, median of {a.repeat}")
    print(f"{'run':45} {'s':>8} {'ms/game':>8} {'vs parse':>9} {'vs old fmt':>10}")
    for name, s in rows:
        print(f"{name:45} {s:8.2f} {s / a.games * 1000:8.2f} {s / base:8.2f}x {s / old:9.2f}x")


if __name__ == "__main__":
    main()
