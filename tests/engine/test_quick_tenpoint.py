"""The quick pass on ten-point games: an oracle for any implementation of it.

The quick pass (``analyze_many``) may skip the full replay of a game only when
the game has no diagnostic, and must then give exactly what the full replay
gives (``_same``: the scores, totals, winner, hands and end). Held here to that
on ten-point records, whatever the quick pass does with them:

* clean simulated games of every ten-point profile and player count, alone and
  in a batch: each verdict is ``None`` or the full replay's; the clean games of
  every profile are all decided by the quick pass (``engine.quick_points``),
  and its tallies; play-level hands (no deal, discards, draws) are replayed in
  full;
* a library of targeted mutations (``MUTATIONS``), each breaking one rule of
  one hand (chosen at random, seeded) of a clean game: the exchange (TP4-3 to
  TP4-5), CARD-4, the dead cards, the deck, the deal count, the bids, trump,
  the play, the points in play, the dealer, a hand after the game was won and
  every claim. Each must give the full replay a diagnostic (so that a no-op
  edit fails loudly), and the quick pass must step aside for the broken game:
  alone, inside a batch of clean games of its table (which keep their
  verdicts), and inside a JSON Lines stream of 64 valid games, where its
  diagnostics must be its diagnostics alone;
* edits that leave a game legal (``EQUIVALENTS``: claims written out right,
  other notations, leads written, a stuck dealer's 5 written as a pass, ...):
  the full replay finds nothing, the quick pass agrees or steps aside;
* a generic random fuzz (``_mutate`` of test_engine_quick.py and moves of
  cards between the lists of a ten-point hand): every verdict of the quick
  pass is the full replay's, and a game with a violation is never decided.

PITCH_QUICK_GAMES sets the number of games per configuration (default 20).
"""

from __future__ import annotations

import copy
import io
import json
import os
import random
import re
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from support import quick_streams
from test_engine_quick import _mutate, _quick_for_one, _same, _took_quick_pass  # noqa: F401 (an autouse fixture)
from test_tenpoint_properties import Reference, Trump, seats_of_tricks, winner_of

from pitchcli.pipeline.check import check_source
from pitchcli.pipeline.feed import GameAnalysis, analyze, analyze_many
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import builtin_profiles, resolve
from pitchcli.record import profile_fields, schema

GAMES = int(os.environ.get("PITCH_QUICK_GAMES", "20"))
Table = tuple[str, int]  # (variant, players)
TEN_POINT: tuple[Table, ...] = tuple(sorted((name, n) for name, p in builtin_profiles().items()
                                            if p.family == "ten-point" for n in p.players))
# The profiles whose exchange is the refill one (discards, draws, dead cards), by the profiles' data.
REFILL: tuple[Table, ...] = tuple(t for t in TEN_POINT if resolve(t[0]).mode == "refill")
WITH_DEAD: tuple[Table, ...] = tuple(t for t in REFILL if resolve(t[0]).dead)
NO_DEAD: tuple[Table, ...] = tuple(t for t in REFILL if not resolve(t[0]).dead)
CASES = max(1, GAMES // 20)  # broken games per mutation and table
SEEDS = range(max(GAMES, 8))  # the games a mutation is tried on (more for a rare one: Mutation.seeds)
VALID_SEEDS = range(200, 264)  # 64 valid games of a table: a stream the quick pass runs on
BATCH = 20  # clean games in a batch around a broken one


def test_the_tables() -> None:
    """Every ten-point profile is here, with its players; refill ones by their mode."""
    assert {t[0] for t in TEN_POINT} == {"ten-point", "ten-point-2", "ten-point-3", "ten-point-5",
                                         "ten-point-6", "ten-point-7", "ten-point-8"}
    assert REFILL == (("ten-point", 4), ("ten-point-2", 2), ("ten-point-3", 3))
    assert WITH_DEAD == (("ten-point-2", 2), ("ten-point-3", 3))


# --- games ----------------------------------------------------------------------------


@cache
def _text(table: Table, seed: int) -> str:
    return json.dumps(simulate_game(table[0], players=table[1], seed=seed))


def _game(table: Table, seed: int) -> dict[str, Any]:
    """A fresh copy of a clean simulated game."""
    return json.loads(_text(table, seed))


@cache
def _full(table: Table, seed: int) -> GameAnalysis:
    """The full replay of a clean simulated game (clean: checked)."""
    a = analyze(_game(table, seed))
    assert a.violations == [], (table, seed, a.violations[:2])
    return a


def _schema_clean(rec: dict[str, Any]) -> bool:
    """No schema problem and no field the profile lacks: what ``analyze_many`` is given."""
    return not schema.validate(rec) and not profile_fields.validate(rec)


def _agrees(quick: GameAnalysis | None, rec: dict[str, Any], full: GameAnalysis | None = None) -> None:
    """The oracle: the quick pass steps aside (None), or decided a game with no
    violation and gives what the full replay gives."""
    if quick is None:
        return
    full = full or analyze(rec)
    assert full.violations == [], full.violations[:3]  # decided: the full replay must find nothing
    _same(quick, full)


def _play_level(rec: dict[str, Any], keep_dead: bool = False) -> dict[str, Any]:
    """A ten-point game written play-level: no deal, discards, draws (nor,
    unless ``keep_dead``, dead cards)."""
    out = copy.deepcopy(rec)
    for h in out["hands"]:
        for key in ("deal", "discards", "draws", "kitty", *(() if keep_dead else ("dead",))):
            h.pop(key, None)
    return out


def _called_cards(h: dict[str, Any]) -> set[str]:
    """The cards hand ``h`` calls (``partner.card`` or ``partner.cards``; none without a call)."""
    call = h.get("partner", {})
    return {call["card"]} if "card" in call else set(call.get("cards", ()))


def _named(call: dict[str, Any], holders: list[str]) -> dict[str, Any]:
    """The call ``call`` with the holder of each card it calls written down."""
    return {**call, **({"players": holders} if len(holders) > 1 else {"player": holders[0]})}


def _unplayed_calls(h: dict[str, Any]) -> bool:
    """Whether hand ``h`` calls a card that none of its tricks shows."""
    played = {c for t in h.get("tricks", ()) for c in (t["cards"] if isinstance(t, dict) else t)}
    return not _called_cards(h) <= played


def _play_level_named(rec: dict[str, Any], keep_dead: bool = False) -> dict[str, Any]:
    """``_play_level``, and a called card that no trick shows (its holder, the
    bidder herself, discarded it) with its holder written down, as a scorer
    must (TP5-3: else R411): every clean game has a clean play-level record."""
    out = _play_level(rec, keep_dead)
    a = analyze(rec)
    assert a.table is not None and not a.violations
    for h, r in zip(out["hands"], a.hands, strict=True):
        if r is not None and _unplayed_calls(h) and not {"player", "players"} & set(h["partner"]):
            h["partner"] = _named(h["partner"], [a.table.players[s] for s in r.card_holders])
    return out


def _tally(rec: dict[str, Any]) -> dict[str, Any]:
    """A ten-point game written as a tally: per hand the points each unit took, no cards."""
    a = analyze(rec)
    assert a.table is not None and not a.violations
    names = a.table.unit_names
    out = copy.deepcopy(rec)
    for h, r in zip(out["hands"], a.hands, strict=True):
        assert r is not None
        for key in ("deal", "discards", "draws", "dead", "kitty", "tricks"):
            h.pop(key, None)
        h["points"] = dict(zip(names, r.taken, strict=True))
        if "partner" in h:  # a table of called partners: the holder of each card called, as the cards showed
            holders = [a.table.players[s] for s in r.card_holders]
            h["partner"] = _named(h["partner"], holders)
    return out


# --- 1, 2: clean games ----------------------------------------------------------------


@pytest.mark.parametrize("table", TEN_POINT)
def test_a_clean_game_is_the_full_replays_or_replayed(table: Table) -> None:
    records = [_game(table, seed) for seed in range(GAMES)]
    in_batch = analyze_many(records)
    for seed, (rec, quick) in enumerate(zip(records, in_batch, strict=True)):
        full = _full(table, seed)
        _agrees(quick, rec, full)
        alone, = analyze_many([rec])
        _agrees(alone, rec, full)
        if seed < 5:
            _same(analyze(rec, quick=True), full)


@pytest.mark.parametrize("table", TEN_POINT)
def test_clean_games_are_decided_by_the_quick_pass(table: Table) -> None:
    records = [_game(table, seed) for seed in range(GAMES)]
    for seed, (rec, quick) in enumerate(zip(records, analyze_many(records), strict=True)):
        assert quick is not None and _took_quick_pass(quick), (table, seed)
        assert quick.violations == []
        _same(quick, _full(table, seed))
        alone, = analyze_many([rec])
        assert alone is not None and _took_quick_pass(alone), (table, seed)


def _one_hand_as(rec: dict[str, Any], level: Callable[[dict[str, Any]], dict[str, Any]], i: int) -> dict[str, Any]:
    """``rec`` with its hand ``i`` written at another level (the others full detail)."""
    out = copy.deepcopy(rec)
    out["hands"][i] = level(rec)["hands"][i]
    return out


@pytest.mark.parametrize("kind", ["play", "play with the dead cards", "tally", "one play hand", "one tally hand"])
def test_play_level_hands_and_tallies_are_decided(kind: str) -> None:
    """Play-level hands of ten-point (the tricks alone, the dead cards recorded
    or not: what each seat holds is what it plays) and its tallies, alone or a
    hand among full ones, are decided by the quick pass, as the full replay
    scores them (the full replay of each is clean)."""
    tables = WITH_DEAD if kind == "play with the dead cards" else TEN_POINT
    for table in tables:
        records = []
        for seed in range(GAMES):
            rec = _game(table, seed)
            if kind in ("play", "tally", "play with the dead cards"):
                rec = _tally(rec) if kind == "tally" else _play_level_named(rec, keep_dead=kind != "play")
            else:
                i = random.Random(seed).randrange(len(rec["hands"]))
                rec = _one_hand_as(rec, _play_level_named if kind == "one play hand" else _tally, i)
            assert analyze(rec).violations == [], (kind, table, seed)
            records.append(rec)
        for rec, quick in zip(records, analyze_many(records), strict=True):
            assert quick is not None and _took_quick_pass(quick), (kind, table)
            _same(quick, analyze(rec))
        for rec in records[:3]:
            alone, = analyze_many([rec])
            assert alone is not None and _took_quick_pass(alone), (kind, table)


# --- 3: the mutations -----------------------------------------------------------------


class HandView:
    """One hand of a clean game as the rules read again see it
    (test_tenpoint_properties.Reference): its bidder, trump, and the seat of
    every card played; what the edits of one hand work from."""

    def __init__(self, rec: dict[str, Any], i: int, ref: Reference) -> None:
        self.rec, self.i = rec, i
        self.h: dict[str, Any] = rec["hands"][i]
        self.names: list[str] = rec["players"]
        facts = ref.hands[i]
        self.bidder: str = self.names[facts["bidder"]]
        self.bid: int = facts["bid"]
        self.t: Trump = facts["trump"]
        self.seats = seats_of_tricks(rec, i, ref)
        self.win = [winner_of(tr, self.t) for tr in self.h["tricks"]]
        self.hand = resolve(rec["variant"]).hand

    def others(self) -> list[str]:
        return [p for p in self.names if p != self.bidder]

    def played(self, name: str) -> dict[str, tuple[int, int]]:
        """The cards ``name`` played, each with its (trick, place in the trick)."""
        s = self.names.index(name)
        return {self.h["tricks"][k][seats.index(s)]: (k, seats.index(s)) for k, seats in enumerate(self.seats)}

    def trump(self, c: str) -> bool:
        return self.t.is_trump(c)

    def point(self, c: str) -> bool:
        return self.t.value(c) > 0

    def spare(self) -> list[str]:
        """The cards the bidder drew and threw away (never point cards): free to move."""
        d = self.h["discards"][self.bidder]
        return [e for e in self.h["draws"][self.bidder] if e in d]

    def same_winners(self, changes: dict[tuple[int, int], str]) -> bool:
        """True if the tricks with ``changes`` (trick, place -> card) have the same winners."""
        tricks = [list(t) for t in self.h["tricks"]]
        for (k, j), c in changes.items():
            tricks[k][j] = c
        return all(winner_of(tricks[k], self.t) == self.win[k] for k, _ in changes)

    def move_spare(self, e: str) -> None:
        """Take ``e`` (``spare``) out of the bidder's draws and discards."""
        self.h["draws"][self.bidder].remove(e)
        self.h["discards"][self.bidder].remove(e)


HandEdit = Callable[[HandView, random.Random], bool]
Edit = Callable[[dict[str, Any], random.Random], bool]


def _in_a_hand(edit: HandEdit) -> Edit:
    """An edit of one hand, chosen at random: the first (in a random order) it applies to."""
    def apply(rec: dict[str, Any], rng: random.Random) -> bool:
        order = list(range(len(rec["hands"])))
        rng.shuffle(order)
        ref = Reference(rec)
        for i in order:
            trial = {**rec, "hands": list(rec["hands"])}
            trial["hands"][i] = copy.deepcopy(rec["hands"][i])  # (the edit changes this hand only)
            if edit(HandView(trial, i, ref), rng):
                rec["hands"][i] = trial["hands"][i]
                return True
        return False
    return apply


def _pick(rng: random.Random, items: list[Any]) -> list[Any]:
    """``items`` in a random order."""
    items = list(items)
    rng.shuffle(items)
    return items


# The exchange (TP4-3 .. TP4-5) and CARD-4.

def _kept_off_card(v: HandView, rng: random.Random) -> bool:
    """TP4-3: a non-bidder keeps a non-trump he was dealt (and plays it instead
    of a card he drew, which goes to the bidder, who throws it away)."""
    h = v.h
    for p in _pick(rng, v.others()):
        played = v.played(p)
        offs = [c for c in h["deal"][p] if not v.trump(c) and c in h["discards"][p]]
        drawn = [d for d in h["draws"][p] if not v.point(d) and d in played]
        for c, d in _pick(rng, [(c, d) for c in offs for d in drawn]):
            if not v.same_winners({played[d]: c}):
                continue
            h["discards"][p].remove(c)
            h["draws"][p].remove(d)
            h["draws"][v.bidder].append(d)
            h["discards"][v.bidder].append(d)
            k, j = played[d]
            h["tricks"][k][j] = c
            return True
    return False


def _throws_a_trump(v: HandView, rng: random.Random, players: list[str] | None = None) -> bool:
    """TP4-3: a non-bidder (of ``players``) holding at most six trumps throws a
    non-point trump he played, draws one more card (one the bidder drew and
    threw) and plays it instead."""
    h = v.h
    for p in _pick(rng, v.others() if players is None else players):
        trumps = [c for c in h["deal"][p] if v.trump(c)]
        played = v.played(p)
        kept = [x for x in trumps if not v.point(x) and x in played and x not in h["discards"][p]]
        for x, e in _pick(rng, [(x, e) for x in kept for e in v.spare()]):
            if not v.same_winners({played[x]: e}):
                continue
            h["discards"][p].append(x)
            h["draws"][p].append(e)
            v.move_spare(e)
            k, j = played[x]
            h["tricks"][k][j] = e
            return True
    return False


def _dealt_seven_trumps(v: HandView, rng: random.Random) -> str | None:
    """(Legal: TP4-5) a non-bidder who plays six trumps is dealt them, two off
    cards and a seventh trump, not a point card (one the bidder drew and threw),
    and throws the off cards and that trump; the other off cards he was dealt
    go to the bidder, who draws and throws them. Returns the player."""
    h, b = v.h, v.bidder
    for p in _pick(rng, v.others()):
        played = list(v.played(p))
        offs = [c for c in h["deal"][p] if not v.trump(c)]
        seventh = [z for z in v.spare() if v.trump(z) and not v.point(z)]
        if not (all(map(v.trump, played)) and set(h["deal"][p]) - set(offs) <= set(played)
                and len(offs) >= 2 and seventh):
            continue
        z = rng.choice(seventh)
        v.move_spare(z)
        h["draws"][b] += offs[2:]
        h["discards"][b] += offs[2:]
        h["deal"][p] = _pick(rng, [*played, z, *offs[:2]])
        h["discards"][p] = [*offs[:2], z]
        h["draws"][p] = []
        return p
    return None


def _throws_more_than_excess(v: HandView, rng: random.Random) -> bool:
    """TP4-5: a non-bidder dealt seven trumps throws two (and draws one, as in ``_throws_a_trump``)."""
    p = _dealt_seven_trumps(v, rng)
    return p is not None and _throws_a_trump(v, rng, [p])


def _throws_a_point(v: HandView, rng: random.Random) -> bool:
    """TP4-4: the bidder throws away a point card he played and plays a card he threw instead."""
    h, b = v.h, v.bidder
    played = v.played(b)
    points = [c for c in played if v.point(c)]
    thrown = [x for x in h["discards"][b] if not v.point(x)]
    for c, x in _pick(rng, [(c, x) for c in points for x in thrown]):
        if not v.same_winners({played[c]: x}):
            continue
        d = h["discards"][b]
        d[d.index(x)] = c
        k, j = played[c]
        h["tricks"][k][j] = x
        return True
    return False


def _discards_crossed(v: HandView, rng: random.Random) -> bool:
    """TP4-4: two players' discards crossed: each throws a card the other held."""
    h = v.h
    for p, q in _pick(rng, [(p, q) for p in v.names for q in v.names if p < q]):
        if h["discards"][p] and h["discards"][q]:
            dp, dq = h["discards"][p], h["discards"][q]
            i, j = rng.randrange(len(dp)), rng.randrange(len(dq))
            dp[i], dq[j] = dq[j], dp[i]
            return True
    return False


def _draws_one_more(v: HandView, rng: random.Random) -> bool:
    """TP4-4: a non-bidder is given a card too many (a non-trump the bidder drew
    and threw), and throws it away."""
    spare = [e for e in v.spare() if not v.trump(e)]
    if not spare:
        return False
    e = rng.choice(spare)
    p = rng.choice(v.others())
    v.move_spare(e)
    v.h["draws"][p].append(e)
    v.h["discards"][p].append(e)
    return True


def _bidder_short(v: HandView, rng: random.Random) -> bool:
    """TP4-4: the bidder does not take all the rest of the pack (a card he drew
    and threw is gone from his draws and discards)."""
    spare = v.spare()
    if not spare:
        return False
    v.move_spare(rng.choice(spare))
    return True


def _left_with_seven(v: HandView, rng: random.Random) -> bool:
    """TP4-4: the bidder keeps a card he threw: seven cards for six tricks."""
    d = v.h["discards"][v.bidder]
    if not d:
        return False
    d.pop(rng.randrange(len(d)))
    return True


def _drawn_and_dealt(v: HandView, rng: random.Random) -> bool:
    """CARD-4: the bidder draws (and throws) a card dealt to another player, who threw it too."""
    h = v.h
    dealt = [(q, c) for q in v.others() for c in h["deal"][q] if c in h["discards"][q]]
    if not dealt or not v.spare():
        return False
    _, c = rng.choice(dealt)
    e = rng.choice(v.spare())
    for key in ("draws", "discards"):
        cs = h[key][v.bidder]
        cs[cs.index(e)] = c
    return True


def _discarded_twice(v: HandView, rng: random.Random) -> bool:
    """CARD-4: a player's discards list one card twice."""
    for p in _pick(rng, v.names):
        d = v.h["discards"][p]
        if d:
            d.insert(rng.randrange(len(d) + 1), rng.choice(d))
            return True
    return False


def _discarded_by_two(v: HandView, rng: random.Random) -> bool:
    """CARD-4: a card one player discarded is in another player's discards too."""
    for p, q in _pick(rng, [(p, q) for p in v.names for q in v.names if p != q]):
        if v.h["discards"][q]:
            v.h["discards"][p].append(rng.choice(v.h["discards"][q]))
            return True
    return False


def _plays_a_thrown_card(v: HandView, rng: random.Random) -> bool:
    """TP4-4 / CARD-4: a non-bidder plays a card the bidder drew and threw."""
    for p in _pick(rng, v.others()):
        played = v.played(p)
        for x, e in _pick(rng, [(x, e) for x in played for e in v.spare()]):
            if v.same_winners({played[x]: e}):
                k, j = played[x]
                v.h["tricks"][k][j] = e
                return True
    return False


def _kept_cards(v: HandView, p: str) -> list[str]:
    """The cards ``p`` was dealt and played."""
    played = v.played(p)
    return [c for c in v.h["deal"][p] if c in played]


def _swap_dealt(everywhere: bool) -> HandEdit:
    """Two players' cards (dealt and played; trumps, so that TP4-3 still
    holds) swapped in the deal and (``everywhere``) in the tricks too."""
    def edit(v: HandView, rng: random.Random) -> bool:
        h = v.h
        pairs = [(p, q) for p in v.names for q in v.names if p < q]
        for p, q in _pick(rng, pairs):
            pp, qp = v.played(p), v.played(q)
            options = [(a, b) for a in _kept_cards(v, p) for b in _kept_cards(v, q)
                       if v.trump(a) and v.trump(b)]
            for a, b in _pick(rng, options):
                if everywhere and not v.same_winners({pp[a]: b, qp[b]: a}):
                    continue
                dp, dq = h["deal"][p], h["deal"][q]
                i, j = dp.index(a), dq.index(b)
                dp[i], dq[j] = b, a
                if everywhere:
                    (k, x), (m, y) = pp[a], qp[b]
                    h["tricks"][k][x], h["tricks"][m][y] = b, a
                return True
        return False
    return edit


# The dead cards.

def _dead_short(v: HandView, rng: random.Random) -> bool:
    """TP4-2: a card too few set aside (it is gone from the hand)."""
    v.h["dead"].pop(rng.randrange(len(v.h["dead"])))
    return True


def _dead_played(v: HandView, rng: random.Random) -> bool:
    """TP4-4: a player plays a dead card instead of one of his."""
    for p in _pick(rng, v.names):
        played = v.played(p)
        for x, y in _pick(rng, [(x, y) for x in played for y in v.h["dead"]]):
            if v.same_winners({played[x]: y}):
                k, j = played[x]
                v.h["tricks"][k][j] = y
                return True
    return False


# The deck and the deal.

def _no_card(v: HandView, rng: random.Random) -> bool:
    """CARD-3: a card dealt and played written as a text that is no card (the schema's, S204)."""
    p = rng.choice([p for p in v.names if _kept_cards(v, p)])
    c = rng.choice(_kept_cards(v, p))
    k, j = v.played(p)[c]
    text = "1" + c[-1] if c[-1] in "SHDC" else "XJ"
    v.h["deal"][p][v.h["deal"][p].index(c)] = text
    v.h["tricks"][k][j] = text
    return True


def _dealt_short(v: HandView, rng: random.Random) -> bool:
    """TP4-2: a non-bidder dealt a card too few (a non-trump he threw: gone from the hand)."""
    for p in _pick(rng, v.others()):
        offs = [c for c in v.h["deal"][p] if not v.trump(c) and c in v.h["discards"][p]]
        if offs:
            c = rng.choice(offs)
            v.h["deal"][p].remove(c)
            v.h["discards"][p].remove(c)
            return True
    return False


def _dealt_long(v: HandView, rng: random.Random) -> bool:
    """TP4-2: a non-bidder dealt a card too many (a non-trump the bidder drew and
    threw), which he throws away."""
    spare = [e for e in v.spare() if not v.trump(e)]
    if not spare:
        return False
    e, p = rng.choice(spare), rng.choice(v.others())
    v.move_spare(e)
    v.h["deal"][p].insert(rng.randrange(len(v.h["deal"][p]) + 1), e)
    v.h["discards"][p].append(e)
    return True


# The bids (TP-BID-1).

def _numbers(bids: list[Any]) -> list[int]:
    return [b for b in bids if b != "pass"]


def _a_pass_made(value: int) -> HandEdit:
    """TP-BID-1: a pass (before any 10) made a call of ``value`` (4 or 11: out of range)."""
    def edit(v: HandView, rng: random.Random) -> bool:
        bids = v.h["bids"]
        at = [i for i, b in enumerate(bids) if b == "pass" and 10 not in bids[:i]]
        if not at:
            return False
        bids[rng.choice(at)] = value
        return True
    return edit


def _not_higher(v: HandView, rng: random.Random) -> bool:
    """TP-BID-1: a pass after a bid made a bid equal to the highest so far (no steal in ten-point)."""
    bids = v.h["bids"]
    at = [i for i, b in enumerate(bids) if b == "pass" and _numbers(bids[:i]) and max(_numbers(bids[:i])) < 10]
    if not at:
        return False
    i = rng.choice(at)
    bids[i] = max(_numbers(bids[:i]))
    return True


def _after_ten(v: HandView, rng: random.Random) -> bool:
    """TP-BID-1: a bid of 5 after a closing 10."""
    bids, n = v.h["bids"], len(v.names)
    if 10 not in bids[:n - 1]:
        return False
    del bids[bids.index(10) + 1:]
    bids.append(5)
    return True


def _call_too_many(v: HandView, rng: random.Random) -> bool:
    """TP-BID-1: a call after every player called."""
    if len(v.h["bids"]) != len(v.names):
        return False
    v.h["bids"].append("pass")
    return True


def _stuck_call_left_out(v: HandView, rng: random.Random) -> bool:
    """TP-BID-1: all passed but the dealer, whose call (a pass or 5: stuck) is left out."""
    bids = v.h["bids"]
    if len(bids) != len(v.names) or _numbers(bids[:-1]):
        return False
    bids.pop()
    return True


def _bids_dropped(v: HandView, rng: random.Random) -> bool:
    """TP-BID-1: a hand without bids (nor a contract)."""
    del v.h["bids"]
    return True


# Trump (TP-TRUMP-1).

def _trump_gone(v: HandView, rng: random.Random) -> bool:
    del v.h["trump"]
    return True


def _trump_changed(v: HandView, rng: random.Random) -> bool:
    """Another suit named trump than the one the exchange and the play follow."""
    v.h["trump"] = rng.choice([s for s in "SHDC" if s != v.t.trump])
    return True


# The play (TP-PLAY-1, TP4-6).

def _unfollow(v: HandView, rng: random.Random) -> bool:
    """TP-PLAY-1: a player swaps a card of the suit led in trick a with a later
    card of a third suit (neither the suit led nor a trump), no winner changed."""
    h, t = v.h, v.t
    options = []
    for p in v.names:
        played = v.played(p)
        for y, (a, i) in played.items():
            if i == 0:
                continue
            led = t.suit(h["tricks"][a][0])
            if t.suit(y) != led:
                continue
            for x, (b, j) in played.items():
                if b > a and t.suit(x) != led and not t.is_trump(x):
                    options.append(((a, i), (b, j), x, y))
    for (a, i), (b, j), x, y in _pick(rng, options):
        if v.same_winners({(a, i): x, (b, j): y}):
            h["tricks"][a][i], h["tricks"][b][j] = x, y
            return True
    return False


def _rotated(first: bool) -> HandEdit:
    """TP-BID-2 / TP4-6: a trick's cards rotated (written from the wrong leader)."""
    def edit(v: HandView, rng: random.Random) -> bool:
        tricks = v.h["tricks"]
        trick = tricks[0 if first else rng.randrange(1, len(tricks))]
        trick.append(trick.pop(0))
        return True
    return edit


def _lead_claimed_wrong(v: HandView, rng: random.Random) -> bool:
    """TP-BID-2 / TP4-6: a trick written with its `lead`, the wrong player."""
    k = rng.randrange(len(v.h["tricks"]))
    leader = v.names[v.seats[k][0]]
    v.h["tricks"][k] = {"lead": rng.choice([p for p in v.names if p != leader]), "cards": v.h["tricks"][k]}
    return True


def _trick_long(v: HandView, rng: random.Random) -> bool:
    """TP4-6: a trick with a card too many (one a player threw away)."""
    thrown = [c for d in v.h["discards"].values() for c in d]
    v.h["tricks"][rng.randrange(len(v.h["tricks"]))].append(rng.choice(thrown))
    return True


def _trick_short(v: HandView, rng: random.Random) -> bool:
    """TP4-6: a trick with a card too few."""
    trick = v.h["tricks"][rng.randrange(len(v.h["tricks"]))]
    trick.pop(rng.randrange(len(trick)))
    return True


def _tricks_swapped(v: HandView, rng: random.Random) -> bool:
    """TP4-6: two tricks with different leaders written in each other's place."""
    pairs = [(k, m) for k in range(len(v.seats)) for m in range(k + 1, len(v.seats))
             if v.seats[k][0] != v.seats[m][0]]
    if not pairs:
        return False
    k, m = rng.choice(pairs)
    t = v.h["tricks"]
    t[k], t[m] = t[m], t[k]
    return True


def _trick_missing(v: HandView, rng: random.Random) -> bool:
    """TP4-6: five tricks."""
    v.h["tricks"].pop(rng.randrange(len(v.h["tricks"])))
    return True


# Whole games: the dealer, the end, the claims.

def _claimed(rec: dict[str, Any], rng: random.Random, key: str) -> bool:
    """C502 / C503: a hand's claimed ``score`` or ``totals`` off by one for one unit."""
    h = rng.choice(rec["hands"])
    unit = rng.choice(sorted(h[key]))
    h[key] = {**h[key], unit: h[key][unit] + rng.choice([-1, 1])}
    return True


def _wrong_dealer(rec: dict[str, Any], rng: random.Random) -> bool:
    """AP-DEAL-2: a hand dealt by the dealer of the hand before."""
    if len(rec["hands"]) < 2:
        return False
    i = rng.randrange(1, len(rec["hands"]))
    rec["hands"][i]["dealer"] = rec["hands"][i - 1]["dealer"]
    return True


def _hands_swapped(rec: dict[str, Any], rng: random.Random) -> bool:
    """AP-DEAL-2: two hands in each other's place."""
    if len(rec["hands"]) < 2:
        return False
    i = rng.randrange(len(rec["hands"]) - 1)
    hands = rec["hands"]
    hands[i], hands[i + 1] = hands[i + 1], hands[i]
    return True


def _after_the_end(rec: dict[str, Any], rng: random.Random) -> bool:
    """TP-WIN-1: a hand after the hand that won the game (dealt by the right
    dealer: a copy of the hand as many hands back as there are players)."""
    n = len(rec["players"])
    if rec["result"]["winner"] is None or len(rec["hands"]) < n:
        return False
    extra = copy.deepcopy(rec["hands"][-n])
    extra.pop("score")
    extra.pop("totals")
    rec["hands"].append(extra)
    return True


def _taken(rec: dict[str, Any]) -> list[dict[str, int]]:
    """The points each unit took in each hand, by the full replay."""
    a = analyze(rec)
    assert a.table is not None and not a.violations
    names = a.table.unit_names
    return [dict(zip(names, r.taken, strict=True)) for r in a.hands if r is not None]


def _points_claimed_wrong(rec: dict[str, Any], rng: random.Random) -> bool:
    """C501: a hand's `points` written, one unit's off by one."""
    i = rng.randrange(len(rec["hands"]))
    points = _taken(rec)[i]
    unit = rng.choice(sorted(points))
    points[unit] += 1 if points[unit] == 0 else rng.choice([-1, 1])
    rec["hands"][i]["points"] = points
    return True


def _result_winner(rec: dict[str, Any], rng: random.Random) -> bool:
    """C504: another winner claimed (or none, when there is one)."""
    names = sorted(rec["result"]["scores"])
    rec["result"]["winner"] = rng.choice([None, *(u for u in names if u != rec["result"]["winner"])])
    return True


def _result_scores(rec: dict[str, Any], rng: random.Random) -> bool:
    scores = dict(rec["result"]["scores"])
    unit = rng.choice(sorted(scores))
    scores[unit] += rng.choice([-1, 1])
    rec["result"]["scores"] = scores
    return True


def _contract(bidder: bool) -> HandEdit:
    """C505: a hand's `contract` written with (``bidder``) another bidder, or a bid off by one."""
    def edit(v: HandView, rng: random.Random) -> bool:
        who, bid = v.bidder, v.bid
        if bidder:
            who = rng.choice(v.others())
        else:
            bid += -1 if bid == 10 else 1 if bid == 5 else rng.choice([-1, 1])
        v.h["contract"] = {"bidder": who, "bid": bid}
        return True
    return edit


@dataclass(frozen=True)
class Mutation:
    """One way to break one rule of a ten-point game (``edit``: False when it
    can't apply to this game). ``expect``: a (code, rule) every broken game's
    full replay reports (None: some diagnostic); ``claims``: the edit is of the
    claims, which stay (other edits drop the claims first, so that only the rule
    broken can tell); ``sure``: every application breaks a rule (else only the
    games the full replay flags are used); ``seeds``: games to try it on (a
    rare case); ``schema``: the broken game is valid by the schema; ``where``:
    a pattern its pointer matches (None: anywhere)."""

    name: str
    edit: Edit
    expect: tuple[str, str | None] | None
    tables: tuple[Table, ...] = REFILL
    claims: bool = False
    sure: bool = True
    seeds: range = SEEDS
    schema: bool = True
    where: str | None = None


def _hand_mutation(name: str, edit: HandEdit, expect: tuple[str, str | None] | None, **kw: Any) -> Mutation:
    return Mutation(name, _in_a_hand(edit), expect, **kw)


R = Mutation  # (short: the rows below)
H = _hand_mutation
MUTATIONS: list[Mutation] = [
    # The exchange.
    H("a non-bidder keeps a non-trump", _kept_off_card, ("R409", "TP4-3")),
    H("a non-bidder throws a trump holding six or fewer", _throws_a_trump, ("R409", "TP4-3")),
    H("a non-bidder dealt seven trumps throws two", _throws_more_than_excess, ("R409", "TP4-5")),
    H("the bidder throws a point card", _throws_a_point, ("R409", "TP4-4"), where="/discards/"),
    H("a point card missing from the tricks", _throws_a_point, ("R409", "TP4-4"), tables=NO_DEAD, where="/tricks$"),
    H("two players' discards crossed", _discards_crossed, ("R409", "TP4-4")),
    H("a non-bidder draws a card too many", _draws_one_more, ("R409", "TP4-4")),
    H("the bidder does not draw all the rest", _bidder_short, ("R409", "TP4-4")),
    H("the bidder keeps a card he threw", _left_with_seven, ("R409", "TP4-4")),
    H("a card the bidder drew is one dealt", _drawn_and_dealt, ("R402", "CARD-4")),
    H("a card discarded twice by one player", _discarded_twice, ("R402", "CARD-4")),
    H("a card discarded by two players", _discarded_by_two, ("R402", "CARD-4")),
    H("a card played that the bidder threw", _plays_a_thrown_card, ("R402", "CARD-4")),
    H("two players' cards swapped in the deal and tricks", _swap_dealt(True), None, claims=True, sure=False),
    H("two players' cards swapped in the deal only", _swap_dealt(False), ("R403", "TP4-4")),
    # The dead cards.
    H("a dead card too few", _dead_short, ("R403", "TP4-2"), tables=WITH_DEAD),
    H("a dead card played", _dead_played, ("R403", "TP4-4"), tables=WITH_DEAD),
    # The deck and the deal.
    H("a text that is no card", _no_card, ("R401", "CARD-3"), schema=False),  # (the schema's S204 first)
    H("a card too few dealt", _dealt_short, ("R403", "TP4-2")),
    H("a card too many dealt", _dealt_long, ("R403", "TP4-2")),
    # The bids.
    H("a pass made 11", _a_pass_made(11), ("R404", "TP-BID-1")),
    H("a pass made 4", _a_pass_made(4), ("R404", "TP-BID-1")),
    H("a bid not higher", _not_higher, ("R404", "TP-BID-1")),
    H("a bid after a closing 10", _after_ten, ("R404", "TP-BID-1")),
    H("a call too many", _call_too_many, ("R404", "TP-BID-1")),
    H("the stuck dealer's call left out", _stuck_call_left_out, ("R404", "TP-BID-1")),
    H("a hand without bids", _bids_dropped, ("R414", "TP-BID-1")),
    # Trump.
    H("no trump", _trump_gone, ("R410", "TP-TRUMP-1")),
    H("another trump named", _trump_changed, ("R409", "TP4-3")),
    # The play.
    H("a suit not followed", _unfollow, ("R407", "TP-PLAY-1")),
    H("the first trick rotated", _rotated(True), ("R403", "TP4-4")),
    H("a later trick rotated", _rotated(False), ("R403", "TP4-4")),
    H("a trick's lead claimed wrong", _lead_claimed_wrong, ("C508", None)),
    H("a trick a card long", _trick_long, ("R408", "TP4-6")),
    H("a trick a card short", _trick_short, ("R408", "TP4-6")),
    H("two tricks swapped", _tricks_swapped, ("R403", "TP4-4")),
    H("a trick missing", _trick_missing, ("R408", "TP4-6")),
    # The dealer, the end.
    R("a wrong dealer", _wrong_dealer, ("R405", "AP-DEAL-2")),
    R("two hands swapped", _hands_swapped, ("R405", "AP-DEAL-2")),
    R("a hand after the game was won", _after_the_end, ("R412", "TP-WIN-1"), claims=True),
    # The claims, each changed by one.
    R("a score claimed wrong", lambda r, g: _claimed(r, g, "score"), ("C502", None), claims=True),
    R("a running total claimed wrong", lambda r, g: _claimed(r, g, "totals"), ("C503", None), claims=True),
    R("points claimed wrong", _points_claimed_wrong, ("C501", None), claims=True),
    R("the wrong winner claimed", _result_winner, ("C504", None), claims=True),
    R("a final score claimed wrong", _result_scores, ("C504", None), claims=True),
    H("a contract with another bidder", _contract(True), ("C505", None), claims=True),
    H("a contract with a bid off by one", _contract(False), ("C505", None), claims=True),
]
_BY_NAME = {m.name: m for m in MUTATIONS}


@dataclass
class Found:
    """A mutation's broken games (table, seed, record, full replay) and the
    games it changed that the full replay found clean (``missed``)."""

    cases: list[tuple[Table, int, dict[str, Any], GameAnalysis]]
    missed: list[tuple[Table, int]]
    tried: dict[Table, int]


def _rng(*parts: object) -> random.Random:
    return random.Random("/".join(map(str, parts)))  # (a text seed: the same in every run)


@cache
def _found(name: str) -> Found:
    m = _BY_NAME[name]
    out = Found([], [], {})
    for table in m.tables:
        count = tried = 0
        for seed in m.seeds:
            if count >= CASES:
                break
            rec = _game(table, seed)
            if not m.claims:
                quick_streams.claims_off(rec)
            if not m.edit(rec, _rng(name, *table, seed)):
                continue
            tried += 1
            full = analyze(rec)
            if not full.violations:
                if m.sure:
                    out.missed.append((table, seed))
                continue
            out.cases.append((table, seed, rec, full))
            count += 1
        out.tried[table] = tried
    return out


def _codes(a: GameAnalysis | Any) -> set[tuple[str, str | None]]:
    found = a.violations if isinstance(a, GameAnalysis) else a.diagnostics
    return {(v.code, v.rule) for v in found}


def _expected(expect: tuple[str, str | None], codes: set[tuple[str, str | None]]) -> bool:
    """``expect`` is among ``codes``: its code, with its rule unless that is None (any)."""
    return any(code == expect[0] and expect[1] in (None, rule) for code, rule in codes)


def _names(tables: tuple[Table, ...] = REFILL) -> list[str]:
    return [m.name for m in MUTATIONS if set(m.tables) & set(tables)]


@pytest.mark.parametrize("name", _names())
def test_each_mutation_breaks_a_rule(name: str) -> None:
    """Every application of a mutation gives the full replay a diagnostic (the
    one it is written for), at every table it is for."""
    m, found = _BY_NAME[name], _found(name)
    assert not found.missed, f"{name!r} changed these games, the full replay found nothing: {found.missed}"
    for table in m.tables:
        cases = [c for c in found.cases if c[0] == table]
        assert cases, f"{name!r} breaks no game of {table} (applied to {found.tried[table]})"
        for _, seed, rec, full in cases:
            if m.expect is not None:
                assert _expected(m.expect, _codes(full)), (name, table, seed, sorted(_codes(full), key=str))
            if m.where is not None:
                assert any(_expected(m.expect or (v.code, None), {(v.code, v.rule)}) and re.search(m.where, v.at)
                           for v in full.violations), (name, table, seed, [v.at for v in full.violations])
            if m.schema:
                assert _schema_clean(rec), (name, table, seed)


@pytest.mark.parametrize("name", _names())
def test_a_broken_game_alone_is_replayed(name: str) -> None:
    """(a) The broken game alone: the quick pass steps aside, and
    ``analyze(quick=True)`` gives the full replay's diagnostics (a game the
    schema refuses: ``check_source`` gives the same diagnostics either way)."""
    m = _BY_NAME[name]
    for table, seed, rec, full in _found(name).cases:
        if m.schema:
            assert analyze_many([rec]) == [None], (name, table, seed)
            _same(analyze(rec, quick=True), full)
            continue
        text = json.dumps(rec).encode()
        quick_c, = check_source("game.json", io.BytesIO(text), quick=True)
        full_c, = check_source("game.json", io.BytesIO(text))
        assert quick_c.diagnostics == full_c.diagnostics, (name, table, seed)
        assert ("S204", None) in _codes(quick_c), (name, table, seed)
        assert quick_c.analysis is None or not _took_quick_pass(quick_c.analysis)


@pytest.mark.parametrize("name", [n for n in _names() if _BY_NAME[n].schema])
def test_a_broken_game_in_a_batch_of_clean_ones(name: str) -> None:
    """(b) The broken game among clean games of its table, at a random place:
    the clean ones keep the full replay's verdicts, the broken one is replayed."""
    for table, seed, rec, _ in _found(name).cases[::CASES]:  # (one game per table)
        rng = _rng("batch", name, *table, seed)
        clean = rng.sample(VALID_SEEDS, BATCH)
        records = [_game(table, s) for s in clean]
        at = rng.randrange(len(records) + 1)
        records.insert(at, rec)
        found = analyze_many(records)
        assert found[at] is None, (name, table, seed)
        for k, s in enumerate(clean):
            _agrees(found[k + (k >= at)], records[k + (k >= at)], _full(table, s))


def _in_stream(name: str, table: Table) -> bool:
    """Whether the stream of ``table`` has the broken game of mutation
    ``name``: every table's at a size above the default, else one table's per
    mutation, in turn (locating diagnostics costs)."""
    tables = _BY_NAME[name].tables
    return GAMES > 20 or table == tables[[m.name for m in MUTATIONS].index(name) % len(tables)]


@pytest.mark.parametrize("table", REFILL)
def test_broken_games_in_a_stream_are_reported_as_alone(table: Table) -> None:
    """(c) One broken game of each mutation, in a JSON Lines stream of 64 valid
    games of the table (``check_source``, as ``pitch validate`` reads it): each
    broken game's diagnostics are its diagnostics alone, the valid games have
    none, and no broken game is decided by the quick pass."""
    valid = [_game(table, s) for s in VALID_SEEDS]
    broken = [(name, next(rec for t, _, rec, _ in _found(name).cases if t == table))
              for name in _names((table,)) if _in_stream(name, table)]
    assert len(broken) >= 10, table
    rng = _rng("stream", *table)
    records: list[dict[str, Any]] = list(valid)
    for name, rec in broken:
        records.insert(rng.randrange(len(records) + 1), {**rec, "id": name})
    at = {rec["id"]: k for k, rec in enumerate(records) if "id" in rec}
    s = quick_streams.stream(records, "jsonl")
    found = quick_streams.check_stream(s)
    assert len(found) == len(records)
    for k, c in enumerate(found):
        if "id" not in records[k]:
            assert c.diagnostics == [], (table, k, c.diagnostics[:2])
            assert c.analysis is not None
            _agrees(c.analysis if _took_quick_pass(c.analysis) else None, records[k])
    for name, k in at.items():
        alone = quick_streams.check_alone(s, k)
        assert alone.diagnostics, name
        assert quick_streams.keys(found[k], s.first_lines[k]) == quick_streams.keys(alone), name
        assert found[k].analysis is None or not _took_quick_pass(found[k].analysis), name


# --- edits that leave a game legal ------------------------------------------------------


def _contracts_written(rec: dict[str, Any], rng: random.Random) -> bool:
    a = analyze(rec)
    for h, r in zip(rec["hands"], a.hands, strict=True):
        assert r is not None
        h["contract"] = {"bidder": rec["players"][r.bidder], "bid": r.bid}
    return True


def _points_written(rec: dict[str, Any], rng: random.Random) -> bool:
    for h, points in zip(rec["hands"], _taken(rec), strict=True):
        h["points"] = points
    return True


def _lower_case(v: HandView, rng: random.Random) -> bool:
    """Every card of a hand in another notation (CARD-3): lower case, a ten as T."""
    def low(c: str) -> str:
        if c in ("BJ", "LJ") or rng.random() < 0.5:
            return c.lower().replace("10", "t")
        return quick_streams.in_notation(c, "symbol")
    h = v.h
    for key in ("deal", "draws", "discards"):
        h[key] = {p: [low(c) for c in cs] for p, cs in h[key].items()}
    if "dead" in h:
        h["dead"] = [low(c) for c in h["dead"]]
    h["tricks"] = [[low(c) for c in t] for t in h["tricks"]]
    return True


def _leads_written(v: HandView, rng: random.Random) -> bool:
    v.h["tricks"] = [{"lead": v.names[seats[0]], "cards": t} for t, seats in zip(v.h["tricks"], v.seats, strict=True)]
    return True


def _stuck_written_otherwise(v: HandView, rng: random.Random) -> bool:
    """TP-BID-1: a stuck dealer's pass written as 5, or his 5 as a pass (the same auction)."""
    bids = v.h["bids"]
    if len(bids) != len(v.names) or _numbers(bids[:-1]) or bids[-1] not in ("pass", 5):
        return False
    bids[-1] = 5 if bids[-1] == "pass" else "pass"
    return True


def _passes_after_ten_left_out(v: HandView, rng: random.Random) -> bool:
    bids = v.h["bids"]
    if 10 not in bids[:-1]:
        return False
    del bids[bids.index(10) + 1:]
    return True


def _notes(v: HandView, rng: random.Random) -> bool:
    v.h["notes"] = "a note"
    v.h["x-table"] = {"light": "dim"}
    return True


EQUIVALENTS: dict[str, Edit] = {
    "contracts written, right": _contracts_written,
    "points written, right": _points_written,
    "cards in other notations": _in_a_hand(_lower_case),
    "tricks written with their leads": _in_a_hand(_leads_written),
    "a stuck dealer's call written otherwise": _in_a_hand(_stuck_written_otherwise),
    "the passes after a 10 left out": _in_a_hand(_passes_after_ten_left_out),
    "a note and an extension": _in_a_hand(_notes),
    "a non-bidder dealt seven trumps throws one": _in_a_hand(lambda v, rng: _dealt_seven_trumps(v, rng) is not None),
}


@pytest.mark.parametrize("name", sorted(EQUIVALENTS))
def test_an_edit_that_keeps_a_game_legal(name: str) -> None:
    """The full replay finds nothing; the quick pass agrees with it or steps aside (alone, in a batch)."""
    for table in REFILL:
        records = []
        for seed in SEEDS:
            rec = _game(table, seed)
            if len(records) < CASES * 2 and EQUIVALENTS[name](rec, _rng(name, *table, seed)):
                assert analyze(rec).violations == [], (name, table, seed, analyze(rec).violations[:2])
                assert _schema_clean(rec), (name, table, seed)
                records.append(rec)
        assert records, (name, table)
        for rec, quick in zip(records, analyze_many(records + [_game(table, s) for s in range(300, 305)]),
                              strict=False):
            _agrees(quick, rec)
            _agrees(analyze_many([rec])[0], rec)


# --- 5: random mutations ------------------------------------------------------------------


def _move_card(rec: dict[str, Any], rng: random.Random) -> None:
    """A card of a ten-point hand's lists (deal, dead, draws, discards, tricks)
    moved to another list or swapped with a card of another list."""
    h = rng.choice(rec["hands"])
    lists = [cs for key in ("deal", "draws", "discards") for cs in (h.get(key) or {}).values()]
    lists += [h["dead"]] if "dead" in h else []
    lists += [t for t in h.get("tricks") or [] if isinstance(t, list)]
    lists = [cs for cs in lists if isinstance(cs, list)]
    if len(lists) < 2:
        return
    a, b = rng.sample(lists, 2)
    if not a:
        return
    i = rng.randrange(len(a))
    if b and rng.random() < 0.6:
        j = rng.randrange(len(b))
        a[i], b[j] = b[j], a[i]
    else:
        b.insert(rng.randrange(len(b) + 1), a.pop(i))


def _fuzzed(table: Table, seed: int, play_level: bool = False) -> dict[str, Any]:
    """A clean game (``play_level``: written play-level, every other one with
    its dead cards) changed at random one to three times."""
    rng = _rng("play-fuzz" if play_level else "fuzz", *table, seed)
    rec = _game(table, seed)
    if play_level:
        rec = _play_level(rec, keep_dead=seed % 2 == 1)
    if rng.random() < 0.5:
        quick_streams.claims_off(rec)
    for _ in range(1 + seed % 3):
        (_mutate if rng.random() < 0.5 else _move_card)(rec, rng)
    return rec


@pytest.mark.parametrize("table", TEN_POINT)
def test_randomly_changed_games(table: Table) -> None:
    """Many random changes: in a batch (of the schema-valid ones, with clean
    games between them) each verdict is None or the full replay's, and a game
    with a violation is never decided; through ``check_source`` (a JSON Lines
    stream, the schema first; some of them, at the refill tables) the
    diagnostics are the full replay's."""
    changed = [_fuzzed(table, seed) for seed in range(GAMES if table in REFILL else GAMES // 2)]
    valid = [rec for rec in changed if _schema_clean(rec)]
    # (clean ones between, VALID_SEEDS over again for a PITCH_QUICK_GAMES past their count)
    records = [r for k, rec in enumerate(valid) for r in (rec, _game(table, VALID_SEEDS[k % len(VALID_SEEDS)]))]
    stats: dict[str, int] = defaultdict(int)
    for k, (rec, quick) in enumerate(zip(records, analyze_many(records), strict=True)):
        full = analyze(rec) if k % 2 == 0 else _full(table, VALID_SEEDS[k // 2 % len(VALID_SEEDS)])
        stats["broken" if full.violations else "clean"] += k % 2 == 0
        if full.violations:
            assert quick is None, (table, full.violations[:2])
        _agrees(quick, rec, full)
    assert stats["broken"] > len(valid) // 4, stats  # the changes do break games
    if table not in REFILL:
        return
    s = quick_streams.stream(changed[:max(8, GAMES // 2)], "jsonl")
    quick_c = quick_streams.check_stream(s)
    full_c = list(check_source(s.name, io.BytesIO(s.raw)))
    assert [c.diagnostics for c in quick_c] == [c.diagnostics for c in full_c]
    for q, f in zip(quick_c, full_c, strict=True):
        if q.analysis is not None and _took_quick_pass(q.analysis):
            assert f.analysis is not None and f.diagnostics == []
            _same(q.analysis, f.analysis)


# --- 6: play-level records (the tricks alone) ------------------------------------------


@cache
def _clean_play_seeds(table: Table) -> tuple[int, ...]:
    """The seeds of ``VALID_SEEDS`` whose game written play-level is clean (not
    all are: a called card its holder never plays leaves the partner unshown, R411)."""
    return tuple(s for s in VALID_SEEDS if not analyze(_play_level(_game(table, s))).violations)


def _clean_play(table: Table, count: int) -> list[dict[str, Any]]:
    """``count`` clean play-level games (the clean seeds over again, for a
    ``PITCH_QUICK_GAMES`` past their number)."""
    seeds = _clean_play_seeds(table)
    assert seeds, table
    return [_play_level(_game(table, seeds[k % len(seeds)])) for k in range(count)]


def _holds_to_the_full_replay(records: list[dict[str, Any]], label: object) -> dict[str, int]:
    """The oracle over ``records`` in one batch and each alone: a game the full
    replay finds broken is never decided; a decided one is the full replay's.
    Returns how many were broken, clean, and clean but decided."""
    stats: dict[str, int] = defaultdict(int)
    for rec, quick in zip(records, analyze_many(records), strict=True):
        full = analyze(rec)
        alone, = analyze_many([rec])
        if full.violations:
            assert quick is None and alone is None, (label, full.violations[:2])
            stats["broken"] += 1
            continue
        stats["clean"] += 1
        stats["decided"] += quick is not None and _took_quick_pass(quick)
        _agrees(quick, rec, full)
        _agrees(alone, rec, full)
    return stats


@pytest.mark.parametrize("name", [n for n in _names(TEN_POINT) if _BY_NAME[n].schema])
def test_broken_games_written_play_level(name: str) -> None:
    """Each mutation's broken games, written play-level (what the mutation
    broke in the deal, discards and draws is gone; what it broke in the bids,
    trump, tricks, dealers or claims stays), among clean play-level games of
    their table: the quick pass holds to the full replay on each."""
    for table, seed, rec, _ in _found(name).cases:
        clean = _clean_play(table, 4)
        _holds_to_the_full_replay([*clean[:2], _play_level(rec), *clean[2:]], (name, table, seed))
        if table in WITH_DEAD:
            _holds_to_the_full_replay([*clean[:2], _play_level(rec, keep_dead=True)], (name, table, seed, "dead"))


# The mutations that break a rule of the auction, the trump, the play, the
# dealers or the claims: their games stay broken when written play-level.
PLAY_RULES = ["a pass made 11", "a bid not higher", "a call too many", "a hand without bids", "no trump",
              "a suit not followed", "a trick a card long", "a trick a card short", "a trick missing",
              "a wrong dealer", "two hands swapped", "a hand after the game was won", "a score claimed wrong",
              "a running total claimed wrong", "points claimed wrong", "the wrong winner claimed",
              "a contract with another bidder"]


@pytest.mark.parametrize("name", PLAY_RULES)
def test_a_play_rule_broken_stays_broken_play_level(name: str) -> None:
    """(What makes the test above a test: these stay broken, and are refused.)"""
    m = _BY_NAME[name]
    broken = [rec for _, _, rec, _ in _found(name).cases if analyze(_play_level(rec)).violations]
    assert broken, name
    for rec in broken:
        full = analyze(_play_level(rec))
        if m.expect is not None:
            assert _expected(m.expect, _codes(full)), (name, sorted(_codes(full), key=str))
        assert analyze_many([_play_level(rec)]) == [None], name


def _points_and_plain(t: Trump, tricks: list[list[str]]) -> tuple[list[tuple[int, int]], list[str]]:
    """The places of the point cards in ``tricks`` and the cards of the deck not played that are worth nothing."""
    played = {c for trick in tricks for c in trick}
    points = [(k, j) for k, trick in enumerate(tricks) for j, c in enumerate(trick) if t.value(c) > 0]
    deck = [r + s for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    return points, [c for c in [*deck, "BJ", "LJ"] if c not in played and t.value(c) == 0]


def _a_card_twice(rec: dict[str, Any], rng: random.Random) -> bool:
    """CARD-4: a card of one trick written again in place of a card of another."""
    h = rng.choice(rec["hands"])
    tricks = h["tricks"]
    a, b = rng.sample(range(len(tricks)), 2)
    tricks[a][rng.randrange(len(tricks[a]))] = tricks[b][rng.randrange(len(tricks[b]))]
    return True


def _a_point_card_missing(rec: dict[str, Any], rng: random.Random) -> bool:
    """TP4-4 (no dead cards): a point card of the tricks replaced by a card worth nothing that nobody played."""
    h = rng.choice(rec["hands"])
    points, plain = _points_and_plain(Trump(h["trump"]), h["tricks"])
    called = _called_cards(h)
    points = [(k, j) for k, j in points if h["tricks"][k][j] not in called]  # (else: the partner unshown, R411)
    if not points or not plain:
        return False
    k, j = rng.choice(points)
    h["tricks"][k][j] = rng.choice(plain)
    return True


def _a_dead_card_played(rec: dict[str, Any], rng: random.Random) -> bool:
    """TP4-4: a dead card (set aside face down) in a trick, in place of a card of the same suit."""
    h = rng.choice(rec["hands"])
    t = Trump(h["trump"])
    for c in _pick(rng, h["dead"]):
        places = [(k, j) for k, trick in enumerate(h["tricks"]) for j, e in enumerate(trick) if t.suit(e) == t.suit(c)]
        if places:
            k, j = rng.choice(places)
            h["tricks"][k][j] = c
            return True
    return False


def _a_dead_card_too_few(rec: dict[str, Any], rng: random.Random) -> bool:
    """TP4-2: one dead card left out of the list."""
    h = rng.choice(rec["hands"])
    h["dead"].pop(rng.randrange(len(h["dead"])))
    return True


PLAY_MUTATIONS: dict[str, tuple[Edit, tuple[str, str | None], tuple[Table, ...]]] = {
    "a card played twice": (_a_card_twice, ("R402", "CARD-4"), TEN_POINT),
    "a point card missing from the tricks": (_a_point_card_missing, ("R409", "TP4-4"),
                                             tuple(t for t in TEN_POINT if not resolve(t[0]).dead)),
    "a dead card played": (_a_dead_card_played, ("R403", "TP4-4"), WITH_DEAD),
    "a dead card too few": (_a_dead_card_too_few, ("R403", "TP4-2"), WITH_DEAD),
}


@pytest.mark.parametrize("name", sorted(PLAY_MUTATIONS))
def test_play_level_mutations(name: str) -> None:
    """A rule only a play-level record can break this way: the full replay
    reports it, and the quick pass refuses the game, alone and in a batch."""
    edit, expect, tables = PLAY_MUTATIONS[name]
    for table in tables:
        broken = []
        for seed in _clean_play_seeds(table)[:max(2, CASES * 2)]:
            rec = _play_level(_game(table, seed), keep_dead=table in WITH_DEAD)
            quick_streams.claims_off(rec)
            if edit(rec, _rng("play", name, *table, seed)):
                full = analyze(rec)
                assert _expected(expect, _codes(full)), (name, table, seed, sorted(_codes(full), key=str))
                broken.append(rec)
        assert broken, (name, table)
        stats = _holds_to_the_full_replay([*broken, *_clean_play(table, 1)], (name, table))
        assert stats["broken"] == len(broken) and stats["decided"] == 1, stats


@pytest.mark.parametrize("table", TEN_POINT)
def test_randomly_changed_play_level_games(table: Table) -> None:
    """Many random changes to play-level games, in a batch with clean
    play-level games between them: a broken game is never decided, a decided
    one is the full replay's, and the clean ones are decided."""
    changed = [rec for rec in (_fuzzed(table, seed, play_level=True) for seed in range(GAMES)) if _schema_clean(rec)]
    clean = _clean_play(table, len(changed))
    records = [r for pair in zip(changed, clean, strict=True) for r in pair]
    stats = _holds_to_the_full_replay(records, table)
    assert stats["broken"] > len(changed) // 4, stats  # the changes do break games
    assert stats["decided"] >= len(clean), stats


# --- 6b: a called card that no trick shows ----------------------------------------------

CALLED: tuple[Table, ...] = tuple(t for t in TEN_POINT if resolve(t[0]).sides == "called")


def _unplayed_call_games(table: Table) -> list[dict[str, Any]]:
    """Clean games of ``table`` written play-level in which a hand calls a card
    nobody played (its holder discarded it), its holder named (a few games in
    a hundred at the tables of called partners)."""
    games = [_play_level_named(_game(table, seed)) for seed in range(200)]
    return [rec for rec in games if any(_unplayed_calls(h) for h in rec["hands"])]


def _misnamed(rec: dict[str, Any]) -> list[dict[str, Any]]:
    """Copies of ``rec`` with the names of its first hand that calls a card
    nobody played given wrong each way: none, one too few, one too many,
    another player's, and in the other order."""
    i = next(i for i, h in enumerate(rec["hands"]) if _unplayed_calls(h))
    call = rec["hands"][i]["partner"]
    key = "players" if "players" in call else "player"
    names = call[key] if key == "players" else [call[key]]
    other = next(p for p in rec["players"] if p not in names)
    ways: list[list[str] | None] = [None, names[:-1], [*names, other], [other, *names[1:]], names[::-1]]
    out = []
    for way in ways:
        if way == names or (key == "player" and way is not None and len(way) != 1):
            continue  # (one card's name is one text: a list is the schema's to refuse)
        changed = copy.deepcopy(rec)
        p = changed["hands"][i]["partner"]
        del p[key]
        if way is not None:
            p[key] = way if key == "players" else way[0]
        out.append(changed)
    return out


@pytest.mark.parametrize("table", CALLED)
def test_a_called_card_nobody_played(table: Table) -> None:
    """TP5-3 where no card shows who holds a called card (a play-level hand's
    card nobody played): the names recorded stand in, one a card, in the order
    called, and a called card that does show its holder must show the name
    given for it. Such a game is decided by the quick pass, as the full replay
    scores it; each way to give the names wrong (``_misnamed``) holds to the
    full replay (none, or one too few: R411; a card's shown holder named
    otherwise: C507; another name: that player stands in, and the record's
    scores then disagree)."""
    games = _unplayed_call_games(table)
    assert len(games) >= 2, table
    for rec, quick in zip(games, analyze_many(games), strict=True):
        assert quick is not None and _took_quick_pass(quick), table
        _same(quick, analyze(rec))
    changed = [c for rec in games for c in _misnamed(rec)]
    stats = _holds_to_the_full_replay([*changed, *_clean_play(table, 2)], table)
    assert stats["broken"] >= len(games), stats  # (no names breaks every game; another name most)


# --- 7: tallies at a table of called partners -------------------------------------------


def _partner_of_tally(rec: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    return rng.choice(rec["hands"])["partner"]


def _unnamed(rec: dict[str, Any], rng: random.Random) -> bool:
    """TP5-3: no partner named for the card called (the record shows no holder)."""
    p = _partner_of_tally(rec, rng)
    p.pop("player", None), p.pop("players", None)
    return True


def _named_too_many(rec: dict[str, Any], rng: random.Random) -> bool:
    """TP5-3: a name more than the cards called."""
    p = _partner_of_tally(rec, rng)
    names = p.pop("players", None) or [p.pop("player")]
    p["players"] = [*names, rng.choice(rec["players"])]
    return True


def _named_too_few(rec: dict[str, Any], rng: random.Random) -> bool:
    """TP5-3: a name fewer than the cards called (two called)."""
    p = _partner_of_tally(rec, rng)
    if "players" not in p:
        return False
    p["players"] = p["players"][:-1]
    return True


def _called_no_trump(rec: dict[str, Any], rng: random.Random) -> bool:
    """TP5-3: a card called that is not a trump (where the tally records trump)."""
    h = rng.choice(rec["hands"])
    t = Trump(h["trump"])
    p = h["partner"]
    key = "cards" if "cards" in p else "card"
    cards = p[key] if key == "cards" else [p[key]]
    deck = [r + s for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]
    cards[0] = rng.choice([c for c in deck if not t.is_trump(c) and c not in cards])
    p[key] = cards if key == "cards" else cards[0]
    return True


def _called_twice(rec: dict[str, Any], rng: random.Random) -> bool:
    """TP5-3: the same card called twice (two called)."""
    p = _partner_of_tally(rec, rng)
    if "cards" not in p:
        return False
    p["cards"] = [p["cards"][0], p["cards"][0]]
    return True


def _points_off(rec: dict[str, Any], rng: random.Random) -> bool:
    """TP-POINTS-1: a tally's points that don't add up to the hand's ten."""
    points = rng.choice(rec["hands"])["points"]
    name = rng.choice(sorted(points))
    points[name] += 1
    return True


TALLY_MUTATIONS: dict[str, tuple[Edit, tuple[str, str | None]]] = {
    "no partner named": (_unnamed, ("R411", "TP5-3")),
    "a partner named too many": (_named_too_many, ("R411", "TP5-3")),
    "a partner named too few": (_named_too_few, ("R411", "TP5-3")),
    "a card called that is no trump": (_called_no_trump, ("R411", "TP5-3")),
    "a card called twice": (_called_twice, ("R411", "TP5-3")),
    "points that don't add up": (_points_off, ("C501", None)),
}


@pytest.mark.parametrize("name", sorted(TALLY_MUTATIONS))
def test_called_partner_tally_mutations(name: str) -> None:
    """A tally at a table of called partners broken one way: the full replay
    reports it, and the quick pass refuses the game, alone and in a batch with
    clean tallies (which it decides)."""
    edit, expect = TALLY_MUTATIONS[name]
    applied = 0
    for table in CALLED:
        broken = []
        for seed in SEEDS[:max(2, CASES * 2)]:
            rec = _tally(_game(table, seed))
            quick_streams.claims_off(rec)
            if edit(rec, _rng("tally", name, *table, seed)):
                full = analyze(rec)
                assert _expected(expect, _codes(full)), (name, table, seed, sorted(_codes(full), key=str))
                broken.append(rec)
        applied += len(broken)
        clean = [_tally(_game(table, s)) for s in VALID_SEEDS[:2]]
        stats = _holds_to_the_full_replay([*broken, *clean], (name, table))
        assert stats["broken"] == len(broken) and stats["decided"] == len(clean), stats
    assert applied, name


@pytest.mark.parametrize("table", CALLED)
def test_randomly_changed_called_partner_tallies(table: Table) -> None:
    """Random changes to tallies at a table of called partners (among them the
    partners named, the cards called, the points): a broken game is never
    decided, a decided one is the full replay's (a change of partner that
    leaves the game legal is decided, with the scores it makes)."""
    changed = []
    for seed in range(GAMES):
        rng = _rng("tally-fuzz", *table, seed)
        rec = _tally(_game(table, seed))
        if rng.random() < 0.7:
            quick_streams.claims_off(rec)
        for _ in range(1 + seed % 2):
            if rng.random() < 0.5:
                _mutate(rec, rng)
            else:
                p = _partner_of_tally(rec, rng)
                key = "players" if "players" in p else "player"
                p[key] = rng.sample(rec["players"], len(p[key])) if key == "players" else rng.choice(rec["players"])
        if _schema_clean(rec):
            changed.append(rec)
    stats = _holds_to_the_full_replay(changed, table)
    assert stats["broken"] and stats["decided"], stats


def _report() -> Iterator[tuple[str, Table, list[tuple[str, str | None]]]]:
    """The (code, rule) pairs of each mutation's broken games, per table (for a run's summary)."""
    for m in MUTATIONS:
        by_table: dict[Table, set[tuple[str, str | None]]] = defaultdict(set)
        for table, _, _, full in _found(m.name).cases:
            by_table[table] |= _codes(full)
        for table in m.tables:
            yield m.name, table, sorted(by_table[table], key=str)
