"""Every marked example of README.md and docs/ is run (tests/support/doc_examples.py):
a console session gives the output shown, a record validates or fails as the
text says."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.doc_examples import ROOT, Example, examples, same_output, sessions

from pitchcli.cli import main

EXAMPLES = examples()


def test_the_runner_finds_the_examples() -> None:
    found = {(e.file, e.what.split()[0]) for e in EXAMPLES}
    assert ("README.md", "record") in found and ("README.md", "output") in found, found
    assert ("docs/format.md", "record") in found, found


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.what.startswith("output")], ids=lambda e: e.id)
def test_console_example(example: Example, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    for command, expected in sessions(example.text):
        args = shlex.split(command, comments=True)
        assert args[0] == "pitch", command
        r = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "80"}).invoke(main, args[1:])
        assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
        assert same_output(expected, r.stdout, "machine-dependent" in example.what), \
            f"{example.id}: $ {command}\n--- shown ---\n" + "\n".join(expected) + f"\n--- printed ---\n{r.stdout}"


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.what.startswith("record")], ids=lambda e: e.id)
def test_record_example(example: Example, tmp_path: Path) -> None:
    words = example.what.split()
    path = tmp_path / "example.yaml"
    path.write_text(example.text, encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", "--format", "json", "--max-errors", "0", str(path)])
    report = json.loads(r.stdout)
    found = [(d["code"], d["message"]) for doc in report["documents"] for d in doc["diagnostics"]]
    assert words[1] in ("valid", "invalid"), example.what
    assert [code for code, _ in found] == words[2:], f"{example.id}: {found}"
    assert r.exit_code == (0 if words[1] == "valid" else 1), f"{example.id}: {found}"
