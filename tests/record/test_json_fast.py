"""orjson's reading of JSON (record.json_fast) against ``json``'s with the
duplicate-key hook (record.json_read).

Every input is loaded twice, with the fast reading allowed and with it off
(``json_fast.AVAILABLE`` False: what a machine without orjson does), and the two
outputs must be the same: the same documents with the same data (values *and*
types, float flags), the same lines and positions, the same diagnostics at the
same places. The fast reading may only decline (then ``json`` reads the
document); it may never read one differently. The inputs: every sample and
invalid sample as JSON and JSON Lines, JSON traps (numbers at orjson's edges,
escapes, keys given twice with and without spaces, brackets and colons in
strings, depth and size at the limits) spliced into a record, junk bytes, and
the fuzz strategies' hostile files.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.differential import loaded, same_readings, typed
from support.fuzz_strategies import COMMENT_ODDITIES, JUNK, hostile_files

from pitchcli.record import json_fast
from pitchcli.record.load import Document, Limits, load_documents

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p for d in ("samples", "samples-invalid") for p in (ROOT / d).rglob("*") if p.is_file())
FULL_DATA = yaml.safe_load((ROOT / "samples" / "auction-full.yaml").read_text())
FULL = json.dumps(FULL_DATA, separators=(",", ":")).encode()
PRETTY = json.dumps(FULL_DATA, indent=2).encode()

needs_orjson = pytest.mark.skipif(json_fast._orjson is None, reason="orjson is not installed")


def seen(item: Document) -> tuple[Any, ...]:
    """A loaded JSON document as comparable data: its data with types, and where values are."""
    where = None
    if isinstance(item.data, dict):
        where = [item.locate(p) for p in ("/players/0", "/hands/0/tricks/1", "/format", "/nowhere")]
    return item.index, item.format, typed(item.data), item.floats, item.line, where


def reading(raw: bytes, name: str, limits: Limits | None) -> list[Any]:
    """What the loader makes of ``raw``, as comparable data."""
    return loaded(raw, name, limits, seen)


def agree(raw: bytes, name: str = "t.jsonl", limits: Limits | None = None) -> int:
    """Assert the fast and the ``json`` readings of ``raw`` are the same; the
    number of documents the fast reading read."""
    return same_readings(raw, lambda: reading(raw, name, limits), json_fast, "pitchcli.record.json_read.fast_json")


def as_json(path: Path) -> list[bytes]:
    """A sample as JSON text: compact, pretty and a JSON Lines stream of it (none for a file YAML can't load)."""
    try:
        docs = [d for d in yaml.safe_load_all(path.read_bytes()) if d is not None]
    except yaml.YAMLError:
        return [path.read_bytes()]
    try:
        lines = [json.dumps(d, separators=(",", ":")).encode() for d in docs]
    except (TypeError, ValueError):
        return [path.read_bytes()]
    return [*lines, *(json.dumps(d, indent=2).encode() for d in docs), b"\n".join(lines) + b"\n"]


@needs_orjson
@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sample_reads_the_same(path: Path) -> None:
    for raw in as_json(path):
        agree(raw, "t.json")
        agree(raw, "t.jsonl")


@needs_orjson
def test_the_fast_reading_is_used_for_clean_records() -> None:
    """Without this, the differential tests could pass with the fast path never taken."""
    assert agree(FULL) == 1
    assert agree(PRETTY, "t.json") == 1
    assert agree(FULL + b"\n" + FULL + b"\r\n\n" + FULL) == 3
    assert agree(FULL, "t.json") == 1  # (and the first line is then not parsed twice to tell JSON Lines)


@needs_orjson
def test_a_record_with_escaped_names_takes_the_fast_reading() -> None:
    """Python's ``json.dumps`` writes every non-ASCII letter as an escape
    (``"Zo\\u00eb"``): such a record is read by orjson, and the same."""
    raw = FULL.replace(b'"Ann"', b'"Zo\\u00eb"').replace(b'"Ben"', b'"Jos\\u00e9"')
    assert raw != FULL and b"\\u00e9" in raw
    assert agree(raw) == 1
    assert agree(raw, "t.json") == 1


@needs_orjson
@pytest.mark.parametrize("raw", [b"[\n" + FULL + b"\n]\n", b"  {  \r\n" + PRETTY[1:], b"{\n", b"[\n", b"{\n}\n{}\n",
                                 b"[\n1,\n2]\n[3]\n", b"\n\n{\n" + PRETTY[1:] + b"\n" + FULL])
def test_a_first_line_that_only_opens_reads_the_same(raw: bytes) -> None:
    """A file whose first line only opens a collection is one document (read
    whole at once, without parsing that line): as ``json`` tells it."""
    agree(raw, "t.json")


@needs_orjson
@settings(max_examples=500, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(2 ** 80), 2 ** 80))
@example(1e16)
@example(-1e-7)
@example(5e-324)
@example(-0.0)
@example(1.0)
@example(2 ** 64 - 1)
@example(2 ** 64)
@example(-(2 ** 63))
@example(-(2 ** 63) - 1)
def test_a_float_is_never_read_by_orjson(number: float | int) -> None:
    """What the float search of ``fast_json`` rests on, whatever the number:
    orjson writes every float with a digit followed by "." or "e" (even 1e16,
    0.0, 5e-324) and reads an integer beyond 64 bits as a float, so a record
    holding one is left to ``json``; an integer within 64 bits is read as itself."""
    raw = FULL[:-1] + b',"x-n":' + str(number).encode() + b"}"
    data = json_fast.fast_json(raw, Limits())
    if isinstance(number, float) or not -(2 ** 63) <= number < 2 ** 64:
        assert data is None
    else:
        assert data is not None and type(data["x-n"]) is int and data["x-n"] == number


# Values whose reading ``json`` and orjson might not share, or that hide a key
# given twice from a count of colons.
VALUES = [
    "0", "-0", "1", "-1", "1.0", "1.5", "-0.0", "1e3", "1E3", "1e-3", "1.5e3", "0.1", "9007199254740993",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
    "18446744073709551615", "18446744073709551616", "1234567890123456789", "12345678901234567890",
    "-1234567890123456789", "9" * 400, "9" * 4400, "1e999", "-1e999", "NaN", "Infinity", "-Infinity",
    "true", "false", "null", '"x"', '""', '"a:b"', '"::"', '"[["', '"]"', '"{"', '"}"', '"x\\u003ay"',
    '"\\u003a"', '"\\ud800"', '"\\udc00x"', '"\\ud83d\\ude00"', '"\\\\"', '"a\\"b"', '"\\n"', '"\\/"',
    '"\u2028"', '"\u00e9"', '"\U0001f600"', '"\x7f"', '"\x01"', '"\t"', "[]", "{}", "[[[[[]]]]]",
    '{"a":1,"a":2}', '{"a":1, "a" :2}', '{"a" :1,"a":2}', '{"a":"x:y","a":1}', '{"a":1,"b":{"a":2},"a":3}',
    '{"a":"[","a":"]"}', '{"a" : 1 , "a" : 1}', '{"":1,"":2}', '{"a\\u0062":1,"ab":2}', '[1,2,]', '{"a":1,}',
    '{"a":1,"a":2,"b":"\\u003a"}',  # (an escaped colon makes up for the dropped pair's: no backslash, no count)
    '{"a":1,"a":2,"b":"\\u003A"}', '{"a":1,"a":2,"b":"\\\\u003a"}', '{"a":1,"a":2,"b":"\\u00e9"}',
    '{"a\\u00e9":1,"a\\u00e9":2}', '{"\\u00e9":1,"\u00e9":2}', '{"a":"\\"","a":"\\\\"}', '"\\u00e9t\\u00e9"',
    '"\\u0022"', '"\\u005c"', '"\\u007b\\u005b"', '"\\b\\f\\r\\t"', '"\\u0000"', '"\\uD83D\\uDE00"', '"\\u00"',
    '"\\x41"', '"\\U0041"', '"\\ud800\\u00e9"',
    "01", "+1", ".5", "1.", "-", "tru", "'x'", "[1 2]",
]


@needs_orjson
@pytest.mark.parametrize("value", VALUES)
def test_values_read_the_same(value: str) -> None:
    v = value.encode()
    agree(FULL[:-1] + b',"x-v":' + v + b"}")
    agree(FULL[:-1] + b',"x-l":[' + v + b"]}")
    agree(b'{"x-v":' + v + b"," + FULL[1:])
    agree(PRETTY[:-2] + b',\n  "x-v": ' + v + b"\n}", "t.json")
    agree(FULL + b"\n" + FULL[:-1] + b',"x-v":' + v + b"}\n" + FULL)


@needs_orjson
@pytest.mark.parametrize("dup", [b'"format":"pitch-record/1"', b'"format" :"pitch-record/1"',
                                 b'"format": "x:y"', b'"players":["A","B"]', b'"x-a":1,"x-a":2'])
def test_a_key_given_twice_reads_the_same(dup: bytes) -> None:
    """A key given twice is L104 either way, whatever the spacing and colons around it."""
    agree(FULL[:-1] + b"," + dup + b"}")
    agree(b"{" + dup + b"," + FULL[1:])
    agree(FULL.replace(b'"dealer":', b"" + dup.replace(b"format", b"dealer") + b',"dealer":', 1))


@needs_orjson
@pytest.mark.parametrize("junk", JUNK + COMMENT_ODDITIES)
@pytest.mark.parametrize("where", ["top", "end", "value", "key"])
def test_junk_reads_the_same(junk: bytes, where: str) -> None:
    if where == "top":
        raw = junk + FULL
    elif where == "end":
        raw = FULL + junk
    elif where == "value":
        raw = FULL.replace(b'"Ann"', b'"An' + junk + b'n"', 1)
    else:
        raw = FULL.replace(b'"dealer"', b'"deal' + junk + b'er"', 1)
    agree(raw)
    agree(raw, "t.json")
    agree(FULL + b"\n" + raw + b"\n" + FULL)


@needs_orjson
@pytest.mark.parametrize("limits", [Limits(max_depth=3), Limits(max_depth=4), Limits(max_nodes=40),
                                    Limits(max_nodes=41), Limits(max_document_bytes=500)])
def test_limits_read_the_same(limits: Limits) -> None:
    agree(b'{"format":"pitch-record/1","x":{"a":{"b":[1,2]}}}', limits=limits)
    agree(FULL, limits=limits)
    agree(b'{"x":[' + b",".join(b"%d" % i for i in range(38)) + b"]}", limits=limits)
    agree(b'{"x":[' + b",".join(b"%d" % i for i in range(39)) + b"]}", limits=limits)
    agree(b'{"x":' + b"[" * 70 + b"]" * 70 + b"}")
    agree(b'{"x":' + b"[" * 300 + b"]" * 300 + b"}")
    agree(b'{"x":' + b"[" * 1100 + b"]" * 1100 + b"}")


FUZZ = settings(max_examples=int(os.environ.get("PITCH_FUZZ_CI_EXAMPLES", "100")), deadline=None,
                suppress_health_check=list(HealthCheck))


@needs_orjson
@FUZZ
@given(hostile_files(), st.sampled_from([".json", ".jsonl"]))
def test_hostile_files_read_the_same(file: tuple[str, bytes], suffix: str) -> None:
    """Fuzzed records (most of them: valid, mutated, broken as text) and monsters, read as JSON."""
    agree(file[1], "f" + suffix)


def test_without_orjson_every_document_takes_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_fast, "_orjson", None)
    assert json_fast.fast_json(FULL, Limits()) is None
    (doc,) = [d for d in load_documents(FULL, "t.jsonl") if isinstance(d, Document)]
    assert doc.data == FULL_DATA and doc.floats is False
