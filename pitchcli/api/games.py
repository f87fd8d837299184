"""A game's results as the engine derived them: ``Game``, ``Hand``, ``Trick``,
``Play``, ``Call``, ``Point``, ``PointCard``.

Every figure here is *read* from the engine's results (``HandResult``,
``GameEnd``, its typed event log): who won each trick and why, who took which
point with which card, made or set, each hand's change, the running totals,
the winner. Nothing is worked out again and nothing branches on a family's
name: a hand has ``points`` when the engine gave Auction Pitch points and
``point_cards`` when it credited ten-point point cards.

Players and sides are names. A *side* is what a score belongs to: a player,
or a fixed team (its name in the record's ``teams``).

A game the engine's quick pass decided (``validate`` of a stream of clean
Auction games) has its totals and winner at once; its hands are replayed the
first time ``Game.hands`` (or ``end``, ``events``) is read.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from pitchcli.api.kinds import CallKind, Credit, EndReason, Family, Level, NotWon, PointKind, Scoring, WonWith
from pitchcli.cards import Card
from pitchcli.engine.family import Family as _Rules
from pitchcli.engine.family import Words
from pitchcli.engine.hand import HandResult
from pitchcli.engine.kinds import CALL_KINDS
from pitchcli.engine.scoring import PointCredit
from pitchcli.pipeline.feed import GameAnalysis
from pitchcli.profiles import Profile

if TYPE_CHECKING:  # (at run time from ``api.events`` when first asked for: ``__getattr__`` below)
    from pitchcli.api.events import (
        Awarded,
        CallMade,
        CardPlayed,
        ContractSet,
        Discarded,
        Drew,
        HandEvent,
        HandSettled,
        HandStarted,
        PartnerCalled,
        PointsTaken,
        TrickStarted,
        TrickWon,
        TrumpSet,
    )

EVENTS = ("Awarded", "CallMade", "CardPlayed", "ContractSet", "Discarded", "Drew", "HandSettled", "HandStarted",
          "PartnerCalled", "PointCredit", "PointsTaken", "TrickStarted", "TrickWon", "TrumpSet")
"""The event log's types (the engine's frozen records), public with ``HandEvent``."""

_FROM_EVENTS = frozenset((*EVENTS, "HandEvent")) - {"PointCredit"}  # (PointCredit: imported above)


def __getattr__(name: str) -> Any:
    """The event log's types (``api.events``), imported when first asked for:
    defining its fifteen frozen records is most of this module's import, and
    only ``Game.events`` and ``replay`` read them (start-up, issue 22)."""
    if name in _FROM_EVENTS:
        from pitchcli.api import events

        return getattr(events, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names, the event log's types among them (``dir``, completion)."""
    return sorted({*globals(), *_FROM_EVENTS})

__all__ = ["EVENTS", "Awarded", "Call", "CallMade", "Card", "CardPlayed", "ContractSet", "Discarded", "Drew", "Game",
           "Hand", "HandEvent", "HandSettled", "HandStarted", "NoWin", "PartnerCalled", "Play", "Point",
           "PointCard", "PointCredit", "PointsTaken", "Trick", "TrickStarted", "TrickWon", "TrumpSet", "Win", "Words",
           "analysis_of", "game_of"]

@dataclass(frozen=True, slots=True)
class Call:
    """One call of the auction: ``bid`` ``None`` for a pass; ``kind`` says what
    it was (a closing bid, a steal, the dealer stuck ...)."""

    player: str
    bid: int | None
    kind: CallKind


@dataclass(frozen=True, slots=True)
class Play:
    """One card played to a trick, and whether it is a trump in this hand."""

    player: str
    card: Card
    trump: bool


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick: ``number`` from 1, who led, the plays in order, who won it
    (``None``: nobody, a ten-point trick of off cards, TP-PLAY-2), why
    (``reason``) and with which ``card``; ``value`` what the winner takes in it
    (game points in Auction Pitch, AP-SCORE-4; points in ten-point)."""

    number: int
    leader: str
    plays: tuple[Play, ...]
    winner: str | None
    reason: WonWith
    card: Card | None
    value: int


@dataclass(frozen=True, slots=True)
class Point:
    """One Auction Pitch point (AP-SCORE-1): the ``side`` that took it
    (``None``: not awarded, AP-SCORE-2), the ``card`` that earned it (``None``
    for Game, and in a tally that doesn't say), who captured and who played
    it, and in which trick."""

    kind: PointKind
    side: str | None
    card: Card | None
    captured_by: str | None
    played_by: str | None
    trick: int | None


@dataclass(frozen=True, slots=True)
class PointCard:
    """One ten-point point card and whom it scored for (TP-POINTS-1):
    ``value`` points to ``player`` (of ``side``), played by ``played_by`` in
    trick ``trick``; ``how`` captured in the trick, or (the 2 of trumps) kept
    by who played it."""

    card: Card
    value: int
    player: str
    side: str
    played_by: str
    trick: int
    how: Credit


@dataclass(frozen=True, slots=True)
class Win:
    """The game won in a hand: ``side`` won with ``total`` for ``reason``,
    under the rule book's ``rule`` (AP-WIN-1, TP-WIN-1 ...); ``at_target``
    are the sides at or above the target after that hand."""

    side: str
    total: int
    reason: EndReason
    rule: str
    at_target: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NoWin:
    """A side at or above the target after a hand that did not win the game:
    it has ``total``, and ``reason`` says why not (it did not pitch, it was
    set, the best score there is tied) under ``rule``."""

    side: str
    total: int
    reason: NotWon
    rule: str


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand. ``scored`` false: the engine could not score it (a broken
    record); then only ``number`` and ``dealer`` are known and every later
    total is ``None``.

    ``level``: what the record shows (the deal and play, the play, or a
    tally). ``bidder`` bid ``bid`` in ``trump`` (a suit letter, ``S H D C``);
    ``bidding_side`` are the sides that played the contract (with called
    partners, the bidder's and his partners'); ``partners`` and ``called``
    the called partners and the cards called (TP5-3). ``taken``: what each
    side took; ``side_took``: what the bidding side took together (what
    ``made`` compares with ``bid``); ``short``: how far a hand set fell short
    of its bid (0 made); ``made``: whether that made the bid; ``score``: each
    side's change; ``totals``: the running totals after the hand.

    The auction: ``stuck`` the dealer bid because nobody else did (AP-BID-4,
    TP-BID-1), ``stolen`` the dealer stole the bid (AP-BID-5), ``closing``
    the call that closed the auction (AP-BID-3, TP-BID-1). The points:
    ``game_points`` each side's tally toward Game (AP-SCORE-4; ``{}`` when
    the hand scores point cards), ``out_of_play`` ten-point point cards in no
    trick, ``other_took`` what the sides outside the bidding side took
    together, ``settle_rule`` the rule the hand was settled under. The end:
    ``win`` when the game was won in this hand; ``not_won`` the sides at or
    above the target that did not win in it, and why.
    """

    number: int
    dealer: str | None
    scored: bool
    level: Level | None = None
    calls: tuple[Call, ...] = ()
    bidder: str | None = None
    bid: int | None = None
    trump: str | None = None
    bidding_side: tuple[str, ...] = ()
    partners: tuple[str, ...] = ()
    called: tuple[Card, ...] = ()
    tricks: tuple[Trick, ...] = ()
    points: tuple[Point, ...] = ()
    point_cards: tuple[PointCard, ...] = ()
    taken: Mapping[str, int] = field(default_factory=dict)
    made: bool | None = None
    score: Mapping[str, int] = field(default_factory=dict)
    totals: Mapping[str, int] | None = None
    side_took: int | None = None
    short: int | None = None
    stuck: bool = False
    stolen: bool = False
    closing: Call | None = None
    game_points: Mapping[str, int] = field(default_factory=dict)
    out_of_play: tuple[Card, ...] = ()
    other_took: int | None = None
    settle_rule: str | None = None
    win: Win | None = None
    not_won: tuple[NoWin, ...] = ()

    # ---- The deal: the cards as the record gives them (the site's hand diagram).
    # Empty (``{}``, ``None``) where the record has none: a play-level or tally
    # hand, or an unscored one.
    dealt: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    """Each player's dealt cards, in the record's order (``{}``: no deal recorded)."""
    discards: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    """Ten-point: the cards each player discarded after trump was named (TP4-3, TP5-2)."""
    draws: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    """Ten-point refill: the cards the dealer gave each player after the discards (TP4-4)."""
    kitty: tuple[Card, ...] | None = None
    """Cut-down ten-point: the undealt cards the bidder took (TP5-1); ``None``: no kitty recorded."""
    set_aside: tuple[Card, ...] | None = None
    """The cards set aside face down at the deal, never used (``dead``); ``None``: none recorded."""

    @property
    def has_deal(self) -> bool:
        """True when the record gives the deal (a full-detail hand)."""
        return bool(self.dealt)


def _cards_by_player(by_seat: Mapping[int, list[Card]], players: tuple[str, ...]) -> dict[str, tuple[Card, ...]]:
    """A per-seat card map as names, in seat order."""
    return {players[s]: tuple(by_seat[s]) for s in sorted(by_seat)}


def _hand(r: HandResult, players: tuple[str, ...], sides: tuple[str, ...]) -> Hand:
    def player(seat: int | None) -> str | None:
        return None if seat is None else players[seat]

    def side(unit: int | None) -> str | None:
        return None if unit is None else sides[unit]

    tricks = tuple(Trick(t.number, players[t.leader],
                         tuple(Play(players[p.seat], p.card, r.is_trump(p.card)) for p in t.plays),
                         player(t.winner), t.reason, t.winning_card, t.value) for t in r.tricks)
    points = tuple(Point(PointKind(kind), side(a.unit), a.card, player(a.seat), player(a.played_by), a.trick)
                   for kind, a in r.awards.items())
    cards = tuple(PointCard(c.card, c.value, players[c.seat], sides[c.unit], players[c.played_by], c.trick, c.how)
                  for c in r.credits)
    closing = r.closing_call
    win = None if r.end is None else Win(sides[r.end.winner], r.end.total, r.end.reason, r.end.rule,
                                         tuple(sides[u] for u in r.end.at_target))
    return Hand(
        number=r.number, dealer=players[r.dealer], scored=True, level=Level(r.level),
        calls=tuple(Call(players[c.seat], c.bid, CALL_KINDS[c.kind]) for c in r.calls),
        bidder=players[r.bidder], bid=r.bid, trump=r.trump,
        bidding_side=tuple(sides[u] for u in sorted(r.bidding_units)),
        partners=tuple(players[s] for s in r.partners), called=tuple(r.called), tricks=tricks, points=points,
        point_cards=cards, taken=dict(zip(sides, r.taken, strict=True)), made=r.made,
        score=dict(zip(sides, r.delta, strict=True)),
        totals=None if r.totals is None else dict(zip(sides, r.totals, strict=True)),
        side_took=r.side_took, short=r.short,
        dealt=_cards_by_player(r.dealt, players), discards=_cards_by_player(r.discards, players),
        draws=_cards_by_player(r.draws, players), kitty=None if r.kitty is None else tuple(r.kitty),
        set_aside=None if r.dead is None else tuple(r.dead),
        stuck=r.dealer_bid, stolen=r.stolen,
        closing=None if closing is None else Call(players[closing.seat], closing.bid, CALL_KINDS[closing.kind]),
        game_points=dict(zip(sides, r.game_points, strict=True)) if r.game_points else {},
        out_of_play=tuple(r.out_of_play), other_took=r.other_took, settle_rule=r.settle_rule or None,
        win=win, not_won=tuple(NoWin(sides[n.unit], n.total, n.reason, n.rule) for n in r.at_target))


def _text(v: object) -> str | None:
    return None if v is None else str(v)


@dataclass(frozen=True)
class Game:
    """One game's results (from ``CheckedDocument.game`` or ``score``).

    ``file`` and ``document`` (from 1) say where it was read; ``event``,
    ``date``, ``round``, ``table`` and ``id`` are the record's own, as text.
    ``variant`` is the rule profile's name and ``family`` its rule family;
    ``players`` in seat order (clockwise), ``sides`` who scores (the players,
    or the fixed teams), ``teams`` each team's players (``{}`` without fixed
    teams); ``target`` the score that wins. ``totals`` after the last hand
    (``None`` when a hand could not be scored), ``winner`` the winning side
    (``None``: unfinished, or the record is broken) in hand ``winner_hand``.
    """

    file: str
    document: int
    event: str | None
    date: str | None
    round: str | None
    table: str | None
    id: str | None
    variant: str
    family: Family
    players: tuple[str, ...]
    sides: tuple[str, ...]
    teams: Mapping[str, tuple[str, ...]]
    target: int
    totals: Mapping[str, int] | None
    winner: str | None
    winner_hand: int | None
    _analysis: GameAnalysis = field(repr=False, compare=False)

    @property
    def finished(self) -> bool:
        """True when the game has a winner."""
        return self.winner is not None

    @cached_property
    def hands(self) -> tuple[Hand, ...]:
        """Every recorded hand, in order (an unscored one with ``scored`` false)."""
        recorded = self._analysis.record.get("hands")
        recorded = recorded if isinstance(recorded, list) else []
        out = []
        for i, r in enumerate(self._analysis.hands):
            if r is not None:
                out.append(_hand(r, self.players, self.sides))
                continue
            h = recorded[i] if i < len(recorded) else None
            out.append(Hand(i + 1, _text(h.get("dealer")) if isinstance(h, dict) else None, scored=False))
        return tuple(out)

    @property
    def _rules(self) -> _Rules:
        fam = self._analysis.family
        assert fam is not None  # a Game is made only for a known profile
        return fam

    @property
    def words(self) -> Words:
        """What this game's rule family calls things: the auction's winner
        (``role``: "pitcher", "bidder"), the call that closes the auction
        (``closing``) and the verb for making it (``closes``)."""
        return self._rules.words

    @property
    def scoring(self) -> Scoring:
        """How a hand is scored: the four Auction Pitch points
        (``Hand.points``), or ten-point's point cards (``Hand.point_cards``)."""
        return self._rules.scoring

    @property
    def trump_named(self) -> bool:
        """True when the bidder names trump (TP-TRUMP-1); false when the first
        card led makes it (AP-PLAY-1)."""
        return self._rules.trump_named

    @property
    def dealer_may_pass(self) -> bool:
        """True when a dealer may pass after all passed, and is then stuck
        with the bid (TP-BID-1); false when the dealer may not pass then and
        must bid (AP-BID-4)."""
        return self._rules.stuck_dealer_may_pass

    def rule(self, purpose: str) -> str:
        """The id of the rule this game's rule book applies to ``purpose``
        (docs/rules.md): ``"contract"`` (who won the auction), ``"stuck"``,
        ``"bid_closed"``, ``"trump_claim"`` (how trump is made),
        ``"lead_first"`` (who leads the first trick), ``"follow"`` ...; a
        purpose the rule book has no rule for raises ``KeyError``."""
        return self._rules.rule(purpose)

    @property
    def end(self) -> EndReason | None:
        """Why the game ended (``None``: unfinished), as the rule ``end_rule`` says."""
        e = self._analysis.end
        return None if e is None else e.reason

    @property
    def end_rule(self) -> str | None:
        """The rule book's id of the rule that ended the game (AP-WIN-1 ...)."""
        e = self._analysis.end
        return None if e is None else e.rule

    def events(self, hand: int | None = None) -> Iterator[HandEvent]:
        """The engine's typed event log of the hands (``hand``: only that one),
        in the order things happened: the deal, each call, the contract, trump,
        the partner called, discards and draws, every card and trick, the
        points, the settlement. The game's own facts are this object's fields."""
        from pitchcli.engine.events import GameEnded, GameStarted, game_log

        a = self._analysis
        assert a.table is not None
        for e in game_log(a.table, a.hands, a.totals, hand):
            if not isinstance(e, GameStarted | GameEnded):
                yield e

    def race(self) -> list[dict[str, int]]:
        """Each side's total before the first hand (all 0) and after every
        hand, up to the last hand whose total is known: a score race."""
        out = [dict.fromkeys(self.sides, 0)]
        for h in self.hands:
            if h.totals is None:
                break
            out.append(dict(h.totals))
        return out

    def record(self) -> dict[str, Any]:
        """The record as loaded (plain JSON data)."""
        return self._analysis.record

    @property
    def margin(self) -> int | None:
        """A finished game's winning margin: the winner's total less the best
        other side's (``None``: unfinished, or a side alone)."""
        if self.winner is None or self.totals is None or len(self.totals) < 2:
            return None
        return self.totals[self.winner] - max(t for s, t in self.totals.items() if s != self.winner)

    @property
    def profile(self) -> Profile:
        """The rule profile the game was played under, the record's house
        ``rules:`` applied (``variant`` is its name)."""
        p = self._analysis.profile
        assert p is not None  # a Game is made only for a seated table
        return p

    def side_of(self, player: str) -> str | None:
        """The side ``player`` scores for (``None``: not at this table)."""
        table = self._analysis.table
        assert table is not None
        seat = table.players.index(player) if player in table.players else None
        return None if seat is None else self.sides[table.unit_of[seat]]

    def members(self, side: str) -> tuple[str, ...]:
        """The players of ``side`` (a fixed team's players, or the player who is
        the side), in seat order; ``()`` for a name that is no side."""
        return tuple(p for p in self.players if self.side_of(p) == side)


def analysis_of(game: Game) -> GameAnalysis:
    """The engine's analysis a ``Game`` reads (for the package's own use:
    ``solve``, the views); not part of the public API."""
    return game._analysis


def game_of(analysis: GameAnalysis, file: str, document: int) -> Game | None:
    """The ``Game`` of an analysed record (``document`` from 1); ``None`` when
    its table could not be seated (an unknown profile, players wrong)."""
    table, profile = analysis.table, analysis.profile
    if table is None or profile is None:
        return None
    rec = analysis.record
    sides = table.unit_names
    teams = ({sides[u]: tuple(table.players[s] for s in table.unit_members(u)) for u in range(len(sides))}
             if profile.has_teams else {})
    return Game(
        file=file, document=document, event=_text(rec.get("event")), date=_text(rec.get("date")),
        round=_text(rec.get("round")), table=_text(rec.get("table")), id=_text(rec.get("id")),
        variant=profile.name, family=Family(profile.family), players=table.players, sides=sides, teams=teams,
        target=profile.target,
        totals=None if analysis.totals is None else dict(zip(sides, analysis.totals, strict=True)),
        winner=analysis.winner, winner_hand=analysis.winner_hand, _analysis=analysis)
