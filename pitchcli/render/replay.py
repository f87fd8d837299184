"""Replays rendered: sentences (``TextRenderer``) or the ``pitch-replay/2``
event stream as JSON Lines, both from the one typed event log
(``pitchcli.views.replay``), so the two never disagree."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

from pitchcli import escape
from pitchcli.api.checking import seated_game
from pitchcli.api.games import (
    CallMade,
    CardPlayed,
    ContractSet,
    Discarded,
    Drew,
    Game,
    HandSettled,
    HandStarted,
    PartnerCalled,
    PointsTaken,
    TrickStarted,
    TrickWon,
    TrumpSet,
)
from pitchcli.api.kinds import CallKind, Scoring, WonWith
from pitchcli.cards import SUIT_NAMES, SUIT_SINGULAR
from pitchcli.diagnostics import Diagnostic
from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.driver import SEE_VALIDATE, GameConsumer
from pitchcli.views.replay import Event, GameClosed, GameOpened, dealers, events, log, with_problems


def write_jsonl(evs: Iterable[dict[str, Any]], out: TextIO) -> None:
    """The event stream as JSON Lines."""
    for e in evs:
        out.write(json.dumps(e, ensure_ascii=False) + "\n")


# --------------------------------------------------------------------------
# Text


def _signed_map(units: tuple[str, ...], values: Iterable[int]) -> str:
    return ", ".join(f"{k} {'+' if v > 0 else ''}{v}" for k, v in zip(units, values, strict=True))


class TextRenderer:
    """Renders the typed event log as sentences (a few lines per trick)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.game: Game | None = None
        self.players: tuple[str, ...] = ()
        self.units: tuple[str, ...] = ()
        self.trump: str | None = None
        self.by_lead = False
        self.plays: list[str] = []
        self.leader = ""
        self.sides = False
        self.unscored: set[int] = set()
        self.dealers: list[str] = []
        # A hand's discards and draws, each kind on one line (``flush_exchange``).
        self.exchange: dict[str, list[str]] = {}

    def w(self, text: str = "") -> None:
        """Write one line."""
        self.out.write(escape.text(text) + "\n")  # a name can't forge a line

    def render(self, evs: Iterable[Event | Diagnostic]) -> None:
        """Write every event as sentences."""
        handlers = {GameOpened: self.on_game, HandStarted: self.on_hand, CallMade: self.on_call,
                    ContractSet: self.on_contract, TrumpSet: self.on_trump,
                    PartnerCalled: self.on_nothing, Discarded: self.on_exchange, Drew: self.on_exchange,
                    TrickStarted: self.on_trick, CardPlayed: self.on_play, TrickWon: self.on_trick_won,
                    PointsTaken: self.on_points, HandSettled: self.on_hand_end, GameClosed: self.on_game_end,
                    Diagnostic: self.on_problem}
        for e in evs:
            if self.exchange and not isinstance(e, Discarded | Drew):
                self.flush_exchange()
            handlers[type(e)](e)  # type: ignore[operator]
        self.flush_exchange()

    def on_nothing(self, e: Event) -> None:
        """Events the text leaves to others (the contract line names the partner)."""

    def on_exchange(self, e: Discarded | Drew) -> None:
        """A player's discards or draws (ten-point), kept for the hand's line of each."""
        kind = "Discards" if isinstance(e, Discarded) else "Draws"
        cards = " ".join(c.text for c in e.cards) or "none"
        self.exchange.setdefault(kind, []).append(f"{self.players[e.seat]} {cards}")

    def flush_exchange(self) -> None:
        """One line per kind, in the log's order: ``Discards: Ann 7D 5D; Ben QS.``
        (a list of who did what, not a claim about who did it first)."""
        for kind, parts in self.exchange.items():
            self.w(f"  {kind}: {'; '.join(parts)}.")
        self.exchange.clear()

    def on_problem(self, d: Diagnostic) -> None:
        """A problem of an invalid record, where it happens (``w`` escapes the
        message: it quotes the record)."""
        rule = f" [{d.rule}]" if d.rule else ""
        where = f" (line {d.line}, column {d.column or 1})" if d.line is not None else ""
        self.w(f"  ! {d.severity}: {d.code}{rule} {d.message}{where}")

    def on_game(self, e: GameOpened) -> None:
        """The game's heading."""
        g = e.game
        self.game, self.players, self.units = g, g.players, g.sides
        seats = ", ".join(g.players)
        teams = ""
        if g.teams:
            teams = "; teams " + "; ".join(f"{side}: {' & '.join(members)}" for side, members in g.teams.items())
        n = len(g.hands)
        self.w(f"{g.variant}: {seats}{teams}; target {g.target}; {n} hand{'' if n == 1 else 's'} recorded.")

    def on_hand(self, e: HandStarted) -> None:
        """A hand starts: who deals."""
        self.w()
        self.trump, self.by_lead = None, False
        dealer = self.players[e.dealer] if e.dealer is not None else self.dealers[e.hand - 1] \
            if e.hand <= len(self.dealers) else "?"
        self.w(f"Hand {e.hand}: {dealer} deals.")
        if e.level is None:
            self.w("  Only the auction is recorded: the hand can't be replayed or scored yet.")
        elif e.level == "tally":
            self.w("  A tally hand (the contract and who won which points, no cards): it can be "
                   "scored but not replayed.")

    def on_call(self, e: CallMade) -> None:
        """One call of the auction, named (pass, bid, pitch, steal, stuck dealer)."""
        who, call = self.players[e.seat], e.bid
        closing = self.game.words.closes if self.game else "bids"
        text = {
            CallKind.PASS: f"{who} passes",
            CallKind.BID: f"{who} bids {call}",
            CallKind.CLOSING: f"{who} {closing} {call}, which closes the auction",
            CallKind.STEAL: f"{who}, the dealer, steals the bid at {call}",
            CallKind.IMPLIED: f"{who} passes (not recorded: the auction was closed)",
        }.get(e.kind)
        if e.kind is CallKind.STUCK:
            text = (f"{who}, the dealer, passes and is stuck with the bid" if call is None else
                    f"{who}, the dealer, must bid since nobody else did: {call}")
        self.w(f"  {text}.")

    def on_contract(self, e: ContractSet) -> None:
        """The contract: bidder, bid, trump, called partner."""
        assert self.game is not None
        g = self.game
        text = f"  {self.players[e.bidder]} is the {g.words.role} with {e.bid}"
        self.trump = e.trump
        self.sides = bool(self.game.teams) or bool(e.called)
        if g.trump_named and e.trump:
            text += f" and names {SUIT_NAMES[e.trump]} trump"
        if e.called:
            partner = (" and ".join(self.players[s] for s in e.partners) if e.partners else
                       "nobody: the bidder holds it and plays alone")
            text += f"; the call is {' and '.join(c.text for c in e.called)}: partner {partner}"
        self.w(text + ".")

    def on_trump(self, e: TrumpSet) -> None:
        """Trump set by the first lead is told with the first trick."""
        self.by_lead = e.by == "first-lead"

    def on_trick(self, e: TrickStarted) -> None:
        """A trick starts: who leads."""
        self.leader = self.players[e.leader]
        self.plays = []

    def on_play(self, e: CardPlayed) -> None:
        """One card played (collected for the trick's line)."""
        self.plays.append(f"{self.players[e.seat]} {e.card.text}")

    def on_trick_won(self, e: TrickWon) -> None:
        """Who won the trick, why, and what was captured."""
        assert self.game is not None
        n = e.trick
        self.w(f"  Trick {n}, led by {self.leader}: {', '.join(self.plays)}.")
        if n == 1 and self.by_lead and self.trump:
            self.w(f"    The first card led makes {SUIT_NAMES[self.trump]} trump.")
        if e.reason is WonWith.NONE or e.winner is None or e.card is None:
            self.w(f"    No trump in it: nobody wins it, and {self.leader} leads again.")
            return
        if e.reason is WonWith.TRUMP:
            why = "the highest trump"
        else:
            why = f"the highest {SUIT_SINGULAR[e.suit_led or 'S']}, the suit led"
        value = ""
        kept = {c for c, _, _ in e.kept}
        if e.value and self.game.scoring is Scoring.AWARDS:
            value = f" ({e.value} game point{'' if e.value == 1 else 's'})"
        elif e.value:
            pc = [c.text for c, _ in e.point_cards if c not in kept]
            value = f" ({' '.join(pc)}: {e.value} point{'' if e.value == 1 else 's'})"
        self.w(f"    {self.players[e.winner]} wins with {e.card.text}, {why}, and takes "
               f"{' '.join(c.text for c in e.cards)}{value}.")
        for c, v, seat in e.kept:
            self.w(f"    {c.text} scores {v} for {self.players[seat]}, who played it.")

    def on_points(self, e: PointsTaken) -> None:
        """The hand's points."""
        if e.awards:
            parts = []
            for a in e.awards:
                label = a.kind.capitalize()
                if a.unit is None:
                    parts.append(f"{label}: not awarded ({'not in play' if a.kind == 'jack' else 'tied'})")
                else:
                    parts.append(f"{label}{' ' + a.card.text if a.card else ''}: {self.units[a.unit]}")
            self.w("  Points: " + "; ".join(parts) + ".")
            if e.game_points:
                gp = sorted(zip(self.units, e.game_points, strict=True), key=lambda kv: -kv[1])
                self.w("  Game points: " + ", ".join(f"{u} {v}" for u, v in gp) + ".")
        else:
            self.w("  Points taken: " + ", ".join(f"{u} {v}" for u, v in
                                                  zip(self.units, e.taken, strict=True)) + ".")

    def on_hand_end(self, e: HandSettled) -> None:
        """Made or set, the score changes and the totals."""
        if e.bidder is None or e.delta is None:
            return
        self.w(f"  {self.players[e.bidder]} bid {e.bid} and {'the side ' if self.sides else ''}took "
               f"{e.took}: {'made' if e.made else 'set back'}. "
               f"Score: {_signed_map(self.units, e.delta)}.")
        if e.totals is not None:
            self.w("  Totals: " + ", ".join(f"{u} {v}" for u, v in zip(self.units, e.totals, strict=True))
                   + ".")

    def on_game_end(self, e: GameClosed) -> None:
        """The winner, or that the game is unfinished."""
        g = e.game
        self.w()
        if g.winner is not None and g.totals is not None:
            self.w(f"{g.winner} wins the game in hand {g.winner_hand}, with {g.totals[g.winner]}.")
        elif g.totals is None:
            self.w("Unfinished: the totals are unknown after a hand that is not scored.")
        else:
            self.w(f"Unfinished: nobody has won yet (target {g.target}).")


def write_text(game: Game, out: TextIO, hand: int | None = None,
               problems: Iterable[Diagnostic] = ()) -> None:
    """The replay of ``game`` as sentences, ``problems`` (an invalid
    record's diagnostics) marked where they happen."""
    r = TextRenderer(out)
    r.dealers = dealers(game)
    r.render(with_problems(log(game, hand), problems, hand))


# --------------------------------------------------------------------------
# The formats of ``pitch replay`` (``render.formats.REPLAY``)


class ReplayRenderer:
    """Writes the replay of each game given to ``out``."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def game(self, game: Game, hand: int | None, problems: list[Diagnostic]) -> None:
        """One game (``hand``: that hand only; ``problems``: an invalid record's
        diagnostics, marked where they happen)."""


class TextReplay(ReplayRenderer):
    """Sentences, a blank line between games."""

    first = True

    def game(self, game: Game, hand: int | None, problems: list[Diagnostic]) -> None:
        """The game as sentences."""
        if not self.first:
            self.out.write("\n")
        write_text(game, self.out, hand, problems)
        self.first = False


class JsonReplay(ReplayRenderer):
    """The event stream, one JSON object per line (``pitch-replay/2``)."""

    def game(self, game: Game, hand: int | None, problems: list[Diagnostic]) -> None:
        """The game's events."""
        write_jsonl(events(game, hand, problems), self.out)


class Replaying(GameConsumer):
    """``pitch replay``'s part of the command driver. An invalid record whose
    table can be seated is replayed as far as it goes, each problem marked
    where it happens (a replay is how a revoke is found), and still exits 1."""

    refusal = "{file}: not replayed: the record is invalid ({errors}); " + SEE_VALIDATE
    partial = ("{file}: the record is invalid ({errors}): replayed as far as it goes, each problem marked "
               "where it happens; " + SEE_VALIDATE)

    def __init__(self, renderer: ReplayRenderer, err: TextIO, hand: int | None = None) -> None:
        super().__init__(err, hand)
        self.renderer = renderer

    def refusal_for(self, c: Checked) -> str | None:
        """An invalid record that can be replayed says so instead."""
        return self.partial if seated_game(c) is not None else self.refusal

    def game(self, c: Checked) -> None:
        """Replay a valid record."""
        self.replay(c, [])

    def invalid(self, c: Checked) -> None:
        """Replay an invalid record as far as it goes, if its table was seated."""
        if not c.unreadable and not c.skipped:
            self.replay(c, list(c.diagnostics))

    def replay(self, c: Checked, problems: list[Diagnostic]) -> None:
        """One game to the renderer (when its table was seated and it has the
        hand asked for)."""
        game = seated_game(c)
        if game is not None and self.has_hand(c, len(game.hands)):
            self.renderer.game(game, self.hand, problems)
