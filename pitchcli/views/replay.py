"""Replay: a game told as a stream of events, hand by hand and trick by trick.

A game's typed event log (``Game.events``, as a script reads it: frozen records
with enums, made on demand), between the game's opening and close, is the
replay. ``pitch replay --format json`` writes it as JSON Lines, one object per
event (``events``), and the text output renders the same log
(``pitchcli.render.replay.TextRenderer``: a ten-point hand's ``discard`` and
``draw`` events as a line of each kind), so the two never disagree. This module
is the model: it prints nothing.

The JSON shape, format ``pitch-replay/2`` (named in the ``game`` event). Every
event has ``event``; every event of a hand has ``hand``, its number from 1.
Players, units and cards are written as names and card text. Version 2 keeps
every field of version 1 and adds the ones marked (v2).

``game``       format (v2), file, document (its number in the file, from 1, as in every output),
               variant, family, players, teams (or null), units (who scores:
               players, or teams), target, hands (how many are recorded),
               role (v2: ``pitcher`` or ``bidder``), scoring (v2: ``awards`` or
               ``point-cards``)
``hand``       dealer, level (``full``, ``play``, ``tally``, or null when the
               hand is not scored), replayable (false for tally hands: no cards)
``call``       player, call (``pass`` or the number bid), kind: ``pass``,
               ``bid``, ``pitch`` (the 4 that closes an Auction Pitch auction,
               AP-BID-3), ``closing`` (the ten-point 10, TP-BID-1), ``steal``
               (AP-BID-5), ``stuck`` (the dealer bidding, or stuck with the
               bid, because nobody else bid: AP-BID-4, TP-BID-1), ``implied``
               (a pass left out of the record after a closing bid)
``contract``   bidder, bid, trump (null in a tally without it), called (cards)
               and partners (ten-point called-partner profiles); recorded,
               stuck, steal (v2)
``trump``      (v2) suit, by (``named`` by the bidder, TP-TRUMP-1, or
               ``first-lead``, AP-PLAY-1)
``partner``    (v2) cards called, partners (TP5-3)
``discard``    (v2) player, cards; ``draw`` (v2) player, cards
``trick``      trick (its number), leader
``play``       trick, player, card, trump (whether the card is a trump)
``trick_won``  trick, winner (null: a trick of off cards in ten-point,
               TP-PLAY-2), card (the winning card), reason (``trump``: the
               highest trump; ``suit``: the highest card of the suit led;
               ``none``), captured (the cards, in play order), value (game
               points for Auction Pitch, AP-SCORE-4; point cards for
               ten-point, TP-POINTS-1, the 2 of trumps excepted), suit_led
               (v2); ten-point: point_cards {card: value}, two and
               two_played_by (the 2 of trumps and who played it, or null)
``points``     Auction Pitch: awards {high, low, jack, game: {unit, card,
               captured_by, played_by, trick}} and game_points per unit;
               ten-point: credits (v2) [{card, value, player, unit, played_by,
               trick, how: ``captured`` or ``played``}]; both: taken (per unit)
``hand_end``   bidder, bid, took, made, score (the change per unit), totals
               (the running totals, null when unknown), rule (v2)
``game_end``   winner (null: unfinished), hand (the hand that won it),
               totals, finished, reason and rule (v2: why the game ended,
               e.g. ``pitcher-made`` under AP-WIN-1)
``problem``    (v2) an invalid record is replayed as far as it goes, each of
               its diagnostics where it happens: after the ``trick_won`` of
               its trick, else after its hand's ``contract`` (or the ``hand``
               event when there is none), else after ``game``; what finds no
               place (a trick that wasn't replayed) comes before ``game_end``.
               Fields: hand, trick (or null), code, rule, severity, message,
               line, column, pointer (as in validate's JSON report)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from pitchcli.api.games import (
    CallMade,
    CardPlayed,
    ContractSet,
    Discarded,
    Drew,
    Game,
    HandEvent,
    HandSettled,
    HandStarted,
    PartnerCalled,
    PointsTaken,
    TrickStarted,
    TrickWon,
    TrumpSet,
)
from pitchcli.api.kinds import CallKind, Scoring
from pitchcli.diagnostics import Diagnostic

FORMAT = "pitch-replay/2"
EVENTS = ("game", "hand", "call", "contract", "trump", "partner", "discard", "draw", "trick", "play",
          "trick_won", "points", "hand_end", "game_end", "problem")


@dataclass(frozen=True, slots=True)
class GameOpened:
    """The replay's first event: the game (its profile, seats, sides, target)."""

    game: Game


@dataclass(frozen=True, slots=True)
class GameClosed:
    """The replay's last event: how the game ended, or that it is unfinished
    (read off ``game``: its winner, the hand that won it, why, the totals)."""

    game: Game


Event = GameOpened | HandEvent | GameClosed
"""One event of a replay: the game's hand events between its opening and close."""


def log(game: Game, hand: int | None = None) -> Iterator[Event]:
    """The replay's typed log of a game (``hand``: only that hand's events,
    between the game's opening and close)."""
    yield GameOpened(game)
    yield from game.events(hand)
    yield GameClosed(game)


def dealers(game: Game) -> list[str]:
    """Each recorded hand's dealer (``?`` where the record names none): an
    unscored hand's dealer is not in the engine's log."""
    return [h.dealer or "?" for h in game.hands]


def with_problems(evs: Iterable[Event], problems: Iterable[Diagnostic],
                  hand: int | None = None) -> Iterator[Event | Diagnostic]:
    """The events with each diagnostic placed where it happens: after its
    trick's ``TrickWon``, else after its hand's ``ContractSet`` (or the hand's
    start when it has none), else after ``GameOpened``; what finds no place (a
    trick that wasn't replayed) comes before ``GameClosed``. With ``hand``, only
    that hand's diagnostics and the game's own."""
    left = {i: d for i, d in enumerate(problems) if hand is None or d.hand in (None, hand)}
    if not left:  # nothing to place (a valid game: the site's every page): the events as they are
        yield from evs
        return

    def take(match: Any) -> list[Diagnostic]:
        return [left.pop(i) for i in [i for i, d in left.items() if match(d)]]

    def of_hand(n: int) -> list[Diagnostic]:
        return take(lambda d: d.hand == n and d.trick is None)

    # A hand's events wait until its contract comes: its own problems follow the
    # contract, or, in a hand that has none, its start. (Bounded: the calls.)
    waiting: list[Event] = []

    def flush(contract: bool) -> Iterator[Event | Diagnostic]:
        head, rest = waiting[:1], waiting[1:]
        waiting.clear()
        yield from head
        if head and not contract and isinstance(head[0], HandStarted):
            yield from of_hand(head[0].hand)
        yield from rest

    for e in evs:
        if isinstance(e, HandStarted | GameClosed | HandSettled):
            yield from flush(False)  # the hand (if one waits) had no contract
        elif waiting and not isinstance(e, ContractSet):
            waiting.append(e)
            continue
        yield from flush(True)
        if isinstance(e, HandStarted):
            waiting.append(e)
            continue
        if isinstance(e, GameClosed):
            yield from take(lambda d: True)
        yield e
        if isinstance(e, GameOpened):
            yield from take(lambda d: d.hand is None)
        elif isinstance(e, ContractSet):
            yield from of_hand(e.hand)
        elif isinstance(e, TrickWon):
            yield from take(lambda d, n=e.hand, t=e.trick: d.hand == n and d.trick == t)
    yield from flush(False)
    yield from take(lambda d: True)


class _Json:
    """Serialises typed events as plain mappings (the ``pitch-replay/2`` shape)."""

    def __init__(self, game: Game) -> None:
        self.g = game
        self.players, self.units = game.players, game.sides
        self.closing = game.words.closing
        self.awards = game.scoring is Scoring.AWARDS

    def p(self, seat: int | None) -> str | None:
        return None if seat is None else self.players[seat]

    def per_unit(self, values: Iterable[int] | None) -> dict[str, int] | None:
        return None if values is None else dict(zip(self.units, values, strict=True))

    def __call__(self, e: Event | Diagnostic) -> dict[str, Any]:
        if isinstance(e, Diagnostic):
            return {"event": "problem", "hand": e.hand, "trick": e.trick, "code": e.code,
                    "rule": e.rule, "severity": e.severity, "message": e.message, "line": e.line,
                    "column": e.column, "pointer": e.pointer or "/"}
        if isinstance(e, GameOpened):
            g = e.game
            return {"event": "game", "format": FORMAT, "file": g.file, "document": g.document,
                    "variant": g.variant, "family": g.family.value, "players": list(g.players),
                    "teams": {side: list(members) for side, members in g.teams.items()} or None,
                    "units": list(g.sides), "target": g.target, "hands": len(g.hands),
                    "role": g.words.role, "scoring": g.scoring.value}
        if isinstance(e, HandStarted):
            # an unscored hand (no seat in the log): the dealer as recorded
            dealer = self.p(e.dealer) if e.dealer is not None else self.g.hands[e.hand - 1].dealer or "?"
            return {"event": "hand", "hand": e.hand, "dealer": dealer,
                    "level": None if e.level is None else e.level.value,
                    "replayable": e.level is not None and e.level != "tally"}
        if isinstance(e, CallMade):
            kind = self.closing if e.kind is CallKind.CLOSING else e.kind.value
            return {"event": "call", "hand": e.hand, "player": self.p(e.seat),
                    "call": "pass" if e.bid is None else e.bid, "kind": kind}
        if isinstance(e, ContractSet):
            return {"event": "contract", "hand": e.hand, "bidder": self.p(e.bidder), "bid": e.bid,
                    "trump": e.trump, "called": [c.text for c in e.called],
                    "partners": [self.p(s) for s in e.partners], "recorded": e.recorded,
                    "stuck": e.dealer_bid, "steal": e.stolen}
        if isinstance(e, TrumpSet):
            return {"event": "trump", "hand": e.hand, "suit": e.trump, "by": e.by.value}
        if isinstance(e, PartnerCalled):
            return {"event": "partner", "hand": e.hand, "cards": [c.text for c in e.cards],
                    "partners": [self.p(s) for s in e.partners]}
        if isinstance(e, Discarded | Drew):
            return {"event": "discard" if isinstance(e, Discarded) else "draw", "hand": e.hand,
                    "player": self.p(e.seat), "cards": [c.text for c in e.cards]}
        if isinstance(e, TrickStarted):
            return {"event": "trick", "hand": e.hand, "trick": e.trick, "leader": self.p(e.leader)}
        if isinstance(e, CardPlayed):
            return {"event": "play", "hand": e.hand, "trick": e.trick, "player": self.p(e.seat),
                    "card": e.card.text, "trump": e.trump}
        if isinstance(e, TrickWon):
            won: dict[str, Any] = {
                "event": "trick_won", "hand": e.hand, "trick": e.trick, "winner": self.p(e.winner),
                "card": None if e.card is None else e.card.text, "reason": e.reason.value,
                "captured": [c.text for c in e.cards], "value": e.value, "suit_led": e.suit_led}
            if e.point_cards or e.kept or not self.awards:
                won["point_cards"] = {c.text: v for c, v in e.point_cards}
                won["two"] = e.kept[0][0].text if e.kept else None
                won["two_played_by"] = self.p(e.kept[0][2]) if e.kept else None
            return won
        if isinstance(e, PointsTaken):
            pts: dict[str, Any] = {"event": "points", "hand": e.hand}
            if e.awards:
                pts["awards"] = {a.kind: {"unit": None if a.unit is None else self.units[a.unit],
                                          "card": None if a.card is None else a.card.text,
                                          "captured_by": self.p(a.captured_by),
                                          "played_by": self.p(a.played_by), "trick": a.trick}
                                 for a in e.awards}
                pts["game_points"] = self.per_unit(e.game_points) if e.game_points else None
            if e.credits:
                pts["credits"] = [{"card": c.card.text, "value": c.value, "player": self.p(c.seat),
                                   "unit": self.units[c.unit], "played_by": self.p(c.played_by),
                                   "trick": c.trick, "how": c.how.value} for c in e.credits]
            pts["taken"] = self.per_unit(e.taken)
            return pts
        if isinstance(e, HandSettled):
            return {"event": "hand_end", "hand": e.hand, "bidder": self.p(e.bidder), "bid": e.bid,
                    "took": e.took, "made": e.made, "score": self.per_unit(e.delta),
                    "totals": self.per_unit(e.totals), "rule": e.rule}
        assert isinstance(e, GameClosed)
        g = e.game
        return {"event": "game_end", "winner": g.winner, "hand": g.winner_hand,
                "totals": None if g.totals is None else dict(g.totals), "finished": g.winner is not None,
                "reason": None if g.end is None else g.end.value, "rule": g.end_rule}


def events(game: Game, hand: int | None = None,
           problems: Iterable[Diagnostic] = ()) -> Iterator[dict[str, Any]]:
    """The replay as plain mappings, the ``pitch-replay/2`` shape (see the
    module docstring); the ``game`` event names the game's file and document;
    ``problems`` (an invalid record's diagnostics) become ``problem`` events
    where they happen."""
    as_json = _Json(game)
    return (as_json(e) for e in with_problems(log(game, hand), problems, hand))
