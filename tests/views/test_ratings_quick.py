"""``pitch ratings`` rates each game's result alone (issue 22): the quick pass
may decide a clean game, and no game is replayed or kept hand by hand.

The ratings must be exactly those rated from the report's full game views, as
before: ``game_result`` gives the same units, teams, totals and winner as
``game_view`` for every valid simulated game of every profile, and the
command's output in every format is byte for byte what ``rate_games`` over the
full views writes.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pitchcli.cli import main
from pitchcli.pipeline.check import check_paths
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import builtin_profiles
from pitchcli.render.formats import RATINGS
from pitchcli.views.game import game_result, game_view, usable
from pitchcli.views.ratings import rate_games

PROFILES = sorted(builtin_profiles())


def _games() -> list[tuple[str, dict[str, Any]]]:
    """Games of every profile over four nights (some unfinished, one broken),
    and 70 four-player Auction games (the quick pass decides them)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for k, name in enumerate(PROFILES):
        for seed in range(3):
            rec = simulate_game(name, seed=100 * k + seed)
            rec.update(event="League", date=f"2026-11-{10 + seed:02d}", round=str(seed + 1))
            if seed == 2 and len(rec["hands"]) > 1:  # unfinished
                del rec["hands"][1:]
                rec["result"] = {"winner": None, "scores": dict(rec["hands"][0]["totals"])}
            out.append((f"{name}-{seed}.json", rec))
    for seed in range(70):
        rec = simulate_game("auction", seed=9000 + seed)
        rec.update(event="Club", date=f"2026-11-{20 + seed % 5:02d}")
        out.append((f"club-{seed:03d}.json", rec))
    bad = simulate_game("auction", seed=77)
    bad["hands"][0]["totals"] = {p: 50 for p in bad["players"]}
    out.append(("broken.json", bad))
    return out


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("league")
    for name, rec in _games():
        (root / name).write_text(json.dumps(rec))
    return root


def test_a_games_result_is_its_views(league: Path) -> None:
    """``game_result`` reads what ``game_view`` shows of the game's end, for
    every profile (teams, called partners, solo), finished or not."""
    seen = 0
    for c in check_paths([str(league)], max_errors=None):
        if not usable(c):
            continue
        v, r = game_view(c), game_result(c)
        assert (r.file, r.document, r.event, r.date, r.round, r.units, r.teams, r.totals, r.winner) == (
            v.file, v.document, v.event, v.date, v.round, v.units, v.teams, v.totals, v.winner), c.file
        seen += 1
    assert seen == len(_games()) - 1


@pytest.mark.parametrize("fmt", sorted(RATINGS))
@pytest.mark.parametrize("head_to_head", [False, True])
def test_ratings_are_those_of_the_full_views(league: Path, fmt: str, head_to_head: bool) -> None:
    """The command (quick pass, results only) writes byte for byte what the
    ratings of the full game views write."""
    checked = list(check_paths([str(league)]))
    expected = rate_games([game_view(c) for c in checked if usable(c)])
    expected.invalid = [c for c in checked if not usable(c)]
    assert expected.rated > 30 and expected.unfinished > 0
    out = io.StringIO()
    RATINGS[fmt](expected, out, head_to_head)
    args = ["ratings", "--format", fmt, *(["--head-to-head"] if head_to_head else []), str(league)]
    got = CliRunner().invoke(main, args)
    assert got.exit_code == 1  # the broken game
    assert got.stdout == out.getvalue()
