"""The quick pass on the forms a clean record may take (docs/format.md).

A record may spell its cards and trump in any way the format reads, stop an
auction after its closing bid, give a contract beside the bids, and carry
``x-`` extension keys in any mapping the schema allows them in (the record, a
hand, a deal, the discards and draws, the claims, a trick written with its
leader). None of that changes the game, so a clean game in any of these forms
is decided by the quick pass, with the full replay's result; and a key that is
no player's where an extension may be leaves the game to the full replay.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from typing import Any

import pytest
from test_engine_quick import _same, _took_quick_pass

from pitchcli.pipeline.feed import analyze, analyze_many
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import builtin_profiles
from pitchcli.record import schema
from pitchcli.render.records import fill

GAMES = int(os.environ.get("PITCH_QUICK_GAMES", "20"))
TABLES = sorted({(name, n) for name, p in builtin_profiles().items() for n in (min(p.players), max(p.players))})
_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_BY_PLAYER = ("deal", "discards", "draws")
_CLAIMS = ("points", "score", "totals", "partner")
Form = Callable[[dict[str, Any]], dict[str, Any]]


def _cards_lower(rec: dict[str, Any]) -> dict[str, Any]:
    """Every card in lower case (``as``, ``10h``), as CARD-3 reads it."""
    def low(x: Any) -> Any:
        if isinstance(x, list):
            return [c.lower() if isinstance(c, str) else low(c) for c in x]
        if isinstance(x, dict):
            return {k: low(v) for k, v in x.items()}
        return x

    for h in rec["hands"]:
        for key in (*_BY_PLAYER, "tricks", "kitty", "dead"):
            if key in h:
                h[key] = low(h[key])
    return rec


def _trump_symbols(rec: dict[str, Any]) -> dict[str, Any]:
    for h in rec["hands"]:
        if "trump" in h:
            h["trump"] = _SYMBOLS[h["trump"]]
    return rec


def _bids_closed(rec: dict[str, Any]) -> dict[str, Any]:
    """Each auction stopped after the bid that closes it (the calls left out are passes)."""
    top = builtin_profiles()[rec["variant"]].max_bid
    for h in rec["hands"]:
        bids = h.get("bids")
        if bids and top in bids:
            h["bids"] = bids[:bids.index(top) + 1]
    return rec


def _extensions(rec: dict[str, Any]) -> dict[str, Any]:
    """``x-`` keys in every mapping that takes one, and notes."""
    rec["x-source"] = "club sheet"
    rec.setdefault("result", {})["x-checked"] = True
    for h in rec["hands"]:
        h["x-table"] = 3
        h["notes"] = "redealt once"
        for key in (*_BY_PLAYER, *_CLAIMS):
            if isinstance(h.get(key), dict):
                h[key]["x-by"] = ["Zed"]
        for t in h.get("tricks", ()):
            t["x-note"] = "a long think"
    return rec


FORMS: dict[str, Form] = {
    "filled": lambda rec: rec,
    "cards in lower case": _cards_lower,
    "trump as a symbol": _trump_symbols,
    "auctions stopped at the closing bid": _bids_closed,
    "extension keys everywhere": _extensions,
}


def _record(table: tuple[str, int], seed: int, form: Form) -> dict[str, Any]:
    rec = simulate_game(table[0], players=table[1], seed=seed)
    out = form(fill(rec, analyze(rec)))
    assert not [d for d in schema.validate(out) if d.severity == "error"], (table, seed)
    return out


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("table", TABLES)
def test_a_clean_game_in_any_form_is_decided_by_the_quick_pass(table: tuple[str, int], form: str) -> None:
    records = [_record(table, seed, FORMS[form]) for seed in range(max(2, GAMES // 4))]
    for seed, (rec, quick) in enumerate(zip(records, analyze_many(records), strict=True)):
        full = analyze(rec)
        assert full.violations == [], (table, form, seed)
        assert quick is not None and _took_quick_pass(quick), (table, form, seed)
        _same(quick, full)


# Each table with each mapping by player its games record (discards and draws: ten-point's exchange).
_MAPPINGS = [(table, key) for table in TABLES for key in _BY_PLAYER
             if any(isinstance(h.get(key), dict) for h in simulate_game(*table, seed=0)["hands"])]


@pytest.mark.parametrize(("table", "key"), _MAPPINGS)
def test_a_name_that_is_no_players_beside_the_players_is_the_full_replays(table: tuple[str, int], key: str) -> None:
    """A mapping by player with a name that is neither a player's nor an
    extension's (R413): the game is replayed, and reports as alone."""
    rec = _record(table, 0, lambda r: r)
    hand = next(h for h in rec["hands"] if isinstance(h.get(key), dict))
    for extra in ("Zed", "x-but-also-Zed"):
        changed = copy.deepcopy(rec)
        changed_hand = changed["hands"][rec["hands"].index(hand)]
        changed_hand[key] = {**changed_hand[key], extra: []}
        quick, = analyze_many([changed])
        full = analyze(changed)
        if extra == "Zed":
            assert quick is None and "R413" in {v.code for v in full.violations}, (table, key)
        else:
            assert quick is not None and not full.violations, (table, key)
            _same(quick, full)
