"""The package's own data files (``pitchcli/data/``): the schemas, the rule
book, the codes and the profiles.

They are read from beside this module rather than through
``importlib.resources``: pitchcli is installed as files (a wheel unpacked into
site-packages, or an editable checkout), never run from a zip, and
``importlib.resources`` with the ``zipfile``, ``tempfile`` and ``shutil`` it
imports cost about 4 ms of every ``pitch`` run's start-up (issue 22), more than
reading the file itself.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).parent / "data"


def data_path(name: str) -> Path:
    """The path of the data file ``name`` (e.g. ``"profiles.toml"``)."""
    return DATA / name


def data_text(name: str) -> str:
    """The text of the data file ``name`` (UTF-8)."""
    return data_path(name).read_text(encoding="utf-8")
