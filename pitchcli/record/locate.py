"""Source positions for values of a loaded record: JSON Pointers walked down a node tree.

A YAML document keeps the node tree that libyaml composed (every node has a
``start_mark`` with a 0-based line and column), so locating a value is a walk of
the pointer's segments down that tree: no position table is built up front.

A JSON document has no such tree (``json.loads`` gives plain data only), so when a
position is first needed, :func:`compose_json` scans the text once into the same
kind of tree (``yaml.nodes`` with ``yaml.Mark`` positions) and the same walk is
used. The scanner is ours, not libyaml's: libyaml's YAML reading of some JSON
texts (tabs as indentation, long keys) differs from JSON's, and the scanner also
serves the loader on its error paths (duplicate keys, nesting deeper than
``json`` can recurse), where the text is valid JSON apart from the problem.

Nothing here knows the record format.
"""

from __future__ import annotations

import bisect
import json.decoder
import re
from collections.abc import Iterator

from yaml.error import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

__all__ = [
    "MAP_TAG",
    "SEQ_TAG",
    "STR_TAG",
    "JsonScanError",
    "JsonTooDeep",
    "KeyCache",
    "compose_json",
    "iter_duplicate_keys",
    "walk_pointer",
]

STR_TAG = "tag:yaml.org,2002:str"
MAP_TAG = "tag:yaml.org,2002:map"
SEQ_TAG = "tag:yaml.org,2002:seq"
# Tag of a JSON number or literal in a tree made by compose_json (never a YAML tag).
JSON_TOKEN_TAG = "json:token"


KeyCache = dict[int, dict[str, tuple[ScalarNode, Node]]]
"""Per mapping node (by id): key -> (first key node, value node), for big mappings."""

_SCAN_KEYS = 16  # mappings up to this size are scanned; bigger ones indexed once


def walk_pointer(
    root: Node, segments: list[str], cache: KeyCache | None = None
) -> tuple[Node, ScalarNode | None, bool]:
    """Walk ``segments`` down a node tree.

    Returns ``(node, key_node, found)``: when every segment exists, the value's
    node, the key node of the last segment if it named a mapping key (else
    ``None``) and ``True``; otherwise the deepest existing ancestor, ``None`` and
    ``False`` (so a missing key points at the mapping that lacks it). With a
    ``cache`` (kept by the caller for one tree), a big mapping's keys are indexed
    on its first lookup, so locating every key of a huge mapping stays linear.
    """
    node = root
    key_node: ScalarNode | None = None
    for segment in segments:
        key_node = None
        if isinstance(node, MappingNode):
            pairs = node.value
            if cache is not None and len(pairs) > _SCAN_KEYS:
                index = cache.get(id(node))
                if index is None:
                    index = {}
                    for k, v in pairs:
                        if isinstance(k, ScalarNode):
                            index.setdefault(k.value, (k, v))
                    cache[id(node)] = index
                hit = index.get(segment)
                if hit is None:
                    return node, None, False
                key_node, node = hit
                continue
            for k, v in pairs:
                # Keys of a loaded document are scalars whose value is the key string
                # (the loader refuses any other key), so this is an exact match.
                if isinstance(k, ScalarNode) and k.value == segment:
                    key_node, node = k, v
                    break
            else:
                return node, None, False
        elif isinstance(node, SequenceNode):
            # RFC 6901 array indices: "0" or digits without a leading zero.
            if not segment.isdigit() or (segment != "0" and segment[0] == "0"):
                return node, None, False
            i = int(segment)
            if i >= len(node.value):
                return node, None, False
            node = node.value[i]
        else:
            return node, None, False
    return node, key_node, True


def iter_duplicate_keys(
    root: Node,
) -> Iterator[tuple[list[str | int], ScalarNode, ScalarNode]]:
    """Yield ``(path of the mapping, first key node, repeated key node)`` for every
    repeated key in a tree made by :func:`compose_json`, in document order."""
    stack: list[tuple[Node, list[str | int]]] = [(root, [])]
    found: list[tuple[list[str | int], ScalarNode, ScalarNode]] = []
    while stack:
        node, path = stack.pop()
        if isinstance(node, MappingNode):
            first: dict[str, ScalarNode] = {}
            for k, v in node.value:
                if k.value in first:
                    found.append((path, first[k.value], k))
                else:
                    first[k.value] = k
                    stack.append((v, [*path, k.value]))
        elif isinstance(node, SequenceNode):
            for i, v in enumerate(node.value):
                stack.append((v, [*path, i]))
    # The stack visits in no useful order; report as the text reads.
    found.sort(key=lambda f: f[2].start_mark.index)
    yield from found


# --------------------------------------------------------------------------- JSON


class JsonScanError(ValueError):
    """The text is not one valid JSON value (at character index ``pos``)."""

    def __init__(self, message: str, pos: int) -> None:
        super().__init__(f"{message} at character {pos}")
        self.pos = pos


class JsonTooDeep(JsonScanError):
    """Nesting deeper than the scanner's ``max_depth``: ``pos`` is the opening
    bracket of the first too-deep collection, ``path`` its keys and indices."""

    def __init__(self, pos: int, path: list[str | int]) -> None:
        super().__init__("nesting too deep", pos)
        self.path = path


_WS = re.compile(r"[ \t\n\r]*")
_TOKEN = re.compile(
    r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?|true|false|null|NaN|-?Infinity"
)
_scanstring = json.decoder.scanstring


class _Marks:
    """Character index -> yaml Mark (0-based line and column), by bisecting line starts."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def __call__(self, index: int) -> Mark:
        line = bisect.bisect_right(self.starts, index) - 1
        return Mark("<json>", index, line, index - self.starts[line], None, None)


def compose_json(text: str, max_depth: int = 0) -> Node:
    """Scan one JSON value (surrounding whitespace allowed) into a node tree.

    Mappings and sequences get the standard YAML tags, strings (and keys)
    ``STR_TAG`` with their decoded value, numbers and literals ``JSON_TOKEN_TAG``
    with their source text. Duplicate keys are kept, in order. Iterative, so any
    depth is scanned in bounded stack; with ``max_depth`` > 0 a collection nested
    deeper raises :class:`JsonTooDeep`. Invalid JSON raises :class:`JsonScanError`.
    """
    mark = _Marks(text)
    ws = _WS.match
    n = len(text)
    stack: list[Node] = []  # the open collections, outermost first
    pending_key: list[ScalarNode | None] = []  # per open collection: key awaiting its value
    root: Node | None = None
    pos = ws(text, 0).end()

    def read_key(pos: int) -> int:
        """Read ``"key" :`` at pos (after whitespace); return the index of the value."""
        if not text.startswith('"', pos):
            raise JsonScanError("expected a string key", pos)
        try:
            key, end = _scanstring(text, pos + 1, True)
        except ValueError as e:  # JSONDecodeError
            raise JsonScanError("bad string", pos) from e
        pending_key[-1] = ScalarNode(STR_TAG, key, mark(pos), mark(end))
        end = ws(text, end).end()
        if not text.startswith(":", end):
            raise JsonScanError("expected ':'", end)
        return ws(text, end + 1).end()

    while True:
        # ---- a value starts at pos
        if pos >= n:
            raise JsonScanError("expected a value", pos)
        c = text[pos]
        node: Node
        opened = False
        if c == "{" or c == "[":
            node = (MappingNode if c == "{" else SequenceNode)(
                MAP_TAG if c == "{" else SEQ_TAG, [], mark(pos), None
            )
            opened = True
            end = pos + 1
        elif c == '"':
            try:
                s, end = _scanstring(text, pos + 1, True)
            except ValueError as e:
                raise JsonScanError("bad string", pos) from e
            node = ScalarNode(STR_TAG, s, mark(pos), mark(end))
        else:
            m = _TOKEN.match(text, pos)
            if m is None:
                raise JsonScanError("expected a value", pos)
            end = m.end()
            node = ScalarNode(JSON_TOKEN_TAG, m.group(), mark(pos), mark(end))
        # attach it to its parent
        if not stack:
            root = node
        else:
            parent = stack[-1]
            if isinstance(parent, MappingNode):
                parent.value.append((pending_key[-1], node))
            else:
                parent.value.append(node)
        pos = ws(text, end).end()
        if opened:
            stack.append(node)
            pending_key.append(None)
            if max_depth and len(stack) > max_depth:
                raise JsonTooDeep(node.start_mark.index, _path_of(stack))
            closer = "}" if c == "{" else "]"
            if text.startswith(closer, pos):
                pos += 1  # an empty collection: fall through to "after a value"
                node.end_mark = mark(pos)
                stack.pop()
                pending_key.pop()
            else:
                if c == "{":
                    pos = read_key(pos)
                continue
        # ---- after a value: a comma, or the closer of the innermost collection
        while True:
            pos = ws(text, pos).end()
            if not stack:
                if pos != n:
                    raise JsonScanError("extra data", pos)
                assert root is not None
                return root
            top = stack[-1]
            is_map = isinstance(top, MappingNode)
            ch = text[pos] if pos < n else ""
            if ch == ",":
                pos = ws(text, pos + 1).end()
                if is_map:
                    pos = read_key(pos)
                break
            if ch == ("}" if is_map else "]"):
                pos += 1
                top.end_mark = mark(pos)
                stack.pop()
                pending_key.pop()
                continue
            raise JsonScanError("expected ',' or a closing bracket", pos)


def _path_of(stack: list[Node]) -> list[str | int]:
    """Keys and indices from the root down to the last collection in ``stack``."""
    path: list[str | int] = []
    for parent in stack[:-1]:
        if isinstance(parent, MappingNode):
            path.append(parent.value[-1][0].value)
        else:
            path.append(len(parent.value) - 1)
    return path
