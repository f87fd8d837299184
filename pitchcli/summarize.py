"""Summarizing inputs: files, folders and standard input -> one ``Summary``.

Every document goes through the same pipeline as ``pitch validate``
(``pitchcli.check``): load, schema, engine. Only counters and a bounded number
of rows are kept, so memory does not grow with the number of games.

With ``jobs > 1`` the work is spread over a pool of processes: one task per
file, and a big JSON Lines file or YAML stream is cut into byte ranges at
document boundaries (a new line in JSON Lines, a ``---`` line in YAML). Each
task returns a partial summary; the parent renumbers the documents and lines of
a piece by what came before it in its file and merges the parts in task order.
Standard input is read by the parent itself.
"""

from __future__ import annotations

import io
import itertools
import multiprocessing
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO, TextIO

from pitchcli.check import check_source, iter_sources
from pitchcli.progress import Progress
from pitchcli.record.load import DEFAULT_LIMITS, _marker
from pitchcli.summary import DEFAULT_LIMIT, Summary

# A file is cut into pieces only when it is at least this big; each worker
# gets about four pieces so that an uneven piece doesn't leave a core idle.
MIN_PIECE = 1 << 18
PIECES_PER_JOB = 4

SPLIT_AT = {".jsonl": "line", ".ndjson": "line", ".yaml": "yaml", ".yml": "yaml"}


@dataclass(frozen=True)
class Task:
    """One unit of work: a whole file (``start is None``) or one byte range of it."""

    name: str
    start: int | None = None
    end: int | None = None
    piece: int = 0  # the index of this piece in its file


class _Range(io.RawIOBase):
    """Bytes ``start`` to ``end`` of a file, read in constant memory; counts the
    line feeds it hands out (to renumber the lines of the next piece)."""

    def __init__(self, path: str, start: int, end: int) -> None:
        super().__init__()
        self._f = open(path, "rb")  # noqa: SIM115 - closed in close()
        self._f.seek(start)
        self._left = end - start
        self.newlines = 0

    def readable(self) -> bool:
        return True

    def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
        n = min(len(b), self._left)
        if n <= 0:
            return 0
        data = self._f.read(n)
        b[:len(data)] = data
        self._left -= len(data)
        self.newlines += data.count(b"\n")
        return len(data)

    def close(self) -> None:
        self._f.close()
        super().close()


def _boundaries(path: str, size: int, kind: str, pieces: int) -> list[int]:
    """Offsets where a document starts, near ``size * i / pieces``; every piece
    holds at least one document (so no piece is "a file with no document")."""
    cuts = [0]
    with open(path, "rb") as f:
        first = _next_start(f, 0, kind, size)
        if first is None:
            return [0, size]
        for i in range(1, pieces):
            target = max(size * i // pieces, cuts[-1] + 1, first + 1)
            cut = _next_start(f, target, kind, size) if target < size else None
            if cut is not None and cut > cuts[-1] and cut < size:
                cuts.append(cut)
    return [*cuts, size]


_SCAN_PIECE = 1 << 16  # a long line is scanned in pieces, never read whole


def _next_start(f: BinaryIO, target: int, kind: str, size: int) -> int | None:
    """The first place at or after ``target`` where the loader itself starts a
    document (JSON Lines: a line that is not blank) or a chunk (YAML), so that
    a piece starting there is read exactly as that part of the whole file is.

    YAML mirrors ``pitchcli.record.load._yaml_chunks``: a chunk ends where a
    line starts with a boundary marker (``---``, ``...``, a ``%`` directive)
    after the chunk has content. Scanning from the middle of a file, what came
    before is unknown, so a cut is only made at a marker that follows content
    seen by the scan itself: comments and directives of any length before a
    ``---`` (a ``%YAML`` line then 5 KB of comments) stay with their document.
    Lines end at LF only, as the loader's do: a file with CR-only line ends is
    one line, and one piece. ``None`` when there is no such place.
    """
    if target == 0:
        f.seek(0)
    else:
        f.seek(target - 1)
        while True:  # the rest of the line that holds byte target - 1
            rest = f.readline(_SCAN_PIECE)
            if not rest or rest.endswith(b"\n"):
                break
    pos = f.tell()
    content = False  # the scan has seen document content since the last place it could not cut
    at_start = True
    while pos < size:
        piece = f.readline(_SCAN_PIECE)
        if not piece:
            return None
        here, pos = pos, pos + len(piece)
        if at_start:
            if kind == "line":
                if piece.strip() and not _looks_like_a_file_start(f, here):
                    return here
            else:
                marker = _marker(piece)
                if marker and content and marker != b"...":
                    if not _looks_like_a_file_start(f, here):
                        return here
                    content = marker == b"---"
                elif marker == b"..." and content:
                    content = False
                    if piece.endswith(b"\n") and not _looks_like_a_file_start(f, pos):
                        return pos  # "..." ends its document: the next chunk starts after it
                elif marker == b"---":
                    content = True
                elif not marker:
                    text = piece.strip()
                    content = content or bool(text and not text.startswith(b"#"))
        at_start = piece.endswith(b"\n")
    return None


def _looks_like_a_file_start(f: BinaryIO, pos: int) -> bool:
    """Whether the bytes at ``pos`` would be read, at the start of a piece, as a
    byte-order mark or as UTF-16/32 text (the loader sniffs the first 4 bytes of
    a file): a line that starts so is not a place to cut, or the piece would be
    read otherwise than the same line in the middle of the file (a UTF-8 BOM
    taken for the file's, a stray 0xff byte refusing the whole piece)."""
    here = f.tell()
    f.seek(pos)
    head = f.read(4)
    f.seek(here)
    return head.startswith((b"\xef\xbb\xbf", b"\x00\x00\xfe\xff", b"\xff\xfe", b"\xfe\xff")) or b"\x00" in head


def _wide_text(path: str) -> bool:
    """Whether a file is UTF-16 or UTF-32 (a byte-order mark, or a NUL in its
    first bytes), which the loader refuses whole with one L102: cut into
    pieces, each piece but the first would be refused again on its own."""
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError:
        return False
    return head.startswith((b"\x00\x00\xfe\xff", b"\xff\xfe", b"\xfe\xff")) or b"\x00" in head


def plan(names: Iterable[str], jobs: int, sizes: dict[str, int] | None = None) -> list[Task]:
    """The tasks for these files: big splittable files in pieces."""
    tasks: list[Task] = []
    for name in names:
        kind = SPLIT_AT.get(os.path.splitext(name)[1].lower())
        try:
            info = os.stat(name)
            # Only a regular file is cut (a FIFO named on the command line is read
            # whole by one worker; probing it here would wait for its writer).
            size = (sizes[name] if sizes is not None else info.st_size) if stat.S_ISREG(info.st_mode) else 0
        except OSError:
            size = 0
        pieces = min(jobs * PIECES_PER_JOB, size // MIN_PIECE) if kind and jobs > 1 else 1
        if pieces < 2 or kind is None or size > DEFAULT_LIMITS.max_file_bytes or _wide_text(name):
            # (a file over the size limit, or in UTF-16/32, is refused whole, as with one job)
            tasks.append(Task(name))
            continue
        cuts = _boundaries(name, size, kind, pieces)
        if len(cuts) == 2:
            tasks.append(Task(name))
            continue
        tasks += [Task(name, a, b, k) for k, (a, b) in enumerate(itertools.pairwise(cuts))]
    return tasks


@dataclass
class _Done:
    """What a task returns: its summary, and how many documents and lines its
    piece holds (for renumbering the next piece of the same file)."""

    task: Task
    summary: Summary
    documents: int
    lines: int


def _run(task: Task, limit: int | None, keep_games: bool, path: str | None = None) -> _Done:
    """Summarize one task; ``path``: where to open the file when it isn't at
    ``task.name`` (a cluster's worker in another folder gets the absolute path;
    the name in the summary stays ``task.name``)."""
    s = Summary(limit, keep_games)
    last = -1
    path = path or task.name
    if task.start is None:
        for c in check_source(task.name, path):
            s.add_checked(c)
        return _Done(task, s, 0, 0)
    reader = _Range(path, task.start, task.end or 0)
    with io.BufferedReader(reader, 1 << 16) as source:
        for c in check_source(task.name, source):
            s.add_checked(c)
            last = max(last, c.index)
    return _Done(task, s, last + 1, reader.newlines)


def _size_of(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0  # unreadable: reported as L101 when it is read


def _run_star(args: tuple[Task, int | None, bool]) -> _Done:
    return _run(*args)


def _inputs(paths: Iterable[str], output: str | None) -> Iterator[tuple[str, str | BinaryIO]]:
    """``iter_sources``, less the file ``output`` names when it is found in a
    folder: ``summarize --partial -o DIR/part.json DIR/`` run again must not
    read its own earlier output as a record (named on its own, it is read)."""
    paths = list(paths)
    for name, source in iter_sources(paths):
        if output is not None and isinstance(source, str) and name not in paths:
            try:
                if os.path.samefile(name, output):
                    continue
            except OSError:
                pass
        yield name, source


def split_inputs(paths: Iterable[str], output: str | None = None) -> tuple[list[str], list[tuple[str, BinaryIO]]]:
    """The files of ``paths`` (folders searched; ``output`` left out, see
    ``_inputs``), for workers to open, and the standard input, for the parent
    to read."""
    files: list[str] = []
    stdin: list[tuple[str, BinaryIO]] = []
    for name, source in _inputs(paths, output):
        if isinstance(source, str):
            files.append(name)
        else:
            stdin.append((name, source))
    return files, stdin


def summarize_paths(paths: Iterable[str], jobs: int = 1, limit: int | None = DEFAULT_LIMIT,
                    keep_games: bool = True, progress: Progress | None = None,
                    output: str | None = None) -> Summary:
    """Summarize every document of every input (see the module doc); ``output``
    is the file the summary will be written to, not read if found in a folder."""
    progress = progress or Progress(False)
    total = Summary(limit, keep_games)
    sizes: dict[str, int] = {}
    if progress.enabled:  # the bar's totals: the files and their bytes (standard input: unknown)
        listed = list(iter_sources(paths))
        sizes = {name: _size_of(name) for name, source in listed if isinstance(source, str)}
        progress.total_files = len(listed)
        progress.total_bytes = sum(sizes.values()) if len(sizes) == len(listed) else None
    if jobs <= 1:
        for name, source in _inputs(paths, output):
            for c in check_source(name, source):
                total.add_checked(c)
                progress.tick()
            progress.tick(0, sizes.get(name, 0), 1)
        progress.close()
        return total
    files, stdin = split_inputs(paths, output)
    tasks = plan(files, jobs)
    with _Workers(min(jobs, max(len(tasks), 1))) as workers:
        results = workers.run(tasks, limit, keep_games)
        for name, source in stdin:  # the parent reads standard input meanwhile
            for c in check_source(name, source):
                total.add_checked(c)
                progress.tick()
            progress.tick(0, 0, 1)
        for part in _renumbered(results):
            total.merge(part.summary)
            t, whole = part.task, sizes.get(part.task.name, 0)
            last = t.start is None or t.end == whole
            progress.tick(part.summary.counts["documents"] + part.summary.counts["unreadable"],
                          whole if t.start is None else (t.end or 0) - t.start, int(last))
    progress.close()
    return total


class WorkerDied(Exception):
    """A worker process ended without returning its part (killed, as the OOM
    killer would): the summary would be incomplete. ``lost`` names the pieces."""

    def __init__(self, lost: list[Task]) -> None:
        self.lost = lost
        shown = ", ".join(_task_text(t) for t in lost[:5])
        more = f" and {len(lost) - 5} more" if len(lost) > 5 else ""
        super().__init__(f"a worker process died (killed?); not summarized: {shown}{more}")


def _task_text(t: Task) -> str:
    return t.name if t.start is None else f"{t.name} (bytes {t.start}-{t.end})"


class _Workers:
    """A pool of worker processes that never hangs: a worker that dies makes
    ``WorkerDied`` (``concurrent.futures`` notices a dead process, where
    ``multiprocessing.Pool`` waits for ever for its task), and leaving the
    block early — an error, SIGINT, SIGTERM — stops every worker at once."""

    def __init__(self, jobs: int) -> None:
        from concurrent.futures import ProcessPoolExecutor

        from pitchcli.guard import worker_signals
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else None)
        self._pool = ProcessPoolExecutor(jobs, mp_context=ctx, initializer=worker_signals)

    def __enter__(self) -> _Workers:
        return self

    def run(self, tasks: list[Task], limit: int | None, keep_games: bool) -> Iterator[_Done]:
        """The tasks' results, in task order."""
        from concurrent.futures.process import BrokenProcessPool

        from pitchcli.guard import signals_held, stop_requested
        with signals_held():  # the workers are forked at the first submit
            futures = [self._pool.submit(_run, t, limit, keep_games) for t in tasks]
        for i, f in enumerate(futures):
            try:
                while True:
                    try:
                        done = f.result(timeout=0.25)
                        break
                    except TimeoutError:
                        stop = stop_requested()
                        if stop is not None:
                            raise stop from None
                yield done
            except BrokenProcessPool:
                stop = stop_requested()
                if stop is not None:
                    raise stop from None  # the workers died because we are stopping
                lost = [t for t, g in zip(tasks[i:], futures[i:], strict=True)
                        if not g.done() or g.exception() is not None]
                raise WorkerDied(lost) from None

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


def summarize_file(path: str, limit: int | None = DEFAULT_LIMIT, keep_games: bool = True) -> Summary:
    """The summary of one record file (or folder): every document validated as
    by ``pitch validate``, counted as by ``pitch summarize``. The public entry
    point for other map-reduce engines: summarize files where they are, merge
    the summaries (``Summary.merge``), ship them as ``Summary.to_json`` /
    ``Summary.from_json`` between machines."""
    return summarize_paths([path], 1, limit, keep_games)


def summarize_by_round(paths: Iterable[str], limit: int | None = DEFAULT_LIMIT,
                       progress: Progress | None = None) -> tuple[Summary, dict[str | None, Summary]]:
    """The summary of everything, and one summary per round (the record's
    ``round`` as text; ``None`` without one), in one process."""
    progress = progress or Progress(False)
    total = Summary(limit, keep_games=False)
    rounds: dict[str | None, Summary] = {}
    for name, source in iter_sources(paths):
        for c in check_source(name, source):
            total.add_checked(c)
            r = c.data.get("round") if isinstance(c.data, dict) else None
            key = None if r is None else str(r)
            part = rounds.get(key)
            if part is None:
                part = rounds[key] = Summary(1, keep_games=False)  # (problems: shown from the total)
            part.add_checked(c)
            progress.tick()
    progress.close()
    return total, rounds


def _renumbered(results: Iterable[_Done]) -> Iterator[_Done]:
    """Shift each piece by the documents and lines of the pieces before it in
    its file (the results come in task order)."""
    offset: dict[str, tuple[int, int]] = {}
    for r in results:
        if r.task.start is not None:
            docs, lines = offset.get(r.task.name, (0, 0)) if r.task.piece else (0, 0)
            if docs or lines:
                r.summary.shift(docs, lines)
            offset[r.task.name] = (docs + r.documents, lines + r.lines)
        yield r


def write_summary(s: Summary, out: TextIO, fmt: str, standings: bool, games: bool, partial: bool) -> None:
    """The partial summary (JSON, for ``pitch merge``) or the report in ``fmt``."""
    if partial:
        import json

        json.dump(s.to_json(), out, ensure_ascii=False, separators=(",", ":"))
        out.write("\n")
        return
    from pitchcli.summary_report import write_report

    write_report(s, out, fmt, standings, games)


def read_partial(name: str, source: BinaryIO | None = None) -> Summary:
    """A partial summary file (``-``: ``source``); ``SummaryError`` or ``OSError``
    when it can't be used."""
    import json

    from pitchcli.record.read import TooLarge, read_bounded
    from pitchcli.summary import SummaryError

    try:
        raw = read_bounded(name, source)  # bounded: `yes | pitch merge -` ends
        # A file name that isn't UTF-8 was written as its own bytes
        # (surrogateescape): read it back the same way.
        data = json.loads(raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8", "surrogateescape"))
    except TooLarge as e:
        raise SummaryError(str(e)) from None
    except ValueError as e:
        raise SummaryError(f"not JSON: {e}") from None
    try:
        # json.loads lets unpaired surrogates through (\ud800 escapes): text
        # that can't be written out again.
        json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raise SummaryError("a string in it is not Unicode text (an unpaired surrogate such as \\ud800)") from None
    return Summary.from_json(data)
