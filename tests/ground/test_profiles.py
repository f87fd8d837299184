"""Rule profiles (PROFILES.md): built-ins load, `rules:` overrides apply, a
profile that can't work is refused with its numbers, and nothing in the code
branches on a profile's name."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from support.games import base_game, clean

import pitchcli
import pitchcli.profiles as profiles_module
from pitchcli.pipeline.feed import analyze
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import OPTIONS, Profile, ProfileError, builtin_profiles, check_profile, resolve

PACKAGE = Path(pitchcli.__file__).parent

# PROFILES.md, "Built-in profiles": players, deal, hand, mode, kitty, dead, sides, team_size, called_cards.
TABLE: dict[str, tuple[Any, ...]] = {
    "auction": ((2, 3, 4, 5, 6, 7), 6, 6, "play-all", 0, 0, "solo", 1, 0),
    "auction-partners": ((4, 6), 6, 6, "play-all", 0, 0, "teams", 2, 0),
    "ten-point-2": ((2,), 9, 6, "refill", 0, 18, "solo", 1, 0),
    "ten-point-3": ((3,), 9, 6, "refill", 0, 9, "solo", 1, 0),
    "ten-point": ((4,), 9, 6, "refill", 0, 0, "teams", 2, 0),
    "ten-point-5": ((5,), 10, 6, "cut-down", 4, 0, "called", 1, 1),
    "ten-point-6": ((6,), 8, 6, "cut-down", 6, 0, "teams", 2, 0),
    "ten-point-7": ((7,), 7, 6, "cut-down", 5, 0, "called", 1, 2),
    "ten-point-8": ((8,), 6, 6, "cut-down", 6, 0, "teams", 4, 0),
}


def test_every_builtin_profile_loads_as_documented() -> None:
    built = builtin_profiles()
    assert set(built) == set(TABLE)
    for name, row in TABLE.items():
        p = resolve(name)
        assert p is built[name] and p.name == name
        got = (p.players, p.deal, p.hand, p.mode, p.kitty, p.dead, p.sides, p.team_size, p.called_cards)
        assert got == row, name
        check_profile(p)  # does not raise


@pytest.mark.parametrize("name", ["auction", "auction-partners"])
def test_auction_profile_defaults(name: str) -> None:
    p = resolve(name)
    assert (p.family, len(p.deck), p.min_bid, p.max_bid, p.stuck_bid, p.steal, p.low, p.target,
            p.win_on_set) == ("auction", 52, 1, 4, 2, True, "captured", 7, False)


def test_ten_point_profile_defaults() -> None:
    for name in TABLE:
        if name.startswith("ten-point"):
            p = resolve(name)
            assert (p.family, len(p.deck), p.min_bid, p.max_bid, p.stuck_bid, p.steal, p.target) == (
                "ten-point", 54, 5, 10, 5, False, 42)


def test_every_builtin_can_be_played_at_each_of_its_counts() -> None:
    for p in builtin_profiles().values():
        for n in p.players:
            assert p.table_problem(n) is None, (p.name, n)


@pytest.mark.parametrize(("overrides", "expected"), [
    ({"target": 11}, {"target": 11}),
    ({"target": 21, "win_on_set": True}, {"target": 21, "win_on_set": True}),
    ({"low": "played"}, {"low": "played"}),
    ({"steal": False, "stuck_bid": 3}, {"steal": False, "stuck_bid": 3}),
    ({"players": 5}, {"players": (5,)}),
    ({"players": [3, 8]}, {"players": (3, 8)}),
    ({"x-house": "anything", "target": 15}, {"target": 15}),
])
def test_overrides_apply(overrides: dict, expected: dict) -> None:
    p = resolve("auction", overrides)
    base = resolve("auction")
    for k, v in expected.items():
        assert getattr(p, k) == v
    for f in dataclasses.fields(Profile):
        if f.name not in expected:
            assert getattr(p, f.name) == getattr(base, f.name), f.name
    assert resolve("auction") == base  # the built-in is untouched


def test_overrides_from_a_record_apply() -> None:
    a = clean(base_game(rules={"target": 11, "low": "played"}))
    assert a.profile is not None and (a.profile.target, a.profile.low) == (11, "played")
    assert a.hands[0].awards["low"].unit == 1  # Ben played 2S: Low is his with `low: played`


def test_no_overrides_is_the_builtin() -> None:
    assert resolve("auction", {}) is resolve("auction") is resolve("auction", None)


@pytest.mark.parametrize(("name", "overrides", "words"), [
    # more cards than the deck
    ("auction", {"players": [7], "deal": 8, "hand": 8}, ["7 players x 8 cards = 56", "52-card deck"]),
    ("auction", {"deal": 9, "hand": 9}, ["6 players x 9 cards = 54", "52-card deck"]),
    ("ten-point", {"players": 5}, ["5 x 9 dealt", "69 cards", "54-card deck"]),
    ("ten-point-5", {"kitty": 5}, ["5 x 10 dealt + 5 kitty", "55"]),
    # a team layout that doesn't divide the table
    ("auction-partners", {"players": 5}, ["5 players", "teams of 2"]),
    ("auction-partners", {"players": [6], "team_size": 4}, ["6 players", "teams of 4"]),
    ("auction-partners", {"players": [2]}, ["2 players", "two or more teams of 2"]),
    # counts out of range
    ("auction", {"players": 9}, ["between 2 and 8", "9"]),
    ("auction", {"players": [1, 4]}, ["between 2 and 8", "1"]),
    # options that don't fit together
    ("auction", {"deal": 7}, ["deal (7)", "hand (6)"]),
    ("auction", {"min_bid": 3}, ["min_bid (3)", "stuck_bid (2)"]),
    ("auction", {"max_bid": 1}, ["stuck_bid (2)", "max_bid (1)"]),
    ("auction", {"target": 0}, ["positive", "0"]),
    ("auction", {"mode": "refill"}, ["refill", "auction", "play-all"]),
    ("auction", {"family": "bridge"}, ["bridge", "auction, ten-point"]),
    ("auction", {"low": "kept"}, ["'kept'", "captured", "played"]),
    ("auction", {"sides": "called"}, ["called_cards 0", "called"]),
    ("auction", {"kitty": 2}, ["kitty (2)", "cut-down"]),
    # unknown option, wrong type
    ("auction", {"traget": 11}, ["unknown rule option 'traget'", "target"]),
    ("auction", {"target": "11"}, ["target", "whole number", "'11'"]),
    ("auction", {"target": 7.5}, ["target", "whole number", "7.5"]),
    ("auction", {"target": True}, ["target", "whole number", "True"]),
    ("auction", {"win_on_set": "yes"}, ["win_on_set", "bool", "'yes'"]),
    ("auction", {"steal": 1}, ["steal", "bool", "1"]),
    ("auction", {"players": "four"}, ["players", "'four'"]),
    ("auction", {"players": []}, ["players", "[]"]),
])
def test_a_profile_that_cannot_work_is_refused_with_its_numbers(name: str, overrides: dict,
                                                                 words: list[str]) -> None:
    with pytest.raises(ProfileError) as e:
        resolve(name, overrides)
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_unknown_profile_lists_the_builtins() -> None:
    with pytest.raises(ProfileError) as e:
        resolve("auction-partner")
    assert "'auction-partner'" in str(e.value) and "auction-partners" in str(e.value)
    assert e.value.option is None


def test_profile_errors_in_a_record_are_located() -> None:
    a = analyze(base_game(rules={"traget": 11}))
    assert [(v.code, v.at) for v in a.violations] == [("P302", "/rules/traget")]
    assert a.hands == []  # nothing is checked against a profile that can't be built
    a = analyze(base_game(rules={"players": 9}))
    assert [(v.code, v.at) for v in a.violations] == [("P302", "/rules/players")]
    rec = base_game()
    rec["variant"] = "setback"
    a = analyze(rec)
    assert [(v.code, v.at) for v in a.violations] == [("P301", "/variant")]
    assert "'setback'" in a.violations[0].message


def test_option_names_are_the_documented_ones() -> None:
    doc = (Path(__file__).parents[2] / "pitchcli" / "data" / "profiles.toml").read_text("utf-8")
    for options in tomllib.loads(doc).values():
        assert set(options) == set(OPTIONS)


# --- Profiles are data: no branch on a name -------------------------------------


def _code_without_comments_and_docstrings(text: str) -> str:
    text = re.sub(r'"""[\s\S]*?"""', "", text)
    return "\n".join(line.split("#", 1)[0] for line in text.splitlines())


def test_no_code_names_a_builtin_profile() -> None:
    # `auction` and `ten-point` are also the names of the two families (an
    # option every profile has), so those two may appear where the family is
    # meant (the renamed-copy test below shows that no branch is on the
    # profile called `auction`); every other name is only in data/profiles.toml.
    family_names = {"auction", "ten-point"}
    names = set(builtin_profiles()) - family_names
    offenders = []
    # The modules that apply rules (the CLI may name profiles in its help text).
    rule_code = [*PACKAGE.glob("engine/*.py"), *(PACKAGE / m for m in (
        "pipeline/feed.py", "profiles.py", "cards.py", "pipeline/simulate.py", "diagnostics.py"))]
    assert len(rule_code) > 8
    for path in rule_code:
        code = _code_without_comments_and_docstrings(path.read_text("utf-8"))
        offenders += [(path.name, n) for n in names if re.search(rf"['\"]{re.escape(n)}['\"]", code)]
    assert offenders == []


def test_a_renamed_copy_of_a_profile_behaves_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    # The engine reads options, never names: the partnership game under another
    # name gives the very same analysis.
    real = builtin_profiles()
    copies = {**real, "club-partners": dataclasses.replace(real["auction-partners"], name="club-partners"),
              "club": dataclasses.replace(real["auction"], name="club")}
    for variant, copy_name, n in (("auction-partners", "club-partners", 6), ("auction", "club", 3)):
        for seed in range(5):
            rec = simulate_game(variant, players=n, seed=seed)
            want = analyze(rec)
            with monkeypatch.context() as m:
                m.setattr(profiles_module, "builtin_profiles", lambda copies=copies: copies)
                renamed = {**rec, "variant": copy_name}
                got = analyze(renamed)
            assert got.violations == want.violations == []
            assert got.totals == want.totals and got.winner == want.winner
            assert [h.delta for h in got.hands] == [h.delta for h in want.hands]


@pytest.mark.parametrize(("name", "teams", "called"), [
    ("auction", False, False), ("auction-partners", True, False), ("ten-point-3", False, False),
    ("ten-point", True, False), ("ten-point-5", False, True), ("ten-point-6", True, False),
    ("ten-point-7", False, True),
])
def test_sides_are_asked_as_properties(name: str, teams: bool, called: bool) -> None:
    """Views ask ``has_teams`` / ``calls_partner``, never compare ``sides``
    (tests/test_views_read_results.py): the answers follow PROFILES.md's sides."""
    p = resolve(name)
    assert (p.has_teams, p.calls_partner) == (teams, called)
