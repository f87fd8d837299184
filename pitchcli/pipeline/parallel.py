"""A pool of worker processes for the pieces of the inputs (``pitchcli.pipeline.pieces``):
results in task order, a dead worker reported, never a hang."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from typing import TypeVar

from pitchcli.pipeline.pieces import Task

R = TypeVar("R")


class WorkerDied(Exception):
    """A worker process ended without returning its part (killed, as the OOM
    killer would): the summary would be incomplete. ``lost`` names the pieces."""

    def __init__(self, lost: list[Task]) -> None:
        self.lost = lost
        shown = ", ".join(task_text(t) for t in lost[:5])
        more = f" and {len(lost) - 5} more" if len(lost) > 5 else ""
        super().__init__(f"a worker process died (killed?); not summarized: {shown}{more}")


def task_text(t: Task) -> str:
    """A task for a message: the file, and its byte range if it is a piece."""
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

    def run(self, work: Callable[..., R], tasks: list[Task], *args: object) -> Iterator[R]:
        """``work(task, *args)`` for each task in the workers, the results in task order."""
        from concurrent.futures.process import BrokenProcessPool

        from pitchcli.guard import signals_held, stop_requested
        with signals_held():  # the workers are forked at the first submit
            futures = [self._pool.submit(work, t, *args) for t in tasks]
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
