"""The rules table: the facts of the rules, each written here once, that the
replay (``hand``, ``play``, ``scoring``), the quick pass (``quick``) and the
solver (``solve``) all read.

- the suits and the decks (CARD-1, CARD-2; the cards themselves and their
  notation are ``pitchcli.cards``'s);
- the order of the trumps of each family (CARD-1, TP-TRUMP-2) and the ten-point
  values of the point cards (TP-POINTS-1), as data a family picks
  (``family.family_for``), and the game points of every card (AP-SCORE-4);
- the jack (AP-SCORE-1's Jack) and the 2 (TP-POINTS-1) of each trump suit;
- the scale of the keys that decide a trick (``TRUMP_KEY``), and ``may_follow``,
  the rule of following suit;
- ``TrumpView``: all of it for one family and one trump, worked out once
  (``trump_view``): each card's suit for following, strength as a trump,
  points, key for winning a trick, and the cards the follow rule allows. The
  hand's checks read it card by card, the quick pass as arrays made from it,
  the solver as bit masks made from it.

Cards are also ints here (``Card.index``): the engine's hot paths work on ints.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import NamedTuple

from pitchcli.cards import (
    ALL_CARDS,
    CANONICAL,
    JOKER_DECK,
    SAME_COLOUR,
    STANDARD_DECK,
    SUITS,
    Card,
)

__all__ = [
    "GAME_POINTS", "GAME_POINTS_I", "JACK_I", "JOKER_DECK", "NATURAL_TRUMPS", "NO_POINT_CARDS",
    "STANDARD_DECK", "SUITS", "SUIT_INDEX", "TEN_POINT_TRUMPS", "TEN_POINT_VALUES", "TRUMP_KEY",
    "TWO_I", "CardValues", "TrumpView", "may_follow", "trump_view",
]

# Each suit's place in ``SUITS`` (the quick pass and the solver index by it).
SUIT_INDEX: dict[str, int] = {s: i for i, s in enumerate(SUITS)}

# A trump's key for winning a trick is TRUMP_KEY plus its strength, above
# every rank (2..14), the key of a card of the suit led. The solver's move
# ordering weighs these keys against what a card is worth, so the number is
# kept as it was there: another one would change its search order (and the
# node counts ``pitch solve`` reports), not its answers.
TRUMP_KEY = 1000

# How cards stand to the trump suit, in the data below: a rank of the trump
# suit as written ("2" .. "10", "J", "Q", "K", "A"), "OJ" the jack of the other
# suit of the same colour (the off-jack), "BJ" and "LJ" the jokers.
CardValues = tuple[tuple[str, int], ...]


def _ranks(texts: str, first: int) -> CardValues:
    """Ranks of the trump suit, low to high, numbered from ``first``."""
    return tuple((t, first + i) for i, t in enumerate(texts.split()))


# CARD-1: the trumps are the cards of the trump suit, in their natural order;
# each trump's strength (the higher wins), from 1 for the 2.
NATURAL_TRUMPS: CardValues = _ranks("2 3 4 5 6 7 8 9 10 J Q K A", 1)
# TP-TRUMP-2: sixteen trumps, high to low A K Q J OJ BJ LJ 10 .. 2. The numbers
# are an order only (13 is free: they are the strengths the engine has always
# used, and the solver's move ordering reads their spacing).
TEN_POINT_TRUMPS: CardValues = (*_ranks("2 3 4 5 6 7 8 9 10", 1), ("LJ", 10), ("BJ", 11), ("OJ", 12),
                                *_ranks("J Q K A", 14))
# TP-POINTS-1: the point cards and their values, 10 in all; off cards are
# worth nothing (TP-POINTS-2).
TEN_POINT_VALUES: CardValues = (("A", 1), ("J", 1), ("OJ", 1), ("BJ", 1), ("LJ", 1), ("10", 1),
                                ("3", 3), ("2", 1))
# Auction Pitch scores no card by its value: High, Low, Jack and Game (AP-SCORE-1).
NO_POINT_CARDS: CardValues = ()

# AP-SCORE-4: game points of every suit, by rank, and of every card by ``Card.index``.
GAME_POINTS: MappingProxyType[int, int] = MappingProxyType({10: 10, 14: 4, 13: 3, 12: 2, 11: 1})
GAME_POINTS_I: tuple[int, ...] = tuple(GAME_POINTS.get(c.rank, 0) for c in ALL_CARDS)
# The jack of each trump suit (AP-SCORE-1's Jack) and its 2 (TP-POINTS-1: it
# scores for who played it), by ``Card.index``.
JACK_I: dict[str, int] = {s: CANONICAL["J" + s].index for s in SUITS}
TWO_I: dict[str, int] = {s: CANONICAL["2" + s].index for s in SUITS}


def may_follow(of_suit_led: bool, trump: bool, holds_suit_led: bool) -> bool:
    """THE rule of following (AP-PLAY-2, TP-PLAY-1): may a card be played to
    a trick? A card of the suit led may, and a trump may, always; any other
    card only by a player who holds no card of the suit led.

    The engine uses it in three forms made from this one: card by card
    (``play.may_play``), as bit masks (``TrumpView.follow``, the solver's
    moves) and as the cards that need a void (``TrumpView.void_only``, the
    hand's and the quick pass's check of a finished trick)."""
    return of_suit_led or trump or not holds_suit_led


class TrumpView(NamedTuple):
    """How the cards behave once ``trump`` is known (``trump_view``).

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
    suit_i: tuple[str, ...]
    strength_i: tuple[int, ...]
    points_i: tuple[int, ...]
    trumps_i: frozenset[int]
    # Per suit led: each card's key for winning a trick (a trump above every
    # non-trump, by strength; then a card of the suit led, by rank; 0 for the rest).
    win_key: dict[str, tuple[int, ...]]
    # Per suit led: the cards (``Card.index``) that ``may_follow`` lets only a
    # player with no card of the suit led play.
    void_only: dict[str, frozenset[int]]
    # Per suit led: the cards that may be played as a bit mask over
    # ``Card.index``, by a player who holds no card of the suit led ([0]) and
    # by one who does ([1]).
    follow: dict[str, tuple[int, int]]

    def is_trump(self, c: Card) -> bool:
        """True when ``c`` is a trump."""
        return self.strength[c] > 0


def _card_as(text: str, trump: str) -> Card:
    """The card that ``text`` names as it stands to ``trump`` (see ``CardValues``)."""
    if text in ("BJ", "LJ"):
        return CANONICAL[text]
    if text == "OJ":
        return CANONICAL["J" + SAME_COLOUR[trump]]
    return CANONICAL[text + trump]


def trump_view(trump: str, trumps: CardValues, values: CardValues) -> TrumpView:
    """The trump view of a family whose trumps are ``trumps`` (each with its
    strength) and whose point cards are ``values``, once ``trump`` is named.

    A trump belongs to the trump suit for following, wherever it is printed
    (TP-TRUMP-2); any other card to its own suit (a joker no family takes as a
    trump, to the trump suit: it is refused as outside the deck before it is
    played). Made once per family and trump (``family.Family.view``)."""
    strength_of = {_card_as(t, trump): s for t, s in trumps}
    value_of = {_card_as(t, trump): v for t, v in values}
    suit_of: dict[Card, str] = {}
    strength: dict[Card, int] = {}
    points: dict[Card, int] = {}
    for c in ALL_CARDS:  # in the cards' order: views list point cards in it
        s = strength_of.get(c, 0)
        suit_of[c] = trump if s or c.suit is None else c.suit
        strength[c] = s
        points[c] = value_of.get(c, 0)
    win_key = {led: tuple(TRUMP_KEY + strength[c] if strength[c] else c.rank if suit_of[c] == led else 0
                          for c in ALL_CARDS)
               for led in SUITS}
    void_only: dict[str, frozenset[int]] = {}
    follow: dict[str, tuple[int, int]] = {}
    for led in SUITS:
        allowed = [sum(1 << c.index for c in ALL_CARDS if may_follow(suit_of[c] == led, strength[c] > 0, holds))
                   for holds in (False, True)]
        follow[led] = allowed[0], allowed[1]
        void_only[led] = frozenset(c.index for c in ALL_CARDS if not allowed[1] >> c.index & 1)
    return TrumpView(trump, suit_of, strength, points, tuple(suit_of[c] for c in ALL_CARDS),
                     tuple(strength[c] for c in ALL_CARDS), tuple(points[c] for c in ALL_CARDS),
                     frozenset(c.index for c in ALL_CARDS if strength[c] > 0), win_key, void_only, follow)
