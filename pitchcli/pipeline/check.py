"""The checking pipeline shared by every command: load -> schema -> engine.

``check_paths`` yields one ``Checked`` per document (or per file that could
not be read), with its diagnostics located (file, line, column) and sorted,
and the engine's analysis when the document got that far.
"""

from __future__ import annotations

import copy
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from itertools import chain, groupby
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

from pitchcli import escape
from pitchcli.diagnostics import DEFAULT_MAX_ERRORS, ERROR, WARNING, Diagnostic, is_claim
from pitchcli.engine.violations import Violation
from pitchcli.gcpolicy import batch_begins
from pitchcli.pipeline.feed import GameAnalysis, analyze, analyze_many
from pitchcli.pipeline.walk import SKIPPED, Seen, walk
from pitchcli.record import profile_fields, schema
from pitchcli.record.load import DEFAULT_LIMITS, Document, Limits, load_documents

if TYPE_CHECKING:
    from pitchcli.record.comments import Comments

T = TypeVar("T")


class Checked:
    """One document of one file, checked.

    (A plain class, not a dataclass, as the pipeline's other working state: a
    dataclass compiles its generated methods at import, and ``pitch validate
    ONE_FILE`` pays for each. A subclass declares its own ``__slots__``.)"""

    __slots__ = (
        "analysis",
        "diagnostics",
        "document",
        "file",
        "index",
        "notes",
        "omitted_claims",
        "omitted_errors",
        "omitted_warnings",
    )

    def __init__(self, file: str, index: int, document: Document | None = None,
                 analysis: GameAnalysis | None = None, diagnostics: list[Diagnostic] | None = None,
                 omitted_errors: int = 0, omitted_warnings: int = 0, omitted_claims: int = 0,
                 notes: Comments | None = None) -> None:
        self.file = file
        self.index = index
        self.document = document
        self.analysis = analysis
        self.diagnostics: list[Diagnostic] = [] if diagnostics is None else diagnostics
        self.omitted_errors = omitted_errors  # past the cap on diagnostics: counted, not kept
        self.omitted_warnings = omitted_warnings
        self.omitted_claims = omitted_claims  # of the omitted errors, claims that disagree (is_claim)
        # Its comments (YAML), when the reader looked for them (``pipeline.noted``):
        # a command that writes the record again puts them back.
        self.notes = notes

    @property
    def number(self) -> int:
        """The document's number in its file, from 1, as every output counts it."""
        return self.index + 1

    def where(self) -> str:
        """``file``, or ``file (document N)`` past a file's first document (not escaped)."""
        return self.file + (f" (document {self.number})" if self.index else "")

    @property
    def errors(self) -> int:
        """Number of errors (those not kept past ``max_errors`` included)."""
        return sum(1 for d in self.diagnostics if d.severity == ERROR) + self.omitted_errors

    @property
    def warnings(self) -> int:
        """Number of warnings (those not kept past ``max_errors`` included)."""
        return sum(1 for d in self.diagnostics if d.severity == WARNING) + self.omitted_warnings

    @property
    def omitted(self) -> int:
        """Diagnostics found but not kept (the cap ``max_errors``)."""
        return self.omitted_errors + self.omitted_warnings

    def cap(self, max_errors: int | None) -> None:
        """Keep the first ``max_errors`` diagnostics, count the others."""
        if max_errors is None or len(self.diagnostics) <= max_errors:
            return
        rest = self.diagnostics[max_errors:]
        del self.diagnostics[max_errors:]
        self.omitted_errors += sum(1 for d in rest if d.severity == ERROR)
        self.omitted_warnings += len(rest) - sum(1 for d in rest if d.severity == ERROR)
        # score and replay use a record whose only errors are claims: what the
        # cap left out must still say whether it was only claims.
        self.omitted_claims += sum(1 for d in rest if d.severity == ERROR and is_claim(d))

    def more_line(self) -> str | None:
        """The line that says how many diagnostics were not shown, if any."""
        if not self.omitted:
            return None
        doc = f" (document {self.number})" if self.index else ""
        n = self.omitted
        return escape.text(f"{self.file}:{doc} note: {n:,} more diagnostic{'' if n == 1 else 's'} not shown "
                           f"(--max-errors)")

    @property
    def skipped(self) -> bool:
        """True for what a folder walk found and did not read (L113, a warning)."""
        return self.document is None and bool(self.diagnostics) and all(
            d.code == SKIPPED for d in self.diagnostics)

    @property
    def blocked(self) -> bool:
        """True when the document can't be used as a game: it didn't load, its
        table could not be seated, or it has an error that is no mere claim
        (a recorded value that disagrees: score and replay show those)."""
        return (self.document is None or self.analysis is None or self.analysis.table is None
                or self.omitted_errors > self.omitted_claims  # an error past the cap that is no claim
                or any(d.severity == ERROR and not is_claim(d) for d in self.diagnostics))

    @property
    def unreadable(self) -> bool:
        """True when the file could not be read at all (L101)."""
        return any(d.code == "L101" for d in self.diagnostics)

    def valid(self, strict: bool = False) -> bool:
        """No errors (and, when ``strict``, no warnings)."""
        return self.errors == 0 and (not strict or self.warnings == 0)

    @property
    def data(self) -> dict[str, Any] | None:
        """The record as loaded, when it loaded."""
        return self.document.data if self.document is not None else None

    def slim(self, keep: int) -> Checked:
        """What a command keeps of a record it lists but does not use (an
        invalid record, left out of a report or the ratings): where it is and
        its first ``keep`` diagnostics, the first error among them, the rest
        counted; not its content nor its analysis (a replayed record holds
        hundreds of KB). (``unreadable`` and ``skipped`` read the diagnostics
        kept: take them from the record itself.)"""
        kept = self.diagnostics[:keep]
        first = next((d for d in self.diagnostics if d.severity == ERROR), None)
        if first is not None and first not in kept:
            kept = [*kept[:-1], first]
        dropped = [d for d in self.diagnostics if d not in kept] if len(self.diagnostics) > len(kept) else []
        errors = sum(1 for d in dropped if d.severity == ERROR)
        out = copy.copy(self)  # (of its own class: a worker's ``Prepared`` keeps its verdict and payload)
        out.document = out.analysis = out.notes = None
        out.diagnostics = kept
        out.omitted_errors += errors
        out.omitted_warnings += len(dropped) - errors
        return out


def iter_sources(paths: Iterable[str], output: str | None = None
                 ) -> Iterator[tuple[str, str | BinaryIO | Diagnostic]]:
    """``(name, source)`` for every input: ``-`` is standard input; a folder is
    searched by ``pitchcli.pipeline.walk.walk`` (what it skips or can't read comes as a
    ``Diagnostic`` source); any other name is read as it is, as ``cat`` would.
    One walk for the whole command line (``walk.Seen``): a file or folder
    reached a second time is skipped with a warning; ``output``, the command's
    output file, is not read when a folder walk finds it."""
    seen = Seen(output)
    for p in paths:
        if p == "-":
            yield "-", sys.stdin.buffer
        elif os.path.isdir(p):
            yield from walk(p, seen)
        else:
            yield p, seen.named(p)


def _hand_of(pointer: str) -> tuple[int | None, int | None]:
    parts = pointer.split("/")
    hand = int(parts[2]) + 1 if len(parts) > 2 and parts[1] == "hands" and parts[2].isdigit() else None
    trick = (int(parts[4]) + 1 if hand is not None and len(parts) > 4 and parts[3] == "tricks"
             and parts[4].isdigit() else None)
    return hand, trick


def _from_violation(v: Violation) -> Diagnostic:
    hand, trick = _hand_of(v.at)
    return Diagnostic(code=v.code, message=v.message, rule=v.rule, pointer=v.at, hand=hand,
                      trick=v.trick or trick, extra=dict(v.details or ()))


def _shape(doc: Document) -> tuple[list[Diagnostic], list[Diagnostic], set[str], set[str]]:
    """The schema stage of one document: its diagnostics, the fields its
    profile doesn't have, and what the engine must skip and ignore."""
    diags = list(schema.validate(doc.data, doc.floats))
    # The profile-driven part of the schema stage: fields the profile doesn't have.
    shaped = {d.pointer for d in diags}
    extra = [d for d in profile_fields.validate(doc.data) if d.pointer not in shaped]
    skip = {d.pointer for d in diags if d.severity == ERROR}
    # An unknown key stands for a typo: skip the mapping that holds it.
    skip |= {d.pointer.rsplit("/", 1)[0] for d in diags if d.code == "S201"}
    # A field the profile doesn't have is left out; the rest of its hand is checked.
    ignore = {d.pointer for d in extra}
    return diags, extra, skip, ignore


def _checked(doc: Document, diags: list[Diagnostic], extra: list[Diagnostic],
             analysis: GameAnalysis | None, max_errors: int | None) -> Checked:
    """One document's diagnostics (schema, engine, profile) located and sorted."""
    out = Checked(doc.file, doc.index, doc, analysis)
    if analysis is not None:
        diags = diags + [_from_violation(v) for v in analysis.violations]
    diags += extra
    located = []
    for d in diags:
        line, col = doc.locate_key(d.pointer) if d.code == "S201" else doc.locate(d.pointer)
        located.append(d.located(file=doc.file, document=doc.index, line=line, column=col))
    located.sort(key=lambda d: (d.line or 0, d.column or 0, d.code))
    out.diagnostics = located
    out.cap(max_errors)
    return out


def check_document(doc: Document, run_rules: bool = True, max_errors: int | None = DEFAULT_MAX_ERRORS) -> Checked:
    """Schema then rules for one loaded document; all diagnostics located, the
    first ``max_errors`` kept (the others counted)."""
    diags, extra, skip, ignore = _shape(doc)
    analysis = None
    if run_rules and isinstance(doc.data, dict):
        analysis = analyze(doc.data, skip, ignore)
    return _checked(doc, diags, extra, analysis, max_errors)


# The quick pass (``analysis.analyze_many``) takes the documents of a stream in
# chunks: enough for its array work to pay, few enough to hold in memory. Small
# chunks are faster as well as smaller, most likely as a chunk's arrays then stay
# in the processor's caches and less memory is faulted in (measured, issue 22,
# ``pitch validate`` of JSON Lines, CPU seconds: 10,000 Auction games 3.7 s in
# chunks of 512, 3.5 s in chunks of 128, 2.9 s in chunks of 64, peak 131 -> 60
# MiB; 2,000 ten-point games 2.1, 1.8, 1.6 s, peak 274 -> 78 MiB). A ten-point game has more hands and more cards a
# hand: at most about 600 hands a chunk (some 43 such games, 55 Auction ones)
# took its 2,000 games from 1.7 to 1.4 s (peak 67 MiB), Auction's unchanged.
# At most 400 (28 ten-point games, 36 Auction ones), with the allocator
# keeping what a chunk frees (gcpolicy): 2,000 ten-point-5 games 1.21 -> 1.11 s,
# ten-point 1.37 -> 1.32 s, 10,000 Auction games and play-level ten-point
# unchanged (within 1%); 300 was no better for ten-point-5 and 2.6% slower for
# Auction (CPU, medians of 5, issue 22).
QUICK_CHUNK = 64
QUICK_HANDS = 400
# ... and at most about this much text (``Document.size``): what a chunk's
# data holds in memory, which a count of hands measures badly (a ten-point hand
# of full detail, its deal, discards and draws, is some 850 bytes of JSON, an
# Auction hand 450, a play-level hand 300). Measured (issue 22, stop 57, CPU of
# ``pitch validate``, paired): 2,000 ten-point games as JSON Lines in chunks of
# 250 hands 0.85x the time in chunks of 400, of 200 hands 0.89x; 2,000 Auction
# games 1.03x and 1.09x, and no faster in chunks of 600 or 800 hands. At 224
# KiB a chunk holds some 18 ten-point games (250 hands) and, as before, 36
# Auction games (the hands' bound).
QUICK_BYTES = 224 << 10
# A run's quick pass begins with a chunk of this many items (documents and the
# loader's diagnostics), ``QUICK_HANDS`` hands or ``QUICK_BYTES`` of text, as a
# full chunk has (since stop 57, some 18 ten-point games, where it was 28): the input
# is then large enough for numpy's import to be worth it (a fifth of a second
# when its BLAS started a thread a core; with one, the quick pass's fixed cost
# is still some 60-70 ms of CPU: stop 55 tried it from 200 hands, and 30 Auction
# games, 262 hands, took 34 ms more than replayed in full, 15 ten-point ones 32
# ms more). A smaller input's documents are each replayed in full.
QUICK_MIN = 64
# A YAML document keeps its node tree (for locating a diagnostic) until it is
# checked: one to two MiB for a game of 7 KB. A chunk of a folder's files holds
# or of a YAML stream (``check_paths``, as ``pitch validate`` reads) holds at
# most this many YAML documents: measured on 300 one-game YAML files, a peak of
# 96 MiB, against 171 MiB with chunks of 512 and 35 MiB file by file; the same
# games as one stream, 98 MiB against 173. (Now that every chunk is of at most
# ``QUICK_CHUNK`` documents, this bound is the same; it stays for a change of either.)
QUICK_YAML = 64
# A chunk's documents are let go of as soon as the chunk is checked, before the
# next chunk is read (``_with_checks``, ``check_sources``). The loop that checked
# a chunk held it (its name, and the last document's) until the next chunk was
# read whole: a run kept two chunks, and each chunk was read into memory the
# processor had not touched for a chunk's time. Let go first, the next chunk
# is read into the memory just freed (measured, issue 22, CPU of ``pitch
# validate``, paired, 7 rounds: 2,000 ten-point games as JSON Lines 0.83x,
# 2,000 Auction games 0.88-0.90x the time before).


class QuickRun:
    """One run's chunks (``check_chunk``): whether the quick pass has begun."""

    __slots__ = ("begun",)

    def __init__(self) -> None:
        self.begun = False


def check_chunk(items: list[Document | Diagnostic], max_errors: int | None, run: QuickRun | None = None
                ) -> Iterator[tuple[Document | Diagnostic, Checked | None]]:
    """Check the documents of ``items`` with the quick pass where it decides
    (the others replayed in full); each item with its ``Checked``, in order.
    The quick pass runs on the chunk first; each document's ``Checked`` (its
    full replay, when the quick pass did not decide it) is made as it is
    handed out, so a chunk never holds the full analyses of all its games."""
    docs = [it for it in items if isinstance(it, Document)]
    shapes = [_shape(d) for d in docs]
    clean = [k for k, (d, (diags, extra, _, _)) in enumerate(zip(docs, shapes, strict=True))
             if not diags and not extra and isinstance(d.data, dict)]
    quick: dict[int, GameAnalysis] = {}
    # Once a run's quick pass has begun (numpy imported), a smaller chunk (the
    # run's last) is worth it too.
    if clean and (len(items) >= QUICK_MIN or (run is not None and run.begun)
                  or _full(sum(map(_hands_of, docs)), sum(d.size for d in docs))):
        if run is not None:
            run.begun = True
        batch_begins()  # (the pitch program's allocator settings for a batch: gcpolicy)
        found = analyze_many([docs[k].data for k in clean])
        quick = {k: a for k, a in zip(clean, found, strict=True) if a is not None}
    k = 0
    for it in items:
        if not isinstance(it, Document):
            yield it, None
            continue
        diags, extra, skip, ignore = shapes[k]
        analysis = quick.pop(k, None)
        if analysis is None and isinstance(it.data, dict):
            analysis = analyze(it.data, skip, ignore)
        k += 1
        yield it, _checked(it, diags, extra, analysis, max_errors)


def _hands_of(doc: Document) -> int:
    """How many hands a document holds (what ``_chunks`` bounds)."""
    found = doc.data.get("hands") if isinstance(doc.data, dict) else None
    return len(found) if isinstance(found, list) else 0


def _full(hands: int, text: int) -> bool:
    """Whether documents of ``hands`` hands and ``text`` of text fill a chunk
    (``_chunks`` cuts one there; ``check_chunk`` begins the quick pass with it)."""
    return hands >= QUICK_HANDS or text >= QUICK_BYTES


def _chunks(items: Iterable[T], size: Callable[[T], Document | Diagnostic],
            max_yaml: int | None = None) -> Iterator[list[T]]:
    """``items`` cut into the quick pass's chunks: at most ``QUICK_CHUNK``
    items, about ``QUICK_HANDS`` hands or ``QUICK_BYTES`` of text and at most
    ``max_yaml`` YAML documents each (``size``: the loaded item of an
    element), so that memory stays flat however many there are."""
    chunk: list[T] = []
    hands = yaml = text = 0
    for it in items:
        chunk.append(it)
        loaded = size(it)
        if isinstance(loaded, Document):
            yaml += loaded.format == "yaml"
            hands += _hands_of(loaded)
            text += loaded.size
        if len(chunk) >= QUICK_CHUNK or _full(hands, text) or (max_yaml is not None and yaml >= max_yaml):
            yield chunk
            chunk, hands, yaml, text = [], 0, 0, 0
    if chunk:
        yield chunk


def _with_checks(items: Iterable[Document | Diagnostic], run_rules: bool, max_errors: int | None,
                 quick: bool) -> Iterator[tuple[Document | Diagnostic, Checked | None]]:
    """Each loaded item with its ``Checked`` (None for a diagnostic)."""
    if not (quick and run_rules):
        for it in items:
            yield it, (check_document(it, run_rules, max_errors) if isinstance(it, Document) else None)
        return
    run = QuickRun()
    for chunk in _chunks(items, lambda it: it):
        yield from check_chunk(chunk, max_errors, run)
        del chunk  # (before the next chunk is read: see the note after QUICK_YAML)


def _per_file(name: str, pairs: Iterable[tuple[Document | Diagnostic, Checked | None]],
              max_errors: int | None) -> Iterator[Checked]:
    """One file's loaded items with their checks -> its ``Checked`` documents:
    the loader's diagnostics of a document go first in its own ``Checked``;
    those of a document that did not load make one of their own."""
    pending: list[Diagnostic] = []
    for item, checked in pairs:
        if isinstance(item, Diagnostic):
            if pending and pending[-1].document != item.document:
                yield Checked(name, pending[0].document, diagnostics=pending)
                pending = []
            pending.append(item)
            continue
        assert checked is not None
        early = [d for d in pending if d.document == item.index]
        rest = [d for d in pending if d.document != item.index]
        if rest:
            yield Checked(name, rest[0].document, diagnostics=rest)
        checked.diagnostics[:0] = early
        checked.cap(max_errors)
        pending = []
        yield checked
    if pending:
        yield Checked(name, pending[0].document, diagnostics=pending)


def check_source(name: str, source: str | bytes | BinaryIO | Diagnostic, limits: Limits = DEFAULT_LIMITS,
                 run_rules: bool = True, max_errors: int | None = DEFAULT_MAX_ERRORS,
                 quick: bool = False) -> Iterator[Checked]:
    """Check every document of one file (or stream), keeping at most
    ``max_errors`` diagnostics per document (None: all); a ``Diagnostic``
    source (from the folder walk) is passed on as it is. ``quick``: the
    engine's quick pass may decide clean games, a chunk of documents at a
    time (the same diagnostics)."""
    if isinstance(source, Diagnostic):
        yield Checked(name, source.document, diagnostics=[source])
        return
    yield from _per_file(name, _with_checks(load_documents(source, name=name, limits=limits), run_rules,
                                            max_errors, quick), max_errors)


def check_sources(sources: Iterable[tuple[str, str | bytes | BinaryIO | Diagnostic]],
                  limits: Limits = DEFAULT_LIMITS, max_errors: int | None = DEFAULT_MAX_ERRORS,
                  quick: bool = True) -> Iterator[Checked]:
    """``check_source`` of every ``(name, source)``, in order, with the quick
    pass fed across them: the documents of many small files (a folder of
    one-game files) go to it in chunks as a stream's do, at most
    ``QUICK_CHUNK`` documents at a time (memory flat), each file still reported
    exactly as alone (the same diagnostics, order and numbering)."""
    if not quick:
        for name, source in sources:
            yield from check_source(name, source, limits, True, max_errors)
        return

    def tagged() -> Iterator[tuple[int, str, Document | Diagnostic, bool]]:
        # (the file's place, its name, a loaded item, whether it is a walk's Diagnostic source)
        for n, (name, source) in enumerate(sources):
            if isinstance(source, Diagnostic):
                yield n, name, source, True
                continue
            for item in load_documents(source, name=name, limits=limits):
                yield n, name, item, False

    def checked() -> Iterator[tuple[int, str, Document | Diagnostic, bool, Checked | None]]:
        run = QuickRun()
        for chunk in _chunks(tagged(), lambda t: t[2], QUICK_YAML):
            done = check_chunk([item for _, _, item, _ in chunk], max_errors, run)
            for (n, name, _, whole), (item, c) in zip(chunk, done, strict=True):
                yield n, name, item, whole, c
            del chunk, done, item, c  # (before the next chunk is read: see the note after QUICK_YAML)

    for _, group in groupby(checked(), key=lambda t: t[0]):
        first = next(group)
        _, name, item, whole, _ = first
        if whole:
            assert isinstance(item, Diagnostic)
            yield Checked(name, item.document, diagnostics=[item])
            continue
        yield from _per_file(name, ((it, ch) for _, _, it, _, ch in chain([first], group)), max_errors)


def check_paths(paths: Iterable[str], limits: Limits = DEFAULT_LIMITS,
                run_rules: bool = True, max_errors: int | None = DEFAULT_MAX_ERRORS,
                quick: bool = False, output: str | None = None) -> Iterator[Checked]:
    """Check every document of every input (at most ``max_errors`` diagnostics
    kept per document; ``quick``: the quick pass fed across the files
    (``check_sources``); ``output``: see
    ``iter_sources``)."""
    if quick and run_rules:
        yield from check_sources(iter_sources(paths, output), limits, max_errors)
        return
    for name, source in iter_sources(paths, output):
        yield from check_source(name, source, limits, run_rules, max_errors)


__all__ = ["Checked", "check_document", "check_paths", "check_source", "check_sources", "iter_sources"]
