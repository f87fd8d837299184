"""`pitch simulate`: reproducible, legal, and exercising every bidding and play rule."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from click.testing import CliRunner

from pitchcli.cli import main
from pitchcli.engine.family import family_for
from pitchcli.pipeline.feed import analyze
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import builtin_profiles


def _kinds(variant: str, games: int) -> Counter[str]:
    seen: Counter[str] = Counter()
    for seed in range(games):
        rec = simulate_game(variant, seed=seed)
        a = analyze(rec)
        assert a.violations == [], (variant, seed, a.violations[:1])
        fam = family_for(a.profile.family, a.profile.mode)  # type: ignore[union-attr]
        for r in a.hands:
            assert r is not None
            seen.update(c.kind for c in r.calls)
            for t in r.tricks:
                view = fam.view(r.trump)  # type: ignore[arg-type]
                led = view.suit_of[t.plays[0].card]
                for p in t.plays[1:]:
                    # Trumping while able to follow: a trump on an off-suit lead
                    # by a player who plays a card of the suit led later.
                    if view.strength[p.card] and led != view.trump and any(
                            q.seat == p.seat and view.suit_of[q.card] == led
                            for u in r.tricks[t.number:] for q in u.plays):
                        seen["trump-while-able-to-follow"] += 1
    return seen


def test_auction_simulation_exercises_every_bidding_rule() -> None:
    seen = _kinds("auction", 80)
    # AP-BID-3 pitched 4, AP-BID-4 stuck dealer, AP-BID-5 steal, AP-PLAY-2.
    for kind in ("max", "stuck", "steal", "pass", "bid", "trump-while-able-to-follow"):
        assert seen[kind] > 0, (kind, seen)
    assert seen["implied"] > 0  # the passes after a 4 are sometimes left out


def test_ten_point_simulation_exercises_the_stuck_dealer_and_the_closing_ten() -> None:
    seen = _kinds("ten-point", 60)
    for kind in ("max", "stuck", "pass", "bid", "trump-while-able-to-follow"):
        assert seen[kind] > 0, (kind, seen)
    assert seen["steal"] == 0  # TP-BID-1: no steal


@pytest.mark.parametrize("variant", sorted(builtin_profiles()))
def test_the_same_seed_gives_the_same_games(variant: str) -> None:
    args = ["simulate", "--variant", variant, "--games", "3", "--seed", "42", "--format", "jsonl"]
    first = CliRunner().invoke(main, args)
    second = CliRunner().invoke(main, args)
    assert first.exit_code == 0 and first.output == second.output
    games = [json.loads(line) for line in first.output.splitlines()]
    assert len(games) == 3 and all(g["variant"] == variant for g in games)
    other = CliRunner().invoke(main, [*args[:-3], "43", "--format", "jsonl"])
    assert other.output != first.output


def test_every_player_count_of_auction_simulates() -> None:
    for n in range(2, 8):
        r = CliRunner().invoke(main, ["simulate", "--variant", "auction", "--players", str(n),
                                      "--seed", "1", "--format", "json"])
        assert r.exit_code == 0
        assert len(json.loads(r.output)["players"]) == n


def test_a_player_count_the_profile_refuses_is_a_usage_error() -> None:
    r = CliRunner().invoke(main, ["simulate", "--variant", "ten-point", "--players", "5"])
    assert r.exit_code == 2 and "4 players" in r.output
