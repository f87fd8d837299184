"""``pitch ratings``: player ratings over a league's games, in date order.

The model is openskill's Plackett-Luce (Weng & Lin's Bayesian approximation):
each player has a rating ``mu`` and an uncertainty ``sigma``; every game is a
ranking of its sides (players, or fixed teams whose members are rated
together). A side's place in a game is read from the engine's result: the
winner first, then the others by their final totals, equal totals sharing a
place. A game without a winner (unfinished) is not rated. The ordinal
``mu - 3 sigma`` (openskill's ``ordinal``) is what players are ranked on: a
rating the player is very likely above, so that one lucky night does not top
the table.

Determinism: games are rated in the order (date, event, round, file,
document), undated games last; the model has no randomness; so the same files
give the same ratings, whatever order they are named in.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, TextIO

from openskill.models import PlackettLuce
from tabulate import tabulate

from pitchcli import escape
from pitchcli.diagnostics import ERROR
from pitchcli.pipeline.check import Checked, check_paths
from pitchcli.views.game import GameView, game_view, usable
from pitchcli.views.summary import round_order, team_key

REPORT = "pitch-ratings"
VERSION = 1
MODEL = "openskill PlackettLuce"


@dataclass
class PlayerRating:
    """One player's rating and record over the period."""

    name: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    first_date: str | None = None
    last_date: str | None = None
    start_ordinal: float = 0.0  # at the start of the period
    history: list[tuple[str | None, float]] = field(default_factory=list)  # (date, ordinal) after each game

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: the rating ranked on."""
        return self.mu - 3 * self.sigma

    @property
    def change(self) -> float:
        """How far the ordinal moved over the period (see ``rate_games``)."""
        return self.ordinal - self.start_ordinal


@dataclass
class Meeting:
    """How two players (or two fixed teams) did against each other: the games
    they met in, and how often each finished ahead."""

    kind: str  # "player" or "team"
    a: str
    b: str
    games: int = 0
    a_ahead: int = 0
    b_ahead: int = 0

    @property
    def level(self) -> int:
        """Games where they finished level (the same place)."""
        return self.games - self.a_ahead - self.b_ahead


@dataclass
class Ratings:
    """The ratings, the meetings, and what could not be rated."""

    players: dict[str, PlayerRating] = field(default_factory=dict)
    meetings: dict[tuple[str, str, str], Meeting] = field(default_factory=dict)
    rated: int = 0
    unfinished: int = 0
    since: str | None = None  # the first date of the period ``change`` is measured over
    invalid: list[Checked] = field(default_factory=list)
    unreadable: int = 0

    def ranked(self) -> list[tuple[int, PlayerRating]]:
        """Players by ordinal, then mu (both descending), then name; rank 1 first."""
        order = sorted(self.players.values(), key=lambda p: (-round(p.ordinal, 9), -round(p.mu, 9), p.name))
        return [(i + 1, p) for i, p in enumerate(order)]


def order_key(g: GameView) -> tuple[Any, ...]:
    """The order games are rated in: date (undated last), event, round
    (numbers in numeric order), file, document."""
    return (g.date is None, g.date or "", g.event or "", round_order(g.round), g.file, g.document)


def places(g: GameView) -> list[int]:
    """Each unit's place (1 first) in a finished game: the winner first, then
    by final total; equal totals share a place."""
    assert g.winner is not None and g.totals is not None
    key = {u: (u != g.winner, -g.totals[u]) for u in g.units}
    return [1 + sum(1 for v in g.units if key[v] < key[u]) for u in g.units]


def rate_games(games: Iterable[GameView], since: str | None = None) -> Ratings:
    """Rate ``games`` (any order: they are sorted by ``order_key``).

    ``change`` is how far each player's ordinal moved from the start of the
    period, the games dated ``since`` or later; by default the period is the
    last date of the games (how the last night moved the table). A player new
    in the period starts from the prior rating (ordinal 0)."""
    model = PlackettLuce()
    out = Ratings()
    ordered = sorted(games, key=order_key)
    if since is None:
        since = max((g.date for g in ordered if g.date is not None), default=None)
    out.since = since
    prior = model.rating().ordinal()
    ratings: dict[str, Any] = {}
    started = False
    for g in ordered:
        if not g.finished or g.totals is None:
            out.unfinished += 1
            continue
        if not started and since is not None and g.date is not None and g.date >= since:
            started = True
            for pr in out.players.values():
                pr.start_ordinal = pr.ordinal
        out.rated += 1
        place = places(g)
        teams = [[ratings.setdefault(p, model.rating(name=p)) for p in g.members(u)] for u in g.units]
        for u, members in zip(g.units, teams, strict=True):
            for r in members:
                pr = out.players.get(r.name)
                if pr is None:
                    pr = out.players[r.name] = PlayerRating(r.name, r.mu, r.sigma, start_ordinal=prior)
                pr.games += 1
                pr.wins += u == g.winner
                pr.first_date = pr.first_date or g.date
                pr.last_date = g.date or pr.last_date
        for members in model.rate(teams, ranks=place):
            for r in members:
                ratings[r.name] = r
                pr = out.players[r.name]
                pr.mu, pr.sigma = r.mu, r.sigma
                pr.history.append((g.date, pr.ordinal))
                if not started:
                    pr.start_ordinal = pr.ordinal
        _meet(out, g, place)
    if not started:  # no dated game in the period: nothing changed in it
        for pr in out.players.values():
            pr.start_ordinal = pr.ordinal
    return out


def _meet(out: Ratings, g: GameView, place: list[int]) -> None:
    sides = list(zip(g.units, place, strict=True))
    for (u, pu), (v, pv) in combinations(sides, 2):
        pairs = [("player", a, b, pu, pv) for a in g.members(u) for b in g.members(v)]
        if g.teams:
            pairs.append(("team", team_key(g.members(u)), team_key(g.members(v)), pu, pv))
        for kind, a, b, pa, pb in pairs:
            if b < a:
                a, b, pa, pb = b, a, pb, pa
            m = out.meetings.get((kind, a, b))
            if m is None:
                m = out.meetings[(kind, a, b)] = Meeting(kind, a, b)
            m.games += 1
            m.a_ahead += pa < pb
            m.b_ahead += pb < pa


def collect(checked: Iterable[Checked], since: str | None = None) -> Ratings:
    """Ratings from checked documents (invalid ones are kept aside, never rated)."""
    games: list[GameView] = []
    bad: list[Checked] = []
    unreadable = 0
    for c in checked:
        if c.unreadable:
            unreadable += 1
            bad.append(c)
        elif usable(c):
            games.append(game_view(c))
        else:
            bad.append(c)
    out = rate_games(games, since)
    out.invalid, out.unreadable = bad, unreadable
    return out


# --- output -----------------------------------------------------------------------


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


def _meetings(r: Ratings) -> list[Meeting]:
    return [r.meetings[k] for k in sorted(r.meetings, key=lambda k: (k[0] != "player", k[1], k[2]))]


def write(r: Ratings, out: TextIO, fmt: str, head_to_head: bool) -> None:
    """The ratings (and the head-to-head table) as ``table``, ``csv`` or ``json``."""
    rows = [player_json(rank, p) for rank, p in r.ranked()]
    if fmt == "json":
        doc = {"report": REPORT, "version": VERSION,
               "model": {"name": MODEL, "mu": 25.0, "sigma": round(25 / 3, 4), "ranked_on": "mu - 3 sigma",
                         "order": ["date", "event", "round", "file", "document"]},
               "period": {"since": r.since},
               "games": {"rated": r.rated, "unfinished": r.unfinished, "invalid": len(r.invalid) - r.unreadable,
                         "unreadable": r.unreadable},
               "players": rows,
               "head_to_head": [meeting_json(m) for m in _meetings(r)] if head_to_head else None}
        json.dump(doc, out, ensure_ascii=False, indent=2)
        out.write("\n")
        return
    if fmt == "csv":
        w = escape.CsvWriter(out)  # no cell a spreadsheet reads as a formula
        table = [meeting_json(m) for m in _meetings(r)] if head_to_head else rows
        cols = list(table[0]) if table else (["kind", "a", "b", "games", "a_ahead", "b_ahead", "level"]
                                             if head_to_head else list(player_json(1, PlayerRating("", 0, 0))))
        w.writerow(cols)
        for row in table:
            w.writerow(["" if row[c] is None else row[c] for c in cols])
        return
    head = ["#", "Player", "Games", "Wins", "Rating (mu)", "± (sigma)", "mu - 3 sigma", "Change"]
    body = [[x["rank"], escape.text(x["name"]), x["games"], x["wins"], f"{x['mu']:.2f}", f"{x['sigma']:.2f}",
             f"{x['ordinal']:.2f}", f"{x['change']:+.2f}"] for x in rows]
    out.write(tabulate(body, head, tablefmt="simple", disable_numparse=True,
                       colalign=["right", "left"] + ["right"] * 6) + "\n")
    out.write(f"\n{r.rated} game{'' if r.rated == 1 else 's'} rated ({MODEL}, ranked on mu - 3 sigma)"
              + (f"; change: since {escape.text(r.since)}" if r.since else "")
              + (f"; {r.unfinished} unfinished, not rated" if r.unfinished else "")
              + (f"; {len(r.invalid)} invalid or unreadable, not rated" if r.invalid else "") + "\n")
    if head_to_head:
        out.write("\nHead to head (games met; how often each finished ahead)\n\n")
        hb = [[m.kind, escape.text(m.a), escape.text(m.b), m.games, m.a_ahead, m.b_ahead, m.level]
              for m in _meetings(r)]
        out.write(tabulate(hb, ["", "A", "B", "Met", "A ahead", "B ahead", "Level"], tablefmt="simple",
                           disable_numparse=True) + "\n")


def run(paths: Iterable[str], fmt: str, head_to_head: bool, allow_invalid: bool, out: TextIO, err: TextIO,
        since: str | None = None) -> int:
    """``pitch ratings``: 0; 1 some record invalid (unless ``allow_invalid``);
    3 an input could not be read. Invalid records go to ``err``, first error each."""
    r = collect(check_paths(paths), since)
    write(r, out, fmt, head_to_head)
    out.flush()
    for c in r.invalid:
        first = next((d for d in c.diagnostics if d.severity == ERROR), None)
        if first is not None:
            err.write(first.as_text() + "\n")
    if r.unreadable:
        return 3
    return 1 if len(r.invalid) and not allow_invalid else 0
