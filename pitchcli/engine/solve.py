"""A double-dummy solver for one hand: with every holding known, the most
points the bidding side can be sure of, and the recorded cards that changed it.

The reading is the usual *paranoid* one for a game of more than two sides: the
bidding side (the pitcher or bidder, with his team or called partners) plays
against everyone else together, and everyone plays perfectly with all cards
face up. The value of a position is the number of points the bidding side
takes by the end of the hand if it maximises and all the others minimise it.

The search is an exact alpha-beta over the legal plays (AP-PLAY-2, TP-PLAY-1)
with a transposition table at the start of each trick, keyed on the remaining
holdings, the leader and what has been captured that still matters (each
unit's game points, while Game is still open; nothing in ten-point, where every
point is counted when its trick is won). Equivalent cards are searched once:
two cards of one holding in the same suit, worth the same, with no card of
another holding (or of the trick on the table) ranked between them.

Cards are ints (``Card.index``, 0..53) and holdings bit masks. No rule is
written here a second time: the tables the search runs on are derived, once
per hand and trump, from the engine's own definitions --

- following suit from the family's trump view: the bit masks of the cards
  ``tables.may_follow`` allows (``TrumpView.follow``); who wins a trick by
  ``play.winner_by_keys`` on the trump view's win keys, and whether a trick of
  off cards has a winner from the family (``offsuit_trick_has_winner``,
  TP-PLAY-2); each card's power (the order the search sorts and merges cards
  in) is its win key too;
- what each card is worth and whether it scores for the player who captures it
  or the one who played it, by asking the engine's scoring functions
  (``auction_awards``, ``ten_point_taken``) about probe tricks in which each
  card in play is played by one seat and captured by another: so High, Low
  (``low: played`` included), Jack, the lone trump of AP-SCORE-3, the game
  points of AP-SCORE-4 and the 2 of trumps of TP-POINTS-1 all come from there;
- the Game point from ``game_unit`` (AP-SCORE-2, AP-SCORE-4).

The tests check the solver against an exhaustive minimax that replays every
line of play through the engine's own step-by-step functions.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pitchcli.cards import ALL_CARDS, Card
from pitchcli.engine.family import Family
from pitchcli.engine.hand import HandResult
from pitchcli.engine.play import winner_by_keys
from pitchcli.engine.scoring import auction_awards, game_unit, ten_point_taken
from pitchcli.engine.tables import SUIT_INDEX, SUITS, TrumpView

DEFAULT_BUDGET = 1_000_000  # nodes (cards played in the search) per hand, all searches together


class OutOfBudget(Exception):
    """The node budget ran out."""


@dataclass(frozen=True, slots=True)
class Deal:
    """A hand at the start of play: who holds what, who leads, who plays for whom.

    ``unit_of[seat]`` is the seat's scoring unit (a player or a fixed team, as in
    ``Table``); ``bidding_units`` are the units of the bidding side; ``low_rule``
    is the profile's ``low`` option (AP-SCORE-1).
    """

    family: Family
    holdings: tuple[tuple[Card, ...], ...]
    leader: int
    unit_of: tuple[int, ...]
    bidding_units: frozenset[int]
    low_rule: str = "captured"

    @property
    def seats(self) -> int:
        """Number of seats."""
        return len(self.holdings)


def deal_of(result: HandResult, unit_of: tuple[int, ...], family: Family, low_rule: str) -> Deal | None:
    """The deal at the start of play of a scored hand, recovered from its tricks
    (every card held when play starts is played, in both families); ``None``
    when the hand has no tricks (a tally) or no trump."""
    if result.level == "tally" or not result.tricks or result.trump is None:
        return None
    held: list[list[Card]] = [[] for _ in unit_of]
    for t in result.tricks:
        for p in t.plays:
            held[p.seat].append(p.card)
    return Deal(family, tuple(tuple(h) for h in held), result.tricks[0].leader, unit_of,
                result.bidding_units, low_rule)


@dataclass(frozen=True, slots=True)
class CostlyPlay:
    """A recorded card after which the bidding side's guaranteed value changed:
    ``before`` and ``after`` it, and a card ``better`` that would have kept ``before``."""

    trick: int
    seat: int
    card: Card
    before: int
    after: int
    better: Card
    points: tuple[str, ...] = ()  # Auction Pitch: the point(s) the card changed hands, when that is clear


@dataclass
class Solution:
    """What the solver found for one hand.

    ``value`` is exact when ``solved``; otherwise ``value_bounds`` holds what is
    known (``value`` is then ``None`` unless it was pinned before the budget ran
    out). The same for ``value_best_lead`` (Auction Pitch only: the best
    first lead, so the best trump; ``best_lead_suit`` names it). ``costly`` is
    complete when ``solved``; ``nodes`` counts the cards played in the search.
    """

    trump: str
    value: int | None
    value_bounds: tuple[int, int]
    value_best_lead: int | None = None
    best_lead_bounds: tuple[int, int] | None = None
    best_lead_suit: str | None = None
    costly: list[CostlyPlay] = field(default_factory=list)
    solved: bool = True
    nodes: int = 0

    def makeable(self, bid: int) -> bool | None:
        """Whether the bidding side could be sure of ``bid`` points: ``None``
        when the bounds found within the budget don't decide it."""
        lo, hi = self.value_bounds
        return True if lo >= bid else False if hi < bid else None


# --- tables derived from the engine -------------------------------------------


def _probe_values(cards: list[Card], view: TrumpView, family: Family, low_rule: str
                  ) -> tuple[dict[Card, int], dict[Card, int], dict[Card, int], dict[Card, list[str]]]:
    """For each card in play: the points it gives the side that captures it, the
    points it gives the side that played it, and its game points (AP-SCORE-4),
    as the engine's scoring says.

    Each card is put in a probe trick of its own, played by one probe unit and
    captured by another, and the engine scores the lot: every award or point
    lands on one of the two, which says who it belongs to. The set of cards is
    the cards in play, so High and Low (highest and lowest trump in play) and
    the lone trump of AP-SCORE-3 come out as in the real hand.
    """
    tricks = [((c.index,), (2 * i,), 2 * i + 1) for i, c in enumerate(cards)]
    units = 2 * len(cards)
    unit_of = tuple(range(units))
    cap = dict.fromkeys(cards, 0)
    ply = dict.fromkeys(cards, 0)
    gp = dict.fromkeys(cards, 0)
    kinds: dict[Card, list[str]] = {}  # Auction Pitch: the awards a card carries (High, Low, Jack)
    if not family.scores_awards:  # the family says how a hand is scored
        taken = ten_point_taken(tricks, view, unit_of, units)
        for i, c in enumerate(cards):
            ply[c], cap[c] = taken[2 * i], taken[2 * i + 1]
    else:
        awards, tallies, _ = auction_awards(tricks, view, unit_of, units, low_rule)
        index = {c: i for i, c in enumerate(cards)}
        for a in awards.values():
            if a.card is None or a.unit is None:
                continue  # Game (decided at the end) or a point not awarded
            i = index[a.card]
            kinds.setdefault(a.card, []).append(a.kind)
            if a.unit == 2 * i + 1:
                cap[a.card] += 1
            else:
                ply[a.card] += 1
        for i, c in enumerate(cards):
            gp[c] = tallies[2 * i + 1]
    return cap, ply, gp, kinds


class _Search:
    """The alpha-beta search for one deal and one trump."""

    def __init__(self, deal: Deal, trump: str, budget: list[int], keep: int | None = None) -> None:
        """``keep``: count only that card's points (its index), or only Game (-1)."""
        fam = deal.family
        view = fam.view(trump)
        self.deal = deal
        self.trump = trump
        self.n = deal.seats
        self.budget = budget  # [nodes used, limit], shared by every search of a hand
        cards = sorted({c for h in deal.holdings for c in h}, key=lambda c: c.index)
        cap, ply, gp, kinds = _probe_values(cards, view, fam, deal.low_rule)
        # each award card (and Game) on its own, to name the point a costly card changed
        self.points: list[tuple[str, int]] = [("+".join(k), c.index) for c, k in kinds.items()]
        if kinds:
            self.points.append(("game", -1))
        if keep is not None:
            cap = {c: v if c.index == keep else 0 for c, v in cap.items()}
            ply = {c: v if c.index == keep else 0 for c, v in ply.items()}
            if keep != -1:
                gp = dict.fromkeys(gp, 0)
        size = len(ALL_CARDS)
        self.cls = [0] * size
        self.power = [0] * size
        self.is_trump = [False] * size
        self.cap = [0] * size
        self.ply = [0] * size
        self.gp = [0] * size
        self.sig = [0] * size
        self.class_mask = [0] * 4
        offsuit = fam.offsuit_trick_has_winner
        # Per class (the suit led, by SUIT_INDEX): each card's win key, and the
        # cards the follow rule allows a player void in it ([0]) or not ([1]).
        self.keys = [list(view.win_key[led]) for led in SUITS]
        self.follow = [view.follow[led] for led in SUITS]
        for c in cards:
            i = c.index
            k = SUIT_INDEX[view.suit_i[i]]
            self.cls[i] = k
            self.class_mask[k] |= 1 << i
            if view.strength_i[i] > 0:
                self.is_trump[i] = True
            # A card's power is its win key when its own suit is led: a trump
            # above any card (tables.TRUMP_KEY + strength), else its rank. In
            # ten-point a trick without trumps is won by nobody (TP-PLAY-2), so
            # off ranks never matter: 0 (the search merges such cards as equals).
            self.power[i] = self.keys[k][i] if self.is_trump[i] or offsuit else 0
            self.cap[i], self.ply[i], self.gp[i] = cap[c], ply[c], gp[c]
            self.sig[i] = (cap[c] * 64 + ply[c]) * 64 + gp[c]
        self.offsuit = offsuit
        # A trump is captured only by a side that plays a stronger trump in its
        # trick (or by its holder's side): the basis of the static bounds.
        self.higher = [-1] * size
        for c in cards:
            if self.is_trump[c.index]:
                self.higher[c.index] = _mask([d.index for d in cards if self.is_trump[d.index]
                                              and self.power[d.index] > self.power[c.index]])
        self.point_cards = [c.index for c in cards if cap[c] or ply[c]]
        # in-play cards of each class, strongest first (for merging equivalents)
        self.order = [sorted((c.index for c in cards if self.cls[c.index] == k),
                             key=lambda i: -self.power[i]) for k in range(4)]
        self.bidding_seat = [deal.unit_of[s] in deal.bidding_units for s in range(self.n)]
        sigs = sorted({self.sig[c.index] for c in cards})
        self.slot = [0] * size  # a card's worth, as a multiple of 8 (the owner fills the rest)
        for c in cards:
            self.slot[c.index] = 8 * sigs.index(self.sig[c.index])
        self._owner = [0] * size
        self.unit_of = deal.unit_of
        self.units = max(deal.unit_of) + 1
        # Game is one of Auction Pitch's four points (AP-SCORE-1)
        self.has_game = fam.scores_awards and (keep is None or keep == -1)
        bidding = sorted(deal.bidding_units)
        # With one bidding unit, Game depends only on the other units' game
        # points minus its own, clamped to what can still change (see bounds).
        self.lone_unit = bidding[0] if len(bidding) == 1 else None
        self.tt: dict[tuple[object, ...], list[int]] = {}
        self._gp_sums: dict[int, int] = {}
        self._games: dict[tuple[int, ...], int] = {}
        self.best_lead = -1

    # --- the start of play ---------------------------------------------------
    def initial(self) -> tuple[list[int], int, object]:
        """Holdings as masks, the leader and the initial tallies."""
        hands = [0] * self.n
        for s, h in enumerate(self.deal.holdings):
            for c in h:
                hands[s] |= 1 << c.index
        tallies: object = (0,) * self.units if self.has_game else 0
        return hands, self.deal.leader, tallies

    # --- helpers ----------------------------------------------------------------
    def _gp_of(self, mask: int) -> int:
        """The game points of the cards of ``mask`` (cached)."""
        got = self._gp_sums.get(mask)
        if got is None:
            got = 0
            gp = self.gp
            m = mask
            while m:
                low = m & -m
                got += gp[low.bit_length() - 1]
                m ^= low
            self._gp_sums[mask] = got
        return got

    def game_term(self, tallies: object) -> int:
        """Game for the bidding side at the end of the hand (0 or 1)."""
        if not isinstance(tallies, tuple):
            return tallies  # type: ignore[return-value]  # decided already, or no Game
        got = self._games.get(tallies)
        if got is None:
            # game_unit compares the units' game points; it gives the same
            # unit for tallies shifted by a constant, so differences will do.
            winner = game_unit(tallies)
            got = self._games[tallies] = int(winner is not None and winner in self.deal.bidding_units)
        return got

    def bounds(self, hands: list[int], tallies: object, table: int = 0) -> tuple[int, int, object]:
        """Bounds on the future value at a trick start (``table``: cards on the
        table, counted as still to be captured), and the tallies in the form
        kept in the transposition table: Game's value once nothing left can
        change it, else (one bidding unit) the others' game points minus the
        bidding unit's, clamped to what the cards left can change."""
        rem = table
        bid = 0
        bidding = self.bidding_seat
        for s, h in enumerate(hands):
            rem |= h
            if bidding[s]:
                bid |= h
        dfd = rem & ~bid  # defenders' cards (the table's counted as theirs: it can only help them)
        bid_or_table = bid | table
        sure = maybe = 0
        cap, ply, higher = self.cap, self.ply, self.higher
        for c in self.point_cards:
            b = 1 << c
            if not rem & b:
                continue
            if bid & b:
                sure += ply[c]
                if cap[c]:
                    if dfd & higher[c]:
                        maybe += cap[c]
                    else:
                        sure += cap[c]  # no defender can beat it: it is the bidding side's
            elif cap[c] and (table & b or bid_or_table & higher[c]):
                maybe += cap[c]
        if isinstance(tallies, tuple):
            if rem == 0:
                tallies = self.game_term(tallies)
            elif self.lone_unit is not None:
                gp = self._gp_of(rem)
                me = self.lone_unit
                base = tallies[me]
                diffs = [min(max(v - base, -gp - 1), gp + 1) for v in tallies]
                diffs[me] = 0
                if max(diffs[:me] + diffs[me + 1:]) >= gp:
                    tallies = 0  # some other unit ends level or ahead whatever happens
                elif all(d < -gp for u, d in enumerate(diffs) if u != me):
                    tallies = 1  # nobody can catch the bidding unit
                else:
                    tallies = tuple(diffs)
        if isinstance(tallies, tuple):
            return sure, sure + maybe + 1, tallies
        return sure + tallies, sure + maybe + tallies, tallies  # type: ignore[operator]

    def settle(self, leader: int, trick: list[int], tallies: object) -> tuple[int, int, object]:
        """A full trick: (points for the bidding side, next leader, tallies)."""
        n = self.n
        best_i, _ = winner_by_keys(list(map(self.keys[self.cls[trick[0]]].__getitem__, trick)), self.offsuit)
        imm = 0
        bidding = self.bidding_seat
        ply = self.ply
        for i, c in enumerate(trick):
            if ply[c] and bidding[(leader + i) % n]:
                imm += ply[c]
        if best_i is None:
            return imm, leader, tallies  # TP-PLAY-2: nobody wins, the leader leads again
        winner = (leader + best_i) % n
        if bidding[winner]:
            cap = self.cap
            for c in trick:
                imm += cap[c]
        if isinstance(tallies, tuple):
            gp = self.gp
            g = 0
            for c in trick:
                g += gp[c]
            if g:
                u = self.unit_of[winner]
                tallies = (*tallies[:u], tallies[u] + g, *tallies[u + 1:])
        return imm, winner, tallies

    # --- the search --------------------------------------------------------------
    def node(self, hands: list[int], leader: int, trick: list[int], tallies: object,
             alpha: int, beta: int, restrict: int = -1) -> int:
        """The future value of a position (its trick, then the rest), fail-soft
        alpha-beta; ``restrict`` limits the cards the leader of a fresh trick may
        lead (the trump as played in Auction Pitch)."""
        if len(trick) == self.n:
            imm, nxt, tallies = self.settle(leader, trick, tallies)
            return imm + self.start(hands, nxt, tallies, alpha - imm, beta - imm)
        if not trick:
            return self.start(hands, leader, tallies, alpha, beta, restrict)
        return self.move(hands, leader, trick, tallies, alpha, beta, -1, -1, _alive(hands, trick))

    def start(self, hands: list[int], leader: int, tallies: object, alpha: int, beta: int,
              restrict: int = -1) -> int:
        """A trick start: static bounds, the transposition table, then the lead."""
        h0 = hands[0]
        if not h0 & (h0 - 1):
            return self.last_trick(hands, leader, tallies) if h0 else self.game_term(tallies)
        lo, hi, tallies = self.bounds(hands, tallies)
        if lo == hi or hi <= alpha:
            return hi
        if lo >= beta:
            return lo
        key = self.key(hands, leader, tallies, restrict)
        entry = self.tt.get(key)
        first = -1
        if entry is not None:
            lo, hi, first = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
        a = max(alpha, lo)
        b = min(beta, hi)
        alive = 0
        for h in hands:
            alive |= h
        v = self.move(hands, leader, [], tallies, a, b, restrict, first, alive)
        if v <= a:
            hi = min(hi, v)
        elif v >= b:
            lo = max(lo, v)
        else:
            lo = hi = v
        self.tt[key] = [lo, hi, self.best_lead]
        return v

    def key(self, hands: list[int], leader: int, tallies: object, restrict: int) -> tuple[object, ...]:
        """The transposition-table key of a trick start: for each suit, who holds
        each card still in play, strongest first, and what it is worth -- not
        which cards they are, so that positions that differ only in which
        cards of no consequence have gone share an entry."""
        owner = self._owner
        for s, h in enumerate(hands):
            while h:
                low = h & -h
                owner[low.bit_length() - 1] = s
                h ^= low
        rem = 0
        for h in hands:
            rem |= h
        seq: list[object] = [leader, tallies, restrict]
        slot = self.slot
        for order in self.order:
            for c in order:
                if rem >> c & 1:
                    seq.append(owner[c] + slot[c])
            seq.append(-1)
        return tuple(seq)

    def last_trick(self, hands: list[int], leader: int, tallies: object) -> int:
        """The last trick: one card each, nothing to choose."""
        budget = self.budget
        budget[0] += 1
        if budget[0] > budget[1]:
            raise OutOfBudget
        n = self.n
        trick = [hands[(leader + i) % n].bit_length() - 1 for i in range(n)]
        imm, _, tallies = self.settle(leader, trick, tallies)
        return imm + self.game_term(tallies)

    def candidates(self, hands: list[int], leader: int, trick: list[int], restrict: int,
                   alive: int) -> tuple[int, list[int]]:
        """The seat to play and its legal cards, equivalents merged, best guesses
        first; ``alive``: the cards not yet in a finished trick."""
        n = self.n
        k = len(trick)
        seat = (leader + k) % n
        hold = hands[seat]
        cls = self.cls
        if k == 0:
            legal = hold & restrict
        else:  # AP-PLAY-2, TP-PLAY-1: as the follow rule allows, holding the suit led or not
            led = cls[trick[0]]
            legal = hold & self.follow[led][hold & self.class_mask[led] != 0]
        if not legal & (legal - 1):
            return seat, [legal.bit_length() - 1]  # one card: nothing to choose
        power, sig = self.power, self.sig
        reps: list[int] = []
        class_mask = self.class_mask
        for kk, order in enumerate(self.order):
            if not legal & class_mask[kk]:
                continue
            run_sig = run_pow = -1
            open_run = False
            for c in order:
                bit = 1 << c
                if legal & bit:
                    if open_run and sig[c] == run_sig:
                        run_pow = power[c]
                        continue  # plays the same as the card above it
                    reps.append(c)
                    open_run, run_sig, run_pow = True, sig[c], power[c]
                elif open_run and alive & bit and power[c] != run_pow:
                    open_run = False
        if len(reps) > 1:
            reps = self._ordered(reps, seat, leader, trick)
        return seat, reps

    def _ordered(self, reps: list[int], seat: int, leader: int, trick: list[int]) -> list[int]:
        """Move ordering: cheap winners first, else the cheapest card (a side
        already winning the trick gets the valuable cards). A guess only (the
        search tries every card): who is winning is guessed from the powers."""
        power = self.power
        if not trick:
            reps.sort(key=power.__getitem__, reverse=True)
            return reps
        cap, gp = self.cap, self.gp
        led = self.cls[trick[0]]
        is_trump, cls = self.is_trump, self.cls
        best_i, best_p = 0, -1
        for i, c in enumerate(trick):
            if (is_trump[c] or cls[c] == led) and power[c] > best_p:
                best_i, best_p = i, power[c]
        mine = self.bidding_seat[seat]
        friend_wins = self.bidding_seat[(leader + best_i) % self.n] == mine
        last = len(trick) == self.n - 1
        keyed = []
        for c in reps:
            p = power[c] if (is_trump[c] or cls[c] == led) else -1
            worth = cap[c] * 20 + gp[c]
            if p > best_p and not (friend_wins and last):
                keyed.append((p - worth * 4, c))
            elif friend_wins:
                keyed.append((100_000 - worth * 100 + p, c))
            else:
                keyed.append((200_000 + worth * 100 + p, c))
        keyed.sort()
        return [c for _, c in keyed]

    def move(self, hands: list[int], leader: int, trick: list[int], tallies: object,
             alpha: int, beta: int, restrict: int, first: int, alive: int) -> int:
        """One player's choice of card (max for the bidding side, min otherwise)."""
        seat, reps = self.candidates(hands, leader, trick, restrict, alive)
        if first >= 0 and first in reps and reps[0] != first:
            reps.remove(first)
            reps.insert(0, first)
        maximizing = self.bidding_seat[seat]
        full = len(trick) + 1 == self.n
        hold = hands[seat]
        budget = self.budget
        best = -1 if maximizing else 1 << 20
        best_card = -1
        for c in reps:
            budget[0] += 1
            if budget[0] > budget[1]:
                raise OutOfBudget
            hands[seat] = hold ^ (1 << c)
            trick.append(c)
            if full:
                imm, nxt, t2 = self.settle(leader, trick, tallies)
                v = imm + self.start(hands, nxt, t2, alpha - imm, beta - imm)
            else:
                v = self.move(hands, leader, trick, tallies, alpha, beta, -1, -1, alive)
            trick.pop()
            hands[seat] = hold
            if maximizing:
                if v > best:
                    best, best_card = v, c
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best, best_card = v, c
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        if not trick:
            self.best_lead = best_card
        return best

    def exact(self, hands: list[int], leader: int, trick: list[int], tallies: object,
              lo: int, hi: int, restrict: int = -1, found: list[int] | None = None) -> int:
        """The exact future value, known to lie in [lo, hi], by null-window tests
        (bisection); ``found`` holds the bounds so far if the budget runs out."""
        found = found if found is not None else [lo, hi]
        found[0], found[1] = lo, hi
        while lo < hi:
            g = (lo + hi + 1) // 2
            r = self.node(hands, leader, trick, tallies, g - 1, g, restrict)
            if r >= g:
                lo = max(lo, r)
            else:
                hi = min(hi, r)
            found[0], found[1] = lo, hi
        return lo

    def reaches(self, hands: list[int], leader: int, trick: list[int], tallies: object, g: int,
                restrict: int = -1) -> bool:
        """True when the future value is at least ``g``."""
        return self.node(hands, leader, trick, tallies, g - 1, g, restrict) >= g

    def value_of(self, plays: list[Card], restrict: int) -> int:
        """The guaranteed value once ``plays`` (a legal start of the hand) are
        played, points already taken included; ``restrict``: the first lead."""
        hands, leader, tallies = self.initial()
        trick: list[int] = []
        taken = 0
        for card in plays:
            hands[(leader + len(trick)) % self.n] &= ~(1 << card.index)
            trick.append(card.index)
            if len(trick) == self.n:
                imm, leader, tallies = self.settle(leader, trick, tallies)
                taken += imm
                trick = []
        lo, hi = self.future_range(hands, leader, trick, tallies)
        return taken + self.exact(hands, leader, trick, tallies, lo, hi, restrict if not plays else -1)

    def future_range(self, hands: list[int], leader: int, trick: list[int], tallies: object) -> tuple[int, int]:
        """Bounds on the future value of any position, the trick on the table included."""
        lo, hi, _ = self.bounds(hands, tallies, _mask(trick))
        sure = sum(self.ply[c] for i, c in enumerate(trick) if self.bidding_seat[(leader + i) % self.n])
        return lo + sure, hi + sure


def _alive(hands: list[int], trick: list[int]) -> int:
    """The cards still in play: in a holding or on the table."""
    alive = _mask(trick)
    for h in hands:
        alive |= h
    return alive


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _suit_mask(deal: Deal, suit: str) -> int:
    """The cards of the leader's holding whose printed suit is ``suit`` (the
    suit the first card led makes trump in Auction Pitch, AP-PLAY-1)."""
    return _mask([c.index for c in deal.holdings[deal.leader] if c.suit == suit])


def solve(deal: Deal, trump: str, plays: list[Card] | None = None,
          budget: int = DEFAULT_BUDGET) -> Solution:
    """Solve a deal with ``trump``.

    In Auction Pitch (the first card led sets trump) ``value`` is with the
    first lead a card of ``trump``, and ``value_best_lead`` with the best
    first lead of any suit; in ten-point the trump is named and the bidder
    may lead anything. ``plays``: the recorded cards in play order, for the
    costly plays.
    """
    counter = [0, budget]
    auction = not deal.family.trump_named
    search = _Search(deal, trump, counter)
    hands, leader, tallies = search.initial()
    restrict = _suit_mask(deal, trump) if auction else -1
    lo, hi = search.future_range(hands, leader, [], tallies)
    found = [lo, hi]
    sol = Solution(trump, None, (lo, hi), solved=False)
    try:
        sol.value = search.exact(hands, leader, [], tallies, lo, hi, restrict, found)
        sol.value_bounds = (sol.value, sol.value)
    except OutOfBudget:
        sol.value_bounds = (found[0], found[1])
        sol.nodes = counter[0]
        if auction:
            sol.best_lead_bounds = (found[0], deal_max(search))
        return sol
    try:
        if auction:
            _best_lead(deal, search, sol, counter)
        if plays is not None:
            _walk(search, sol, plays, restrict)
        sol.solved = True
    except OutOfBudget:
        pass
    sol.nodes = counter[0]
    return sol


def solve_hand(result: HandResult | None, unit_of: tuple[int, ...], family: Family, low_rule: str,
               budget: int = DEFAULT_BUDGET) -> Solution | None:
    """A scored hand solved with its trump as played and its recorded cards
    (``solve``); ``None`` when it can't be: not scored, no trump, or its
    holdings not recorded (a tally)."""
    if result is None or result.trump is None:
        return None
    deal = deal_of(result, unit_of, family, low_rule)
    if deal is None:
        return None
    return solve(deal, result.trump, [p.card for t in result.tricks for p in t.plays], budget)


def value_after(deal: Deal, trump: str, plays: list[Card], budget: int = DEFAULT_BUDGET) -> int:
    """The bidding side's guaranteed value (points already taken included) once
    ``plays`` (the first cards of the hand, in play order, legal) have been
    played; raises ``OutOfBudget``. With no plays in Auction Pitch the first
    lead is a card of ``trump``, as in ``solve``."""
    restrict = _suit_mask(deal, trump) if not deal.family.trump_named else -1
    return _Search(deal, trump, [0, budget]).value_of(plays, restrict)


def deal_max(search: _Search) -> int:
    """The most points a hand could give the bidding side (every point)."""
    hands, leader, tallies = search.initial()
    return search.future_range(hands, leader, [], tallies)[1]


def _best_lead(deal: Deal, played: _Search, sol: Solution, counter: list[int]) -> None:
    """``value_best_lead``: the best over the suits the pitcher can lead."""
    assert sol.value is not None
    best, best_suit = sol.value, played.trump
    sol.best_lead_bounds = (best, max(best, deal_max(played)))
    suits = [s for s in SUITS if s != played.trump and _suit_mask(deal, s)]
    for suit in suits:
        search = _Search(deal, suit, counter)
        hands, leader, tallies = search.initial()
        restrict = _suit_mask(deal, suit)
        hi = search.future_range(hands, leader, [], tallies)[1]
        if hi <= best or not search.reaches(hands, leader, [], tallies, best + 1, restrict):
            continue
        found = [best + 1, hi]
        try:
            best = search.exact(hands, leader, [], tallies, best + 1, hi, restrict, found)
        except OutOfBudget:
            sol.best_lead_bounds = (found[0], max(found[1], sol.best_lead_bounds[1]))
            raise
        best_suit = suit
        sol.best_lead_bounds = (best, sol.best_lead_bounds[1])
    sol.value_best_lead, sol.best_lead_bounds, sol.best_lead_suit = best, (best, best), best_suit


def _walk(search: _Search, sol: Solution, plays: list[Card], restrict: int) -> None:
    """Follow the recorded play; each card after which the value changed is costly."""
    subs: dict[int, _Search] = {}  # one point each, to name what a costly card changed
    allowance = [0, search.budget[1] // 4]  # their nodes, on top of the budget (counted in nodes)
    try:
        _follow(search, sol, plays, restrict, subs, allowance)
    finally:
        search.budget[0] += allowance[0]


def _follow(search: _Search, sol: Solution, plays: list[Card], restrict: int, subs: dict[int, _Search],
            allowance: list[int]) -> None:
    """The walk itself (see ``_walk``)."""
    assert sol.value is not None
    n = search.n
    hands, leader, tallies = search.initial()
    trick: list[int] = []
    taken = 0  # points the bidding side has from the tricks already over
    before = sol.value
    for k, card in enumerate(plays):
        seat = (leader + len(trick)) % n
        c = card.index
        mover_bids = search.bidding_seat[seat]
        lead_restrict = restrict if k == 0 else -1
        _, options = search.candidates(hands, leader, trick, lead_restrict, _alive(hands, trick))
        hands[seat] &= ~(1 << c)
        trick.append(c)
        # The value can only fall after a bidding-side card, only rise after a
        # defender's: test "unchanged" first, with one null window.
        if mover_bids:
            same = search.reaches(hands, leader, trick, tallies, before - taken)
        else:
            same = not search.reaches(hands, leader, trick, tallies, before - taken + 1)
        if same:
            after = before
        else:
            lo, hi = search.future_range(hands, leader, trick, tallies)
            if mover_bids:
                hi = min(hi, before - taken - 1)
            else:
                lo = max(lo, before - taken + 1)
            after = taken + search.exact(hands, leader, trick, tallies, lo, hi)
        if after != before:
            trick.pop()
            hands[seat] |= 1 << c
            better = _keeping(search, hands, leader, trick, tallies, options, c, before - taken, mover_bids)
            hands[seat] &= ~(1 << c)
            trick.append(c)
            costly = CostlyPlay(k // n + 1, seat, card, before, after, ALL_CARDS[better])
            named = _named(search, subs, allowance, plays[:k], plays[:k + 1], restrict, mover_bids,
                           abs(after - before))
            sol.costly.append(replace(costly, points=named))
        before = after
        if len(trick) == n:
            imm, leader, tallies = search.settle(leader, trick, tallies)
            taken += imm
            trick = []
            _, _, tallies = search.bounds(hands, tallies)


def _named(search: _Search, subs: dict[int, _Search], allowance: list[int], before: list[Card],
           after: list[Card], restrict: int, mover_bids: bool, change: int) -> tuple[str, ...]:
    """The points (High, Low, Jack, Game) whose own guarantee the card changed,
    when they account for the whole change; else nothing. The searches for it
    have their own ``allowance`` of nodes, so that naming never leaves a hand
    unsolved."""
    names: list[str] = []
    moved = 0
    if allowance[0] > allowance[1]:
        return ()
    try:
        for label, keep in search.points:
            sub = subs.get(keep)
            if sub is None:
                sub = subs[keep] = _Search(search.deal, search.trump, allowance, keep)
            d = sub.value_of(after, restrict) - sub.value_of(before, restrict)
            if (d < 0) if mover_bids else (d > 0):
                names.append(label)
                moved += abs(d)
    except OutOfBudget:
        return ()  # naming is a courtesy: out of its allowance, the change is given as a number
    return tuple(names) if moved == change else ()


def _keeping(search: _Search, hands: list[int], leader: int, trick: list[int], tallies: object,
             options: list[int], played: int, target: int, mover_bids: bool) -> int:
    """A card of ``options`` after which the future value is still ``target``."""
    seat = (leader + len(trick)) % search.n
    hold = hands[seat]
    for c in options:
        if c == played:
            continue
        hands[seat] = hold ^ (1 << c)
        trick.append(c)
        try:
            if mover_bids:
                ok = search.reaches(hands, leader, trick, tallies, target)
            else:
                ok = not search.reaches(hands, leader, trick, tallies, target + 1)
        finally:
            trick.pop()
            hands[seat] = hold
        if ok:
            return c
    raise AssertionError("no card keeps the value: the search is inconsistent")
