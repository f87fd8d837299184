"""Text from a record is data: the one place it is made safe for a reader.

Every human-readable output (diagnostic lines, score sheets, replays, summary
tables, Markdown) passes the user's text — player names, events, notes, keys,
file names — through ``text``: C0 and C1 control characters (ESC, CR, a
newline...), the bidi controls (U+202E RIGHT-TO-LEFT OVERRIDE and the rest),
the line and paragraph separators and the byte-order mark are shown as
``\\x1b``, ``\\u202e``..., so a name can neither drive the terminal nor forge a
line of output. JSON output keeps the exact text (JSON escapes it itself).

``markdown`` adds what a Markdown table cell needs (``|``, HTML, the inline
markup characters); ``csv_cell`` neutralises a spreadsheet formula the way
OWASP recommends (a leading ``'``), plain negative numbers excepted; ``short``
shortens user text quoted inside a message.
"""

from __future__ import annotations

import dataclasses
import io
import re
from collections.abc import Iterable
from functools import cache
from typing import Any, TextIO

# C0 controls and DEL, C1 controls (U+0085 NEXT LINE among them), the bidi
# marks, embeddings, overrides and isolates, the line and paragraph separators,
# and the zero-width no-break space (a byte-order mark inside text).
UNSAFE = "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]"
"""The characters ``text`` escapes (a regular expression's class); ``str.isprintable``
is False for each of them (tests/ground/test_escape.py holds the two together)."""


@cache
def _unsafe() -> re.Pattern[str]:
    # Compiled when a text first holds a character that is not printable: the
    # class's Unicode ranges take 0.7 ms to compile, a start-up's cost for a
    # run whose text is all printable (issue 22, ``pitch validate ONE_FILE``).
    return re.compile(UNSAFE)


@cache
def _md_special() -> re.Pattern[str]:
    # Backslash-escaped in a Markdown cell: a backslash first, the table's pipe,
    # and the characters that start inline markup (emphasis, code, links, images).
    # (This pattern and the next are compiled when first needed, as ``_unsafe``:
    # a run that writes no Markdown or CSV doesn't compile them.)
    return re.compile(r"([\\`*_\[\]|!~])")


_MD_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}

# A cell a spreadsheet reads as a formula (OWASP "CSV injection"), and the
# plain negative numbers that are left alone (a score of -3 stays a number).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@cache
def _negative_number() -> re.Pattern[str]:
    return re.compile(r"-[0-9]+(\.[0-9]+)?")

SHORT = 60


def _code(m: re.Match[str]) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def text(s: str) -> str:
    """``s`` with every control, bidi, separator and BOM character written as
    an escape (``\\x1b``, ``\\u202e``); other text is unchanged."""
    if s.isprintable():  # (a C scan: every character ``UNSAFE`` names is not printable)
        return s
    return _unsafe().sub(_code, s)


def markdown(s: str) -> str:
    """``s`` safe inside a Markdown table cell or list item: ``text``, then
    HTML's ``& < >`` as entities and Markdown's markup characters escaped."""
    s = text(s)
    s = _md_special().sub(r"\\\1", s)
    return "".join(_MD_HTML.get(c, c) for c in s) if any(c in s for c in "&<>") else s


def code_span(s: str) -> str:
    """``s`` as a Markdown code span (shown literally: no markup, no HTML), after
    ``text``: fenced with one backtick more than its longest run of them."""
    s = text(s)
    longest = max((len(r) for r in re.findall(r"`+", s)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if s.startswith(("`", " ")) or s.endswith(("`", " ")) else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def csv_cell(v: Any) -> Any:
    """A CSV cell that a spreadsheet shows as text: a string starting with
    ``= + - @``, a tab or a carriage return gets a leading ``'`` (OWASP),
    unless it is a plain negative number. Other values are unchanged."""
    if isinstance(v, str) and v.startswith(_FORMULA_START) and not _negative_number().fullmatch(v):
        return "'" + v
    return v


def short(s: str, limit: int = SHORT) -> str:
    """``s`` cut to about ``limit`` characters with an ellipsis, so that quoting
    user text in a message costs a bounded number of bytes."""
    return s if len(s) <= limit else s[: limit - 1] + "…"


def deep(value: Any) -> Any:
    """A copy of a view's data (strings, lists, tuples and named tuples, mappings, keys and
    dataclass instances, recursively) with every string passed through
    ``text``; other values are returned as they are. For renderers that build
    text from many fields: escape the view once, then format it."""
    if isinstance(value, str):
        return text(value)
    if isinstance(value, list):
        return [deep(v) for v in value]
    if isinstance(value, tuple):  # (a named tuple stays one, its fields escaped)
        items = (deep(v) for v in value)
        return value._make(items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, dict):
        return {deep(k): deep(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        copy = object.__new__(type(value))
        for f in dataclasses.fields(value):
            object.__setattr__(copy, f.name, deep(getattr(value, f.name)))
        return copy
    return value


class CsvWriter:
    """``csv.writer`` for the CSV outputs: every cell through ``csv_cell``, and a
    carriage return inside a cell quoted like a newline (``csv`` quotes only the
    characters of its line terminator, so a bare CR would end the row for a
    spreadsheet); rows end with ``\\n``."""

    def __init__(self, out: TextIO) -> None:
        import csv  # (only the CSV outputs need it: start-up)

        self._out = out
        self._buf = io.StringIO()
        self._writer = csv.writer(self._buf, lineterminator="\r\n")

    def writerow(self, cells: Iterable[Any]) -> None:
        """Write one row."""
        self._buf.seek(0)
        self._buf.truncate()
        self._writer.writerow([csv_cell(c) for c in cells])
        self._out.write(self._buf.getvalue()[:-2] + "\n")

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        """Write every row."""
        for row in rows:
            self.writerow(row)


# --- bounded messages ----------------------------------------------------------
# A diagnostic quotes the record (a name, a key, a value): a 200 KB name quoted
# in each of 10,000 messages made 8 GB of output. Quoted text is shortened at
# the source (``quote``), long names inside composed messages are shortened as
# they reach a diagnostic (``shorten_names``), and ``clip`` bounds any message.

MESSAGE_LIMIT = 600


def quote(value: Any) -> str:
    """``repr`` of a value quoted in a message, text shortened to about
    ``SHORT`` characters."""
    return repr(short(value)) if isinstance(value, str) else repr(value)


def long_texts(texts: Iterable[Any]) -> list[str]:
    """The texts longer than ``SHORT`` (the names worth shortening), longest first."""
    return sorted({t for t in texts if isinstance(t, str) and len(t) > SHORT}, key=len, reverse=True)


def shorten_names(message: str, names: list[str]) -> str:
    """``message`` with every one of ``names`` (from ``long_texts``) shortened."""
    for n in names:
        if n in message:
            message = message.replace(n, short(n))
    return message


def clip(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """``message`` bounded to ``limit`` characters: its start and its end (where
    the explanation usually is) kept, the middle replaced by an ellipsis."""
    if len(message) <= limit:
        return message
    head = limit * 2 // 3
    return message[:head] + "…" + message[len(message) - (limit - head - 1):]
