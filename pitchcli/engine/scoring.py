"""Scoring one hand: Auction Pitch (AP-SCORE-*) and ten-point (TP-POINTS-*, TP-SCORE-*)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from pitchcli.cards import ALL_CARDS, Card
from pitchcli.engine.family import GAME_POINTS, TrumpView
from pitchcli.engine.play import Trick

AWARDS = ("high", "low", "jack", "game")
# AP-SCORE-4 game points of every card, looked up once per card played.
_GAME_POINTS: dict[Card, int] = {c: GAME_POINTS.get(c.rank, 0) for c in ALL_CARDS}


@dataclass(slots=True)  # not frozen: frozen __init__ costs 3x on this hot path
class Award:
    """One Auction Pitch point (AP-SCORE-1): ``unit`` took it (``None``: not
    awarded, AP-SCORE-2); ``card`` earned it (High, Low, Jack); ``seat`` is the
    player who captured it (or played it, for Low with ``low: played``)."""

    kind: str
    unit: int | None
    card: Card | None = None
    seat: int | None = None
    played_by: int | None = None
    trick: int | None = None  # the trick the card was played in


class Credit(StrEnum):
    """How a ten-point point card was credited: to who won the trick it was in,
    or (the 2 of trumps) to who played it (TP-POINTS-1)."""

    CAPTURED = "captured"
    PLAYED = "played"


@dataclass(frozen=True, slots=True)
class PointCredit:
    """One ten-point point card and who it scored for (TP-POINTS-1): ``value``
    points to ``seat`` (``unit``), played by ``played_by`` in trick ``trick``."""

    card: Card
    value: int
    seat: int
    unit: int
    played_by: int
    trick: int
    how: Credit


def auction_awards(
    tricks: list[Trick], view: TrumpView, unit_of: tuple[int, ...], units: int, low_rule: str
) -> tuple[dict[str, Award], list[int]]:
    """High, Low, Jack and Game from the tricks, and each unit's game points.

    The trumps in play are the trumps dealt, and in Auction Pitch every dealt
    card is played (AP-DEAL-1), so they are the trumps in the tricks.
    """
    captured_by: dict[Card, int] = {}
    played_by: dict[Card, int] = {}
    trick_of: dict[Card, int] = {}
    tallies = [0] * units
    points = _GAME_POINTS
    for t in tricks:
        won = t.winner
        if won is None:
            continue  # never in Auction Pitch: a trick always has a winner (AP-PLAY-3)
        u = unit_of[won]
        value = 0
        for p in t.plays:
            c = p.card
            played_by[c] = p.seat
            captured_by[c] = won
            trick_of[c] = t.number
            value += points[c]  # AP-SCORE-4
        t.value = value
        tallies[u] += value
    trumps = [c for c in played_by if view.strength[c] > 0]
    awards: dict[str, Award] = {}
    if trumps:
        high = max(trumps, key=view.strength.__getitem__)
        low = min(trumps, key=view.strength.__getitem__)
        s = captured_by[high]
        awards["high"] = Award("high", unit_of[s], high, s, played_by[high], trick_of[high])
        # AP-SCORE-1: Low to who captured it, or (option low: played) who played it.
        s = played_by[low] if low_rule == "played" else captured_by[low]
        awards["low"] = Award("low", unit_of[s], low, s, played_by[low], trick_of[low])
        jack = next((c for c in trumps if c.rank == 11), None)
        if jack is None:
            awards["jack"] = Award("jack", None)  # AP-SCORE-2: not in play
        else:
            s = captured_by[jack]
            awards["jack"] = Award("jack", unit_of[s], jack, s, played_by[jack], trick_of[jack])
    else:  # no trick at all: nothing to award
        awards.update({k: Award(k, None) for k in ("high", "low", "jack")})
    awards["game"] = Award("game", game_unit(tallies))
    return awards, tallies


def game_unit(tallies: Sequence[int]) -> int | None:
    """The unit that takes Game from each unit's game points, or ``None``.

    AP-SCORE-2, AP-SCORE-4: Game needs a plurality (more than every other
    unit, not a majority); a tie for the most is not awarded.
    """
    best = max(tallies) if tallies else 0
    leaders = [u for u, v in enumerate(tallies) if v == best]
    return leaders[0] if len(leaders) == 1 else None


def award_points(awards: dict[str, Award], units: int) -> list[int]:
    """Points taken per unit: one per award (a lone trump counts as High and
    Low, and as Jack too when it is the jack: AP-SCORE-3)."""
    taken = [0] * units
    for a in awards.values():
        if a.unit is not None:
            taken[a.unit] += 1
    return taken


def ten_point_credits(tricks: list[Trick], view: TrumpView, unit_of: tuple[int, ...]) -> list[PointCredit]:
    """TP-POINTS-1: each point card to whoever wins it, the 2 of trumps to who
    played it; off cards are worth nothing (TP-POINTS-2): only the point cards
    of the tricks count, the rest are thrown away (TP-SCORE-1). Sets each
    trick's ``value`` and ``point_cards`` on the way."""
    credits: list[PointCredit] = []
    points = view.points
    for t in tricks:
        in_trick: list[tuple[Card, int]] = []
        value = 0
        for p in t.plays:
            c = p.card
            v = points[c]
            if not v:
                continue
            in_trick.append((c, v))
            if c.rank == 2 and c.suit == view.trump:
                credits.append(PointCredit(c, v, p.seat, unit_of[p.seat], p.seat, t.number, Credit.PLAYED))
            elif t.winner is not None:
                value += v
                credits.append(PointCredit(c, v, t.winner, unit_of[t.winner], p.seat, t.number,
                                           Credit.CAPTURED))
        t.value = value
        t.point_cards = tuple(in_trick)
    return credits


def credited(credits: list[PointCredit], units: int, by_seat: bool = False) -> list[int]:
    """The points of ``credits`` per unit (or per seat, with ``by_seat``)."""
    taken = [0] * units
    for cr in credits:
        taken[cr.seat if by_seat else cr.unit] += cr.value
    return taken


def ten_point_taken(tricks: list[Trick], view: TrumpView, unit_of: tuple[int, ...], units: int) -> list[int]:
    """The ten-point points each unit took in ``tricks`` (TP-POINTS-1)."""
    return credited(ten_point_credits(tricks, view, unit_of), units)


def settle(taken: list[int], bidding: frozenset[int], bid: int, pooled: bool) -> tuple[bool, list[int]]:
    """The score change of every unit (AP-SCORE-5/6, TP-SCORE-2, TP5-5).

    The bidding side makes its bid when its units took at least the bid; then
    each of its units scores what the side took, else minus the bid. With a
    called partner (``pooled``) every player scores his side's total, the
    other side's players included (TP5-5); otherwise a unit scores what it took.
    """
    side_total = sum(taken[u] for u in bidding)
    made = side_total >= bid
    other_total = sum(v for u, v in enumerate(taken) if u not in bidding)
    delta = []
    for u, v in enumerate(taken):
        if u in bidding:
            delta.append((side_total if pooled else v) if made else -bid)
        else:
            delta.append(other_total if pooled else v)
    return made, delta
