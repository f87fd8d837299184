"""The ``pitch`` program, and only it, asks glibc to keep the memory a batch
frees once the quick pass begins (pitchcli/gcpolicy.py, issue 22); a library
host's allocator is left alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pitchcli import gcpolicy, program
from pitchcli.pipeline import check
from pitchcli.pipeline.simulate import simulate_game

GAMES = check.QUICK_MIN + check.QUICK_CHUNK  # two chunks: the quick pass begins, then goes on


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The ``mallopt`` calls made, from a fresh process's state (nothing set yet)."""
    made: list[tuple[int, int]] = []
    monkeypatch.setattr(program, "_claimed", False)
    monkeypatch.setattr(gcpolicy, "_kept", False)
    monkeypatch.setattr(gcpolicy, "_glibc_mallopt", lambda: lambda param, value: made.append((param, value)) or 1)
    monkeypatch.setattr(gcpolicy.gc, "set_threshold", lambda *args: None)  # (the test process's collector stays)
    return made


@pytest.fixture(scope="module")
def stream(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("batch") / "night.jsonl"
    path.write_text("".join(json.dumps(simulate_game("auction", players=4, seed=s)) + "\n" for s in range(GAMES)),
                    encoding="utf-8")
    return path


def _validate(path: Path) -> list[int]:
    return [c.errors for c in check.check_paths([str(path)], quick=True)]


def test_a_library_host_keeps_its_allocator(calls: list[tuple[int, int]], stream: Path) -> None:
    assert _validate(stream) == [0] * GAMES
    assert calls == []


def test_the_program_sets_it_once_when_the_quick_pass_begins(calls: list[tuple[int, int]], stream: Path) -> None:
    program.claim()
    assert calls == []  # not at start-up: a run of one file never pays for it
    assert _validate(stream) == [0] * GAMES
    assert sorted(calls) == sorted([(-3, gcpolicy.MAPPED_FROM), (-1, gcpolicy.KEEP_FREED), (-2, gcpolicy.HEAP_STEP)])
    assert _validate(stream) == [0] * GAMES
    assert len(calls) == 3  # once a process


def test_a_small_run_leaves_the_allocator_alone(calls: list[tuple[int, int]], tmp_path: Path) -> None:
    program.claim()
    one = tmp_path / "one.json"
    one.write_text(json.dumps(simulate_game("auction", players=4, seed=1)), encoding="utf-8")
    assert _validate(one) == [0]  # replayed in full: no batch
    assert calls == []


def test_no_mallopt_but_glibcs(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_glibc(name: str) -> str:
        raise ValueError(name)

    monkeypatch.setattr(gcpolicy.os, "confstr", not_glibc)
    assert gcpolicy._glibc_mallopt() is None
    monkeypatch.setattr(gcpolicy.os, "confstr", lambda name: None)
    assert gcpolicy._glibc_mallopt() is None


@pytest.mark.skipif(not hasattr(os, "confstr") or "CS_GNU_LIBC_VERSION" not in os.confstr_names,
                    reason="not glibc")
def test_glibcs_mallopt_takes_the_settings() -> None:
    if not os.confstr("CS_GNU_LIBC_VERSION"):
        pytest.skip("not glibc")
    # In a process of its own: the settings are for the process (glibc answers 1 for each it takes).
    code = ("from pitchcli import gcpolicy as g; m = g._glibc_mallopt(); "
            "print([m(-3, g.MAPPED_FROM), m(-1, g.KEEP_FREED), m(-2, g.HEAP_STEP)])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[1, 1, 1]"
