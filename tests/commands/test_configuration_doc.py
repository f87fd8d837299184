"""docs/configuration.md is run: every `$ pitch ...` line of its console blocks,
from the repository's root, gives the output written under it."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from pitchcli.cli import main

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "configuration.md"
BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def examples() -> list[tuple[str, str]]:
    """``(command, expected output)`` of every console block of the page."""
    out: list[tuple[str, str]] = []
    for block in BLOCK.findall(PAGE.read_text("utf-8")):
        for part in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, expected = part.partition("\n")
            out.append((command, expected))
    return out


def test_the_page_has_examples() -> None:
    assert len(examples()) >= 5


@pytest.mark.parametrize(("command", "expected"), examples(), ids=[c for c, _ in examples()])
def test_each_example_prints_what_the_page_says(command: str, expected: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    words = shlex.split(command)
    assert words[0] == "pitch"
    r = CliRunner().invoke(main, ["--color", "never", *words[1:]])
    assert isinstance(r.exception, SystemExit | None)
    assert r.stdout == expected


def test_every_option_of_validate_is_in_the_page() -> None:
    text = PAGE.read_text("utf-8")
    for param in main.commands["validate"].params:
        for opt in getattr(param, "opts", []):
            if opt.startswith("--") and param.name != "help":
                assert f"`{opt}" in text or f"{opt}`" in text or f" {opt} " in text, opt


def test_every_key_of_the_configuration_is_in_the_page() -> None:
    from pitchcli.pipeline.config import KEYS
    text = PAGE.read_text("utf-8")
    for key in KEYS:
        assert f"`{key}`" in text, key
