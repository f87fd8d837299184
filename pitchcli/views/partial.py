"""Partial summaries are input too: their schema, then the sums no schema can check.

``pitch merge`` reads files it did not write (edited by hand, cut short, made
by another program). Before a partial summary is used it must match its JSON
Schema (``schemas/pitch-summary-partial-1.schema.json``: every count a whole
number from 0 to 2^53 - 1, no float, no unknown key) and be consistent: no
more wins than games, made + set = bids, the documents the sum of the valid
and invalid ones, each event once... ``problem(data)`` names the first value
that fails, by its JSON Pointer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from pitchcli import escape
from pitchcli.api.kinds import Family, PointKind
from pitchcli.packaged import data_text
from pitchcli.record import rs
from pitchcli.record.schema import has_float, pointer, strict_validator

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

SCHEMA_RESOURCE = "pitch-summary-partial-1.schema.json"  # in pitchcli/data/
SCHEMA_ID = "urn:pitchcli:schema:pitch-summary-partial:1"
_WORDS = {"string": "text", "integer": "a whole number", "null": "null", "array": "a list", "object": "a mapping",
          "boolean": "true or false"}


@cache
def load_schema() -> dict[str, Any]:
    """The JSON Schema of a partial summary (shared: don't change it)."""
    return json.loads(data_text(SCHEMA_RESOURCE))


@cache
def _reference() -> Any:
    return strict_validator()(load_schema())


@cache
def _compiled() -> Any | None:
    jsonschema_rs = rs.jsonschema_rs()
    if jsonschema_rs is None:
        return None
    return jsonschema_rs.Draft202012Validator(load_schema())


def _fast_valid(data: Any) -> bool:
    """True when the compiled validator says valid (it can't tell 2.0 from 2,
    and refuses numbers past 64 bits: those go to the reference)."""
    fast = _compiled()
    if fast is None:
        return False
    try:
        return bool(fast.is_valid(data)) and not has_float(data)
    except (ValueError, TypeError, OverflowError):
        return False


def _message(e: ValidationError) -> str:
    at = pointer(list(e.absolute_path)) or "/"
    kind, value, schema = e.validator, e.instance, e.schema
    nullable = "null" in (schema.get("type") or [])
    if kind == "type":
        kinds = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
        found = "a decimal number" if isinstance(value, float) else escape.quote(value)
        return f"{at} must be {' or '.join(_WORDS.get(k, k) for k in kinds)}, not {found}"
    if kind == "required":
        missing = next((k for k in e.validator_value if k not in value), "?")
        return f"{pointer([*e.absolute_path, missing])} is missing"
    if kind == "minimum":
        return f"{at} must be {e.validator_value} or more{', or null' if nullable else ''}, not {value}"
    if kind == "maximum":
        return f"{at} must be at most {e.validator_value:,}, not a number of {len(str(value))} digits"
    if kind == "additionalProperties":
        extra = sorted(set(value) - set(schema.get("properties", {})))
        return f"{pointer([*e.absolute_path, extra[0]]) if extra else at} is not a key of a partial summary"
    if kind == "const":
        return f"{at} must be {json.dumps(e.validator_value)}, not {escape.quote(value)}"
    return f"{at}: {e.message}"


def _schema_problem(data: Any) -> str | None:
    if _fast_valid(data):
        return None
    # The deepest error: the value itself (a count that is text) rather than
    # the mapping around it (which then also lacks a key of the right type).
    error = max(_reference().iter_errors(data), key=lambda e: len(e.absolute_path), default=None)
    return None if error is None else _message(error)


# What one game and one hand can give, whatever the profile and its overrides
# (``profiles.check_profile``; each rule family's own figures, ``Family``): a
# hand has one bidder, and every bid is at least 1; a side scores at most the
# points of a hand (``Family.hand_points``: ten-point's ten, TP-POINTS-1;
# Auction's four), so a player's score grows at most that much a hand; each
# Auction point (High, Low, Jack, Game) goes to one side at most; a game has at
# least one side that didn't win. A table seats each family's own range of
# players (``Family.seats``), and fixed teams hold 2 to 4 (two teams at least,
# of 8 players at most).
HAND_POINTS = max(f.hand_points for f in Family)
AWARDS = tuple(str(k) for k in PointKind)
TEAM_SIZES = (2, 4)
# Any family's range of players: what a summary of unknown families may seat.
ANY_SEATS = (min(f.seats[0] for f in Family), max(f.seats[1] for f in Family))


def _family(name: str) -> Family | None:
    """The rule family of that name (``None``: no family of ours)."""
    try:
        return Family(name)
    except ValueError:
        return None


def _seats(families: dict[str, Any]) -> tuple[int, int]:
    """The fewest and most players a game of these families seats (any
    family's range when a family is unknown)."""
    ranges = [fam.seats if (fam := _family(f)) is not None else ANY_SEATS for f in families if families[f]]
    return (min((r[0] for r in ranges), default=ANY_SEATS[0]), max((r[1] for r in ranges), default=ANY_SEATS[1]))


def _columns(families: dict[str, Any]) -> set[str] | None:
    """The point counters the games of these families can fill (Auction: High,
    Low, Jack, Game; ten-point: taken), or None when a family is unknown."""
    known = {f: _family(f) for f in families}
    if any(fam is None for fam in known.values()):
        return None
    return {c for f, fam in known.items() if families[f] and fam is not None for c in fam.columns}


def _points_problems(t: dict[str, Any], hands: int, where: Callable[[str], str]) -> Iterator[str]:
    """Points no ``hands`` hands can give: an Auction point more often than
    the hands, more points taken than the hands hold; ``where``: the pointer
    named for a counter."""
    for kind in AWARDS:
        if t.get(kind, 0) > hands:
            yield f"{where(kind)}: {kind.capitalize()} taken {t[kind]} times in {hands} hands"
    if t.get("taken", 0) > HAND_POINTS * hands:
        yield f"{where('taken')}: {t['taken']} points taken in {hands} hands (a hand has {HAND_POINTS})"


def _tally_problems(t: dict[str, Any], at: str, ev: dict[str, Any], columns: set[str] | None) -> Iterator[str]:
    games, wins, hands = t.get("games", 0), t.get("wins", 0), t.get("hands", 0)
    bids, made, lost = t.get("bids", 0), t.get("made", 0), t.get("set", 0)
    if games < 1:
        yield f"{at}/games: listed with {games} games (a player or team is listed for the games played)"
    if wins > games:
        yield f"{at}/wins: {wins} wins in {games} games"
    if made + lost != bids:
        yield f"{at}/bids: made {made} + set {lost} is not the {bids} bids"
    if bids > hands:
        yield f"{at}/bids: {bids} bids in {hands} hands"
    if t.get("bid_total", 0) < bids:
        yield f"{at}/bid_total: {t.get('bid_total', 0)} for {bids} bids (every bid is at least 1)"
    if t.get("partner", 0) > hands:
        yield f"{at}/partner: called partner in {t['partner']} of {hands} hands"
    if t.get("score", 0) > HAND_POINTS * hands:
        yield f"{at}/score: {t['score']} in {hands} hands (a hand gives at most {HAND_POINTS})"
    yield from _points_problems(t, hands, lambda kind: f"{at}/{kind}")
    if columns is not None:
        for kind in (*AWARDS, "taken"):
            if t.get(kind, 0) and kind not in columns:
                yield f"{at}/{kind}: {t[kind]}, in an event with no game that counts {kind}"
    if games > ev.get("games", 0):
        yield f"{at}/games: {games} games in an event of {ev.get('games', 0)}"
    if hands > ev.get("hands", 0):
        yield f"{at}/hands: {hands} hands in an event of {ev.get('hands', 0)}"


def _sums(tallies: list[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in tallies:
        for k, v in t.items():
            if isinstance(v, int):
                out[k] = out.get(k, 0) + v
    return out


def _event_problems(ev: dict[str, Any], at: str) -> Iterator[str]:
    """The sums over an event's players and teams that no game can exceed."""
    games, hands = ev.get("games", 0), ev.get("hands", 0)
    profiles, families = ev.get("profiles", {}), ev.get("families", {})
    for key, counted in (("profiles", profiles), ("families", families)):
        if sum(counted.values()) != games:
            yield f"{at}/{key}: {sum(counted.values())} games by {key[:-1]}, but the event has {games}"
    if not games and (ev.get("players") or ev.get("teams") or hands or ev.get("first_date") or ev.get("last_date")):
        yield f"{at}/games: no valid game, but players, teams, hands or dates are counted"
    columns = _columns(families)
    players, teams = ev.get("players", {}), ev.get("teams", {})
    for key, group in (("players", players), ("teams", teams)):
        for n, t in group.items():
            yield from _tally_problems(t, f"{at}/{key}/{pointer([n])[1:]}", ev, columns)
    least, most = _seats(families)
    p = _sums(list(players.values()))
    if not least * games <= p.get("games", 0) <= most * games:
        yield (f"{at}/players: {p.get('games', 0)} player-games in {games} games "
               f"(a game seats {least} to {most} players)")
    if not least * hands <= p.get("hands", 0) <= most * hands:
        yield (f"{at}/players: {p.get('hands', 0)} player-hands in {hands} hands "
               f"(a hand seats {least} to {most} players)")
    if p.get("bids", 0) != hands:
        yield f"{at}/players: {p.get('bids', 0)} bids in {hands} hands (every hand has one bidder)"
    if p.get("games", 0) - p.get("wins", 0) < games:
        yield (f"{at}/players: {p.get('wins', 0)} wins in {p.get('games', 0)} player-games of {games} games "
               f"(a game has a player who didn't win)")
    if p.get("partner", 0) > (most - 2) * hands:
        yield f"{at}/players: called partner {p['partner']} times in {hands} hands"
    yield from _points_problems(p, hands, lambda kind: f"{at}/players")
    q = _sums(list(teams.values()))
    if q.get("wins", 0) > games or q.get("bids", 0) > hands or any(q.get(k, 0) > hands for k in AWARDS):
        yield f"{at}/teams: more team wins, bids or points than the event's {games} games and {hands} hands"
    if q.get("games", 0) > most // TEAM_SIZES[0] * games:
        yield f"{at}/teams: {q['games']} team-games in {games} games"
    for n, t in teams.items():
        where = f"{at}/teams/{pointer([n])[1:]}"
        members = t.get("members", [])
        if not TEAM_SIZES[0] <= len(members) <= TEAM_SIZES[1] or len(set(members)) != len(members):
            yield f"{where}/members: a fixed team of {len(members)} different players"
        elif " & ".join(sorted(members)) != n:
            yield f"{where}: a team is known by its members, {escape.quote(' & '.join(sorted(members)))}"
        for m in members:
            mine = players.get(m)
            if mine is None:
                yield f"{where}/members: {escape.quote(m)} is no player of the event"
                break
            worse = [k for k in ("games", "wins", "hands") if t.get(k, 0) > mine.get(k, 0)]
            if worse:
                yield (f"{where}/{worse[0]}: {t.get(worse[0], 0)}, more than its member "
                       f"{escape.quote(m)}'s {mine.get(worse[0], 0)}")
                break


def _key(row: dict[str, Any]) -> tuple[str, int]:
    return (row["file"], row["document"])


def _rows_problems(d: dict[str, Any]) -> Iterator[str]:
    """The game rows and the problems: each document once, of a file the
    summary read, no more than the counts, as many as the limit keeps."""
    c, limit, files = d["counts"], d["limit"], set(d["files"])
    for key in ("games", "problems"):
        seen: set[tuple[str, int]] = set()
        for i, row in enumerate(d[key] or []):
            if _key(row) in seen:
                yield f"/{key}/{i}: document {row['document']} of {escape.quote(row['file'])} is listed twice"
            seen.add(_key(row))
            if row["file"] not in files and (key == "games" or row.get("code") != "L113"):
                yield f"/{key}/{i}/file: {escape.quote(row['file'])} is not in /files"
    rows = d["games"]
    if rows is not None:
        valid = sum(1 for r in rows if r.get("valid"))
        if valid > c["valid"] or len(rows) - valid > c["invalid"]:
            yield f"/games: {valid} valid and {len(rows) - valid} invalid rows for {c['valid']} valid " \
                  f"and {c['invalid']} invalid records"
        expected = c["documents"] if limit is None else min(c["documents"], limit)
        if len(rows) != expected:
            yield f"/games: {len(rows)} game rows for {c['documents']} documents (every document has a row)"
    problems = d["problems"]
    skipped = sum(1 for p in problems if p.get("code") == "L113" and not p.get("errors"))
    bad = c["invalid"] + c["unreadable"]
    if len(problems) - skipped > bad:
        yield f"/problems: {len(problems) - skipped} problems for {c['invalid']} invalid records and " \
              f"{c['unreadable']} unreadable files"
    if len(problems) < (bad if limit is None else min(bad, limit)):
        yield f"/problems: {len(problems)} problems listed for {bad} invalid records and unreadable files"
    for key, total in (("errors", c["errors"]), ("warnings", c["warnings"])):
        listed = sum(p.get(key, 0) for p in problems)
        if listed > total:
            yield f"/problems: {listed} {key} in the problems, but /counts/{key} is {total}"
    if len(files) > c["documents"] + c["unreadable"]:
        yield (f"/files: {len(files)} files for {c['documents']} documents and {c['unreadable']} unreadable "
               f"files (every file read gives one at least)")
    if c["errors"] < c["unreadable"]:
        yield f"/counts/errors: {c['errors']} errors for {c['unreadable']} unreadable files (each is one)"


def _consistency(d: dict[str, Any]) -> Iterator[str]:
    c = d["counts"]
    if c["documents"] != c["valid"] + c["invalid"]:
        yield f"/counts/documents: {c['documents']} is not the {c['valid']} valid + {c['invalid']} invalid"
    seen: dict[Any, int] = {}
    for i, ev in enumerate(d["events"]):
        at = f"/events/{i}"
        name = ev.get("event")
        if name in seen:
            yield f"{at}/event: the event {escape.quote(name)} is listed twice (also at /events/{seen[name]})"
        seen.setdefault(name, i)
        first, last = ev.get("first_date"), ev.get("last_date")
        if first is not None and last is not None and first > last:
            yield f"{at}/first_date: {escape.quote(first)} is after the last date {escape.quote(last)}"
        yield from _event_problems(ev, at)
    games = sum(ev.get("games", 0) for ev in d["events"])
    if games != c["valid"]:
        yield f"/events: {games} games in the events, but /counts/valid is {c['valid']}"
    invalid = sum(ev.get("invalid", 0) for ev in d["events"])
    if invalid > c["invalid"]:
        yield f"/events: {invalid} invalid records in the events, but /counts/invalid is {c['invalid']}"
    limit = d["limit"]
    if limit is not None:
        for key in ("games", "problems"):
            if len(d[key] or []) > limit:
                yield f"/{key}: {len(d[key])} rows kept, more than the limit of {limit}"
    if d["games"] is not None and not d["games_kept"]:
        yield "/games: game rows in a summary that keeps none (games_kept is false)"
    yield from _rows_problems(d)


def problem(data: Any) -> str | None:
    """The first problem of a partial summary (``"/pointer: what"``), or None
    when it can be merged: its schema first, then its consistency."""
    found = _schema_problem(data)
    if found is None:
        found = next(_consistency(data), None)
    return None if found is None else escape.clip(found)


def counted_twice(before: set[str], files: Iterable[str]) -> str | None:
    """Why a part can't be merged with parts that counted the files ``before``:
    an input file both count (its documents would be counted twice; the
    summary knows a game by its file and document). None when they are apart."""
    for f in files:
        if f in before:
            return (f"counts the file {escape.quote(f)}, which a part before it counts too "
                    f"(the same input summarized twice: each file must be in one part only)")
    return None
