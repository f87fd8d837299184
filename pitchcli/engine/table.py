"""The table: seats, and the scoring units (players or fixed teams)."""

from __future__ import annotations

from typing import Any, NamedTuple

from pitchcli.engine.family import family_for
from pitchcli.engine.violations import Violation
from pitchcli.profiles import Profile
from pitchcli.suggest import did_you_mean


class Table(NamedTuple):
    """Seats in clockwise order (AP-TABLE-3) and who scores together.

    A *unit* is what a score belongs to: a player (solo and called-partner
    play) or a fixed team (AP-TABLE-2, TP4-1). ``unit_of[seat]`` is the seat's
    unit; ``unit_names[unit]`` the name claims use for it.
    """

    profile: Profile
    players: tuple[str, ...]
    unit_names: tuple[str, ...]
    unit_of: tuple[int, ...]

    @property
    def seats(self) -> int:
        """Number of seats."""
        return len(self.players)

    def left_of(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places clockwise (to the left) of ``seat`` (AP-TABLE-3)."""
        return (seat + steps) % len(self.players)

    def unit_members(self, unit: int) -> list[int]:
        """The seats of a unit."""
        return [s for s, u in enumerate(self.unit_of) if u == unit]

    def unit_index(self, name: str) -> int | None:
        """The unit called ``name``, or ``None``."""
        try:
            return self.unit_names.index(name)
        except ValueError:
            return None


def build_table(
    profile: Profile, players: list[str], teams: dict[str, list[str]] | None, at: str = ""
) -> tuple[Table, list[Violation]]:
    """Seat the players and form the units, checking the profile's table rules.

    With fixed teams, partners sit ``players / team_size`` seats apart
    (AP-TABLE-2, TP4-1): the team of a seat is the seat modulo the number of
    teams. A wrong layout is a violation; the table is still built with the
    layout the profile requires, so the rest of the game can be checked.
    """
    fam = family_for(profile.family, profile.mode)
    violations: list[Violation] = []
    n = len(players)
    least, most = fam.seats
    outside = [c for c in profile.players if not least <= c <= most]
    if outside:
        # AP-TABLE-1: a `players` override outside the family's range (only an
        # override can be: every built-in profile is inside it).
        rule = fam.rule("table")
        violations.append(Violation(
            "P302", rule or None, f"rule option players: {', '.join(map(str, outside))} "
            f"{'is' if len(outside) == 1 else 'are'} outside {least} to {most}, the player counts "
            "this family is played with", at + "/rules/players",
            details={"outside": outside, "least": least, "most": most}))
    problem = profile.table_problem(n)
    if problem:
        # RULES.md: a player count the profile does not take is AP-TABLE-1 or
        # AP-TABLE-2 in Auction Pitch, the profile's own check in ten-point.
        rule = fam.rule("table_teams" if profile.sides == "teams" else "table") or None
        violations.append(Violation("P303", rule, problem,
                                    at + "/players"))
    if profile.sides != "teams" or problem:  # no team layout to judge at an unplayable table
        if teams and not problem:
            violations.append(Violation(
                "P303", fam.rule("teams"),
                f"profile '{profile.name}' has no fixed teams, so 'teams' is not allowed",
                at + "/teams"))
        return Table(profile, tuple(players), tuple(players), tuple(range(n))), violations
    count = profile.teams_count(n) or 1
    # A team the record does not name is named by its members (Ann & Cal).
    names = [" & ".join(p for s, p in enumerate(players) if profile.team_of(s, n) == i) for i in range(count)]
    if not teams:
        violations.append(Violation(
            "P303", fam.rule("teams"),
            f"profile '{profile.name}' plays in fixed teams: list them under 'teams'",
            at))
        return Table(profile, tuple(players), tuple(names), tuple(profile.team_of(s, n) for s in range(n))), violations
    seat_of = {p: i for i, p in enumerate(players)}
    found: dict[int, str] = {}
    for name, members in teams.items():
        if name.startswith("x-"):
            continue  # an extension, not a team (FORMAT.md principle 5)
        seats = sorted(seat_of[m] for m in members if m in seat_of)
        for m in members:
            if m not in seat_of:
                violations.append(Violation("R413", fam.rule("teams"),
                                            f"team {name!r} lists {m!r}, who is not a player"
                                            f"{did_you_mean(m, players)}",
                                            f"{at}/teams/{name}"))
        expected = {profile.team_of(s, n) for s in seats}
        if len(seats) != profile.team_size or len(expected) != 1:
            gap = n // profile.team_size
            violations.append(Violation(
                "P303", fam.rule("teams"),
                f"team {name!r} ({', '.join(members)}) is not {profile.team_size} players "
                f"sitting {gap} seats apart", f"{at}/teams/{name}"))
        elif profile.team_of(seats[0], n) not in found:
            found[profile.team_of(seats[0], n)] = name
    for i in range(count):
        if i in found:
            names[i] = found[i]
    if len(found) != count and not violations:
        violations.append(Violation("P303", fam.rule("teams"),
                                    f"expected {count} teams of {profile.team_size}",
                                    at + "/teams"))
    return Table(profile, tuple(players), tuple(names), tuple(profile.team_of(s, n) for s in range(n))), violations


Seated = dict[tuple[Any, ...], tuple[Table, tuple[Violation, ...]]]
"""Tables already seated, by profile, players and teams (``seat_table``)."""


def seat_table(profile: Profile, players: list[Any], teams: Any,
               seated: Seated | None) -> tuple[Table, list[Violation]]:
    """``build_table`` for a record's ``players`` and ``teams``, made once for
    each profile, players and teams in ``seated`` (the caller's: a batch of a
    tournament's games seats the same few tables game after game, and seating
    one cost a ten-point game about a twentieth of its quick pass; ``None``:
    seated anew). Only names and lists of names are kept (the table and its
    problems are frozen; the caller gets its own list); anything else is
    seated anew."""
    if seated is None or (names := _seating(players, teams)) is None:
        return build_table(profile, players, teams)
    key = (profile, *names)
    found = seated.get(key)
    if found is None:
        table, problems = build_table(profile, players, teams)
        found = seated[key] = (table, tuple(problems))
    return found[0], list(found[1])


def _seating(players: list[Any], teams: Any) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]] | None:
    """``players`` and ``teams`` as a key of ``seat_table`` (no teams: ``()``),
    or None when they hold anything but names (then they are not kept)."""
    if not all(type(p) is str for p in players):
        return None
    if not teams:
        return tuple(players), ()
    if type(teams) is not dict:
        return None
    pairs = []
    for name, members in teams.items():
        if type(name) is not str or type(members) is not list or not all(type(m) is str for m in members):
            return None
        pairs.append((name, tuple(members)))
    return tuple(players), tuple(pairs)
