"""The quick pass on tricks written with their leaders (``{lead: NAME, cards: [...]}``).

A recorded leader is a claim (C508) the full replay checks against the leader
the play gives (AP-PLAY-1 and AP-PLAY-4 in Auction Pitch, TP-BID-2 and TP4-6 in
ten-point). ``pitch fmt --fill`` writes one on every trick, so a league's filled
archive is all of this form. The quick pass reads each trick's cards and holds
each leader written to the one its arrays give (``QuickBatch.leads_hold``): a
clean record is decided with the full replay's result, a wrong leader (or one
it does not read) leaves the game to the full replay, which alone reports.
"""

from __future__ import annotations

import copy
import os
import random
from typing import Any

import pytest
from test_engine_quick import _same, _took_quick_pass

from pitchcli.pipeline.feed import analyze, analyze_many
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import builtin_profiles
from pitchcli.render.records import fill

GAMES = int(os.environ.get("PITCH_QUICK_GAMES", "20"))
# Every built-in profile, at its smallest and largest table.
TABLES = sorted({(name, n) for name, p in builtin_profiles().items() for n in (min(p.players), max(p.players))})
# What a hand records before the play: a play-level hand has none of it.
_PLACES = ("deal", "discards", "draws", "kitty", "dead")


def _filled(table: tuple[str, int], seed: int, level: str = "full") -> dict[str, Any]:
    """A simulated game with everything the engine derives written in
    (``pitch fmt --fill``: every trick's leader, the points, scores, totals and
    the result); ``level`` "play": without what each hand records before the play."""
    rec = simulate_game(table[0], players=table[1], seed=seed)
    out = fill(rec, analyze(rec))
    if level == "play":
        for h in out["hands"]:
            for key in _PLACES:
                h.pop(key, None)
    assert all(t.__class__ is dict for h in out["hands"] for t in h.get("tricks", ())), table
    return out


@pytest.mark.parametrize("level", ["full", "play"])
@pytest.mark.parametrize("table", TABLES)
def test_a_filled_record_is_decided_by_the_quick_pass(table: tuple[str, int], level: str) -> None:
    records = [_filled(table, seed, level) for seed in range(GAMES)]
    for seed, (rec, quick) in enumerate(zip(records, analyze_many(records), strict=True)):
        assert quick is not None and _took_quick_pass(quick), (table, seed)
        full = analyze(rec)
        assert full.violations == []
        _same(quick, full)


def _lead_edits(rec: dict[str, Any], rng: random.Random) -> list[tuple[str, dict[str, Any], bool]]:
    """Copies of the filled ``rec``, each with one trick (of a hand and trick
    picked at random) changed, and whether the quick pass may decide it."""
    hands = [i for i, h in enumerate(rec["hands"]) if h.get("tricks")]
    i = rng.choice(hands)
    k = rng.randrange(len(rec["hands"][i]["tricks"]))
    lead = rec["hands"][i]["tricks"][k]["lead"]
    other = rng.choice([p for p in rec["players"] if p != lead])

    def edit(change: Any) -> dict[str, Any]:
        out = copy.deepcopy(rec)
        change(out["hands"][i]["tricks"], k)
        return out

    def first_as_list(tricks: list[Any], k: int) -> None:
        tricks[0] = tricks[0]["cards"]

    def all_as_lists_but(tricks: list[Any], k: int) -> None:
        for j, t in enumerate(tricks):
            if j != k:
                tricks[j] = t["cards"]

    return [
        ("a leader recorded wrong", edit(lambda t, k: t[k].update(lead=other)), False),
        ("a leader who is no player", edit(lambda t, k: t[k].update(lead="Zed")), False),
        ("a leader that is no name", edit(lambda t, k: t[k].update(lead=7)), False),
        ("no leader", edit(lambda t, k: t[k].pop("lead")), False),
        ("no cards", edit(lambda t, k: t[k].pop("cards")), False),
        ("cards that are no list", edit(lambda t, k: t[k].update(cards="AS")), False),
        ("a key of neither kind", edit(lambda t, k: t[k].update(winner=lead)), False),
        ("an extension key", edit(lambda t, k: t[k].update({"x-note": "led from the top"})), True),
        # (The first trick a list and a later one a mapping: read again, every trick either way.)
        ("the first trick written as its cards", edit(first_as_list), True),
        ("one leader written", edit(all_as_lists_but), True),
        ("one leader written, recorded wrong", edit(lambda t, k: (all_as_lists_but(t, k), t[k].update(lead=other))),
         False),
        ("one leader written, no player", edit(lambda t, k: (all_as_lists_but(t, k), t[k].update(lead="Zed"))),
         False),
    ]


@pytest.mark.parametrize("table", TABLES)
def test_a_trick_the_quick_pass_does_not_read_is_the_full_replays(table: tuple[str, int]) -> None:
    """Each change of one trick, alone in a game among clean filled games: the
    game is decided only where the change keeps it one the pass reads (then as
    the full replay finds it); otherwise the full replay's diagnostics, as if
    alone; every other game of the batch decided as before."""
    rng = random.Random(repr(table))
    clean = [_filled(table, 100 + j) for j in range(3)]
    expected = [analyze(rec) for rec in clean]
    for seed in range(max(1, GAMES // 5)):
        rec = _filled(table, seed)
        for name, changed, readable in _lead_edits(rec, rng):
            full = analyze(changed)
            quick = analyze(changed, quick=True)
            decided = _took_quick_pass(quick)  # (before _same reads the hands, which replays them)
            assert decided == (readable and not full.violations), (table, seed, name)
            _same(quick, full)
            if name == "a leader recorded wrong":
                assert {v.code for v in full.violations} == {"C508"}, (table, seed)
            batch = analyze_many([clean[0], changed, *clean[1:]])
            assert (batch[1] is not None) == decided, (table, seed, name)
            for want, got in zip(expected, [batch[0], *batch[2:]], strict=True):
                assert got is not None, (table, seed, name)
                _same(got, want)


@pytest.mark.parametrize("table", TABLES)
def test_a_game_dropped_from_a_batch_takes_its_leaders_with_it(table: tuple[str, int]) -> None:
    """Games refused half fed (a dealer who is no player at their third hand,
    after leaders of two hands went into the batch) or judged broken (a
    leader wrong in the last hand), among clean ones: every clean game is
    decided as alone, each leader held to its own trick."""
    records = []
    for seed in range(GAMES):
        rec = _filled(table, seed)
        if seed % 3 == 1 and len(rec["hands"]) > 2:
            rec["hands"][2]["dealer"] = "Zed"
        elif seed % 3 == 2:
            trick = rec["hands"][-1]["tricks"][-1]
            trick["lead"] = next(p for p in rec["players"] if p != trick["lead"])
        records.append(rec)
    for seed, (rec, quick) in enumerate(zip(records, analyze_many(records), strict=True)):
        full = analyze(rec)
        if full.violations:
            assert quick is None, (table, seed)
            continue
        assert quick is not None, (table, seed)
        _same(quick, full)
