"""The one folder walk every command uses (validate, score, fmt, summarize).

A folder named on the command line is searched recursively for record files
(``.yaml .yml .json .jsonl .ndjson``, not hidden), in sorted order so that the
output is stable. What a walk finds that can't be read as a file is reported,
never skipped in silence:

- a FIFO, socket or device with a record suffix is skipped with a warning
  (``L113``): opening a FIFO would wait for a writer for ever. Named on the
  command line, the same file is read, as ``cat`` would;
- a folder that can't be listed (no permission) is ``L101``, as an unreadable
  file is (exit 3);
- a symbolic link to a folder is followed, once: a folder reached a second
  time (a loop, or another link to a folder already searched) is skipped with
  a warning (``L113``), so no file is counted twice and no walk is endless;
- a file reached a second time — the same device and inode: named twice, a
  folder and a file in it both named (``summarize DIR DIR/a.yaml``), a hard
  link or a link to a file — is skipped with a warning (``L113``): the games
  of one file are counted once, by the first name the command reads it by.

``Seen`` holds what one command line has reached, across all its paths: the
folders searched and the files read (each as one integer, a file with the
name it was first read by, for the warning: about 160 bytes a file). That is
all a walk keeps per file (``walk``): ``tests/pipeline/test_walk_lazy.py``
measures it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterable, Iterator

from pitchcli.diagnostics import ERROR, WARNING, Diagnostic

RECORD_SUFFIXES = (".yaml", ".yml", ".json", ".jsonl", ".ndjson")
SKIPPED = "L113"

_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"))


def kind_of(mode: int) -> str:
    """``a FIFO``, ``a socket``, ... for a file that is not a regular file."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _note(path: str, code: str, message: str, severity: str) -> Diagnostic:
    return Diagnostic(code, message, severity=severity, file=path, document=0)


def _key(info: os.stat_result) -> int:
    """A file's identity (device and inode) as one int: the smallest thing to keep."""
    return (info.st_dev << 64) | info.st_ino


class Seen:
    """The folders searched and the files read by one command line, so that
    each is read once; ``exclude``: the command's output file, which a folder
    walk does not read (``summarize --partial -o DIR/part.json DIR`` run again
    must not count its earlier output)."""

    def __init__(self, exclude: str | None = None) -> None:
        self.folders: set[int] = set()
        self.files: dict[int, str] = {}
        self.excluded: int | None = None
        if exclude is not None:
            with contextlib.suppress(OSError, ValueError):  # no such file yet: nothing to leave out
                self.excluded = _key(os.stat(exclude))

    def again(self, path: str, info: os.stat_result) -> Diagnostic | None:
        """None the first time the regular file ``info`` is reached (now by
        ``path``); the warning that skips it any later time."""
        key = _key(info)
        first = self.files.get(key)
        if first is None:
            self.files[key] = path
            return None
        why = ("named twice, already read" if first == path
               else f"the same file as {first}, already read (a second way in)")
        return _note(path, SKIPPED, f"skipped: {why}", WARNING)

    def named(self, path: str) -> str | Diagnostic:
        """A file named on the command line: ``path`` to read it, or the
        warning when it was reached before. What can't be stat'ed, or is not
        a regular file (a FIFO named is read, as ``cat`` would), is passed on
        as it is: the loader says what it is."""
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            return path
        if not stat.S_ISREG(info.st_mode):
            return path
        return self.again(path, info) or path


def walk(top: str, seen: Seen | None = None) -> Iterator[tuple[str, str | Diagnostic]]:
    """``(name, path)`` for every record file under the folder ``top``, or
    ``(name, diagnostic)`` for what was skipped or could not be read; sorted
    by name. ``seen``: what this command line has reached already (a folder
    or file reached again is skipped with a warning).

    Two passes, so that memory grows with the folders, not the files (a
    league's archive of a million one-game files once held a ``stat`` of each,
    about 1 KB a file, before the first was read): the first decides every
    folder (``_folders``); the second lists each folder again as the walk
    reaches it and yields its files in order, each looked at (``os.stat``)
    only when it is yielded. The names are in sorted order across folders
    (``top/a-b.yaml`` before ``top/a/c.yaml``): a folder's entries are sorted
    with each searched folder's name followed by ``/``, which is where every
    path under it sorts among its neighbours."""
    seen = seen if seen is not None else Seen()
    decided = _folders(top, seen)
    first = decided[top]
    listing = _listing(top, decided, seen) if first is None else first
    if isinstance(listing, Diagnostic):  # (not searched, or it could be listed a moment ago)
        yield top, listing
        return
    stack: list[tuple[str, Iterator[tuple[str, int]]]] = [(top, iter(listing))]
    while stack:
        folder, entries = stack[-1]
        step = next(entries, None)
        if step is None:
            stack.pop()
            continue
        name, kind = step
        path = os.path.join(folder, name.removesuffix("/"))
        if kind == _FILE:
            found = _file(path, seen)
            if found is not None:
                yield path, found
        elif kind == _SKIPPED_FOLDER:
            problem = decided[path]
            if problem is not None:
                yield path, problem
        else:
            listing = _listing(path, decided, seen)
            if isinstance(listing, Diagnostic):  # (it could be listed a moment ago)
                yield path, listing
            else:
                stack.append((path, iter(listing)))


_FILE, _FOLDER, _SKIPPED_FOLDER = 0, 1, 2


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()  # follows a link
    except OSError:
        return False


def _cannot_list(folder: str, e: OSError) -> Diagnostic:
    return _note(folder, "L101", f"cannot read the folder: {e.strerror or e}", ERROR)


def _enter(folder: str, seen: Seen) -> Diagnostic | None:
    """Why ``folder`` is not searched (it can't be read, or was reached
    before), or None; a folder searched is added to ``seen``."""
    try:
        key = _key(os.stat(folder))
    except OSError as e:
        return _cannot_list(folder, e)
    if key in seen.folders:
        return _note(folder, SKIPPED, "skipped: a folder already searched (a loop, or a second way in)", WARNING)
    seen.folders.add(key)
    return None


def _folders(top: str, seen: Seen) -> dict[str, Diagnostic | None]:
    """Every folder under ``top`` (itself included, links to folders
    followed once), each with why it is not searched or None: decided in
    the order the first way into a folder wins, depth first, each folder's
    subfolders in name order. Only the folders are kept."""
    decided: dict[str, Diagnostic | None] = {}
    pending = [top]
    while pending:
        folder = pending.pop()
        problem = _enter(folder, seen)
        subfolders: list[str] = []
        if problem is None:
            try:
                with os.scandir(folder) as it:
                    subfolders = sorted(e.name for e in it if _is_dir(e))
            except OSError as e:
                problem = _cannot_list(folder, e)
        decided[folder] = problem
        pending += [os.path.join(folder, name) for name in reversed(subfolders)]
    return decided


def _listing(folder: str, decided: dict[str, Diagnostic | None], seen: Seen) -> list[tuple[str, int]] | Diagnostic:
    """The record files and subfolders of a searched folder as (sort key,
    kind), in the walk's order (see ``walk``); the diagnostic when it can no
    longer be listed."""
    keyed: list[tuple[str, int]] = []
    try:
        with os.scandir(folder) as it:
            for entry in it:
                name = entry.name
                if _is_dir(entry):
                    path = os.path.join(folder, name)
                    if path not in decided:  # (made since the first pass: decided now)
                        decided[path] = _enter(path, seen)
                    if decided[path] is None:
                        keyed.append((name + "/", _FOLDER))
                    else:
                        keyed.append((name, _SKIPPED_FOLDER))
                elif name.endswith(RECORD_SUFFIXES) and not name.startswith("."):
                    keyed.append((name, _FILE))
    except OSError as e:
        return _cannot_list(folder, e)
    keyed.sort()
    return keyed


def _file(path: str, seen: Seen) -> str | Diagnostic | None:
    """What the walk yields for the record file at ``path``: the path to read,
    the warning that skips it, or None (the command's own output)."""
    try:
        info = os.stat(path)
    except OSError:
        return path  # a dangling link: the loader says it can't be opened
    if not stat.S_ISREG(info.st_mode):
        return _note(path, SKIPPED, f"skipped: {kind_of(info.st_mode)}, not a regular file "
                     "(name it on the command line to read it)", WARNING)
    if _key(info) == seen.excluded:
        return None
    # A file reached again is decided in the order the command reads the
    # files: the first name read wins.
    return seen.again(path, info) or path


# How much of an existing output found in a read folder is looked at to
# tell a record (an input: never replaced) from an earlier output of a
# command (a summary, a partial: replaced, as before).
PEEK_BYTES = 1 << 20
_RECORD_MARK = b"pitch-record/"


def input_named(output: str, paths: Iterable[str]) -> str | None:
    """The input among ``paths`` that is the same file as ``output``, if any:
    writing the output would replace that input. An input is a file named on
    the command line, standard input (``-``) redirected from a file, or a
    record a folder named on the command line holds: a regular file under
    it with a record suffix that a walk reads (``summarize DIR -o DIR/a.yaml``
    would replace the record ``a.yaml``). A walk does not read the output
    (see ``Seen``), so an earlier output of the command in the folder (a
    summary, a partial: a ``.json`` with no ``pitch-record/`` in its first
    MiB) is no input and is replaced, as before. Only a regular file can be
    replaced (a device or a FIFO is written to, as ``/dev/stdout`` is)."""
    try:
        info = os.stat(output)
    except (OSError, ValueError):
        return None  # not there yet: nothing to replace
    if not stat.S_ISREG(info.st_mode):
        return None
    for p in paths:
        try:
            other = os.fstat(sys.stdin.fileno()) if p == "-" else os.stat(p)
        except (OSError, ValueError, AttributeError):
            continue
        if stat.S_ISREG(other.st_mode) and _key(other) == _key(info):
            return "standard input" if p == "-" else p
        if stat.S_ISDIR(other.st_mode) and _under(output, p) and _holds_record(output):
            return f"a record in {p}, which is read"
    return None


def _under(output: str, folder: str) -> bool:
    """Whether a walk of ``folder`` reaches ``output`` by its real path and
    would read it (a record suffix, not hidden)."""
    name = os.path.basename(output)
    if not name.endswith(RECORD_SUFFIXES) or name.startswith("."):
        return False
    try:
        real, top = os.path.realpath(output), os.path.realpath(folder)
    except (OSError, ValueError):
        return False
    return real.startswith(top.rstrip(os.sep) + os.sep)


def _holds_record(path: str) -> bool:
    """Whether the file is (or may be) a record: a YAML file or a stream of
    JSON Lines always may be; a ``.json`` is one if it names the format. A
    file that can't be read is taken to be one (never replace on a guess)."""
    if not path.endswith(".json"):
        return True
    try:
        with open(path, "rb") as f:
            return _RECORD_MARK in f.read(PEEK_BYTES)
    except OSError:
        return True
