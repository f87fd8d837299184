"""Double-dummy analysis of a game's hands: ``solve(game)`` -> ``SolvedHand``s.

With every card face up and everyone playing perfectly (the bidding side
against all the others together; docs/solve.md), how many points the bidding
side could be sure of, whether that makes the bid, and each recorded card after
which that changed, with a card that would have kept it — what ``pitch solve``
reports. The search is the engine's (``pitchcli.engine.solve``).
"""

from __future__ import annotations

from dataclasses import dataclass

from pitchcli.api.games import Game, analysis_of
from pitchcli.api.kinds import PointKind
from pitchcli.cards import Card
from pitchcli.engine.family import family_of
from pitchcli.engine.solve import DEFAULT_BUDGET, solve_hand

__all__ = ["DEFAULT_BUDGET", "CostlyCard", "SolvedHand", "solve"]


@dataclass(frozen=True, slots=True)
class CostlyCard:
    """A recorded card after which the bidding side's sure value changed from
    ``before`` to ``after``; ``better`` would have kept ``before``. ``points``:
    the Auction Pitch points that changed hands, when that is clear."""

    trick: int
    player: str
    card: Card
    before: int
    after: int
    better: Card
    points: tuple[PointKind, ...]


@dataclass(frozen=True, slots=True)
class SolvedHand:
    """One hand of ``solve``. ``solvable`` false: its cards are not recorded
    (a tally, or the hand was not scored). ``solved`` false with ``solvable``:
    the node budget ran out, and ``value_bounds`` are what was found.

    ``value``: the most points the bidding side could be sure of, with trump as
    played; ``value_best_lead`` (Auction Pitch, where the first lead sets trump)
    with the best first lead, ``best_lead_suit`` its suit; ``makeable`` whether
    the bid could be made (``None`` when the bounds don't decide it);
    ``costly`` the recorded cards that changed the value; ``nodes`` the cards
    played in the search."""

    hand: int
    bidder: str | None
    bid: int | None
    trump: str | None
    solvable: bool
    solved: bool
    value: int | None
    value_bounds: tuple[int, int] | None
    value_best_lead: int | None
    best_lead_bounds: tuple[int, int] | None
    best_lead_suit: str | None
    makeable: bool | None
    costly: tuple[CostlyCard, ...]
    nodes: int


def solve(game: Game, hand: int | None = None, budget: int = DEFAULT_BUDGET) -> list[SolvedHand]:
    """Solve every hand of ``game`` (``hand``: only that one, from 1), each
    within ``budget`` nodes."""
    a = analysis_of(game)
    table, profile = a.table, a.profile
    assert table is not None and profile is not None  # a Game is made only for a seated table
    fam = family_of(profile)
    out = []
    for i, r in enumerate(a.hands):
        if hand is not None and i + 1 != hand:
            continue
        sol = solve_hand(r, table.unit_of, fam, profile.low, budget)
        if r is None or sol is None:
            out.append(SolvedHand(i + 1, None if r is None else table.players[r.bidder],
                                  None if r is None else r.bid, None if r is None else r.trump,
                                  False, False, None, None, None, None, None, None, (), 0))
            continue
        costly = tuple(CostlyCard(c.trick, table.players[c.seat], c.card, c.before, c.after, c.better,
                                  tuple(PointKind(k) for p in c.points for k in p.split("+"))) for c in sol.costly)
        out.append(SolvedHand(i + 1, table.players[r.bidder], r.bid, r.trump, True, sol.solved, sol.value,
                              sol.value_bounds, sol.value_best_lead, sol.best_lead_bounds, sol.best_lead_suit,
                              sol.makeable(r.bid), costly, sol.nodes))
    return out
