"""A small client of yaml-language-server over stdio (the Language Server
Protocol, JSON-RPC with Content-Length headers), as an editor runs it: open a
document, read the diagnostics the server publishes for it."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SERVER = HERE / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"


def available() -> bool:
    """node and the server (``npm ci`` in tests/editors) are installed."""
    return shutil.which("node") is not None and SERVER.exists()


class Server:
    """One yaml-language-server process with ``settings`` (the ``yaml`` section)."""

    def __init__(self, root: Path, settings: dict[str, Any]) -> None:
        self.settings = settings
        self.proc = subprocess.Popen(["node", str(SERVER), "--stdio"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=root)
        self.next_id = 1
        self.buffer = b""
        self.published: dict[str, list[dict[str, Any]]] = {}
        self.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(),
                                    "capabilities": {"workspace": {"configuration": True}},
                                    "workspaceFolders": [{"uri": root.as_uri(), "name": "root"}]})
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": {"yaml": settings}})

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict[str, Any]) -> None:
        """A notification (no answer)."""
        self._send({"method": method, "params": params})

    def request(self, method: str, params: dict[str, Any], timeout: float = 30) -> Any:
        """A request; its result (the server's own requests meanwhile answered)."""
        mine = self.next_id
        self.next_id += 1
        self._send({"id": mine, "method": method, "params": params})
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = self._read(end - time.monotonic())
            if m is not None and m.get("id") == mine and "method" not in m:
                return m.get("result")
        raise TimeoutError(method)

    def _read(self, timeout: float) -> dict[str, Any] | None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\r\n\r\n" not in self.buffer or len(self.buffer) < self._wanted():
            ready, _, _ = select.select([fd], [], [], max(timeout, 0))
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EOFError("the language server ended")
            self.buffer += chunk
        head, rest = self.buffer.split(b"\r\n\r\n", 1)
        n = int(next(h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")).split(b":")[1])
        body, self.buffer = rest[:n], rest[n:]
        m = json.loads(body)
        self._handle(m)
        return m

    def _wanted(self) -> int:
        head, _, _ = self.buffer.partition(b"\r\n\r\n")
        for h in head.split(b"\r\n"):
            if h.lower().startswith(b"content-length"):
                return len(head) + 4 + int(h.split(b":")[1])
        return len(self.buffer) + 1

    def _handle(self, m: dict[str, Any]) -> None:
        method = m.get("method")
        if method == "textDocument/publishDiagnostics":
            self.published[m["params"]["uri"]] = m["params"]["diagnostics"]
        elif method is not None and "id" in m:  # a request of the server's
            result: Any = None
            if method == "workspace/configuration":
                result = [self.settings if item.get("section") == "yaml" else None
                          for item in m["params"].get("items", [])]
            self._send({"id": m["id"], "result": result})

    def diagnostics(self, path: Path, timeout: float = 30) -> list[dict[str, Any]]:
        """Open ``path`` as an editor would; the diagnostics published for it
        once the server has validated it (it publishes again after loading a schema)."""
        uri = path.as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": path.read_text("utf-8")}})
        end = time.monotonic() + timeout
        quiet_until = None
        while time.monotonic() < end:
            self._read(0.5)
            if uri in self.published:
                if self.published[uri]:
                    # a schema loaded asynchronously may add more: wait for a quiet moment
                    quiet_until = quiet_until or time.monotonic() + 2
                    if time.monotonic() > quiet_until:
                        break
                elif quiet_until is None:
                    quiet_until = time.monotonic() + 5  # empty so far: the schema may still come
                elif time.monotonic() > quiet_until:
                    break
        return self.published.get(uri, [])

    def close(self) -> None:
        """Shut the server down."""
        try:
            self.request("shutdown", {}, timeout=5)
            self.notify("exit", {})
            self.proc.wait(timeout=5)
        except (TimeoutError, EOFError, subprocess.TimeoutExpired, BrokenPipeError):
            self.proc.kill()
            self.proc.wait()
