"""The event log's public types: ``HandEvent`` and the engine's frozen records
it is made of (``Game.events``), in a module of their own so that a script or
a command that reads a game's results without its log doesn't define them
(``pitchcli.api.games`` hands them out when first asked for; its ``EVENTS``
names them)."""

from __future__ import annotations

from pitchcli.engine.events import (
    Awarded,
    CallMade,
    CardPlayed,
    ContractSet,
    Discarded,
    Drew,
    HandSettled,
    HandStarted,
    PartnerCalled,
    PointsTaken,
    TrickStarted,
    TrickWon,
    TrumpSet,
)
from pitchcli.engine.scoring import PointCredit

__all__ = ["Awarded", "CallMade", "CardPlayed", "ContractSet", "Discarded", "Drew", "HandEvent",
           "HandSettled", "HandStarted", "PartnerCalled", "PointCredit", "PointsTaken", "TrickStarted", "TrickWon",
           "TrumpSet"]

HandEvent = (HandStarted | CallMade | ContractSet | TrumpSet | PartnerCalled | Discarded | Drew | TrickStarted
             | CardPlayed | TrickWon | PointsTaken | HandSettled)
"""One event of a hand's log (``Game.events``), in the order things happened.
Seats and sides in events are indices into ``Game.players`` and
``Game.sides``; kinds are enums."""
