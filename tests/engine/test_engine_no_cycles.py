"""The engine leaves no reference cycle behind: a replayed hand is freed by its
reference count the moment nothing reads it.

Why it matters: a cycle per hand (the lazy tricks once referred back to their
hand's state) leaves every hand to the cyclic garbage collector, which then
walks all of them again and again; it made `pitch validate` of ten-point
records slower than before the engine kept cards as ints. The test counts what
the collector finds after the engine ran with the collector off: zero.
"""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from support.collect import collector_off

from pitchcli.pipeline.feed import analyze
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.load import Document, load_documents

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def engine_cycles() -> int:
    """What the collector finds now that the engine made: the objects of
    pitchcli's own types among the garbage (another test's threads, such as a
    Dask cluster's, may leave cycles of their own meanwhile)."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = sum(1 for o in gc.garbage if type(o).__module__.startswith("pitchcli"))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    return found


def _records() -> list[tuple[str, dict]]:
    out = []
    for path in sorted(SAMPLES.glob("*.yaml")) + sorted((SAMPLES.parent / "samples-invalid").glob("*.yaml")):
        for doc in load_documents(str(path), name=str(path)):
            if isinstance(doc, Document) and isinstance(doc.data, dict):
                out.append((path.name, doc.data))
    for variant in ("auction", "ten-point", "ten-point-5"):
        out += [(f"{variant}-{seed}", simulate_game(variant, seed=seed)) for seed in range(3)]
    return out


@pytest.mark.parametrize(("name", "record"), _records(), ids=lambda x: x if isinstance(x, str) else "")
def test_a_replayed_record_leaves_no_cycle(name: str, record: dict) -> None:
    with collector_off():
        analyze(record, quick=True)  # validate's way: the results dropped unread
        assert engine_cycles() == 0
        analyze(record)
        assert engine_cycles() == 0
        a = analyze(record)
        for h in a.hands:  # a view's way: the lazy tricks made, then dropped
            if h is not None:
                list(h.tricks)
        del a
        h = None
        assert engine_cycles() == 0


def test_the_check_sees_a_cycle() -> None:
    """Not vacuous: a hand result kept in a cycle is found."""
    record = simulate_game("auction", seed=1)
    with collector_off():
        a = analyze(record)
        cycle: list[object] = [a]
        cycle.append(cycle)
        del a, cycle
        assert engine_cycles() > 0
