"""The edge cases a rules lawyer finds (issue 13), each worked by hand.

Each test names the row of RULES.md's table "Which rule a structural problem is
reported under" (or its section "A game's end") that it holds the engine to,
and works out in a comment what the right answer is. Each failed on the code
before the fix. Where the schema stage takes part the record goes through the
whole pipeline (``check_source``: schema, then the engine) and the assertions
are on the diagnostics' fields, not on the text line.
"""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import pytest
from support.games import PLAYERS, base_deal, game, hand

from pitchcli.diagnostics import Diagnostic
from pitchcli.pipeline.check import check_source
from pitchcli.pipeline.feed import analyze


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


# --- (2) TP4-4 / TP5-4: a dead or kitty card played by someone who can't hold it ----


def test_tp4_4_a_dead_card_played_at_play_level() -> None:
    # HAND3 (ten-point-3, tests/test_tenpoint_worked.py) as play: the dead
    # cards and the tricks, no deal. In trick 6 (Ben KS, Cal 3S, Ann 9D) Ann
    # is written as playing 10D instead: 10D is among the dead cards, set
    # aside at the deal and never used, so nobody can play it. (10D is an off
    # card, so no point changes and nothing else is disturbed.)
    from test_tenpoint_worked import HAND3
    h = {k: copy.deepcopy(v) for k, v in HAND3.items() if k not in ("deal", "discards", "draws")}
    rec = {"format": "pitch-record/1", "variant": "ten-point-3", "players": ["Ann", "Ben", "Cal"],
           "hands": [h]}
    assert violations(rec) == []
    h["tricks"][5][2] = "10D"
    a = analyze(rec)
    assert [(v.code, v.rule, v.at) for v in a.violations] == [
        ("R403", "TP4-4", "/hands/0/tricks/5/2")]
    assert "dead" in a.violations[0].message and a.violations[0].details["card"] == "10D"


def test_tp5_4_a_kitty_card_played_by_another_at_play_level() -> None:
    # TP5 (ten-point-5, tests/test_tenpoint_rules.py) without the deal: the
    # kitty BJ 2D QH AC is Ben's, the bidder's. Trick 6 is Ben 2D, Cal 3C, ...;
    # swapped to Ben 3C, Cal 2D (both off cards: nobody wins it either way),
    # Cal plays a kitty card he can't hold.
    from test_tenpoint_rules import TP5
    rec = copy.deepcopy(TP5)
    del rec["hands"][0]["deal"]
    assert violations(rec) == []
    t6 = rec["hands"][0]["tricks"][5]
    t6[0], t6[1] = t6[1], t6[0]
    a = analyze(rec)
    assert [(v.code, v.rule, v.at) for v in a.violations] == [
        ("R403", "TP5-4", "/hands/0/tricks/5/1")]
    assert "kitty" in a.violations[0].message and "Ben" in a.violations[0].message


def test_tp5_4_a_card_dealt_to_another_is_held_to_that_player() -> None:
    # Only Ann's deal is recorded (no discards, so her holding at play is not
    # known in full): her 4S may be played by her alone. Trick 1 of TP5 is
    # BJ JC AS 2S 4S (Ben, Cal, Dot, Eve, Ann); swap Eve's 2S and Ann's 4S.
    # Eve then plays Ann's 4S: an error. (2S still scores 1 for who played
    # it - now Ann - so the points claim is dropped.)
    from test_tenpoint_rules import TP5
    rec = copy.deepcopy(TP5)
    h = rec["hands"][0]
    h["deal"] = {"Ann": h["deal"]["Ann"]}
    del h["discards"], h["points"], h["score"]
    assert violations(rec) == []
    t1 = h["tricks"][0]
    t1[3], t1[4] = t1[4], t1[3]
    found = violations(rec)
    assert ("R403", "TP5-4", "/hands/0/tricks/0/3") in found, found


# --- (1) TP5-3: called partners checked in full (two called cards) -----------------


def _seven(partner: dict[str, Any]) -> dict[str, Any]:
    # HAND7 (ten-point-7, tests/test_tenpoint_worked.py): Ben bids 6 in hearts;
    # trumps held: Cal BJ 6H 10H, Dot KH 7H, Eve LJ, Fay 4H 2H, Ben the rest.
    from test_tenpoint_worked import HAND7, SEVEN
    h = copy.deepcopy(HAND7)
    h["partner"] = partner
    return {"format": "pitch-record/1", "variant": "ten-point-7", "players": list(SEVEN),
            "hands": [h]}


def _seven_tally(partner: dict[str, Any]) -> dict[str, Any]:
    # A score sheet line of ten-point-7: Eve bids 5 in hearts and calls KH, QH.
    seven = ["Ann", "Ben", "Cal", "Dot", "Eve", "Fay", "Gus"]
    return {"format": "pitch-record/1", "variant": "ten-point-7", "players": seven, "hands": [
        {"dealer": "Ann", "contract": {"bidder": "Eve", "bid": 5}, "trump": "H",
         "partner": partner,
         "points": {"Ann": 0, "Ben": 4, "Cal": 3, "Dot": 0, "Eve": 3, "Fay": 0, "Gus": 0}}]}


def test_tp5_3_partners_in_the_order_of_the_cards() -> None:
    # KH is Dot's, LJ is Eve's: the partners are Dot then Eve (the order of
    # the cards; the first card's holder breaks a tie for the win, TP-WIN-1).
    assert violations(_seven({"cards": ["KH", "LJ"], "players": ["Dot", "Eve"]})) == []
    # [Eve, Dot] names the same two, in the wrong order: a claim mismatch.
    rec = _seven({"cards": ["KH", "LJ"], "players": ["Eve", "Dot"]})
    a = analyze(rec)
    assert [(v.code, v.rule, v.at) for v in a.violations] == [
        ("C507", "TP5-3", "/hands/0/partner/players")]
    assert a.violations[0].details["derived"] == ["Dot", "Eve"]


def test_tp5_3_more_names_than_holders() -> None:
    # KH (Dot) and 6H (Cal): two partners. Three names for two cards would
    # make a side of four (Ben, Dot, Cal, Eve) score as partners.
    rec = _seven({"cards": ["KH", "6H"], "players": ["Dot", "Cal", "Eve"]})
    assert violations(rec) == [("R411", "TP5-3", "/hands/0/partner/players")]
    # In a tally nothing shows the holders: three names for two cards is
    # still wrong, and the hand can't be scored (no side of four is counted).
    a = analyze(_seven_tally({"cards": ["KH", "QH"], "players": ["Ben", "Cal", "Dot"]}))
    assert [(v.code, v.rule, v.at) for v in a.violations] == [
        ("R411", "TP5-3", "/hands/0/partner/players")]
    assert a.hands == [None] and a.totals is None


def test_tp5_3_fewer_names_than_holders() -> None:
    # KH (Dot) and 6H (Cal), only Dot named: one holder left out.
    rec = _seven({"cards": ["KH", "6H"], "players": ["Dot"]})
    assert violations(rec) == [("R411", "TP5-3", "/hands/0/partner/players")]
    # One player holding both (KH, 7H are Dot's) is one name: right.
    assert violations(_seven({"cards": ["KH", "7H"], "players": ["Dot"]})) == []


def test_tp5_3_one_name_for_two_cards_when_the_holders_are_not_shown() -> None:
    # A tally: no card shows who holds KH or QH, so the names stand in for
    # the cards, one each. [Ben, Cal] says Ben holds KH and Cal QH: scored
    # (Eve + Ben + Cal took 10 >= 5: +10 each). [Ben] leaves the holder of
    # QH unknown: TP5-3, and the hand can't be scored.
    a = analyze(_seven_tally({"cards": ["KH", "QH"], "players": ["Ben", "Cal"]}))
    assert a.violations == [] and a.totals == [0, 10, 10, 0, 10, 0, 0]
    a = analyze(_seven_tally({"cards": ["KH", "QH"], "players": ["Ben"]}))
    assert [(v.code, v.rule, v.at) for v in a.violations] == [
        ("R411", "TP5-3", "/hands/0/partner/players")]
    assert "QH" in a.violations[0].message and a.hands == [None]


def test_tp5_3_the_same_card_called_twice() -> None:
    # [KH, KH] is one call written twice, not two calls: TP5-3, at the second.
    rec = _seven({"cards": ["KH", "KH"], "players": ["Dot"]})
    assert violations(rec) == [("R411", "TP5-3", "/hands/0/partner/cards/1")]


# --- (3) fields a profile doesn't have are schema errors -----------------------------


def _auction_with(key: str, value: Any) -> dict[str, Any]:
    rec = game([hand("Ann", ["pass", 2, "pass", "pass"], deal=base_deal("Cal"))])
    rec["hands"][0][key] = value
    return rec


@pytest.mark.parametrize(("key", "value", "words"), [
    ("discards", {"Ann": ["2S"]}, "nobody discards"),
    ("draws", {"Ann": ["2S"]}, "only 'refill'"),
    ("kitty", ["2S"], "kitty is 0"),
    ("dead", ["2S"], "dead is 0"),
    ("partner", {"card": "AS"}, "nobody calls a partner"),
])
def test_an_auction_hand_has_no_exchange_kitty_dead_or_partner(key: str, value: Any,
                                                               words: str) -> None:
    # Auction Pitch (mode play-all, kitty 0, dead 0, sides solo): every card
    # dealt is played, so none of these fields can mean anything. Recorded,
    # they are errors of the schema stage at the field, not ignored.
    diags = diagnostics(_auction_with(key, value))
    assert fields(diags) == [("S206", None, f"/hands/0/{key}")]
    assert f"'{key}'" in diags[0].message and "hand 1" in diags[0].message
    assert "'auction'" in diags[0].message and words in diags[0].message


def test_the_rest_of_a_hand_with_such_a_field_is_still_checked() -> None:
    # The kitty is left out of the replay, not the hand: Ben's bid of 0 in
    # the same hand is still found (AP-BID-2), as is a wrong score claim
    # (Cal took High and Low, 2, not 3).
    rec = _auction_with("kitty", ["2S"])
    rec["hands"][0]["score"] = {"Ann": 0, "Ben": 2, "Cal": 3, "Dot": 0}
    assert sorted(fields(diagnostics(rec)), key=str) == [
        ("C502", None, "/hands/0/score/Cal"), ("S206", None, "/hands/0/kitty")]
    # With the bad bid too, the score claim rests on a broken hand and is not
    # reported again (issue 12): the bid is.
    rec["hands"][0]["bids"][0] = 0
    assert sorted(fields(diagnostics(rec)), key=str) == [
        ("R404", "AP-BID-2", "/hands/0/bids/0"), ("S206", None, "/hands/0/kitty")]


def test_a_valid_auction_hand_gets_no_profile_diagnostic() -> None:
    assert diagnostics(_auction_with("notes", "fine")) == []


def test_teams_without_fixed_teams_is_a_schema_error_and_the_game_is_still_checked() -> None:
    # Solo Auction Pitch (sides solo) with teams: S206 at /teams, once (no
    # second report from the engine), and the hands are still replayed: a
    # wrong score claim in hand 1 is found (Cal took 2, claimed 3).
    rec = _auction_with("score", {"Ann": 0, "Ben": 2, "Cal": 3, "Dot": 0})
    rec["teams"] = {"A": ["Ann", "Cal"], "B": ["Ben", "Dot"]}
    assert sorted(fields(diagnostics(rec)), key=str) == [("C502", None, "/hands/0/score/Cal"),
                                                         ("S206", None, "/teams")]


def test_ten_point_profiles_by_their_options() -> None:
    from test_tenpoint_rules import TP4, TP5
    # ten-point-5 is cut-down: a kitty and discards, but no draws.
    rec = copy.deepcopy(TP5)
    assert diagnostics(rec) == []
    rec["hands"][0]["draws"] = {"Ann": []}
    assert fields(diagnostics(rec)) == [("S206", None, "/hands/0/draws")]
    # ten-point is refill with fixed teams: draws, but no kitty, no dead cards, no partner.
    for key, value in (("kitty", []), ("dead", []), ("partner", {"card": "AH"})):
        rec = copy.deepcopy(TP4)
        assert diagnostics(rec) == []
        rec["hands"][0][key] = value
        assert fields(diagnostics(rec)) == [("S206", None, f"/hands/0/{key}")], key


def test_the_fields_follow_the_options_not_the_name() -> None:
    # ten-point-3 sets nine cards aside; overridden to dead 0 it sets none,
    # so a `dead` list is an error there too (HAND3 as a tally with its dead).
    from test_tenpoint_worked import HAND3
    h = {"dealer": "Cal", "contract": {"bidder": "Ben", "bid": 6}, "trump": "C",
         "dead": list(HAND3["dead"]), "points": {"Ann": 3, "Ben": 2, "Cal": 4}}
    rec = {"format": "pitch-record/1", "variant": "ten-point-3", "players": ["Ann", "Ben", "Cal"],
           "hands": [h]}
    assert diagnostics(rec) == []
    rec["rules"] = {"dead": 0}
    # (The rest of the hand is still checked: with no dead cards all ten
    # points are in play, and the tally's 3 + 2 + 4 = 9 is short: TP-POINTS-1.)
    assert sorted(fields(diagnostics(rec)), key=str) == [
        ("C501", "TP-POINTS-1", "/hands/0/points"), ("S206", None, "/hands/0/dead")]
