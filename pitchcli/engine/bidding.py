"""The auction: one round of calls from the dealer's left (AP-BID-*, TP-BID-1)."""

from __future__ import annotations

from pitchcli.engine.family import Family
from pitchcli.engine.violations import Violation
from pitchcli.profiles import Profile

PASS = None


class Call:
    """One call. ``kind`` is ``pass``, ``bid``, ``max`` (a closing bid: the
    pitched 4 of AP-BID-3, the 10 of TP-BID-1), ``steal`` (AP-BID-5), ``stuck``
    (the dealer bidding because nobody else did, AP-BID-4 / TP-BID-1) or
    ``implied`` (a pass left out of the record after a closing bid)."""

    # (A plain class, as ``HandResult``: docs/architecture.md, "a record type".
    # Not frozen: a frozen __init__ costs 3x on this hot path.)
    __slots__ = ("at", "bid", "kind", "seat")

    def __init__(self, seat: int, bid: int | None, kind: str, at: str = "") -> None:
        self.seat = seat
        self.bid = bid
        self.kind = kind
        self.at = at


class Auction:
    """The state of the auction of one hand; ``call`` checks then applies."""

    __slots__ = ("bid", "bidder", "calls", "closed", "dealer", "fam", "high_bid", "high_seat", "n", "p",
                 "players", "stuck", "violations")

    def __init__(self, profile: Profile, family: Family, players: tuple[str, ...], dealer: int) -> None:
        self.p = profile
        self.fam = family
        self.players = players
        self.n = len(players)
        self.dealer = dealer
        self.calls: list[Call] = []
        self.high_seat: int | None = None
        self.high_bid = 0
        self.closed = False  # a max bid was made: no bids after it (AP-BID-3, TP-BID-1)
        self.violations: list[Violation] = []
        self.bidder: int | None = None
        self.bid: int | None = None
        self.stuck = False

    def next_seat(self) -> int:
        """Whose call it is: from the dealer's left, clockwise (AP-BID-1)."""
        return (self.dealer + 1 + len(self.calls)) % self.n

    def _bad(self, purpose: str, message: str, at: str) -> None:
        rule = self.fam.rule(purpose)
        self.violations.append(Violation("R404", rule, message, at))

    def legal_calls(self) -> list[int | None]:
        """The calls the player to act may make (used by ``simulate``)."""
        if self.closed:
            return [PASS]
        seat = self.next_seat()
        is_dealer = seat == self.dealer
        nobody = self.high_seat is None
        low = self.high_bid + 1
        if is_dealer and nobody:
            low = max(low, self.p.stuck_bid)
        if is_dealer and self.p.steal and not nobody and self.high_bid < self.p.max_bid:
            low = self.high_bid  # AP-BID-5
        out: list[int | None] = list(range(max(low, self.p.min_bid), self.p.max_bid + 1))
        if not (is_dealer and nobody and not self.fam.stuck_dealer_may_pass):
            out.insert(0, PASS)
        return out

    def call(self, bid: int | None, at: str = "") -> None:
        """Record the next call, reporting what makes it illegal."""
        if len(self.calls) >= self.n:
            self._bad("calls", f"one call too many: each of the {self.n} players calls once", at)
            return
        seat = self.next_seat()
        who = self.players[seat]
        is_dealer = seat == self.dealer
        nobody = self.high_seat is None
        if bid is PASS:
            kind = "pass"
            if is_dealer and nobody:
                if self.fam.stuck_dealer_may_pass:
                    kind = "stuck"  # TP-BID-1: the dealer is stuck with the minimum
                else:
                    self._bad("stuck", f"{who}, the dealer, passed although nobody had bid: "
                              f"the dealer must bid at least {self.p.stuck_bid}", at)
            self.calls.append(Call(seat, None, kind, at))
            return
        kind = "bid"
        was_closed = self.closed
        if self.closed:
            self._bad("bid_closed", f"{who} bid {bid} after the auction was closed by a bid of "
                      f"{self.p.max_bid}; nobody may bid after it", at)
        elif not self.p.min_bid <= bid <= self.p.max_bid:
            # The family's range comes from the profile (AP-BID-2: 1 to 4;
            # TP-BID-1: 5 to 10), so the wording follows the family's data.
            self._bad("bid_range", f"{who} bid {bid}; a call is pass or {self.p.min_bid} to "
                      f"{self.p.max_bid}", at)
        elif is_dealer and nobody and bid < self.p.stuck_bid:
            self._bad("stuck", f"{who}, the dealer, bid {bid} although nobody had bid: "
                      f"the dealer must bid at least {self.p.stuck_bid}", at)
        elif bid <= self.high_bid:
            steal_ok = (is_dealer and self.p.steal and bid == self.high_bid
                        and self.high_bid < self.p.max_bid)
            if steal_ok:
                kind = "steal"  # AP-BID-5
            else:
                assert self.high_seat is not None
                self._bad("bid_higher", f"{who} bid {bid}, not higher than the {self.high_bid} "
                          f"bid by {self.players[self.high_seat]}", at)
        if is_dealer and nobody and kind == "bid":
            kind = "stuck"
        if bid == self.p.max_bid and kind == "bid":
            kind = "max"
        # An illegal bid still counts when it is in range and the auction was
        # open, so that the rest of the hand is checked against it.
        in_range = self.p.min_bid <= bid <= self.p.max_bid
        if in_range and not was_closed and (kind == "steal" or bid > self.high_bid):
            self.high_bid, self.high_seat = bid, seat
        if in_range and bid >= self.p.max_bid:
            self.closed = True
        self.calls.append(Call(seat, bid, kind, at))

    def close(self, at: str = "") -> None:
        """End the auction: the calls left out after a closing bid are passes;
        otherwise every player must have called (AP-BID-1). Sets ``bidder`` and
        ``bid`` (AP-BID-6; the stuck dealer of TP-BID-1 / AP-BID-4)."""
        if len(self.calls) < self.n:
            if self.closed:
                while len(self.calls) < self.n:
                    self.calls.append(Call(self.next_seat(), None, "implied", at))
            else:
                missing = ", ".join(self.players[(self.dealer + 1 + i) % self.n]
                                    for i in range(len(self.calls), self.n))
                self._bad("calls", f"{len(self.calls)} calls for {self.n} players: "
                          f"missing the call of {missing}", at)
        if self.high_seat is None:
            # Everybody passed: the dealer is stuck (TP-BID-1), or broke AP-BID-4
            # and is taken as stuck so that the hand can still be checked.
            self.bidder, self.bid, self.stuck = self.dealer, self.p.stuck_bid, True
        else:
            self.bidder, self.bid = self.high_seat, self.high_bid
