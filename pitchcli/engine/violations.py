"""Violations: what the engine reports when a step breaks a rule."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Violation:
    """A rule broken by one step of a hand or a game.

    ``code`` is a diagnostic code of ``pitchcli.diagnostics.CODES``; ``rule`` the
    id in RULES.md; ``at`` is the opaque location the caller attached to the
    step (the analysis layer passes a JSON Pointer); ``trick`` is 1-based.
    """

    code: str
    rule: str | None
    message: str
    at: str = ""
    trick: int | None = None
    details: dict[str, Any] = field(default_factory=dict, compare=False)
