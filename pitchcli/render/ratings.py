"""``pitch ratings`` rendered: a text table, CSV or the versioned JSON report,
one function per format (``render.formats.RATINGS``), each writing the
``Ratings`` of ``pitchcli.views.ratings`` (and the head-to-head table) to ``out``."""

from __future__ import annotations

import json
from typing import Any, TextIO

from pitchcli import escape
from pitchcli.render.tabulated import tabulate
from pitchcli.views.ratings import MODEL, Meeting, PlayerRating, Ratings

REPORT = "pitch-ratings"
VERSION = 1
MEETING_COLUMNS = ["kind", "a", "b", "games", "a_ahead", "b_ahead", "level"]


def _r(x: float) -> float:
    return round(x, 2) + 0.0  # (+ 0.0: no "-0.0")


def player_json(rank: int, p: PlayerRating) -> dict[str, Any]:
    """One row of the ratings table as plain data."""
    return {"rank": rank, "name": p.name, "games": p.games, "wins": p.wins, "mu": _r(p.mu), "sigma": _r(p.sigma),
            "ordinal": _r(p.ordinal), "change": _r(p.change), "first_date": p.first_date, "last_date": p.last_date}


def meeting_json(m: Meeting) -> dict[str, Any]:
    """One row of the head-to-head table as plain data."""
    return {"kind": m.kind, "a": m.a, "b": m.b, "games": m.games, "a_ahead": m.a_ahead, "b_ahead": m.b_ahead,
            "level": m.level}


def meetings(r: Ratings) -> list[Meeting]:
    """The meetings in table order: players' first, then by the names."""
    return [r.meetings[k] for k in sorted(r.meetings, key=lambda k: (k[0] != "player", k[1], k[2]))]


def write_json(r: Ratings, out: TextIO, head_to_head: bool) -> None:
    """The JSON report: the model, the period, the games counted, the players
    (and the meetings, with ``head_to_head``)."""
    doc = {"report": REPORT, "version": VERSION,
           "model": {"name": MODEL, "mu": 25.0, "sigma": round(25 / 3, 4), "ranked_on": "mu - 3 sigma",
                     "order": ["date", "event", "round", "file", "document"]},
           "period": {"since": r.since},
           "games": {"rated": r.rated, "unfinished": r.unfinished, "invalid": r.refused,
                     "unreadable": r.unreadable, "skipped": r.skipped},
           "players": [player_json(rank, p) for rank, p in r.ranked()],
           "head_to_head": [meeting_json(m) for m in meetings(r)] if head_to_head else None}
    json.dump(doc, out, ensure_ascii=False, indent=2)
    out.write("\n")


def write_csv(r: Ratings, out: TextIO, head_to_head: bool) -> None:
    """One table: the ratings, or (``head_to_head``) the meetings instead."""
    w = escape.CsvWriter(out)  # no cell a spreadsheet reads as a formula
    rows = [player_json(rank, p) for rank, p in r.ranked()]
    table = [meeting_json(m) for m in meetings(r)] if head_to_head else rows
    cols = list(table[0]) if table else (MEETING_COLUMNS if head_to_head
                                         else list(player_json(1, PlayerRating("", 0, 0))))
    w.writerow(cols)
    for row in table:
        w.writerow(["" if row[c] is None else row[c] for c in cols])


def write_table(r: Ratings, out: TextIO, head_to_head: bool) -> None:
    """The ratings as a text table and a line saying what was rated (then the
    head-to-head table, with ``head_to_head``)."""
    rows = [player_json(rank, p) for rank, p in r.ranked()]
    head = ["#", "Player", "Games", "Wins", "Rating (mu)", "± (sigma)", "mu - 3 sigma", "Change"]
    body = [[x["rank"], escape.text(x["name"]), x["games"], x["wins"], f"{x['mu']:.2f}", f"{x['sigma']:.2f}",
             f"{x['ordinal']:.2f}", f"{x['change']:+.2f}"] for x in rows]
    out.write(tabulate(body, head, tablefmt="simple", disable_numparse=True,
                       colalign=["right", "left"] + ["right"] * 6) + "\n")
    out.write(f"\n{r.rated} game{'' if r.rated == 1 else 's'} rated ({MODEL}, ranked on mu - 3 sigma)"
              + (f"; change: since {escape.text(r.since)}" if r.since else "")
              + (f"; {r.unfinished} unfinished, not rated" if r.unfinished else "")
              + (f"; {r.refused + r.unreadable} invalid or unreadable, not rated"
                 if r.refused + r.unreadable else "")
              + (f"; {r.skipped} skipped (L113)" if r.skipped else "") + "\n")
    if head_to_head:
        out.write("\nHead to head (games met; how often each finished ahead)\n\n")
        hb = [[m.kind, escape.text(m.a), escape.text(m.b), m.games, m.a_ahead, m.b_ahead, m.level]
              for m in meetings(r)]
        out.write(tabulate(hb, ["", "A", "B", "Met", "A ahead", "B ahead", "Level"], tablefmt="simple",
                           disable_numparse=True) + "\n")
