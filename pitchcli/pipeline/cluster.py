"""``pitch summarize --cluster``: the ``--jobs`` pieces run on a Dask cluster.

The same tasks as ``--jobs`` (``summarize.plan``: one per file, a big JSON
Lines file or YAML stream cut at document boundaries) are mapped over the
workers of a ``dask.distributed`` cluster, each to a partial ``Summary``; the
parts are renumbered and merged in task order as with ``--jobs``, so the output
is the same as one process over everything.

The cluster is a running scheduler (``tcp://host:port``) or ``local[:N]``: a
``LocalCluster`` of N worker processes started here and stopped at the end.
The workers open the files themselves (by absolute path), so they must see
them where this process does.

Dask is an optional extra (``pitchcli[dask]``), imported only here and only
when ``--cluster`` is given: ``pitch`` does not pay for it at start-up.
Nothing waits without a bound: connecting, waiting for a first worker, and a
cluster left with no worker all give up after ``timeout`` seconds (exit 3).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

INSTALL = "pip install 'pitchcli[dask]'"
DEFAULT_TIMEOUT = 30.0
# How often the parent looks at the cluster while it waits for results: a
# worker gone, a scheduler gone, are noticed within this (plus an RPC).
_POLL = 0.5


class ClusterError(Exception):
    """The cluster can't be used: ``code`` is the exit status (2: usage, Dask
    not installed; 3: the scheduler can't be reached, a worker or the
    scheduler was lost)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def parse_address(address: str) -> tuple[str, int | None]:
    """``("local", N or None)`` for ``local`` / ``local:N``, else
    ``("remote", address)`` (anything Dask takes: ``tcp://host:port``)."""
    if address == "local" or address.startswith("local:"):
        n = address.partition(":")[2]
        if not n:
            return "local", None
        if not n.isdigit() or int(n) < 1:
            raise ClusterError(2, f"--cluster {address}: local:N needs N, a number of worker processes (1 or more)")
        return "local", int(n)
    if not address.strip():
        raise ClusterError(2, "--cluster: an address (tcp://host:port or local[:N])")
    return "remote", None


@contextmanager
def connect(address: str, timeout: float = DEFAULT_TIMEOUT) -> Iterator[Any]:
    """A ``distributed.Client`` for ``address``, with at least one worker;
    a local cluster is started, and stopped on leaving."""
    kind, n = parse_address(address)
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError as e:
        raise ClusterError(2, f"--cluster needs Dask, an optional extra: {INSTALL} ({e})") from None
    # Every connection attempt (the first, and the RPCs while waiting) gives
    # up after the timeout instead of Dask's own 30 s default.
    with dask.config.set({"distributed.comm.timeouts.connect": f"{timeout}s"}):
        if kind == "local":
            try:
                cluster = LocalCluster(n_workers=n or os.cpu_count() or 1, threads_per_worker=1,
                                       processes=True, dashboard_address=None, silence_logs=logging.ERROR)
            except Exception as e:  # Dask raises many kinds here; none may reach the user as a traceback
                raise ClusterError(3, f"--cluster {address}: could not start a local cluster: {e}") from None
            with cluster, Client(cluster, timeout=timeout) as client:
                yield client
            return
        try:
            client = Client(address, timeout=timeout)
        except (OSError, TimeoutError, ValueError, TypeError) as e:
            raise ClusterError(3, f"--cluster {address}: cannot reach the Dask scheduler: {e}") from None
        with client:
            try:
                client.wait_for_workers(1, timeout=timeout)
            except (OSError, TimeoutError) as e:
                raise ClusterError(3, f"--cluster {address}: no worker joined the scheduler in {timeout:g} s "
                                      f"({type(e).__name__})") from None
            yield client


def in_order(client: Any, futures: list[Any], timeout: float, on_result: Callable[[Any], None]) -> Iterator[Any]:
    """The results in task order; ``on_result`` sees each as it comes.
    Waits in short steps, looking at the cluster between them: no worker for
    ``timeout`` seconds, the scheduler lost, or a task that failed (a worker
    that died on it too often, an error on the worker) is a ``ClusterError``."""
    from distributed import wait

    where = {f.key: i for i, f in enumerate(futures)}
    pending = set(futures)
    del futures
    done: dict[int, Any] = {}
    next_i = 0
    no_worker_since: float | None = None
    while pending:
        try:
            finished, pending = wait(pending, timeout=_POLL, return_when="FIRST_COMPLETED")
        except TimeoutError:
            finished = set()
        for f in finished:
            if f.status != "finished":
                raise ClusterError(3, f"--cluster: a task failed on the cluster: {_failure(f, timeout)}")
            try:
                r = f.result(timeout=timeout)
            except TimeoutError:
                # The worker that held the result died before it was fetched:
                # the scheduler runs the task again; wait for it as before.
                pending.add(f)
                continue
            except Exception as e:  # KilledWorker, CancelledError, a comm error...
                raise ClusterError(3, f"--cluster: a task failed on the cluster: {type(e).__name__}: {e}") from None
            f.release()  # the worker may forget it
            done[where[f.key]] = r
            on_result(r)
        while next_i in done:
            yield done.pop(next_i)
            next_i += 1
        if finished:
            no_worker_since = None
            continue
        if client.status not in ("running", "connecting"):
            raise ClusterError(3, f"--cluster: lost the connection to the scheduler (client {client.status})")
        try:
            workers = client.nthreads()
        except Exception as e:  # OSError, TimeoutError, CommClosedError...: Dask raises several
            raise ClusterError(3, f"--cluster: the scheduler does not answer: {type(e).__name__}: {e}") from None
        if workers:
            no_worker_since = None
        elif no_worker_since is None:
            no_worker_since = time.monotonic()
        elif time.monotonic() - no_worker_since > timeout:
            raise ClusterError(3, f"--cluster: no worker left on the cluster for {timeout:g} s")


def _failure(f: Any, timeout: float) -> str:
    """What went wrong with a future, in one line."""
    try:
        e = f.exception(timeout=timeout)
    except Exception as err:  # a cancelled future raises on asking
        return f"{f.status}: {type(err).__name__}: {err}"
    return f"{type(e).__name__}: {e}" if e is not None else str(f.status)


__all__ = ["DEFAULT_TIMEOUT", "INSTALL", "ClusterError", "connect", "in_order", "parse_address"]
