"""A folder of the user's that a command writes many files into: it replaces
only the files it wrote, and a failed run leaves the last good set.

``pitch report -o DIR`` writes ``index.html`` and a page per event and game
into a folder that may hold anything. Before, it replaced an ``index.html``
or ``game-1.html`` it had never written, and a write that failed half way
left the old index over a mix of new and old pages. Now (``write_owned``):

- a manifest in the folder (``.pitch-report.json``) lists what the command
  wrote, each file with the SHA-256 of its content. A file that is there and
  is not in the manifest with that content (the user's, or a page edited
  since) is not replaced: the run writes nothing and says which file;
- every file is first written beside its target under a temporary name and
  flushed to disk; only when all are written are they renamed into place (the
  last one — the index — last). A failure while writing (a full disk) removes
  the temporary files: the folder is as it was;
- the manifest is written before the renames with both the old and the new
  content of each file (so a run killed between two renames leaves files the
  next run still knows as its own), and after them with the new only;
- files the manifest lists that this run doesn't write (the pages of games no
  longer there) are removed, when they still hold what was written.

The manifest is read bounded; one that is not what this module writes is no
manifest (nothing in the folder is then the command's own).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

from pitchcli.guard import signals_held
from pitchcli.record.read import TooLarge, read_bounded
from pitchcli.record.write import OutputError, Staged, check_replaceable

MANIFEST_FORMAT = "pitch-owned-files"
_CHUNK = 1 << 16


def _digest_file(path: Path) -> str | None:
    """The SHA-256 of a regular file's bytes (read in pieces), None when it
    can't be read."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            while chunk := f.read(_CHUNK):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


def _plain_name(name: object) -> bool:
    """A file's name inside the folder, ``/`` between its folders (a site in
    folders per event): nothing a manifest could use to reach outside it (an
    absolute name, ``..``, an empty part, another separator)."""
    if not isinstance(name, str) or "\0" in name or (os.sep != "/" and os.sep in name):
        return False
    parts = name.split("/")
    return all(part not in ("", ".", "..") for part in parts)


def _folders(folder: Path, name: str) -> list[Path]:
    """The folders ``name`` sits in under ``folder``, outermost first; each
    that is there already must be a real folder (not a link, nor a file):
    ``OutputError``."""
    out, here = [], folder
    for part in name.split("/")[:-1]:
        here = here / part
        if here.is_symlink() or (here.exists() and not here.is_dir()):
            raise OutputError(f"{here}: not a folder")
        out.append(here)
    return out


def _folders_for(folder: Path, name: str, made: list[Path]) -> None:
    """Make the folders ``name`` sits in under ``folder`` (``_folders``);
    each one made is added to ``made``."""
    for here in _folders(folder, name):
        if not here.exists():
            here.mkdir()
            made.append(here)


def read_manifest(path: Path) -> dict[str, set[str]]:
    """What the manifest at ``path`` says the command wrote: file name -> the
    digests of what it may hold. Empty when there is none, or it is not one."""
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode):
            return {}
        data = json.loads(read_bounded(str(path)))
    except (OSError, ValueError, TooLarge):
        return {}
    files = data.get("files") if isinstance(data, dict) and data.get("format") == MANIFEST_FORMAT else None
    if not isinstance(files, dict):
        return {}
    return {name: {d for d in digests if isinstance(d, str)} for name, digests in files.items()
            if _plain_name(name) and isinstance(digests, list)}


def _write_manifest(path: Path, files: Mapping[str, Iterable[str]]) -> None:
    staged: Staged | None = None
    try:
        with signals_held():  # (as in ``write_owned``: a signal waits until the file can be discarded)
            staged = Staged(path)
        staged.file.write(json.dumps({"format": MANIFEST_FORMAT, "version": 1,
                                      "files": {n: sorted(d) for n, d in sorted(files.items())}}, indent=1) + "\n")
        staged.commit()
    finally:
        if staged is not None:
            staged.discard()


def _foreign(target: Path, known: set[str]) -> bool:
    """Whether ``target`` exists and is not a file the command wrote (as the
    manifest knows it)."""
    try:
        os.lstat(target)
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return _digest_file(target) not in known


def write_owned(folder: Path, files: Mapping[str, str], manifest: str, command: str,
                last: str | None = None) -> list[Path]:
    """Write ``files`` (name -> text) into ``folder`` (see ``write_owned_stream``)."""
    return write_owned_stream(folder, list(files), files.items(), manifest, command, last)


def write_owned_stream(folder: Path, names: Iterable[str], texts: Iterable[tuple[str, str]], manifest: str,
                       command: str, last: str | None = None) -> list[Path]:
    """Write the files ``names`` into ``folder`` (created if missing) as the
    module docstring says, their texts made one at a time by ``texts`` (name,
    text) pairs in any order, each name once: a text is written to its
    temporary file and let go, so a thousand pages never sit in memory
    together. ``manifest``: the manifest's file name in it; ``command``: who
    writes, for the messages; ``last``: the file renamed into place last.
    Raises ``OutputError`` (nothing written) when a target is not a regular
    file or not the command's own, ``OSError`` when writing fails; every name
    is checked before the first text is asked for."""
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder}: not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    listed = folder / manifest
    check_replaceable(listed)
    owned = read_manifest(listed)
    names = sorted(names, key=lambda n: n == last)  # ``last`` at the end
    if len(set(names)) != len(names):
        raise ValueError("a file is named twice")
    for name in names:
        if not _plain_name(name):
            raise OutputError(f"{folder / name}: not a name inside {folder}")
        target = folder / name
        _folders(folder, name)  # checked before anything is written
        check_replaceable(target)
        if _foreign(target, owned.get(name, set())):
            raise OutputError(f"{target}: not written by {command} (or changed since); not replaced: "
                              f"remove it, or write into another folder")
    staged: dict[str, Staged] = {}
    made: list[Path] = []  # the folders this run made: removed again if it fails
    new: dict[str, tuple[str]] = {}  # (a tuple, not a set: a third of the memory, for a page a game)
    done = False
    wanted = set(names)
    try:
        for name, text in texts:
            if name not in wanted or name in staged:
                raise ValueError(f"{name}: not a file to write, or written twice")
            _folders_for(folder, name, made)
            with signals_held():  # a signal is delivered once the file is known here, to be discarded
                s = Staged(folder / name)
                staged[name] = s
            # The bytes the text file writes (UTF-8, surrogateescape, no newline
            # translation), encoded once for the file and its digest: a page is
            # some 100 KB, and encoding it took 0.09 ms.
            data = text.encode("utf-8", "surrogateescape")
            s.file.buffer.write(data)
            s.flush()
            new[name] = (hashlib.sha256(data).hexdigest(),)
        if len(staged) != len(names):
            raise ValueError(f"{len(names) - len(staged)} files named were not made")
        _write_manifest(listed, {**owned, **{n: owned.get(n, set()).union(d) for n, d in new.items()}})
        for name in names:
            staged[name].commit()
        done = True
    finally:
        for s in staged.values():
            s.discard()
        if not done:  # a failed run leaves the folder as it was: no empty folder of its own either
            for d in reversed(made):
                with contextlib.suppress(OSError):
                    d.rmdir()
    for name in sorted(set(owned) - wanted):  # what an earlier run wrote and this one doesn't
        stale = folder / name
        try:
            regular = stat.S_ISREG(os.lstat(stale).st_mode)
        except OSError:
            continue
        if regular and not _foreign(stale, owned[name]):
            stale.unlink(missing_ok=True)
    _write_manifest(listed, new)
    return [folder / name for name in names]
