"""A game is judged in a stream exactly as in a file of its own (issue 28).

``pitch validate`` lets the engine's quick pass decide the clean Auction games
of a stream, 64 documents or more at a time, and replays the rest in full; a
file of one game is always replayed in full. Here legal games of every Auction
profile and player count, and of tables under options (``TABLES``: Low to who
played it; a target of 11 with win_on_set; no steal; hands of 8 cards with bids
to 5), and play-level records, tallies and records whose tricks are written
with their leaders (issue 22) at some of them, are
broken by every kind of change the test suite knows, plus changes
drawn by Hypothesis, and put many at a time into a stream of 64 valid games of
the same table, as JSON Lines or as a YAML stream. Each broken game's
diagnostics there must be its diagnostics alone (code, rule, pointer, message,
column, and line from its document's first line); each game the quick pass
decided must have the full replay's totals, winner and winning hand.

The kinds of change (``KINDS``): the named edits and the generic change of
tests/test_engine_quick.py (``EDITS``, ``_mutate``), its breakers of each
``quick.COVERAGE`` row (``BREAKERS``), the mutations of
tests/test_auction_properties.py (``MUTATIONS``), the fuzzer's
``fuzz_strategies.mutated_record``, and here: cards (another card, another
notation, a card dealt twice to one player and played twice in another
notation, dealt to two players, played twice), seats, order and claims.

Each broken game is one example of Hypothesis's (a table, a kind, a format,
and the change's own choices); the examples are made first, then judged a
stream at a time (per table and format, at most ``STREAM_MAX`` broken games in
a stream). Size: ``PITCH_DIFF_MUTANTS`` examples (default 2,000, of which
about 1,130 break a game: an example whose kind applies to none of the games
drawn for it, such as a four-player edit at a two-player table or an edit of
the deal of a play-level record, makes none; about 35 s of CPU on a quiet
machine, most of it reading and locating the broken games, in the stream and
alone). The counts by kind are printed at the end (``-s``) and,
with ``PITCH_DIFF_STATS=FILE``, written to FILE as JSON.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from support import quick_streams
from support.fuzz_strategies import mutated_record
from test_auction_properties import MUTATIONS
from test_engine_quick import BREAKERS, EDITS, _mutate

from pitchcli.cards import ALL_CARDS, NOTATION_INDEX
from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.feed import GameAnalysis, analyze
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import Profile, resolve

MUTANTS = int(os.environ.get("PITCH_DIFF_MUTANTS", "2000"))
STATS = os.environ.get("PITCH_DIFF_STATS")
VALID = 64  # valid games around the broken ones: check.QUICK_MIN, so the quick pass runs on them alone

# (variant, players, rules, level): every Auction profile and player count,
# and the options the quick pass reads, as full-detail records; and records of
# the other levels (quick_streams.LEVELS: play-level, tallies, tricks with their leaders) at some of them.
Table = tuple[str, int, tuple[tuple[str, object], ...], str]
TABLES: list[Table] = [
    *(("auction", n, (), "full") for n in range(2, 8)),
    ("auction-partners", 4, (), "full"),
    ("auction-partners", 6, (), "full"),
    ("auction", 4, (("low", "played"),), "full"),
    ("auction", 3, (("target", 11), ("win_on_set", True)), "full"),
    ("auction", 5, (("steal", False),), "full"),
    ("auction", 4, (("players", 4), ("deal", 8), ("hand", 8), ("max_bid", 5), ("stuck_bid", 3)), "full"),
    ("auction", 4, (), "play"),
    ("auction-partners", 6, (), "play"),
    ("auction", 5, (("low", "played"),), "play"),
    ("auction", 3, (), "tally"),
    ("auction-partners", 4, (("target", 11), ("win_on_set", True)), "tally"),
    ("auction", 4, (), "led"),
    ("auction-partners", 6, (("low", "played"),), "led"),
]
SEEDS = range(10_000, 10_000 + VALID)  # the valid games of a table, and the games broken
COUNTS: Counter[str] = Counter()  # broken games judged, by kind
DECIDED: Counter[str] = Counter()  # of these, how many the quick pass decided (they stayed valid)
SKIPPED: Counter[str] = Counter()  # the kind did not apply to the game drawn
DIFFERED: Counter[str] = Counter()  # broken games judged otherwise in the stream than alone (a failure)
STREAMS: Counter[str] = Counter()


# --------------------------------------------------------------------------- valid games


# The options that change which games are legal: a game is simulated under them.
# Under the others the default profile's games are legal too, and only scored anew.
SIMULATED_UNDER = {"steal", "deal", "hand", "min_bid", "max_bid", "stuck_bid"}


@cache
def _game_text(table: Table, seed: int) -> str:
    """A legal game of ``table`` as JSON. Under rule options it is simulated
    with those that change what is legal (no steal where ``steal`` is off),
    then scored by the engine under all, and ends where it is won (or is
    unfinished); then written at the table's level."""
    variant, players, rules, level = table
    if level != "full":
        full = json.loads(_game_text((variant, players, rules, "full"), seed))
        return json.dumps(quick_streams.LEVELS[level](full), ensure_ascii=False)
    if not rules:
        return json.dumps(simulate_game(variant, players=players, seed=seed), ensure_ascii=False)
    if SIMULATED_UNDER.isdisjoint(dict(rules)):
        rec = json.loads(_game_text((variant, players, (), "full"), seed))
    else:  # (simulate and the replay it checks each hand with, both under the options)
        def under(name: str, overrides: dict[str, object] | None = None) -> Profile:
            return resolve(name, {**dict(rules), **(overrides or {})})

        with mock.patch("pitchcli.pipeline.simulate.resolve", under), \
                mock.patch("pitchcli.pipeline.feed.resolve", under):
            rec = simulate_game(variant, players=players, seed=seed)
    rec["rules"] = dict(rules)
    quick_streams.claims_off(rec)
    a = analyze(rec)
    if a.winner_hand is not None:
        del rec["hands"][a.winner_hand:]
        a = analyze(rec)
    assert a.violations == [] and a.table is not None and a.totals is not None, (table, seed, a.violations[:2])
    names = a.table.unit_names
    for h, r in zip(rec["hands"], a.hands, strict=True):
        assert r is not None and r.totals is not None
        h["score"] = dict(zip(names, r.delta, strict=True))
        h["totals"] = dict(zip(names, r.totals, strict=True))
    rec["result"] = {"winner": a.winner, "scores": dict(zip(names, a.totals, strict=True))}
    return json.dumps(rec, ensure_ascii=False)


def _game(table: Table, seed: int, hands: int | None = None) -> dict[str, Any]:
    """A fresh copy of a legal game of ``table``, cut after ``hands`` hands if
    it has more: an unfinished game, as a record of a game in progress is
    (short games keep the test fast)."""
    rec = json.loads(_game_text(table, seed))
    if hands is not None and len(rec["hands"]) > hands:
        del rec["hands"][hands:]
        rec["result"] = {"winner": None, "scores": dict(rec["hands"][-1]["totals"])}
    return rec


@cache
def _valid_games(table: Table) -> tuple[str, ...]:
    """``VALID`` legal games of ``table``: the shorter half whole, the others
    cut after 1 to 4 hands (a long game costs the loader more than it tests)."""
    short = set(_short_games(table))
    return tuple(json.dumps(_game(table, seed, None if seed in short else 1 + i % 4), ensure_ascii=False)
                 for i, seed in enumerate(SEEDS))


@cache
def _short_games(table: Table) -> list[int]:
    """The seeds of the shorter half of the games of ``table``: a whole game
    broken is one of these (a long game costs the loader and the locating of
    diagnostics more than its rules cost)."""
    return sorted(SEEDS, key=lambda seed: (len(json.loads(_game_text(table, seed))["hands"]), seed))[:len(SEEDS) // 2]


@cache
def _full_verdict(text: str) -> tuple[object, ...] | None:
    """A valid game's totals, winner and winning hand by the full replay."""
    a = analyze(json.loads(text))
    assert a.violations == []
    return _verdict(a)


# --------------------------------------------------------------------------- kinds of change
# Each takes the game and Hypothesis's ``data`` and changes the game in place
# (or returns a new one); it returns False when it does not apply to the game.

Edit = Callable[[dict[str, Any], st.DataObject], object]
_DECK = [c.text for c in ALL_CARDS[:52]]
_NOTATIONS = st.sampled_from(quick_streams.NOTATIONS)


def _hand(rec: dict[str, Any], data: st.DataObject) -> dict[str, Any] | None:
    hands = rec["hands"]
    return hands[data.draw(st.integers(0, len(hands) - 1))] if hands else None


def _player(rec: dict[str, Any], data: st.DataObject, but: str | None = None) -> str:
    return data.draw(st.sampled_from([p for p in rec["players"] if p != but]))


def _replace(h: dict[str, Any], old: str, new: str, where: str = "both") -> None:
    """``old`` becomes ``new`` in the deal (``where="deal"``), the tricks (``"tricks"``) or both of ``h``."""
    places = (list(h["deal"].values()) if where != "tricks" else []) + (list(h["tricks"]) if where != "deal" else [])
    for cards in places:
        for i, c in enumerate(cards):
            if NOTATION_INDEX.get(c) == NOTATION_INDEX[old]:
                cards[i] = new


def _another_card(rec: dict[str, Any], data: st.DataObject) -> bool:
    """A card of the deal (and its play, or only one of them) becomes any card, any notation."""
    h = _hand(rec, data)
    if h is None:
        return False
    old = data.draw(st.sampled_from(h["deal"][_player(rec, data)]))
    new = data.draw(st.sampled_from([*_DECK, "BJ", "LJ"]))
    if new not in ("BJ", "LJ"):
        new = quick_streams.in_notation(new, data.draw(_NOTATIONS))
    _replace(h, old, new, data.draw(st.sampled_from(["both", "deal", "tricks"])))
    return True


def _another_notation(rec: dict[str, Any], data: st.DataObject) -> bool:
    """Cards rewritten in other notations: the same game, still valid."""
    h = _hand(rec, data)
    if h is None:
        return False
    lists = [*h["deal"].values(), *h["tricks"]]
    places = [(cards, i) for cards in lists for i in range(len(cards))]
    notations = data.draw(st.lists(_NOTATIONS, min_size=len(places), max_size=len(places)))
    for (cards, i), notation in zip(places, notations, strict=True):
        cards[i] = quick_streams.in_notation(cards[i], notation)  # ("canonical" leaves a card as it is)
    return True


def _dealt_twice_to_one(rec: dict[str, Any], data: st.DataObject) -> bool:
    """Issue 28: a player dealt one of his cards twice, and playing it twice,
    the copy in any notation, where he played another of his cards."""
    h = _hand(rec, data)
    if h is None:
        return False
    who = _player(rec, data)
    mine = h["deal"][who]
    card, gone = data.draw(st.permutations(mine))[:2]
    twin = quick_streams.in_notation(card, data.draw(_NOTATIONS))
    mine[mine.index(gone)] = twin
    for trick in h["tricks"]:
        if gone in trick:
            trick[trick.index(gone)] = twin
    return True


def _dealt_to_two(rec: dict[str, Any], data: st.DataObject) -> bool:
    """A card of one player's deal is in another's too (in place of one of his)."""
    h = _hand(rec, data)
    if h is None:
        return False
    a = _player(rec, data)
    b = _player(rec, data, but=a)
    card = data.draw(st.sampled_from(h["deal"][a]))
    j = data.draw(st.integers(0, len(h["deal"][b]) - 1))
    lost, twin = h["deal"][b][j], quick_streams.in_notation(card, data.draw(_NOTATIONS))
    h["deal"][b][j] = twin
    if data.draw(st.booleans()):  # and he plays it where he played the card he lost
        _replace(h, lost, twin, "tricks")
    return True


def _played_twice(rec: dict[str, Any], data: st.DataObject) -> bool:
    """One card of the tricks written where another was played."""
    h = _hand(rec, data)
    if h is None or len(h["tricks"]) < 2:
        return False
    flat = [(k, i) for k, t in enumerate(h["tricks"]) for i in range(len(t))]
    (k1, i1), (k2, i2) = data.draw(st.permutations(flat))[:2]
    h["tricks"][k2][i2] = quick_streams.in_notation(h["tricks"][k1][i1], data.draw(_NOTATIONS))
    return True


def _deals_exchanged(rec: dict[str, Any], data: st.DataObject) -> bool:
    """Two players' deals exchanged (or two cards between them)."""
    h = _hand(rec, data)
    if h is None:
        return False
    a = _player(rec, data)
    b = _player(rec, data, but=a)
    if data.draw(st.booleans()):
        h["deal"][a], h["deal"][b] = h["deal"][b], h["deal"][a]
    else:
        i, j = data.draw(st.integers(0, len(h["deal"][a]) - 1)), data.draw(st.integers(0, len(h["deal"][b]) - 1))
        h["deal"][a][i], h["deal"][b][j] = h["deal"][b][j], h["deal"][a][i]
    return True


def _dealer(rec: dict[str, Any], data: st.DataObject) -> bool:
    h = _hand(rec, data)
    if h is None:
        return False
    h["dealer"] = _player(rec, data, but=h["dealer"])
    return True


def _trick_rotated(rec: dict[str, Any], data: st.DataObject) -> bool:
    h = _hand(rec, data)
    if h is None or not h["tricks"]:
        return False
    t = h["tricks"][data.draw(st.integers(0, len(h["tricks"]) - 1))]
    k = data.draw(st.integers(1, len(t) - 1))
    t[:] = t[k:] + t[:k]
    return True


def _swapped(rec: dict[str, Any], data: st.DataObject, what: str) -> bool:
    """Two items of a list swapped: tricks of a hand, cards of a trick, hands, calls."""
    h = _hand(rec, data)
    if h is None:
        return False
    items = {"tricks": h["tricks"], "hands": rec["hands"], "bids": h["bids"],
             "cards": h["tricks"][data.draw(st.integers(0, len(h["tricks"]) - 1))] if h["tricks"] else []}[what]
    if len(items) < 2:
        return False
    i, j = data.draw(st.permutations(range(len(items))))[:2]
    items[i], items[j] = items[j], items[i]
    return True


def _card_moved(rec: dict[str, Any], data: st.DataObject) -> bool:
    """A card moved from one trick to another (one trick short, one long)."""
    h = _hand(rec, data)
    if h is None or len(h["tricks"]) < 2:
        return False
    a, b = data.draw(st.permutations(range(len(h["tricks"]))))[:2]
    card = h["tricks"][a].pop(data.draw(st.integers(0, len(h["tricks"][a]) - 1)))
    h["tricks"][b].insert(data.draw(st.integers(0, len(h["tricks"][b]))), card)
    return True


def _claim(rec: dict[str, Any], data: st.DataObject) -> bool:
    """A claim added or changed: trump, contract, points, score, totals, result, a trick's leader."""
    h = _hand(rec, data)
    if h is None:
        return False
    a = analyze(rec)
    names = list(a.table.unit_names) if a.table is not None else rec["players"]
    number = rec["hands"].index(h)
    r = a.hands[number] if number < len(a.hands) else None
    what = data.draw(st.sampled_from(["trump", "contract", "points", "score", "totals", "winner", "scores",
                                      "lead"]))
    right = data.draw(st.booleans())  # the right value (where the replay gives one), or a wrong one
    if what == "trump":
        first = h["tricks"][0][0] if h["tricks"] and h["tricks"][0] else "AS"
        suit = first[-1] if right else data.draw(st.sampled_from("SHDC♠♥♦♣shdc"))
        h["trump"] = suit
    elif what == "contract":
        bidder = rec["players"][r.bidder] if r is not None and right else _player(rec, data)
        bid = r.bid if r is not None and right else data.draw(st.integers(1, 4))
        h["contract"] = {"bidder": bidder, "bid": bid}
    elif what == "points":
        points: dict[str, Any] = {k: data.draw(st.sampled_from([None, *names])) for k in ("high", "low", "jack",
                                                                                            "game")}
        if right and r is not None:
            points = {k: None if w.unit is None else names[w.unit] for k, w in r.awards.items()}
        h["points"] = points
    elif what in ("score", "totals"):
        claim = dict(h.get(what) or dict.fromkeys(names, 0))
        name = data.draw(st.sampled_from(sorted(claim)))
        claim[name] += 0 if right else data.draw(st.sampled_from([-2, -1, 1, 4]))
        h[what] = claim
    elif what in ("winner", "scores"):
        result = dict(rec.get("result") or {})
        if what == "winner":
            result["winner"] = a.winner if right else data.draw(st.sampled_from([None, *names]))
        else:
            scores = dict(result.get("scores") or dict.fromkeys(names, 0))
            name = data.draw(st.sampled_from(sorted(scores)))
            scores[name] += 0 if right else 1
            result["scores"] = scores
        rec["result"] = result
    else:
        if r is None or not h.get("tricks"):
            return False
        k = data.draw(st.integers(0, min(len(h["tricks"]), len(r.tricks)) - 1))
        lead = rec["players"][r.tricks[k].leader] if right else _player(rec, data)
        trick = h["tricks"][k]
        # (a trick written with its leader already, as in a led record: its leader changed)
        h["tricks"][k] = {**trick, "lead": lead} if isinstance(trick, dict) else {"lead": lead, "cards": trick}
    return True


def _rng(data: st.DataObject) -> random.Random:
    return random.Random(data.draw(st.integers(0, 2**32 - 1)))


def _from_edits(name: str) -> Edit:
    return lambda rec, data: EDITS[name](rec)


def _from_breaker(edit: Callable[[dict[str, Any]], object]) -> Edit:
    return lambda rec, data: edit(rec)


def _from_properties(mutation: Callable[[dict[str, Any], random.Random], object]) -> Edit:
    return lambda rec, data: mutation(rec, _rng(data)) is not None


def _generic(rec: dict[str, Any], data: st.DataObject) -> bool:
    rng = _rng(data)
    for _ in range(1 + rng.randrange(3)):
        if not rec["hands"]:
            return False
        _mutate(rec, rng)
    return True


def _fuzzed(rec: dict[str, Any], data: st.DataObject) -> dict[str, Any] | bool:
    out = data.draw(mutated_record(rec))
    try:  # JSON of what a file can hold: no NaN, no lone surrogate, text keys
        return json.loads(json.dumps(out, allow_nan=False, ensure_ascii=False).encode("utf-8").decode())
    except (ValueError, TypeError, UnicodeError):
        return False


KINDS: dict[str, Edit] = {
    **{f"quick edit: {name}": _from_edits(name) for name in sorted(EDITS)},
    # (the breakers of full-detail games; those of other levels are judged in
    # test_engine_quick's streams, and these kinds are drawn for every level here)
    **{f"breaker: {b.row}: {b.name}": _from_breaker(b.edit) for b in BREAKERS if b.level == "full"},
    **{f"property: {name}": _from_properties(m) for name, m in sorted(MUTATIONS.items())},
    "generic (test_engine_quick._mutate)": _generic,
    "fuzz (fuzz_strategies.mutated_record)": _fuzzed,
    "card: another card": _another_card,
    "card: another notation (still valid)": _another_notation,
    "card: dealt twice to one player, played twice": _dealt_twice_to_one,
    "card: dealt to two players": _dealt_to_two,
    "card: played twice": _played_twice,
    "seat: deals exchanged": _deals_exchanged,
    "seat: another dealer": _dealer,
    "seat: a trick rotated": _trick_rotated,
    "order: tricks swapped": lambda rec, data: _swapped(rec, data, "tricks"),
    "order: cards of a trick swapped": lambda rec, data: _swapped(rec, data, "cards"),
    "order: hands swapped": lambda rec, data: _swapped(rec, data, "hands"),
    "order: calls swapped": lambda rec, data: _swapped(rec, data, "bids"),
    "order: a card moved to another trick": _card_moved,
    "claim: added or changed": _claim,
}
# Kinds whose games stay valid: the quick pass must decide them.
STAYS_VALID = {"card: another notation (still valid)"}


# --------------------------------------------------------------------------- the test

# Hands kept of a game broken (None: all): mostly a few, since a long game costs
# the loader and the locating of diagnostics more than its rules cost; the
# last tries of a kind that did not apply take whole games.
KEPT = (1, 2, 3, 1, 2, 3, 2, None)
FORMAT_SHARE = ("jsonl", "jsonl", "yaml")  # a third in YAML streams (YAML is slow to read)
STREAM_MAX = 160  # broken games in one stream at most: more make more streams
Batch = dict[tuple[Table, str], list[tuple[str, dict[str, Any]]]]


def _break(table: Table, kind: str, data: st.DataObject) -> dict[str, Any] | None:
    """A game of ``table`` broken by ``kind``; a kind that does not apply to the
    game drawn is tried on another, up to 5 times (None: it never applied)."""
    for attempt in range(5):
        hands = data.draw(st.sampled_from(KEPT), label="hands kept") if attempt < 3 else None
        seeds = SEEDS if hands is not None else _short_games(table)
        rec = _game(table, data.draw(st.sampled_from(seeds), label="game"), hands)
        before = json.dumps(rec)
        try:
            changed = KINDS[kind](rec, data)
        except (KeyError, IndexError, StopIteration, ValueError, AssertionError, TypeError, AttributeError):
            changed = False  # (an edit written for another table: names, four hands, a winner, tricks as lists ...)
        if isinstance(changed, dict):
            return changed
        if changed is False or (changed is None and json.dumps(rec) == before):
            SKIPPED[kind] += 1
            continue
        return rec
    return None


@pytest.fixture(scope="module")
def broken_games() -> Batch:
    """``MUTANTS`` broken games, each one example of Hypothesis's: a table, a
    kind of change, the format of its stream and the change's own choices.
    Made first and judged in streams after (one stream per example would cost
    a stream's 64 valid games for every broken game)."""
    out: Batch = {}

    @settings(max_examples=MUTANTS, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
    @given(data=st.data())
    def one(data: st.DataObject) -> None:
        table = data.draw(st.sampled_from(TABLES), label="table")
        kind = data.draw(st.sampled_from(list(KINDS)), label="kind")
        fmt = data.draw(st.sampled_from(FORMAT_SHARE), label="format")
        rec = _break(table, kind, data)
        if rec is not None:
            out.setdefault((table, fmt), []).append((kind, rec))

    one()
    if MUTANTS >= 2000:
        _top_up(out)
    return out


class _Found(Exception):
    """A broken game was found: the search for one ends."""


def _top_up(out: Batch) -> None:
    """A game broken by each kind that Hypothesis's examples happened not to
    make (a rare kind, such as a stuck dealer's bid, applies to few games):
    searched for alone, so that every kind is judged at the default size
    whatever the examples drawn (they differ with what ran before)."""
    made = {kind for games in out.values() for kind, _ in games}
    for kind in sorted(set(KINDS) - made):
        found: list[tuple[Table, dict[str, Any]]] = []

        @settings(max_examples=400, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck), phases=[Phase.generate])
        @given(data=st.data())
        def search(data: st.DataObject) -> None:
            table = data.draw(st.sampled_from(TABLES), label="table")
            rec = _break(table, kind, data)  # noqa: B023 - (called before the loop moves on)
            if rec is not None:
                found.append((table, rec))  # noqa: B023
                raise _Found  # (the search ends at the first such game)

        with contextlib.suppress(_Found):
            search()
        for table, rec in found:
            out.setdefault((table, "jsonl"), []).append((kind, rec))


@pytest.fixture(scope="module", autouse=True)
def _summary() -> Iterator[None]:
    yield
    total = sum(COUNTS.values())
    lines = [f"{total} broken games judged in {sum(STREAMS.values())} streams of {VALID} valid games "
             f"({', '.join(f'{n} {fmt}' for fmt, n in sorted(STREAMS.items()))}); "
             f"{sum(DIFFERED.values()) or 'none'} differed from alone; "
             f"{sum(DECIDED.values())} stayed valid and were decided by the quick pass",
             *(f"{COUNTS[k]:6d}  {k}" + (f"  (decided by the quick pass: {DECIDED[k]})" if DECIDED[k] else "")
               for k in KINDS if COUNTS[k])]
    if SKIPPED:
        lines.append(f"(a kind not applicable to the game drawn, tried on another: {sum(SKIPPED.values())} times)")
    print("\n" + "\n".join(lines))
    if STATS:
        with open(STATS, "w") as f:
            json.dump({"mutants": total, "differed": dict(DIFFERED), "streams": dict(STREAMS), "by_kind": dict(COUNTS),
                       "decided_by_kind": dict(DECIDED), "not_applicable": dict(SKIPPED)}, f, indent=1)


def _verdict(a: GameAnalysis | None) -> tuple[object, ...] | None:
    return None if a is None else (a.totals, a.winner, a.winner_hand)


def _took_quick_pass(c: Checked) -> bool:
    return c.analysis is not None and c.analysis._replay is not None


def _judge(table: Table, fmt: str, broken: list[tuple[str, dict[str, Any]]]) -> None:
    """One stream: the table's valid games with ``broken`` spread among them."""
    valid = [json.loads(t) for t in _valid_games(table)]
    records: list[dict[str, Any]] = []
    at: list[tuple[int, str]] = []
    valid_at: dict[int, int] = {}  # stream index -> index among the valid games
    for i, rec in enumerate(valid):
        valid_at[len(records)] = i
        records.append(rec)
        for kind, bad in broken[i * len(broken) // VALID:(i + 1) * len(broken) // VALID]:
            at.append((len(records), kind))
            records.append(bad)
    s = quick_streams.stream(records, fmt)
    found = {c.index: c for c in quick_streams.check_stream(s)}
    for k, i in valid_at.items():
        assert found[k].diagnostics == [] and _took_quick_pass(found[k]), (table, k)
        assert _verdict(found[k].analysis) == _full_verdict(_valid_games(table)[i]), (table, k)
    differed = []
    for k, kind in at:
        alone = quick_streams.check_alone(s, k)
        in_stream = found[k]
        if quick_streams.keys(in_stream, s.first_lines[k]) != quick_streams.keys(alone):
            DIFFERED[kind] += 1
            differed.append((kind, f"in the stream {quick_streams.keys(in_stream, s.first_lines[k])}, alone "
                                   f"{quick_streams.keys(alone)}, document:\n{s.texts[k].decode()[:3000]}"))
            continue
        if _took_quick_pass(in_stream):
            assert alone.diagnostics == []
            assert _verdict(in_stream.analysis) == _verdict(alone.analysis), (kind, table)
            DECIDED[kind] += 1
        else:
            assert kind not in STAYS_VALID, f"{kind}: a valid game the quick pass did not decide ({table})"
    assert not differed, (f"{len(differed)} broken game(s) of {table} judged otherwise in a {fmt} stream "
                          f"than alone, of the kinds {sorted({kind for kind, _ in differed})}; the first, "
                          f"{differed[0][0]}: {differed[0][1]}")
    STREAMS[fmt] += 1
    COUNTS.update(kind for _, kind in at)


@pytest.mark.parametrize("fmt", quick_streams.FORMATS)
@pytest.mark.parametrize("table", TABLES, ids=lambda v: v if isinstance(v, str) else
                         f"{v[0]}-{v[1]}{''.join(f'-{k}={x}' for k, x in v[2])}{'' if v[3] == 'full' else '-' + v[3]}")
def test_a_broken_game_in_a_stream_is_judged_as_alone(table: Table, fmt: str, broken_games: Batch) -> None:
    """The broken games of ``table`` for streams of ``fmt``, among 64 valid
    games in a stream (several, past ``STREAM_MAX`` broken games): each judged
    there as alone; every game the quick pass decided (the valid ones, and
    broken ones that stayed valid) scored as by the full replay."""
    broken = broken_games.get((table, fmt), [])
    for start in range(0, max(1, len(broken)), STREAM_MAX):
        _judge(table, fmt, broken[start:start + STREAM_MAX])


def test_every_kind_of_change_breaks_some_game(broken_games: Batch) -> None:
    """At the default size (or more), every kind of change breaks some game of some table."""
    made = {kind for games in broken_games.values() for kind, _ in games}
    if MUTANTS >= 2000:
        assert made == set(KINDS), sorted(set(KINDS) - made)
