"""The JSON loader's fast path: limits read from the text instead of a walk of the data.

``pitchcli.record.json_limits.json_within`` decides from the text whether a JSON
document may exceed ``max_depth`` or ``max_nodes``; only then is the data
walked (``check_json``), which finds the problem and where. These tests hold
the fast path to the walk: it may send a text to the walk that is fine, but it
must never let through one the walk refuses; and the diagnostics at the edges
of the limits are the walk's, whichever path a text takes.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitchcli.diagnostics import Diagnostic
from pitchcli.record import json_read
from pitchcli.record.json_limits import json_plain, json_within
from pitchcli.record.load import Document, Limits, load_documents

EXAMPLES = int(os.environ.get("PITCH_FUZZ_CI_EXAMPLES", "100"))


def _load(text: str, **limits: int) -> list[Document | Diagnostic]:
    return list(load_documents(text.encode("utf-8"), name="f.json", limits=Limits(**limits)))


def _diag(text: str, **limits: int) -> tuple[str, str, int | None, int | None]:
    (d,) = _load(text, **limits)
    assert isinstance(d, Diagnostic), d
    return d.code, d.pointer, d.line, d.column


def _loaded(text: str, **limits: int) -> Any:
    (doc,) = _load(text, **limits)
    assert isinstance(doc, Document), doc.as_text()
    return doc.data


def _height(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_height(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_height(v) for v in value), default=0)
    return 0


def _values(value: Any) -> int:
    """What ``check_json`` counts: 1 per collection and 1 per item of one."""
    if isinstance(value, dict):
        return 1 + len(value) + sum(_values(v) for v in value.values())
    if isinstance(value, list):
        return 1 + len(value) + sum(_values(v) for v in value)
    return 0


def _lists(depth: int) -> str:
    return '{"a": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"


def _maps(depth: int) -> str:
    return '{"k": ' * (depth - 1) + "{}" + "}" * (depth - 1)


# --------------------------------------------------------------------------- the edges


@pytest.mark.parametrize("nest", [_lists, _maps], ids=["lists", "mappings"])
def test_depth_at_the_limit_loads_and_one_more_is_l107(nest: Any) -> None:
    assert _loaded(nest(64))
    code, pointer, line, _ = _diag(nest(65))
    assert (code, line) == ("L107", 1)
    assert pointer.count("/") == 64
    assert _loaded(nest(5), max_depth=5)
    assert _diag(nest(6), max_depth=5)[0] == "L107"


def test_deep_lists_behind_strings_of_closing_brackets_are_still_found() -> None:
    # Brackets inside strings are not structure: counted naively, "]]]]" would
    # close the levels that are really open.
    text = '{"a": ["]]]]]]]]", "\\"]]]]", "\\\\", ' + "[" * 70 + "]" * 70 + "]}"
    code, pointer, line, column = _diag(text)
    assert (code, line, column) == ("L107", 1, text.index("[" * 63) + 63)
    assert pointer == "/a/3" + "/0" * 62


@pytest.mark.parametrize("pad", ["", '"\\\\", '], ids=["plain", "after escaped backslashes"])
def test_brackets_in_strings_that_pair_up_do_not_hide_a_level(pad: str) -> None:
    # Read as structure, the "]" would close the list "a" and the "[" open a
    # new one, so the 63 levels inside would look one level shallower: 64.
    nest = "[" * 63 + "]" * 63
    text = '{"a": [' + pad + '"]", ' + pad + nest + ", " + pad + '"[", ' + pad + '"x"]}'
    code, pointer, line, column = _diag(text)
    assert (code, line, column) == ("L107", 1, text.index(nest) + 63)
    assert pointer == f"/a/{3 if pad else 1}" + "/0" * 62


def test_strings_of_opening_brackets_do_not_make_a_record_deep() -> None:
    text = '{"a": "' + "[" * 200 + '", "b": ["{{{{", "\\"[[[", "\\\\[\\\\"]}'
    assert _loaded(text) == {"a": "[" * 200, "b": ["{{{{", '"[[[', "\\[\\"]}


def test_values_at_the_limit_load_and_one_more_is_l106() -> None:
    # {"a": [0, ..., n-1]} counts 1 + 1 + (1 + n) values.
    at_limit = json.dumps({"a": list(range(47))})
    assert _values(json.loads(at_limit)) == 50
    assert _loaded(at_limit, max_nodes=50)
    over = json.dumps({"a": list(range(48))})
    assert _diag(over, max_nodes=50)[:2] == ("L106", "/a")


def test_a_text_longer_than_max_nodes_with_few_values_loads() -> None:
    # More characters than max_nodes (the cheap bound fails) but few values.
    text = json.dumps({"a": "x" * 500, "b": [1, 2, 3]})
    assert _loaded(text, max_nodes=20) == {"a": "x" * 500, "b": [1, 2, 3]}


def test_a_record_takes_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 10-hand record has far more than 64 brackets, yet is not walked."""
    record = {"format": "pitch-record/1", "players": ["Ann", "Ben"],
              "hands": [{"bids": [2, "pass"], "tricks": [["AS", "KS"]] * 6} for _ in range(10)]}

    def walked(*args: Any) -> None:
        raise AssertionError("the data was walked")

    monkeypatch.setattr(json_read, "check_json", walked)
    assert _loaded(json.dumps(record)) == record
    assert _loaded(json.dumps(record, indent=2)) == record


# --------------------------------------------------------------------------- against the walk

_TRICKY = st.text(alphabet='[]{}"\\,: ab\u00e9', max_size=8)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | _TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TRICKY, inner, max_size=4),
    max_leaves=40,
)


@settings(max_examples=EXAMPLES * 3, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(body=st.dictionaries(_TRICKY, _JSON, max_size=4), indent=st.sampled_from([None, 1]),
       ascii_only=st.booleans(), max_depth=st.integers(1, 8), max_nodes=st.integers(1, 80))
def test_the_fast_path_never_passes_what_the_walk_refuses(
    body: dict[str, Any], indent: int | None, ascii_only: bool, max_depth: int, max_nodes: int
) -> None:
    text = json.dumps(body, indent=indent, ensure_ascii=ascii_only)
    within = json_within(text, max_depth, max_nodes)
    fine = _height(body) <= max_depth and _values(body) <= max_nodes
    assert fine == json_plain(body, max_depth, max_nodes)  # the helpers count as the walk
    if within:
        assert fine
    if not any(set(s) & set('"\\[]{}') for s in _strings(body)) and len(text) <= max_nodes:
        # Without brackets, quotes or backslashes in its strings a text is read
        # exactly: the walk is skipped for every text within the limits.
        assert within == fine


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [*value, *(s for v in value.values() for s in _strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


# --------------------------------------------------------------------------- YAML: plain scalars in line


def _yaml(src: bytes, **limits: int) -> list[Any]:
    out = load_documents(src, name="f.yaml", limits=Limits(**limits))
    return [("doc", x.data, x.floats) if isinstance(x, Document) else (x.code, x.line, x.column, x.pointer)
            for x in out]


@pytest.mark.parametrize("brackets", ["[]", "{}"], ids=["list", "mapping"])
def test_yaml_values_at_the_limit_load_and_the_next_one_is_l106_where_it_is(brackets: str) -> None:
    # The top mapping, "a" and 48 items are 50 values (keys are not counted).
    def src(n: int) -> bytes:
        items = [f"k{i}: 10H" if brackets == "{}" else "KS" for i in range(n)]
        return f"a: {brackets[0]}{', '.join(items)}{brackets[1]}\n".encode()

    assert _yaml(src(48), max_nodes=50)[0][0] == "doc"
    last = src(49).decode().rindex("10H" if brackets == "{}" else "KS")
    pointer = "/a/k48" if brackets == "{}" else "/a/48"
    assert _yaml(src(49), max_nodes=50) == [("L106", 1, last + 1, pointer)]


def test_yaml_aliases_of_plain_scalars_are_refused_in_lists_and_mappings() -> None:
    assert _yaml(b"a: [x, &y z, *y]\n") == [("L105", 1, 14, "/a/2")]
    assert _yaml(b"a: {b: &y z, c: *y}\n") == [("L105", 1, 17, "/a/c")]


def test_yaml_floats_are_flagged_in_every_document_that_has_one() -> None:
    # A resolved text is remembered across documents; a float's flag is not.
    src = b"a: [1.5, 10H, 2]\nb: {c: 3}\n---\na: [1.5]\n---\na: [10H, 2]\n"
    assert [(x[0], x[2]) for x in _yaml(src)] == [("doc", True), ("doc", True), ("doc", False)]
    assert _yaml(src)[0][1] == {"a": [1.5, "10H", 2], "b": {"c": 3}}
