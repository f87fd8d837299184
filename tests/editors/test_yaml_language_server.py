"""What an editor shows, checked with the language server editors run:
yaml-language-server (npm, pinned in tests/editors/package-lock.json), over
stdio as VS Code, Neovim and Helix run it (tests/editors/lsp.py).

It runs when the server is installed (``cd tests/editors && npm ci``; .ci/run
does): about 5 s per server started. Without node or the server it is skipped.

What it shows (README, "Editors"):

- the modeline the README recommends (``$schema=`` a path relative to the
  file) loads the schema, and a bad card is reported with the schema's
  ``patternErrorMessage``, not a regular expression;
- a modeline covers its own document only: in a stream the second game is not
  checked unless it has its own modeline, or the files are mapped to the schema
  in ``yaml.schemas`` (the README's mapping), which covers every document;
- the catalogue (``yaml.schemaStore.url``) is fetched over HTTP(S) only, and
  its entry's ``url`` is used as written: served over HTTP with an absolute
  ``url`` it works; the entry as shipped, whose ``url`` is relative until the
  schema is published, is not resolved against the catalogue.
"""

from __future__ import annotations

import functools
import http.server
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsp import Server, available

ROOT = Path(__file__).resolve().parents[2]
BAD = ROOT / "samples-invalid" / "not-a-card.yaml"  # the card 1C at line 22 (0-based 21)
GOOD = ROOT / "samples" / "auction-full.yaml"
PATTERN = "a card such as 10H or QS"

pytestmark = pytest.mark.skipif(not available(), reason="yaml-language-server is not installed "
                                                        "(cd tests/editors && npm ci)")


def _body(path: Path) -> str:
    """The record without its modeline."""
    lines = path.read_text("utf-8").splitlines(True)
    assert lines[0].startswith("# yaml-language-server: $schema=")
    return "".join(lines[1:])


MODELINE = "# yaml-language-server: $schema=../schemas/pitch-record-1.schema.json\n"  # the README's form


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace as a club's: schemas/ (the files, not links) and records/."""
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas", symlinks=False)
    (tmp_path / "records").mkdir()
    return tmp_path


def _messages(diagnostics: list[dict]) -> list[tuple[int, str]]:
    return [(d["range"]["start"]["line"], d["message"]) for d in diagnostics]


def test_the_modeline_loads_the_schema_and_only_for_its_document(workspace: Path) -> None:
    one = workspace / "records" / "bad.yaml"
    one.write_text(MODELINE + _body(BAD), "utf-8")
    stream = workspace / "records" / "stream.yaml"
    stream.write_text(MODELINE + _body(GOOD) + "---\n" + _body(BAD), "utf-8")
    each = workspace / "records" / "each.yaml"
    each.write_text(MODELINE + _body(GOOD) + "---\n" + MODELINE + _body(BAD), "utf-8")
    server = Server(workspace, {"validate": True, "schemaStore": {"enable": False}})
    try:
        found = _messages(server.diagnostics(one))
        assert [line for line, _ in found] == [21], found
        assert found[0][1].startswith(PATTERN), found
        assert _messages(server.diagnostics(stream)) == []  # the second game is not covered
        found = _messages(server.diagnostics(each))
        assert len(found) == 1 and found[0][1].startswith(PATTERN), found  # a modeline of its own: it is
    finally:
        server.close()


def test_the_readmes_mapping_covers_every_document(workspace: Path) -> None:
    stream = workspace / "records" / "stream.yaml"
    stream.write_text(_body(GOOD) + "---\n" + _body(BAD), "utf-8")
    settings = {"validate": True, "schemaStore": {"enable": False},
                "schemas": {"./schemas/pitch-record-1.schema.json": ["records/**/*.yaml"]}}  # README's yaml.schemas
    server = Server(workspace, settings)
    try:
        found = _messages(server.diagnostics(stream))
        assert len(found) == 1 and found[0][1].startswith(PATTERN), found
    finally:
        server.close()


class Quiet(http.server.SimpleHTTPRequestHandler):
    """A file server that logs nothing."""

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def served(workspace: Path) -> Iterator[str]:
    """The workspace's schemas/ over HTTP on the loopback interface."""
    handler = functools.partial(Quiet, directory=str(workspace / "schemas"))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_the_catalogue_entry_loads_over_http_with_an_absolute_url(workspace: Path, served: str) -> None:
    record = workspace / "records" / "game.pitch.yaml"  # a name the entry's fileMatch takes
    record.write_text(_body(BAD), "utf-8")
    shipped = json.loads((workspace / "schemas" / "catalog.json").read_text("utf-8"))
    assert not shipped["schemas"][0]["url"].startswith(("http:", "https:", "file:"))  # relative until published
    published = json.loads(json.dumps(shipped))
    published["schemas"][0]["url"] = f"{served}/pitch-record-1.schema.json"
    (workspace / "schemas" / "published.json").write_text(json.dumps(published), "utf-8")
    for catalogue, says in (("published.json", PATTERN),
                            # as shipped: its url is read as a path, not beside the catalogue
                            ("catalog.json", "Unable to load schema from '/pitch-record-1.schema.json'")):
        server = Server(workspace, {"validate": True, "schemaStore": {"enable": True,
                                                                      "url": f"{served}/{catalogue}"}})
        try:
            found = _messages(server.diagnostics(record))
        finally:
            server.close()
        assert len(found) == 1 and found[0][1].startswith(says), (catalogue, found)
