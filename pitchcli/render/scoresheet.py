"""Score sheets rendered: text (tabulate tables and sentences), the JSON report
(``REPORT``, version 2: ``document`` counts from 1) and CSV."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from typing import Any, TextIO

from pitchcli import escape
from pitchcli.api.checking import checked_game
from pitchcli.cards import SUIT_NAMES
from pitchcli.diagnostics import is_claim
from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.driver import SEE_VALIDATE, GameConsumer
from pitchcli.render.style import paint
from pitchcli.render.tabulated import tabulate
from pitchcli.views.scoresheet import (
    REPORT,
    VERSION,
    HandScore,
    Mismatch,
    ScoreSheet,
    and_list,
    award_line,
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
    role = sheet.words.role
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
    if sheet.scores_awards:
        rows = [award_line(hs, k, sheet) for k in hs.awards]
        lines.append(_indent(tabulate(rows, headers=["point", "card", "won by", "how"], tablefmt="simple")))
    side = hs.bidding_side
    side_took = hs.hand.side_took if hs.hand else 0
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
    head = f"{sheet.file}" + (f" (document {sheet.document})" if sheet.document > 1 else "")
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
        lines.append(f"Unfinished: the totals are unknown after an unscored hand "
                     f"({n} hand{'' if n == 1 else 's'} recorded).")
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
        "file": sheet.file, "document": sheet.document, "valid": True, "variant": sheet.variant,
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
        base: dict[str, Any] = {"file": sheet.file, "document": sheet.document, "hand": hs.number,
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
# The formats of ``pitch score`` (``render.formats.SCORE``): each is given the
# score sheets of the usable documents and the documents refused, in order.


class SheetRenderer:
    """Writes score sheets to ``out`` (``hand``: that hand only; ``check``: the
    claims that disagree shown with each hand)."""

    def __init__(self, out: TextIO, hand: int | None = None, check: bool = False) -> None:
        self.out, self.hand, self.check = out, hand, check

    def sheet(self, sheet: ScoreSheet) -> None:
        """One scored document."""

    def refused(self, c: Checked) -> None:
        """A document that was not scored (its diagnostics went to the error stream)."""

    def close(self) -> None:
        """After the last document."""


class TextSheets(SheetRenderer):
    """Tables and sentences, a blank line between documents."""

    first = True

    def sheet(self, sheet: ScoreSheet) -> None:
        """The sheet as text."""
        if not self.first:
            self.out.write("\n")
        # The record's text (names, teams, the file) escaped once, before the sheet is laid out.
        self.out.write(sheet_text(escape.deep(sheet), self.hand, self.check))
        self.first = False


class JsonSheets(SheetRenderer):
    """The versioned report: every document, scored or refused."""

    def __init__(self, out: TextIO, hand: int | None = None, check: bool = False) -> None:
        super().__init__(out, hand, check)
        self.docs: list[dict[str, Any]] = []

    def sheet(self, sheet: ScoreSheet) -> None:
        """The sheet's entry."""
        self.docs.append(sheet_json(sheet, self.hand))

    def refused(self, c: Checked) -> None:
        """A refused document's entry: not valid, with its diagnostics."""
        self.docs.append({"file": c.file, "document": c.number, "valid": False,
                          "diagnostics": [d.as_json() for d in c.diagnostics]})

    def close(self) -> None:
        """The report."""
        json.dump({"report": REPORT, "version": VERSION, "documents": self.docs}, self.out,
                  ensure_ascii=False, indent=2)
        self.out.write("\n")


class CsvSheets(SheetRenderer):
    """One row per hand and player (or team), every document in one table."""

    def __init__(self, out: TextIO, hand: int | None = None, check: bool = False) -> None:
        super().__init__(out, hand, check)
        self.rows: list[dict[str, Any]] = []

    def sheet(self, sheet: ScoreSheet) -> None:
        """The sheet's rows."""
        self.rows += sheet_csv_rows(sheet, self.hand)

    def close(self) -> None:
        """The table."""
        self.out.write(write_csv(self.rows))


class Scoring(GameConsumer):
    """``pitch score``'s part of the command driver: each usable document scored
    and given to ``renderer``. Exit 1 also for a missing hand and, with
    ``check``, a recorded value that disagrees with the cards; those values are
    counted on ``err`` either way (located, as validate writes them, with
    ``check``)."""

    refusal = "{file}: not scored: the record is invalid ({errors}); " + SEE_VALIDATE

    def __init__(self, renderer: SheetRenderer, err: TextIO, hand: int | None = None, explain: bool = False,
                 check: bool = False) -> None:
        super().__init__(err, hand)
        self.renderer, self.explain, self.check = renderer, explain, check

    def game(self, c: Checked) -> None:
        """Score one document."""
        sheet = score_sheet(checked_game(c), c.diagnostics, self.explain)
        if not self.has_hand(c, len(sheet.hands)):
            return
        self.claims(c, sheet)
        self.renderer.sheet(sheet)

    def claims(self, c: Checked, sheet: ScoreSheet) -> None:
        """How many recorded values disagree with the cards (with ``check``:
        which, and the run fails)."""
        hand, err = self.hand, self.err
        claims = [m for m in sheet.all_mismatches() if hand is None or m.hand == hand]
        # The claims past --max-errors are counted, not kept (their hands unknown).
        past = c.omitted_claims if hand is None else 0
        if not claims and not past:
            return
        n = len(claims) + past
        err.write(f"{escape.text(c.where())}: {n:,} recorded value{'' if n == 1 else 's'} "
                  f"disagree{'s' if n == 1 else ''} with the cards"
                  + ("\n" if self.check else "; --check shows them\n"))
        if not self.check:
            return
        self.run.failed = True
        # The failure, located as validate writes it (file:line:col: CODE ...).
        for d in c.diagnostics:
            if is_claim(d) and (hand is None or d.hand == hand):
                err.write(d.as_text() + "\n")
        if past and c.more_line():
            err.write(f"{c.more_line()}\n")

    def invalid(self, c: Checked) -> None:
        """A refused document (the JSON report lists it)."""
        self.renderer.refused(c)

    def end(self) -> int:
        """Finish the output; the exit status."""
        self.renderer.close()
        return self.run.status()
