"""``pitch summarize`` counts a clean game off the quick pass (issue 22).

A folder of one-game files is fed to the quick pass in chunks, as a stream
is, and a game it decided is counted from its verdict (``HandScore``) with no
full replay. The summary must be exactly the one counted from full replays:
compared in every format, for a folder of files of every level and with a
broken game among them, against the same run with the quick pass off.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import quick_streams

from pitchcli.pipeline import check, feed
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.views.summarize import summarize_paths

GAMES = 70  # more than check.QUICK_MIN: the chunk goes to the quick pass


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "night"
    folder.mkdir()
    levels = ["full", "play", "tally", "led"]  # (led: every trick written with its leader, as fmt --fill writes it)
    for seed in range(GAMES):
        rec = simulate_game("auction" if seed % 3 else "auction-partners", players=4, seed=seed)
        level = levels[seed % 4]
        if level != "full":
            rec = quick_streams.LEVELS[level](rec)
        rec.update(event="Night", date="2026-11-12")
        if seed == 5:  # one broken game: refused, listed, not counted
            rec["hands"][0]["dealer"] = "nobody"
        (folder / f"g{seed:03}.json").write_text(json.dumps(rec), encoding="utf-8")
    return folder


def _replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    runs: list[int] = []
    run = feed.Driver.run

    def counted(self: feed.Driver) -> feed.GameAnalysis:
        runs.append(1)
        return run(self)

    monkeypatch.setattr(feed.Driver, "run", counted)
    return runs


def test_a_folder_is_counted_off_the_quick_pass_as_by_full_replays(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    folder = str(_folder(tmp_path))
    runs = _replays(monkeypatch)
    quick = summarize_paths([folder]).to_json()
    assert len(runs) == 1  # the broken game alone was replayed
    monkeypatch.setattr(check, "QUICK_MIN", 10**9)  # the quick pass off: every game replayed
    monkeypatch.setattr(check, "QUICK_HANDS", 10**9)
    monkeypatch.setattr(check, "QUICK_BYTES", 10**12)
    full = summarize_paths([folder]).to_json()
    assert len(runs) == 1 + GAMES
    assert quick == full
    assert quick["counts"]["documents"] == GAMES
    assert len(quick["problems"]) == 1


def test_pieces_of_a_stream_for_workers_use_the_quick_pass(tmp_path: Path) -> None:
    stream = tmp_path / "all.jsonl"
    stream.write_text("".join(json.dumps(simulate_game("auction", players=4, seed=s)) + "\n"
                              for s in range(GAMES)), encoding="utf-8")
    one = summarize_paths([str(stream)]).to_json()
    assert summarize_paths([str(stream)], jobs=2).to_json() == one
