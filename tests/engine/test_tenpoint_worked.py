"""Ten-point Pitch worked by hand: full records of one hand (and one game) in
several profiles, with the arithmetic written out next to each record, and the
engine's numbers checked against it: who won each trick, the points each side
took (TP-POINTS-1), the score (TP-SCORE-2, TP5-5), the totals and the winner
(TP-WIN-1).

Profiles: ``ten-point`` (four players, fixed teams, refill; with a player
dealt seven trumps, TP4-5), ``ten-point-5`` (called partner, cut-down),
``ten-point-7`` (two called cards: two partners, one player holding both, the
bidder holding one; and a tie between two partners at the target),
``ten-point-3`` (dead cards), ``ten-point-6`` (three teams of two) and
``ten-point-8`` (two teams of four). The hands were dealt by
``pitchcli.pipeline.simulate`` and are written out here in full, so they don't depend
on it. Self-contained: helpers are this file's own.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pitchcli.cards import card
from pitchcli.engine.family import family_for
from pitchcli.pipeline.feed import GameAnalysis, analyze
from pitchcli.record.schema import validate


def record(variant: str, players: list[str], hands: list[dict[str, Any]],
           teams: dict[str, list[str]] | None = None) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": "pitch-record/1", "variant": variant, "players": list(players)}
    if teams:
        rec["teams"] = copy.deepcopy(teams)
    rec["hands"] = copy.deepcopy(hands)
    return rec


def clean(rec: dict[str, Any]) -> GameAnalysis:
    assert validate(rec) == []
    a = analyze(rec)
    assert a.violations == [], [(v.code, v.rule, v.at, v.message) for v in a.violations]
    return a


def per_unit(a: GameAnalysis, values: list[int]) -> dict[str, int]:
    assert a.table is not None
    return dict(zip(a.table.unit_names, values, strict=True))


def tricks_won(a: GameAnalysis, hand: int = 0) -> list[str | None]:
    """Who won each trick (``None``: nobody, TP-PLAY-2)."""
    assert a.table is not None
    r = a.hands[hand]
    assert r is not None
    return [None if t.winner is None else a.table.players[t.winner] for t in r.tricks]


def result_of(a: GameAnalysis, hand: int = 0) -> tuple[dict[str, int], dict[str, int]]:
    """(points taken, score) of a hand, by player or team name."""
    r = a.hands[hand]
    assert r is not None
    return per_unit(a, r.taken), per_unit(a, r.delta)


def points_in(cards: list[str], trump: str) -> int:
    view = family_for("ten-point", "refill").view(trump)
    return sum(view.points[card(c)] for c in cards)


# =============================================================================
# ten-point: four players, partners opposite (TP4-*)
#
# Players Ann, Ben, Cal, Dot; teams AC (Ann + Cal) and BD (Ben + Dot). Dot
# deals nine each (36 cards; 18 stay in the pack). Ann bids 5, the others pass.
# Ann names hearts: trumps AH KH QH JH, JD, BJ, LJ, 10H .. 2H.
#
# Exchange:
#   Ben keeps his 2 trumps (3H 6H), throws 7 off cards, is dealt 4 (AS 8D JD 8S:
#       JD, the off-jack, is one more trump);
#   Cal keeps 1 trump (5H), throws 8, is dealt 5;
#   Dot is dealt 7 trumps (7H KH 4H 9H 8H 10H BJ) and AD 3D: he throws the two
#       off cards and, having more than six trumps, one trump that is not a
#       point card, 4H (TP4-5). He keeps six and is dealt nothing.
#   The pack: 18 - 4 - 5 - 0 = 9 cards for Ann, the bidder, who makes six of
#       her 9 + 9 = 18: AH JH LJ 2H QH and the off card 2C. Her 12 discards
#       are not point cards.
#
#   trick  leader  Ann  Ben  Cal  Dot   winner  points
#   1      Ann     2H   6H   5H   KH    Dot     2H 1 -> AC (Ann played it)
#   2      Dot     QH   3H   5D   7H    Ann     3H 3 -> AC
#   3      Ann     JH   JD   3C   8H    Ann     JH 1 + JD 1 -> AC
#   4      Ann     LJ   8S   QC   BJ    Dot     LJ 1 + BJ 1 -> BD (a joker lead is a trump lead)
#   5      Dot     AH   8D   10C  10H   Ann     10H 1 + AH 1 -> AC
#   6      Ann     2C   AS   7S   9H    Dot     -
#
# AC took 1 + 3 + 2 + 2 = 8, BD 2. Ann bid 5 and AC made it: AC scores 8,
# BD 2.
FOUR = ["Ann", "Ben", "Cal", "Dot"]
TEAMS4 = {"AC": ["Ann", "Cal"], "BD": ["Ben", "Dot"]}
HAND4: dict[str, Any] = {
    "dealer": "Dot",
    "deal": {
        "Ann": ["AC", "4D", "9S", "AH", "5C", "JH", "LJ", "2H", "5S"],
        "Ben": ["9C", "3H", "4C", "6C", "QD", "6H", "10D", "KD", "KS"],
        "Cal": ["10S", "KC", "8C", "JC", "7D", "5H", "7C", "6D", "QS"],
        "Dot": ["AD", "7H", "KH", "4H", "9H", "8H", "10H", "3D", "BJ"],
    },
    "bids": [5, "pass", "pass", "pass"],
    "trump": "H",
    "discards": {
        "Ann": ["6S", "2S", "AC", "4D", "4S", "3S", "2D", "9D", "5C", "9S", "JS", "5S"],
        "Ben": ["9C", "4C", "6C", "QD", "10D", "KD", "KS"],
        "Cal": ["10S", "KC", "8C", "JC", "7D", "7C", "6D", "QS"],
        "Dot": ["AD", "3D", "4H"],
    },
    "draws": {
        "Ann": ["4S", "JS", "QH", "6S", "2S", "2D", "9D", "3S", "2C"],
        "Ben": ["AS", "8D", "JD", "8S"],
        "Cal": ["7S", "QC", "10C", "5D", "3C"],
        "Dot": [],
    },
    "tricks": [
        ["2H", "6H", "5H", "KH"],
        ["7H", "QH", "3H", "5D"],
        ["JH", "JD", "3C", "8H"],
        ["LJ", "8S", "QC", "BJ"],
        ["10H", "AH", "8D", "10C"],
        ["2C", "AS", "7S", "9H"],
    ],
    "points": {"AC": 8, "BD": 2},
    "score": {"AC": 8, "BD": 2},
}


def four(**changes: Any) -> dict[str, Any]:
    hand = copy.deepcopy(HAND4)
    hand.update(copy.deepcopy(changes))
    return record("ten-point", FOUR, [hand], TEAMS4)


def test_ten_point_four_players() -> None:
    a = clean(four())
    assert tricks_won(a) == ["Dot", "Ann", "Ann", "Dot", "Ann", "Dot"]
    assert result_of(a) == ({"AC": 8, "BD": 2}, {"AC": 8, "BD": 2})


def test_ten_point_four_players_set() -> None:
    # The same cards with Ann bidding 9: AC took 8 < 9, so AC scores -9; BD
    # scores the 2 it took.
    a = clean(four(bids=[9, "pass", "pass", "pass"], score={"AC": -9, "BD": 2}))
    assert result_of(a)[1] == {"AC": -9, "BD": 2}


def test_ten_point_a_two_hand_game() -> None:
    # Hand 2 is a tally: Ann deals, Ben bids 6 and BD takes 7, AC 3.
    # Totals: AC 8 + 3 = 11, BD 2 + 7 = 9.
    hand2 = {"dealer": "Ann", "contract": {"bidder": "Ben", "bid": 6}, "points": {"AC": 3, "BD": 7},
             "score": {"AC": 3, "BD": 7}, "totals": {"AC": 11, "BD": 9}}
    rec = four(totals={"AC": 8, "BD": 2})
    rec["hands"].append(hand2)
    rec["result"] = {"winner": None, "scores": {"AC": 11, "BD": 9}}
    a = clean(rec)
    assert per_unit(a, a.totals or []) == {"AC": 11, "BD": 9} and a.winner is None


# --- TP4-5 on this hand: more than six trumps ---------------------------------


def test_tp4_5_seven_trumps_down_to_six_by_a_non_point_trump() -> None:
    # Dot throws AD 3D and the 4H (not a point card); he is dealt nothing.
    a = clean(four())
    dot = HAND4["deal"]["Dot"]
    assert sum(family_for("ten-point", "refill").view("H").is_trump(card(c)) for c in dot) == 7
    assert a.hands[0] is not None


def test_tp4_5_seven_trumps_kept() -> None:
    # Dot throws only his two off cards: seven trumps, one too many.
    rec = four(discards={**HAND4["discards"], "Dot": ["AD", "3D"]})
    a = analyze(rec)
    v = next(v for v in a.violations if v.rule == "TP4-5")
    assert (v.code, v.at) == ("R409", "/hands/0/discards/Dot/0")
    assert "Dot held 7 trumps and discarded 0 of them" in v.message and "TP4-5" not in v.message


def test_tp4_5_the_trump_thrown_must_not_be_a_point_card() -> None:
    # Dot throws 10H instead of 4H, and leads 4H to trick 5 (Ann's AH still
    # wins): a point card discarded (TP4-4), and out of play.
    rec = four(discards={**HAND4["discards"], "Dot": ["AD", "3D", "10H"]})
    h = rec["hands"][0]
    del h["points"], h["score"]
    h["tricks"][4][0] = "4H"
    a = analyze(rec)
    assert [(v.code, v.rule, v.at) for v in a.violations] == [
        ("R409", "TP4-4", "/hands/0/discards/Dot/2"), ("R409", "TP4-4", "/hands/0/tricks")]
    assert "Dot discarded 10H, a point card" in a.violations[0].message


def test_tp4_5_an_impossible_deal_is_reported() -> None:
    # Give Dot seven trumps that are all point cards (AH JH LJ 2H 3H 10H BJ):
    # he can't get down to six without throwing a point card.
    rec = four()
    h = rec["hands"][0]
    for mine, theirs, owner in [("7H", "AH", "Ann"), ("KH", "JH", "Ann"), ("4H", "LJ", "Ann"),
                                ("9H", "2H", "Ann"), ("8H", "3H", "Ben")]:
        dot, other = h["deal"]["Dot"], h["deal"][owner]
        dot[dot.index(mine)], other[other.index(theirs)] = theirs, mine
    a = analyze(rec)
    v = next(v for v in a.violations if v.rule == "TP4-5")
    assert (v.code, v.at) == ("R409", "/hands/0/deal/Dot")
    assert "impossible" in v.message and "7 trumps" in v.message


# =============================================================================
# ten-point-5: called partner (TP5-*), the bidder calling a card of the kitty
#
# Ann, Ben, Cal, Dot, Eve; Cal deals ten each, the kitty is 10D 10S 10C 9S.
# Dot bids 6 (the rest pass), names spades (off-jack JC), takes the kitty and
# calls the 9S: it came to him in the kitty, so he plays alone, one against
# four (TP5-3), even though he then throws the 9S away.
#
#   trick  leader  cards (leader first)           winner  points
#   1      Dot     10S  KS   2C   BJ   5S         Eve     10S 1 + BJ 1 -> Eve
#   2      Eve     5D   4D   8S   6S   3S         Ben     3S 3 -> Ben (Dot's 3, lost)
#   3      Ben     LJ   7S   JC   4C   9D         Dot     LJ 1 + JC 1 -> Dot
#   4      Dot     AS   2H   6D   2S   10H        Dot     AS 1 -> Dot; 2S 1 -> Ben (he played it)
#   5      Dot     QS   3H   6C   9C   JH         Dot     -
#   6      Dot     JS   AC   7H   3D   KD         Dot     JS 1 -> Dot
#
# Points taken: Dot 4, Ben 4, Eve 2. Alone, Dot took 4 < 6: he scores -6;
# the other side took 4 + 2 = 6, and Ann, Ben, Cal and Eve score 6 each.
FIVE = ["Ann", "Ben", "Cal", "Dot", "Eve"]
HAND5: dict[str, Any] = {
    "dealer": "Cal",
    "deal": {
        "Ann": ["9H", "6D", "7D", "6C", "7H", "6H", "KH", "2C", "9D", "4D"],
        "Ben": ["BJ", "3D", "8D", "KC", "2S", "8S", "QC", "9C", "LJ", "8H"],
        "Cal": ["QD", "10H", "QH", "5H", "7S", "6S", "JH", "KD", "7C", "5S"],
        "Dot": ["4S", "4H", "5C", "3S", "JD", "AS", "JC", "QS", "AH", "JS"],
        "Eve": ["4C", "2H", "2D", "5D", "3C", "AC", "3H", "KS", "8C", "AD"],
    },
    "kitty": ["10D", "10S", "10C", "9S"],
    "bids": [6, "pass", "pass", "pass", "pass"],
    "trump": "S",
    "partner": {"card": "9S"},
    "discards": {
        "Ann": ["9H", "7D", "6H", "KH"],
        "Ben": ["QC", "8H", "KC", "8D"],
        "Cal": ["QH", "QD", "5H", "7C"],
        "Dot": ["AH", "10D", "JD", "5C", "4H", "10C", "4S", "9S"],
        "Eve": ["2D", "3C", "8C", "AD"],
    },
    "tricks": [
        ["10S", "KS", "2C", "BJ", "5S"],
        ["5D", "4D", "8S", "6S", "3S"],
        ["LJ", "7S", "JC", "4C", "9D"],
        ["AS", "2H", "6D", "2S", "10H"],
        ["QS", "3H", "6C", "9C", "JH"],
        ["JS", "AC", "7H", "3D", "KD"],
    ],
    "points": {"Ann": 0, "Ben": 4, "Cal": 0, "Dot": 4, "Eve": 2},
    "score": {"Ann": 6, "Ben": 6, "Cal": 6, "Dot": -6, "Eve": 6},
}


def five(partner: dict[str, Any] | None = None, score: dict[str, int] | None = None) -> dict[str, Any]:
    hand = copy.deepcopy(HAND5)
    if partner is not None:
        hand["partner"] = partner
    if score is not None:
        hand["score"] = score
    return record("ten-point-5", FIVE, [hand])


def test_ten_point_5_bidder_alone_with_a_kitty_card() -> None:
    a = clean(five())
    assert tricks_won(a) == ["Eve", "Ben", "Dot", "Dot", "Dot", "Dot"]
    r = a.hands[0]
    assert r is not None and r.partners == [] and not r.made
    assert result_of(a) == ({"Ann": 0, "Ben": 4, "Cal": 0, "Dot": 4, "Eve": 2},
                            {"Ann": 6, "Ben": 6, "Cal": 6, "Dot": -6, "Eve": 6})


def test_ten_point_5_the_same_cards_with_eve_as_partner() -> None:
    # Calling the KS (Eve's): Dot 4 + Eve 2 = 6 >= 6, made: Dot and Eve score
    # 6 each; Ann, Ben, Cal took 4 (all Ben's): 4 each.
    a = clean(five({"card": "KS", "player": "Eve"}, {"Ann": 4, "Ben": 4, "Cal": 4, "Dot": 6, "Eve": 6}))
    assert a.hands[0] is not None and a.hands[0].made


def test_ten_point_5_the_same_cards_with_ben_as_partner() -> None:
    # Calling the 8S (Ben's): Dot 4 + Ben 4 = 8, made: 8 each; the other
    # three took Eve's 2: 2 each (RULES.md's example of TP5-5).
    a = clean(five({"card": "8S", "player": "Ben"}, {"Ann": 2, "Ben": 8, "Cal": 2, "Dot": 8, "Eve": 2}))
    assert a.hands[0] is not None and a.hands[0].partners == [1]


# =============================================================================
# ten-point-7: two called cards (TP5-3)
#
# Ann .. Gus; Gus deals seven each, the kitty is 5S 4C AH JS 9H. Ben bids 6
# (the rest pass), names hearts (off-jack JD), takes the kitty (AH and 9H are
# trumps for him) and throws six off cards and the 5H.
#
#   trick  leader  cards (leader first)              winner  points
#   1      Ben     3H  BJ  KH  LJ  4H  QH  9C        Dot     3H 3 + BJ 1 + LJ 1 -> Dot (Ben's 3 lost)
#   2      Dot     4D  6D  3D  10D 9D  AH  6H        Ben     AH 1 -> Ben (Cal trumps holding 5D)
#   3      Ben     9H  10H 7H  2C  2H  8D  10C       Cal     10H 1 -> Cal; 2H 1 -> Fay
#   4      Cal     3C  AC  6C  JC  QC  5C  JH        Ben     JH 1 -> Ben (JC is an off card)
#   5      Ben     8H  KC  3S  AD  4S  6S  2S        Ben     -
#   6      Ben     JD  5D  AS  7D  7S  8S  QS        Ben     JD 1 -> Ben (the off-jack)
#
# Points taken: Ben 3, Cal 1, Dot 5, Fay 1 (10). Who the partners are depends
# only on the cards Ben calls; trumps held: Cal BJ 6H 10H, Dot KH 7H, Fay 4H 2H,
# Ben (with the kitty) 3H JH JD 8H AH 9H.
SEVEN = ["Ann", "Ben", "Cal", "Dot", "Eve", "Fay", "Gus"]
HAND7: dict[str, Any] = {
    "dealer": "Gus",
    "deal": {
        "Ann": ["10C", "5C", "2S", "KS", "9D", "9C", "QS"],
        "Ben": ["JH", "3H", "JD", "8C", "5H", "8H", "10S"],
        "Cal": ["3C", "KC", "BJ", "QD", "6H", "10H", "5D"],
        "Dot": ["AC", "AS", "KH", "7C", "3S", "7H", "4D"],
        "Eve": ["LJ", "7D", "6D", "9S", "6C", "AD", "2C"],
        "Fay": ["4H", "JC", "2D", "3D", "7S", "4S", "2H"],
        "Gus": ["8D", "QC", "KD", "QH", "8S", "10D", "6S"],
    },
    "kitty": ["5S", "4C", "AH", "JS", "9H"],
    "bids": ["pass", 6, "pass", "pass", "pass", "pass", "pass"],
    "trump": "H",
    "discards": {
        "Ann": ["KS"],
        "Ben": ["4C", "5S", "10S", "JS", "8C", "5H"],
        "Cal": ["QD"],
        "Dot": ["7C"],
        "Eve": ["9S"],
        "Fay": ["2D"],
        "Gus": ["KD"],
    },
    "tricks": [
        ["3H", "BJ", "KH", "LJ", "4H", "QH", "9C"],
        ["4D", "6D", "3D", "10D", "9D", "AH", "6H"],
        ["9H", "10H", "7H", "2C", "2H", "8D", "10C"],
        ["3C", "AC", "6C", "JC", "QC", "5C", "JH"],
        ["8H", "KC", "3S", "AD", "4S", "6S", "2S"],
        ["JD", "5D", "AS", "7D", "7S", "8S", "QS"],
    ],
    "points": {"Ann": 0, "Ben": 3, "Cal": 1, "Dot": 5, "Eve": 0, "Fay": 1, "Gus": 0},
}


def called7(cards: list[str], players: list[str], score: list[int]) -> GameAnalysis:
    hand = copy.deepcopy(HAND7)
    hand["partner"] = {"cards": cards, "players": players}
    hand["score"] = dict(zip(SEVEN, score, strict=True))
    a = clean(record("ten-point-7", SEVEN, [hand]))
    assert tricks_won(a) == ["Dot", "Ben", "Cal", "Ben", "Ben", "Ben"]
    return a


def test_ten_point_7_two_partners_three_against_four() -> None:
    # KH (Dot) and 6H (Cal): Ben + Dot + Cal took 3 + 5 + 1 = 9 >= 6: 9 each;
    # Ann, Eve, Fay, Gus took Fay's 1: 1 each.
    a = called7(["KH", "6H"], ["Dot", "Cal"], [1, 9, 9, 9, 1, 1, 1])
    r = a.hands[0]
    assert r is not None and r.partners == [2, 3] and r.card_holders == [3, 2]


def test_ten_point_7_one_player_holds_both_two_against_five() -> None:
    # BJ and 10H are both Cal's: one partner. Ben + Cal took 3 + 1 = 4 < 6:
    # -6 each; Ann, Dot, Eve, Fay, Gus took 5 + 1 = 6: 6 each.
    a = called7(["BJ", "10H"], ["Cal"], [6, -6, -6, 6, 6, 6, 6])
    r = a.hands[0]
    assert r is not None and r.partners == [2] and r.card_holders == [2, 2] and not r.made


def test_ten_point_7_the_other_holder_of_two() -> None:
    # KH and 7H are both Dot's: Ben + Dot took 3 + 5 = 8 >= 6: 8 each; the
    # five others took Cal's 1 + Fay's 1 = 2: 2 each.
    a = called7(["KH", "7H"], ["Dot"], [2, 8, 2, 8, 2, 2, 2])
    assert a.hands[0] is not None and a.hands[0].partners == [3]


def test_ten_point_7_the_bidder_holds_one_called_card() -> None:
    # AH came to Ben in the kitty, KH is Dot's: two against five, as above.
    a = called7(["AH", "KH"], ["Dot"], [2, 8, 2, 8, 2, 2, 2])
    r = a.hands[0]
    assert r is not None and r.partners == [3] and r.card_holders == [1, 3]


def test_ten_point_7_the_bidder_holds_both() -> None:
    # JH and 3H are Ben's: alone, 3 < 6: -6; the six others took 7: 7 each.
    a = called7(["JH", "3H"], [], [7, -6, 7, 7, 7, 7, 7])
    assert a.hands[0] is not None and a.hands[0].partners == []


# --- TP-WIN-1: two partners tied at the target -------------------------------
#
# Hands 1-4 (tallies, dealt by Dot, Eve, Fay, Gus): Gus bids 5 and calls Fay
# and Cal; the side takes 9: Gus, Fay, Cal score 9 each, Ann, Ben, Dot, Eve 1
# each. After four hands: Cal, Fay, Gus 36; Ann, Ben, Dot, Eve 4.
#
# Hand 5 (in full, dealt by Ann): Ben bids 5, names diamonds (off-jack JH) and
# calls JD (Fay's) then 2D (Cal's).
#
#   trick  leader  cards (leader first)              winner  points
#   1      Ben     6D  2D  7D  5D  JD  3D  BJ        Fay     JD 1 + 3D 3 + BJ 1 -> Fay; 2D 1 -> Cal
#   2      Fay     QS  QD  10D 6S  3S  4D  5S        Gus     10D 1 -> Gus
#   3      Gus     6H  5H  AD  7H  2S  4H  10H       Ben     AD 1 -> Ben
#   4      Ben     KD  QC  7C  4C  7S  LJ  4S        Ben     LJ 1 -> Ben
#   5      Ben     9D  3H  AS  9S  9C  8D  KC        Ben     -
#   6      Ben     JH  10C JC  3C  5C  8H  2C        Ben     JH 1 -> Ben (the off-jack, from the kitty)
#
# Ben 3 + Fay 5 + Cal 1 = 9 >= 5: Ben, Fay, Cal score 9; Gus's 1 gives Ann,
# Dot, Eve, Gus 1 each. Totals: Ann 5, Ben 13, Cal 45, Dot 5, Eve 5, Fay 45,
# Gus 37. The bidding side made its bid and is at the target; Ben is not, so
# the partner at the target with the higher total wins: Cal and Fay are tied
# at 45, and Fay holds the first card called (JD): Fay wins. Call the cards
# the other way round (2D, then JD) and Cal wins.
HAND7_TIE: dict[str, Any] = {
    "dealer": "Ann",
    "deal": {
        "Ann": ["BJ", "KH", "KC", "4S", "2C", "10D", "5H"],
        "Ben": ["9D", "6S", "AD", "AC", "6D", "KD", "8S"],
        "Cal": ["7H", "QC", "3S", "2D", "3H", "10S", "10C"],
        "Dot": ["2H", "AS", "7C", "2S", "7D", "JC", "4D"],
        "Eve": ["3C", "9H", "4C", "4H", "5D", "5S", "9S"],
        "Fay": ["5C", "7S", "JD", "QS", "9C", "10H", "6C"],
        "Gus": ["QD", "8C", "8H", "3D", "LJ", "6H", "8D"],
    },
    "kitty": ["QH", "JH", "AH", "JS", "KS"],
    "bids": [5, "pass", "pass", "pass", "pass", "pass", "pass"],
    "trump": "D",
    "partner": {"cards": ["JD", "2D"], "players": ["Fay", "Cal"]},
    "discards": {
        "Ann": ["KH"],
        "Ben": ["AC", "8S", "KS", "JS", "QH", "AH"],
        "Cal": ["10S"],
        "Dot": ["2H"],
        "Eve": ["9H"],
        "Fay": ["6C"],
        "Gus": ["8C"],
    },
    "tricks": [
        ["6D", "2D", "7D", "5D", "JD", "3D", "BJ"],
        ["QS", "QD", "10D", "6S", "3S", "4D", "5S"],
        ["6H", "5H", "AD", "7H", "2S", "4H", "10H"],
        ["KD", "QC", "7C", "4C", "7S", "LJ", "4S"],
        ["9D", "3H", "AS", "9S", "9C", "8D", "KC"],
        ["JH", "10C", "JC", "3C", "5C", "8H", "2C"],
    ],
    "points": {"Ann": 0, "Ben": 3, "Cal": 1, "Dot": 0, "Eve": 0, "Fay": 5, "Gus": 1},
    "score": {"Ann": 1, "Ben": 9, "Cal": 9, "Dot": 1, "Eve": 1, "Fay": 9, "Gus": 1},
    "totals": {"Ann": 5, "Ben": 13, "Cal": 45, "Dot": 5, "Eve": 5, "Fay": 45, "Gus": 37},
}


def tie_game(first_called: str) -> dict[str, Any]:
    tally = {"contract": {"bidder": "Gus", "bid": 5}, "trump": "S",
             "partner": {"cards": ["AS", "KS"], "players": ["Fay", "Cal"]},
             "points": {"Ann": 1, "Ben": 0, "Cal": 0, "Dot": 0, "Eve": 0, "Fay": 0, "Gus": 9},
             "score": {"Ann": 1, "Ben": 1, "Cal": 9, "Dot": 1, "Eve": 1, "Fay": 9, "Gus": 9}}
    hands = [{"dealer": d, **copy.deepcopy(tally)} for d in ("Dot", "Eve", "Fay", "Gus")]
    last = copy.deepcopy(HAND7_TIE)
    if first_called == "2D":
        last["partner"] = {"cards": ["2D", "JD"], "players": ["Cal", "Fay"]}
    hands.append(last)
    return record("ten-point-7", SEVEN, hands)


@pytest.mark.parametrize(("first_called", "winner"), [("JD", "Fay"), ("2D", "Cal")])
def test_ten_point_7_partners_tied_at_the_target(first_called: str, winner: str) -> None:
    rec = tie_game(first_called)
    rec["result"] = {"winner": winner, "scores": HAND7_TIE["totals"]}
    a = clean(rec)
    assert tricks_won(a, 4) == ["Fay", "Gus", "Ben", "Ben", "Ben", "Ben"]
    assert per_unit(a, a.totals or []) == HAND7_TIE["totals"]
    assert (a.winner, a.winner_hand) == (winner, 5)


# =============================================================================
# ten-point-3: dead cards
#
# Ann, Ben, Cal; Cal deals nine each and sets nine aside face down (dead):
# KC 4H 2H LJ JH 10D QC 2D 5H. Ben bids 6 and names clubs (off-jack JS). One
# point card is dead, the LJ, so 10 - 1 = 9 points are in play.
#
# Exchange: Ann keeps her 3 trumps (5C 8C 2C) and is dealt 3; Cal keeps 3
# (9C 4C 10C) and is dealt 3; Ben gets the other 18 - 6 = 12 and keeps 3C 6C
# 7C JS JC and the off card KS.
#
#   trick  leader  cards (leader first)   winner  points
#   1      Ben     3C  9C  2C             Cal     3C 3 -> Cal (Ben's 3); 2C 1 -> Ann
#   2      Cal     4D  5C  7C             Ben     -
#   3      Ben     JC  4C  AC             Ann     JC 1 + AC 1 -> Ann
#   4      Ann     8C  6C  BJ             Cal     BJ 1 -> Cal
#   5      Cal     10C AS  JS             Ben     10C 1 + JS 1 -> Ben (the off-jack beats the 10)
#   6      Ben     KS  3S  9D             nobody  off cards only
#
# Ann 1 + 2 = 3, Ben 2, Cal 3 + 1 = 4: 9 points. Ben bid 6, took 2: -6; Ann 3,
# Cal 4.
HAND3: dict[str, Any] = {
    "dealer": "Cal",
    "deal": {
        "Ann": ["KH", "5C", "8C", "9H", "JD", "QH", "QS", "10H", "2C"],
        "Ben": ["3C", "3D", "AD", "6C", "2S", "5S", "7C", "JS", "JC"],
        "Cal": ["3H", "4S", "8S", "9C", "7H", "10S", "4C", "7S", "10C"],
    },
    "dead": ["KC", "4H", "2H", "LJ", "JH", "10D", "QC", "2D", "5H"],
    "bids": ["pass", 6, "pass"],
    "trump": "C",
    "discards": {
        "Ann": ["KH", "9H", "JD", "QH", "QS", "10H"],
        "Ben": ["3D", "6H", "KD", "AD", "5D", "7D", "8H", "AH", "8D", "5S", "9S", "6S", "2S", "6D", "QD"],
        "Cal": ["3H", "4S", "8S", "7H", "10S", "7S"],
    },
    "draws": {
        "Ann": ["AS", "AC", "9D"],
        "Ben": ["AH", "7D", "6S", "KD", "8H", "5D", "KS", "QD", "6D", "8D", "9S", "6H"],
        "Cal": ["3S", "BJ", "4D"],
    },
    "tricks": [
        ["3C", "9C", "2C"],
        ["4D", "5C", "7C"],
        ["JC", "4C", "AC"],
        ["8C", "6C", "BJ"],
        ["10C", "AS", "JS"],
        ["KS", "3S", "9D"],
    ],
    "points": {"Ann": 3, "Ben": 2, "Cal": 4},
    "score": {"Ann": 3, "Ben": -6, "Cal": 4},
}


def test_ten_point_3_dead_cards() -> None:
    a = clean(record("ten-point-3", ["Ann", "Ben", "Cal"], [HAND3]))
    assert tricks_won(a) == ["Cal", "Ben", "Ann", "Cal", "Ben", None]
    taken, score = result_of(a)
    assert taken == {"Ann": 3, "Ben": 2, "Cal": 4} and score == {"Ann": 3, "Ben": -6, "Cal": 4}
    assert sum(taken.values()) == 10 - points_in(HAND3["dead"], "C") == 9


def test_ten_point_3_no_total_of_ten_is_required() -> None:
    # A tally of this hand: 9 points (a dead point card) is no error here.
    hand = {"dealer": "Cal", "contract": {"bidder": "Ben", "bid": 6}, "trump": "C",
            "points": {"Ann": 3, "Ben": 2, "Cal": 4}, "score": {"Ann": 3, "Ben": -6, "Cal": 4}}
    clean(record("ten-point-3", ["Ann", "Ben", "Cal"], [hand]))


# =============================================================================
# ten-point-6: three teams of two (partners three seats apart)
#
# Teams AD (Ann + Dot), BE (Ben + Eve), CF (Cal + Fay). Fay deals eight each,
# the kitty has six. Everybody passes: Fay, the dealer, is stuck with 5
# (TP-BID-1); she names hearts (off-jack JD), takes the kitty and throws eight.
#
#   trick  leader  cards (leader first)          winner  points
#   1      Fay     6H  QH  BJ  10H JD  9H        Ann     BJ 1 + 10H 1 + JD 1 -> AD
#   2      Ann     3C  10C 9C  QC  5D  8H        Fay     - (Fay trumps a club lead)
#   3      Fay     7H  2H  LJ  KH  7D  AH        Eve     LJ 1 + AH 1 -> BE; 2H 1 -> AD (Ann's)
#   4      Eve     JH  4H  AS  QD  8D  KD        Eve     JH 1 -> BE
#   5      Eve     3H  5H  JS  QS  2S  6C        Fay     3H 3 -> CF (Eve's 3, lost)
#   6      Fay     4D  3D  3S  4S  KS  AD        nobody  off cards only
#
# AD 3 + 1 = 4, BE 2 + 1 = 3, CF 3: 10. CF bid 5 and took 3: -5; AD 4, BE 3.
SIX = ["Ann", "Ben", "Cal", "Dot", "Eve", "Fay"]
TEAMS6 = {"AD": ["Ann", "Dot"], "BE": ["Ben", "Eve"], "CF": ["Cal", "Fay"]}
HAND6: dict[str, Any] = {
    "dealer": "Fay",
    "deal": {
        "Ann": ["3D", "6D", "AS", "QH", "10D", "3C", "JS", "2H"],
        "Ben": ["QD", "10C", "LJ", "2D", "BJ", "3S", "AC", "QS"],
        "Cal": ["5S", "4S", "2S", "KH", "10S", "8D", "10H", "9C"],
        "Dot": ["7S", "6C", "7D", "QC", "KC", "KD", "KS", "JD"],
        "Eve": ["JH", "9H", "3H", "8C", "9S", "AD", "AH", "5D"],
        "Fay": ["8H", "4D", "5C", "6S", "7H", "5H", "6H", "4H"],
    },
    "kitty": ["9D", "4C", "JC", "7C", "2C", "8S"],
    "bids": ["pass", "pass", "pass", "pass", "pass", "pass"],
    "trump": "H",
    "discards": {
        "Ann": ["6D", "10D"],
        "Ben": ["AC", "2D"],
        "Cal": ["10S", "5S"],
        "Dot": ["7S", "KC"],
        "Eve": ["9S", "8C"],
        "Fay": ["5C", "JC", "7C", "2C", "8S", "4C", "6S", "9D"],
    },
    "tricks": [
        ["6H", "QH", "BJ", "10H", "JD", "9H"],
        ["3C", "10C", "9C", "QC", "5D", "8H"],
        ["7H", "2H", "LJ", "KH", "7D", "AH"],
        ["JH", "4H", "AS", "QD", "8D", "KD"],
        ["3H", "5H", "JS", "QS", "2S", "6C"],
        ["4D", "3D", "3S", "4S", "KS", "AD"],
    ],
    "points": {"AD": 4, "BE": 3, "CF": 3},
    "score": {"AD": 4, "BE": 3, "CF": -5},
}


def test_ten_point_6_three_teams() -> None:
    a = clean(record("ten-point-6", SIX, [HAND6], TEAMS6))
    assert a.table is not None and a.table.unit_of == (0, 1, 2, 0, 1, 2)
    assert tricks_won(a) == ["Ann", "Fay", "Eve", "Eve", "Fay", None]
    r = a.hands[0]
    assert r is not None and (r.bidder, r.bid, r.stuck) == (5, 5, True)
    assert result_of(a) == ({"AD": 4, "BE": 3, "CF": 3}, {"AD": 4, "BE": 3, "CF": -5})


# =============================================================================
# ten-point-8: two teams of four (partners every other seat)
#
# Teams ACEG (Ann, Cal, Eve, Gus) and BDFH (Ben, Dot, Fay, Hal). Hal deals six
# each (nobody discards but the bidder); the kitty has six. Everybody passes:
# Hal is stuck with 5, names diamonds (off-jack JH) and throws six of his 12.
#
#   trick  leader  cards (leader first)               winner  points
#   1      Hal     8D 6D 7D QC JH KD 3D JD            Eve     JH 1 + 3D 3 + JD 1 -> ACEG (KD beats the jack)
#   2      Eve     7H QD KH AD 7C BJ 8H AS            Hal     AD 1 + BJ 1 -> BDFH
#   3      Hal     2S 10D 9H 3C 8S 6S 9D 7S           Ann     10D 1 -> ACEG
#   4      Ann     JC 9C AH 10C 5C 4D 8C LJ           Hal     LJ 1 -> BDFH
#   5      Hal     5D 2D 4C 2H 9S 5S 3S 4S            Hal     2D 1 -> ACEG (Ann played it)
#   6      Hal     2C AC KC 3H JS 5H 4H QS            nobody  off cards only
#
# ACEG 5 + 1 + 1 = 7, BDFH 2 + 1 = 3. Hal's team bid 5, took 3: -5; ACEG 7.
EIGHT = ["Ann", "Ben", "Cal", "Dot", "Eve", "Fay", "Gus", "Hal"]
TEAMS8 = {"ACEG": ["Ann", "Cal", "Eve", "Gus"], "BDFH": ["Ben", "Dot", "Fay", "Hal"]}
HAND8: dict[str, Any] = {
    "dealer": "Hal",
    "deal": {
        "Ann": ["6D", "10D", "7C", "JC", "AC", "2D"],
        "Ben": ["7D", "9H", "KC", "9C", "4C", "BJ"],
        "Cal": ["8H", "3C", "3H", "QC", "AH", "2H"],
        "Dot": ["9S", "8S", "JS", "10C", "AS", "JH"],
        "Eve": ["KD", "5C", "7H", "5H", "6S", "5S"],
        "Fay": ["3S", "4H", "9D", "QD", "3D", "4D"],
        "Gus": ["QS", "KH", "4S", "JD", "8C", "7S"],
        "Hal": ["AD", "LJ", "8D", "10H", "2S", "6C"],
    },
    "kitty": ["KS", "10S", "6H", "QH", "2C", "5D"],
    "bids": ["pass", "pass", "pass", "pass", "pass", "pass", "pass", "pass"],
    "trump": "D",
    "discards": {"Ann": [], "Ben": [], "Cal": [], "Dot": [], "Eve": [], "Fay": [], "Gus": [],
                 "Hal": ["6H", "10H", "KS", "6C", "QH", "10S"]},
    "tricks": [
        ["8D", "6D", "7D", "QC", "JH", "KD", "3D", "JD"],
        ["7H", "QD", "KH", "AD", "7C", "BJ", "8H", "AS"],
        ["2S", "10D", "9H", "3C", "8S", "6S", "9D", "7S"],
        ["JC", "9C", "AH", "10C", "5C", "4D", "8C", "LJ"],
        ["5D", "2D", "4C", "2H", "9S", "5S", "3S", "4S"],
        ["2C", "AC", "KC", "3H", "JS", "5H", "4H", "QS"],
    ],
    "points": {"ACEG": 7, "BDFH": 3},
    "score": {"ACEG": 7, "BDFH": -5},
}


def test_ten_point_8_two_teams_of_four() -> None:
    a = clean(record("ten-point-8", EIGHT, [HAND8], TEAMS8))
    assert a.table is not None and a.table.unit_of == (0, 1) * 4
    assert tricks_won(a) == ["Eve", "Hal", "Ann", "Hal", "Hal", None]
    assert result_of(a) == ({"ACEG": 7, "BDFH": 3}, {"ACEG": 7, "BDFH": -5})


@pytest.mark.parametrize("order, winner", [(["Cal", "Ben"], "Cal"), (["Ben", "Cal"], "Ben")])
def test_tp_win1_partners_tied_in_a_tally_record(order: list[str], winner: str) -> None:
    # ten-point-7, a score sheet with no cards. Hands 1-4: Eve bids 5 and calls
    # KH, QH, held by Ben and Cal; the side takes all 10 (Ben 4, Cal 3, Eve 3),
    # so Eve, Ben and Cal each score +10 a hand: 40 after four hands (TP5-5).
    # Hand 5: Ann bids 5 with the same partners and the side takes 10 again:
    # Ann 10, Ben 50, Cal 50, Eve 40. The bidding side made it; the bidder is
    # below 42, so the partner at the target with more wins - a tie, broken by
    # the holder of the first card called (TP-WIN-1), named first in `players`.
    players = ["Ann", "Ben", "Cal", "Dot", "Eve", "Fay", "Gus"]
    hands = []
    for i, bidder in enumerate(["Eve"] * 4 + ["Ann"]):
        hands.append({
            "dealer": players[i], "contract": {"bidder": bidder, "bid": 5}, "trump": "H",
            "partner": {"cards": ["KH", "QH"], "players": order},
            "points": {p: {"Ben": 4, "Cal": 3, bidder: 3}.get(p, 0) for p in players}})
    rec = {"format": "pitch-record/1", "variant": "ten-point-7", "players": players, "hands": hands}
    a = analyze(rec)
    assert a.violations == []
    assert a.totals == [10, 50, 50, 0, 40, 0, 0]
    assert a.winner == winner and a.winner_hand == 5
