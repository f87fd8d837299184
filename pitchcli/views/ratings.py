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

from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from openskill.models import PlackettLuce

from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.driver import Consumer, drive, exit_status
from pitchcli.record.spool import SortedSpool
from pitchcli.views.game import GameResult, GameView, game_result, usable
from pitchcli.views.summary import round_order, team_key

MODEL = "openskill PlackettLuce"

# A game as the ratings read it: a report's views, or the results alone.
Rated = GameView | GameResult


class History(Sequence[tuple[str | None, float]]):
    """A rating's (date, ordinal) after each game, oldest first: a list of the
    dates (the games' own strings) and an array of the ordinals. A report
    keeps one for every player and team until its pages are written: 16 bytes
    a game where a tuple and its float were 80 (``tests/render/test_report_scale.py``).
    Reads as a sequence of pairs, and equals any sequence of the same pairs."""

    __slots__ = ("_dates", "_values")

    def __init__(self, pairs: Iterable[tuple[str | None, float]] = ()) -> None:
        self._dates: list[str | None] = []
        self._values = array("d")
        for pair in pairs:
            self.append(pair)

    def append(self, pair: tuple[str | None, float]) -> None:
        """Add the rating after one more game."""
        date, value = pair
        self._dates.append(date)
        self._values.append(value)

    def __len__(self) -> int:
        return len(self._values)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return list(zip(self._dates[i], self._values[i], strict=True))
        return self._dates[i], self._values[i]

    def __iter__(self) -> Iterator[tuple[str | None, float]]:
        return zip(self._dates, self._values, strict=True)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # (mutable, as the list it stands for)

    def __repr__(self) -> str:
        return f"History({list(self)!r})"


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
    history: History = field(default_factory=History)  # (date, ordinal) after each game

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: the rating ranked on."""
        return self.mu - 3 * self.sigma

    @property
    def change(self) -> float:
        """How far the ordinal moved over the period (see ``rate_games``)."""
        return self.ordinal - self.start_ordinal


@dataclass
class TeamRating:
    """A fixed team's rating (its members are rated together, one side of each
    game): ``name`` its members as ``team_key`` names them, ``history`` the
    team's ordinal after each game it played. The team's rating is the one
    Plackett-Luce rates the side by: the members' ``mu`` summed, their
    variances summed (``sigma`` the root), ranked on ``mu - 3 sigma``."""

    name: str
    members: tuple[str, ...]
    games: int = 0
    wins: int = 0
    mu: float = 0.0
    sigma: float = 0.0
    history: History = field(default_factory=History)  # (date, ordinal) after each game

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma`` of the team after its last game."""
        return self.mu - 3 * self.sigma


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
    teams: dict[str, TeamRating] = field(default_factory=dict)  # fixed teams, by ``team_key``
    meetings: dict[tuple[str, str, str], Meeting] = field(default_factory=dict)
    rated: int = 0
    unfinished: int = 0
    since: str | None = None  # the first date of the period ``change`` is measured over
    invalid: list[Checked] = field(default_factory=list)  # invalid, unreadable or skipped: not rated
    unreadable: int = 0
    skipped: int = 0  # of ``invalid``, what a walk skipped (a FIFO, a loop, a file reached again): a warning

    @property
    def refused(self) -> int:
        """The invalid records (neither unreadable files nor skipped entries)."""
        return len(self.invalid) - self.unreadable - self.skipped

    def exit_code(self, allow_invalid: bool = False) -> int:
        """3 an input could not be read; 1 a record was not rated for being
        invalid, unless ``allow_invalid``; else 0. What a folder walk skipped is
        a warning: it fails nothing."""
        return exit_status(self.unreadable, self.refused, allow_invalid=allow_invalid)

    def ranked(self) -> list[tuple[int, PlayerRating]]:
        """Players by ordinal, then mu (both descending), then name; rank 1 first."""
        order = sorted(self.players.values(), key=lambda p: (-round(p.ordinal, 9), -round(p.mu, 9), p.name))
        return [(i + 1, p) for i, p in enumerate(order)]


def order_key(g: Rated) -> tuple[Any, ...]:
    """The order games are rated in: date (undated last), event, round
    (numbers in numeric order), file, document."""
    return (g.date is None, g.date or "", g.event or "", round_order(g.round), g.file, g.document)


def places(g: Rated) -> list[int]:
    """Each unit's place (1 first) in a finished game: the winner first, then
    by final total; equal totals share a place."""
    assert g.winner is not None and g.totals is not None
    key = {u: (u != g.winner, -g.totals[u]) for u in g.units}
    return [1 + sum(1 for v in g.units if key[v] < key[u]) for u in g.units]


def rate_games(games: Iterable[Rated], since: str | None = None) -> Ratings:
    """Rate ``games`` (any order: they are sorted by ``order_key``).

    ``change`` is how far each player's ordinal moved from the start of the
    period, the games dated ``since`` or later; by default the period is the
    last date of the games (how the last night moved the table). A player new
    in the period starts from the prior rating (ordinal 0)."""
    ordered = sorted(games, key=order_key)
    if since is None:
        since = last_date(g.date for g in ordered)
    return rate_ordered(ordered, since)


def last_date(dates: Iterable[str | None]) -> str | None:
    """The last of ``dates`` (None: none is a date): where ``rate_games``'s
    period starts by default."""
    return max((d for d in dates if d is not None), default=None)


def rate_ordered(ordered: Iterable[Rated], since: str | None, history: bool = True) -> Ratings:
    """Rate games already in ``order_key`` order, read once (an iterator will
    do: a league's games sorted on disk); ``since`` as for ``rate_games``,
    but None is no period (no dated game). ``history``: keep each player's
    and team's ordinal after every game (``PlayerRating.history``, for a
    chart); without it the ratings hold nothing per game."""
    model = PlackettLuce()
    out = Ratings()
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
        for u, members in zip(g.units, model.rate(teams, ranks=place), strict=True):
            for r in members:
                ratings[r.name] = r
                pr = out.players[r.name]
                pr.mu, pr.sigma = r.mu, r.sigma
                if history:
                    pr.history.append((g.date, pr.ordinal))
                if not started:
                    pr.start_ordinal = pr.ordinal
            if g.teams and len(members) > 1:
                _team_after(out, u == g.winner, g.date, members, history)
        _meet(out, g, place)
    if not started:  # no dated game in the period: nothing changed in it
        for pr in out.players.values():
            pr.start_ordinal = pr.ordinal
    return out


def _team_after(out: Ratings, won: bool, date: str | None, members: list[Any], history: bool) -> None:
    """A fixed team's rating after a game: the side's rating as Plackett-Luce
    forms it from its members' (mu summed, variances summed)."""
    names = [r.name for r in members]
    key = team_key(names)
    t = out.teams.get(key)
    if t is None:
        t = out.teams[key] = TeamRating(key, tuple(sorted(names)))
    t.games += 1
    t.wins += won
    t.mu = sum(r.mu for r in members)
    t.sigma = sum(r.sigma ** 2 for r in members) ** 0.5
    if history:
        t.history.append((date, t.ordinal))


def _meet(out: Ratings, g: Rated, place: list[int]) -> None:
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


class Collecting(Consumer):
    """``pitch ratings``'s part of the command driver: the games of a league
    kept (invalid ones aside, never rated) and rated at the end (``ratings``);
    ``end()`` is the exit status (``Ratings.exit_code``).

    The games are kept sorted on disk past ``run`` of them (``SortedSpool``:
    that many results are sorted in memory at a time), and rated without the
    players' histories (which only a report's charts read): memory stays
    flat however many games a league has."""

    def __init__(self, since: str | None = None, allow_invalid: bool = False, run: int = 2048) -> None:
        self.since, self.allow_invalid = since, allow_invalid
        self.games = SortedSpool(order_key, run)
        self.last_date: str | None = None  # of the games kept (``last_date``)
        self.bad: list[Checked] = []
        self.unreadable = self.skipped = 0  # of ``bad``
        self.ratings = Ratings()

    def usable(self, c: Checked) -> bool:
        """A valid game that can be shown (``views.game.usable``)."""
        return usable(c)

    def game(self, c: Checked) -> None:
        """Keep the game's result (not its hands: memory)."""
        g = game_result(c)
        self.games.add(g)
        self.last_date = last_date((self.last_date, g.date))

    def invalid(self, c: Checked) -> None:
        """Keep an invalid record (or an unreadable file, or a skipped entry)
        aside: counted, and its first error kept for the list after the
        ratings (``Checked.slim``: not the record and its replay)."""
        self.unreadable += c.unreadable
        self.skipped += c.skipped
        self.bad.append(c.slim(1))

    def end(self) -> int:
        """Rate the games (as ``rate_games`` would); the exit status."""
        with self.games:
            self.ratings = rate_ordered(self.games, self.since if self.since is not None else self.last_date,
                                        history=False)
        self.ratings.invalid = self.bad
        self.ratings.unreadable, self.ratings.skipped = self.unreadable, self.skipped
        return self.ratings.exit_code(self.allow_invalid)


def collect(checked: Iterable[Checked], since: str | None = None) -> Ratings:
    """Ratings from checked documents (invalid ones are kept aside, never rated)."""
    collecting = Collecting(since)
    drive(checked, collecting)
    return collecting.ratings
