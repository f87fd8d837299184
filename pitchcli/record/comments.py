"""Comments are the user's words: found in a YAML text, tied to what they are about.

``fmt`` rewrites a record in the canonical form (keys reordered, cards
normalised, values filled in) and must not lose a comment. The loader builds
values with libyaml, which drops comments, so they are found here, between
libyaml's tokens (a ``#`` outside every token is a comment), and each is tied
to an entry — a mapping key or a list item, named by its path:

- a comment on a line of its own belongs to the entry that follows it (the
  outermost one starting there): written on the line before that entry's;
  those before the first entry are the document's head, written first (a
  ``# yaml-language-server: $schema=...`` modeline stays the first line);
- a comment after a value belongs to the entry written whole on that line (the
  outermost; else the deepest whose key is on it): written at the end of that
  entry's line; comment lines right below it, indented past the start of
  its line, continue it;
- comments after the last entry of the document close the document.

The writer (``write.to_yaml``) knows which entry each line it writes holds;
an entry written inside another's line (a card of a flow list) takes the
nearest enclosing entry's line. Writing the canonical form of a canonical
file with comments changes nothing.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, SequenceNode

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# The line breaks libyaml counts (so that its line numbers index these lines).
_BREAKS = re.compile("\r\n|[\r\n\x85\u2028\u2029]")

Path = tuple[Any, ...]


@dataclass
class Comment:
    """One comment of the source: 0-based line and column, text from ``#``."""

    line: int
    column: int
    text: str
    own_line: bool
    indent: int = 0  # of the line it is on
    continues: list[str] = field(default_factory=list)  # comment lines continuing an end-of-line comment


@dataclass
class Comments:
    """The comments of one document, by the path of the entry they belong to."""

    before: dict[Path, list[Comment]] = field(default_factory=dict)
    after: dict[Path, list[Comment]] = field(default_factory=dict)
    closing: list[Comment] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.before or self.after or self.closing)

    def count(self) -> int:
        """How many comment lines."""
        every = [c for cs in (*self.before.values(), *self.after.values()) for c in cs] + self.closing
        return sum(1 + len(c.continues) for c in every)


def lines(documents: list[Comments | None]) -> int:
    """How many comment lines the documents have."""
    return sum(c.count() for c in documents if c)


class Unscannable(ValueError):
    """A YAML text libyaml's scanner stops on (a control character inside a
    comment, a syntax error): its comments can't all be found. ``line`` and
    ``column`` (1-based) say where, when libyaml says."""

    def __init__(self, reason: str, line: int | None, column: int | None) -> None:
        super().__init__(reason)
        self.reason, self.line, self.column = reason, line, column


def find(text: str) -> tuple[list[Comment], list[int]]:
    """Every comment of a YAML text, and the lines of its ``---`` markers (one
    libyaml scan; nothing when the text has no ``#``). ``Unscannable`` when
    the scanner stops: the loader reports such a text as a syntax error
    (L103), and a comment must never be dropped in silence."""
    if "#" not in text:
        return [], []
    lines = _BREAKS.split(text)
    out: list[Comment] = []
    starts: list[int] = []
    end = (0, 0)
    try:
        for token in yaml.scan(text, Loader=_LOADER):
            start = (token.start_mark.line, token.start_mark.column)
            _gap(lines, end, start, out)
            end = (token.end_mark.line, token.end_mark.column)
            if isinstance(token, yaml.DocumentStartToken):
                starts.append(start[0])
    except yaml.YAMLError as e:
        raise _unscannable(e) from None
    _gap(lines, end, (len(lines) - 1, len(lines[-1])), out)
    return _continued(out), starts


def _unscannable(e: yaml.YAMLError) -> Unscannable:
    """libyaml's error as ``Unscannable``, located where it has a mark.

    A reader error (a character YAML forbids) has a character position, not a
    line; a scanner error has a ``problem_mark`` with both."""
    mark = getattr(e, "problem_mark", None)
    if mark is not None:
        return Unscannable(str(getattr(e, "problem", None) or e), mark.line + 1, mark.column + 1)
    reason = getattr(e, "reason", None)
    return Unscannable(str(reason or e), None, None)


def by_document(found: list[Comment], starts: list[int], roots: list[tuple[Node, int]]) -> list[Comments]:
    """The comments of each document of a stream (``roots``: each one's node tree
    and lines before it): a comment belongs to the document its ``---`` opens."""
    bounds = []
    for root, line0 in roots:
        first = line0 + root.start_mark.line
        bounds.append(max((s for s in starts if s <= first), default=0))
    out = []
    for i, (root, line0) in enumerate(roots):
        lo = bounds[i] if i else -1
        hi = bounds[i + 1] if i + 1 < len(bounds) else float("inf")
        out.append(attach([c for c in found if lo <= c.line < hi], root, line0))
    return out


def of_document(found: list[Comment], starts: list[int], root: Node, line0: int, first: bool) -> Comments | None:
    """The comments of one document of a stream (its node tree ``root``, after
    ``line0`` lines): those from its ``---`` to the next; the ``first``
    document of a file also takes those above its ``---``. None: it has none."""
    begin = line0 + root.start_mark.line
    lo = -1 if first else max((s for s in starts if s <= begin), default=-1)
    hi = min((s for s in starts if s > begin), default=None)
    mine = [n for n in found if n.line >= lo and (hi is None or n.line < hi)]
    return attach(mine, root, line0) if mine else None


def _gap(lines: list[str], a: tuple[int, int], b: tuple[int, int], out: list[Comment]) -> None:
    """Comments between two tokens: only blanks, line breaks and comments are there."""
    for n in range(a[0], min(b[0], len(lines) - 1) + 1):
        line = lines[n]
        lo = a[1] if n == a[0] else 0
        hi = b[1] if n == b[0] else len(line)
        at = line.find("#", lo, hi)
        if at >= 0:
            head = line[:at].lstrip("\ufeff")
            out.append(Comment(n, at, line[at:].rstrip(), not head.strip(), len(line) - len(line.lstrip(" "))))


def _continued(found: list[Comment]) -> list[Comment]:
    """Join to an end-of-line comment the comment lines right below it that are
    indented past the start of its line (``tricks: []  # ...`` then a line of
    ``# ...`` under the comment: one explanation, two lines)."""
    out: list[Comment] = []
    for c in found:
        last = out[-1] if out else None
        if (last is not None and c.own_line and not last.own_line and c.column > last.indent
                and c.line == last.line + 1 + len(last.continues)):
            last.continues.append(c.text)
        else:
            out.append(c)
    return out


def _entries(root: Node, line0: int) -> list[tuple[tuple[int, int], tuple[int, int], Path, bool]]:
    """``(start, end, path, has_key)`` of every entry, in document order; lines absolute."""
    out: list[tuple[tuple[int, int], tuple[int, int], Path, bool]] = []

    def walk(node: Node, path: Path) -> None:
        if isinstance(node, MappingNode):
            for k, v in node.value:
                p = (*path, k.value)
                out.append(((line0 + k.start_mark.line, k.start_mark.column),
                            (line0 + v.end_mark.line, v.end_mark.column), p, True))
                walk(v, p)
        elif isinstance(node, SequenceNode):
            for i, v in enumerate(node.value):
                p = (*path, i)
                out.append(((line0 + v.start_mark.line, v.start_mark.column),
                            (line0 + v.end_mark.line, v.end_mark.column), p, False))
                walk(v, p)

    walk(root, ())
    return out


def attach(found: list[Comment], root: Node, line0: int) -> Comments:
    """Tie each comment of one document (``found``, in source order) to its entry."""
    entries = _entries(root, line0)  # in document order: by start, a parent before its first child
    starts = [e[0] for e in entries]
    out = Comments()
    for c in found:
        pos = (c.line, c.column)
        if not c.own_line:
            here = entries[bisect_left(starts, (c.line, 0)):bisect_left(starts, pos)]
            whole = [e for e in here if e[1] <= pos]
            if whole:
                out.after.setdefault(min(whole, key=lambda e: len(e[2]))[2], []).append(c)
                continue
            keyed = [e for e in here if e[3]]
            if keyed:
                out.after.setdefault(max(keyed, key=lambda e: len(e[2]))[2], []).append(c)
                continue
        i = bisect_right(starts, pos)
        if i == 0:
            out.before.setdefault((), []).append(c)  # the document's head: before its first line
        elif i < len(entries):
            out.before.setdefault(entries[i][2], []).append(c)  # the outermost entry starting there
        else:
            out.closing.append(c)
    return out


def place(lines: list[str], paths: list[list[Path]], comments: Comments) -> list[str]:
    """The written ``lines`` (``paths``: the entries each holds) with the comments
    put back: before, at the end of, or after the line of their entry."""
    line_of: dict[Path, int] = {}
    for i, ps in enumerate(paths):
        for p in ps:
            line_of.setdefault(p, i)

    def home(p: Path) -> int:
        while p and p not in line_of:
            p = p[:-1]
        return line_of.get(p, 0)

    before: dict[int, list[Comment]] = {}
    after: dict[int, list[Comment]] = {}
    for table, into in ((comments.before, before), (comments.after, after)):
        for p, cs in table.items():
            into.setdefault(home(p), []).extend(cs)
    out: list[str] = []
    for i, line in enumerate(lines):
        if i in before:
            pad = " " * (len(line) - len(line.lstrip(" ")))
            for c in sorted(before[i], key=lambda c: (c.line, c.column)):
                out.append(pad + c.text)
                out.extend(pad + t for t in c.continues)
        if i in after:
            cs = sorted(after[i], key=lambda c: (c.line, c.column))
            line = f"{line}  {' '.join(c.text for c in cs)}"
            col = len(line) - len(" ".join(c.text for c in cs))
            out.append(line)
            out.extend(" " * col + t for c in cs for t in c.continues)
        else:
            out.append(line)
    for c in comments.closing:
        out.append(" " * c.column + c.text)
        out.extend(" " * c.column + t for t in c.continues)
    return out
