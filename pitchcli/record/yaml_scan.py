"""Safety scans of YAML text, made before or instead of composing it: whether
its nesting may be deep (a byte-level bound), where it first nests too deep
(an event scan that stops there), and where its first alias is.

**Nesting**: libyaml's composer recurses in C without a limit (this libyaml,
0.2.5, has no 1,000-level stop: it composed 20,000 levels and crashed the
process with 40,000) and its scanner is quadratic in flow depth (30,000 levels
of ``[``: 1.8 s), so a YAML document is never given to it unless a cheap
byte-level bound (``may_be_deep_in_blocks`` and ``may_be_deep_in_flow``)
shows its depth is under 1,000, or an event-level scan (``first_too_deep``,
which stops at ``max_depth``) has shown it is within ``Limits.max_depth``.
yaml-rs is given a document only under the first of those bounds (it stops
flow nesting itself; see ``yaml_read``). Deeper than ``max_depth`` is L107 at
the first too-deep collection.

**Aliases** are refused while the data is built (``yaml_build``);
``first_alias`` then finds the ``*`` itself, to place the L105 there.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pitchcli.record.document import SAFE_DEPTH
from pitchcli.record.pointer import join_pointer

if TYPE_CHECKING:
    import yaml
    from yaml.events import AliasEvent

# (The byte-level bounds are read for every YAML document, the event scans only for a
# deep one or one with an alias: PyYAML is imported by those, so that a record
# the compiled parser reads is read without it; see ``yaml_read``.)

__all__ = ["first_alias", "first_too_deep", "may_be_deep_in_blocks", "may_be_deep_in_flow"]

# Two lines of defence before libyaml sees a document: the C composer recurses
# without limit (a crash past ~30,000 levels here) and the scanner's cost grows
# with the square of the flow depth. Depth in flow style needs a '[' or '{' per
# level; in block style every level but one of each two needs a column further
# right, reached only by indentation and '-', '?', ':' indicators at the start
# of a line. So without many brackets and without a line starting with 250 such
# characters the depth is under ~1,000, safe to compose; our walk then applies
# max_depth with a location. Otherwise an event scan (iterative, stopping at
# max_depth) decides first.
_LONG_LEAD = re.compile(rb"\n[ \t?:\-]{%d}" % (SAFE_DEPTH // 4))
_LONG_LEAD_AT_START = re.compile(rb"[ \t?:\-]{%d}" % (SAFE_DEPTH // 4))


def may_be_deep_in_flow(chunk: bytes) -> bool:
    """False when its flow style (brackets) surely nests under SAFE_DEPTH // 2."""
    return chunk.count(b"[") + chunk.count(b"{") > SAFE_DEPTH // 2


def may_be_deep_in_blocks(chunk: bytes) -> bool:
    """False when its block style (indentation) surely nests under SAFE_DEPTH // 2.

    The one bound yaml-rs needs (``yaml_fast``): it stops flow nesting itself
    (at 256 levels, an error), but recurses through block nesting without a
    limit (20,000 levels crashed the process). A long record has more than
    SAFE_DEPTH // 2 brackets (a ten-point game's lists: the event scan that
    bound asks for cost an eighth of reading a folder of them), none of which
    yaml-rs needs counted."""
    return _LONG_LEAD.search(chunk) is not None or _LONG_LEAD_AT_START.match(chunk) is not None


def first_too_deep(chunk: bytes, max_depth: int, pure: bool = False) -> tuple[yaml.Mark, str] | None:
    """The start and pointer of the first collection nested deeper than
    ``max_depth``, by an event scan that stops there (so its cost stays bounded);
    None if there is none, or if a syntax error comes first (the composer reports it)."""
    import yaml
    from yaml.events import AliasEvent, CollectionEndEvent, CollectionStartEvent, MappingStartEvent, ScalarEvent

    from pitchcli.record.yaml_parser import PyComposer, new_event_parser

    parser = PyComposer(chunk) if pure else new_event_parser(chunk)
    # One frame per open collection: [is_mapping, children seen, last key].
    frames: list[list[Any]] = []
    try:
        while parser.check_event():
            event = parser.get_event()
            if isinstance(event, CollectionEndEvent):
                frames.pop()
                continue
            if not isinstance(event, ScalarEvent | AliasEvent | CollectionStartEvent):
                continue  # stream and document events
            if frames:
                frame = frames[-1]
                frame[1] += 1
                if frame[0] and frame[1] % 2 and isinstance(event, ScalarEvent):
                    frame[2] = event.value  # a key (1st, 3rd ... child of a mapping)
            if isinstance(event, CollectionStartEvent):
                frames.append([isinstance(event, MappingStartEvent), 0, None])
                if len(frames) > max_depth:
                    path = [f[2] if f[0] else f[1] - 1 for f in frames[:-1]]
                    return event.start_mark, join_pointer(path)
    except yaml.YAMLError as e:
        # libyaml 0.2.6 refuses flow nesting past 1,000 while scanning ahead,
        # before the parser reaches our limit: find the exact place with the
        # pure-Python parser, which stops at ``max_depth`` (bounded cost).
        if not pure and "nesting depth" in str(getattr(e, "problem", "")):
            return first_too_deep(chunk, max_depth, pure=True)
        return None
    except RecursionError:
        return None
    return None


def first_alias(chunk: bytes, after: int) -> AliasEvent | None:
    """The first alias event at or after character index ``after`` (for L105)."""
    import yaml
    from yaml.events import AliasEvent

    from pitchcli.record.yaml_parser import new_event_parser

    parser = new_event_parser(chunk)
    try:
        while parser.check_event():
            event = parser.get_event()
            if isinstance(event, AliasEvent) and event.start_mark.index >= after:
                return event
    except yaml.YAMLError:
        return None
    return None
