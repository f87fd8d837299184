"""Locating the problems found while building a YAML document: each becomes a
diagnostic with its pointer, line and column (``problem_diagnostics``), and a
refusal is placed where it arose (``refusal_diagnostic``; an alias on its ``*``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from pitchcli.diagnostics import Diagnostic
from pitchcli.escape import quote
from pitchcli.record.context import FileContext
from pitchcli.record.pointer import join_pointer
from pitchcli.record.yaml_build import Refused
from pitchcli.record.yaml_scan import first_alias

__all__ = ["Place", "problem_diagnostics", "refusal_diagnostic"]

Place = Callable[[Node, str, str, str], Diagnostic]
"""Makes a document's diagnostic at a node: ``place(node, code, message, pointer)``."""


def _index_tree(root: Node) -> tuple[dict[int, list[str | int]], dict[int, MappingNode]]:
    """For every node (values and keys, by id): its path from the root, and for
    every key node its mapping. One pass, each node visited once, so shared
    (aliased) and cyclic nodes cost nothing more; only run for documents with
    problems."""
    paths: dict[int, list[str | int]] = {id(root): []}
    owner: dict[int, MappingNode] = {}
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        path = paths[id(node)]
        if isinstance(node, MappingNode):
            children: list[tuple[str | int, Node]] = []
            for k, v in node.value:
                key = k.value if isinstance(k, ScalarNode) else "?"
                owner.setdefault(id(k), node)
                paths.setdefault(id(k), [*path, key])
                children.append((key, v))
        elif isinstance(node, SequenceNode):
            children = list(enumerate(node.value))
        else:
            continue
        for segment, child in children:
            if id(child) not in paths:
                paths[id(child)] = [*path, segment]
                stack.append(child)
    return paths, owner


def problem_diagnostics(
    root: Node,
    problems: list[tuple[str, str, Node]],
    at: Place,
    line0: int,
) -> Iterator[Diagnostic]:
    """Diagnostics for the problems ``build_data`` collected (for L104 the
    message slot holds the repeated key), placed by ``at``; ``line0`` is the
    number of lines of the file before the document's chunk."""
    if not problems:
        return
    paths, owner = _index_tree(root)
    firsts: dict[int, dict[str, Node]] = {}  # per mapping: key -> its first key node
    for code, message, node in problems:
        pointer = join_pointer(paths.get(id(node), []))
        if code == "L104":
            mapping = owner[id(node)]
            if id(mapping) not in firsts:
                keys: dict[str, Node] = {}
                for k, _ in mapping.value:
                    if isinstance(k, ScalarNode):
                        keys.setdefault(k.value, k)
                firsts[id(mapping)] = keys
            first = firsts[id(mapping)][message]
            message = (
                f"duplicate key {quote(message)} (first at line {line0 + first.start_mark.line + 1})"
            )
        yield at(node, code, message, pointer)


def refusal_diagnostic(
    refused: Refused,
    root: Node,
    chunk: bytes,
    line0: int,
    ctx: FileContext,
    at: Place,
) -> Diagnostic:
    """The diagnostic for a refusal; an alias is placed on the ``*`` itself (the
    shared node's own mark is its anchor's place)."""
    pointer = join_pointer(refused.path[::-1])
    if refused.code == "L105":
        alias = first_alias(chunk, root.start_mark.index)
        if alias is not None:
            mark = alias.start_mark
            return ctx.diag(
                "L105",
                f"alias *{alias.anchor} is not allowed in a record: write the value out",
                line0 + mark.line + 1,
                mark.column + 1,
                pointer,
            )
    return at(refused.node, refused.code, refused.message, pointer)
