"""Rule profiles: named sets of rule options (PROFILES.md), loaded from data.

The built-in profiles are written in ``data/profiles.toml`` (with the rule
each value comes from) and read from ``data/profiles.json``, which
``tools/gen_docs.py`` makes from it (a test fails while it is stale): parsing
TOML at every start-up cost ``pitch validate ONE_FILE`` about 3.5 ms, tomllib's
import and the parse, where ``json``, imported anyway, reads it in 0.05 ms
(issue 22). A record picks one with ``variant:`` and may override options with
``rules:``. A profile whose numbers
can't work is refused here, when it is loaded, with a message naming the
numbers. Nothing in the package branches on a profile's name.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from functools import cache
from typing import Any

from pitchcli.cards import JOKER_DECK, STANDARD_DECK, Card
from pitchcli.packaged import data_text
from pitchcli.suggest import closest

FAMILIES = {"auction": STANDARD_DECK, "ten-point": JOKER_DECK}  # CARD-1, CARD-2 / TP-DECK-1
MODES = {"auction": ("play-all",), "ten-point": ("refill", "cut-down")}
SIDES = ("solo", "teams", "called")
PROFILES_JSON = "profiles.json"
"""The data file the built-in profiles are read from (made from ``profiles.toml``)."""


class ProfileError(ValueError):
    """A profile name that doesn't exist or options that can't work together."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


@dataclass(frozen=True, slots=True)
class Profile:
    """The rule options of PROFILES.md, resolved (built-in + overrides)."""

    name: str
    family: str
    players: tuple[int, ...]
    deal: int
    hand: int
    mode: str
    kitty: int
    dead: int
    sides: str
    team_size: int
    called_cards: int
    min_bid: int
    max_bid: int
    stuck_bid: int
    steal: bool
    low: str
    target: int
    win_on_set: bool

    @property
    def deck(self) -> tuple[Card, ...]:
        """The cards of this family's deck (52, or 54 with the jokers)."""
        return FAMILIES[self.family]

    @property
    def has_teams(self) -> bool:
        """True when the players sit in fixed teams that score together
        (``sides = "teams"``: AP-TABLE-2, TP4-1)."""
        return self.sides == "teams"

    @property
    def calls_partner(self) -> bool:
        """True when the bidder calls his partner(s) for the hand by naming
        trump card(s) (``sides = "called"``: TP5-3)."""
        return self.sides == "called"

    @property
    def discards(self) -> bool:
        """True when players discard after the auction (every mode but ``play-all``)."""
        return self.mode != "play-all"

    @property
    def draws(self) -> bool:
        """True when the dealer deals cards after the discards (``refill``, TP4-4)."""
        return self.mode == "refill"

    def teams_count(self, seats: int) -> int:
        """Number of fixed teams at a table of ``seats`` (AP-TABLE-2, TP4-1)."""
        return seats // self.team_size

    def team_of(self, seat: int, seats: int) -> int:
        """Index of the fixed team of ``seat``: partners sit ``seats / team_size``
        seats apart, so the team is the seat modulo the number of teams."""
        return seat % max(1, self.teams_count(seats))  # a table too small for one team: see table_problem

    def table_problem(self, seats: int) -> str | None:
        """Why this profile can't be played by ``seats`` players, or ``None``."""
        if seats not in self.players:
            allowed = ", ".join(map(str, self.players))
            return f"profile '{self.name}' is for {allowed} players, not {seats}"
        return _count_problem(self, seats)


_OPTION_TYPES: dict[str, type] = {
    f.name: (bool if f.type == "bool" else int if f.type == "int" else str)
    for f in fields(Profile)
    if f.name not in ("name", "players")
}
OPTIONS: tuple[str, ...] = ("players", *_OPTION_TYPES)


def _count_problem(p: Profile, n: int) -> str | None:
    """The card arithmetic of PROFILES.md for ``n`` players."""
    deck = len(p.deck)
    dealt = n * p.deal
    if p.mode == "play-all" and dealt > deck:
        return f"{n} players x {p.deal} cards = {dealt} cards, more than the {deck}-card deck"
    if p.mode == "refill":
        need = dealt + p.dead + p.hand * (n - 1)
        if need > deck:
            return (
                f"refill needs {n} x {p.deal} dealt + {p.dead} dead + {p.hand} x {n - 1} "
                f"refills = {need} cards, more than the {deck}-card deck"
            )
    if p.mode == "cut-down" and dealt + p.kitty != deck:
        return (
            f"cut-down needs {n} x {p.deal} dealt + {p.kitty} kitty = {deck} cards, "
            f"but that makes {dealt + p.kitty}"
        )
    if p.has_teams and (n % p.team_size or n // p.team_size < 2):
        return f"{n} players can't form two or more teams of {p.team_size}"
    if p.calls_partner and p.called_cards + 2 > n:
        return f"{n} players are too few to call {p.called_cards} partner card(s)"
    return None


def check_profile(p: Profile) -> None:
    """Refuse a profile whose options can't work together (raise ``ProfileError``)."""
    if p.family not in FAMILIES:
        raise ProfileError(f"family must be one of {', '.join(FAMILIES)}, not {p.family!r}", "family")
    if p.mode not in MODES[p.family]:
        modes = " or ".join(MODES[p.family])
        raise ProfileError(f"mode {p.mode!r} doesn't fit family {p.family!r}: use {modes}", "mode")
    if p.sides not in SIDES:
        raise ProfileError(f"sides must be one of {', '.join(SIDES)}, not {p.sides!r}", "sides")
    if p.low not in ("captured", "played"):
        raise ProfileError(f"low must be 'captured' or 'played', not {p.low!r}", "low")
    if not p.players:
        raise ProfileError("players must name at least one number of players, from 2 to 8", "players")
    wrong = [n for n in p.players if not 2 <= n <= 8]
    if wrong:
        # The numbers at fault, as the user wrote them: "not 9", not a Python list.
        raise ProfileError(f"players must be between 2 and 8, not {' or '.join(map(str, wrong))}", "players")
    if p.hand < 1 or p.deal < p.hand:
        raise ProfileError(f"deal ({p.deal}) must be at least hand ({p.hand}), hand at least 1", "deal")
    if p.mode == "play-all" and p.deal != p.hand:
        raise ProfileError(f"play-all plays every dealt card: deal ({p.deal}) must equal hand ({p.hand})", "deal")
    if p.kitty < 0 or p.dead < 0 or (p.mode != "cut-down" and p.kitty):
        raise ProfileError(f"kitty ({p.kitty}) is only for cut-down; kitty and dead can't be negative", "kitty")
    if p.mode != "refill" and p.dead:
        raise ProfileError(f"dead cards ({p.dead}) are only for refill profiles", "dead")
    if not 1 <= p.min_bid <= p.stuck_bid <= p.max_bid:
        raise ProfileError(
            f"bids must satisfy 1 <= min_bid ({p.min_bid}) <= stuck_bid ({p.stuck_bid}) "
            f"<= max_bid ({p.max_bid})",
            "min_bid",
        )
    if p.target < 1:
        raise ProfileError(f"target must be positive, not {p.target}", "target")
    if p.team_size < 1 or p.has_teams != (p.team_size > 1):
        raise ProfileError(f"team_size {p.team_size} doesn't fit sides {p.sides!r}", "team_size")
    if p.calls_partner != (p.called_cards > 0):
        raise ProfileError(f"called_cards {p.called_cards} doesn't fit sides {p.sides!r}", "called_cards")
    for n in p.players:
        problem = _count_problem(p, n)
        if problem:
            raise ProfileError(f"profile '{p.name}' can't be dealt: {problem}", "players")


def _coerce(option: str, value: Any) -> Any:
    if option == "players":
        if isinstance(value, int) and not isinstance(value, bool):
            return (value,)
        if isinstance(value, list) and value and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            return tuple(value)
        raise ProfileError(f"players must be a number or a list of numbers, not {value!r}", option)
    kind = _OPTION_TYPES[option]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ProfileError(f"option {option} must be a whole number, not {value!r}", option)
    if not isinstance(value, kind):
        raise ProfileError(f"option {option} must be {kind.__name__}, not {value!r}", option)
    return value


@cache
def builtin_profiles() -> dict[str, Profile]:
    """All built-in profiles, checked, by name."""
    out: dict[str, Profile] = {}
    for name, options in json.loads(data_text(PROFILES_JSON))["profiles"].items():
        values = {k: _coerce(k, v) for k, v in options.items()}
        profile = Profile(name=name, **values)
        check_profile(profile)
        out[name] = profile
    return out


def resolve(name: str, overrides: Mapping[str, Any] | None = None) -> Profile:
    """The built-in profile ``name`` with ``overrides`` (a record's ``rules:``) applied.

    Raises ``ProfileError`` for an unknown profile or option, a value of the
    wrong type, or options that can't work together.
    """
    profiles = builtin_profiles()
    if name not in profiles:
        match = closest(name, profiles)
        hint = f"; did you mean {match!r}?" if match else ""
        raise ProfileError(f"unknown profile {name!r}{hint} (built-in profiles: {', '.join(profiles)})")
    profile = profiles[name]
    if not overrides:
        return profile
    changes = {}
    for option, value in overrides.items():
        if option.startswith("x-"):
            continue
        if option not in OPTIONS:
            raise ProfileError(f"unknown rule option {option!r}; options: {', '.join(OPTIONS)}", option)
        changes[option] = _coerce(option, value)
    profile = replace(profile, **changes)
    check_profile(profile)
    return profile
