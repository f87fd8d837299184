"""Score sheets: what each hand of a game came to, and why.

``score_sheet(game, diagnostics)`` turns a public ``Game`` (what a script
reads, ``pitchcli.Game``) into plain views: one ``HandScore`` per hand
(dealer, bidder and bid, trump, who took each point and with which card, made
or set, the score changes and the running totals) and the game's outcome.
``explain`` gives the reasons, one sentence per point, each citing the rule
of RULES.md it applies. The views render as text
(``pitchcli.render.scoresheet``: tabulate tables and sentences, JSON, CSV).

Claims: a recorded value the engine derives (``points``, ``score``, ``totals``,
``result``, and the contract, trump, partner and trick leaders) that disagrees
with the derivation is a ``Mismatch`` with both values; scoring goes on with
the derived values, and ``pitch score --check`` fails on them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pitchcli.api.games import Game, Hand, Point, Words
from pitchcli.api.kinds import Credit, EndReason, NotWon, PointKind, Scoring
from pitchcli.cards import SUIT_NAMES, card, describe
from pitchcli.diagnostics import Diagnostic, is_claim

REPORT = "pitch-score"
VERSION = 2  # 2: "document" counts from 1 (was 0)
CLAIM_FIELDS = {"C501": "points", "C502": "score", "C503": "totals", "C504": "result",
                "C505": "contract", "C506": "trump", "C507": "partner", "C508": "lead"}


# --------------------------------------------------------------------------
# Views


@dataclass
class AwardView:
    """One Auction Pitch point: ``unit`` took it (``None``: not awarded)."""

    kind: str
    unit: str | None
    card: str | None = None
    captured_by: str | None = None
    played_by: str | None = None
    trick: int | None = None  # the trick in which the card was played

    def as_json(self) -> dict[str, Any]:
        """A plain mapping for the JSON output."""
        return {"unit": self.unit, "card": self.card, "captured_by": self.captured_by,
                "played_by": self.played_by, "trick": self.trick}


@dataclass
class Mismatch:
    """A recorded value that disagrees with the derived one."""

    field: str  # points, score, totals, result, contract, trump, partner, lead
    code: str
    hand: int | None
    key: str | None
    claimed: Any
    derived: Any
    pointer: str
    line: int | None
    message: str

    def as_json(self) -> dict[str, Any]:
        """A plain mapping for the JSON output."""
        return {"field": self.field, "code": self.code, "hand": self.hand, "key": self.key,
                "recorded": self.claimed, "computed": self.derived, "pointer": self.pointer,
                "line": self.line, "message": self.message}


@dataclass
class HandScore:
    """What one hand came to. ``hand`` is ``None`` when the hand could not be
    scored (nothing but the auction recorded yet): every later total is then
    unknown (``totals`` is ``None``)."""

    number: int
    dealer: str
    hand: Hand | None = None
    level: str | None = None
    bidder: str | None = None
    bid: int | None = None
    stuck: bool = False
    steal: bool = False
    trump: str | None = None
    partners: list[str] = field(default_factory=list)
    called: list[str] = field(default_factory=list)
    awards: dict[str, AwardView] = field(default_factory=dict)
    game_points: dict[str, int] = field(default_factory=dict)
    taken: dict[str, int] = field(default_factory=dict)
    bidding_side: list[str] = field(default_factory=list)
    made: bool | None = None
    change: dict[str, int] = field(default_factory=dict)
    totals: dict[str, int] | None = None
    mismatches: list[Mismatch] = field(default_factory=list)
    explanation: list[str] = field(default_factory=list)

    @property
    def scored(self) -> bool:
        """True when the hand could be scored."""
        return self.hand is not None


@dataclass
class ScoreSheet:
    """A game's score sheet (``document`` from 1). ``words`` are what the
    game's rule family calls things, ``scoring`` how its hands score, ``low``
    the profile's Low rule (``played``: Low goes to who played it)."""

    file: str
    document: int
    variant: str
    family: str
    words: Words
    scoring: Scoring
    low: str
    players: list[str]
    units: list[str]
    teams: dict[str, list[str]]
    target: int
    hands: list[HandScore]
    totals: dict[str, int] | None
    winner: str | None
    winner_hand: int | None
    mismatches: list[Mismatch]  # those of no hand (result)

    @property
    def finished(self) -> bool:
        """True when the game has a winner."""
        return self.winner is not None

    def all_mismatches(self) -> list[Mismatch]:
        """Every claim that disagrees, over all hands and the result."""
        return [m for h in self.hands for m in h.mismatches] + self.mismatches

    @property
    def unit_word(self) -> str:
        """'player' or 'team': what a unit of this game is."""
        return "team" if self.teams else "player"

    @property
    def scores_awards(self) -> bool:
        """True when a hand scores High, Low, Jack and Game."""
        return self.scoring is Scoring.AWARDS


def _mismatch(d: Diagnostic) -> Mismatch:
    return Mismatch(CLAIM_FIELDS.get(d.code, d.code), d.code, d.hand, d.extra.get("key"),
                    d.extra.get("claimed"), d.extra.get("derived"), d.pointer, d.line, d.message)


def score_sheet(game: Game, diagnostics: Iterable[Diagnostic] = (), explain: bool = False) -> ScoreSheet:
    """The score sheet of a (valid) game, read from its public results."""
    teams = {t: list(m) for t, m in game.teams.items()}
    mismatches = [_mismatch(d) for d in diagnostics if is_claim(d)]
    hands: list[HandScore] = []
    for h in game.hands:
        hs = HandScore(h.number, "?" if h.dealer is None else h.dealer)
        if h.scored:
            _fill_view(hs, h)
        hs.mismatches = [m for m in mismatches if m.hand == h.number]
        hands.append(hs)
    sheet = ScoreSheet(
        game.file, game.document, game.variant, str(game.family), game.words, game.scoring, game.profile.low,
        list(game.players), list(game.sides), teams, game.target, hands,
        None if game.totals is None else dict(game.totals),
        game.winner, game.winner_hand, [m for m in mismatches if m.hand is None])
    if explain:
        for hs in hands:
            hs.explanation = explain_hand(sheet, hs, game)
    return sheet


def _award(p: Point) -> AwardView:
    return AwardView(str(p.kind), p.side, None if p.card is None else p.card.text, p.captured_by, p.played_by,
                     p.trick)


def _fill_view(hs: HandScore, h: Hand) -> None:
    hs.hand = h
    hs.level = None if h.level is None else str(h.level)
    hs.bidder = h.bidder
    hs.bid = h.bid
    hs.stuck = h.stuck
    hs.steal = h.stolen
    hs.trump = h.trump
    hs.partners = list(h.partners)
    hs.called = [c.text for c in h.called]
    points = {p.kind: p for p in h.points}
    # In the order of the points (PointKind: High, Low, Jack, Game).
    hs.awards = {str(kind): _award(points[kind]) for kind in PointKind if kind in points}
    hs.game_points = dict(h.game_points)
    hs.taken = dict(h.taken)
    hs.bidding_side = list(h.bidding_side)
    hs.made = h.made
    hs.change = dict(h.score)
    hs.totals = None if h.totals is None else dict(h.totals)


# --------------------------------------------------------------------------
# Explanations: one sentence per point, each citing its rule.


def and_list(items: list[str]) -> str:
    """'Ann', 'Ann and Ben', 'Ann, Ben and Cal' ('nobody' for none)."""
    if not items:
        return "nobody"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def signed(n: int) -> str:
    """A score change with its sign: +2, 0, -3."""
    return f"+{n}" if n > 0 else str(n)


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def explain_hand(sheet: ScoreSheet, hs: HandScore, game: Game) -> list[str]:
    """Why each point of the hand went where it did, with rule ids."""
    r = hs.hand
    if r is None:
        return [f"Hand {hs.number} is not scored: neither its tricks nor its points are recorded "
                f"yet, so the totals after it are unknown."]
    out = _explain_contract(sheet, hs, r, game)
    if sheet.scores_awards:
        out += _explain_auction(sheet, hs, r)
    else:
        out += _explain_ten_point(sheet, hs, r, game)
    out += _explain_win(sheet, hs, r)
    return out


def _who(sheet: ScoreSheet, player: str | None) -> str:
    """'Cal', or 'Cal (Ann & Cal)' with fixed teams."""
    if player is None:
        return "nobody"
    if sheet.teams:
        for team, members in sheet.teams.items():
            if player in members:
                return f"{player} ({team})"
    return player


def _explain_contract(sheet: ScoreSheet, hs: HandScore, r: Hand, game: Game) -> list[str]:
    words = sheet.words
    out = []
    if not r.calls:
        out.append(f"The contract is recorded: {hs.bidder} bid {hs.bid}.")
    elif hs.stuck:
        if game.dealer_may_pass:
            out.append(f"Everybody passed, so {hs.dealer}, the dealer, is stuck with a bid of "
                       f"{hs.bid} ({game.rule('stuck')}).")
        else:
            out.append(f"Nobody bid before the dealer, so {hs.dealer}, the dealer, had to bid: "
                       f"{hs.bid} ({game.rule('stuck')}).")
    elif hs.steal:
        out.append(f"{hs.dealer}, the dealer, stole the bid at {hs.bid} (AP-BID-5) and is the "
                   f"{words.role} ({game.rule('contract')}).")
    else:
        closing = r.closing
        if closing is not None:
            out.append(f"{closing.player} {words.closed.format(bid=hs.bid)}, which closes "
                       f"the auction ({game.rule('bid_closed')}).")
        else:
            out.append(f"{hs.bidder} made the highest bid, {hs.bid}, and is the {words.role} "
                       f"({game.rule('contract')}).")
    if hs.trump and r.tricks and not game.trump_named:
        first = r.tricks[0].plays[0].card
        out.append(f"Trump is {SUIT_NAMES[hs.trump]}: the suit of {first.text}, the first card "
                   f"{hs.bidder} led ({game.rule('trump_claim')}).")
    elif hs.trump and r.tricks:
        out.append(f"{hs.bidder} named {SUIT_NAMES[hs.trump]} trump ({game.rule('trump_claim')}) and "
                   f"led the first trick ({game.rule('lead_first')}).")
    elif hs.trump and game.trump_named:
        out.append(f"{hs.bidder} named {SUIT_NAMES[hs.trump]} trump ({game.rule('trump_claim')}).")
    if hs.called:
        cards = and_list(hs.called)
        if hs.partners:
            out.append(f"{hs.bidder} called {cards}; {and_list(hs.partners)} "
                       f"{'holds' if len(hs.partners) == 1 else 'hold'} it and "
                       f"{'is the partner' if len(hs.partners) == 1 else 'are the partners'} (TP5-3).")
        else:
            out.append(f"{hs.bidder} called {cards}, which the bidder holds: the bidder plays alone (TP5-3).")
    return out


def _explain_auction(sheet: ScoreSheet, hs: HandScore, r: Hand) -> list[str]:
    out: list[str] = []
    aw = hs.awards
    if hs.level == "tally":
        for kind in aw:
            a = aw[kind]
            if a.unit is not None:
                out.append(f"{kind.capitalize()}: {a.unit}, as the tally records (AP-SCORE-1).")
            elif kind == "jack":
                out.append("Jack: not awarded; the tally records the jack of trumps as not in play "
                           "(AP-SCORE-2).")
            elif kind == "game":
                out.append("Game: not awarded; the tally records a tie for the most game points "
                           "(AP-SCORE-2).")
        return out + _explain_settle(sheet, hs, r)
    high, low, jack = aw["high"], aw["low"], aw["jack"]
    low_rule = sheet.low

    def took(a: AwardView) -> str:
        where = f" in trick {a.trick}" if a.trick else ""
        if a.played_by and a.captured_by and a.played_by != a.captured_by:
            return f"played by {a.played_by}, captured by {_who(sheet, a.captured_by)}{where}"
        return f"played and captured by {_who(sheet, a.captured_by)}{where}"

    if high.card is not None and high.card == low.card:
        lone = high.card
        if jack.card == lone:
            out.append(f"High, Low and Jack: {lone}, the only trump in play, {took(high)}: a lone "
                       f"jack of trumps scores three points, as High, Low and Jack (AP-SCORE-3).")
        else:
            out.append(f"High and Low: {lone}, the only trump in play, {took(high)}: a lone trump "
                       f"scores two points, as High and as Low (AP-SCORE-3).")
    else:
        if high.card:
            out.append(f"High: {high.card}, the highest trump in play, {took(high)} (AP-SCORE-1).")
        if low.card:
            if low_rule == "played":
                out.append(f"Low: {low.card}, the lowest trump in play, played by "
                           f"{_who(sheet, low.played_by)} in trick {low.trick}; in this game Low "
                           f"goes to who played it (low: played, AP-SCORE-1).")
            else:
                out.append(f"Low: {low.card}, the lowest trump in play, {took(low)} (AP-SCORE-1).")
    if jack.card is None:
        jt = f"J{hs.trump}" if hs.trump else "the jack of trumps"
        jack_words = describe(card(jt)) if hs.trump else jt
        out.append(f"Jack: not awarded; {jack_words} was not in play (AP-SCORE-2).")
    elif jack.card != high.card or high.card != low.card:
        out.append(f"Jack: {jack.card}, the jack of trumps, {took(jack)} (AP-SCORE-1).")
    gp = sorted(hs.game_points.items(), key=lambda kv: -kv[1])
    tallies = ", ".join(f"{u} {n}" for u, n in gp)
    counting = "tens count 10, aces 4, kings 3, queens 2, jacks 1, in the cards each won"
    game = aw["game"]
    if game.unit is not None:
        out.append(f"Game: {game.unit}, with the most game points ({tallies}; {counting}) (AP-SCORE-4).")
    else:
        best = gp[0][1] if gp else 0
        tied = [u for u, n in gp if n == best]
        out.append(f"Game: not awarded; {and_list(tied)} tied with {best} game points each ({tallies}) "
                   f"(AP-SCORE-2).")
    return out + _explain_settle(sheet, hs, r)


def _won_list(hs: HandScore, unit: str) -> list[str]:
    return [k.capitalize() for k, a in hs.awards.items() if a.unit == unit]


def _explain_settle(sheet: ScoreSheet, hs: HandScore, r: Hand) -> list[str]:
    out = []
    side = hs.bidding_side
    unit = side[0] if side else "?"
    took = hs.taken.get(unit, 0)
    subject = hs.bidder if not sheet.teams else f"{unit} ({hs.bidder}'s team)"
    won = _won_list(hs, unit)
    what = f" ({', '.join(won)})" if won else ""
    role = "the pitcher's side" if sheet.teams else "the pitcher"
    if hs.made:
        out.append(f"{subject}, {role}, bid {hs.bid} and won "
                   f"{_points(took)}{what}: the bid is made, and scores {signed(hs.change[unit])} "
                   f"({r.settle_rule}).")
    else:
        won_text = "no points" if took == 0 else "only " + _points(took)
        out.append(f"{subject}, {role}, bid {hs.bid} but won {won_text}{what}: set back {hs.bid}, "
                   f"scores {signed(hs.change[unit])} ({r.settle_rule}).")
    others = [f"{u} {signed(d)}" + (f" ({', '.join(_won_list(hs, u))})" if _won_list(hs, u) else "")
              for u, d in hs.change.items() if u not in side]
    if others:
        out.append(f"The others score the points they won: {', '.join(others)} (AP-SCORE-6).")
    return out


def _explain_ten_point(sheet: ScoreSheet, hs: HandScore, r: Hand, game: Game) -> list[str]:
    out: list[str] = []
    if hs.level == "tally":
        out.append("The points taken are as the tally records: "
                   + ", ".join(f"{u} {n}" for u, n in hs.taken.items()) + " (TP-POINTS-1).")
    else:
        for t in r.tricks:
            if t.winner is None:
                nxt = t.leader
                out.append(f"Trick {t.number} had no trump: nobody won it, and {nxt}, who led it, "
                           f"leads again (TP-PLAY-2).")
        lines = []
        for cr in r.point_cards:  # highest trump first
            pts = _points(cr.value)
            if cr.how is Credit.PLAYED:
                lines.append(f"{cr.card.text} ({pts}) scores for {_who(sheet, cr.player)}, "
                             f"who played it in trick {cr.trick}")
            else:
                by = "" if cr.player == cr.played_by else f"played by {cr.played_by}, "
                lines.append(f"{cr.card.text} ({pts}), {by}captured by {_who(sheet, cr.player)} "
                             f"in trick {cr.trick}")
        if lines:
            out.append("Point cards: " + "; ".join(lines) + " (TP-POINTS-1).")
        if r.out_of_play:
            out.append(f"Not in play: {', '.join(c.text for c in r.out_of_play)} (set aside at the deal).")
        out.append("Points taken: " + ", ".join(f"{u} {n}" for u, n in hs.taken.items()) + ".")
    side = hs.bidding_side
    side_took = r.side_took
    rule = r.settle_rule
    if game.profile.calls_partner:
        who = and_list(side)
        result = "made" if hs.made else "set"
        change = hs.change[side[0]]
        out.append(f"{who} took {side_took} against a bid of {hs.bid}: {result}; "
                   f"{'each scores' if len(side) > 1 else 'scores'} {signed(change)} ({rule}).")
        others = [u for u in hs.change if u not in side]
        if others:
            out.append(f"The other side ({and_list(others)}) took {r.other_took}: "
                       f"each scores {signed(hs.change[others[0]])} ({rule}).")
        return out
    unit = side[0]
    subject = f"{unit} ({hs.bidder}'s team)" if sheet.teams else unit
    joint, result = ("and", "made") if hs.made else ("but", "set")
    out.append(f"{subject} bid {hs.bid} {joint} took {side_took}: {result}, scores "
               f"{signed(hs.change[unit])} ({rule}).")
    others = [f"{u} {signed(d)}" for u, d in hs.change.items() if u not in side]
    if others:
        out.append(f"The others score what they took: {', '.join(others)} ({rule}).")
    return out


def _explain_win(sheet: ScoreSheet, hs: HandScore, r: Hand) -> list[str]:
    target = sheet.target
    win = r.win
    if win is not None:
        w, total = win.side, win.total
        if win.reason in (EndReason.PITCHER_MADE, EndReason.PITCHER_SET):
            return [f"{w} reached {total} (the target is {target}) in a hand where "
                    f"{'it' if sheet.teams else w} was the {sheet.words.role}"
                    f"{' and made the bid' if win.reason is EndReason.PITCHER_MADE else ''}: "
                    f"{w} wins the game ({win.rule})."]
        return [f"{and_list(list(win.at_target))} reached the target of {target}; "
                f"{w} wins the game with {total} ({win.rule})."]
    out = []
    tied = [n.side for n in r.not_won if n.reason is NotWon.TIED]
    if tied:
        out.append(f"{and_list(tied)} reached the target of {target}, but the highest score there is "
                   f"tied: play goes on ({r.not_won[0].rule}).")
    for n in r.not_won:
        if n.reason is NotWon.SET:
            out.append(f"{n.side} has {n.total}, at or above the target of {target}, but was "
                       f"set back in this hand: no win on a set ({n.rule}).")
        elif n.reason is NotWon.NOT_PITCHER:
            out.append(f"{n.side} has {n.total}, at or above the target of {target}, but was "
                       f"not the {sheet.words.role} in this hand: play goes on ({n.rule}).")
    return out


# --------------------------------------------------------------------------
# Rendering


def award_line(hs: HandScore, kind: str, sheet: ScoreSheet) -> list[str]:
    """One row of a hand's awards table: the point, its card, who won it and how."""
    a = hs.awards[kind]
    label = kind.capitalize()
    if a.unit is None:
        why = "not in play" if kind == "jack" else "tied"
        return [label, "", "-", f"not awarded ({why})"]
    if hs.level == "tally":
        return [label, "", a.unit, ""]
    note = ""
    if kind == "game":
        note = "game points: " + ", ".join(f"{u} {n}" for u, n in
                                            sorted(hs.game_points.items(), key=lambda kv: -kv[1]))
    elif kind == "low" and a.card == hs.awards["high"].card:
        note = "the lone trump: High and Low too (AP-SCORE-3)"
    elif kind == "jack" and a.card == hs.awards["high"].card == hs.awards["low"].card:
        note = "the lone trump: High, Low and Jack (AP-SCORE-3)"
    elif a.captured_by:
        by = _who(sheet, a.captured_by) if sheet.teams else a.captured_by
        note = f"trick {a.trick}, " if a.trick else ""
        if kind == "low" and sheet.low == "played":
            note += f"played by {a.played_by}"
        else:
            note += f"captured by {by}"
    return [label, a.card or "", a.unit, note]
