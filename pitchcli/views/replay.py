"""Replay: a game told as a stream of events, hand by hand and trick by trick.

The engine's typed event log (``pitchcli.engine.events``: frozen records with
enums, made on demand) is the replay. ``pitch replay --format json`` writes it
as JSON Lines, one object per event (``events``), and the text output renders
the same log (``TextRenderer``: a ten-point hand's ``discard`` and ``draw``
events as a line of each kind), so the two never disagree.

The JSON shape, format ``pitch-replay/2`` (named in the ``game`` event). Every
event has ``event``; every event of a hand has ``hand``, its number from 1.
Players, units and cards are written as names and card text. Version 2 keeps
every field of version 1 and adds the ones marked (v2).

``game``       format (v2), file, document (its number in the file, from 1, as in every output),
               variant, family, players, teams (or null), units (who scores:
               players, or teams), target, hands (how many are recorded),
               role (v2: ``pitcher`` or ``bidder``), scoring (v2: ``awards`` or
               ``point-cards``)
``hand``       dealer, level (``full``, ``play``, ``tally``, or null when the
               hand is not scored), replayable (false for tally hands: no cards)
``call``       player, call (``pass`` or the number bid), kind: ``pass``,
               ``bid``, ``pitch`` (the 4 that closes an Auction Pitch auction,
               AP-BID-3), ``closing`` (the ten-point 10, TP-BID-1), ``steal``
               (AP-BID-5), ``stuck`` (the dealer bidding, or stuck with the
               bid, because nobody else bid: AP-BID-4, TP-BID-1), ``implied``
               (a pass left out of the record after a closing bid)
``contract``   bidder, bid, trump (null in a tally without it), called (cards)
               and partners (ten-point called-partner profiles); recorded,
               stuck, steal (v2)
``trump``      (v2) suit, by (``named`` by the bidder, TP-TRUMP-1, or
               ``first-lead``, AP-PLAY-1)
``partner``    (v2) cards called, partners (TP5-3)
``discard``    (v2) player, cards; ``draw`` (v2) player, cards
``trick``      trick (its number), leader
``play``       trick, player, card, trump (whether the card is a trump)
``trick_won``  trick, winner (null: a trick of off cards in ten-point,
               TP-PLAY-2), card (the winning card), reason (``trump``: the
               highest trump; ``suit``: the highest card of the suit led;
               ``none``), captured (the cards, in play order), value (game
               points for Auction Pitch, AP-SCORE-4; point cards for
               ten-point, TP-POINTS-1, the 2 of trumps excepted), suit_led
               (v2); ten-point: point_cards {card: value}, two and
               two_played_by (the 2 of trumps and who played it, or null)
``points``     Auction Pitch: awards {high, low, jack, game: {unit, card,
               captured_by, played_by, trick}} and game_points per unit;
               ten-point: credits (v2) [{card, value, player, unit, played_by,
               trick, how: ``captured`` or ``played``}]; both: taken (per unit)
``hand_end``   bidder, bid, took, made, score (the change per unit), totals
               (the running totals, null when unknown), rule (v2)
``game_end``   winner (null: unfinished), hand (the hand that won it),
               totals, finished, reason and rule (v2: why the game ended,
               e.g. ``pitcher-made`` under AP-WIN-1)
``problem``    (v2) an invalid record is replayed as far as it goes, each of
               its diagnostics where it happens: after the ``trick_won`` of
               its trick, else after its hand's ``contract`` (or the ``hand``
               event when there is none), else after ``game``; what finds no
               place (a trick that wasn't replayed) comes before ``game_end``.
               Fields: hand, trick (or null), code, rule, severity, message,
               line, column, pointer (as in validate's JSON report)
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from pitchcli import escape
from pitchcli.cards import SUIT_NAMES, SUIT_SINGULAR
from pitchcli.diagnostics import Diagnostic
from pitchcli.engine.events import (
    CallKind,
    CallMade,
    CardPlayed,
    ContractSet,
    Discarded,
    Drew,
    Event,
    GameEnded,
    GameStarted,
    HandSettled,
    HandStarted,
    PartnerCalled,
    PointsTaken,
    TrickStarted,
    TrickWon,
    TrumpSet,
    game_log,
)
from pitchcli.engine.results import WonWith
from pitchcli.pipeline.feed import GameAnalysis
from pitchcli.views.scoresheet import blocking, errors_counted, refuse, write_diagnostics

FORMAT = "pitch-replay/2"
EVENTS = ("game", "hand", "call", "contract", "trump", "partner", "discard", "draw", "trick", "play",
          "trick_won", "points", "hand_end", "game_end", "problem")


def log(analysis: GameAnalysis, hand: int | None = None) -> Iterator[Event]:
    """The typed event log of an analysed game (``hand``: only that hand)."""
    assert analysis.table is not None, "replay needs a game that could be set up"
    return game_log(analysis.table, analysis.hands, analysis.totals, hand)


def _hand_records(analysis: GameAnalysis) -> list[Any]:
    """The record's hands as written: an invalid record is replayed too, and
    its ``hands`` may be no list at all (then there is none to read)."""
    hands = analysis.record.get("hands")
    return hands if isinstance(hands, list) else []


def with_problems(evs: Iterable[Event], problems: Iterable[Diagnostic],
                  hand: int | None = None) -> Iterator[Event | Diagnostic]:
    """The events with each diagnostic placed where it happens: after its
    trick's ``TrickWon``, else after its hand's ``ContractSet`` (or the hand's
    start when it has none), else after ``GameStarted``; what finds no place (a
    trick that wasn't replayed) comes before ``GameEnded``. With ``hand``, only
    that hand's diagnostics and the game's own."""
    left = {i: d for i, d in enumerate(problems) if hand is None or d.hand in (None, hand)}

    def take(match: Any) -> list[Diagnostic]:
        return [left.pop(i) for i in [i for i, d in left.items() if match(d)]]

    def of_hand(n: int) -> list[Diagnostic]:
        return take(lambda d: d.hand == n and d.trick is None)

    # A hand's events wait until its contract comes: its own problems follow the
    # contract, or, in a hand that has none, its start. (Bounded: the calls.)
    waiting: list[Event] = []

    def flush(contract: bool) -> Iterator[Event | Diagnostic]:
        head, rest = waiting[:1], waiting[1:]
        waiting.clear()
        yield from head
        if head and not contract and isinstance(head[0], HandStarted):
            yield from of_hand(head[0].hand)
        yield from rest

    for e in evs:
        if isinstance(e, HandStarted | GameEnded | HandSettled):
            yield from flush(False)  # the hand (if one waits) had no contract
        elif waiting and not isinstance(e, ContractSet):
            waiting.append(e)
            continue
        yield from flush(True)
        if isinstance(e, HandStarted):
            waiting.append(e)
            continue
        if isinstance(e, GameEnded):
            yield from take(lambda d: True)
        yield e
        if isinstance(e, GameStarted):
            yield from take(lambda d: d.hand is None)
        elif isinstance(e, ContractSet):
            yield from of_hand(e.hand)
        elif isinstance(e, TrickWon):
            yield from take(lambda d, n=e.hand, t=e.trick: d.hand == n and d.trick == t)
    yield from flush(False)
    yield from take(lambda d: True)


class _Json:
    """Serialises typed events as plain mappings (the ``pitch-replay/2`` shape)."""

    def __init__(self, analysis: GameAnalysis, file: str | None, document: int | None) -> None:
        self.a = analysis
        self.file, self.document = file, document
        self.players: tuple[str, ...] = ()
        self.units: tuple[str, ...] = ()
        self.closing = "closing"
        self.records = _hand_records(analysis)

    def p(self, seat: int | None) -> str | None:
        return None if seat is None else self.players[seat]

    def per_unit(self, values: Iterable[int] | None) -> dict[str, int] | None:
        return None if values is None else dict(zip(self.units, values, strict=True))

    def __call__(self, e: Event | Diagnostic) -> dict[str, Any]:
        if isinstance(e, Diagnostic):
            return {"event": "problem", "hand": e.hand, "trick": e.trick, "code": e.code,
                    "rule": e.rule, "severity": e.severity, "message": e.message, "line": e.line,
                    "column": e.column, "pointer": e.pointer or "/"}
        if isinstance(e, GameStarted):
            self.players, self.units = e.players, e.units
            self.closing = e.family.words.closing
            head: dict[str, Any] = {"event": "game", "format": FORMAT}
            if self.file is not None:
                head.update(file=self.file, document=self.document)
            return {**head, "variant": e.variant, "family": e.family.name, "players": list(e.players),
                    "teams": {e.units[u]: [e.players[s] for s in seats] for u, seats in enumerate(e.teams)}
                    or None, "units": list(e.units), "target": e.target, "hands": e.hands,
                    "role": e.family.words.role, "scoring": e.family.scoring.value}
        if isinstance(e, HandStarted):
            dealer = self.p(e.dealer)
            if dealer is None:  # an unscored hand: the dealer as recorded
                rec = self.records[e.hand - 1] if e.hand <= len(self.records) else {}
                dealer = str(rec.get("dealer", "?")) if isinstance(rec, dict) else "?"
            return {"event": "hand", "hand": e.hand, "dealer": dealer,
                    "level": None if e.level is None else e.level.value,
                    "replayable": e.level is not None and e.level != "tally"}
        if isinstance(e, CallMade):
            kind = self.closing if e.kind is CallKind.CLOSING else e.kind.value
            return {"event": "call", "hand": e.hand, "player": self.p(e.seat),
                    "call": "pass" if e.bid is None else e.bid, "kind": kind}
        if isinstance(e, ContractSet):
            return {"event": "contract", "hand": e.hand, "bidder": self.p(e.bidder), "bid": e.bid,
                    "trump": e.trump, "called": [c.text for c in e.called],
                    "partners": [self.p(s) for s in e.partners], "recorded": e.recorded,
                    "stuck": e.dealer_bid, "steal": e.stolen}
        if isinstance(e, TrumpSet):
            return {"event": "trump", "hand": e.hand, "suit": e.trump, "by": e.by.value}
        if isinstance(e, PartnerCalled):
            return {"event": "partner", "hand": e.hand, "cards": [c.text for c in e.cards],
                    "partners": [self.p(s) for s in e.partners]}
        if isinstance(e, Discarded | Drew):
            return {"event": "discard" if isinstance(e, Discarded) else "draw", "hand": e.hand,
                    "player": self.p(e.seat), "cards": [c.text for c in e.cards]}
        if isinstance(e, TrickStarted):
            return {"event": "trick", "hand": e.hand, "trick": e.trick, "leader": self.p(e.leader)}
        if isinstance(e, CardPlayed):
            return {"event": "play", "hand": e.hand, "trick": e.trick, "player": self.p(e.seat),
                    "card": e.card.text, "trump": e.trump}
        if isinstance(e, TrickWon):
            won: dict[str, Any] = {
                "event": "trick_won", "hand": e.hand, "trick": e.trick, "winner": self.p(e.winner),
                "card": None if e.card is None else e.card.text, "reason": e.reason.value,
                "captured": [c.text for c in e.cards], "value": e.value, "suit_led": e.suit_led}
            if e.point_cards or e.kept or not self.a.family or not self.a.family.scores_awards:
                won["point_cards"] = {c.text: v for c, v in e.point_cards}
                won["two"] = e.kept[0][0].text if e.kept else None
                won["two_played_by"] = self.p(e.kept[0][2]) if e.kept else None
            return won
        if isinstance(e, PointsTaken):
            pts: dict[str, Any] = {"event": "points", "hand": e.hand}
            if e.awards:
                pts["awards"] = {a.kind: {"unit": None if a.unit is None else self.units[a.unit],
                                          "card": None if a.card is None else a.card.text,
                                          "captured_by": self.p(a.captured_by),
                                          "played_by": self.p(a.played_by), "trick": a.trick}
                                 for a in e.awards}
                pts["game_points"] = self.per_unit(e.game_points) if e.game_points else None
            if e.credits:
                pts["credits"] = [{"card": c.card.text, "value": c.value, "player": self.p(c.seat),
                                   "unit": self.units[c.unit], "played_by": self.p(c.played_by),
                                   "trick": c.trick, "how": c.how.value} for c in e.credits]
            pts["taken"] = self.per_unit(e.taken)
            return pts
        if isinstance(e, HandSettled):
            return {"event": "hand_end", "hand": e.hand, "bidder": self.p(e.bidder), "bid": e.bid,
                    "took": e.took, "made": e.made, "score": self.per_unit(e.delta),
                    "totals": self.per_unit(e.totals), "rule": e.rule}
        assert isinstance(e, GameEnded)
        return {"event": "game_end", "winner": None if e.winner is None else self.units[e.winner],
                "hand": e.hand, "totals": self.per_unit(e.totals), "finished": e.winner is not None,
                "reason": None if e.reason is None else e.reason.value, "rule": e.rule}


def events(analysis: GameAnalysis, hand: int | None = None, file: str | None = None,
           document: int | None = None, sheet: object = None,
           problems: Iterable[Diagnostic] = ()) -> Iterator[dict[str, Any]]:
    """The replay as plain mappings, the ``pitch-replay/2`` shape (see the
    module docstring); ``file`` and ``document`` go in the ``game`` event;
    ``problems`` (an invalid record's diagnostics) become ``problem`` events
    where they happen. (``sheet`` is accepted for callers written against
    version 1 and unused: the events come from the engine's log, not from a
    score sheet.)"""
    as_json = _Json(analysis, file, document)
    return (as_json(e) for e in with_problems(log(analysis, hand), problems, hand))


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
        self.game: GameStarted | None = None
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
        handlers = {GameStarted: self.on_game, HandStarted: self.on_hand, CallMade: self.on_call,
                    ContractSet: self.on_contract, TrumpSet: self.on_trump,
                    PartnerCalled: self.on_nothing, Discarded: self.on_exchange, Drew: self.on_exchange,
                    TrickStarted: self.on_trick, CardPlayed: self.on_play, TrickWon: self.on_trick_won,
                    PointsTaken: self.on_points, HandSettled: self.on_hand_end, GameEnded: self.on_game_end,
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

    def on_game(self, e: GameStarted) -> None:
        """The game's heading."""
        self.game, self.players, self.units = e, e.players, e.units
        seats = ", ".join(e.players)
        teams = ""
        if e.teams:
            teams = "; teams " + "; ".join(f"{e.units[u]}: {' & '.join(e.players[s] for s in seats_)}"
                                           for u, seats_ in enumerate(e.teams))
        self.w(f"{e.variant}: {seats}{teams}; target {e.target}; {e.hands} "
               f"hand{'' if e.hands == 1 else 's'} recorded.")

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
        closing = self.game.family.words.closes if self.game else "bids"
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
        fam = self.game.family
        text = f"  {self.players[e.bidder]} is the {fam.words.role} with {e.bid}"
        self.trump = e.trump
        self.sides = bool(self.game.teams) or bool(e.called)
        if fam.trump_named and e.trump:
            text += f" and names {SUIT_NAMES[e.trump]} trump"
        if e.called:
            partner = (" and ".join(self.players[s] for s in e.partners) if e.partners else
                       "nobody: he holds it himself and plays alone")
            text += f"; he calls {' and '.join(c.text for c in e.called)}: partner {partner}"
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
        if e.value and self.game.family.scores_awards:
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
        self.w(f"  {self.players[e.bidder]} bid {e.bid} and {'his side ' if self.sides else ''}took "
               f"{e.took}: {'made' if e.made else 'set back'}. "
               f"Score: {_signed_map(self.units, e.delta)}.")
        if e.totals is not None:
            self.w("  Totals: " + ", ".join(f"{u} {v}" for u, v in zip(self.units, e.totals, strict=True))
                   + ".")

    def on_game_end(self, e: GameEnded) -> None:
        """The winner, or that the game is unfinished."""
        self.w()
        if e.winner is not None and e.totals is not None:
            self.w(f"{self.units[e.winner]} wins the game in hand {e.hand}, with {e.totals[e.winner]}.")
        elif e.totals is None:
            self.w("Unfinished: the totals are unknown after a hand that is not scored.")
        else:
            self.w(f"Unfinished: nobody has won yet (target {self.game.target if self.game else 0}).")


def write_text(analysis: GameAnalysis, out: TextIO, hand: int | None = None,
               problems: Iterable[Diagnostic] = ()) -> None:
    """The replay of ``analysis`` as sentences, ``problems`` (an invalid
    record's diagnostics) marked where they happen."""
    r = TextRenderer(out)
    recs = _hand_records(analysis)
    r.dealers = [str(h.get("dealer", "?")) if isinstance(h, dict) else "?" for h in recs]
    r.render(with_problems(log(analysis, hand), problems, hand))


def run(checked: Iterable[Any], out: TextIO, err: TextIO, hand: int | None = None,
        fmt: str = "text") -> int:
    """Replay every checked document; return the exit status (0 ok, 1 an invalid
    record or a missing hand, 3 an unreadable input). An invalid record whose
    table can be seated is replayed as far as it goes, each problem marked
    where it happens (a replay is how a revoke is found), and still exits 1."""
    failed = unreadable = False
    first = True
    for c in checked:
        problems: list[Diagnostic] = []
        if not c.unreadable and not c.skipped and c.analysis is not None \
                and c.analysis.table is not None and blocking(c):
            write_diagnostics(c, err)
            err.write(f"{escape.text(c.file)}: the record is invalid ({errors_counted(c)}): replayed as "
                      f"far as it goes, each problem marked where it happens; see `pitch validate`\n")
            problems, failed = list(c.diagnostics), True
        refused = None if problems else refuse(c, err, "not replayed")
        if refused:
            unreadable = unreadable or refused == "unreadable"
            failed = failed or refused == "invalid"
            continue
        count = len(c.analysis.hands)
        if hand is not None and hand > count:
            err.write(f"{escape.text(c.file)}: there is no hand {hand}: the game has {count} "
                      f"hand{'' if count == 1 else 's'}\n")
            failed = True
            continue
        if fmt == "json":
            # documents count from 1
            write_jsonl(events(c.analysis, hand, c.file, c.index + 1, problems=problems), out)
        else:
            if not first:
                out.write("\n")
            write_text(c.analysis, out, hand, problems)
        first = False
    return 3 if unreadable else 1 if failed else 0
