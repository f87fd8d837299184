"""What a call was, how trump was set and what a hand record shows: the
kinds the event log (``engine.events``) and the public results
(``pitchcli.api``) share, in a module of their own so that reading them
costs neither the event log's records (start-up, issue 22)."""

from __future__ import annotations

from enum import StrEnum


class CallKind(StrEnum):
    """What a call was (AP-BID-*, TP-BID-1)."""

    PASS = "pass"
    BID = "bid"
    CLOSING = "closing"  # the bid that closes the auction: AP-BID-3's 4, TP-BID-1's 10
    STEAL = "steal"  # AP-BID-5
    STUCK = "stuck"  # the dealer bidding, or stuck with the bid, because nobody else did
    IMPLIED = "implied"  # a pass left out of the record after a closing bid


class TrumpBy(StrEnum):
    """How trump was set: named by the bidder (TP-TRUMP-1) or by the first
    card led (AP-PLAY-1)."""

    NAMED = "named"
    FIRST_LEAD = "first-lead"


class Level(StrEnum):
    """What a hand record shows: the deal and the play, the play only, or
    only who took which points (a tally)."""

    FULL = "full"
    PLAY = "play"
    TALLY = "tally"


CALL_KINDS = {"pass": CallKind.PASS, "bid": CallKind.BID, "max": CallKind.CLOSING,
              "steal": CallKind.STEAL, "stuck": CallKind.STUCK, "implied": CallKind.IMPLIED}
"""The engine's word for a call (``Call.kind``) -> its ``CallKind``."""

__all__ = ["CALL_KINDS", "CallKind", "Level", "TrumpBy"]
