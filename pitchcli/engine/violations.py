"""Violations: what the engine reports when a step breaks a rule."""

from __future__ import annotations

from typing import Any, NamedTuple


class Violation(NamedTuple):
    """A rule broken by one step of a hand or a game.

    ``code`` is a diagnostic code of ``pitchcli.diagnostics.CODES``; ``rule`` the
    id in RULES.md; ``at`` is the opaque location the caller attached to the
    step (the analysis layer passes a JSON Pointer); ``trick`` is 1-based;
    ``details`` what the diagnostic's ``extra`` carries (None: nothing).

    (Immutable and internal: a named tuple, per docs/architecture.md.)
    """

    code: str
    rule: str | None
    message: str
    at: str = ""
    trick: int | None = None
    details: dict[str, Any] | None = None
