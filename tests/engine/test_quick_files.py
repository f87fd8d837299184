"""A folder of one-game files is fed to the quick pass like a stream (issue 22),
and each file is still reported exactly as if it were checked alone.

``check_paths(..., quick=True)`` (``pitch validate``, ``dedup``, ``ratings``)
hands the documents of many files to the engine's quick pass in chunks
(``check.QUICK_CHUNK``); a file checked alone (``check_source``) of one game
is replayed in full. Here a folder of valid Auction games, JSON and YAML, with
every ``BREAKERS`` game of tests/engine/test_engine_quick.py among them and
files of every other kind (a stream of several games, a broken YAML file, an
empty file, a list, ten-point, a JSON Lines file), must give, file by file and
document by document, the diagnostics (all of their fields), counts and
verdicts of each file alone, in the same order, with chunks cut anywhere.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support import quick_streams
from support.games import values
from test_engine_quick import BREAKERS, _broken_game

from pitchcli.pipeline import check
from pitchcli.pipeline.check import Checked, check_paths, check_source, check_sources, iter_sources
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.document import Document

VALID = 70  # more than check.QUICK_MIN: the quick pass runs on the folder's files


def _write(path: Path, rec: Any, fmt: str) -> None:
    if fmt == "json":
        path.write_text(json.dumps(rec, ensure_ascii=False))
    else:
        path.write_bytes(quick_streams.stream([rec], "yaml").texts[0])


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Valid games, broken games and odd files, interleaved by name."""
    root = tmp_path_factory.mktemp("games")
    broken = [_broken_game(b, "auction", 4) for b in BREAKERS if ("auction", 4) in b.tables]
    n = 0
    for i in range(VALID):
        _write(root / f"g{n:04d}.{'json' if i % 2 else 'yaml'}", simulate_game("auction", seed=5000 + i), "json"
               if i % 2 else "yaml")
        n += 1
        if i % 3 == 0 and broken:
            bad = broken.pop()
            _write(root / f"g{n:04d}.{'yaml' if i % 2 else 'json'}", bad, "yaml" if i % 2 else "json")
            n += 1
    for k, bad in enumerate(broken):
        _write(root / f"z{k:04d}.json", bad, "json")
    two = quick_streams.stream([simulate_game("auction", seed=7001), broken_again()], "yaml")
    (root / "g0010-stream.yaml").write_bytes(two.raw)
    lines = quick_streams.stream([simulate_game("auction", seed=s) for s in (7002, 7003, 7004)], "jsonl")
    (root / "g0020-lines.jsonl").write_bytes(lines.raw)
    (root / "g0030-broken.yaml").write_text("players: [Ann, Ben\nhands: {\n")
    (root / "g0031-empty.yaml").write_text("")
    (root / "g0032-list.json").write_text("[1, 2, 3]")
    _write(root / "g0033-tenpoint.json", simulate_game("ten-point", seed=3), "json")
    _write(root / "g0034-partners.yaml", simulate_game("auction-partners", seed=3), "yaml")
    return root


def broken_again() -> dict[str, Any]:
    """A game with two claims off: inside a file of two documents."""
    rec = simulate_game("auction", seed=7010)
    rec["hands"][0]["totals"] = {p: 99 for p in rec["players"]}
    rec["result"]["winner"] = rec["players"][0] if rec["result"]["winner"] != rec["players"][0] else rec["players"][1]
    return rec


def _seen(c: Checked) -> tuple[object, ...]:
    """All a command can read of a checked document."""
    a = c.analysis
    return (c.file, c.index, c.diagnostics, c.errors, c.warnings, c.omitted_errors, c.omitted_warnings,
            c.omitted_claims, c.blocked, c.data,
            None if a is None else (a.totals, a.winner, a.winner_hand, a.table is None, len(a.violations)))


def _alone(folder: Path, max_errors: int | None) -> list[Checked]:
    return [c for name, source in iter_sources([str(folder)]) for c in check_source(name, source,
                                                                                     max_errors=max_errors)]


def _took_quick_pass(c: Checked) -> bool:
    return c.analysis is not None and c.analysis._replay is not None


@pytest.mark.parametrize(("chunk", "max_errors"), [(check.QUICK_CHUNK, None), (7, 1)])
def test_a_folder_is_checked_as_each_file_alone(folder: Path, chunk: int, max_errors: int | None,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The same documents, in the same order, with the same diagnostics, counts
    and verdicts; chunks cut inside a file of several documents too."""
    monkeypatch.setattr(check, "QUICK_CHUNK", chunk)
    if chunk < check.QUICK_MIN:
        monkeypatch.setattr(check, "QUICK_MIN", 1)  # small chunks still go to the quick pass
    together = list(check_paths([str(folder)], max_errors=max_errors, quick=True))
    alone = _alone(folder, max_errors)
    assert [_seen(c) for c in together] == [_seen(c) for c in alone]
    assert any(c.diagnostics for c in together) and any(c.errors for c in together)
    # The valid Auction games were decided by the quick pass, and their hands
    # (replayed in full when read) are the full replay's.
    decided = [c for c in together if _took_quick_pass(c)]
    assert len(decided) >= VALID
    by_place = {(c.file, c.index): c for c in alone}
    for c in decided[:5]:
        full = by_place[c.file, c.index].analysis
        assert full is not None and c.analysis is not None
        assert values(c.analysis.hands) == values(full.hands) and c.analysis.end == full.end


def test_each_file_alone_is_not_quick(folder: Path) -> None:
    """(What makes the test above a test: a one-game file alone is replayed in full.)"""
    assert not any(_took_quick_pass(c) for c in _alone(folder, None))


def test_a_folder_is_read_a_chunk_at_a_time(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory stays flat: the first file's result comes before more than a
    chunk of files has been read."""
    monkeypatch.setattr(check, "QUICK_CHUNK", 8)
    read = 0

    def sources() -> Iterator[tuple[str, Any]]:
        nonlocal read
        for name, source in iter_sources([str(folder)]):
            read += 1
            yield name, source

    found = check_sources(sources())
    next(found)
    assert read <= 9
    assert len(list(found)) + 1 == len(_alone(folder, None))


SMALL_CHUNK = 16


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of ``SMALL_CHUNK`` documents, each decided by the quick pass."""
    monkeypatch.setattr(check, "QUICK_CHUNK", SMALL_CHUNK)
    monkeypatch.setattr(check, "QUICK_MIN", SMALL_CHUNK)


def _documents_alive() -> int:
    return sum(isinstance(o, Document) for o in gc.get_objects())


@pytest.mark.usefixtures("small_chunks")
def test_a_chunk_is_let_go_before_the_next_is_read(folder: Path) -> None:
    """A chunk's documents are freed once it is checked, before the next chunk
    is read: a run holds one chunk, not two (check.py, after ``QUICK_YAML``).
    Counted as each file is asked for: the documents alive then are at most
    those of the chunk being read and the last one handed on."""
    alive: list[int] = []

    def sources() -> Iterator[tuple[str, Any]]:
        for name, source in iter_sources([str(folder)]):
            alive.append(_documents_alive())
            yield name, source

    for c in check_sources(sources()):
        del c
    assert len(alive) > 3 * SMALL_CHUNK  # (several chunks were read)
    assert max(alive) <= SMALL_CHUNK + 4, max(alive)


@pytest.mark.usefixtures("small_chunks")
def test_a_stream_lets_go_of_a_chunk_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same for the documents of one stream (``check_source``, as ``pitch
    validate -`` and a worker's piece read): counted as each document is read."""
    games = [simulate_game("auction", seed=n) for n in range(4 * SMALL_CHUNK)]
    text = "".join(json.dumps(g) + "\n" for g in games).encode()
    alive: list[int] = []
    load = check.load_documents

    def counted(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for item in load(*args, **kwargs):
            alive.append(_documents_alive())
            yield item

    monkeypatch.setattr(check, "load_documents", counted)
    verdicts = [c.valid() for c in check_source("games.jsonl", text, quick=True)]
    assert verdicts == [True] * len(games)
    assert max(alive) <= SMALL_CHUNK + 4, max(alive)


def test_a_chunk_is_cut_by_its_text_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks are bounded by the text their documents were read from
    (``Document.size``, ``check.QUICK_BYTES``) as well as by their count and
    hands: a stream of big games is cut sooner, and a chunk full by its text
    goes to the quick pass as a full chunk of documents does."""
    games = [simulate_game("ten-point", seed=n) for n in range(12)]
    lines = [json.dumps(g) for g in games]
    text = "".join(line + "\n" for line in lines).encode()
    budget = sum(map(len, lines[:3]))  # three games' text a chunk (ASCII: a character a byte)
    monkeypatch.setattr(check, "QUICK_BYTES", budget)
    cut: list[list[int]] = []  # each chunk's documents' sizes
    chunk_check = check.check_chunk

    def recorded(items: list[Any], *args: Any) -> Iterator[Any]:
        cut.append([it.size for it in items])
        return chunk_check(items, *args)

    monkeypatch.setattr(check, "check_chunk", recorded)
    found = list(check_source("games.jsonl", text, quick=True))
    assert [c.valid() for c in found] == [True] * len(games)
    assert len(cut) >= 3 and sum(map(len, cut)) == len(games)
    for sizes in cut[:-1]:  # each cut at the document that brought it to the budget
        assert sum(sizes[:-1]) < budget <= sum(sizes), (sizes, budget)
    assert all(_took_quick_pass(c) for c in found)  # (each chunk full by its text: quick)
    loaded = next(iter(check.load_documents(text, name="games.jsonl")))
    assert loaded.size == len(lines[0])  # (the line's text)


@pytest.mark.parametrize("comment", ["", "# pitch: ignore[C502]\n"])
def test_a_yaml_document_is_as_big_as_its_text(comment: str) -> None:
    """``Document.size`` of YAML, read by the compiled parser or (a
    suppression comment in it) composed by the locating loader: its bytes."""
    text = comment.encode() + quick_streams.stream([simulate_game("auction", seed=1)], "yaml").texts[0]
    doc, = check.load_documents(text, name="game.yaml")
    assert doc.size == len(text)
