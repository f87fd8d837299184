"""Characters a pattern names, for the code that skips a pattern when
``str.isprintable`` says a text can't hold one (``escape.text``, a report
page's values): right only while no such character is printable."""

from __future__ import annotations

import re


def named_by(pattern: str) -> list[str]:
    """Every code point that the character class ``pattern`` matches."""
    compiled = re.compile(pattern)
    return [chr(c) for c in range(0x110000) if compiled.match(chr(c))]


def printable_among(chars: list[str]) -> list[str]:
    """The characters of ``chars`` (``named_by``'s) that ``str.isprintable``
    passes (none, to be right)."""
    return [ch for ch in chars if ch.isprintable()]
