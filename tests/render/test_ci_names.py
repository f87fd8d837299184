"""Any file name reaches every format of ``pitch validate`` (issue 27, item 2).

``--format sarif`` died on a name that isn't UTF-8 (``UnicodeEncodeError``:
the name's text was percent-encoded as UTF-8) and on one that looks like a
Windows drive (``C:x.json``: ``ValueError``, a relative name made a file
URI), and wrote no log. The artifact URI now encodes the name's bytes, and
it is checked here to lead back to the very file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitchcli.cli import main

ROOT = Path(__file__).resolve().parents[2]
INVALID = (ROOT / "samples-invalid" / "wrong-dealer.yaml").read_bytes()
EXAMPLES = int(os.environ.get("PITCH_NAME_EXAMPLES", "30"))

# Bytes a POSIX file name may hold: anything but NUL and the separator.
NAME_BYTES = st.binary(min_size=1, max_size=40).map(lambda b: b.replace(b"\0", b"_").replace(b"/", b"_"))
NAMES = st.one_of(
    st.sampled_from([b"C:x.json", b"c:\\x.yaml", b"bad\xff.yaml", b"\xc3(.json", b"%41.yaml", b"a#b?c.yaml",
                     b"new\nline.yaml", b"\\\\host\\share.yaml", b"file:x.yaml", b"-", b"~x.yaml"]),
    NAME_BYTES.map(lambda b: b + b".yaml"),
)


def _invoke(*args: str) -> Any:
    r = CliRunner().invoke(main, list(args))
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def _in_a_folder(tmp: Path, raw: bytes) -> str:
    """The record written under the name ``raw`` in a fresh folder; its name as ``pitch`` gets it."""
    folder = tmp / f"d{len(list(tmp.iterdir()))}"
    folder.mkdir()
    name = raw if raw not in (b".", b"..") else raw + b"_"
    try:
        with open(os.path.join(os.fsencode(folder), name), "wb") as f:
            f.write(INVALID)
    except OSError as e:  # a name this filesystem refuses (too long)
        pytest.skip(f"the filesystem refuses the name: {e}")
    return os.fsdecode(os.path.join(os.fsencode(folder), name))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=NAMES)
def test_sarif_uri_leads_back_to_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raw: bytes) -> None:
    """The log is written (exit 1: the record is invalid), is UTF-8 JSON, and
    each result's URI, read back as bytes, names the file: relative names
    resolved against the working folder, absolute ones as file URIs."""
    path = _in_a_folder(tmp_path, raw)
    folder, name = os.path.split(path)
    monkeypatch.chdir(folder)
    for given_name, expect in ((name, os.fsencode(name)), (path, b"file://" + os.fsencode(path))):
        if given_name == "-":
            continue  # standard input, not this file
        r = _invoke("validate", "--format", "sarif", "--", given_name)
        assert r.exit_code == 1, r.output
        log = json.loads(r.stdout_bytes.decode("utf-8"))  # strict: the log is UTF-8
        uris = {res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for res in log["runs"][0]["results"]}
        assert len(uris) == 1
        (uri,) = uris
        assert ":" not in uri.split("/")[0] or uri.startswith("file:")  # never read as a scheme
        assert unquote_to_bytes(uri) == expect


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=NAMES)
def test_every_validate_format_takes_any_name(tmp_path: Path, raw: bytes) -> None:
    """text, json, github and sarif: exit 1 with the diagnostics, never a
    traceback, whatever the locale's encoding rule for standard output (the
    test runner's stream is strict UTF-8, as under en_US.UTF-8). The SARIF
    log is UTF-8; the others write the name's own bytes back, as ``ls``."""
    path = _in_a_folder(tmp_path, raw)
    for fmt in ("text", "json", "github", "sarif"):
        r = _invoke("validate", "--format", fmt, path)
        assert r.exit_code == 1, (fmt, r.output)
        if fmt == "sarif":
            json.loads(r.stdout_bytes.decode("utf-8"))
        elif fmt == "json":
            report = json.loads(r.stdout_bytes.decode("utf-8", "surrogateescape"))
            assert os.fsencode(report["documents"][0]["file"]) == os.fsencode(path)


def test_artifact_uris_of_the_running_system() -> None:
    """POSIX names are POSIX: a colon or a backslash is part of the name;
    Windows names are Windows': a drive makes a file URI."""
    from pitchcli.render.ci import artifact_uri

    assert artifact_uri("C:x.json", windows=False) == "C%3Ax.json"
    assert artifact_uri("a\\b.json", windows=False) == "a%5Cb.json"
    assert artifact_uri("C:\\a b\\x.json", windows=True) == "file:///C:/a%20b/x.json"
    assert artifact_uri("a\\b.json", windows=True) == "a/b.json"
    assert artifact_uri("C:x.json", windows=True) == "C%3Ax.json"
