"""The report's layout (``views.site``): a player's games, read back as the
``PlayerGame`` rows a player's page lists, whatever way they are asked for."""

from __future__ import annotations

from pathlib import Path

import pytest

from pitchcli.pipeline.check import check_paths
from pitchcli.render.site import collect, plan
from pitchcli.views.site import PlayerGame

TOURNAMENT = Path(__file__).resolve().parents[2] / "samples" / "tournament"


def test_a_players_games_read_as_their_rows() -> None:
    lay = plan(collect(check_paths([str(TOURNAMENT)]))).layout
    assert lay.players
    seen = 0
    for name, page in lay.players.items():
        rows = list(page.games)
        assert len(rows) == len(page.games) > 0
        for row in rows:
            assert isinstance(row, PlayerGame) and row.player == name
            v = row.game.view
            assert name in v.members(row.unit) and row.unit in v.units  # the player's own side
            assert row.total == (None if v.totals is None else v.totals[row.unit])
        assert page.games[0] == rows[0] and page.games[-1] == rows[-1]
        assert page.games[1:3] == rows[1:3] and page.games[::-1] == rows[::-1]
        assert page.part(1) == rows[:200]
        with pytest.raises(IndexError):
            page.games[-len(rows) - 1]
        with pytest.raises(IndexError):
            page.games[len(rows)]
        # every game of the layout in which the player sat, once, in the order of the layout
        games = [g for g in lay.games if name in g.view.players]
        assert [r.game for r in rows] == games
        seen += len(rows)
    assert seen == sum(len(g.view.players) for g in lay.games)


def test_entries_share_their_names() -> None:
    """Two games of the same players, read from two files: their entries hold
    one string of each name, date and event (a league's thousands of games
    would hold a copy each); a name that is a subclass of str (a script's own
    view) is kept as it is."""
    from dataclasses import replace

    from pitchcli.views.game import game_view, usable
    from pitchcli.views.site import brief

    one, two = ([game_view(c) for c in check_paths([str(TOURNAMENT)]) if usable(c)] for _ in range(2))
    a, b = brief(one[0]).view, brief(two[0]).view
    assert a == b and a.players[0] is b.players[0] and a.event is b.event and a.date is b.date

    class Name(str):
        pass

    c = brief(replace(one[0], players=[Name(p) for p in one[0].players])).view
    assert all(type(p) is Name for p in c.players) and c.players == one[0].players
