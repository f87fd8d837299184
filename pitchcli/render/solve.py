"""``pitch solve`` rendered: a sentence per hand and per costly card, or the
versioned JSON report (``pitchcli.views.solve``: the fields, the version)."""

from __future__ import annotations

import json
from typing import Any, TextIO

from pitchcli import escape
from pitchcli.api.checking import checked_game
from pitchcli.cards import SUIT_NAMES
from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.driver import SEE_VALIDATE, GameConsumer
from pitchcli.views.solve import (
    DEFAULT_BUDGET,
    DEFAULT_TOTAL_BUDGET,
    REPORT,
    VERSION,
    RunBudget,
    SolvedHand,
    solve_game,
)


def shown(text: str) -> str:
    """Record text made safe for a terminal: the one escaper (``pitchcli.escape``:
    controls, bidi controls, separators)."""
    return escape.text(text)


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


_POINT_NAMES = {"high": "High", "low": "Low", "jack": "the Jack", "game": "Game"}


def _named(points: tuple[str, ...]) -> str:
    """'the Jack', 'High and Low' (a lone trump is both), 'Low and Game'."""
    words = [" and ".join(_POINT_NAMES[k] for k in p.split("+")) for p in points]
    return " and ".join(words)


def _range(v: int | list[int] | None) -> str:
    if isinstance(v, list):
        return f"{v[0]} to {v[1]}" if v[0] != v[1] else str(v[0])
    return str(v)


def hand_text(solved: SolvedHand) -> list[str]:
    """A hand in sentences, for a player."""
    entry = solved.entry
    n = entry["hand"]
    if entry["bidder"] is None:
        return [f"Hand {n}: not scored (the record stops before the play), so it can't be solved."]
    who = shown(entry["bidder"])
    head = f"Hand {n}: {who} bid {entry['bid']}"
    if entry["trump"]:
        head += f" in {SUIT_NAMES[entry['trump']]}"
    if not solved.solvable:
        why = "a tally (no cards recorded)" if solved.level == "tally" else "no cards recorded"
        return [f"{head}; {why}: the holdings are unknown, so it can't be solved."]
    value = entry["value"]
    if entry["solved"] or not isinstance(value, list):
        if value == 0:
            head += "; no point was makeable"
        else:
            head += f"; {'' if value >= entry['bid'] else 'only '}{value} {'was' if value == 1 else 'were'} makeable"
    else:
        head += f"; {_range(value)} makeable (the search stopped at its budget)"
    best = entry["value_best_lead"]
    if best is not None and best != value and solved.best_lead_suit:
        head += f" ({_range(best)} with the best first lead, {SUIT_NAMES[solved.best_lead_suit]})"
    elif isinstance(best, list) and not entry["solved"]:
        head += f" ({_range(best)} with the best first lead)"
    lines = [head + "."]
    for c, changed in zip(entry["costly"], solved.lost, strict=True):
        player = shown(c["player"])
        lost = abs(c["before"] - c["after"])
        points = _named(changed) if changed else _points(lost)
        if c["player"] in solved.bidding_players:
            what = f"lost {points} ({c['before']} to {c['after']})"
            keep = f"{c['better']} kept {c['before']}"
        else:
            what = f"gave away {points} ({c['before']} to {c['after']})"
            keep = f"{c['better']} held it to {c['before']}"
        lines.append(f"  trick {c['trick']}, {player}'s {c['card']} {what} — {keep}.")
    if entry["solved"] and not entry["costly"]:
        lines.append("  Every card kept the value: no costly play.")
    if not entry["solved"]:
        lines.append(f"  Not solved within the budget ({entry['nodes']:,} nodes); "
                     f"use a larger --budget (per hand) or --total-budget (the whole run).")
    return lines


# --------------------------------------------------------------------------
# The formats of ``pitch solve`` (``render.formats.SOLVE``)


class SolveRenderer:
    """Writes the solved hands of each document to ``out``."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def document(self, c: Checked, hands: list[SolvedHand]) -> None:
        """One document's hands."""

    def close(self) -> None:
        """After the last document."""


class TextSolve(SolveRenderer):
    """A heading per document (``file (document N):``), then its hands in
    sentences; a blank line between documents."""

    first = True

    def document(self, c: Checked, hands: list[SolvedHand]) -> None:
        """The document in sentences."""
        if not self.first:
            self.out.write("\n")
        self.out.write(f"{shown(c.where())}:\n")
        self.out.write("".join(line + "\n" for h in hands for line in hand_text(h)))
        self.first = False


class JsonSolve(SolveRenderer):
    """The versioned report (``pitch-solve`` version 2: documents count from 1)."""

    def __init__(self, out: TextIO) -> None:
        super().__init__(out)
        self.docs: list[dict[str, Any]] = []

    def document(self, c: Checked, hands: list[SolvedHand]) -> None:
        """The document's entry."""
        self.docs.append({"file": c.file, "document": c.number, "hands": [h.entry for h in hands]})

    def close(self) -> None:
        """The report."""
        json.dump({"report": REPORT, "version": VERSION, "documents": self.docs}, self.out,
                  ensure_ascii=False, indent=2)
        self.out.write("\n")


class Solving(GameConsumer):
    """``pitch solve``'s part of the command driver: every hand of each usable
    document solved within ``budget`` nodes, all of them within ``total``,
    and given to ``renderer``."""

    refusal = "{file}: not solved: the record is invalid ({errors}); " + SEE_VALIDATE

    def __init__(self, renderer: SolveRenderer, err: TextIO, hand: int | None = None,
                 budget: int = DEFAULT_BUDGET, total: int = DEFAULT_TOTAL_BUDGET) -> None:
        super().__init__(err, hand)
        self.renderer, self.budget = renderer, budget
        self.run_budget = RunBudget(total)  # across every hand of every document

    def game(self, c: Checked) -> None:
        """Solve one document."""
        game = checked_game(c)
        if self.has_hand(c, len(game.hands)):
            self.renderer.document(c, solve_game(game, self.hand, self.budget, self.run_budget))

    def end(self) -> int:
        """Finish the output; the exit status."""
        self.renderer.close()
        return self.run.status()
