"""Small shared builders for the engine tests (Auction Pitch).

The *base hand* is one six-trick layout of real cards, written relative to the
pitcher P (P leads trick 1; P+1 is the next seat clockwise, and so on). A trick
is written in play order from its leader, so the same six tricks are a legal
hand for any pitcher at a four-seat table; only who is who rotates.

    trick  leader  cards (leader first)      winner
    1      P       AS  3S  7S  2S            P    (AS, highest trump)
    2      P       KH  2H  AH  JS            P+3  (JS trumps; P+3 held 7H 5H: legal)
    3      P+3     QD  9D  JD  10D           P+3  (QD, highest diamond)
    4      P+3     3C  4C  5C  KC            P+2  (KC)
    5      P+2     9H  7H  QH  AC            P    (QH: AC is not of the suit led)
    6      P       10S 6D  4D  5H            P    (10S, the only trump)

Trumps (spades) in play: AS 10S 7S 3S 2S JS. High AS -> P; Low 2S, played by
P+3 and captured by P (trick 1); Jack JS -> P+3. Game points (AP-SCORE-4):
P 4+6+10 = 20, P+1 0, P+2 3, P+3 8+13 = 21 of 44: Game -> P+3 (a plurality,
not a majority). So P takes 2 points, P+3 takes 2, the others 0.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from pitchcli.engine.bidding import Call
from pitchcli.engine.hand import HandResult
from pitchcli.engine.play import Play, Trick
from pitchcli.engine.scoring import Award
from pitchcli.engine.violations import Violation
from pitchcli.pipeline.feed import GameAnalysis, analyze

PLAYERS = ["Ann", "Ben", "Cal", "Dot"]

BASE_TRICKS: list[list[str]] = [
    ["AS", "3S", "7S", "2S"],
    ["KH", "2H", "AH", "JS"],
    ["QD", "9D", "JD", "10D"],
    ["3C", "4C", "5C", "KC"],
    ["9H", "7H", "QH", "AC"],
    ["10S", "6D", "4D", "5H"],
]
# The cards each seat holds, by offset from the pitcher (read off the tricks).
BASE_HOLDINGS: list[list[str]] = [
    ["AS", "KH", "9D", "4C", "QH", "10S"],
    ["3S", "2H", "JD", "5C", "AC", "6D"],
    ["7S", "AH", "10D", "KC", "9H", "4D"],
    ["2S", "JS", "QD", "3C", "7H", "5H"],
]


def base_deal(pitcher: str, players: list[str] = PLAYERS) -> dict[str, list[str]]:
    """The deal that goes with ``BASE_TRICKS`` when ``pitcher`` pitches."""
    p = players.index(pitcher)
    return {players[(p + k) % len(players)]: list(BASE_HOLDINGS[k]) for k in range(len(players))}


def hand(dealer: str, bids: list[Any], tricks: list[Any] | None = None, **extra: Any) -> dict[str, Any]:
    """One hand record; the tricks default to the base hand."""
    h: dict[str, Any] = {"dealer": dealer, "bids": list(bids)}
    h.update(copy.deepcopy(extra))
    h["tricks"] = copy.deepcopy(BASE_TRICKS if tricks is None else tricks)
    return h


def game(hands: list[dict[str, Any]], players: list[str] = PLAYERS, variant: str = "auction",
         **extra: Any) -> dict[str, Any]:
    """One game record (FORMAT.md)."""
    rec: dict[str, Any] = {"format": "pitch-record/1", "variant": variant, "players": list(players)}
    rec.update(copy.deepcopy(extra))
    rec["hands"] = copy.deepcopy(hands)
    return rec


def base_game(**extra: Any) -> dict[str, Any]:
    """Ann deals, Ben passes, Cal bids 2, Dot and Ann pass: Cal pitches the base
    hand, with the deal recorded. Cal and Ben take 2 points each."""
    return game([hand("Ann", ["pass", 2, "pass", "pass"], deal=base_deal("Cal"))], **extra)


def clean(rec: dict[str, Any]) -> GameAnalysis:
    """Analyze ``rec`` and assert it breaks no rule."""
    a = analyze(rec)
    assert a.violations == [], [v.message for v in a.violations]
    return a


def only(a: GameAnalysis, rule: str) -> Violation:
    """The one violation of ``rule``; fails when there is none or several."""
    found = [v for v in a.violations if v.rule == rule]
    assert len(found) == 1, (rule, [(v.rule, v.at, v.message) for v in a.violations])
    return found[0]


def check(v: Violation, rule: str, code: str, at: str, *words: str) -> None:
    """A violation as a player should see it: the right rule, code and
    location; the message names the ``words`` (names, cards,
    numbers), and no Python internals leak into it."""
    assert (v.rule, v.code, v.at) == (rule, code, at), (v.rule, v.code, v.at, v.message)
    assert f"({rule})" not in v.message, v.message  # the rule is its own field, shown once
    for w in words:
        assert w in v.message, (w, v.message)
    for leak in ("Card(", "None", "<", "Traceback", "[", "{"):
        assert leak not in v.message, (leak, v.message)


def broken(rec: dict[str, Any], rule: str, code: str, at: str, *words: str, alone: bool = True) -> Violation:
    """Analyze a record broken in one place: it reports ``rule`` at ``at``.
    With ``alone``, that is the only violation (nothing else is disturbed)."""
    a = analyze(rec)
    v = only(a, rule)
    check(v, rule, code, at, *words)
    if alone:
        assert len(a.violations) == 1, [(x.rule, x.at, x.message) for x in a.violations]
    return v


def values(x: Any) -> Any:
    """``x`` with every value of the engine's plain classes (``HandResult``,
    ``Trick``, ``Play``, ``Call``, ``Award``: no ``==`` of their own) read out,
    field by field, so that two results compare by what they hold."""
    if isinstance(x, str | bytes):
        return x
    if isinstance(x, Sequence):  # (a hand's tricks are a ``TrickList``)
        return [values(v) for v in x]
    if isinstance(x, dict):
        return {k: values(v) for k, v in x.items()}
    if isinstance(x, HandResult | Trick | Play | Call | Award):
        return type(x).__name__, [values(getattr(x, name)) for name in type(x).__slots__]
    return x
