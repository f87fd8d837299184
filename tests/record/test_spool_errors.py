"""What is kept on disk (``record.spool``) can't be written: a full disk says
where, and the command ends with exit 3, never a traceback.

`pitch report` keeps its game views on disk, and since stop 53 `pitch
ratings` keeps its results sorted on disk past 2,048 games. A full temporary
folder made both say "pitch: standard output: No space left on device": the
guard at the top names an ``OSError``'s file, or else standard output. Now an
error of the spool names the temporary folder. The full disk is ``/dev/full``
(every write fails with ENOSPC), put where the temporary file would be.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path
from typing import IO

import pytest
from click.testing import CliRunner

from pitchcli.cli import main
from pitchcli.record import spool
from pitchcli.record.spool import SortedSpool, Spool
from pitchcli.views.ratings import Collecting

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every temporary file of the spool is ``/dev/full``."""
    def temporary(**_: object) -> IO[bytes]:
        return open("/dev/full", "w+b")  # (the spool closes it)
    monkeypatch.setattr(spool.tempfile, "TemporaryFile", temporary)


def _says_where(e: OSError) -> None:
    assert e.errno == errno.ENOSPC
    assert e.filename == f"a temporary file in {tempfile.gettempdir()}"


@pytest.mark.usefixtures("full_disk")
def test_a_spool_on_a_full_disk_says_where() -> None:
    s = Spool()
    try:
        with pytest.raises(OSError) as caught:
            for _ in range(100):  # (the first writes may sit in the buffer)
                s.get(s.put(b"x" * 10_000))
        _says_where(caught.value)
    finally:
        s.close()


@pytest.mark.usefixtures("full_disk")
def test_a_sorted_spool_on_a_full_disk_says_where() -> None:
    with SortedSpool(key=lambda x: x, run=10) as s, pytest.raises(OSError) as caught:
        for n in range(100_000):
            s.add(n)
        list(s)
    _says_where(caught.value)


@pytest.mark.usefixtures("full_disk")
def test_report_on_a_full_disk_is_exit_3_with_the_place(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["report", "-o", str(tmp_path / "site"), str(ROOT / "samples" / "tournament")])
    assert r.exit_code == 3, r.output
    assert f"pitch: a temporary file in {tempfile.gettempdir()}: No space left on device" in r.stderr
    assert "Traceback" not in r.output + r.stderr


@pytest.mark.usefixtures("full_disk")
def test_ratings_on_a_full_disk_is_exit_3_with_the_place(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Collecting.__init__, "__defaults__", (None, False, 2))  # a run of 2 games: to disk at once
    r = CliRunner().invoke(main, ["ratings", str(ROOT / "samples" / "tournament")])
    assert r.exit_code == 3, r.output
    assert f"pitch: a temporary file in {tempfile.gettempdir()}: No space left on device" in r.stderr
    assert "Traceback" not in r.output + r.stderr
