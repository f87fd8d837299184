"""Every marked example of README.md and docs/ is run (tests/support/doc_examples.py):
a console session gives the output shown, a record validates or fails as the
text says."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.doc_examples import FENCE, MARK, ROOT, Example, command_lines, examples, pages, same_output, sessions

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


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.what == "commands"], ids=lambda e: e.id)
def test_command_lines_parse(example: Example) -> None:
    """Every `pitch` line of a block of commands is one the program accepts."""
    import click

    found = command_lines(example.text)
    assert found, f"{example.id}: no pitch command in a block marked commands"
    for args in found:
        command = main.commands.get(args[0])
        assert command is not None, f"{example.id}: no command pitch {args[0]}"
        try:
            command.make_context(args[0], list(args[1:])).close()
        except click.exceptions.Exit:
            pass  # --help, --version
        except click.UsageError as e:
            raise AssertionError(f"{example.id}: pitch {' '.join(args)}: {e.format_message()}") from None


# The pages whose examples are run by a test of their own, and why they carry
# no markers; every other block that shows a command, an output or a record
# must be marked (or be listed below with the reason it can't be run).
OWN_TESTS = {
    "docs/codes.md": "generated from pitchcli/data/codes.toml (tests/views/test_reference.py: the page is fresh, "
                     "and every example message is what the code prints for its sample)",
    "docs/configuration.md": "each console block run by tests/commands/test_configuration_doc.py",
    "docs/archive.md": "each command run by tests/commands/test_archive_docs.py",
    "docs/scripting.md": "each recipe run, its output compared, by tests/api/test_scripting_docs.py",
}
UNRUNNABLE = {
    ("README.md", "pitchcli/record/load.py    bytes -> documents"): "a map of the modules, not a command",
    ("docs/architecture.md", "pitchcli/cli.py          the `pitch` group"): "a map of the modules, not a command",
    ("README.md", "from pyspark.sql import SparkSession"): "needs a Spark cluster (the Dask recipe is run: "
                                                           "tests/pipeline/test_cluster.py)",
    ("README.md", "# yaml-language-server: $schema="): "the modeline alone, not a record (the samples carry it; "
                                                       "tests/commands/test_editors.py)",
    ("README.md", "{"): "editor settings (yaml.schemas), not pitch's output (tests/commands/test_editors.py)",
    ("README.md", "# .pre-commit-config.yaml"): "pre-commit's configuration (tests/commands/test_editors.py "
                                                "runs the hook's entry)",
    ("docs/solve.md", "pitch solve FILE [--hand N]"): "a synopsis, not a command line",
    ("docs/solve.md", '{"report": "pitch-solve", "version": 2,'): "the report's shape (keys only), not an output",
}
SHOWS = ("console", "yaml", "yml", "json", "jsonl")


def _blocks() -> list[tuple[str, int, str, list[str], bool]]:
    """Every fenced block of the pages: (page, line, language, lines, marked)."""
    out = []
    for path in pages():
        lines = path.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            m = FENCE.match(lines[i])
            if not m:
                i += 1
                continue
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith(m[1]))
            marked = i > 0 and bool(MARK.match(lines[i - 1]))
            out.append((str(path.relative_to(ROOT)), i + 1, lines[i][len(m[1]):].strip(), lines[i + 1:end], marked))
            i = end + 1
    return out


def _shows_something(lang: str, body: list[str]) -> bool:
    """A block showing a command, its output or a record (what must be checked)."""
    if lang in SHOWS:
        return True
    diagnostic = re.compile(r"^\S+:\d+:\d+: (error|warning): ")
    return any(line.lstrip("$ ").startswith("pitch ") or diagnostic.match(line) for line in body) \
        or (lang in ("", "text") and bool(body) and body[0].startswith(("{", "[")))


def test_every_command_output_and_record_block_is_checked() -> None:
    unmarked = []
    for page, line, lang, body, marked in _blocks():
        if marked or page in OWN_TESTS or not _shows_something(lang, body):
            continue
        if any(page == p and body and body[0].startswith(first) for p, first in UNRUNNABLE):
            continue
        unmarked.append(f"{page}:{line} ({lang or 'no language'}): {body[0] if body else ''}")
    assert not unmarked, "blocks no test checks (add a <!-- check: ... --> marker):\n" + "\n".join(unmarked)


def test_the_exemptions_are_still_there() -> None:
    """An exemption whose block is gone (or now marked) is dropped from the list."""
    blocks = _blocks()
    for page, first in UNRUNNABLE:
        assert any(p == page and body and body[0].startswith(first) and not marked
                   for p, _, _, body, marked in blocks), (page, first)
    for page in OWN_TESTS:
        assert (ROOT / page).exists(), page
