"""The loader's limits (docs/hostile-input.md): each hostile file is refused
with its diagnostic, in bounded time and memory.

Each file is checked by ``pitch validate`` in a child process, which reports
its own peak resident memory (VmHWM, so the C parsers'
memory counts too). The child runs under a timeout that is a does-not-hang
guard (``HANG``, generous on purpose), not a speed test; the memory bounds are
a few times what was measured, so a return to unbounded growth (an alias
expanded, a stream kept whole, a file read into memory) fails them.

``PITCH_LIMITS_REPORT=FILE`` appends each measurement as a JSON line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from support.fuzz_strategies import alias_bomb, deep_block, deep_flow, deep_json

from pitchcli.diagnostics import Diagnostic
from pitchcli.record.load import DEFAULT_LIMITS, Limits, load_documents

HANG = 120  # seconds: a does-not-hang guard only
MB = 1024  # VmHWM and ru_maxrss are in KiB
REPORT = os.environ.get("PITCH_LIMITS_REPORT")

# The child: run the CLI in-process, then print the peak RSS of the process.
CHILD = """
import resource, sys
from pitchcli.cli import main
try:
    main(sys.argv[1:], prog_name="pitch")
except SystemExit as e:
    status = e.code if isinstance(e.code, int) else 1
else:
    status = 0
# VmHWM: the peak of this program since exec (on Linux ru_maxrss would also
# count the parent's memory at the fork).
try:
    with open("/proc/self/status") as f:
        peak = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
except (OSError, StopIteration):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
sys.stderr.write("\\nMAXRSS %d\\n" % peak)
sys.exit(status)
"""


def measure(*args: str) -> tuple[int, str, float, int]:
    """``(exit status, stdout, seconds, peak RSS in KiB)`` of ``pitch ARGS``."""
    start = time.monotonic()
    p = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True, timeout=HANG)
    took = time.monotonic() - start
    rss = int(p.stderr.rsplit("MAXRSS ", 1)[1].split()[0])
    assert "Traceback" not in p.stderr, p.stderr[-3000:]
    return p.returncode, p.stdout, took, rss


@pytest.fixture(scope="module")
def baseline() -> int:
    """Peak RSS of ``pitch validate`` on a small valid record (the interpreter,
    the package and its imports): the memory bounds are over this."""
    root = Path(__file__).resolve().parents[2]
    status, _, _, rss = measure("validate", "-q", str(root / "samples" / "auction-full.yaml"))
    assert status == 0
    return rss


def _record(n: int, item: bytes, sep: bytes = b", ") -> bytes:
    return b"format: pitch-record/1\nvariant: auction\nplayers: [" + sep.join([item] * n) + b"]\nhands: []\n"


def _unknown_keys(n: int) -> bytes:
    return b"format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben]\nhands: []\n" + b"".join(
        b"k%d: 1\n" % i for i in range(n))


def _bad_cards(n: int) -> bytes:
    return (b"format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben, Cal]\nhands:\n- dealer: Ann\n"
            b"  bids: [2]\n  tricks:\n  - [" + b", ".join([b"ZZ"] * n) + b"]\n")


def _stream(n: int) -> bytes:
    return b"".join(b"---\nformat: pitch-record/1\nvariant: auction\nid: g%d\n" % i for i in range(n))


# name -> (suffix, builder, the code of the (first) diagnostic, memory allowed over the baseline in MiB)
HOSTILE: dict[str, tuple[str, Callable[[], bytes], str, int]] = {
    # Aliases: 9 levels of 9 aliases expand to 387 million leaves; refused at the first alias.
    "alias bomb (9 x 9)": (".yaml", lambda: alias_bomb(9, 9), "L105", 50),
    "self-referencing alias": (".yaml", lambda: b"format: pitch-record/1\nx-a: &a [*a]\n", "L105", 50),
    # Nesting: libyaml would crash near 30,000 levels, Python's parsers recurse.
    "YAML flow nesting, 100,000 levels": (".yaml", lambda: deep_flow(100_000), "L107", 50),
    "YAML flow mappings, 50,000 levels": (".yaml", lambda: b"x: " + b"{a: " * 50_000 + b"1" + b"}" * 50_000,
                                          "L107", 50),
    "YAML block sequences, 100,000 levels on one line": (".yaml", lambda: b"- " * 100_000 + b"x\n", "L107", 50),
    "YAML block mappings, 600 levels of indentation": (".yaml", lambda: deep_block(600), "L107", 50),
    "JSON nesting, 100,000 levels": (".json", lambda: deep_json(100_000), "L107", 50),
    "JSON Lines, a line nested 100,000 levels": (".jsonl", lambda: deep_json(100_000) + b"\n", "L107", 50),
    # Size: one document over max_document_bytes (1 MiB) is not kept in memory.
    "YAML document of 20 MB": (".yaml", lambda: _record(4_000_000, b"Ann"), "L106", 50),
    "JSON line of 20 MB, no line end": (".jsonl", lambda: b'{"x": "' + b"a" * 20_000_000 + b'"}', "L106", 50),
    "JSON document of 20 MB": (".json", lambda: b'{\n"x": [' + b"1,\n" * 7_000_000 + b"1]}\n", "L106", 50),
    # Nodes: 400,000 values in under 1 MiB (max_nodes 200,000).
    # (libyaml composes the whole document before the values are counted)
    "400,000 values in 800 KB": (".yaml", lambda: _record(400_000, b"1", b","), "L106", 300),
    # (JSON is parsed whole by json.loads, then scanned again to place the L106)
    "400,000 values in 800 KB of JSON": (".json", lambda: b'{"x": [' + b"1," * 399_999 + b"1]}", "L106", 400),
    # Values a record can't hold.
    "an integer of 100,000 digits": (".yaml", lambda: b"round: " + b"7" * 100_000 + b"\n", "L112", 50),
    "a JSON integer of 100,000 digits": (".json", lambda: b'{"round": ' + b"7" * 100_000 + b"}", "L112", 50),
    "1e999": (".json", lambda: b'{"round": 1e999}', "L112", 50),
    # Not UTF-8.
    "UTF-16": (".yaml", lambda: "format: pitch-record/1\n".encode("utf-16"), "L102", 50),
    "Latin-1": (".yaml", lambda: "format: pitch-record/1\nnotes: caf\xe9\n".encode("latin-1"), "L102", 50),
    "random bytes (1 MB)": (".yaml", lambda: os.urandom(1_000_000), "L1", 80),
    # Not refused, but their diagnostics cost linear time and bounded memory.
    "10,000 unknown keys": (".yaml", lambda: _unknown_keys(10_000), "S201", 150),
    "10,000 copies of one player": (".yaml", lambda: _record(10_000, b"Ann"), "S205", 150),
    # (each schema error is explained and freed as it comes: 250 MiB over the
    # baseline when jsonschema's errors were all kept first, about 80 now)
    "50,000 cards that are not cards": (".yaml", lambda: _bad_cards(50_000), "S204", 150),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_file_is_refused_in_bounded_time_and_memory(name: str, tmp_path: Path, baseline: int) -> None:
    suffix, build, code, allowed = HOSTILE[name]
    path = tmp_path / f"hostile{suffix}"
    path.write_bytes(build())
    status, out, took, rss = measure("validate", "--format", "json", str(path))
    assert status == 1, out[-2000:]
    report = json.loads(out)
    first = report["documents"][0]["diagnostics"][0]
    assert first["code"].startswith(code), first
    assert first["line"] is not None and first["column"] is not None
    over = (rss - baseline) / MB
    if REPORT:
        with open(REPORT, "a") as f:
            f.write(json.dumps({"file": name, "bytes": path.stat().st_size, "code": first["code"],
                                "seconds": round(took, 2), "peak_mib": round(rss / MB, 1),
                                "over_baseline_mib": round(over, 1)}) + "\n")
    assert over < allowed, f"{name}: {over:.0f} MiB over the baseline (allowed {allowed})"


def test_a_file_over_max_file_bytes_is_refused_unread(tmp_path: Path, baseline: int) -> None:
    # A sparse 3 GiB file: refused from its size (L106), nothing read.
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as f:
        f.truncate(DEFAULT_LIMITS.max_file_bytes + 1024**3)
    status, out, _, rss = measure("validate", str(path))
    assert status == 1
    assert f"{path}:1:1: error: L106 the file has 3221225472 bytes, more than the limit of 2147483648" in out
    assert (rss - baseline) / MB < 50


def test_a_long_stream_is_read_in_constant_memory(tmp_path: Path) -> None:
    # Twenty times the documents, about the same memory: one document at a time.
    small, big = tmp_path / "small.yaml", tmp_path / "big.yaml"
    small.write_bytes(_stream(100))
    big.write_bytes(_stream(2_000))
    _, out_small, _, rss_small = measure("validate", "-q", str(small))
    _, out_big, _, rss_big = measure("validate", "-q", str(big))
    assert out_big.count("S202") == 20 * out_small.count("S202") > 0  # every document was checked
    assert rss_big < rss_small + 30 * MB


def test_too_many_documents_stop_the_file() -> None:
    # max_documents (1,000,000 by default) with a lower limit, in-process.
    items = list(load_documents(_stream(50), name="s.yaml", limits=Limits(max_documents=10)))
    assert sum(not isinstance(x, Diagnostic) for x in items) == 10
    last = items[-1]
    assert isinstance(last, Diagnostic) and last.code == "L108" and last.document == 10


def test_limits_are_the_documented_defaults() -> None:
    # docs/hostile-input.md lists these; change both together.
    documented = Limits(max_file_bytes=2 * 1024**3, max_document_bytes=1024**2, max_depth=64,
                        max_documents=1_000_000, max_nodes=200_000)
    assert documented == DEFAULT_LIMITS


def _pretty_json(pad: int) -> bytes:
    # A one-game JSON file as fmt writes it: many short lines, one document.
    return json.dumps({"format": "pitch-record/1", "x-pad": ["a" * 10] * pad}, indent=2).encode()


@pytest.mark.parametrize("how", ["bytes", "path", "pipe"])
def test_a_whole_json_document_is_read_in_blocks_within_its_limit(how: str, tmp_path: Path) -> None:
    # A JSON document of many lines is read in blocks after its first line
    # (issue 22); the head read ahead for sniffing must come first, and the
    # document limit fall where it did line by line.
    data = _pretty_json(2000)
    path = tmp_path / "g.json"
    path.write_bytes(data)

    def load(limits: Limits) -> list[object]:
        if how == "bytes":
            return list(load_documents(data, name="g.json", limits=limits))
        if how == "path":
            return list(load_documents(path, name="g.json", limits=limits))
        with open(path, "rb") as f:  # a file object, as standard input is read
            return list(load_documents(f, name="g.json", limits=limits))

    items = load(Limits(max_document_bytes=len(data)))
    assert len(items) == 1 and not isinstance(items[0], Diagnostic)
    assert items[0].data == json.loads(data)  # type: ignore[attr-defined]
    over = load(Limits(max_document_bytes=len(data) - 1))
    assert [(d.code, d.line, d.column) for d in over] == [("L106", 1, 1)]  # type: ignore[attr-defined]
    assert "the document is larger than the limit" in over[0].message  # type: ignore[attr-defined]
    small_file = load(Limits(max_file_bytes=len(data) - 1, max_document_bytes=len(data)))
    assert [d.code for d in small_file] == ["L106"]  # type: ignore[attr-defined]
    assert "the file" in small_file[0].message  # type: ignore[attr-defined]
