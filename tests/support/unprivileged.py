"""Running ``pitch`` as a user who is not root.

CI runs as root, and root may read and write (almost) anything: a test of an
unreadable input or a read-only output run as root tests nothing, since
``access()`` says yes. These helpers run the command in a child process as an
unprivileged user (``nobody``) when the tests run as root, and as the current
user otherwise; a test skips cleanly when neither is possible (no ``setpriv``
or ``runuser``, or ``nobody`` can't run this Python).

Files the child must see go in ``shared_folder()``: a fresh folder under the
system's temporary folder, open to every user (pytest's ``tmp_path`` is under
a folder only its owner may enter).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import pytest

USER, GROUP = "nobody", "nogroup"
TIMEOUT = 120


@cache
def _prefix() -> tuple[str, ...] | None:
    """The command prefix that drops root, or None when none works here."""
    if os.geteuid() != 0:
        return ()
    setpriv = shutil.which("setpriv")
    runuser = shutil.which("runuser")
    candidates = []
    if setpriv:
        candidates.append((setpriv, "--reuid", USER, "--regid", GROUP, "--clear-groups"))
    if runuser:
        candidates.append((runuser, "-u", USER, "--"))
    for prefix in candidates:
        try:
            done = subprocess.run([*prefix, sys.executable, "-c", "import os, pitchcli; print(os.geteuid())"],
                                  capture_output=True, text=True, timeout=TIMEOUT, cwd="/")
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0 and done.stdout.strip() not in ("", "0"):
            return prefix
    return None


def prefix_or_skip() -> tuple[str, ...]:
    """The prefix (empty when not root); skips the test when root can't be dropped."""
    found = _prefix()
    if found is None:
        pytest.skip(f"running as root and can't run Python as {USER!r} (setpriv/runuser)")
    return found


@contextmanager
def shared_folder() -> Iterator[Path]:
    """A fresh folder every user may enter and write (removed at the end)."""
    folder = Path(tempfile.mkdtemp(prefix="pitch-unprivileged-"))
    try:
        folder.chmod(0o777)
        yield folder
    finally:
        for p in folder.rglob("*"):  # give back what a test made unreadable, so it can be removed
            if not p.is_symlink():
                p.chmod(0o700 if p.is_dir() else 0o600)
        shutil.rmtree(folder, ignore_errors=True)


def pitch_unprivileged(*args: object, cwd: Path, input: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m pitchcli ARGS`` run as an unprivileged user in ``cwd``."""
    prefix = prefix_or_skip()
    return subprocess.run([*prefix, sys.executable, "-m", "pitchcli", *map(str, args)], cwd=cwd, input=input,
                          capture_output=True, timeout=TIMEOUT, text=True)
