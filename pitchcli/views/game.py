"""What the report, the chart and the ratings know of a game: plain views read
from a game's public results (``pitchcli.Game``), in one place.

Every game fact here (who took which point, made or set, the score changes,
the running totals, the trick winners, the winner of the game) is *read* from
what the engine derived: the public ``Game`` and its ``Hand`` values (which
the score sheet, ``pitchcli.views.scoresheet``, reads too). Nothing is
recomputed and nothing branches on a family's or profile's name: a hand shows
Auction Pitch awards when the engine gave awards, and points taken otherwise.
This is the only module of ``report``, ``chart`` and ``ratings`` that reads
a game's results, so that a change in them is a change here alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, NamedTuple

from pitchcli import escape
from pitchcli.api.checking import checked_game
from pitchcli.api.games import Card, Hand
from pitchcli.api.kinds import CallKind, Level, PointKind
from pitchcli.cards import SUITS
from pitchcli.pipeline.check import Checked


class TrickView(NamedTuple):
    """One trick: who led, who played each card and the cards (each face says
    whether the engine counts it a trump), in play order, who won it (``None``:
    nobody). (The players and the cards are two tuples, not a record per play:
    ``pitch report`` spools every game's view, and a game's 256 plays pickled
    as objects were most of its pickling.)"""

    number: int
    leader: str
    players: tuple[str, ...]
    faces: tuple[CardFace, ...]
    winner: str | None
    reason: str


class CardFace(NamedTuple):
    """A card as printed: ``rank`` 10, Q (``''`` for a joker), ``suit`` S H D C
    (``None`` for a joker); ``card`` its canonical notation. Frozen: one face
    of each card (and trump flag) is shared by every view that shows it
    (``face_of``), so that a spooled game pickles each face once."""

    card: str
    rank: str
    suit: str | None
    trump: bool = False

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # A spooled view's faces are read back as the shared ones (``shared_face``),
        # not made anew: some 100 objects a game fewer for ``pitch report`` to
        # make and collect (measured, 300 views unpickled in a loop: 0.68 -> 0.31 ms
        # a view; in a report's run 0.26 -> 0.24, pickling 0.40 -> 0.33).
        return shared_face, tuple(self)


@cache
def shared_face(card: str, rank: str, suit: str | None, trump: bool = False) -> CardFace:
    """The one face of these fields (``face_of``'s, and a spooled view's when read back)."""
    return CardFace(card, rank, suit, trump)


@cache
def face_of(c: Card, trump: bool = False) -> CardFace:
    """The face of a card the engine gave, and whether it is a trump (one
    shared object per card and flag)."""
    return shared_face(c.text, "" if c.suit is None else c.text[:-1], c.suit, trump)


class PointView(NamedTuple):
    """One Auction Pitch point (High, Low, Jack, Game): who took it and with
    which card (``unit`` ``None``: not awarded; ``card`` ``None``: no card
    earns it, or a tally record doesn't say)."""

    kind: str
    unit: str | None
    card: CardFace | None
    player: str | None


class SeatDeal(NamedTuple):
    """One player's box of the hand diagram: the cards dealt, and in ten-point
    the exchange: the cards discarded and drawn; each list jokers first, then
    suit by suit from the ace down (the record's order is in the record)."""

    player: str
    dealt: list[CardFace]
    discards: list[CardFace] | None = None
    draws: list[CardFace] | None = None


class DealView(NamedTuple):
    """A hand's deal as a hand diagram shows it: one ``SeatDeal`` per player in
    seat order, the kitty the bidder took (cut-down ten-point) and the cards
    set aside at the deal (``None``: none recorded). Read from the public
    ``Hand`` (``dealt``, ``discards``, ``draws``, ``kitty``, ``set_aside``)."""

    seats: list[SeatDeal]
    kitty: list[CardFace] | None = None
    set_aside: list[CardFace] | None = None


@cache  # (a deal's 24-odd cards sorted for every hand of every game: one key per card, made once)
def _diagram_order(c: Card) -> tuple[int, int, str]:
    # As a hand diagram shows a hand (BridgeComposer's): the jokers first, then
    # suit by suit (spades, hearts, diamonds, clubs), each from the ace down. A
    # display order of the printed cards, not the trump order of any hand.
    return (-1 if c.suit is None else SUITS.index(c.suit), -c.rank, c.text)


def deal_view(h: Hand) -> DealView | None:
    """The diagram of a public ``Hand``; ``None`` when its record has no deal
    (a play-level or tally hand)."""
    if not h.has_deal:
        return None

    def faces(cards: Iterable[Card] | None) -> list[CardFace] | None:
        return None if cards is None else [face_of(c) for c in sorted(cards, key=_diagram_order)]

    exchanged = bool(h.discards or h.draws)
    seats = [SeatDeal(p, faces(cs) or [],
                      faces(h.discards.get(p, ())) if exchanged else None,
                      faces(h.draws.get(p, ())) if exchanged else None) for p, cs in h.dealt.items()]
    return DealView(seats, faces(h.kitty), faces(h.set_aside))


@dataclass
class HandView:
    """One hand as a person reads it. ``scored`` false: the hand could not be
    scored (its later totals are unknown)."""

    number: int
    dealer: str
    scored: bool
    level: str | None = None
    calls: list[tuple[str, str]] = field(default_factory=list)  # (player, "pass" | bid), with kind
    bidder: str | None = None
    bid: int | None = None
    trump: str | None = None
    called: list[str] = field(default_factory=list)
    partners: list[str] = field(default_factory=list)
    awards: list[PointView] = field(default_factory=list)  # Auction Pitch points, when the engine gave them
    taken: dict[str, int] = field(default_factory=dict)  # points taken per unit
    made: bool | None = None
    change: dict[str, int] = field(default_factory=dict)
    totals: dict[str, int] | None = None
    tricks: list[TrickView] = field(default_factory=list)
    deal: DealView | None = None  # the hand diagram; None: the record has no deal


class _Ended:
    """What a game's views share: who won, and who plays in a unit."""

    winner: str | None
    teams: dict[str, list[str]]

    @property
    def finished(self) -> bool:
        """True when the game has a winner."""
        return self.winner is not None

    def members(self, unit: str) -> list[str]:
        """The players of a unit (a player is his own unit without fixed teams)."""
        return self.teams.get(unit, [unit])


@dataclass
class GameView(_Ended):
    """One valid game: where it is, who played, hand by hand, how it ended."""

    file: str
    document: int
    event: str | None
    date: str | None
    round: str | None
    table: str | None
    id: str | None
    variant: str
    players: list[str]
    units: list[str]
    teams: dict[str, list[str]]  # unit -> its players, for fixed teams; {} otherwise
    target: int
    hands: list[HandView]
    totals: dict[str, int] | None
    winner: str | None
    winner_hand: int | None

    def race(self) -> list[dict[str, int]]:
        """Each unit's total before the first hand (all 0) and after every hand,
        up to the last hand whose total is known."""
        out = [dict.fromkeys(self.units, 0)]
        for h in self.hands:
            if h.totals is None:
                break
            out.append(dict(h.totals))
        return out


@dataclass(frozen=True)
class GameResult(_Ended):
    """What the ratings read of a valid game: where and when it was played,
    its units and their players, and how it ended; a ``GameView`` without its
    hands. Made from the engine's result alone (``game_result``), so a game the
    quick pass decided is never replayed, and a league's games take little
    memory each."""

    file: str
    document: int
    event: str | None
    date: str | None
    round: str | None
    units: list[str]
    teams: dict[str, list[str]]  # unit -> its players, for fixed teams; {} otherwise
    totals: dict[str, int] | None
    winner: str | None


def game_result(c: Checked) -> GameResult:
    """The result of a valid checked game (see ``usable``): the same units,
    teams, totals and winner as its ``game_view``, read from its public
    ``Game`` without its hands (a game the quick pass decided is not replayed)."""
    g = checked_game(c)
    return GameResult(
        file=c.file, document=c.index, event=g.event, date=g.date, round=g.round, units=list(g.sides),
        teams={t: list(m) for t, m in g.teams.items()},
        totals=None if g.totals is None else dict(g.totals), winner=g.winner)


def usable(c: Checked) -> bool:
    """True when a checked document is a valid game that can be shown (a claim
    that disagrees with the cards is an error for ``validate``, so it is not)."""
    return not c.unreadable and c.errors == 0 and not c.blocked


# The order a hand's points are shown in: the rule book's (AP-SCORE-1), whatever
# order a tally record wrote them in.
_POINT_ORDER = {k: i for i, k in enumerate(PointKind)}


def _hand_view(h: Hand, closing: str) -> HandView:
    """One public ``Hand`` as a person reads it (``closing``: what the family
    calls the call that closes the auction)."""
    if not h.scored:  # only the number and the dealer as recorded are known
        return HandView(h.number, h.dealer or "?", scored=False)
    calls = []
    for c in h.calls:
        kind = closing if c.kind is CallKind.CLOSING else c.kind.value
        calls.append((c.player, ("pass" if c.bid is None else str(c.bid))
                      + (f" ({kind})" if kind not in ("pass", "bid") else "")))
    tricks = [] if h.level is Level.TALLY else [
        TrickView(t.number, t.leader, tuple(p.player for p in t.plays),
                  tuple(face_of(p.card, p.trump) for p in t.plays), t.winner, t.reason.value) for t in h.tricks]
    awards = [PointView(a.kind.value, a.side, None if a.card is None else face_of(a.card),
                        a.captured_by or a.played_by) for a in sorted(h.points, key=lambda a: _POINT_ORDER[a.kind])]
    return HandView(
        h.number, "?" if h.dealer is None else h.dealer, scored=True,
        level=None if h.level is None else h.level.value, calls=calls,
        bidder=h.bidder, bid=h.bid, trump=h.trump, called=[c.text for c in h.called], partners=list(h.partners),
        awards=awards, taken=dict(h.taken), made=h.made, change=dict(h.score),
        totals=None if h.totals is None else dict(h.totals), tricks=tricks, deal=deal_view(h))


def game_view(c: Checked) -> GameView:
    """The view of a valid checked game (see ``usable``), read from its public
    ``Game`` and ``Hand`` values."""
    pub = checked_game(c)
    closing = pub.words.closing
    hands = [_hand_view(h, closing) for h in pub.hands]
    return GameView(
        file=c.file, document=c.index, event=pub.event, date=pub.date, round=pub.round, table=pub.table,
        id=pub.id, variant=pub.variant, players=list(pub.players), units=list(pub.sides),
        teams={u: list(m) for u, m in pub.teams.items()}, target=pub.target, hands=hands,
        totals=None if pub.totals is None else dict(pub.totals), winner=pub.winner, winner_hand=pub.winner_hand)


# --- names as a page shows them ---------------------------------------------------------

DISPLAY_NAME = escape.SHORT  # characters of a name or label a page or a chart shows


def short_names(names: list[str], limit: int = DISPLAY_NAME) -> dict[str, str]:
    """Each name as shown: whole up to ``limit`` characters, else cut with
    ``…``; two long names that would be cut alike get ``#2``, ``#3`` after
    the cut, so the shown names stay as distinct as the names."""
    shown: dict[str, str] = {}
    used: set[str] = set(n for n in names if len(n) <= limit)
    for name in names:
        if name in shown:
            continue
        s = name if len(name) <= limit else escape.short(name, limit)
        k = 1
        while len(name) > limit and s in used:
            k += 1
            s = escape.short(name, limit - len(f"#{k}")) + f"#{k}"
        used.add(s)
        shown[name] = s
    return shown


def for_display(g: GameView, limit: int = DISPLAY_NAME) -> GameView:
    """The game with its names (players, teams) and labels (event, round,
    table, id) cut to ``limit`` characters for a page or a chart: a record's
    55 KB name was written whole on every line of a game page that names a
    player (a 42 MB page from a 1 MB record). Names stay distinct
    (``short_names``); the figures are untouched. Not for the ratings, which
    key players by their whole names. When nothing needs cutting, ``g`` itself."""
    m = short_names([*g.players, *g.units, *g.teams], limit)
    if all(k == v for k, v in m.items()) and all(
            x is None or len(x) <= limit for x in (g.event, g.round, g.table, g.id)):
        return g  # nothing to cut (names of a club's players are short): the game as it is

    def n(x: str | None) -> str | None:
        return None if x is None else m.get(x, x)

    def keys(d: dict[str, Any]) -> dict[str, Any]:
        return {m.get(k, k): v for k, v in d.items()}

    def deal(d: DealView | None) -> DealView | None:
        return None if d is None else d._replace(
            seats=[sd._replace(player=m.get(sd.player, sd.player)) for sd in d.seats])

    def hand(h: HandView) -> HandView:
        return replace(
            h, dealer=m.get(h.dealer, h.dealer), calls=[(m.get(p, p), c) for p, c in h.calls], bidder=n(h.bidder),
            called=[m.get(p, p) for p in h.called], partners=[m.get(p, p) for p in h.partners],
            awards=[a._replace(unit=n(a.unit), player=n(a.player)) for a in h.awards], taken=keys(h.taken),
            change=keys(h.change), totals=None if h.totals is None else keys(h.totals),
            tricks=[t._replace(leader=m.get(t.leader, t.leader), winner=n(t.winner),
                               players=tuple(m.get(p, p) for p in t.players))
                    for t in h.tricks], deal=deal(h.deal))

    def label(x: str | None) -> str | None:
        return x if x is None or len(x) <= limit else escape.short(x, limit)

    return replace(
        g, event=label(g.event), round=label(g.round), table=label(g.table), id=label(g.id),
        players=[m[p] for p in g.players], units=[m[u] for u in g.units],
        teams={m[u]: [m.get(p, p) for p in ps] for u, ps in g.teams.items()}, hands=[hand(h) for h in g.hands],
        totals=None if g.totals is None else keys(g.totals), winner=n(g.winner))
