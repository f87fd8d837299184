"""find, convert and cat keep nothing per game; dedup keeps its keys only
(issue 25: streaming over a million games in bounded memory).

As ``tests/pipeline/test_summarize_memory.py`` counts them: the bytes of the
live Python objects (``support.collect.heap``), the collector off, after
SHORT and after LONG repeats of a corpus of valid and invalid records, over
the whole per-document path a command runs (read, check, prepare, consume,
write to /dev/null). Each repeat renames the players, so that every game is
a new one to dedup.

The quick pass checks a stream in chunks (``pipeline.check.QUICK_CHUNK``, 64
documents) and holds a chunk's results until its last document is handed on:
a game whose hands ``find`` replays keeps them (about 65 KB a game here)
until its chunk is done. That is bounded by the chunk, not the games; to
measure both times at the same place in a chunk, a chunk is one repeat there.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.collect import collector_off, heap

from pitchcli.pipeline import check
from pitchcli.pipeline.driver import Consumer, drive
from pitchcli.pipeline.lint import Judge
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.write import canonical, to_jsonl, to_yaml_stream
from pitchcli.render.convert import Converting, ToConvert, records_in_order
from pitchcli.render.dedup import Deduping, keys_in_order, write_json
from pitchcli.render.found import Finding, JsonlRecords, Paths, ToFind
from pitchcli.views.find import Conditions

SHORT, LONG = 2, 12
SLACK = 4096  # as summarize's: counters past 256, under 1 KB measured
# dedup: what it keeps per distinct game (its two keys, the first place, the
# dict entries). Measured: about 330 bytes a game here.
DEDUP_PER_GAME = 450
# Every test reads the stream a chunk of the quick pass a repeat: a chunk's
# documents are held until it is done, and a chunk across the measured points
# (the whole 84-document stream was one) would show its own release, not what
# the consumer keeps (the check below then saw 7 MB less after 12 repeats than 2).
pytestmark = pytest.mark.usefixtures("chunk_is_a_repeat")


@pytest.fixture()
def chunk_is_a_repeat(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chunk of the quick pass is one repeat (so small that each game is
    replayed in full, as the quick pass's fallback does)."""
    monkeypatch.setattr(check, "QUICK_CHUNK", len(_corpus(1)))


def _corpus(repeat: int) -> list[dict[str, Any]]:
    rng = random.Random(25)
    games = [canonical(simulate_game(v, rng=rng, game_id=f"g{i}"))
             for i, v in enumerate(["auction", "auction", "auction-partners", "ten-point", "auction"])]
    claim = json.loads(json.dumps(games[0]))
    claim["hands"][0]["score"] = {k: v + 1 for k, v in claim["hands"][0]["score"].items()}
    typo = {**json.loads(json.dumps(games[1])), "evnet": "Winter"}
    out = []
    for r in range(repeat):
        for g in [*games, claim, typo]:
            text = json.dumps(g)
            for name in g["players"]:
                text = text.replace(json.dumps(name), json.dumps(f"{name}{r}" if r and name != "Ann" else name))
            out.append(json.loads(text))
    return out


@pytest.fixture(scope="module")
def streams(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, int]]:
    # One repeat past LONG: a judged stream holds the next document while it
    # hands one out (lint: is it the file's last?), so both measured points
    # are followed by the same game (at the stream's end nothing is held).
    games = _corpus(LONG + 1)
    per_repeat = len(games) // (LONG + 1)
    folder = tmp_path_factory.mktemp("archive-memory")
    jsonl, yaml = folder / "games.jsonl", folder / "games.yaml"
    jsonl.write_text("".join(to_jsonl(g) for g in games), encoding="utf-8")
    yaml.write_text(to_yaml_stream(games), encoding="utf-8")
    return {"jsonl": (jsonl, per_repeat), "yaml": (yaml, per_repeat)}


def _held(items: Any, consumer: Consumer, per_repeat: int) -> tuple[int, int]:
    """The live bytes after SHORT and after LONG repeats read (the first
    repeat, a warm-up: imports, caches), the consumer alive, the collector off."""
    seen: list[int] = []

    def measured(it: Iterator[Any]) -> Iterator[Any]:
        for n, c in enumerate(it, 1):
            yield c
            del c
            if n in (SHORT * per_repeat, LONG * per_repeat):
                seen.append(heap()[0])

    with collector_off():
        drive(measured(items), consumer)
    assert len(seen) == 2
    return seen[0], seen[1]


@pytest.fixture()
def null() -> Iterator[Any]:
    with open(os.devnull, "w", encoding="utf-8") as f:
        yield f


def _find(path: Path, per_repeat: int, null: Any, cond: Conditions, sink: Any) -> tuple[int, int]:
    fmt = sink.fmt if isinstance(sink, JsonlRecords) else None
    with records_in_order([str(path)], 1, ToFind(cond, fmt), Judge()) as items:
        return _held(items, Finding(sink, cond, null), per_repeat)


@pytest.mark.parametrize("kind", ["jsonl", "yaml"])
def test_find_keeps_nothing_per_game(streams: dict[str, tuple[Path, int]], null: Any, kind: str) -> None:
    path, per_repeat = streams[kind]
    cond = Conditions(players=("Ann",))
    short, long = _find(path, per_repeat, null, cond, JsonlRecords(null, null))
    assert long - short <= SLACK, f"{long - short:,} bytes more after {LONG} repeats than after {SHORT}"


def test_find_by_hand_keeps_nothing_per_game(streams: dict[str, tuple[Path, int]], null: Any) -> None:
    path, per_repeat = streams["jsonl"]
    cond = Conditions(made=False)  # every hand's results: the full replay
    short, long = _find(path, per_repeat, null, cond, Paths(null, null))
    assert long - short <= SLACK, f"{long - short:,} bytes more after {LONG} repeats than after {SHORT}"


@pytest.mark.parametrize(("kind", "to"), [("jsonl", "yaml"), ("yaml", "jsonl"), ("yaml", "yaml")])
def test_convert_keeps_nothing_per_game(streams: dict[str, tuple[Path, int]], null: Any, kind: str,
                                        to: str) -> None:
    path, per_repeat = streams[kind]
    with records_in_order([str(path)], 1, ToConvert(to), Judge()) as items:
        short, long = _held(items, Converting(null, null, to), per_repeat)
    assert long - short <= SLACK, f"{long - short:,} bytes more after {LONG} repeats than after {SHORT}"


def test_dedup_keeps_its_keys_only(streams: dict[str, tuple[Path, int]], null: Any) -> None:
    path, per_repeat = streams["jsonl"]
    with keys_in_order([str(path)], 1, Judge()) as items:
        short, long = _held(items, Deduping(write_json, null), per_repeat)
    games = (LONG - SHORT) * (per_repeat - 2)  # the two invalid records of each repeat are not compared
    per_game = (long - short) / games
    assert per_game <= DEDUP_PER_GAME, f"dedup holds {per_game:.0f} bytes per distinct game"


def test_the_check_sees_what_a_consumer_keeps(streams: dict[str, tuple[Path, int]], null: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Not vacuous: a convert that keeps 200 bytes of every game fails it."""
    kept: list[bytearray] = []
    game = Converting.game
    monkeypatch.setattr(Converting, "game", lambda self, c: (kept.append(bytearray(200)), game(self, c)))
    path, per_repeat = streams["jsonl"]
    with records_in_order([str(path)], 1, ToConvert("jsonl"), Judge()) as items:
        short, long = _held(items, Converting(null, null, "jsonl"), per_repeat)
    assert long - short > SLACK
