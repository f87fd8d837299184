"""A page in headless Chromium, as a person's browser would show it.

Chromium (Debian's ``chromium``) is driven through the DevTools protocol over
``--remote-debugging-pipe`` (file descriptors 3 and 4, messages ended by NUL):
no WebSocket client, no browser download, nothing but the standard library.
The window is emulated at a given width (a phone's: 375 CSS px; a desktop
window can't be made narrower than about 500 px), the page is loaded, what it
shows is measured in the page (``MEASURE``), the console and the log are
collected, and a screenshot is taken.

Every wait is bounded (``TIMEOUT``); the browser runs with a fresh profile in
a temporary folder and without any of its background network services.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TIMEOUT = float(os.environ.get("PITCH_BROWSER_TIMEOUT", "30"))  # seconds for any one step (more on a loaded machine)

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
         "--disable-default-apps", "--mute-audio", "--hide-scrollbars", "--remote-debugging-pipe"]

# What a person would check, measured in the page after it loaded.
MEASURE = """JSON.stringify({
  scrollWidth: document.documentElement.scrollWidth,
  innerWidth: window.innerWidth,
  title: document.title,
  tables: document.querySelectorAll('table').length,
  standings: Array.from(document.querySelectorAll('table.standings')).map(t => t.rows.length),
  charts: Array.from(document.querySelectorAll('svg.race-chart')).map(s => {
    const r = s.getBoundingClientRect();
    return {width: r.width, height: r.height,
            lines: Array.from(s.querySelectorAll('polyline.race')).map(p => {
              const b = p.getBBox(); return {width: b.width, height: b.height,
                                             stroke: getComputedStyle(p).stroke}; })};
  }),
  scripts: document.scripts.length,
  // every box that scrolls sideways: what it holds against what it shows
  scrollBoxes: Array.from(document.querySelectorAll('.scroll')).map(e => ({
      label: e.getAttribute('aria-label'), scrollWidth: e.scrollWidth, clientWidth: e.clientWidth})),
  // the smallest text of the SVG charts, in CSS pixels as drawn (font size times the chart's scale)
  smallestChartText: Math.min(...Array.from(document.querySelectorAll('svg text')).map(t =>
      parseFloat(getComputedStyle(t).fontSize) * t.closest('svg').getScreenCTM().a)),
  // columns whose head is aligned otherwise than their first cell
  misaligned: Array.from(document.querySelectorAll('table')).flatMap(t => {
      const head = t.tHead ? Array.from(t.tHead.rows[0].cells) : [];
      const row = t.tBodies[0] && t.tBodies[0].rows[0] ? Array.from(t.tBodies[0].rows[0].cells) : [];
      return head.map((h, i) => [h, row[i]]).filter(([h, c]) => c &&
          getComputedStyle(h).textAlign !== getComputedStyle(c).textAlign).map(([h]) => h.textContent);
  }),
  background: getComputedStyle(document.body).backgroundColor,
  headerInk: getComputedStyle(document.querySelector('header.site a') || document.body).color,
  headerBackground: getComputedStyle(document.querySelector('header.site') || document.body).backgroundColor,
  smallestText: Math.min(...Array.from(document.querySelectorAll('body *'))
      .filter(e => e.childNodes.length && Array.from(e.childNodes).some(n => n.nodeType === 3 && n.textContent.trim())
                   && !e.closest('svg'))
      .map(e => parseFloat(getComputedStyle(e).fontSize))),
  // (last: it clicks) the standings' sort buttons: the last column of the first table, sorted down then up
  sorting: (() => {
    const t = document.querySelector('table.standings');
    const th = t && t.tHead.rows[0].cells[t.tHead.rows[0].cells.length - 1];
    const b = th && th.querySelector('button.sort');
    if (!b) return null;
    const col = () => Array.from(t.tBodies[0].rows).map(r => parseFloat(r.cells[r.cells.length - 1].textContent));
    const rows = Array.from(t.tBodies[0].rows), before = col(); b.click();
    const down = col(), downSort = th.getAttribute('aria-sort'); b.click();
    const out = {before, down, downSort, up: col(), upSort: th.getAttribute('aria-sort')};
    rows.forEach(r => t.tBodies[0].appendChild(r)); th.removeAttribute('aria-sort');  // as it was, for the screenshot
    return out;
  })(),
})"""


def chromium() -> str | None:
    """The Chromium executable, or ``None``."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass
class Rendered:
    """What the browser showed."""

    measure: dict[str, Any]
    console: list[str] = field(default_factory=list)  # errors and warnings from the page and the browser's log
    screenshot: bytes = b""
    violations: list[dict[str, Any]] | None = None  # axe-core's, when it was run


class _Pipe:
    def __init__(self, proc: subprocess.Popen[bytes], write_fd: int, read_fd: int) -> None:
        self.proc, self.w, self.r = proc, write_fd, read_fd
        self.buf = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> dict[str, Any]:
        self.next_id += 1
        msg: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        want = self.next_id
        deadline = time.monotonic() + TIMEOUT
        while True:
            m = self._read(deadline)
            if m.get("id") == want:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method: str, deadline: float) -> dict[str, Any]:
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        while True:
            m = self._read(deadline)
            if m.get("method") == method:
                return m
            self.events.append(m)

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("chromium did not answer in time")
            ready, _, _ = select.select([self.r], [], [], left)
            if ready:
                chunk = os.read(self.r, 1 << 20)
                if not chunk:
                    raise RuntimeError(f"chromium closed the pipe (exit {self.proc.poll()})")
                self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        return json.loads(raw)


def axe_source() -> str | None:
    """axe-core's ``axe.min.js`` from ``tests/browser/node_modules`` (``npm ci``
    there), or ``None``."""
    path = Path(__file__).resolve().parents[1] / "browser" / "node_modules" / "axe-core" / "axe.min.js"
    return path.read_text(encoding="utf-8") if path.is_file() else None


# axe-core's run over the whole page, every rule of WCAG 2.0-2.2 A and AA and the best practices.
AXE_RUN = """axe.run(document, {resultTypes: ['violations'],
    runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}})
  .then(r => JSON.stringify(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary)}))))"""


def render(pages: list[Path], width: int = 375, height: int = 812, mobile: bool = True, *,
           scheme: str | None = None, media: str | None = None, axe: str | None = None) -> list[Rendered]:
    """Load each page at ``width`` CSS pixels (one browser, a fresh tab per
    page); measure it, collect its console, take a screenshot. ``scheme``: 'light' or 'dark' for
    prefers-color-scheme; ``media``: 'print' to lay it out as on paper;
    ``axe``: axe-core's source, injected and run (``Rendered.violations``)."""
    exe = chromium()
    assert exe, "chromium is not installed"
    to_browser_r, to_browser_w = os.pipe()
    from_browser_r, from_browser_w = os.pipe()

    def child_fds() -> None:
        # The protocol's fixed descriptors: 3 in, 4 out. Copied out of the way
        # first, in case the pipes themselves are 3 or 4.
        inp, out = os.dup(to_browser_r), os.dup(from_browser_w)
        os.dup2(inp, 3)
        os.dup2(out, 4)

    with tempfile.TemporaryDirectory(prefix="pitch-chromium-") as profile:
        proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                preexec_fn=child_fds, close_fds=False)  # (3 and 4 must survive the exec)
        os.close(to_browser_r)
        os.close(from_browser_w)
        pipe = _Pipe(proc, to_browser_w, from_browser_r)
        try:
            out = [_one(pipe, page, width, height, mobile, scheme, media, axe) for page in pages]
            with contextlib.suppress(RuntimeError, TimeoutError):
                pipe.send("Browser.close")
            return out
        finally:
            os.close(to_browser_w)
            os.close(from_browser_r)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


def _one(pipe: _Pipe, page: Path, width: int, height: int, mobile: bool, scheme: str | None, media: str | None,
         axe: str | None) -> Rendered:
    target = pipe.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    s = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    pipe.events.clear()
    for domain in ("Page", "Runtime", "Log"):
        pipe.send(f"{domain}.enable", session=s)
    pipe.send("Emulation.setDeviceMetricsOverride",
              {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}, session=s)
    if scheme or media:
        pipe.send("Emulation.setEmulatedMedia",
                  {"media": media or "", "features": [{"name": "prefers-color-scheme", "value": scheme or "light"}]},
                  session=s)
    pipe.send("Page.navigate", {"url": page.resolve().as_uri()}, session=s)
    pipe.wait_event("Page.loadEventFired", time.monotonic() + TIMEOUT)
    value = pipe.send("Runtime.evaluate", {"expression": MEASURE, "returnByValue": True},
                      session=s)["result"]["value"]
    violations = None
    if axe is not None:
        pipe.send("Runtime.evaluate", {"expression": axe}, session=s)
        violations = json.loads(pipe.send("Runtime.evaluate", {"expression": AXE_RUN, "awaitPromise": True,
                                                               "returnByValue": True}, session=s)["result"]["value"])
    shot = pipe.send("Page.captureScreenshot", {"format": "png"}, session=s)["data"]
    console = []
    for e in pipe.events:
        if e.get("sessionId") != s:
            continue
        p = e.get("params", {})
        if e.get("method") == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
            console.append(" ".join(str(a.get("value", a.get("description", ""))) for a in p["args"]))
        elif e.get("method") == "Runtime.exceptionThrown":
            console.append(p["exceptionDetails"].get("text", "exception"))
        elif e.get("method") == "Log.entryAdded" and p["entry"]["level"] in ("error", "warning"):
            console.append(p["entry"]["text"])
    pipe.send("Target.closeTarget", {"targetId": target})
    return Rendered(json.loads(value), console, base64.b64decode(shot), violations)
