"""Claims: what a record says a hand or a game came to (the points taken, the
score change, the running totals, the final scores), compared with what the
engine derives.

``compare_claims`` is the one comparison: the full replay reports each
``Disagreement`` it finds (``pipeline.feed.Driver.compare``), and the quick
pass adopts its verdict of a game only when it finds none
(``pipeline.feed.Driver.accept``), so the two can't judge a claim apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

# The claimed value of a name the claim leaves out, and the derived value of
# a name the engine doesn't know, as a diagnostic shows them.
MISSING = "missing"
NOT_A_UNIT = "not a player or team"


class Disagreement(NamedTuple):
    """One name (a player, a team, an award) where a claim and the derivation
    differ: ``claimed`` is ``MISSING`` when the claim leaves the name out,
    ``derived`` is ``NOT_A_UNIT`` when the engine knows no such name."""

    key: str
    claimed: object
    derived: object


def without_extensions(claim: Mapping[str, object]) -> dict[str, object]:
    """A claim without its ``x-`` extension keys (FORMAT.md principle 5; no
    player or team name starts so: the schema says)."""
    return {k: v for k, v in claim.items() if not k.startswith("x-")}


def compare_claims(claimed: Mapping[str, object], derived: Mapping[str, object]) -> list[Disagreement]:
    """Every name where ``claimed`` disagrees with ``derived``, in name order
    (as text); empty when they agree. A name on one side only is a
    disagreement; the claim's extension keys are left out."""
    if claimed == derived:
        return []  # the common case: one comparison, no per-key work
    claimed = without_extensions(claimed)
    if claimed == derived:
        return []
    out = []
    for key in sorted(claimed.keys() | derived.keys(), key=str):
        c = claimed.get(key, MISSING)
        d = derived.get(key, NOT_A_UNIT)
        if c != d:
            out.append(Disagreement(key, c, d))
    return out
