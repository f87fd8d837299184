"""How a ``pitch`` process ends, whatever the command: one mechanism at the top.

- SIGINT and SIGTERM end the command quietly with 130 and 143 (128 + the
  signal's number, as a shell reports a process it killed): the handlers raise
  ``Stopped``, a ``BaseException`` that no ``except Exception`` swallows, so
  every ``finally`` runs (temporary files removed, worker processes stopped).
- Standard output that can't be written — ``/dev/full``, a closed descriptor, a
  read error of the terminal — is exit 3 with one line on standard error.
- A broken pipe (``pitch summarize ... | head``) ends quietly with 141, the
  status of a process killed by SIGPIPE, as a C tool's would be.

Worker processes (``summarize --jobs``) call ``worker_signals`` first: they
ignore SIGINT (the terminal sends it to the whole group; the parent decides)
and die quietly of SIGTERM, which the parent sends them when it stops.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, NoReturn

BROKEN_PIPE = 128 + signal.SIGPIPE
UNWRITABLE = 3


class Stopped(BaseException):
    """A signal asked the process to stop; ``status`` is its exit status."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.status = 128 + signum


# The first signal received. The handler raises where the main thread happens
# to be, and Python swallows an exception raised inside some callbacks (one
# that runs at fork, a __del__): so the signal is also noted here, and code
# that waits (summarize's workers) polls ``stop_requested``.
_requested: list[int] = []


def _stop(signum: int, frame: FrameType | None) -> None:
    if not _requested:
        _requested.append(signum)
    raise Stopped(signum)


def stop_requested() -> Stopped | None:
    """The ``Stopped`` to raise when a signal has asked the process to stop."""
    return Stopped(_requested[0]) if _requested else None


@contextmanager
def stopping_on_signals() -> Iterator[None]:
    """While the block runs, SIGINT and SIGTERM raise ``Stopped``; the handlers
    in place before are put back after (the tests run commands in-process)."""
    signums = (signal.SIGINT, signal.SIGTERM)
    _requested.clear()
    try:
        previous = {s: signal.signal(s, _stop) for s in signums}
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


_STOPPERS = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM held back while the block forks worker processes:
    raised inside the interpreter's at-fork callbacks, ``Stopped`` would be
    swallowed with an "Exception ignored" message. A signal that came meanwhile
    is delivered when the block ends (and the children start with the signals
    held: ``worker_signals`` lets them through)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPERS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def worker_signals() -> None:
    """For a worker process: SIGINT ignored, SIGTERM's default (a quiet death)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPPERS)


class _Closed(io.RawIOBase):
    """Standard output when the descriptor was closed (``>&-``): writes fail as
    writing to a closed descriptor does, until the failure has been reported
    (``silenced``: then the interpreter's last flush drops what is left)."""

    silenced = False

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        if self.silenced:
            return len(b)
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))


def _closed_streams() -> None:
    # Python sets sys.stdout to None when descriptor 1 is closed. Hold 1 and 2
    # with /dev/null so that no file the command opens gets them (a worker
    # process would inherit it as its standard output), and make writes fail.
    for fd, name in ((1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is None:
            try:
                os.fstat(fd)
            except OSError:
                opened = os.open(os.devnull, os.O_WRONLY)
                if opened != fd:
                    os.dup2(opened, fd)
                    os.close(opened)
            stream = io.TextIOWrapper(io.BufferedWriter(_Closed()), encoding="utf-8")
            setattr(sys, name, stream if name == "stdout" else io.StringIO())


def _lossless_streams() -> None:
    # A file name that isn't UTF-8 reaches Python as lone surrogates
    # (os.fsdecode), and the commands print file names. Python writes them
    # back as the bytes they were under the C locale (surrogateescape) but
    # raises UnicodeEncodeError under a UTF-8 locale such as en_US.UTF-8:
    # make every locale behave as the C one, so a name is shown as `ls`
    # shows it (standard error already escapes with backslashes).
    for name, errors in (("stdout", "surrogateescape"), ("stderr", "backslashreplace")):
        stream = getattr(sys, name)
        if getattr(stream, "errors", None) == "strict":
            # (not a text stream we can change: it keeps its own rule)
            with contextlib.suppress(AttributeError, ValueError, io.UnsupportedOperation):
                stream.reconfigure(errors=errors)


def _say(line: str) -> None:
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass  # standard error can't be written either: the status says it


def _silence_stdout() -> None:
    """After a broken pipe: point descriptor 1 at /dev/null, so that the
    interpreter's last flush of what is still buffered fails silently."""
    raw = getattr(getattr(sys.stdout, "buffer", None), "raw", None)
    if isinstance(raw, _Closed):
        raw.silenced = True
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def run_guarded(call: Callable[[], Any]) -> NoReturn:
    """Run a command (``call`` returns or raises ``SystemExit``) and exit with
    its status, or with the status the module doc gives for a signal or an
    output that can't be written."""
    _closed_streams()
    _lossless_streams()
    status: Any
    try:
        with stopping_on_signals():
            try:
                status = call()
            except SystemExit as e:
                status = e.code
            sys.stdout.flush()  # a full disk shows here, while we can still say so
    except Stopped as e:
        status = e.status
        _silence_stdout()
    except BrokenPipeError:
        status = BROKEN_PIPE
        _silence_stdout()
    except OSError as e:
        if e.errno == errno.EPIPE:
            status = BROKEN_PIPE
        else:
            _say(f"pitch: {e.filename or 'standard output'}: {e.strerror or e}")
            status = UNWRITABLE
        _silence_stdout()
    if _requested and status != 128 + _requested[0]:  # the signal's exception was swallowed
        status = 128 + _requested[0]
        _silence_stdout()
    sys.exit(status)
