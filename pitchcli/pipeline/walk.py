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
  a warning (``L113``), so no file is counted twice and no walk is endless.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator

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


def walk(top: str) -> Iterator[tuple[str, str | Diagnostic]]:
    """``(name, path)`` for every record file under the folder ``top``, or
    ``(name, diagnostic)`` for what was skipped or could not be read; sorted
    by name."""
    found: list[tuple[str, str | Diagnostic]] = []
    seen: set[tuple[int, int]] = set()
    pending = [top]
    while pending:
        folder = pending.pop()
        try:
            info = os.stat(folder)
            if (info.st_dev, info.st_ino) in seen:
                found.append((folder, _note(folder, SKIPPED, "skipped: a link to a folder already searched "
                                            "(a loop, or a second way in)", WARNING)))
                continue
            seen.add((info.st_dev, info.st_ino))
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as e:
            found.append((folder, _note(folder, "L101", f"cannot read the folder: {e.strerror or e}", ERROR)))
            continue
        subfolders = []
        for entry in entries:
            path = os.path.join(folder, entry.name)
            try:
                is_dir = entry.is_dir()  # follows a link
            except OSError:
                is_dir = False
            if is_dir:
                subfolders.append(path)
            elif entry.name.endswith(RECORD_SUFFIXES) and not entry.name.startswith("."):
                try:
                    mode = entry.stat().st_mode
                except OSError:
                    mode = stat.S_IFREG  # a dangling link: the loader says it can't be opened
                if stat.S_ISREG(mode):
                    found.append((path, path))
                else:
                    found.append((path, _note(path, SKIPPED, f"skipped: {kind_of(mode)}, not a regular file "
                                              "(name it on the command line to read it)", WARNING)))
        pending += reversed(subfolders)  # searched in name order: the first way into a folder wins
    found.sort(key=lambda item: item[0])
    return iter(found)
