"""A pool of worker processes for the pieces of the inputs (``pitchcli.pipeline.pieces``):
results in task order, a dead worker reported, never a hang."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from pitchcli.pipeline.pieces import Task

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

        hand_out(limit)
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
                stop = stop_requested()
                if stop is not None:
                    raise stop from None  # the workers died because we are stopping
                lost = [t for t, g in zip(tasks[i:], futures[i:], strict=False)
                        if g is None or not g.done() or g.exception() is not None]
                lost += list(tasks[len(futures):])
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
