"""Score sheets rendered: text (tabulate tables and sentences), the JSON report
(``REPORT``, version 2: ``document`` counts from 1) and CSV."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from typing import Any

from tabulate import tabulate

from pitchcli import escape
from pitchcli.cards import SUIT_NAMES
from pitchcli.diagnostics import is_claim
from pitchcli.engine.results import AWARDS
from pitchcli.render.style import paint
from pitchcli.views.scoresheet import (
    REPORT,
    VERSION,
    HandScore,
    Mismatch,
    ScoreSheet,
    and_list,
    award_line,
    refuse,
    score_sheet,
    signed,
)


def hand_text(sheet: ScoreSheet, hs: HandScore, check: bool = False) -> str:
    """One hand of the score sheet, as text."""
    lines: list[str] = []
    if not hs.scored:
        lines.append(f"Hand {hs.number}: {hs.dealer} dealt; not scored (neither tricks nor points "
                     f"recorded yet), so the totals from here on are unknown.")
        return "\n".join(lines) + "\n"
    role = sheet.fam.words.role
    head = f"Hand {hs.number} ({hs.level}): {hs.dealer} dealt; {role} {hs.bidder}, bid {hs.bid}"
    if hs.stuck:
        head += " (stuck dealer)"
    elif hs.steal:
        head += " (stolen by the dealer)"
    if hs.trump:
        head += f"; trump {SUIT_NAMES[hs.trump]}"
    if hs.called:
        head += f"; called {and_list(hs.called)}: partner {and_list(hs.partners) if hs.partners else 'none (alone)'}"
    lines.append(head + ".")
    if sheet.fam.scores_awards:
        rows = [award_line(hs, k, sheet) for k in AWARDS]
        lines.append(_indent(tabulate(rows, headers=["point", "card", "won by", "how"], tablefmt="simple")))
    side = hs.bidding_side
    side_took = hs.result.side_took if hs.result else 0
    who = and_list(side) if len(side) > 1 else (side[0] if side else "?")
    outcome = paint("made", "made") if hs.made else paint("set", "set back")  # coloured on a terminal
    lines.append(f"  {who} bid {hs.bid} and took {side_took}: {outcome}.")
    rows = []
    for u in sheet.units:
        mark = ""
        if u in side:
            mark = role if hs.bidder in [*sheet.teams.get(u, []), u] else "partner"
        rows.append([u, mark, hs.taken[u], signed(hs.change[u]),
                     "?" if hs.totals is None else hs.totals[u]])
    lines.append(_indent(tabulate(rows, headers=[sheet.unit_word, "side", "took", "change", "total"],
                                  tablefmt="simple", colalign=("left", "left", "right", "right", "right"))))
    if check and hs.mismatches:
        lines.append(_indent(mismatch_table(hs.mismatches)))
    if hs.explanation:
        lines.append("  Why:")
        lines += [f"  - {s}" for s in hs.explanation]
    return "\n".join(lines) + "\n"


def _indent(text: str, pad: str = "  ") -> str:
    return "\n".join(pad + line if line else line for line in text.splitlines())


def _show(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, dict):
        return ", ".join(f"{k}: {_show(x)}" for k, x in v.items())
    if isinstance(v, list):
        return ", ".join(map(_show, v)) or "nobody"
    return str(v)


def mismatch_table(ms: list[Mismatch]) -> str:
    """The claims that disagree as a table: field, name, recorded, computed, code."""
    rows = [[m.field, m.key or "", _show(m.claimed), _show(m.derived), m.code] for m in ms]
    return "Recorded values that disagree with the cards:\n" + tabulate(
        rows, headers=["field", "name", "recorded", "computed", "code"], tablefmt="simple")


def sheet_text(sheet: ScoreSheet, hand: int | None = None, check: bool = False) -> str:
    """The score sheet as text: a title, the hands, the outcome."""
    head = f"{sheet.file}" + (f" (document {sheet.document + 1})" if sheet.document else "")
    who = ", ".join(sheet.players)
    if sheet.teams:
        who = "; ".join(f"{t}: {' & '.join(m)}" for t, m in sheet.teams.items())
    parts = [f"{head}: {sheet.variant}, {who}; target {sheet.target}.", ""]
    shown = [h for h in sheet.hands if hand is None or h.number == hand]
    for h in shown:
        parts.append(hand_text(sheet, h, check))
    if hand is None:
        parts.append(outcome_text(sheet, check))
    return "\n".join(parts).rstrip("\n") + "\n"


def outcome_text(sheet: ScoreSheet, check: bool = False) -> str:
    """The closing sentence: the winner, or unfinished."""
    lines = []
    n = len(sheet.hands)
    if sheet.totals is None:
        lines.append(f"Unfinished: the totals are unknown after an unscored hand ({n} hands recorded).")
    else:
        if sheet.winner is not None:
            lines.append(f"Winner: {sheet.winner}, in hand {sheet.winner_hand}.")
        else:
            lines.append(f"Unfinished: nobody has won after {n} hand{'' if n == 1 else 's'} "
                         f"(target {sheet.target}).")
        rows = sorted(sheet.totals.items(), key=lambda kv: -kv[1])
        lines.append(_indent(tabulate(rows, headers=[sheet.unit_word, "score"], tablefmt="simple")))
    if check and sheet.mismatches:
        lines.append(_indent(mismatch_table(sheet.mismatches)))
    return "\n".join(lines) + "\n"


def hand_json(hs: HandScore) -> dict[str, Any]:
    """One scored hand as a plain mapping for the JSON output."""
    out: dict[str, Any] = {"hand": hs.number, "dealer": hs.dealer, "scored": hs.scored}
    if hs.scored:
        out.update({
            "level": hs.level, "bidder": hs.bidder, "bid": hs.bid, "stuck": hs.stuck, "steal": hs.steal,
            "trump": hs.trump, "called": hs.called, "partners": hs.partners,
            "awards": {k: a.as_json() for k, a in hs.awards.items()} or None,
            "game_points": hs.game_points or None,
            "points": hs.taken, "bidding_side": hs.bidding_side, "made": hs.made,
            "score": hs.change,
        })
    out["totals"] = hs.totals
    out["mismatches"] = [m.as_json() for m in hs.mismatches]
    if hs.explanation:
        out["explanation"] = hs.explanation
    return out


def sheet_json(sheet: ScoreSheet, hand: int | None = None) -> dict[str, Any]:
    """The score sheet as a plain mapping (one entry of the JSON report)."""
    return {
        "file": sheet.file, "document": sheet.document + 1, "valid": True, "variant": sheet.variant,
        "family": sheet.family, "players": sheet.players, "teams": sheet.teams or None,
        "units": sheet.units, "target": sheet.target,
        "hands": [hand_json(h) for h in sheet.hands if hand is None or h.number == hand],
        "totals": sheet.totals, "winner": sheet.winner, "winner_hand": sheet.winner_hand,
        "finished": sheet.finished,
        "mismatches": [m.as_json() for m in sheet.mismatches],
    }


CSV_COLUMNS = ("file", "document", "hand", "level", "dealer", "bidder", "bid", "trump", "partners",
               "made", "high", "high_card", "low", "low_card", "jack", "jack_card", "game",
               "unit", "points", "change", "total")


def sheet_csv_rows(sheet: ScoreSheet, hand: int | None = None) -> list[dict[str, Any]]:
    """One row per hand and unit (tidy data): the hand's facts repeated on each."""
    rows = []
    for hs in sheet.hands:
        if hand is not None and hs.number != hand:
            continue
        base: dict[str, Any] = {"file": sheet.file, "document": sheet.document + 1, "hand": hs.number,
                                "level": hs.level or "unscored", "dealer": hs.dealer}
        if hs.scored:
            base.update(bidder=hs.bidder, bid=hs.bid, trump=hs.trump or "", partners=" ".join(hs.partners),
                        made="yes" if hs.made else "no")
            for k, a in hs.awards.items():
                base[k] = a.unit or ""
                if k != "game":
                    base[f"{k}_card"] = a.card or ""
        for u in sheet.units:
            row = dict(base, unit=u)
            if hs.scored:
                row.update(points=hs.taken[u], change=hs.change[u])
            row["total"] = "" if hs.totals is None else hs.totals[u]
            rows.append(row)
    return rows


def write_csv(rows: Iterable[dict[str, Any]], header: bool = True) -> str:
    """Rows as CSV text (with a header line unless ``header`` is false)."""
    buf = io.StringIO()
    w = escape.CsvWriter(buf)  # no formulas, no bare CR
    if header:
        w.writerow(CSV_COLUMNS)
    w.writerows([row.get(c, "") for c in CSV_COLUMNS] for row in rows)
    return buf.getvalue()



# --------------------------------------------------------------------------
# The score command: documents in, output and an exit status out.


def run(checked: Iterable[Any], out: Any, err: Any, hand: int | None = None, explain: bool = False,
        check: bool = False, fmt: str = "text") -> int:
    """Score every checked document; return the exit status (0 ok, 1 an invalid
    record, a missing hand or, with ``check``, a claim that disagrees, 3 an
    unreadable input). Diagnostics go to ``err`` in validate's text format."""
    failed = unreadable = False
    docs: list[dict[str, Any]] = []
    csv_rows: list[dict[str, Any]] = []
    first = True
    for c in checked:
        refused = refuse(c, err, "not scored")
        if refused:
            unreadable = unreadable or refused == "unreadable"
            failed = failed or refused == "invalid"
            docs.append({"file": c.file, "document": c.index + 1, "valid": False,
                         "diagnostics": [d.as_json() for d in c.diagnostics]})
            continue
        sheet = score_sheet(c.analysis, c.diagnostics, c.file, c.index, explain)
        if hand is not None and hand > len(sheet.hands):
            err.write(f"{escape.text(c.file)}: there is no hand {hand}: the game has {len(sheet.hands)} "
                      f"hand{'' if len(sheet.hands) == 1 else 's'}\n")
            failed = True
            continue
        claims = [m for m in sheet.all_mismatches() if hand is None or m.hand == hand]
        # The claims past --max-errors are counted, not kept (their hands unknown).
        past = c.omitted_claims if hand is None else 0
        if claims or past:
            where = escape.text(c.file) + (f" (document {c.index + 1})" if c.index else "")
            n = len(claims) + past
            err.write(f"{where}: {n:,} recorded value{'' if n == 1 else 's'} "
                      f"disagree{'s' if n == 1 else ''} with the cards"
                      + ("\n" if check else "; --check shows them\n"))
            failed = failed or check
            if check:
                # The failure, located as validate writes it (file:line:col: CODE ...).
                for d in c.diagnostics:
                    if is_claim(d) and (hand is None or d.hand == hand):
                        err.write(d.as_text() + "\n")
                if past and c.more_line():
                    err.write(f"{c.more_line()}\n")
        if fmt == "text":
            if not first:
                out.write("\n")
            # The record's text (names, teams, the file) escaped once, before the sheet is laid out.
            out.write(sheet_text(escape.deep(sheet), hand, check))
        elif fmt == "json":
            docs.append(sheet_json(sheet, hand))
        else:
            csv_rows += sheet_csv_rows(sheet, hand)
        first = False
    if fmt == "json":
        json.dump({"report": REPORT, "version": VERSION, "documents": docs}, out, ensure_ascii=False, indent=2)
        out.write("\n")
    elif fmt == "csv":
        out.write(write_csv(csv_rows))
    return 3 if unreadable else 1 if failed else 0
