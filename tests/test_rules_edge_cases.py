"""The edge cases a rules lawyer finds (issue 13), each worked by hand.

Each test names the row of RULES.md's table "Which rule a structural problem is
reported under" (or its section "A game's end") that it holds the engine to,
and works out in a comment what the right answer is. Each failed on the code
before the fix. Where the schema stage takes part the record goes through the
whole pipeline (``check_source``: schema, then the engine) and the assertions
are on the diagnostics' fields, not on the text line.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from conftest import PLAYERS, base_deal, game, hand

from pitchcli.analysis import analyze
from pitchcli.check import check_source
from pitchcli.diagnostics import Diagnostic


def diagnostics(rec: dict[str, Any]) -> list[Diagnostic]:
    """Every diagnostic of the whole pipeline (schema, then the engine) for ``rec``."""
    (checked,) = list(check_source("rec.json", io.BytesIO(json.dumps(rec).encode())))
    return checked.diagnostics


def fields(diags: list[Diagnostic]) -> list[tuple[str, str | None, str]]:
    """(code, rule, pointer) of each diagnostic."""
    return [(d.code, d.rule, d.pointer) for d in diags]


def violations(rec: dict[str, Any]) -> list[tuple[str, str | None, str]]:
    """(code, rule, pointer) of each violation the engine finds."""
    return [(v.code, v.rule, v.at) for v in analyze(rec).violations]


# --- (8) AP-DEAL-2: judged against the hand before -------------------------------


def _rounds(dealers: list[str]) -> dict[str, Any]:
    # Every hand: the third caller bids 2 and plays the base hand (a legal
    # hand whoever pitches); only the dealers matter here.
    return game([hand(d, ["pass", "pass", 2, "pass"]) for d in dealers])


def test_ap_deal2_one_wrong_dealer_is_one_error() -> None:
    # Ann, Cal, Dot, Ann: hand 2 should be Ben's (left of Ann) - one error.
    # Hand 3 follows Cal (the dealer the record has for hand 2): Dot, right;
    # hand 4 follows Dot: Ann, right. Judged against hand 1 instead, hands 3
    # and 4 (expected Cal and Dot) would be two more errors: the cascade.
    found = violations(_rounds(["Ann", "Cal", "Dot", "Ann"]))
    assert found == [("R405", "AP-DEAL-2", "/hands/1/dealer")]


def test_ap_deal2_the_same_dealer_twice_is_wrong_again() -> None:
    # Ann, Ben, Ben, Cal: hand 3 repeats Ben (Cal expected after Ben); hand 4
    # (Cal) follows Ben rightly. One error, at hand 3.
    assert violations(_rounds(["Ann", "Ben", "Ben", "Cal"])) == [
        ("R405", "AP-DEAL-2", "/hands/2/dealer")]


def test_tp_deal1_judged_against_the_hand_before_too() -> None:
    # ten-point-5 tallies dealt Ann, Cal, Dot: only hand 2 is wrong (Ben was due).
    five = ["Ann", "Ben", "Cal", "Dot", "Eve"]
    hands = []
    for dealer in ["Ann", "Cal", "Dot"]:
        hands.append({"dealer": dealer, "contract": {"bidder": "Eve", "bid": 5}, "trump": "S",
                      "partner": {"card": "AS", "player": "Ben"},
                      "points": {"Ann": 0, "Ben": 0, "Cal": 4, "Dot": 0, "Eve": 6}})
    rec = {"format": "pitch-record/1", "variant": "ten-point-5", "players": five, "hands": hands}
    assert violations(rec) == [("R405", "AP-DEAL-2", "/hands/1/dealer")]


# --- (4) AP-WIN-1, TP-WIN-1: a hand after the game was won ------------------------


def _won_then_one_more() -> dict[str, Any]:
    # Cal pitches 2 in every hand and takes High and Low (2); Ben takes Jack
    # and Game (2). Target 7: after hand 4 Cal has 8 as the pitcher who made
    # his bid and wins (AP-WIN-1); totals Ann 0, Ben 8, Cal 8, Dot 0. Hand 5
    # (dealt by Ann) is recorded after the win: +2 each for Ben and Cal, which
    # would make 10 and 10 if it were part of the game. It is not.
    dealers = ["Ann", "Ben", "Cal", "Dot", "Ann"]
    hands = []
    for d in dealers:
        bids = ["pass"] * 4
        bids[(PLAYERS.index("Cal") - PLAYERS.index(d) - 1) % 4] = 2
        hands.append(hand(d, bids))
    return game(hands)


def test_ap_win1_a_hand_after_the_win_is_outside_the_totals() -> None:
    rec = _won_then_one_more()
    a = analyze(rec)
    assert [(v.code, v.rule, v.at) for v in a.violations] == [("R412", "AP-WIN-1", "/hands/4")]
    assert (a.winner, a.winner_hand) == ("Cal", 4)
    assert a.totals == [0, 8, 8, 0]  # the score at the winning hand, not [0, 10, 10, 0]
    # It is still checked: its own hand score is derived (Ben 2, Cal 2)...
    assert a.hands[4] is not None and a.hands[4].delta == [0, 2, 2, 0]


def test_ap_win1_claims_hold_the_score_at_the_winning_hand() -> None:
    rec = _won_then_one_more()
    held = {"Ann": 0, "Ben": 8, "Cal": 8, "Dot": 0}
    rec["hands"][4]["score"] = {"Ann": 0, "Ben": 2, "Cal": 2, "Dot": 0}  # its own change: checked
    rec["hands"][4]["totals"] = dict(held)  # the running totals stay where the game ended
    rec["result"] = {"winner": "Cal", "scores": dict(held)}
    assert violations(rec) == [("R412", "AP-WIN-1", "/hands/4")]
    # Adding the extra hand (Ben 10, Cal 10) is the claim mismatch.
    rec["hands"][4]["totals"] = {"Ann": 0, "Ben": 10, "Cal": 10, "Dot": 0}
    rec["result"]["scores"] = {"Ann": 0, "Ben": 10, "Cal": 10, "Dot": 0}
    assert sorted(violations(rec)) == sorted([
        ("R412", "AP-WIN-1", "/hands/4"),
        ("C503", None, "/hands/4/totals/Ben"), ("C503", None, "/hands/4/totals/Cal"),
        ("C504", None, "/result/scores/Ben"), ("C504", None, "/result/scores/Cal")])


def test_ap_win1_the_hand_after_the_win_is_still_checked() -> None:
    # A wrong score claim in the extra hand is still found (Cal +3 claimed, +2 derived).
    rec = _won_then_one_more()
    rec["hands"][4]["score"] = {"Ann": 0, "Ben": 2, "Cal": 3, "Dot": 0}
    assert sorted(violations(rec)) == [("C502", None, "/hands/4/score/Cal"),
                                       ("R412", "AP-WIN-1", "/hands/4")]


def test_tp_win1_a_hand_after_the_win_is_outside_the_result() -> None:
    # ten-point-5 tallies, the deal passing left: Ann bids 10 with Ben as
    # partner and her side takes all 10 every hand, so Ann and Ben score +10 a
    # hand each (TP5-5), the others 0. After hand 4 Ann has 40; after hand 5,
    # 50 >= 42 as the bidder who made it: she wins (TP-WIN-1). Hand 6 is after
    # the win: its +10 enters neither the totals nor the result.
    five = ["Ann", "Ben", "Cal", "Dot", "Eve"]
    hands = [{"dealer": five[i % 5], "contract": {"bidder": "Ann", "bid": 10}, "trump": "S",
              "partner": {"card": "AS", "player": "Ben"},
              "points": {"Ann": 10, "Ben": 0, "Cal": 0, "Dot": 0, "Eve": 0}} for i in range(6)]
    rec = {"format": "pitch-record/1", "variant": "ten-point-5", "players": five, "hands": hands,
           "result": {"winner": "Ann", "scores": {"Ann": 50, "Ben": 50, "Cal": 0, "Dot": 0, "Eve": 0}}}
    a = analyze(rec)
    assert [(v.code, v.rule, v.at) for v in a.violations] == [("R412", "TP-WIN-1", "/hands/5")]
    assert a.totals == [50, 50, 0, 0, 0] and (a.winner, a.winner_hand) == ("Ann", 5)
    rec["result"]["scores"] = {"Ann": 60, "Ben": 60, "Cal": 0, "Dot": 0, "Eve": 0}
    assert ("C504", None, "/result/scores/Ann") in violations(rec)


# --- (5) CARD-1: a joker led first in Auction Pitch --------------------------------


def test_card1_a_joker_led_first_in_auction_is_card1_at_the_card() -> None:
    # Cal pitches, so he leads trick 1; the record has him lead the Big Joker.
    # Auction Pitch has no jokers (CARD-1): the problem is the card, at
    # /hands/0/tricks/0/0 - not "no trump is recorded" (TP-TRUMP-1 wording:
    # in Auction Pitch the first card led sets trump, nobody names it).
    rec = game([hand("Ann", ["pass", 2, "pass", "pass"])])
    rec["hands"][0]["tricks"][0][0] = "BJ"
    a = analyze(rec)
    codes = [(v.code, v.rule, v.at) for v in a.violations]
    assert ("R401", "CARD-1", "/hands/0/tricks/0/0") in codes
    assert all(v.code != "R410" and "trump" not in v.message for v in a.violations), codes


# --- (6) AP-BID-2, TP-BID-1: a call outside the family's range ----------------------


@pytest.mark.parametrize("bad", [0, 5, 11])
def test_ap_bid2_any_whole_number_outside_1_to_4_is_ap_bid2(bad: int) -> None:
    # The schema lets a whole number through; the engine judges it against the
    # profile's range (min_bid 1, max_bid 4): 0, 5 and 11 are all AP-BID-2.
    rec = game([hand("Ann", [bad, 2, "pass", "pass"], deal=base_deal("Cal"))])
    diags = diagnostics(rec)
    assert fields(diags) == [("R404", "AP-BID-2", "/hands/0/bids/0")]
    assert "Ben bid" in diags[0].message and "pass or 1 to 4" in diags[0].message


@pytest.mark.parametrize("bad", [0, 4, 11])
def test_tp_bid1_any_whole_number_outside_5_to_10_is_tp_bid1(bad: int) -> None:
    five = ["Ann", "Ben", "Cal", "Dot", "Eve"]
    rec = {"format": "pitch-record/1", "variant": "ten-point-5", "players": five, "hands": [
        {"dealer": "Eve", "bids": [bad, 6, "pass", "pass", "pass"], "trump": "S",
         "partner": {"card": "AS", "player": "Dot"},
         "points": {"Ann": 0, "Ben": 5, "Cal": 0, "Dot": 3, "Eve": 2}}]}
    diags = diagnostics(rec)
    assert fields(diags) == [("R404", "TP-BID-1", "/hands/0/bids/0")]
    assert "pass or 5 to 10" in diags[0].message


def test_a_call_that_is_not_a_whole_number_stays_a_schema_error() -> None:
    rec = game([hand("Ann", ["two", 2, "pass", "pass"])])
    assert [(d.code, d.pointer) for d in diagnostics(rec)] == [("S204", "/hands/0/bids/0")]


# --- (7) AP-TABLE-1: `players` outside 2 to 7 ---------------------------------------


def test_ap_table1_a_players_option_of_eight_is_ap_table1() -> None:
    # AP-TABLE-1: Auction Pitch takes 2 to 7 players; `rules: {players: 8}`
    # asks for eight (6 x 8 = 48 cards would fit the 52, so the card
    # arithmetic alone lets it through).
    rec = game([], players=[f"P{i}" for i in range(8)], rules={"players": 8})
    diags = diagnostics(rec)
    assert fields(diags) == [("P302", "AP-TABLE-1", "/rules/players")]
    assert "2 to 7" in diags[0].message
