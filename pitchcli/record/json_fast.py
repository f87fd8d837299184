"""The fast reading of a JSON document: orjson for the happy path, ``json``
with the duplicate-key hook (``json_read``) for the rest.

orjson parses a record in about half the time of ``json.loads``, and ``json``
needs a Python hook on every object to see a key given twice, which orjson
cannot (it keeps the last). So orjson is used as an **allow-list**:
``fast_json`` gives a document's data only when

- the text holds no escaped colon (``\\u003a``), which would add a colon
  to the data that the text does not show (below); any other escape (a name's
  ``\\u00e9`` as Python's ``json.dumps`` writes it, ``\\"``, ``\\n``) reads
  the same to both, and one that orjson refuses (a lone surrogate) sends the
  document to ``json``;
- orjson parses it to a mapping;
- the data holds no float: orjson's serialization of it shows no digit followed
  by ".", "e" or "E". orjson writes every float with a fraction or an exponent
  right after a digit (``1.0``, ``1e-7``), and reads an integer beyond 64 bits
  as a float (``json``: as an integer), so that one shows as well; an integer
  is written as digits alone. A string showing the same only sends the
  document to ``json`` (a false alarm, never a miss);
- no key was given twice: the text has as many colons as orjson's serialization
  of the data. Each colon of the text is a key's or a string's; the data can only
  lose them (a key given twice drops its first pair, and the strings in its
  value), never gain one, so the counts agree exactly when nothing was dropped;
- it is within the depth and size limits (``json_within``, as ``json_read``
  checks, read from the serialization: the same data, without the text's
  spacing).

The checks read orjson's serialization rather than the text: it is at most as
long as the text (much shorter for a pretty-printed file) and one translation
tells a float, where the text needed two searches and a third for long
integers (issue 22).

Anything else returns None, and ``json_read`` reads the document as before,
which alone writes diagnostics: no diagnostic can change
(``tests/record/test_json_fast.py`` holds the two readings to the same output
over every sample, JSON traps and the fuzz strategies' hostile files). Without
orjson (``AVAILABLE`` False) every document takes ``json``.
"""

from __future__ import annotations

import os
import re
from typing import Any

from pitchcli.record.document import Limits
from pitchcli.record.json_limits import json_within

try:  # an optional speed-up: without it every document takes json
    import orjson as _orjson
except ImportError:  # pragma: no cover - exercised by forcing AVAILABLE off
    _orjson = None

__all__ = ["AVAILABLE", "fast_json"]

AVAILABLE = _orjson is not None and not os.environ.get("PITCH_NO_FAST_PARSE")
"""Whether orjson is installed and not turned off (the environment variable
``PITCH_NO_FAST_PARSE``, as for YAML). Tests set this to False to read with
``json`` alone; it is read on every use."""

# Digits to "0", and the bytes that follow a float's digits ("." and the
# exponent's "e" or "E") to ".": a float in orjson's output shows as "0.".
# Every other byte but the quote is deleted, which leaves a float's "0." whole
# (its sign and its exponent's go, no digit or mark) and shortens the search;
# the quotes keep the strings apart.
_COLON_ESCAPE = re.compile(rb"\\u003[aA]")  # a colon written as an escape (or text that looks so)
_FLOAT_MARKS = bytes.maketrans(b"123456789eE", b"000000000..")
_NOT_FLOAT_MARKS = bytes(c for c in range(256) if c not in b'0123456789.eE"')


def fast_json(raw: bytes, limits: Limits) -> dict[str, Any] | None:
    """The data of the JSON document ``raw`` (valid UTF-8), as
    ``json_read`` would load it, when orjson's reading can be vouched for
    (then it holds no float); None otherwise (then ``json`` reads it)."""
    if _orjson is None or not AVAILABLE or (b"\\" in raw and _COLON_ESCAPE.search(raw) is not None):
        return None
    try:
        data = _orjson.loads(raw)
        if type(data) is not dict:
            return None
        out = _orjson.dumps(data)
    except (_orjson.JSONDecodeError, _orjson.JSONEncodeError):  # (a syntax error, too deep, a BOM ...: json says)
        return None
    if b"0." in out.translate(_FLOAT_MARKS, _NOT_FLOAT_MARKS):
        return None
    # (A text that is the serialization, as orjson and ``pitch`` write JSON
    # Lines, is followed only by spacing, which orjson allows: no count needed.)
    if not raw.startswith(out) and out.count(b":") != raw.count(b":"):
        return None
    if not json_within(out, limits.max_depth, limits.max_nodes):
        return None
    return data
