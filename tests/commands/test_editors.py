"""What editors, shells and pre-commit read: sample modelines, the schema's
catalog entry, the pre-commit hooks and shell completion (through Click's
completion API)."""

from __future__ import annotations

import fnmatch
import json
import re
import shlex
from pathlib import Path

import click
import pytest
import yaml
from click.shell_completion import ShellComplete

from pitchcli.cli import main
from pitchcli.diagnostics import CODES
from pitchcli.profiles import builtin_profiles
from pitchcli.record import schema

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "pitch-record-1.schema.json"
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def yaml_samples() -> list[Path]:
    return sorted(p for p in (ROOT / "samples").rglob("*") if p.suffix in (".yaml", ".yml"))


@pytest.mark.parametrize("path", yaml_samples(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sample_names_the_schema_by_a_relative_path(path: Path) -> None:
    first = path.read_text("utf-8").split("\n", 1)[0]
    m = MODELINE.match(first)
    assert m, f"{path.relative_to(ROOT)} must start with # yaml-language-server: $schema=<relative path>"
    ref = m[1]
    assert not Path(ref).is_absolute() and "://" not in ref
    assert (path.parent / ref).resolve() == SCHEMA.resolve()


def test_a_record_may_name_its_schema() -> None:
    record = yaml.safe_load((ROOT / "samples" / "auction-full.yaml").read_text("utf-8"))
    record["$schema"] = "../schemas/pitch-record-1.schema.json"
    assert [d for d in schema.validate(record) if d.severity == "error"] == []
    record["$schema"] = 3
    assert [d.code for d in schema.validate(record)] == ["S203"]


def test_the_catalog_entry_is_ready_for_schemastore() -> None:
    catalog = json.loads((ROOT / "schemas" / "catalog.json").read_text("utf-8"))
    assert catalog["version"] == 1
    [entry] = catalog["schemas"]
    assert set(entry) == {"name", "description", "fileMatch", "url"}
    assert entry["name"] and entry["description"] and not entry["description"].endswith(".")
    assert (ROOT / "schemas" / entry["url"]).resolve() == SCHEMA.resolve()
    matches = lambda name: any(fnmatch.fnmatch(name, g) for g in entry["fileMatch"])  # noqa: E731
    for name in ("game.pitch.yaml", "thursday.pitch.yml", "game.pitch.json", "archive.pitch.jsonl"):
        assert matches(name), name
    for name in ("docker-compose.yaml", "pitch.yaml", "game.yaml", "package.json"):
        assert not matches(name), name


def test_pre_commit_hooks_run_real_commands_on_the_catalog_names() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert {h["id"] for h in hooks} == {"pitch-validate", "pitch-fmt"}
    globs = json.loads((ROOT / "schemas" / "catalog.json").read_text("utf-8"))["schemas"][0]["fileMatch"]
    for hook in hooks:
        assert {"id", "name", "entry", "language", "files"} <= set(hook)
        assert hook["language"] == "python"  # pre-commit installs this repository with pip
        files = re.compile(hook["files"])
        for g in globs:
            assert files.search(g.replace("*", "records/game")), (hook["id"], g)
        assert not files.search("docker-compose.yaml")
        # pre-commit appends the file names to the entry: it must be a valid command
        prog, name, *args = shlex.split(hook["entry"])
        assert prog == "pitch"
        command = main.commands[name]
        command.make_context(name, [*args, "records/game.pitch.yaml"], resilient_parsing=False)


# --- shell completion ------------------------------------------------------------


def complete(args: list[str], incomplete: str) -> list[tuple[str, str]]:
    comp = ShellComplete(main, {}, "pitch", "_PITCH_COMPLETE")
    return [(c.type, c.value) for c in comp.get_completions(args, incomplete)]


def path_arguments() -> list[tuple[str, str]]:
    """Every command with an argument that names files."""
    out = []
    for name, command in sorted(main.commands.items()):
        for p in command.params:
            if isinstance(p, click.Argument) and p.name in ("path", "paths", "parts"):
                out.append((name, p.name))
    return out


@pytest.mark.parametrize(("command", "param"), path_arguments())
def test_every_path_argument_completes_file_names(command: str, param: str) -> None:
    # The shell does the listing: Click answers "a file", with the text typed so far.
    assert complete([command], "sampl") == [("file", "sampl")], (
        f"`pitch {command}` {param.upper()} must complete file names: give it type=click.Path()")


def test_path_arguments_are_found() -> None:
    names = {c for c, _ in path_arguments()}
    assert {"validate", "score", "replay", "fmt", "summarize", "merge"} <= names


def test_profiles_rules_and_codes_complete_their_names() -> None:
    assert complete(["profiles"], "auc") == [("plain", "auction"), ("plain", "auction-partners")]
    assert [v for _, v in complete(["profiles"], "")] == list(builtin_profiles())
    assert complete(["rules"], "ap-play-") == [("plain", f"AP-PLAY-{i}") for i in range(1, 5)]
    assert [v for _, v in complete(["explain"], "L10")] == [c for c in CODES if c.startswith("L10")]
