"""``seat_table``: the table of a record's players and teams, made once per
profile, players and teams of a batch, is the table ``build_table`` makes,
with the same problems, every time (what is kept shares nothing a caller can
change)."""

from __future__ import annotations

from typing import Any

import pytest

from pitchcli.engine.table import build_table, seat_table
from pitchcli.profiles import builtin_profiles, resolve

FOUR = ["Ann", "Ben", "Cal", "Dot"]
SEATINGS: list[tuple[list[Any], Any]] = [
    (FOUR, None),
    (FOUR, {}),
    (FOUR, {"Ann & Cal": ["Ann", "Cal"], "Ben & Dot": ["Ben", "Dot"]}),
    (FOUR, {"Us": ["Ann", "Cal"], "Them": ["Ben", "Dot"], "x-note": "rivals"}),
    (FOUR, {"Us": ["Ann", "Ben"], "Them": ["Cal", "Dot"]}),  # partners side by side
    (FOUR, {"Us": ["Ann", "Cal"], "Them": ["Ben", "Eve"]}),  # a member who is no player
    (FOUR, {"Us": ["Ann", "Cal"]}),  # a team missing
    (FOUR, {"Us": "Ann & Cal"}),  # members not a list: seated anew, not kept
    (FOUR, {"Us": ["Ann", 3]}),
    (["Ann", "Ben", 7, "Dot"], None),
    (FOUR[:3], None),
    (["Ann", "Ben", "Cal", "Dot", "Eve", "Fay"], {"A": ["Ann", "Dot"], "B": ["Ben", "Eve"], "C": ["Cal", "Fay"]}),
    (FOUR, []),
]


@pytest.mark.parametrize("name", sorted(builtin_profiles()))
@pytest.mark.parametrize("players,teams", SEATINGS)
def test_a_seated_table_is_the_built_one_every_time(name: str, players: list[Any], teams: Any) -> None:
    profile = resolve(name)
    try:
        expected = build_table(profile, list(players), teams)
    except TypeError:  # (a name that is no text: the schema refuses the record before)
        return
    seated: dict[Any, Any] = {}
    for _ in range(2):  # (the second from what the first kept)
        table, problems = seat_table(profile, list(players), teams, seated)
        assert (table, problems) == expected
        problems.append("changed by a caller")  # type: ignore[arg-type]


def test_a_profile_with_other_rules_seats_its_own_table() -> None:
    six = resolve("auction-partners", {"players": 6})
    teams = {"A": ["Ann", "Dot"], "B": ["Ben", "Eve"], "C": ["Cal", "Fay"]}
    players = ["Ann", "Ben", "Cal", "Dot", "Eve", "Fay"]
    seated: dict[Any, Any] = {}
    assert seat_table(six, players, teams, seated) == build_table(six, players, teams)
    assert seat_table(resolve("auction-partners"), players, teams, seated) == build_table(
        resolve("auction-partners"), players, teams)
    assert len(seated) == 2
