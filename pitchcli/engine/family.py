"""What differs between the two rule families, as data and small functions.

A family decides which cards are trumps and in what order, which cards score,
and which rule id a structural problem is reported under (RULES.md, "Which rule
a structural problem is reported under"). The engine asks the family; it never
asks for a profile's name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache

from pitchcli.cards import (
    ALL_CARDS,
    BIG_JOKER,
    JOKER_DECK,
    LITTLE_JOKER,
    SAME_COLOUR,
    STANDARD_DECK,
    SUIT_NAMES,
    Card,
)

# Purpose -> rule id, per family, then per mode where the mode matters.
_RULEBOOK: dict[str, dict[str, str]] = {
    "auction": {
        "deck": "CARD-1",
        "deal_count": "AP-DEAL-1",
        "held": "AP-DEAL-1",
        "trick_count": "AP-PLAY-1",
        "trick_shape": "AP-PLAY-3",
        "lead_first": "AP-PLAY-1",
        "lead_next": "AP-PLAY-4",
        "contract": "AP-BID-6",
        "calls": "AP-BID-1",
        "bid_range": "AP-BID-2",
        "bid_higher": "AP-BID-2",
        "bid_closed": "AP-BID-3",
        "stuck": "AP-BID-4",
        "follow": "AP-PLAY-2",
        "dealer": "AP-DEAL-2",
        "won": "AP-WIN-1",
        "trump_claim": "AP-PLAY-1",
        "table": "AP-TABLE-1",
        "table_teams": "AP-TABLE-2",
        "teams": "AP-TABLE-2",
    },
    "ten-point": {
        "deck": "CARD-2",
        "deal_count": "TP4-2",
        "held": "TP4-4",
        "trick_count": "TP4-6",
        "trick_shape": "TP4-6",
        "lead_first": "TP-BID-2",
        "lead_next": "TP4-6",
        "contract": "TP-BID-1",
        "calls": "TP-BID-1",
        "bid_range": "TP-BID-1",
        "bid_higher": "TP-BID-1",
        "bid_closed": "TP-BID-1",
        "stuck": "TP-BID-1",
        "follow": "TP-PLAY-1",
        "dealer": "AP-DEAL-2",
        "won": "TP-WIN-1",
        "trump_claim": "TP-TRUMP-1",
        "table": "",  # a player count the profile does not take: the profile's own check
        "table_teams": "",
        "teams": "TP4-1",
        "points_missing": "TP4-4",
        "points_total": "TP-POINTS-1",
        "discard_point": "TP4-4",
        "partner": "TP5-3",
    },
}
# The player counts a family's `players` option may take: AP-TABLE-1 (2 to 7);
# ten-point answers the Romanian text's question with profiles for 2 to 8.
_SEATS: dict[str, tuple[int, int]] = {"auction": (2, 7), "ten-point": (2, 8)}
# cut-down profiles report deal and holding problems under the five-player rules.
_MODE_RULES: dict[str, dict[str, str]] = {
    "cut-down": {"deal_count": "TP5-1", "held": "TP5-4", "discard_point": "TP5-4"},
}

# A trump's win key is its strength times this, above any rank (TrumpView.win_key).
TRUMP_KEY = 100
# AP-SCORE-4: game points of every suit.
GAME_POINTS = {10: 10, 14: 4, 13: 3, 12: 2, 11: 1}


@dataclass(frozen=True, slots=True)
class TrumpView:
    """How the cards behave once ``trump`` is known.

    ``suit_of[card]`` is the suit a card belongs to for following (the off-jack
    and jokers belong to trump in ten-point, TP-TRUMP-2); ``strength[card]`` is
    its rank among trumps (0 for a non-trump); ``points[card]`` the ten-point
    value of a point card (TP-POINTS-1). ``suit_i``, ``strength_i`` and
    ``points_i`` are the same, indexed by ``Card.index``: the engine's hot
    path works on ints.
    """

    trump: str
    suit_of: dict[Card, str]
    strength: dict[Card, int]
    points: dict[Card, int]
    suit_i: tuple[str, ...] = ()
    strength_i: tuple[int, ...] = ()
    points_i: tuple[int, ...] = ()
    trumps_i: frozenset[int] = frozenset()
    # Per suit led: each card's key for winning a trick (a trump above every
    # non-trump, by strength; then a card of the suit led, by rank; 0 for the rest).
    win_key: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def is_trump(self, c: Card) -> bool:
        """True when ``c`` is a trump."""
        return self.strength[c] > 0


class Scoring(StrEnum):
    """How a hand is scored: Auction Pitch's four points High, Low, Jack and
    Game (AP-SCORE-1), or ten-point's point cards (TP-POINTS-1)."""

    AWARDS = "awards"
    POINT_CARDS = "point-cards"


class WinBy(StrEnum):
    """Who may win the game at the end of a hand: only the pitcher's unit
    (AP-WIN-1..3), or any side at the target, the bidding side first (TP-WIN-1)."""

    PITCHER = "pitcher"
    HIGHEST = "highest"


class Exchange(StrEnum):
    """What happens between the auction and the play (the profile's ``mode``):
    nothing (every dealt card is played), ten-point's discards and refill
    (TP4-3..5), or the cut-down kitty and discards (TP5-1, TP5-2, TP5-4)."""

    NONE = "play-all"
    REFILL = "refill"
    CUT_DOWN = "cut-down"


@dataclass(frozen=True, slots=True)
class Words:
    """What a family calls things, for the views: ``role`` is the winner of the
    auction ("pitcher", "bidder"); ``closing`` the call that closes the auction
    ("pitch": the 4 of AP-BID-3; "closing": the 10 of TP-BID-1), ``closes``
    the verb for making it ("pitches: bids", "bids"), and ``closed`` what the
    player who made it did (a template with ``{bid}``)."""

    role: str
    closing: str
    closes: str
    closed: str


@dataclass(frozen=True, slots=True)
class Family:
    """A rule family (``auction`` or ``ten-point``) as data: everything the
    engine and the views need to know about it, so that nobody outside
    ``engine/`` and ``profiles.py`` compares its name.

    ``deck`` is the family's deck (CARD-1 / CARD-2); ``view(trump)`` how the
    cards behave once trump is known; ``scoring`` how a hand is scored;
    ``win_by`` who may win; ``words`` what it calls things; ``columns`` the
    counters a standings table of this family shows (summary).
    """

    name: str
    mode: str
    # TP-BID-1: in ten-point a dealer who passes when all passed is stuck with
    # the bid; in Auction Pitch (AP-BID-4) he may not pass at all.
    stuck_dealer_may_pass: bool
    # TP-PLAY-2: a trick without trumps is won by nobody in ten-point.
    offsuit_trick_has_winner: bool
    # TP-TRUMP-1: the bidder names trump; Auction: the first card led sets it
    # (AP-PLAY-1). Only about trump: scoring and winning have their own fields.
    trump_named: bool
    scoring: Scoring
    exchange: Exchange
    win_by: WinBy
    words: Words
    columns: tuple[str, ...]
    deck: tuple[Card, ...]
    # The least and most players the family's `players` option may name.
    seats: tuple[int, int] = (2, 8)

    def rule(self, purpose: str) -> str:
        """The rule id a problem of ``purpose`` is reported under."""
        mode_rules = _MODE_RULES.get(self.mode, {}) if self.name == "ten-point" else {}
        return mode_rules.get(purpose) or _RULEBOOK[self.name][purpose]

    def view(self, trump: str) -> TrumpView:
        """The trump view for ``trump`` (cached)."""
        return _view(self.name, trump)


    @property
    def scores_awards(self) -> bool:
        """True when a hand scores High, Low, Jack and Game (AP-SCORE-1)."""
        return self.scoring is Scoring.AWARDS


@cache
def family_for(name: str, mode: str) -> Family:
    """The family object for a profile's ``family`` and ``mode`` options."""
    if name == "ten-point":
        return Family(name, mode, stuck_dealer_may_pass=True, offsuit_trick_has_winner=False,
                      trump_named=True, scoring=Scoring.POINT_CARDS, exchange=Exchange(mode),
                      win_by=WinBy.HIGHEST, words=Words("bidder", "closing", "bids", "bid {bid}"),
                      columns=("taken",), deck=JOKER_DECK, seats=_SEATS[name])
    return Family(name, mode, stuck_dealer_may_pass=False, offsuit_trick_has_winner=True,
                  trump_named=False, scoring=Scoring.AWARDS, exchange=Exchange.NONE,
                  win_by=WinBy.PITCHER,
                  words=Words("pitcher", "pitch", "pitches: bids", "pitched: a bid of {bid}"),
                  columns=("high", "low", "jack", "game"), deck=STANDARD_DECK, seats=_SEATS[name])


# The families by name, each with a mode it has (the columns don't depend on it).
FAMILIES = {"auction": "play-all", "ten-point": "refill"}


def standings_columns(families: Iterable[str]) -> list[str]:
    """The counter columns a standings table shows for games of these
    families (by name, as a summary counts them), in the families' order;
    names that are no family add nothing."""
    present = set(families)
    return [c for name, mode in FAMILIES.items() if name in present
            for c in family_for(name, mode).columns]


def family_of(profile: object) -> Family:
    """The family object of a profile (anything with ``family`` and ``mode``)."""
    return family_for(profile.family, profile.mode)  # type: ignore[attr-defined]


# TP-TRUMP-2 order, high to low, after the rank cards A K Q J: OJ BJ LJ 10..2.
_TP_POINTS = {14: 1, 11: 1, 10: 1, 3: 3, 2: 1}  # TP-POINTS-1 (A J 10 3 2; OJ BJ LJ below)


@cache
def _view(family: str, trump: str) -> TrumpView:
    suit_of: dict[Card, str] = {}
    strength: dict[Card, int] = {}
    points: dict[Card, int] = {}
    off_jack_suit = SAME_COLOUR[trump]
    for c in ALL_CARDS:
        if family == "auction" or (c.suit is not None and not (c.rank == 11 and c.suit == off_jack_suit)):
            suit_of[c] = c.suit if c.suit is not None else trump
            if c.suit == trump:
                # Ten-point: A K Q J above OJ BJ LJ (strengths 13..15 vs 10..12);
                # Auction: the natural order (CARD-1).
                strength[c] = c.rank + 3 if family == "ten-point" and c.rank >= 11 else c.rank - 1
            else:
                strength[c] = 0
            points[c] = _TP_POINTS.get(c.rank, 0) if c.suit == trump and family == "ten-point" else 0
        else:  # ten-point off-jack and jokers: trumps (TP-TRUMP-2)
            suit_of[c] = trump
            strength[c] = {BIG_JOKER: 11, LITTLE_JOKER: 10}.get(c, 12)
            points[c] = 1
    win_key = {led: tuple(TRUMP_KEY * strength[c] + (c.rank if suit_of[c] == led else 0) for c in ALL_CARDS)
               for led in SUIT_NAMES}
    return TrumpView(trump, suit_of, strength, points, tuple(suit_of[c] for c in ALL_CARDS),
                     tuple(strength[c] for c in ALL_CARDS), tuple(points[c] for c in ALL_CARDS),
                     frozenset(c.index for c in ALL_CARDS if strength[c] > 0), win_key)


def suit_words(suit: str) -> str:
    """'hearts' for 'H'."""
    return SUIT_NAMES[suit]
