"""The checks ``json.loads`` does not make, on loaded JSON data: nesting deeper
than ``max_depth`` (L107), more than ``max_nodes`` values (L106), a number that
is infinite, NaN or too large (L112), a string or key with an unpaired
surrogate escape (L112).

Most records are within every limit, so the data is walked only when the text
says it may not be (``json_within``, read at C speed from the text); then a
fast pass over the values (``json_plain``) and, if that finds a problem, the
walk that finds where (``check_json``).
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["check_json", "json_plain", "json_within", "may_hold_float"]

# The bytes of a JSON text that can be structure: brackets (braces read as
# brackets, as the depth counts both alike) and quotes; everything else is deleted.
_BRACKETS = bytes.maketrans(b"{}", b"[]")
_NOT_STRUCTURE = bytes(c for c in range(256) if c not in b'[]{}"')


# A float may be in the text only where a digit meets "." or an exponent: a
# digit then ".", "e" or "E", or "." then a digit. Found by mapping digits to
# "0" and ".eE" to "." (C speed; a regex of those alternatives tries every byte,
# seven times slower): "0." or ".0" then. An "e" before a digit reads as ".0"
# too: a float that isn't there, which only sends the data to the slower reading.
_FLOATISH_MAP = bytes(0x30 if chr(b).isdigit() and b < 0x80 else 0x2E if b in b".eE" else 0x20 for b in range(256))


def may_hold_float(body: bytes) -> bool:
    """Whether the text ``body`` may hold a float (never false where one is)."""
    mapped = body.translate(_FLOATISH_MAP)
    return b"0." in mapped or b".0" in mapped


def json_within(text: str | bytes, max_depth: int, max_nodes: int) -> bool:
    """True when the JSON text ``text`` (which ``json.loads`` accepted; as a
    string or as UTF-8 bytes) surely nests at most ``max_depth`` deep and holds
    at most ``max_nodes`` values, as :func:`check_json` counts them; False when
    it may not (the walk decides).

    Read from the text at C speed rather than by walking the data: the
    structure's brackets, without those inside strings, nest exactly as the
    collections do, and removing every empty ``[]`` takes one level off each
    round, so the text is within ``max_depth`` iff that many rounds leave
    nothing. A bracket is inside a string iff an odd number of quotes comes
    before it; once escaped backslashes and quotes are gone, every run of quotes
    of even length means none is, and a run of odd length sends the text to the
    walk instead. (The runs are told apart by counting the ``""`` pairs, which
    takes half the quotes exactly when every run is even: a count, not a copy.)
    """
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text  # only ASCII bytes matter
    if b"\\" in raw:
        # Backslashes occur only in strings, paired left to right: \\ is one
        # escaped backslash, then a \" left is an escaped quote.
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    structure = raw.translate(_BRACKETS, _NOT_STRUCTURE)
    skeleton = structure.translate(None, b'"')
    if 2 * structure.count(b'""') != len(structure) - len(skeleton):
        return False
    # Values: a collection counts 1 and 1 per item (check_json); every item
    # but a collection's first follows a comma, and a collection has 2 brackets.
    if len(raw) > max_nodes and raw.count(b",") + len(skeleton) > max_nodes:
        return False
    for _ in range(max_depth):
        skeleton = skeleton.replace(b"[]", b"")
        if not skeleton:
            return True
    return False


class _Found(Exception):
    """A problem found in loaded JSON data; ``path`` grows from it to the root."""

    def __init__(self, code: str, message: str, is_key: bool = False) -> None:
        super().__init__(message)
        self.code, self.message, self.is_key = code, message, is_key
        self.path: list[str | int] = []


def json_plain(data: dict[str, Any], max_depth: int, max_nodes: int) -> bool:
    """The fast pass of :func:`check_json`: True when the data is within the
    depth and size limits and holds no infinite or NaN float. Values only, no
    keys or paths: the slow pass finds where, in the rare case there is a problem."""
    count = 0

    def fine(value: dict[str, Any] | list[Any], depth: int) -> bool:
        nonlocal count
        count += len(value) + 1
        if depth > max_depth or count > max_nodes:
            return False
        for v in value.values() if type(value) is dict else value:
            t = type(v)
            if t is dict or t is list:
                if not fine(v, depth + 1):
                    return False
            elif t is float and v - v != 0:  # inf - inf and nan - nan are nan
                return False
        return True

    return fine(data, 1)


def check_json(
    data: dict[str, Any], max_depth: int, max_nodes: int, check_strings: bool
) -> tuple[str, str, list[str | int], bool] | None:
    """The first problem of loaded JSON data that json.loads lets through:
    too deep (L107), too many values (L106), a non-finite number (L112) or, when
    ``check_strings``, a string with a lone surrogate escape (L112); as
    ``(code, message, path, is_key)``."""
    if not check_strings and json_plain(data, max_depth, max_nodes):
        return None
    count = 0

    def bad_string(s: str) -> bool:
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False

    def walk(value: dict[str, Any] | list[Any], depth: int) -> None:
        nonlocal count
        if depth > max_depth:
            raise _Found("L107", f"collections nested more than {max_depth} deep")
        count += len(value) + 1
        if count > max_nodes:
            raise _Found("L106", f"the document has more than {max_nodes} values")
        items = value.items() if type(value) is dict else enumerate(value)
        for k, v in items:
            t = type(v)
            try:
                if check_strings and type(k) is str and bad_string(k):
                    raise _Found("L112", "a key with an unpaired surrogate escape", True)
                if t is dict or t is list:
                    walk(v, depth + 1)
                elif t is float:
                    if not math.isfinite(v):
                        raise _Found("L112", f"{v} (infinity, NaN or too large) cannot be in a record")
                elif check_strings and t is str and bad_string(v):
                    raise _Found("L112", "a string with an unpaired surrogate escape")
            except _Found as found:
                found.path.append(k)
                raise

    try:
        walk(data, 1)
    except _Found as found:
        return found.code, found.message, found.path[::-1], found.is_key
    return None
