"""Mergeable summaries of many games: standings per event, game rows, problems.

A ``Summary`` holds counters, never records: per event, one ``Tally`` per
player and per fixed team (games, wins, hands, contracts, points), plus at most
``limit`` game rows and ``limit`` problem entries (the first ones by file and
document index). Its memory grows with the number of players, events and files,
not with the number of games.

Two summaries ``merge``; merging is associative and commutative, and every
list is kept sorted, so that summarizing any split of a corpus and merging the
parts gives exactly the summary of one run over everything. ``to_json`` /
``from_json`` give the partial summary file (``PARTIAL``, version 1):

```
{"format": "pitch-summary-partial", "version": 1,
 "limit": 1000 | null,            # most game rows and problems kept (null: all)
 "games_kept": true,              # false: game rows were not asked for
 "files": [...],                  # every input file name, sorted
 "counts": {"documents", "valid", "invalid", "unreadable", "errors", "warnings"},
 "events": [{"event": NAME | null, "games", "invalid", "hands", "first_date", "last_date",
             "profiles": {NAME: games}, "families": {FAMILY: games},
             "players": {NAME: TALLY}, "teams": {KEY: TALLY + "members", "names"}}],
 "games": [ROW, ...] | null,      # sorted by file, document
 "problems": [PROBLEM, ...]}      # sorted by file, document
```

Only valid records count in the standings; an invalid record is counted,
listed with its first error, and its row says so. Document indexes are
0-based here, as in ``pitch validate --format json``.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pitchcli.diagnostics import DEFAULT_MAX_ROWS, ERROR, Diagnostic
from pitchcli.pipeline.driver import exit_status

if TYPE_CHECKING:  # the engine is imported when a game is counted, not by `pitch --help`
    from pitchcli.engine.results import HandScore

PARTIAL = "pitch-summary-partial"
VERSION = 1
DEFAULT_LIMIT = DEFAULT_MAX_ROWS

COUNTS = ("documents", "valid", "invalid", "unreadable", "errors", "warnings")
_FIRST_AT = re.compile(r"\(first at line (\d+)\)")


class SummaryError(ValueError):
    """A partial summary file that can't be used (wrong format or version)."""


@dataclass(slots=True)
class Tally:
    """Counters for one player (or one fixed team) in one event.

    ``bids``: hands as pitcher (Auction Pitch) or bidder (ten-point); ``made`` +
    ``set`` = ``bids``; ``bid_total``: sum of those bids; ``score``: the sum of
    the score changes of the player's side; ``partner``: hands as a called
    partner; ``high`` .. ``game``: Auction Pitch points taken; ``taken``:
    ten-point points taken (by the player himself: the cards he won, and the 2
    of trumps he played).
    """

    games: int = 0
    wins: int = 0
    hands: int = 0
    bids: int = 0
    made: int = 0
    set: int = 0
    bid_total: int = 0
    score: int = 0
    partner: int = 0
    high: int = 0
    low: int = 0
    jack: int = 0
    game: int = 0
    taken: int = 0

    def add(self, other: Tally) -> None:
        """Add ``other``'s counters to these."""
        for f in _TALLY_FIELDS:
            setattr(self, f, getattr(self, f) + getattr(other, f))

    def as_json(self) -> dict[str, int]:
        """The counters, in a fixed order."""
        return {f: getattr(self, f) for f in _TALLY_FIELDS}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Tally:
        """The inverse of ``as_json`` (missing counters are 0)."""
        return cls(**{f: int(d.get(f, 0)) for f in _TALLY_FIELDS})

    # --- derived figures (exact, for ordering; rounded only when shown) ----
    @property
    def win_rate(self) -> Fraction:
        """Wins per game."""
        return Fraction(self.wins, self.games) if self.games else Fraction(0)

    @property
    def made_rate(self) -> Fraction | None:
        """Bids made per bid, or ``None`` without bids."""
        return Fraction(self.made, self.bids) if self.bids else None

    @property
    def average_bid(self) -> Fraction | None:
        """The average bid, or ``None`` without bids."""
        return Fraction(self.bid_total, self.bids) if self.bids else None

    @property
    def per_hand(self) -> Fraction:
        """Score per hand played."""
        return Fraction(self.score, self.hands) if self.hands else Fraction(0)

    def rank_key(self) -> tuple[int, Fraction, Fraction]:
        """The standings order without the name: wins, then win rate, then
        points per hand, all descending."""
        return (-self.wins, -self.win_rate, -self.per_hand)


_TALLY_FIELDS = tuple(f.name for f in fields(Tally))


@dataclass(slots=True)
class TeamTally:
    """A fixed team, known by its members; ``names`` as the records call it."""

    members: tuple[str, ...]
    names: set[str] = field(default_factory=set)
    tally: Tally = field(default_factory=Tally)


@dataclass(slots=True)
class EventSummary:
    """One event (the records' ``event``; ``None`` for records without one)."""

    event: str | None
    games: int = 0
    invalid: int = 0
    hands: int = 0
    first_date: str | None = None
    last_date: str | None = None
    profiles: dict[str, int] = field(default_factory=dict)
    families: dict[str, int] = field(default_factory=dict)
    players: dict[str, Tally] = field(default_factory=dict)
    teams: dict[str, TeamTally] = field(default_factory=dict)

    def player(self, name: str) -> Tally:
        """The tally of ``name`` (created empty)."""
        t = self.players.get(name)
        if t is None:
            t = self.players[name] = Tally()
        return t

    def team(self, members: tuple[str, ...]) -> TeamTally:
        """The tally of the team of ``members`` (created empty)."""
        key = team_key(members)
        t = self.teams.get(key)
        if t is None:
            t = self.teams[key] = TeamTally(tuple(sorted(members)))
        return t

    def date(self, d: str | None) -> None:
        """Widen the date range to ``d``."""
        if d is None:
            return
        if self.first_date is None or d < self.first_date:
            self.first_date = d
        if self.last_date is None or d > self.last_date:
            self.last_date = d

    def merge(self, other: EventSummary) -> None:
        """Add ``other`` (the same event) to this one."""
        self.games += other.games
        self.invalid += other.invalid
        self.hands += other.hands
        self.date(other.first_date)
        self.date(other.last_date)
        for src, dst in ((other.profiles, self.profiles), (other.families, self.families)):
            for k, n in src.items():
                dst[k] = dst.get(k, 0) + n
        for name, t in other.players.items():
            self.player(name).add(t)
        for key, tt in other.teams.items():
            mine = self.teams.get(key)
            if mine is None:
                mine = self.teams[key] = TeamTally(tt.members)
            mine.names |= tt.names
            mine.tally.add(tt.tally)

    def as_json(self) -> dict[str, Any]:
        """Plain data, every mapping in sorted order."""
        return {
            "event": self.event, "games": self.games, "invalid": self.invalid, "hands": self.hands,
            "first_date": self.first_date, "last_date": self.last_date,
            "profiles": dict(sorted(self.profiles.items())),
            "families": dict(sorted(self.families.items())),
            "players": {n: self.players[n].as_json() for n in sorted(self.players)},
            "teams": {k: {"members": list(t.members), "names": sorted(t.names), **t.tally.as_json()}
                      for k, t in sorted(self.teams.items())},
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> EventSummary:
        """The inverse of ``as_json``."""
        ev = cls(d.get("event"), int(d.get("games", 0)), int(d.get("invalid", 0)), int(d.get("hands", 0)),
                 d.get("first_date"), d.get("last_date"), dict(d.get("profiles", {})),
                 dict(d.get("families", {})))
        ev.players = {n: Tally.from_json(t) for n, t in d.get("players", {}).items()}
        for k, t in d.get("teams", {}).items():
            ev.teams[k] = TeamTally(tuple(t["members"]), set(t.get("names", [])), Tally.from_json(t))
        return ev


def team_key(members: Iterable[str]) -> str:
    """A fixed team is known by its members: 'Ann & Cal'."""
    return " & ".join(sorted(members))


def event_order(ev: EventSummary) -> tuple[bool, str, bool, str]:
    """Events by first date, then name; undated after dated, no event last."""
    return (ev.first_date is None, ev.first_date or "", ev.event is None, ev.event or "")


def round_order(r: str | int | None) -> tuple[bool, bool, int, str]:
    """Rounds in play order: numbered rounds by number, then named ones by
    name, then games without a round."""
    text = "" if r is None else str(r)
    return (r is None, not text.isdigit(), int(text) if text.isdigit() else 0, text)


RoundKey = tuple[str | None, str | None]
"""A round as ``(night, round)``: two nights that both number their rounds
1, 2 ... hold different rounds. The night is the record's ``date`` (``None``:
undated); the round its number or label (``None``: no round)."""


def round_key(record: Any) -> RoundKey:
    """The round a record (as loaded, possibly invalid) belongs to."""
    if not isinstance(record, dict):
        return (None, None)
    return (_text(record.get("date")), _text(record.get("round")))


def round_key_order(key: RoundKey) -> tuple[Any, ...]:
    """Rounds in play order: by night (undated last), then ``round_order``."""
    night, r = key
    return (night is None, night or "", round_order(r))


def night_of(key: RoundKey) -> RoundKey:
    """The key of a whole night: its date alone (``(date, None)``)."""
    return (key[0], None)


def after_each_round(rounds: dict[RoundKey, Summary]) -> dict[str | None, list[tuple[RoundKey, EventSummary]]]:
    """Per event, its standings after each of its rounds: the merge of the
    summaries of that round and the ones before it (``rounds``: one summary
    per ``RoundKey``; keyed by ``night_of`` keys, the standings after each night)."""
    acc: dict[str | None, EventSummary] = {}
    out: dict[str | None, list[tuple[RoundKey, EventSummary]]] = {}
    for r in sorted(rounds, key=round_key_order):
        for name, ev in sorted(rounds[r].events.items(), key=lambda kv: event_order(kv[1])):
            if not ev.games:
                continue  # only invalid records in this round: nothing changed
            total = acc.setdefault(name, EventSummary(name))
            total.merge(ev)
            out.setdefault(name, []).append((r, EventSummary.from_json(total.as_json())))
    return out


def _row_key(row: dict[str, Any]) -> tuple[str, int]:
    return (row["file"], row["document"])


def _merge_bounded(a: list[dict[str, Any]], b: list[dict[str, Any]], limit: int | None) -> list[dict[str, Any]]:
    """The first ``limit`` of two sorted lists, by file and document."""
    merged = heapq.merge(a, b, key=_row_key)
    if limit is None:
        return list(merged)
    return [r for r, _ in zip(merged, range(limit), strict=False)]


class _Bounded:
    """Rows kept sorted by (file, document), at most ``limit`` of them; adding
    is amortized O(1): the list is sorted and cut when it doubles."""

    def __init__(self, limit: int | None, rows: list[dict[str, Any]] | None = None) -> None:
        self.limit = limit
        self.rows = rows or []
        self.clean = True

    def add(self, row: dict[str, Any]) -> None:
        if self.rows and _row_key(row) < _row_key(self.rows[-1]):
            self.clean = False
        self.rows.append(row)
        if self.limit is not None and len(self.rows) >= 2 * self.limit + 16:
            self.settle()

    def settle(self) -> list[dict[str, Any]]:
        if not self.clean:
            self.rows.sort(key=_row_key)
            self.clean = True
        if self.limit is not None:
            del self.rows[self.limit:]
        return self.rows


@dataclass(frozen=True, slots=True)
class Counts:
    """How many documents a summary counted: ``documents`` read, of them
    ``valid`` and ``invalid``; ``unreadable`` inputs (a file that could not be
    read or parsed); ``errors`` and ``warnings`` over all diagnostics."""

    documents: int
    valid: int
    invalid: int
    unreadable: int
    errors: int
    warnings: int


@dataclass(frozen=True, slots=True)
class GameRow:
    """One document of a summary, valid or not. ``file`` and ``document``
    (from 1) say where it was read; ``event``, ``date``, ``round``, ``table``
    and ``id`` are the record's own (a date, round, table or id as written:
    text or a number); ``profile`` the record's ``variant``, ``players`` as
    recorded, ``hands`` how many it records. A valid game has its ``winner``
    (``None``: unfinished) and each side's total in ``scores`` (``None``: not
    known after an unscored hand); ``errors`` and ``warnings`` count its
    diagnostics."""

    file: str
    document: int
    event: str | None
    date: str | int | None
    round: str | int | None
    table: str | int | None
    id: str | int | None
    profile: str | None
    players: tuple[str | None, ...]
    hands: int
    winner: str | None
    scores: Mapping[str, int] | None
    valid: bool
    errors: int
    warnings: int

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> GameRow:
        """The typed row of a summary's JSON-shaped row (document from 0)."""
        return cls(row["file"], row["document"] + 1, row["event"], row["date"], row["round"], row["table"],
                   row["id"], row["profile"], tuple(row["players"]), row["hands"], row["winner"],
                   None if row["scores"] is None else dict(row["scores"]), row["valid"], row["errors"],
                   row["warnings"])


@dataclass(frozen=True, slots=True)
class ProblemRow:
    """A document a summary did not count in its standings (invalid, or
    unreadable), with its first error: ``file`` and ``document`` (from 1),
    where in it (``line``, ``column``, ``pointer``), the error's ``code``,
    ``rule`` and ``message``, and how many ``errors`` and ``warnings`` it has."""

    file: str
    document: int
    line: int | None
    column: int | None
    code: str | None
    rule: str | None
    message: str
    pointer: str
    errors: int
    warnings: int

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> ProblemRow:
        """The typed entry of a summary's JSON-shaped problem (document from 0)."""
        return cls(row["file"], row["document"] + 1, row["line"], row["column"], row["code"], row["rule"],
                   row["message"], row["pointer"], row["errors"], row["warnings"])


class Summary:
    """Everything ``pitch summarize`` reports, as mergeable counters.

    ``limit``: the most game rows and problems kept (``None``: all);
    ``keep_games``: whether game rows are kept at all.
    """

    def __init__(self, limit: int | None = DEFAULT_LIMIT, keep_games: bool = True) -> None:
        self.limit = limit
        self.keep_games = keep_games
        self.files: set[str] = set()
        self.counts = dict.fromkeys(COUNTS, 0)
        self.events: dict[str | None, EventSummary] = {}
        self._games = _Bounded(limit)
        self._problems = _Bounded(limit)

    # --- reading ------------------------------------------------------------
    @property
    def count(self) -> Counts:
        """How many documents, valid, invalid and unreadable inputs, errors and
        warnings were counted (``counts`` as a mapping, the JSON's)."""
        return Counts(**self.counts)

    @property
    def game_rows(self) -> tuple[GameRow, ...] | None:
        """The game rows by file and document, typed (``None`` when not kept)."""
        rows = self.games
        return None if rows is None else tuple(GameRow.of(r) for r in rows)

    @property
    def problem_rows(self) -> tuple[ProblemRow, ...]:
        """The problems by file and document, typed."""
        return tuple(ProblemRow.of(r) for r in self.problems)

    @property
    def games(self) -> list[dict[str, Any]] | None:
        """Game rows by file and document as the JSON report's mappings
        (``document`` from 0; ``None`` when not kept); ``game_rows`` types them."""
        return self._games.settle() if self.keep_games else None

    @property
    def problems(self) -> list[dict[str, Any]]:
        """Invalid records and unreadable files by file and document: the first
        error of each, with the number of errors and warnings, as the JSON
        report's mappings (``document`` from 0); ``problem_rows`` types them."""
        return self._problems.settle()

    def event(self, name: str | None) -> EventSummary:
        """The summary of one event (created empty)."""
        ev = self.events.get(name)
        if ev is None:
            ev = self.events[name] = EventSummary(name)
        return ev

    def sorted_events(self) -> list[EventSummary]:
        """Events in report order (``event_order``)."""
        return sorted(self.events.values(), key=event_order)

    def exit_code(self, allow_invalid: bool = False) -> int:
        """3 when an input could not be read; 1 when a record is invalid (unless
        ``allow_invalid``); else 0."""
        return exit_status(self.counts["unreadable"], self.counts["invalid"], allow_invalid=allow_invalid)

    # --- adding one checked document -----------------------------------------
    def add(self, file: str, index: int, data: Any, analysis: Any, diagnostics: list[Diagnostic],
            unreadable: bool = False, omitted: tuple[int, int] = (0, 0)) -> None:
        """Count one document (or one unreadable file): ``data`` is the record
        as loaded (or ``None``), ``analysis`` the engine's ``GameAnalysis`` (or
        ``None``), ``diagnostics`` its located diagnostics."""
        self.files.add(file)
        counts = self.counts
        # (``omitted``: the errors and warnings past the cap on diagnostics kept)
        errors = sum(1 for d in diagnostics if d.severity == ERROR) + omitted[0]
        warnings = len(diagnostics) - errors + omitted[0] + omitted[1]
        counts["errors"] += errors
        counts["warnings"] += warnings
        if unreadable:
            counts["unreadable"] += 1
            self._problem(file, index, diagnostics, errors, warnings)
            return
        counts["documents"] += 1
        record = data if isinstance(data, dict) else {}
        valid = errors == 0 and analysis is not None and analysis.table is not None
        event_name = _text(record.get("event"))
        if not valid:
            counts["invalid"] += 1
            self._problem(file, index, diagnostics, errors, warnings)
            if isinstance(data, dict):
                self.event(event_name).invalid += 1
            if self.keep_games:
                self._games.add(_row(file, index, record, None, False, errors, warnings))
            return
        counts["valid"] += 1
        ev = self.event(event_name)
        _count_game(ev, record, analysis)
        if self.keep_games:
            self._games.add(_row(file, index, record, analysis, True, errors, warnings))

    def add_checked(self, checked: Any) -> None:
        """``add`` for a ``pitchcli.pipeline.check.Checked``; what a folder walk skipped
        (a FIFO...) is not a document: its warning is counted and listed."""
        if checked.skipped:
            self.counts["warnings"] += len(checked.diagnostics)
            self._problem(checked.file, checked.index, checked.diagnostics, 0, len(checked.diagnostics))
            return
        self.add(checked.file, checked.index, checked.data, checked.analysis, checked.diagnostics,
                 checked.unreadable, (checked.omitted_errors, checked.omitted_warnings))

    def _problem(self, file: str, index: int, diagnostics: list[Diagnostic], errors: int, warnings: int) -> None:
        first = next((d for d in diagnostics if d.severity == ERROR), diagnostics[0] if diagnostics else None)
        entry: dict[str, Any] = {"file": file, "document": index, "line": None, "column": None, "code": None,
                                 "rule": None, "message": "no analysis", "pointer": "",
                                 "errors": errors, "warnings": warnings}
        if first is not None:
            entry.update(line=first.line, column=first.column, code=first.code, rule=first.rule,
                         message=first.message, pointer=first.pointer)
        self._problems.add(entry)

    # --- merging --------------------------------------------------------------
    def merge(self, other: Summary) -> Summary:
        """Add ``other`` to this summary (in place) and return it."""
        self.files |= other.files
        for k in COUNTS:
            self.counts[k] += other.counts[k]
        for name, ev in other.events.items():
            self.event(name).merge(ev)
        limit = _min_limit(self.limit, other.limit)
        keep = self.keep_games and other.keep_games
        games = _merge_bounded(self._games.settle(), other._games.settle(), limit) if keep else []
        problems = _merge_bounded(self._problems.settle(), other._problems.settle(), limit)
        self.limit, self.keep_games = limit, keep
        self._games, self._problems = _Bounded(limit, games), _Bounded(limit, problems)
        return self

    def shift(self, docs_before: int, lines_before: int) -> None:
        """Renumber the documents and lines of a summary of one piece of one
        file (a byte range that starts after ``docs_before`` documents and
        ``lines_before`` lines of the file)."""
        for row in self._games.rows:
            row["document"] += docs_before
        for p in self._problems.rows:
            p["document"] += docs_before
            if p["line"] is not None:
                p["line"] += lines_before
            if lines_before and p["code"] == "L104":
                # The loader's message names the line of the first key too.
                p["message"] = _FIRST_AT.sub(lambda m: f"(first at line {int(m[1]) + lines_before})",
                                             p["message"])

    # --- the partial summary file ------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The partial summary (``PARTIAL``, ``VERSION``) as plain data."""
        return {
            "format": PARTIAL, "version": VERSION, "limit": self.limit, "games_kept": self.keep_games,
            "files": sorted(self.files),
            "counts": dict(self.counts),
            "events": [ev.as_json() for ev in sorted(self.events.values(), key=event_order)],
            "games": [dict(r) for r in self.games] if self.keep_games else None,  # type: ignore[union-attr]
            "problems": [dict(p) for p in self.problems],
        }

    @classmethod
    def from_json(cls, d: Any) -> Summary:
        """Read a partial summary; ``SummaryError`` when it isn't one."""
        if not isinstance(d, dict) or d.get("format") != PARTIAL:
            raise SummaryError(f"not a partial summary (expected \"format\": \"{PARTIAL}\")")
        if d.get("version") != VERSION:
            raise SummaryError(f"partial summary version {d.get('version')!r}; this pitch reads version {VERSION}")
        # Its own schema, then the sums no schema checks (partial_check).
        from pitchcli.views.partial import problem

        found = problem(d)
        if found is not None:
            raise SummaryError(found)
        try:
            s = cls(d["limit"], bool(d["games_kept"]))
            s.files = set(d["files"])
            s.counts = {k: int(d["counts"].get(k, 0)) for k in COUNTS}
            for e in d["events"]:
                s.events[e.get("event")] = EventSummary.from_json(e)
            games = sorted((dict(r) for r in d["games"] or []), key=_row_key)
            problems = sorted((dict(p) for p in d["problems"]), key=_row_key)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise SummaryError(f"malformed partial summary: {type(e).__name__}: {e}") from None
        s._games = _Bounded(s.limit, games[:s.limit] if s.limit is not None else games)
        s._problems = _Bounded(s.limit, problems[:s.limit] if s.limit is not None else problems)
        return s


def _min_limit(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


def merge_all(parts: Iterable[Summary]) -> Summary:
    """Merge summaries (an empty summary when there are none)."""
    out: Summary | None = None
    for p in parts:
        out = p if out is None else out.merge(p)
    return out if out is not None else Summary()


# --- one valid game ------------------------------------------------------------


def _text(v: Any) -> str | None:
    """Metadata as text, whatever the (possibly invalid) record holds."""
    if v is None:
        return None
    return v if isinstance(v, str) else str(v)


def _meta(v: Any) -> str | int | None:
    if v is None or isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool)):
        return v
    return str(v)


def _row(file: str, index: int, record: dict[str, Any], analysis: Any, valid: bool, errors: int,
         warnings: int) -> dict[str, Any]:
    """One game row: where, which game, who played, what came of it."""
    players = record.get("players")
    hands = record.get("hands")
    row: dict[str, Any] = {
        "file": file, "document": index,
        "event": _text(record.get("event")), "date": _meta(record.get("date")),
        "round": _meta(record.get("round")), "table": _meta(record.get("table")), "id": _meta(record.get("id")),
        "profile": _text(record.get("variant")),
        "players": [_text(p) for p in players] if isinstance(players, list) else [],
        "hands": len(hands) if isinstance(hands, list) else 0,
        "winner": None, "scores": None, "valid": valid, "errors": errors, "warnings": warnings,
    }
    if valid:
        # what a script reads: the public Game's winner and totals
        from pitchcli.api.games import game_of

        game = game_of(analysis, file, index + 1)
        assert game is not None  # a valid game's table is seated
        row["winner"] = game.winner
        row["scores"] = None if game.totals is None else dict(game.totals)
    return row


def _count_game(ev: EventSummary, record: dict[str, Any], a: Any) -> None:
    """Add one valid game (its ``GameAnalysis``) to an event's tallies."""
    table, profile = a.table, a.profile
    players = table.players
    unit_of = table.unit_of
    units = len(table.unit_names)
    ev.games += 1
    ev.date(_text(record.get("date")))
    ev.profiles[profile.name] = ev.profiles.get(profile.name, 0) + 1
    ev.families[profile.family] = ev.families.get(profile.family, 0) + 1
    winner = table.unit_index(a.winner) if a.winner is not None else None
    seat_t = [ev.player(p) for p in players]
    teams = profile.has_teams
    unit_t: list[Tally] = []
    if teams:
        for u in range(units):
            tt = ev.team(tuple(players[s] for s in table.unit_members(u)))
            tt.names.add(table.unit_names[u])
            unit_t.append(tt.tally)
    for s, t in enumerate(seat_t):
        t.games += 1
        t.wins += unit_of[s] == winner
    for u, t in enumerate(unit_t):
        t.games += 1
        t.wins += u == winner
    solo_units = [table.unit_members(u) for u in range(units)]
    from pitchcli.engine.results import family_of

    awards = family_of(profile).scores_awards
    for r in a.scores:  # (a game the quick pass decided is counted without its replay)
        if r is None:
            continue
        ev.hands += 1
        _count_hand(r, seat_t, unit_t, unit_of, solo_units, awards)


def _count_hand(r: HandScore, seat_t: list[Tally], unit_t: list[Tally], unit_of: tuple[int, ...],
                members: list[list[int]], awards: bool) -> None:
    for s, t in enumerate(seat_t):
        t.hands += 1
        t.score += r.delta[unit_of[s]]
    for u, t in enumerate(unit_t):
        t.hands += 1
        t.score += r.delta[u]
    for t in ([seat_t[r.bidder]] + ([unit_t[unit_of[r.bidder]]] if unit_t else [])):
        t.bids += 1
        t.bid_total += r.bid
        if r.made:
            t.made += 1
        else:
            t.set += 1
    for s in r.partners:
        seat_t[s].partner += 1
    if awards:
        for kind, unit, seat in r.awards:
            if unit is None:
                continue
            if seat is None and len(members[unit]) == 1:
                seat = members[unit][0]  # a tally record: the unit is the player
            if seat is not None:
                setattr(seat_t[seat], kind, getattr(seat_t[seat], kind) + 1)
            if unit_t:
                setattr(unit_t[unit], kind, getattr(unit_t[unit], kind) + 1)
        return
    # Ten-point: the points each player took himself (the engine's per-seat
    # count; a tally with teams only says what each team took).
    for s, n in enumerate(r.seat_taken):
        seat_t[s].taken += n
    for u, t in enumerate(unit_t):
        t.taken += r.taken[u]
