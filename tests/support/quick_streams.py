"""Streams of many games for the quick pass's tests: a game judged inside a
JSON Lines file or a YAML stream must get the diagnostics it gets alone.

``pitch validate`` hands the documents of one stream to the quick pass in
chunks (``check.QUICK_MIN`` clean documents or more); a file of one game is
replayed in full. ``stream`` writes records as one stream and remembers each
document's own text and first line, so that a document's diagnostics in the
stream can be compared with the same text validated alone: the same code,
rule, pointer, message, hand, trick and column, and the same line counted from
the document's first line. ``LEVELS`` writes the same games as play-level
records or tallies (shared with ``benchmarks/bench_record_kinds.py``).
"""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml

from pitchcli.diagnostics import Diagnostic
from pitchcli.pipeline.check import Checked, check_source
from pitchcli.record.write import to_yaml

FORMATS = ("jsonl", "yaml")
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
WHITE_SYMBOL = {"S": "♤", "H": "♡", "D": "♢", "C": "♧"}
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's: the pure-Python one is slow


@dataclass(frozen=True)
class Stream:
    """A stream's bytes and, per document, its own text and first line in the stream."""

    fmt: str
    raw: bytes
    texts: list[bytes]
    first_lines: list[int]

    @property
    def name(self) -> str:
        """A file name whose suffix picks the stream's format."""
        return f"games.{self.fmt}"


def stream(records: list[dict[str, Any]], fmt: str) -> Stream:
    """``records`` as one JSON Lines file (``jsonl``) or one YAML stream (``yaml``)."""
    texts: list[bytes] = []
    first_lines: list[int] = []
    parts: list[bytes] = []
    line = 1
    for rec in records:
        if fmt == "jsonl":
            text = (json.dumps(rec, ensure_ascii=False) + "\n").encode()
            first_lines.append(line)
            parts.append(text)
        else:
            text = _yaml(json.dumps(rec, ensure_ascii=False))
            first_lines.append(line + 1)  # after its "---" line
            parts.append(b"---\n" + text)
            line += 1
        texts.append(text)
        line += text.count(b"\n")
    return Stream(fmt, b"".join(parts), texts, first_lines)


@cache
def _yaml(text: str) -> bytes:
    """A record (as JSON text) as a YAML document, as ``pitch fmt`` writes it
    (PyYAML's block style for what our writer refuses); through JSON, so that
    a value the record shares is written out, not as an alias. Kept: the same
    valid games go into many streams."""
    data = json.loads(text)
    try:
        return to_yaml(data).encode()
    except Exception:  # (an odd record of the fuzzer's)
        return yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=1000).encode()


def check_stream(s: Stream) -> list[Checked]:
    """Every document of the stream as ``pitch validate`` checks it (the quick pass on)."""
    return list(check_source(s.name, io.BytesIO(s.raw), quick=True))


def check_alone(s: Stream, index: int) -> Checked:
    """Document ``index`` of the stream as a file of its own (replayed in full)."""
    found = list(check_source(f"alone.{s.fmt}", io.BytesIO(s.texts[index])))
    assert len(found) == 1
    return found[0]


def key(d: Diagnostic, first_line: int = 1) -> tuple[object, ...]:
    """What a reader sees of a diagnostic, its line counted from its document's first line."""
    line = None if d.line is None else d.line - first_line + 1
    return d.code, d.rule, d.pointer, line, d.column, d.message, d.severity, d.hand, d.trick


def keys(checked: Checked, first_line: int = 1) -> list[tuple[object, ...]]:
    """``key`` of every diagnostic of a document, in order."""
    return [key(d, first_line) for d in checked.diagnostics]


NOTATIONS = ("canonical", "lower", "symbol", "ten", "white", "emoji", "mixed")


def in_notation(card: str, notation: str) -> str:
    """``card`` (canonical text, not a joker) in a notation CARD-3 accepts:
    ``lower`` (``9d``), ``symbol`` (``9♦``), ``ten`` (``TD`` for ``10D``; other
    cards as they are), ``white`` (``9♢``), ``emoji`` (``9♦`` and the emoji
    presentation selector), ``mixed`` (``jD``) or ``canonical``."""
    rank, suit = card[:-1], card[-1]
    if notation == "lower":
        return card.lower()
    if notation == "symbol":
        return rank + SUIT_SYMBOL[suit]
    if notation == "ten":
        return ("T" if rank == "10" else rank) + suit
    if notation == "white":
        return rank + WHITE_SYMBOL[suit]
    if notation == "emoji":
        return rank + SUIT_SYMBOL[suit] + "\ufe0f"
    if notation == "mixed":
        return rank.lower() + suit
    return card


def claims_off(rec: dict[str, Any]) -> None:
    """Drop the claims (scores, totals, result), so that only a rule broken can tell."""
    rec.pop("result", None)
    for h in rec["hands"]:
        h.pop("score", None)
        h.pop("totals", None)


def dealt_twice_to_one(rec: dict[str, Any], hand: int = 0, notation: str = "lower") -> str:
    """Issue 28: in hand ``hand`` a player is dealt one of his cards twice and
    plays it twice, the second copy written in ``notation``; one of his other
    cards is gone from his deal and his play. The card he played in the
    trick before last comes back in the last trick (his only card then, so no
    following can break) in place of the card he played there. Returns the
    player's name."""
    h = rec["hands"][hand]
    last, before = h["tricks"][-1], h["tricks"][-2]
    j = 0
    who = next(p for p, cards in h["deal"].items() if last[j] in cards)
    mine = h["deal"][who]
    card = next(c for c in before if c in mine)
    gone = last[j]
    twin = in_notation(card, notation)
    last[j] = twin
    mine[mine.index(gone)] = twin
    return who


# The kinds of record beyond full detail (issue 22): the same games written
# with less (or, ``led``, with each trick's leader). ``LEVELS`` maps each to the
# function that writes a full-detail record (claims and all) that way.
def play_level(rec: dict[str, Any]) -> dict[str, Any]:
    """``rec`` play-level: every hand's ``deal`` dropped (the deal is what each seat played)."""
    out = copy.deepcopy(rec)
    for h in out["hands"]:
        h.pop("deal", None)
    return out


def tally(rec: dict[str, Any]) -> dict[str, Any]:
    """``rec`` as a tally of Auction Pitch: per hand who took High, Low, Jack
    and Game (``points``, as the full replay finds them), no deal, no tricks."""
    from pitchcli.pipeline.feed import analyze

    a = analyze(rec)
    assert a.table is not None and not a.violations, a.violations[:2]
    names = a.table.unit_names
    out = copy.deepcopy(rec)
    for h, r in zip(out["hands"], a.hands, strict=True):
        assert r is not None
        h.pop("deal", None)
        h.pop("tricks", None)
        h["points"] = {k: None if w.unit is None else names[w.unit] for k, w in r.awards.items()}
    return out


def led(rec: dict[str, Any]) -> dict[str, Any]:
    """``rec`` with every trick written with its leader (``{lead, cards}``, as
    ``pitch fmt --fill`` writes it: a claim, C508), the leaders the full replay finds."""
    from pitchcli.pipeline.feed import analyze

    a = analyze(rec)
    assert a.table is not None and not a.violations, a.violations[:2]
    out = copy.deepcopy(rec)
    for h, r in zip(out["hands"], a.hands, strict=True):
        assert r is not None
        if "tricks" in h:
            h["tricks"] = [{"lead": a.table.players[t.leader], "cards": cards}
                           for t, cards in zip(r.tricks, h["tricks"], strict=True)]
    return out


LEVELS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "full": lambda rec: rec, "play": play_level, "tally": tally, "led": led}
