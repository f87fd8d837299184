"""A record typed again another way (for ``dedup``'s planted copies): other card
notation, keys in another order. Shared by the tests and ``benchmarks/bench_archive.py``."""

from __future__ import annotations

import copy
import random
from typing import Any

from support.games import BASE_TRICKS

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def renotated(v: Any) -> Any:
    """Every card in another notation of CARD-3: ``10S`` -> ``ts``, ``QH`` -> ``qh``."""
    if isinstance(v, str) and v[:-1] in RANKS and v[-1:] in ("S", "H", "D", "C"):
        return ("T" if v[:-1] == "10" else v[:-1]).lower() + v[-1].lower()
    if isinstance(v, list):
        return [renotated(x) for x in v]
    if isinstance(v, dict):
        return {k: renotated(x) for k, x in v.items()}
    return v


def rekeyed(v: Any, rng: random.Random) -> Any:
    """Every mapping's keys in a random order."""
    if isinstance(v, dict):
        items = list(v.items())
        rng.shuffle(items)
        return {k: rekeyed(x, rng) for k, x in items}
    if isinstance(v, list):
        return [rekeyed(x, rng) for x in v]
    return v


def played_otherwise(rec: dict[str, Any]) -> dict[str, Any]:
    """``support.games.base_game`` with the same deal played otherwise (a
    near-duplicate): in trick 5 the pitcher trumps with 10S instead of
    following with QH (AP-PLAY-2 lets him), then leads QH."""
    other = copy.deepcopy(rec)
    tricks = copy.deepcopy(BASE_TRICKS)
    tricks[4] = ["9H", "7H", "10S", "AC"]
    tricks[5] = ["QH", "6D", "4D", "5H"]
    other["hands"][0]["tricks"] = tricks
    return other
