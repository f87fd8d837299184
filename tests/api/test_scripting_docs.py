"""docs/scripting.md: every Python block runs from the repository's root and
prints exactly the ``text`` block that follows it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "scripting.md"
BLOCK = re.compile(r"```python\n(.*?)```\n\n```text\n(.*?)```", re.S)


def examples() -> list[tuple[str, str]]:
    text = PAGE.read_text(encoding="utf-8")
    found = BLOCK.findall(text)
    assert len(found) == text.count("```python"), "every Python block is followed by its output"
    return found


@pytest.mark.parametrize(("code", "output"), examples(), ids=lambda v: v.splitlines()[-1][:40])
def test_recipe_prints_what_the_page_shows(code: str, output: str) -> None:
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout == output


def test_the_page_states_the_promise() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert "## What is public, and how it changes" in text and "DeprecationWarning" in text
