"""A loaded document and the limits on loading: what the loader hands out
(:class:`Document`: plain data and a way back to the source) and the bounds one
file may not exceed (:class:`Limits`, ``DEFAULT_LIMITS``).

**Limits**: 2 GiB a file, 1 MiB a document, depth 64, 1,000,000 documents a
file, 200,000 values a document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pitchcli.diagnostics import Diagnostic
from pitchcli.record.pointer import parse_pointer

if TYPE_CHECKING:
    from yaml.nodes import Node

    from pitchcli.record.locate import KeyCache

# The node trees (PyYAML's node types, ``locate``, the composer) are imported
# when a position is first asked for: a clean JSON record never needs one, and
# reading JSON then imports no PyYAML (start-up; ``tests/commands/test_lazy_commands.py``).

__all__ = ["DEFAULT_LIMITS", "SAFE_DEPTH", "Document", "Limits"]

SAFE_DEPTH = 1000
"""The deepest nesting libyaml's composer is given (it is safe, in C stack and
scanner time, well past this; see ``yaml_scan``'s byte-level bounds).
``Limits.max_depth`` may not exceed it."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on what one file may make the loader do. Exceeding one is a diagnostic.

    - ``max_file_bytes``: the whole file (L106, the file stops there).
    - ``max_document_bytes``: one YAML document of a stream, one JSON Lines line,
      or a whole one-document JSON file (L106 for that document). It also bounds
      memory: a YAML node tree takes up to ~300 bytes per source byte.
    - ``max_depth``: nesting of collections, the top-level mapping being 1
      (L107); a record needs about 6; at most 1,000.
    - ``max_documents``: documents in one file (L108, the file stops there).
    - ``max_nodes``: values (scalars, collections and keys) in one document (L106).
    """

    max_file_bytes: int = 2 * 1024**3
    max_document_bytes: int = 1024**2
    max_depth: int = 64
    max_documents: int = 1_000_000
    max_nodes: int = 200_000

    def __post_init__(self) -> None:
        if not 1 <= self.max_depth <= SAFE_DEPTH:
            raise ValueError(f"max_depth must be between 1 and {SAFE_DEPTH}")
        for name in ("max_file_bytes", "max_document_bytes", "max_documents", "max_nodes"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be positive")


DEFAULT_LIMITS = Limits()
"""The limits every command uses (there is no option to change them)."""

_JSON_WS = re.compile(r"[ \t\n\r]*")


class Document:
    """One loaded document of a file: its plain data and a way back to the source.

    ``file`` is the name diagnostics use, ``index`` the 0-based position of the
    document in the file, ``data`` plain JSON-like data (dict, list, str, int,
    float, bool, None; the top level is always a dict), ``format`` ``"yaml"`` or
    ``"json"``, ``line`` the 1-based line where the document's value starts and
    ``directives`` its suppression comments (``record.directives``).
    """

    __slots__ = (
        "_chunk", "_keys", "_line0", "_root", "_text", "data", "directives", "file", "floats", "format", "index",
        "size",
    )

    def __init__(
        self,
        file: str,
        index: int,
        data: Any,
        fmt: str,
        *,
        root: Node | None = None,
        text: str | None = None,
        chunk: bytes | None = None,
        line0: int = 0,
        floats: bool = True,
        directives: tuple[Any, ...] = (),
        size: int = 0,
    ) -> None:
        self.file = file
        # The length of the text it was read from (characters or bytes; a
        # YAML chunk's, rarely more than one document: a file with bare CR
        # line ends): about what its data holds in memory, which bounds the quick
        # pass's chunks (``pipeline.check.QUICK_BYTES``).
        self.size = size
        # Its suppression comments (``record.directives.Directive``), YAML only.
        self.directives = directives
        # False when the loader saw no float (no number with a fraction or an
        # exponent, no !!float): the schema check then needn't look for one.
        self.floats = floats
        self.index = index
        self.data = data
        self.format = fmt
        self._root = root  # YAML: the composed tree; JSON: built on first locate
        self._text = text  # JSON: the document's text, scanned only when locating
        # YAML read by the compiled parser (record.yaml_fast): the document's
        # bytes, composed by libyaml only when a position is asked for.
        self._chunk = chunk
        self._line0 = line0  # lines of the file before the document's text
        self._keys: KeyCache = {}  # big mappings' keys, indexed on first lookup

    @property
    def line(self) -> int:
        """The 1-based line where the document's top-level value starts."""
        if self._root is None and self._text is not None:
            # Without scanning the JSON: the first non-blank character.
            start = _JSON_WS.match(self._text).end()  # type: ignore[union-attr]
            return self._line0 + self._text.count("\n", 0, start) + 1
        return self.locate("")[0]

    def __repr__(self) -> str:
        return f"<Document {self.file}#{self.index} ({self.format}, line {self.line})>"

    @property
    def yaml_tree(self) -> tuple[Node, int] | None:
        """A YAML document's composed node tree and the number of lines of the
        file before it (``None`` for JSON): where each value was written."""
        if self.format != "yaml":
            return None
        root = self.node_tree()
        return (root, self._line0) if root is not None else None

    def node_tree(self) -> Node | None:
        """The document's node tree, with positions relative to its text: YAML's
        composed tree (composed on first use when the compiled parser read the
        data), or for JSON one scanned from the text on first use; ``None`` when
        there is none (never raises)."""
        if self._root is None and self._chunk is not None:
            self._root = _compose_yaml(self._chunk)
            self._chunk = None
        if self._root is None and self._text is not None:
            from pitchcli.record.locate import JsonScanError, compose_json

            try:
                self._root = compose_json(self._text)
            except (JsonScanError, RecursionError):
                # Cannot happen for text json.loads accepted; never fail a lookup.
                self._text = None
        return self._root

    def _position(self, node: Node) -> tuple[int, int]:
        mark = node.start_mark
        return self._line0 + mark.line + 1, mark.column + 1

    def locate(self, pointer: str) -> tuple[int, int]:
        """1-based ``(line, column)`` of the value at a JSON Pointer such as
        ``"/hands/3/tricks/2/1"``; for a pointer that does not exist, the position
        of its nearest existing ancestor (a missing key: the mapping lacking it).
        Raises ``ValueError`` for a malformed pointer."""
        segments = parse_pointer(pointer)
        root = self.node_tree()
        if root is None:
            return self._line0 + 1, 1
        from pitchcli.record.locate import walk_pointer

        node, _, _ = walk_pointer(root, segments, self._keys)
        return self._position(node)

    def locate_key(self, pointer: str) -> tuple[int, int]:
        """Like :meth:`locate`, but when the last segment is an existing mapping
        key, the position of the key itself (for "unknown key" diagnostics)."""
        segments = parse_pointer(pointer)
        root = self.node_tree()
        if root is None:
            return self._line0 + 1, 1
        from pitchcli.record.locate import walk_pointer

        node, key_node, _ = walk_pointer(root, segments, self._keys)
        return self._position(key_node if key_node is not None else node)

    def place(self, diagnostic: Diagnostic, *, key: bool = False) -> Diagnostic:
        """``diagnostic`` with this document's file and index and the line and
        column of its pointer (of the key when ``key``)."""
        line, column = (self.locate_key if key else self.locate)(diagnostic.pointer)
        return diagnostic.located(file=self.file, document=self.index, line=line, column=column)


def _compose_yaml(chunk: bytes) -> Node | None:
    """The node tree of the first document of ``chunk``, by the locating
    loader's composer; None if it cannot compose it (never raises: a lookup
    never fails)."""
    from yaml import YAMLError

    from pitchcli.record.yaml_parser import new_composer

    try:
        composer = new_composer(chunk)
        return composer.get_node() if composer.check_node() else None
    except (YAMLError, RecursionError):
        return None
