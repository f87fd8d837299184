"""The enums of the public API: every kind a script compares against.

Each is a ``StrEnum``: it compares equal to, and serialises as, its value (the
word the JSON reports use). The engine's own enums are re-exported as they are:
they are its answers, not a copy of them.
"""

from __future__ import annotations

from enum import StrEnum

from pitchcli.engine.family import FamilyName as Family
from pitchcli.engine.family import Scoring
from pitchcli.engine.kinds import CallKind, Level, TrumpBy
from pitchcli.engine.outcome import EndReason, NotWon
from pitchcli.engine.play import WonWith
from pitchcli.engine.scoring import Credit

__all__ = ["CallKind", "Credit", "EndReason", "Family", "Level", "NotWon", "PointKind", "RecordFormat", "Scoring",
           "Severity", "TrumpBy", "WonWith"]


class Severity(StrEnum):
    """How bad a diagnostic is: an error makes a record invalid; a warning
    doesn't (unless a caller is strict, as ``pitch validate --strict``)."""

    ERROR = "error"
    WARNING = "warning"


class RecordFormat(StrEnum):
    """How a record is written: YAML (a stream when several), JSON, or JSON
    Lines (one record a line)."""

    YAML = "yaml"
    JSON = "json"
    JSONL = "jsonl"


class PointKind(StrEnum):
    """The four Auction Pitch points (AP-SCORE-1)."""

    HIGH = "high"
    LOW = "low"
    JACK = "jack"
    GAME = "game"
