"""The layout of ``pitch report``'s site: which pages there are, where they
are, what each is called and what links to what. A model only: no HTML.

The site is in folders: ``index.html`` and ``ratings.html`` at the top, a
folder per event (``<event>/index.html`` and ``<event>/game-N.html``, games
numbered in play order within their event) and ``players/<name>.html``.
Every link is relative. Folder and file names are made from the names in the
records (``slug``): lower-case ASCII letters, digits and ``-`` only, so no
record can name a path outside the site; equal slugs are told apart by a
number.

Rounds are keyed by their night and number (``views.summary.round_key``):
the nights of an event are its dates, each with its rounds, and each round
with its tables. Every fact about a game (who won, the totals) is read from
its ``GameView``; nothing here computes a rule.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from pitchcli.views.game import GameView
from pitchcli.views.ratings import Meeting, PlayerRating, Ratings, TeamRating
from pitchcli.views.summary import EventSummary, RoundKey, Summary, after_each_round, round_key_order

NO_EVENT = "(no event)"
# A page's weight is bounded by design: no list on a page is longer than
# these, whatever the number of games (a page of 1,500 games' rows was 5.6 MB).
MAX_ROWS = 200  # games listed on one page (a night's tables, a player's games); the rest on further pages
INLINE_GAMES = 150  # an event of more games lists its nights on pages of their own (one per night, in parts)
MAX_MATES = 24  # the round's other tables a game page links to (the nearest ones)
MAX_SLUG = 40
MAX_TITLE = 70  # what search results show of a title (html-validate's long-title)


def short(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters (at least 12) with '…'."""
    width = max(width, 12)
    return text if len(text) <= width else text[:width - 1] + "…"


def slug(text: str, taken: set[str], fallback: str) -> str:
    """A file or folder name for ``text``, not in ``taken`` (which it is added to)."""
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:MAX_SLUG].strip("-") or fallback
    name, n = base, 1
    while name in taken or name in ("index", "ratings", "players"):
        n += 1
        name = f"{base}-{n}"
    taken.add(name)
    return name


@dataclass(frozen=True)
class GameEntry:
    """What the site keeps of a game while the other games are read: its view
    without its hands (``brief``), how many hands it had, and ``key``, where
    the writer keeps the whole view (``render.site``'s spool on disk) until
    its page is made. The layout, the ratings and every page but the game's
    own need no more: 10,000 games fit in memory this way."""

    view: GameView
    hands: int
    key: Any = None


def brief(v: GameView, key: Any = None) -> GameEntry:
    """The entry of a game (see ``GameEntry``). Its names and labels are the
    ones every other entry that says the same holds (``sys.intern``): a
    league's games name the same players, dates and events thousands of
    times, and each record read gave each its own copy (a quarter of what an
    entry kept)."""
    def s(x: str) -> str:
        return sys.intern(x) if type(x) is str else x  # (``sys.intern`` takes no subclass of str)

    def n(x: str | None) -> str | None:
        return None if x is None else s(x)

    return GameEntry(replace(
        v, hands=[], event=n(v.event), date=n(v.date), round=n(v.round), table=n(v.table), variant=s(v.variant),
        players=[s(p) for p in v.players], units=[s(u) for u in v.units],
        teams={s(u): [s(p) for p in m] for u, m in v.teams.items()},
        totals=None if v.totals is None else {s(u): t for u, t in v.totals.items()}, winner=n(v.winner)),
        len(v.hands), key)


@dataclass(slots=True)
class GamePage:
    """One game's page. ``view`` is the game without its hands (``brief``);
    ``key`` says where the whole view is."""

    view: GameView
    event: str
    number: int  # in its event, in play order
    path: str = ""
    event_path: str = ""
    previous: GamePage | None = None
    next: GamePage | None = None
    hands: int = 0
    key: Any = None
    night_path: str = ""  # the page that lists the game's round (its night's page, or the event's)
    round_entry: RoundEntry | None = field(default=None, repr=False, compare=False)  # its round's tables
    seat: int = 0  # its place among them

    @property
    def round_mates(self) -> list[GamePage]:
        """The other tables of its round its page links to, the nearest
        ``MAX_MATES``. (Made when asked: a list of two dozen kept for every
        game was a tenth of what a site held of each.)"""
        r, k = self.round_entry, self.seat
        if r is None:
            return []
        lo = max(0, k - MAX_MATES // 2)
        return [o for i, o in enumerate(r.games[lo:k + MAX_MATES // 2 + 1], lo) if i != k]

    @property
    def more_mates(self) -> int:
        """The round's other tables not in ``round_mates``."""
        r = self.round_entry
        return 0 if r is None else len(r.games) - 1 - len(self.round_mates)

    @property
    def round_name(self) -> str:
        """'Round 2 of 2026-11-21', 'Round 2', '2026-11-21' or ''."""
        v = self.view
        if v.round is not None:
            return f"Round {v.round}" + (f" of {v.date}" if v.date else "")
        return v.date or ""

    @property
    def heading(self) -> str:
        """'Round 2, table 3' (or the game's id, or its number): the page's heading."""
        v = self.view
        bits = [f"Round {v.round}" if v.round is not None else None,
                f"table {v.table}" if v.table is not None else None]
        head = ", ".join(b for b in bits if b) or (f"Game {v.id}" if v.id else f"Game {self.number}")
        return head[0].upper() + head[1:]

    @property
    def link_text(self) -> str:
        """What a link to this game says: unique within its event page."""
        v = self.view
        return f"Table {v.table}" if v.table is not None else f"Game {self.number}"

    @property
    def title(self) -> str:
        """The page's title: unique in the site (the game's number in its
        event, and the event's name, cut to keep the title within
        ``MAX_TITLE`` characters)."""
        where = ", ".join(b for b in (self.heading, self.view.date) if b)
        head = f"Game {self.number}: {where} · "
        return head + short(self.event, MAX_TITLE - len(head))


@dataclass
class RoundEntry:
    """One round of one night: its tables."""

    key: RoundKey
    games: list[GamePage] = field(default_factory=list)

    @property
    def name(self) -> str:
        """'Round 2', or 'Games without a round'."""
        return f"Round {self.key[1]}" if self.key[1] is not None else "Games without a round"


@dataclass
class Night:
    """One night (date) of an event, with its rounds in play order."""

    date: str | None
    rounds: list[RoundEntry] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The date, or 'Undated games'."""
        return self.date if self.date is not None else "Undated games"


@dataclass
class NightPage:
    """One part of a night's page (an event of more than ``INLINE_GAMES``
    games): the standings after the night, and up to ``MAX_ROWS`` of its
    games by round; ``parts`` the paths of all the night's parts."""

    event: str
    night: Night
    path: str
    part: int  # from 1
    parts: list[str]
    rounds: list[RoundEntry]
    after: EventSummary | None = None

    @property
    def title(self) -> str:
        """The page's title: the night, the part, the event."""
        head = f"{self.night.name}{f' (part {self.part})' if len(self.parts) > 1 else ''} · "
        return head + short(self.event, MAX_TITLE - len(head))


@dataclass
class EventPage:
    """One event's page and folder. An event of more than ``INLINE_GAMES``
    games has its nights on pages of their own (``night_pages``, in parts of
    ``MAX_ROWS`` games); a smaller one lists them on its own page."""

    summary: EventSummary
    name: str
    folder: str
    nights: list[Night] = field(default_factory=list)
    games: list[GamePage] = field(default_factory=list)
    after_nights: list[tuple[str | None, EventSummary]] = field(default_factory=list)
    night_pages: list[NightPage] = field(default_factory=list)

    @property
    def split(self) -> bool:
        """Whether the nights are on pages of their own."""
        return bool(self.night_pages)

    def night_link(self, night: Night) -> str:
        """The file name (in the event's folder) of the first page of ``night``."""
        return next(n.path for n in self.night_pages if n.night is night).split("/")[-1]

    @property
    def path(self) -> str:
        """The page's path in the site."""
        return f"{self.folder}/index.html"

    @property
    def title(self) -> str:
        """The page's title."""
        return f"{short(self.name, MAX_TITLE - 20)} · standings, games"


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One game of ``player``: the page, the side played for, and what a
    player's page lists of it, read from the game's view when it is listed
    (a site keeps one of these for every player of every game: three
    references each, not the lists of names)."""

    game: GamePage
    unit: str
    player: str

    @property
    def partners(self) -> list[str]:
        """The other players of the side."""
        return [m for m in self.game.view.members(self.unit) if m != self.player]

    @property
    def opponents(self) -> list[str]:
        """The players of the other sides."""
        v = self.game.view
        return [p for o in v.units if o != self.unit for p in v.members(o)]

    @property
    def total(self) -> int | None:
        """The side's final total (None: unknown)."""
        totals = self.game.view.totals
        return None if totals is None else totals[self.unit]

    @property
    def won(self) -> bool | None:
        """Whether the side won (None: unfinished)."""
        winner = self.game.view.winner
        return None if winner is None else winner == self.unit


class PlayerGames(Sequence[PlayerGame]):
    """A player's games, oldest first, each read as a ``PlayerGame`` when
    asked for. Kept as the games' pages and, for each, the place of the
    player's side among the game's sides: 9 bytes a game where a
    ``PlayerGame`` and its place in a list were 72 (a site keeps one entry
    for every player of every game until its last page is written)."""

    __slots__ = ("_pages", "_units", "player")

    def __init__(self, player: str) -> None:
        self.player = player
        self._pages: list[GamePage] = []
        self._units = bytearray()  # (a game has at most 8 sides)

    def add(self, game: GamePage, unit: str) -> None:
        """One more game, the player's side in it ``unit`` (one of its ``units``)."""
        self._pages.append(game)
        self._units.append(game.view.units.index(unit))

    def __len__(self) -> int:
        return len(self._pages)

    def _at(self, i: int) -> PlayerGame:
        g = self._pages[i]
        return PlayerGame(g, g.view.units[self._units[i]], self.player)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self._at(k) for k in range(*i.indices(len(self)))]
        return self._at(i)  # (both lists index alike: a negative index, one out of range)

    def __iter__(self) -> Iterator[PlayerGame]:
        return map(self._at, range(len(self)))


@dataclass
class PlayerPage:
    """One player's page. Its games are listed ``MAX_ROWS`` a page: the first
    on the player's page, the rest on further parts (``part_paths``)."""

    name: str
    path: str
    rating: PlayerRating | None = None
    meetings: list[Meeting] = field(default_factory=list)  # head to head, against other players
    teams: list[TeamRating] = field(default_factory=list)  # the fixed teams the player was rated in
    games: PlayerGames = field(init=False)

    def __post_init__(self) -> None:
        self.games = PlayerGames(self.name)

    @property
    def part_paths(self) -> list[str]:
        """The paths of the player's pages: its own, then one per further ``MAX_ROWS`` games."""
        stem = self.path.removesuffix(".html")
        n = max(1, -(-len(self.games) // MAX_ROWS))
        return [self.path] + [f"{stem}.games-{k}.html" for k in range(2, n + 1)]

    def part(self, k: int) -> list[PlayerGame]:
        """The games listed on part ``k`` (from 1)."""
        return self.games[(k - 1) * MAX_ROWS:k * MAX_ROWS]

    @property
    def title(self) -> str:
        """The page's title."""
        return f"{short(self.name, MAX_TITLE - 9)} · player"

    @cached_property
    def wins(self) -> int:
        """The games the player's side won (counted once: every part of the page says it)."""
        return sum(1 for g in self.games if g.won)

    @property
    def partners(self) -> list[tuple[str, int]]:
        """Partners (players of the same side) and the games played with each, most first."""
        count: dict[str, int] = {}
        for g in self.games:
            for p in g.partners:
                count[p] = count.get(p, 0) + 1
        return sorted(count.items(), key=lambda kv: (-kv[1], kv[0]))


@dataclass
class SiteLayout:
    """Every page of the site but the list of invalid records."""

    events: list[EventPage]
    games: list[GamePage]
    players: dict[str, PlayerPage]
    ratings: Ratings

    _links: dict[str, dict[str, str]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def player_links(self, prefix: str) -> dict[str, str]:
        """Player name -> the link to the player's page from a page ``prefix``
        deep ('' or '../'). Made once per prefix and shared, not to be changed:
        every page asks for it, and a league's thousand players on each of its
        thousands of pages were a map made anew a page."""
        if prefix not in self._links:
            self._links[prefix] = {n: prefix + p.path for n, p in self.players.items()}
        return self._links[prefix]


def _game_order(g: GameView) -> tuple[object, ...]:
    return (*round_key_order((g.date, g.round)), _table_order(g.table), g.file, g.document)


def _table_order(t: str | None) -> tuple[bool, bool, int, str]:
    text = t or ""
    return (t is None, not text.isdigit(), int(text) if text.isdigit() else 0, text)


def layout(summary: Summary, nights: dict[RoundKey, Summary], games: Iterable[GameEntry],
           ratings: Ratings) -> SiteLayout:
    """The site's pages: ``summary`` of everything, ``nights`` one summary per
    night (``night_of`` keys), ``games`` every valid game, ``ratings`` over them."""
    by_event: dict[str | None, list[GameEntry]] = {}
    for e in games:
        by_event.setdefault(e.view.event, []).append(e)
    after = after_each_round(nights)
    folders: set[str] = set()
    events: list[EventPage] = []
    games: list[GamePage] = []
    for i, ev in enumerate(summary.sorted_events(), 1):
        if not ev.games:
            continue
        name = ev.event if ev.event is not None else NO_EVENT
        page = EventPage(ev, name, slug(name, folders, f"event-{i}"))
        rounds: dict[RoundKey, RoundEntry] = {}
        event_path = page.path  # (one string for all its games)
        for n, e in enumerate(sorted(by_event.get(ev.event, []), key=lambda e: _game_order(e.view)), 1):
            v = e.view
            g = GamePage(v, name, n, f"{page.folder}/game-{n}.html", event_path, hands=e.hands, key=e.key)
            page.games.append(g)
            key = (v.date, v.round)
            if key not in rounds:
                rounds[key] = RoundEntry(key)
                if not page.nights or page.nights[-1].date != v.date:
                    page.nights.append(Night(v.date))
                page.nights[-1].rounds.append(rounds[key])
            rounds[key].games.append(g)
        for a, b in zip(page.games, page.games[1:], strict=False):
            a.next, b.previous = b, a
        for r in rounds.values():
            for k, g in enumerate(r.games):
                g.round_entry, g.seat = r, k
        steps = after.get(ev.event, [])
        page.after_nights = [(key[0], snap) for key, snap in steps] if len(steps) > 1 else []
        if len(page.games) > INLINE_GAMES:
            _night_pages(page, dict(steps))
        for ng in page.night_pages:
            for r in ng.rounds:
                for g in r.games:
                    g.night_path = ng.path
        for g in page.games:
            g.night_path = g.night_path or event_path
        games.extend(page.games)
        events.append(page)
    return SiteLayout(events, games, _players(games, ratings), ratings)


def _night_pages(page: EventPage, after: dict[RoundKey, EventSummary]) -> None:
    """Cut an event's nights into pages of at most ``MAX_ROWS`` games each."""
    snaps = {key[0]: snap for key, snap in after.items()}
    for k, night in enumerate(page.nights, 1):
        chunks: list[list[RoundEntry]] = [[]]
        rows = 0
        for r in night.rounds:
            for g in r.games:
                if rows == MAX_ROWS:
                    chunks.append([])
                    rows = 0
                if not chunks[-1] or chunks[-1][-1].key != r.key:
                    chunks[-1].append(RoundEntry(r.key))
                chunks[-1][-1].games.append(g)
                rows += 1
        paths = [f"{page.folder}/night-{k}.html"] + [f"{page.folder}/night-{k}-{j}.html"
                                                    for j in range(2, len(chunks) + 1)]
        for j, chunk in enumerate(chunks, 1):
            page.night_pages.append(NightPage(page.name, night, paths[j - 1], j, paths, chunk,
                                              snaps.get(night.date) if len(snaps) > 1 else None))


def _players(games: list[GamePage], ratings: Ratings) -> dict[str, PlayerPage]:
    names = sorted({p for g in games for p in g.view.players})
    taken: set[str] = set()
    out = {n: PlayerPage(n, f"players/{slug(n, taken, 'player')}.html", rating=ratings.players.get(n))
           for n in names}
    for g in games:
        v = g.view
        for u in v.units:
            for p in v.members(u):
                out[p].games.add(g, u)
    for t in sorted(ratings.teams.values(), key=lambda t: t.name):
        for p in t.members:
            if p in out:
                out[p].teams.append(t)
    for m in ratings.meetings.values():
        if m.kind == "player":
            for p in (m.a, m.b):
                if p in out:
                    out[p].meetings.append(m)
    return out
