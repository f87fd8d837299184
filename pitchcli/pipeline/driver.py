"""The one loop of every command that reads records.

``drive(items, consumer, err)`` reads the checked items (``Checked`` documents
from ``pitchcli.pipeline.check``; for ``fmt``, whole files) and hands each to the
command's ``Consumer``, in the spirit of python-chess's visitors::

    consumer.begin(run)
    for each item:  consumer.game(c)      a document the command can use
                    consumer.invalid(c)   one it can't: an invalid record, an
                                          unreadable file, what a folder walk skipped
    return consumer.end()                 the exit status

What every command does alike is done here, once:

- the refusal of an item the command can't use: its diagnostics to ``err`` in
  validate's text format (``--max-errors`` of them, then the line saying how
  many more there were) and the command's own line, ``Consumer.refusal``
  (``{file}: not scored: the record is invalid (2 errors); see `pitch validate```);
- the counts (``Run``) and the exit status (``exit_status``: 3 an input could
  not be read or an output written, 1 a record is invalid or the command
  failed, else 0).

Documents count from 1 in every output (``Checked.number``); ``--max-errors``
is applied when the items are checked (``check_paths(max_errors=...)``), and the
refusal shows what was kept.

The exit status is one rule for every command: ``validate``'s ``Verdict`` and
the mergeable ``Summary`` of ``summarize`` and ``merge`` (counted in worker
processes, not here) give theirs with ``exit_status`` too. This module imports
nothing heavy (``Checked`` is only named in types), so any layer above it may
use it without cost at start-up.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from pitchcli import escape
from pitchcli.diagnostics import ERROR
from pitchcli.text import plural

if TYPE_CHECKING:
    from pitchcli.diagnostics import Diagnostic

# The hint most refusals end with: validate says everything about a record.
SEE_VALIDATE = "see `pitch validate`"


class Item(Protocol):
    """What the driver reads of an item: a ``Checked`` document, or (``fmt``,
    which formats a file whole or not at all) a file with its documents."""

    diagnostics: list[Diagnostic]

    @property
    def file(self) -> str:
        """The input's name."""

    @property
    def unreadable(self) -> bool:
        """The input could not be read at all (L101)."""

    @property
    def skipped(self) -> bool:
        """What a folder walk found and did not read (L113)."""

    @property
    def errors(self) -> int:
        """Its errors, those past ``--max-errors`` included."""

    @property
    def omitted_errors(self) -> int:
        """Its errors past ``--max-errors``: counted, not kept."""

    def more_line(self) -> str | None:
        """The line saying how many diagnostics ``--max-errors`` left out, if any."""


def exit_status(unreadable: int = 0, invalid: int = 0, failed: bool = False, broken: bool = False,
                allow_invalid: bool = False) -> int:
    """The exit status every command shares (README, exit codes): 3 when an
    input could not be read or an output written (``broken``); 1 when a record
    is invalid (unless ``allow_invalid``) or the command failed otherwise
    (``failed``: a hand that isn't there, a claim ``--check`` finds); else 0."""
    if unreadable or broken:
        return 3
    return 1 if failed or (invalid and not allow_invalid) else 0


class Run:
    """What the driver counted, and what a consumer adds (``failed``, ``broken``).

    (A plain class, as the pipeline's other working state: a dataclass compiles
    its generated methods when the module is imported, and ``pitch validate
    ONE_FILE`` pays for each: docs/architecture.md, "a record type".)"""

    __slots__ = ("broken", "documents", "failed", "invalid", "skipped", "unreadable", "used")

    def __init__(self, documents: int = 0, used: int = 0, invalid: int = 0, unreadable: int = 0,
                 skipped: int = 0, failed: bool = False, broken: bool = False) -> None:
        self.documents = documents  # items read (neither unreadable nor skipped)
        self.used = used  # of those, handed to ``Consumer.game``
        self.invalid = invalid  # of those, refused
        self.unreadable = unreadable
        self.skipped = skipped
        self.failed = failed  # the command's own failure (exit 1)
        self.broken = broken  # an output could not be written (exit 3)

    def status(self, allow_invalid: bool = False) -> int:
        """The exit status of the run (``exit_status``)."""
        return exit_status(self.unreadable, self.invalid, self.failed, self.broken, allow_invalid)


class Consumer:
    """A command's part of the loop. Subclasses override what they need.

    ``refusal`` is the line an invalid record gets on the error stream, with
    ``{file}`` (escaped) and ``{errors}`` (``2 errors``) filled in; ``None``: the
    driver writes nothing for the items the consumer can't use, because the
    command lists them itself (validate's report, summarize's problems)."""

    refusal: str | None = None
    # False: a refused record's warnings are not shown, only its errors (chart).
    shows_warnings = True
    run: Run

    def begin(self, run: Run) -> None:
        """Before the first item; ``run`` is the count the driver keeps."""
        self.run = run

    def usable(self, c: Any) -> bool:
        """Whether the command can use a document: by default one that loaded,
        whose table could be seated and whose only errors, if any, are claims
        that disagree (``score`` shows those)."""
        return not c.blocked

    def refusal_for(self, c: Any) -> str | None:
        """The refusal line's template for this document (``refusal``)."""
        return self.refusal

    def game(self, c: Any) -> None:
        """A document the command can use."""

    def invalid(self, c: Any) -> None:
        """An item the command can't use, after the driver has refused it:
        ``c.unreadable``, ``c.skipped`` or an invalid record."""

    def end(self) -> int:
        """After the last item: finish the output; return the exit status."""
        return self.run.status()


class GameConsumer(Consumer):
    """A consumer that shows each game, or one hand of it (``--hand N``):
    score, replay, solve. ``err`` is the error stream."""

    def __init__(self, err: TextIO, hand: int | None = None) -> None:
        self.err, self.hand = err, hand

    def has_hand(self, c: Item, count: int) -> bool:
        """Whether the game of ``count`` hands has the hand asked for; when it
        hasn't, say so on ``err`` and fail the run."""
        if self.hand is None or self.hand <= count:
            return True
        self.err.write(f"{escape.text(c.file)}: there is no hand {self.hand}: the game has "
                       f"{plural(count, 'hand')}\n")
        self.run.failed = True
        return False


def write_diagnostics(c: Item, err: TextIO, errors_only: bool = False) -> None:
    """An item's diagnostics to ``err`` in validate's text format, then the line
    saying how many more ``--max-errors`` left out (``errors_only``: the errors
    alone, and that line only when errors were left out)."""
    for d in c.diagnostics:
        if not errors_only or d.severity == ERROR:
            err.write(d.as_text() + "\n")
    more = c.more_line()
    if more and (not errors_only or c.omitted_errors):
        err.write(more + "\n")


def write_first_errors(items: Iterable[Item], err: TextIO) -> None:
    """The first error of each item, in validate's text format: how report and
    ratings list the records they left out, after their output (an item with
    no error, as what a folder walk skipped, shows its first warning)."""
    for c in items:
        first = next((d for d in c.diagnostics if d.severity == ERROR), c.diagnostics[0] if c.diagnostics else None)
        if first is not None:
            err.write(first.as_text() + "\n")


def refusal_line(template: str, c: Item) -> str:
    """``template`` with the item's file (escaped) and error count filled in."""
    return template.format(file=escape.text(c.file), errors=plural(c.errors, "error"))


def drive(items: Iterable[Any], consumer: Consumer, err: TextIO | None = None) -> int:
    """Hand every item to ``consumer`` (see the module docstring), refusing
    those it can't use on ``err``; return ``consumer.end()``, the exit status."""
    run = Run()
    consumer.begin(run)
    for c in items:
        if c.skipped or c.unreadable:
            if c.skipped:
                run.skipped += 1
            else:
                run.unreadable += 1
            if consumer.refusal is not None and err is not None:
                write_diagnostics(c, err)
            consumer.invalid(c)
            continue
        run.documents += 1
        if consumer.usable(c):
            run.used += 1
            consumer.game(c)
            continue
        run.invalid += 1
        template = consumer.refusal_for(c)
        if template is not None and err is not None:
            write_diagnostics(c, err, errors_only=not consumer.shows_warnings)
            err.write(refusal_line(template, c) + "\n")
        consumer.invalid(c)
    return consumer.end()

