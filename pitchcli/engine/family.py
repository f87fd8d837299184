"""What differs between the two rule families, as data and small functions.

A family decides which cards are trumps and in what order, which cards score,
and which rule id a structural problem is reported under (RULES.md, "Which rule
a structural problem is reported under"). The engine asks the family; it never
asks for a profile's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import NamedTuple

from pitchcli.cards import SUIT_NAMES, Card
from pitchcli.engine.tables import (
    JOKER_DECK,
    NATURAL_TRUMPS,
    NO_POINT_CARDS,
    STANDARD_DECK,
    TEN_POINT_TRUMPS,
    TEN_POINT_VALUES,
    CardValues,
    TrumpView,
    trump_view,
)


class FamilyName(StrEnum):
    """The rule family of a profile (docs/rules.md): Auction Pitch (Setback) or
    Ten-point Pitch with jokers. The names a profile's ``family`` option takes."""

    AUCTION = "auction"
    TEN_POINT = "ten-point"

    @property
    def seats(self) -> tuple[int, int]:
        """The fewest and most players a game of this family seats."""
        return _rules_of(self).seats

    @property
    def columns(self) -> tuple[str, ...]:
        """The point counters a standings table of this family's games shows
        (Auction: ``high``, ``low``, ``jack``, ``game``; ten-point: ``taken``)."""
        return _rules_of(self).columns

    @property
    def hand_points(self) -> int:
        """The most points one hand gives a side (Auction's four points,
        AP-SCORE-1; ten-point's ten, TP-POINTS-1)."""
        return _rules_of(self).hand_points


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


class Family(NamedTuple):
    """A rule family (``auction`` or ``ten-point``) as data: everything the
    engine and the views need to know about it, so that nobody outside
    ``engine/`` and ``profiles.py`` compares its name.

    ``deck`` is the family's deck (CARD-1 / CARD-2); ``trumps`` its trumps
    with their strengths and ``point_cards`` the values of its point cards
    (``tables``' data); ``view(trump)`` how the cards behave once trump is
    known (made from those); ``scoring`` how a hand is scored;
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
    trumps: CardValues
    point_cards: CardValues
    # The least and most players the family's `players` option may name.
    seats: tuple[int, int] = (2, 8)

    def rule(self, purpose: str) -> str:
        """The rule id a problem of ``purpose`` is reported under."""
        mode_rules = _MODE_RULES.get(self.mode, {}) if self.name == "ten-point" else {}
        return mode_rules.get(purpose) or _RULEBOOK[self.name][purpose]

    def rule_ids(self) -> frozenset[str]:
        """Every rule id a structural problem of this family (and mode) is
        reported under: its rule book's."""
        return frozenset(self.rule(purpose) for purpose in _RULEBOOK[self.name]) - {""}

    def view(self, trump: str) -> TrumpView:
        """The trump view for ``trump`` (cached)."""
        return _view(self.name, trump)

    @property
    def scores_awards(self) -> bool:
        """True when a hand scores High, Low, Jack and Game (AP-SCORE-1)."""
        return self.scoring is Scoring.AWARDS

    @property
    def hand_points(self) -> int:
        """The most points one hand gives a side: each award once, or every
        point card's value."""
        return len(self.columns) if self.scores_awards else sum(v for _, v in self.point_cards)


@cache
def family_for(name: str, mode: str) -> Family:
    """The family object for a profile's ``family`` and ``mode`` options."""
    if name == "ten-point":
        return Family(name, mode, stuck_dealer_may_pass=True, offsuit_trick_has_winner=False,
                      trump_named=True, scoring=Scoring.POINT_CARDS, exchange=Exchange(mode),
                      win_by=WinBy.HIGHEST, words=Words("bidder", "closing", "bids", "bid {bid}"),
                      columns=("taken",), deck=JOKER_DECK, trumps=TEN_POINT_TRUMPS,
                      point_cards=TEN_POINT_VALUES, seats=_SEATS[name])
    return Family(name, mode, stuck_dealer_may_pass=False, offsuit_trick_has_winner=True,
                  trump_named=False, scoring=Scoring.AWARDS, exchange=Exchange.NONE,
                  win_by=WinBy.PITCHER,
                  words=Words("pitcher", "pitch", "pitches: bids", "pitched: a bid of {bid}"),
                  columns=("high", "low", "jack", "game"), deck=STANDARD_DECK, trumps=NATURAL_TRUMPS,
                  point_cards=NO_POINT_CARDS, seats=_SEATS[name])


# The families by name, each with a mode it has (the columns don't depend on it).
FAMILIES = {"auction": "play-all", "ten-point": "refill"}


def _rules_of(name: FamilyName) -> Family:
    """The family object of a family's name (its columns, seats and points
    don't depend on the mode)."""
    return family_for(name.value, FAMILIES[name.value])


def family_of(profile: object) -> Family:
    """The family object of a profile (anything with ``family`` and ``mode``)."""
    return family_for(profile.family, profile.mode)  # type: ignore[attr-defined]


@cache
def _view(name: str, trump: str) -> TrumpView:
    """``tables.trump_view`` of a family's trumps and point cards, made once
    per family and trump. Kept by the family's name (two strings hash at no
    cost; the family's data, asked for at every hand, would be hashed anew)."""
    fam = family_for(name, FAMILIES[name])  # (the trumps and point cards don't depend on the mode)
    return trump_view(trump, fam.trumps, fam.point_cards)


def suit_words(suit: str) -> str:
    """'hearts' for 'H'."""
    return SUIT_NAMES[suit]
