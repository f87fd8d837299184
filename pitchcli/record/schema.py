"""The JSON Schema of ``pitch-record/1`` and validation of a loaded document.

``validate(data)`` returns every schema problem of one document as a
``Diagnostic`` (codes S201..S206) with the JSON Pointer of the value; the caller
turns the pointer into a line and column.

Two backends sit behind the same schema:

* ``jsonschema_rs`` (compiled, optional): about 0.01 ms per record. It answers
  only "valid or not": a valid record, the common case, never touches Python
  validation at all.
* ``jsonschema.Draft202012Validator`` (the reference): 2-6 ms per record. It
  explains an invalid record, so codes and messages are the same whichever
  backends are installed.

``PITCHCLI_SCHEMA_BACKEND=jsonschema|rs|auto`` (default ``auto``) forces a
backend: ``jsonschema`` skips the compiled check, ``rs`` fails loudly when
``jsonschema_rs`` is missing instead of quietly running slower.
"""

from __future__ import annotations

import copy
import datetime
import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # jsonschema is imported only to explain an invalid record (start-up time)
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

from pitchcli.cards import NOTATIONS, CardError
from pitchcli.diagnostics import Diagnostic
from pitchcli.escape import quote
from pitchcli.packaged import data_text
from pitchcli.record import rs
from pitchcli.suggest import did_you_mean

SCHEMA_ID = "urn:pitchcli:schema:pitch-record:1"
SCHEMA_RESOURCE = "pitch-record-1.schema.json"  # in pitchcli/data/
FORMAT = "pitch-record/1"
BACKEND_ENV = "PITCHCLI_SCHEMA_BACKEND"
BACKENDS = ("auto", "jsonschema", "rs")

Path = tuple[str | int, ...]


# --------------------------------------------------------------------------
# The schema and the two validators, each built once per process.


@cache
def _schema_text() -> str:
    return data_text(SCHEMA_RESOURCE)


@cache
def _schema() -> dict[str, Any]:
    # The validators' private copy: nobody else gets this object, so nobody can
    # mutate it under a compiled validator (fastjsonschema, for one, does).
    return json.loads(_schema_text())


def load_schema() -> dict[str, Any]:
    """The schema of ``pitch-record/1`` (a fresh copy the caller may change)."""
    return copy.deepcopy(_schema())


def _whole_number(checker: Any, value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# One number policy: where the format means an integer (bids, scores, totals,
# targets, counts), only an integer is. JSON Schema's "integer" also admits a
# number with a zero fraction (2.0, 2e0, !!float 2), which then reached the
# summary's Fractions and the partial files as 9.0; this type checker doesn't.
@cache
def strict_validator() -> type[Draft202012Validator]:
    """Draft 2020-12 whose "integer" is a whole number only (built on first
    use: jsonschema is imported only to explain an invalid document)."""
    from jsonschema import Draft202012Validator
    from jsonschema.validators import extend

    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole_number)
    return extend(Draft202012Validator, type_checker=checker)  # type: ignore[no-any-return]


def has_float(data: Any) -> bool:
    """True when a float is anywhere in ``data``. The compiled validator can't
    tell 2.0 from 2, so a document holding a float is judged by the strict
    reference validator (a float is legal only in an ``x-`` extension)."""
    stack = [data]
    while stack:
        v = stack.pop()
        if type(v) is dict:
            stack.extend(v.values())
        elif type(v) is list:
            stack.extend(v)
        elif type(v) is float:
            return True
    return False


@cache
def _reference() -> Draft202012Validator:
    # Built once per process (MEASURED.md: 30+ ms when built per call). Resolving
    # a $ref is most of jsonschema's cost per card, so this validator gets a copy
    # with the local '#/$defs/...' references inlined: about 25% faster, and no
    # `referencing.Registry` needed. The shipped schema keeps its $defs.
    schema = _schema()
    return strict_validator()(_inline_refs(schema, schema.get("$defs", {})))


def _inline_refs(node: Any, defs: dict[str, Any], depth: int = 0) -> Any:
    """``node`` with every ``{"$ref": "#/$defs/NAME", ...}`` replaced by the definition
    merged with the sibling keywords (the same meaning in 2020-12, where $ref is an
    applicator like any other, as long as the keywords don't clash)."""
    if depth > 32:
        raise ValueError("recursive $defs in the schema: they can't be inlined")
    if isinstance(node, list):
        return [_inline_refs(item, defs, depth) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _inline_refs(value, defs, depth) for key, value in node.items() if key != "$ref"}
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and ref[8:] in defs:
        target = _inline_refs(defs[ref[8:]], defs, depth + 1)
        clash = (set(target) & set(out)) - {"description", "title", "$comment"}
        if clash:
            raise ValueError(f"can't inline {ref}: both sides set {sorted(clash)}")
        return {**target, **out}
    if ref is not None:
        out["$ref"] = ref
    return out


# The schema ends its patterns with "(?!\n)$" for Python's re, whose "$" also
# matches before a final newline ("AS\n" would pass as a card). jsonschema_rs
# runs a pattern with a look-around on fancy-regex's backtracking VM, and the
# card pattern is matched on every card of a record: with it the compiled check
# took 3x as long (issue 22: 0.141 s against 0.043 s for 2,000 Auction games).
# The regex crate's "$" matches only at the very end of the text (as ECMA-262's
# does), so for it the plain "$" says the same thing and keeps the fast engine.
# tests/record/test_schema.py holds each rewritten pattern to Python's reading.
PYTHON_END = "(?!\\n)$"
PLAIN_END = "$"


def rust_patterns(node: Any) -> Any:
    """``node`` (a schema) with every pattern's ``(?!\\n)$`` written ``$``: the same
    language under jsonschema_rs, on its fast regex engine."""
    if isinstance(node, list):
        return [rust_patterns(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: rust_patterns(value) for key, value in node.items()}
    pattern = out.get("pattern")
    if isinstance(pattern, str) and pattern.endswith(PYTHON_END):
        out["pattern"] = pattern[: -len(PYTHON_END)] + PLAIN_END
    return out


# A card's pattern is matched on every card of a record, and jsonschema_rs's
# regex engine costs some 20 ns a call whatever the pattern: it was more than
# half of the compiled check (issue 22: 22.8 against 12.9 us for an Auction
# game, 57.8 against 31.0 for ten-point), where an ``enum`` of strings is a set
# look-up. The pattern's language is exactly the card parser's spellings
# (tests/record/test_schema.py holds the two to each other), so for
# jsonschema_rs the card is written as those spellings: the same verdict, read
# from the one table of notations. jsonschema keeps the pattern, whose failure
# it explains in words.


def compiled_schema(node: dict[str, Any]) -> dict[str, Any]:
    """The schema as jsonschema_rs checks it: ``rust_patterns``, and the card
    (``$defs/card``) as the ``enum`` of every spelling the card parser takes."""
    out = rust_patterns(node)
    out["$defs"]["card"] = {"enum": sorted(NOTATIONS)}
    return out


@cache
def _compiled() -> Any | None:
    """The jsonschema_rs validator, or None when the package is not installed."""
    jsonschema_rs = rs.jsonschema_rs()
    if jsonschema_rs is None:
        return None
    # No `format` keyword in the schema, so format validation stays off.
    return jsonschema_rs.Draft202012Validator(compiled_schema(_schema()))


def _backend() -> str:
    choice = os.environ.get(BACKEND_ENV, "auto").strip().lower() or "auto"
    if choice not in BACKENDS:
        raise ValueError(f"{BACKEND_ENV} must be one of {', '.join(BACKENDS)}, not {choice!r}")
    return choice


def _fast() -> Any | None:
    """The compiled validator to try first, or None to go straight to jsonschema."""
    choice = _backend()
    if choice == "jsonschema":
        return None
    compiled = _compiled()
    if compiled is None and choice == "rs":
        raise RuntimeError(
            f"{BACKEND_ENV}=rs but jsonschema_rs is not installed "
            "(pip install 'pitchcli[fast]', or use auto)"
        )
    return compiled


def backend_name() -> str:
    """Which backend decides that a valid record is valid: ``"jsonschema_rs"`` or
    ``"jsonschema"``. (Diagnostics always come from ``jsonschema``.)"""
    return "jsonschema" if _fast() is None else "jsonschema_rs"


def _fast_verdict(data: Any) -> bool | None:
    """The compiled validator's verdict, or None when there is none to be had."""
    fast = _fast()
    if fast is None:
        return None
    try:
        return bool(fast.is_valid(data))
    except (ValueError, TypeError, OverflowError, RecursionError):
        # jsonschema_rs raises on values JSON has no type for (a YAML date, a
        # set) and on numbers beyond 64 bits: let the reference backend say so.
        return None


def is_valid(data: Any) -> bool:
    """True when ``data`` matches the schema (the fast path of ``validate``)."""
    verdict = _fast_verdict(data)
    if verdict is not None and not (verdict and has_float(data)):
        return verdict
    return not validate(data)  # (rare: values jsonschema_rs can't read)


def validate(data: Any, floats: bool | None = None) -> list[Diagnostic]:
    """Every schema problem of one loaded document, in document order.

    ``floats`` is the loader's word on whether the data holds a float (None:
    look); a float where an integer belongs is an error (S203).

    Returns ``[]`` for a valid document. Each diagnostic has a code S201..S206,
    the JSON Pointer of the value (of the unknown key itself for S201, of the
    mapping for S202), and the hand and trick numbers (1-based) when it lies
    inside one.
    """
    verdict = _fast_verdict(data)
    if verdict and not (has_float(data) if floats is None else floats):
        return []
    try:
        # jsonschema crashes on a key that isn't text (YAML reads `3:`, `null:`
        # and `no:` keys as numbers, null and booleans): report and rename them.
        keys: list[tuple[Path, Diagnostic]] = []
        data = _text_keys(data, (), keys)
        # Explained as they come: each jsonschema error (3-4 KB, with its
        # context) is freed once it is a diagnostic, not kept for the whole list.
        out = _translate(data, _reference().iter_errors(data), keys)
    except RecursionError:
        return [Diagnostic(code="S206", message="the document nests too deeply to be checked")]
    if not out and verdict is False:
        # The backends disagree (a regex dialect difference, say): never call a
        # document valid that one of them rejects.
        out = _from_compiled(data)
    return out


# --------------------------------------------------------------------------
# From jsonschema errors to diagnostics.


def pointer(path: Sequence[str | int]) -> str:
    """The JSON Pointer (RFC 6901) of a path: '~' -> '~0', '/' -> '~1'."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _text_keys(node: Any, path: Path, out: list[tuple[Path, Diagnostic]]) -> Any:
    """``node`` with every mapping key that isn't text turned into text (a copy
    only where one is needed), with an S203 for each such key in ``out``."""
    if isinstance(node, list):
        items = [_text_keys(item, (*path, i), out) for i, item in enumerate(node)]
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    if not isinstance(node, dict):
        return node
    copied: dict[str, Any] = {}
    changed = False
    for key, value in node.items():
        if isinstance(key, str):
            # The content of an extension is free, and not looked into.
            new = value if key.startswith("x-") else _text_keys(value, (*path, key), out)
            changed = changed or new is not value
            copied[key] = new
            continue
        text, kind = _key_text(key)
        out.append(_diag(
            "S203",
            f"the key {text} in {_container(path)} is read as {kind}, not as text: "
            "put it in quotes",
            (*path, text), "type", key=text,
        ))
        copied[text] = _text_keys(value, (*path, text), out)
        changed = True
    return copied if changed else node


def _key_text(key: Any) -> tuple[str, str]:
    """A key that isn't text: the text it was probably written as, and what it is."""
    if isinstance(key, bool):
        # YAML 1.1 reads yes/no/on/off as booleans too: name them in the advice.
        return ("true" if key else "false"), "true or false (as are yes, no, on and off)"
    if key is None:
        return "null", "null (as is ~)"
    if isinstance(key, int | float):
        return str(key), "a number"
    return str(key), f"a value of type {type(key).__name__}"


def _translate(
    data: Any, errors: Iterable[ValidationError], first: Sequence[tuple[Path, Diagnostic]] = ()
) -> list[Diagnostic]:
    found: list[tuple[Path, Diagnostic]] = list(first)
    # A key that wasn't text is reported once, as such, not also as unknown.
    seen: set[tuple[str, str, Any]] = {("S201", d.pointer, None) for _, d in first}
    for error in errors:
        for path, diag in _explain(error):
            # One jsonschema error may cover several keys (additionalProperties,
            # required) and two errors may cover the same key: one diagnostic each.
            mark = (diag.code, diag.pointer, diag.extra.get("key"))
            if mark not in seen:
                seen.add(mark)
                found.append((path, diag))
    positions: dict[int, dict[Any, int]] = {}
    found.sort(key=lambda item: _document_order(data, item[0], positions))
    return [diag for _, diag in found]


def _explain(error: ValidationError) -> Iterator[tuple[Path, Diagnostic]]:
    path: Path = tuple(error.absolute_path)
    value = error.instance
    keyword = error.validator
    schema = error.schema if isinstance(error.schema, dict) else {}

    if keyword in ("anyOf", "oneOf"):
        # A wall of alternatives helps nobody: explain the one most likely meant.
        from jsonschema.exceptions import best_match

        best = best_match([error])
        if best is not error:
            yield from _explain(best)
            return
    if keyword == "additionalProperties" and isinstance(value, dict):
        for key in _unknown_keys(value, schema):
            yield _diag("S201", _unknown_key_message(key, path, schema), (*path, key), keyword)
        return
    if keyword == "not" and error.validator_value == {} and path:
        # `key: {"not": {}}`: a known key that doesn't go with another one.
        yield _diag("S206", _forbidden_key_message(path), path, keyword)
        return
    if keyword == "required" and isinstance(value, dict):
        for key in error.validator_value:
            if key not in value:
                yield _diag(
                    "S202", _missing_key_message(key, path, schema), path, keyword, key=key
                )
        return
    if keyword == "type":
        yield _diag("S203", _type_message(value, error.validator_value, path, schema), path, keyword)
        return
    if keyword == "uniqueItems" and isinstance(value, list):
        for index in _duplicates(value):
            yield _diag(
                "S204",
                f"{_quote(value[index])} appears twice in {_place(path)}; "
                "each must be different",
                (*path, index),
                keyword,
            )
        return
    if keyword in ("enum", "const", "pattern", "minLength", "maxLength", "minimum", "maximum",
                   "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
        yield _diag("S204", _value_message(error, path, schema), path, keyword)
        return
    if keyword in ("minItems", "maxItems", "minProperties", "maxProperties"):
        yield _diag("S205", _count_message(error, path), path, keyword)
        return
    yield _diag("S206", f"{_place(path)}: {error.message}", path, str(keyword))


def _diag(code: str, message: str, path: Path, keyword: str, **extra: Any) -> tuple[Path, Diagnostic]:
    hand, trick = _hand_trick(path)
    details = {"keyword": keyword, **extra}
    return path, Diagnostic(
        code=code, message=message, pointer=pointer(path), hand=hand, trick=trick, extra=details
    )


def _hand_trick(path: Path) -> tuple[int | None, int | None]:
    hand = trick = None
    if len(path) >= 2 and path[0] == "hands" and isinstance(path[1], int):
        hand = path[1] + 1
        if len(path) >= 4 and path[2] == "tricks" and isinstance(path[3], int):
            trick = path[3] + 1
    return hand, trick


def _unknown_keys(value: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    known = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    return [
        key for key in value
        if key not in known and not any(re.search(p, str(key)) for p in patterns)
    ]


def _duplicates(items: list[Any]) -> list[int]:
    """Indices of the items equal to an earlier one, in linear time (a list of
    100,000 copies of one name must not take 10^10 comparisons). Lists and
    mappings are compared through a hashable copy with the same equality."""
    seen: set[Any] = set()
    out = []
    for i, item in enumerate(items):
        key = _hashable(item)
        if key in seen:
            out.append(i)
        else:
            seen.add(key)
    return out


def _hashable(value: Any) -> Any:
    """``value`` with lists as tuples and mappings as frozensets of pairs: equal
    (and equally hashed) exactly when the values are equal."""
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return frozenset((k, _hashable(v)) for k, v in value.items())
    return value


# --------------------------------------------------------------------------
# Messages a player understands.

# Per mapping, the noun for one of its keys.
_KEY_NOUN = {"rules": "rule option"}
_SUB_NOUN = {
    "contract": "the contract",
    "partner": "the partner",
    "points": "the points",
    "score": "the score",
    "totals": "the totals",
    "deal": "the deal",
    "draws": "the draws",
    "discards": "the discards",
    "kitty": "the kitty",
    "dead": "the dead cards",
    "bids": "the bids",
    "tricks": "the tricks",
}
_TALLY = {"high", "low", "jack", "game"}
_CARD_LISTS = {"kitty", "dead", "cards"}
_CARD_MAPS = {"deal", "draws", "discards"}
_TYPE_WORDS = {
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "array": "a list",
    "object": "a mapping",
    "boolean": "true or false",
    "null": "null",
}


def _place(path: Path) -> str:
    """Where a value is, in words: 'card 2 of trick 3 in hand 1'."""
    if not path:
        return "the game"
    head, rest = path[0], path[1:]
    if head == "hands" and rest and isinstance(rest[0], int):
        return _place_in_hand(rest[0] + 1, rest[1:])
    if head == "players" and rest:
        return f"player {_index(rest[0])} of 'players'"
    if head == "teams" and len(rest) == 1:
        return f"team {quote(rest[0])}"
    if head == "teams" and len(rest) == 2:
        return f"member {_index(rest[1])} of team {quote(rest[0])}"
    if head == "rules" and len(rest) == 1:
        return f"rule option {quote(rest[0])}"
    if head == "rules" and len(rest) == 2:
        return f"item {_index(rest[1])} of rule option {quote(rest[0])}"
    if head == "result" and rest:
        if rest[0] == "scores" and len(rest) == 2:
            return f"the final score of {quote(rest[1])} in 'result'"
        return f"{quote(rest[-1])} in 'result'"
    if len(path) == 1:
        return quote(head)
    return _generic(path)


def _place_in_hand(hand: int, rest: Path) -> str:
    where = f"hand {hand}"
    if not rest:
        return where
    key, sub = rest[0], rest[1:]
    if not sub:
        return f"{quote(key)} in {where}"
    if key == "tricks" and isinstance(sub[0], int):
        trick = f"trick {sub[0] + 1}"
        inner = sub[1:]
        if not inner:
            return f"{trick} of {where}"
        if isinstance(inner[0], int):
            return f"card {inner[0] + 1} of {trick} in {where}"
        if inner[0] == "cards" and len(inner) == 2:
            return f"card {_index(inner[1])} of {trick} in {where}"
        return f"{quote(inner[0])} of {trick} in {where}"
    if key == "bids" and len(sub) == 1:
        return f"call {_index(sub[0])} in {where}"
    if key in _CARD_LISTS and len(sub) == 1:
        return f"card {_index(sub[0])} of {_SUB_NOUN[str(key)]} in {where}"
    if key in _CARD_MAPS:
        if len(sub) == 1:
            return f"{_SUB_NOUN[str(key)]} of {sub[0]} in {where}"
        return f"card {_index(sub[1])} of {_SUB_NOUN[str(key)]} of {sub[0]} in {where}"
    if key == "partner" and sub[0] == "cards" and len(sub) == 2:
        return f"called card {_index(sub[1])} in {where}"
    if key in ("score", "totals", "points") and len(sub) == 1 and sub[0] not in _TALLY:
        return f"the {key} of {quote(sub[0])} in {where}"
    if key in _SUB_NOUN and len(sub) == 1:
        return f"{quote(sub[0])} of {_SUB_NOUN[str(key)]} in {where}"
    return f"{_generic(rest)} in {where}"


def _generic(path: Path) -> str:
    return "'" + "/".join(str(p) for p in path) + "'"


def _container(path: Path) -> str:
    """A mapping, named for 'unknown key ... in X' and 'missing key ... in X'."""
    if not path:
        return "the game"
    if path[0] == "hands" and len(path) == 2:
        return f"hand {_index(path[1])}"
    if path[0] == "hands" and len(path) == 3 and path[2] in _SUB_NOUN:
        return f"{_SUB_NOUN[str(path[2])]} of hand {_index(path[1])}"
    if path == ("rules",):
        return "'rules'"
    if path == ("result",):
        return "'result'"
    return _place(path)


def _index(i: str | int) -> str:
    return str(i + 1) if isinstance(i, int) else str(i)


def _quote(value: Any) -> str:
    if isinstance(value, str):
        return quote(value)
    return json.dumps(value) if _jsonable(value) else repr(value)


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _unknown_key_message(key: str, path: Path, schema: dict[str, Any]) -> str:
    noun = _KEY_NOUN.get(str(path[-1]) if path else "", "key")
    known = list(schema.get("properties", {}))
    message = f"unknown {noun} {quote(key)} in {_container(path)}"
    import difflib  # only for a record with a problem (start-up)

    close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
    if close:
        return f"{message}; did you mean {quote(close[0])}?"
    if known:
        message += f"; allowed: {', '.join(known)}"
    return message + " (keys beginning with 'x-' are free for your own use)"


def _missing_key_message(key: str, path: Path, schema: dict[str, Any]) -> str:
    message = f"missing key {quote(key)} in {_container(path)}"
    if path and path[-1] == "partner" and key == "card":
        return message + " (or 'cards' when several cards are called)"
    if path and path[-1] == "points" and key in ("jack", "game"):
        return message + f" (write {key}: null when nobody won it)"
    description = schema.get("properties", {}).get(key, {}).get("description", "")
    # The first sentence of the schema's own description says what the key is for.
    first = description.split(". ")[0].rstrip(".")
    return f"{message}: {first[0].lower()}{first[1:]}" if first else message


def _forbidden_key_message(path: Path) -> str:
    key = path[-1] if path else "?"
    where = _container(path[:-1])
    if key == "card":
        return (
            f"'card' and 'cards' both in {where}: write 'card' for one called card "
            "or 'cards' for several, not both"
        )
    if key == "player":
        return (
            f"'player' doesn't go with 'cards' in {where}: with several called cards, "
            "name the partners with 'players'"
        )
    if key == "players":
        return f"'players' goes with 'cards' in {where}: with one called card, write 'player'"
    return f"key {quote(key)} is not allowed here ({where})"


def _found(value: Any) -> str:
    if value is None:
        return "null (nothing)"
    if isinstance(value, bool):
        return f"{'true' if value else 'false'}"
    if isinstance(value, datetime.date):
        # PyYAML reads an unquoted 2026-11-26 as a date (MEASURED.md).
        return f"a date ({value.isoformat()}); put it in quotes to keep it as text"
    if isinstance(value, int):
        return f"a number ({value})"
    if isinstance(value, float):
        return f"a decimal number ({value})"
    if isinstance(value, str):
        return f"text ({quote(value)})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"a value of type {type(value).__name__}"


def _type_message(value: Any, expected: Any, path: Path, schema: dict[str, Any]) -> str:
    title = schema.get("title")
    where = _place(path)
    if title == "card":
        return _card_message(value, path)
    if title == "call":
        return f"{where} must be 'pass' or a whole number (a bid), not {_found(value)}"
    if title == "trick":
        return (
            f"{where} must be a list of cards, or a mapping {{lead: NAME, cards: [...]}}, "
            f"not {_found(value)}"
        )
    kinds = [expected] if isinstance(expected, str) else list(expected)
    wanted = " or ".join(_TYPE_WORDS.get(k, k) for k in kinds)
    return f"{where} must be {wanted}, not {_found(value)}"


def _card_message(value: Any, path: Path) -> str:
    # The same advice as the card parser's own error (CARD-3), with the place.
    hint = str(CardError(value)).partition(": ")[2]
    shown = quote(value) if isinstance(value, str) else _found(value)
    return f"{shown} is not a card ({_place(path)}): {hint}"


def _value_message(error: ValidationError, path: Path, schema: dict[str, Any]) -> str:
    keyword, value, allowed = error.validator, error.instance, error.validator_value
    where = _place(path)
    title = schema.get("title")
    if title == "card":
        return _card_message(value, path)
    if title == "suit":
        return f"{quote(value)} is not a suit ({where}): write S, H, D or C, or a suit symbol ♠ ♥ ♦ ♣"
    if title == "call":
        # "pas" or "pss" is a pass mistyped: say so rather than only how to write one.
        return (f"{_quote(value)} is not a call ({where}): write pass or a whole number (a bid)"
                f"{did_you_mean(value, ['pass'])}")
    if title == "date":
        return f"{quote(value)} is not a date ({where}): write YYYY-MM-DD, such as \"2026-11-26\""
    if title == "player name" and keyword == "pattern":
        return (
            f"{quote(value)} may not be a player name ({where}): names beginning with 'x-' "
            "would read as extension keys"
        )
    if keyword == "const" and path == ("format",):
        return f"{_quote(value)} is not a format this toolkit reads: write 'format: {FORMAT}'"
    if keyword == "enum":
        choices = [str(c) for c in allowed]
        import difflib  # only for a record with a problem (start-up)

        close = difflib.get_close_matches(str(value), choices, n=1, cutoff=0.6)
        noun = "variant" if path == ("variant",) else "value"
        message = f"unknown {noun} {_quote(value)} for {where}"
        if close:
            message += f"; did you mean {quote(close[0])}?"
        return message + f" (one of: {', '.join(choices)})"
    if keyword == "const":
        return f"{where} must be {_quote(allowed)}, not {_quote(value)}"
    if keyword == "minLength":
        return f"{where} may not be empty"
    if keyword in ("minimum", "exclusiveMinimum"):
        return f"{_quote(value)} is too small for {where} (the least is {allowed})"
    if keyword in ("maximum", "exclusiveMaximum"):
        return f"{_quote(value)} is too large for {where} (the most is {allowed})"
    return f"{where}: {error.message}"


def _count_message(error: ValidationError, path: Path) -> str:
    keyword, value, limit = error.validator, error.instance, error.validator_value
    where = _place(path)
    noun = "item" if keyword in ("minItems", "maxItems") else "key"
    have = len(value) if isinstance(value, list | dict) else 0
    if path == ("players",):
        return f"'players' lists {have} name(s); a game has 2 to 8 players"
    bound = "at least" if keyword.startswith("min") else "at most"
    if have == 0:
        return f"{where} is empty; it needs {bound} {limit} {noun}(s)"
    return f"{where} has {have} {noun}(s); it needs {bound} {limit}"


# --------------------------------------------------------------------------
# Order and the rare fallback.


def _document_order(data: Any, path: Path, positions: dict[int, dict[Any, int]] | None = None) -> tuple[int, ...]:
    """Positions along ``path`` (key order in mappings), so diagnostics read top down.
    ``positions`` caches each mapping's key positions (by id) across calls: a
    mapping with many unknown keys is indexed once, not scanned per key."""
    key: list[int] = []
    node = data
    for part in path:
        if isinstance(node, dict):
            index = positions.get(id(node)) if positions is not None else None
            if index is None:
                index = {k: i for i, k in enumerate(node)}
                if positions is not None:
                    positions[id(node)] = index
            key.append(index.get(part, len(node)))
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            key.append(part)
            node = node[part]
        else:
            key.append(0)
            node = None
    return tuple(key)


_RS_CODES = {
    "AdditionalProperties": "S201",
    "Required": "S202",
    "Type": "S203",
    "Enum": "S204",
    "Constant": "S204",
    "Pattern": "S204",
    "MinLength": "S204",
    "Minimum": "S204",
    "Maximum": "S204",
    "UniqueItems": "S204",
    "MinItems": "S205",
    "MaxItems": "S205",
}


def _from_compiled(data: Any) -> list[Diagnostic]:
    """Diagnostics from jsonschema_rs, used only if jsonschema finds nothing wrong."""
    compiled = _compiled()
    if compiled is None:
        return []
    out = []
    for error in compiled.iter_errors(data):
        path = tuple(error.instance_path)
        code = _RS_CODES.get(type(error.kind).__name__, "S206")
        out.append(_diag(code, f"{_place(path)}: {error.message}", path, "jsonschema_rs")[1])
    return out
