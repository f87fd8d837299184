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

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

# (Text, not a ``Path``: ``pathlib`` with the ``urllib.parse`` and ``ipaddress``
# it imports is about 4 ms of CPU, which ``pitch validate ONE_FILE`` doesn't
# otherwise need when installed with ``pip install .``; issue 22.)
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def data_path(name: str) -> Path:
    """The path of the data file ``name`` (e.g. ``"profiles.toml"``)."""
    from pathlib import Path

    return Path(DATA, name)


def data_text(name: str) -> str:
    """The text of the data file ``name`` (UTF-8)."""
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return f.read()
