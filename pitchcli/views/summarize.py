"""Summarizing inputs: files, folders and standard input -> one ``Summary``.

Every document goes through the same pipeline as ``pitch validate``
(``pitchcli.pipeline.check``): load, schema, engine. Only counters and a bounded number
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
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from pitchcli.diagnostics import DEFAULT_MAX_ERRORS, Diagnostic
from pitchcli.gcpolicy import batch
from pitchcli.pipeline.check import iter_sources
from pitchcli.pipeline.cluster import DEFAULT_TIMEOUT, Tls, connect, in_order, threads
from pitchcli.pipeline.lint import FoundPolicies, Judge, checked_source, checked_sources
from pitchcli.pipeline.parallel import Workers
from pitchcli.pipeline.pieces import ByteRange, Task, inputs, plan, size_of, split_inputs
from pitchcli.progress import Progress
from pitchcli.views.summary import DEFAULT_LIMIT, RoundKey, Summary, round_key


@dataclass
class PieceDone:
    """What a task returns: its summary, and how many documents and lines its
    piece holds (for renumbering the next piece of the same file)."""

    task: Task
    summary: Summary
    documents: int
    lines: int


def run_piece(task: Task, limit: int | None, keep_games: bool, path: str | None = None,
              max_errors: int | None = DEFAULT_MAX_ERRORS, policy: FoundPolicies | None = None) -> PieceDone:
    """Summarize one task; ``path``: where to open the file when it isn't at
    ``task.name`` (a cluster's worker in another folder gets the absolute path;
    the name in the summary stays ``task.name``); at most ``max_errors``
    diagnostics kept per document (None: all; the counts include them all);
    ``policy``: what is shown of the file's records, found by the parent
    (``Judge.for_files``; an ``ignore-file`` comment applies within its piece)."""
    s = Summary(limit, keep_games)
    last = -1
    path = path or task.name
    if task.start is None:
        for c in checked_source(task.name, path, policy, max_errors, quick=True):
            s.add_checked(c)
        return PieceDone(task, s, 0, 0)
    reader = ByteRange(path, task.start, task.end or 0)
    with io.BufferedReader(reader, 1 << 16) as source:
        for c in checked_source(task.name, source, policy, max_errors, quick=True):
            s.add_checked(c)
            last = max(last, c.index)
    return PieceDone(task, s, last + 1, reader.newlines)


def summarize_paths(paths: Iterable[str], jobs: int = 1, limit: int | None = DEFAULT_LIMIT,
                    keep_games: bool = True, progress: Progress | None = None,
                    output: str | None = None, max_errors: int | None = DEFAULT_MAX_ERRORS,
                    judge: Judge | None = None) -> Summary:
    """Summarize every document of every input (see the module doc); ``output``
    is the file the summary will be written to, not read if found in a folder;
    ``max_errors``: the diagnostics kept per document (``check_source``), or
    ``judge``: what is shown of them (``pipeline.lint``)."""
    policy_for = judge.policy_for if judge is not None else None
    progress = progress or Progress(False)
    total = Summary(limit, keep_games)
    sizes: dict[str, int] = {}
    if progress.enabled:  # the bar's totals: the files and their bytes (standard input: unknown)
        listed = list(iter_sources(paths))
        sizes = {name: size_of(name) for name, source in listed if isinstance(source, str)}
        progress.total_files = len(listed)
        progress.total_bytes = sum(sizes.values()) if len(sizes) == len(listed) else None
    if jobs <= 1:
        def read() -> Iterator[tuple[str, str | BinaryIO | Diagnostic]]:
            # The next input is asked for once the one before is read whole:
            # it is counted as done then (its last chunk may still be checked).
            for name, source in inputs(paths, output):
                yield name, source
                progress.tick(0, sizes.get(name, 0), 1)

        for c in checked_sources(read(), policy_for, max_errors):
            total.add_checked(c)
            progress.tick()
        progress.close()
        return total
    files, stdin = split_inputs(paths, output)
    tasks = plan(files, jobs)
    with Workers(min(jobs, max(len(tasks), 1))) as workers:
        found = judge.for_files({t.name for t in tasks}) if judge is not None else None
        results = workers.run(run_piece, tasks, limit, keep_games, None, max_errors, found)
        for name, source in stdin:  # the parent reads standard input meanwhile
            for c in checked_source(name, source, policy_for, max_errors):
                total.add_checked(c)
                progress.tick()
            progress.tick(0, 0, 1)
        for part in renumbered(results):
            total.merge(part.summary)
            t, whole = part.task, sizes.get(part.task.name, 0)
            last = t.start is None or t.end == whole
            progress.tick(part.summary.counts["documents"] + part.summary.counts["unreadable"],
                          whole if t.start is None else (t.end or 0) - t.start, int(last))
    progress.close()
    return total


def summarize_file(path: str, limit: int | None = DEFAULT_LIMIT, keep_games: bool = True) -> Summary:
    """The summary of one record file (or folder): every document validated as
    by ``pitch validate``, counted as by ``pitch summarize``. The public entry
    point for other map-reduce engines: summarize files where they are, merge
    the summaries (``Summary.merge``), ship them as ``Summary.to_json`` /
    ``Summary.from_json`` between machines."""
    return summarize_paths([path], 1, limit, keep_games)


def summarize(*paths: str | os.PathLike[str], jobs: int = 1, max_rows: int | None = DEFAULT_LIMIT) -> Summary:
    """The summary of every record of every input, as ``pitch summarize``
    makes it: files, folders (searched for record files) or ``"-"`` for
    standard input; every document validated, only valid games counted in the
    standings, an invalid one listed with its first error. ``jobs``: worker
    processes (``0``: one per CPU); ``max_rows``: game rows and problems kept
    (``None``: all). Never raises for what a file holds."""
    names = [os.fspath(p) for p in paths]
    with batch():  # the cycle collector as pitch summarize runs it (gcpolicy)
        return summarize_paths(names, jobs or (os.cpu_count() or 1), max_rows)


def merge(*summaries: Summary) -> Summary:
    """A new summary of everything the ``summaries`` counted (none is changed):
    the same as one run over all their inputs (``pitch merge``)."""
    total = Summary(None if summaries else DEFAULT_LIMIT)  # None: the parts' own limit wins
    for s in summaries:
        total.merge(s)
    return total


def summarize_by_round(paths: Iterable[str], limit: int | None = DEFAULT_LIMIT,
                       progress: Progress | None = None, max_errors: int | None = DEFAULT_MAX_ERRORS,
                       judge: Judge | None = None) -> tuple[Summary, dict[RoundKey, Summary]]:
    """The summary of everything, and one summary per round (``round_key``:
    the record's night and round, so that round 1 of two nights are two
    rounds), in one process; at most ``max_errors`` diagnostics kept per document."""
    progress = progress or Progress(False)
    total = Summary(limit, keep_games=False)
    rounds: dict[RoundKey, Summary] = {}
    policy_for = judge.policy_for if judge is not None else None
    for name, source in iter_sources(paths):
        for c in checked_source(name, source, policy_for, max_errors):
            total.add_checked(c)
            key = round_key(c.data)
            part = rounds.get(key)
            if part is None:
                part = rounds[key] = Summary(1, keep_games=False)  # (problems: shown from the total)
            part.add_checked(c)
            progress.tick()
    progress.close()
    return total, rounds


def renumbered(results: Iterable[PieceDone]) -> Iterator[PieceDone]:
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


def read_partial(name: str, source: BinaryIO | None = None) -> Summary:
    """A partial summary file (``-``: ``source``); ``SummaryError`` or ``OSError``
    when it can't be used."""
    import json

    from pitchcli.record.read import TooLarge, read_bounded
    from pitchcli.views.summary import SummaryError

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


# --- on a Dask cluster (``--cluster``) -------------------------------------------


def _on_worker(task: Task, cwd: str, limit: int | None, keep_games: bool,
               max_errors: int | None = DEFAULT_MAX_ERRORS, policy: FoundPolicies | None = None) -> PieceDone:
    """What a worker runs: ``summarize.run_piece``, the file opened by absolute
    path (a worker runs in a folder of its own)."""
    return run_piece(task, limit, keep_games, os.path.join(cwd, task.name), max_errors, policy)


def summarize_on_cluster(paths: Iterable[str], address: str, limit: int | None = DEFAULT_LIMIT,
                         keep_games: bool = True, progress: Progress | None = None,
                         timeout: float = DEFAULT_TIMEOUT, output: str | None = None,
                         max_errors: int | None = DEFAULT_MAX_ERRORS, tls: Tls | None = None,
                         judge: Judge | None = None) -> Summary:
    """``summarize.summarize_paths`` with the tasks on the cluster at
    ``address`` (over TLS with ``tls``); standard input is read here;
    ``output`` (the ``-o`` file) is left out of a folder walk, as ``--jobs``
    does. ``ClusterError`` when the cluster can't do it."""
    progress = progress or Progress(False)
    total = Summary(limit, keep_games)
    files, stdin = split_inputs(paths, output)
    policy_for = judge.policy_for if judge is not None else None
    try:
        with connect(address, timeout, tls) as client:
            # The pieces are cut as for --jobs with one job per worker thread
            # (at least 2, so a big file is cut even on a one-worker cluster).
            tasks = plan(files, max(threads(client, timeout), 2))
            found = judge.for_files({t.name for t in tasks}) if judge is not None else None  # here, not there
            futures = client.map(_on_worker, tasks, cwd=os.getcwd(), limit=limit, keep_games=keep_games,
                                 max_errors=max_errors, policy=found, pure=False)
            for name, source in stdin:  # read here meanwhile
                for c in checked_source(name, source, policy_for, max_errors):
                    total.add_checked(c)
                    progress.tick()
            for part in renumbered(in_order(client, futures, timeout, _counted(progress))):
                total.merge(part.summary)
    finally:
        progress.close()  # (ends the counter's line before any message)
    return total

def _counted(progress: Progress) -> Callable[[PieceDone], None]:
    """The progress bar's tick for each piece the cluster returns."""
    return lambda r: progress.tick(r.summary.counts["documents"] + r.summary.counts["unreadable"])
