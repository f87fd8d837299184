"""Hypothesis strategies for hostile input: files a person or a scraper might
hand to `pitch`, from nearly right to nonsense.

Everything starts from valid records — games made by
``pitchcli.pipeline.simulate.simulate_game(variant, seed=...)`` for every built-in
profile, and the records under ``samples/`` (which add the play and tally
detail levels) — and breaks them:

- **structurally and semantically** (``mutated_records``): drop, duplicate,
  swap and retype keys and values; random and malformed cards; wrong counts of
  cards, tricks and bids; unknown keys and typos; non-string keys; floats where
  integers go; unicode oddities;
- **as text** (``hostile_files``): the record written as YAML (block or flow,
  by PyYAML or by our canonical writer), JSON, JSON Lines or a YAML stream,
  then truncated, spliced with junk bytes, lines duplicated or swapped, YAML
  traps inserted (``no``, dates, ``12:30``, ``017``, ``.inf``, anchors and
  aliases, tags, merge keys, complex keys), re-encoded (Latin-1, UTF-16, a
  BOM); or not a record at all: random bytes, deep nesting, huge lists, alias
  bombs, streams of many documents;
- **partial summaries** for ``pitch merge`` (``partial_files``): the JSON of
  ``pitch summarize --partial``, broken the same ways.

A file strategy yields ``(suffix, bytes)``; the suffix picks the loader's
format (``.txt`` leaves it to sniffing).
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import builtin_profiles
from pitchcli.record.load import load_documents
from pitchcli.record.write import dump, to_json, to_yaml

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = sorted(builtin_profiles())
SEEDS = 64  # simulated games per profile to start from

# --------------------------------------------------------------------------- valid records


@cache
def _simulated(variant: str, seed: int) -> dict[str, Any]:
    return simulate_game(variant, seed=seed)


@cache
def sample_records() -> tuple[dict[str, Any], ...]:
    """Every valid record under samples/ (the invalid ones are not a start)."""
    out = []
    for path in sorted((ROOT / "samples").rglob("*.yaml")):
        if "invalid" in path.parts:
            continue
        out += [d.data for d in load_documents(str(path)) if hasattr(d, "data")]
    return tuple(out)


def valid_records() -> st.SearchStrategy[dict[str, Any]]:
    """A valid record: a simulated game (any profile) or a sample. A fresh copy."""
    simulated = st.builds(_simulated, st.sampled_from(VARIANTS), st.integers(0, SEEDS - 1))
    samples = st.sampled_from(range(len(sample_records()))).map(lambda i: sample_records()[i])
    return st.one_of(simulated, simulated, samples).map(copy.deepcopy)


# --------------------------------------------------------------------------- odd values

UNICODE_ODDITIES = [
    "\u200b",  # zero-width space
    "\u202e",  # right-to-left override
    "\ufeff",  # BOM inside a value
    "e\u0301",  # combining accent (NFD)
    "\u00e9",  # the same, composed (NFC)
    "\U0001f0a1",  # playing card ace of spades
    "\u2660\ufe0f",  # spade symbol + variation selector
    "\u2665",
    "\u0085",  # NEL: a line break to YAML
    "\u2028",  # line separator
    "\u00a0",  # no-break space
    "\x7f",  # DEL
    "\x00",  # NUL
    "\t",
    "\r",
    "\ud800",  # lone surrogate (escaped in JSON, refused in UTF-8)
    "\U0010ffff",
    "K\u0332S",
    "１０Ｈ",  # full-width digits and letter
    "ＡＳ",
]

MALFORMED_CARDS = [
    "1C", "11H", "0S", "TS", "ts", "10h", "AS ", " AS", "A S", "A♠", "♠A", "10", "S", "",
    "XX", "JJ", "BJ", "LJ", "bj", "RJ", "Joker", "AH,KH", "A", "AAS", "1OH", "l0H", "ΑS",
    "A\u200bS", "10\ufe0fH", "QD\n", "KS#", "!KS", "*KS", "&a KS", "null", "~", "-", "[AS]",
]
CARDS = [r + s for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
YAML11_STRINGS = ["no", "NO", "yes", "on", "off", "y", "n", "2026-11-28", "12:30", "017", "0x1F",
                  "1_000", "1e3", "1.5e+3", ".inf", "-.inf", ".nan", "~", "null", "true", "<<", "="]

huge_ints = st.sampled_from([2**31, 2**63, -(2**63) - 1, 10**30, 10**400])
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-20, 60),
    huge_ints,
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.5, 1.0, 2.0, -0.0, 1e-300, 1e308]),
    st.text(max_size=12),
    st.sampled_from(UNICODE_ODDITIES),
    st.sampled_from(MALFORMED_CARDS),
    st.sampled_from(YAML11_STRINGS),
    st.sampled_from(CARDS),
    st.sampled_from(["pass", "PASS", "Pass", "Ann", "Ben", "Cal", "Dot", "Eve", "x-note", "S", "h", "♣"]),
)
odd_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)

KEY_TYPOS = ["trikcs", "Tricks", "tricks ", "deal_", "bid", "dealr", "plyers", "hand", "resutl", "scores",
             "varient", "fromat", "x-", "x-note", "X-note", "", " ", "lead ", "card", "cards", "players"]


# --------------------------------------------------------------------------- mutations of data


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path (keys and indices) in a record, the root first."""
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*path, i))
    return out


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        node = node[p]
    return node


def _set(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(root, path[:-1])[path[-1]] = value
    return root


def _delete(root: Any, path: tuple[Any, ...]) -> None:
    if path:
        del _get(root, path[:-1])[path[-1]]


class _Key:
    """A mapping key that is not a string (YAML gives these: ``1:``, ``null:``)."""


# Integers a record may hold that no game reaches (issue 27: a target above
# 6e9 or of 4,300 digits crashed chart and report): the loader keeps up to 4,300 digits.
HUGE_INTS = st.one_of(
    st.sampled_from([6 * 10**9 + 1, 2**63, 10**308 + 1, 10**4300 - 1, -(10**4300 - 1), 0, -1]),
    st.integers(min_value=-(10**4300 - 1), max_value=10**4300 - 1),
)


@st.composite
def mutated_record(draw: st.DrawFn, record: dict[str, Any] | None = None) -> Any:
    """A valid record broken in 1 to 4 places."""
    rec = record if record is not None else draw(valid_records())
    for _ in range(draw(st.integers(1, 4))):
        paths = _paths(rec)
        path = paths[draw(st.integers(0, len(paths) - 1))]
        target = _get(rec, path)
        parent = _get(rec, path[:-1]) if path else None
        op = draw(st.sampled_from([
            "drop", "drop", "retype", "retype", "card", "card", "swap", "dup", "grow", "shrink",
            "typo", "nonstr_key", "float", "float", "unicode", "hostile", "empty", "wrap", "shuffle", "cut_list",
            "huge", "target",
        ]))
        if op == "drop" and path:
            _delete(rec, path)
        elif op == "retype":
            rec = _set(rec, path, draw(odd_values))
        elif op == "card":
            rec = _set(rec, path, draw(st.sampled_from(MALFORMED_CARDS + CARDS)))
        elif op == "swap":
            other = paths[draw(st.integers(0, len(paths) - 1))]
            if path and other and not _prefix(path, other) and not _prefix(other, path):
                a, b = _get(rec, path), _get(rec, other)
                _set(rec, path, copy.deepcopy(b))
                _set(rec, other, copy.deepcopy(a))
        elif op == "dup" and isinstance(parent, list):
            parent.insert(path[-1], copy.deepcopy(target))
        elif op == "dup" and isinstance(target, list) and target:
            target.append(copy.deepcopy(target[draw(st.integers(0, len(target) - 1))]))
        elif op == "grow" and isinstance(target, list):
            target.extend(draw(st.lists(st.one_of(st.sampled_from(CARDS), scalars), max_size=8)))
        elif op == "grow" and isinstance(target, dict):
            target.update(draw(st.dictionaries(st.sampled_from(KEY_TYPOS) | st.text(max_size=5),
                                               odd_values, max_size=3)))
        elif op == "shrink" and isinstance(target, list | dict) and target:
            keys = list(target) if isinstance(target, dict) else list(range(len(target)))
            del target[keys[draw(st.integers(0, len(keys) - 1))]]
        elif op == "typo" and isinstance(parent, dict):
            parent[draw(st.sampled_from(KEY_TYPOS))] = parent.pop(path[-1])
        elif op == "nonstr_key" and isinstance(target, dict):
            key = draw(st.one_of(st.integers(-3, 12), st.none(), st.booleans(), st.floats(-2, 2),
                                 st.just(1.5e300)))
            target[key] = draw(odd_values)
        elif op == "float" and isinstance(target, int) and not isinstance(target, bool) and abs(target) < 1 << 1000:
            # (not an integer made "huge" earlier: it has no float to be written as)
            rec = _set(rec, path, draw(st.sampled_from([float(target), target + 0.5, -float(target)])))
        elif op == "hostile" and isinstance(target, str):
            rec = _set(rec, path, draw(hostile_text()))
        elif op == "hostile" and isinstance(target, dict) and target:
            key = next(iter(target))
            target[draw(hostile_text())] = target.pop(key)
        elif op == "unicode" and isinstance(target, str):
            odd = draw(st.sampled_from(UNICODE_ODDITIES))
            at = draw(st.integers(0, len(target)))
            rec = _set(rec, path, target[:at] + odd + target[at:])
        elif op == "unicode" and isinstance(target, dict) and target:
            key = next(iter(target))
            target[key + draw(st.sampled_from(UNICODE_ODDITIES))] = target.pop(key)
        elif op == "empty":
            rec = _set(rec, path, draw(st.sampled_from([[], {}, "", None])))
        elif op == "wrap":
            rec = _set(rec, path, draw(st.sampled_from([[target], {"cards": target}, {"x": target}])))
        elif op == "shuffle" and isinstance(target, list) and len(target) > 1:
            rec = _set(rec, path, draw(st.permutations(target)))
        elif op == "huge" and isinstance(target, int) and not isinstance(target, bool):
            rec = _set(rec, path, draw(HUGE_INTS))
        elif op == "target" and isinstance(rec, dict):
            rules = rec.get("rules") if isinstance(rec.get("rules"), dict) else {}
            rec["rules"] = {**rules, "target": draw(HUGE_INTS)}
        elif op == "cut_list" and isinstance(target, list):
            rec = _set(rec, path, target[: draw(st.integers(0, len(target)))])
    return rec


def _prefix(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return b[: len(a)] == a


# --------------------------------------------------------------------------- serializing


def _jsonable(value: Any) -> Any:
    """JSON can't hold every odd key: a non-string key becomes its text."""
    if isinstance(value, dict):
        return {k if isinstance(k, str) else json.dumps(k) if k is None or isinstance(k, bool)
                else str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return value




def serialize(data: Any, how: str) -> tuple[str, bytes]:
    """One record as a file: ``(suffix, bytes)``."""
    if how == "json":
        return ".json", json.dumps(_jsonable(data), ensure_ascii=False, indent=2).encode("utf-8", "surrogatepass")
    if how == "json-ascii":
        return ".json", json.dumps(_jsonable(data), indent=1).encode()
    if how == "jsonl":
        line = json.dumps(_jsonable(data), ensure_ascii=False).encode("utf-8", "surrogatepass")
        return ".jsonl", line + b"\n" + line + b"\n"
    if how == "canonical-yaml" and isinstance(data, dict):
        try:
            return ".yaml", to_yaml(data).encode("utf-8", "surrogatepass")
        except Exception:
            pass
    if how == "canonical-json" and isinstance(data, dict):
        try:
            return ".json", to_json(data).encode("utf-8", "surrogatepass")
        except Exception:
            pass
    flow = how == "yaml-flow"
    try:
        # libyaml's emitter: the pure-Python one costs 0.2 s on a long game.
        text = yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=how != "yaml-ascii",
                         default_flow_style=True if flow else None, width=80)
    except Exception:  # a value libyaml can't write (a lone surrogate): as JSON, which YAML reads too
        text = json.dumps(_jsonable(data), ensure_ascii=False)
    if how == "yaml-stream":
        text = "---\n" + text + "---\n" + text
    return ".yaml", text.encode("utf-8", "surrogatepass")


_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

SERIALIZERS = ["yaml", "yaml", "yaml-flow", "yaml-ascii", "yaml-stream", "canonical-yaml", "json",
               "json-ascii", "jsonl", "canonical-json"]


# --------------------------------------------------------------------------- text-level breakage

YAML_TRAPS = [
    b"dealer: no", b"date: 2026-11-28", b"round: 12:30", b"table: 017", b"round: 1_000", b"round: 1.5e+3",
    b"round: .inf", b"round: .nan", b"x-a: &a [AS, KS]", b"x-b: *a", b"x-c: *nope", b"<<: {dealer: Ann}",
    b"<<: *a", b"? [a, b]\n: 1", b"? {a: 1}\n: 2", b"!!python/object:os.system {}", b"x-t: !!binary aGk=",
    b"x-t: !!timestamp 2026-11-28", b"x-t: !local 1", b"x-t: !!int 0x1F", b"x-t: !!float abc",
    b"%YAML 1.1", b"%TAG ! tag:x,2000:", b"---", b"...", b"--- !!map", b"x-s: |\n  text", b"x-s: >-\n  a\n  b",
    b"  - [AS, KS, QS", b"{", b"}", b"]", b"'", b'"', b"\t- tab", b"dealer: Ann\ndealer: Ben",
    b"players: [Ann, Ann, Ben]", b"null: 1", b"1: 2", b"true: 3", b"~: 4", b"x-deep: " + b"[" * 80 + b"]" * 80,
    b"x-e: \"\\ud800\"", b"x-e: \"\\x00\"", b"# comment \xff", b"x-l: caf\xe9",
    # (issue 11) floats where integers go, as YAML spells them; comments in odd places
    b"round: 2.0", b"round: 2e0", b"round: !!float 2", b"table: -0.0", b"target: 7.0", b"bids: [pass, 2.0]",
    b"score: {Ann: 1e0}", b"# \x1b[2J\xe2\x80\xae", b"  # indented comment", b"x-c: 1  # end of line",
]
JUNK = [b"\x00", b"\xff", b"\xfe\xff", b"\xef\xbb\xbf", b"\xc3", b"\xe2\x82", b"\r", b"\r\n", b"\x1b[31m",
        b"\x85", b"\xe2\x80\xa8", b"\t", b"\x0c", b"\\", b"*", b"&", b"!", b"%", b"@", b"`", b"|", b">",
        b"?", b":", b"-", b"#", b",", b"[", b"]", b"{", b"}", b"'", b'"', b"\n---\n", b"\n...\n"]


COMMENT_ODDITIES = [bytes([c]) for c in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F)] + [
    "\x85".encode(), "\x9b".encode(), "\ufeff".encode(), "\ufffe".encode(), "\u2028".encode(), b"\x1b[2J"]


# Pieces of YAML text where two parsers' readings have been seen to part: marks,
# indicators, quotes, escapes, colons, flow brackets, block scalar headers,
# document markers, Unicode spaces; put together at random into documents of
# lines of random indentation (``yaml_pieces``).
YAML_PIECES = [
    "a", "Ann", "x1", "7", "-3", "0", "é", "Zoë", " ", "!", "&", "*", "%", "?", "|", ">", ".", ")", "(", '"', "'",
    "\\", "\\xEB", "\\u0141", "\\x41", "\\uD83D", "#", ":", ": ", "-", "- ", ",", ", ", "[", "]", "{", "}", "? ",
    "@", "`", "~", "null", "true", "no", "1.5", "1e3", "0x1", "&a", "*a", "!t", "!!str", "<<", "...", "---",
    "Ann & Cal", " & ", "&&", "|-", ">+", "|2", "k: ", "'q': ", '"q": ', "k:", "\u00a0", "\u3000", "\u2003",
    "\\n", '\\"', "\\\\", "/", ':"', "\\t", "3:\\n", "http://",
]


@st.composite
def yaml_pieces(draw: st.DrawFn) -> bytes:
    """A document of 1 to 6 lines, each indented 0 to 4 spaces, most of them
    a key or an item, and made of ``YAML_PIECES``; LF or CRLF line ends."""
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        start = " " * draw(st.integers(0, 4)) + draw(st.sampled_from(["k: ", "k: ", "- ", "x: [", "x: {", ""]))
        lines.append(start + "".join(draw(st.lists(st.sampled_from(YAML_PIECES), min_size=1, max_size=4))))
    text = "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n"]))
    return text.replace("\n", draw(st.sampled_from(["\n", "\r\n"]))).encode()


@st.composite
def broken_text(draw: st.DrawFn, raw: bytes) -> bytes:
    """``raw`` damaged in 1 to 3 ways, as files get damaged."""
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["truncate", "truncate", "insert", "delete", "dup_line", "swap_lines",
                                   "trap", "trap", "flip", "indent", "latin1", "utf16", "bom", "crlf",
                                   "tabs", "nul", "comment"]))
        n = len(raw)
        at = draw(st.integers(0, n))
        if op == "truncate":
            raw = raw[:at]
        elif op == "insert":
            raw = raw[:at] + draw(st.sampled_from(JUNK) | st.binary(min_size=1, max_size=8)) + raw[at:]
        elif op == "delete":
            raw = raw[:at] + raw[at + draw(st.integers(1, 40)):]
        elif op in ("dup_line", "swap_lines", "trap", "indent") and raw:
            lines = raw.split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            if op == "dup_line":
                lines.insert(i, lines[i])
            elif op == "swap_lines":
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            elif op == "trap":
                indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
                lines.insert(i, indent + draw(st.sampled_from(YAML_TRAPS)))
            else:
                lines[i] = b" " * draw(st.integers(1, 5)) + lines[i]
            raw = b"\n".join(lines)
        elif op == "flip" and raw:
            i = min(at, n - 1)
            raw = raw[:i] + bytes([raw[i] ^ (1 << draw(st.integers(0, 7)))]) + raw[i + 1:]
        elif op == "latin1":
            raw = raw.decode("utf-8", "replace").encode("latin-1", "replace")
        elif op == "utf16":
            raw = raw.decode("utf-8", "replace").encode(draw(st.sampled_from(["utf-16", "utf-16-le", "utf-32"])))
        elif op == "bom":
            raw = b"\xef\xbb\xbf" + raw
        elif op == "crlf":
            raw = raw.replace(b"\n", draw(st.sampled_from([b"\r\n", b"\r"])))
        elif op == "tabs":
            raw = raw.replace(b"  ", b"\t")
        elif op == "nul":
            raw = raw[:at] + b"\x00" * draw(st.integers(1, 4)) + raw[at:]
        elif op == "comment" and raw:
            # a comment holding a character YAML forbids, or any (issue 27: fmt's comment scanner crashed)
            lines = raw.split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            odd = draw(st.sampled_from(COMMENT_ODDITIES) | st.characters(codec="utf-8").map(str.encode))
            lines.insert(i, b"# note " + odd + b" here")
            raw = b"\n".join(lines)
    return raw


# --------------------------------------------------------------------------- not a record at all


def alias_bomb(levels: int, width: int) -> bytes:
    """A "billion laughs": each level an anchored list of ``width`` aliases of the one before."""
    lines = [b"format: pitch-record/1", b"x-0: &a0 [lol]"]
    for i in range(1, levels + 1):
        refs = b", ".join([b"*a%d" % (i - 1)] * width)
        lines.append(b"x-%d: &a%d [%s]" % (i, i, refs))
    return b"\n".join(lines) + b"\n"


def deep_flow(depth: int, opener: bytes = b"[", closer: bytes = b"]") -> bytes:
    return b"x: " + opener * depth + closer * depth + b"\n"


def deep_block(depth: int) -> bytes:
    return b"".join(b"  " * i + b"k%d:\n" % i for i in range(depth)) + b"  " * depth + b"end\n"


def deep_json(depth: int) -> bytes:
    return b'{"x": ' + b"[" * depth + b"]" * depth + b"}"


def huge_list(n: int, json_form: bool = False) -> bytes:
    if json_form:
        return b'{"format": "pitch-record/1", "players": [' + b", ".join([b'"AS"'] * n) + b"]}"
    return b"format: pitch-record/1\nplayers: [" + b", ".join([b"AS"] * n) + b"]\n"


def many_documents(n: int, json_lines: bool = False) -> bytes:
    if json_lines:
        return b'{"format": "pitch-record/1"}\n' * n
    return b"---\nformat: pitch-record/1\n" * n


@st.composite
def monstrous(draw: st.DrawFn) -> tuple[str, bytes]:
    """Small-scale versions of the limits' hostile files (the full-size ones
    are in test_limits.py)."""
    kind = draw(st.sampled_from(["bomb", "flow", "flow-map", "block", "json", "list", "list-json",
                                 "stream", "jsonl", "selfref"]))
    if kind == "bomb":
        return ".yaml", alias_bomb(draw(st.integers(1, 9)), draw(st.integers(1, 9)))
    if kind == "flow":
        return ".yaml", deep_flow(draw(st.integers(1, 1500)))
    if kind == "flow-map":
        d = draw(st.integers(1, 600))
        return ".yaml", b"x: " + b"{a: " * d + b"1" + b"}" * d + b"\n"
    if kind == "block":
        return ".yaml", deep_block(draw(st.integers(1, 300)))
    if kind == "json":
        return draw(st.sampled_from([".json", ".jsonl", ".txt"])), deep_json(draw(st.integers(1, 3000)))
    if kind == "list":
        return ".yaml", huge_list(draw(st.integers(0, 5000)))
    if kind == "list-json":
        return ".json", huge_list(draw(st.integers(0, 5000)), json_form=True)
    if kind == "stream":
        return ".yaml", many_documents(draw(st.integers(0, 200)))
    if kind == "jsonl":
        return ".jsonl", many_documents(draw(st.integers(0, 200)), json_lines=True)
    return ".yaml", b"x: &a [*a]\nformat: pitch-record/1\n"


# --------------------------------------------------------------------------- files

SUFFIXES = [".yaml", ".yml", ".json", ".jsonl", ".ndjson", ".txt"]


@st.composite
def record_files(draw: st.DrawFn) -> tuple[str, bytes]:
    """A record file: valid, broken in its data, broken as text, or both."""
    data = draw(st.one_of(valid_records(), mutated_record(), mutated_record(), renamed_record()))
    suffix, raw = serialize(data, draw(st.sampled_from(SERIALIZERS)))
    if draw(st.booleans()):
        raw = draw(broken_text(raw))
    if draw(st.integers(0, 9)) == 0:
        suffix = draw(st.sampled_from(SUFFIXES))
    return suffix, raw


def hostile_files() -> st.SearchStrategy[tuple[str, bytes]]:
    """Any file a command might be handed: mostly broken records, sometimes
    random bytes, random text, or a small monster."""
    random_bytes = st.tuples(st.sampled_from(SUFFIXES), st.binary(max_size=300))
    random_text = st.tuples(st.sampled_from(SUFFIXES),
                            st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")))
    return st.one_of(
        record_files(), record_files(), record_files(), record_files(), record_files(), record_files(),
        random_bytes, random_text, monstrous(),
    )


# --------------------------------------------------------------------------- partial summaries


@cache
def _partial(variant: str, seed: int, broken: bool) -> dict[str, Any]:
    """The partial summary of one simulated game (plus, when ``broken``, one
    invalid record), as ``pitch summarize --partial`` writes it."""
    from pitchcli.pipeline.check import check_source
    from pitchcli.views.summary import Summary

    s = Summary()
    rec = _simulated(variant, seed)
    for c in check_source(f"{variant}-{seed}.yaml", dump([rec], "yaml").encode()):
        s.add_checked(c)
    if broken:
        bad = copy.deepcopy(rec)
        bad["hands"][0]["dealer"] = "Nobody"
        for c in check_source("bad.yaml", dump([bad], "yaml").encode()):
            s.add_checked(c)
    return json.loads(json.dumps(s.to_json()))


def valid_partials() -> st.SearchStrategy[dict[str, Any]]:
    return st.builds(_partial, st.sampled_from(VARIANTS), st.integers(0, 7), st.booleans()).map(copy.deepcopy)


@st.composite
def partial_files(draw: st.DrawFn) -> tuple[str, bytes]:
    """A partial summary file: valid, broken in its data, broken as text, or junk."""
    kind = draw(st.sampled_from(["valid", "mutated", "mutated", "mutated", "text", "bytes", "other"]))
    if kind == "bytes":
        return ".json", draw(st.binary(max_size=200))
    if kind == "other":
        # A record or a report where a partial summary goes.
        return draw(record_files())
    data = draw(valid_partials())
    if kind == "mutated":
        data = draw(mutated_record(data))
    raw = json.dumps(_jsonable(data), ensure_ascii=draw(st.booleans()), allow_nan=True).encode("utf-8",
                                                                                                "surrogatepass")
    if kind == "text":
        raw = draw(broken_text(raw))
    return ".json", raw


# --------------------------------------------------------------------------- text that reaches a reader
# (issue 11) Control characters, bidi controls, separators, terminal escapes,
# spreadsheet formula prefixes and Markdown/HTML, for every string field a
# person writes: players, team names, event, site, id, round, table, notes.

CONTROLS = [chr(c) for c in range(0x20)] + ["\x7f"] + [chr(c) for c in range(0x80, 0xA0)] + [
    "\u061c", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067",
    "\u2068", "\u2069", "\u2028", "\u2029", "\ufeff",
    "\x1b[2J", "\x1b[31m", "\x1b]52;c;SGVsbG8=\x07", "\x1b]8;;http://e.x\x1b\\", "\r\n", "\nx.yaml:1:1: R407 fake",
]
FORMULA_PREFIXES = ["=", "+", "-", "@", "\t", "\r", '=HYPERLINK("http://e.x","x")', "-1+1", "+1", "@SUM(A1)",
                    "=cmd|' /C calc'!A0", "-3", "-2.5"]
MARKUP = ["|", "||", "<b>", "</td>", "<script>alert(1)</script>", "&amp;", "`", "*", "_", "[x](javascript:y)",
          "\n- ", "# ", "\\", '"', "'", ": ", " #", "---", "...", "{", "[", "&a", "*a", "!!str", "%YAML"]
_ODD_TEXT = [u for u in UNICODE_ODDITIES if not ("\ud800" <= u <= "\udfff")]


@st.composite
def hostile_text(draw: st.DrawFn) -> str:
    """Text that would break a terminal, a spreadsheet, a Markdown table or a
    YAML writer: pieces of the lists above mixed with arbitrary text."""
    pieces = st.one_of(st.text(max_size=5), st.sampled_from(CONTROLS), st.sampled_from(FORMULA_PREFIXES),
                       st.sampled_from(MARKUP), st.sampled_from(_ODD_TEXT))
    return "".join(draw(st.lists(pieces, min_size=1, max_size=4)))


def _renamed(v: Any, names: dict[str, str]) -> Any:
    if isinstance(v, str):
        return names.get(v, v)
    if isinstance(v, list):
        return [_renamed(x, names) for x in v]
    if isinstance(v, dict):
        return {names.get(k, k): _renamed(x, names) for k, x in v.items()}
    return v


@st.composite
def renamed_record(draw: st.DrawFn, text: st.SearchStrategy[str] | None = None) -> dict[str, Any]:
    """A valid record whose players, team names, event, site, id, round, table
    and notes are hostile text (``text``, by default ``hostile_text``); still
    valid, so every command shows or writes it."""
    text = hostile_text() if text is None else text
    rec = draw(valid_records())
    old = list(rec["players"]) + list(rec.get("teams") or {})
    new = draw(st.lists(text.filter(lambda s: s and not s.startswith("x-") and s not in old),
                        min_size=len(old), max_size=len(old), unique=True))
    rec = _renamed(rec, dict(zip(old, new, strict=True)))
    for key in ("event", "site", "id", "notes", "round", "table"):
        if draw(st.booleans()):
            rec[key] = draw(text)
    for h in rec["hands"]:
        if draw(st.integers(0, 3)) == 0:
            h["notes"] = draw(text)
    if draw(st.booleans()):
        rec["x-" + draw(text)] = draw(text)
    return rec

# What a human-readable output (or a written record) never holds raw: C0 but the
# newline, DEL, C1, the bidi controls, the separators, the BOM.
RAW_UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
# --------------------------------------------------------------------------- streams for --jobs

# How long a long comment or line may get (PITCH_JOBS_LONG, bytes): past the
# loader's 64 KiB line pieces by default, so a line is read in several pieces.
LONG_LINE = int(os.environ.get("PITCH_JOBS_LONG", "70000"))
LINE_ENDS = ["\n", "\n", "\r\n", "\r"]


@cache
def _small_records() -> tuple[str, ...]:
    """Small valid records as YAML (the samples with the fewest bytes)."""
    names = ("auction-tally.yaml", "auction-play.yaml", "auction-full.yaml")
    return tuple((ROOT / "samples" / n).read_text(encoding="utf-8") for n in names)


@st.composite
def adversarial_streams(draw: st.DrawFn, max_documents: int = 6) -> tuple[str, bytes]:
    """A YAML stream or JSON Lines file made to be cut wrongly: ``%YAML``
    directives before long comment blocks, ``...`` ends, comments after a
    document, BOMs (at the start, and at the start of a later line), CR-only
    and CRLF line ends, blank lines, long lines, an invalid document."""
    records = _small_records()
    docs = draw(st.lists(st.sampled_from([*range(len(records)), -1]), min_size=1, max_size=max_documents))
    end = draw(st.sampled_from(LINE_ENDS))
    long_block = st.integers(60, 90).map(lambda n: "".join(f"# {'c' * 70} {i}\n" for i in range(n)))
    comment = st.one_of(
        st.integers(0, 3).map(lambda n: "# note\n" * n),
        st.integers(1, 80).map(lambda n: "".join(f"# {'c' * 70} {i}\n" for i in range(n))),
        long_block, long_block,  # > 4 KB: a directive this far from its "---" was cut off
        st.just("# " + "L" * LONG_LINE + "\n"),
        st.just("\ufeff# a byte-order mark at a line start\n"),
        st.just("\n\n"),
    )
    if draw(st.booleans()):
        lines = []
        for k in docs:
            if k < 0:
                lines.append('{"format": "pitch-record/1", "variant": "auction", "players": [1]}')
            else:
                data = yaml.safe_load(records[k])
                if draw(st.booleans()):
                    data["x-pad"] = "p" * draw(st.sampled_from([10, LONG_LINE]))
                lines.append(json.dumps(data))
            lines.append(draw(st.sampled_from(["", "", "\n", "  \n"])).rstrip("\n"))
        text = "\n".join(lines) + "\n"
        suffix = ".jsonl"
    else:
        parts = []
        for i, k in enumerate(docs):
            if draw(st.booleans()):
                parts.append("%YAML 1.1\n")
            parts.append(draw(comment))
            body = records[k] if k >= 0 else "format: pitch-record/1\nplayers: [a, b\n"
            parts.append(body if i == 0 and draw(st.booleans()) else "---\n" + body)
            parts.append(draw(st.sampled_from(["", "...\n", "# after\n", draw(comment)])))
        text = "".join(parts)
        suffix = ".yaml"
    if end != "\n":
        text = text.replace("\n", end)
    if draw(st.booleans()):
        text = "\ufeff" + text
    return suffix, text.encode("utf-8")


# --------------------------------------------------------------------------- trees of files

TREE_ENTRIES = ["record", "fifo", "link-file", "link-folder", "loop", "dangling", "hard-link", "socket"]


def build_tree(root: Path, entries: list[str], raw: bytes, suffix: str) -> None:
    """A folder holding ``raw`` as a record file, plus what a folder walk must
    not hang on nor count twice: FIFOs, sockets, links to files and folders,
    link loops, dangling links and hard links (each named with a record suffix)."""
    import socket

    inner = root / "inner"
    inner.mkdir(parents=True, exist_ok=True)
    (inner / f"record{suffix}").write_bytes(raw)
    for i, kind in enumerate(entries):
        name = root / f"{kind}-{i}{suffix}"
        if kind == "record":
            name.write_bytes(raw)
        elif kind == "fifo":
            os.mkfifo(name)
        elif kind == "link-file":
            name.symlink_to(inner / f"record{suffix}")
        elif kind == "link-folder":
            (root / f"linked-{i}").symlink_to(inner)
        elif kind == "loop":
            (inner / f"up-{i}").symlink_to(root)
        elif kind == "dangling":
            name.symlink_to(root / "nowhere")
        elif kind == "hard-link":
            os.link(inner / f"record{suffix}", name)
        elif kind == "socket" and len(str(name)) < 100:
            s = socket.socket(socket.AF_UNIX)
            s.bind(str(name))
            s.close()


def trees() -> st.SearchStrategy[list[str]]:
    """What a folder holds besides records (see ``build_tree``)."""
    return st.lists(st.sampled_from(TREE_ENTRIES), min_size=1, max_size=6)


class Hung(AssertionError):
    """A command did not end within its time."""


@contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail (``Hung``) instead of hanging: SIGALRM interrupts a command blocked
    in open() on a FIFO, or waiting on a lost worker (PEP 475: the handler's
    exception ends the system call)."""
    import signal

    def ring(signum: int, frame: Any) -> None:
        raise Hung(f"still running after {seconds} s")
    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# --------------------------------------------------------------------------- names, ways in, impossible sums
# (issue 27) File names are text from the user too; the same file reached by
# two ways; an output that is an input; partial summaries whose sums no game
# can give.


@st.composite
def hostile_file_names(draw: st.DrawFn) -> str:
    """A file name (no ``/``, no NUL, at most 200 bytes) holding controls,
    escapes, bidi controls, a forged diagnostic line or markup."""
    piece = st.one_of(st.sampled_from(CONTROLS + MARKUP + _ODD_TEXT), st.text(max_size=8))
    name = "".join(draw(st.lists(piece, min_size=1, max_size=4)))
    name = name.replace("/", "_").replace("\x00", "_")
    name = name.encode("utf-8", "surrogateescape")[:200].decode("utf-8", "ignore") or "x"
    return "n" + name  # (never . or .., never hidden)


# How the same file is reached more than once, or written over.
WAYS_IN = ["once", "named twice", "folder and file", "file and folder", "folder and subfolder", "hard link",
           "link"]


# The sums no game can give (views/partial.py), each a change to a valid partial.
def _tallies(d: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for ev in d["events"] for t in ev["players"].values()]


def _impossible(kind: str, n: int) -> Any:
    def change(d: dict[str, Any]) -> bool:
        players = _tallies(d)
        if not players and kind not in ("rows twice", "files"):
            return False
        if kind == "all win":
            for t in players:
                t["wins"] = t["games"]
        elif kind == "many players":
            ev = next(ev for ev in d["events"] if ev["players"])
            model = next(iter(ev["players"].values()))
            for i in range(8 * ev["games"] + n):
                ev["players"][f"X{i}"] = dict(model, wins=0, bids=0, made=0, set=0, bid_total=0)
        elif kind == "award":
            key = ("high", "low", "jack", "game", "taken")[n % 5]
            for t in players:
                t[key] = t["hands"] * (10 if key == "taken" else 1) + 1
        elif kind == "bid total":
            for t in players:
                if t["bids"]:
                    t["bid_total"] = t["bids"] - 1 - n % max(t["bids"], 1)
            return any(t["bids"] for t in players)
        elif kind == "score":
            players[n % len(players)]["score"] = 10 * players[n % len(players)]["hands"] + 1 + n
        elif kind == "bidders":
            t = players[n % len(players)]
            t.update(bids=t["bids"] + 1 + n, made=t["made"] + 1 + n, hands=t["hands"] + 1 + n)
        elif kind == "rows twice":
            if not d["games"]:
                return False
            d["games"].append(dict(d["games"][n % len(d["games"])]))
        elif kind == "files":
            d["files"] = sorted(set(d["files"]) | {f"extra-{i}.yaml" for i in range(n + 1 + d["counts"]["documents"])})
        return True
    return change


IMPOSSIBLE_KINDS = ["all win", "many players", "award", "bid total", "score", "bidders", "rows twice", "files"]


@st.composite
def impossible_partials(draw: st.DrawFn) -> dict[str, Any]:
    """A partial summary that passes its schema and can't be true."""
    d = draw(valid_partials())
    kind = draw(st.sampled_from(IMPOSSIBLE_KINDS))
    assume_changed = _impossible(kind, draw(st.integers(0, 50)))(d)
    if not assume_changed:
        from hypothesis import assume
        assume(False)
    return d
