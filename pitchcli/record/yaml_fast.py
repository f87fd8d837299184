"""The fast reading of a YAML document: a compiled parser (yaml-rs) for the
happy path, the locating loader (libyaml compose + ``yaml_build``) for the rest.

yaml-rs parses a one-game record about 20x faster than libyaml composes it, but
it keeps no positions and its reading differs from the project's core schema in
places (``0x1F``, ``0o17`` and ``1_000`` are numbers to it, tags are dropped,
aliases are expanded, keys are typed, NEL/LS/PS are text). So it is used as an
**allow-list**: ``fast_read`` gives a document's data only when

- the bytes hold nothing whose reading may differ (``_DOUBTFUL``: control
  characters and tabs, CR, NEL/LS/PS, NBSP, a BOM, U+FFFE/FFFF, tags ``!``,
  anchors and aliases ``&`` ``*``, directives ``%``, escapes ``\\``, merge keys
  ``<<``, number spellings ``0x`` ``0o`` ``0b`` ``1_000``, ``.inf``/``.nan``,
  1,000-digit numbers, a ``...`` line but the one that ends the document), and
- the parsed value is what the core schema would build: one document, a mapping,
  every key a string, every value a string (neither starting ``|`` or ``>``), int, finite float, bool, None, list
  or mapping, within ``max_depth`` and ``max_nodes`` counted as ``build_data``
  counts them.

Anything else returns None, and the caller reads the document with the locating
loader, which alone writes diagnostics: a document with a problem is never
refused here, so no diagnostic can change. Without the yaml-rs wheel
(``AVAILABLE`` False) every document takes the locating loader.
"""

from __future__ import annotations

import re
from typing import Any

from pitchcli.record.document import Limits

try:  # an optional speed-up: a machine without the wheel reads with libyaml
    import yaml_rs as _yaml_rs
except ImportError:  # pragma: no cover - exercised by forcing AVAILABLE off
    _yaml_rs = None

__all__ = ["AVAILABLE", "fast_read"]

AVAILABLE = _yaml_rs is not None
"""Whether the compiled parser is installed. Tests set this to False to run the
locating loader alone; it is read on every use, so only here."""

# Bytes after which the compiled reading may differ from the locating one (see
# the module docstring); found by one C-level search of the document's bytes.
_DOUBTFUL = re.compile(
    rb"[\x00-\x09\x0b-\x1f\x7f!&*%\\]"  # controls, tab, CR; tag, anchor, alias, directive, escape
    rb"|\xc2[\x80-\xa0]"  # C1 controls (NEL U+0085 among them) and NBSP
    rb"|\xe2\x80[\xa8\xa9]"  # LS U+2028, PS U+2029
    rb"|\xef\xbb\xbf|\xef\xbf[\xbe\xbf]"  # a BOM inside, U+FFFE, U+FFFF
    rb"|<<"  # a merge key
    rb"|(?:\A|\n)\.\.\."  # a document end marker (libyaml wants a "---" after it)
    rb"|0[xXoObB]|[0-9]_|_[0-9]"  # numbers the core schema reads as text
    rb"|\.[iInN][nNaA][fFnN]"  # .inf, .nan and their spellings
    rb"|[0-9]{1000}"  # an integer int() may refuse (over 4,300 digits)
)

_SCALARS = (int, bool, type(None))
# A text starting so is no plain scalar to libyaml ("|x", "> y" in flow style are
# syntax errors there, plain text to yaml-rs); in block style yaml-rs reads a
# block scalar's content, which the header never starts.
_INDICATORS = ("|", ">")


def fast_read(chunk: bytes, text: str, limits: Limits) -> tuple[dict[str, Any], bool] | None:
    """The data of the one YAML document in ``chunk`` (``text`` is its decoded
    text) and whether it holds a float, as the locating loader would build it;
    None when the compiled parser is missing or this reading cannot be vouched
    for (then the locating loader reads it)."""
    if _yaml_rs is None or not AVAILABLE:
        return None
    body = chunk
    end = chunk.rfind(b"\n", 0, len(chunk) - 1) + 1
    if chunk.startswith(b"...", end) and not chunk[end + 3 :].strip(b" \n"):
        body = chunk[:end]  # the "..." that ends the document, as the stream cut it
    if _DOUBTFUL.search(body) is not None:
        return None
    try:
        data = _yaml_rs.loads(text, parse_datetime=False)
    except BaseException as e:  # a syntax error, a duplicate key, a Rust panic ...
        if isinstance(e, KeyboardInterrupt | SystemExit | GeneratorExit):
            raise
        return None
    if type(data) is not dict:
        return None  # several documents, a list, a scalar, empty: the loader says
    return _vouch(data, limits)


def _vouch(data: dict[str, Any], limits: Limits) -> tuple[dict[str, Any], bool] | None:
    """``(data, floats)`` when every key is a string and every value a plain
    value, within the limits; None otherwise. Iterative: depth is bounded by
    ``max_depth`` before any further descent."""
    max_depth, max_nodes = limits.max_depth, limits.max_nodes
    count = 1  # values, the root among them, as build_data counts them
    floats = False
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > max_depth:
            return None
        count += len(value)
        if count > max_nodes:
            return None
        if type(value) is dict:
            for k in value:
                if type(k) is not str or k.startswith(_INDICATORS):
                    return None
            items = value.values()
        else:
            items = value
        for v in items:
            t = type(v)
            if t is dict or t is list:
                stack.append((v, depth + 1))
            elif t is str:
                if v.startswith(_INDICATORS):
                    return None
            elif t is float:
                if v - v != 0:  # inf - inf and nan - nan are nan
                    return None
                floats = True
            elif t not in _SCALARS:
                return None
    return data, floats
