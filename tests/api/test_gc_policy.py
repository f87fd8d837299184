"""The library's batch readers raise the cycle collector's threshold while they
work and give the caller's back between documents (pitchcli/gcpolicy.py)."""

from __future__ import annotations

import gc
import io
from collections.abc import Iterator
from pathlib import Path

import pytest

import pitchcli
from pitchcli.gcpolicy import BATCH

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "auction-full.yaml"


class Watched(io.BytesIO):
    """A record source that notes the collector's threshold whenever it is read
    (by any of its reading methods)."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.seen: list[int] = []

    def read(self, n: int | None = -1) -> bytes:
        self.seen.append(gc.get_threshold()[0])
        return super().read(n)

    def readline(self, n: int | None = -1) -> bytes:
        self.seen.append(gc.get_threshold()[0])
        return super().readline(n)

    def read1(self, n: int = -1) -> bytes:  # a YAML stream is read in blocks (yaml_stream)
        self.seen.append(gc.get_threshold()[0])
        return super().read1(n)


@pytest.fixture
def caller_threshold() -> Iterator[tuple[int, int, int]]:
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield gc.get_threshold()
    gc.set_threshold(*before)


@pytest.mark.parametrize("reader", ["read", "validate", "score"])
def test_the_batch_threshold_holds_while_reading_and_the_callers_between(
        reader: str, caller_threshold: tuple[int, int, int]) -> None:
    source = Watched(SAMPLE.read_bytes() + b"---\n" + SAMPLE.read_bytes())
    got = 0
    for _ in getattr(pitchcli, reader)(source, name="two.yaml"):
        assert gc.get_threshold() == caller_threshold  # the caller's, while the caller runs
        got += 1
    assert got == 2
    assert gc.get_threshold() == caller_threshold
    assert source.seen and set(source.seen) == {BATCH[0]}  # every read of the file under the batch's


def test_a_caller_who_collects_less_often_keeps_that(caller_threshold: tuple[int, int, int]) -> None:
    gc.set_threshold(BATCH[0] * 5, 10, 10)
    source = Watched(SAMPLE.read_bytes())
    assert len(list(pitchcli.validate(source, name="one.yaml"))) == 1
    assert set(source.seen) == {BATCH[0] * 5}
    assert gc.get_threshold() == (BATCH[0] * 5, 10, 10)


def test_summarize_works_under_the_batch_threshold_and_gives_the_callers_back(
        caller_threshold: tuple[int, int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    import pitchcli.views.summarize as module

    seen: list[int] = []
    real = module.summarize_paths

    def watched(*args: object, **kwargs: object) -> object:
        seen.append(gc.get_threshold()[0])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "summarize_paths", watched)
    summary = pitchcli.summarize(SAMPLE)
    assert summary.counts["valid"] == 1
    assert seen == [BATCH[0]]
    assert gc.get_threshold() == caller_threshold
