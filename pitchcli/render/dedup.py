"""``pitch dedup``: the driver's consumer, and the report of the copies found
(text, the versioned JSON, or a list of the copies to act on)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, TextIO

from pitchcli import escape
from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.driver import Consumer
from pitchcli.pipeline.lint import Judge
from pitchcli.pipeline.noted import judged_reading
from pitchcli.pipeline.parallel import InOrder, Prepared
from pitchcli.render.convert import whole
from pitchcli.text import plural
from pitchcli.views.dedup import Dedup, Group, Place, deal_key, play_key

REPORT, VERSION = "pitch-dedup", 1


def _place(p: Place) -> str:
    return escape.text(p.file) + (f" (document {p.document})" if p.document > 1 else "")


def _groups(out: TextIO, title: str, groups: list[Group], note: str) -> None:
    for n, g in enumerate(groups, 1):
        out.write(f"{title} {n} ({plural(len(g.places), 'game')}, {note} {g.key[:12]}):\n")
        for p in g.places:
            out.write(f"  {_place(p)}\n")


def summary(d: Dedup, invalid: int) -> dict[str, Any]:
    """The counts of the report."""
    return {"games": d.games, "unique": d.unique, "extra_copies": d.extra_copies,
            "duplicate_groups": len(d.duplicates), "near_duplicate_groups": len(d.near), "invalid": invalid}


def write_text(d: Dedup, out: TextIO, invalid: int) -> None:
    """Each group of copies (the first listed is the one to keep), the near-duplicates, the counts."""
    _groups(out, "Duplicate", d.duplicates, "the same play, key")
    _groups(out, "Near-duplicate", d.near, "the same deal, another play; key")
    copies = "copy" if d.extra_copies == 1 else "copies"
    out.write(f"{plural(d.games, 'game')}: {d.unique} distinct, {d.extra_copies} extra {copies} "
              f"in {plural(len(d.duplicates), 'group')}, {plural(len(d.near), 'near-duplicate group')}"
              + (f"; {plural(invalid, 'invalid record')} not compared" if invalid else "") + "\n")


def write_json(d: Dedup, out: TextIO, invalid: int) -> None:
    """``{"report": "pitch-dedup", "version": 1, "duplicates": [{"key", "copies":
    [{"file", "document"}]}], "near_duplicates": [...], "summary": {...}}``."""
    data = {"report": REPORT, "version": VERSION, "duplicates": [g.as_json() for g in d.duplicates],
            "near_duplicates": [g.as_json() for g in d.near], "summary": summary(d, invalid)}
    out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def write_list(d: Dedup, out: TextIO, invalid: int) -> None:
    """The copies to act on: every copy after the first, ``FILE<TAB>DOCUMENT`` a line."""
    for g in d.duplicates:
        for p in g.places[1:]:
            out.write(f"{escape.text(p.file)}\t{p.document}\n")


class Deduping(Consumer):
    """``pitch dedup``'s part of the command driver: the keys of every valid
    game, then the report ``write(dedup, out, invalid)``. An invalid record
    is refused (not compared). Exit status: 0 no copies, 1 copies found or a
    record invalid (unless ``allow_invalid``), 3 an input unreadable."""

    refusal = "{file}: not compared: the record is invalid ({errors}); see `pitch validate`"

    def __init__(self, write: Callable[[Dedup, TextIO, int], None], out: TextIO,
                 allow_invalid: bool = False) -> None:
        self.write, self.out, self.allow_invalid = write, out, allow_invalid
        self.dedup = Dedup()

    def usable(self, c: Checked) -> bool:
        """A valid game (``whole``)."""
        return whole(c)

    def game(self, c: Prepared) -> None:  # type: ignore[override]
        """Its keys (``game_keys``)."""
        play, deal = c.payload  # type: ignore[misc]
        self.dedup.add(Place(c.file, c.number), play, deal)

    def end(self) -> int:
        """The report; the exit status."""
        self.write(self.dedup, self.out, self.run.invalid)
        self.run.failed = self.run.failed or bool(self.dedup.extra_copies)
        return self.run.status(self.allow_invalid)


def game_keys(c: Checked) -> tuple[bytes, bytes] | None:
    """A valid game's ``play_key`` and ``deal_key``, else None."""
    return (play_key(c.data), deal_key(c.data)) if whole(c) else None  # type: ignore[arg-type]


def _keys() -> Callable[[Checked], tuple[bytes, bytes] | None]:
    return game_keys


def keys_in_order(paths: Iterable[str], jobs: int, judge: Judge) -> InOrder:
    """Every document of ``paths`` checked as ``validate`` checks it (the
    quick pass; judged by ``judge``; no comments: dedup writes no record),
    each valid game with its keys, in the order read, over ``jobs`` processes
    (big JSON Lines files and YAML streams cut into pieces, as summarize cuts them)."""
    return InOrder(paths, jobs, judged_reading(judge, notes=False), _keys,
                   read_in_workers=partial(judged_reading, judge, notes=False))
