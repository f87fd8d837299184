"""Benchmark of the compiled parser's happy path (not a test): ``pitch validate``
against the bare parse of the same files, with the fast reading on and off.

    python benchmarks/bench_parse.py [--games 2000] [--repeat 3] [--cache DIR]
                                     [--other-pitch PATH/TO/.venv/bin/pitch]

Games are made once with ``pitch simulate`` (Auction, 4 players, seed 22) into
``--cache``: a folder of one-game YAML files, one YAML stream of all of them, a
folder of one-game JSON files and one JSON Lines file. For each input it times,
in the same run and interleaved (medians of ``--repeat``, CPU seconds of the
child, user + system):

- the baseline: CSafeLoader ``compose_all`` of each YAML file (``json.loads`` of
  each JSON file or line), in a child process;
- ``pitch validate`` with the fast reading on;
- ``pitch validate`` with it off (``PITCH_NO_FAST_PARSE=1``: the locating loader
  alone, as on a machine without the yaml-rs wheel);
- with ``--other-pitch``, another tree's ``pitch validate`` (main's, for before/after);

and prints each time's ratio to the baseline, and the peak memory of the child
(ru_maxrss). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

BASE_YAML = (
    "import sys, yaml\n"
    "for p in sys.argv[1:]:\n"
    "    with open(p, 'rb') as f:\n"
    "        for _ in yaml.compose_all(f.read(), Loader=yaml.CSafeLoader): pass\n"
)
BASE_JSON = (
    "import sys, json\n"
    "for p in sys.argv[1:]:\n"
    "    with open(p, 'rb') as f:\n"
    "        for line in f:\n"
    "            if line.strip(): json.loads(line)\n"
)


def child(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """CPU seconds and peak MiB of one run of ``cmd`` in a fresh wrapper process."""
    wrapper = (
        "import resource, subprocess, sys\n"
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
        "r = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(r.ru_utime + r.ru_stime, r.ru_maxrss / 1024)\n"
    )
    out = subprocess.run([sys.executable, "-c", wrapper, *cmd], capture_output=True, text=True,
                         env=env, check=True).stdout.split()
    return float(out[0]), float(out[1])


def make(cache: Path, games: int, pitch: str) -> dict[str, tuple[list[str], str]]:
    """The inputs (their paths for the baseline, the argument for pitch) and their baseline script."""
    cache.mkdir(parents=True, exist_ok=True)
    stream = cache / f"stream-{games}.yaml"
    jsonl = cache / f"games-{games}.jsonl"
    if not stream.exists():
        subprocess.run([pitch, "simulate", "--variant", "auction", "--games", str(games), "--seed", "22",
                        "-o", str(stream)], check=True)
    if not jsonl.exists():
        subprocess.run([pitch, "simulate", "--variant", "auction", "--games", str(games), "--seed", "22",
                        "--format", "jsonl", "-o", str(jsonl)], check=True)
    ydir, jdir = cache / f"yaml-{games}", cache / f"json-{games}"
    if not ydir.exists():
        ydir.mkdir()
        text = stream.read_text()
        parts = [p for p in text.split("\n---\n") if p.strip()]
        for i, p in enumerate(parts):
            (ydir / f"g{i:05d}.yaml").write_text(p if p.startswith("---") else "---\n" + p + "\n")
    if not jdir.exists():
        jdir.mkdir()
        for i, line in enumerate(jsonl.read_text().splitlines()):
            (jdir / f"g{i:05d}.json").write_text(line + "\n")
    files = lambda d: sorted(str(p) for p in d.iterdir())  # noqa: E731
    return {
        "folder of one-game YAML files": (files(ydir), str(ydir), BASE_YAML),
        "one YAML stream": ([str(stream)], str(stream), BASE_YAML),
        "folder of one-game JSON files": (files(jdir), str(jdir), BASE_JSON),
        "JSON Lines": ([str(jsonl)], str(jsonl), BASE_JSON),
    }  # type: ignore[return-value]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "pitchcli-bench-parse")
    ap.add_argument("--other-pitch", help="another tree's pitch (e.g. main's), timed side by side")
    ap.add_argument("--only", help="a word of the inputs to run (yaml, stream, json, lines)")
    args = ap.parse_args()
    pitch = str(Path(sys.executable).with_name("pitch"))
    inputs = make(args.cache, args.games, pitch)
    off = {**os.environ, "PITCH_NO_FAST_PARSE": "1"}
    runs: dict[str, tuple[list[str], dict[str, str] | None]] = {}
    print(f"{args.games} Auction games, medians of {args.repeat} (CPU s of the child; ratio to the baseline; peak MiB)")
    for label, (paths, arg, base) in inputs.items():  # type: ignore[misc]
        if args.only and args.only not in label:
            continue
        runs = {"baseline": ([sys.executable, "-c", base, *paths], None),
                "pitch validate (fast reading)": ([pitch, "validate", arg], None),
                "pitch validate (locating loader only)": ([pitch, "validate", arg], off)}
        if args.other_pitch:
            runs["other pitch validate"] = ([args.other_pitch, "validate", arg], None)
        times: dict[str, list[float]] = {k: [] for k in runs}
        peaks: dict[str, float] = {}
        for _ in range(args.repeat):  # interleaved: the machine's noise falls on every row alike
            for name, (cmd, env) in runs.items():
                t, peak = child(cmd, env)
                times[name].append(t)
                peaks[name] = max(peaks.get(name, 0.0), peak)
        base_t = statistics.median(times["baseline"])
        print(f"\n{label}")
        for name in runs:
            t = statistics.median(times[name])
            print(f"  {name:40s} {t:7.2f} s  {t / base_t:5.2f}x  {peaks[name]:6.0f} MiB")


if __name__ == "__main__":
    main()
