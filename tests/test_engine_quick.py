"""The engine's quick pass (``analyze(..., quick=True)``) is only a shortcut.

It may decide a clean game without the full replay, and must then give what
the full replay gives (no violation, the same totals, winner, hands and end);
for anything else it must step aside, so that every diagnostic is the full
replay's. Checked on simulated games of every Auction profile and option, on
every kind of change to them (a generic mutation of any value of any hand,
many per game), and on the games the quick pass does not know (ten-point).

PITCH_QUICK_GAMES sets the number of games per configuration (default 30).
"""

from __future__ import annotations

import copy
import io
import json
import os
import random
from dataclasses import fields, replace
from typing import Any

import pytest
import quick_streams

from pitchcli.analysis import GameAnalysis, analyze, analyze_many
from pitchcli.cards import ALL_CARDS
from pitchcli.check import check_source
from pitchcli.engine.quick import PROFILE_VALUES, QuickBatch
from pitchcli.profiles import Profile
from pitchcli.simulate import simulate_game

GAMES = int(os.environ.get("PITCH_QUICK_GAMES", "30"))
AUCTION = [("auction", n) for n in range(2, 8)] + [("auction-partners", 4), ("auction-partners", 6)]


@pytest.fixture(autouse=True)
def _quick_for_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """``check_source`` runs the quick pass on a single document too (it
    waits for a chunk of many, otherwise)."""
    from pitchcli import check

    monkeypatch.setattr(check, "QUICK_MIN", 1)


def _same(quick: GameAnalysis, full: GameAnalysis) -> None:
    assert quick.violations == full.violations
    assert (quick.totals, quick.winner, quick.winner_hand) == (full.totals, full.winner, full.winner_hand)
    assert quick.end == full.end
    assert [None if h is None else (h.bidder, h.bid, h.delta, h.totals) for h in quick.hands] == \
        [None if h is None else (h.bidder, h.bid, h.delta, h.totals) for h in full.hands]


def _took_quick_pass(a: GameAnalysis) -> bool:
    return a._replay is not None  # the hands are still to be replayed: the quick pass decided


@pytest.mark.parametrize(("variant", "players"), AUCTION)
def test_a_clean_game_is_decided_by_the_quick_pass(variant: str, players: int) -> None:
    for seed in range(GAMES):
        rec = simulate_game(variant, players=players, seed=seed)
        quick = analyze(rec, quick=True)
        assert _took_quick_pass(quick), seed  # else validate would not be faster
        assert quick.violations == []
        _same(quick, analyze(rec))


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


@pytest.mark.parametrize("variant", ["ten-point", "ten-point-5"])
def test_a_game_the_quick_pass_does_not_know_is_replayed_in_full(variant: str) -> None:
    rec = simulate_game(variant, players=5 if variant.endswith("5") else 4, seed=1)
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
    from pitchcli import check

    monkeypatch.setattr(check, "QUICK_CHUNK", 40)  # several chunks, one cut mid-stream
    monkeypatch.setattr(check, "QUICK_HANDS", 300)  # and some cut by their hands
    monkeypatch.setattr(check, "QUICK_MIN", 20)  # the last chunk, of 10, replayed in full
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
    from pitchcli import check

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
        changed = replace(table, profile=replace(p, **{option: new}))
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
    changed = replace(table, profile=replace(table.profile, **{option: value}))
    assert not QuickBatch.handles(changed)


@pytest.mark.parametrize("variant", ["auction", "auction-partners"])
def test_the_built_in_auction_profiles_are_handled(variant: str) -> None:
    table = analyze(simulate_game(variant, players=4, seed=1)).table
    assert table is not None and QuickBatch.handles(table)
    for rules in ({"low": "played"}, {"win_on_set": True}, {"steal": False}, {"target": 11}):
        assert QuickBatch.handles(replace(table, profile=replace(table.profile, **rules)))
