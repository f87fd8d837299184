"""The auction's, the settlement's and the end's facts of a public ``Hand``
(``stuck``, ``stolen``, ``closing``, ``game_points``, ``settle_rule``,
``other_took``, ``win``, ``not_won``) and a ``Family``'s figures hold what
they say, for every sample and simulated games of every profile."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import pitchcli
from pitchcli import CallKind, EndReason, Family, Game, NotWon, Scoring

ROOT = Path(__file__).resolve().parents[2]


def _games() -> Iterator[Game]:
    for path in sorted((ROOT / "samples").rglob("*.yaml")):
        yield from pitchcli.score(path)
    for variant in (p.name for p in pitchcli.rule_profiles()):
        for seed in (1, 7, 11):
            records = list(pitchcli.simulate(variant, games=2, seed=seed))
            yield from pitchcli.score(text="\n".join(json.dumps(r) for r in records), name=f"{variant}.jsonl")


GAMES = list(_games())


def test_there_are_games_of_both_families() -> None:
    assert {g.family for g in GAMES} == set(Family)


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g.file}#{g.document}")
def test_the_hand_facts_agree_with_the_game(game: Game) -> None:
    wins = [h for h in game.hands if h.win is not None]
    if game.finished:
        assert [h.number for h in wins] == [game.winner_hand]
        win = wins[0].win
        assert win is not None and wins[0].totals is not None
        assert win.side == game.winner and win.total == wins[0].totals[win.side]
        assert win.reason is game.end and win.rule == game.end_rule
        assert win.side in win.at_target
        assert all(wins[0].totals[s] >= game.target for s in win.at_target)
    else:
        assert wins == []
    for h in game.hands:
        if not h.scored:
            continue
        kinds = [c.kind for c in h.calls]
        assert h.stolen == (CallKind.STEAL in kinds)
        assert (CallKind.STUCK in kinds) <= h.stuck  # the dealer stuck, as called or as recorded
        if h.closing is not None:
            assert h.closing.kind is CallKind.CLOSING and h.closing in h.calls
        else:
            assert CallKind.CLOSING not in kinds
        assert h.settle_rule
        assert h.side_took is not None and h.other_took is not None
        assert h.side_took + h.other_took == sum(h.taken.values())
        if game.scoring is Scoring.AWARDS and h.tricks:
            # Each side's game points are the values of the tricks it won (AP-SCORE-4).
            assert set(h.game_points) == set(game.sides)
            won = {s: 0 for s in game.sides}
            for t in h.tricks:
                if t.winner is not None:
                    side = game.side_of(t.winner)
                    assert side is not None
                    won[side] += t.value
            assert dict(h.game_points) == won
        elif game.scoring is Scoring.POINT_CARDS:
            assert h.game_points == {}
            in_tricks = {c for t in h.tricks for c in (p.card for p in t.plays)}
            assert not set(h.out_of_play) & in_tricks
        assert h.totals is not None or not game.finished
        for n in h.not_won:
            assert h.totals is not None and h.totals[n.side] >= game.target
            assert n.reason in NotWon and n.rule
            assert h.win is None or n.side != h.win.side


def test_each_fact_occurs() -> None:
    """The games above have every case (so no check of them is vacuous)."""
    hands = [h for g in GAMES for h in g.hands if h.scored]
    assert any(h.stuck for h in hands) and any(h.closing for h in hands)
    assert any(h.not_won for h in hands) and any(h.out_of_play for h in hands)
    assert any(h.other_took for h in hands)


def test_a_game_won_on_a_pitch_names_the_pitcher() -> None:
    pitched = [h for g in GAMES for h in g.hands
               if h.win is not None and h.win.reason in (EndReason.PITCHER_MADE, EndReason.PITCHER_SET)]
    assert pitched, "no game of the samples was won by the pitcher's side"
    for h in pitched:
        assert h.win is not None and h.win.side in h.bidding_side


def test_the_dealer_words_follow_the_family() -> None:
    for g in GAMES:
        assert g.dealer_may_pass is (g.family is Family.TEN_POINT)
        assert g.rule("stuck") in ("AP-BID-4", "TP-BID-1")
    with pytest.raises(KeyError):
        GAMES[0].rule("no such purpose")


def test_a_family_s_figures() -> None:
    assert Family.AUCTION.columns == ("high", "low", "jack", "game")
    assert Family.AUCTION.hand_points == 4
    assert Family.TEN_POINT.columns == ("taken",) and Family.TEN_POINT.hand_points == 10
    for p in pitchcli.rule_profiles():
        low, high = Family(p.family).seats
        assert all(low <= n <= high for n in p.players), p.name
    # No hand of a game gives a side more than its family's hand points.
    for g in GAMES:
        for h in g.hands:
            assert all(v <= g.family.hand_points for v in h.taken.values())
