"""Building a composed YAML document's plain data with the project's core schema.

The node tree is libyaml's (it has the positions); the data is ours, built
with the YAML 1.2 *core schema*, for plain (unquoted, untagged) scalars only:

- ``null Null NULL ~`` and empty are None; ``true True TRUE false False
  FALSE`` are booleans; ``[-+]?[0-9]+`` is an int (so ``017`` is 17, decimal as
  in YAML 1.2; ``0x1F``, ``0o17``, ``1_000`` stay strings);
  ``[-+]?(.[0-9]+|[0-9]+(.[0-9]*)?)([eE][-+]?[0-9]+)?`` is a float. Everything
  else is a string: ``no``, ``yes``, ``on``, ``off``, ``2026-11-28``,
  ``12:30``. Quoted scalars are always strings.
- Standard tags ``!!str !!int !!float !!bool !!null !!map !!seq`` are accepted
  when the value fits them; the non-specific tag ``!`` reads as no tag (libyaml
  and PyYAML treat it so); any other tag (``!!python/object``, ``!!timestamp``,
  ``!local`` ...) is L112, never built.
- **Infinity and NaN** (YAML ``.inf``/``.nan``, or a float too large such as
  ``1e999``) are refused with L112: no record field holds them and they cannot
  be written back as JSON. So is an integer of more digits than ``int()`` reads.
- **Mapping keys** are strings: a plain scalar key is kept as its text, so
  ``1: x`` has the key ``"1"`` and ``null: x`` the key ``"null"`` (JSON keys are
  strings, and a player may be named anything). A key that is a collection or
  has a non-``!!str`` tag is L112. A repeated key is L104 at the repetition.
- **Aliases** (``*a``) are refused (L105), found as a node reached twice while we
  build the data (libyaml shares the anchored node), so a "billion laughs" or a
  cyclic ``&a [*a]`` is refused at its first alias in bounded time. An anchor
  that is never used is harmless and is accepted.
- Deeper than ``max_depth`` is L107, more than ``max_nodes`` values L106.
"""

from __future__ import annotations

import math
import re
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode

from pitchcli.escape import quote
from pitchcli.record.document import Limits
from pitchcli.record.locate import MAP_TAG, SEQ_TAG, STR_TAG
from pitchcli.record.yaml_parser import PLAIN

__all__ = ["Refused", "build_data"]

# Standard tags a scalar may have (their values checked as they are built).
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"

_NULLS = {"": None, "~": None, "null": None, "Null": None, "NULL": None}
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_SPECIAL: dict[str, Any] = {**_NULLS, **_BOOLS}
_MISSING = object()
# Plain scalars whose value is known without a look: the specials, and the texts
# that start like a number once resolved (an int, or the text: cards such as
# 10H, bids). Floats are left out (a document's float flag is set as they are
# read). Bounded: hostile files have many texts.
_RESOLVED: dict[str, Any] = dict(_SPECIAL)
_RESOLVED_MAX = len(_SPECIAL) + 4096
_NUMBER_START = frozenset("0123456789+-.")
_INT_RE = re.compile(r"[-+]?[0-9]+\Z")
_FLOAT_RE = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z")
_INF_NAN_RE = re.compile(r"[-+]?\.(?:inf|Inf|INF)\Z|\.(?:nan|NaN|NAN)\Z")


class Refused(Exception):
    """A problem that stops building a document (alias, depth, size). ``path``
    collects the keys and indices from the problem up to the root; ``problems``
    are those found before it, reported with it."""

    def __init__(self, code: str, message: str, node: Node) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.node = node
        self.path: list[str | int] = []
        self.problems: list[tuple[str, str, Node]] = []


def _short_tag(tag: str) -> str:
    return "!!" + tag[18:] if tag.startswith("tag:yaml.org,2002:") else tag


def build_data(
    root: Node, limits: Limits, check_shared: bool
) -> tuple[Any, list[tuple[str, str, Node]], bool]:
    """The plain data of a composed YAML document, its problems
    ``(code, message, node)`` (duplicate keys, refused tags and keys, numbers a
    record cannot hold) and whether it holds a float. Raises :class:`Refused`
    for an alias (when ``check_shared``: the text has a ``*``), too deep or too
    many nodes."""
    problems: list[tuple[str, str, Node]] = []
    seen: set[int] = set()
    max_depth = limits.max_depth
    max_nodes = limits.max_nodes
    count = 0
    floats = False

    def number(value: str, node: Node) -> Any:
        nonlocal floats
        if _INT_RE.match(value):
            try:
                return int(value)
            except ValueError:  # more digits than int() converts (4300)
                problems.append(("L112", "an integer with too many digits", node))
                return None
        if _FLOAT_RE.match(value):
            f = float(value)
            if math.isfinite(f):
                floats = True
                return f
            problems.append(("L112", f"{value} is too large a number", node))
            return None
        if _INF_NAN_RE.match(value):
            problems.append(("L112", f"{value} (infinity or NaN) cannot be in a record", node))
            return None
        return value

    def tagged(node: ScalarNode) -> Any:
        nonlocal floats
        tag, value = node.tag, node.value
        if tag == _INT and _INT_RE.match(value):
            return number(value, node)
        if tag == _FLOAT and (_FLOAT_RE.match(value) or _INF_NAN_RE.match(value)):
            f = number(value, node)
            floats = True
            return float(f) if isinstance(f, int) else f
        if tag == _BOOL and value in _BOOLS:
            return _BOOLS[value]
        if tag == _NULL and value in _NULLS:
            return None
        if tag in (_INT, _FLOAT, _BOOL, _NULL):
            problems.append(("L112", f"{quote(value)} is not a valid {_short_tag(tag)}", node))
        else:
            problems.append(("L112", f"the tag {_short_tag(tag)} is not allowed in a record", node))
        return None

    def shared(node: Node) -> None:
        raise Refused(
            "L105", "an alias (*) is not allowed in a record: write the value out", node
        )

    def plain(node: ScalarNode) -> Any:
        """The value of a plain (unquoted, untagged) scalar: the core schema."""
        value = node.value
        r = _RESOLVED.get(value, _MISSING)
        if r is not _MISSING:
            return r
        if value[0] not in _NUMBER_START:
            return value
        r = number(value, node)
        if r is not None and r.__class__ is not float and len(_RESOLVED) < _RESOLVED_MAX:
            _RESOLVED[value] = r
        return r

    # The loops below take a plain scalar (most values: cards, bids, names) in
    # line, without a call of build(), when build()'s checks surely pass: no
    # alias can be in the text and the count stays within max_nodes.
    def build(node: Node, depth: int) -> Any:
        nonlocal count
        count += 1
        if count > max_nodes:
            raise Refused("L106", f"the document has more than {max_nodes} values", node)
        if check_shared:
            i = id(node)
            if i in seen:
                shared(node)
            seen.add(i)
        cls = node.__class__
        if cls is ScalarNode:
            tag = node.tag
            if tag is PLAIN:  # identity: our resolver returns this very object
                return plain(node)
            if tag == STR_TAG:
                return node.value
            return tagged(node)
        if depth > max_depth:
            raise Refused("L107", f"collections nested more than {max_depth} deep", node)
        if node.tag != (MAP_TAG if cls is MappingNode else SEQ_TAG):
            problems.append(
                ("L112", f"the tag {_short_tag(node.tag)} is not allowed in a record", node)
            )
        if cls is MappingNode:
            d: dict[str, Any] = {}
            key: str | None = None
            try:
                for knode, vnode in node.value:
                    key = None
                    if check_shared:
                        i = id(knode)
                        if i in seen:
                            shared(knode)
                        seen.add(i)
                    if knode.__class__ is not ScalarNode or not (
                        knode.tag is PLAIN or knode.tag == STR_TAG
                    ):
                        problems.append(("L112", "a mapping key must be a plain string", knode))
                        count += 1
                        continue
                    key = knode.value
                    if (vnode.__class__ is ScalarNode and vnode.tag is PLAIN and count < max_nodes
                            and not check_shared):
                        count += 1
                        text = vnode.value
                        value = _RESOLVED.get(text, _MISSING)
                        if value is _MISSING:
                            value = plain(vnode) if text[0] in _NUMBER_START else text
                    else:
                        value = build(vnode, depth + 1)
                    if key in d:
                        problems.append(("L104", key, knode))
                    else:
                        d[key] = value
            except Refused as refused:
                if key is not None:
                    refused.path.append(key)
                raise
            return d
        out: list[Any] = []
        append = out.append
        try:
            for item in node.value:
                if (item.__class__ is ScalarNode and item.tag is PLAIN and count < max_nodes
                        and not check_shared):
                    count += 1
                    text = item.value
                    value = _RESOLVED.get(text, _MISSING)
                    if value is _MISSING:
                        value = plain(item) if text[0] in _NUMBER_START else text
                    append(value)
                else:
                    append(build(item, depth + 1))
        except Refused as refused:
            refused.path.append(len(out))
            raise
        return out

    try:
        data = build(root, 1)
        return data, problems, floats
    except Refused as refused:
        refused.problems = problems  # found before it: reported too
        raise
    finally:
        # build() calls itself through its closure: a reference cycle per
        # document, which only the cyclic collector would free (summarize's
        # memory must not wait for it). Cut it.
        build = None  # type: ignore[assignment]

