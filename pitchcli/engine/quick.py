"""The engine's quick pass: many clean games decided at once, as arrays.

``pitch validate`` of a league's archive spends its time on hands that break no
rule. ``QuickBatch`` takes the hands of many games of one table (cards as
``Card.index`` ints) and decides every rule of a clean hand for all of them
together, as numpy array operations: the per-hand cost of Python goes, and what
is left is reading the record. It answers only "this game is clean, and here
are its scores" or "don't know" (``None``): anything it does not handle, or any
sign of a broken rule, is a "don't know", and the caller replays that game in
``hand.HandState``, which finds and locates every problem. So the quick pass
can't change a diagnostic: it can only skip the full replay of a game that has
none (``tests/test_engine_quick.py`` holds it to that on simulated games,
broken ones of every kind, and each of its checks broken alone).

The rules are the engine's own data and functions: the rules table
(``tables``: each card's suit, strength and win key per trump, from
``tables.TrumpView``; the highest key wins a trick, as in
``play.winner_by_keys``; the cards that need a void in the suit led, from
``tables.may_follow``; the game points and the jack of each trump), the
auction (``bidding.Auction``, run once per distinct sequence of calls),
``scoring.settle``'s arithmetic and ``game.game_won``; the array code says
which rule each step is.

What it handles: a family that scores awards (Auction Pitch, solo or fixed
teams) where every dealt card is played; hands of three kinds, in any mix
within a game: the whole deal and the tricks (full detail), the tricks alone
(play-level: the deal is what each seat played, and the seats follow from the
cards, as the replay finds them), or a tally (no deal, no tricks: ``points``
says who took each award, and the hand is scored from it); the calls as a
plain list, or a contract alone; the tricks as lists of cards or written with
their leaders (``{lead, cards}``, as ``pitch fmt --fill`` writes them: each
leader a claim held to the one the play gives); a profile whose every option
has a value it knows (``PROFILE_VALUES``, an allow-list).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import chain

import numpy as np

from pitchcli.cards import ALL_CARDS
from pitchcli.engine.bidding import Auction
from pitchcli.engine.family import Exchange, Family, Scoring, WinBy, family_of
from pitchcli.engine.game import game_won
from pitchcli.engine.hand import HandScore, HandState, outside_cards
from pitchcli.engine.scoring import AWARDS, Award, award_points, award_seat_points, tally_seat_points
from pitchcli.engine.table import Table
from pitchcli.engine.tables import GAME_POINTS_I, JACK_I, SUIT_INDEX, SUITS, TWO_I
from pitchcli.profiles import Profile

_CARDS = len(ALL_CARDS)
NO_CARD = 255
"""What a batch's card list holds at a place the record leaves unwritten (a
play-level hand's deal): a byte, as every ``Card.index`` is (``card_rows``)."""
# A card list's byte -> the card shifted by one, 0 for NO_CARD ("not a card"):
# every look-up of the rule arrays is then in range.
_SHIFTED = np.arange(1, 257, dtype=np.int64)
_SHIFTED[NO_CARD] = 0


def card_rows(cards: list[int], rows: int | None = None, width: int = 0) -> np.ndarray:
    """A batch's card list (each a ``Card.index``, or ``NO_CARD``) as an array
    of the cards shifted by one (0: not a card), cut in ``rows`` rows of ``width``
    (``rows`` None: flat). ``bytes`` reads a list of small whole numbers in C
    at a few nanoseconds each, where ``np.array`` of the list took some twenty: a
    batch holds some hundred cards a hand (issue 22)."""
    shifted = _SHIFTED[np.frombuffer(bytes(cards), np.uint8)]
    return shifted if rows is None else shifted.reshape(rows, width)


# Auctions decided so far, per profile and number of players: (dealer, calls)
# -> (bidder, bid), or None for an auction with a problem. A league plays few
# distinct auctions, and an auction depends on nothing else.
_AUCTIONS: dict[object, dict[tuple[int, tuple[object, ...]], tuple[int, int] | None]] = {}
_AUCTIONS_MAX = 50_000  # per table: beyond it, auctions are run, not kept


# How the quick pass covers each rule the full replay can report for a game it
# might decide (Auction hands: full detail, play-level or tallies), by rule id, and each claim and name
# the analysis compares without a rule id, by code. "checked": the arrays (or
# the engine's own code the quick pass calls) test the rule, and a hand that
# breaks it is refused, so that the full replay reports it; "replayed": the
# quick pass never decides such a game, the full replay does. A document with a
# schema diagnostic never reaches the quick pass (check.check_chunk), nor a
# game whose profile or table reports a problem (pipeline.feed.analyze_many), nor a
# hand with a field beyond analysis._QUICK_KEYS. tests/test_engine_quick.py
# breaks each row alone inside a stream of valid games of one table and holds
# the document's diagnostics there to its diagnostics alone, and checks that
# these are the rule ids the engine can raise for Auction Pitch.
COVERAGE: dict[str, str] = {
    "CARD-1": "checked: a card outside the family's deck (a joker) in a trick (of a full or a play-level "
              "hand) is not in RuleArrays.in_deck, and one in a deal is not among the cards played (_hands' "
              "pairs dealt against pairs played): the hand is refused (R401)",
    "CARD-3": "replayed: the schema refuses a text that is no card (S204) before the engine; one that got "
              "past it (a script's record) raises in pipeline.feed.Driver.feed's look-up: its game is replayed",
    "CARD-4": "checked: no equal neighbours in a hand's sorted deal (no card dealt twice, even twice to one "
              "player, issue 28); with the cards played equal to the cards dealt as multisets, none is "
              "played twice either (R402); a play-level hand's deal is its cards played: none twice",
    "AP-TABLE-1": "replayed: a player count (or `players` option) the profile does not take is a problem of "
                  "the table (P302, P303): analyze_many feeds no game whose setup reports one",
    "AP-TABLE-2": "replayed: a team layout the profile does not take (P303, R413 in `teams`) is a problem of "
                  "the table: not fed",
    "AP-DEAL-1": "checked: add_hand refuses a deal of other than `hand` cards to a seat (R403); _hands: the "
                 "cards played are the cards dealt, each played by the seat it was dealt to (R403); a "
                 "play-level hand has no deal to hold the play to (nor has the replay: _check_owners); feed "
                 "refuses a deal of some players only, and a tally hand with a deal (replayed)",
    "AP-DEAL-2": "checked: verdicts: each hand after a game's first is dealt by the seat left of the dealer "
                 "of the hand before (R405)",
    "AP-BID-1": "checked: bidding.Auction, the engine's own, runs each distinct auction and add_hand refuses "
                "a hand whose auction reports anything (R404: a call too many or missing); a call other than "
                "a whole number or 'pass' (PASS) is refused",
    "AP-BID-2": "checked: bidding.Auction (R404: a bid out of range, or not higher); a contract without "
                "bids: _contract runs the engine's own HandState.set_contract once per bid and refuses "
                "the hand if it reports (R404: out of range)",
    "AP-BID-3": "checked: bidding.Auction (R404: a bid after the closing bid)",
    "AP-BID-4": "checked: bidding.Auction (R404: the dealer passing, or bidding under stuck_bid, when "
                "nobody bid)",
    "AP-BID-6": "checked: a recorded contract must be the auction's bidder and bid, else the hand is "
                "refused (C505); _contract refuses a hand with neither bids nor a contract (R414)",
    "AP-PLAY-1": "checked: add_hand refuses other than `hand` tricks (R408) and so an empty first trick "
                 "(R410); _hands: the pitcher leads the first trick, and a recorded trump is the suit of "
                 "the first card led (C506); a trick written with its `lead` (C508, a claim): the seat "
                 "named must lead it (leads_hold), else refused; a lead that is no player's name: refused "
                 "(pipeline.feed.Driver._leads_of)",
    "AP-PLAY-2": "checked: _hands: a card neither of the suit led nor a trump (RuleArrays.void_only, from "
                 "tables.may_follow) from a seat that plays the suit led in that trick or later refuses the "
                 "hand (R407)",
    "AP-PLAY-3": "checked: add_hand refuses a trick of other than one card from each seat (R408); the "
                 "highest win key (play.winner_by_keys's rule) wins and leads next; a tally has no tricks",
    "AP-PLAY-4": "checked: _hands: the seats follow from the cards (each trick led by the winner of the one "
                 "before, from the pitcher), and where the deal is recorded each card must be its seat's "
                 "(else AP-DEAL-1); a recorded `lead` (C508) must be the trick's leader (leads_hold), else "
                 "the hand is refused (a trick written with its leader after one written as its cards: "
                 "the game is fed again, every trick read either way, pipeline.feed.Driver._again)",
    "AP-WIN-1": "checked: verdicts: a game with a hand after the hand that won it (game.game_won) is refused "
                "(R412)",
    "C501": "checked: _Driver.accept compares a hand's `points` with the awards of the arrays; any "
            "difference: replayed (a tally's `points` are what it is scored from: no claim, as in the replay)",
    "C502": "checked: accept compares a hand's `score` with the arrays' score change; any difference: "
            "replayed",
    "C503": "checked: accept compares a hand's `totals` with the running totals; any difference: replayed",
    "C504": "checked: accept compares `result` (winner, scores) with the verdict; any difference: replayed",
    "R413": "replayed: a name that is no player's as a dealer, in a deal or a contract, or no unit's in a "
            "tally's points, makes feed refuse the hand; in a claim (points, score, totals, result) it "
            "differs from the verdict: replayed",
}


def one_of(*values: object) -> Callable[[object], bool]:
    """A test for a value equal to one of ``values`` and of its type (``True``
    is not ``1``, ``0.0`` is not ``0``)."""
    known = frozenset((v.__class__, v) for v in values)
    return lambda v: (v.__class__, v) in known


def whole(v: object) -> bool:
    """A whole number (not a bool)."""
    return v.__class__ is int


def counts(v: object) -> bool:
    """Player counts: a tuple of whole numbers."""
    return v.__class__ is tuple and all(map(whole, v))  # type: ignore[arg-type]


# Every option of a profile (each field of ``profiles.Profile``) with the values
# the quick pass knows. An allow-list: a value not named here (a new ``low``
# rule, a new kind of ``sides``) makes a game the quick pass does not handle,
# so the full replay judges it; an option added to ``Profile`` must be added
# here too (``tests/test_engine_quick.py`` checks that every field is). The
# numbers the quick pass only hands on to the engine's own code (the bids to
# ``bidding.Auction``, the target to ``game.game_won``) or takes from the table
# (the seats, the teams' ``unit_of``) may be any whole number; ``deal == hand``
# is checked with them (every dealt card is played, one per trick).
PROFILE_VALUES: dict[str, Callable[[object], bool]] = {
    "name": lambda v: True,  # a label: no rule reads it
    "family": one_of("auction"),  # High, Low, Jack and Game; trump from the first lead
    "players": counts,  # the table's seats
    "deal": whole,
    "hand": whole,
    "mode": one_of("play-all"),  # nothing exchanged: the cards played are the cards dealt
    "kitty": one_of(0),
    "dead": one_of(0),
    "sides": one_of("solo", "teams"),  # units from the table's unit_of; no called partner
    "team_size": whole,  # (who scores together: the table's unit_of)
    "called_cards": one_of(0),
    "min_bid": whole,  # the bids: bidding.Auction's
    "max_bid": whole,
    "stuck_bid": whole,
    "steal": one_of(True, False),
    "low": one_of("captured", "played"),  # _hands: Low to who captured it, or who played it
    "target": whole,  # the winner: game.game_won's
    "win_on_set": one_of(True, False),
}


def allowed(p: Profile, values: dict[str, Callable[[object], bool]]) -> bool:
    """True when every option of ``p`` has a value its test in ``values`` (an allow-list) takes."""
    return all(test(getattr(p, option)) for option, test in values.items())


def judged_by_identity(test: Callable[[Profile], bool]) -> Callable[[Profile], bool]:
    """``test`` with its answer for the profile judged last kept: the records
    of a stream share one profile object (``profiles.resolve`` keeps the
    built-in ones). Kept by identity, not in a cache keyed by the profile: an
    equal profile may hold a value of another type (6.0 == 6), which the
    allow-lists refuse."""
    last: list[object] = [None, False]

    def judged(p: Profile) -> bool:
        if last[0] is not p:
            last[:] = [p, test(p)]
        return last[1]  # type: ignore[return-value]

    return judged


@judged_by_identity
def _handles(p: Profile) -> bool:
    """``QuickBatch.handles`` for one profile."""
    if not (allowed(p, PROFILE_VALUES) and p.deal == p.hand):
        return False
    fam = family_of(p)  # (a family is made only of a known name)
    # The family's traits the array code builds in, in case a family's data changes.
    return (fam.scoring is Scoring.AWARDS and fam.exchange is Exchange.NONE and not fam.trump_named
            and fam.offsuit_trick_has_winner and fam.win_by is WinBy.PITCHER)


@dataclass(slots=True)
class GameVerdict:
    """A clean game as the quick pass scored it: per hand the score change
    and the running totals of every unit, and the unit that took High, Low,
    Jack and Game (-1: not awarded); the totals after the last hand, the
    winning unit and the number of the hand that won (``None``: unfinished)."""

    deltas: list[list[int]]
    totals_after: list[list[int]]
    taken_by: list[list[int]]
    totals: list[int]
    winner: int | None
    won_after: int | None
    # Per hand: the pitcher's seat, his bid, whether he made it, the seat that
    # took High, Low and Jack (-1: none, or a tally, which names units only).
    bidders: list[int]
    bids: list[int]
    made: list[bool]
    seats: list[list[int]]
    tally: list[bool]
    # Ten-point (point cards, no awards): per hand the points each unit and
    # each seat took (TP-POINTS-1); ``None`` for Auction Pitch's awards.
    points: list[list[int]] | None = None
    seat_points: list[list[int]] | None = None
    partners: list[tuple[int, ...]] | None = None  # per hand, the called partners (TP5-3)

    def scores(self, unit_of: tuple[int, ...]) -> list[HandScore]:
        """What each hand counts for, as the full replay's ``HandResult.score``
        gives it (the same scoring functions): no replay needed to count a game."""
        if self.points is not None and self.seat_points is not None:
            partners = self.partners or [()] * len(self.points)
            return [HandScore(bidder, bid, made, tuple(delta), mates, (), tuple(taken), tuple(seat_taken))
                    for bidder, bid, made, delta, mates, taken, seat_taken in zip(
                        self.bidders, self.bids, self.made, self.deltas, partners, self.points,
                        self.seat_points, strict=True)]
        units = len(self.totals)
        out = []
        for bidder, bid, made, delta, taken_by, seats, tally in zip(
                self.bidders, self.bids, self.made, self.deltas, self.taken_by, self.seats, self.tally, strict=True):
            awards, taken, seat_taken = _awarded(tuple(taken_by), tuple(seats), tally, unit_of, units)
            out.append(HandScore(bidder, bid, made, tuple(delta), (), awards, taken, seat_taken))
        return out


@lru_cache(maxsize=1 << 16)
def _awarded(taken_by: tuple[int, ...], seats: tuple[int, ...], tally: bool, unit_of: tuple[int, ...],
             units: int) -> tuple[tuple[tuple[str, int | None, int | None], ...], tuple[int, ...], tuple[int, ...]]:
    """A hand's awards (kind, unit, seat), the points each unit and each seat
    took, from who took High, Low, Jack and Game: the scoring functions' answer
    (the same as the full replay's), kept per pattern, since a league's hands
    repeat a few thousand of them."""
    awards = {kind: Award(kind, None if u < 0 else u, seat=None if s < 0 else s)
              for kind, u, s in zip(AWARDS, taken_by, (*seats, -1), strict=True)}
    taken = award_points(awards, units)
    seat_taken = tally_seat_points(taken, unit_of) if tally else award_seat_points(awards, len(unit_of))
    return tuple((k, a.unit, a.seat) for k, a in awards.items()), tuple(taken), tuple(seat_taken)


class RuleArrays:
    """The rules table (``tables``) as arrays, for one family: per trump suit,
    each card's suit for following, its strength as a trump and its value as a
    point card (ten-point, TP-POINTS-1); per trump and suit led, its win key and
    whether only a player void in the suit led may play it. Card axes are
    shifted by one: index 0 is "no card"."""

    def __init__(self, fam: Family) -> None:
        views = [fam.view(t) for t in SUITS]
        # Index 0 of the card axis is "no card" (a text that is none): cards are shifted by one.
        self.printed_suit = np.array([-1, *(SUIT_INDEX.get(c.suit, -1) for c in ALL_CARDS)])  # type: ignore[arg-type]
        self.suit = np.array([[-1, *(SUIT_INDEX[v.suit_i[c]] for c in range(_CARDS))] for v in views])
        self.strength = np.array([[0, *v.strength_i] for v in views])
        self.key = np.array([[[0, *v.win_key[led]] for led in SUITS] for v in views])
        self.void_only = np.array([[[False, *(c in v.void_only[led] for c in range(_CARDS))] for led in SUITS]
                                   for v in views])
        self.suit_by_led = np.broadcast_to(self.suit[:, None, :], self.key.shape).copy()  # (for ``suit_of``)
        self.points = np.array([0, *GAME_POINTS_I])  # AP-SCORE-4
        self.jack = np.array([JACK_I[t] + 1 for t in SUITS])
        self.value = np.array([[0, *v.points_i] for v in views])  # TP-POINTS-1 (none in Auction Pitch)
        self.is_trump = self.strength > 0
        self.is_point = self.value > 0
        self.two = np.array([TWO_I[t] + 1 for t in SUITS])  # TP-POINTS-1: to who played it
        outside = outside_cards(fam)
        self.in_deck = np.array([False] + [c not in outside for c in range(_CARDS)])

    def by_trump_led(self, trump: np.ndarray, led: np.ndarray, cards: np.ndarray) -> np.ndarray:
        """Each card of ``cards`` (hands by tricks by places) as one index
        into the arrays by trump, suit led and card (``key``, ``void_only``,
        ``suit_by_led``), for ``take``: ``trump`` per hand, ``led`` per
        trick. (Indexing by the three arrays broadcast took three times as
        long as one such index and a ``take`` per array.)"""
        return (trump[:, None] * len(SUITS) + led)[:, :, None] * (_CARDS + 1) + cards

    def suit_of(self, tlc: np.ndarray) -> np.ndarray:
        """Each card's suit for following, under its hand's trump (0 for no
        card), from ``by_trump_led``'s index."""
        suit = self.suit_by_led.take(tlc)
        suit[suit < 0] = 0
        return suit


class QuickBatch:
    """The hands of many games at one table (one profile, one seating).

    ``begin_game``, then ``add_hand`` (a hand with tricks) or ``add_tally``
    (a tally) for each hand in order (False: the game can't be decided here;
    ``drop_game`` then takes its hands out), then ``decide`` gives a
    ``GameVerdict`` or ``None`` per game begun and not dropped.
    """

    exchanges = False  # its hands have no discards or draws (pipeline.feed.Driver.feed)

    def __init__(self, table: Table) -> None:
        self.table = table
        self.p = p = table.profile
        self.fam = family_of(p)
        self.n = table.seats
        self.size = p.hand
        self.cards = self.n * p.hand  # the cards of a hand's tricks
        self.auctions = _AUCTIONS.setdefault((p, self.n), {})
        self.dealt: list[int] = []
        self.played: list[int] = []
        self.dealer: list[int] = []
        self.bidder: list[int] = []
        self.bid: list[int] = []
        self.trump_claims: list[int] = []  # per hand with tricks: a recorded trump (its SUIT_INDEX), -1: none
        self.games: list[int] = []  # the first hand of each game
        # Per hand with tricks: its index among the hands, and whether its deal
        # is recorded (a play-level hand's deal is what each seat played).
        self.card_hands: list[int] = []
        self.has_deal: list[bool] = []
        # Per tally hand (no tricks): its index and the unit that took High,
        # Low, Jack and Game as the record says (-1: not awarded).
        self.tally_hands: list[int] = []
        self.tally_taken: list[list[int]] = []
        # Each trick's leader as the record writes it (``{lead, cards}``, a claim:
        # C508), where it does: the trick's place among the tricks of the hands
        # with tricks (hand * ``size`` + trick, growing), and the seat named.
        self.lead_at: list[int] = []
        self.lead_seat: list[int] = []
        self.contracts: dict[object, bool] = {}  # bid -> is a contract of it without bids allowed

    @staticmethod
    def handles(table: Table) -> bool:
        """True for the games the quick pass knows: every option of the
        profile has a value of ``PROFILE_VALUES`` (awards scoring, every dealt
        card played, no called partner, as many cards dealt as tricks, a Low
        rule it knows ...); any other value, the full replay's."""
        return _handles(table.profile)

    def _auction(self, dealer: int, calls: tuple[object, ...]) -> tuple[int, int] | None:
        """The bidder and bid the engine's ``Auction`` makes of ``calls``
        (None: a violation), kept for the next hand with the same calls
        (``contract_of`` looks there first)."""
        out: tuple[int, int] | None = None
        if all(c.__class__ is int or c == "pass" for c in calls):
            a = Auction(self.p, self.fam, self.table.players, dealer)
            for c in calls:
                a.call(None if c.__class__ is str else c)  # type: ignore[arg-type]
            a.close()
            if not a.violations and a.bidder is not None and a.bid is not None:
                out = a.bidder, a.bid
        if len(self.auctions) < _AUCTIONS_MAX:
            self.auctions[dealer, calls] = out
        return out

    def _contract(self, contract: tuple[int, object] | None) -> tuple[int, int] | None:
        """A hand without bids: its recorded contract, if the engine's own
        ``HandState.set_contract`` takes it (AP-BID-2: a bid in range)."""
        if contract is None or contract[1].__class__ is not int:
            return None  # AP-BID-6: neither bids nor a contract (R414)
        bidder, bid = contract
        known = self.contracts.get(bid)
        if known is None:
            hs = HandState(self.table, 0)
            hs.set_contract(0, bid)  # type: ignore[arg-type]
            known = self.contracts[bid] = not hs.violations
        return (bidder, bid) if known else None  # type: ignore[return-value]

    def contract_of(self, dealer: int, calls: tuple[object, ...] | None,
                    contract: tuple[int, object] | None) -> tuple[int, int] | None:
        """The bidder and bid of a hand (AP-BID-1..6), or None: not decided here."""
        if calls is None:
            return self._contract(contract)
        won = self.auctions.get((dealer, calls), False)  # (the auction run before: most are)
        if won is False:
            won = self._auction(dealer, calls)
        if won is None or (contract is not None and contract != won):  # AP-BID-6: the claim agrees
            return None
        return won

    def claim_leads(self, leads: Sequence[tuple[int, int]]) -> None:
        """The leaders the hand with tricks added next records: (trick, seat)
        for each trick written with its ``lead`` (C508: a claim, held to the
        leader the play gives in ``leads_hold``)."""
        base = len(self.card_hands) * self.size
        for trick, seat in leads:
            self.lead_at.append(base + trick)
            self.lead_seat.append(seat)

    def leads_hold(self, leader: np.ndarray) -> np.ndarray:
        """Per hand with tricks (``leader``: per hand and trick, the seat
        that leads it, as the play gives it): whether every leader the record
        writes down is that seat. AP-PLAY-1, AP-PLAY-4, TP-BID-2, TP4-6: a
        recorded leader is a claim (C508), and a hand with a wrong one is
        refused, for the full replay to report."""
        ok = np.ones(len(leader), bool)
        if self.lead_at:
            at = np.array(self.lead_at, np.int64)
            wrong = leader.ravel()[at] != np.array(self.lead_seat, np.int64)
            ok[at[wrong] // self.size] = False
        return ok

    def seat_hand(self, dealer: int, won: tuple[int, int]) -> None:
        """The hand added last: its dealer, and its bidder and bid (``won``)."""
        self.dealer.append(dealer)
        self.bidder.append(won[0])
        self.bid.append(won[1])

    def begin_game(self) -> None:
        """The hands added next are a new game's."""
        self.games.append(len(self.dealer))

    def drop_game(self) -> None:
        """Take the hands of the game begun last out of the batch."""
        start = self.games.pop()
        first = bisect_left(self.card_hands, start)  # (the hands' indices grow)
        del self.dealt[self._dealt_before(first):], self.played[first * self.cards:]
        del self.card_hands[first:], self.has_deal[first:], self.trump_claims[first:]
        cut = bisect_left(self.lead_at, first * self.size)
        del self.lead_at[cut:], self.lead_seat[cut:]
        first = bisect_left(self.tally_hands, start)
        del self.tally_hands[first:], self.tally_taken[first:]
        del self.dealer[start:], self.bidder[start:], self.bid[start:]

    def _dealt_before(self, first: int) -> int:
        """How many of ``dealt``'s entries are the deals of the first ``first``
        hands with cards: here only recorded deals are kept (a play-level hand's
        deal is its cards played)."""
        return sum(self.has_deal[:first]) * self.cards

    def add_hand(self, dealer: int, calls: tuple[object, ...] | None, contract: tuple[int, object] | None,
                 trump: str | None, held: list[list[str]] | None, tricks: list[list[str]],
                 card: Callable[[str], int], leads: Sequence[tuple[int, int]] = ()) -> bool:
        """One hand of the game begun last: ``held``, the cards dealt to each
        seat in seat order (``None``: a play-level hand, whose deal is what
        each seat played); ``tricks``, the cards of the tricks, each from its
        leader; ``card`` reads a card's text as its ``Card.index`` (and raises
        ``KeyError`` or ``TypeError`` for a text that is no card). ``calls`` the bids (``None``:
        none recorded, the contract stands alone); ``trump`` and ``contract``
        (bidder, bid) are what the record claims, if it does, and ``leads``
        the leaders it writes down: (trick, seat) for each (``claim_leads``). False when the
        hand is surely not one the quick pass decides. (An exception from
        reading the cards, or a False, leaves the batch to ``drop_game``, which
        also takes out the cards of a hand refused half read.)"""
        won = self.contract_of(dealer, calls, contract)
        # AP-PLAY-1, AP-PLAY-3: ``hand`` tricks of one card from each seat:
        # ``hand`` tricks of ``seats * hand`` cards in all, none longer than
        # ``seats``, have ``seats`` cards each.
        if won is None or len(tricks) != self.size:
            return False
        played, dealt, cards = self.played, self.dealt, self.cards
        start = len(played)
        played += map(card, chain.from_iterable(tricks))
        if len(played) - start != cards or max(map(len, tricks)) != self.n:
            return False
        if held is not None:  # (a play-level hand's deal is its cards played: ``_hands`` reads them as such)
            # AP-DEAL-1: each seat dealt ``hand`` cards (the same count argument).
            start = len(dealt)
            dealt += map(card, chain.from_iterable(held))
            if len(dealt) - start != cards or len(held) != self.n or max(map(len, held)) != self.size:
                return False
        if leads:
            self.claim_leads(leads)
        self.card_hands.append(len(self.dealer))
        self.has_deal.append(held is not None)
        self.dealer.append(dealer)
        self.bidder.append(won[0])
        self.bid.append(won[1])
        self.trump_claims.append(-1 if trump is None else SUIT_INDEX[trump])
        return True

    def add_tally(self, dealer: int, calls: tuple[object, ...] | None, contract: tuple[int, object] | None,
                  taken_by: list[int]) -> bool:
        """A tally hand of the game begun last (no tricks, no deal): who took
        High, Low, Jack and Game (a unit, -1: not awarded), as the record says;
        ``calls`` and ``contract`` as for ``add_hand``. False when the hand is
        surely not one the quick pass decides."""
        won = self.contract_of(dealer, calls, contract)
        if won is None:
            return False
        self.tally_hands.append(len(self.dealer))
        self.tally_taken.append(taken_by)
        self.seat_hand(dealer, won)
        return True

    def decide(self) -> list[GameVerdict | None]:
        """Every game of the batch decided: its verdict, or ``None``."""
        if not self.games:
            return []
        hands = len(self.dealer)
        ok = np.ones(hands, bool)
        taken_by = np.full((hands, 4), -1, np.int64)
        seats = np.full((hands, 3), -1, np.int64)
        tally = np.zeros(hands, bool)
        if self.card_hands:
            at = np.array(self.card_hands)
            ok[at], taken_by[at], seats[at] = self._hands()
        if self.tally_hands:  # the record's own tally: what the hand is scored from
            at = np.array(self.tally_hands)
            taken_by[at] = np.array(self.tally_taken, np.int64).reshape(-1, 4)
            tally[at] = True
        units = len(self.table.unit_names)
        # AP-SCORE-3: a point per award (a unit shifted by one: -1, nobody's, is column 0)
        taken = per_unit(taken_by + 1, np.ones_like(taken_by), units + 1)[:, 1:]
        made, delta = self.settle(taken)
        return self.verdicts(ok, made, delta, taken_by, seats, tally)

    def settle(self, taken: np.ndarray, side: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Each hand's score from the points each unit took (``taken``: hands
        by units): whether the pitcher made his bid, and each unit's score
        change. ``side`` (hands by units, True for the bidding side: the
        bidder and his called partners) pools the points, TP5-5."""
        ar = np.arange(len(taken))
        bid = np.array(self.bid, np.int64)
        if side is not None:
            # TP5-5 (scoring.settle, pooled): each of the bidding side scores
            # what the side took if that makes the bid, else minus the bid;
            # each of the others what the others took.
            side_total = (taken * side).sum(1)
            made = side_total >= bid
            other_total = taken.sum(1) - side_total
            return made, np.where(side, np.where(made, side_total, -bid)[:, None], other_total[:, None])
        # AP-SCORE-5/6 (scoring.settle): the pitcher's unit scores what it took
        # if that makes the bid, else minus the bid; the others what they took.
        pitcher = np.array(self.table.unit_of)[np.array(self.bidder, np.int64)]
        side = taken[ar, pitcher]
        made = side >= bid
        delta = taken.copy()
        delta[ar, pitcher] = np.where(made, side, -bid)
        return made, delta

    def _hands(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The rules of every hand with tricks at once: whether it is clean,
        the unit that took High, Low, Jack and Game (-1: nobody), and the seat
        that took High, Low and Jack (-1: nobody)."""
        t = rule_arrays(self.fam)
        n, size = self.n, self.size
        h = len(self.card_hands)
        played = card_rows(self.played, h, n * size)
        at = np.array(self.card_hands)
        bidder = np.array(self.bidder)[at]
        has_deal = np.array(self.has_deal)
        # CARD-1, CARD-3: cards of the deck only (the cards dealt are the
        # cards played: below).
        ok = t.in_deck[played].all(1)
        recorded = has_deal.any()  # (a batch of play-level hands alone has no deal to hold the play to)
        if recorded:
            dealt = card_rows(self.dealt, int(has_deal.sum()), n * size)
        cards = played.reshape(h, size, n)
        trump = t.printed_suit[cards[:, 0, 0]]  # AP-PLAY-1: the suit of the first card led
        claimed = np.array(self.trump_claims)
        ok &= (claimed < 0) | (claimed == trump)  # a recorded trump is a claim of it
        trump[trump < 0] = 0  # (no suit: a hand refused above; any suit keeps the look-ups in range)
        led = t.suit[trump[:, None], cards[:, :, 0]]
        led[led < 0] = 0
        tlc = t.by_trump_led(trump, led, cards)
        # AP-PLAY-3: the highest win key wins (its place in the trick, which
        # the cards alone decide); AP-PLAY-1: the pitcher leads the first
        # trick; AP-PLAY-4: the winner leads next; AP-TABLE-3: each trick is
        # played clockwise from its leader. So the seats follow from the cards.
        wins = t.key.take(tlc).argmax(2)
        steps = np.zeros((h, size), np.int64)
        steps[:, 1:] = wins[:, :-1].cumsum(1)
        leader = (bidder[:, None] + steps) % n
        ok &= self.leads_hold(leader)  # a leader written down is a claim (C508)
        by_trick = clockwise(leader, n)
        seats = by_trick.reshape(h, n * size)
        winner = (leader + wins) % n
        # AP-DEAL-1: the cards played are the cards dealt, as many times each,
        # and who played each card is who was dealt it: each hand's (card,
        # seat) pairs played, sorted, are its pairs dealt, sorted (a
        # play-level hand's "deal" is its cards played, by the seats that
        # played them). One comparison of sorted codes (card * n + seat) says
        # both. CARD-4: no card dealt twice (no two equal cards side by side
        # in the sorted deal), so, with the line before, none played twice
        # either. This does not follow from the pairs: a card dealt twice to
        # the SAME player, who plays it twice (its second copy maybe written
        # `9d` or `9♦`), leaves every pair in place.
        played_at = played * n + seats
        if recorded:
            dealt_at = dealt * n + _dealt_seats(n, size)
            if len(dealt) < h:  # (a batch of mixed levels; most have a deal for every hand)
                mixed = played_at.copy()
                mixed[has_deal] = dealt_at
                dealt_at = mixed
            in_order = np.sort(dealt_at, 1)
            ok &= (np.sort(played_at, 1) == in_order).all(1)
        else:
            in_order = np.sort(played_at, 1)
        in_order //= n  # (the cards, in order)
        ok &= (in_order[:, 1:] != in_order[:, :-1]).all(1)
        ok[unfollowed(t, tlc, led, cards, by_trick)] = False  # AP-PLAY-2
        # AP-SCORE-1..4: High, Low, Jack to whoever takes them, Game on game points.
        unit_of = np.array(self.table.unit_of)
        units = len(self.table.unit_names)
        tallies = per_unit(unit_of[winner], t.points[cards].sum(2), units)
        strength = t.strength[trump[:, None], played]
        ar = np.arange(h)
        any_trump = strength.max(1) > 0
        # (The seat that took each: the trick's winner, or for Low with ``low:
        # played`` the seat that played it, as scoring.auction_awards says.)
        high_by = winner[ar, strength.argmax(1) // n]
        high = np.where(any_trump, unit_of[high_by], -1)
        low_at = np.where(strength > 0, strength, 1 << 30).argmin(1)
        low_by = seats[ar, low_at] if self.p.low == "played" else winner[ar, low_at // n]
        low = np.where(any_trump, unit_of[low_by], -1)
        is_jack = played == t.jack[trump][:, None]
        jack_by = winner[ar, is_jack.argmax(1) // n]
        jack = np.where(is_jack.any(1), unit_of[jack_by], -1)
        top = tallies.max(1)
        game = np.where((tallies == top[:, None]).sum(1) == 1, tallies.argmax(1), -1)  # AP-SCORE-2
        by = np.stack([np.where(high < 0, -1, high_by), np.where(low < 0, -1, low_by),
                       np.where(jack < 0, -1, jack_by)], 1)
        return ok, np.stack([high, low, jack, game], 1), by

    def verdicts(self, ok: np.ndarray, made: np.ndarray, delta: np.ndarray, taken_by: np.ndarray,
                 seats: np.ndarray, tally: np.ndarray, points: np.ndarray | None = None,
                 seat_points: np.ndarray | None = None,
                 partners: list[tuple[int, ...]] | None = None,
                 holders: list[list[int]] | None = None) -> list[GameVerdict | None]:
        """Per game: the dealer's turn (AP-DEAL-2), the running totals and the
        winner (``game.game_won``); ``ok`` per hand: its rules held. ``points``
        and ``seat_points`` (ten-point): what each unit and seat took, per hand;
        ``partners`` and ``holders`` (TP5-3): per hand the called partners
        (seats, sorted) and the holder of each called card, in calling order."""
        n = self.n
        hands = len(self.dealer)
        starts = np.array(self.games)
        first = np.zeros(hands, bool)
        first[starts[starts < hands]] = True
        dealer = np.array(self.dealer)
        # AP-DEAL-2: after the first hand, the deal passes to the left.
        turn = np.ones(hands, bool)
        turn[1:] = first[1:] | (dealer[1:] == (dealer[:-1] + 1) % n)
        ok &= turn
        # The running totals: one sum over the batch, less what the games before had.
        running = delta.cumsum(0)
        game_of = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, hands)))  # (a game may have no hand)
        before = np.zeros((len(starts), delta.shape[1]), np.int64)
        before[starts > 0] = running[starts[starts > 0] - 1]
        totals = running - before[game_of]
        target = self.p.target
        made_l, delta_l, totals_l = made.tolist(), delta.tolist(), totals.tolist()
        taken_l = taken_by.tolist()
        seats_l, tally_l = seats.tolist(), tally.tolist()
        points_l = None if points is None else points.tolist()
        seat_points_l = None if seat_points is None else seat_points.tolist()
        game_l = game_of.tolist()
        broken = set(game_of[~ok].tolist())
        bidder, unit_of, units = self.bidder, self.table.unit_of, len(self.table.unit_names)
        # AP-WIN-1..3: the first hand after which a unit at the target wins, per game.
        won: dict[int, tuple[int, int]] = {}  # game -> (winning unit, its hand's index)
        # (The arguments of game_won made cheaply, as a hand or two of most games
        # has a unit at the target: the units at it as a pattern of bits, each
        # pattern's tuple made once; the pitcher's side alone, once per seat.)
        at = totals >= target
        patterns = (at * (1 << np.arange(units))).sum(1).tolist()
        at_target_of = [tuple(u for u in range(units) if bits >> u & 1) for bits in range(1 << units)]  # (<= 8 units)
        alone = [frozenset((u,)) for u in unit_of]
        for i in np.flatnonzero(at.any(1)).tolist():
            g = game_l[i]
            if g in broken or g in won:
                continue
            b = bidder[i]
            w, reason = game_won(self.fam, self.p, unit_of, totals_l[i], at_target_of[patterns[i]], b, made_l[i],
                                 alone[b] if partners is None else frozenset(unit_of[s] for s in (b, *partners[i])),
                                 [] if holders is None else holders[i])
            if w is not None and reason is not None:
                won[g] = w, i
        out: list[GameVerdict | None] = []
        bounds = [*self.games, hands]
        for g in range(len(self.games)):
            start, end = bounds[g], bounds[g + 1]
            winner, at = won.get(g, (None, None))
            if g in broken or (at is not None and at + 1 < end):
                out.append(None)  # a rule broken, or hands recorded after the game was won (AP-WIN-1)
                continue
            out.append(GameVerdict(delta_l[start:end], totals_l[start:end], taken_l[start:end],
                                   totals_l[end - 1] if end > start else [0] * units, winner,
                                   None if at is None else at - start + 1, bidder[start:end],
                                   self.bid[start:end], made_l[start:end], seats_l[start:end],
                                   tally_l[start:end], None if points_l is None else points_l[start:end],
                                   None if seat_points_l is None else seat_points_l[start:end],
                                   None if partners is None else partners[start:end]))
        return out


def unfollowed(t: RuleArrays, tlc: np.ndarray, led: np.ndarray, cards: np.ndarray,
               by_trick: np.ndarray) -> np.ndarray:
    """The hands (indices) where a card neither of the suit led nor a trump
    comes from a seat that holds a card of the suit led (AP-PLAY-2, TP-PLAY-1:
    ``tables.may_follow``). ``cards``: per hand, trick and place, the card
    (shifted by one); ``tlc`` the same as ``RuleArrays.by_trump_led`` indexes
    them; ``led`` the suit led and ``by_trick`` the seat at each place. A
    seat's holding at a trick is what it plays then and later (every card
    held is played), so it holds the suit led if it plays that suit in this
    trick or later (in this one it played the off card: "later" and "from
    this one on" agree)."""
    h, size, n = cards.shape
    off_h, off_k, off_j = np.nonzero(t.void_only.take(tlc))
    if not len(off_h):
        return off_h
    suit = t.suit_of(tlc)
    # Each seat's suits from each trick on, as bits (1 << suit), per hand,
    # trick and seat: each card's bit put at its seat (the place's seat,
    # clockwise from the leader), then or-ed from the last trick back. (One
    # put by flat index, and a trick at a time: a handful of tricks, where
    # indexing by three arrays and ``bitwise_or.accumulate`` cost half again.)
    held = np.empty(h * size * n, np.int64)
    held[np.arange(0, h * size * n, n).reshape(h, size, 1) + by_trick] = np.left_shift(1, suit)
    held = held.reshape(h, size, n)
    for k in range(size - 2, -1, -1):
        held[:, k] |= held[:, k + 1]
    broke = held[off_h, off_k, by_trick[off_h, off_k, off_j]] >> led[off_h, off_k] & 1
    return off_h[broke.astype(bool)]


def per_unit(unit: np.ndarray, value: np.ndarray, units: int) -> np.ndarray:
    """Per row, the sum of ``value`` over each unit (``unit``: a unit per
    value, of the same shape): rows by units. (One ``bincount``, where a sum
    per unit cost four times as much.)"""
    h = len(unit)
    at = (np.arange(h)[:, None] * units + unit).ravel()
    return np.bincount(at, value.ravel(), h * units).reshape(h, units).astype(np.int64)


@cache
def _dealt_seats(n: int, size: int) -> np.ndarray:
    """The seat dealt each card of a deal, as a batch holds it (seat by seat)."""
    return np.repeat(np.arange(n), size)


def clockwise(leader: np.ndarray, n: int) -> np.ndarray:
    """The seat at each place of each trick, clockwise from its ``leader``
    (AP-TABLE-3): ``leader`` with a last axis of ``n`` places added. (A
    look-up in a table of the ``n`` rotations: a gather costs less than the
    modulo of every place.)"""
    return _rotations(n)[leader]


@cache
def _rotations(n: int) -> np.ndarray:
    return (np.arange(n)[:, None] + np.arange(n)) % n


@cache
def rule_arrays(fam: Family) -> RuleArrays:
    """The rule arrays of a family (made once)."""
    return RuleArrays(fam)
