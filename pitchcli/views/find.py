"""What ``pitch find`` asks of a game: its facts, and whether they meet the conditions.

The facts of a checked game (``facts``) are the record as loaded and what the
engine made of it — the seats and sides, the winner, the totals, and hand by
hand the dealer, the contract, made or set, who took which point, the
changes — read from what a script reads (``pitchcli.Game``, ``Hand``), never
worked out here. The conditions of the command line (``Conditions``)
and a JMESPath query (``--query``) are both answered from them, so a query
sees exactly what the options see (``pitch find --help`` and docs/archive.md
name the fields).

The record's own fields (players, event, date, variant) are read from the
record, so that ``--invalid`` can be combined with them; everything else
needs a valid game. Hand conditions given together must hold in one hand.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pitchcli.api.checking import checked_game
from pitchcli.api.games import Game
from pitchcli.pipeline.check import Checked

# The hand-by-hand facts cost the engine's full replay of a game (the quick
# pass decides a clean game without it): they are made only when asked for.


@dataclass
class Conditions:
    """The conditions of ``pitch find``; every one given must hold (empty: every valid game).

    ``players``: any of them sat at the table; ``together``: all of them did;
    ``against``: each sat on another side than every player named by
    ``players`` and ``together``. ``event``: a glob (``Spring *``), exact
    without wildcards. ``since``/``until``: the record's date, inclusive
    (ISO dates compare as text). ``seats``: the number of players.
    ``winner``: the winning player, team or team member. Hand conditions
    (``bid_at_least``, ``made``, ``max_bid``, ``set_by``) must all hold in
    one hand; ``set_by``: a point (``high``...: the bidder was set and
    another side took it, Auction Pitch) or a number N (set, short of the
    bid by exactly N: ``short``, any family). ``margin_at_least``/``margin_at_most``: a finished game's
    winner's total less the best other total. ``unfinished``: no winner.
    ``invalid``: the invalid records instead of the valid games.
    ``query``: a compiled JMESPath expression, true for the facts.
    ``hands``: the hands are listed (``--hands``).
    """

    players: tuple[str, ...] = ()
    together: tuple[str, ...] = ()
    against: tuple[str, ...] = ()
    event: str | None = None
    since: str | None = None
    until: str | None = None
    variants: tuple[str, ...] = ()
    seats: int | None = None
    winner: str | None = None
    bid_at_least: int | None = None
    made: bool | None = None
    max_bid: bool = False
    set_by: str | int | None = None
    margin_at_least: int | None = None
    margin_at_most: int | None = None
    unfinished: bool = False
    invalid: bool = False
    query: Any = None
    hands: bool = False  # --hands: the hands are what is listed (every scored hand, without a hand condition)

    @property
    def by_hand(self) -> bool:
        """True when a condition is about a hand."""
        return self.bid_at_least is not None or self.made is not None or self.max_bid or self.set_by is not None

    @property
    def needs_hands(self) -> bool:
        """True when the hand-by-hand facts are needed (a hand condition, a query)."""
        return self.by_hand or self.query is not None or self.hands


@dataclass
class Found:
    """One game (or, with ``--invalid``, one invalid record) that matched:
    where it is, what a list shows of it, and the hands that matched (by
    number, from 1; empty when no hand condition was given)."""

    file: str
    document: int  # from 1
    event: str | None
    date: str | None
    variant: str | None
    players: list[str]
    winner: str | None = None
    totals: dict[str, int] | None = None
    hands: list[int] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)  # an invalid record's diagnostic codes, in order, once each

    def as_json(self) -> dict[str, Any]:
        """The entry of ``find --format json``."""
        return {"file": self.file, "document": self.document, "event": self.event, "date": self.date,
                "variant": self.variant, "players": self.players, "winner": self.winner, "totals": self.totals,
                "hands": self.hands, "codes": self.codes}


def _text(v: Any) -> str | None:
    return None if v is None or isinstance(v, dict | list) else str(v)


def _names(rec: dict[str, Any]) -> list[str]:
    players = rec.get("players")
    return [str(p) for p in players] if isinstance(players, list) else []


def hand_facts(game: Game) -> list[dict[str, Any]]:
    """Each hand as the engine scored it (see ``facts``), read from the API's
    ``Hand``s."""
    out: list[dict[str, Any]] = []
    max_bid = game.profile.max_bid
    for h in game.hands:
        if not h.scored:
            out.append({"hand": h.number, "scored": False})
            continue
        out.append({
            "hand": h.number, "scored": True, "level": h.level, "dealer": h.dealer,
            "bidder": h.bidder, "bid": h.bid, "max_bid": h.bid == max_bid,
            "trump": h.trump, "made": h.made, "set": not h.made,
            "side_took": h.side_took, "short": h.short or 0,
            "bidding_side": list(h.bidding_side), "partners": list(h.partners),
            "points": {p.kind.value: p.side for p in h.points},
            "taken": dict(h.taken), "change": dict(h.score),
            "totals": None if h.totals is None else dict(h.totals),
        })
    return out


def facts(c: Checked, hands: bool = True, game: Game | None = None) -> dict[str, Any]:
    """The facts of a valid checked game, as plain data (what ``--query`` reads),
    read from the API's ``Game``:
    ``file``, ``document`` (from 1), ``record`` (as loaded), ``variant``,
    ``players``, ``units`` (the scoring sides' names), ``teams`` (unit ->
    members, fixed teams only), ``winner``, ``finished``, ``totals`` (unit ->
    total), ``margin`` (a finished game's winner's total less the best
    other's), and with ``hands`` the ``hands`` list: ``hand``, ``scored``,
    ``level``, ``dealer``, ``bidder``, ``bid``, ``max_bid``, ``trump``,
    ``made``, ``set``, ``side_took`` (what the bidding side took),
    ``short`` (a hand set: the bid less ``side_took``; 0 made), ``bidding_side``, ``partners``, ``points`` (high, low,
    jack, game -> the unit that took it; Auction Pitch), ``taken``,
    ``change``, ``totals``."""
    assert c.data is not None
    game = checked_game(c) if game is None else game
    totals = None if game.totals is None else dict(game.totals)
    out: dict[str, Any] = {
        "file": c.file, "document": c.number, "record": c.data, "variant": c.data.get("variant"),
        "players": list(game.players), "units": list(game.sides),
        "teams": {u: list(members) for u, members in game.teams.items()},
        "winner": game.winner, "finished": game.finished, "totals": totals, "margin": game.margin,
    }
    if hands:
        out["hands"] = hand_facts(game)
    return out


def truthy(v: Any) -> bool:
    """JMESPath's truth: false, null, and an empty string, list or object are false; 0 is true."""
    return not (v is None or v is False or (isinstance(v, str | list | dict) and not v))


def _record_ok(rec: dict[str, Any], cond: Conditions) -> bool:
    """The conditions read from the record itself (valid or not)."""
    names = _names(rec)
    if cond.players and not any(p in names for p in cond.players):
        return False
    if cond.together and not all(p in names for p in cond.together):
        return False
    event = _text(rec.get("event"))
    if cond.event is not None and (event is None or not fnmatch.fnmatchcase(event, cond.event)):
        return False
    date = _text(rec.get("date"))
    if (cond.since is not None or cond.until is not None) and date is None:
        return False
    if date is not None and ((cond.since is not None and date < cond.since)
                             or (cond.until is not None and date > cond.until)):
        return False
    if cond.variants and _text(rec.get("variant")) not in cond.variants:
        return False
    return cond.seats is None or len(names) == cond.seats


def _against_ok(f: dict[str, Any], cond: Conditions, side_of: Callable[[str], str | None]) -> bool:
    ours = [p for p in (*cond.players, *cond.together) if side_of(p) is not None]
    for other in cond.against:
        theirs = side_of(other)
        if theirs is None or not ours or any(side_of(p) == theirs for p in ours):
            return False
    return True


def _hand_ok(h: dict[str, Any], cond: Conditions) -> bool:
    if not h["scored"]:
        return False
    if cond.bid_at_least is not None and h["bid"] < cond.bid_at_least:
        return False
    if cond.made is not None and h["made"] != cond.made:
        return False
    if cond.max_bid and not h["max_bid"]:
        return False
    if isinstance(cond.set_by, int):
        return not h["made"] and h["short"] == cond.set_by
    if cond.set_by is not None:
        # Set, and that point went to a side that wasn't bidding.
        took = h["points"].get(cond.set_by)
        if h["made"] or took is None or took in h["bidding_side"]:
            return False
    return True


def _found(c: Checked, f: dict[str, Any] | None, hands: list[int]) -> Found:
    rec = c.data if isinstance(c.data, dict) else {}
    return Found(c.file, c.number, _text(rec.get("event")), _text(rec.get("date")), _text(rec.get("variant")),
                 _names(rec), f["winner"] if f else None, f["totals"] if f else None, hands)


def match(c: Checked, cond: Conditions, usable: bool) -> Found | None:
    """The ``Found`` entry when the checked document ``c`` meets ``cond``, else
    None. ``usable``: the document is a valid game (``--invalid`` looks for
    the others). A query's own error (a function given the wrong type) is
    raised as ``jmespath.exceptions.JMESPathError``."""
    if cond.invalid:
        if usable or c.skipped:
            return None
        rec = c.data if isinstance(c.data, dict) else None
        if rec is not None and not _record_ok(rec, cond):
            return None
        if rec is None and (cond.players or cond.together or cond.event or cond.since or cond.until
                            or cond.variants or cond.seats is not None):
            return None  # nothing loaded to ask
        out = _found(c, None, [])
        out.codes = list(dict.fromkeys(d.code for d in c.diagnostics if d.severity == "error"))
        return out
    if not usable or c.data is None or not _record_ok(c.data, cond):
        return None
    game = checked_game(c)
    f = facts(c, cond.needs_hands, game)
    if cond.unfinished and f["finished"]:
        return None
    won = f["winner"]
    if cond.winner is not None and (won is None or (cond.winner != won and cond.winner not in f["teams"].get(won, ()))):
        return None
    margin = f["margin"]
    if cond.margin_at_least is not None and (margin is None or margin < cond.margin_at_least):
        return None
    if cond.margin_at_most is not None and (margin is None or margin > cond.margin_at_most):
        return None
    if cond.against and not _against_ok(f, cond, game.side_of):
        return None
    hands: list[int] = []
    if cond.by_hand or cond.hands:
        hands = [h["hand"] for h in f["hands"] if h["scored"] and (not cond.by_hand or _hand_ok(h, cond))]
        if not hands:
            return None
    if cond.query is not None and not truthy(cond.query.search(f)):
        return None
    return _found(c, f, hands)
