"""Fuzzing every command with hostile files (strategies: tests/fuzz_strategies.py).

Each test writes a generated file to a temporary folder and runs one command on
it in-process (Click's CliRunner), with options drawn too, then asserts the
contract of docs/hostile-input.md:

- no traceback, ever: the command ends with an exit status, not an exception,
  and neither stream shows "Traceback" or the loader's "internal error";
- the exit status is one the command documents (0, 1 or 3; 2 is only for
  usage errors, which these invocations don't make);
- a failure (exit 1 or 3) shows at least one located diagnostic: a
  ``file:line:col: CODE`` line, or the line and column in the JSON report,
  within the file's lines;
- the input file is untouched (bytes and modification time), except by
  ``fmt --in-place``, which rewrites only a valid file, into one that
  validates;
- the commands agree: validate, score, replay, fmt and summarize read the same
  verdict from the same file, and merging its partial summary gives summarize's.

Size of a run (examples per test):

- default (CI): ``PITCH_FUZZ_CI_EXAMPLES``, 100; derandomized, so CI is stable;
- long run: ``PITCH_FUZZ_EXAMPLES=15000`` (random, no deadline, the Hypothesis
  database on). With ``PITCH_FUZZ_COLLECT=DIR`` a failing input does not stop
  the run: it is saved in DIR (the input, the command and the reason) and the
  test fails at the end; ``PITCH_FUZZ_STATS=FILE`` appends the number of
  invocations per command. See docs/hostile-input.md.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import traceback
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.fuzz_strategies import (
    RAW_UNSAFE,
    SERIALIZERS,
    WAYS_IN,
    adversarial_streams,
    build_tree,
    hostile_file_names,
    hostile_files,
    impossible_partials,
    partial_files,
    renamed_record,
    serialize,
    trees,
    valid_partials,
    within,
)

from pitchcli.cli import main
from pitchcli.pipeline.walk import RECORD_SUFFIXES

LONG = int(os.environ.get("PITCH_FUZZ_EXAMPLES", "0") or 0)
EXAMPLES = LONG or int(os.environ.get("PITCH_FUZZ_CI_EXAMPLES", "100"))
COLLECT = os.environ.get("PITCH_FUZZ_COLLECT")
STATS = os.environ.get("PITCH_FUZZ_STATS")

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not LONG,
    database=None if not LONG else settings.default.database,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)

# The exit statuses each command may end with on any file (docs/hostile-input.md).
CONTRACT = {
    "validate": {0, 1, 3},
    "score": {0, 1, 3},
    "replay": {0, 1, 3},
    "fmt": {0, 1, 3},
    "summarize": {0, 1, 3},
    "merge": {0, 1, 3},
    "chart": {0, 1, 3},
    "report": {0, 1, 3},
}

CALLS: Counter[str] = Counter()
FOUND: list[str] = []


class Broken(AssertionError):
    """A broken contract, with what is needed to reproduce it."""


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    if STATS:
        with open(STATS, "a") as f:
            f.write(json.dumps({"pid": os.getpid(), "calls": dict(CALLS)}) + "\n")
    if FOUND:
        pytest.fail(f"{len(FOUND)} broken contract(s), saved in {COLLECT}:\n" + "\n".join(FOUND[:20]))


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="pitch-fuzz-") as d:
        yield Path(d)


def _save(command: str, args: list[str], raw: bytes, suffix: str, reason: str) -> None:
    """In a collecting run: keep the failing input and go on."""
    assert COLLECT is not None
    out = Path(COLLECT)
    out.mkdir(parents=True, exist_ok=True)
    # One file per distinct reason (the first line without numbers and paths).
    head = re.sub(r"\d+|/tmp/\S+", "#", reason.splitlines()[0] if reason else "")[:200]
    key = hashlib.sha1(f"{command}|{head}".encode()).hexdigest()[:12]
    target = out / f"{command}-{key}{suffix}"
    if not target.exists():
        target.write_bytes(raw)
        (out / f"{command}-{key}.txt").write_text(f"pitch {' '.join(args)}\n\n{reason}\n")
        FOUND.append(f"{command} {key}: {head}")


# --------------------------------------------------------------------------- running a command


def _state(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


def run(command: str, args: list[str], files: list[Path]) -> Result:
    CALLS[command] += 1
    return CliRunner().invoke(main, [command, *args, *map(str, files)])


def _line_bound(raw: bytes) -> int:
    """The most lines a reader may count in ``raw`` (CR, NEL, LS and PS break lines in YAML)."""
    return (raw.count(b"\n") + raw.count(b"\r") + raw.count(b"\xc2\x85") + raw.count(b"\xe2\x80\xa8")
            + raw.count(b"\xe2\x80\xa9") + 2)


def _located_lines(text: str, path: Path) -> list[tuple[int, int, str, bool]]:
    """``(line, column, code, is_error)`` of each ``file:line:col: error: CODE`` diagnostic for ``path``."""
    pattern = re.compile(re.escape(str(path)) + r":(\d+):(\d+): (error|warning): ([LSPRC]\d{3})\b", re.M)
    return [(int(m[1]), int(m[2]), m[4], m[3] == "error") for m in pattern.finditer(text)]


def _check_located(found: list[tuple[int, int]], raw: bytes, what: str) -> None:
    if not found:
        raise Broken(f"{what}: a failure without a located diagnostic")
    bound = _line_bound(raw)
    for line, column in found:
        if not (1 <= line <= bound and column >= 1):
            raise Broken(f"{what}: diagnostic at {line}:{column}, outside the file ({bound - 2} line ends)")


def _check_common(command: str, r: Result, allowed: set[int]) -> None:
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        tb = "".join(traceback.format_exception(*r.exc_info)) if r.exc_info else repr(r.exception)
        raise Broken(f"{command} raised {type(r.exception).__name__}: {r.exception}\n{tb}")
    for stream, text in (("stdout", r.stdout), ("stderr", r.stderr)):
        if "Traceback" in text:
            raise Broken(f"{command}: a traceback on {stream}:\n{text[-3000:]}")
        if "internal error" in text:
            raise Broken(f"{command}: the loader hit an internal error:\n{text[-3000:]}")
    if r.exit_code not in allowed:
        raise Broken(f"{command}: exit {r.exit_code}, not one of {sorted(allowed)}\n{r.output[-3000:]}")


def _guard(command: str, args: list[str], raw: bytes, suffix: str, check: Any) -> None:
    """Run ``check()``; in a collecting run, save a broken contract instead of failing."""
    try:
        check()
    except Broken as e:
        if COLLECT is None:
            raise
        _save(command, args, raw, suffix, str(e))


def _write(workdir: Path, name: str, suffix: str, raw: bytes) -> Path:
    path = workdir / f"{name}{suffix}"
    path.write_bytes(raw)
    return path


# --------------------------------------------------------------------------- the checks per command


def check_validate(path: Path, raw: bytes, args: list[str]) -> Result:
    before = _state(path)
    r = run("validate", args, [path])
    _check_common("validate", r, CONTRACT["validate"])
    if _state(path) != before:
        raise Broken("validate changed its input")
    strict = "--strict" in args
    ci = args[args.index("--format") + 1] if "--format" in args else None
    if ci in ("sarif", "github"):  # the CI formats: a log whatever the file; the others check the rest
        if ci == "sarif" and not json.loads(r.stdout)["runs"]:
            raise Broken("validate --format sarif: a log without its run")
        return r
    if "--format" in args:
        report = json.loads(r.stdout)
        docs = report["documents"]
        if not docs:
            raise Broken("validate --format json: a file with no document entry")
        summary = report["summary"]
        expected = 3 if summary["unreadable"] else 1 if summary["invalid"] else 0
        if r.exit_code != expected:
            raise Broken(f"validate: exit {r.exit_code} but the report's summary says {expected}")
        for d in docs:
            diags = d["diagnostics"]
            if d["valid"]:
                if any(x["severity"] == "error" or (strict and x["severity"] == "warning") for x in diags):
                    raise Broken("validate: a document reported valid with an error")
                continue
            _check_located([(x["line"] or 0, x["column"] or 0) for x in diags], raw,
                           f"validate --format json, document {d['document']}")
            if not any(x["severity"] == "error" or strict for x in diags):
                raise Broken("validate: a document reported invalid without an error")
    else:
        found = _located_lines(r.stdout, path)
        errors = [(line, col) for line, col, _, is_error in found if is_error or strict]
        if r.exit_code == 0 and errors:
            raise Broken("validate: exit 0 with an error diagnostic")
        if r.exit_code:
            _check_located(errors, raw, "validate")
    return r


def check_score(path: Path, raw: bytes, args: list[str]) -> Result:
    before = _state(path)
    r = run("score", args, [path])
    _check_common("score", r, CONTRACT["score"])
    if _state(path) != before:
        raise Broken("score changed its input")
    if r.exit_code:
        found = _located_lines(r.stderr, path)
        _check_located([(line, col) for line, col, _, err in found if err], raw, "score")
    if "--format" in args and args[args.index("--format") + 1] == "json":
        json.loads(r.stdout)
    return r


def check_replay(path: Path, raw: bytes, args: list[str]) -> Result:
    before = _state(path)
    r = run("replay", args, [path])
    _check_common("replay", r, CONTRACT["replay"])
    if _state(path) != before:
        raise Broken("replay changed its input")
    if r.exit_code:
        found = _located_lines(r.stderr, path)
        _check_located([(line, col) for line, col, _, err in found if err], raw, "replay")
    if "--format" in args and r.exit_code == 0:
        # JSON Lines end at "\n" only: splitlines() would also cut at a U+0085
        # or U+2028 that a string holds as it is (ensure_ascii=False).
        for line in r.stdout.split("\n"):
            if line:
                json.loads(line)
    return r


def check_fmt(path: Path, raw: bytes, args: list[str], workdir: Path) -> Result:
    before = _state(path)
    in_place = "-i" in args
    r = run("fmt", args, [path])
    _check_common("fmt", r, CONTRACT["fmt"])
    if r.exit_code:
        found = [(line, col) for line, col, _, err in _located_lines(r.stderr, path) if err]
        if not ("--check" in args and "would reformat:" in r.stdout and not found):
            _check_located(found, raw, "fmt")
    if in_place and r.exit_code == 0:
        # Rewritten (or left as it was, if canonical): it must still validate,
        # and be canonical now.
        v = run("validate", ["-q"], [path])
        if v.exit_code != 0:
            raise Broken(f"fmt --in-place wrote a file that does not validate:\n{v.stdout[-2000:]}")
        c = run("fmt", ["--check"], [path])
        if c.exit_code != 0:
            raise Broken(f"fmt --in-place wrote a file that is not canonical:\n{c.output[-2000:]}")
    elif _state(path) != before:
        raise Broken(f"fmt {' '.join(args)} changed its input (exit {r.exit_code})")
    if "-o" in args and r.exit_code != 0:
        out = Path(args[args.index("-o") + 1])
        if out.exists():
            raise Broken("fmt -o wrote output for an input it refused")
    leftovers = [p.name for p in workdir.iterdir() if p.name.endswith(".tmp")]
    if leftovers:
        raise Broken(f"fmt left temporary files: {leftovers}")
    return r


def _problems_located(r: Result, path: Path, raw: bytes, fmt: str, what: str) -> None:
    if fmt == "json":
        report = json.loads(r.stdout)
        problems = report["problems"]
        _check_located([(p["line"] or 0, p["column"] or 0) for p in problems], raw, what)
    elif fmt == "partial":
        problems = json.loads(r.stdout)["problems"]
        _check_located([(p["line"] or 0, p["column"] or 0) for p in problems], raw, what)
    else:
        # table, markdown, and csv (whose one table has no room for them: on stderr)
        found = _located_lines(r.output, path)
        _check_located([(line, col) for line, col, _, err in found if err], raw, what)


def check_summarize(path: Path, raw: bytes, args: list[str]) -> Result:
    before = _state(path)
    r = run("summarize", args, [path])
    _check_common("summarize", r, CONTRACT["summarize"])
    if _state(path) != before:
        raise Broken("summarize changed its input")
    fmt = "partial" if "--partial" in args else args[args.index("--format") + 1] if "--format" in args else "table"
    if fmt in ("json", "partial"):
        json.loads(r.stdout)
    if r.exit_code:
        _problems_located(r, path, raw, fmt, f"summarize ({fmt})")
    return r


def check_merge(parts: list[Path], raws: list[bytes], args: list[str]) -> Result:
    before = [_state(p) for p in parts]
    r = run("merge", args, parts)
    _check_common("merge", r, CONTRACT["merge"])
    if [_state(p) for p in parts] != before:
        raise Broken("merge changed its input")
    if r.exit_code == 3:
        # A part that can't be used: its name and why, on standard error.
        if not any(line.startswith(f"{p}: ") for p in parts for line in r.stderr.splitlines()):
            raise Broken(f"merge: exit 3 without naming the part:\n{r.stderr[-2000:]}")
    elif (r.exit_code == 1 and "--partial" not in args
          and not re.search(r":\d+:\d+: (?:error|warning): [LSPRC]\d{3}|\"line\"|Problems", r.output)):
        # Some record counted in a part is invalid: the problems must be listed.
        raise Broken(f"merge: exit 1 without a problem listed:\n{r.output[-2000:]}")
    return r


# --------------------------------------------------------------------------- the tests

validate_args = st.sampled_from([[], ["--format", "json"], ["--strict"], ["-q"], ["--strict", "--format", "json"],
                                 ["--format", "sarif"], ["--format", "github"]])
score_args = st.sampled_from([[], ["--format", "json"], ["--format", "csv"], ["--explain"], ["--check"],
                              ["--check", "--format", "json"]])
replay_args = st.sampled_from([[], ["--format", "json"]])
fmt_args = st.sampled_from([[], ["--check"], ["--to", "json"], ["--to", "yaml"], ["--to", "jsonl"], ["--fill"],
                            ["-i"], ["--fill", "-i"], ["-o"]])
summarize_args = st.sampled_from([[], ["--format", "json"], ["--format", "csv"], ["--format", "markdown"],
                                  ["--partial"], ["--allow-invalid"]])
merge_args = st.sampled_from([[], ["--format", "json"], ["--partial"], ["--format", "csv"]])


@FUZZ
@given(hostile_files(), validate_args)
def test_validate_fuzz(workdir: Path, file: tuple[str, bytes], args: list[str]) -> None:
    suffix, raw = file
    path = _write(workdir, "v", suffix, raw)
    _guard("validate", args, raw, suffix, lambda: check_validate(path, raw, args))


def check_stdin(command: str, raw: bytes, args: list[str]) -> None:
    """The same file on standard input (``-``): the format is sniffed, the name is ``-``."""
    CALLS[command] += 1
    r = CliRunner().invoke(main, [command, *args, "-"], input=raw)
    _check_common(command, r, CONTRACT[command])
    if r.exit_code:
        _check_located([(line, col) for line, col, _, err in _located_lines(r.output, Path("-")) if err],
                       raw, f"{command} -")


@FUZZ
@given(hostile_files(), st.sampled_from([("validate", []), ("validate", ["--format", "json"]), ("score", []),
                                         ("fmt", []), ("summarize", [])]))
def test_stdin_fuzz(file: tuple[str, bytes], command: tuple[str, list[str]]) -> None:
    suffix, raw = file
    name, args = command
    if args:  # the JSON report: located by its fields
        CALLS[name] += 1
        r = CliRunner().invoke(main, [name, *args, "-"], input=raw)
        _guard(name, [*args, "-"], raw, suffix, lambda: _check_common(name, r, CONTRACT[name]))
        return
    _guard(name, ["-"], raw, suffix, lambda: check_stdin(name, raw, args))


@FUZZ
@given(hostile_files(), score_args)
def test_score_fuzz(workdir: Path, file: tuple[str, bytes], args: list[str]) -> None:
    suffix, raw = file
    path = _write(workdir, "s", suffix, raw)
    _guard("score", args, raw, suffix, lambda: check_score(path, raw, args))


@FUZZ
@given(hostile_files(), replay_args)
def test_replay_fuzz(workdir: Path, file: tuple[str, bytes], args: list[str]) -> None:
    suffix, raw = file
    path = _write(workdir, "r", suffix, raw)
    _guard("replay", args, raw, suffix, lambda: check_replay(path, raw, args))


@FUZZ
@given(hostile_files(), fmt_args)
def test_fmt_fuzz(workdir: Path, file: tuple[str, bytes], args: list[str]) -> None:
    suffix, raw = file
    path = _write(workdir, "f", suffix, raw)
    out = workdir / f"out{suffix if suffix != '.txt' else '.yaml'}"
    out.unlink(missing_ok=True)
    args = [*args[:-1], "-o", str(out)] if args[-1:] == ["-o"] else args
    _guard("fmt", args, raw, suffix, lambda: check_fmt(path, raw, args, workdir))


@FUZZ
@given(hostile_files(), st.sampled_from(["chart", "report"]))
def test_chart_and_report_fuzz(workdir: Path, file: tuple[str, bytes], command: str) -> None:
    """chart -o and report -o (issue 27: a huge target crashed both): the
    contract's exit statuses, never a traceback, the input untouched."""
    suffix, raw = file
    path = _write(workdir, "c", suffix, raw)
    out = workdir / ("race.svg" if command == "chart" else "site")

    def check() -> None:
        before = _state(path)
        r = run(command, ["-o", str(out)], [path])
        _check_common(command, r, CONTRACT[command])
        if _state(path) != before:
            raise Broken(f"{command} changed its input")

    _guard(command, ["-o", str(out)], raw, suffix, check)


@FUZZ
@given(hostile_files(), summarize_args)
def test_summarize_fuzz(workdir: Path, file: tuple[str, bytes], args: list[str]) -> None:
    suffix, raw = file
    path = _write(workdir, "m", suffix, raw)
    _guard("summarize", args, raw, suffix, lambda: check_summarize(path, raw, args))


@FUZZ
@given(partial_files(), st.booleans(), valid_partials(), merge_args)
def test_merge_fuzz(workdir: Path, file: tuple[str, bytes], with_valid: bool, other: dict[str, Any],
                    args: list[str]) -> None:
    suffix, raw = file
    parts = [_write(workdir, "part", suffix, raw)]
    raws = [raw]
    if with_valid:
        good = json.dumps(other).encode()
        parts.append(_write(workdir, "good", ".json", good))
        raws.append(good)
    _guard("merge", args, raw, suffix, lambda: check_merge(parts, raws, args))


def check_agreement(path: Path, raw: bytes, workdir: Path) -> None:
    """Every command on one file, and their verdicts compared."""
    v = check_validate(path, raw, [])
    verdict = v.exit_code
    s = check_score(path, raw, [])
    r = check_replay(path, raw, [])
    f = check_fmt(path, raw, ["--check"], workdir)
    m = check_summarize(path, raw, [])
    part = workdir / "agree-part.json"
    p = run("summarize", ["--partial", "-o", str(part)], [path])
    _check_common("summarize", p, CONTRACT["summarize"])
    g = check_merge([part], [part.read_bytes()], [])
    got = {"score": s.exit_code, "replay": r.exit_code, "fmt --check": f.exit_code,
           "summarize": m.exit_code, "summarize --partial": p.exit_code, "merge": g.exit_code}
    if verdict == 3:
        wrong = {k: c for k, c in got.items() if c != 3}
    elif verdict == 0:
        # fmt --check fails on a valid file that is not canonical: that's its job.
        wrong = {k: c for k, c in got.items() if c != 0 and k != "fmt --check"}
    else:
        # Score and replay go on past a claim that disagrees; the others don't.
        wrong = {k: c for k, c in got.items() if c != 1 and k not in ("score", "replay")}
        wrong |= {k: got[k] for k in ("score", "replay") if got[k] not in (0, 1)}
    if wrong:
        raise Broken(f"validate exits {verdict} but {wrong}")
    part.unlink()


@FUZZ
@given(hostile_files())
def test_commands_agree_fuzz(workdir: Path, file: tuple[str, bytes]) -> None:
    suffix, raw = file
    path = _write(workdir, "a", suffix, raw)
    _guard("agree", ["(all)"], raw, suffix, lambda: check_agreement(path, raw, workdir))


@st.composite
def big_streams(draw: st.DrawFn) -> tuple[str, bytes]:
    """A YAML stream or JSON Lines file big enough for summarize --jobs to cut
    (700 KB and more: pieces of 256 KB at least), made of hostile documents."""
    docs = draw(st.lists(hostile_files(), min_size=1, max_size=6))
    yaml_stream = draw(st.booleans())
    pieces = []
    for _, raw in docs:
        if yaml_stream:
            pieces.append(b"---\n" + raw + (b"" if raw.endswith(b"\n") else b"\n"))
        else:
            pieces.append(raw.replace(b"\n", b" ").replace(b"\r", b" ") + b"\n")
    body = b"".join(pieces) or b"---\n"
    copies = max(1, (700_000 // len(body)) + 1)
    return (".yaml" if yaml_stream else ".jsonl"), body * min(copies, 10_000)


@settings(FUZZ, max_examples=max(5, EXAMPLES // 10))
@given(big_streams())
def test_summarize_jobs_agree_fuzz(workdir: Path, file: tuple[str, bytes]) -> None:
    """Cutting a big file into pieces for worker processes changes nothing."""
    suffix, raw = file
    path = _write(workdir, "big", suffix, raw)

    def check() -> None:
        one = run("summarize", ["--format", "json", "--max-rows", "0"], [path])
        two = run("summarize", ["--format", "json", "--max-rows", "0", "--jobs", "2"], [path])
        _check_common("summarize", one, CONTRACT["summarize"])
        _check_common("summarize", two, CONTRACT["summarize"])
        if (one.exit_code, one.stdout) != (two.exit_code, two.stdout):
            a, b = json.loads(one.stdout), json.loads(two.stdout)
            diff = [k for k in a if a[k] != b.get(k)]
            raise Broken(f"summarize --jobs 2 differs from --jobs 1 in {diff} (exit {one.exit_code}, {two.exit_code})")

    _guard("summarize-jobs", ["--jobs", "2"], raw, suffix, check)


# --------------------------------------------------------------------------- text that reaches a reader (issue 11)

READERS = [("validate", []), ("score", []), ("score", ["--explain"]), ("score", ["--format", "csv"]),
           ("replay", []), ("summarize", []), ("summarize", ["--format", "markdown"]),
           ("summarize", ["--format", "csv"]), ("summarize", ["--format", "csv", "--no-standings", "--games"]),
           ("fmt", []), ("fmt", ["--to", "yaml"]), ("fmt", ["--fill", "--to", "json"])]
_NEGATIVE = re.compile(r"-[0-9]+(\.[0-9]+)?")


def check_reader(path: Path, raw: bytes, command: str, args: list[str], workdir: Path) -> None:
    """Control characters, bidi controls and separators never reach a human-readable
    output raw, a CSV cell is never a formula, and fmt's output reads back as the same data."""
    r = run(command, args, [path])
    _check_common(command, r, CONTRACT[command])
    csv_out = "csv" in args
    for stream, text in (("stdout", "" if csv_out or command == "fmt" else r.stdout), ("stderr", r.stderr)):
        found = RAW_UNSAFE.search(text)
        if found:
            raise Broken(f"{command} {' '.join(args)}: raw {found.group()!r} on {stream}: "
                         f"{text[max(0, found.start() - 60):found.end() + 60]!r}")
    if csv_out and r.exit_code == 0:
        import csv
        import io
        for row in list(csv.reader(io.StringIO(r.stdout, newline="")))[1:]:
            for cell in row:
                if cell[:1] in ("=", "+", "@", "\t", "\r") or (cell[:1] == "-" and not _NEGATIVE.fullmatch(cell)):
                    raise Broken(f"{command} {' '.join(args)}: a CSV cell a spreadsheet reads as a formula: {cell!r}")
    if command == "fmt" and r.exit_code == 0:
        fmt = args[args.index("--to") + 1] if "--to" in args else None
        out = workdir / f"back.{fmt or path.suffix.lstrip('.')}"
        out.write_text(r.stdout, encoding="utf-8", errors="surrogateescape")
        if RAW_UNSAFE.search(r.stdout):
            raise Broken(f"fmt {' '.join(args)}: a raw control character in the written record")
        v = run("validate", ["-q"], [out])
        if v.exit_code != 0:
            raise Broken(f"fmt {' '.join(args)} wrote a record that does not validate:\n{v.stdout[-2000:]}")


@settings(FUZZ, max_examples=max(10, EXAMPLES // 4))  # (a valid game through a whole command: 0.27 s each)
@given(renamed_record(), st.sampled_from(SERIALIZERS), st.sampled_from(READERS))
def test_hostile_text_fuzz(workdir: Path, rec: dict[str, Any], how: str, reader: tuple[str, list[str]]) -> None:
    """Valid records whose every string field a person writes holds control
    characters, formula prefixes, markup: read by every human-facing output."""
    suffix, raw = serialize(rec, how)
    path = _write(workdir, "t", suffix, raw)
    command, args = reader
    _guard(command, args, raw, suffix, lambda: check_reader(path, raw, command, args, workdir))
# --------------------------------------------------------------------------- folders and odd files

TREE_EXAMPLES = max(EXAMPLES // 10, 5)  # each example builds a folder and runs three commands
HANG = 60  # seconds: a does-not-hang guard


@settings(FUZZ, max_examples=TREE_EXAMPLES)
@given(entries=trees(), file=hostile_files(), stream=adversarial_streams(max_documents=3))
# (found by a long run: a dangling link named ``.txt`` is no input, so no exit 3)
@example(entries=["record", "dangling"], file=(".txt", b""), stream=(".jsonl", b"{}\n"))
def test_folder_walk_fuzz(entries: list[str], file: tuple[str, bytes], stream: tuple[str, bytes]) -> None:
    """A folder of hostile records (and odd streams: CR, CRLF, BOMs) next to
    FIFOs, sockets, links, loops, dangling and hard links: validate, summarize
    and fmt --check end (under an alarm: a FIFO opened would hang), without a
    traceback; each FIFO and socket is L113; exit 3 only for a dangling link."""
    suffix, raw = file if entries.count("record") % 2 else stream
    with tempfile.TemporaryDirectory(prefix="pitch-tree-") as d:
        root = Path(d) / "t"
        build_tree(root, entries, raw, suffix)
        odd = sorted(str(p) for p in root.iterdir()
                     if (p.is_fifo() or p.is_socket()) and p.name.endswith(RECORD_SUFFIXES))
        for command, args in (("validate", ["--format", "json"]), ("summarize", ["--format", "json"]),
                              ("fmt", ["--check"])):
            def check(command: str = command, args: list[str] = args) -> None:
                with within(HANG):
                    r = run(command, args, [root])
                _check_common(command, r, CONTRACT[command])
                if command == "validate":
                    docs = json.loads(r.stdout)["documents"]
                    skipped = sorted(x["file"] for doc in docs for x in doc["diagnostics"] if x["code"] == "L113")
                    if not set(odd) <= set(skipped):
                        raise Broken(f"validate: {sorted(set(odd) - set(skipped))} not reported as skipped")
                    # (a link named as a record is an input that can't be read; one with
                    # another suffix, as a hostile file's ``.txt``, is not an input at all)
                    dangling = "dangling" in entries and suffix.endswith(RECORD_SUFFIXES)
                    if (r.exit_code == 3) != dangling:
                        raise Broken(f"validate: exit {r.exit_code} with entries {entries}")
            _guard(f"tree-{command}", args, raw, suffix, check)


# --------------------------------------------------------------------------- names, ways in, outputs (issue 27)

NAMED_COMMANDS = [
    ("validate", []), ("validate", ["--format", "github"]), ("validate", ["--format", "sarif"]),
    ("validate", ["--format", "json"]), ("score", []), ("fmt", ["--check"]), ("summarize", []),
    ("summarize", ["--format", "csv"]), ("summarize", ["--jobs", "2"]), ("summarize", ["--partial"]),
    ("ratings", []), ("chart", []), ("chart", ["-o", "{out}.svg"]), ("report", ["-o", "{out}-site"]),
    ("replay", []), ("solve", ["--budget", "2000"]),
]
ALL_CONTRACT = {**CONTRACT, "ratings": {0, 1, 3}, "chart": {0, 1, 3}, "report": {0, 1, 3}, "solve": {0, 1, 3}}
_JSON_OUT = ("--format", "json"), ("--format", "sarif"), ("--partial",)


def _ways(root: Path, file: Path, way: str) -> list[str]:
    """The command line's paths reaching ``file`` (in ``root``) by ``way``."""
    if way == "named twice":
        return [str(file), str(file)]
    if way == "folder and file":
        return [str(root), str(file)]
    if way == "file and folder":
        return [str(file), str(root)]
    if way == "folder and subfolder":
        return [str(root.parent), str(root)]
    if way == "hard link":
        (root / ("h-" + file.name)).hardlink_to(file)
        return [str(root)]
    if way == "link":
        os.symlink(file.name, root / ("l-" + file.name))
        return [str(root)]
    return [str(file)]


def _documents(paths: list[str]) -> int:
    r = run("summarize", ["--partial"], [Path(p) for p in paths])
    return json.loads(r.stdout)["counts"]["documents"] if r.stdout.startswith("{") else -1


@settings(FUZZ, max_examples=max(10, EXAMPLES // 5))  # (a folder and up to three commands each)
@given(name=hostile_file_names(), file=hostile_files(), way=st.sampled_from(WAYS_IN),
       command=st.sampled_from(NAMED_COMMANDS), over_input=st.booleans())
def test_names_and_ways_in_fuzz(name: str, file: tuple[str, bytes], way: str, command: tuple[str, list[str]],
                                over_input: bool) -> None:
    """A hostile record under a hostile file name, reached once or by two ways,
    through every command: no raw control on a human-readable output, the
    contract's exit status, the input untouched, each file counted once; and
    -o naming the input itself is refused (exit 3), the input untouched."""
    suffix, raw = file
    with tempfile.TemporaryDirectory(prefix="pitch-names-") as d:
        root = Path(d) / "games"
        root.mkdir()
        path = root / f"{name}{suffix}"
        try:
            path.write_bytes(raw)
        except OSError:  # a name this filesystem refuses (too long in bytes)
            return
        before = _state(path)
        paths = _ways(root, path, way)
        cmd, args = command
        args = [a.replace("{out}", str(Path(d) / name)) for a in args]
        if cmd in ("chart", "replay", "solve"):
            paths = paths[:1]
        if over_input and cmd in ("summarize", "chart", "fmt"):
            args = [*[a for a in args if a != "--check"], "-o", str(path)]

        named = str(path) in paths
        # A folder walk reads records only (``walk.RECORD_SUFFIXES``): a ``.txt``
        # found by a walk alone is no input, and -o may write over it; a record
        # found by a walk is one, and -o over it is refused as over a named one.
        read = named or path.name.endswith(RECORD_SUFFIXES)
        # The output is not read by the walk, and a .json that does not name the
        # format in its first MiB is taken for an earlier output of the command
        # (a summary, a partial: walk.input_named), which -o replaces.
        earlier_output = path.suffix == ".json" and b"pitch-record/" not in raw[:1 << 20]
        written = "-o" in args and args[-1] == str(path)
        may_replace = written and not named and (not read or earlier_output)

        def check() -> None:
            with within(HANG):
                r = run(cmd, args, [Path(p) for p in paths])
            _check_common(cmd, r, ALL_CONTRACT[cmd])
            replaced = _state(path) != before  # (-o over an earlier output: a hard link to it no longer is one)
            if replaced and not may_replace:
                raise Broken(f"{cmd} {args}: the input changed")
            if over_input and written and not may_replace and r.exit_code != 3:
                raise Broken(f"{cmd} {args}: -o over its own input: exit {r.exit_code}")
            json_out = any(all(x in args for x in pair) for pair in _JSON_OUT)
            # (CSV keeps the exact text, as JSON does: README, "Text from a record is data")
            machine = json_out or ("--format" in args and "csv" in args)
            for stream, text in (("stdout", "" if machine else r.stdout), ("stderr", r.stderr)):
                found = RAW_UNSAFE.search(text)
                if found:
                    raise Broken(f"{cmd} {args}: raw {found.group()!r} on {stream}: "
                                 f"{text[max(0, found.start() - 60):found.end() + 60]!r}")
            if json_out and r.exit_code != 3 and "-o" not in args:
                json.loads(r.stdout)
            if way != "once" and cmd == "summarize" and not replaced and \
                    _documents(paths) != (_documents([str(path)]) if read else 0):
                raise Broken(f"summarize counted {way}: {_documents(paths)} documents, alone "
                             f"{_documents([str(path)])} (read by the walk: {read})")
        _guard(f"names-{cmd}", [*args, *paths], raw, suffix, check)


@FUZZ
@given(impossible_partials(), merge_args)
def test_impossible_partials_fuzz(workdir: Path, data: dict[str, Any], args: list[str]) -> None:
    """A partial summary that passes its schema but whose sums no game can give
    (every player winning, more player-games than seats, points no hand has,
    bids below 1, a document twice...): merge refuses it, exit 3."""
    raw = json.dumps(data).encode()
    part = _write(workdir, "impossible", ".json", raw)

    def check() -> None:
        r = check_merge([part], [raw], args)
        if r.exit_code != 3:
            raise Broken(f"merge took an impossible partial: exit {r.exit_code}")
    _guard("merge-impossible", args, raw, ".json", check)
