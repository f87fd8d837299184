"""The engine's quick pass (``analyze(..., quick=True)``) is only a shortcut.

It may decide a clean game without the full replay, and must then give what
the full replay gives (no violation, the same totals, winner, hands and end);
for anything else it must step aside, so that every diagnostic is the full
replay's. Checked on simulated games of every Auction profile and option (full
detail, play-level, tallies, and every level mixed in one game), on
every kind of change to them (a generic mutation of any value of any hand,
many per game), and on the games the quick pass does not know (ten-point's play-level records,
its tallies of called partners).
Each row of ``quick.COVERAGE`` is broken alone (``BREAKERS``, at each level
of record where it can be) in a game inside
a JSON Lines file and a YAML stream of 64 valid games of its table, as ``pitch
validate`` reads them: its diagnostics there must be its diagnostics alone; the
rows must be the rules the engine can raise for Auction Pitch; and a profile
with an option value the quick pass does not know is replayed in full.

PITCH_QUICK_GAMES sets the number of games per configuration (default 30).
"""

from __future__ import annotations

import copy
import io
import json
import os
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import pytest
from support import quick_streams
from test_auction_properties import _swap_deal, _unfollow

from pitchcli.cards import ALL_CARDS
from pitchcli.engine.quick import COVERAGE, NO_CARD, PROFILE_VALUES, QuickBatch, card_rows
from pitchcli.pipeline.check import check_source
from pitchcli.pipeline.feed import GameAnalysis, analyze, analyze_many
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import Profile

GAMES = int(os.environ.get("PITCH_QUICK_GAMES", "30"))
ROOT = Path(__file__).resolve().parents[2]
AUCTION = [("auction", n) for n in range(2, 8)] + [("auction-partners", 4), ("auction-partners", 6)]


@pytest.fixture(autouse=True)
def _quick_for_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """``check_source`` runs the quick pass on a single document too (it
    waits for a chunk of many, otherwise)."""
    from pitchcli.pipeline import check

    monkeypatch.setattr(check, "QUICK_MIN", 1)


def _same(quick: GameAnalysis, full: GameAnalysis) -> None:
    decided = _took_quick_pass(quick)
    # What each hand counts for (summarize): read off the quick verdict, with
    # no replay, the same as the full replay's HandResult.score().
    assert quick.scores == full.scores
    assert _took_quick_pass(quick) == decided
    assert quick.violations == full.violations
    assert (quick.totals, quick.winner, quick.winner_hand) == (full.totals, full.winner, full.winner_hand)
    assert quick.end == full.end
    assert [None if h is None else (h.bidder, h.bid, h.delta, h.totals) for h in quick.hands] == \
        [None if h is None else (h.bidder, h.bid, h.delta, h.totals) for h in full.hands]


def _took_quick_pass(a: GameAnalysis) -> bool:
    return a._replay is not None  # the hands are still to be replayed: the quick pass decided


def decided_as_the_full_replay(variant: str, players: int) -> None:
    """``GAMES`` clean simulated games of ``variant`` are each decided by the
    quick pass, with what the full replay gives (also used for ten-point)."""
    for seed in range(GAMES):
        rec = simulate_game(variant, players=players, seed=seed)
        quick = analyze(rec, quick=True)
        assert _took_quick_pass(quick), seed  # else validate would not be faster
        assert quick.violations == []
        full = analyze(rec)
        _same(quick, full)
        assert [None if h is None else h.taken for h in quick.hands] == \
            [None if h is None else h.taken for h in full.hands]


@pytest.mark.parametrize(("variant", "players"), AUCTION)
def test_a_clean_game_is_decided_by_the_quick_pass(variant: str, players: int) -> None:
    decided_as_the_full_replay(variant, players)


@pytest.mark.parametrize("rules", [{"low": "played"}, {"win_on_set": True, "target": 11},
                                   {"steal": False}, {"target": 7}])
def test_the_quick_pass_reads_the_options(rules: dict[str, Any]) -> None:
    for seed in range(GAMES):
        rec = simulate_game("auction", players=3 + seed % 4, seed=seed)
        rec["rules"] = rules
        _same(analyze(rec, quick=True), analyze(rec))


def test_points_claims_are_compared() -> None:
    rec = simulate_game("auction", players=4, seed=3)
    full = analyze(rec)
    names = full.table.unit_names  # type: ignore[union-attr]
    for h, r in zip(rec["hands"], full.hands, strict=True):
        assert r is not None
        h["points"] = {k: (None if a.unit is None else names[a.unit]) for k, a in r.awards.items()}
    quick = analyze(rec, quick=True)
    assert _took_quick_pass(quick) and quick.violations == []
    h = rec["hands"][0]
    h["points"]["high"] = next(n for n in names if n != h["points"]["high"])
    quick = analyze(rec, quick=True)
    assert not _took_quick_pass(quick)
    assert [v.code for v in quick.violations] == ["C501"]
    _same(quick, analyze(rec))


def test_trump_and_contract_claims_are_compared() -> None:
    rec = simulate_game("auction", players=4, seed=4)
    full = analyze(rec)
    for h, r in zip(rec["hands"], full.hands, strict=True):
        assert r is not None
        h["trump"] = r.trump
        h["contract"] = {"bidder": rec["players"][r.bidder], "bid": r.bid}
    quick = analyze(rec, quick=True)
    assert _took_quick_pass(quick) and quick.violations == []
    for key, wrong in (("trump", "S" if rec["hands"][2]["trump"] != "S" else "H"),
                       ("contract", {"bidder": rec["hands"][2]["contract"]["bidder"],
                                     "bid": rec["hands"][2]["contract"]["bid"] % 4 + 1})):
        broken = copy.deepcopy(rec)
        broken["hands"][2][key] = wrong
        quick, full = analyze(broken, quick=True), analyze(broken)
        assert not _took_quick_pass(quick)
        assert [v.code for v in quick.violations] == ["C506" if key == "trump" else "C505"]
        _same(quick, full)


@pytest.mark.parametrize("level", ["play", "tally"])
@pytest.mark.parametrize(("variant", "players"), AUCTION)
def test_a_clean_record_of_each_level_is_decided_by_the_quick_pass(variant: str, players: int, level: str) -> None:
    """Play-level records (no deal: the deal is what each seat played) and
    tallies (no deal, no tricks: the points awarded) are decided too."""
    for seed in range(GAMES):
        rec = quick_streams.LEVELS[level](simulate_game(variant, players=players, seed=seed))
        quick = analyze(rec, quick=True)
        assert _took_quick_pass(quick), seed
        assert quick.violations == []
        _same(quick, analyze(rec))


def _mixed(seed: int) -> dict[str, Any]:
    """A game whose hands are of every level in turn, every other one with a
    contract and no bids (the contract alone says who bid what)."""
    rec = simulate_game("auction", players=3 + seed % 4, seed=seed)
    full = analyze(rec)
    levels = {k: quick_streams.LEVELS[k](rec) for k in ("play", "tally")}
    for i, r in enumerate(full.hands):
        assert r is not None
        if i % 3:
            rec["hands"][i] = levels["play" if i % 3 == 1 else "tally"]["hands"][i]
        if i % 2:
            h = rec["hands"][i]
            h.pop("bids")
            h["contract"] = {"bidder": rec["players"][r.bidder], "bid": r.bid}
    return rec


def test_hands_of_every_level_in_one_game_and_contracts_without_bids_are_decided() -> None:
    for seed in range(GAMES):
        rec = _mixed(seed)
        quick = analyze(rec, quick=True)
        assert _took_quick_pass(quick), seed
        _same(quick, analyze(rec))


def test_a_game_dropped_from_a_batch_of_mixed_levels_leaves_the_others_as_they_are() -> None:
    """``QuickBatch.drop_game`` takes out a game refused at a later hand,
    whatever the levels of the hands it had already taken."""
    records = []
    for seed in range(GAMES):
        rec = _mixed(seed)
        if seed % 3 == 1 and len(rec["hands"]) > 2:
            rec["hands"][2]["dealer"] = "Zed"  # refused at its third hand (R413: replayed in full)
        records.append(rec)
    found = analyze_many(records)
    for seed, (rec, quick) in enumerate(zip(records, found, strict=True)):
        full = analyze(rec)
        if full.violations:
            assert quick is None, seed
            continue
        assert quick is not None, seed
        _same(quick, full)


def _swapped_deal(rec: dict[str, Any]) -> None:
    """Two players' first cards dealt swapped in hand 1: each plays a card
    dealt to the other (AP-DEAL-1), every card still dealt once."""
    deal = rec["hands"][0]["deal"]
    a, b = rec["players"][:2]
    deal[a][0], deal[b][0] = deal[b][0], deal[a][0]


@pytest.mark.parametrize("edit", ["undealt card", "dealt twice", "swapped deal"])
def test_a_broken_deal_in_a_batch_of_mixed_levels_is_the_full_replays(edit: str) -> None:
    """A batch whose hands are of every level holds a deal for some hands
    only (``QuickBatch._hands`` reads the others' play as their deal): a
    full-detail hand among them whose play breaks its deal is refused, and
    its game replayed in full; the others are decided."""
    records = []
    for seed in range(GAMES):
        rec = _mixed(seed)  # (its first hand is of full detail)
        if seed % 2:
            _claims_off(rec)
            if edit == "swapped deal":
                _swapped_deal(rec)
            else:
                EDITS[edit](rec)
        records.append(rec)
    found = analyze_many(records)
    broken = 0
    for seed, (rec, quick) in enumerate(zip(records, found, strict=True)):
        full = analyze(rec)
        if full.violations:
            broken += 1
            assert quick is None, (edit, seed)
            continue
        assert quick is not None, (edit, seed)
        _same(quick, full)
    assert broken >= GAMES // 2 - 1, edit  # the edit does break a rule


def _ten_point_tally(rec: dict[str, Any]) -> dict[str, Any]:
    """A ten-point record as a tally: per hand the points each unit took, no cards."""
    a = analyze(rec)
    assert a.table is not None and not a.violations
    out = copy.deepcopy(rec)
    for h, r in zip(out["hands"], a.hands, strict=True):
        assert r is not None
        for key in ("deal", "tricks", "discards", "draws", "kitty", "dead"):
            h.pop(key, None)
        h["points"] = dict(zip(a.table.unit_names, r.taken, strict=True))
    return out


def _ten_point_tally_unnamed(rec: dict[str, Any]) -> dict[str, Any]:
    """A ten-point tally at a table of called partners that names no partner: R411, the replay's to say."""
    out = _ten_point_tally(rec)
    for h in out["hands"]:
        h["partner"] = {k: v for k, v in h["partner"].items() if k in ("card", "cards")}
    return out


@pytest.mark.parametrize(("variant", "players", "level"), [("ten-point-5", 5, _ten_point_tally_unnamed)])
def test_a_game_the_quick_pass_does_not_know_is_replayed_in_full(
        variant: str, players: int, level: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Tallies at a table of called partners that name no partner: the quick
    pass steps aside (its others, play-level records and named tallies among
    them: tests/engine/test_quick_points.py, tests/engine/test_quick_tenpoint.py)."""
    rec = level(simulate_game(variant, players=players, seed=1))
    quick = analyze(rec, quick=True)
    assert not _took_quick_pass(quick)
    _same(quick, analyze(rec))


# --- any change to a game: the quick pass steps aside or agrees --------------------

_CARDS = [c.text for c in ALL_CARDS]


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _leaves(v, (*path, k))]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _leaves(v, (*path, i))]
    return [path]


def _mutate(rec: dict[str, Any], rng: random.Random) -> None:
    """One change anywhere in the hands or the result: a value replaced by a
    plausible other (a card, a name, a number, a pass), two values swapped,
    an item dropped or repeated, a field added."""
    target = rec if rng.random() < 0.1 else rec["hands"][rng.randrange(len(rec["hands"]))]
    paths = _leaves(target)
    kind = rng.choice(["value", "swap", "drop", "repeat", "field"])
    if kind == "field":
        target_hand = rec["hands"][rng.randrange(len(rec["hands"]))]
        key = rng.choice(["trump", "contract", "kitty", "x-note", "notes", "points"])
        target_hand[key] = rng.choice(["S", {"bidder": rec["players"][0], "bid": 2}, ["AS"], "hi",
                                       {"high": rec["players"][0], "low": rec["players"][1],
                                        "jack": None, "game": None}])
        return

    def parent(p: tuple[Any, ...]) -> Any:
        node = target
        for k in p[:-1]:
            node = node[k]
        return node

    p = rng.choice(paths)
    node, last = parent(p), p[-1]
    old = node[last]
    if kind == "value":
        if isinstance(old, str) and old in _CARDS:
            node[last] = rng.choice([*rng.sample(_CARDS, 3), "ZZ", "BJ"])
        elif isinstance(old, str):
            node[last] = rng.choice([*rec["players"], "pass", "nobody"])
        elif isinstance(old, int) and not isinstance(old, bool):
            node[last] = old + rng.choice([-1, 1, 4])
        else:
            node[last] = rng.choice([None, *rec["players"]])
    elif kind == "swap":
        q = rng.choice(paths)
        other, olast = parent(q), q[-1]
        node[last], other[olast] = other[olast], node[last]
    elif isinstance(node, list):
        if kind == "drop":
            del node[last]
        else:
            node.insert(last, copy.deepcopy(old))
    else:
        del node[last]


@pytest.mark.parametrize(("variant", "players"), [("auction", 2), ("auction", 4), ("auction", 7),
                                                  ("auction-partners", 4)])
def test_a_changed_game_gets_the_full_replays_diagnostics(variant: str, players: int) -> None:
    quick_decided = 0
    for seed in range(GAMES * 4):
        rng = random.Random(seed)
        rec = simulate_game(variant, players=players, seed=seed)
        for _ in range(1 + seed % 3):
            _mutate(rec, rng)
        # Through the whole pipeline: the engine sees a record only after the schema.
        text = json.dumps(rec).encode()
        quick_c, = check_source("game.json", io.BytesIO(text), quick=True)
        full_c, = check_source("game.json", io.BytesIO(text))
        assert quick_c.diagnostics == full_c.diagnostics, seed
        if full_c.analysis is None:
            continue
        quick, full = quick_c.analysis, full_c.analysis
        assert quick is not None
        quick_decided += _took_quick_pass(quick)
        _same(quick, full)
        if _took_quick_pass(quick):
            assert full.violations == [], (seed, full.violations[:2])
    # Some changes leave a clean game (two equal values swapped, a note added):
    # the quick pass still decides those.
    assert quick_decided < GAMES * 4


# --- each rule the quick pass checks, broken alone -----------------------------------


def _claims_off(rec: dict[str, Any]) -> None:
    """Drop the claims, so that only the rule under test can tell."""
    rec.pop("result", None)
    for h in rec["hands"]:
        h.pop("score", None)
        h.pop("totals", None)


def _rotate(trick: list[str]) -> None:
    trick.append(trick.pop(0))


def _move(items: list[Any], i: int, j: int) -> None:
    items.insert(j, items.pop(i))


def _joker(rec: dict[str, Any]) -> None:
    h = rec["hands"][-1]
    card = h["tricks"][-1][-1]
    h["tricks"][-1][-1] = "BJ"
    for cards in h["deal"].values():
        if card in cards:
            cards[cards.index(card)] = "BJ"


def _undealt(rec: dict[str, Any]) -> None:
    """The dealer's card in the last trick of hand 1 becomes one nobody was dealt."""
    h = rec["hands"][0]
    dealt = {c for cards in h["deal"].values() for c in cards}
    trick = h["tricks"][-1]
    j = next(j for j, card in enumerate(trick) if card in h["deal"][h["dealer"]])
    trick[j] = next(c for c in _CARDS[:52] if c not in dealt)


def _twice(rec: dict[str, Any], dealt_twice: bool) -> None:
    """A player plays one of his cards twice and never another (or: a card
    is dealt to two players, and one of them plays another card twice)."""
    h = rec["hands"][0]
    seat_cards = h["deal"][h["dealer"]]
    tricks = h["tricks"]
    first = next(k for k, t in enumerate(tricks) if any(c in seat_cards for c in t))
    j = next(j for j, c in enumerate(tricks[first]) if c in seat_cards)
    later = next(k for k in range(len(tricks) - 1, first, -1) if any(c in seat_cards for c in tricks[k]))
    i = next(i for i, c in enumerate(tricks[later]) if c in seat_cards)
    lost = tricks[later][i]
    tricks[later][i] = tricks[first][j]
    if dealt_twice:  # the card he never plays is dealt to another player instead of one of his
        other = next(p for p in h["deal"] if p != h["dealer"])
        h["deal"][other][0] = seat_cards[seat_cards.index(lost)]
        seat_cards[seat_cards.index(lost)] = h["deal"][other][0]


def _after_the_end(rec: dict[str, Any]) -> None:
    extra = copy.deepcopy(rec["hands"][-4])  # the same dealer as four hands on: the next one
    extra.pop("score")
    extra.pop("totals")
    rec["hands"].append(extra)


EDITS = {
    "totals": lambda rec: rec["hands"][1]["totals"].update(Ann=rec["hands"][1]["totals"]["Ann"] + 1),
    "score": lambda rec: rec["hands"][1]["score"].update(Ben=rec["hands"][1]["score"]["Ben"] - 1),
    "result winner": lambda rec: rec["result"].update(winner="Cal" if rec["result"]["winner"] != "Cal" else "Dot"),
    "result scores": lambda rec: rec["result"]["scores"].update(Dot=rec["result"]["scores"]["Dot"] + 2),
    "first lead": lambda rec: (_claims_off(rec), _rotate(rec["hands"][0]["tricks"][0])),
    "later lead": lambda rec: (_claims_off(rec), _rotate(rec["hands"][0]["tricks"][3])),
    "tricks swapped": lambda rec: (_claims_off(rec), _move(rec["hands"][0]["tricks"], 2, 1)),
    "dealer": lambda rec: (_claims_off(rec), rec["hands"][2].update(dealer=rec["hands"][1]["dealer"])),
    # Each hand is consistent with its own dealer, but the deal goes the wrong way.
    "hands swapped": lambda rec: (_claims_off(rec), _move(rec["hands"], 2, 1)),
    "joker": lambda rec: (_claims_off(rec), _joker(rec)),
    "undealt card": lambda rec: (_claims_off(rec), _undealt(rec)),
    "played twice": lambda rec: (_claims_off(rec), _twice(rec, False)),
    "dealt twice": lambda rec: (_claims_off(rec), _twice(rec, True)),
    "after the end": _after_the_end,
    "one trick less": lambda rec: (_claims_off(rec), rec["hands"][0]["tricks"].pop()),
    "a bid": lambda rec: (_claims_off(rec), rec["hands"][0].update(bids=["pass"] * 4)),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_one_broken_rule_is_the_full_replays(edit: str) -> None:
    broken = 0
    for seed in range(GAMES):
        rec = simulate_game("auction", players=4, seed=seed)
        if edit == "after the end" and (rec["result"]["winner"] is None or len(rec["hands"]) < 4):
            continue
        EDITS[edit](rec)
        text = json.dumps(rec).encode()
        quick_c, = check_source("game.json", io.BytesIO(text), quick=True)
        full_c, = check_source("game.json", io.BytesIO(text))
        assert quick_c.diagnostics == full_c.diagnostics, (edit, seed)
        if full_c.diagnostics:
            broken += 1
            assert quick_c.analysis is not None and not _took_quick_pass(quick_c.analysis), (edit, seed)
    assert broken, edit  # the edit does break a rule


def test_a_stream_is_checked_in_chunks_with_the_same_diagnostics(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through ``check_source``, as ``pitch validate`` reads a JSON Lines stream:
    enough games for the quick pass to run on chunks, some of them broken,
    some of other profiles and player counts in between."""
    from pitchcli.pipeline import check

    monkeypatch.setattr(check, "QUICK_CHUNK", 40)  # several chunks, one cut mid-stream
    monkeypatch.setattr(check, "QUICK_HANDS", 300)  # and some cut by their hands
    monkeypatch.setattr(check, "QUICK_BYTES", 60_000)  # and some by their text (the ten-point games')
    monkeypatch.setattr(check, "QUICK_MIN", 20)  # the last chunk, of 10, quick too (the pass has begun)
    rng = random.Random(5)
    lines = []
    for seed in range(130):
        variant, players = AUCTION[seed % len(AUCTION)] if seed % 7 else ("ten-point", 4)
        rec = simulate_game(variant, players=players, seed=seed)
        if seed % 3 == 0:
            _mutate(rec, rng)
        lines.append(json.dumps(rec))
    lines.insert(50, "{not json")
    text = ("\n".join(lines) + "\n").encode()
    quick = list(check_source("games.jsonl", io.BytesIO(text), quick=True))
    full = list(check_source("games.jsonl", io.BytesIO(text)))
    assert [(c.index, c.diagnostics) for c in quick] == [(c.index, c.diagnostics) for c in full]
    decided = 0
    for q, f in zip(quick, full, strict=True):
        if f.analysis is None:
            assert q.analysis is None
            continue
        assert q.analysis is not None
        decided += _took_quick_pass(q.analysis)
        _same(q.analysis, f.analysis)
    assert decided > 60  # the clean Auction games, chunk after chunk


def test_games_without_hands_in_a_batch_keep_the_others_totals() -> None:
    records = []
    for seed in range(6):
        rec = simulate_game("auction", players=4, seed=seed)
        if seed % 2 == 0:  # a game recorded before its first hand
            rec["hands"] = []
            rec.pop("result")
        records.append(rec)
    for rec, quick in zip(records, analyze_many(records), strict=True):
        assert quick is not None
        _same(quick, analyze(rec))


@pytest.mark.parametrize("fmt", quick_streams.FORMATS)
@pytest.mark.parametrize("notation", ["canonical", "lower", "symbol"])
def test_a_card_dealt_twice_to_one_player_is_caught_in_a_stream(monkeypatch: pytest.MonkeyPatch, fmt: str,
                                                                 notation: str) -> None:
    """Issue 28: a player dealt one card twice who plays it twice (11 distinct
    cards for 12 places) is R402 at both places alone, and so in a stream of
    70 games of the same table, where the quick pass judges it."""
    from pitchcli.pipeline import check

    monkeypatch.setattr(check, "QUICK_MIN", 64)  # as pitch validate runs
    records = [simulate_game("auction", players=4, seed=seed) for seed in range(70)]
    quick_streams.claims_off(records[35])
    quick_streams.dealt_twice_to_one(records[35], hand=1, notation=notation)
    s = quick_streams.stream(records, fmt)
    alone = quick_streams.check_alone(s, 35)
    assert [(d.code, d.rule) for d in alone.diagnostics] == [("R402", "CARD-4")] * 2
    assert [d.pointer.split("/")[3] for d in alone.diagnostics] == ["deal", "tricks"]
    found = quick_streams.check_stream(s)
    assert quick_streams.keys(found[35], s.first_lines[35]) == quick_streams.keys(alone)
    assert [c.index for c in found if c.diagnostics] == [35]
    assert sum(_took_quick_pass(c.analysis) for c in found if c.analysis is not None) == 69


# --- the profiles the quick pass handles: an allow-list of option values --------------


def test_every_profile_option_is_in_the_allow_list() -> None:
    """An option added to ``Profile`` must say which of its values the quick pass knows."""
    assert set(PROFILE_VALUES) == {f.name for f in fields(Profile)}


def _new_values(value: object) -> list[object]:
    """Values an option does not take today, of its type and of others."""
    if isinstance(value, bool):
        return ["sometimes", None, int(value)]
    if isinstance(value, int):
        return [value + 1 if value == 0 else float(value), str(value), None]
    if isinstance(value, tuple):
        return [[*value], (*value, 4.5), "4"]
    return ["something-new", value.upper() if isinstance(value, str) else None, None]


@pytest.mark.parametrize("variant", ["auction", "auction-partners"])
@pytest.mark.parametrize("option", sorted(f.name for f in fields(Profile) if f.name != "name"))
def test_a_profile_option_with_a_value_it_does_not_know_is_not_handled(variant: str, option: str) -> None:
    table = analyze(simulate_game(variant, players=4, seed=1)).table
    assert table is not None and QuickBatch.handles(table)
    p = table.profile
    for new in _new_values(getattr(p, option)):
        changed = table._replace(profile=replace(p, **{option: new}))
        assert not QuickBatch.handles(changed), (option, new)


@pytest.mark.parametrize(("option", "value"), [("low", "lowest"), ("sides", "called"), ("sides", "pairs"),
                                               ("family", "ten-point"), ("mode", "refill"), ("kitty", 4),
                                               ("deal", 7), ("steal", 1), ("win_on_set", 0)])
def test_a_new_rule_is_replayed_in_full(option: str, value: object) -> None:
    """A game under a rule the quick pass does not know is replayed in full,
    even inside a batch: analyze_many says "don't know" for it."""
    rec = simulate_game("auction", players=4, seed=2)
    table = analyze(rec).table
    assert table is not None
    changed = table._replace(profile=replace(table.profile, **{option: value}))
    assert not QuickBatch.handles(changed)


@pytest.mark.parametrize("variant", ["auction", "auction-partners"])
def test_the_built_in_auction_profiles_are_handled(variant: str) -> None:
    table = analyze(simulate_game(variant, players=4, seed=1)).table
    assert table is not None and QuickBatch.handles(table)
    for rules in ({"low": "played"}, {"win_on_set": True}, {"steal": False}, {"target": 11}):
        assert QuickBatch.handles(table._replace(profile=replace(table.profile, **rules)))


# --- COVERAGE: each rule the quick pass covers, broken alone inside a stream ------------

Table = tuple[str, int]  # (variant, players)
FOUR: tuple[Table, ...] = (("auction", 4),)


@dataclass(frozen=True)
class Breaker:
    """One way to break the rule (or claim) of a ``COVERAGE`` row alone:
    ``edit`` changes a valid game of each of ``tables`` (False: it can't break
    this game; another is tried); ``expect`` is the (code, rule) of every
    diagnostic the broken game then gets alone."""

    row: str
    name: str
    edit: Callable[[dict[str, Any]], object]
    expect: frozenset[tuple[str, str | None]]
    tables: tuple[Table, ...] = FOUR
    level: str = "full"  # the kind of record broken (quick_streams.LEVELS): "full", "play" or "tally"


def _first_hand(rec: dict[str, Any], test: Callable[[list[Any], int], bool]) -> dict[str, Any] | None:
    """The first hand whose bids pass ``test(bids, players)``."""
    n = len(rec["players"])
    return next((h for h in rec["hands"] if test(h["bids"], n)), None)


def _bids_edit(test: Callable[[list[Any], int], bool], change: Callable[[list[Any], int], None]
               ) -> Callable[[dict[str, Any]], bool]:
    """An edit of the calls of the first hand whose calls pass ``test``."""
    def edit(rec: dict[str, Any]) -> bool:
        quick_streams.claims_off(rec)
        h = _first_hand(rec, test)
        if h is None:
            return False
        change(h["bids"], len(rec["players"]))
        return True
    return edit


def _numbers(bids: list[Any]) -> list[int]:
    return [b for b in bids if b != "pass"]


def _closing_then(bids: list[Any], n: int) -> bool:
    return 4 in bids[:n - 1]


def _after_closing(bids: list[Any], n: int) -> None:
    at = bids.index(4) + 1
    del bids[at:]
    bids.append(1)  # nobody may bid after the 4 (the calls after it were left out or passes)


def _a_pass_after_a_bid(bids: list[Any], n: int) -> bool:
    """A player before the dealer passes after a bid below the closing one."""
    return any(b == "pass" and _numbers(bids[:i]) and max(_numbers(bids[:i])) < 4
               for i, b in enumerate(bids[:n - 1]))


def _not_higher(bids: list[Any], n: int) -> None:
    i = next(i for i, b in enumerate(bids[:n - 1]) if b == "pass" and _numbers(bids[:i]))
    bids[i] = max(_numbers(bids[:i]))


def _stuck(bids: list[Any], n: int) -> bool:
    return len(bids) == n and all(b == "pass" for b in bids[:-1]) and bids[-1] == 2


def _not_dealt(h: dict[str, Any]) -> str:
    """A card of the deck nobody was dealt in hand ``h``."""
    dealt = {c for cards in h["deal"].values() for c in cards}
    return next(c for c in _CARDS[:52] if c not in dealt)


def _more_cards(rec: dict[str, Any], where: str) -> None:
    quick_streams.claims_off(rec)
    h = rec["hands"][0]
    extra = _not_dealt(h)
    if where == "deal":
        h["deal"][rec["players"][0]].append(extra)
    else:
        h["tricks"][2].append(extra)


def _lead(rec: dict[str, Any], trick: int, wrong: bool) -> None:
    """Trick ``trick`` of the first hand written as a mapping with its leader (the wrong one)."""
    hand = analyze(rec).hands[0]
    assert hand is not None
    lead = rec["players"][hand.tricks[trick].leader]
    if wrong:
        lead = next(p for p in rec["players"] if p != lead)
    h = rec["hands"][0]
    h["tricks"][trick] = {"lead": lead, "cards": h["tricks"][trick]}


def _points(rec: dict[str, Any], high: str | None = None) -> None:
    """The first hand's points claimed, right but for High: given to ``high``
    (None: to another player than the one who took it)."""
    a = analyze(rec)
    hand = a.hands[0]
    assert hand is not None and a.table is not None
    names = a.table.unit_names
    points = {k: None if w.unit is None else names[w.unit] for k, w in hand.awards.items()}
    points["high"] = high or next(n for n in names if n != points["high"])
    rec["hands"][0]["points"] = points


def _result_scores(rec: dict[str, Any]) -> None:
    scores = dict(rec["result"]["scores"])  # (simulate shares it with the last hand's totals)
    scores["Dot"] += 2
    rec["result"]["scores"] = scores


def _non_card(rec: dict[str, Any]) -> None:
    h = rec["hands"][0]
    card = h["tricks"][0][1]
    h["tricks"][0][1] = "1" + card[-1]
    for cards in h["deal"].values():
        if card in cards:
            cards[cards.index(card)] = "1" + card[-1]


def _teams_side_by_side(rec: dict[str, Any]) -> None:
    p = rec["players"]
    rec["teams"] = {"Left": [p[0], p[1]], "Right": [p[2], p[3]]}


def _team_stranger(rec: dict[str, Any]) -> None:
    name = next(iter(rec["teams"]))
    rec["teams"][name] = [rec["teams"][name][0], "Zed"]


def _contract(rec: dict[str, Any], bidder: str | None = None) -> None:
    """The first hand's contract claimed with its bid, for ``bidder`` (None:
    the player after the one who won the auction)."""
    a = analyze(rec).hands[0]
    assert a is not None
    other = rec["players"][(a.bidder + 1) % len(rec["players"])]
    rec["hands"][0]["contract"] = {"bidder": bidder or other, "bid": a.bid}


def _rows(*pairs: tuple[str, str | None]) -> frozenset[tuple[str, str | None]]:
    return frozenset(pairs)


ANY_TABLE: tuple[Table, ...] = (("auction", 4), ("auction", 2), ("auction-partners", 4))
BREAKERS: list[Breaker] = [
    Breaker("CARD-1", "a joker dealt and played", lambda r: (_claims_off(r), _joker(r)),
            _rows(("R401", "CARD-1"))),
    Breaker("CARD-3", "a text that is no card, dealt and played", _non_card, _rows(("S204", None))),
    *(Breaker("CARD-4", f"a card dealt twice to one player and played twice ({notation})",
              lambda r, notation=notation: (_claims_off(r), quick_streams.dealt_twice_to_one(r, 0, notation)),
              _rows(("R402", "CARD-4")), ANY_TABLE) for notation in ("canonical", "lower", "symbol", "ten")),
    Breaker("CARD-4", "a card dealt to two players", lambda r: (_claims_off(r), _twice(r, True)),
            _rows(("R402", "CARD-4"), ("R403", "AP-DEAL-1"))),
    Breaker("CARD-4", "a card played twice", lambda r: (_claims_off(r), _twice(r, False)),
            _rows(("R402", "CARD-4"), ("R403", "AP-DEAL-1"))),
    Breaker("AP-TABLE-1", "a player count the profile does not take",
            lambda r: r.update(rules={"players": [2, 3]}), _rows(("P303", "AP-TABLE-1"))),
    Breaker("AP-TABLE-1", "a players option outside 2 to 7", lambda r: r.update(rules={"players": [4, 8]}),
            _rows(("P302", "AP-TABLE-1"))),
    Breaker("AP-TABLE-2", "partners side by side", _teams_side_by_side, _rows(("P303", "AP-TABLE-2")),
            (("auction-partners", 4),)),
    Breaker("AP-TABLE-2", "a team member who is not a player", _team_stranger,
            _rows(("P303", "AP-TABLE-2"), ("R413", "AP-TABLE-2")), (("auction-partners", 4),)),
    Breaker("AP-DEAL-1", "a card too many dealt", lambda r: _more_cards(r, "deal"), _rows(("R403", "AP-DEAL-1"))),
    Breaker("AP-DEAL-1", "cards swapped between two deals",
            lambda r: (_claims_off(r), _swap_deal(r, random.Random(len(r["hands"])))),
            _rows(("R403", "AP-DEAL-1"))),
    Breaker("AP-DEAL-2", "two hands swapped",
            lambda r: len(r["hands"]) > 2 and (_claims_off(r), _move(r["hands"], 2, 1)),
            _rows(("R405", "AP-DEAL-2")), ANY_TABLE),
    Breaker("AP-BID-1", "a call too many",
            _bids_edit(lambda b, n: len(b) == n, lambda b, n: b.append("pass")), _rows(("R404", "AP-BID-1"))),
    Breaker("AP-BID-1", "the dealer's pass left out",
            _bids_edit(lambda b, n: len(b) == n and b[-1] == "pass" and 4 not in b, lambda b, n: b.pop()),
            _rows(("R404", "AP-BID-1"))),
    Breaker("AP-BID-2", "a call of 0",
            _bids_edit(lambda b, n: "pass" in b[:n - 1],
                       lambda b, n: b.__setitem__(b.index("pass"), 0)), _rows(("R404", "AP-BID-2"))),
    Breaker("AP-BID-2", "a bid not higher", _bids_edit(_a_pass_after_a_bid, _not_higher),
            _rows(("R404", "AP-BID-2"))),
    Breaker("AP-BID-3", "a bid after the 4", _bids_edit(_closing_then, _after_closing),
            _rows(("R404", "AP-BID-3"))),
    Breaker("AP-BID-4", "the stuck dealer passes", _bids_edit(_stuck, lambda b, n: b.__setitem__(-1, "pass")),
            _rows(("R404", "AP-BID-4")), ANY_TABLE),
    Breaker("AP-BID-4", "the stuck dealer bids 1", _bids_edit(_stuck, lambda b, n: b.__setitem__(-1, 1)),
            _rows(("R404", "AP-BID-4"))),
    Breaker("AP-BID-6", "a contract that is not the auction's", lambda r: _contract(r),
            _rows(("C505", "AP-BID-6"))),
    Breaker("AP-BID-6", "a hand without bids", lambda r: r["hands"][0].pop("bids"), _rows(("R414", "AP-BID-6"))),
    Breaker("AP-PLAY-1", "a trump that is not the first card's suit",
            lambda r: r["hands"][0].update(trump="S" if r["hands"][0]["tricks"][0][0][-1] != "S" else "H"),
            _rows(("C506", "AP-PLAY-1"))),
    Breaker("AP-PLAY-1", "a trick missing", lambda r: (_claims_off(r), r["hands"][0]["tricks"].pop()),
            _rows(("R408", "AP-PLAY-1"))),
    Breaker("AP-PLAY-1", "an empty first trick",
            lambda r: (_claims_off(r), r["hands"][0]["tricks"].__setitem__(0, [])), _rows(("R410", "AP-PLAY-1"))),
    Breaker("AP-PLAY-1", "the first trick's leader recorded wrong", lambda r: _lead(r, 0, True),
            _rows(("C508", "AP-PLAY-1")), ANY_TABLE),
    Breaker("AP-PLAY-2", "a suit not followed",
            lambda r: (_claims_off(r), _unfollow(r, random.Random(len(r["hands"]))))[1] is not None,
            _rows(("R407", "AP-PLAY-2")), ANY_TABLE),
    Breaker("AP-PLAY-3", "a trick a card short", lambda r: (_claims_off(r), r["hands"][0]["tricks"][2].pop()),
            _rows(("R408", "AP-PLAY-3"))),
    Breaker("AP-PLAY-3", "a trick a card long", lambda r: _more_cards(r, "trick"), _rows(("R408", "AP-PLAY-3"))),
    Breaker("AP-PLAY-4", "a later trick's leader recorded wrong", lambda r: _lead(r, 2, True),
            _rows(("C508", "AP-PLAY-4")), ANY_TABLE),
    Breaker("AP-WIN-1", "a hand after the game was won",
            lambda r: r["result"]["winner"] is not None and len(r["hands"]) >= 4 and _after_the_end(r) is None,
            _rows(("R412", "AP-WIN-1"))),
    Breaker("C501", "High claimed for the wrong player", lambda r: _points(r), _rows(("C501", None))),
    Breaker("C502", "a score claimed wrong", EDITS["score"], _rows(("C502", None))),
    Breaker("C503", "a running total claimed wrong", EDITS["totals"], _rows(("C503", None))),
    Breaker("C504", "the wrong winner claimed", EDITS["result winner"], _rows(("C504", None))),
    Breaker("C504", "a final score claimed wrong", _result_scores, _rows(("C504", None))),
    Breaker("R413", "a dealer who is not a player", lambda r: r["hands"][0].update(dealer="Zed"),
            _rows(("R413", None))),
    Breaker("R413", "a contract's bidder who is not a player", lambda r: _contract(r, "Zed"),
            _rows(("R413", None))),
    Breaker("R413", "High claimed for somebody who is not a player", lambda r: _points(r, "Zed"),
            _rows(("R413", None))),
]


def _played_joker(rec: dict[str, Any]) -> None:
    """A play-level hand's last card played is a joker."""
    quick_streams.claims_off(rec)
    rec["hands"][-1]["tricks"][-1][-1] = "BJ"


def _played_again(rec: dict[str, Any]) -> None:
    """A play-level hand's last trick is led with the card that led the first
    (the last trick: the leader's only card, so no following can break)."""
    quick_streams.claims_off(rec)
    tricks = rec["hands"][0]["tricks"]
    tricks[-1][0] = tricks[0][0]


def _unplayed_card(rec: dict[str, Any]) -> None:
    """A play-level hand's third trick with a card nobody played added."""
    quick_streams.claims_off(rec)
    h = rec["hands"][0]
    played = {c for t in h["tricks"] for c in t}
    h["tricks"][2].append(next(c for c in _CARDS[:52] if c not in played))


def _contract_alone(rec: dict[str, Any], bid: int | None = None) -> None:
    """The first hand's bids replaced by its contract (of ``bid``, if given)."""
    quick_streams.claims_off(rec)
    a = analyze(rec).hands[0]
    assert a is not None
    h = rec["hands"][0]
    h.pop("bids")
    h["contract"] = {"bidder": rec["players"][a.bidder], "bid": a.bid if bid is None else bid}


def _at_levels(levels: tuple[str, ...], b: Breaker, expect: frozenset[tuple[str, str | None]] | None = None,
               tables: tuple[Table, ...] | None = None) -> list[Breaker]:
    """``b`` (an edit that reads only what records of ``levels`` have) for records of those levels."""
    return [replace(b, name=f"{b.name} ({level})", level=level, expect=b.expect if expect is None else expect,
                    tables=b.tables if tables is None else tables) for level in levels]


_BY_NAME = {b.name: b for b in BREAKERS}
PLAY, TALLY, BOTH = ("play",), ("tally",), ("play", "tally")
BREAKERS += [
    Breaker("CARD-1", "a joker played (play)", _played_joker, _rows(("R401", "CARD-1")), level="play"),
    Breaker("CARD-4", "a card played twice (play)", _played_again, _rows(("R402", "CARD-4")), ANY_TABLE,
            level="play"),
    Breaker("AP-PLAY-3", "a trick a card long (play)", _unplayed_card, _rows(("R408", "AP-PLAY-3")), level="play"),
    *(Breaker("AP-BID-2", f"a contract alone out of range ({level})", lambda r: _contract_alone(r, 5),
              _rows(("R404", "AP-BID-2")), level=level) for level in BOTH),
    Breaker("CARD-3", "a text that is no card, played (play)",
            lambda r: r["hands"][0]["tricks"][0].__setitem__(1, "1" + r["hands"][0]["tricks"][0][1][-1]),
            _rows(("S204", None)), level="play"),
    *(b for name in ("a call too many", "the stuck dealer passes", "a bid after the 4", "a bid not higher",
                     "a contract that is not the auction's", "a hand without bids", "two hands swapped",
                     "a score claimed wrong", "a running total claimed wrong", "the wrong winner claimed",
                     "a final score claimed wrong", "a dealer who is not a player",
                     "a contract's bidder who is not a player", "a hand after the game was won")
      for b in _at_levels(BOTH, _BY_NAME[name])),
    *(b for name in ("a trump that is not the first card's suit", "a trick missing", "an empty first trick",
                     "the first trick's leader recorded wrong", "a suit not followed", "a trick a card short",
                     "a later trick's leader recorded wrong", "High claimed for the wrong player")
      for b in _at_levels(PLAY, _BY_NAME[name])),
    *_at_levels(TALLY, _BY_NAME["High claimed for somebody who is not a player"]),
]
VALID_SEEDS = range(1000, 1064)  # 64 valid games of each table: enough for the quick pass to run


@dataclass
class Judged:
    """A broken game's diagnostics alone and in the stream (``quick_streams.key``)."""

    alone: list[tuple[object, ...]]
    in_stream: list[tuple[object, ...]]
    codes: set[tuple[str, str | None]]
    quick: bool  # the quick pass decided it in the stream (never right for a broken game)


def _broken_game(b: Breaker, variant: str, players: int) -> dict[str, Any]:
    """A game of the table broken by ``b``: the first seed it applies to with the diagnostics it expects."""
    for seed in range(60):
        rec = quick_streams.LEVELS[b.level](simulate_game(variant, players=players, seed=seed))
        if b.edit(rec) is False:
            continue
        alone, = check_source("game.json", io.BytesIO(json.dumps(rec).encode()))
        if {(d.code, d.rule) for d in alone.diagnostics} == b.expect:
            return rec
    raise AssertionError(f"{b.name!r} breaks no {b.level} game of {variant} for {players} alone")


def _stream_tables() -> list[tuple[Table, str]]:
    """The tables and levels of the breakers' streams."""
    return sorted({(t, b.level) for b in BREAKERS for t in b.tables})


@pytest.fixture(scope="module")
def coverage_streams() -> dict[tuple[str, Table, str], Judged]:
    """Every breaker's game, one per table, inside a stream of the table's 64
    valid games of its level (JSON Lines and YAML), judged in the stream and
    alone; under the key ("valid", table, format), with the level after the
    table's players, how many of the valid games the quick pass decided
    (``Judged.codes`` holds their diagnostics)."""
    out: dict[tuple[str, Any, str], Judged] = {}
    for (variant, players), level in _stream_tables():
        valid = [quick_streams.LEVELS[level](simulate_game(variant, players=players, seed=s)) for s in VALID_SEEDS]
        broken = [(b.name, _broken_game(b, variant, players)) for b in BREAKERS
                  if (variant, players) in b.tables and b.level == level]
        records: list[dict[str, Any]] = []
        at: dict[str, int] = {}
        for i, rec in enumerate(valid):  # a broken game after every other valid one, then the rest
            records.append(rec)
            if i % 2 and len(at) < len(broken):
                name, bad = broken[len(at)]
                at[name] = len(records)
                records.append(bad)
        for name, bad in broken[len(at):]:
            at[name] = len(records)
            records.append(bad)
        for fmt in quick_streams.FORMATS:
            s = quick_streams.stream(records, fmt)
            found = quick_streams.check_stream(s)
            assert len(found) == len(records)
            decided = {k for k, c in enumerate(found) if c.analysis is not None and _took_quick_pass(c.analysis)}
            valid_at = set(range(len(records))) - set(at.values())
            out["valid", (variant, players, level), fmt] = Judged(
                [], [], {(d.code, d.rule) for k in valid_at for d in found[k].diagnostics}, valid_at <= decided)
            for name, k in at.items():
                alone = quick_streams.check_alone(s, k)
                out[name, (variant, players), fmt] = Judged(
                    quick_streams.keys(alone), quick_streams.keys(found[k], s.first_lines[k]),
                    {(d.code, d.rule) for d in alone.diagnostics}, k in decided)
    return out


def test_the_valid_games_of_the_coverage_streams_are_decided_by_the_quick_pass(
        coverage_streams: dict[tuple[str, Any, str], Judged]) -> None:
    """Else the streams would not test the quick pass at all."""
    for table, level in _stream_tables():
        for fmt in quick_streams.FORMATS:
            valid = coverage_streams["valid", (*table, level), fmt]
            assert valid.quick and not valid.codes, (table, level, fmt)


@pytest.mark.parametrize("row", sorted(COVERAGE))
def test_each_covered_rule_broken_alone_in_a_stream_is_reported_as_alone(
        row: str, coverage_streams: dict[tuple[str, Any, str], Judged], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each row of ``quick.COVERAGE``, broken alone in a game inside a stream
    of 64 valid games of its table (where the quick pass judges every clean
    game): the game's diagnostics there are its diagnostics alone."""
    breakers = [b for b in BREAKERS if b.row == row]
    assert breakers, f"no test breaks {row}: add a Breaker"
    if COVERAGE[row].startswith("checked"):  # then the quick pass is offered the game: no schema or table problem
        assert all(code[0] in "RC" for b in breakers for code, _ in b.expect), row
    for b in breakers:
        for table in b.tables:
            for fmt in quick_streams.FORMATS:
                judged = coverage_streams[b.name, table, fmt]
                assert judged.codes == b.expect, (b.name, table, fmt)
                assert judged.in_stream == judged.alone, (b.name, table, fmt)
                assert not judged.quick, (b.name, table, fmt)


def _auction_rule_ids() -> set[str]:
    """The rule ids a diagnostic of an Auction Pitch record can carry, from the
    engine's data: its Auction rule book (``Family.rule_ids``: the rules the
    kinds of problem are reported under) and the ids the engine and the analysis
    name where they report (``_v("R402", "CARD-4", ...)``), of the rules of
    the cards and of Auction Pitch (``data/rules.toml``)."""
    from pitchcli.engine.family import family_for
    from pitchcli.views import reference

    named = re.compile(r'(?:_v|bad|Violation)\(\s*"[A-Z]\d{3}",\s*"([A-Z]+[A-Z0-9]*(?:-[A-Z0-9]+)+)"')
    sources = [*(ROOT / "pitchcli" / "engine").glob("*.py"), ROOT / "pitchcli" / "pipeline" / "feed.py"]
    found = {rule for path in sources for rule in named.findall(path.read_text("utf-8"))}
    auction = {r.id for r in reference.rules().values() if r.part in ("cards", "auction")}
    return (family_for("auction", "play-all").rule_ids() | found) & auction


def _unruled_codes() -> set[str]:
    """The codes the analysis reports with no rule id for a game's hands and
    result: the claims it compares and the names it does not know."""
    source = (ROOT / "pitchcli" / "pipeline" / "feed.py").read_text("utf-8")
    return set(re.findall(r'compare\(\s*"([A-Z]\d{3})"', source)) | set(
        re.findall(r'bad\(\s*"([A-Z]\d{3})",\s*None', source))


def test_the_coverage_names_every_auction_rule_the_engine_can_raise() -> None:
    rule_ids = {k for k in COVERAGE if not re.fullmatch(r"[A-Z]\d{3}", k)}
    assert len(_auction_rule_ids()) > 12  # the scan finds the rule book, not nothing
    assert rule_ids == _auction_rule_ids()
    assert set(COVERAGE) - rule_ids == _unruled_codes() == {"C501", "C502", "C503", "C504", "R413"}
    for how in COVERAGE.values():
        assert how.startswith(("checked: ", "replayed: ")), how


@pytest.mark.parametrize("variant", ["auction", "ten-point", "ten-point-5"])
@pytest.mark.parametrize("where", ["tricks", "deal"])
@pytest.mark.parametrize("bad", ["ZZ", "", 7, None, ["AS"], {"AS": 1}, True])
def test_a_text_that_is_no_card_leaves_its_game_to_the_replay(variant: str, where: str, bad: object) -> None:
    """The quick pass reads a card by ``NOTATION_INDEX.__getitem__``: a value that is
    no card (not given it by the schema, as a script may) raises there, and its
    game, dropped half read, is replayed in full; the games around it in the
    batch are decided as before, their cards unshifted."""
    records = [simulate_game(variant, seed=seed) for seed in range(3)]
    hand = records[1]["hands"][-1]
    if where == "tricks":
        hand["tricks"][-1][-1] = bad
    else:
        first = next(iter(hand["deal"]))
        hand["deal"][first][-1] = bad
    found = analyze_many(records)
    assert found[1] is None
    assert analyze(records[1]).violations  # the full replay finds it
    for k in (0, 2):
        assert found[k] is not None, k
        _same(found[k], analyze(records[k]))


def test_card_rows_shift_every_card_by_one_and_read_no_card_as_none() -> None:
    """The batch's card lists become the arrays its rules read: each card's
    ``Card.index`` plus one, ``NO_CARD`` (a place the record leaves unwritten)
    as 0, "not a card", in rows of the width asked; every index of the deck
    fits the byte each is read through."""
    every = [c.index for c in ALL_CARDS]
    assert max(every) < NO_CARD and min(every) >= 0
    flat = card_rows([*every, NO_CARD])
    assert flat.tolist() == [i + 1 for i in every] + [0]
    assert flat.dtype.kind == "i" and flat.dtype.itemsize == 8  # (indices into the rule arrays, summed and compared)
    rows = card_rows([3, NO_CARD, 0, 7, 1, NO_CARD], 2, 3)
    assert rows.tolist() == [[4, 0, 1], [8, 2, 0]]
    assert card_rows([], 4, 0).shape == (4, 0)  # (no dead cards at this table)
