"""Properties of Ten-point Pitch over many random legal games.

For every ten-point profile, ``pitchcli.pipeline.simulate`` plays games (seeded, so
reproducible) and every game is checked:

* the engine finds no violation in a simulated game, and its claims (scores,
  totals, result) are its own;
* the points taken in a hand add up to 10 where every point card is in play
  (no dead cards), and to 10 minus the point cards among the dead otherwise;
* an independent reading of RULES.md, written out below without the engine
  (trump order, following suit, the refill and cut-down exchanges, the called
  partners, TP-SCORE-2 / TP5-5 and TP-WIN-1), agrees with the engine on every
  trick, hand and game, and finds every simulated game legal;
* broken records are caught: a swap of two cards so that suit isn't followed,
  a point card discarded, the trump taken away, a wrong called partner.

``PITCH_PROPERTY_GAMES`` sets the number of games per profile (default 100;
run thousands with e.g. ``PITCH_PROPERTY_GAMES=3000``), ``PITCH_PROPERTY_SEED``
the first seed (default 0).
"""

from __future__ import annotations

import copy
import os
import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from pitchcli.pipeline.feed import GameAnalysis, analyze
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import Profile, builtin_profiles, resolve

GAMES = int(os.environ.get("PITCH_PROPERTY_GAMES", "100"))
FIRST_SEED = int(os.environ.get("PITCH_PROPERTY_SEED", "0"))
BROKEN_GAMES = min(GAMES, 40)  # games per profile for each kind of breakage
PROFILES = [n for n, p in builtin_profiles().items() if p.family == "ten-point"]


@cache
def games(variant: str) -> tuple[tuple[dict[str, Any], GameAnalysis], ...]:
    """The simulated games of a profile, each with its analysis (shared by the
    tests of this module)."""
    out = []
    for seed in range(FIRST_SEED, FIRST_SEED + GAMES):
        rec = simulate_game(variant, seed=seed)
        out.append((rec, analyze(rec)))
    return tuple(out)


# =============================================================================
# The rules, read again from RULES.md without the engine

SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
LOW_RANKS = ["10", "9", "8", "7", "6", "5", "4", "3", "2"]


def trump_order(trump: str) -> list[str]:
    """TP-TRUMP-2: A K Q J OJ BJ LJ 10 9 .. 2, high to low."""
    return ([r + trump for r in "AKQJ"] + ["J" + SAME_COLOUR[trump], "BJ", "LJ"]
            + [r + trump for r in LOW_RANKS])


def point_values(trump: str) -> dict[str, int]:
    """TP-POINTS-1: A J OJ BJ LJ 10 one each, the 3 three, the 2 one."""
    return {"A" + trump: 1, "J" + trump: 1, "J" + SAME_COLOUR[trump]: 1, "BJ": 1, "LJ": 1,
            "10" + trump: 1, "3" + trump: 3, "2" + trump: 1}


class Trump:
    """The cards once trump is named."""

    def __init__(self, trump: str) -> None:
        self.trump = trump
        order = trump_order(trump)
        self.strength = {c: len(order) - i for i, c in enumerate(order)}
        self.points = point_values(trump)

    def is_trump(self, c: str) -> bool:
        return c in self.strength

    def suit(self, c: str) -> str:
        """The suit a card follows as: the trump suit for every trump."""
        return self.trump if self.is_trump(c) else c[-1]

    def value(self, c: str) -> int:
        return self.points.get(c, 0)


def auction_winner(p: Profile, bids: list[Any], dealer: int, n: int) -> tuple[int, int]:
    """TP-BID-1: the highest bid; when all pass, the dealer with 5."""
    best: tuple[int, int] | None = None
    for i, b in enumerate(bids):
        if isinstance(b, int) and (best is None or b > best[1]):
            best = ((dealer + 1 + i) % n, b)
    return best or (dealer, 5)


def unit_of(p: Profile, seat: int, n: int) -> int:
    """A player's scoring unit: his team (partners n / team_size seats apart) or himself."""
    return seat % (n // p.team_size) if p.sides == "teams" else seat


class Reference:
    """One game replayed by the rules as written; ``problems`` lists every
    rule it sees broken (none, for a legal record)."""

    def __init__(self, rec: dict[str, Any]) -> None:
        self.p = resolve(rec["variant"])
        self.players: list[str] = rec["players"]
        self.n = len(self.players)
        self.seat = {name: i for i, name in enumerate(self.players)}
        units = self.n // self.p.team_size if self.p.sides == "teams" else self.n
        self.totals = [0] * units
        self.problems: list[str] = []
        self.hands: list[dict[str, Any]] = []
        self.winner: int | None = None
        self.won_after: int | None = None
        for number, h in enumerate(rec["hands"], 1):
            if self.winner is not None:
                self.problems.append(f"hand {number} after the game was won")
            self.hands.append(self.hand(h, number))

    def bad(self, what: str) -> None:
        self.problems.append(what)

    def hand(self, h: dict[str, Any], number: int) -> dict[str, Any]:
        p, n = self.p, self.n
        dealer = self.seat[h["dealer"]]
        if number == 1:
            self.first_dealer = dealer
        elif dealer != (self.first_dealer + number - 1) % n:
            self.bad(f"hand {number}: wrong dealer")  # TP-DEAL-1
        bidder, bid = auction_winner(p, h["bids"], dealer, n)
        t = Trump(h["trump"])
        deal = {self.seat[k]: list(v) for k, v in h["deal"].items()}
        kitty = list(h.get("kitty", []))
        dead = list(h.get("dead", []))
        draws = {self.seat[k]: list(v) for k, v in h.get("draws", {}).items()}
        discards = {self.seat[k]: list(v) for k, v in h["discards"].items()}

        # Every card of the 54 is dealt once: deal, kitty, dead, draws.
        dealt = [c for cs in deal.values() for c in cs] + kitty + dead + [c for cs in draws.values() for c in cs]
        if len(dealt) != 54 or len(set(dealt)) != 54:
            self.bad(f"hand {number}: the 54 cards are not each dealt once")
        if any(len(cs) != p.deal for cs in deal.values()) or len(kitty) != p.kitty or len(dead) != p.dead:
            self.bad(f"hand {number}: wrong deal")

        # The exchange: what each player holds when play starts.
        held: dict[int, list[str]] = {}
        for s in range(n):
            thrown = discards[s]
            if any(t.value(c) for c in thrown):
                self.bad(f"hand {number}: a point card discarded")  # TP4-4, TP5-4
            cards = deal[s] + draws.get(s, []) + (kitty if s == bidder else [])
            if not set(thrown) <= set(cards):
                self.bad(f"hand {number}: a card discarded that was not held")
            held[s] = [c for c in cards if c not in thrown]
            if len(held[s]) != p.hand:
                self.bad(f"hand {number}: {len(held[s])} cards to play")
        if p.mode == "refill":
            rest = 54 - n * p.deal - p.dead
            for s in range(n):
                if s == bidder:
                    continue
                trumps = [c for c in deal[s] if t.is_trump(c)]
                off = [c for c in deal[s] if not t.is_trump(c)]
                thrown_trumps = [c for c in discards[s] if t.is_trump(c)]
                if not set(off) <= set(discards[s]):
                    self.bad(f"hand {number}: a non-bidder kept an off card")  # TP4-3
                if len(thrown_trumps) != max(0, len(trumps) - p.hand):
                    self.bad(f"hand {number}: a non-bidder threw the wrong number of trumps")  # TP4-3/5
                if len(draws[s]) != p.hand - (len(deal[s]) - len(discards[s])):
                    self.bad(f"hand {number}: a non-bidder was not dealt up to six")  # TP4-4
                rest -= len(draws[s])
            if len(draws[bidder]) != rest:
                self.bad(f"hand {number}: the bidder did not get the rest of the pack")  # TP4-4

        # Called partners (TP5-3): the holders, after the kitty, of the called cards.
        called = h.get("partner", {})
        called_cards = called.get("cards", [called["card"]] if "card" in called else [])
        holders = []
        for c in called_cards:
            if not t.is_trump(c):
                self.bad(f"hand {number}: the called card {c} is not a trump")
            holder = bidder if c in kitty else next(s for s in range(n) if c in deal[s])
            holders.append(holder)
        if len(called_cards) != p.called_cards:
            self.bad(f"hand {number}: {len(called_cards)} cards called")
        partners = sorted({s for s in holders if s != bidder})

        # The play.
        tricks: list[list[str]] = h["tricks"]
        if len(tricks) != p.hand or any(len(tr) != n for tr in tricks):
            self.bad(f"hand {number}: malformed tricks")
        leader = bidder  # TP-BID-2
        seats_of: list[list[int]] = []
        winners: list[int | None] = []
        for tr in tricks:
            seats = [(leader + i) % n for i in range(n)]
            seats_of.append(seats)
            best = max(range(n), key=lambda i: t.strength.get(tr[i], 0))
            won = seats[best] if t.is_trump(tr[best]) else None  # TP-PLAY-2: off cards only
            winners.append(won)
            leader = won if won is not None else leader
        played: dict[int, list[str]] = {s: [] for s in range(n)}
        for tr, seats in zip(tricks, seats_of, strict=True):
            for c, s in zip(tr, seats, strict=True):
                played[s].append(c)
        for s in range(n):
            if sorted(played[s]) != sorted(held[s]):
                self.bad(f"hand {number}: {self.players[s]} played other cards than he held")
        # Following (TP-PLAY-1): a third suit only when holding none of the suit led.
        for k, (tr, seats) in enumerate(zip(tricks, seats_of, strict=True)):
            led = t.suit(tr[0])
            for c, s in zip(tr[1:], seats[1:], strict=True):
                holding = played[s][k:]
                if t.suit(c) != led and not t.is_trump(c) and any(t.suit(x) == led for x in holding):
                    self.bad(f"hand {number} trick {k + 1}: {self.players[s]} did not follow")

        # Points (TP-POINTS-1/2, TP-SCORE-1) and the score (TP-SCORE-2, TP5-5).
        units = len(self.totals)
        taken = [0] * units
        for tr, seats, won in zip(tricks, seats_of, winners, strict=True):
            for c, s in zip(tr, seats, strict=True):
                if c == "2" + t.trump:
                    taken[unit_of(self.p, s, n)] += t.value(c)  # to who played it
                elif t.value(c):
                    assert won is not None  # a point card is a trump: the trick has a winner
                    taken[unit_of(self.p, won, n)] += t.value(c)
        bidding = {unit_of(self.p, s, n) for s in [bidder, *partners]}
        side = sum(taken[u] for u in bidding)
        made = side >= bid
        other = sum(taken) - side
        if p.sides == "called":
            delta = [(side if made else -bid) if u in bidding else other for u in range(units)]
        else:
            delta = [(taken[u] if made else -bid) if u in bidding else taken[u] for u in range(units)]
        for u in range(units):
            self.totals[u] += delta[u]

        # TP-WIN-1.
        if self.winner is None:
            at = [u for u in range(units) if self.totals[u] >= p.target]
            bidders_at = [u for u in at if u in bidding]
            win: int | None = None
            if at and made and bidders_at:
                bu = unit_of(self.p, bidder, n)
                if bu in bidders_at:
                    win = bu
                else:
                    top = max(self.totals[u] for u in bidders_at)
                    tied = [u for u in bidders_at if self.totals[u] == top]
                    win = tied[0] if len(tied) == 1 else next(
                        unit_of(self.p, s, n) for s in holders if unit_of(self.p, s, n) in tied)
            elif at:
                top = max(self.totals[u] for u in at)
                tied = [u for u in at if self.totals[u] == top]
                win = tied[0] if len(tied) == 1 else None
            if win is not None:
                self.winner, self.won_after = win, number
        dead_points = sum(t.value(c) for c in dead)
        return {"bidder": bidder, "bid": bid, "partners": partners, "holders": holders,
                "winners": winners, "taken": taken, "made": made, "delta": delta,
                "dead_points": dead_points, "trump": t}


def unit_names(rec: dict[str, Any]) -> list[str]:
    p = resolve(rec["variant"])
    if p.sides != "teams":
        return list(rec["players"])
    # simulate names teams by seat: team-1 holds seat 0, ...
    seat = {name: i for i, name in enumerate(rec["players"])}
    count = len(rec["players"]) // p.team_size
    names = [""] * count
    for name, members in rec["teams"].items():
        names[seat[members[0]] % count] = name
    return names


# =============================================================================
# Simulated games are legal, and engine and reference agree


@pytest.mark.parametrize("variant", PROFILES)
def test_simulated_games_analyze_clean(variant: str) -> None:
    for rec, a in games(variant):
        assert a.violations == [], (variant, rec.get("id"), [v.message for v in a.violations[:3]])
        assert a.winner is not None and a.winner == rec["result"]["winner"]
        assert a.winner_hand == len(rec["hands"])


@pytest.mark.parametrize("variant", PROFILES)
def test_points_add_up_to_ten_minus_the_dead(variant: str) -> None:
    p = resolve(variant)
    hands = 0
    for rec, a in games(variant):
        for h, r in zip(rec["hands"], a.hands, strict=True):
            assert r is not None
            dead = Trump(h["trump"])
            missing = sum(dead.value(c) for c in h.get("dead", []))
            if p.dead == 0:
                assert missing == 0 and sum(r.taken) == 10, (variant, h)
            else:
                assert sum(r.taken) == 10 - missing, (variant, h)
            hands += 1
    assert hands >= GAMES


def test_dead_cards_do_take_point_cards_out_of_play() -> None:
    # The dead-card profiles are not vacuous: some hands really have fewer
    # than 10 points in play.
    short = [h for v in ("ten-point-2", "ten-point-3") for rec, _ in games(v) for h in rec["hands"]
             if any(Trump(h["trump"]).value(c) for c in h["dead"])]
    assert short


@pytest.mark.parametrize("variant", PROFILES)
def test_engine_agrees_with_the_rules_read_again(variant: str) -> None:
    seen = {"off tricks": 0, "set": 0, "alone": 0, "ties at 42": 0, "seven trumps": 0}
    for rec, a in games(variant):
        ref = Reference(rec)
        assert ref.problems == [], (variant, rec.get("id"), ref.problems[:3])
        names = unit_names(rec)
        assert a.table is not None and list(a.table.unit_names) == names
        for mine, r in zip(ref.hands, a.hands, strict=True):
            assert r is not None
            assert (r.bidder, r.bid, r.partners) == (mine["bidder"], mine["bid"], mine["partners"])
            assert r.card_holders == mine["holders"]
            assert [t.winner for t in r.tricks] == mine["winners"]
            assert r.taken == mine["taken"] and r.delta == mine["delta"] and r.made == mine["made"]
            seen["off tricks"] += mine["winners"].count(None)
            seen["set"] += not mine["made"]
            seen["alone"] += resolve(variant).sides == "called" and not mine["partners"]
        assert a.totals == ref.totals
        assert ref.winner is not None and a.winner == names[ref.winner]
        assert a.winner_hand == ref.won_after == len(rec["hands"])
    assert seen["off tricks"] and seen["set"]


# =============================================================================
# Broken records are caught


def cases(variant: str) -> Iterator[tuple[random.Random, dict[str, Any]]]:
    """A fresh copy of the first BROKEN_GAMES games, each with its own rng."""
    for i, (rec, _) in enumerate(games(variant)[:BROKEN_GAMES]):
        yield random.Random(i), copy.deepcopy(rec)


def seats_of_tricks(rec: dict[str, Any], h: int, ref: Reference) -> list[list[int]]:
    mine = ref.hands[h]
    n = len(rec["players"])
    out, leader = [], mine["bidder"]
    for won in mine["winners"]:
        out.append([(leader + i) % n for i in range(n)])
        leader = won if won is not None else leader
    return out


def winner_of(trick: list[str], t: Trump) -> int | None:
    """The position in the trick of its winner (``None``: off cards only)."""
    best = max(range(len(trick)), key=lambda i: t.strength.get(trick[i], 0))
    return best if t.is_trump(trick[best]) else None


def violations_at(a: GameAnalysis) -> set[tuple[str, str | None, str]]:
    return {(v.code, v.rule, v.at) for v in a.violations}


@pytest.mark.parametrize("variant", PROFILES)
def test_broken_follow_suit_is_caught(variant: str) -> None:
    # Swap a card that followed suit in trick k with a card of a third suit the
    # same player played later: in trick k he now plays the third suit while
    # still holding the suit led. (Only where trick k keeps its winner: else
    # the later tricks are led by someone else, their cards go to other
    # players, and the record breaks in other ways first.)
    tested = 0
    for rng, rec in cases(variant):
        ref = Reference(rec)
        options = []
        for h, hand in enumerate(rec["hands"]):
            t = ref.hands[h]["trump"]
            seats = seats_of_tricks(rec, h, ref)
            tricks = hand["tricks"]
            for k in range(len(tricks)):
                led = t.suit(tricks[k][0])
                for i in range(1, len(tricks[k])):
                    c, s = tricks[k][i], seats[k][i]
                    if t.suit(c) != led:
                        continue
                    for m in range(k + 1, len(tricks)):
                        j = seats[m].index(s)
                        d = tricks[m][j]
                        after = [*tricks[k][:i], d, *tricks[k][i + 1:]]
                        if t.suit(d) not in (led, t.trump) and winner_of(after, t) == winner_of(tricks[k], t):
                            options.append((h, k, i, m, j))
        if not options:
            continue
        h, k, i, m, j = rng.choice(options)
        tricks = rec["hands"][h]["tricks"]
        tricks[k][i], tricks[m][j] = tricks[m][j], tricks[k][i]
        assert ("R407", "TP-PLAY-1", f"/hands/{h}/tricks/{k}/{i}") in violations_at(analyze(rec))
        tested += 1
    assert tested >= BROKEN_GAMES // 2


@pytest.mark.parametrize("variant", PROFILES)
def test_broken_point_card_discarded_is_caught(variant: str) -> None:
    # A player discards a point card he played, and plays one of his discards
    # in its place.
    rule = "TP4-4" if resolve(variant).mode == "refill" else "TP5-4"
    tested = 0
    for rng, rec in cases(variant):
        ref = Reference(rec)
        options = []
        for h, hand in enumerate(rec["hands"]):
            t = ref.hands[h]["trump"]
            seats = seats_of_tricks(rec, h, ref)
            for k, tr in enumerate(hand["tricks"]):
                for i, c in enumerate(tr):
                    name = rec["players"][seats[k][i]]
                    if t.value(c) and hand["discards"][name]:
                        options.append((h, k, i, name, rng.randrange(len(hand["discards"][name]))))
        if not options:
            continue
        h, k, i, name, j = rng.choice(options)
        hand = rec["hands"][h]
        thrown = hand["discards"][name]
        hand["tricks"][k][i], thrown[j] = thrown[j], hand["tricks"][k][i]
        assert ("R409", rule, f"/hands/{h}/discards/{name}/{j}") in violations_at(analyze(rec))
        tested += 1
    assert tested == BROKEN_GAMES


@pytest.mark.parametrize("variant", PROFILES)
def test_broken_missing_trump_is_caught(variant: str) -> None:
    for rng, rec in cases(variant):
        h = rng.randrange(len(rec["hands"]))
        del rec["hands"][h]["trump"]
        assert ("R410", "TP-TRUMP-1", f"/hands/{h}") in violations_at(analyze(rec))


@pytest.mark.parametrize("variant", [v for v in PROFILES if resolve(v).sides == "called"])
def test_broken_partner_claim_is_caught(variant: str) -> None:
    # The partner written down: right, clean; then somebody else, caught.
    for rng, rec in cases(variant):
        ref = Reference(rec)
        h = rng.randrange(len(rec["hands"]))
        partner = rec["hands"][h]["partner"]
        # The partners in the order of the called cards (TP5-3: the holder of
        # the first card first; the order breaks TP-WIN-1's tie).
        seat = ref.hands[h]["bidder"]
        order = list(dict.fromkeys(s for s in ref.hands[h]["holders"] if s != seat))
        assert sorted(order) == ref.hands[h]["partners"]
        right = [rec["players"][s] for s in order]
        key = "players" if "cards" in partner else "player"
        if key == "player" and not right:
            continue  # the bidder plays alone: there is no one to name
        partner[key] = right if key == "players" else right[0]
        assert analyze(rec).violations == []
        bidder = rec["players"][seat]
        others = [p for p in rec["players"] if p not in right and p != bidder]
        wrong = rng.choice(others)
        # Somebody else in the place of the first partner: a claim mismatch.
        # (With nobody to replace, one name is more than the holders: R411.)
        partner[key] = [wrong, *right[1:]] if key == "players" else wrong
        code = "C507" if right else "R411"
        assert (code, "TP5-3", f"/hands/{h}/partner/{key}") in violations_at(analyze(rec))


@pytest.mark.parametrize("variant", [v for v in PROFILES if resolve(v).sides == "called"])
def test_broken_called_card_changes_the_score(variant: str) -> None:
    # Calling a trump another player holds changes the sides; the recorded
    # scores, computed for the real partner, then disagree (or, by chance,
    # happen to be the same numbers: then the record is still legal).
    changed = 0
    for rng, rec in cases(variant):
        ref = Reference(rec)
        h = rng.randrange(len(rec["hands"]))
        mine = ref.hands[h]
        hand = rec["hands"][h]
        t: Trump = mine["trump"]
        bidder = mine["bidder"]
        owners = {c: rec["players"].index(p) for p, cs in hand["deal"].items() for c in cs}
        pool = [c for c in t.strength if owners.get(c, bidder) not in (bidder, *mine["partners"])]
        partner = hand["partner"]
        new = rng.sample(pool, len(mine["holders"]))
        if "cards" in partner:
            partner["cards"] = new
        else:
            partner["card"] = new[0]
        a = analyze(rec)
        if a.violations:
            assert {v.code for v in a.violations} <= {"C502", "C503", "C504", "R412"}
            assert any(v.code == "C502" and v.at.startswith(f"/hands/{h}/score") for v in a.violations)
            changed += 1
    assert changed >= BROKEN_GAMES // 2
