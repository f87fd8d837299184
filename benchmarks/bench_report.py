"""Benchmark of ``pitch report`` and ``pitch ratings`` against ``pitch summarize``.

All three read the same games through the same pipeline (load, schema,
engine); the baseline is the summary alone. ``report`` adds a view of every
game (the score sheet and the replay's events), rendering and writing a page
per game; ``ratings`` adds the views and one openskill update per game. Each
is run in-process, side by side in the same run, ``--repeat`` times, over
``--games`` simulated games (auction and ten-point, 4 players) written to a
temporary folder; medians and ratios are printed.

Run: ``python benchmarks/bench_report.py [--games N] [--repeat R]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pitchcli.pipeline.check import check_paths
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.write import canonical, dump
from pitchcli.render.site import collect, write_site
from pitchcli.views.ratings import collect as rate
from pitchcli.views.summary import Summary


def _games(folder: Path, n: int) -> None:
    rng = random.Random(15)
    for variant in ("auction", "ten-point"):
        records = [canonical(simulate_game(variant, 4, rng=rng, game_id=f"{variant}-{i}")) for i in range(n // 2)]
        for r in records:
            r["event"], r["date"] = f"bench {variant}", "2026-12-01"
        (folder / f"{variant}.jsonl").write_text(dump(records, "jsonl"), encoding="utf-8")


def _time(fn: Callable[[], object], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        data = root / "games"
        data.mkdir()
        _games(data, a.games)

        def summarize() -> None:
            s = Summary()
            for c in check_paths([str(data)]):
                s.add_checked(c)

        def report() -> None:
            write_site(collect(check_paths([str(data)])), root / "site")

        def ratings() -> None:
            rate(check_paths([str(data)]))

        base = _time(summarize, a.repeat)
        print(f"{a.games} games, median of {a.repeat}")
        print(f"summarize  {base * 1000:8.0f} ms  1.00x")
        for name, fn in (("report", report), ("ratings", ratings)):
            t = _time(fn, a.repeat)
            print(f"{name:<10} {t * 1000:8.0f} ms  {t / base:.2f}x  ({t / a.games * 1000:.2f} ms a game)")


if __name__ == "__main__":
    main()
