"""A JSON document with one long list, written as the items come.

``validate --format json`` and ``--format sarif`` kept every document's entry
(every SARIF result) until the end, then dumped the whole report: 999,999
empty documents took 0.95 GB and 1.7 GB. ``StreamedList`` writes the report
around its one long list as ``json.dump(..., indent=2)`` would write it, byte
for byte, holding one item at a time: the part before the list when it
starts, each item as it comes, and the part after it (which may hold what was
counted meanwhile: a summary, the rules used) at the end.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TextIO

# A string no report holds: where the list goes in the skeleton.
_MARK = "\x00pitch-streamed-list\x00"
_MARK_JSON = json.dumps(_MARK)


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


class StreamedList:
    """The document ``skeleton(list_marker)`` makes, its list written item by
    item: ``skeleton`` is called with a placeholder to put where the list goes,
    once at the start (for what comes before the list) and once at the end
    (for what comes after it, with the final counts)."""

    def __init__(self, out: TextIO, skeleton: Callable[[str], Any]) -> None:
        self.out, self.skeleton = out, skeleton
        head = _dump(skeleton(_MARK))
        before = head[: head.index(_MARK_JSON)]
        line = before[before.rfind("\n") + 1:]
        self.pad = " " * (len(line) - len(line.lstrip(" ")) + 2)  # the list's items, one level in
        self.items = 0
        out.write(before + "[")

    def add(self, item: Any) -> None:
        """Write one item of the list."""
        text = _dump(item).replace("\n", "\n" + self.pad)
        self.out.write(("," if self.items else "") + "\n" + self.pad + text)
        self.items += 1

    def close(self) -> None:
        """Write the end of the list and the rest of the document."""
        whole = _dump(self.skeleton(_MARK))
        after = whole[whole.index(_MARK_JSON) + len(_MARK_JSON):]
        self.out.write(("\n" + self.pad[:-2] if self.items else "") + "]" + after + "\n")
