"""Random legal games, written as records (FORMAT.md), reproducible from a seed.

The players choose at random among the legal moves the engine offers, with a
bias that exercises every rule: pitched 4s and closing 10s, stuck dealers,
steals, and trumping while able to follow. Each hand is replayed through the
same analysis as ``validate`` while it is generated, so that the scores and
totals written into the record (and when to stop) are the engine's own.
"""

from __future__ import annotations

import random
from typing import Any

from pitchcli.cards import Card
from pitchcli.engine.bidding import Auction
from pitchcli.engine.family import Exchange, Family, family_of
from pitchcli.engine.play import Play, legal_plays, winner
from pitchcli.engine.tables import TrumpView
from pitchcli.pipeline.feed import Driver, ptr
from pitchcli.profiles import Profile, resolve

NAMES = ["Ann", "Ben", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal"]
MAX_HANDS = 300  # a safety net: random play always ends far sooner


class Impossible(Exception):
    """A deal that no legal record can follow (TP4-5): deal again."""


def default_teams(profile: Profile, players: list[str]) -> dict[str, list[str]] | None:
    """Fixed teams by seat: partners ``players / team_size`` seats apart, each
    team named by its members (``Ann & Cal``, as ``pitch new`` and ``summarize``
    name them): a name that means the same team in every game."""
    if not profile.has_teams:
        return None
    count = profile.teams_count(len(players))
    return {" & ".join(players[i::count]): players[i::count] for i in range(count)}


def simulate_game(variant: str, players: int | None = None, seed: int | None = None,
                  rng: random.Random | None = None, game_id: str | None = None) -> dict[str, Any]:
    """One random legal game of ``variant`` as a record."""
    rng = rng or random.Random(seed)
    profile = resolve(variant)
    n = players or (4 if 4 in profile.players else profile.players[0])
    names = NAMES[:n]
    rec: dict[str, Any] = {"format": "pitch-record/1", "variant": variant}
    if game_id:
        rec["id"] = game_id
    rec["players"] = names
    teams = default_teams(profile, names)
    if teams:
        rec["teams"] = teams
    rec["hands"] = []
    drv = Driver(rec, ())
    if not drv.setup():
        raise ValueError(f"profile {variant} can't be played by {n} players")
    table = drv.out.table
    assert table is not None
    dealer = rng.randrange(n)
    while len(rec["hands"]) < MAX_HANDS:
        number = len(rec["hands"])
        while True:
            try:
                hand = _hand(profile, names, (dealer + number) % n, rng)
                break
            except Impossible:
                continue
        rec["hands"].append(hand)
        drv.hand(hand, ptr("hands", number))
        if drv.v:
            raise AssertionError(f"simulate made an illegal hand: {drv.v[0].message}")
        result = drv.game.hands[-1]
        assert result is not None
        hand["score"] = dict(zip(table.unit_names, result.delta, strict=True))
        hand["totals"] = dict(zip(table.unit_names, drv.game.totals, strict=True))
        if drv.game.winner is not None:
            break
    drv.finish()
    out = drv.out
    rec["result"] = {"winner": out.winner, "scores": hand["totals"]}
    return rec


def _choose_call(auction: Auction, cards: list[Card], fam: Family, rng: random.Random) -> int | None:
    """A call: the stronger a player's best suit, the higher he is willing to go."""
    legal = auction.legal_calls()
    bids = [b for b in legal if b is not None]
    if not bids:
        return None
    top = auction.p.max_bid
    if top in bids and rng.random() < 0.08:
        return top  # a pitched 4 / a closing 10
    if auction.next_seat() == auction.dealer and auction.high_bid in bids and rng.random() < 0.5:
        return auction.high_bid  # a steal (AP-BID-5)
    length = max(sum(1 for c in cards if fam.view(s).strength[c] > 0) for s in "SHDC")
    willing = auction.p.min_bid + length - (auction.p.max_bid - auction.p.min_bid) + rng.randrange(2)
    choice = [b for b in bids if b <= willing]
    if None in legal and (not choice or rng.random() < 0.4):
        return None
    return rng.choice(choice[:2] or bids[:1])


def _hand(p: Profile, names: list[str], dealer: int, rng: random.Random) -> dict[str, Any]:
    n = len(names)
    fam = family_of(p)
    deck = list(p.deck)
    rng.shuffle(deck)
    held = [deck[i * p.deal:(i + 1) * p.deal] for i in range(n)]
    rest = deck[n * p.deal:]
    hand: dict[str, Any] = {"dealer": names[dealer],
                            "deal": {names[s]: [c.text for c in held[s]] for s in range(n)}}
    dead: list[Card] = []
    if p.dead:
        dead, rest = rest[:p.dead], rest[p.dead:]
        hand["dead"] = [c.text for c in dead]
    auction = Auction(p, fam, tuple(names), dealer)
    calls: list[int | None] = []
    while len(calls) < n:
        call = _choose_call(auction, held[auction.next_seat()], fam, rng)
        auction.call(call)
        calls.append(call)
        if auction.closed and rng.random() < 0.5:
            break  # the passes after a closing bid may be left out
    auction.close()
    hand["bids"] = ["pass" if c is None else c for c in calls]
    bidder = auction.bidder
    assert bidder is not None
    holding = [list(h) for h in held]
    view: TrumpView
    if fam.trump_named:
        trump = _best_suit(holding[bidder], fam, rng)
        view = fam.view(trump)
        hand["trump"] = trump
        if fam.exchange is Exchange.CUT_DOWN:
            hand["kitty"] = [c.text for c in rest]
            holding[bidder] += rest
            if p.called_cards:
                hand["partner"] = _call_partner(p, view, holding[bidder], rng)
            discards = {s: _cut_down(holding[s], p.hand, view, rng) for s in range(n)}
        else:
            discards, draws = _refill(p, view, holding, bidder, rest, rng)
            hand["draws"] = {names[s]: [c.text for c in draws[s]] for s in range(n)}
        hand["discards"] = {names[s]: [c.text for c in discards[s]] for s in range(n)}
        holding = [[c for c in holding[s] if c not in discards[s]] for s in range(n)]
    tricks: list[list[str]] = []
    leader = bidder
    for _ in range(p.hand):
        plays: list[Card] = []
        for i in range(n):
            seat = (leader + i) % n
            if not tricks and i == 0 and not fam.trump_named:
                card = rng.choice(holding[seat])  # the pitch sets trump (AP-PLAY-1)
                view = fam.view(card.suit or "S")
            else:
                card = _choose_play(holding[seat], plays[0] if plays else None, view, rng)
            holding[seat].remove(card)
            plays.append(card)
        tricks.append([c.text for c in plays])
        won, _ = winner([Play((leader + i) % n, c) for i, c in enumerate(plays)], view,
                        fam.offsuit_trick_has_winner)
        if won is not None:  # TP-PLAY-2: won by nobody, the leader leads again
            leader = won
    hand["tricks"] = tricks
    return hand


def _choose_play(holding: list[Card], led: Card | None, view: TrumpView, rng: random.Random) -> Card:
    legal = legal_plays(holding, led, view)
    if led is not None:
        trumps = [c for c in legal if view.strength[c] > 0]
        can_follow = any(view.suit_of[c] == view.suit_of[led] for c in holding)
        if trumps and can_follow and rng.random() < 0.3:
            return rng.choice(trumps)  # trumping while able to follow (AP-PLAY-2)
    return rng.choice(legal)


def _best_suit(cards: list[Card], fam: Family, rng: random.Random) -> str:
    suits = ["S", "H", "D", "C"]
    rng.shuffle(suits)
    return max(suits, key=lambda s: sum(1 for c in cards if fam.view(s).strength[c] > 0))


def _call_partner(p: Profile, view: TrumpView, bidder_cards: list[Card], rng: random.Random) -> dict[str, Any]:
    trumps = [c for c in view.strength if view.strength[c] > 0]
    # Mostly a card somebody else holds; now and then his own (he plays alone).
    pool = [c for c in trumps if c not in bidder_cards] if rng.random() < 0.9 else trumps
    called = rng.sample(pool, p.called_cards)
    if p.called_cards == 1:
        return {"card": called[0].text}
    return {"cards": [c.text for c in called]}


def _cut_down(cards: list[Card], hand: int, view: TrumpView, rng: random.Random) -> list[Card]:
    """Discard down to ``hand`` cards, never a point card (TP5-4)."""
    spare = [c for c in cards if not view.points[c]]
    excess = len(cards) - hand
    if len(spare) < excess:
        raise Impossible
    spare.sort(key=lambda c: (view.strength[c], rng.random()))  # off cards first
    return spare[:excess]


def _refill(p: Profile, view: TrumpView, holding: list[list[Card]], bidder: int, pack: list[Card],
            rng: random.Random) -> tuple[dict[int, list[Card]], dict[int, list[Card]]]:
    """TP4-3..TP4-5: non-bidders keep their trumps (non-point ones down to six)
    and are dealt up to six; the bidder takes the rest and makes six."""
    n = len(holding)
    discards: dict[int, list[Card]] = {}
    draws: dict[int, list[Card]] = {}
    pack = list(pack)
    for i in range(1, n):
        s = (bidder + i) % n
        off = [c for c in holding[s] if not view.strength[c]]
        trumps = [c for c in holding[s] if view.strength[c]]
        extra: list[Card] = []
        if len(trumps) > p.hand:
            extra = _cut_down(trumps, p.hand, view, rng)
        discards[s] = off + extra
        kept = len(holding[s]) - len(discards[s])
        draws[s], pack = pack[:p.hand - kept], pack[p.hand - kept:]
    draws[bidder] = pack
    discards[bidder] = _cut_down(holding[bidder] + pack, p.hand, view, rng)
    for s in range(n):
        holding[s] = holding[s] + draws[s]
    return discards, draws
