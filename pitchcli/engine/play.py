"""Tricks: following suit and who wins (AP-PLAY-*, TP-PLAY-*)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from pitchcli.cards import Card
from pitchcli.engine.family import TrumpView


class WonWith(StrEnum):
    """Why a trick went where it did: the highest trump in it, the highest card
    of the suit led (AP-PLAY-3), or nobody, a ten-point trick without a trump
    (TP-PLAY-2). A ``str``: it compares and serialises as its value."""

    TRUMP = "trump"
    SUIT = "suit"
    NONE = "none"


@dataclass(slots=True)  # not frozen: frozen __init__ costs 3x on this hot path
class Play:
    """One card played, by ``seat``; ``at`` locates it in the record."""

    seat: int
    card: Card
    at: str = ""


@dataclass(slots=True)  # not frozen: frozen __init__ costs 3x on this hot path
class Trick:
    """A finished trick. ``winner`` is ``None`` for a trick of off cards only in
    ten-point (TP-PLAY-2); ``reason`` says why (``WonWith``). Scoring fills in
    ``value``: the game points the winner takes in it (AP-SCORE-4), or the
    ten-point points he takes (TP-POINTS-1, the 2 of trumps excepted: it goes
    to who played it), and ``point_cards``, the ten-point point cards in it
    with their values."""

    number: int
    leader: int
    plays: tuple[Play, ...]
    winner: int | None
    reason: WonWith
    at: str = ""
    value: int = 0
    point_cards: tuple[tuple[Card, int], ...] = ()

    @property
    def winning_card(self) -> Card | None:
        """The card that won the trick."""
        for p in self.plays:
            if p.seat == self.winner:
                return p.card
        return None


def winner(plays: Sequence[Play], view: TrumpView, offsuit_has_winner: bool) -> tuple[int | None, WonWith]:
    """Who wins a trick: the highest trump in it or, with no trump, the highest
    card of the suit led (AP-PLAY-3); in ten-point nobody (TP-PLAY-2)."""
    strength = view.strength
    best: Play | None = None
    top = 0
    for p in plays:  # one pass, no key functions: this runs for every trick
        s = strength[p.card]
        if s > top:
            best, top = p, s
    if best is not None:
        return best.seat, WonWith.TRUMP
    if not offsuit_has_winner:
        return None, WonWith.NONE
    suit_of = view.suit_of
    led = suit_of[plays[0].card]
    best = plays[0]
    for p in plays[1:]:
        if suit_of[p.card] == led and p.card.rank > best.card.rank:
            best = p
    return best.seat, WonWith.SUIT


def may_play(card: Card, holding: Iterable[Card], led: Card | None, view: TrumpView) -> bool:
    """AP-PLAY-2 / TP-PLAY-1: follow suit or trump; any card if you can't follow.

    The one illegal play is a card of a third suit (neither led nor trump)
    while holding a card of the suit led.
    """
    if led is None:
        return True
    suit_led = view.suit_of[led]
    if view.suit_of[card] == suit_led or view.strength[card] > 0:
        return True
    return not any(view.suit_of[c] == suit_led for c in holding)


def legal_plays(holding: Iterable[Card], led: Card | None, view: TrumpView) -> list[Card]:
    """The cards of ``holding`` that may be played to a trick led by ``led``."""
    hold = list(holding)
    return [c for c in hold if may_play(c, hold, led, view)]
