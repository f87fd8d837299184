"""``pitch solve``: could the bid have been made, and which card lost it?

For every hand whose holdings at the start of play are known (recorded in
full, or as play: the holdings are the cards each player played), the
engine's solver (``pitchcli.engine.solve``) gives the most points the bidding
side could be sure of with all cards face up, and the recorded cards after
which that changed. Tally hands (no cards) are reported as not solvable.
This module is the model (``SolvedHand``); ``pitchcli.render.solve`` writes it.

JSON: ``{"report": "pitch-solve", "version": 2, "documents": [{"file",
"document", "hands": [...]}]}``, ``document`` its number in the file from 1
(version 1 counted from 0), each hand with exactly ``hand`` (from 1),
``bidder``, ``bid``, ``trump``, ``value``, ``value_best_lead`` (Auction Pitch;
else null), ``makeable``, ``costly`` (``[{trick, player, card, before, after,
better}]``), ``solved`` and ``nodes``. When the node budget runs out,
``solved`` is false and ``value`` (and ``value_best_lead``) are the bounds found
so far, ``[lowest, highest]``; ``makeable`` is null unless the bounds decide
it. A hand that can't be solved (no cards recorded) has ``value`` null and
``solved`` false with ``nodes`` 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pitchcli.api.games import Game
from pitchcli.api.solving import DEFAULT_BUDGET, solve
from pitchcli.api.solving import SolvedHand as Solved

REPORT = "pitch-solve"
VERSION = 2  # 2: "document" counts from 1 (was 0)
__all__ = ["DEFAULT_BUDGET", "DEFAULT_TOTAL_BUDGET", "REPORT", "VERSION", "RunBudget", "SolvedHand", "hand_json",
           "solve_game"]


def _value(exact: int | None, bounds: tuple[int, int] | None) -> int | list[int] | None:
    if exact is not None:
        return exact
    return list(bounds) if bounds is not None else None


def hand_json(solved: Solved) -> dict[str, Any]:
    """One hand of the JSON report (the fields of the module docstring), from
    what a script's ``pitchcli.solve`` gives."""
    entry: dict[str, Any] = {
        "hand": solved.hand, "bidder": solved.bidder, "bid": solved.bid, "trump": solved.trump,
        "value": None, "value_best_lead": None, "makeable": None, "costly": [],
        "solved": False, "nodes": 0,
    }
    if not solved.solvable:
        return entry
    entry["value"] = _value(solved.value, solved.value_bounds)
    entry["value_best_lead"] = _value(solved.value_best_lead, solved.best_lead_bounds)
    entry["makeable"] = solved.makeable
    entry["costly"] = [{"trick": c.trick, "player": c.player, "card": c.card.text,
                        "before": c.before, "after": c.after, "better": c.better.text}
                       for c in solved.costly]
    entry["solved"] = solved.solved
    entry["nodes"] = solved.nodes
    return entry


@dataclass
class SolvedHand:
    """One hand of ``pitch solve``: the JSON report's entry, and what the text
    says beyond it."""

    entry: dict[str, Any]  # the fields of the module docstring
    level: str | None = None  # full, play or tally (None: the hand is not scored)
    solvable: bool = False  # the holdings are known, so the solver ran
    bidding_players: set[str] = field(default_factory=set)  # the bidding side's players
    best_lead_suit: str | None = None  # Auction Pitch: the first lead that gives the most
    lost: list[tuple[str, ...]] = field(default_factory=list)  # each costly play's points changed ('high+low')


# The nodes a whole run of ``pitch solve`` may use, across its hands and
# documents: the per-hand budget alone let a 12-hand 7-player game run for
# three minutes (each hand near its budget), and a file of many games for
# hours. Four hands' worth; a hand reached after it is spent gets its bounds.
DEFAULT_TOTAL_BUDGET = 4 * DEFAULT_BUDGET


@dataclass
class RunBudget:
    """The nodes the run may still use (``--total-budget``), shared by every
    hand of every document: each hand gets the smaller of its own budget and
    what is left, so the run's work is bounded whatever the input holds."""

    left: int = DEFAULT_TOTAL_BUDGET

    def for_hand(self, budget: int) -> int:
        """The budget of the next hand."""
        return max(0, min(budget, self.left))

    def spend(self, nodes: int) -> None:
        """Count what a hand used (its walk over the costly cards included)."""
        self.left -= nodes


def solve_game(game: Game, hand: int | None = None, budget: int = DEFAULT_BUDGET,
               run: RunBudget | None = None) -> list[SolvedHand]:
    """Solve every hand of a game (``hand``: that one only) with the API's
    ``solve``, each within ``budget`` nodes and all within what ``run`` has
    left (None: no bound across hands)."""
    out = []
    for h in game.hands:
        if hand is not None and h.number != hand:
            continue
        one = solve(game, h.number, budget if run is None else run.for_hand(budget))[0]
        if one.solvable and run is not None:
            run.spend(one.nodes)
        solved = SolvedHand(hand_json(one))
        if h.scored:
            solved.level = h.level
            solved.bidding_players = {p for side in h.bidding_side for p in game.members(side)}
        if one.solvable:
            solved.solvable, solved.best_lead_suit = True, one.best_lead_suit
            solved.lost = [c.points for c in one.costly]
        out.append(solved)
    return out
