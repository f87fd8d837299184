"""Scoring one hand: Auction Pitch (AP-SCORE-*) and ten-point (TP-POINTS-*, TP-SCORE-*)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from pitchcli.cards import ALL_CARDS, Card
from pitchcli.engine.play import Trick
from pitchcli.engine.tables import GAME_POINTS_I, JACK_I, TWO_I, TrumpView

AWARDS = ("high", "low", "jack", "game")
# One trick as scoring reads it: the cards (``Card.index``) in play order, the
# seat that played each, and the seat that won it (``None``: nobody, TP-PLAY-2).
PlayedTrick = tuple[Sequence[int], Sequence[int], int | None]


def played_tricks(tricks: Sequence[Trick]) -> list[PlayedTrick]:
    """``Trick`` objects as scoring reads them."""
    return [([p.card.index for p in t.plays], [p.seat for p in t.plays], t.winner) for t in tricks]


class Award:
    """One Auction Pitch point (AP-SCORE-1): ``unit`` took it (``None``: not
    awarded, AP-SCORE-2); ``card`` earned it (High, Low, Jack); ``seat`` is the
    player who captured it (or played it, for Low with ``low: played``)."""

    # (A plain class, as ``Play``: docs/architecture.md, "a record type".)
    __slots__ = ("card", "kind", "played_by", "seat", "trick", "unit")

    def __init__(self, kind: str, unit: int | None, card: Card | None = None, seat: int | None = None,
                 played_by: int | None = None, trick: int | None = None) -> None:
        self.kind = kind
        self.unit = unit
        self.card = card
        self.seat = seat
        self.played_by = played_by
        self.trick = trick  # the trick the card was played in


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
    tricks: Sequence[PlayedTrick], view: TrumpView, unit_of: tuple[int, ...], units: int, low_rule: str
) -> tuple[dict[str, Award], list[int], list[int]]:
    """High, Low, Jack and Game from the tricks, each unit's game points, and
    the game points of each trick (AP-SCORE-4).

    The trumps in play are the trumps dealt, and in Auction Pitch every dealt
    card is played (AP-DEAL-1), so they are the trumps in the tricks. (A trick
    won by nobody can't happen in Auction Pitch, AP-PLAY-3: it would count for
    nothing.)
    """
    values: list[int] = []
    tallies = [0] * units
    in_play: list[int] = []
    for cards, _, won in tricks:  # one pass: each trick's game points, and the cards taken
        if won is None:
            values.append(0)
            continue
        value = trick_game_points(cards)
        values.append(value)
        tallies[unit_of[won]] += value
        in_play += cards
    high, low, jack = award_cards(in_play, view)

    def award(kind: str, c: int, to_player: bool = False) -> Award:
        # The last time the card is played (a card played twice is reported
        # as CARD-4; the hand is still scored).
        for k in range(len(tricks) - 1, -1, -1):
            cards, seats, won = tricks[k]
            if won is not None and c in cards:
                seat = seats[len(cards) - 1 - list(cards)[::-1].index(c)]
                s = seat if to_player else won
                return Award(kind, unit_of[s], ALL_CARDS[c], s, seat, k + 1)
        raise AssertionError("a trump in play is in a trick")

    awards: dict[str, Award] = {}
    if high is not None and low is not None:
        awards["high"] = award("high", high)
        # AP-SCORE-1: Low to who captured it, or (option low: played) who played it.
        awards["low"] = award("low", low, low_rule == "played")
        # AP-SCORE-2: no jack of trumps in play, no Jack point.
        awards["jack"] = award("jack", jack) if jack is not None else Award("jack", None)
    else:  # no trick at all: nothing to award
        awards.update({k: Award(k, None) for k in ("high", "low", "jack")})
    awards["game"] = Award("game", game_unit(tallies))
    return awards, tallies, values


def award_cards(in_play: Iterable[int], view: TrumpView) -> tuple[int | None, int | None, int | None]:
    """High, Low and Jack among the cards in play (``Card.index``): the highest
    and the lowest trump (AP-SCORE-1; one trump is both, AP-SCORE-3) and the
    jack of trumps; ``None`` for what is not in play (AP-SCORE-2)."""
    trumps = view.trumps_i.intersection(in_play)
    if not trumps:
        return None, None, None
    strength = view.strength_i.__getitem__
    jack = JACK_I[view.trump]
    return max(trumps, key=strength), min(trumps, key=strength), jack if jack in trumps else None


def trick_game_points(cards: Iterable[int]) -> int:
    """The game points of the cards of a trick (AP-SCORE-4)."""
    return sum(map(GAME_POINTS_I.__getitem__, cards))


def game_unit(tallies: Sequence[int]) -> int | None:
    """The unit that takes Game from each unit's game points, or ``None``.

    AP-SCORE-2, AP-SCORE-4: Game needs a plurality (more than every other
    unit, not a majority); a tie for the most is not awarded.
    """
    if not tallies:
        return None
    best = max(tallies)
    return tallies.index(best) if tallies.count(best) == 1 else None


def award_points(awards: dict[str, Award], units: int) -> list[int]:
    """Points taken per unit: one per award (a lone trump counts as High and
    Low, and as Jack too when it is the jack: AP-SCORE-3)."""
    taken = [0] * units
    for a in awards.values():
        if a.unit is not None:
            taken[a.unit] += 1
    return taken


def award_seat_points(awards: dict[str, Award], seats: int) -> list[int]:
    """Points taken per seat: one per award to the player who took it
    (``Award.seat``; an award of a tally names a unit only: no seat)."""
    taken = [0] * seats
    for a in awards.values():
        if a.unit is not None and a.seat is not None:
            taken[a.seat] += 1
    return taken


def tally_seat_points(taken: Sequence[int], unit_of: Sequence[int]) -> list[int]:
    """Points taken per seat in a tally, which says what each unit took: a
    unit of one player is that player; a team member's own share is unknown (0)."""
    return [taken[unit_of[s]] if unit_of.count(unit_of[s]) == 1 else 0 for s in range(len(unit_of))]


def ten_point_credits(
    tricks: Sequence[PlayedTrick], view: TrumpView, unit_of: tuple[int, ...]
) -> tuple[list[PointCredit], list[int], list[tuple[tuple[Card, int], ...]]]:
    """TP-POINTS-1: each point card to whoever wins it, the 2 of trumps to who
    played it; off cards are worth nothing (TP-POINTS-2): only the point cards
    of the tricks count, the rest are thrown away (TP-SCORE-1). Also returns
    each trick's value (the points its winner takes in it) and its point cards
    with their values."""
    credits: list[PointCredit] = []
    values: list[int] = []
    in_tricks: list[tuple[tuple[Card, int], ...]] = []
    points = view.points_i
    two = TWO_I[view.trump]
    for number, (cards, seats, won) in enumerate(tricks, 1):
        in_trick: list[tuple[Card, int]] = []
        value = 0
        for c, seat in zip(cards, seats, strict=True):
            v = points[c]
            if not v:
                continue
            card = ALL_CARDS[c]
            in_trick.append((card, v))
            if c == two:
                credits.append(PointCredit(card, v, seat, unit_of[seat], seat, number, Credit.PLAYED))
            elif won is not None:
                value += v
                credits.append(PointCredit(card, v, won, unit_of[won], seat, number, Credit.CAPTURED))
        values.append(value)
        in_tricks.append(tuple(in_trick))
    return credits, values, in_tricks


def credited(credits: list[PointCredit], units: int, by_seat: bool = False) -> list[int]:
    """The points of ``credits`` per unit (or per seat, with ``by_seat``)."""
    taken = [0] * units
    for cr in credits:
        taken[cr.seat if by_seat else cr.unit] += cr.value
    return taken


def ten_point_taken(tricks: Sequence[PlayedTrick], view: TrumpView, unit_of: tuple[int, ...],
                    units: int) -> list[int]:
    """The ten-point points each unit took in ``tricks`` (TP-POINTS-1)."""
    return credited(ten_point_credits(tricks, view, unit_of)[0], units)


def settle(taken: list[int], bidding: frozenset[int], bid: int, pooled: bool) -> tuple[bool, list[int]]:
    """The score change of every unit (AP-SCORE-5/6, TP-SCORE-2, TP5-5).

    The bidding side makes its bid when its units took at least the bid; then
    each of its units scores what the side took, else minus the bid. With a
    called partner (``pooled``) every player scores his side's total, the
    other side's players included (TP5-5); otherwise a unit scores what it took.
    """
    side_total = sum(map(taken.__getitem__, bidding))
    made = side_total >= bid
    if pooled:
        other_total = sum(taken) - side_total
        return made, [(side_total if made else -bid) if u in bidding else other_total
                      for u in range(len(taken))]
    if made:
        return made, list(taken)
    return made, [-bid if u in bidding else v for u, v in enumerate(taken)]
