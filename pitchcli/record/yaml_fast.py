"""The fast reading of a YAML document: a compiled parser (yaml-rs) for the
happy path, the locating loader (libyaml compose + ``yaml_build``) for the rest.

yaml-rs parses a one-game record about 20x faster than libyaml composes it, but
it keeps no positions and its reading differs from the project's core schema in
places (``0x1F``, ``0o17`` and ``1_000`` are numbers to it, tags are dropped,
aliases are expanded, keys are typed, NEL/LS/PS are text). So it is used as an
**allow-list**: ``fast_read`` gives a document's data only when

- the bytes hold nothing whose reading may differ (``_doubtful``: control
  characters and tabs, a CR but in a CRLF line end, NEL/LS/PS, NBSP, a BOM, U+FFFE/FFFF, tags ``!``,
  anchors and aliases ``&`` ``*``, directives ``%`` (each mark right after a
  word, "Good game!", "50%", or an ``&`` between words, "Ann & Cal", is text,
  none of these), an explicit key ``?`` or a block scalar's header ``|`` ``>``
  (each right after a word is text too), a colon but between a word or a quote
  and a space, a word, a quote, ``\\`` or ``/`` ("key: x", "10:30"), a flow mapping over several lines
  or holding another, escapes ``\\`` (but a letter's, ``\\xEB``, as PyYAML writes
  non-ASCII, and ``\\n``, ``\\"``, ``\\\\``, as ``pitch fmt`` writes a note), merge keys
  ``<<``, number spellings ``0x`` ``0o`` ``0b`` ``1_000``, ``.inf``/``.nan``,
  1,000-digit numbers, a ``...`` line but the one that ends the document), and
- the parsed value is what the core schema would build: one document, a mapping,
  every key a string, every value a string (neither starting ``|`` or ``>``), int, finite float, bool, None, list
  or mapping, within ``max_depth`` and ``max_nodes`` counted as ``build_data``
  counts them (checked at C speed through orjson's serialization when the text
  can hold no float, by a walk otherwise).

Anything else returns None, and the caller reads the document with the locating
loader, which alone writes diagnostics: a document with a problem is never
refused here, so no diagnostic can change. Without the yaml-rs wheel
(``AVAILABLE`` False) every document takes the locating loader.
"""

from __future__ import annotations

import os
import re
from typing import Any

from pitchcli.record import rs
from pitchcli.record.document import Limits
from pitchcli.record.json_limits import json_within, may_hold_float

# An optional speed-up: a machine without the wheel reads with libyaml
# (imported by ``rs``: in the program, without ``pathlib``).
_yaml_rs = rs.yaml_rs()
try:  # checks the compiled parser's data at C speed; without it, a Python walk
    import orjson as _orjson
except ImportError:  # pragma: no cover
    _orjson = None

__all__ = ["AVAILABLE", "fast_read", "may_hold_float"]

AVAILABLE = _yaml_rs is not None and not os.environ.get("PITCH_NO_FAST_PARSE")
"""Whether the compiled parser is installed and not turned off (the environment
variable ``PITCH_NO_FAST_PARSE``, for benchmarks and bug reports). Tests set this
to False to run the locating loader alone; it is read on every use, so only here."""

# Bytes after which the compiled reading may differ from the locating one (see
# the module docstring). Found at C speed: single ASCII bytes by deleting every
# other byte, the rest by literal searches; a regex of many alternatives costs as
# much as the parse itself.
_ODD_ASCII = bytes([*range(0x00, 0x0A), *range(0x0B, 0x20), 0x7F]) + b"!&*%?|>\\"
# controls, tab, CR; tag, anchor, alias, directive, an explicit key, a block
# scalar's header, escape (and every non-ASCII byte, looked at below)
_WIDE = bytes(range(0x80, 0x100))
_ODD_OR_WIDE = bytes(range(256)).translate(None, _ODD_ASCII + bytes(range(0x80, 0x100)))
_ODD_WIDE = re.compile(
    rb"\xc2[\x80-\xa0]"  # C1 controls (NEL U+0085 among them) and NBSP
    rb"|\xe2\x80[\xa8\xa9]"  # LS U+2028, PS U+2029
    rb"|\xef\xbb\xbf|\xef\xbf[\xbe\xbf]"  # a BOM inside, U+FFFE, U+FFFF
)
_RADIX = re.compile(rb"0[xXoObB]")  # 0x1F, 0o17, 0b1: text to the core schema
_UNDERSCORE = re.compile(rb"[0-9]_|_[0-9]")  # 1_000: text to the core schema
_INF_NAN = re.compile(rb"\.[iInN][nNaA][fFnN]")  # .inf, .nan and their spellings
# The marks of a tag, an anchor, an alias or a directive ("!", "&", "*", "%")
# are text where they follow a word's last character (a letter, a digit, a
# non-ASCII byte, "." or ")"): "Good game!", "50%", "a*b"; and so is an "&"
# between words, as in a team's name ("Ann & Cal", the name ``pitch`` gives a
# team by its members). A tag, an anchor or an alias starts a node (at a line's
# start, after a space or an indicator: "- &a x", ": *a", "[!t x]") and a
# directive a line, never right after a word, and an anchor's "&" is followed by
# its name, never by a space; so a chunk whose every mark is one of these holds
# none of them. (After an indicator, "- & x", ": & x", "[& x]" are anchors
# without a name: errors to both parsers; they are not let through.)
#
# So are "?", "|" and ">" right after a word ("Who led?", "a|b"): elsewhere they
# may be an explicit key (libyaml reads "[?a]" as a mapping, yaml-rs as text) or
# a block scalar's header (an empty one is "" to libyaml, "\n" to yaml-rs); a
# record ``pitch`` writes has neither (it quotes such text, and the quote is no word).
_TEXT_MARKS = b"!&*%?|>"
_TEXT_MARKS_OR_ESCAPE = _TEXT_MARKS + b"\\"  # (and a backslash: an escape read alike, below)
# Each byte as what it is next to a mark: a word's last character "w", a space,
# a mark itself, or "_" (anything else). Counted at C speed: a regex's scan of a
# ten-point record for its marks cost five times as much.
_MARK_CONTEXT = bytes(
    0x77 if (chr(b).isascii() and (chr(b).isalnum() or chr(b) in "_.)")) or b >= 0x80
    else b if b in b" !&*%?|>" else 0x5F for b in range(256))

# Each byte as what it is next to a colon: a word's last character "w", a quote
# "q", a space or line end " ", a backslash or a slash "a", the colon itself, or
# "_" (anything else). A colon reads the same to both parsers after a word or a
# quote and before a space, a line end, a word, a quote, a backslash or a slash
# ("key: x", "'key': x", "10:30", '"a":"b"', "Hand 3:\\n" in a quoted note,
# "http://"); elsewhere it may not: libyaml refuses "[a:]", "[a:,b]" and
# '["a":!b]' that yaml-rs reads as mappings, and reads "[:x]" apart.
_COLON_CONTEXT = bytes(
    0x77 if _MARK_CONTEXT[b] == 0x77 else 0x71 if b in b"\"'" else 0x20 if b in b" \n" else 0x61 if b in b"\\/"
    else b if b == 0x3A else 0x5F for b in range(256))
_OTHER_COLONS_ALIKE = (b"q: ", b"w:w", b"q:w", b"w:q", b"q:q", b"w:a", b"q:a")  # (and "w: ")
# A flow mapping that goes on past its line, or holds another: yaml-rs reads a
# key written over two lines ("{a\n b: c}") that libyaml refuses (an implicit
# key is one line). ``pitch`` writes a flow mapping on one line, with none
# inside. Seen at C speed: with every byte but braces, line feeds and quotes
# deleted, each "{" is followed by its "}". (A quote between them is doubtful
# too: a quoted "}" would otherwise hide a mapping that goes on.)
_NOT_FLOW_MAPPING_BOUNDS = bytes(range(256)).translate(None, b"{}\n\"'")


# A double-quoted scalar's escape of one character by its code (YAML's \\x, \\u,
# \\U), as PyYAML's ``safe_dump`` writes every non-ASCII letter ("Zo\\xEB"): the
# same character to both parsers, where it is a letter's. (A surrogate's is not:
# libyaml keeps it, yaml-rs refuses it or joins a pair; a control's, a line or
# paragraph separator's, a BOM's or a noncharacter's are left to the locating
# loader too.) And the escapes of a line feed, a quote and a backslash ("\\n",
# '\\"', "\\\\"), as ``pitch fmt`` writes a note of several lines or with a
# quote: the same to both. Outside double quotes a backslash is text to both.
_ESCAPE = re.compile(rb'\\(?:x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|([n"\\]))')
_ESCAPED_BACKSLASH = (b"", b"", b"", b"\\")  # (an escape's groups, as ``findall`` gives them)
_NOT_LETTERS = frozenset({0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF})


def _escapes_alike(chunk: bytes, backslashes: int) -> bool:
    """Whether each of the ``backslashes`` backslashes of ``chunk`` is in an
    escape both parsers read alike: of a character from U+00A0 on that is no
    surrogate, separator, BOM or noncharacter, or of a line feed, a quote or a
    backslash (any other escape: no). Escapes are read from the left, as a
    double-quoted scalar's are: "\\\\xEB" is an escaped backslash, then text."""
    found = _ESCAPE.findall(chunk)
    if len(found) + found.count(_ESCAPED_BACKSLASH) != backslashes:
        return False
    for groups in set(found):
        if groups[3]:
            continue  # (\\n, \\", \\\\)
        code = int(b"".join(groups), 16)
        if code < 0xA0 or 0xD800 <= code <= 0xDFFF or code in _NOT_LETTERS or code > 0x10FFFF:
            return False
    return True


def _colons_alike(chunk: bytes) -> bool:
    """Whether every colon of ``chunk`` is one both parsers read alike: after a
    word or a quote, before a space, a line end, a word, a quote, a backslash, a
    slash or the end. (Counted at C speed, a key's "w: " first, the only kind in
    most records; "w:w:w" counts once, so "1:2:3" is doubtful: safe, and rare.)"""
    context = chunk.translate(_COLON_CONTEXT)
    colons = context.count(b":")
    alike = context.count(b"w: ")
    if alike == colons:
        return True
    alike += sum(map(context.count, _OTHER_COLONS_ALIKE)) + context.endswith((b"w:", b"q:"))
    return alike == colons


def _marks_in_text(chunk: bytes, marks: bytes) -> int:
    """How many of the marks in ``chunk`` (``marks``: each as found) are text:
    right after a word, or an "&" between words."""
    context = chunk.translate(_MARK_CONTEXT)
    found = 0
    for mark in set(marks):
        found += context.count(bytes((0x77, mark)))
        if mark == 0x26:  # "&"
            found += context.count(b"w & ")
    return found


# In the compiled parser's data, serialized: a string starting "|" or ">" (a
# quote inside a string is escaped, so an opening quote never follows a backslash).
_INDICATOR_STRING = re.compile(rb'(?<!\\)"[|>]')


_SCALARS = (bool, type(None))
# A text starting so is no plain scalar to libyaml ("|x", "> y" in flow style are
# syntax errors there, plain text to yaml-rs); in block style yaml-rs reads a
# block scalar's content, which the header never starts.
_INDICATORS = ("|", ">")


def _doubtful(chunk: bytes) -> bool:
    """Whether the bytes hold anything whose reading may differ."""
    odd = chunk.translate(None, _ODD_OR_WIDE)
    if odd:
        ascii_odd = odd.translate(None, _WIDE)
        if ascii_odd:  # an odd ASCII byte: a mark too, but one inside a word's text, or an escape read alike
            if ascii_odd.translate(None, _TEXT_MARKS_OR_ESCAPE):
                return True
            marks = ascii_odd.translate(None, b"\\")
            if marks and len(marks) != _marks_in_text(chunk, marks):
                return True
            if len(marks) < len(ascii_odd) and not _escapes_alike(chunk, len(ascii_odd) - len(marks)):
                return True
        if len(ascii_odd) < len(odd) and _ODD_WIDE.search(chunk) is not None:
            return True
    if b"<<" in chunk or b"\n..." in chunk or chunk.startswith(b"..."):
        return True  # a merge key; a "..." that does not end the document
    if not _colons_alike(chunk):
        return True
    if b"{" in chunk:
        bounds = chunk.translate(None, _NOT_FLOW_MAPPING_BOUNDS)
        if bounds.count(b"{") != bounds.count(b"{}"):
            return True
    if b"_" in chunk and _UNDERSCORE.search(chunk) is not None:
        return True
    return _RADIX.search(chunk) is not None or _INF_NAN.search(chunk) is not None


def fast_read(chunk: bytes, text: str, limits: Limits) -> tuple[dict[str, Any], bool] | None:
    """The data of the one YAML document in ``chunk`` (``text`` is its decoded
    text) and whether it holds a float, as the locating loader would build it;
    None when the compiled parser is missing or this reading cannot be vouched
    for (then the locating loader reads it)."""
    if _yaml_rs is None or not AVAILABLE:
        return None
    if b"\r" in chunk:
        # CRLF line ends (a file saved on Windows): one line break each, which
        # YAML reads as a line feed wherever it is content (a folded or block
        # scalar), so the reading is the same with LF. A CR left (alone) is doubtful.
        chunk, text = chunk.replace(b"\r\n", b"\n"), text.replace("\r\n", "\n")
    body = chunk
    end = chunk.rfind(b"\n", 0, len(chunk) - 1) + 1
    if chunk.startswith(b"...", end) and not chunk[end + 3 :].strip(b" \n"):
        body = chunk[:end]  # the "..." that ends the document, as the stream cut it
    if _doubtful(body):
        return None
    try:
        data = _yaml_rs.loads(text, parse_datetime=False)
    except BaseException as e:  # a syntax error, a duplicate key, a Rust panic ...
        if isinstance(e, KeyboardInterrupt | SystemExit | GeneratorExit):
            raise
        return None
    if type(data) is not dict:
        return None  # several documents, a list, a scalar, empty: the loader says
    if _orjson is not None and not may_hold_float(body):
        return _vouch_serialized(data, limits)
    return _vouch(data, limits)


def _vouch_serialized(data: dict[str, Any], limits: Limits) -> tuple[dict[str, Any], bool] | None:
    """``_vouch`` at C speed, for data that holds no float: orjson refuses a
    key that is not a string and an integer beyond 64 bits; its output shows a
    string starting ``|`` or ``>``, and bounds the depth and the number of values."""
    try:
        out = _orjson.dumps(data)
    except BaseException as e:  # TypeError: a key that is no string, a big integer; too deep
        if isinstance(e, KeyboardInterrupt | SystemExit | GeneratorExit):
            raise
        return None
    if (b'"|' in out or b'">' in out) and _INDICATOR_STRING.search(out) is not None:
        return None  # (the literal searches first: the regex alone tries every byte)
    if not json_within(out, limits.max_depth, limits.max_nodes):
        return None
    return data, False


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
            elif t is int:
                if not -(2**63) <= v < 2**64:
                    return None  # int() may refuse its text (4,300 digits); rare: the loader decides
            elif t not in _SCALARS:
                return None
    return data, floats
