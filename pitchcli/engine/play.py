"""Tricks: following suit and who wins (AP-PLAY-*, TP-PLAY-*)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum

from pitchcli.cards import Card
from pitchcli.engine.tables import TRUMP_KEY, TrumpView, may_follow


class WonWith(StrEnum):
    """Why a trick went where it did: the highest trump in it, the highest card
    of the suit led (AP-PLAY-3), or nobody, a ten-point trick without a trump
    (TP-PLAY-2). A ``str``: it compares and serialises as its value."""

    TRUMP = "trump"
    SUIT = "suit"
    NONE = "none"


class Play:
    """One card played, by ``seat``; ``at`` locates it in the record."""

    # (A plain class, as ``HandResult``: docs/architecture.md, "a record type".
    # Not frozen: a frozen __init__ costs 3x on this hot path.)
    __slots__ = ("at", "card", "seat")

    def __init__(self, seat: int, card: Card, at: str = "") -> None:
        self.seat = seat
        self.card = card
        self.at = at


class Trick:
    """A finished trick. ``winner`` is ``None`` for a trick of off cards only in
    ten-point (TP-PLAY-2); ``reason`` says why (``WonWith``). Scoring fills in
    ``value``: the game points the winner takes in it (AP-SCORE-4), or the
    ten-point points he takes (TP-POINTS-1, the 2 of trumps excepted: it goes
    to who played it), and ``point_cards``, the ten-point point cards in it
    with their values."""

    # (A plain class, as ``Play``.)
    __slots__ = ("at", "leader", "number", "plays", "point_cards", "reason", "value", "winner")

    def __init__(self, number: int, leader: int, plays: tuple[Play, ...], winner: int | None, reason: WonWith,
                 at: str = "", value: int = 0, point_cards: tuple[tuple[Card, int], ...] = ()) -> None:
        self.number = number
        self.leader = leader
        self.plays = plays
        self.winner = winner
        self.reason = reason
        self.at = at
        self.value = value
        self.point_cards = point_cards

    @property
    def winning_card(self) -> Card | None:
        """The card that won the trick."""
        for p in self.plays:
            if p.seat == self.winner:
                return p.card
        return None


def trick_keys(cards: Sequence[int], view: TrumpView) -> list[int]:
    """Each card's key for winning a trick led by ``cards[0]`` (card indices in
    play order): a trump's ``TRUMP_KEY`` plus its strength, a card of the suit
    led its rank, 0 for a card that is neither (one look-up per card, in C)."""
    return list(map(view.win_key[view.suit_i[cards[0]]].__getitem__, cards))


def winner_by_keys(keys: list[int], offsuit_has_winner: bool) -> tuple[int | None, WonWith]:
    """Which card wins a trick, from its ``trick_keys``: the highest trump in
    it or, with no trump, the highest card of the suit led (AP-PLAY-3); in
    ten-point nobody (TP-PLAY-2). The quick pass (``argmax`` of the same keys)
    and the solver apply it too."""
    top = max(keys)
    if top > TRUMP_KEY:
        return keys.index(top), WonWith.TRUMP
    if not offsuit_has_winner:
        return None, WonWith.NONE
    return keys.index(top), WonWith.SUIT


def trick_winner(cards: Sequence[int], view: TrumpView, offsuit_has_winner: bool) -> tuple[int | None, WonWith]:
    """Which card wins a trick (its position in ``cards``): see ``winner_by_keys``."""
    return winner_by_keys(trick_keys(cards, view), offsuit_has_winner)


def winner(plays: Sequence[Play], view: TrumpView, offsuit_has_winner: bool) -> tuple[int | None, WonWith]:
    """Who wins a trick of ``plays`` (the seat; see ``trick_winner``)."""
    j, why = trick_winner([p.card.index for p in plays], view, offsuit_has_winner)
    return (None if j is None else plays[j].seat), why


def may_play(card: Card, holding: Iterable[Card], led: Card | None, view: TrumpView) -> bool:
    """AP-PLAY-2 / TP-PLAY-1 (``tables.may_follow``): follow suit or trump;
    any card if you can't follow. ``led``: the card that led the trick
    (``None``: ``card`` leads it, and any card may)."""
    if led is None:
        return True
    suit_of = view.suit_of
    suit_led = suit_of[led]
    return may_follow(suit_of[card] == suit_led, view.strength[card] > 0,
                      any(suit_of[c] == suit_led for c in holding))


def legal_plays(holding: Iterable[Card], led: Card | None, view: TrumpView) -> list[Card]:
    """The cards of ``holding`` that may be played to a trick led by ``led``."""
    hold = list(holding)
    if led is None:
        return hold
    suit_of = view.suit_of
    suit_led = suit_of[led]
    holds = any(suit_of[c] == suit_led for c in hold)  # the same for every card: asked once
    return [c for c in hold if may_follow(suit_of[c] == suit_led, view.strength[c] > 0, holds)]
