"""Benchmark of ``pitch solve`` (not a test): time and nodes per hand.

    python benchmarks/bench_solve.py [--hands 40] [--other-hands 12] [--budget N] [--seed 1]
                                     [--only auction-4,ten-point-4]

Simulated hands (``pitchcli.pipeline.simulate``), solved in full as ``pitch solve`` does
it: the value with the trump as played, in Auction Pitch the value with the best
first lead, then the walk along the recorded play for the costly cards. For each
configuration it prints the median, 95th percentile and worst CPU seconds per
hand and the nodes searched (cards played in the search), and how many hands
ran out of the budget. The two configurations of the issue's targets (4-player
Auction Pitch and 4-player ten-point, after the exchange) get ``--hands`` hands
each; 2, 3, 5 and 7 players get ``--other-hands``.

Times are CPU seconds of this process (``time.process_time``), so other work on
a shared machine slows them less than wall time; the run also times a fixed
pure-Python loop before and after (the *calibration*, printed), and each
median is given as a multiple of it, so runs on a loaded and a quiet machine
can be compared. Targets (median <= 0.5 s, p95 <= 5 s) are printed as
PASS/MISS; nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pitchcli.engine.family import family_for
from pitchcli.engine.solve import DEFAULT_BUDGET, deal_of, solve
from pitchcli.pipeline.feed import analyze
from pitchcli.pipeline.simulate import simulate_game

MAIN = [("auction", 4), ("ten-point", 4)]
OTHERS = [("auction", 2), ("auction", 3), ("auction", 5), ("auction", 7),
          ("ten-point-2", 2), ("ten-point-3", 3), ("ten-point-5", 5), ("ten-point-7", 7)]


def calibrate() -> float:
    """CPU seconds of a fixed pure-Python loop (the machine's speed, this run)."""
    t = time.process_time()
    x = 0
    for i in range(2_000_000):
        x += i & 7
    return time.process_time() - t


def hands(variant: str, players: int, count: int, seed: int) -> list[tuple]:
    """``count`` hands of simulated games: (deal, trump, recorded play)."""
    rng = random.Random(f"{seed}-{variant}-{players}")
    out: list[tuple] = []
    while len(out) < count:
        rec = simulate_game(variant, players, rng=rng)
        a = analyze(rec)
        assert a.table is not None and a.profile is not None
        fam = family_for(a.profile.family, a.profile.mode)
        for r in a.hands[:3]:  # a few hands per game, so that many deals are seen
            if r is None or r.trump is None:
                continue
            deal = deal_of(r, a.table.unit_of, fam, a.profile.low)
            if deal is not None:
                out.append((deal, r.trump, [p.card for t in r.tricks for p in t.plays]))
    return out[:count]


def pct(values: list[float], q: float) -> float:
    """The q-th quantile (nearest rank)."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * len(s) + 0.5) - 1))]


def run(variant: str, players: int, count: int, budget: int, seed: int, unit: float) -> bool:
    times: list[float] = []
    nodes: list[int] = []
    unsolved = 0
    for deal, trump, plays in hands(variant, players, count, seed):
        t = time.process_time()
        sol = solve(deal, trump, plays, budget)
        times.append(time.process_time() - t)
        nodes.append(sol.nodes)
        unsolved += not sol.solved
    med, p95 = statistics.median(times), pct(times, 0.95)
    ok = med <= 0.5 and p95 <= 5.0
    print(f"{variant:12} {players}p {len(times):4} hands  s/hand median {med:6.3f} p95 {p95:6.2f} "
          f"max {max(times):6.2f}  nodes median {int(statistics.median(nodes)):8,} p95 "
          f"{int(pct(nodes, 0.95)):9,}  unsolved {unsolved:3}  median/calibration {med / unit:5.2f}  "
          f"{'PASS' if ok else 'MISS'}", flush=True)
    return ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=40, help="hands for 4-player Auction and ten-point")
    ap.add_argument("--other-hands", type=int, default=12, help="hands for the other player counts")
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", help="comma-separated variant-players, e.g. auction-4,ten-point-5-5")
    args = ap.parse_args()
    before = calibrate()
    print(f"calibration: {before:.3f} CPU s for the fixed loop; budget {args.budget:,} nodes per hand")
    configs = [(v, n, args.hands) for v, n in MAIN] + [(v, n, args.other_hands) for v, n in OTHERS]
    if args.only:
        wanted = set(args.only.split(","))
        configs = [c for c in configs if f"{c[0]}-{c[1]}" in wanted]
    for variant, players, count in configs:
        run(variant, players, count, args.budget, args.seed, before)
    after = calibrate()
    print(f"calibration after: {after:.3f} CPU s ({after / before:.2f}x the first: "
          f"{'steady' if 0.8 < after / before < 1.25 else 'the machine changed speed during the run'})")


if __name__ == "__main__":
    main()
