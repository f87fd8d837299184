"""How a game ends, and why a unit at the target did not win (AP-WIN-*, TP-WIN-1)."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class EndReason(StrEnum):
    """Why the game ended after a hand."""

    PITCHER_MADE = "pitcher-made"  # AP-WIN-1: the pitcher reached the target and made his bid
    PITCHER_SET = "pitcher-set"  # AP-WIN-1 read literally (option win_on_set): reached it though set
    BIDDING_SIDE = "bidding-side"  # TP-WIN-1: the bidding side made its bid and is at the target
    PARTNER = "partner"  # TP-WIN-1: the bidder's partner at the target with the higher total
    HIGHEST = "highest"  # TP-WIN-1: the highest score at or above the target


class NotWon(StrEnum):
    """Why a unit at or above the target did not win in a hand."""

    NOT_PITCHER = "not-pitcher"  # AP-WIN-2: passed the target in a hand he did not pitch
    SET = "set"  # AP-WIN-3: the pitcher was set back
    TIED = "tied"  # TP-WIN-1: the highest score at or above the target is tied


class GameEnd(NamedTuple):
    """The game's end: ``winner`` (a unit) won in hand ``hand`` for ``reason``
    under ``rule``, with ``total``; ``at_target`` are the units at or above the
    target after that hand."""

    winner: int
    hand: int
    reason: EndReason
    rule: str
    total: int
    at_target: tuple[int, ...]


class TargetNote(NamedTuple):
    """A unit at or above the target after a hand that did not win, and why."""

    unit: int
    total: int
    reason: NotWon
    rule: str
