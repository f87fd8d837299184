"""The examples of README.md and docs/ that the suite runs (issue 23: docs that
cannot drift).

A fenced block is checked when the line before it is an HTML comment, which a
reader of the rendered page doesn't see:

- ``<!-- check: output -->``: a console session. Each ``$ pitch ...`` line is
  run from the repository's root and the lines after it, up to the next ``$``,
  are its expected output. A line ``...`` stands for any lines (none or more);
  an expected output that is JSON is compared as JSON (so it may be shown
  compact). ``<!-- check: output, machine-dependent -->`` runs the commands but
  compares only the lines before the first ``...``.
- ``<!-- check: commands -->``: a shell block of commands without their
  output (install steps, CI lines): each line that runs ``pitch`` is parsed by
  the Click program as it would be run (``command_lines``; what follows a
  ``|``, ``>`` or ``&&`` is not pitch's), so an option renamed or a choice
  removed fails; the others (pip, dask, eval) are not run.
- ``<!-- check: record valid -->``: a YAML record that ``pitch validate`` must
  accept; ``<!-- check: record invalid CODE... -->``: one it must refuse with
  exactly these codes, in order.

A small runner of our own rather than a library: the blocks are console
sessions of one Click program and records for its validator, which
``pytest-examples`` (Python code blocks) and ``cog`` (generated text) don't run.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARK = re.compile(r"^<!-- check: (?P<what>.+?) -->\s*$")
FENCE = re.compile(r"^(```+|~~~+)")


@dataclass(frozen=True)
class Example:
    """One marked block: where it is, what to check, and its text."""

    file: str
    line: int  # the block's first line, counting from 1
    what: str
    text: str

    @property
    def id(self) -> str:
        """``README.md:80``: where the block starts."""
        return f"{self.file}:{self.line}"


def pages() -> list[Path]:
    """README.md and every page of docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def examples(paths: list[Path] | None = None) -> list[Example]:
    """Every marked block of the pages."""
    out = []
    for path in paths or pages():
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            m = MARK.match(line)
            if not m or i + 1 >= len(lines) or not FENCE.match(lines[i + 1]):
                continue
            fence = FENCE.match(lines[i + 1])[1]  # type: ignore[index]
            end = next(j for j in range(i + 2, len(lines)) if lines[j].startswith(fence))
            out.append(Example(str(path.relative_to(ROOT)), i + 3, m["what"].strip(),
                               "\n".join(lines[i + 2:end]) + "\n"))
    return out


def command_lines(text: str) -> list[list[str]]:
    """The arguments of each ``pitch`` command of a shell block (``pitch``
    itself left out): lines joined at a trailing backslash, cut at pipes,
    ``&&``, ``;`` and redirections (with their file)."""
    import shlex

    out = []
    for line in text.replace("\\\n", " ").splitlines():
        lex = shlex.shlex(line.removeprefix("$ "), posix=True, punctuation_chars=True)
        lex.commenters = "#"
        lex.whitespace_split = True
        words, part = list(lex), []
        parts = [part]
        skip = False
        for w in words:
            if skip:
                skip = False
            elif w in ("|", "&&", "||", ";", "&"):
                part = []
                parts.append(part)
            elif w in (">", ">>", "<", "2>"):
                skip = True
            else:
                part.append(w)
        out += [p[1:] for p in parts if p and p[0] == "pitch"]
    return out


def sessions(text: str) -> list[tuple[str, list[str]]]:
    """The commands of a console block, each with its expected output lines."""
    out: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """The actual lines match the expected ones, a ``...`` line standing for any lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def same_output(expected: list[str], actual: str, machine_dependent: bool = False) -> bool:
    """The expected lines of a block against a command's output."""
    text = "\n".join(expected)
    try:
        return json.loads(text) == json.loads(actual)
    except ValueError:
        pass
    if machine_dependent:
        head = expected[:expected.index("...")] if "..." in expected else expected
        return actual.splitlines()[:len(head)] == head
    return matches(expected, actual.splitlines())
