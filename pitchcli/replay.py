"""Replay: a game told as a stream of events, hand by hand and trick by trick.

``events(analysis)`` yields plain mappings, each with an ``event`` field; the
JSON output of ``pitch replay`` is this stream, one object per line, and the
text output is rendered from the same stream, so the two never disagree.

Events, in order (every event of a hand carries ``hand``, its number from 1):

``game``       file, document (its index in the file, from 0), variant,
               family, players, teams (or null), units (who scores: players,
               or teams), target, hands (how many are recorded)
``hand``       dealer, level (``full``, ``play``, ``tally``, or null when the
               hand is not scored), replayable (false for tally hands: no cards)
``call``       player, call (``pass`` or the number bid), kind: ``pass``,
               ``bid``, ``pitch`` (the 4 that closes an Auction Pitch auction,
               AP-BID-3), ``closing`` (the ten-point 10, TP-BID-1), ``steal``
               (AP-BID-5), ``stuck`` (the dealer bidding, or stuck with the
               bid, because nobody else bid: AP-BID-4, TP-BID-1), ``implied``
               (a pass left out of the record after a closing bid)
``contract``   bidder, bid, trump (null in a tally without it), called (cards)
               and partners (ten-point called-partner profiles)
``trick``      trick (its number), leader
``play``       trick, player, card, trump (whether the card is a trump)
``trick_won``  trick, winner (null: a trick of off cards in ten-point,
               TP-PLAY-2), card (the winning card), reason (``trump``: the
               highest trump; ``suit``: the highest card of the suit led;
               ``none``), captured (the cards, in play order), value (game
               points for Auction Pitch, AP-SCORE-4; point cards for
               ten-point, TP-POINTS-1, the 2 of trumps excepted)
``points``     Auction Pitch: awards {high, low, jack, game: {unit, card,
               captured_by, played_by, trick}} and game_points per unit;
               both families: taken (points per unit)
``hand_end``   bidder, bid, made, score (the change per unit), totals (the
               running totals, null when unknown)
``game_end``   winner (null: unfinished), hand (the hand that won it),
               totals, finished
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from pitchcli import escape
from pitchcli.analysis import GameAnalysis
from pitchcli.cards import SUIT_NAMES, SUIT_SINGULAR, card
from pitchcli.engine.family import GAME_POINTS, family_for
from pitchcli.scoresheet import ScoreSheet, refuse, score_sheet

EVENTS = ("game", "hand", "call", "contract", "trick", "play", "trick_won", "points", "hand_end",
          "game_end")


def _call_kind(kind: str, auction: bool) -> str:
    if kind == "max":
        return "pitch" if auction else "closing"
    return kind


def events(analysis: GameAnalysis, hand: int | None = None,
           sheet: ScoreSheet | None = None) -> Iterator[dict[str, Any]]:
    """The replay of a valid, analysed game as events (see the module docstring).
    ``hand``: only that hand (between the ``game`` and ``game_end`` events)."""
    sheet = sheet or score_sheet(analysis)
    table, profile = analysis.table, analysis.profile
    assert table is not None and profile is not None
    players = table.players
    auction = profile.family == "auction"
    fam = family_for(profile.family, profile.mode)
    yield {"event": "game", "variant": profile.name, "family": profile.family, "players": list(players),
           "teams": sheet.teams or None, "units": list(table.unit_names), "target": profile.target,
           "hands": len(sheet.hands)}
    for hs in sheet.hands:
        if hand is not None and hs.number != hand:
            continue
        n = hs.number
        r = hs.result
        yield {"event": "hand", "hand": n, "dealer": hs.dealer, "level": hs.level,
               "replayable": r is not None and hs.level != "tally"}
        if r is None:
            yield {"event": "hand_end", "hand": n, "bidder": None, "bid": None, "took": None,
                   "made": None, "score": None, "totals": None}
            continue
        for c in r.calls:
            yield {"event": "call", "hand": n, "player": players[c.seat],
                   "call": "pass" if c.bid is None else c.bid, "kind": _call_kind(c.kind, auction)}
        yield {"event": "contract", "hand": n, "bidder": hs.bidder, "bid": hs.bid, "trump": hs.trump,
               "called": hs.called, "partners": hs.partners}
        view = fam.view(r.trump) if r.trump else None
        for t in r.tricks if hs.level != "tally" else ():
            assert view is not None
            yield {"event": "trick", "hand": n, "trick": t.number, "leader": players[t.leader]}
            for p in t.plays:
                yield {"event": "play", "hand": n, "trick": t.number, "player": players[p.seat],
                       "card": p.card.text, "trump": view.is_trump(p.card)}
            captured = [p.card for p in t.plays]
            if auction:
                value = sum(GAME_POINTS.get(c.rank, 0) for c in captured) if t.winner is not None else 0
            else:
                value = sum(view.points[c] for c in captured
                            if t.winner is not None and not (c.rank == 2 and c.suit == r.trump))
            win = t.winning_card
            won: dict[str, Any] = {
                "event": "trick_won", "hand": n, "trick": t.number,
                "winner": None if t.winner is None else players[t.winner],
                "card": win.text if win is not None else None, "reason": t.reason,
                "captured": [c.text for c in captured], "value": value}
            if not auction:
                # TP-POINTS-1: the point cards in the trick; the 2 of trumps
                # scores for whoever played it, whoever wins the trick.
                won["point_cards"] = {c.text: view.points[c] for c in captured if view.points[c]}
                two = next((p for p in t.plays if p.card.rank == 2 and p.card.suit == r.trump), None)
                won["two_played_by"] = None if two is None else players[two.seat]
            yield won
        pts: dict[str, Any] = {"event": "points", "hand": n}
        if auction:
            pts["awards"] = {k: a.as_json() for k, a in hs.awards.items()}
            pts["game_points"] = hs.game_points or None
        pts["taken"] = hs.taken
        yield pts
        yield {"event": "hand_end", "hand": n, "bidder": hs.bidder, "bid": hs.bid,
               "took": sum(hs.taken[u] for u in hs.bidding_side), "made": hs.made,
               "score": hs.change, "totals": hs.totals}
    yield {"event": "game_end", "winner": sheet.winner, "hand": sheet.winner_hand, "totals": sheet.totals,
           "finished": sheet.finished}


def write_jsonl(evs: Iterator[dict[str, Any]], out: TextIO) -> None:
    """The event stream as JSON Lines."""
    for e in evs:
        out.write(json.dumps(e, ensure_ascii=False) + "\n")


# --------------------------------------------------------------------------
# Text


def _signed_map(m: dict[str, int]) -> str:
    return ", ".join(f"{k} {'+' if v > 0 else ''}{v}" for k, v in m.items())


class TextRenderer:
    """Renders the event stream as sentences (a few lines per trick)."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.auction = True
        self.trump: str | None = None
        self.plays: list[str] = []
        self.leader = ""
        self.target = 0
        self.teams = self.sides = False

    def w(self, text: str = "") -> None:
        """Write one line."""
        self.out.write(escape.text(text) + "\n")  # a name can't forge a line

    def render(self, evs: Iterator[dict[str, Any]]) -> None:
        """Write every event as sentences, calling ``on_<event>``."""
        for e in evs:
            getattr(self, "on_" + e["event"])(e)

    def on_game(self, e: dict[str, Any]) -> None:
        """The game's heading."""
        self.auction = e["family"] == "auction"
        self.target = e["target"]
        self.teams = bool(e["teams"])
        seats = ", ".join(e["players"])
        teams = ""
        if e["teams"]:
            teams = "; teams " + "; ".join(f"{t}: {' & '.join(m)}" for t, m in e["teams"].items())
        self.w(f"{e['variant']}: {seats}{teams}; target {e['target']}; {e['hands']} "
               f"hand{'' if e['hands'] == 1 else 's'} recorded.")

    def on_hand(self, e: dict[str, Any]) -> None:
        """A hand starts: who deals."""
        self.w()
        self.w(f"Hand {e['hand']}: {e['dealer']} deals.")
        if e["level"] is None:
            self.w("  Only the auction is recorded: the hand can't be replayed or scored yet.")
        elif e["level"] == "tally":
            self.w("  A tally hand (the contract and who won which points, no cards): it can be "
                   "scored but not replayed.")

    def on_call(self, e: dict[str, Any]) -> None:
        """One call of the auction, named (pass, bid, pitch, steal, stuck dealer)."""
        who, call, kind = e["player"], e["call"], e["kind"]
        text = {
            "pass": f"{who} passes",
            "bid": f"{who} bids {call}",
            "pitch": f"{who} pitches: bids {call}, which closes the auction",
            "closing": f"{who} bids {call}, which closes the auction",
            "steal": f"{who}, the dealer, steals the bid at {call}",
            "implied": f"{who} passes (not recorded: the auction was closed)",
        }.get(kind)
        if kind == "stuck":
            text = (f"{who}, the dealer, passes and is stuck with the bid" if call == "pass" else
                    f"{who}, the dealer, must bid since nobody else did: {call}")
        self.w(f"  {text}.")

    def on_contract(self, e: dict[str, Any]) -> None:
        """The contract: bidder, bid, trump, called partner."""
        role = "pitcher" if self.auction else "bidder"
        text = f"  {e['bidder']} is the {role} with {e['bid']}"
        self.trump = e["trump"]
        self.sides = self.teams or bool(e["called"])
        if not self.auction and e["trump"]:
            text += f" and names {SUIT_NAMES[e['trump']]} trump"
        if e["called"]:
            partner = (" and ".join(e["partners"]) if e["partners"] else "nobody: he holds it himself "
                       "and plays alone")
            text += f"; he calls {' and '.join(e['called'])}: partner {partner}"
        self.w(text + ".")

    def on_trick(self, e: dict[str, Any]) -> None:
        """A trick starts: who leads."""
        self.leader = e["leader"]
        self.plays = []

    def on_play(self, e: dict[str, Any]) -> None:
        """One card played (collected for the trick's line)."""
        self.plays.append(f"{e['player']} {e['card']}")

    def on_trick_won(self, e: dict[str, Any]) -> None:
        """Who won the trick, why, and what was captured."""
        n = e["trick"]
        self.w(f"  Trick {n}, led by {self.leader}: {', '.join(self.plays)}.")
        if n == 1 and self.auction and self.trump:
            self.w(f"    The first card led makes {SUIT_NAMES[self.trump]} trump.")
        win, card = e["winner"], e["card"]
        if e["reason"] == "none":
            self.w(f"    No trump in it: nobody wins it, and {self.leader} leads again.")
            return
        if e["reason"] == "trump":
            why = "the highest trump"
        else:
            why = f"the highest {SUIT_SINGULAR[_suit(self.plays[0])]}, the suit led"
        value = ""
        if self.auction and e["value"]:
            value = f" ({e['value']} game point{'' if e['value'] == 1 else 's'})"
        elif not self.auction and e["value"]:
            pc = [c for c in e["point_cards"] if not (c.startswith("2") and len(c) == 2)]
            value = f" ({' '.join(pc)}: {e['value']} point{'' if e['value'] == 1 else 's'})"
        self.w(f"    {win} wins with {card}, {why}, and takes {' '.join(e['captured'])}{value}.")
        if not self.auction and e.get("two_played_by"):
            two = next(c for c in e["point_cards"] if c.startswith("2") and len(c) == 2)
            self.w(f"    {two} scores 1 for {e['two_played_by']}, who played it.")

    def on_points(self, e: dict[str, Any]) -> None:
        """The hand's points."""
        if self.auction and e.get("awards"):
            parts = []
            for k, a in e["awards"].items():
                label = k.capitalize()
                if a["unit"] is None:
                    parts.append(f"{label}: not awarded ({'not in play' if k == 'jack' else 'tied'})")
                else:
                    parts.append(f"{label}{' ' + a['card'] if a['card'] else ''}: {a['unit']}")
            self.w("  Points: " + "; ".join(parts) + ".")
            if e.get("game_points"):
                gp = sorted(e["game_points"].items(), key=lambda kv: -kv[1])
                self.w("  Game points: " + ", ".join(f"{u} {v}" for u, v in gp) + ".")
        else:
            self.w("  Points taken: " + ", ".join(f"{u} {v}" for u, v in e["taken"].items()) + ".")

    def on_hand_end(self, e: dict[str, Any]) -> None:
        """Made or set, the score changes and the totals."""
        if e["bidder"] is None:
            return
        self.w(f"  {e['bidder']} bid {e['bid']} and {'his side ' if self.sides else ''}took "
               f"{e['took']}: {'made' if e['made'] else 'set back'}. "
               f"Score: {_signed_map(e['score'])}.")
        if e["totals"] is not None:
            self.w("  Totals: " + ", ".join(f"{u} {v}" for u, v in e["totals"].items()) + ".")

    def on_game_end(self, e: dict[str, Any]) -> None:
        """The winner, or that the game is unfinished."""
        self.w()
        if e["winner"] is not None:
            self.w(f"{e['winner']} wins the game in hand {e['hand']}, with {e['totals'][e['winner']]}.")
        elif e["totals"] is None:
            self.w("Unfinished: the totals are unknown after a hand that is not scored.")
        else:
            self.w(f"Unfinished: nobody has won yet (target {self.target}).")


def _suit(play: str) -> str:
    """The suit of the card in 'Ann 10H'."""
    return card(play.rsplit(" ", 1)[1]).suit or "S"


def write_text(evs: Iterator[dict[str, Any]], out: TextIO) -> None:
    """The event stream as sentences."""
    TextRenderer(out).render(evs)


def run(checked: Iterable[Any], out: TextIO, err: TextIO, hand: int | None = None,
        fmt: str = "text") -> int:
    """Replay every checked document; return the exit status (0 ok, 1 an invalid
    record or a missing hand, 3 an unreadable input)."""
    failed = unreadable = False
    first = True
    for c in checked:
        refused = refuse(c, err, "not replayed")
        if refused:
            unreadable = unreadable or refused == "unreadable"
            failed = failed or refused == "invalid"
            continue
        sheet = score_sheet(c.analysis, c.diagnostics, c.file, c.index)
        if hand is not None and hand > len(sheet.hands):
            err.write(f"{escape.text(c.file)}: there is no hand {hand}: the game has {len(sheet.hands)} "
                      f"hand{'' if len(sheet.hands) == 1 else 's'}\n")
            failed = True
            continue
        evs = _located(events(c.analysis, hand, sheet), c.file, c.index)
        if fmt == "json":
            write_jsonl(evs, out)
        else:
            if not first:
                out.write("\n")
            write_text(evs, out)
        first = False
    return 3 if unreadable else 1 if failed else 0


def _located(evs: Iterator[dict[str, Any]], file: str, index: int) -> Iterator[dict[str, Any]]:
    """Add the file and the document's index (from 0) to the ``game`` event."""
    for e in evs:
        if e["event"] == "game":
            e = {"event": "game", "file": file, "document": index, **{k: v for k, v in e.items()
                                                                    if k != "event"}}
        yield e
