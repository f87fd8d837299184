"""Copies of one game in an archive, found by what was played, not by the bytes.

``play_key`` hashes what was played, in the canonical form
(``record.write.canonical``: key order, card notation and the case of
``pass`` don't count, nor spacing, quoting or the file's format): the
variant and its rule overrides, the players and teams, and hand by hand the
dealer, the deal, the calls, the kitty and the dead cards, a called partner's
card(s), the discards and draws, and the cards of every trick in play order
(a tally hand: its contract, trump and points). What is derived or about the
game rather than in it is left out: the event, date, round, table, id and
notes, the ``x-`` extensions, and every claim the engine derives (the trick
leaders, trump, points, scores, totals, result), so a record written again
by ``fmt --fill`` is still the same game.

``deal_key`` hashes less: the variant, the players and each hand's dealer and
deal (who held which cards; for a record of play without its deal, the
cards of each trick as a set). Two games alike there but not in ``play_key`` are
near-duplicates ("the same deal, a different trick"): listed apart, for a
person to look at.

``Dedup`` takes the keys of each game in the order read and keeps, per key,
the first game's place: memory grows with the number of distinct games
(about 200 bytes each), not with what they hold.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from pitchcli.record.write import canonical

PLAYED = ("dealer", "deal", "dead", "bids", "kitty", "discards", "draws")
TALLY = ("contract", "trump", "points")
PARTNER_CARDS = ("card", "cards")


def _plain(v: Any) -> Any:
    """A value without its ``x-`` extensions (they are notes about the game)."""
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items() if not (isinstance(k, str) and k.startswith("x-"))}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


def _tricks(h: dict[str, Any]) -> list[Any]:
    return [t.get("cards") if isinstance(t, dict) else t for t in h.get("tricks") or []]


def played(record: dict[str, Any]) -> dict[str, Any]:
    """What was played in a record, as plain canonical data (see the module doc)."""
    rec = canonical(record)
    hands = []
    for h in rec.get("hands") or []:
        if not isinstance(h, dict):
            hands.append(h)
            continue
        out = {k: h[k] for k in PLAYED if k in h}
        partner = h.get("partner")
        if isinstance(partner, dict):
            out["partner"] = {k: partner[k] for k in PARTNER_CARDS if k in partner}
        tricks = _tricks(h)
        out["tricks"] = tricks
        if not tricks:  # a tally: what the score sheet recorded is what happened
            out.update((k, h[k]) for k in TALLY if k in h)
        hands.append(out)
    game = {k: rec.get(k) for k in ("variant", "rules", "players", "teams")}
    game["hands"] = hands
    return _plain(game)


def _sorted_cards(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _sorted_cards(x) for k, x in v.items()}
    if isinstance(v, list):
        return sorted(str(c) for c in v)
    return v


def _deal_of(h: dict[str, Any]) -> dict[str, Any]:
    """One hand's deal: who held what (``deal``, ``dead``, ``kitty``), else, for
    a record of play, the cards of each trick as a set (who played which
    card is the engine's to say); a tally hand: its contract."""
    out: dict[str, Any] = {"dealer": h.get("dealer")}
    if "deal" in h:
        out.update((k, _sorted_cards(h[k])) for k in ("deal", "dead", "kitty") if k in h)
    elif h.get("tricks"):
        out["tricks"] = sorted(_sorted_cards(t) for t in h["tricks"] if isinstance(t, list))
    else:
        out["contract"] = h.get("contract")
    return out


def dealt(record: dict[str, Any]) -> dict[str, Any]:
    """The deal of a record: the variant, the players and each hand's deal (``_deal_of``)."""
    game = played(record)
    return {"variant": game["variant"], "players": game["players"],
            "hands": [_deal_of(h) if isinstance(h, dict) else h for h in game["hands"]]}


def _digest(data: Any) -> bytes:
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def play_key(record: dict[str, Any]) -> bytes:
    """The 16-byte hash of what was played (``played``)."""
    return _digest(played(record))


def deal_key(record: dict[str, Any]) -> bytes:
    """The 16-byte hash of the deal (``dealt``)."""
    return _digest(dealt(record))


@dataclass
class Place:
    """Where a game is: its file and document number (from 1)."""

    file: str
    document: int
    seq: int = 0  # the order read (set by ``Dedup.add``)

    def as_json(self) -> dict[str, Any]:
        """``{"file", "document"}``."""
        return {"file": self.file, "document": self.document}


@dataclass
class Group:
    """The games that share a key, in the order read (the first is the one to keep)."""

    key: str  # the hash, in hex
    places: list[Place] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """The entry of the JSON report."""
        return {"key": self.key, "copies": [p.as_json() for p in self.places]}


class Dedup:
    """The duplicates and near-duplicates among the games added, in the order
    read: ``duplicates`` are groups of two or more copies of one game (the
    same ``play_key``); ``near`` are groups of games with one ``deal_key`` and
    two or more different ``play_key`` (one place each: the first copy)."""

    def __init__(self) -> None:
        self.games = 0
        self._first: dict[bytes, Place] = {}  # play key -> its first copy
        self._groups: dict[bytes, Group] = {}  # play key -> its copies, from the second copy on
        self._deals: dict[bytes, bytes] = {}  # deal key -> the first play key seen with it
        self._near: dict[bytes, dict[bytes, Place]] = {}  # deal key -> play key -> first place

    def add(self, place: Place, play: bytes, deal: bytes) -> None:
        """One game, by its keys (``play_key``, ``deal_key``)."""
        place.seq = self.games
        self.games += 1
        first = self._first.get(play)
        if first is not None:
            group = self._groups.get(play)
            if group is None:
                group = self._groups[play] = Group(play.hex(), [first])
            group.places.append(place)
            return
        self._first[play] = place
        seen = self._deals.get(deal)
        if seen is None:
            self._deals[deal] = play
            return
        near = self._near.get(deal)
        if near is None:
            near = self._near[deal] = {seen: self._first[seen]}
        near[play] = place

    @property
    def unique(self) -> int:
        """Distinct games."""
        return len(self._first)

    @property
    def duplicates(self) -> list[Group]:
        """Groups of copies, by the place of their first copy."""
        return sorted(self._groups.values(), key=lambda g: _order(g.places[0]))

    @property
    def near(self) -> list[Group]:
        """Groups of near-duplicates, by the place of their first game."""
        groups = [Group(deal.hex(), sorted(by_play.values(), key=_order)) for deal, by_play in self._near.items()]
        return sorted(groups, key=lambda g: _order(g.places[0]))

    @property
    def extra_copies(self) -> int:
        """Copies beyond the first of each game: what a clean archive would not hold."""
        return self.games - self.unique


def _order(p: Place) -> int:
    return p.seq
