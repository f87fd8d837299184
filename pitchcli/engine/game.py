"""A game: hands in order, dealer rotation, running totals and the winner."""

from __future__ import annotations

from pitchcli.engine.family import Family, WinBy, family_for
from pitchcli.engine.hand import HandResult, HandState
from pitchcli.engine.outcome import EndReason, GameEnd, NotWon, TargetNote
from pitchcli.engine.table import Table
from pitchcli.engine.violations import Violation
from pitchcli.profiles import Profile


class GameState:
    """Hands are started with ``begin_hand`` and ended with ``end_hand``.

    ``totals`` are per unit (player or team). ``known`` turns false after a hand
    that could not be scored: later totals and the winner are then unknown.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.p = table.profile
        self.fam: Family = family_for(self.p.family, self.p.mode)
        self.totals = [0] * len(table.unit_names)
        self.hands: list[HandResult | None] = []
        # AP-DEAL-2 is judged against the hand before (RULES.md, "A game's end"):
        # the last hand whose dealer is known, and its number.
        self.last_dealer: int | None = None
        self.last_dealt: int = 0
        self.winner: int | None = None  # a unit
        self.won_after: int | None = None  # number of the hand that ended the game
        self.known = True

    def begin_hand(self, dealer: int, at: str = "") -> tuple[HandState, list[Violation]]:
        """Start the next hand, checking the dealer (AP-DEAL-2, TP-DEAL-1) and
        that the game is not already won (AP-WIN-1, TP-WIN-1)."""
        number = len(self.hands) + 1
        violations: list[Violation] = []
        # The recorded dealer of the hand before (or of the last hand whose
        # dealer is known) sets who deals this one: one wrong dealer is one
        # error, not a cascade over every later hand.
        expected = (dealer if self.last_dealer is None else
                    self.table.left_of(self.last_dealer, number - self.last_dealt))
        self.last_dealer, self.last_dealt = dealer, number
        if dealer != expected:
            rule = self.fam.rule("dealer")
            violations.append(Violation(
                "R405", rule, f"hand {number} is dealt by {self.table.players[dealer]}, but the "
                f"deal passes to the left after every hand, so {self.table.players[expected]} "
                "deals it", at + "/dealer",
                details={"claimed": self.table.players[dealer],
                         "derived": self.table.players[expected]}))
        if self.winner is not None:
            rule = self.fam.rule("won")
            violations.append(Violation(
                "R412", rule, f"hand {number} is recorded after the game was won by "
                f"{self.table.unit_names[self.winner]} in hand {self.won_after}", at))
        return HandState(self.table, dealer, number, at), violations

    def skip_hand(self, dealer: int | None) -> None:
        """A hand that can't be replayed (malformed): its dealer, when known,
        is still the one the next hand's dealer is judged against, and the
        totals become unknown."""
        if dealer is not None:
            self.last_dealer, self.last_dealt = dealer, len(self.hands) + 1
        self.end_hand(None)

    def end_hand(self, result: HandResult | None) -> None:
        """Add a scored hand (``None``: unscorable) and decide whether the game is won.

        A hand after the game was won is not part of the game (AP-WIN-1,
        TP-WIN-1; RULES.md, "A game's end"): it is kept in ``hands`` (it was
        checked) but its scores enter neither the totals nor the result."""
        self.hands.append(result)
        if self.winner is not None:
            return
        if result is None:
            self.known = False
            return
        if not self.known:
            return
        for u, d in enumerate(result.delta):
            self.totals[u] += d
        result.totals = list(self.totals)
        at_target = tuple(u for u, t in enumerate(self.totals) if t >= self.p.target)
        if not at_target:
            return
        w, reason = self._winner(result, at_target)
        if w is not None and reason is not None:
            self.winner, self.won_after = w, result.number
            rule = "AP-WIN-1" if self.fam.win_by is WinBy.PITCHER else "TP-WIN-1"
            result.end = GameEnd(w, result.number, reason, rule, self.totals[w], at_target)
        else:
            result.at_target = self._not_won(result, at_target)

    def _not_won(self, r: HandResult, at_target: tuple[int, ...]) -> tuple[TargetNote, ...]:
        """Why each unit at or above the target did not win (AP-WIN-2/3, TP-WIN-1)."""
        if self.fam.win_by is WinBy.HIGHEST:
            return tuple(TargetNote(u, self.totals[u], NotWon.TIED, "TP-WIN-1") for u in at_target)
        pitcher = self.table.unit_of[r.bidder]
        return tuple(TargetNote(u, self.totals[u], NotWon.SET, "AP-WIN-3") if u == pitcher else
                     TargetNote(u, self.totals[u], NotWon.NOT_PITCHER, "AP-WIN-2")
                     for u in at_target)

    def _winner(self, r: HandResult, at_target: tuple[int, ...]) -> tuple[int | None, EndReason | None]:
        return game_won(self.fam, self.p, self.table.unit_of, self.totals, at_target, r.bidder, r.made,
                        r.bidding_units, r.card_holders)


def game_won(fam: Family, p: Profile, unit_of: tuple[int, ...], totals: list[int],
             at_target: tuple[int, ...], bidder: int, made: bool, bidding_units: frozenset[int],
             card_holders: list[int]) -> tuple[int | None, EndReason | None]:
    """Who wins the game at the end of a hand with ``at_target`` (the units
    at or above the target, after ``totals``), and why; ``(None, None)``: the
    game goes on (AP-WIN-1..3, TP-WIN-1)."""
    if fam.win_by is WinBy.PITCHER:
        # AP-WIN-1..3: only the pitcher('s team) can win, at the target, and
        # (unless win_on_set) only when he made his bid.
        u = unit_of[bidder]
        if u in at_target and (made or p.win_on_set):
            return u, EndReason.PITCHER_MADE if made else EndReason.PITCHER_SET
        return None, None
    # TP-WIN-1
    bidding = [u for u in at_target if u in bidding_units]
    if made and bidding:
        bidder_unit = unit_of[bidder]
        if bidder_unit in bidding:
            return bidder_unit, EndReason.BIDDING_SIDE
        best = max(totals[u] for u in bidding)
        top = [u for u in bidding if totals[u] == best]
        if len(top) == 1:
            return top[0], EndReason.PARTNER
        # A tie between called partners: the holder of the first card called.
        for seat in card_holders:
            if unit_of[seat] in top:
                return unit_of[seat], EndReason.PARTNER
        return top[0], EndReason.PARTNER
    best = max(totals[u] for u in at_target)
    top = [u for u in at_target if totals[u] == best]
    return (top[0], EndReason.HIGHEST) if len(top) == 1 else (None, None)
