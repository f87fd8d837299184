"""One hand as a state machine: deal -> auction -> (exchange) -> play -> score.

The caller feeds the steps of a hand in order, each with an opaque location
``at``; each step checks its own legality and records a ``Violation`` for each
broken rule, then applies the step as best it can, so that one pass finds all
the problems of a hand. ``finish`` runs the checks that need the whole hand
(card conservation, following suit, the cards held) and scores it.

Following suit (AP-PLAY-2) needs what a player held when he played. Every card
a player holds when play starts is played, so his holding at trick *k* is the
cards he plays in tricks *k* and later; this works the same whether or not the
deal is recorded (when it is, ``finish`` checks that it matches the play).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import NamedTuple, overload

from pitchcli.cards import ALL_CARDS, Card, describe
from pitchcli.engine.bidding import Auction, Call
from pitchcli.engine.family import Family, family_for, suit_words
from pitchcli.engine.outcome import GameEnd, TargetNote
from pitchcli.engine.play import Play, Trick, WonWith, may_play, trick_keys, winner_by_keys
from pitchcli.engine.scoring import (
    Award,
    PointCredit,
    auction_awards,
    award_points,
    award_seat_points,
    credited,
    settle,
    tally_seat_points,
    ten_point_credits,
)
from pitchcli.engine.table import Table
from pitchcli.engine.tables import TrumpView
from pitchcli.engine.violations import Violation


class Cards:
    """One list of cards of the record, as the engine keeps it: the cards as
    ints (``Card.index``) and where the list is (``at``). The location of one
    card, a JSON Pointer string, is made only when a message needs it
    (``where``): almost none is ever shown. ``pos`` is each card's index in
    the record's list when some were left out (not cards, not of the deck);
    ``single`` marks a list that stands for one value at ``at`` (partner.card).
    """

    __slots__ = ("at", "ints", "pos", "single")

    def __init__(self, ints: list[int], at: str, pos: list[int] | None = None,
                 single: bool = False) -> None:
        self.ints = ints
        self.at = at
        self.pos = pos
        self.single = single

    def __len__(self) -> int:
        return len(self.ints)

    def where(self, j: int) -> str:
        """The location of the ``j``-th card."""
        if self.single:
            return self.at
        return f"{self.at}/{j if self.pos is None else self.pos[j]}"

    def keep(self, kept: list[int]) -> Cards:
        """The cards at positions ``kept`` (the rest left out)."""
        pos = self.pos
        return Cards([self.ints[j] for j in kept], self.at,
                     [j if pos is None else pos[j] for j in kept], self.single)


class Holding:
    """The cards a player holds at a step of the exchange, as ints (``ints``):
    the cards of one or more of the record's lists (``parts``: his deal, then
    the kitty or his draws), in that order, less those ``gone`` (discarded).
    Like ``Cards``, a card's location is made only when a message names it
    (``where``): a clean exchange locates none."""

    __slots__ = ("gone", "ints", "parts")

    def __init__(self, parts: tuple[Cards, ...], gone: frozenset[int] = frozenset(),
                 ints: list[int] | None = None) -> None:
        self.parts = parts
        self.gone = gone
        if ints is None:
            ints = parts[0].ints if len(parts) == 1 else [c for p in parts for c in p.ints]
        self.ints = ints

    def __len__(self) -> int:
        return len(self.ints)

    def where(self, j: int) -> str:
        """The location of the ``j``-th card."""
        for p in self.parts:
            for k, c in enumerate(p.ints):
                if c in self.gone:
                    continue
                if j == 0:
                    return p.where(k)
                j -= 1
        raise IndexError(j)

    def without(self, gone: set[int]) -> Holding:
        """The cards not in ``gone``, each still where the record has it."""
        return Holding(self.parts, self.gone | gone, [c for c in self.ints if c not in gone])


class TrickList(Sequence[Trick]):
    """A hand's tricks as ``Trick`` objects, made when first read: the checks
    of a clean hand work on ints and never need them."""

    __slots__ = ("_items", "_make")

    def __init__(self, make: Callable[[], list[Trick]]) -> None:
        self._make: Callable[[], list[Trick]] | None = make
        self._items: list[Trick] = []

    def _all(self) -> list[Trick]:
        if self._make is not None:
            self._items, self._make = self._make(), None
        return self._items

    @overload
    def __getitem__(self, i: int) -> Trick: ...
    @overload
    def __getitem__(self, i: slice) -> list[Trick]: ...
    def __getitem__(self, i: int | slice) -> Trick | list[Trick]:
        return self._all()[i]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[Trick]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        return list(self) == (list(other) if isinstance(other, Sequence) else other)

    def __repr__(self) -> str:
        return repr(self._all())


@cache
def _trick_of_play(seats: int, plays: int) -> tuple[int, ...]:
    """The trick index of each card played, in play order."""
    return tuple(i // seats for i in range(plays))


@cache
def _play_orders(seats: int) -> tuple[tuple[int, ...], ...]:
    """For each leader, the seats in play order, clockwise from him (AP-TABLE-3)."""
    return tuple(tuple((lead + i) % seats for i in range(seats)) for lead in range(seats))


def _as_cards(ints: list[int]) -> list[Card]:
    """The ``Card`` of each int (``Card.index``), for a result."""
    return list(map(ALL_CARDS.__getitem__, ints))


_OUTSIDE: dict[str, frozenset[int]] = {}


def outside_cards(fam: Family) -> frozenset[int]:
    """The cards (``Card.index``) that exist but are not in the family's deck
    (the jokers, for Auction Pitch). Kept by family name: hashing the deck
    itself, 52 cards, for every hand would cost more than the hand's checks."""
    out = _OUTSIDE.get(fam.name)
    if out is None:
        out = _OUTSIDE[fam.name] = frozenset(c.index for c in ALL_CARDS) - frozenset(
            c.index for c in fam.deck)
    return out


class HandScore(NamedTuple):
    """What a scored hand counts for, and nothing more: the pitcher (a seat)
    and his bid, whether he made it, each unit's score change (``delta``), the
    called partners (seats), the Auction Pitch ``awards`` (each as its kind,
    the unit that took it and the seat that did, ``None`` where none did or a
    tally does not say; empty in ten-point), what each unit took (``taken``) and each
    seat (``seat_taken``), as ``HandResult`` has them.

    The full replay gives one per ``HandResult`` (``HandResult.score``); the
    quick pass makes them from its arrays without replaying the game
    (``GameVerdict.scores``), so that counting a game (``pitch summarize``)
    costs no replay. Both read the same rules; ``tests/engine/test_engine_quick.py``
    holds the two to the same values."""

    bidder: int
    bid: int
    made: bool
    delta: tuple[int, ...]
    partners: tuple[int, ...]
    awards: tuple[tuple[str, int | None, int | None], ...]
    taken: tuple[int, ...]
    seat_taken: tuple[int, ...]


class HandResult:
    """What a hand came to: everything a view shows about it, so that no view
    works out a rule (see ``pitchcli.engine.results``).

    Seats and units are indices (``Table.players``, ``Table.unit_names``);
    ``taken``, ``delta`` and ``totals`` are per unit. ``tricks`` carry their
    leader, winner, why (``WonWith``) and value; ``awards`` are the Auction
    Pitch points (High, Low, Jack, Game, with the cards that earned them) and
    ``game_points`` each unit's tally (AP-SCORE-4); ``credits`` the ten-point
    point cards, the 2 of trumps credited to who played it (TP-POINTS-1).
    ``credits`` are ordered highest trump first; ``out_of_play`` are the point
    cards in no trick (set aside at the deal).
    ``seat_taken`` is the points per seat (in a tally with teams only the team's
    points are known: a member's entry is 0). ``side_took`` is what the bidding
    side took, ``made`` whether that makes the bid, ``settle_rule`` the rule of
    the score change. The game fills in ``totals`` (after this hand; ``None``
    when unknown), ``end`` (when this hand ends the game) and ``at_target``
    (the units at or above the target that did not win, and why).
    """

    # (A plain class, not a dataclass: one is made per hand, and a dataclass
    # compiles its generated methods when the module is imported, which
    # `pitch validate ONE_FILE` pays for: docs/architecture.md, "a record type".)
    __slots__ = ("at_target", "awards", "bid", "bidder", "bidding_units", "called", "calls", "card_holders",
                 "credits", "dead", "dealer", "dealt", "delta", "discards", "draws", "end", "family", "game_points",
                 "kitty", "level", "made", "number", "other_took", "out_of_play", "partners", "seat_taken",
                 "settle_rule", "side_took", "stuck", "taken", "totals", "tricks", "trump")

    def __init__(self, number: int, dealer: int, bidder: int, bid: int, calls: list[Call], trump: str | None,
                 partners: list[int], card_holders: list[int], tricks: Sequence[Trick],
                 awards: dict[str, Award], game_points: list[int], taken: list[int],
                 bidding_units: frozenset[int], made: bool, delta: list[int], level: str,
                 stuck: bool = False, family: Family | None = None, credits: list[PointCredit] | None = None,
                 seat_taken: list[int] | None = None, side_took: int = 0, other_took: int = 0,
                 settle_rule: str = "", out_of_play: list[Card] | None = None,
                 called: list[Card] | None = None, discards: dict[int, list[Card]] | None = None,
                 draws: dict[int, list[Card]] | None = None, dealt: dict[int, list[Card]] | None = None,
                 kitty: list[Card] | None = None, dead: list[Card] | None = None,
                 totals: list[int] | None = None, end: GameEnd | None = None,
                 at_target: tuple[TargetNote, ...] = ()) -> None:
        self.number = number
        self.dealer = dealer
        self.bidder = bidder
        self.bid = bid
        self.calls = calls
        self.trump = trump
        self.partners = partners
        self.card_holders = card_holders  # TP5-3: the holder of each called card, in calling order
        self.tricks = tricks
        self.awards = awards
        self.game_points = game_points
        self.taken = taken
        self.bidding_units = bidding_units
        self.made = made
        self.delta = delta
        self.level = level  # "full", "play" or "tally"
        self.stuck = stuck
        self.family = family
        self.credits: list[PointCredit] = [] if credits is None else credits
        self.seat_taken: list[int] = [] if seat_taken is None else seat_taken
        self.side_took = side_took
        self.other_took = other_took  # what the units outside the bidding side took together
        self.settle_rule = settle_rule
        # ten-point point cards in no trick
        self.out_of_play: list[Card] = [] if out_of_play is None else out_of_play
        self.called: list[Card] = [] if called is None else called  # the partner cards called (TP5-3)
        self.discards: dict[int, list[Card]] = {} if discards is None else discards  # per seat, as recorded
        self.draws: dict[int, list[Card]] = {} if draws is None else draws
        # The deal as the record gives it (empty / None where a play-level or tally
        # record has none): each seat's dealt cards, the kitty the bidder takes
        # (cut-down, TP5-1) and the cards set aside face down (refill, ``dead``).
        self.dealt: dict[int, list[Card]] = {} if dealt is None else dealt
        self.kitty = kitty
        self.dead = dead
        self.totals = totals
        self.end = end
        self.at_target = at_target

    @property
    def short(self) -> int:
        """How far a hand set fell short of its bid: the bid less what the
        bidding side took (0 for a hand made; AP-SCORE-5, TP-SCORE-2)."""
        return 0 if self.made else self.bid - self.side_took

    def score(self) -> HandScore:
        """What this hand counts for (``HandScore``)."""
        return HandScore(self.bidder, self.bid, self.made, tuple(self.delta), tuple(self.partners),
                         tuple((k, a.unit, a.seat) for k, a in self.awards.items()), tuple(self.taken),
                         tuple(self.seat_taken))

    def is_trump(self, c: Card) -> bool:
        """True when ``c`` is a trump in this hand (CARD-1, TP-TRUMP-2)."""
        return self.trump is not None and self.family is not None and \
            self.family.view(self.trump).is_trump(c)

    def suit_led(self, trick: Trick) -> str | None:
        """The suit of the card that led ``trick``, for following (the off-jack
        and the jokers belong to trump in ten-point, TP-TRUMP-2)."""
        if self.trump is None or self.family is None or not trick.plays:
            return None
        return self.family.view(self.trump).suit_of[trick.plays[0].card]

    @property
    def dealer_bid(self) -> bool:
        """The dealer bid because nobody else did, or was stuck with the bid
        (AP-BID-4, TP-BID-1)."""
        return self.stuck or any(c.kind == "stuck" for c in self.calls)

    @property
    def stolen(self) -> bool:
        """The dealer stole the bid (AP-BID-5)."""
        return any(c.kind == "steal" for c in self.calls)

    @property
    def closing_call(self) -> Call | None:
        """The call that closed the auction (AP-BID-3, TP-BID-1), if any."""
        return next((c for c in self.calls if c.kind == "max"), None)


class _Places:
    """Every place a card can be in a hand record (CARD-4), as the engine keeps them."""

    __slots__ = ("dead", "deal", "discards", "draws", "kitty")

    def __init__(self) -> None:  # made once per hand: plain slots, no dataclass factories
        self.deal: dict[int, Cards] = {}
        self.kitty: Cards | None = None
        self.dead: Cards | None = None
        self.draws: dict[int, Cards] = {}
        self.discards: dict[int, Cards] = {}


class HandState:
    """The state of one hand. Steps: ``call``/``close_auction`` or
    ``set_contract``; ``deal``, ``set_kitty``, ``set_dead``; ``name_trump``;
    ``call_partner``; ``discard``, ``draw``; ``play_trick``; ``set_tally``;
    then ``finish``."""

    # Made for every hand: slots make it, and every look-up on the hot path, cheaper.
    __slots__ = ("_maps", "_next_leader", "_order", "_outside", "_trick_view", "_tricks",
                 "at", "auction", "bid", "bidder", "broken", "card_holders",
                 "dealer", "fam", "list_at", "n", "number", "off_suit", "p", "p_cards",
                 "p_seats", "partner_cards", "partner_claim", "partner_claim_at", "places",
                 "t_at", "t_cards", "t_lead", "t_points", "t_src", "t_value", "t_why",
                 "t_win", "table", "tally_at", "tally_awards", "tally_taken", "trump",
                 "trump_at", "violations")

    def __init__(self, table: Table, dealer: int, number: int = 1, at: str = "") -> None:
        self.table = table
        self.p = table.profile
        self.fam: Family = family_for(self.p.family, self.p.mode)
        self.n = table.seats
        self.dealer = dealer
        self.number = number
        self.at = at
        self.violations: list[Violation] = []
        self.auction = Auction(self.p, self.fam, table.players, dealer)
        self.bidder: int | None = None
        self.bid: int | None = None
        self.trump: str | None = None
        self.trump_at = at
        self.places = _Places()
        self.list_at: dict[tuple[str, int], str] = {}  # ("deal" | "draws", seat) -> pointer
        self._maps: tuple[dict[int, int], dict[int, int]] | None = None  # see _check_conservation
        self.partner_cards = Cards([], at)
        self.partner_claim: list[int] | None = None
        self.partner_claim_at = at
        # The tricks, kept as ints: per trick its cards in play order, leader,
        # winner, why and the record's list; per card played, its card and seat.
        self.t_cards: list[list[int]] = []
        self.t_lead: list[int] = []
        self.t_win: list[int | None] = []
        self.t_why: list[WonWith] = []
        self.t_src: list[Cards] = []
        self.t_at: list[str] = []
        self.t_value: list[int] = []
        self.t_points: list[tuple[tuple[Card, int], ...]] = []
        self.p_cards: list[int] = []
        self.p_seats: list[int] = []
        # The cards after the lead that only a player void in the suit led may
        # play (``TrumpView.void_only``: neither of the suit led nor a trump),
        # as (trick index, seat, suit led): only these can break AP-PLAY-2 / TP-PLAY-1.
        self.off_suit: list[tuple[int, int, str]] = []
        # The Trick objects, once made. The state keeps these, not the TrickList
        # (which refers back to the state): no reference cycle, so a hand is
        # freed the moment nothing reads it, without waiting for the collector.
        self._tricks: list[Trick] | None = None
        self.broken = False  # the tricks can't be scored (malformed)
        self.tally_awards: dict[str, int | None] | None = None
        self.tally_taken: list[int] | None = None
        self.tally_at = at
        self._next_leader: int | None = None
        self.card_holders: list[int] = []
        self._outside = outside_cards(self.fam)
        self._order = _play_orders(self.n)
        self._trick_view: TrumpView | None = None

    # --- helpers ---------------------------------------------------------
    def _v(self, code: str, purpose_or_rule: str, message: str, at: str, trick: int | None = None,
           **details: object) -> None:
        rule = self.fam.rule(purpose_or_rule) if purpose_or_rule.islower() else purpose_or_rule
        self.violations.append(Violation(code, rule, message, at, trick, details))

    def name(self, seat: int) -> str:
        """A player's name."""
        return self.table.players[seat]

    def _in_deck(self, cards: Cards) -> Cards:
        """CARD-1 / CARD-2: keep the cards of this family's deck, report others."""
        outside = self._outside
        if not outside or outside.isdisjoint(cards.ints):
            return cards  # the common case: nothing to report, nothing to copy
        kept = []
        for j, c in enumerate(cards.ints):
            if c not in outside:
                kept.append(j)
            else:
                self._v("R401", "deck", f"{ALL_CARDS[c].text} is not a card of this game's deck "
                        f"({len(self.p.deck)} cards)", cards.where(j))
        return cards.keep(kept)

    @property
    def tricks(self) -> TrickList:
        """The tricks played so far, as ``Trick`` objects (made when read)."""
        return TrickList(self._make_tricks)

    def _make_tricks(self) -> list[Trick]:
        if self._tricks is not None and len(self._tricks) == len(self.t_cards):
            return self._tricks
        out = []
        values, points = self.t_value, self.t_points
        for k, ints in enumerate(self.t_cards):
            src, order = self.t_src[k], self._order[self.t_lead[k]]
            plays = tuple([Play(order[j], ALL_CARDS[c], src.where(j)) for j, c in enumerate(ints)])
            out.append(Trick(k + 1, self.t_lead[k], plays, self.t_win[k], self.t_why[k], self.t_at[k],
                             values[k] if values else 0, points[k] if points else ()))
        self._tricks = out
        return out

    def view(self) -> TrumpView | None:
        """The trump view once trump is known."""
        return self.fam.view(self.trump) if self.trump else None

    # --- auction ---------------------------------------------------------
    def call(self, bid: int | None, at: str = "") -> None:
        """The next call of the auction (AP-BID-*, TP-BID-1)."""
        self.auction.call(bid, at)

    def close_auction(self, at: str = "") -> None:
        """End the auction and set the bidder and bid."""
        self.auction.close(at)
        self.violations.extend(self.auction.violations)
        self.bidder, self.bid = self.auction.bidder, self.auction.bid

    def set_contract(self, bidder: int, bid: int, at: str = "") -> None:
        """A recorded contract: the contract of a tally record, or a claim
        checked against the auction (``contract`` disagreeing with ``bids``)."""
        if self.bidder is None:
            if not self.p.min_bid <= bid <= self.p.max_bid:
                self._v("R404", "bid_range", f"a contract of {bid}; bids go from {self.p.min_bid} "
                        f"to {self.p.max_bid}", at)
            self.bidder, self.bid = bidder, bid
        elif (bidder, bid) != (self.bidder, self.bid):
            self._v("C505", "contract",
                    f"the contract says {self.name(bidder)} bid {bid}, but the bids give "
                    f"{self.name(self.bidder)} with {self.bid}", at,
                    claimed={"bidder": self.name(bidder), "bid": bid},
                    derived={"bidder": self.name(self.bidder), "bid": self.bid})

    # --- cards before play ----------------------------------------------
    def deal(self, seat: int, cards: Cards) -> None:
        """The cards dealt to ``seat`` (AP-DEAL-1, TP4-2, TP5-1)."""
        if len(cards.ints) != self.p.deal:
            self._v("R403", "deal_count", f"{self.name(seat)} was dealt {len(cards.ints)} cards; "
                    f"each player is dealt {self.p.deal}", cards.at)
        self.places.deal[seat] = self._in_deck(cards)
        self.list_at["deal", seat] = cards.at

    def set_kitty(self, cards: Cards) -> None:
        """The undealt cards the bidder takes (cut-down, TP5-1/TP5-2)."""
        cards = self._in_deck(cards)
        if len(cards.ints) != self.p.kitty:
            self._v("R403", "deal_count", f"the kitty has {len(cards.ints)} cards; this profile leaves "
                    f"{self.p.kitty}", cards.at)
        self.places.kitty = cards

    def set_dead(self, cards: Cards) -> None:
        """The cards set aside face down (refill with few players)."""
        cards = self._in_deck(cards)
        if len(cards.ints) != self.p.dead:
            self._v("R403", "deal_count", f"{len(cards.ints)} dead cards; this profile sets aside "
                    f"{self.p.dead}", cards.at)
        self.places.dead = cards

    def name_trump(self, suit: str, at: str = "") -> None:
        """The trump suit: named by the bidder (TP-TRUMP-1); in Auction Pitch a
        recorded trump is a claim checked against the first lead (AP-PLAY-1)."""
        self.trump, self.trump_at = suit, at

    def call_partner(self, cards: Cards, claim: list[int] | None, at: str,
                     claim_at: str) -> None:
        """The card(s) the bidder calls (TP5-3) and the recorded partner(s)."""
        self.partner_cards = self._in_deck(cards)
        self.partner_claim, self.partner_claim_at = claim, claim_at
        if len(cards) != self.p.called_cards:
            self._v("R411", "partner", f"{len(cards)} cards called; this profile calls "
                    f"{self.p.called_cards}", at)

    def discard(self, seat: int, cards: Cards) -> None:
        """The cards ``seat`` discarded (ten-point)."""
        self.places.discards[seat] = self._in_deck(cards)

    def draw(self, seat: int, cards: Cards) -> None:
        """The cards the dealer gave ``seat`` after the discards (refill)."""
        self.places.draws[seat] = self._in_deck(cards)
        self.list_at["draws", seat] = cards.at

    # --- play -------------------------------------------------------------
    def play_trick(self, cards: Cards, at: str = "", lead_claim: int | None = None,
                   lead_at: str = "") -> None:
        """One trick, its cards in play order from its leader. Finds its winner
        (AP-PLAY-3, TP-PLAY-2) and whether a card in it may break following
        (checked with the whole hand in ``finish``) in one pass."""
        number = len(self.t_cards) + 1
        if self.broken:
            return
        if self.bidder is None:
            self.broken = True
            return
        leader = self.bidder if number == 1 else self._next_leader
        assert leader is not None
        if lead_claim is not None and lead_claim != leader:
            purpose = "lead_first" if number == 1 else "lead_next"
            why = ("the bidder leads the first trick" if number == 1 else
                   "the winner of the trick before leads" if self.t_win[-1] is not None else
                   "nobody won the trick before, so its leader leads again")
            self._v("C508", purpose, f"trick {number} is recorded as led by "
                    f"{self.name(lead_claim)}, but {self.name(leader)} leads it: {why}",
                    lead_at or at, number, claimed=self.name(lead_claim), derived=self.name(leader))
        # A card outside the deck (a joker in Auction Pitch) is CARD-1 at the
        # card, checked before the first card led is used to set trump.
        ints = cards.ints
        if self._in_deck(cards) is not cards:  # a card left out: reported, the trick unplayable
            self.broken = True
            return
        if number == 1 and not self.fam.trump_named and ints:
            first = ALL_CARDS[ints[0]]
            if first.suit is not None:
                if self.trump is not None and self.trump != first.suit:
                    self._v("C506", "trump_claim", f"trump is recorded as {suit_words(self.trump)}, "
                            f"but the first card led, {first.text}, makes "
                            f"{suit_words(first.suit)} trump", self.trump_at, number,
                            claimed=self.trump, derived=first.suit)
                self.trump = first.suit  # AP-PLAY-1
        view = self._trick_view if number > 1 else self.view()  # trump is fixed after trick 1
        self._trick_view = view
        if view is None:
            self._v("R410", "trump_claim", "no trump is recorded; the bidder names trump and it "
                    "must be written when tricks are recorded", self.at, number)
            self.broken = True
            return
        if len(ints) != self.n:
            self._v("R408", "trick_shape", f"trick {number} has {len(ints)} cards; each of the "
                    f"{self.n} players plays one", at, number)
            self.broken = True
            return
        order = self._order[leader]
        keys = trick_keys(ints, view)
        best, reason = winner_by_keys(keys, self.fam.offsuit_trick_has_winner)
        won_by = None if best is None else order[best]
        led = view.suit_i[ints[0]]
        void_only = view.void_only[led]
        if not void_only.isdisjoint(ints):  # a card only a player void in the suit led may play: see finish
            self.off_suit += [(number - 1, order[j], led) for j, c in enumerate(ints) if c in void_only]
        self.t_cards.append(ints)
        self.t_lead.append(leader)
        self.t_win.append(won_by)
        self.t_why.append(reason)
        self.t_src.append(cards)
        self.t_at.append(at)
        self.p_cards += ints
        self.p_seats += order
        # AP-PLAY-4; TP-PLAY-2: after a trick won by nobody its leader leads again.
        self._next_leader = won_by if won_by is not None else leader

    # --- tally -------------------------------------------------------------
    def set_tally(self, awards: dict[str, int | None] | None, taken: list[int] | None,
                  at: str = "") -> None:
        """A recorded ``points`` tally: Auction awards by unit, or ten-point
        points taken per unit. Without tricks it is what the hand is scored
        from; with tricks it is a claim, compared by the caller."""
        self.tally_awards, self.tally_taken, self.tally_at = awards, taken, at

    # --- whole-hand checks ---------------------------------------------
    def _check_conservation(self) -> None:
        """CARD-4: a card is dealt at most once and goes at most once.

        A group of places is walked only when it holds a card twice (the common
        case, a clean hand, is two set sizes and builds no message text)."""
        pl = self.places
        if pl.kitty is None and pl.dead is None and not pl.draws and not pl.discards:
            # Deals and tricks only: the maps card -> dealt to and card -> played
            # by say it, and ``_dealt_as_played`` compares them next.
            owner: dict[int, int] = {}
            count = 0
            for seat, cs in pl.deal.items():
                owner.update(dict.fromkeys(cs.ints, seat))
                count += len(cs.ints)
            played = dict(zip(self.p_cards, self.p_seats, strict=True))
            if count == len(owner) and len(played) == len(self.p_cards):
                self._maps = owner, played
                return
        dealt: list[tuple[tuple[str, int], Cards]] = [(("deal", s), cs) for s, cs in pl.deal.items()]
        if pl.kitty is not None:
            dealt.append((("kitty", 0), pl.kitty))
        if pl.dead is not None:
            dealt.append((("dead", 0), pl.dead))
        dealt += [(("draws", s), cs) for s, cs in pl.draws.items()]
        gone: list[tuple[tuple[str, int], Cards]] = [
            (("discards", s), cs) for s, cs in pl.discards.items()]
        gone += [(("trick", k + 1), cs) for k, cs in enumerate(self.t_src)]
        for group in (dealt, gone):
            every = [c for _, cs in group for c in cs.ints]
            if len(set(every)) == len(every):
                continue
            seen: dict[int, tuple[str, int]] = {}
            for place, cs in group:
                for j, c in enumerate(cs.ints):
                    if c not in seen:
                        seen[c] = place
                        continue
                    text = ALL_CARDS[c].text
                    self._v("R402", "CARD-4", f"{text} is in {self._place(seen[c])} and again in "
                            f"{self._place(place)}; a card is "
                            f"{'dealt' if group is dealt else 'played or discarded'} at most once",
                            cs.where(j), card=text)

    def _place(self, place: tuple[str, int]) -> str:
        """A place of CARD-4 in words: 'the deal of Ann', 'trick 3'."""
        kind, n = place
        if kind == "trick":
            return f"trick {n}"
        if kind in ("kitty", "dead"):
            return "the kitty" if kind == "kitty" else "the dead cards"
        return f"the {kind} of {self.name(n)}"

    def _check_following(self, view: TrumpView) -> None:
        """AP-PLAY-2 / TP-PLAY-1 for every play after the lead."""
        if not self.off_suit:
            return  # every card followed suit or was a trump: nothing can be wrong
        # A seat's holding at a trick is what it plays then and later, so an
        # off-suit card is wrong only if its player plays the suit led later:
        # the last trick in which each seat played each suit decides that.
        last = dict(zip(zip(self.p_seats, map(view.suit_i.__getitem__, self.p_cards), strict=True),
                        _trick_of_play(self.n, len(self.p_cards)), strict=True))
        if all(last.get((seat, led), -1) <= k for k, seat, led in self.off_suit):
            return
        later: dict[int, list[Card]] = {s: [] for s in range(self.n)}
        for t in reversed(self.tricks):
            for p in t.plays:
                later[p.seat].append(p.card)
            led = t.plays[0].card
            suit_led = view.suit_of[led]
            void_only = view.void_only[suit_led]
            for p in t.plays[1:]:
                holding = later[p.seat]
                # Most plays follow suit or trump: decide those without a look at the holding.
                if p.card.index not in void_only or may_play(p.card, holding, led, view):
                    continue
                could = sorted((c for c in holding if view.suit_of[c] == suit_led),
                               key=lambda c: -c.rank)
                # With trumps led, "a spade or a trump (spades)" would name one suit twice.
                allowed = (f"a trump ({suit_words(view.trump)})" if suit_led == view.trump else
                           f"a {suit_words(suit_led)[:-1]} or a trump ({suit_words(view.trump)})")
                self._v("R407", "follow",
                        f"{self.name(p.seat)} played {p.card.text} on a "
                        f"{suit_words(suit_led)[:-1]} lead while holding "
                        f"{', '.join(c.text for c in could)}; only {allowed} may be played",
                        p.at, t.number, player=self.name(p.seat), card=p.card.text,
                        held=[c.text for c in could])

    def _played(self) -> dict[int, list[int]]:
        """Per seat, the cards it played, as positions in ``p_cards``."""
        out: dict[int, list[int]] = {s: [] for s in range(self.n)}
        for i, seat in enumerate(self.p_seats):
            out[seat].append(i)
        return out

    def _play_at(self, i: int) -> str:
        """Where the record has the ``i``-th card played."""
        k, j = divmod(i, self.n)
        return self.t_src[k].where(j)

    def _compare_held(self, seat: int, held: Holding, played: list[int], complete: bool) -> None:
        """The cards a player played (``played``: positions in ``p_cards``)
        must be the cards he held (AP-DEAL-1, TP4-4, TP5-4).

        One diagnostic per player, listing every card that differs, so that one
        mistake (a card in the wrong hand, a wrong dealer) doesn't make a flood.
        """
        held_set = set(held.ints)
        cards = [self.p_cards[i] for i in played]
        played_set = set(cards)
        if held_set == played_set or (not complete and played_set <= held_set):
            return  # the common case: nothing to list, nothing located
        extra = [(ALL_CARDS[c], self._play_at(i)) for c, i in zip(cards, played, strict=True)
                 if c not in held_set]
        unplayed = [(ALL_CARDS[c], held.where(j)) for j, c in enumerate(held.ints)
                    if c not in played_set] if complete else []
        if not extra and not unplayed:
            return
        parts = []
        if extra:
            parts.append(f"played {', '.join(c.text for c, _ in extra)}, which they did not hold")
        if unplayed:
            parts.append(f"held {', '.join(c.text for c, _ in unplayed)} but never played "
                         f"{'it' if len(unplayed) == 1 else 'them'}")
        first = (unplayed or extra)[0][1]  # anchor on the deal when it shows the difference
        self._v("R403", "held", f"{self.name(seat)} {', and '.join(parts)}", first,
                player=self.name(seat), not_held=[c.text for c, _ in extra],
                not_played=[c.text for c, _ in unplayed])

    def _check_owners(self, holdings: dict[int, Holding]) -> None:
        """A card the record places with one player (his deal, his draws, the
        kitty the bidder takes) or with nobody (the dead cards, set aside) may
        be played by that player only (AP-DEAL-1, TP4-4, TP5-4): this holds
        whichever places are recorded. The players whose whole holding is
        known were compared with it by ``_compare_held``; this covers the rest.
        """
        if len(holdings) == self.n:
            return  # every holding is known (a full record): all compared already
        pl = self.places
        owner: dict[int, tuple[int | None, str]] = {}  # card -> (seat or None, what)
        if pl.dead is not None:
            owner.update(dict.fromkeys(pl.dead.ints, (None, "dead")))
        if self.bidder is not None and pl.kitty is not None:
            for c in pl.kitty.ints:
                owner.setdefault(c, (self.bidder, "kitty"))
        for kind, by_seat in (("deal", pl.deal), ("draws", pl.draws)):
            for s, cs in by_seat.items():
                for c in cs.ints:
                    owner.setdefault(c, (s, kind))
        if not owner:
            return  # nothing recorded but the tricks: nothing to hold them to
        # The plays in order, trick by trick (``p_cards``): a play is located,
        # and its Trick made, only to be reported.
        for i, (c, played_by) in enumerate(zip(self.p_cards, self.p_seats, strict=True)):
            if played_by in holdings or c not in owner:
                continue
            seat, kind = owner[c]
            if seat == played_by:
                continue
            who, card = self.name(played_by), ALL_CARDS[c].text
            if seat is None:
                why = "which is among the dead cards, set aside and never used"
            elif kind == "kitty":
                why = f"which is in the kitty, taken by the bidder, {self.name(seat)}"
            elif kind == "deal":
                why = f"which was dealt to {self.name(seat)}"
            else:
                why = f"which {self.name(seat)} drew"
            self._v("R403", "held", f"{who} played {card}, {why}", self._play_at(i), i // self.n + 1,
                    player=who, card=card, place=kind)

    def _exchange(self, view: TrumpView | None) -> dict[int, Holding]:
        """Check the ten-point discards and draws; return the holding each player
        starts play with, for the seats where the record shows it."""
        pl = self.places
        holdings: dict[int, Holding] = {}
        if self.p.mode == "play-all":
            return {s: Holding((cs,)) for s, cs in pl.deal.items()}
        if view is not None:
            self._check_discard_points(view)
        if self.p.mode == "cut-down":
            for seat, dealt in pl.deal.items():
                parts: tuple[Cards, ...] = (dealt,)
                if seat == self.bidder:
                    if pl.kitty is None:
                        continue
                    parts = (dealt, pl.kitty)
                if seat in pl.discards:
                    holdings[seat] = self._after_discards(seat, Holding(parts), pl.discards[seat], "held")
            return holdings
        # refill (TP4-3 .. TP4-5)
        if view is not None:
            for seat, dealt in pl.deal.items():
                if seat != self.bidder and seat in pl.discards:
                    self._check_refill_discards(seat, dealt, pl.discards[seat], view)
        self._check_bidder_draws()
        for seat, dealt in pl.deal.items():
            if seat not in pl.discards or seat not in pl.draws:
                continue
            gone = set(pl.discards[seat].ints)
            kept = len([c for c in dealt.ints if c not in gone])
            if seat != self.bidder and kept <= self.p.hand:
                want = self.p.hand - kept
                if len(pl.draws[seat]) != want:
                    self._v("R409", "TP4-4", f"{self.name(seat)} kept {kept} cards and drew "
                            f"{len(pl.draws[seat])}; the dealer gives him {want}, up to "
                            f"{self.p.hand}", self.list_at.get(("draws", seat), self.at),
                            player=self.name(seat))
            holdings[seat] = self._after_discards(seat, Holding((dealt, pl.draws[seat])),
                                                  pl.discards[seat], "TP4-4")
        return holdings

    def _check_discard_points(self, view: TrumpView) -> None:
        """TP4-4, TP5-4: no point card is discarded."""
        points = view.points_i
        for seat, cs in self.places.discards.items():
            if not any(map(points.__getitem__, cs.ints)):
                continue  # the common case: no point card, nothing to locate
            for j, c in enumerate(cs.ints):
                if points[c]:
                    card = ALL_CARDS[c]
                    self._v("R409", "discard_point", f"{self.name(seat)} discarded {card.text}, a "
                            f"point card; only cards that are not point cards may be "
                            f"discarded", cs.where(j), player=self.name(seat), card=card.text)

    def _check_bidder_draws(self) -> None:
        """TP4-4: the bidder draws all the rest of the pack (when every draw is recorded)."""
        pl, bidder = self.places, self.bidder
        others = [s for s in range(self.n) if s != bidder]
        if not (all(s in pl.draws for s in others) and bidder in pl.draws):
            return
        assert bidder is not None
        pack = len(self.p.deck) - self.n * self.p.deal - self.p.dead
        rest = pack - sum(len(pl.draws[s]) for s in others)
        got = pl.draws[bidder]
        if len(got) != rest:
            self._v("R409", "TP4-4", f"{self.name(bidder)}, the bidder, drew {len(got)} cards; "
                    f"the bidder gets all the rest of the pack, {rest} cards",
                    got.where(0) if got.ints else self.at)

    def _after_discards(self, seat: int, held: Holding, discards: Cards, purpose: str) -> Holding:
        """What ``seat`` holds once his ``discards`` are gone from ``held``:
        he discards only cards he holds, and is left with a hand."""
        held_set = set(held.ints)
        gone = set(discards.ints)
        if not gone <= held_set:  # (the common case, all held, locates nothing)
            for j, c in enumerate(discards.ints):
                if c not in held_set:
                    text = ALL_CARDS[c].text
                    self._v("R409", purpose, f"{self.name(seat)} discarded {text}, which they did "
                            f"not hold", discards.where(j), player=self.name(seat), card=text)
        left = held.without(gone)
        if len(left) != self.p.hand:
            self._v("R409", purpose, f"{self.name(seat)} is left with {len(left)} cards after their "
                    f"discards; they must make a hand of {self.p.hand}",
                    discards.where(0) if discards.ints else self.at, player=self.name(seat))
        return left

    def _check_refill_discards(self, seat: int, dealt: Cards, discards: Cards,
                               view: TrumpView) -> None:
        """TP4-3: a non-bidder discards all his non-trumps and no trump; TP4-5:
        with more than ``hand`` trumps, non-point trumps down to ``hand``."""
        trump_set = view.trumps_i
        gone = set(discards.ints)
        trumps = [c for c in dealt.ints if c in trump_set]
        for j, c in enumerate(dealt.ints):
            if c not in trump_set and c not in gone:
                text = ALL_CARDS[c].text
                self._v("R409", "TP4-3", f"{self.name(seat)} kept {text}, which is not a trump; "
                        f"every player but the bidder discards all their non-trump cards",
                        dealt.where(j), player=self.name(seat), card=text)
        thrown = [j for j, c in enumerate(discards.ints) if c in trump_set]
        excess = len(trumps) - self.p.hand
        if excess <= 0:
            for j in thrown:
                text = ALL_CARDS[discards.ints[j]].text
                self._v("R409", "TP4-3", f"{self.name(seat)} discarded {text}, a trump, holding "
                        f"only {len(trumps)} trumps; no trump is thrown away", discards.where(j),
                        player=self.name(seat), card=text)
            return
        who = self.name(seat)
        spare = [c for c in trumps if not view.points_i[c]]
        if len(spare) < excess:
            self._v("R409", "TP4-5", f"{who} holds {len(trumps)} trumps after the discards, of "
                    f"which only {len(spare)} are not point cards: {who} can't get down to "
                    f"{self.p.hand} without discarding a point card, so this deal is impossible",
                    self.list_at.get(("deal", seat), self.at), player=who)
        elif len(thrown) != excess:
            self._v("R409", "TP4-5", f"{who} held {len(trumps)} trumps and discarded {len(thrown)}"
                    f" of them; {who} discards non-point trumps down to {self.p.hand}, so "
                    f"exactly {excess}", discards.where(0) if discards.ints else self.at, player=who)

    def _partners(self, view: TrumpView | None) -> list[int] | None:
        """TP5-3: the partners are the holders of the called cards, once the
        bidder has taken the kitty, other than the bidder. ``None`` if unknown.

        ``partner.players`` names them in the order of the called cards (the
        holder of the first card first: he breaks a tie for the win,
        TP-WIN-1). Where the record shows every holder, the names must be the
        distinct holders other than the bidder, in that order: more or fewer
        names is TP5-3, a wrong name or order a claim mismatch. Where it
        doesn't, the names stand in for the cards, so there must be one for
        each called card (the bidder's own name for a card he holds)."""
        if self.p.sides != "called" or self.bidder is None:
            return []
        cards: list[int] = []  # the called cards, each once
        called = self.partner_cards
        for j, c in enumerate(called.ints):
            text = ALL_CARDS[c].text
            if c in cards:
                # The same card twice is one call, not two (TP5-3).
                self._v("R411", "partner", f"{text} is called twice; the bidder calls "
                        f"{self.p.called_cards} different cards", called.where(j), card=text)
                continue
            cards.append(c)
            if view is not None and c not in view.trumps_i:
                self._v("R411", "partner", f"the called card {text} is not a trump; the bidder "
                        f"calls a card of the trump suit", called.where(j), card=text)
        holders = [self._holder(c) for c in cards]
        claim = self.partner_claim
        # The bidder named for a card he holds is how a tally records "alone".
        named = None if claim is None else list(dict.fromkeys(s for s in claim if s != self.bidder))
        too_many = claim is not None and len(claim) > len(cards)
        if too_many and cards:
            self._v("R411", "partner", f"{len(claim)} partners are named for {len(cards)} called "
                    f"card{'s' if len(cards) != 1 else ''}; each called card makes at most one "
                    f"partner", self.partner_claim_at, claimed=[self.name(s) for s in claim])
        if cards and None not in holders:
            known = [s for s in holders if s is not None]
            self.card_holders = known
            derived = list(dict.fromkeys(s for s in known if s != self.bidder))
            if named is not None and named != derived and not too_many:
                both = dict(claimed=[self.name(s) for s in named], derived=[self.name(s) for s in derived])
                shown = ", ".join(map(self.name, derived)) or "nobody (the bidder plays alone)"
                if len(named) != len(derived) and self.p.called_cards > 1:
                    self._v("R411", "partner", f"{len(named)} partner(s) are named "
                            f"({', '.join(map(self.name, named)) or 'nobody'}), but the called "
                            f"cards are held by {len(derived)} player(s) other than the bidder: "
                            f"{shown}", self.partner_claim_at, **both)
                else:
                    self._v("C507", "partner", f"the partner is recorded as "
                            f"{', '.join(map(self.name, named)) or 'nobody'}, but the cards show "
                            f"{shown}" + (" (in the order of the cards called)"
                                          if sorted(named) == sorted(derived) else ""),
                            self.partner_claim_at, **both)
            return sorted(derived)
        if claim is not None and cards:
            unknown = [ALL_CARDS[c].text for c, s in zip(cards, holders, strict=True) if s is None]
            if len(claim) < len(cards):
                # One name for two cards would leave the other card's holder
                # to a guess: the names stand in for the cards, one each.
                self._v("R411", "partner", f"the record doesn't show who holds "
                        f"{', '.join(unknown)}, and {len(claim)} name(s) are given for "
                        f"{len(cards)} called cards: name the holder of each card, in order "
                        f"(the bidder for a card of the bidder's own)", self.partner_claim_at)
                return None
            if too_many:
                return None  # reported above: which names to believe is a guess
            wrong = [(ALL_CARDS[c].text, s, k) for c, s, k in zip(cards, holders, claim, strict=True)
                     if s is not None and s != k]
            for text, s, k in wrong:
                self._v("C507", "partner", f"{text} is recorded as held by {self.name(k)}, but "
                        f"the cards show {self.name(s)}", self.partner_claim_at,
                        claimed=self.name(k), derived=self.name(s), card=text)
            # No cards show the holders: the record's names stand in, in the
            # order of the called cards (for the TP-WIN-1 tie-break).
            self.card_holders = list(claim)
            return sorted(set(claim) - {self.bidder})
        if claim is not None:
            # No card called (reported by call_partner): the names stand in.
            self.card_holders = list(claim)
            return sorted(set(claim) - {self.bidder})
        self._v("R411", "partner", "who holds the called card is not shown by the record; "
                f"write partner.{'players' if self.p.called_cards > 1 else 'player'}",
                self.partner_claim_at)
        return None

    def _holder(self, c: int) -> int | None:
        """Who holds card ``c`` once the bidder has taken the kitty, as the
        record shows it (TP5-3): the bidder for a card of the kitty, else the
        player dealt it (the last one, for a card dealt twice, CARD-4), else
        the first who discarded it, else the first who played it; ``None``:
        the record doesn't show it."""
        pl = self.places
        if pl.kitty is not None and c in pl.kitty.ints:
            return self.bidder
        dealt = [s for s, cs in pl.deal.items() if c in cs.ints]
        if dealt:
            return dealt[-1]
        for s, cs in pl.discards.items():
            if c in cs.ints:
                return s
        if c in self.p_cards:
            return self.p_seats[self.p_cards.index(c)]
        return None

    # --- finish --------------------------------------------------------
    def finish(self) -> HandResult | None:
        """Check the whole hand and score it; ``None`` when it can't be scored
        (no contract, malformed tricks, unknown partner)."""
        self._check_conservation()
        view = self.view()
        tricks = len(self.t_cards)
        if view is None and self.fam.trump_named and tricks:
            self._v("R410", "trump_claim", "no trump is recorded", self.at)
        expected = self.p.hand
        has_tricks = bool(tricks) or self.broken
        if tricks and not self.broken and tricks != expected:
            self._v("R408", "trick_count", f"{tricks} tricks recorded; a hand has "
                    f"{expected}", self.at + "/tricks")
            self.broken = True
        if view is not None and tricks:
            self._check_following(view)
        complete = not self.broken and tricks == expected
        if not (complete and self._dealt_as_played()):
            holdings = self._exchange(view)
            if tricks:
                played = self._played()
                for seat, held in holdings.items():
                    self._compare_held(seat, held, played[seat], complete)
                self._check_owners(holdings)
        partners = self._partners(view)
        if self.bidder is None or self.bid is None or partners is None:
            return None
        bidding_units = frozenset(self.table.unit_of[s] for s in [self.bidder, *partners])
        units = len(self.table.unit_names)
        awards: dict[str, Award] = {}
        game_points: list[int] = []
        credits: list[PointCredit] = []
        out_of_play: list[Card] = []
        unit_of = self.table.unit_of
        if has_tricks:
            if not complete or view is None:
                return None
            level = "full" if self.places.deal else "play"
            order = self._order
            played_tricks = list(zip(self.t_cards, [order[k] for k in self.t_lead], self.t_win,
                                     strict=True))
            if not self.fam.scores_awards:
                credits, values, in_tricks = ten_point_credits(played_tricks, view, unit_of)
                self._set_values(values, in_tricks)
                credits.sort(key=lambda cr: -view.strength[cr.card])
                in_play = set(self.p_cards)
                out_of_play = [ALL_CARDS[c] for c, v in enumerate(view.points_i) if v and c not in in_play]
                taken = credited(credits, units)
                seat_taken = credited(credits, self.n, by_seat=True)
                self._check_points_in_play(out_of_play)
            else:
                awards, game_points, values = auction_awards(played_tricks, view, unit_of, units,
                                                             self.p.low)
                self._set_values(values, [])
                taken = award_points(awards, units)
                seat_taken = award_seat_points(awards, self.n)
        else:
            level = "tally"
            if not self.fam.scores_awards:
                if self.tally_taken is None:
                    return None
                taken = list(self.tally_taken)
                every = sum(v for _, v in self.fam.point_cards)  # TP-POINTS-1: the values of the point cards, 10
                if self._all_points_in_play() and sum(taken) != every:
                    self._v("C501", "points_total", f"the points recorded add up to {sum(taken)}; "
                            f"every hand has {every} points", self.tally_at, total=sum(taken))
                elif sum(taken) > every:  # dead cards: fewer may be in play, never more
                    self._v("C501", "points_total", f"the points recorded add up to {sum(taken)}; "
                            f"a hand has only {every} points", self.tally_at, total=sum(taken))
            else:
                if self.tally_awards is None:
                    return None
                awards = {k: Award(k, u) for k, u in self.tally_awards.items()}
                taken = award_points(awards, units)
            # A tally says what each unit took; a unit of one player is that player.
            seat_taken = tally_seat_points(taken, unit_of)
        pooled = self.p.sides == "called"
        made, delta = settle(taken, bidding_units, self.bid, pooled=pooled)
        side = sum(taken[u] for u in bidding_units)
        settle_rule = ("AP-SCORE-5" if self.fam.scores_awards else "TP5-5" if pooled else "TP-SCORE-2")
        return HandResult(self.number, self.dealer, self.bidder, self.bid, self.auction.calls,
                          self.trump, partners, self.card_holders, self.tricks, awards, game_points, taken,
                          bidding_units, made, delta, level, self.auction.stuck, self.fam, credits,
                          seat_taken, side, sum(taken) - side, settle_rule, out_of_play,
                          _as_cards(self.partner_cards.ints),
                          {s: _as_cards(cs.ints) for s, cs in self.places.discards.items()},
                          {s: _as_cards(cs.ints) for s, cs in self.places.draws.items()},
                          {s: _as_cards(cs.ints) for s, cs in self.places.deal.items()},
                          None if self.places.kitty is None else _as_cards(self.places.kitty.ints),
                          None if self.places.dead is None else _as_cards(self.places.dead.ints))

    def _dealt_as_played(self) -> bool:
        """True when every player's deal is recorded, nothing is exchanged, and
        each card was played by the player it was dealt to, no card twice: then
        no holding differs from its play (AP-DEAL-1), and the per-player
        comparison, which lists the differences, has nothing to list."""
        if self.p.mode != "play-all" or len(self.places.deal) != self.n or self._maps is None:
            return False  # (no maps: a card twice, or places beyond the deal)
        owner, played = self._maps  # made by _check_conservation, no card twice in either
        return owner == played

    def _set_values(self, values: list[int], in_tricks: list[tuple[tuple[Card, int], ...]]) -> None:
        """Keep what each trick was worth (and its point cards), also on the
        ``Trick`` objects if a check already made them."""
        self.t_value, self.t_points = values, in_tricks
        if self._tricks is not None:
            for t, v in zip(self._tricks, values, strict=True):
                t.value = v
            for t, pc in zip(self._tricks, in_tricks, strict=False):
                t.point_cards = pc

    def _all_points_in_play(self) -> bool:
        """Every point card is in play when no card is set aside (RULES.md, invariants)."""
        return self.p.dead == 0

    def _check_points_in_play(self, out_of_play: list[Card]) -> None:
        """Ten-point without dead cards: all eight point cards are played (TP4-4);
        ``out_of_play`` are the point cards in no trick."""
        if out_of_play and self._all_points_in_play():
            self._v("R409", "points_missing", f"the point card(s) {', '.join(map(describe, out_of_play))} "
                    f"are not in the tricks; point cards are never discarded, so all are played",
                    self.at + "/tricks")
