"""Writing records: the canonical form (FORMAT.md principle 7), as YAML or JSON.

Canonical means: keys in a fixed order (``x-`` keys last, as they were),
cards in canonical notation (CARD-3), trump as an upper-case letter, ``pass``
in lower case; in YAML, lists of cards, bids and tricks in flow style and
mappings of plain values (scores, contract) on one line, so that a record
stays as compact as a person writes it. Writing the canonical form of a
canonical record changes nothing.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, TextIO

import yaml

from pitchcli.cards import parse_suit, try_card
from pitchcli.record.comments import Comments, place

GAME_KEYS = ("format", "variant", "rules", "event", "site", "date", "round", "table", "id", "notes",
             "players", "teams", "hands", "result")
HAND_KEYS = ("dealer", "deal", "dead", "bids", "contract", "trump", "kitty", "partner", "discards",
             "draws", "tricks", "points", "score", "totals", "notes")
TRICK_KEYS = ("lead", "cards")
PARTNER_KEYS = ("card", "cards", "player", "players")
RESULT_KEYS = ("winner", "scores")
CONTRACT_KEYS = ("bidder", "bid")
POINT_KEYS = ("high", "low", "jack", "game")


def _ordered(m: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    out = {k: m[k] for k in keys if k in m}
    out.update((k, v) for k, v in m.items() if k not in out)  # x- keys, as they were
    return out


def _card(text: Any) -> Any:
    c = try_card(text)
    return c.text if c is not None else text


def _cards(v: Any) -> Any:
    return [_card(t) for t in v] if isinstance(v, list) else v


def _card_map(v: Any) -> Any:
    return {k: (v[k] if k.startswith("x-") else _cards(v[k])) for k in v} if isinstance(v, dict) else v


def canonical(record: dict[str, Any]) -> dict[str, Any]:
    """The canonical form of a (valid) record, as plain data."""
    rec = _ordered(record, GAME_KEYS)
    if isinstance(rec.get("result"), dict):
        rec["result"] = _ordered(rec["result"], RESULT_KEYS)
    hands = rec.get("hands")
    if isinstance(hands, list):
        rec["hands"] = [_hand(h) if isinstance(h, dict) else h for h in hands]
    return rec


def _hand(h: dict[str, Any]) -> dict[str, Any]:
    h = _ordered(h, HAND_KEYS)
    for key in ("deal", "draws", "discards"):
        if key in h:
            h[key] = _card_map(h[key])
    for key in ("kitty", "dead"):
        if key in h:
            h[key] = _cards(h[key])
    if "bids" in h and isinstance(h["bids"], list):
        h["bids"] = [b.lower() if isinstance(b, str) else b for b in h["bids"]]
    if "trump" in h:
        h["trump"] = parse_suit(h["trump"]) or h["trump"]
    if isinstance(h.get("contract"), dict):
        h["contract"] = _ordered(h["contract"], CONTRACT_KEYS)
    if isinstance(h.get("partner"), dict):
        p = _ordered(h["partner"], PARTNER_KEYS)
        if "card" in p:
            p["card"] = _card(p["card"])
        if "cards" in p:
            p["cards"] = _cards(p["cards"])
        h["partner"] = p
    if isinstance(h.get("points"), dict) and set(h["points"]) & set(POINT_KEYS):
        h["points"] = _ordered(h["points"], POINT_KEYS)
    if isinstance(h.get("tricks"), list):
        tricks = []
        for t in h["tricks"]:
            if isinstance(t, dict):
                t = _ordered(t, TRICK_KEYS)
                if "cards" in t:
                    t["cards"] = _cards(t["cards"])
                tricks.append(t)
            else:
                tricks.append(_cards(t))
        h["tricks"] = tricks
    return h


# --- YAML ----------------------------------------------------------------
# Plain scalars that every YAML reader (1.1 and 1.2) reads back as the same
# string: no indicator characters, nothing that looks like a number, a bool,
# a null, a date or a base-60 time (checked by reading it back with PyYAML's
# YAML 1.1 resolver, which is the stricter of the two).
_PLAIN = re.compile(r"^[\w\u00c0-\uffff][\w \u00c0-\uffff.'()&+/-]*$")
# Characters never written raw, even inside quotes: what YAML reads as a line
# break (U+0085, U+2028, U+2029: a double-quoted scalar would be folded), what
# it can't hold (C0 and C1 controls, DEL, U+FFFE, U+FFFF, surrogates), the
# byte-order mark, and the bidi and separator controls ``escape.text`` shows
# escaped on a terminal. Each is written as a \u escape (inside a JSON string
# or a YAML double-quoted scalar, the same syntax), which every YAML and JSON
# reader turns back into the same character.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                     "\ud800-\udfff\ufeff\ufffe\uffff]")


def _escaped(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def _safe(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``, where these
    characters can only be inside strings) with every unsafe character escaped."""
    return _UNSAFE.sub(_escaped, text) if _UNSAFE.search(text) else text


def _quoted(s: str) -> str:
    """``s`` as a YAML double-quoted scalar (JSON's string syntax, which YAML
    reads the same) with every unsafe character escaped."""
    return _safe(json.dumps(s, ensure_ascii=False))


@lru_cache(maxsize=4096)
def _plain_ok(s: str) -> bool:
    if not _PLAIN.match(s) or s.endswith(" ") or " #" in s or _UNSAFE.search(s):
        return False
    try:
        return yaml.safe_load(s) == s
    except yaml.YAMLError:
        return False


def _scalar(v: Any) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int | float):
        return json.dumps(v)
    s = str(v)
    if _plain_ok(s):
        return s
    return _quoted(s)


def yaml_scalar(v: Any) -> str:
    """A scalar as YAML that reads back as the same value: plain when that is
    safe, else double-quoted with every unsafe character escaped."""
    return _scalar(v)


def _flat(v: Any) -> bool:
    """A value written on one line: a scalar, or a list/map of scalars."""
    if isinstance(v, list):
        return all(not isinstance(x, dict | list) for x in v)
    if isinstance(v, dict):
        return all(not isinstance(x, dict | list) or (isinstance(x, list) and _flat(x)) for x in v.values())
    return True


def _flow(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_scalar(k)}: {_flow(x)}" for k, x in v.items()) + "}"
    return _scalar(v)


def _yaml_lines(v: Any, indent: int, out: list[str], path: tuple[Any, ...] = (),
                paths: list[list[tuple[Any, ...]]] | None = None) -> None:
    """Append the lines of ``v`` to ``out``; with ``paths``, also the paths of
    the entries (keys, items) each line holds, for putting comments back."""
    pad = " " * indent
    if isinstance(v, dict):
        for k, x in v.items():
            key = _scalar(k)
            if paths is not None:
                paths.append([(*path, k)])
            if isinstance(x, list | dict) and x and not (_flat(x) and len(_flow(x)) <= 90):
                out.append(f"{pad}{key}:")
                _yaml_lines(x, indent + 2, out, (*path, k), paths)
            else:
                out.append(f"{pad}{key}: {_flow(x)}")
    elif isinstance(v, list):
        for i, x in enumerate(v):
            if isinstance(x, dict | list) and x and not (_flat(x) and len(_flow(x)) <= 90):
                lines: list[str] = []
                sub: list[list[tuple[Any, ...]]] | None = [] if paths is not None else None
                _yaml_lines(x, indent + 2, lines, (*path, i), sub)
                out.append(f"{pad}- {lines[0].lstrip()}")
                out.extend(lines[1:])
                if paths is not None and sub is not None:
                    paths.append([(*path, i), *sub[0]])
                    paths.extend(sub[1:])
            else:
                out.append(f"{pad}- {_flow(x)}")
                if paths is not None:
                    paths.append([(*path, i)])


def to_yaml(record: dict[str, Any], comments: Comments | None = None) -> str:
    """One record as a YAML document (no ``---``), ending with a newline; with
    ``comments`` (from the source), each put back by the entry it belongs to."""
    lines: list[str] = []
    if not comments:
        _yaml_lines(record, 0, lines)
        return "\n".join(lines) + "\n"
    paths: list[list[tuple[Any, ...]]] = []
    _yaml_lines(record, 0, lines, (), paths)
    return "\n".join(place(lines, paths, comments)) + "\n"


def to_yaml_stream(records: list[dict[str, Any]], comments: list[Comments | None] | None = None) -> str:
    """Several records as a YAML stream (``comments``: per record, or None)."""
    notes = comments or [None] * len(records)
    return "".join("---\n" + to_yaml(r, c) for r, c in zip(records, notes, strict=True))


# --- JSON -----------------------------------------------------------------
def _json(v: Any, indent: int) -> str:
    pad = " " * indent
    if isinstance(v, dict):
        if not v:
            return "{}"
        if _flat(v) and len(json.dumps(v, ensure_ascii=False)) <= 90:
            return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
        inner = ",\n".join(f"{pad}  {json.dumps(k, ensure_ascii=False)}: {_json(x, indent + 2)}"
                           for k, x in v.items())
        return "{\n" + inner + "\n" + pad + "}"
    if isinstance(v, list):
        if _flat(v):
            return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
        inner = ",\n".join(f"{pad}  {_json(x, indent + 2)}" for x in v)
        return "[\n" + inner + "\n" + pad + "]"
    return json.dumps(v, ensure_ascii=False)


def to_json(record: dict[str, Any]) -> str:
    """One record as pretty JSON (card lists on one line), ending with a newline."""
    return _safe(_json(record, 0)) + "\n"


def to_jsonl(record: dict[str, Any]) -> str:
    """One record as one JSON line."""
    return _safe(json.dumps(record, ensure_ascii=False, separators=(",", ":"))) + "\n"


def dump(records: list[dict[str, Any]], fmt: str, comments: list[Comments | None] | None = None) -> str:
    """Records in ``yaml`` (a stream when several), ``json`` (one document, or
    JSON Lines when several) or ``jsonl``; ``comments`` (per record) go back
    into YAML (JSON has none)."""
    if fmt == "yaml":
        if len(records) == 1:
            return to_yaml(records[0], comments[0] if comments else None)
        return to_yaml_stream(records, comments)
    if fmt == "json" and len(records) == 1:
        return to_json(records[0])
    return "".join(to_jsonl(r) for r in records)


@contextmanager
def atomic_output(path: str | Path) -> Iterator[TextIO]:
    """A text file that replaces ``path`` atomically when the block ends without
    an error: written to a temporary file in the same folder, flushed to disk,
    then renamed over the target. An interrupted write leaves the old file."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # surrogateescape, as on standard output: a file name that isn't UTF-8
        # (os.fsdecode keeps its bytes as lone surrogates) is written back as
        # the same bytes, not a UnicodeEncodeError.
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape", newline="\n") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        # Keep an existing file's mode; a new file gets the usual 0666 - umask
        # (mkstemp makes it 0600).
        if path.exists():
            mode = path.stat().st_mode & 0o777
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (see ``atomic_output``)."""
    with atomic_output(path) as f:
        f.write(text)
