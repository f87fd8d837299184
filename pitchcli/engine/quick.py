"""The engine's quick pass: a whole hand decided in one short function.

``pitch validate`` of a league's archive spends its time on hands that break no
rule. ``QuickGame.hand`` decides such a hand with the rules' own functions
(the auction, ``trick_keys``/``winner_by_keys``, ``award_cards``,
``game_unit``, ``settle``, ``game_won``) on card ints, without the state
machine of ``hand.HandState``, without locations and without result objects.
It answers only "this hand is clean, and here is its score" or "don't know"
(``None``): anything it does not handle, or any sign of a broken rule, is a
"don't know", and the caller replays the game in ``HandState``, which finds
and locates every problem. So the quick pass can't change a diagnostic: it
can only skip the full replay of a game that has none
(``tests/test_engine_quick.py`` holds it to that on simulated and broken games).

What it handles: a family that scores awards (Auction Pitch, solo or fixed
teams) where every dealt card is played, a hand with its whole deal, its bids
and its tricks as plain lists.
"""

from __future__ import annotations

from itertools import chain, compress, repeat
from operator import add, getitem, not_

from pitchcli.cards import ALL_CARDS
from pitchcli.engine.bidding import Auction
from pitchcli.engine.family import TRUMP_KEY, Exchange, TrumpView, family_of
from pitchcli.engine.game import game_won
from pitchcli.engine.hand import _outside, _play_orders, _trick_of_play
from pitchcli.engine.scoring import award_cards, game_unit, settle, trick_game_points
from pitchcli.engine.table import Table

_SUIT_I: tuple[str | None, ...] = tuple(c.suit for c in ALL_CARDS)  # the printed suit (AP-PLAY-1)
# Auctions decided so far, per profile and number of players: (dealer, calls) -> (bidder, bid), or
# None for an auction with a problem. A league plays few distinct auctions, and
# the auction depends on nothing else, so each is run through ``Auction`` once.
_AUCTIONS: dict[object, dict[tuple[int, tuple[object, ...]], tuple[int, int] | None]] = {}
_AUCTIONS_MAX = 50_000  # per table: beyond it, auctions are run, not kept


class QuickGame:
    """One game's quick pass: ``hand`` for each hand in order; ``totals``,
    ``winner`` and ``won_after`` as the full replay would give them."""

    __slots__ = ("auctions", "deal_sizes", "dealer", "dealt_to", "fam", "low", "n", "offsuit",
                 "orders", "outside", "p", "played", "table", "taken_by", "totals", "trick_of",
                 "trick_sizes", "trick_starts", "units", "views", "winner", "won_after")

    def __init__(self, table: Table) -> None:
        self.table = table
        self.p = p = table.profile
        self.fam = fam = family_of(p)
        self.n = table.seats
        self.units = len(table.unit_names)
        self.low = p.low
        self.offsuit = fam.offsuit_trick_has_winner
        self.orders = _play_orders(self.n)
        self.outside = _outside(fam)
        self.views: dict[str, TrumpView] = {}
        self.auctions = _AUCTIONS.setdefault((p, self.n), {})
        self.totals = [0] * self.units
        self.dealer: int | None = None  # of the hand before
        self.played = 0  # hands so far
        self.winner: int | None = None
        self.won_after: int | None = None  # the number of the hand that won the game
        # The unit that took High, Low, Jack and Game in the last hand (None: not awarded).
        self.taken_by: tuple[int | None, ...] = ()
        n, size = self.n, p.hand
        self.deal_sizes = [size] * n
        self.trick_sizes = [n] * size
        self.dealt_to = [s for s in range(n) for _ in range(size)]  # the seat of each card dealt
        self.trick_of = _trick_of_play(n, n * size)  # the trick of each card played
        self.trick_starts = range(0, n * size, n)  # where each trick starts in the cards played

    @staticmethod
    def handles(table: Table) -> bool:
        """True for the games the quick pass knows: awards scoring, every
        dealt card played, no called partner, as many cards dealt as tricks."""
        p = table.profile
        fam = family_of(p)
        return (fam.scores_awards and fam.exchange is Exchange.NONE and not p.calls_partner
                and p.deal == p.hand and p.kitty == 0 and p.dead == 0)

    def _auction(self, dealer: int, calls: tuple[object, ...]) -> tuple[int, int] | None:
        key = (dealer, calls)
        known = self.auctions.get(key, False)
        if known is not False:
            return known  # type: ignore[return-value]
        a = Auction(self.p, self.fam, self.table.players, dealer)
        out: tuple[int, int] | None = None
        if all(c.__class__ is int or c == "pass" for c in calls):
            for c in calls:
                a.call(None if c.__class__ is str else c)  # type: ignore[arg-type]
            a.close()
            if not a.violations and a.bidder is not None and a.bid is not None:
                out = a.bidder, a.bid
        if len(self.auctions) < _AUCTIONS_MAX:
            self.auctions[key] = out
        return out

    def hand(self, dealer: int, calls: tuple[object, ...], dealt: list[int | None], deal_sizes: list[int],
             played: list[int | None], trick_sizes: list[int]) -> list[int] | None:
        """The score change of each unit for a clean hand, or ``None`` (not
        known to be clean: replay the game in full).

        ``dealt``: the cards dealt, seat after seat (``deal_sizes`` to each);
        ``played``: the cards of the tricks, trick after trick, each from its
        leader (``trick_sizes`` in each). Cards are ``Card.index`` ints, ``None``
        for a text that is no card. The hand is checked as a few whole-list
        operations, not card by card: a league's clean hand is the hot path.
        """
        n = self.n
        # AP-DEAL-2: the deal passes to the left; AP-WIN-1: no hand after the game is won.
        if self.winner is not None or (self.dealer is not None and dealer != (self.dealer + 1) % n):
            return None
        self.dealer = dealer
        self.played += 1
        contract = self._auction(dealer, calls)
        # AP-DEAL-1: each seat dealt ``hand`` cards; AP-PLAY-1, AP-PLAY-3: ``hand``
        # tricks of one card from each seat.
        if contract is None or deal_sizes != self.deal_sizes or trick_sizes != self.trick_sizes:
            return None
        bidder, bid = contract
        # CARD-1, CARD-4, AP-DEAL-1: no card dealt twice, every card of the deck,
        # and the cards played are the cards dealt (as many: each once).
        owner = dict(zip(dealt, self.dealt_to, strict=True))
        if len(owner) != len(dealt) or None in owner or not self.outside.isdisjoint(owner) or \
                owner.keys() != set(played):
            return None
        # Who played each card is who was dealt it (AP-DEAL-1); then each trick
        # must be played clockwise from its leader (AP-TABLE-3), the first led
        # by the pitcher (AP-PLAY-1), each next by the winner before (AP-PLAY-4).
        seats = list(map(owner.__getitem__, played))
        leaders = seats[::n]
        if leaders[0] != bidder or seats != list(chain.from_iterable(map(self.orders.__getitem__, leaders))):
            return None
        leads = played[::n]
        trump = _SUIT_I[leads[0]]  # type: ignore[index]  # AP-PLAY-1: the suit of the first card led
        view = self.views.get(trump)  # type: ignore[arg-type]
        if view is None:
            view = self.views[trump] = self.fam.view(trump)  # type: ignore[arg-type]
        suit_i = view.suit_i
        led = list(map(suit_i.__getitem__, leads))  # type: ignore[arg-type]
        # Each card's win key in its trick (play.trick_keys: the key table of
        # the suit led); the winner is the card with the highest (winner_by_keys).
        tables = chain.from_iterable(map(repeat, map(view.win_key.__getitem__, led), repeat(n)))
        keys = list(map(getitem, tables, played))
        by_trick = list(zip(*[iter(keys)] * n, strict=True))
        tops = list(map(max, by_trick))
        if min(tops) < TRUMP_KEY and not self.offsuit:
            return None  # a trick won by nobody (TP-PLAY-2): not a family this pass knows
        winners = list(map(seats.__getitem__, map(add, self.trick_starts, map(tuple.index, by_trick, tops))))
        if leaders[1:] != winners[:-1]:
            return None
        if 0 in keys:
            # AP-PLAY-2: a card neither of the suit led nor a trump only if its
            # player holds no card of the suit led, i.e. plays none later: the
            # last trick in which each seat plays each suit says it.
            last = dict(zip(zip(seats, map(suit_i.__getitem__, played), strict=True),  # type: ignore[arg-type]
                            self.trick_of, strict=True))
            for i in compress(range(len(keys)), map(not_, keys)):
                k = i // n
                if last.get((seats[i], led[k]), -1) > k:
                    return None
        # AP-SCORE-1..4: High, Low, Jack to whoever takes them, Game on game points.
        unit_of = self.table.unit_of
        tallies = [0] * self.units
        for won, value in zip(winners, map(trick_game_points, zip(*[iter(played)] * n, strict=True)),
                              strict=True):
            tallies[unit_of[won]] += value
        taken = [0] * self.units
        at = dict(zip(played, range(len(played)), strict=True))
        high, low, jack = award_cards(played, view)  # type: ignore[arg-type]
        by: list[int | None] = []
        for c, by_player in ((high, False), (low, self.low == "played"), (jack, False)):
            if c is None:
                by.append(None)
                continue
            i = at[c]
            u = unit_of[seats[i] if by_player else winners[i // n]]
            taken[u] += 1
            by.append(u)
        game = game_unit(tallies)
        if game is not None:
            taken[game] += 1
        by.append(game)
        self.taken_by = tuple(by)
        bidding = frozenset((unit_of[bidder],))
        made, delta = settle(taken, bidding, bid, pooled=False)
        totals = self.totals
        for u, d in enumerate(delta):
            totals[u] += d
        if max(totals) >= self.p.target:
            at_target = tuple(u for u, t in enumerate(totals) if t >= self.p.target)
            w, reason = game_won(self.fam, self.p, unit_of, totals, at_target, bidder, made, bidding, [])
            if w is not None and reason is not None:
                self.winner, self.won_after = w, self.played
        return delta
