"""The engine's answers, in one place: what the views read.

A view (score sheet, replay, ``fmt --fill``, summary, the HTML report) reads
these objects and never works a rule out again. Seats and units are indices
into ``Table.players`` and ``Table.unit_names``.

- ``HandResult`` (one per scored hand): the contract, each ``Trick`` (leader,
  winner or nobody, why as ``WonWith``, the cards, ``value``), the Auction Pitch
  ``Award``s with their cards and the game-point tallies, or the ten-point
  ``PointCredit``s; ``taken`` per unit and ``seat_taken`` per seat; ``made``;
  ``delta`` (the change) and ``totals`` (after the hand); ``end`` and
  ``at_target`` (below).
- ``HandScore``: what a scored hand counts for (pitcher, bid, made, the
  change, partners, who took each award, points per unit and seat), from
  the full replay (``HandResult.score``) or the quick pass alike.
- ``GameEnd``: who won, in which hand, why (``EndReason``) and under which
  rule; ``TargetNote``: a unit at or above the target that did not win in a
  hand, and why (``NotWon``).
- ``Family`` (``family_of(profile)``): the deck, the trump view, how a hand is
  scored (``Scoring``), who may win (``WinBy``), the words (``Words``) and the
  standings columns.
"""

from __future__ import annotations

from pitchcli.engine.bidding import Call
from pitchcli.engine.family import (
    Family,
    Scoring,
    WinBy,
    Words,
    family_for,
    family_of,
)
from pitchcli.engine.hand import HandResult, HandScore
from pitchcli.engine.outcome import EndReason, GameEnd, NotWon, TargetNote
from pitchcli.engine.play import Play, Trick, WonWith
from pitchcli.engine.scoring import AWARDS, Award, Credit, PointCredit

__all__ = [
    "AWARDS", "Award", "Call", "Credit", "EndReason", "Family", "GameEnd", "HandResult", "HandScore", "NotWon",
    "Play", "PointCredit", "Scoring", "TargetNote", "Trick", "WinBy", "WonWith", "Words",
    "family_for", "family_of",
]
