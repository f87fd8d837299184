"""Suppression comments: what a record says about its own diagnostics.

A club that knowingly keeps a record as it is (a score the table agreed on)
says so in the record, next to the value, as ruff's ``# noqa`` does::

    score: {Ann: 0, Ben: 1, Cal: 2, Dot: -3}   # pitch: ignore[C502]
    # pitch: ignore-file[P304]

``ignore[CODES]`` at the end of a line suppresses those codes on that line;
``ignore-file[CODES]`` suppresses them from its document to the end of the
file (at the top: the whole file). They are YAML comments, found by the same
scan as ``fmt``'s (``record.comments.find``): a ``#`` inside a quoted string is
no comment. JSON has no comments, so a JSON record has none.

This module only reads them; which diagnostics they suppress, and the
warnings for one that suppresses nothing (N601) or can't be read (N602), are
the pipeline's (``pitchcli.pipeline.lint``).
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from pitchcli.diagnostics import CODES

__all__ = ["MARK", "Directive", "find"]

MARK = b"pitch:"
"""Bytes a text must hold to have a directive (a fast test before any scan)."""


@cache
def _directive() -> re.Pattern[str]:
    # (This pattern and the next are compiled with the first text that holds
    # ``MARK``: ``yaml_read`` imports this module for ``MARK`` alone; start-up.)
    return re.compile(r"pitch:\s*(ignore-file|ignore)(?![\w-])\s*(\[[^\]]*\]?)?")


@cache
def _code() -> re.Pattern[str]:
    return re.compile(r"[A-Za-z]\d{3}")


class Directive(NamedTuple):
    """One suppression comment: where it is (1-based, in the file), what it
    suppresses, and why it can't be used (``problem``), if it can't."""

    line: int
    column: int
    codes: tuple[str, ...]
    whole_file: bool
    problem: str | None = None


def _read(text: str, own_line: bool) -> tuple[tuple[str, ...], bool, str | None] | None:
    """The codes, scope and problem of one comment's directive; None: no directive."""
    m = _directive().search(text)
    if m is None:
        return None
    kind, bracket = m.group(1), m.group(2)
    whole = kind == "ignore-file"
    if not bracket or not bracket.endswith("]"):
        return (), whole, f"a suppression names its codes: # pitch: {kind}[C502]"
    codes = tuple(c.strip().upper() for c in re.split(r"[,\s]+", bracket[1:-1]) if c.strip())
    if not codes:
        return (), whole, f"a suppression names its codes: # pitch: {kind}[C502]"
    unknown = [c for c in codes if c not in CODES or not _code().fullmatch(c)]
    if unknown:
        from pitchcli.suggest import did_you_mean
        return codes, whole, f"unknown code {unknown[0]!r} in a suppression{did_you_mean(unknown[0], CODES)}"
    if own_line and not whole:
        return codes, whole, ("ignore[...] goes at the end of the offending line; on a line of its own "
                              "it suppresses nothing (ignore-file[...] is for the whole file)")
    return codes, whole, None


def find(text: str, line0: int = 0) -> list[Directive]:
    """Every suppression comment of a YAML text (``line0``: lines of the file
    before it), in order; nothing when the text can't be scanned (its syntax
    error is reported by the loader)."""
    if "pitch:" not in text:
        return []
    # (Imported here: a record without a suppression comment, read by the
    # compiled parser, is read without PyYAML.)
    import yaml

    from pitchcli.record import comments

    try:
        found, _ = comments.find(text)
    except yaml.YAMLError:
        return []
    out = []
    for c in found:
        # An end-of-line comment's continuation lines are comment lines of their own.
        lines = [(c.line, c.text, c.own_line)] + [(c.line + 1 + i, t, True) for i, t in enumerate(c.continues)]
        for line, t, own in lines:
            read = _read(t, own)
            if read is not None:
                codes, whole, problem = read
                out.append(Directive(line0 + line + 1, c.column + 1, codes, whole, problem))
    return out
