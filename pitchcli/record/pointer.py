"""JSON Pointers (RFC 6901): split, escaped and joined.

Plain string work, apart from ``locate`` (which walks a pointer down a node
tree): a reader that only names where a problem is needs no YAML node types,
so a JSON file is read without importing PyYAML (start-up).
"""

from __future__ import annotations

__all__ = ["escape_segment", "join_pointer", "parse_pointer"]


def parse_pointer(pointer: str) -> list[str]:
    """Split an RFC 6901 JSON Pointer into its unescaped segments.

    ``""`` is the whole document. Raises ``ValueError`` for a non-empty pointer
    that does not start with ``/`` (a programming error, not a record problem).
    """
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"a JSON Pointer starts with '/': {pointer!r}")
    # ~1 first, then ~0, as RFC 6901 section 4 requires ("~01" is "~1").
    return [s.replace("~1", "/").replace("~0", "~") for s in pointer[1:].split("/")]


def escape_segment(segment: str | int) -> str:
    """Escape one pointer segment (``~`` and ``/``)."""
    return str(segment).replace("~", "~0").replace("/", "~1")


def join_pointer(segments: list[str | int] | tuple[str | int, ...]) -> str:
    """The JSON Pointer of a path of keys and indices (``[]`` is ``""``)."""
    return "".join("/" + escape_segment(s) for s in segments)
