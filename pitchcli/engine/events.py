"""A game's typed event log, in the spirit of pokerkit's operations.

``game_log(table, hands, end)`` turns a replayed game (its ``HandResult``s
and ``GameEnd``) into frozen event records, in the order things happened:
the game's set-up, then per hand its deal, the calls, the contract, trump
(named by the bidder or set by the first lead), the partner called, the
discards and draws, every card played and every trick won, the points (the
Auction Pitch awards or the ten-point point cards, each with the card that
earned it), the settlement, and at last the game's end.

The log is made on demand, for the commands that show it (``replay``), never
on the validate path. Seats and units are indices (``Table.players``,
``Table.unit_names``); kinds are enums, not strings. ``replay --format json``
is a plain serialisation of it (``pitchcli.views.replay``, format
``pitch-replay/2``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pitchcli.cards import Card
from pitchcli.engine.family import Family, family_of
from pitchcli.engine.hand import HandResult
from pitchcli.engine.kinds import CALL_KINDS, CallKind, Level, TrumpBy
from pitchcli.engine.outcome import EndReason
from pitchcli.engine.play import WonWith
from pitchcli.engine.scoring import AWARDS, Credit, PointCredit
from pitchcli.engine.table import Table


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The game: its profile, seats (clockwise) and who scores (units)."""

    variant: str
    family: Family
    players: tuple[str, ...]
    units: tuple[str, ...]
    teams: tuple[tuple[int, ...], ...]  # the seats of each unit with fixed teams, else ()
    target: int
    hands: int


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand is dealt by ``dealer``; ``level`` is ``None`` when it can't be scored."""

    hand: int
    dealer: int | None
    level: Level | None


@dataclass(frozen=True, slots=True)
class CallMade:
    """One call of the auction; ``bid`` is ``None`` for a pass."""

    hand: int
    seat: int
    bid: int | None
    kind: CallKind


@dataclass(frozen=True, slots=True)
class ContractSet:
    """Who bid what (AP-BID-6, TP-BID-1), and what the hand was played in:
    trump (``None`` in a tally without it), the cards called and the partners
    (TP5-3). ``recorded``: written as a contract, not worked out from calls;
    ``dealer_bid``: the dealer bid or was stuck because nobody else bid;
    ``stolen``: the dealer stole it (AP-BID-5)."""

    hand: int
    bidder: int
    bid: int
    trump: str | None
    called: tuple[Card, ...]
    partners: tuple[int, ...]
    recorded: bool
    dealer_bid: bool
    stolen: bool


@dataclass(frozen=True, slots=True)
class TrumpSet:
    """Trump: named by the bidder or set by the first lead."""

    hand: int
    trump: str
    by: TrumpBy


@dataclass(frozen=True, slots=True)
class PartnerCalled:
    """The cards the bidder called and who holds them (TP5-3)."""

    hand: int
    cards: tuple[Card, ...]
    partners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Discarded:
    """The cards a player discarded (TP4-3, TP5-4)."""

    hand: int
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Drew:
    """The cards a player drew after the discards (TP4-4)."""

    hand: int
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TrickStarted:
    """A trick starts: ``leader`` leads it (AP-PLAY-4, TP-BID-2, TP-PLAY-2)."""

    hand: int
    trick: int
    leader: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """One card played to a trick; ``trump``: whether it is a trump."""

    hand: int
    trick: int
    seat: int
    card: Card
    trump: bool


@dataclass(frozen=True, slots=True)
class TrickWon:
    """A trick's end: ``winner`` (``None``: nobody, TP-PLAY-2) with ``card``
    for ``reason``; ``value`` what the winner takes in it (game points,
    AP-SCORE-4; ten-point points, the 2 of trumps excepted, TP-POINTS-1);
    ``point_cards`` the ten-point point cards in it; ``kept`` the point cards
    that score for who played them instead (the 2 of trumps: card, value, seat)."""

    hand: int
    trick: int
    leader: int
    winner: int | None
    reason: WonWith
    card: Card | None
    cards: tuple[Card, ...]
    suit_led: str | None
    value: int
    point_cards: tuple[tuple[Card, int], ...]
    kept: tuple[tuple[Card, int, int], ...]


@dataclass(frozen=True, slots=True)
class Awarded:
    """One Auction Pitch point (AP-SCORE-1): ``unit`` (``None``: not awarded,
    AP-SCORE-2), the card that earned it, who captured and who played it."""

    hand: int
    kind: str  # high, low, jack, game
    unit: int | None
    card: Card | None
    captured_by: int | None
    played_by: int | None
    trick: int | None


@dataclass(frozen=True, slots=True)
class PointsTaken:
    """What the hand's points came to: the Auction Pitch awards (High, Low,
    Jack, Game, each with its card) and game points per unit, or the ten-point
    point cards; ``taken`` per unit either way."""

    hand: int
    awards: tuple[Awarded, ...]
    game_points: tuple[int, ...]
    credits: tuple[PointCredit, ...]  # (the engine's frozen records, highest trump first)
    taken: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandSettled:
    """The hand's settlement: what the bidding side took against the bid,
    made or set, the change per unit (``rule``) and the running totals after
    it (``None``: unknown); all ``None`` for a hand that can't be scored."""

    hand: int
    bidder: int | None
    bid: int | None
    side: tuple[int, ...]
    took: int | None
    made: bool | None
    delta: tuple[int, ...] | None
    totals: tuple[int, ...] | None
    rule: str | None


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game's end, or that it is unfinished (``winner`` ``None``)."""

    winner: int | None
    hand: int | None
    reason: EndReason | None
    rule: str | None
    totals: tuple[int, ...] | None


Event = (GameStarted | HandStarted | CallMade | ContractSet | TrumpSet | PartnerCalled | Discarded
         | Drew | TrickStarted | CardPlayed | TrickWon | PointsTaken | HandSettled | GameEnded)


def game_log(table: Table, hands: list[HandResult | None], totals: list[int] | None,
             only: int | None = None) -> Iterator[Event]:
    """The events of a replayed game (``hands``: ``None`` for a hand that
    can't be scored; ``totals``: after the last hand, ``None`` when unknown);
    ``only``: just that hand's events, between the game's start and end."""
    p = table.profile
    fam = family_of(p)
    teams = (tuple(tuple(table.unit_members(u)) for u in range(len(table.unit_names)))
             if p.sides == "teams" else ())
    yield GameStarted(p.name, fam, table.players, table.unit_names, teams, p.target, len(hands))
    end = None
    for i, r in enumerate(hands):
        if r is not None and r.end is not None:
            end = r.end
        if only is not None and i + 1 != only:
            continue
        if r is None:
            yield HandStarted(i + 1, None, None)
            yield HandSettled(i + 1, None, None, (), None, None, None, None, None)
            continue
        yield from _hand(r, fam.trump_named)
    yield GameEnded(None if end is None else end.winner, None if end is None else end.hand,
                    None if end is None else end.reason, None if end is None else end.rule,
                    None if totals is None else tuple(totals))


def _hand(r: HandResult, named: bool) -> Iterator[Event]:
    n = r.number
    level = Level(r.level)
    yield HandStarted(n, r.dealer, level)
    for c in r.calls:
        yield CallMade(n, c.seat, c.bid, CALL_KINDS[c.kind])
    yield ContractSet(n, r.bidder, r.bid, r.trump, tuple(r.called), tuple(r.partners), not r.calls,
                      r.dealer_bid, r.stolen)
    if r.trump is not None and (named or level is not Level.TALLY):
        yield TrumpSet(n, r.trump, TrumpBy.NAMED if named else TrumpBy.FIRST_LEAD)
    if r.called:
        yield PartnerCalled(n, tuple(r.called), tuple(r.partners))
    for seat, cards in sorted(r.discards.items()):
        yield Discarded(n, seat, tuple(cards))
    for seat, cards in sorted(r.draws.items()):
        yield Drew(n, seat, tuple(cards))
    credits = tuple(r.credits)
    if level is not Level.TALLY:
        for t in r.tricks:
            yield TrickStarted(n, t.number, t.leader)
            for pl in t.plays:
                yield CardPlayed(n, t.number, pl.seat, pl.card, r.is_trump(pl.card))
            kept = tuple((cr.card, cr.value, cr.seat) for cr in credits
                         if cr.trick == t.number and cr.how is Credit.PLAYED)
            yield TrickWon(n, t.number, t.leader, t.winner, t.reason, t.winning_card,
                           tuple(pl.card for pl in t.plays), r.suit_led(t), t.value, t.point_cards, kept)
    awards = tuple(Awarded(n, k, a.unit, a.card, a.seat, a.played_by, a.trick)
                   for k in AWARDS if r.awards for a in (r.awards[k],))
    yield PointsTaken(n, awards, tuple(r.game_points), credits, tuple(r.taken))
    yield HandSettled(n, r.bidder, r.bid, tuple(sorted(r.bidding_units)), r.side_took, r.made,
                      tuple(r.delta), None if r.totals is None else tuple(r.totals), r.settle_rule)
