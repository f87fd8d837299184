"""A Dask scheduler and workers as separate processes, for the cluster tests.

Every process is started in its own process group and stopped by ``stop``
(SIGTERM, then SIGKILL); the workers' ``--death-timeout`` ends them too should
the scheduler go first. ``tls`` (a CA, a certificate and its key, PEM) runs
the whole cluster over ``tls://``; ``make_certificates`` makes such files
with the ``openssl`` command.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any


def make_certificates(where: Path, name: str = "cluster") -> tuple[Path, Path, Path] | None:
    """A CA, and a certificate for 127.0.0.1 signed by it with its key, in
    ``where`` (``openssl``; None when it is missing)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        return None
    where.mkdir(parents=True, exist_ok=True)
    ca_key, ca, key, csr, cert = (where / f"{name}-{part}" for part in
                                  ("ca.key", "ca.pem", "key.pem", "req.csr", "cert.pem"))

    def run(*args: str) -> None:
        subprocess.run([openssl, *args], check=True, capture_output=True, timeout=120)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(ca_key), "-out", str(ca),
        "-days", "2", "-subj", f"/CN={name} test CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(csr), "-subj", "/CN=127.0.0.1")
    ext = where / f"{name}-ext.cnf"
    ext.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    run("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial",
        "-out", str(cert), "-days", "2", "-extfile", str(ext))
    return ca, cert, key


class Cluster:
    """``dask scheduler`` and ``dask worker`` processes on 127.0.0.1 (free
    ports chosen by the system), each in its own process group; the workers
    run in a folder of their own (they open files by absolute path)."""

    def __init__(self, where: Path, workers: int = 2, tls: tuple[Path, Path, Path] | None = None) -> None:
        self.where = where
        self.tls = tls
        self.procs: list[subprocess.Popen[bytes]] = []
        try:
            self._begin(where, workers)
        except BaseException:
            self.stop()  # what started is stopped: a failed start leaks no process
            raise

    def _begin(self, where: Path, workers: int) -> None:
        file = where / "scheduler.json"
        file.unlink(missing_ok=True)  # (a stale file of an earlier run would name a dead scheduler)
        self.scheduler = self._start("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                     "--scheduler-file", str(file), *self._tls_args(scheduler=True))
        deadline = time.monotonic() + 60
        while not file.exists() or not file.read_text().strip():
            assert time.monotonic() < deadline, "the scheduler did not start"
            assert self.scheduler.poll() is None, "the scheduler died"
            time.sleep(0.1)
        time.sleep(0.1)  # (written whole before it is used)
        self.address = json.loads(file.read_text())["address"]
        self.workers = [self._start("worker", self.address, "--nworkers", "1", "--nthreads", "1",
                                    "--no-dashboard", "--host", "127.0.0.1", "--death-timeout", "30",
                                    "--local-directory", str(where / f"w{i}"), "--name", f"w{i}",
                                    *self._tls_args())
                        for i in range(workers)]
        self.wait_for(workers)

    def _tls_args(self, scheduler: bool = False) -> list[str]:
        if self.tls is None:
            return []
        ca, cert, key = map(str, self.tls)
        return [*(["--protocol", "tls"] if scheduler else []),
                "--tls-ca-file", ca, "--tls-cert", cert, "--tls-key", key]

    def security(self) -> Any:
        """The client's ``Security`` for this cluster (None: tcp)."""
        if self.tls is None:
            return None
        from distributed.security import Security

        ca, cert, key = map(str, self.tls)
        return Security(tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key, require_encryption=True)

    def _start(self, *args: str) -> subprocess.Popen[bytes]:
        p = subprocess.Popen([sys.executable, "-m", "dask", *args], cwd=self.where, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.procs.append(p)
        return p

    def wait_for(self, n: int) -> None:
        from distributed import Client

        with Client(self.address, timeout=30, security=self.security()) as c:
            c.wait_for_workers(n, timeout=60)

    def kill(self, p: subprocess.Popen[bytes]) -> None:
        """SIGKILL the process and its children (a worker and its nanny)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(p.pid, signal.SIGKILL)
        p.wait(timeout=30)

    def stop(self) -> None:
        for p in reversed(self.procs):
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)
                    p.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    self.kill(p)
                except ProcessLookupError:
                    pass


def wait_for_progress(proc: subprocess.Popen[bytes], timeout: float) -> bytearray:
    """Until the progress counter shows (some task done, the rest to come);
    standard error is then drained in the background, into what is returned."""
    seen = threading.Event()
    err = bytearray()

    def read() -> None:
        assert proc.stderr is not None
        while chunk := os.read(proc.stderr.fileno(), 4096):
            err.extend(chunk)
            if b"summarize: " in err[-len(chunk) - 16:]:
                seen.set()

    threading.Thread(target=read, daemon=True).start()
    assert seen.wait(timeout), "no progress shown"
    return err
