"""The YAML parsers the loader uses: libyaml's (``yaml._yaml.CParser``) when
PyYAML has it, the pure-Python one otherwise, both with our resolver, which
gives tags only: no YAML 1.1 implicit types (dates, ``yes``/``no``, sexagesimal
numbers ...). Untagged plain scalars get the tag ``PLAIN``; ``yaml_build``
resolves them with the core schema while it builds the data.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import MappingNode, ScalarNode

from pitchcli.record.locate import MAP_TAG, SEQ_TAG, STR_TAG

__all__ = [
    "PLAIN",
    "USE_LIBYAML",
    "PyComposer",
    "new_composer",
    "new_event_parser",
    "reader_error_offset",
]

PLAIN = "\x00plain"
"""The tag our resolver gives an untagged plain scalar (quoted ones and ``!``
get ``!!str``). It cannot clash with a tag of the text: libyaml refuses control
characters in tags. Compared by identity: the resolver returns this very object."""


class _CoreTags:
    """Resolver for the composers: tags only, no YAML 1.1 implicit types, no
    path resolvers (libyaml's composer calls these three methods)."""

    def resolve(self, kind: type, value: str | None, implicit: Any) -> str:
        if kind is ScalarNode:
            # implicit = (plain_implicit, quoted_implicit): plain and untagged.
            return PLAIN if implicit[0] else STR_TAG
        return MAP_TAG if kind is MappingNode else SEQ_TAG

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        pass

    def ascend_resolver(self) -> None:
        pass


class PyComposer(
    yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer, _CoreTags
):
    """The pure-Python composer, for PyYAML without libyaml (and for the depth
    scan where libyaml stops too early)."""

    def __init__(self, stream: bytes) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)


USE_LIBYAML = bool(getattr(yaml, "__with_libyaml__", False))
"""Whether libyaml parses. Tests set this to False to run the pure-Python path;
it is read on every use, so only here."""

if USE_LIBYAML:
    from yaml._yaml import CParser

    class _CComposer(CParser, _CoreTags):  # type: ignore[misc, valid-type]
        """libyaml's parser and composer with our resolver."""


def new_composer(chunk: bytes) -> Any:
    """A composer of the YAML documents in ``chunk`` (``check_node``/``get_node``)."""
    return _CComposer(chunk) if USE_LIBYAML else PyComposer(chunk)


def new_event_parser(chunk: bytes) -> Any:
    """A parser of ``chunk``'s events (``check_event``/``get_event``), building no nodes."""
    return CParser(chunk) if USE_LIBYAML else PyComposer(chunk)


def reader_error_offset(e: yaml.reader.ReaderError, chunk: bytes) -> int:
    """The byte offset in ``chunk`` of a reader error (a character YAML refuses):
    libyaml counts the position in bytes, the pure reader in characters."""
    offset = e.position
    if not USE_LIBYAML:
        offset = len(chunk.decode("utf-8")[:offset].encode("utf-8"))
    return offset
