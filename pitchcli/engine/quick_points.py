"""The quick pass for ten-point games: the refill (TP4-3 .. TP4-5) and the
cut-down kitty (TP5-1, TP5-2, TP5-4), at tables of solo players, fixed teams or
called partners (TP5-3).

``PointCardBatch`` is ``quick.QuickBatch`` for a family that scores point
cards: the same auctions (``bidding.Auction``, run once per distinct sequence
of calls), the same dealer's turn, running totals and winner
(``QuickBatch.verdicts``: ``game.game_won``, here TP-WIN-1) and the same
settlement (``QuickBatch.settle``: ``scoring.settle`` without pooling); what it
adds is each hand's exchange, play and points as array operations over many
hands at once, read from the rules table (``quick.RuleArrays``: each card's
suit, win key, trump strength and point value per trump, from
``tables.TrumpView``). As the Auction quick pass, it answers only "clean, and
here are the scores" or "don't know": a game it does not decide is replayed in
full by ``hand.HandState``, which alone writes diagnostics.

What it handles: hands of full detail (the whole deal, every player's discards,
and his draws (refill) or the kitty the bidder takes (cut-down), the dead cards
where the profile sets some aside, trump, the tricks) at a table of solo
players or fixed teams, with a profile whose every option has a value it knows
(``PROFILE_VALUES``), and the partners the bidder calls (TP5-3, cut-down); and
play-level hands (trump and the tricks, none of the deal, discards, draws or
kitty, the dead cards recorded or not: what each seat holds is what it plays,
nothing exchanged is known, so no rule of the exchange is judged, as the full
replay judges none); and tallies (no cards: ``points`` says what each unit
took, and the hand is scored from it; at a table of called partners the record
names a holder for each card called, and they stand in for the cards, as in the
full replay), in any mix with the others. A trick may be written with its
leader (``{lead, cards}``: a claim, held to the leader the play gives, as in
``quick``). A hand with some of its places (a deal without discards, say): the
full replay's.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from itertools import chain

import numpy as np

from pitchcli.cards import ALL_CARDS
from pitchcli.engine.family import Exchange, Scoring, WinBy, family_of
from pitchcli.engine.quick import (
    NO_CARD,
    GameVerdict,
    QuickBatch,
    allowed,
    card_rows,
    clockwise,
    counts,
    judged_by_identity,
    one_of,
    per_unit,
    rule_arrays,
    unfollowed,
    whole,
)
from pitchcli.engine.table import Table
from pitchcli.engine.tables import SUIT_INDEX, TRUMP_KEY
from pitchcli.profiles import Profile

_CARDS = len(ALL_CARDS)


# Every option of a profile with the values this quick pass knows (an
# allow-list, as ``quick.PROFILE_VALUES``; tests/engine/test_quick_points.py
# checks that every field of ``Profile`` is named). The numbers it only hands
# on to the engine's own code (the bids to ``bidding.Auction``, the target to
# ``game.game_won``) or reads as sizes (the deal, the hand, the dead cards) may
# be any whole number.
PROFILE_VALUES: dict[str, Callable[[object], bool]] = {
    "name": lambda v: True,  # a label: no rule reads it
    "family": one_of("ten-point"),  # point cards, trump named by the bidder
    "players": counts,
    "deal": whole,  # TP4-2
    "hand": whole,
    "mode": one_of("refill", "cut-down"),  # TP4-3 .. TP4-5: discards and draws; TP5-2: the kitty
    "kitty": whole,  # (cut-down: the bidder takes it; refill: none, see _handles)
    "dead": whole,  # set aside: never held, never played
    "sides": one_of("solo", "teams", "called"),  # units from the table's unit_of; TP5-3 (cut-down)
    "team_size": whole,
    "called_cards": whole,  # (the cards the bidder calls: 0 but with called partners, see _handles)
    "min_bid": whole,
    "max_bid": whole,
    "stuck_bid": whole,
    "steal": one_of(True, False),  # bidding.Auction's
    "low": one_of("captured", "played"),  # (Auction Pitch's Low: no ten-point rule reads it)
    "target": whole,
    "win_on_set": one_of(True, False),  # (AP-WIN-1's: TP-WIN-1 does not read it)
}

# How this quick pass covers each rule the full replay can report for a
# ten-point hand it might decide, as ``quick.COVERAGE`` does for Auction
# Pitch; tests/engine/test_quick_points.py breaks each row alone.
COVERAGE: dict[str, str] = {
    "CARD-2": "checked: every card of the deal, the kitty, the dead cards, the discards, the draws and the tricks is "
              "in the family's deck (RuleArrays.in_deck); a text that is no card never reaches it (CARD-3)",
    "CARD-3": "replayed: the schema refuses a text that is no card (S204) before the engine; one that got "
              "past it (a script's record) raises in pipeline.feed.Driver.feed's look-up: its game is replayed",
    "CARD-4": "checked: no card twice among the deal, the kitty, the dead cards and the draws, nor among the "
              "discards and the tricks (a count per card; a play-level hand: the tricks)",
    "TP4-2": "checked: add_hand refuses a deal of other than `deal` cards to a seat, or `dead` cards set aside",
    "TP4-3": "checked: a player but the bidder discards every non-trump he was dealt, and no trump while "
             "holding `hand` or fewer",
    "TP4-4": "checked: no point card discarded; a player discards only cards he holds (dealt or drawn) and "
             "is left with `hand`; a player but the bidder draws `hand` less what he kept; the bidder "
             "draws the rest of the pack; each plays exactly what he holds; with no dead cards every point "
             "card is in the tricks (a play-level hand: that last alone, as in the full replay)",
    "TP4-5": "checked: a player but the bidder holding more than `hand` trumps discards exactly the excess, "
             "and has as many trumps that are not point cards",
    "TP4-6": "checked: add_hand refuses other than `hand` tricks of one card from each seat; the seats "
             "follow from the cards (the winner leads next, after a trick won by nobody its leader again); "
             "a recorded `lead` (C508) must be that leader (QuickBatch.leads_hold), else refused",
    "TP-BID-1": "checked: bidding.Auction, the engine's own, runs each distinct auction (quick.QuickBatch) "
                "and a hand whose auction reports anything is refused; a contract without bids is held to "
                "HandState.set_contract; a recorded contract must be the auction's bidder and bid (C505)",
    "TP-BID-2": "checked: the bidder leads the first trick (the seats follow from him); a recorded `lead` "
                "of it (C508) must be the bidder, else refused",
    "TP-TRUMP-1": "checked: a hand without a recorded trump is not fed (R410 is the replay's)",
    "TP-PLAY-1": "checked: quick.unfollowed (tables.may_follow): a card neither of the suit led nor a trump "
                 "only from a seat void in the suit led",
    "AP-DEAL-2": "checked: QuickBatch.verdicts: each hand after the first is dealt by the next seat",
    "TP-WIN-1": "checked: QuickBatch.verdicts: a hand after the one that won the game (game.game_won) "
                "refuses the game",
    "TP-POINTS-1": "checked: the arrays credit each point card to who won its trick, the 2 of trumps to who "
                   "played it, as scoring.ten_point_credits; a tally's points must add up to the hand's (all "
                   "ten with no dead cards, at most ten with some: add_tally, else C501, replayed)",
    "TP5-1": "checked: add_exchange_hand refuses a deal of other than `deal` cards to a seat, or a kitty of "
             "other than `kitty` (cut-down)",
    "TP5-4": "checked: no point card discarded; a player discards only cards he holds (dealt, and the "
             "kitty for the bidder) and is left with `hand`; each plays exactly what he holds (cut-down)",
    "TP5-3": "checked: the bidder calls `called_cards` different trumps of the deck; each is held (dealt, "
             "or the kitty's: the bidder's; a play-level hand: played); the partners are their holders other "
             "than the bidder, and a recorded partner must name them, in the order of the cards (else R411 "
             "or C507, replayed); where the record shows no holder of a called card (a play-level hand's "
             "card nobody played, a card set aside dead), a name for each card called stands in for it, "
             "and a card that shows its holder must show the name given for it (_partners); "
             "a tally names a holder for each card called, which stand in for the cards (add_tally); "
             "the side's points are pooled (TP5-5, QuickBatch.settle) and a tie at the target goes to the "
             "holder of the first card called (game.game_won)",
    "TP4-1": "replayed: a team layout the profile does not take is a problem of the table: not fed",
    "C501": "checked: Driver.accept compares a hand's `points` with the points each unit took",
    "C502": "checked: accept compares `score` with the score change",
    "C503": "checked: accept compares `totals` with the running totals",
    "C504": "checked: accept compares `result` (winner, scores) with the verdict",
    "R413": "replayed: a name that is no player's in a deal, discards, draws, a contract or a claim: not "
            "fed, or differs from the verdict",
}


@judged_by_identity
def _handles(p: Profile) -> bool:
    """``PointCardBatch.handles`` for one profile."""
    if not allowed(p, PROFILE_VALUES):
        return False
    fam = family_of(p)  # (a family is made only of a known name)
    # The family's traits the array code builds in, in case a family's data changes.
    if not (fam.scoring is Scoring.POINT_CARDS and fam.exchange is not Exchange.NONE and fam.trump_named
            and not fam.offsuit_trick_has_winner and fam.win_by is WinBy.HIGHEST and p.deal >= p.hand > 0):
        return False
    if fam.exchange is Exchange.REFILL and p.kitty:
        return False  # (a refill deals no kitty: the pack, TP4-4, leaves none out)
    if p.sides == "called":  # (partners called at a refill would be held by drawn cards: not read here)
        return p.called_cards > 0 and fam.exchange is Exchange.CUT_DOWN
    return p.called_cards == 0


class PointCardBatch(QuickBatch):
    """The hands of many ten-point games at one table: of full detail, and tallies.

    ``begin_game``, then ``add_exchange_hand`` (a hand with its cards) or
    ``add_tally`` (its points alone) for each hand in order (False: not one
    this pass decides; ``drop_game`` then takes the game out), then ``decide``."""

    exchanges = True  # the hands come with discards and draws (pipeline.feed.Driver.feed)

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        p = self.p
        self.dead_size = p.dead
        # TP4-2, TP4-6: what ``add_exchange_hand`` holds each hand's places and tricks to.
        self.deal_sizes = [p.deal] * self.n
        self.trick_sizes = [self.n] * p.hand
        self.refill = self.fam.exchange is Exchange.REFILL  # else cut-down: the bidder takes the kitty
        # TP4-4: the pack the draws come from: what is neither dealt nor set aside.
        self.pack = len(p.deck) - self.n * p.deal - p.dead
        # What a play-level hand adds in place of the places it leaves unwritten
        # (made once: ``add_exchange_hand`` extends the lists by them each hand).
        self._no_deal = [NO_CARD] * (self.n * p.deal)
        self._no_dead = [NO_CARD] * p.dead
        self._none_each = [0] * self.n  # (no card discarded or drawn by any seat)
        self.dead: list[int] = []
        self.dead_known: list[bool] = []  # per hand with cards: its dead cards recorded (else placeholders)
        # The discards and draws of every seat of every hand, one flat list of
        # cards each, and how many of them each seat of each hand has (its row:
        # hand with tricks * seats + seat).
        self.gone: list[int] = []
        self.gone_count: list[int] = []
        self.drawn: list[int] = []
        self.drawn_count: list[int] = []
        self.trump: list[int] = []
        # TP5-3: per hand the cards called (``called_cards`` each) and the
        # partners recorded (seats; ``None``: not recorded).
        self.calls_partner = p.sides == "called"
        self.called: list[int] = []
        self.partner_claims: list[list[int] | None] = []
        # Per tally hand (at a table of called partners): its partners (seats,
        # sorted) and the holder of each called card, as the record names them.
        self.tally_partners: list[tuple[tuple[int, ...], list[int]]] = []

    @staticmethod
    def handles(table: Table) -> bool:
        """True for the games this pass knows (``PROFILE_VALUES``)."""
        return _handles(table.profile)

    def _dealt_before(self, first: int) -> int:
        # (Every hand keeps a deal here, a play-level hand's as placeholders.)
        return first * self.n * self.p.deal

    def drop_game(self) -> None:
        """Take the hands of the game begun last out of the batch."""
        if self.calls_partner:
            del self.tally_partners[bisect_left(self.tally_hands, self.games[-1]):]
        first = bisect_left(self.card_hands, self.games[-1])
        rows = first * self.n
        del self.dead[first * self.dead_size:], self.dead_known[first:], self.trump[first:], self.partner_claims[first:]
        del self.called[first * self.p.called_cards:]
        for cards, count in ((self.gone, self.gone_count), (self.drawn, self.drawn_count)):
            del cards[len(cards) - sum(count[rows:]):], count[rows:]
        super().drop_game()

    def add_exchange_hand(self, dealer: int, calls: tuple[object, ...] | None,
                          contract: tuple[int, object] | None, trump: str,
                          dealt: Sequence[Sequence[object]] | None, dead: Sequence[object] | None,
                          discards: Sequence[Sequence[object]] | None, draws: Sequence[Sequence[object]] | None,
                          kitty: Sequence[object] | None, tricks: Sequence[Sequence[object]],
                          card: Callable[[object], int],
                          partner: tuple[Sequence[object], list[int] | None] | None = None,
                          leads: Sequence[tuple[int, int]] = ()) -> bool:
        """One hand of the game begun last: per seat (in seat order) the cards
        dealt, discarded and drawn (refill; ``None``: not recorded); the kitty
        (cut-down); the dead cards (``None``: none recorded); ``partner``, the
        cards the bidder calls and the partners recorded (seats, ``None``: not
        recorded), or ``None`` (no call recorded);
        the tricks, each from its leader, and ``leads``, the leaders the record
        writes down: (trick, seat) for each (``claim_leads``); ``card`` reads a card's text as its
        ``Card.index`` (raising ``KeyError`` or ``TypeError`` for one that is no
        card). ``dealt`` ``None``: a play-level hand, with
        no discards, draws or kitty either (its dead cards recorded or not),
        whose holdings are what each seat plays. False when the hand is surely
        not one this pass decides (an exception from ``card`` leaves the batch
        to ``drop_game``)."""
        n = self.n
        if list(map(len, tricks)) != self.trick_sizes:  # TP4-6: `hand` tricks of one card a seat
            return False
        if dealt is None:  # play-level: none of the places recorded, but maybe the dead cards
            if (discards, draws, kitty) != (None, None, None) or (dead is not None and len(dead) != self.dead_size):
                return False
        elif not self._places_fit(dealt, dead, draws, kitty):
            return False
        if (partner is not None) != self.calls_partner or (
                partner is not None and len(partner[0]) != self.p.called_cards):  # (TP5-3: R411)
            return False
        won = self.contract_of(dealer, calls, contract)
        if won is None:
            return False
        if dealt is None:
            # Play-level: nothing before the play is recorded. Its rows are
            # placeholders (NO_CARD, not a card), which ``_hands`` reads as the
            # holding each seat plays, with nothing exchanged.
            self.dealt += self._no_deal
            if dead is None:
                self.dead += self._no_dead
            self.gone_count += self._none_each
            self.drawn_count += self._none_each
        else:
            if draws is None:  # cut-down, TP5-2: the bidder takes the kitty, the others draw nothing
                draws = [kitty if seat == won[0] else () for seat in range(n)]  # type: ignore[misc]
            # (Whole lists at a time, in C: a hand has some ninety cards to read.)
            self.gone += map(card, chain.from_iterable(discards))  # type: ignore[arg-type]
            self.gone_count += map(len, discards)  # type: ignore[arg-type]
            self.drawn += map(card, chain.from_iterable(draws))
            self.drawn_count += map(len, draws)
            self.dealt += map(card, chain.from_iterable(dealt))
        self.played += map(card, chain.from_iterable(tricks))
        if dead:
            self.dead += map(card, dead)
        self.has_deal.append(dealt is not None)
        self.dead_known.append(dead is not None)
        self.trump.append(SUIT_INDEX[trump])
        if partner is not None:
            self.called += map(card, partner[0])
            self.partner_claims.append(partner[1])
        if leads:
            self.claim_leads(leads)
        self.card_hands.append(len(self.dealer))  # (the Auction pass's trump_claims: unread here)
        self.seat_hand(dealer, won)
        return True

    def _places_fit(self, dealt: Sequence[Sequence[object]], dead: Sequence[object] | None,
                    draws: Sequence[Sequence[object]] | None, kitty: Sequence[object] | None) -> bool:
        """Whether a hand of full detail records the places of its exchange: each
        seat dealt ``deal`` and ``dead`` set aside (TP4-2); the draws (refill) or
        a kitty of ``kitty`` cards (cut-down, TP5-1)."""
        if list(map(len, dealt)) != self.deal_sizes or (0 if dead is None else len(dead)) != self.dead_size:
            return False
        if self.refill:
            return draws is not None and kitty is None
        return draws is None and kitty is not None and len(kitty) == self.p.kitty

    def decide(self) -> list[GameVerdict | None]:
        """Every game of the batch decided: its verdict, or ``None``."""
        if not self.games:
            return []
        hands = len(self.dealer)
        ok = np.ones(hands, bool)
        units = len(self.table.unit_names)
        taken = np.zeros((hands, units), np.int64)
        seat_taken = np.zeros((hands, self.n), np.int64)
        partners: list[tuple[int, ...]] | None = None
        holders: list[list[int]] | None = None
        side = None
        unit_of = self.table.unit_of
        if self.calls_partner:  # per hand: the partners, and the holders of the cards called
            partners, holders = [()] * hands, [[]] * hands
            for i, (mates, named) in zip(self.tally_hands, self.tally_partners, strict=True):
                partners[i], holders[i] = mates, named
        if self.card_hands:
            at = np.array(self.card_hands)
            ok[at], taken[at], seat_taken[at], held = self._hands()
            if partners is not None and holders is not None:
                found, mates_of, holders_of = self._partners(held)
                ok[at] &= found
                for i, mates, named in zip(self.card_hands, mates_of, holders_of, strict=True):
                    partners[i], holders[i] = mates, named
        if partners is not None:
            # The bidding side of each hand: the bidder's unit and his partners'
            # (one assignment for the batch, not one a hand).
            unit = np.array(unit_of)
            side = np.zeros((hands, units), bool)
            side[np.arange(hands), unit[np.array(self.bidder, np.int64)]] = True
            mates = np.fromiter(chain.from_iterable(partners), np.int64)
            side[np.repeat(np.arange(hands), list(map(len, partners))), unit[mates]] = True
        if self.tally_hands:  # the record's own points: what the hand is scored from
            at = np.array(self.tally_hands)
            taken[at] = np.array(self.tally_taken, np.int64).reshape(-1, units)
            # (scoring.tally_seat_points: a unit of one player is that player;
            # a team member's own share is unknown, 0.)
            for seat, unit in enumerate(unit_of):
                if unit_of.count(unit) == 1:
                    seat_taken[at, seat] = taken[at, unit]
        made, delta = self.settle(taken, side)
        no_award = np.full((hands, 0), -1, np.int64)
        return self.verdicts(ok, made, delta, no_award, no_award, np.zeros(hands, bool), taken, seat_taken,
                             partners, holders)

    def add_tally(self, dealer: int, calls: tuple[object, ...] | None, contract: tuple[int, object] | None,
                  taken_by: list[int], partner: tuple[list[int], list[int] | None] | None = None,
                  trump: str | None = None) -> bool:
        """A tally hand of the game begun last (no tricks, no cards): the
        points each unit took (``taken_by``), as the record says; ``calls`` and
        ``contract`` as for ``add_exchange_hand``; at a table of called
        partners, ``partner``: the cards called (``Card.index``, -1: none) and
        the players the record names for them (seats; ``None``: none), and the
        trump recorded, if any. False when the hand is surely not one this pass
        decides: points that don't add up to the hand's (TP-POINTS-1: all of
        them with no dead cards, at most all with some, C501), or a call that
        TP5-3 refuses (R411: the replay's)."""
        every = self.fam.hand_points
        total = sum(taken_by)
        if total > every or (self.dead_size == 0 and total != every) or (partner is not None) != self.calls_partner:
            return False
        if partner is not None and not self._tally_call(partner, trump):
            return False
        if not super().add_tally(dealer, calls, contract, taken_by):
            return False
        if partner is not None and partner[1] is not None:
            # TP5-3, as hand.HandState._partners reads a record that shows no
            # holder: the names stand in for the cards, in the order called.
            named = list(partner[1])
            self.tally_partners.append((tuple(sorted(set(named) - {self.bidder[-1]})), named))
        return True

    def _tally_call(self, partner: tuple[list[int], list[int] | None], trump: str | None) -> bool:
        """Whether a tally's call is one TP5-3 takes without a card shown:
        ``called_cards`` different cards of the deck (trumps, where trump is
        recorded), and a name for each (the bidder's own for a card he holds)."""
        called, named = partner
        k = self.p.called_cards
        if named is None or len(named) != k or len(called) != k or len(set(called)) != k:
            return False
        t = rule_arrays(self.fam)
        if not all(t.in_deck[c + 1] for c in called):
            return False
        return trump is None or all(t.is_trump[SUIT_INDEX[trump], c + 1] for c in called)

    def _partners(self, held: np.ndarray) -> tuple[np.ndarray, list[tuple[int, ...]], list[list[int]]]:
        """TP5-3 for every hand (``held``: per hand, seat and card, what the
        seat holds once the bidder took the kitty): whether the call is one
        this pass takes, the partners (seats, sorted) and the holder of each
        called card in calling order, as ``hand.HandState._partners`` finds them."""
        t = rule_arrays(self.fam)
        h = len(held)
        k = self.p.called_cards
        called = card_rows(self.called, h, k)
        trump = np.array(self.trump, np.int64)
        has = held[np.arange(h)[:, None], :, called]  # (hand, called card, seat)
        ok = t.in_deck[called].all(1) & t.is_trump[trump[:, None], called].all(1)  # CARD-2; a trump
        if k > 1:
            ok &= (np.sort(called, 1)[:, 1:] != np.sort(called, 1)[:, :-1]).all(1)  # called twice: R411
        # The holder of each called card, -1 where the record shows none (a
        # play-level hand's card nobody played, a card set aside dead).
        holders = np.where(has.any(2), has.argmax(2), -1).tolist()
        ok_l = ok.tolist()
        partners: list[tuple[int, ...]] = []
        for i, (bidder, seats, claim) in enumerate(zip(
                (self.bidder[j] for j in self.card_hands), holders, self.partner_claims, strict=True)):
            if -1 in seats:
                # No card shows a holder: the names recorded stand in, one a
                # card, in the order called; a card that does show one must
                # show the name given for it (else R411 or C507, replayed).
                if claim is None or len(claim) != k or any(
                        s not in (-1, c) for s, c in zip(seats, claim, strict=True)):
                    ok_l[i] = False
                    partners.append(())
                    continue
                holders[i] = list(claim)
                partners.append(tuple(sorted(set(claim) - {bidder})))
                continue
            derived = list(dict.fromkeys(s for s in seats if s != bidder))
            if claim is not None and (len(claim) > k or list(dict.fromkeys(
                    s for s in claim if s != bidder)) != derived):
                ok_l[i] = False  # the recorded partners are not the holders: R411 or C507
            partners.append(tuple(sorted(derived)))
        return np.array(ok_l, bool), partners, holders

    def _hands(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The rules of every hand at once: whether it is clean, the points
        each unit took, the points each seat took, and what each seat holds
        after the deal (per hand, seat and card)."""
        t = rule_arrays(self.fam)
        n, size, p = self.n, self.size, self.p
        h = len(self.card_hands)
        width = _CARDS + 1
        has_deal = np.array(self.has_deal, bool)
        # (A batch of play-level hands only, as most files are all of one kind:
        # its deals are placeholders throughout, neither read nor counted.)
        any_deal = bool(has_deal.any())
        # Cards shifted by one: 0 is "not a card", so that every look-up is in range.
        dealt = card_rows(self.dealt, h, n * p.deal) if any_deal else np.zeros((h, 0), np.int64)
        played = card_rows(self.played, h, n * size)
        dead = card_rows(self.dead, h, self.dead_size)
        gone, gone_row = card_rows(self.gone), np.repeat(np.arange(h * n), self.gone_count)
        drawn, drawn_row = card_rows(self.drawn), np.repeat(np.arange(h * n), self.drawn_count)
        trump = np.array(self.trump, np.int64)
        bidder = np.array(self.bidder)[np.array(self.card_hands)]
        dead_known = np.array(self.dead_known, bool)
        rows = np.arange(h)[:, None]
        # CARD-2, CARD-3: cards of the deck only, in every place recorded (a
        # play-level hand's places before the play are placeholders, and its
        # dead cards too where it leaves them out).
        ok = (t.in_deck[dealt].all(1) | ~has_deal) & (t.in_deck[dead].all(1) | ~dead_known) & t.in_deck[played].all(1)
        ok[gone_row[~t.in_deck[gone]] // n] = False
        ok[drawn_row[~t.in_deck[drawn]] // n] = False
        # CARD-4: a card is dealt (to a seat, to the dead cards, or drawn) at
        # most once, and goes (discarded or played) at most once. (Column 0,
        # "not a card", is refused above wherever it is a card's place.)
        came = np.bincount(np.concatenate([(rows * width + dealt).ravel(),
                                           (np.repeat(rows, self.dead_size, 1) * width + dead).ravel(),
                                           drawn_row // n * width + drawn]),
                           minlength=h * width).reshape(h, width)
        went = np.bincount(np.concatenate([(np.repeat(rows, n * size, 1) * width + played).ravel(),
                                           gone_row // n * width + gone]),
                           minlength=h * width).reshape(h, width)
        ok &= (came[:, 1:] <= 1).all(1) & (went[:, 1:] <= 1).all(1)
        # The play: trump named (TP-TRUMP-1); the highest win key wins a trick
        # with a trump in it, a trick without one is won by nobody (TP-PLAY-2)
        # and its leader leads again; the bidder leads the first (TP-BID-2).
        cards = played.reshape(h, size, n)
        led = t.suit[trump[:, None], cards[:, :, 0]]
        led[led < 0] = 0
        tlc = t.by_trump_led(trump, led, cards)
        keys = t.key.take(tlc)
        wins = keys.argmax(2)
        won = keys.max(2) > TRUMP_KEY
        steps = np.zeros((h, size), np.int64)
        steps[:, 1:] = np.where(won, wins, 0)[:, :-1].cumsum(1)
        leader = (bidder[:, None] + steps) % n
        ok &= self.leads_hold(leader)  # a leader written down is a claim (C508)
        by_trick = clockwise(leader, n)
        seats = by_trick.reshape(h, n * size)
        winner = np.where(won, (leader + wins) % n, -1)
        # Per seat (row: hand * n + seat) and card: played, dealt, drawn, discarded.
        seat_rows = h * n
        plays = np.zeros((seat_rows, width), bool)
        plays[(rows * n + seats).ravel(), played.ravel()] = True
        if any_deal:
            deal_row = (rows * n + np.arange(n).repeat(p.deal)[None, :]).ravel()
            dealt_to = np.zeros((seat_rows, width), bool)
            dealt_to[deal_row, dealt.ravel()] = True
            # A play-level hand: each seat held what it plays, and nothing was exchanged.
            recorded = has_deal.repeat(n)
            dealt_to[~recorded] = plays[~recorded]
            drew = np.zeros((seat_rows, width), bool)
            drew[drawn_row, drawn] = True
            threw = np.zeros((seat_rows, width), bool)
            threw[gone_row, gone] = True
            held = dealt_to | drew  # (cut-down: the bidder's "drawn" cards are the kitty)
            trump_of_row = trump.repeat(n)
            is_trump = t.is_trump[trump_of_row]
            is_point = t.is_point[trump_of_row]
            bad = (threw & ~held).any(1)  # TP4-4: he discards only cards he holds
            left = held & ~threw
            bad |= left.sum(1) != size  # TP4-4: and is left with a hand
            bad |= (threw & is_point).any(1)  # TP4-4: no point card is discarded
            bidder_row = (np.arange(h) * n + bidder).tolist()
            if self.refill:  # (TP4-3 .. TP4-5 judge a recorded exchange: a play-level hand has none)
                bad |= self._refill_broken(dealt_to, drew, threw, is_trump, is_point, bidder_row) & recorded
            ok &= ~bad.reshape(h, n).any(1)
            # TP4-4: each seat plays exactly what it holds after the exchange; no dead
            # card is played (for a hand of full detail the line before says it too).
            ok &= ~(plays != left).any(1).reshape(h, n).any(1)
        else:
            # Every hand play-level (a file is most often all of one kind): each
            # seat held what it plays and nothing was exchanged, so the checks of
            # an exchange (with dealt_to = plays, no draws, no discards) find
            # nothing and are not made: "left with a hand" neither, as a seat
            # plays one card a trick and a card played twice is refused above (CARD-4).
            held = plays
        if self.dead_size:
            set_aside = np.zeros((h, width), bool)
            set_aside[np.repeat(rows, self.dead_size, 1), dead] = True
            set_aside[:, 0] = False  # (a placeholder)
            ok &= ~(plays.reshape(h, n, width).any(1) & set_aside).any(1)
        ok[unfollowed(t, tlc, led, cards, by_trick)] = False  # TP-PLAY-1
        value = t.value[trump[:, None], played]
        if self.dead_size == 0:  # TP4-4: no point card set aside, so every one is played
            ok &= (plays.reshape(h, n, width).any(1) | ~t.is_point[trump]).all(1)
        # TP-POINTS-1: a point card to who won its trick, the 2 of trumps to who played it.
        to = np.where(played == t.two[trump][:, None], seats, winner.repeat(n, 1))
        nobody = to < 0  # (a trick without a trump: its cards' points to nobody)
        seat_taken = per_unit(np.where(nobody, 0, to), np.where(nobody, 0, value), n)
        unit_of = np.broadcast_to(np.array(self.table.unit_of), seat_taken.shape)
        taken = per_unit(unit_of, seat_taken, len(self.table.unit_names))
        return ok, taken, seat_taken, held.reshape(h, n, width)

    def _refill_broken(self, dealt_to: np.ndarray, drew: np.ndarray, threw: np.ndarray, is_trump: np.ndarray,
                       is_point: np.ndarray, bidder_row: list[int]) -> np.ndarray:
        """The seats (rows) whose refill breaks TP4-3 .. TP4-5."""
        size = self.size
        other = np.ones(len(dealt_to), bool)
        other[bidder_row] = False
        # TP4-3: a player but the bidder discards all his non-trumps and, with
        # no more than `hand` trumps, no trump; TP4-5: with more, exactly the
        # excess, which he must have as trumps that are not point cards.
        trumps = (dealt_to & is_trump).sum(1)
        thrown = (threw & is_trump).sum(1)
        excess = trumps - size
        spare = (dealt_to & is_trump & ~is_point).sum(1)
        rule = (dealt_to & ~is_trump & ~threw).any(1)
        rule |= np.where(excess <= 0, thrown > 0, (spare < excess) | (thrown != excess))
        # TP4-4: he draws `hand` less what he kept of his deal; the bidder the rest of the pack.
        kept = (dealt_to & ~threw).sum(1)
        draws = drew.sum(1)
        rule |= draws != size - kept
        bad = other & rule
        others_drew = draws.reshape(-1, self.n).sum(1) - draws[bidder_row]
        bad[bidder_row] |= draws[bidder_row] != self.pack - others_drew
        return bad


def batch_class(table: Table) -> type[QuickBatch] | None:
    """The quick pass that knows the games of ``table`` (Auction Pitch's or
    ten-point's), or ``None``: the full replay judges them."""
    for cls in (QuickBatch, PointCardBatch):
        if cls.handles(table):
            return cls
    return None
