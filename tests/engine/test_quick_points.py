"""The quick pass for ten-point's games (``engine.quick_points``).

Clean games of every ten-point profile (refill, cut-down; solo players, teams,
called partners) are decided by it, with what the full
replay gives (``_same``: no violation, the scores of each hand, the totals,
winner and end); under options it reads, and under values it does not know
(then it steps aside); in a stream, with the diagnostics of a broken game its
own. ``COVERAGE`` names every rule the engine can raise for ten-point. The
mutations that break each rule alone, against the full replay, are in
tests/engine/test_quick_tenpoint.py.

PITCH_QUICK_GAMES sets the number of games per configuration (default 30).
"""

from __future__ import annotations

import copy
import io
import json
import re
from dataclasses import fields, replace
from typing import Any

import pytest
from test_engine_quick import GAMES, ROOT, _new_values, _same, _took_quick_pass, decided_as_the_full_replay

from pitchcli.engine.family import family_for
from pitchcli.engine.quick import QuickBatch
from pitchcli.engine.quick_points import COVERAGE, PROFILE_VALUES, PointCardBatch, batch_class
from pitchcli.pipeline.check import check_source
from pitchcli.pipeline.feed import analyze, analyze_many
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import Profile

REFILL = [("ten-point-2", 2), ("ten-point-3", 3), ("ten-point", 4)]
CUT_DOWN = [("ten-point-6", 6), ("ten-point-8", 8)]  # (teams)
CALLED = [("ten-point-5", 5), ("ten-point-7", 7)]  # (cut-down, called partners)


@pytest.fixture(autouse=True)
def _quick_for_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """``check_source`` runs the quick pass on a single document too."""
    from pitchcli.pipeline import check

    monkeypatch.setattr(check, "QUICK_MIN", 1)


@pytest.mark.parametrize(("variant", "players"), REFILL + CUT_DOWN + CALLED)
def test_a_clean_game_is_decided_by_the_quick_pass(variant: str, players: int) -> None:
    decided_as_the_full_replay(variant, players)


def test_many_games_of_several_tables_in_one_batch() -> None:
    """Games of every refill table and of Auction Pitch, one batch call: each
    is decided by its own table's batch, as alone."""
    recs = [simulate_game(v, players=n, seed=s) for s in range(max(3, GAMES // 5)) for v, n in
            [*REFILL, *CUT_DOWN, *CALLED, ("auction", 4), ("auction-partners", 6)]]
    found = analyze_many(recs)
    for rec, quick in zip(recs, found, strict=True):
        assert quick is not None
        _same(quick, analyze(rec))


@pytest.mark.parametrize("rules", [{"target": 21}, {"steal": True}, {"min_bid": 6}, {"stuck_bid": 6},
                                   {"target": 63}, {"max_bid": 9}])
def test_the_quick_pass_reads_the_options(rules: dict[str, Any]) -> None:
    """A game replayed under other rules: the quick pass decides it as the
    full replay does, or steps aside where those rules break it (a hand after
    the game was won, a bid out of range)."""
    for seed in range(GAMES):
        variant, players = (REFILL + CUT_DOWN + CALLED)[seed % 7]
        rec = simulate_game(variant, players=players, seed=seed)
        rec["rules"] = rules
        quick, full = analyze(rec, quick=True), analyze(rec)
        assert _took_quick_pass(quick) == (not full.violations)  # (before the hands are read)
        _same(quick, full)


def test_ten_point_claims_are_compared() -> None:
    """Each claim of a clean game, changed by one: the quick pass steps aside
    and the full replay reports it."""
    rec = simulate_game("ten-point", players=4, seed=5)
    assert _took_quick_pass(analyze(rec, quick=True))
    team = next(iter(rec["hands"][0]["score"]))
    for key in ("points", "score", "totals"):
        broken = copy.deepcopy(rec)
        h = broken["hands"][1]
        h[key] = {**h.get(key, h["score"]), team: h.get(key, h["score"])[team] + 1}
        quick = analyze(broken, quick=True)
        assert not _took_quick_pass(quick), key
        assert quick.violations and quick.violations == analyze(broken).violations
    for result in ({"winner": "nobody"}, {"scores": {**rec["hands"][-1]["totals"], team: -1}}):
        broken = copy.deepcopy(rec)
        broken["result"] = {**broken.get("result", {}), **result}
        assert not _took_quick_pass(analyze(broken, quick=True)), result


def test_every_profile_option_is_in_the_allow_list() -> None:
    """An option added to ``Profile`` must say which of its values this pass knows."""
    assert set(PROFILE_VALUES) == {f.name for f in fields(Profile)}


_ANY_WHOLE = {"deal", "hand", "dead", "team_size", "min_bid", "max_bid", "stuck_bid", "target"}


@pytest.mark.parametrize("option", sorted(f.name for f in fields(Profile) if f.name != "name"))
def test_a_profile_option_with_a_value_it_does_not_know_is_not_handled(option: str) -> None:
    table = analyze(simulate_game("ten-point", players=4, seed=1)).table
    assert table is not None and PointCardBatch.handles(table)
    p = table.profile
    for new in _new_values(getattr(p, option)):
        if option in _ANY_WHOLE and new.__class__ is int:
            continue  # (any whole number: a size or a number the engine's own code reads)
        changed = table._replace(profile=replace(p, **{option: new}))
        assert not PointCardBatch.handles(changed), (option, new)
        assert batch_class(changed) is None, (option, new)


@pytest.mark.parametrize(("option", "value"), [("mode", "play-all"), ("sides", "called"), ("kitty", 4),
                                               ("called_cards", 1), ("family", "auction"), ("hand", 10),
                                               ("sides", "pairs")])
def test_another_exchange_or_side_is_not_handled(option: str, value: object) -> None:
    table = analyze(simulate_game("ten-point", players=4, seed=2)).table
    assert table is not None
    assert not PointCardBatch.handles(table._replace(profile=replace(table.profile, **{option: value})))


def test_each_table_gets_its_own_quick_pass() -> None:
    for variant, players, kind in [("ten-point", 4, PointCardBatch), ("ten-point-2", 2, PointCardBatch),
                                   ("auction", 4, QuickBatch), ("ten-point-5", 5, PointCardBatch),
                                   ("ten-point-6", 6, PointCardBatch), ("ten-point-8", 8, PointCardBatch),
                                   ("ten-point-7", 7, PointCardBatch)]:
        table = analyze(simulate_game(variant, players=players, seed=1)).table
        assert table is not None and batch_class(table) is kind, variant


def _tenpoint_rule_ids() -> set[str]:
    """The rule ids a diagnostic of a ten-point record can carry: the
    family's rule book and the ten-point or card rules the engine names where
    it reports (as test_engine_quick's ``_auction_rule_ids``)."""
    from pitchcli.views import reference

    named = re.compile(r'(?:_v|bad|Violation)\(\s*"[A-Z]\d{3}",\s*"([A-Z]+[A-Z0-9]*(?:-[A-Z0-9]+)+)"')
    sources = [*(ROOT / "pitchcli" / "engine").glob("*.py"), ROOT / "pitchcli" / "pipeline" / "feed.py"]
    found = {rule for path in sources for rule in named.findall(path.read_text("utf-8"))}
    ten_point = {r.id for r in reference.rules().values() if r.part in ("cards", "ten-point")} - {"CARD-1"}
    return family_for("ten-point", "refill").rule_ids() | family_for("ten-point", "cut-down").rule_ids() | (
        found & ten_point)


def test_the_coverage_names_every_ten_point_rule_the_engine_can_raise() -> None:
    rule_ids = {k for k in COVERAGE if not re.fullmatch(r"[A-Z]\d{3}", k)}
    assert len(_tenpoint_rule_ids()) > 12  # the scan finds the rule book, not nothing
    assert rule_ids == _tenpoint_rule_ids()
    assert set(COVERAGE) - rule_ids == {"C501", "C502", "C503", "C504", "R413"}
    for how in COVERAGE.values():
        assert how.startswith(("checked: ", "replayed: ")), how


def test_a_stream_of_clean_and_broken_games_gets_the_full_replays_diagnostics() -> None:
    """Through ``check_source``, as ``pitch validate`` reads a JSON Lines file:
    the clean games decided quick and clean, a broken one's diagnostics its own."""
    recs = [simulate_game("ten-point", players=4, seed=s) for s in range(12)]
    broken = copy.deepcopy(recs[5])
    h = broken["hands"][2]
    seat = next(iter(h["discards"]))
    h["discards"][seat], h["draws"][seat] = h["discards"][seat][1:], h["draws"][seat]  # kept one more
    recs[5] = broken
    text = "".join(json.dumps(r) + "\n" for r in recs)
    checked = list(check_source("games.jsonl", io.BytesIO(text.encode()), quick=True))
    assert len(checked) == 12
    for i, c in enumerate(checked):
        if i == 5:
            alone = next(iter(check_source("one.jsonl", io.BytesIO((json.dumps(broken) + "\n").encode()))))
            assert c.diagnostics and [(d.code, d.rule, d.pointer, d.message) for d in c.diagnostics] == \
                [(d.code, d.rule, d.pointer, d.message) for d in alone.diagnostics]
        else:
            assert c.diagnostics == [] and c.analysis is not None and _took_quick_pass(c.analysis), i


def _kitty_edits(rec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """A cut-down game broken at its kitty, each way alone (TP5-1, TP5-4)."""
    out = []
    h = rec["hands"][1]
    bidder = next(name for name, cards in h["discards"].items() if len(cards) > 2)  # (the bidder discards most)
    other = next(name for name in rec["players"] if name != bidder)
    edits = {
        "a kitty card too many": lambda h: h["kitty"].append(h["deal"][other][0]),
        "a kitty card too few": lambda h: h["kitty"].pop(),
        "the bidder discards one card less": lambda h: h["discards"][bidder].pop(),
        "draws recorded beside the kitty": lambda h: h.update(draws={name: [] for name in rec["players"]}),
        "no kitty": lambda h: h.pop("kitty"),
    }
    for name, edit in edits.items():
        broken = copy.deepcopy(rec)
        edit(broken["hands"][1])
        out.append((name, broken))
    return out


@pytest.mark.parametrize(("variant", "players"), CUT_DOWN)
def test_a_cut_down_game_broken_at_its_kitty_is_the_full_replays(variant: str, players: int) -> None:
    rec = simulate_game(variant, players=players, seed=4)
    assert _took_quick_pass(analyze(rec, quick=True))
    for name, broken in _kitty_edits(rec):
        quick, full = analyze(broken, quick=True), analyze(broken)
        assert not _took_quick_pass(quick), name
        _same(quick, full)
        # (Empty draws beside the kitty, or no kitty recorded, break no rule:
        # but the pass reads only a hand that shows every card.)
        assert bool(full.violations) == (name not in ("draws recorded beside the kitty", "no kitty")), name


def _partner_edits(rec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """A called-partner game with its call changed, each way alone (TP5-3)."""
    out = []
    h = rec["hands"][2]
    bidder = next(name for name, cards in h["discards"].items() if len(cards) > len(
        min(h["discards"].values(), key=len)))
    called = h["partner"].get("cards", [h["partner"].get("card")])
    holder = next((name for name, cards in h["deal"].items() if called[0] in cards), bidder)
    other = next(name for name in rec["players"] if name not in (bidder, holder))
    trump_card = next(c for c in rec["hands"][2]["tricks"][0] if c not in called)
    one = "card" in h["partner"]
    edits: dict[str, Any] = {
        "a partner named who holds no called card": lambda p: p.update(
            {"player": other} if one else {"players": [other] * len(called)}),
        "the partner named where the cards show him": lambda p: p.update(
            {"player": holder} if one else {"players": [holder, *([] if len(called) < 2 else [bidder])]}),
        "no card called": lambda p: p.pop("card" if one else "cards"),
        "a card called twice": lambda p: p.update({"cards": [called[0], called[0]]}),
        "another card called": lambda p: p.update(
            {"card": trump_card} if one else {"cards": [trump_card, *called[1:]]}),
        "a partner who is no player": lambda p: p.update({"player": "Zed"} if one else {"players": ["Zed"]}),
    }
    for name, edit in edits.items():
        broken = copy.deepcopy(rec)
        edit(broken["hands"][2]["partner"])
        out.append((name, broken))
    return out


@pytest.mark.parametrize(("variant", "players"), CALLED)
def test_a_changed_partner_call_is_the_full_replays(variant: str, players: int) -> None:
    """Each change decided as the full replay decides it: refused where the
    full replay reports, and where it reports nothing decided with the same
    partners, scores and winner (another called card is another partner)."""
    for seed in range(max(2, GAMES // 10)):
        rec = simulate_game(variant, players=players, seed=seed)
        for name, broken in _partner_edits(rec):
            quick, full = analyze(broken, quick=True), analyze(broken)
            assert _took_quick_pass(quick) == (not full.violations), (name, seed)
            _same(quick, full)  # (the scores of each hand name its partners)


@pytest.mark.parametrize(("variant", "players"), REFILL + CUT_DOWN)
def test_a_tally_is_decided_and_its_points_must_add_up(variant: str, players: int) -> None:
    """A ten-point tally (the points each unit took, no cards) is scored from
    its points, alone or as one hand among full ones; points that don't add
    up to the hand's ten (at most ten with dead cards) are the full replay's."""
    from test_engine_quick import _ten_point_tally

    for seed in range(max(3, GAMES // 5)):
        game = simulate_game(variant, players=players, seed=seed)
        tally = _ten_point_tally(game)
        mixed = copy.deepcopy(game)
        mixed["hands"][seed % len(game["hands"])] = tally["hands"][seed % len(game["hands"])]
        for rec in (tally, mixed):
            quick = analyze(rec, quick=True)
            assert _took_quick_pass(quick), (variant, seed)
            _same(quick, analyze(rec))
        for change in (1, -1):
            off = copy.deepcopy(tally)
            points = off["hands"][1]["points"]
            first = next(iter(points))
            points[first] += change
            quick, full = analyze(off, quick=True), analyze(off)
            assert _took_quick_pass(quick) == (not full.violations)
            _same(quick, full)
            if variant not in ("ten-point-2", "ten-point-3"):
                assert any(v.code == "C501" for v in full.violations)  # (no dead cards: ten points, TP-POINTS-1)
