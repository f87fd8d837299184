"""``pitch solve``: could the bid have been made, and which card lost it?

For every hand whose holdings at the start of play are known (recorded in
full, or as play: the holdings are the cards each player played), the
engine's solver (``pitchcli.engine.solve``) gives the most points the bidding
side could be sure of with all cards face up, and the recorded cards after
which that changed. Tally hands (no cards) are reported as not solvable.

JSON: ``{"report": "pitch-solve", "version": 1, "documents": [{"file",
"document", "hands": [...]}]}``, each hand with exactly ``hand`` (from 1),
``bidder``, ``bid``, ``trump``, ``value``, ``value_best_lead`` (Auction Pitch;
else null), ``makeable``, ``costly`` (``[{trick, player, card, before, after,
better}]``), ``solved`` and ``nodes``. When the node budget runs out,
``solved`` is false and ``value`` (and ``value_best_lead``) are the bounds found
so far, ``[lowest, highest]``; ``makeable`` is null unless the bounds decide
it. A hand that can't be solved (no cards recorded) has ``value`` null and
``solved`` false with ``nodes`` 0.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

from pitchcli import escape
from pitchcli.cards import SUIT_NAMES
from pitchcli.engine.results import HandResult, family_of
from pitchcli.engine.solve import DEFAULT_BUDGET, Solution, deal_of, solve
from pitchcli.views.scoresheet import refuse

REPORT = "pitch-solve"
VERSION = 1


def shown(text: str) -> str:
    """Record text made safe for a terminal: the one escaper (``pitchcli.escape``:
    controls, bidi controls, separators)."""
    return escape.text(text)


def _value(exact: int | None, bounds: tuple[int, int] | None) -> int | list[int] | None:
    if exact is not None:
        return exact
    return list(bounds) if bounds is not None else None


def hand_json(number: int, result: HandResult | None, players: tuple[str, ...],
              sol: Solution | None) -> dict[str, Any]:
    """One hand of the JSON report (the fields of the module docstring)."""
    entry: dict[str, Any] = {
        "hand": number,
        "bidder": players[result.bidder] if result is not None else None,
        "bid": result.bid if result is not None else None,
        "trump": result.trump if result is not None else None,
        "value": None, "value_best_lead": None, "makeable": None, "costly": [],
        "solved": False, "nodes": 0,
    }
    if sol is None or result is None:
        return entry
    lo, hi = sol.value_bounds
    entry["value"] = _value(sol.value, sol.value_bounds)
    entry["value_best_lead"] = _value(sol.value_best_lead, sol.best_lead_bounds)
    entry["makeable"] = True if lo >= result.bid else False if hi < result.bid else None
    entry["costly"] = [{"trick": c.trick, "player": players[c.seat], "card": c.card.text,
                        "before": c.before, "after": c.after, "better": c.better.text}
                       for c in sol.costly]
    entry["solved"] = sol.solved
    entry["nodes"] = sol.nodes
    return entry


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


def hand_text(entry: dict[str, Any], sol: Solution | None, level: str | None,
              bidding_seats: set[str]) -> list[str]:
    """A hand in sentences, for a player."""
    n = entry["hand"]
    if entry["bidder"] is None:
        return [f"Hand {n}: not scored (the record stops before the play), so it can't be solved."]
    who = shown(entry["bidder"])
    head = f"Hand {n}: {who} bid {entry['bid']}"
    if entry["trump"]:
        head += f" in {SUIT_NAMES[entry['trump']]}"
    if sol is None:
        why = "a tally (no cards recorded)" if level == "tally" else "no cards recorded"
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
    if best is not None and best != value and sol.best_lead_suit:
        head += f" ({_range(best)} with the best first lead, {SUIT_NAMES[sol.best_lead_suit]})"
    elif isinstance(best, list) and not entry["solved"]:
        head += f" ({_range(best)} with the best first lead)"
    lines = [head + "."]
    for c, found in zip(entry["costly"], sol.costly, strict=True):
        player = shown(c["player"])
        lost = abs(c["before"] - c["after"])
        points = _named(found.points) if found.points else _points(lost)
        if c["player"] in bidding_seats:
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
                     f"use a larger --budget.")
    return lines


def run(checked: Iterable[Any], out: TextIO, err: TextIO, hand: int | None = None,
        fmt: str = "text", budget: int = DEFAULT_BUDGET) -> int:
    """Solve every hand of every checked document; return the exit status
    (0 ok, 1 an invalid record or a missing hand, 3 an unreadable input)."""
    failed = unreadable = False
    docs: list[dict[str, Any]] = []
    first = True
    for c in checked:
        refused = refuse(c, err, "not solved")
        if refused:
            unreadable = unreadable or refused == "unreadable"
            failed = failed or refused == "invalid"
            continue
        analysis = c.analysis
        table, profile = analysis.table, analysis.profile
        results = analysis.hands
        if hand is not None and hand > len(results):
            err.write(f"{shown(c.file)}: there is no hand {hand}: the game has {len(results)} "
                      f"hand{'' if len(results) == 1 else 's'}\n")
            failed = True
            continue
        fam = family_of(profile)
        entries = []
        lines: list[str] = []
        for i, r in enumerate(results):
            if hand is not None and i + 1 != hand:
                continue
            deal = deal_of(r, table.unit_of, fam, profile.low) if r is not None else None
            sol = None
            if deal is not None and r is not None and r.trump is not None:
                plays = [p.card for t in r.tricks for p in t.plays]
                sol = solve(deal, r.trump, plays, budget)
            entry = hand_json(i + 1, r, table.players, sol)
            entries.append(entry)
            if fmt == "text":
                seats = ({table.players[s] for s in range(table.seats) if table.unit_of[s] in r.bidding_units}
                         if r is not None else set())
                lines += hand_text(entry, sol, r.level if r is not None else None, seats)
        if fmt == "json":
            docs.append({"file": c.file, "document": c.index, "hands": entries})
        else:
            if not first:
                out.write("\n")
            out.write(f"{shown(c.file)}" + (f" (document {c.index + 1})" if c.index else "") + ":\n")
            out.write("".join(line + "\n" for line in lines))
        first = False
    if fmt == "json":
        json.dump({"report": REPORT, "version": VERSION, "documents": docs}, out, ensure_ascii=False, indent=2)
        out.write("\n")
    return 3 if unreadable else 1 if failed else 0
