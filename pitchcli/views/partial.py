"""Partial summaries are input too: their schema, then the sums no schema can check.

``pitch merge`` reads files it did not write (edited by hand, cut short, made
by another program). Before a partial summary is used it must match its JSON
Schema (``schemas/pitch-summary-partial-1.schema.json``: every count a whole
number from 0 to 2^53 - 1, no float, no unknown key) and be consistent: no
more wins than games, made + set = bids, the documents the sum of the valid
and invalid ones, each event once... ``problem(data)`` names the first value
that fails, by its JSON Pointer.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from pitchcli import escape
from pitchcli.record.schema import has_float, pointer, strict_validator

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

SCHEMA_RESOURCE = "data/pitch-summary-partial-1.schema.json"
SCHEMA_ID = "urn:pitchcli:schema:pitch-summary-partial:1"
_WORDS = {"string": "text", "integer": "a whole number", "null": "null", "array": "a list", "object": "a mapping",
          "boolean": "true or false"}


@cache
def load_schema() -> dict[str, Any]:
    """The JSON Schema of a partial summary (shared: don't change it)."""
    return json.loads(resources.files("pitchcli").joinpath(SCHEMA_RESOURCE).read_text("utf-8"))


@cache
def _reference() -> Any:
    return strict_validator()(load_schema())


@cache
def _compiled() -> Any | None:
    try:
        import jsonschema_rs
    except ImportError:
        return None
    return jsonschema_rs.Draft202012Validator(load_schema())


def _fast_valid(data: Any) -> bool:
    """True when the compiled validator says valid (it can't tell 2.0 from 2,
    and refuses numbers past 64 bits: those go to the reference)."""
    fast = _compiled()
    if fast is None:
        return False
    try:
        return bool(fast.is_valid(data)) and not has_float(data)
    except (ValueError, TypeError, OverflowError):
        return False


def _message(e: ValidationError) -> str:
    at = pointer(list(e.absolute_path)) or "/"
    kind, value, schema = e.validator, e.instance, e.schema
    nullable = "null" in (schema.get("type") or [])
    if kind == "type":
        kinds = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
        found = "a decimal number" if isinstance(value, float) else escape.quote(value)
        return f"{at} must be {' or '.join(_WORDS.get(k, k) for k in kinds)}, not {found}"
    if kind == "required":
        missing = next((k for k in e.validator_value if k not in value), "?")
        return f"{pointer([*e.absolute_path, missing])} is missing"
    if kind == "minimum":
        return f"{at} must be {e.validator_value} or more{', or null' if nullable else ''}, not {value}"
    if kind == "maximum":
        return f"{at} must be at most {e.validator_value:,}, not a number of {len(str(value))} digits"
    if kind == "additionalProperties":
        extra = sorted(set(value) - set(schema.get("properties", {})))
        return f"{pointer([*e.absolute_path, extra[0]]) if extra else at} is not a key of a partial summary"
    if kind == "const":
        return f"{at} must be {json.dumps(e.validator_value)}, not {escape.quote(value)}"
    return f"{at}: {e.message}"


def _schema_problem(data: Any) -> str | None:
    if _fast_valid(data):
        return None
    # The deepest error: the value itself (a count that is text) rather than
    # the mapping around it (which then also lacks a key of the right type).
    error = max(_reference().iter_errors(data), key=lambda e: len(e.absolute_path), default=None)
    return None if error is None else _message(error)


def _tally_problems(t: dict[str, Any], at: str, ev: dict[str, Any]) -> Iterator[str]:
    games, wins, hands = t.get("games", 0), t.get("wins", 0), t.get("hands", 0)
    bids, made, lost = t.get("bids", 0), t.get("made", 0), t.get("set", 0)
    if wins > games:
        yield f"{at}/wins: {wins} wins in {games} games"
    if made + lost != bids:
        yield f"{at}/bids: made {made} + set {lost} is not the {bids} bids"
    if bids > hands:
        yield f"{at}/bids: {bids} bids in {hands} hands"
    if t.get("partner", 0) > hands:
        yield f"{at}/partner: called partner in {t['partner']} of {hands} hands"
    if games > ev.get("games", 0):
        yield f"{at}/games: {games} games in an event of {ev.get('games', 0)}"
    if hands > ev.get("hands", 0):
        yield f"{at}/hands: {hands} hands in an event of {ev.get('hands', 0)}"


def _consistency(d: dict[str, Any]) -> Iterator[str]:
    c = d["counts"]
    if c["documents"] != c["valid"] + c["invalid"]:
        yield f"/counts/documents: {c['documents']} is not the {c['valid']} valid + {c['invalid']} invalid"
    seen: dict[Any, int] = {}
    for i, ev in enumerate(d["events"]):
        at = f"/events/{i}"
        name = ev.get("event")
        if name in seen:
            yield f"{at}/event: the event {escape.quote(name)} is listed twice (also at /events/{seen[name]})"
        seen.setdefault(name, i)
        first, last = ev.get("first_date"), ev.get("last_date")
        if first is not None and last is not None and first > last:
            yield f"{at}/first_date: {escape.quote(first)} is after the last date {escape.quote(last)}"
        for key in ("players", "teams"):
            for n, t in ev.get(key, {}).items():
                yield from _tally_problems(t, f"{at}/{key}/{pointer([n])[1:]}", ev)
    games = sum(ev.get("games", 0) for ev in d["events"])
    if games != c["valid"]:
        yield f"/events: {games} games in the events, but /counts/valid is {c['valid']}"
    invalid = sum(ev.get("invalid", 0) for ev in d["events"])
    if invalid > c["invalid"]:
        yield f"/events: {invalid} invalid records in the events, but /counts/invalid is {c['invalid']}"
    if len(d["problems"]) > c["invalid"] + c["unreadable"]:
        yield (f"/problems: {len(d['problems'])} problems for {c['invalid']} invalid records and "
               f"{c['unreadable']} unreadable files")
    rows = d["games"] or []
    if len(rows) > c["documents"]:
        yield f"/games: {len(rows)} game rows for {c['documents']} documents"
    limit = d["limit"]
    if limit is not None:
        for key in ("games", "problems"):
            if len(d[key] or []) > limit:
                yield f"/{key}: {len(d[key])} rows kept, more than the limit of {limit}"
    if d["games"] is not None and not d["games_kept"]:
        yield "/games: game rows in a summary that keeps none (games_kept is false)"


def problem(data: Any) -> str | None:
    """The first problem of a partial summary (``"/pointer: what"``), or None
    when it can be merged: its schema first, then its consistency."""
    found = _schema_problem(data)
    if found is None:
        found = next(_consistency(data), None)
    return None if found is None else escape.clip(found)
