"""Common options mean the same everywhere: every subcommand takes --color (as
the group does), every command that reads records takes --max-errors, every
--format is its renderer registry's keys; and `pitch --help` loads none of
the engine, the loader or numpy.

The commands are read from the Click group, not listed here, so that a new
command is checked the day it is added.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from pitchcli.cli import main
from pitchcli.diagnostics import DEFAULT_MAX_ERRORS
from pitchcli.render import formats

ROOT = Path(__file__).resolve().parents[2]
# Four errors (two suits not followed, two players holding each other's cards).
INVALID = str(ROOT / "tests" / "support" / "four-errors.yaml")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _commands() -> list[tuple[str, click.Command]]:
    return sorted(main.commands.items())


def _reads_records(command: click.Command) -> bool:
    """A command whose arguments are record files (merge reads partial summaries)."""
    return any(isinstance(p, click.Argument) and p.name in ("path", "paths") for p in command.params)


READERS = [name for name, command in _commands() if _reads_records(command)]
FORMATTED = [name for name, command in _commands() if any(p.name == "fmt" for p in command.params)]


def _required(command: click.Command, tmp_path: Path) -> list[str]:
    """A value for each required option (report's -o: a folder)."""
    out: list[str] = []
    for p in command.params:
        if isinstance(p, click.Option) and p.required:
            out += [p.opts[-1], str(tmp_path / p.name)]  # type: ignore[operator]
    return out


def run(*args: str, env: dict[str, str | None] | None = None) -> click.testing.Result:
    # (the colour variables of the environment the tests run in left out)
    return CliRunner(env={"NO_COLOR": None, "FORCE_COLOR": None, **(env or {})}).invoke(main, list(args))


def test_the_commands_that_read_records_are_found() -> None:
    assert {"validate", "score", "replay", "solve", "fmt", "chart", "summarize", "report", "ratings"} <= set(READERS)
    assert "merge" not in READERS and "simulate" not in READERS


@pytest.mark.parametrize("name", READERS)
def test_every_command_that_reads_records_takes_color_and_max_errors(name: str, tmp_path: Path) -> None:
    command = main.commands[name]
    r = run(name, "--color", "never", "--max-errors", "1", *_required(command, tmp_path), INVALID)
    assert r.exit_code == 1, r.output  # the record is invalid: a usage error would be 2
    assert not ANSI.search(r.output)
    assert isinstance(r.exception, SystemExit)  # no traceback
    opt = next(p for p in command.params if p.name == "max_errors")
    # One option (commands.common.judging): the same default everywhere, the
    # configuration's (docs/configuration.md), else DEFAULT_MAX_ERRORS.
    assert opt.default is None and f"else {DEFAULT_MAX_ERRORS}" in (opt.help or "")


@pytest.mark.parametrize("name", ["score", "replay", "solve", "fmt", "chart"])
def test_max_errors_caps_a_refused_record_the_same_way(name: str, tmp_path: Path) -> None:
    # The driver refuses an invalid record alike for every command: its first
    # diagnostics, the line saying how many more, then the command's own line.
    r = run(name, "--max-errors", "1", INVALID)
    assert r.exit_code == 1
    lines = r.stderr.splitlines()
    assert lines[0].startswith(f"{INVALID}:23:22: error: R407")
    assert lines[1] == f"{INVALID}: note: 3 more diagnostics not shown (--max-errors)"
    assert "the record is invalid (4 errors)" in lines[2]
    assert len(lines) == 3


@pytest.mark.parametrize(("name", "command"), _commands(), ids=[n for n, _ in _commands()])
def test_every_subcommand_takes_color_after_its_name(name: str, command: click.Command) -> None:
    r = run(name, "--color", "always", "--help")
    assert r.exit_code == 0, r.output
    assert "--color [auto|always|never]" in r.stdout


def test_color_after_the_command_wins_over_the_group() -> None:
    assert ANSI.search(run("--color", "never", "validate", "--color", "always", INVALID).stdout)
    assert not ANSI.search(run("--color", "always", "validate", "--color", "never", INVALID).stdout)
    assert ANSI.search(run("--color", "always", "validate", INVALID).stdout)  # the group's alone still works
    assert not ANSI.search(run("validate", INVALID).stdout)  # auto: not a terminal


def test_force_color_is_honoured_as_no_color_is() -> None:
    assert ANSI.search(run("validate", INVALID, env={"FORCE_COLOR": "1", "NO_COLOR": ""}).stdout)
    assert not ANSI.search(run("validate", INVALID, env={"FORCE_COLOR": "", "NO_COLOR": ""}).stdout)
    # NO_COLOR wins over FORCE_COLOR; --color wins over both
    assert not ANSI.search(run("validate", INVALID, env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout)
    assert not ANSI.search(run("validate", "--color", "never", INVALID, env={"FORCE_COLOR": "1"}).stdout)
    assert ANSI.search(run("validate", "--color", "always", INVALID, env={"NO_COLOR": "1"}).stdout)


@pytest.mark.parametrize("name", FORMATTED)
def test_each_format_choice_is_a_renderer_of_the_commands_registry(name: str) -> None:
    param = next(p for p in main.commands[name].params if p.name == "fmt")
    choices = list(param.type.choices)  # type: ignore[attr-defined]
    if name == "simulate":  # records, written by pitchcli.record.write: no renderer
        assert choices == ["yaml", "json", "jsonl"]
        return
    registry = formats.BY_COMMAND[name]
    assert choices == list(registry)
    # validate's default is the configuration's format, else text (docs/configuration.md).
    assert param.default in registry or (name == "validate" and param.default is None)
    for renderer in registry.values():
        assert callable(renderer.load())  # each entry names a renderer that exists


def test_every_registry_belongs_to_a_command() -> None:
    assert set(formats.BY_COMMAND) == set(FORMATTED) - {"simulate"}


def test_help_loads_neither_the_engine_nor_the_loader_nor_numpy() -> None:
    code = ("import sys\n"
            "from pitchcli.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "heavy = ('pitchcli.engine', 'pitchcli.record', 'pitchcli.pipeline', 'pitchcli.views', 'numpy',"
            " 'yaml', 'jsonschema', 'tabulate', 'jinja2')\n"
            "print(sorted(m for m in sys.modules if m.startswith(heavy)))\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env, cwd=ROOT)
    assert r.stdout.strip().splitlines()[-1] == "[]", r.stderr
