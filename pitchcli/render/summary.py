"""Rendering a ``Summary``: text tables, Markdown, CSV and a JSON report.

What is shown, and in which order (every order is total, so output is
deterministic):

- events by first date, then name (no event last); for each, the players'
  standings, then the fixed teams' (profiles with teams);
- standings by wins, then win %, then points per hand (all descending), then
  name; equal wins, win % and points per hand share a rank;
- game rows by file, then document; then the problems (invalid records and
  unreadable files, with their first error) in the same order.

The JSON report (``REPORT``, version 2: ``document`` counts from 1) holds the same tables with the derived
figures. CSV holds one table: the standings (one row per event and player or
team, ``kind`` telling which) or, with ``games`` and not ``standings``, the
game rows. Documents count from 1 in every format, as in every output (the
partial summary, which ``pitch merge`` reads, keeps the program's 0-based index).
Each format is a ``SummaryRenderer``; ``render.formats.SUMMARY`` names them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from fractions import Fraction
from typing import Any, TextIO

from pitchcli import escape
from pitchcli.api.kinds import Family
from pitchcli.diagnostics import ERROR, WARNING, Diagnostic
from pitchcli.render.tabulated import tabulate
from pitchcli.text import plural
from pitchcli.views.summary import EventSummary, RoundKey, Summary, Tally, event_order

REPORT = "pitch-summary"
VERSION = 2  # 2: "document" counts from 1 (was 0)



# --- figures ------------------------------------------------------------------


def _pct(x: Fraction | None) -> str:
    return "-" if x is None else f"{float(x) * 100:.1f}"


def _dec(x: Fraction | None) -> str:
    return "-" if x is None else f"{float(x):.2f}"


def _num(x: Fraction | None, digits: int = 4) -> float | None:
    return None if x is None else round(float(x), digits)


def ranked(tallies: dict[str, Tally]) -> list[tuple[int, str, Tally]]:
    """``(rank, name, tally)`` in standings order; ties (same wins, win % and
    points per hand) share the rank."""
    order = sorted(tallies.items(), key=lambda kv: (*kv[1].rank_key(), kv[0]))
    out: list[tuple[int, str, Tally]] = []
    for i, (name, t) in enumerate(order):
        rank = out[-1][0] if out and out[-1][2].rank_key() == t.rank_key() else i + 1
        out.append((rank, name, t))
    return out


def _columns(ev: EventSummary) -> list[str]:
    """Counter columns worth showing for this event."""
    # The counters of the families played, in the families' order.
    cols = [c for fam in Family if fam.value in ev.families for c in fam.columns]
    tallies = list(ev.players.values())
    if any(t.partner for t in tallies):
        cols.append("partner")
    return cols


_HEAD = {"high": "High", "low": "Low", "jack": "Jack", "game": "Game", "taken": "Taken", "partner": "Partner"}


def _standing_cells(rank: int, name: str, t: Tally, extra: list[str]) -> list[Any]:
    return [rank, name, t.games, t.wins, _pct(t.win_rate), t.hands, t.bids, t.made, t.set,
            _pct(t.made_rate), _dec(t.average_bid), t.score, _dec(t.per_hand),
            *[getattr(t, c) for c in extra]]


def _standing_head(first: str, extra: list[str]) -> list[str]:
    return ["#", first, "Games", "Wins", "Win %", "Hands", "Bids", "Made", "Set", "Made %", "Avg bid",
            "Score", "Pts/hand", *[_HEAD[c] for c in extra]]


def event_title(ev: EventSummary, shown: Callable[[str], str] = str) -> str:
    """'Winter Open, 2026-11-21: 16 games, 140 hands (auction x12)': an event's
    heading (its name as ``shown`` gives it: a page cuts a long one)."""
    name = shown(ev.event) if ev.event is not None else "(no event)"
    dates = ""
    if ev.first_date:
        dates = ev.first_date if ev.first_date == ev.last_date else f"{ev.first_date} to {ev.last_date}"
        dates = f", {dates}"
    profiles = ", ".join(f"{p} x{n}" for p, n in sorted(ev.profiles.items()))
    text = f"{name}{dates}: {plural(ev.games, 'game', grouped=True)}, {plural(ev.hands, 'hand', grouped=True)}"
    if profiles:
        text += f" ({profiles})"
    if ev.invalid:
        text += f"; {plural(ev.invalid, 'invalid record', grouped=True)} not counted"
    return text


def standings_tables(ev: EventSummary) -> list[tuple[str, list[str], list[list[Any]]]]:
    """An event's standings as ``(caption, head, rows)``: the players', then the
    fixed teams' (when there are any); every figure shown as text."""
    extra = _columns(ev)
    out = [("Players", _standing_head("Player", extra),
            [_standing_cells(r, n, t, extra) for r, n, t in ranked(ev.players)])]
    if ev.teams:
        team_extra = [c for c in extra if c != "partner"]
        rows = []
        teams = {k: tt.tally for k, tt in ev.teams.items()}
        for r, key, t in ranked(teams):
            rows.append(_standing_cells(r, team_label(key, ev.teams[key].members, ev.teams[key].names), t,
                                        team_extra))
        out.append(("Teams", _standing_head("Team", team_extra), rows))
    return out


def team_label(key: str, members: tuple[str, ...], names: set[str]) -> str:
    """A team as the standings name it: 'Ray & Vic', or 'Aces (Ray & Vic)' when
    the records call it something else than its members (seated in either
    order: 'Vic & Ray' is no other name)."""
    other = sorted(n for n in names if sorted(n.split(" & ")) != sorted(members))
    return f"{'/'.join(other)} ({key})" if other else key


def common_dir(files: list[str]) -> str:
    """The folder all the files are under ('' when none), shown once."""
    real = [f for f in files if f != "-"]
    if len(real) != len(files) or not real:
        return ""
    try:
        common = os.path.commonpath(real) if len(real) > 1 else os.path.dirname(real[0])
    except ValueError:  # absolute and relative names mixed: no folder in common
        return ""
    if common and common == real[0] and len(set(real)) == 1:
        common = os.path.dirname(common)
    return common + os.sep if common else ""


def _scores(row: dict[str, Any]) -> str:
    s = row.get("scores")
    return ", ".join(f"{k} {v}" for k, v in s.items()) if s else ""


def _result(row: dict[str, Any]) -> str:
    if not row["valid"]:
        return "INVALID"
    return row["winner"] if row["winner"] is not None else "(unfinished)"


def _cell(v: Any) -> Any:
    return "" if v is None else v


def _by_event(s: Summary, rows: list[dict[str, Any]]) -> list[tuple[str | None, list[dict[str, Any]]]]:
    """Game rows grouped by event, events in report order, rows kept in file order."""
    groups: dict[str | None, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(r["event"], []).append(r)
    order = sorted(groups, key=lambda e: event_order(s.events.get(e) or EventSummary(e)))
    return [(e, groups[e]) for e in order]


def problem_text(p: dict[str, Any]) -> str:
    """``file:line:col: error: CODE [RULE] message``, as ``pitch validate`` writes it,
    and how many more errors the record has."""
    # An entry without errors is what a folder walk skipped (a FIFO, a loop, a
    # file reached again): a warning, shown as one.
    severity = WARNING if p["errors"] == 0 and p["code"] is not None else ERROR
    d = Diagnostic(code=p["code"] or "?", message=p["message"], rule=p["rule"], pointer=p["pointer"] or "",
                   file=p["file"], document=p["document"], line=p["line"], column=p["column"], severity=severity)
    more = p["errors"] - 1
    return d.as_text() + (f" [+{plural(more, 'more error', grouped=True)}]" if more > 0 else "")


def _footer(s: Summary) -> str:
    c = s.counts
    text = (f"{plural(c['documents'], 'document', grouped=True)} in {plural(len(s.files), 'file', grouped=True)}: "
            f"{c['valid']:,} valid, {c['invalid']:,} invalid")
    if c["unreadable"]:
        text += f"; {plural(c['unreadable'], 'file', grouped=True)} unreadable"
    return text


# --- text and Markdown ----------------------------------------------------------


def _escaper(markdown: bool) -> Any:
    """The one escaper for the record's text in this output (names, events, files)."""
    return escape.markdown if markdown else escape.text


def _cells(rows: list[list[Any]], safe: Any) -> list[list[Any]]:
    return [[safe(c) if isinstance(c, str) else c for c in row] for row in rows]


def write_tables(s: Summary, out: TextIO, standings: bool = True, games: bool = True,
                 markdown: bool = False) -> None:
    """Standings per event, the game rows, the problems and a summary line."""
    style = "github" if markdown else "simple"
    # Every piece of the record's text (names, events, files) goes through one
    # escaper: controls shown as \x1b..., and in Markdown also | and HTML.
    safe = _escaper(markdown)

    def cells(rows: list[list[Any]]) -> list[list[Any]]:
        return _cells(rows, safe)

    def heading(text: str, level: int) -> None:
        text = safe(text)
        if markdown:
            out.write(f"{'#' * level} {text}\n\n")
        else:
            out.write(f"{text}\n{('=' if level == 2 else '-') * len(text)}\n")

    def table(rows: list[list[Any]], head: list[str]) -> None:
        out.write(tabulate(cells(rows), head, tablefmt=style, disable_numparse=True,
                           colalign=["right"] + ["left"] + ["right"] * (len(head) - 2)
                           if head and head[0] == "#" else None) + "\n\n")

    if markdown:
        out.write("# Summary\n\n")
    if standings:
        for ev in s.sorted_events():
            if not ev.games:
                continue
            heading(event_title(ev), 2)
            for caption, head, rows in standings_tables(ev):
                if caption != "Players":
                    heading(caption, 3)
                table(rows, head)
    rows = s.games if games else None
    if rows is not None:
        shown = len(rows)
        total = s.counts["documents"]
        under = common_dir([r["file"] for r in rows])
        title = f"Games ({shown:,}" + (f" of {total:,}, the first by file" if shown < total else "") + ")"
        if under:
            title += f" in {under}"
        heading(title, 2)
        groups = _by_event(s, rows)
        head = ["File", "Doc", "Round", "Table", "Profile", "Players", "Hands", "Winner", "Final score"]
        for name, group in groups:
            if len(groups) > 1:
                heading(f"{name if name is not None else '(no event)'} ({len(group):,})", 3)
            body = [[r["file"][len(under):], r["document"] + 1, _cell(r["round"]), _cell(r["table"]),
                     r["profile"] or "", ", ".join(p or "?" for p in r["players"]), r["hands"], _result(r),
                     _scores(r)] for r in group]
            out.write(tabulate(cells(body), head, tablefmt=style, disable_numparse=True) + "\n\n")
    problems = s.problems
    bad = s.counts["invalid"] + s.counts["unreadable"]
    if bad or problems:  # (problems without a bad record: what a folder walk skipped, warnings)
        title = (f"Problems ({bad:,}" + (f", the first {len(problems):,} by file" if len(problems) < bad else "")
                 + ")" if bad else f"Skipped ({len(problems):,})")
        heading(title, 2)
        for p in problems:
            # (A code span fenced past any backtick run in it: a name can't end it.)
            out.write(("- " + escape.code_span(problem_text(p)) if markdown else problem_text(p)) + "\n")
        out.write("\n")
    out.write(_footer(s) + "\n")


# --- JSON -------------------------------------------------------------------------


def _standing_json(rank: int, name: str, t: Tally) -> dict[str, Any]:
    return {"rank": rank, "name": name, **t.as_json(), "win_pct": _num(t.win_rate * 100, 2),
            "made_pct": _num(t.made_rate * 100 if t.made_rate is not None else None, 2),
            "average_bid": _num(t.average_bid), "points_per_hand": _num(t.per_hand)}


def standings_json(ev: EventSummary) -> dict[str, list[dict[str, Any]]]:
    """An event's standings as plain data: ``players`` and ``teams``."""
    teams = {k: tt.tally for k, tt in ev.teams.items()}
    return {"players": [_standing_json(r, n, t) for r, n, t in ranked(ev.players)],
            "teams": [{**_standing_json(r, k, t), "members": list(ev.teams[k].members),
                       "names": sorted(ev.teams[k].names)} for r, k, t in ranked(teams)]}


def report_json(s: Summary, standings: bool = True, games: bool = True) -> dict[str, Any]:
    """The JSON report as plain data."""
    events = []
    for ev in s.sorted_events():
        e: dict[str, Any] = {"event": ev.event, "games": ev.games, "invalid": ev.invalid, "hands": ev.hands,
                             "first_date": ev.first_date, "last_date": ev.last_date,
                             "profiles": dict(sorted(ev.profiles.items()))}
        if standings:
            e.update(standings_json(ev))
        events.append(e)
    # Documents count from 1 in every output; the summary keeps them from 0.
    rows = [{**r, "document": r["document"] + 1} for r in s.games] if games else None
    return {
        "report": REPORT, "version": VERSION,
        "events": events,
        "games": rows,
        "games_shown": None if rows is None else len(rows),
        "problems": [{**p, "document": p["document"] + 1, "text": problem_text(p)} for p in s.problems],
        "summary": {"files": len(s.files), **s.counts},
    }


def write_json(s: Summary, out: TextIO, standings: bool = True, games: bool = True) -> None:
    """The JSON report."""
    json.dump(report_json(s, standings, games), out, ensure_ascii=False, indent=2)
    out.write("\n")


# --- CSV ----------------------------------------------------------------------------

STANDINGS_CSV = ["event", "kind", "rank", "name", "members", "games", "wins", "win_pct", "hands", "bids", "made",
                 "set", "made_pct", "average_bid", "score", "points_per_hand", "high", "low", "jack", "game",
                 "taken", "partner"]
GAMES_CSV = ["file", "document", "event", "date", "round", "table", "id", "profile", "players", "hands", "winner",
             "scores", "valid", "errors", "warnings"]


def standings_csv_rows(ev: EventSummary) -> list[list[Any]]:
    """An event's standings as CSV rows (``STANDINGS_CSV``): players, then teams."""
    groups: list[tuple[str, dict[str, Tally], dict[str, str]]] = [("player", ev.players, {})]
    if ev.teams:
        groups.append(("team", {k: tt.tally for k, tt in ev.teams.items()},
                       {k: ";".join(tt.members) for k, tt in ev.teams.items()}))
    rows = []
    for kind, tallies, members in groups:
        for r, n, t in ranked(tallies):
            j = _standing_json(r, n, t)
            j.update(event=ev.event or "", kind=kind, members=members.get(n, ""))
            rows.append(["" if j[c] is None else j[c] for c in STANDINGS_CSV])
    return rows


def write_csv(s: Summary, out: TextIO, table: str = "standings") -> None:
    """One table as CSV: ``standings`` or ``games``. Lists are joined with
    ``;``, scores written ``name=score``."""
    w = escape.CsvWriter(out)
    if table == "standings":
        w.writerow(STANDINGS_CSV)
        for ev in s.sorted_events():
            w.writerows(standings_csv_rows(ev))
        return
    w.writerow(GAMES_CSV)
    for row in s.games or []:
        cells = dict(row)
        cells["document"] = row["document"] + 1
        cells["players"] = ";".join(p or "" for p in row["players"])
        cells["scores"] = ";".join(f"{k}={v}" for k, v in (row["scores"] or {}).items())
        cells["valid"] = "true" if row["valid"] else "false"
        w.writerow(["" if cells[c] is None else cells[c] for c in GAMES_CSV])


# --- standings after each round ------------------------------------------------------

ROUNDS_REPORT = "pitch-summary-rounds"


def round_name(key: RoundKey) -> str:
    """'after round 2 of 2026-11-21': a round is named with its night (two
    nights' round 1 are two rounds)."""
    night, r = key
    when = f" of {night}" if night is not None else ""
    if r is None:
        return f"after {night}" if night is not None else "without a round or date"
    return f"after round {r}{when}"


Rounds = dict[str | None, list[tuple[RoundKey, EventSummary]]]
"""Per event, its standings after each round (``after_each_round``: a round is a night's round)."""


def _rounds_json(s: Summary, rounds: Rounds, events: list[EventSummary]) -> dict[str, Any]:
    return {"report": ROUNDS_REPORT, "version": VERSION,
            "events": [{"event": ev.event, "rounds": [{"round": r, "date": night, **standings_json(after)}
                                                      for (night, r), after in rounds[ev.event]]} for ev in events],
            "problems": [{**p, "document": p["document"] + 1, "text": problem_text(p)} for p in s.problems],
            "summary": {"files": len(s.files), **s.counts}}


def _rounds_tables(s: Summary, rounds: Rounds, events: list[EventSummary], out: TextIO, markdown: bool) -> None:
    style = "github" if markdown else "simple"
    safe = _escaper(markdown)
    for ev in events:
        title = safe(event_title(ev))
        out.write(f"## {title}\n\n" if markdown else f"{title}\n{'=' * len(title)}\n")
        for r, after in rounds[ev.event]:
            for caption, head, rows in standings_tables(after):
                text = safe(f"{caption} {round_name(r)}")
                out.write(f"### {text}\n\n" if markdown else f"{text}\n{'-' * len(text)}\n")
                out.write(tabulate(_cells(rows, safe), head, tablefmt=style, disable_numparse=True,
                                   colalign=["right", "left"] + ["right"] * (len(head) - 2)) + "\n\n")
    write_tables(s, out, standings=False, games=False, markdown=markdown)


class SummaryRenderer:
    """One format of ``pitch summarize`` and ``pitch merge`` (``render.formats.SUMMARY``):
    the report of a ``Summary``, or its standings after each round, to ``out``."""

    # A format that holds one table (CSV): the standings or the game rows, not
    # both, and not the problems (the command writes those to the error stream).
    one_table = False

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def report(self, s: Summary, standings: bool = True, games: bool = True) -> None:
        """The standings (``standings``), the game rows (``games``), the problems."""
        raise NotImplementedError

    def rounds(self, s: Summary, rounds: Rounds) -> None:
        """Each event's standings after each of its rounds (``after_each_round``),
        then, for text and Markdown, the problems and the summary line of ``s``."""
        raise NotImplementedError

    @staticmethod
    def events(s: Summary, rounds: Rounds) -> list[EventSummary]:
        """The events that have rounds, in report order."""
        return [ev for ev in s.sorted_events() if ev.event in rounds]


class TableSummary(SummaryRenderer):
    """Text tables."""

    markdown = False

    def report(self, s: Summary, standings: bool = True, games: bool = True) -> None:
        """Standings per event, the game rows, the problems and a summary line."""
        write_tables(s, self.out, standings, games, markdown=self.markdown)

    def rounds(self, s: Summary, rounds: Rounds) -> None:
        """A table per event and round, then the problems and the summary line."""
        _rounds_tables(s, rounds, self.events(s, rounds), self.out, self.markdown)


class MarkdownSummary(TableSummary):
    """The text tables as Markdown (GitHub tables)."""

    markdown = True


class JsonSummary(SummaryRenderer):
    """The versioned JSON report (``REPORT``; ``ROUNDS_REPORT`` by round)."""

    def report(self, s: Summary, standings: bool = True, games: bool = True) -> None:
        """The report."""
        write_json(s, self.out, standings, games)

    def rounds(self, s: Summary, rounds: Rounds) -> None:
        """The report of the standings after each round."""
        json.dump(_rounds_json(s, rounds, self.events(s, rounds)), self.out, ensure_ascii=False, indent=2)
        self.out.write("\n")


class CsvSummary(SummaryRenderer):
    """One table: the standings or (no standings) the game rows; by round, a
    ``round`` and a ``date`` column first."""

    one_table = True

    def report(self, s: Summary, standings: bool = True, games: bool = True) -> None:
        """The standings, or the game rows."""
        write_csv(s, self.out, "standings" if standings else "games")

    def rounds(self, s: Summary, rounds: Rounds) -> None:
        """The standings after each round (a round is a night's round: its ``date`` column too)."""
        w = escape.CsvWriter(self.out)
        w.writerow(["round", "date", *STANDINGS_CSV])
        for ev in self.events(s, rounds):
            for (night, r), after in rounds[ev.event]:
                w.writerows([["" if r is None else r, night or "", *row] for row in standings_csv_rows(after)])


def write_report(s: Summary, out: TextIO, fmt: str, standings: bool = True, games: bool = True) -> None:
    """Write ``s`` as ``table``, ``markdown``, ``json`` or ``csv`` (``render.formats.SUMMARY``)."""
    from pitchcli.render.formats import SUMMARY

    SUMMARY[fmt](out).report(s, standings, games)


def write_partial(s: Summary, out: TextIO) -> None:
    """The partial summary (JSON, for ``pitch merge``)."""
    json.dump(s.to_json(), out, ensure_ascii=False, separators=(",", ":"))
    out.write("\n")


def write_summary(s: Summary, out: TextIO, fmt: str, standings: bool, games: bool, partial: bool) -> None:
    """The partial summary (JSON, for ``pitch merge``) or the report in ``fmt``."""
    if partial:
        write_partial(s, out)
    else:
        write_report(s, out, fmt, standings, games)
