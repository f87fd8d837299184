"""A signal while an output is written leaves no temporary file (issue 27, item 17).

About once in 30 runs, SIGTERM during ``pitch report`` left a ``.pitch-*.tmp``
behind: ``mkstemp`` ran before the ``try`` that removes the file, and the
handler (which raises ``Stopped`` where the main thread is) could fire after
the file was made and before its name was known. The window is made
deterministic here: the signal is sent from inside ``mkstemp``, right after
the file exists, for every command that writes through ``atomic_output``.
"""

from __future__ import annotations

import os
import signal
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pitchcli.cli import main
from pitchcli.record import write

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "samples" / "auction-full.yaml"


def _partial(tmp: Path) -> Path:
    part = tmp / "in" / "part.json"
    part.parent.mkdir(exist_ok=True)
    r = CliRunner().invoke(main, ["summarize", "--partial", "-o", str(part), str(GAME)])
    assert r.exit_code == 0, r.output
    return part


def _compact(tmp: Path) -> Path:
    """The game as compact JSON: not canonical, so --in-place rewrites it."""
    import json

    from pitchcli.record.load import load_documents

    (doc,) = [d for d in load_documents(str(GAME)) if d.data is not None]
    path = tmp / "out" / "g.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(doc.data, separators=(",", ":")), encoding="utf-8")
    return path


# Each command that writes a file, as (arguments, the folder it writes in).
COMMANDS: dict[str, Any] = {
    "report": lambda t: (["report", str(GAME), "-o", str(t / "out")], t / "out"),
    "chart": lambda t: (["chart", str(GAME), "-o", str(t / "out" / "race.svg")], t / "out"),
    "fmt --in-place": lambda t: (["fmt", "--in-place", str(_compact(t))], t / "out"),
    "fmt -o": lambda t: (["fmt", str(GAME), "-o", str(t / "out" / "g.yaml")], t / "out"),
    "summarize -o": lambda t: (["summarize", str(GAME), "-o", str(t / "out" / "s.txt")], t / "out"),
    "merge -o": lambda t: (["merge", str(_partial(t)), "-o", str(t / "out" / "m.txt")], t / "out"),
    "simulate -o": lambda t: (["simulate", "--variant", "auction", "--games", "1",
                               "-o", str(t / "out" / "sim.jsonl")], t / "out"),
    "new -o": lambda t: (["new", "--variant", "auction", "--players", "Ann,Ben,Cal,Dot",
                          "-o", str(t / "out" / "new.yaml")], t / "out"),
}


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (the site is in folders), by its path inside it."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_sigterm_as_the_temporary_file_is_made_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    """SIGTERM arrives the moment the temporary file exists: exit 143, and the
    output folder holds no ``.pitch-*.tmp`` (nor a half-written output)."""
    args, folder = COMMANDS[command](tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    before = _files(folder)
    made: list[str] = []
    real = tempfile.mkstemp

    def mkstemp(*a: Any, **kw: Any) -> tuple[int, str]:
        fd, name = real(*a, **kw)
        made.append(name)
        # To the main thread, as a signal reaches a process with one thread: in
        # the suite's process other tests' threads (Dask's) may be alive, and
        # the kernel would hand a process-wide signal to one of them, past the
        # main thread's mask (the handler then runs as soon as Python looks).
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGTERM)
        return fd, name

    monkeypatch.setattr(write.tempfile, "mkstemp", mkstemp)
    r = CliRunner().invoke(main, args)
    assert made, "the command wrote no file through atomic_output"
    assert r.exit_code == 128 + signal.SIGTERM, (r.exit_code, r.output, r.exception)
    assert _files(folder) == before  # no leftover, nothing half-written
    assert all(not os.path.exists(name) for name in made)
