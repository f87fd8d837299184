"""`pitch summarize` keeps nothing per game: its memory stays flat however many
games it reads (issue 10: 10,000 vs 100,000 games within 10%).

The creep once measured (46.9 MiB of peak RSS at 10,000 games, 54.5 MiB at
100,000) was not the allocator: every replayed hand was a reference cycle.
With the collector thresholds `pitch` sets (20,000, 50, 100), a full
collection waits for 100 second-generation ones, so the hands that were still
being worked on at each second-generation collection were moved to the oldest
generation and stayed there, garbage, for the rest of the run.

Both checks here count bytes and objects exactly (no RSS, no clock), over the
whole per-document path (read, load, schema, engine, summary), JSON Lines and
YAML, valid and invalid records of every family:

- no document leaves a reference cycle: run with the collector off, a
  collection afterwards finds nothing (the cyclic collector is never needed,
  so its thresholds can't matter);
- what the live objects hold (the collector off) after ten times the
  documents is what they held after the first ones: nothing is kept per game.
"""

from __future__ import annotations

import gc
import json
import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from support.collect import collector_off, heap

from pitchcli.pipeline.check import check_source
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.write import canonical, to_jsonl, to_yaml_stream
from pitchcli.views.summary import Summary

# Repeats of the corpus: the short run, and ten times as many.
SHORT, LONG = 2, 20
# What may be held after the long run beyond the short one's: counters that
# pass 256 become int objects of their own (measured: under 1 KB). 4 KiB over
# the 144 more documents is 28 bytes a document; a replayed hand is KiBs.
SLACK = 4096


def _corpus() -> list[dict]:
    """Simulated games of five profiles (teams, a called partner, ten-point
    with five players), two events, and three invalid records: a wrong score
    claim (engine), an unknown key (schema), a hand that is not a mapping."""
    rng = random.Random(10)
    games = []
    for variant, event, n in [("auction", "Winter", 4), ("auction", "Winter", 3), ("auction-partners", "Winter", 4),
                              ("ten-point", "Saturday", 4), ("ten-point-5", "Saturday", 5)]:
        games.append(canonical({**simulate_game(variant, n, rng=rng), "event": event, "date": "2026-02-01"}))
    claim = json.loads(json.dumps(games[0]))
    claim["hands"][0]["score"] = {k: v + 1 for k, v in claim["hands"][0]["score"].items()}
    typo = {**json.loads(json.dumps(games[1])), "evnet": "Winter"}
    shape = {**json.loads(json.dumps(games[3])), "hands": [7]}
    return [*games, claim, typo, shape]


@pytest.fixture(scope="module")
def streams(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, int]]:
    """A JSON Lines file and a YAML stream of the corpus repeated LONG times,
    with the number of documents of one repeat."""
    games = _corpus()
    folder = tmp_path_factory.mktemp("memory")
    jsonl, yaml = folder / "games.jsonl", folder / "games.yaml"
    jsonl.write_text("".join(to_jsonl(g) for g in games) * LONG, encoding="utf-8")
    yaml.write_text(to_yaml_stream(games) * LONG, encoding="utf-8")
    return {"jsonl": (jsonl, len(games)), "yaml": (yaml, len(games))}


def _warm_up(path: Path, per_repeat: int) -> None:
    """One repeat read before measuring: what is made once (imports such as
    jsonschema's at the first invalid record, caches filled) is not per game."""
    s = Summary(3)
    for _, c in zip(range(per_repeat), check_source(str(path), str(path)), strict=False):
        s.add_checked(c)


def _cycles(garbage: list[object]) -> str:
    return ", ".join(f"{n} {t}" for t, n in Counter(type(o).__name__ for o in garbage).most_common(8))


@pytest.mark.parametrize("kind", ["jsonl", "yaml"])
def test_no_document_leaves_a_reference_cycle(streams: dict[str, tuple[Path, int]], kind: str) -> None:
    path, per_repeat = streams[kind]
    _warm_up(path, per_repeat)
    s = Summary(3)
    with collector_off():
        for _, c in zip(range(2 * per_repeat), check_source(str(path), str(path)), strict=False):
            s.add_checked(c)
        del c
        gc.set_debug(gc.DEBUG_SAVEALL)  # keep what a collection finds, to name it
        try:
            found = gc.collect()
            garbage = list(gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    assert s.counts["documents"] == 2 * per_repeat and s.counts["invalid"] == 6
    assert found == 0, f"reference cycles left by {2 * per_repeat} documents: {_cycles(garbage)}"


def _held_after(path: Path, per_repeat: int) -> tuple[int, Counter[str], int, Counter[str]]:
    """``heap()`` after SHORT and after LONG repeats of the corpus, the summary
    alive, the collector off (so a cycle's garbage would stay and count);
    measured between documents, both times after the same document of the
    corpus. The first repeat is the warm-up (imports such as jsonschema's at
    the first invalid record, caches)."""
    # The first figures are kept as two objects whose sizes are taken off the
    # second (a Counter kept alive would count itself).
    first: list[object] = [None, None]
    with collector_off():
        s = Summary(3)  # at most 3 game rows and problems kept: the rows are bounded too
        for n, c in enumerate(check_source(str(path), str(path)), 1):
            s.add_checked(c)
            if n in (SHORT * per_repeat, LONG * per_repeat):
                del c
                s.games, s.problems  # noqa: B018 - settled: cut to the limit, as when they are read
                size, kinds = heap()
                if first[0] is None:
                    first[0], first[1] = size, json.dumps(kinds)
                    del size, kinds
                    continue
                size -= sys.getsizeof(first[0]) + sys.getsizeof(first[1])
                break
    assert s.counts["documents"] == LONG * per_repeat
    return int(first[0]), Counter(json.loads(str(first[1]))), size, kinds  # type: ignore[call-overload]


@pytest.mark.parametrize("kind", ["jsonl", "yaml"])
def test_memory_held_does_not_grow_with_the_games(streams: dict[str, tuple[Path, int]], kind: str) -> None:
    path, per_repeat = streams[kind]
    short, before, long, after = _held_after(path, per_repeat)
    grew = after - before
    assert long - short <= SLACK, (f"{long - short:,} bytes more held after {LONG * per_repeat} documents than "
                                   f"after {SHORT * per_repeat}; more objects: {dict(grew.most_common(8))}")


def test_the_checks_see_what_a_game_keeps(streams: dict[str, tuple[Path, int]],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous: a summary that keeps a little of every game (here, 200
    bytes of each game's record, in a cycle) fails both checks."""
    add = Summary.add_checked

    def keeping(self: Summary, checked: object) -> None:
        cycle: list[object] = [b"x" * 200]
        cycle.append(cycle)  # garbage only the collector could free
        add(self, checked)

    monkeypatch.setattr(Summary, "add_checked", keeping)
    path, per_repeat = streams["jsonl"]
    short, _, long, _ = _held_after(path, per_repeat)
    assert long - short > SLACK
    with collector_off():
        keeping(Summary(), next(iter(check_source(str(path), str(path)))))
        assert gc.collect() > 0
