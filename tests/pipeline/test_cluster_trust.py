"""``--cluster`` against peers that are not, or no longer, a Dask scheduler,
and over TLS (issue 27, items 4, 6 and 18).

Before: a port answering with HTTP or a frame header claiming 2⁶² bytes gave
a numpy allocation traceback; a peer that accepts and never answers (or
claims 3 GiB and trickles) kept ``pitch`` waiting past 300 s with
``--cluster-timeout 2``; the scheduler killed mid-run gave
``FuturesCancelledError``; ``tls://`` could not be used. Each run here is its
own process with a generous timeout: a hang fails the test, it never hangs it.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import socket
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.write import canonical, to_jsonl
from tests.support.dask_cluster import Cluster, make_certificates, wait_for_progress

pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
TOURNAMENT = "samples/tournament"
HANG = 120  # seconds: far past any --cluster-timeout here; reaching it is the failure


def pitch(*args: str, timeout: float = HANG) -> subprocess.CompletedProcess[str]:
    """``python -m pitchcli ARGS``, ended (the test fails) if still running after ``timeout``."""
    try:
        return subprocess.run([sys.executable, "-m", "pitchcli", *args], cwd=ROOT, capture_output=True,
                              text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"pitch {' '.join(args)} still waiting after {timeout} s")


def one_clean_line(r: subprocess.CompletedProcess[str]) -> str:
    """Exit 3 and one line on stderr saying why: never a traceback."""
    assert r.returncode == 3, (r.returncode, r.stderr[-2000:])
    assert "Traceback" not in r.stderr and "Error:" not in r.stderr.split("pitch summarize:")[0], r.stderr
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("pitch summarize: --cluster"), r.stderr
    return lines[0]


# --- peers that are not a Dask scheduler -----------------------------------------------------

Behaviour = Callable[[socket.socket, threading.Event], None]


def _trickle(header: int) -> Behaviour:
    def serve(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(struct.pack("Q", header))
        while not stop.wait(0.2):
            conn.sendall(b"x")
    return serve


def _say(data: bytes) -> Behaviour:
    def serve(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(data)
        stop.wait(HANG)
    return serve


def _http_when_asked(conn: socket.socket, stop: threading.Event) -> None:
    conn.settimeout(HANG)
    if conn.recv(65536):  # an HTTP server answers a request
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
    stop.wait(HANG)


PEERS: dict[str, Behaviour] = {
    "http-greets": _say(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
    "http-when-asked": _http_when_asked,
    "ssh-banner": _say(b"SSH-2.0-OpenSSH_9.6\r\n"),
    "frame-of-2**62": _say(struct.pack("Q", 2**62)),
    "frame-of-3GiB-trickled": _trickle(3 << 30),
    "frame-of-500B-trickled": _trickle(500),
    "silent": lambda conn, stop: stop.wait(HANG) and None,
    "closes": lambda conn, stop: None,
    "no-frames": _say(struct.pack("QQ", 8, 0)),
}


@pytest.fixture()
def peer(request: pytest.FixtureRequest) -> Iterator[str]:
    """A listening socket on 127.0.0.1 whose connections get ``PEERS[name]``;
    its address. Every thread ends with the test."""
    behave = PEERS[request.param]
    stop = threading.Event()
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)

    def handle(conn: socket.socket) -> None:
        with conn, contextlib.suppress(OSError):  # (OSError: the client went away)
            behave(conn, stop)

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=handle, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(timeout=10)
        listener.close()


@pytest.mark.parametrize("peer", sorted(PEERS), indirect=True)
def test_a_peer_that_is_not_a_scheduler_is_exit_3_in_one_line(peer: str) -> None:
    line = one_clean_line(pitch("summarize", "--cluster", peer, "--cluster-timeout", "2", TOURNAMENT))
    assert peer in line


# --- a real scheduler, stopped or killed mid-run ---------------------------------------------


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Enough games that a run on one worker lasts a while: 40 files of 100."""
    rng = random.Random(27)
    games = [to_jsonl(canonical(simulate_game("auction", 4, rng=rng, game_id=f"g{i}"))) for i in range(100)]
    root = tmp_path_factory.mktemp("trust") / "corpus"
    root.mkdir()
    for k in range(40):
        (root / f"part-{k:02d}.jsonl").write_text("".join(games))
    return root


def _mid_run(where: Path, corpus: Path, act: Callable[[Cluster], None]) -> subprocess.CompletedProcess[str]:
    """Start a summary on a scheduler with one worker, do ``act`` to the
    cluster once progress shows, and return how the run ended."""
    cluster = Cluster(where, workers=1)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "pitchcli", "summarize", "--progress", "--cluster",
                                 cluster.address, "--cluster-timeout", "3", str(corpus)], cwd=ROOT,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            err = wait_for_progress(proc, 90)
            if proc.poll() is not None:
                pytest.skip("the run ended before the scheduler could be stopped (a fast machine)")
            act(cluster)
            try:
                code = proc.wait(timeout=HANG)
            except subprocess.TimeoutExpired:
                pytest.fail(f"still waiting {HANG} s after the scheduler was stopped")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=30)
    finally:
        for p in cluster.procs:  # a stopped process can't act on SIGTERM: let it go on first
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGCONT)
        cluster.stop()
    # the progress counter ("summarize: 1,234 documents (567/s)") is redrawn in place
    text = re.sub(r"(?<!pitch )summarize: [\d,]+ documents[^\r\n]*?\)[\r\n]?", "", err.decode(errors="replace"))
    return subprocess.CompletedProcess(proc.args, code, "", text)


def test_the_scheduler_killed_mid_run_is_exit_3_in_one_line(tmp_path: Path, corpus: Path) -> None:
    r = _mid_run(tmp_path, corpus, lambda c: c.kill(c.scheduler))
    assert "lost" in one_clean_line(r)


def test_the_scheduler_stopped_mid_run_is_exit_3_not_a_hang(tmp_path: Path, corpus: Path) -> None:
    """SIGSTOP: the connection stays open and nothing answers any more."""
    r = _mid_run(tmp_path, corpus, lambda c: os.killpg(c.scheduler.pid, signal.SIGSTOP))
    assert "does not answer" in one_clean_line(r) or "lost" in one_clean_line(r)


# --- TLS ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    made = make_certificates(tmp_path_factory.mktemp("certs"))
    if made is None:
        pytest.skip("openssl is not installed: no certificates to test TLS with")
    return made


@pytest.fixture(scope="module")
def tls_cluster(tmp_path_factory: pytest.TempPathFactory, certificates: tuple[Path, Path, Path]) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("tls"), workers=1, tls=certificates)
    try:
        yield c
    finally:
        c.stop()


def _tls_options(certificates: tuple[Path, Path, Path]) -> list[str]:
    ca, cert, key = map(str, certificates)
    return ["--cluster-tls-ca", ca, "--cluster-tls-cert", cert, "--cluster-tls-key", key]


def test_tls_scheduler_gives_the_output_of_jobs_1(tls_cluster: Cluster, certificates: tuple[Path, Path, Path]) -> None:
    assert tls_cluster.address.startswith("tls://")
    r = pitch("summarize", "--cluster", tls_cluster.address, *_tls_options(certificates), TOURNAMENT)
    assert r.returncode == 0, r.stderr
    assert r.stdout == pitch("summarize", TOURNAMENT).stdout


def test_tls_local_cluster_gives_the_output_of_jobs_1(certificates: tuple[Path, Path, Path]) -> None:
    r = pitch("summarize", "--cluster", "local:1", *_tls_options(certificates), TOURNAMENT)
    assert r.returncode == 0, r.stderr
    assert r.stdout == pitch("summarize", TOURNAMENT).stdout


def test_tls_without_or_with_wrong_certificates(tls_cluster: Cluster, certificates: tuple[Path, Path, Path],
                                                tmp_path: Path) -> None:
    """No certificates: a usage error. A CA that didn't sign the scheduler's,
    or a file that is missing: exit 3, one line. The certificates over tcp://:
    a usage error (they would protect nothing)."""
    address = tls_cluster.address
    assert pitch("summarize", "--cluster", address, TOURNAMENT).returncode == 2
    other = make_certificates(tmp_path / "other", name="other")
    assert other is not None
    ca, cert, key = map(str, certificates)
    wrong_ca = ["--cluster-tls-ca", str(other[0]), "--cluster-tls-cert", cert, "--cluster-tls-key", key]
    assert "TLS" in one_clean_line(pitch("summarize", "--cluster", address, "--cluster-timeout", "5", *wrong_ca,
                                         TOURNAMENT))
    missing = ["--cluster-tls-ca", str(tmp_path / "nope.pem"), "--cluster-tls-cert", cert, "--cluster-tls-key", key]
    one_clean_line(pitch("summarize", "--cluster", address, *missing, TOURNAMENT))
    tcp = address.replace("tls://", "tcp://")
    assert pitch("summarize", "--cluster", tcp, *_tls_options(certificates), TOURNAMENT).returncode == 2
    assert pitch("summarize", "--cluster-tls-ca", ca, "--cluster-tls-cert", cert, TOURNAMENT).returncode == 2


def test_a_client_without_a_certificate_cannot_use_the_tls_scheduler(tls_cluster: Cluster) -> None:
    """Who can run code on the workers: only a client with a certificate the
    CA signed. Dask's own client, plain tcp, gets nowhere."""
    from distributed import Client

    with pytest.raises((OSError, TimeoutError)):
        Client(tls_cluster.address.replace("tls://", "tcp://"), timeout=3)


# --- the README's cluster example listens on loopback only ---------------------------------------


def test_the_readme_scheduler_listens_on_loopback_only(tmp_path: Path) -> None:
    """The README's plain ``dask scheduler`` line, run (on a free port):
    every socket it listens on, the dashboard's included, is on 127.0.0.1.
    Its TLS lines listen on the network (that is what TLS is for) but keep
    the dashboard, which has no authentication, on loopback; so do the
    workers' lines."""
    psutil = pytest.importorskip("psutil")
    readme = (ROOT / "README.md").read_text(encoding="utf-8").replace("\\\n", " ")
    lines = re.findall(r"^dask (?:scheduler|worker) [^&\n]*", readme, re.M)
    assert any(" tls" in ln for ln in lines) and any(" tls" not in ln for ln in lines), lines
    for line in lines:
        args = line.split()
        assert "--dashboard-address" in args and args[args.index("--dashboard-address") + 1].startswith(
            "127.0.0.1:"), line
        if "tls" in line or args[1] != "scheduler":
            continue
        assert "--host" in args and args[args.index("--host") + 1] == "127.0.0.1", line
        args[args.index("--port") + 1] = "0"  # a free port: the machine is shared
        proc = subprocess.Popen([sys.executable, "-m", "dask", *args[1:]], cwd=tmp_path,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                start_new_session=True)
        try:
            assert proc.stderr is not None
            seen = b""
            while b"Scheduler at:" not in seen:  # (dask prints it once it listens)
                chunk = os.read(proc.stderr.fileno(), 4096)
                assert chunk, seen.decode(errors="replace")
                seen += chunk
            listening = [c.laddr for c in psutil.Process(proc.pid).net_connections("inet")
                         if c.status == psutil.CONN_LISTEN]
            assert len(listening) >= 2 and all(addr.ip == "127.0.0.1" for addr in listening), (line, listening)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)


def test_a_connection_closed_while_a_result_is_fetched_is_the_scheduler_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    # The race the mid-run test met once: the poll saw a finished task, then the
    # scheduler was killed before its result came (CommClosedError from
    # result()). That is the scheduler lost, exit 3, not "a task failed".
    distributed = pytest.importorskip("distributed")
    from distributed.comm.core import CommClosedError

    from pitchcli.pipeline.cluster import ClusterError, in_order

    class Closed:
        key, status = "t0", "finished"

        def result(self, timeout: float) -> None:
            raise CommClosedError("in <TCP (closed) ConnectionPool.gather>: ConnectionResetError")

    class Client:
        status = "closing"

    monkeypatch.setattr(distributed, "wait", lambda pending, **_: (set(pending), set()))
    with pytest.raises(ClusterError) as e:
        list(in_order(Client(), [Closed()], 1.0, lambda r: None))
    assert e.value.code == 3
    assert "lost the connection to the scheduler" in str(e.value)
