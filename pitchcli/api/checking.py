"""Checking records: ``validate(...)`` -> ``CheckedDocument``s, and ``score``.

``validate`` runs what ``pitch validate`` runs — the loader, the schema, then
every rule of the game in the engine — over the same inputs, and yields each
document with its diagnostics (the fields of the JSON report) and, when its
table could be seated, its ``Game``. Like the command, it lets the engine's
quick pass decide the clean Auction games of a stream (the same diagnostics;
their hands are replayed when first read).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from pitchcli.api.documents import Diagnostic, Document, Source, diagnostics_of, document_of, source_kind, sources
from pitchcli.api.games import Game, game_of
from pitchcli.diagnostics import is_claim
from pitchcli.gcpolicy import stepped
from pitchcli.pipeline.check import Checked, check_source
from pitchcli.pipeline.feed import GameAnalysis
from pitchcli.record.document import DEFAULT_LIMITS, Limits

__all__ = ["CheckedDocument", "RecordError", "checked_document", "checked_game", "score", "validate"]


class RecordError(ValueError):
    """A record that can't be used for what was asked (``score``: it can't be
    scored); ``diagnostics`` say why."""

    def __init__(self, message: str, diagnostics: tuple[Diagnostic, ...]) -> None:
        super().__init__(message)
        self.diagnostics = diagnostics


@dataclass(frozen=True)
class CheckedDocument:
    """One document, checked: ``document`` as loaded, every ``diagnostic``
    found (the first ``max_errors`` when ``validate`` was given a cap; ``errors``
    and ``warnings`` count them all), and the ``game`` the engine made of it.

    ``game`` is ``None`` when the record could not be replayed at all (not
    loaded, its shape or profile broken, its players can't be seated). A game
    of an invalid record is what the engine could make of it: its broken hands
    have ``scored`` false.
    """

    document: Document
    diagnostics: tuple[Diagnostic, ...]
    errors: int
    warnings: int
    _analysis: GameAnalysis | None = field(repr=False, compare=False)
    _claims_only: bool = field(repr=False, compare=False, default=False)

    @property
    def file(self) -> str:
        """The input's name (as ``document.file``)."""
        return self.document.file

    @property
    def number(self) -> int:
        """The document's place in its file, from 1 (as ``document.number``)."""
        return self.document.number

    @property
    def valid(self) -> bool:
        """No errors (warnings allowed)."""
        return self.errors == 0

    @property
    def scorable(self) -> bool:
        """The game can be scored: valid, or its only errors are written claims
        (scores, totals, points ...) that disagree with the cards, as
        ``pitch score`` accepts (the game's figures are the engine's)."""
        return self.game is not None and (self.valid or self._claims_only)

    @cached_property
    def game(self) -> Game | None:
        """The engine's results for this record (see the class doc)."""
        if self._analysis is None:
            return None
        return game_of(self._analysis, self.document.file, self.document.number)


def checked_document(c: Checked) -> CheckedDocument:
    """The public ``CheckedDocument`` of the pipeline's ``Checked``."""
    # The document carries its loading problems (L1xx), as read() gives it.
    doc = document_of(c.document, c.file, c.index,
                      c.diagnostics if c.document is None else [d for d in c.diagnostics if d.code[0] == "L"])
    claims_only = c.errors > 0 and c.errors == c.omitted_claims + sum(
        1 for d in c.diagnostics if d.severity == "error" and is_claim(d))
    return CheckedDocument(doc, diagnostics_of(c.diagnostics), c.errors, c.warnings, c.analysis, claims_only)


def seated_game(c: Checked) -> Game | None:
    """The public ``Game`` of a checked document, or ``None`` when the engine
    could not seat its table (the package's views: a replay of an invalid
    record goes as far as it can)."""
    return None if c.analysis is None else game_of(c.analysis, c.file, c.number)


def checked_game(c: Checked) -> Game:
    """The public ``Game`` of a checked document the engine could replay (for
    the package's views and renderers, which read what a script reads; a
    document without one raises ``ValueError``)."""
    game = seated_game(c)
    if game is None:
        raise ValueError(f"{c.where()}: no game (the record could not be replayed)")
    return game


def validate(*sources_: Source, text: str | None = None, name: str | None = None,
             max_errors: int | None = None, limits: Limits = DEFAULT_LIMITS) -> Iterator[CheckedDocument]:
    """Check every document of every source, lazily, in order: the schema,
    then every rule (``pitch validate``). Sources as ``read`` takes them.
    ``max_errors``: keep at most that many diagnostics per document (the
    counts include the others). Never raises for what a file holds; raises
    ``TypeError`` at once for a source of another type."""
    items: list[Source] = list(sources_)
    if text is not None:
        items.append(text.encode("utf-8", "surrogateescape"))
        name = name or "<text>"
    for item in items:
        source_kind(item)
    return stepped(checked_document(c) for n, s in sources(items, name)
                   for c in check_source(n, s, limits, True, max_errors, quick=True))


def score(*sources_: Source, text: str | None = None, name: str | None = None,
          limits: Limits = DEFAULT_LIMITS) -> Iterator[Game]:
    """The ``Game`` of every document, as ``pitch score`` scores it: a written
    claim that disagrees is no obstacle (the figures are the engine's; see
    ``validate`` for the claims). Raises ``RecordError`` (with the record's
    diagnostics) on reaching a document that can't be scored — ``validate``
    goes on past one."""
    for c in validate(*sources_, text=text, name=name, limits=limits):
        if not c.scorable or c.game is None:
            raise RecordError(f"{c.file} (document {c.number}): the record can't be scored "
                              f"({c.errors} error{'' if c.errors == 1 else 's'}); see validate()",
                              c.diagnostics)
        yield c.game

