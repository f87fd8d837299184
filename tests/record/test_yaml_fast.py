"""The compiled parser's reading (record.yaml_fast) against the locating loader's.

Every input is loaded twice, with the fast reading allowed and with it off
(``yaml_fast.AVAILABLE`` False: what a machine without the yaml-rs wheel does),
and the two outputs must be the same: the same documents with the same data
(values *and* types, float flags), the same first lines and node trees, the
same diagnostics at the same places. The fast reading may only decline (then
the locating loader reads the document); it may never read a document
differently. The inputs: every sample and invalid sample, the YAML traps and
junk of the fuzz strategies spliced into a record, scalar spellings, and the
fuzz strategies' hostile files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.differential import loaded, same_readings, typed
from support.fuzz_strategies import COMMENT_ODDITIES, JUNK, YAML_TRAPS, hostile_files, yaml_pieces

from pitchcli.record import yaml_fast, yaml_parser
from pitchcli.record.load import Document, Limits, load_documents

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(p for d in ("samples", "samples-invalid") for p in (ROOT / d).rglob("*") if p.is_file())
FULL = (ROOT / "samples" / "auction-full.yaml").read_bytes()

needs_wheel = pytest.mark.skipif(yaml_fast._yaml_rs is None, reason="yaml-rs is not installed")


def tree(node: Any) -> Any:
    """A node tree as comparable data: kinds, tags, values and positions."""
    if node is None:
        return None
    if isinstance(node, yaml.MappingNode):
        inner: Any = [(tree(k), tree(v)) for k, v in node.value]
    elif isinstance(node, yaml.SequenceNode):
        inner = [tree(v) for v in node.value]
    else:
        inner = node.value
    return (type(node).__name__, node.tag, node.start_mark.line, node.start_mark.column, node.end_mark.line, inner)


def seen(item: Document) -> tuple[Any, ...]:
    """A loaded YAML document as comparable data: its data with types, its
    suppression comments, its node tree and where a value is."""
    yt = item.yaml_tree
    return (item.index, item.format, typed(item.data), item.floats, item.line, item.directives,
            tree(yt[0]) if yt else None, yt[1] if yt else None,
            item.locate("/players/0") if isinstance(item.data, dict) else None)


def reading(raw: bytes, name: str, limits: Limits | None) -> list[Any]:
    """What the loader makes of ``raw``, as comparable data."""
    return loaded(raw, name, limits, seen)


def agree(raw: bytes, name: str = "t.yaml", limits: Limits | None = None) -> int:
    """Assert the fast and the locating readings of ``raw`` are the same, and
    of ``raw`` with CRLF line ends (as saved on Windows: the fast reading reads
    those as LF); the number of documents the fast reading read of ``raw``."""
    crlf = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    same_readings(crlf, lambda: reading(crlf, name, limits), yaml_fast, "pitchcli.record.yaml_read.fast_read")
    return same_readings(raw, lambda: reading(raw, name, limits), yaml_fast, "pitchcli.record.yaml_read.fast_read")


@needs_wheel
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sample_reads_the_same(path: Path) -> None:
    agree(path.read_bytes(), path.name)


@needs_wheel
def test_the_fast_reading_is_used_for_clean_records() -> None:
    """Without this, the differential tests could pass with the fast path never taken."""
    clean = [p for p in FILES if "samples-invalid" not in str(p) and p.suffix == ".yaml"]
    assert clean
    for p in clean:
        if b"pitch:" in p.read_bytes() or yaml_fast._doubtful(p.read_bytes()):
            continue
        assert agree(p.read_bytes(), p.name) >= 1, p
        assert agree(p.read_bytes().replace(b"\n", b"\r\n"), p.name) >= 1, p  # (CRLF: read as LF)


@needs_wheel
@pytest.mark.parametrize("variant", ["auction-partners", "ten-point", "ten-point-5"])
def test_a_team_named_by_its_members_takes_the_fast_reading(variant: str) -> None:
    """``pitch simulate`` and ``pitch new`` name a team by its members, "Ann &
    Cal": such a record is read by the compiled parser, and the same."""
    from pitchcli.pipeline.simulate import simulate_game
    from pitchcli.record.write import canonical, to_yaml

    raw = b"".join(b"---\n" + to_yaml(canonical(simulate_game(variant, seed=seed))).encode() for seed in range(3))
    assert b" & " in raw or variant == "ten-point-5", variant  # (ten-point-5: called partners, no teams)
    assert agree(raw) == 3


def _word_end(c: int) -> bool:
    return (chr(c).isascii() and (chr(c).isalnum() or chr(c) in "_.)")) or c >= 0x80


def _marks_in_text_one_by_one(s: bytes) -> int:
    """The marks of ``s`` that are text, one at a time: right after a word's
    last character, or an "&" with a space each side and a word before."""
    return sum(1 for i, c in enumerate(s) if c in b"!&*%" and (
        (i > 0 and _word_end(s[i - 1])) or
        (c == 0x26 and i > 1 and s[i - 1] == 0x20 and _word_end(s[i - 2]) and s[i + 1:i + 2] == b" ")))


@settings(max_examples=int(__import__("os").environ.get("PITCH_FUZZ_CI_EXAMPLES", "100")) * 10, deadline=None)
@given(st.binary(max_size=16) | st.lists(st.sampled_from(list(b"ab_.) !&*%\n:-[],{}#'\"\xc3\xa90Z\t")),
                                         max_size=16).map(bytes))
def test_the_marks_in_text_are_counted_one_by_one(s: bytes) -> None:
    """``_marks_in_text``'s counts at C speed are the marks read one at a time."""
    marks = bytes(c for c in s if c in b"!&*%")
    assert yaml_fast._marks_in_text(s, marks) == _marks_in_text_one_by_one(s)


@needs_wheel
def test_a_record_pyyaml_wrote_with_escaped_letters_takes_the_fast_reading() -> None:
    """PyYAML's ``safe_dump`` writes a non-ASCII letter as an escape ("Zo\\xEB",
    "\\u0141ukasz"): such a record is read by the compiled parser, and the same;
    a key given twice, once escaped, is refused by both."""
    rec = yaml.safe_load(FULL.replace(b"Ann", "Zo\u00eb".encode()).replace(b"Ben", "\u0141ukasz".encode()))
    raw = yaml.safe_dump(rec, sort_keys=False).encode()
    assert b"\\xEB" in raw and b"\\u0141" in raw
    assert agree(raw) == 1
    head = FULL.split(b"hands:")[0]
    assert agree(head + b'x-k: {"Zo\\xEB": 1, "Zo\xc3\xab": 2}\n') == 0


@needs_wheel
def test_a_note_with_marks_inside_its_words_takes_the_fast_reading() -> None:
    """A note or a comment as people write them ("Good game!", "won 60%",
    "Ann & Cal") is read by the compiled parser, and the same."""
    raw = FULL.replace(b"  - dealer:", b"  - notes: Good game! Ben & Dot won 60%, 2*3 tricks\n"
                                      b"    # close one!\n    dealer:", 1)
    assert raw != FULL
    assert agree(raw) == 1


@needs_wheel
def test_a_note_pitch_wrote_with_line_breaks_and_quotes_takes_the_fast_reading() -> None:
    """``pitch fmt`` writes a note of several lines, or with a quote or a
    backslash, double-quoted with escapes ("\\n", '\\"', "\\\\"): read by the
    compiled parser, and the same."""
    from pitchcli.record.write import canonical, to_yaml

    rec = yaml.safe_load(FULL)
    rec["notes"] = 'Hand 3:\nBen said "pass" \\ then bid.\n'
    raw = to_yaml(canonical(rec)).encode()
    assert b"\\n" in raw and b'\\"' in raw and b"\\\\" in raw, raw
    assert agree(raw) == 1


@needs_wheel
@pytest.mark.parametrize("trap", YAML_TRAPS + JUNK + COMMENT_ODDITIES)
@pytest.mark.parametrize("where", ["top", "end", "in-hand", "value"])
def test_traps_and_junk_read_the_same(trap: bytes, where: str) -> None:
    if where == "top":
        raw = trap + b"\n" + FULL
    elif where == "end":
        raw = FULL + b"\n" + trap + b"\n"
    elif where == "in-hand":
        raw = FULL.replace(b"  - dealer:", b"  - " + trap.replace(b"\n", b"\n    ") + b"\n    dealer:", 1)
    else:
        raw = FULL.replace(b"event: ", b"event: " + trap, 1)
    agree(raw)
    agree(raw + b"---\n" + raw)  # and as documents of a stream


# Scalars whose reading the two parsers might not share (numbers, nulls, bools,
# dates, quoting, folding, block scalars, flow oddities), as values and as keys.
SCALARS = [
    "0", "-0", "+0", "00", "017", "+017", "-017", "09", "1", "+1", "-1", "12", "1.", "1.5", "-1.5", "+1.5", ".5",
    "-.5", "+.5", "1e3", "1E3", "1e+3", "1e-3", "1.5e3", ".5e3", "1.e3", "1e", "1.5e", "e3", "1..5", "1.5.5",
    "0.0", "-0.0", "1_000", "0x1F", "0o17", "0b101", "0X1F", "0O17", ".inf", ".Inf", ".INF", "-.inf", "+.inf",
    ".nan", ".NaN", ".NAN", "inf", "nan", "Infinity", "NaN", "1e999", "-1e999", "123456789012345678901234567890",
    "9" * 400, "null", "Null", "NULL", "nULL", "~", "", "true", "True", "TRUE", "tRUE", "false", "False", "FALSE",
    "yes", "no", "on", "off", "y", "n", "Y", "N", "2026-11-28", "2026-11-28T10:00:00Z", "12:30", "1:30:00",
    "190:20:30", "10H", "AS", "pass", "-", "--", "- x", "'1'", '"1"', "'null'", '"true"', "'a''b'", '"a\\"b"',
    "a b", "a  b", "a #b", "a#b", "a: b", "a:b", "[1, 2]", "[]", "{}", "{a: 1}", "[a, [b, {c: d}]]", "x ",
    "'x\n  y'", '"x\n  y"', "'x\n\n  y'", "x\n  y", "x\n\n  y", "|\n  x\n  y", "|-\n  x", "|+\n  x\n\n", ">\n  x\n  y",
    ">-\n  x\n\n  y", "|2\n   x", "'\u00e9'", "\u00e9t\u00e9", "\U0001f600", "'\U0001f600'", "@x", "`x", "x,y",
    "[a,b]", "{a: 1, b}", "{a}", "[a: 1]", "? x", "= x", ">x", "|x", "\"\"", "''", "' '", "x\t", "'\u00a0'",
    # An "&" between words (a team named by its members) is text; anywhere else it may be an anchor.
    "Ann & Cal", "a & b & c", "a &b", "a & ", "a &", "& b", "&a b", "a. & b", "a) & b", "a, & b", "a: & b",
    "- & b", "? & b", "\u00e9 & a", "a & *b", "a &&b", "a & & b", "a && b", "1 & 2", "a & #b", "a &#b",
    "[a & b]", "[a, & b]", "{a & b: c & d}", "{a: & b}", "'a & b'", '"a & b"', "a\n  & b", "a\n  b & c",
    "|\n  a & b", "a & b: c",
    # "!", "*" and "%" right after a word are text (a note: "Good game!", "50%"); anywhere else they may be marks.
    "Good game!", "50%", "a%b", "a*b", "a!b", "a! b", "e!foo bar", "!e!foo bar", "a!!b", "a!!int 1", "100%!",
    "a!\n  b", "a!: b", "a%: b", "a*: b", "a.!", "a)!", "1!", "1%", "1*2", "a!#c", "a! #c", "\u00e9!", "a !b",
    "a *b", "a %b", "%a", "*a", "!a", "a, !b", "[a!, b%]", "{a!: b*}", "'a!'", '"50%"', "|\n  Good game!",
    # A letter's escape, as PyYAML writes non-ASCII ("Zo\\xEB"), reads the same; other escapes may not.
    '"Zo\\xEB"', '"\\u0141ukasz"', '"\\U0001F600"', '"\\xE9t\\xE9"', '"\\u00A0"', '"\\u674E"', '"\\x41"',
    '"\\x9F"', '"\\x85"', '"\\u2028"', '"\\ud800"', '"\\uD83D\\uDE00"', '"\\uFEFF"', '"\\uFFFF"',
    '"\\U00110000"', '"\\\\xEB"', '"a\\/b"', '"\\N"', '"\\xE"', '"\\u00e"', "'Zo\\xEB'", "Zo\\xEB",
    '"Zo\\xEB\\\n  b"', '"\\xEB\\x"',
    # So do a line feed's, a quote's and a backslash's, as ``pitch fmt`` writes a note ('"a\\nb"', '"say \\"pass\\""').
    '"a\\nb"', '"a\\n"', '"\\n\\n"', '"say \\"pass\\""', '"\\""', '"a\\\\b"', '"\\\\"', '"a\\\\\\"b"', '"\\\\\\xEB"',
    '"\\\\\\\\xEB"', '"\\\\n"', '"a\\tb"', '"a\\/b"', '"a\\rb"', '"a\\0"', '"a\\ b"', '"a\\_b"',
    "'a\\nb'", "a\\nb", "'a\\\\'", '"a\\n|b"', '"\\n: x"', '"a\\": b"', '["a\\nb", "c\\"d"]', '{"a\\nb": c}',
    # "?", "|" and ">" right after a word are text ("Who led?"); elsewhere an explicit key ("[?a]": a mapping to
    # libyaml, text to yaml-rs) or a block scalar's header (an empty one: "" to libyaml, "\n" to yaml-rs).
    "|", ">", "|-", ">-", "|+", ">+", "|7", "|\n", ">\n\n", "|2\n", "Who led?", "a?b", "a|b", "a>b", "a?", "?a",
    "[?a]", "[? a]", "[a, ?]", "[?]", "{?: []}", "{?a: b}", "[a?]", "[a|b]", "[a>]", "a | b", "a > b", "'a > b'",
    # A colon after a word or a quote and before a space, a line end or a word reads alike; elsewhere it may not
    # ("[a:]": an error to libyaml, a mapping to yaml-rs; "[:x]" read apart).
    "[a:]", "[a:, b]", "{a:}", "[:x]", "[ :x]", "{:x: y}", "{:: b}", "a :b", "[a :b]", ":)", "a :)", "(:",
    "http://x", "[http://x]", "10:30:45", "1:2:3", "[10:30]", "{a:b: c}", "'a':b", "{'a':b}", '{"a":b}',
    '[a:"b"]', '{a:"b"}', '["a":"b"]', '{"a":"b", "c":"d"}', '"a":"b"', "[a:\\b]", "[a:/b]", '"Hand 3:\\nx"', "[a:,b]",
    "{a:,b}", "[a::]", '["a"::b]', '["a":!b]', '{"a":>b}', '["a":|b]', "[a:?b]", "{a:?b}", "[a:]b", "a:#b", "[a:#b]",
    "[a:-b]", "[a:&b]", "[a:*b]",
]

# Whole values whose reading the two parsers might not share: flow mappings over
# several lines (yaml-rs reads a key written over two lines, "{a\n b: c}", that
# libyaml refuses) or holding another.
FLOW_MAPPINGS = [
    "{a\n  ---\n  b: c}", "{a\n  b: c}", "{a # c\n  : b}", "{a: [b,\n  c]}", "{a: b,\n  c: d}", "{a: {b: c}}",
    "{a: {b: c},\n  d: e}", "{a: x\n  y}", "[{a: b}, {c: d}]", "[{a\n  b: c}]",
    # (a quoted "}" must not hide a mapping that goes on: yaml-rs reads "b c" a key, libyaml refuses)
    '{a: "}", b\n  c: d}', "{a: '}', b\n  c: d}", '{a: "}"}', "{a: b}, c",
]


@needs_wheel
@pytest.mark.parametrize("scalar", SCALARS)
def test_scalars_read_the_same(scalar: str) -> None:
    head = FULL.split(b"hands:")[0]
    indented = scalar.replace("\n", "\n  ").encode()
    agree(head + b"x-v: " + indented + b"\n")
    agree(head + b"x-l:\n  - " + scalar.replace("\n", "\n    ").encode() + b"\n")
    agree(head + b"x-f: [" + indented + b"]\n")
    if "\n" not in scalar:
        agree(head + b"x-k:\n  " + scalar.encode() + b": 1\n")
        agree(head + b"x-m: {" + scalar.encode() + b": 1}\n")


@needs_wheel
@pytest.mark.parametrize("value", FLOW_MAPPINGS)
def test_flow_mappings_read_the_same(value: str) -> None:
    head = FULL.split(b"hands:")[0]
    agree(head + b"x-v: " + value.encode() + b"\n")
    agree(head + b"x-l:\n  - " + value.replace("\n", "\n  ").encode() + b"\n")


def _parsers_seen(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The compiled parser's readings and the event scans of depth, as they happen."""
    from pitchcli.record import yaml_read

    seen: list[str] = []
    real_loads, real_scan = yaml_fast._yaml_rs.loads, yaml_read.first_too_deep

    def loads(text: str, **kw: Any) -> Any:
        seen.append("yaml-rs")
        return real_loads(text, **kw)

    def scan(chunk: bytes, max_depth: int, pure: bool = False) -> Any:
        seen.append("scan")
        return real_scan(chunk, max_depth, pure)

    monkeypatch.setattr(yaml_fast._yaml_rs, "loads", loads)
    monkeypatch.setattr(yaml_read, "first_too_deep", scan)
    return seen


@needs_wheel
def test_deep_block_nesting_is_scanned_before_the_compiled_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    """yaml-rs recurses through block nesting without a limit (20,000 levels of
    indentation crashed the process): a chunk whose indentation may be that
    deep is scanned first, and one too deep never reaches it (L107)."""
    seen = _parsers_seen(monkeypatch)
    deep = b"k:\n" + b"".join(b" " * (i + 1) + b"a:\n" for i in range(300)) + b" " * 301 + b"x\n"
    (d,) = load_documents(deep, "deep.yaml")
    assert d.code == "L107" and seen == ["scan"], (d, seen)


@needs_wheel
def test_a_long_record_s_brackets_cost_the_compiled_reading_no_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    """yaml-rs stops flow nesting itself (at 256 levels): a record with more
    brackets than the bound asks libyaml's callers to scan (a long ten-point
    game) is read by it unscanned; deep flow nesting it refuses is scanned
    before libyaml, and is L107 there."""
    from pitchcli.pipeline.simulate import simulate_game
    from pitchcli.record.write import canonical, to_yaml

    seen = _parsers_seen(monkeypatch)
    rec = simulate_game("ten-point", seed=10)  # (a long game: over a thousand brackets)
    raw = to_yaml(canonical(rec)).encode()
    assert raw.count(b"[") + raw.count(b"{") > 500, "a game with fewer brackets than the bound shows nothing"
    (doc,) = load_documents(raw, "long.yaml")
    assert isinstance(doc, Document) and seen == ["yaml-rs"], seen
    seen.clear()
    (d,) = load_documents(b"k: " + b"[" * 600 + b"]" * 600 + b"\n", "flow.yaml")
    assert d.code == "L107" and seen == ["yaml-rs", "scan"], (d, seen)


@needs_wheel
@pytest.mark.parametrize("limits", [Limits(max_depth=3), Limits(max_nodes=40), Limits(max_nodes=41),
                                    Limits(max_document_bytes=500)])
def test_limits_read_the_same(limits: Limits) -> None:
    nested = b"format: pitch-record/1\nx: {a: {b: [1, 2]}}\n"
    agree(nested, limits=limits)
    agree(FULL, limits=limits)
    agree(b"x: [" + b", ".join(b"%d" % i for i in range(39)) + b"]\n", limits=limits)
    agree(b"x: [" + b", ".join(b"%d" % i for i in range(40)) + b"]\n", limits=limits)


@needs_wheel
def test_documents_of_a_stream_keep_their_numbers_and_lines() -> None:
    raw = b"# head\n" + FULL + b"---\n" + FULL + b"...\n# between\n---\n" + FULL + b"--- \n\n" + FULL
    assert agree(raw) == 4
    lines = [d.line for d in load_documents(raw, "s.yaml") if isinstance(d, Document)]
    assert len(lines) == 4 and lines == sorted(lines) and lines[0] == 3  # after "# head" and the sample's comment


@needs_wheel
def test_pure_python_composer_reads_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yaml_parser, "USE_LIBYAML", False)
    agree(FULL + b"---\n" + FULL)


FUZZ = settings(max_examples=int(__import__("os").environ.get("PITCH_FUZZ_CI_EXAMPLES", "100")), deadline=None,
                suppress_health_check=list(HealthCheck))


@needs_wheel
@FUZZ
@given(hostile_files())
def test_hostile_files_read_the_same(file: tuple[str, bytes]) -> None:
    """Fuzzed records (most of them: valid, mutated, broken as text) and monsters."""
    suffix, raw = file
    agree(raw, "f" + suffix)


# Five times the fuzz tests' examples (small documents: about a second). An
# exploration, not the guard: against the old checks, 500 examples found the
# empty block scalar in one run of six; the cases found are in SCALARS and
# FLOW_MAPPINGS above, which find them every time.
PIECES = settings(FUZZ, max_examples=5 * FUZZ.max_examples)


@needs_wheel
@PIECES
@given(yaml_pieces())
def test_documents_of_odd_pieces_read_the_same(raw: bytes) -> None:
    """Documents of the pieces where the two parsers' readings have been seen to
    part (explicit keys, block scalar headers, colons, flow mappings over lines)."""
    agree(raw)


def test_without_the_wheel_every_document_takes_the_locating_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine without yaml-rs: the module imports, declines every document,
    and the loader reads the record as before (with its positions)."""
    monkeypatch.setattr(yaml_fast, "_yaml_rs", None)
    assert yaml_fast.fast_read(FULL, FULL.decode(), Limits()) is None
    (doc,) = [d for d in load_documents(FULL, "t.yaml") if isinstance(d, Document)]
    assert doc.data["players"][0] == "Ann" and doc.yaml_tree is not None
    assert doc._root is not None  # composed while reading, not lazily


@needs_wheel
def test_a_fast_document_composes_only_when_a_position_is_asked() -> None:
    (doc,) = [d for d in load_documents(FULL, "t.yaml") if isinstance(d, Document)]
    assert doc._root is None
    assert doc.locate("/players/1") == (10, 16)  # players: [Ann, Ben, ...] on line 10
    assert doc.line == 2  # after the comment line
    assert doc._root is not None


def test_a_machine_without_the_wheels_imports_and_reads() -> None:
    """yaml-rs and orjson missing (their import fails): the loader imports and reads."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['yaml_rs'] = None; sys.modules['orjson'] = None\n"
        "from pitchcli.record import yaml_fast\n"
        "from pitchcli.record.load import Document, load_documents\n"
        f"out = list(load_documents({str(ROOT / 'samples' / 'auction-full.yaml')!r}))\n"
        "assert not yaml_fast.AVAILABLE\n"
        "(doc,) = [d for d in out if isinstance(d, Document)]\n"
        "print(doc.data['players'], doc.line, doc._root is not None)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["['Ann',", "'Ben',", "'Cal',", "'Dot']", "2", "True"]


FLOAT = __import__("re").compile(rb"[0-9][.eE]|\.[0-9]")  # where a float may start: a digit meets "." or "e"


@FUZZ
@given(st.binary(max_size=200) | st.text(alphabet="0123456789.eE x_-:\n", max_size=60).map(str.encode))
def test_a_float_is_never_missed(body: bytes) -> None:
    """The quick test for a float is never false where a digit meets ".",
    "e" or "E" (the data then skip the walk that finds floats)."""
    if FLOAT.search(body) is not None:
        assert yaml_fast.may_hold_float(body)
    assert yaml_fast.may_hold_float(b"a: 1.5\n") and yaml_fast.may_hold_float(b"a: 2e3\n")
    assert yaml_fast.may_hold_float(b"a: .5\n") and not yaml_fast.may_hold_float(b"a: 15, b: x.y\n")
