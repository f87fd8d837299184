"""The one place where text from a record becomes HTML or SVG.

Templates (``pitchcli/templates``) are rendered by Jinja2 with autoescaping on
for every template, so a value is escaped unless a template says otherwise
(none does, except for markup this package made itself: the inline SVG chart
and the stylesheet). Before escaping, ``finalize`` passes every value through
``printable``: a control character (which no page should carry, and which XML,
hence a standalone SVG, forbids even escaped) is shown as its Unicode control
picture, and a lone surrogate (a file name that isn't UTF-8) or a noncharacter
(U+FFFE, U+FFFF, which XML forbids too) as U+FFFD.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import jinja2
from markupsafe import Markup, escape

# C0 controls but tab and newline, DEL, the C1 controls, lone surrogates, and
# the noncharacters: U+FFFE and U+FFFF are no XML 1.0 character at all (an SVG
# holding one is not well-formed), and the others (U+FDD0..U+FDEF, the last two
# of every plane) are parse errors in HTML.
_NONCHARACTERS = "\ufdd0-\ufdef\ufffe\uffff" + "".join(
    f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}" for plane in range(1, 17))
UNPRINTABLE = f"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff{_NONCHARACTERS}]"
"""The characters ``printable`` replaces (a regular expression's class);
``str.isprintable`` is False for each of them (tests/render/test_report.py)."""
_UNPRINTABLE = re.compile(UNPRINTABLE)


def _picture(m: re.Match[str]) -> str:
    ch = ord(m.group())
    if ch < 0x20:
        return chr(0x2400 + ch)  # U+2400..U+241F: SYMBOL FOR NULL ... UNIT SEPARATOR
    if ch == 0x7F:
        return "\u2421"  # SYMBOL FOR DELETE
    return "\ufffd"


def printable(text: str) -> str:
    """``text`` with control characters and lone surrogates made visible and
    harmless (for a page, an SVG file or a terminal)."""
    return _UNPRINTABLE.sub(_picture, text)


def _finalize(value: Any) -> Any:
    # (called for every value a page shows: plain str is the common case, and
    # printable text, told by a C scan, needs no search of the pattern)
    if value.__class__ is str and not value.isprintable():
        return _UNPRINTABLE.sub(_picture, value)
    return value


def html(value: Any) -> Markup:
    """What ``{{ value }}`` writes in a template: ``value`` made printable and
    escaped (Markup passes as it is). For the few fragments a page repeats so
    often that they are joined in Python rather than looped over in Jinja."""
    return escape(_finalize(value))


@cache
def environment() -> jinja2.Environment:
    """The Jinja2 environment of the report: autoescape on, undefined names
    an error (a typo in a template must not render as nothing)."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("pitchcli", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        finalize=_finalize,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,  # templates are package data: no stat() per page
    )
    return env


def render(template: str, **context: Any) -> str:
    """Render one template of ``pitchcli/templates``."""
    return environment().get_template(template).render(**context)
