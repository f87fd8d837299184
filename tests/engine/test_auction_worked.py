"""Hand-worked Auction Pitch cases: small explicit records, scored by hand in the
comments, and the engine's results asserted against that arithmetic.

Game points (AP-SCORE-4): 10 = 10, A = 4, K = 3, Q = 2, J = 1. Tricks are
written from their leader, clockwise.
"""

from __future__ import annotations

from typing import Any

import yaml
from support.games import BASE_TRICKS, clean

from pitchcli.pipeline.feed import GameAnalysis, analyze


def load(text: str) -> dict[str, Any]:
    return yaml.safe_load(text)


def awards(a: GameAnalysis, i: int = 0) -> dict[str, tuple[str | None, str | None]]:
    """hand i's awards as {kind: (unit name, card)}."""
    return {k: (None if w.unit is None else a.unit_name(w.unit), w.card and w.card.text)
            for k, w in a.hands[i].awards.items()}


# --- AP-SCORE-3: a lone trump -------------------------------------------------

LONE_TRUMP = """
format: pitch-record/1
variant: auction
players: [Ann, Ben]
hands:
  - dealer: Ann
    bids: [2, pass]            # Ben bids 2, Ann passes
    deal:
      Ann: [7S, QS, 8D, 10D, 9C, 6C]
      Ben: [5H, AS, KS, 2D, 4C, 3C]
    tricks:
      - [5H, 7S]     # Ben pitches 5H, the only heart dealt: hearts are trump. Ben
      - [AS, QS]     # Ben: A 4 + Q 2
      - [KS, 8D]     # Ben: K 3 (Ann has no spade: any card)
      - [2D, 10D]    # Ann: 10 = 10, and she leads on
      - [9C, 4C]     # Ann
      - [6C, 3C]     # Ann
    score: {Ann: 1, Ben: 2}
"""


def test_lone_trump_scores_two() -> None:
    # One trump in play (5H): it is both High and Low, 2 points for Ben.
    # Jack of hearts not dealt: no Jack point. Game: Ben 4+2+3 = 9, Ann 10 -> Ann.
    # Ben bid 2 and took 2: made, +2; Ann +1.
    a = clean(load(LONE_TRUMP))
    assert awards(a) == {"high": ("Ben", "5H"), "low": ("Ben", "5H"), "jack": (None, None),
                         "game": ("Ann", None)}
    h = a.hands[0]
    assert h.game_points == [10, 9]
    assert (h.taken, h.made, h.delta, a.totals, a.winner) == ([1, 2], True, [1, 2], [1, 2], None)


LONE_JACK = """
format: pitch-record/1
variant: auction
players: [Ann, Ben]
hands:
  - dealer: Ann
    bids: [3, pass]
    tricks:
      - [JH, 9D]     # Ben pitches JH, the only heart dealt. Ben: J 1
      - [2S, KS]     # Ann: K 3
      - [AS, 3S]     # Ann: A 4
      - [10D, 4D]    # Ann: 10
      - [QC, 5C]     # Ann: Q 2
      - [8C, 6C]     # Ann
    score: {Ann: 1, Ben: 3}
"""


def test_lone_trump_that_is_the_jack_scores_three() -> None:
    # JH alone in play is High, Low and Jack: 3 points for Ben, who bid 3 and
    # makes it with nothing else. Game: Ann 3+4+10+2 = 19 against Ben's 1.
    a = clean(load(LONE_JACK))
    assert awards(a) == {"high": ("Ben", "JH"), "low": ("Ben", "JH"), "jack": ("Ben", "JH"),
                         "game": ("Ann", None)}
    h = a.hands[0]
    assert (h.game_points, h.taken, h.made, h.delta) == ([19, 1], [1, 3], True, [1, 3])


def test_lone_trump_is_two_points_even_when_low_goes_to_who_played_it() -> None:
    rec = load(LONE_TRUMP)
    rec["rules"] = {"low": "played"}  # Ben played 5H and captured it: nothing moves
    a = clean(rec)
    assert a.hands[0].taken == [1, 2]


# --- AP-SCORE-2: jack not in play, a tie for Game -------------------------------

TIE = """
format: pitch-record/1
variant: auction
players: [Ann, Ben, Cal]
hands:
  - dealer: Ann
    bids: [pass, 2, pass]      # Ben passes, Cal bids 2, Ann passes
    tricks:
      - [AD, 3D, 4D]     # Cal leads AD: diamonds are trump. Cal: A 4
      - [2D, 4S, 5S]     # Cal (Ann and Ben have no diamond left)
      - [KS, QS, 8H]     # Cal: K 3 + Q 2
      - [5C, 8C, 10C]    # Ben: 10
      - [9C, 7C, 9H]     # Ben
      - [2H, 6H, 10H]    # Ann: 10
    score: {Ann: 0, Ben: 0, Cal: 2}
    totals: {Ann: 0, Ben: 0, Cal: 2}
"""


def test_jack_not_in_play_and_tie_for_game() -> None:
    # Trumps in play: AD 4D 3D 2D, no JD: the Jack point is not awarded.
    # High AD and Low 2D: Cal. Game points: Cal 4+3+2 = 9, Ben 10, Ann 10:
    # Ben and Ann tie for the most, so Game is not awarded either.
    # Cal took 2 of the 2 he bid: +2. Only 2 of the 4 points were won.
    a = clean(load(TIE))
    assert awards(a) == {"high": ("Cal", "AD"), "low": ("Cal", "2D"), "jack": (None, None),
                         "game": (None, None)}
    h = a.hands[0]
    assert (h.game_points, h.taken, h.delta, a.totals) == ([10, 10, 9], [0, 0, 2], [0, 0, 2], [0, 0, 2])


# --- The base hand: Low captured by another player ------------------------------

BASE = """
format: pitch-record/1
variant: auction
players: [Ann, Ben, Cal, Dot]
hands:
  - dealer: Ann
    bids: [pass, 2, pass, pass]   # Ben, Cal 2, Dot, Ann
    deal:
      Ann: [7S, AH, 10D, KC, 9H, 4D]
      Ben: [2S, JS, QD, 3C, 7H, 5H]
      Cal: [AS, KH, 9D, 4C, QH, 10S]
      Dot: [3S, 2H, JD, 5C, AC, 6D]
    tricks:
      - [AS, 3S, 7S, 2S]     # Cal Dot Ann Ben: spades trump; Cal wins: A 4
      - [KH, 2H, AH, JS]     # Cal Dot Ann Ben: Ben trumps (holding hearts: legal): K3 A4 J1 = 8
      - [QD, 9D, JD, 10D]    # Ben Cal Dot Ann: Ben: Q2 J1 10 = 13
      - [3C, 4C, 5C, KC]     # Ben Cal Dot Ann: Ann: K 3
      - [9H, 7H, QH, AC]     # Ann Ben Cal Dot: Cal (AC is off suit): Q2 A4 = 6
      - [10S, 6D, 4D, 5H]    # Cal Dot Ann Ben: Cal: 10
"""


def test_low_captured_by_someone_else() -> None:
    # Low is 2S: Ben played it in trick 1, Cal captured it. High AS: Cal. Jack
    # JS: Ben. Game: Ben 8+13 = 21, Cal 4+6+10 = 20, Ann 3, Dot 0 -> Ben, with
    # 21 of 44: a plurality is enough.
    # Default `low: captured`: Cal takes High and Low = 2 and makes his 2: +2.
    # Ben takes Jack and Game = 2.
    a = clean(load(BASE))
    assert awards(a) == {"high": ("Cal", "AS"), "low": ("Cal", "2S"), "jack": ("Ben", "JS"),
                         "game": ("Ben", None)}
    low = a.hands[0].awards["low"]
    assert (low.seat, low.played_by) == (2, 1)
    h = a.hands[0]
    assert (h.game_points, h.taken, h.delta) == ([3, 21, 20, 0], [0, 2, 2, 0], [0, 2, 2, 0])


def test_low_played_option_gives_low_to_who_played_it() -> None:
    # Same hand with `low: played`: Low goes to Ben, who played 2S. Cal keeps
    # only High = 1 < 2: he is set back 2. Ben: Low, Jack, Game = 3.
    rec = load(BASE)
    rec["rules"] = {"low": "played"}
    a = clean(rec)
    assert awards(a)["low"] == ("Ben", "2S")
    h = a.hands[0]
    assert (h.taken, h.made, h.delta, a.totals) == ([0, 3, 1, 0], False, [0, 3, -2, 0], [0, 3, -2, 0])


# --- Auctions -------------------------------------------------------------------


def _base_with(dealer: str, bids: list[Any], **extra: Any) -> dict[str, Any]:
    rec = load(BASE)
    h = rec["hands"][0]
    h["dealer"], h["bids"] = dealer, bids
    h.update(extra)
    return rec


def test_stuck_dealer() -> None:
    # Cal deals; Dot, Ann and Ben pass: Cal must bid at least 2, and bids 2.
    # He plays the base hand and takes High and Low: made, +2. Ben +2.
    a = clean(_base_with("Cal", ["pass", "pass", "pass", 2],
                         score={"Ann": 0, "Ben": 2, "Cal": 2, "Dot": 0}))
    h = a.hands[0]
    assert (h.bidder, h.bid, h.calls[3].kind, h.made, h.delta) == (2, 2, "stuck", True, [0, 2, 2, 0])


def test_dealer_steal() -> None:
    # Cal deals; Dot bids 2, Ann and Ben pass, Cal takes the bid at 2 (a steal)
    # and pitches the base hand: +2. Dot, who bid, scores only what he took: 0.
    a = clean(_base_with("Cal", [2, "pass", "pass", 2]))
    h = a.hands[0]
    assert (h.bidder, h.bid, h.calls[3].kind) == (2, 2, "steal")
    assert h.delta == [0, 2, 2, 0]


def test_pitched_four() -> None:
    # Ann deals; Ben passes; Cal pitches AS face up: a bid of 4 that closes the
    # auction. Dot and Ann's calls are left out (they are passes). AS is the first
    # lead and makes spades trump. Cal takes High and Low = 2 < 4: set back 4, so
    # he goes negative. Ben scores his Jack and Game: +2.
    a = clean(_base_with("Ann", ["pass", 4], score={"Ann": 0, "Ben": 2, "Cal": -4, "Dot": 0}))
    h = a.hands[0]
    assert [(c.seat, c.bid, c.kind) for c in h.calls] == [
        (1, None, "pass"), (2, 4, "max"), (3, None, "implied"), (0, None, "implied")]
    first = h.tricks[0].plays[0]
    assert (first.seat, first.card.text, h.trump) == (2, "AS", "S")
    assert (h.taken, h.made, h.delta, a.totals) == ([0, 2, 2, 0], False, [0, 2, -4, 0], [0, 2, -4, 0])


def test_bid_after_a_pitched_four_is_refused() -> None:
    a = analyze(_base_with("Ann", ["pass", 4, 1]))
    assert [(v.rule, v.at) for v in a.violations] == [("AP-BID-3", "/hands/0/bids/2")]


# --- Games ----------------------------------------------------------------------
# The base tricks are a legal hand for any pitcher P at four seats (conftest.py):
# P takes High and Low (2), P's right-hand neighbour P+3 takes Jack and Game (2).


def _base_game(hands: list[tuple[str, list[Any]]], **extra: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": "pitch-record/1", "variant": "auction",
                           "players": ["Ann", "Ben", "Cal", "Dot"], **extra}
    rec["hands"] = [{"dealer": d, "bids": b, "tricks": [list(t) for t in BASE_TRICKS]} for d, b in hands]
    return rec


def test_set_pitcher_goes_negative_and_stays_in_the_game() -> None:
    # Hand 1 (Ann deals): Cal pitches 4, takes 2: set, -4. Ben +2.
    # Hand 2 (Ben deals): Cal bids 3, takes 2: set again, -4 - 3 = -7. Ben 4.
    a = clean(_base_game([("Ann", ["pass", 4]), ("Ben", [3, "pass", "pass", "pass"])]))
    assert [h.delta for h in a.hands] == [[0, 2, -4, 0], [0, 2, -3, 0]]
    assert a.totals == [0, 4, -7, 0] and a.winner is None


def test_non_pitcher_passing_the_target_does_not_win() -> None:
    # Target 4.                                  Ann  Ben  Cal  Dot
    # 1 Ann deals, Cal bids 2, makes it:          0    2    2    0
    # 2 Ben deals, Cal pitches 4, set:            0    4   -2    0   Ben at 4: not pitcher
    # 3 Cal deals, Dot bids 2, makes it:          0    4    0    2
    # 4 Dot deals, Cal pitches 4, set:            0    6   -4    2   Ben at 6: still no
    # 5 Ann deals, Dot bids 2, makes it:          0    6   -2    4   Dot pitched, at 4: wins
    # The winner has fewer points than Ben (AP-WIN-2).
    rec = _base_game([("Ann", ["pass", 2, "pass", "pass"]), ("Ben", [4]),
                      ("Cal", [2, "pass", "pass", "pass"]), ("Dot", ["pass", "pass", 4]),
                      ("Ann", ["pass", "pass", 2, "pass"])], rules={"target": 4})
    rec["result"] = {"winner": "Dot", "scores": {"Ann": 0, "Ben": 6, "Cal": -2, "Dot": 4}}
    a = clean(rec)
    assert [a.unit_name(h.bidder) for h in a.hands] == ["Cal", "Cal", "Dot", "Cal", "Dot"]
    assert (a.totals, a.winner, a.winner_hand) == ([0, 6, -2, 4], "Dot", 5)
    # Stop the game one hand earlier: Ben has passed the target twice, nobody has won.
    rec["hands"].pop()
    del rec["result"]
    a = clean(rec)
    assert (a.totals, a.winner) == ([0, 6, -4, 2], None)


def _set_at_target(**rules: Any) -> dict[str, Any]:
    # Target 3.                                  Ann  Ben  Cal  Dot
    # 1 Ann deals, Dot pitches 4, set:            0    0    2   -4
    # 2 Ben deals, Dot pitches 4, set:            0    0    4   -8
    # 3 Cal deals, Dot pitches 4, set:            0    0    6  -12   (Cal never pitched)
    # 4 Dot deals, Cal bids 3, takes 2, set:      0    2    3  -12
    return _base_game([("Ann", ["pass", "pass", 4]), ("Ben", ["pass", 4]), ("Cal", [4]),
                       ("Dot", ["pass", "pass", 3, "pass"])], rules={"target": 3, **rules})


def test_set_pitcher_above_the_target_does_not_win() -> None:
    # After hand 4 Cal, the pitcher, has 3 = the target, but he was set: no win
    # (AP-WIN-3, "take and make").
    a = clean(_set_at_target())
    assert [h.made for h in a.hands] == [False] * 4
    assert (a.totals, a.winner) == ([0, 2, 3, -12], None)


def test_set_pitcher_above_the_target_wins_with_win_on_set() -> None:
    a = clean(_set_at_target(win_on_set=True))
    assert (a.totals, a.winner, a.winner_hand) == ([0, 2, 3, -12], "Cal", 4)


def test_hand_after_the_win_is_reported() -> None:
    rec = _set_at_target(win_on_set=True)
    rec["hands"].append({"dealer": "Ann", "bids": [2, "pass", "pass", "pass"],
                         "tricks": [list(t) for t in BASE_TRICKS]})
    a = analyze(rec)
    assert [(v.rule, v.code, v.at) for v in a.violations] == [("AP-WIN-1", "R412", "/hands/4")]
    assert "won by Cal in hand 4" in a.violations[0].message


# --- AP-TABLE-2: a partnership game ----------------------------------------------

PARTNERS = """
format: pitch-record/1
variant: auction-partners
rules: {target: 5}
players: [Ann, Ben, Cal, Dot]
teams: {NS: [Ann, Cal], EW: [Ben, Dot]}
hands:
  - dealer: Ann
    bids: [pass, 2, pass, pass]      # Cal (NS) bids 2
    tricks: &base
      - [AS, 3S, 7S, 2S]
      - [KH, 2H, AH, JS]
      - [QD, 9D, JD, 10D]
      - [3C, 4C, 5C, KC]
      - [9H, 7H, QH, AC]
      - [10S, 6D, 4D, 5H]
    score: {NS: 3, EW: 1}
  - dealer: Ben
    bids: [pass, pass, 2, pass]      # Cal, Dot pass; Ann (NS) bids 2; Ben passes
    tricks: *base
    score: {NS: 3, EW: 1}
    totals: {NS: 6, EW: 2}
result: {winner: NS, scores: {NS: 6, EW: 2}}
"""


def test_partnership_pools_cards_and_game_goes_to_the_team() -> None:
    # Hand 1, Cal pitches the base hand. Cards are pooled by team:
    #   NS = Cal 20 + Ann 3 = 23 game points, EW = Ben 21 + Dot 0 = 21.
    # Alone, Ben would have had Game (21 > 20); as teams NS has it (23 > 21).
    # NS: High AS, Low 2S, Game = 3, made 2: +3. EW: Jack JS = 1.
    # Hand 2, Ann pitches (now Ann is P, Dot is P+3 with JS): the same for the
    # same teams: NS 6, EW 2. NS pitched, made, and is at 6 >= 5: NS wins.
    a = clean(load(PARTNERS))
    assert awards(a, 0) == {"high": ("NS", "AS"), "low": ("NS", "2S"), "jack": ("EW", "JS"),
                            "game": ("NS", None)}
    h = a.hands[0]
    assert (h.game_points, h.taken, h.delta) == ([23, 21], [3, 1], [3, 1])
    assert a.hands[1].awards["jack"].seat == 3  # Dot played and won JS in hand 2
    assert (a.totals, a.winner, a.winner_hand) == ([6, 2], "NS", 2)


def test_partnership_team_non_pitcher_does_not_win() -> None:
    # Target 1: after hand 1 EW has 1 point but did not pitch: only NS can win.
    rec = load(PARTNERS)
    rec["rules"] = {"target": 1}
    rec["hands"][0]["bids"] = ["pass", 4]  # Cal pitches 4 and is set: NS -4, EW +1
    del rec["hands"][0]["score"]
    rec["hands"] = rec["hands"][:1]
    del rec["result"]
    a = clean(rec)
    assert (a.totals, a.winner) == ([-4, 1], None)
