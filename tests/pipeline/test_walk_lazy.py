"""The folder walk keeps the folders, not the files (issue 22: `summarize` of a
folder, memory flat), and walks as it did.

Before, ``walk`` collected every file of the tree with its ``stat`` (about
1 KB a file: 9 MB more at the peak of `pitch summarize` over 10,000 one-game
files than over 2,000) and sorted them all before yielding the first. Now it
decides the folders first, then lists each folder again as it reaches it.

- The same output, in the same order, as the walk it replaced (``_reference``,
  kept here verbatim as the oracle) over random trees: names that sort across
  folders (``a``, ``a-b.yaml``, ``a.yaml``, ``a0``), hidden and other files,
  links to files and to folders (loops, second ways in), dangling links,
  FIFOs, a folder named twice, the command's own output left out.
- What the walk holds while it yields grows with the largest folder's names,
  not with the files' stats: measured by ``tracemalloc``.
"""

from __future__ import annotations

import os
import random
import stat
import tempfile
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from pitchcli.diagnostics import ERROR, WARNING, Diagnostic
from pitchcli.pipeline.walk import RECORD_SUFFIXES, SKIPPED, Seen, kind_of, walk

TREES = int(os.environ.get("PITCH_WALK_TREES", "60"))


def _reference(top: str, seen: Seen | None = None) -> Iterator[tuple[str, str | Diagnostic]]:
    """The walk before issue 22's change: every file collected with its stat, then sorted."""
    def note(path: str, code: str, message: str, severity: str) -> Diagnostic:
        return Diagnostic(code, message, severity=severity, file=path, document=0)

    def key(info: os.stat_result) -> int:
        return (info.st_dev << 64) | info.st_ino

    seen = seen if seen is not None else Seen()
    found: list[tuple[str, str | Diagnostic, os.stat_result | None]] = []
    pending = [top]
    while pending:
        folder = pending.pop()
        try:
            info = os.stat(folder)
            if key(info) in seen.folders:
                found.append((folder, note(folder, SKIPPED, "skipped: a folder already searched "
                                           "(a loop, or a second way in)", WARNING), None))
                continue
            seen.folders.add(key(info))
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as e:
            found.append((folder, note(folder, "L101", f"cannot read the folder: {e.strerror or e}", ERROR), None))
            continue
        subfolders = []
        for entry in entries:
            path = os.path.join(folder, entry.name)
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                subfolders.append(path)
            elif entry.name.endswith(RECORD_SUFFIXES) and not entry.name.startswith("."):
                try:
                    file_info: os.stat_result | None = entry.stat()
                except OSError:
                    file_info = None
                if file_info is None or stat.S_ISREG(file_info.st_mode):
                    if file_info is None or key(file_info) != seen.excluded:
                        found.append((path, path, file_info))
                else:
                    found.append((path, note(path, SKIPPED, f"skipped: {kind_of(file_info.st_mode)}, not a "
                                             "regular file (name it on the command line to read it)", WARNING),
                                  None))
        pending += reversed(subfolders)
    found.sort(key=lambda item: item[0])
    for name, source, file_info in found:
        yield name, (seen.again(name, file_info) or source) if file_info is not None else source


# Names chosen to sort across folders ("-" and "." sort before "/", "0" after), a
# name that is no UTF-8 (a byte read as a surrogate) and one with a line break.
NAMES = ["a", "a-b", "a.b", "a0", "b", "b b", ".h", "é", "z", "\udcff", "a\nb", "A"]
SUFFIXES = [".yaml", ".json", ".jsonl", ".txt", ""]


def _random_tree(root: Path, rng: random.Random) -> None:
    """A tree of folders and files, with links to files and folders (some
    looping back up), dangling links, a hard link and a FIFO."""
    folders = [root]
    files: list[Path] = []
    for _ in range(rng.randint(1, 14)):
        parent = rng.choice(folders)
        name = rng.choice(NAMES)
        if (parent / name).exists() or (parent / name).is_symlink():
            continue
        if rng.random() < 0.35 and len(folders) < 8:
            (parent / name).mkdir()
            folders.append(parent / name)
    for _ in range(rng.randint(0, 25)):
        parent = rng.choice(folders)
        path = parent / (rng.choice(NAMES) + rng.choice(SUFFIXES))
        if path.exists() or path.is_symlink():
            continue
        roll = rng.random()
        if roll < 0.7 or not files:
            path.write_text("x", encoding="utf-8")
            files.append(path)
        elif roll < 0.8:
            os.symlink(os.path.relpath(rng.choice(files), parent), path)
        elif roll < 0.87:
            os.symlink(os.path.relpath(rng.choice(folders), parent), path)  # a loop, or a second way in
        elif roll < 0.92:
            os.symlink("nowhere", path)
        elif roll < 0.96:
            os.link(rng.choice(files), path)
        else:
            os.mkfifo(path)


def _run(walker: object, paths: list[str], exclude: str | None) -> list[tuple[str, object]]:
    seen = Seen(exclude)
    out: list[tuple[str, object]] = []
    for p in paths:
        for name, source in walker(p, seen):  # type: ignore[operator]
            out.append((name, source.as_text() if isinstance(source, Diagnostic) else source))
    return out


@pytest.mark.parametrize("seed", range(TREES))
def test_the_walk_is_the_one_it_replaced(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    root = tmp_path / "top"
    root.mkdir()
    _random_tree(root, rng)
    everything = sorted(str(p) for p in root.rglob("*"))
    named = [str(root)]
    if everything and rng.random() < 0.5:
        named.append(rng.choice(everything))  # a folder or file in it named as well
    if rng.random() < 0.3:
        named.append(str(root))  # the folder named twice
    exclude = rng.choice(everything) if everything and rng.random() < 0.3 else None
    got = _run(walk, named, exclude)
    assert got == _run(_reference, named, exclude)


def test_the_trees_are_not_trivial(tmp_path: Path) -> None:
    """Not vacuous: the random trees hold every kind of item the walk yields
    (a file to read, a file read twice, a folder reached twice, a FIFO)."""
    said: set[str] = set()
    for seed in range(TREES):
        root = tmp_path / str(seed)
        root.mkdir()
        _random_tree(root, random.Random(seed))
        for _name, source in walk(str(root)):
            if isinstance(source, str):
                said.add("file")
            else:
                said.add(source.message.split(",")[0].split(" (")[0])
    assert {"file", "skipped: a folder already searched", "skipped: a FIFO"} <= said, said
    assert any(s.startswith("skipped: the same file as") for s in said), said


def test_a_folder_reached_across_neighbours_sorts_by_its_path(tmp_path: Path) -> None:
    """``top/a-b.yaml`` comes before ``top/a/x.yaml`` ("-" sorts before "/"),
    and ``top/a0.yaml`` after it."""
    for name in ("a/x.yaml", "a-b.yaml", "a0.yaml", "a.yaml"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("x", encoding="utf-8")
    names = [n for n, _ in walk(str(tmp_path))]
    assert names == sorted(names) == [str(tmp_path / n) for n in ("a-b.yaml", "a.yaml", "a/x.yaml", "a0.yaml")]


def _growth_a_file(tmp_path: Path, walker: object) -> float:
    """Bytes a file more that ``walker`` holds at its peak (tracemalloc) over
    50 folders of 100 files than over 10."""
    sizes = {}
    for n in (10, 50):
        top = tmp_path / str(n)
        for f in range(n):
            folder = top / f"event-{f:03d}"
            folder.mkdir(parents=True)
            for g in range(100):
                (folder / f"game-{g:03d}.yaml").write_bytes(b"")
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            for _ in walker(str(top), Seen()):  # type: ignore[operator]
                pass
            sizes[n] = tracemalloc.get_traced_memory()[1] - base
        finally:
            tracemalloc.stop()
    return (sizes[50] - sizes[10]) / 4000


def test_the_walk_holds_no_stat_of_the_files(tmp_path: Path) -> None:
    """What the walk holds at its peak grows by what ``Seen`` keeps of a file
    (its key and name, about 160 bytes), not by the 820 bytes a file the walk
    before held (each file's ``stat``, all at once)."""
    per_file = _growth_a_file(tmp_path, walk)
    assert per_file < 400, f"{per_file:.0f} bytes a file"


def test_the_measure_sees_a_walk_that_keeps_the_files(tmp_path: Path) -> None:
    """Not vacuous: the walk before (``_reference``) fails the bound."""
    assert _growth_a_file(tmp_path, _reference) >= 400


def test_a_deep_tree_is_walked_without_recursion() -> None:
    """1,200 folders one in another (deeper than Python's recursion limit):
    the walk keeps its own stack, and finds the file at the bottom. (Made
    outside pytest's temporary folders and removed here, deepest first:
    pytest's clean-up of its old folders recurses, and would fail on it.)"""
    top = Path(tempfile.mkdtemp(prefix="pitch-deep-"))
    folders = [top / "d"]
    for _ in range(1199):
        folders.append(folders[-1] / "d")
    try:
        for folder in folders:
            folder.mkdir()  # (one at a time: os.makedirs recurses)
        (folders[-1] / "game.yaml").write_text("x", encoding="utf-8")
        assert [n for n, _ in walk(str(top))] == [str(folders[-1] / "game.yaml")]
    finally:
        (folders[-1] / "game.yaml").unlink(missing_ok=True)
        for folder in reversed(folders):
            if folder.exists():
                folder.rmdir()
        top.rmdir()
