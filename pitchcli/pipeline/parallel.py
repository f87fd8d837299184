"""A pool of worker processes for the pieces of the inputs (``pitchcli.pipeline.pieces``):
results in task order, a dead worker reported, never a hang."""

from __future__ import annotations

# (multiprocessing, pickle, shutil and tempfile are imported where they are
# used, when a run has jobs: a command's module imports this one for its
# names, and a run of one process never needs them; issue 22, start-up.)
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, TypeVar

from pitchcli.diagnostics import Diagnostic
from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.pieces import Task, inputs, plan, shifted_message, task_source

R = TypeVar("R")


class WorkerDied(Exception):
    """A worker process ended without returning its part (killed, as the OOM
    killer would): the summary would be incomplete. ``lost`` names the pieces."""

    def __init__(self, lost: Sequence[Any]) -> None:
        self.lost = lost
        shown = ", ".join(task_text(t) for t in lost[:5])
        more = f" and {len(lost) - 5} more" if len(lost) > 5 else ""
        super().__init__(f"a worker process died (killed?); not summarized: {shown}{more}")


def task_text(t: Task | object) -> str:
    """A task for a message: the file, and its byte range if it is a piece
    (another kind of task: as ``str`` says it)."""
    if not isinstance(t, Task):
        return str(t)
    return t.name if t.start is None else f"{t.name} (bytes {t.start}-{t.end})"


class Workers:
    """A pool of worker processes that never hangs: a worker that dies makes
    ``WorkerDied`` (``concurrent.futures`` notices a dead process, where
    ``multiprocessing.Pool`` waits for ever for its task), and leaving the
    block early — an error, SIGINT, SIGTERM — stops every worker at once."""

    def __init__(self, jobs: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        from pitchcli.guard import worker_signals
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        self._pool = ProcessPoolExecutor(jobs, mp_context=ctx, initializer=worker_signals)

    def __enter__(self) -> Workers:
        return self

    def run(self, work: Callable[..., R], tasks: Sequence[Any], *args: object,
            ahead: int | None = None) -> Iterator[R]:
        """``work(task, *args)`` for each task in the workers, the results in
        task order. ``ahead``: at most this many tasks handed out and not yet
        taken back (their results wait in this process's memory); all at once
        when None."""
        from concurrent.futures import Future
        from concurrent.futures.process import BrokenProcessPool

        from pitchcli.guard import signals_held, stop_requested
        futures: list[Future[R]] = []
        limit = len(tasks) if ahead is None else max(1, ahead)

        def hand_out(upto: int) -> None:
            with signals_held():  # the workers are forked at the first submit
                while len(futures) < min(upto, len(tasks)):
                    futures.append(self._pool.submit(work, tasks[len(futures)], *args))

        def died(i: int) -> BaseException:
            # The tasks from the i-th on that did not come back, and those not handed out.
            stop = stop_requested()
            if stop is not None:
                return stop  # the workers died because we are stopping
            lost = [t for t, g in zip(tasks[i:], futures[i:], strict=False)
                    if g is None or not g.done() or g.exception() is not None]
            return WorkerDied(lost + list(tasks[len(futures):]))

        try:
            # A worker can die while the first tasks are still being handed
            # out (the pool forks them all at the first submit): then submit
            # itself raises BrokenProcessPool.
            hand_out(limit)
        except BrokenProcessPool:
            raise died(0) from None
        for i in range(len(tasks)):
            f = futures[i]
            try:
                while True:
                    try:
                        done = f.result(timeout=0.25)
                        break
                    except TimeoutError:
                        stop = stop_requested()
                        if stop is not None:
                            raise stop from None
                futures[i] = None  # type: ignore[call-overload]  # (its result is let go once handed on)
                hand_out(i + 1 + limit)
                yield done
            except BrokenProcessPool:
                raise died(i) from None

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is None:
            self._pool.shutdown()
            return
        # Stop the workers now rather than wait for the tasks they hold.
        # (ProcessPoolExecutor.terminate_workers arrives in Python 3.14.)
        # SIGKILL: a worker forked before it could ignore the signals would
        # otherwise print the parent's exception.
        for p in list(getattr(self._pool, "_processes", {}).values()):
            p.kill()
        self._pool.shutdown(wait=True, cancel_futures=True)


# --- records handed back in order: find, convert, cat, split, dedup --jobs ---------------
#
# Each worker checks its piece (the reader the command gives: ``noted_source``
# or ``check_source``), hands every document to the command's ``prepare`` (what
# costs: matching, the record written in its format, its keys) and writes the
# results, pickled one after another, to a temporary file of its own. The
# parent reads those files back in task order, renumbering the documents and
# lines of a piece by the pieces before it in its file, and hands each item to
# the command's consumer as one process would: the same output, in the same
# order. Memory stays bounded: a worker holds one document at a time, the
# parent one item; what is waiting is on disk.

Reader = Callable[[str, str | BinaryIO | Diagnostic], Iterable[Checked]]
Prepare = Callable[[Checked], object]


class Prepared(Checked):
    """A checked document as a worker hands it back: its place, diagnostics
    and counts, whether it can be used as a game (``blocked``, known where it
    was checked), and what the command made of it (``payload``); without its
    document, analysis or comments (the payload has what the command needs)."""

    __slots__ = ("is_blocked", "payload")

    def __init__(self, file: str, index: int, *, diagnostics: list[Diagnostic], omitted_errors: int,
                 omitted_warnings: int, omitted_claims: int, is_blocked: bool, payload: object) -> None:
        super().__init__(file, index, diagnostics=diagnostics, omitted_errors=omitted_errors,
                         omitted_warnings=omitted_warnings, omitted_claims=omitted_claims)
        self.is_blocked = is_blocked
        self.payload = payload

    @property
    def blocked(self) -> bool:  # type: ignore[override]
        """Whether the document could not be used as a game, as decided when it was checked."""
        return self.is_blocked


def prepared(c: Checked, prepare: Prepare) -> Prepared:
    """``c`` with ``prepare(c)`` as its payload, ready to be sent back."""
    return Prepared(c.file, c.index, diagnostics=c.diagnostics, omitted_errors=c.omitted_errors,
                    omitted_warnings=c.omitted_warnings, omitted_claims=c.omitted_claims,
                    is_blocked=c.blocked, payload=prepare(c))


@dataclass
class PieceRead:
    """What a worker returns: its task, the temporary file of its items, and
    how many documents and lines its piece holds (to renumber the next piece)."""

    task: Task
    path: str
    documents: int
    lines: int


def prepare_piece(task: Task, read: Reader, make: Callable[[], Prepare], scratch: str) -> PieceRead:
    """Read one task, each document prepared (``make()``: a new ``prepare``
    for each task), the items pickled to a new file of the folder ``scratch``."""
    import pickle
    import tempfile

    fd, path = tempfile.mkstemp(dir=scratch, suffix=".items")
    prepare = make()
    last = -1
    source, reader = task_source(task)
    with os.fdopen(fd, "wb") as out:
        try:
            for c in read(task.name, source):
                pickle.dump(prepared(c, prepare), out, pickle.HIGHEST_PROTOCOL)
                last = max(last, c.index)
        finally:
            if reader is not None:
                source.close()  # type: ignore[union-attr]
    if reader is None:
        return PieceRead(task, path, 0, 0)
    return PieceRead(task, path, last + 1, reader.newlines)


def _shift(c: Prepared, docs: int, lines: int) -> None:
    """Renumber an item of a piece that starts after ``docs`` documents and ``lines`` lines of its file."""
    c.index += docs
    c.diagnostics = [d.located(document=d.document + docs, line=None if d.line is None else d.line + lines,
                               message=shifted_message(d.code, d.message, lines)) for d in c.diagnostics]


class InOrder:
    """The prepared items of every input, in the order one process reads them
    (``with InOrder(...) as items: drive(items, consumer)``); with ``jobs > 1``
    the files read by worker processes (see above), standard input and what
    the folder walk reports by this one. ``split_at``: the files that may be
    cut into pieces (``pieces.plan``; ``{}``: none). Leaving the block stops
    the workers and removes every temporary file, whatever ended it."""

    def __init__(self, paths: Iterable[str], jobs: int, read: Reader, make: Callable[[], Prepare],
                 output: str | None = None, split_at: dict[str, str] | None = None,
                 read_in_workers: Callable[[list[str]], Reader] | None = None) -> None:
        self.paths, self.jobs, self.read, self.make = paths, jobs, read, make
        self.output, self.split_at = output, split_at
        # The reader the workers are sent, made for the files they will read
        # (a judge's policies are found here and sent along); else ``read``.
        self.read_in_workers = read_in_workers
        self._items: Iterator[Prepared] | None = None

    def __enter__(self) -> Iterator[Prepared]:
        self._items = self._serial() if self.jobs <= 1 else self._spread()
        return self._items

    def __exit__(self, *exc: object) -> None:
        if self._items is not None:
            self._items.close()  # type: ignore[attr-defined]  # a generator: its finally runs now

    def _here(self, name: str, source: str | BinaryIO | Diagnostic) -> Iterator[Prepared]:
        prepare = self.make()
        for c in self.read(name, source):
            yield prepared(c, prepare)

    def _serial(self) -> Iterator[Prepared]:
        prepare = self.make()  # one process: one run, as one task
        for name, source in inputs(self.paths, self.output):
            for c in self.read(name, source):
                yield prepared(c, prepare)

    def _spread(self) -> Iterator[Prepared]:
        import shutil
        import tempfile

        entries: list[Task | tuple[str, BinaryIO | Diagnostic]] = []
        for name, source in inputs(self.paths, self.output):
            if isinstance(source, str):
                entries += plan([name], self.jobs, split_at=self.split_at)
            else:
                entries.append((name, source))
        tasks = [e for e in entries if isinstance(e, Task)]
        scratch = tempfile.mkdtemp(prefix="pitch-jobs-")
        try:
            with Workers(min(self.jobs, max(len(tasks), 1))) as workers:
                read = (self.read if self.read_in_workers is None
                        else self.read_in_workers(sorted({t.name for t in tasks})))
                results = workers.run(prepare_piece, tasks, read, self.make, scratch)
                offset: dict[str, tuple[int, int]] = {}
                for e in entries:
                    if isinstance(e, Task):
                        yield from self._read_back(next(results), offset)
                    else:
                        yield from self._here(*e)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    @staticmethod
    def _read_back(part: PieceRead, offset: dict[str, tuple[int, int]]) -> Iterator[Prepared]:
        import pickle

        t = part.task
        docs, lines = offset.get(t.name, (0, 0)) if t.start is not None and t.piece else (0, 0)
        with open(part.path, "rb") as f:
            while True:
                try:
                    c = pickle.load(f)  # our own worker's file, in a folder of our own (mkdtemp: 0700)
                except EOFError:
                    break
                if docs or lines:
                    _shift(c, docs, lines)
                c.file = sys.intern(c.file)  # one string per file, however many games are kept
                yield c
        os.unlink(part.path)
        if t.start is not None:
            offset[t.name] = (docs + part.documents, lines + part.lines)
