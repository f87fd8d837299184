"""Tests of the record loader (pitchcli.record.load) and pointer location (locate).

Every trap of MEASURED.md is fed in and must come back as a located diagnostic;
nothing a file contains may raise out of ``load_documents``.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitchcli.diagnostics import WARNING, Diagnostic
from pitchcli.record import yaml_parser
from pitchcli.record.load import Document, Limits, load_documents
from pitchcli.record.locate import compose_json
from pitchcli.record.pointer import escape_segment, parse_pointer

# --------------------------------------------------------------------------- helpers


def items(source: Any, **kw: Any) -> list[Document | Diagnostic]:
    return list(load_documents(source, **kw))


def docs(source: Any, **kw: Any) -> list[Document]:
    out = items(source, **kw)
    problems = [d.as_text() for d in out if isinstance(d, Diagnostic)]
    assert not problems, problems
    return [d for d in out if isinstance(d, Document)]


def diags(source: Any, **kw: Any) -> list[Diagnostic]:
    return [d for d in items(source, **kw) if isinstance(d, Diagnostic)]


def one_diag(source: Any, **kw: Any) -> Diagnostic:
    out = items(source, **kw)
    found = [d for d in out if isinstance(d, Diagnostic)]
    assert len(found) == 1, [d.as_text() if isinstance(d, Diagnostic) else d for d in out]
    return found[0]


def where(d: Diagnostic) -> tuple[str, int | None, int | None]:
    return d.code, d.line, d.column


def data(source: Any, **kw: Any) -> Any:
    (doc,) = docs(source, **kw)
    return doc.data


@pytest.fixture(params=["libyaml", "pure"])
def both_parsers(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test with libyaml's composer and with the pure-Python one."""
    if request.param == "libyaml":
        if not yaml.__with_libyaml__:
            pytest.skip("PyYAML without libyaml")
    else:
        monkeypatch.setattr(yaml_parser, "USE_LIBYAML", False)
    return str(request.param)


RECORD = b"""\
format: pitch-record/1
variant: auction
date: "2026-11-26"
players: [Ann, Ben, Cal, Dot]
hands:
  - dealer: Ann
    bids: [pass, 2, 3, pass]
    tricks:
      - [KS, 3S, 10S, AS]
      - [QD, 5D, JS, 9D]
    score: {Ann: 0, Ben: 1, Cal: 2, Dot: -3}
"""

# --------------------------------------------------------------------------- scalars


def test_yaml_core_schema_scalars(both_parsers: str) -> None:
    src = b"""\
a: no
b: yes
c: on
d: off
e: 2026-11-28
f: 12:30
g: 017
h: 1_000
i: ~
j: null
k: NULL
l:
m: true
n: FALSE
o: True
p: 1.5e+3
q: 1e3
r: .5
s: -12
t: '12'
u: "true"
v: !!str 12
w: 0x1F
x: yEs
y: 3.
z: +7
"""
    assert data(src) == {
        "a": "no",
        "b": "yes",
        "c": "on",
        "d": "off",
        "e": "2026-11-28",
        "f": "12:30",
        "g": 17,
        "h": "1_000",
        "i": None,
        "j": None,
        "k": None,
        "l": None,
        "m": True,
        "n": False,
        "o": True,
        "p": 1500.0,
        "q": 1000.0,
        "r": 0.5,
        "s": -12,
        "t": "12",
        "u": "true",
        "v": "12",
        "w": "0x1F",
        "x": "yEs",
        "y": 3.0,
        "z": 7,
    }


def test_record_loads_as_plain_data() -> None:
    (doc,) = docs(RECORD, name="game.yaml")
    assert doc.file == "game.yaml"
    assert doc.index == 0
    assert doc.format == "yaml"
    assert doc.line == 1
    assert doc.data["hands"][0]["bids"] == ["pass", 2, 3, "pass"]
    assert doc.data["hands"][0]["tricks"][1] == ["QD", "5D", "JS", "9D"]
    assert doc.data["date"] == "2026-11-26"


def test_standard_tags_accepted_when_the_value_fits() -> None:
    src = b"a: !!int '5'\nb: !!float 2\nc: !!bool true\nd: !!null ''\ne: !!map {x: 1}\nf: !!seq [1]\n"
    assert data(src) == {"a": 5, "b": 2.0, "c": True, "d": None, "e": {"x": 1}, "f": [1]}


def test_keys_are_the_text_of_plain_scalars() -> None:
    assert data(b"1: a\nnull: b\ntrue: c\n~: d\n'2': e\n") == {
        "1": "a",
        "null": "b",
        "true": "c",
        "~": "d",
        "2": "e",
    }


@pytest.mark.parametrize(
    ("src", "line", "column"),
    [
        (b"a: 1\n[x, y]: 2\n", 2, 1),
        (b"a: 1\n? {k: v}\n: 2\n", 2, 3),
        (b"a: 1\n!!int 3: x\n", 2, 1),
    ],
)
def test_key_that_is_not_a_string_is_refused(src: bytes, line: int, column: int) -> None:
    d = one_diag(src)
    assert where(d) == ("L112", line, column)


@pytest.mark.parametrize(
    ("src", "line", "column", "pointer"),
    [
        (b"a: 1\nb: !!python/object:os.system x\n", 2, 4, "/b"),
        (b"a: 1\nb: !!python/object/apply:os.system [ls]\n", 2, 4, "/b"),
        (b"a: [1, !foo x]\n", 1, 8, "/a/1"),
        (b"a: !!binary aGVsbG8=\n", 1, 4, "/a"),
        (b"a: !!timestamp 2026-11-28\n", 1, 4, "/a"),
        (b"a: !!set {x, y}\n", 1, 4, "/a"),
        (b"a: !!int twelve\n", 1, 4, "/a"),
        (b"a: !!bool yes\n", 1, 4, "/a"),
        (b"a: .inf\n", 1, 4, "/a"),
        (b"a: [-.Inf]\n", 1, 5, "/a/0"),
        (b"a:\n  b: .nan\n", 2, 6, "/a/b"),
        (b"a: 1e999\n", 1, 4, "/a"),
        (b"a: " + b"9" * 5000 + b"\n", 1, 4, "/a"),
    ],
)
def test_unknown_tags_and_unholdable_values(
    src: bytes, line: int, column: int, pointer: str, both_parsers: str
) -> None:
    d = one_diag(src)
    assert where(d) == ("L112", line, column)
    assert d.pointer == pointer


def test_every_bad_tag_of_a_document_is_reported() -> None:
    found = diags(b"a: !x 1\nb: 2\nc: !y 3\n")
    assert [where(d) for d in found] == [("L112", 1, 4), ("L112", 3, 4)]


# --------------------------------------------------------------------------- duplicates


def test_duplicate_key_yaml(both_parsers: str) -> None:
    d = one_diag(b"players: [Ann]\nhands:\n  - dealer: Ann\n    dealer: Ben\n")
    assert where(d) == ("L104", 4, 5)
    assert d.pointer == "/hands/0/dealer"
    assert "'dealer'" in d.message and "line 3" in d.message


def test_duplicate_keys_yaml_all_reported() -> None:
    found = diags(b"a: 1\nb: 2\na: 3\nb: 4\n")
    assert [where(d) for d in found] == [("L104", 3, 1), ("L104", 4, 1)]
    assert all(d.document == 0 for d in found)


def test_int_and_string_spellings_of_a_key_collide() -> None:
    d = one_diag(b"score: {1: 2, '1': 3}\n")
    assert where(d) == ("L104", 1, 15)


def test_duplicate_key_json_pretty() -> None:
    text = b'{\n  "a": 1,\n  "b": {\n    "x": 1,\n    "x": 2\n  }\n}\n'
    d = one_diag(text, name="g.json")
    assert where(d) == ("L104", 5, 5)
    assert d.pointer == "/b/x"
    assert "line 4" in d.message


def test_duplicate_key_json_lines() -> None:
    text = b'{"a": 1}\n{"a": 1, "b": 2, "a": 3}\n'
    d = one_diag(text, name="g.jsonl")
    assert where(d) == ("L104", 2, 18)
    assert d.document == 1
    assert d.pointer == "/a"


# --------------------------------------------------------------------------- aliases


def billion_laughs() -> bytes:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return ("\n".join(lines) + "\n").encode()


def test_billion_laughs_refused(both_parsers: str) -> None:
    src = billion_laughs()
    assert len(src) < 400
    d = one_diag(src)
    assert where(d) == ("L105", 2, 8)
    assert d.pointer == "/b/0"
    assert "*a" in d.message


def test_billion_laughs_as_top_level_list() -> None:
    src = b"- &a [x, x, x, x, x, x, x, x, x]\n" + b"".join(
        b"- &%c [" % c + b", ".join([b"*%c" % (c - 1)] * 9) + b"]\n" for c in b"bcdefghi"
    )
    assert one_diag(src).code == "L110"


def test_cyclic_alias_refused(both_parsers: str) -> None:
    d = one_diag(b"a: &a [*a]\n")
    assert where(d) == ("L105", 1, 8)
    assert d.pointer == "/a/0"


def test_cyclic_mapping_alias_refused() -> None:
    d = one_diag(b"a: &m\n  self: *m\n")
    assert where(d) == ("L105", 2, 9)
    assert d.pointer == "/a/self"


def test_scalar_alias_and_alias_as_key_refused() -> None:
    assert where(one_diag(b"a: &n Ann\nb: *n\n")) == ("L105", 2, 4)
    assert where(one_diag(b"a: &k x\n*k : 1\n")) == ("L105", 2, 1)


def test_merge_key_with_alias_refused() -> None:
    assert one_diag(b"base: &b {x: 1}\nother:\n  <<: *b\n").code == "L105"


def test_problems_before_an_alias_are_reported_too() -> None:
    found = diags(b"players: [Ann]\nplayers: [Ben]\nnotes: &a [*a]\n")
    assert [(where(d), d.pointer) for d in found] == [
        (("L104", 2, 1), "/players"),
        (("L105", 3, 12), "/notes/0"),
    ]


def test_many_duplicates_stay_linear() -> None:
    src = b"a: 1\n" + b"".join(b"k%d: 1\nk%d: 2\n" % (i, i) for i in range(5000))
    found = diags(src)
    assert len(found) == 5000
    assert (where(found[-1]), found[-1].pointer) == (("L104", 10001, 1), "/k4999")
    assert "line 10000" in found[-1].message


def test_unused_anchor_is_harmless() -> None:
    assert data(b"a: &x [1, 2]\nb: 'see *x'\n") == {"a": [1, 2], "b": "see *x"}


def test_undefined_alias_is_a_syntax_error() -> None:
    assert where(one_diag(b"a: 1\nb: *nope\n"))[0] == "L103"


# --------------------------------------------------------------------------- nesting


@pytest.mark.parametrize("depth", [2000, 100_000])
def test_deep_yaml_flow_refused(depth: int, both_parsers: str) -> None:
    d = one_diag(b"a: " + b"[" * depth + b"]" * depth + b"\n")
    assert where(d) == ("L107", 1, 4 + 63)
    assert d.pointer == "/a" + "/0" * 63


@pytest.mark.parametrize("depth", [2000, 100_000])
def test_deep_yaml_block_refused(depth: int, both_parsers: str) -> None:
    d = one_diag(b"a:\n" + b"  " + b"- " * depth + b"x\n")
    assert where(d) == ("L107", 2, 3 + 2 * 63)
    assert d.pointer == "/a" + "/0" * 63


def test_deep_yaml_indented_mappings_refused() -> None:
    src = b"".join(b"  " * i + b"k%d:\n" % i for i in range(300))
    d = one_diag(src)
    assert where(d) == ("L107", 65, 129)
    assert d.pointer == "".join(f"/k{i}" for i in range(64))


def test_depth_limit_is_ours_with_a_location() -> None:
    ok = b"a: " + b"[" * 63 + b"]" * 63 + b"\n"  # the top mapping is level 1
    assert docs(ok)
    d = one_diag(b"a: " + b"[" * 64 + b"]" * 64 + b"\n")
    assert where(d) == ("L107", 1, 67)
    assert one_diag(b"a: [[[x]]]\n", limits=Limits(max_depth=3)).code == "L107"


@pytest.mark.parametrize("depth", [2000, 100_000])
def test_deep_json_refused(depth: int) -> None:
    d = one_diag(b'{"a": ' + b"[" * depth + b"]" * depth + b"}", name="deep.json")
    assert where(d) == ("L107", 1, 7 + 63)
    assert d.pointer == "/a" + "/0" * 63


def test_json_depth_under_recursion_limit_is_ours() -> None:
    d = one_diag(b'{"a": ' + b"[" * 100 + b"]" * 100 + b"}", name="deep.json")
    assert where(d) == ("L107", 1, 70)


# --------------------------------------------------------------------------- streams


def test_yaml_stream_indices_and_lines() -> None:
    src = b"""\
# a comment before the first document
---
a: 1
---
b: 2
...
# between
---
c: 3
"""
    found = docs(src)
    assert [(d.index, d.line, d.data) for d in found] == [
        (0, 3, {"a": 1}),
        (1, 5, {"b": 2}),
        (2, 9, {"c": 3}),
    ]
    assert found[2].locate("/c") == (9, 4)


def test_yaml_stream_with_directives_and_bare_first_document() -> None:
    src = b"a: 1\n%YAML 1.1\n---\nb: 2\n--- {c: 3}\n"
    assert [d.data for d in docs(src)] == [{"a": 1}, {"b": 2}, {"c": 3}]


def test_yaml_stream_problems_carry_their_document() -> None:
    src = b"a: 1\n---\nb: 2\nb: 3\n---\n- x\n---\n---\nd: 1\n"
    out = items(src)
    summary = [
        (x.index, "doc") if isinstance(x, Document) else (x.document, x.code, x.line) for x in out
    ]
    assert summary == [
        (0, "doc"),
        (1, "L104", 4),
        (2, "L110", 6),
        (3, "L109", 8),
        (4, "doc"),
    ]


def test_syntax_error_in_a_stream_ends_only_its_document(both_parsers: str) -> None:
    src = b"a: 1\n---\nb: [1, 2\nc: 3\n---\nd: 4\n"
    out = items(src)
    assert isinstance(out[0], Document)
    assert isinstance(out[1], Diagnostic)
    assert (out[1].code, out[1].document, out[1].line) == ("L103", 1, 4)
    assert isinstance(out[2], Document)
    assert (out[2].index, out[2].data, out[2].line) == (2, {"d": 4}, 6)


def test_stream_read_lazily_from_a_handle() -> None:
    handle = io.BytesIO(RECORD.replace(b"format", b"---\nformat", 1) * 5000)
    stream = load_documents(handle)
    first = next(stream)
    assert isinstance(first, Document)
    assert handle.tell() < len(handle.getvalue()) // 10
    assert sum(1 for _ in stream) == 4999


def test_crlf_and_bare_cr_line_ends() -> None:
    assert [d.data for d in docs(b"a: 1\r\n---\r\nb: x\r\n")] == [{"a": 1}, {"b": "x"}]
    found = docs(b"a: 1\r---\rb: 2\r")
    assert [(d.index, d.data) for d in found] == [(0, {"a": 1}), (1, {"b": 2})]


def test_json_lines_indices_and_lines() -> None:
    src = b'{"a": 1}\n\n   \n{"b": [1, 2]}\n{"c": {"d": "e"}}\n'
    found = docs(src, name="games.jsonl")
    assert [(d.index, d.line, d.format) for d in found] == [(0, 1, "json"), (1, 4, "json"), (2, 5, "json")]
    assert found[1].locate("/b/1") == (4, 11)
    assert found[2].locate("/c/d") == (5, 13)
    assert found[2].locate_key("/c/d") == (5, 8)


def test_json_lines_errors_per_line() -> None:
    src = b'{"a": 1}\n{"a": \n[1]\n{"b": 2}\n'
    out = items(src, name="g.jsonl")
    summary = [
        (x.index, "doc") if isinstance(x, Document) else (x.document, x.code, x.line, x.column)
        for x in out
    ]
    assert summary == [(0, "doc"), (1, "L103", 2, 7), (2, "L110", 3, 1), (3, "doc")]


def test_dot_json_that_is_json_lines_is_accepted() -> None:
    found = docs(b'{"a": 1}\n{"b": 2}\n', name="g.json")
    assert [(d.index, d.data, d.line) for d in found] == [(0, {"a": 1}, 1), (1, {"b": 2}, 2)]


def test_pretty_json_followed_by_more_is_a_syntax_error() -> None:
    d = one_diag(b'{\n  "a": 1\n}\n{"b": 2}\n', name="g.json")
    assert where(d) == ("L103", 4, 1)


def test_sniffing_without_a_name() -> None:
    assert docs(io.BytesIO(b'  \n{"a": [1]}\n'))[0].format == "json"
    assert docs(io.BytesIO(b"\n# c\n{a: [1]}\n"))[0].format == "yaml"
    assert docs(b"a: 1\n")[0].format == "yaml"
    # fmt forces a format; an unknown one is a programming error.
    assert docs(b'{"a": 1}', fmt="jsonl")[0].data == {"a": 1}
    assert docs(b"{a: 1}", fmt="yaml")[0].data == {"a": 1}
    with pytest.raises(ValueError):
        load_documents(b"", fmt="toml")


def test_json_loaded_as_yaml_gives_the_same_data() -> None:
    value = {"a": [1, 2.5, "x", None, True], "b": {"c": "d"}}
    text = json.dumps(value, indent=2).encode()
    assert data(text, fmt="yaml") == data(text, fmt="json") == value


# --------------------------------------------------------------------------- locate


def test_locate_yaml() -> None:
    (doc,) = docs(RECORD)
    assert doc.locate("") == (1, 1)
    assert doc.locate("/variant") == (2, 10)
    assert doc.locate_key("/variant") == (2, 1)
    assert doc.locate("/players/2") == (4, 21)
    assert doc.locate("/hands/0") == (6, 5)
    assert doc.locate("/hands/0/tricks/1/3") == (10, 22)
    assert doc.locate("/hands/0/score/Dot") == (11, 42)
    assert doc.locate_key("/hands/0/score/Dot") == (11, 37)
    # missing: the nearest existing ancestor
    assert doc.locate("/hands/0/trump") == (6, 5)
    assert doc.locate_key("/hands/0/trump") == (6, 5)
    assert doc.locate("/hands/0/tricks/7/0") == (9, 7)
    assert doc.locate("/players/x") == (4, 10)
    assert doc.locate("/variant/deeper") == (2, 10)
    with pytest.raises(ValueError):
        doc.locate("players")


def test_locate_in_a_big_mapping() -> None:
    (doc,) = docs(b"".join(b"k%d: %d\n" % (i, i) for i in range(100)) + b"x: {k50: 0}\n")
    for i in (0, 50, 99):
        assert doc.locate(f"/k{i}") == (i + 1, len(f"k{i}: ") + 1)
        assert doc.locate_key(f"/k{i}") == (i + 1, 1)
    assert doc.locate("/x/k50") == (101, 10)
    assert doc.locate("/nope") == (1, 1)


def test_locate_yaml_in_later_document() -> None:
    found = docs(b"a: 1\n---\n# c\nplayers:\n  - Ann\n  - Ben\n")
    assert found[1].locate("/players/1") == (6, 5)


def test_locate_escaped_pointer_segments() -> None:
    (doc,) = docs(b"'a/b': 1\n'c~d': {e: 2}\n")
    assert doc.locate("/a~1b") == (1, 8)
    assert doc.locate("/c~0d/e") == (2, 12)
    assert parse_pointer("/a~01") == ["a~1"]
    assert escape_segment("a/~b") == "a~1~0b"


def test_locate_json_pretty_and_one_line() -> None:
    value = {"players": ["Ann", "Ben"], "hands": [{"tricks": [["KS", "3S"]]}]}
    pretty = json.dumps(value, indent=2).encode()
    (doc,) = docs(pretty, name="g.json")
    assert doc.locate("/players/1") == (4, 5)
    assert doc.locate("/hands/0/tricks/0/1") == (11, 11)
    assert doc.locate_key("/hands/0/tricks") == (8, 7)
    assert doc.locate("/hands/0/nope") == (7, 5)
    one_line = json.dumps(value).encode()
    (doc,) = docs(one_line, name="g.json")
    assert doc.locate("/players/1") == (1, 21)
    assert doc.locate_key("/hands") == (1, 29)


def test_place_fills_in_the_location() -> None:
    (doc,) = docs(RECORD, name="r.yaml")
    d = doc.place(Diagnostic("S201", "unknown key", pointer="/hands/0/bids"), key=True)
    assert (d.file, d.document, d.line, d.column) == ("r.yaml", 0, 7, 5)


# --------------------------------------------------------------------------- encodings


def test_bom_is_a_warning_and_the_file_loads() -> None:
    out = items(b"\xef\xbb\xbfa: 1\nb: 2\n")
    assert isinstance(out[0], Diagnostic)
    assert (out[0].code, out[0].severity, out[0].line) == ("L111", WARNING, 1)
    assert isinstance(out[1], Document)
    assert out[1].data == {"a": 1, "b": 2}
    assert out[1].locate("/a") == (1, 4)
    out = items(b'\xef\xbb\xbf{"a": 1}', name="g.json")
    assert [type(x) for x in out] == [Diagnostic, Document]


def test_latin1_yaml_is_located() -> None:
    d = one_diag(b"a: 1\nsite: Caf\xe9 du Nord\n")
    assert where(d) == ("L102", 2, 10)


def test_latin1_in_a_stream_spares_the_other_documents() -> None:
    out = items(b"a: 1\n---\nb: \xe9t\xe9\n---\nc: 3\n")
    assert [
        (x.index, "doc") if isinstance(x, Document) else (x.document, x.code, x.line, x.column)
        for x in out
    ] == [(0, "doc"), (1, "L102", 3, 4), (2, "doc")]


def test_latin1_json_and_json_lines() -> None:
    d = one_diag('{\n  "site": "Café"\n}\n'.encode("latin-1"), name="g.json")
    assert where(d) == ("L102", 2, 15)
    out = items('{"a": 1}\n{"a": "é"}\n{"a": 3}\n'.encode("latin-1"), name="g.jsonl")
    assert [type(x).__name__ for x in out] == ["Document", "Diagnostic", "Document"]
    assert where(out[1]) == ("L102", 2, 8)  # type: ignore[arg-type]


def test_utf8_columns_count_characters() -> None:
    (doc,) = docs("site: Café\nx: [é, ü]\n".encode())
    assert doc.locate("/x/1") == (2, 8)


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le"])
def test_utf16_and_utf32_refused(codec: str) -> None:
    for name in ("g.yaml", "g.json", None):
        d = one_diag("a: 1\n".encode(codec), name=name)
        assert where(d) == ("L102", 1, 1)


def test_control_character_is_a_syntax_error(both_parsers: str) -> None:
    d = one_diag("a: é\nb: x\x01y\n".encode())
    assert where(d) == ("L103", 2, 5)


# --------------------------------------------------------------------------- empty, shape


@pytest.mark.parametrize("src", [b"", b"\n\n  \n", b"\xef\xbb\xbf", b"\xef\xbb\xbf\n"])
def test_empty_file(src: bytes) -> None:
    for name in ("e.yaml", "e.json", "e.jsonl", None):
        found = [d for d in diags(src, name=name) if d.code != "L111"]
        assert [where(d) for d in found] == [("L109", 1, 1)]


def test_file_of_comments_is_empty_yaml() -> None:
    for name in ("e.yaml", None):
        assert where(one_diag(b"# only a comment\n\n# another\n", name=name)) == ("L109", 1, 1)


def test_empty_documents() -> None:
    assert where(one_diag(b"---\n")) == ("L109", 2, 1)
    assert [d.code for d in diags(b"---\n# nothing\n---\n...\n")] == ["L109", "L109"]


@pytest.mark.parametrize(
    ("src", "name", "line", "column"),
    [
        (b"- a\n- b\n", "t.yaml", 1, 1),
        (b"just a string\n", "t.yaml", 1, 1),
        (b"# c\n--- 42\n", "t.yaml", 2, 5),
        (b"null\n", "t.yaml", 1, 1),
        (b"\n  [1, 2]\n", "t.json", 2, 3),
        (b'"text"', "t.json", 1, 1),
        (b"3", "t.json", 1, 1),
        (b"null\n", "t.json", 1, 1),
    ],
)
def test_top_level_not_a_mapping(src: bytes, name: str, line: int, column: int) -> None:
    assert where(one_diag(src, name=name)) == ("L110", line, column)


# --------------------------------------------------------------------------- syntax


@pytest.mark.parametrize(
    ("src", "name", "line", "column"),
    [
        (b"a: 1\nb: [1, 2\n", "s.yaml", 3, 1),
        (b"a: 1\n  b: 2\n", "s.yaml", 2, 4),
        (b"a: 'open\n", "s.yaml", 2, 1),
        (b"a:\tb: c\n", "s.yaml", 1, 5),
        (b'{\n  "a": 1,\n}\n', "s.json", 3, 1),
        (b'{"a": tru}', "s.json", 1, 7),
        (b'{"a": 1} x', "s.json", 1, 10),
        (b"{'a': 1}", "s.json", 1, 2),
    ],
)
def test_syntax_errors_are_located(src: bytes, name: str, line: int, column: int) -> None:
    assert where(one_diag(src, name=name)) == ("L103", line, column)


def test_json_nan_and_huge_numbers() -> None:
    assert where(one_diag(b'{"a": NaN}', name="n.json")) == ("L112", 1, 7)
    assert where(one_diag(b'{\n "a": [1, -Infinity]\n}', name="n.json")) == ("L112", 2, 11)
    assert where(one_diag(b'{"a": 1e999}', name="n.json")) == ("L112", 1, 7)
    d = one_diag(b'{"a": [' + b"1" * 5000 + b"]}", name="n.json")
    assert (where(d), d.pointer) == (("L112", 1, 8), "/a/0")


def test_json_lone_surrogate_refused() -> None:
    d = one_diag(b'{"a": ["\\ud800"]}', name="s.json")
    assert (where(d), d.pointer) == (("L112", 1, 8), "/a/0")
    assert data(b'{"a": "\\ud83d\\ude00"}', name="s.json") == {"a": "\U0001f600"}


# --------------------------------------------------------------------------- files, limits


def test_unreadable_files(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    d = one_diag(missing)
    assert (d.code, d.file) == ("L101", str(missing))
    assert one_diag(tmp_path).code == "L101"
    if os.geteuid() != 0:  # root reads anything
        locked = tmp_path / "locked.yaml"
        locked.write_bytes(b"a: 1\n")
        locked.chmod(0)
        assert one_diag(locked).code == "L101"


def test_paths_are_read_and_never_modified(tmp_path: Path) -> None:
    path = tmp_path / "g.yml"
    path.write_bytes(RECORD)
    before = path.stat()
    (doc,) = docs(str(path))
    assert doc.file == str(path)
    assert docs(path, name="shown.yml")[0].file == "shown.yml"
    after = path.stat()
    assert path.read_bytes() == RECORD
    assert (before.st_mtime_ns, before.st_size) == (after.st_mtime_ns, after.st_size)


def test_file_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(RECORD)
    assert one_diag(path, limits=Limits(max_file_bytes=100)).code == "L106"
    # A stream has no size up front: the limit stops it while reading.
    out = items(io.BytesIO(b"a: 1\n---\n" * 1000), limits=Limits(max_file_bytes=2000))
    assert isinstance(out[0], Document)
    assert isinstance(out[-1], Diagnostic) and out[-1].code == "L106"


def test_document_size_limit() -> None:
    limits = Limits(max_document_bytes=200)
    out = items(b"a: 1\n---\nb: '" + b"x" * 500 + b"'\n---\nc: 3\n", limits=limits)
    assert [
        (x.index, "doc") if isinstance(x, Document) else (x.document, x.code, x.line)
        for x in out
    ] == [(0, "doc"), (1, "L106", 2), (2, "doc")]
    out = items(b'{"a": 1}\n{"b": "' + b"x" * 500 + b'"}\n{"c": 3}\n', name="g.jsonl", limits=limits)
    assert [type(x).__name__ for x in out] == ["Document", "Diagnostic", "Document"]
    pretty = b'{\n  "a": "' + b"x" * 500 + b'"\n}\n'
    assert one_diag(pretty, name="g.json", limits=limits).code == "L106"


def test_document_count_limit() -> None:
    out = items(b"a: 1\n---\na: 2\n---\na: 3\n", limits=Limits(max_documents=2))
    assert [type(x).__name__ for x in out] == ["Document", "Document", "Diagnostic"]
    assert (out[2].code, out[2].document) == ("L108", 2)  # type: ignore[union-attr]
    out = items(b'{"a": 1}\n{"a": 2}\n', name="g.jsonl", limits=Limits(max_documents=1))
    assert [x.code for x in out if isinstance(x, Diagnostic)] == ["L108"]


def test_node_count_limit() -> None:
    src = b"a: [" + b", ".join([b"1"] * 100) + b"]\n"
    assert one_diag(src, limits=Limits(max_nodes=50)).code == "L106"
    text = json.dumps({"a": list(range(100))}).encode()
    assert one_diag(text, name="n.json", limits=Limits(max_nodes=50)).code == "L106"


def test_limits_are_checked() -> None:
    with pytest.raises(ValueError):
        Limits(max_depth=5000)
    with pytest.raises(ValueError):
        Limits(max_nodes=0)


class _FailingReader(io.RawIOBase):
    """A binary handle whose read fails after the first bytes."""

    def __init__(self) -> None:
        self.calls = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        self.calls += 1
        if self.calls > 1:
            raise OSError(5, "Input/output error")
        data = b"a: 1\n---\nb: 2\n"
        buffer[: len(data)] = data
        return len(data)


class _Trickle(io.RawIOBase):
    """A pipe that hands over one byte per read."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n = min(1, len(buffer), len(self.data))
        buffer[:n] = self.data[:n]
        self.data = self.data[n:]
        return n


@pytest.mark.parametrize(
    "src", [b'\xef\xbb\xbf{"a": 1}\n{"b": 2}\n', b"\xef\xbb\xbfa: 1\n---\nb: 2\n"]
)
def test_trickling_pipe_is_sniffed_whole(src: bytes) -> None:
    out = items(io.BufferedReader(_Trickle(src), buffer_size=1))
    assert [type(x).__name__ for x in out] == ["Diagnostic", "Document", "Document"]
    assert out[0].code == "L111"  # type: ignore[union-attr]
    lines = [x.line for x in out[1:]]  # type: ignore[union-attr]
    assert lines == ([1, 3] if b"---" in src else [1, 2])


def test_text_handle_is_a_programming_error() -> None:
    with pytest.raises(TypeError):
        load_documents(io.StringIO("a: 1\n"))  # type: ignore[arg-type]


def test_pure_parser_recursion_is_l107(monkeypatch: pytest.MonkeyPatch) -> None:
    # Under the byte-level bound, so composed directly; Python's recursion limit
    # (2 frames a level) comes before a max_depth raised to 1000.
    monkeypatch.setattr(yaml_parser, "USE_LIBYAML", False)
    d = one_diag(b"a: " + b"[" * 499 + b"]" * 499 + b"\n", limits=Limits(max_depth=1000))
    assert d.code == "L107"
    assert d.line == 1 and d.column is not None and d.column > 4
    assert d.pointer.startswith("/a/0/0")


def test_read_error_is_l101() -> None:
    out = items(io.BufferedReader(_FailingReader(), buffer_size=16))
    assert isinstance(out[-1], Diagnostic) and out[-1].code == "L101"


# --------------------------------------------------------------------------- properties

# Printable characters only: YAML (unlike JSON) refuses raw C0/C1 controls and
# DEL, and reads NEL as a line break.
texts = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF, exclude_categories=("Cc",)))
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | texts.filter(lambda t: len(t) <= 8),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(texts.filter(lambda t: len(t) <= 5), children, max_size=4),
    max_leaves=20,
)
records = st.dictionaries(texts.filter(lambda t: 1 <= len(t) <= 5), json_values, max_size=5)


def pointers(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    yield prefix, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from pointers(v, f"{prefix}/{escape_segment(k)}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from pointers(v, f"{prefix}/{i}")


def char_at(text: str, line: int, column: int) -> str:
    return text.split("\n")[line - 1][column - 1]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records, st.sampled_from([None, 2]))
def test_json_round_trip_and_locate(value: dict[str, Any], indent: int | None) -> None:
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    (doc,) = docs(text.encode(), name="p.json")
    assert doc.data == json.loads(text)
    for pointer, v in pointers(value):
        line, column = doc.locate(pointer)
        expected = json.dumps(v, ensure_ascii=False)[0]
        assert char_at(text, line, column) == expected, pointer


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records)
def test_json_text_read_as_yaml_gives_json_data(value: dict[str, Any]) -> None:
    text = json.dumps(value, ensure_ascii=False)
    (doc,) = docs(text.encode(), fmt="yaml")
    assert doc.data == json.loads(text)
    for pointer, v in pointers(value):
        line, column = doc.locate(pointer)
        assert char_at(text, line, column) == json.dumps(v, ensure_ascii=False)[0], pointer


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200), st.sampled_from([None, "x.yaml", "x.json", "x.jsonl"]))
def test_nothing_raises_on_arbitrary_bytes(raw: bytes, name: str | None) -> None:
    for x in load_documents(raw, name=name):
        if isinstance(x, Diagnostic):
            assert not x.extra.get("internal"), x.as_text()
            assert x.code.startswith("L")


yaml_junk = st.lists(
    st.sampled_from(
        ["a:", " b:", "- ", "[", "]", "{", "}", ",", "&x ", "*x", "!!str ", "!t ", "'", '"',
         "---", "...", "%YAML 1.2", "#", "\n", "  ", "? ", ": ", "1", "null", "\t", "\xe9"]
    ),
    max_size=40,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(yaml_junk)
def test_nothing_raises_on_yaml_like_junk(text: str) -> None:
    for x in load_documents(text.encode(), name="j.yaml"):
        if isinstance(x, Diagnostic):
            assert not x.extra.get("internal"), x.as_text()
        else:
            assert isinstance(x.data, dict)
            for pointer, _ in pointers(x.data):
                x.locate(pointer)
                x.locate_key(pointer)


def test_compose_json_positions_match_the_text() -> None:
    text = '{"a": [1, {"b": null}], "c": "d"}'
    root = compose_json(text)
    assert root.start_mark.column == 0
    (_, a), (_, c) = root.value
    assert text[a.start_mark.index] == "["
    assert text[c.start_mark.index] == '"'


# --- a file read in one call, or buffered (record/source.py: open_source) ----------


def _games(n: int, pad: int = 0) -> bytes:
    rec = {"format": "pitch-record/1", "variant": "auction", "players": ["Ann", "Ben"], "hands": [],
           "notes": "x" * pad}
    return b"".join(json.dumps({**rec, "id": str(i)}).encode() + b"\n" for i in range(n))


@pytest.mark.parametrize("size", ["small", "large"])
def test_a_file_reads_the_same_whole_or_buffered(tmp_path: Path, size: str) -> None:
    from pitchcli.record import source

    text = _games(3) if size == "small" else _games(40, pad=3000)  # under, then over the one-call size
    assert (len(text) <= source._WHOLE) == (size == "small")
    path = tmp_path / "games.jsonl"
    path.write_bytes(text)
    docs = list(load_documents(str(path)))
    assert [d.data for d in docs] == [json.loads(line) for line in text.splitlines()]
    assert [d.line for d in docs] == list(range(1, len(docs) + 1))


def test_a_file_that_grows_after_its_size_was_read_is_read_to_its_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pitchcli.record import source

    path = tmp_path / "games.jsonl"
    text = _games(5)
    path.write_bytes(text)
    real = os.fstat

    def earlier(fd: int) -> os.stat_result:  # the size as it was before the last two games were written
        st = real(fd)
        fields = list(st)
        fields[6] = len(_games(3))
        return os.stat_result(fields)

    monkeypatch.setattr(source.os, "fstat", earlier)
    assert [d.data["id"] for d in load_documents(str(path))] == ["0", "1", "2", "3", "4"]


def test_a_short_read_of_a_small_file_loses_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io as io_module

    from pitchcli.record import source

    class Short(io_module.FileIO):
        """A file whose first read gives only part of what was asked (a signal, a
        network file system): the rest must still be read."""

        first = True

        def read(self, n: int = -1) -> bytes | None:
            if Short.first and n > 10:
                Short.first = False
                return super().read(n // 3)
            return super().read(n)

    path = tmp_path / "games.jsonl"
    text = _games(4)
    path.write_bytes(text)
    monkeypatch.setattr(source, "open", lambda name, mode, buffering: Short(name, "rb"), raising=False)
    assert [d.data["id"] for d in load_documents(str(path))] == ["0", "1", "2", "3"]
    assert not Short.first  # (the short read happened)
