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

Before Dask is given a ``tcp://`` or ``tls://`` address, ``probe`` reads the
peer's greeting itself, bounded in time and size: Dask's own reader allocates
whatever length a peer's first 8 bytes claim (an HTTP server's ``HTTP/1.1``
is 3 EiB) and waits for ever on a peer that accepts and never answers.

Trust: the cluster is a trust boundary. Dask's client unpickles what the
scheduler sends, so whoever runs the scheduler can run code in ``pitch``;
whoever can reach the scheduler can run code on its workers. ``tcp://`` has
no authentication; ``tls://`` with certificates (``Tls``, Dask's
``Security``) authenticates both ends and encrypts.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

# (logging, socket, ssl, struct and warnings are imported where they are used,
# when --cluster is given: ``views.summarize`` imports this module for its
# names, and a run without a cluster never needs them; issue 22, start-up.)
if TYPE_CHECKING:
    import logging

INSTALL = "pip install 'pitchcli[dask]'"
DEFAULT_TIMEOUT = 30.0
# How often the parent looks at the cluster while it waits for results: a
# worker gone, a scheduler gone, are noticed within this (plus an RPC).
_POLL = 0.5
# The largest greeting ``probe`` accepts from a scheduler. Dask's handshake is
# a few hundred bytes of msgpack; a megabyte is far past any real one.
GREETING_BYTES = 1 << 20


class ClusterError(Exception):
    """The cluster can't be used: ``code`` is the exit status (2: usage, Dask
    not installed; 3: the scheduler can't be reached, a worker or the
    scheduler was lost)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Tls:
    """The certificates for a ``tls://`` scheduler (PEM files): the CA that
    signed the cluster's certificates, this client's certificate, and its
    key (None: in the certificate's file)."""

    ca: str
    cert: str
    key: str | None = None

    def security(self, local: bool = False) -> Any:
        """Dask's ``Security``, encryption required (``local``: the same
        certificate for the scheduler and workers started here too); its
        client TLS context is made here (reading the files), so a missing or
        bad file is a ``ClusterError`` now, not a traceback from inside Dask
        later."""
        import ssl

        from distributed.security import Security

        roles = ("client", "scheduler", "worker") if local else ("client",)
        files = {f"tls_{role}_{part}": path for role in roles
                 for part, path in (("cert", self.cert), ("key", self.key))}
        sec = Security(tls_ca_file=self.ca, require_encryption=True, **files)
        try:
            sec.get_connection_args("client")
        except (OSError, ssl.SSLError, ValueError) as e:
            raise ClusterError(3, f"--cluster-tls: cannot use the certificates: {e}") from None
        return sec


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


def _drop(record: logging.LogRecord) -> bool:
    return False


def _quiet_dask() -> None:
    """Dask's loggers silenced in this process: they print a traceback for
    each failed reconnection, and what went wrong reaches the user as one
    ``ClusterError`` instead. For good, not for a block: Dask's event-loop
    thread goes on logging after the client is left (while it closes, at
    exit). Each ``distributed`` logger has a handler of its own, so each
    logger and handler gets the filter."""
    import logging

    names = [n for n in logging.root.manager.loggerDict if n == "distributed" or n.startswith("distributed.")]
    for name in names:
        logger = logging.getLogger(name)
        for f in (logger, *logger.handlers):
            if _drop not in f.filters:
                f.addFilter(_drop)


def _scheme(address: str) -> str:
    """The address's protocol (Dask's default, tcp, when none is written)."""
    return address.partition("://")[0].lower() if "://" in address else "tcp"


def _context(tls: Tls | None, address: str, local: bool = False) -> Any:
    """Dask's ``Security`` for the address and certificates given: tls://
    needs the certificates, and the certificates need tls:// (over tcp:// they
    would protect nothing)."""
    scheme = "local" if local else _scheme(address)
    if tls is None:
        if scheme == "tls":
            raise ClusterError(2, f"--cluster {address}: a tls:// scheduler needs --cluster-tls-ca and "
                                  f"--cluster-tls-cert (and --cluster-tls-key when the key is a file of its own)")
        return None
    if scheme not in ("tls", "local"):
        raise ClusterError(2, f"--cluster {address}: --cluster-tls-* are for a tls:// address "
                              f"(or local[:N]); {scheme}:// is not encrypted")
    return tls.security(local=local)


def probe(address: str, timeout: float, security: Any = None) -> None:
    """Read the greeting of the scheduler at a ``tcp://`` or ``tls://``
    ``address`` within ``timeout`` seconds, or raise ``ClusterError`` (3).

    A Dask scheduler writes its handshake as soon as it accepts a connection:
    8 bytes of length, then frames (8 bytes of count, 8 per frame length,
    the frames). A peer that sends nothing in time, closes, claims more than
    ``GREETING_BYTES`` or sends something else is not used: Dask would wait
    for it for ever or allocate what it claims. Other protocols are left to
    Dask."""
    import socket
    import ssl
    import struct

    from distributed.comm.addressing import parse_address as dask_address
    from distributed.comm.addressing import parse_host_port

    scheme, location = dask_address(address)
    if scheme not in ("tcp", "tls"):
        return
    try:
        host, port = parse_host_port(location)
    except ValueError as e:
        raise ClusterError(2, f"--cluster {address}: {e}") from None
    deadline = time.monotonic() + timeout

    def left() -> float:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        return remaining

    got = b""
    try:
        with socket.create_connection((host, port), timeout=timeout) as raw:
            sock: socket.socket = raw
            if scheme == "tls":
                context = security.get_connection_args("client")["ssl_context"]
                raw.settimeout(left())
                sock = context.wrap_socket(raw, server_hostname=host if context.check_hostname else None)
            claimed: int | None = None  # the greeting's length, once its first 8 bytes are in
            while claimed is None or len(got) < 8 + claimed:
                sock.settimeout(left())
                need = 8 if claimed is None else 8 + claimed
                chunk = sock.recv(min(65536, need - len(got)))
                if not chunk:
                    raise ClusterError(3, f"--cluster {address}: the peer closed the connection "
                                          f"{_after(got)}: not a Dask scheduler")
                got += chunk
                if claimed is None and len(got) == 8:
                    (claimed,) = struct.unpack("Q", got)  # native, as Dask packs it
                    if not 16 <= claimed <= GREETING_BYTES:
                        raise ClusterError(3, f"--cluster {address}: the peer does not speak Dask's protocol "
                                              f"(its first message claims {claimed:,} bytes; it began "
                                              f"{_shown(got)})")
    except TimeoutError:
        what = "sent nothing" if not got else f"sent only {len(got):,} bytes of its greeting"
        raise ClusterError(3, f"--cluster {address}: the peer accepted the connection but {what} in "
                              f"{timeout:g} s: not a Dask scheduler, or one that does not answer") from None
    except ssl.SSLError as e:
        raise ClusterError(3, f"--cluster {address}: the TLS handshake failed: {e.reason or e}") from None
    except OSError as e:
        raise ClusterError(3, f"--cluster {address}: cannot reach the Dask scheduler: "
                              f"{e.strerror or e}") from None
    (frames,) = struct.unpack_from("Q", got, 8)
    if not (frames >= 1 and 8 * (2 + frames) <= len(got)):
        raise ClusterError(3, f"--cluster {address}: the peer does not speak Dask's protocol "
                              f"(its greeting is not Dask's; it began {_shown(got)})")


def _after(got: bytes) -> str:
    return "without a word" if not got else f"after {len(got):,} bytes"


def _shown(got: bytes) -> str:
    """The start of what a peer sent, as a short, printable Python bytes literal."""
    return repr(got[:24]) + ("…" if len(got) > 24 else "")


@contextmanager
def connect(address: str, timeout: float = DEFAULT_TIMEOUT, tls: Tls | None = None) -> Iterator[Any]:
    """A ``distributed.Client`` for ``address``, with at least one worker;
    a local cluster is started (over TLS with ``tls``), and stopped on
    leaving. A remote scheduler is probed first (``probe``)."""
    import logging
    import warnings

    kind, n = parse_address(address)
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError as e:
        raise ClusterError(2, f"--cluster needs Dask, an optional extra: {INSTALL} ({e})") from None
    security = _context(tls, address, local=kind == "local")
    # Every connection attempt (the first, and the RPCs while waiting) gives
    # up after the timeout instead of Dask's own 30 s default.
    _quiet_dask()
    with dask.config.set({"distributed.comm.timeouts.connect": f"{timeout}s"}):
        if kind == "local":
            tls_args = {"protocol": "tls://", "security": security} if security is not None else {}
            try:
                # On 127.0.0.1 (Dask's default here), with no dashboard; Dask
                # warns on stderr when its HTTP port is taken, and takes another.
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    cluster = LocalCluster(n_workers=n or os.cpu_count() or 1, threads_per_worker=1,
                                           processes=True, dashboard_address=None, silence_logs=logging.ERROR,
                                           **tls_args)
            except Exception as e:  # Dask raises many kinds here; none may reach the user as a traceback
                raise ClusterError(3, f"--cluster {address}: could not start a local cluster: {e}") from None
            with cluster, Client(cluster, timeout=timeout, security=security) as client:
                yield client
            return
        probe(address, timeout, security)
        try:
            client = Client(address, timeout=timeout, security=security)
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
        except Exception as e:  # FuturesCancelledError (the scheduler lost: its tasks cancelled), a comm error
            raise ClusterError(3, f"--cluster: lost the cluster's tasks ({type(e).__name__}: the scheduler "
                                  f"was stopped or lost, client {client.status})") from None
        fetched = False
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
                if isinstance(e, OSError):  # (Dask's CommClosedError is one)
                    # The connection went while the result was fetched: the
                    # scheduler was lost, not the task (a race with the poll).
                    raise ClusterError(3, f"--cluster: lost the connection to the scheduler while fetching a "
                                          f"result ({type(e).__name__}, client {client.status})") from None
                raise ClusterError(3, f"--cluster: a task failed on the cluster: {type(e).__name__}: {e}") from None
            f.release()  # the worker may forget it
            done[where[f.key]] = r
            on_result(r)
            fetched = True
        while next_i in done:
            yield done.pop(next_i)
            next_i += 1
        if fetched:
            no_worker_since = None
            continue
        # Nothing came: look at the cluster. (A result whose fetch timed out is
        # no progress: with the scheduler stopped, the same future comes back
        # finished at every step and its fetch times out again for ever.)
        if client.status not in ("running", "connecting"):
            raise ClusterError(3, f"--cluster: lost the connection to the scheduler (client {client.status})")
        if threads(client, timeout):
            no_worker_since = None
        elif no_worker_since is None:
            no_worker_since = time.monotonic()
        elif time.monotonic() - no_worker_since > timeout:
            raise ClusterError(3, f"--cluster: no worker left on the cluster for {timeout:g} s")


def threads(client: Any, timeout: float) -> int:
    """The worker threads the scheduler counts, asked with a bound: a
    scheduler that stopped answering (SIGSTOP, a hung host) is a
    ``ClusterError`` after ``timeout`` seconds, not a wait for ever."""
    try:
        return sum(client.nthreads(callback_timeout=timeout).values())
    except Exception as e:  # OSError, TimeoutError, CommClosedError...: Dask raises several
        raise ClusterError(3, f"--cluster: the scheduler does not answer: {type(e).__name__}: {e}") from None


def _failure(f: Any, timeout: float) -> str:
    """What went wrong with a future, in one line."""
    try:
        e = f.exception(timeout=timeout)
    except Exception as err:  # a cancelled future raises on asking
        return f"{f.status}: {type(err).__name__}: {err}"
    return f"{type(e).__name__}: {e}" if e is not None else str(f.status)


__all__ = ["DEFAULT_TIMEOUT", "INSTALL", "ClusterError", "Tls", "connect", "in_order", "parse_address", "probe",
           "threads"]
