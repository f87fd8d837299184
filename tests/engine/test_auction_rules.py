"""One test (or more) per Auction Pitch rule: a valid record analyzes clean, and
the same record broken in one place reports the rule, its code, where, and a
message a player can read. See docs/rule-tests.md for the map of rule -> test.

The records are built on the base hand of conftest.py: Ann deals, Cal pitches
2 and takes High and Low, Ben takes Jack and Game.
"""

from __future__ import annotations

import copy

import pytest
from support.games import (
    BASE_TRICKS,
    PLAYERS,
    base_game,
    broken,
    check,
    clean,
    game,
    hand,
    only,
)

from pitchcli.pipeline.feed import analyze

# --- Table ------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_ap_table1_two_to_seven_players_are_seated(n: int) -> None:
    players = [f"P{i}" for i in range(n)]
    a = analyze(game([], players=players))
    assert a.violations == [] and a.table is not None and a.table.seats == n


@pytest.mark.parametrize("n", [1, 8])
def test_ap_table1_other_player_counts_are_refused(n: int) -> None:
    players = [f"P{i}" for i in range(n)]
    a = analyze(game([], players=players))
    check(only(a, "AP-TABLE-1"), "AP-TABLE-1", "P303", "/players", f"not {n}", "2, 3, 4, 5, 6, 7")


def test_ap_table1_players_option_is_read_within_two_to_seven() -> None:
    # The option is read: narrowed to 3, a table of 3 is seated and one of 4 is not.
    clean(game([], players=PLAYERS[:3], rules={"players": [3]}))
    a = analyze(game([], players=PLAYERS, rules={"players": [3]}))
    check(only(a, "AP-TABLE-1"), "AP-TABLE-1", "P303", "/players", "not 4")
    # AP-TABLE-1 allows `players` from 2 to 7 only: widening it to 8 is an
    # error (this test used to accept it, which RULES.md says is wrong).
    players = [f"P{i}" for i in range(8)]
    a = analyze(game([], players=players, rules={"players": [2, 3, 4, 5, 6, 7, 8]}))
    check(only(a, "AP-TABLE-1"), "AP-TABLE-1", "P302", "/rules/players", "8", "2 to 7")


@pytest.mark.parametrize("n", [3, 5])
def test_ap_table2_partners_need_four_or_six(n: int) -> None:
    # The partnership game is two teams of two, or three with six (AP-TABLE-2).
    players = PLAYERS[:n] if n <= 4 else [*PLAYERS, "Eve"]
    a = analyze(game([], players=players, variant="auction-partners"))
    check(only(a, "AP-TABLE-2"), "AP-TABLE-2", "P303", "/players", "auction-partners", f"not {n}")


TEAMS4 = {"North-South": ["Ann", "Cal"], "East-West": ["Ben", "Dot"]}
SIX = ["Ann", "Ben", "Cal", "Dot", "Eve", "Fay"]
TEAMS6 = {"A": ["Ann", "Dot"], "B": ["Ben", "Eve"], "C": ["Cal", "Fay"]}


def test_ap_table2_partners_sit_opposite() -> None:
    a = clean(game([], variant="auction-partners", teams=TEAMS4))
    assert a.table is not None
    assert a.table.unit_of == (0, 1, 0, 1)  # seats 1 and 3 against 2 and 4
    assert a.table.unit_names == ("North-South", "East-West")


def test_ap_table2_six_players_sit_i_and_i_plus_3() -> None:
    a = clean(game([], players=SIX, variant="auction-partners", teams=TEAMS6))
    assert a.table is not None and a.table.unit_of == (0, 1, 2, 0, 1, 2)


def test_ap_table2_neighbours_are_not_partners() -> None:
    teams = {"Left": ["Ann", "Ben"], "Right": ["Cal", "Dot"]}
    a = analyze(game([], variant="auction-partners", teams=teams))
    found = [v for v in a.violations if v.rule == "AP-TABLE-2"]
    assert [v.at for v in found] == ["/teams/Left", "/teams/Right"]
    check(found[0], "AP-TABLE-2", "P303", "/teams/Left", "Ann", "Ben", "2 seats apart")


def test_ap_table2_six_players_wrong_layout() -> None:
    teams = {"A": ["Ann", "Cal"], "B": ["Ben", "Eve"], "C": ["Dot", "Fay"]}
    a = analyze(game([], players=SIX, variant="auction-partners", teams=teams))
    found = [v for v in a.violations if v.rule == "AP-TABLE-2"]
    assert {v.at for v in found} == {"/teams/A", "/teams/C"}
    check(found[0], "AP-TABLE-2", "P303", found[0].at, "3 seats apart")


def test_ap_table2_partnership_needs_teams_and_solo_refuses_them() -> None:
    a = analyze(game([], variant="auction-partners"))
    v = only(a, "AP-TABLE-2")
    check(v, "AP-TABLE-2", "P303", "", "teams")
    a = analyze(game([], teams=TEAMS4))
    check(only(a, "AP-TABLE-2"), "AP-TABLE-2", "P303", "/teams", "teams", "auction")


def test_ap_table2_team_is_the_unit_of_scoring() -> None:
    # Base hand, Cal pitches: solo, Ben (21 game points) beats Cal (20) to Game.
    # With Ann + Cal against Ben + Dot the captured cards are pooled: 20 + 3 = 23
    # against 21 + 0, so Game goes to Cal's team: High, Low, Game = 3 for them,
    # Jack = 1 for the others; Cal's team made its 2 and scores 3.
    rec = base_game(variant="auction-partners", teams=TEAMS4)
    a = clean(rec)
    h = a.hands[0]
    assert h.game_points == [23, 21]
    assert {k: aw.unit for k, aw in h.awards.items()} == {"high": 0, "low": 0, "jack": 1, "game": 0}
    assert (h.taken, h.delta, a.totals) == ([3, 1], [3, 1], [3, 1])
    solo = clean(base_game()).hands[0]
    assert solo.awards["game"].unit == 1  # Ben, alone


# --- AP-TABLE-3: seat order ---------------------------------------------------


@pytest.mark.parametrize(("dealer", "first"), [("Ann", "Ben"), ("Ben", "Cal"), ("Dot", "Ann")])
def test_ap_table3_left_of_the_dealer_is_the_next_seat(dealer: str, first: str) -> None:
    # The first call is the dealer's left-hand neighbour's: a lone 2 there makes him pitcher.
    rec = game([hand(dealer, [2, "pass", "pass", "pass"])])
    a = clean(rec)
    h = a.hands[0]
    assert PLAYERS[h.bidder] == first
    assert PLAYERS[h.calls[0].seat] == first
    # Play goes clockwise too: the second card of trick 1 is the pitcher's left.
    second = h.tricks[0].plays[1].seat
    assert second == (PLAYERS.index(first) + 1) % 4


# --- Deal -------------------------------------------------------------------


def test_ap_deal1_six_cards_each_and_they_are_the_cards_played(base: dict) -> None:
    a = clean(base)
    assert a.hands[0].level == "full"


@pytest.mark.parametrize("count", [5, 7])
def test_ap_deal1_wrong_number_dealt(base: dict, count: int) -> None:
    cards = base["hands"][0]["deal"]["Ann"]
    base["hands"][0]["deal"]["Ann"] = cards[:5] if count == 5 else [*cards, "8S"]
    a = analyze(base)
    v = next(v for v in a.violations if v.at == "/hands/0/deal/Ann")
    check(v, "AP-DEAL-1", "R403", "/hands/0/deal/Ann", "Ann", f"dealt {count} cards", "6")


def test_ap_deal1_played_cards_differ_from_dealt(base: dict) -> None:
    base["hands"][0]["deal"]["Ann"][5] = "8D"  # Ann plays 4D in trick 6
    a = analyze(base)
    # One diagnostic per player lists every difference, anchored on the deal.
    found = [v for v in a.violations if v.rule == "AP-DEAL-1"]
    assert len(found) == 1 == len(a.violations)
    check(found[0], "AP-DEAL-1", "R403", "/hands/0/deal/Ann/5", "Ann", "8D", "never played", "4D",
          "did not hold")
    assert found[0].details["not_held"] == ["4D"] and found[0].details["not_played"] == ["8D"]


def _four_hands(dealers: list[str]) -> dict:
    # Every hand: the first two callers pass, the third bids 2 and pitches the base hand.
    return game([hand(d, ["pass", "pass", 2, "pass"]) for d in dealers])


def test_ap_deal2_dealer_moves_left_every_hand() -> None:
    a = clean(_four_hands(["Cal", "Dot", "Ann", "Ben"]))
    assert [PLAYERS[h.dealer] for h in a.hands] == ["Cal", "Dot", "Ann", "Ben"]


def test_ap_deal2_wrong_dealer() -> None:
    rec = _four_hands(["Cal", "Dot", "Ann", "Cal"])
    v = broken(rec, "AP-DEAL-2", "R405", "/hands/3/dealer", "hand 4", "Cal", "Ben deals it",
               alone=False)
    assert v.details == {"claimed": "Cal", "derived": "Ben"}


# --- Bidding ----------------------------------------------------------------


def test_ap_bid1_every_player_calls_once_from_the_dealers_left() -> None:
    a = clean(base_game())
    assert [(PLAYERS[c.seat], c.bid) for c in a.hands[0].calls] == [
        ("Ben", None), ("Cal", 2), ("Dot", None), ("Ann", None)]


def test_ap_bid1_too_many_calls(base: dict) -> None:
    base["hands"][0]["bids"].append("pass")
    broken(base, "AP-BID-1", "R404", "/hands/0/bids/4", "one call too many", "4 players")


def test_ap_bid1_too_few_calls(base: dict) -> None:
    base["hands"][0]["bids"] = ["pass", 2, "pass"]
    broken(base, "AP-BID-1", "R404", "/hands/0/bids", "3 calls for 4 players", "Ann")


def test_ap_bid2_bid_not_higher(base: dict) -> None:
    # Ben 2, Cal 3, Dot 3 (not higher: illegal, and not counted), Ann passes: Cal pitches 3.
    base["hands"][0]["bids"] = [2, 3, 3, "pass"]
    broken(base, "AP-BID-2", "R404", "/hands/0/bids/2", "Dot bid 3", "not higher", "Cal")


def test_ap_bid2_bid_lower_than_the_high_bid(base: dict) -> None:
    base["hands"][0]["bids"] = [2, 3, 1, "pass"]
    broken(base, "AP-BID-2", "R404", "/hands/0/bids/2", "Dot bid 1", "not higher than the 3")


@pytest.mark.parametrize("bad", [0, 5, -1])
def test_ap_bid2_bid_out_of_range(base: dict, bad: int) -> None:
    # The bad call is ignored: Cal's 2 still wins the auction, nothing else is disturbed.
    base["hands"][0]["bids"] = [bad, 2, "pass", "pass"]
    a = analyze(base)
    check(only(a, "AP-BID-2"), "AP-BID-2", "R404", "/hands/0/bids/0", f"Ben bid {bad}", "pass or 1 to 4")
    assert len(a.violations) == 1, [v.message for v in a.violations]
    assert a.hands[0].bidder == 2


def test_ap_bid3_calls_after_a_four_may_be_left_out_or_passes() -> None:
    for bids in (["pass", 4], ["pass", 4, "pass"], ["pass", 4, "pass", "pass"]):
        a = clean(game([hand("Ann", bids)]))
        h = a.hands[0]
        assert (PLAYERS[h.bidder], h.bid) == ("Cal", 4)
        assert len(h.calls) == 4  # the calls left out are passes


@pytest.mark.parametrize(("bids", "at", "who"), [
    (["pass", 4, 1], "/hands/0/bids/2", "Dot bid 1"),
    (["pass", 4, "pass", 4], "/hands/0/bids/3", "Ann bid 4"),  # not even the dealer: no steal of a 4
])
def test_ap_bid3_no_bid_after_a_four(bids: list, at: str, who: str) -> None:
    a = analyze(game([hand("Ann", bids)]))
    check(only(a, "AP-BID-3"), "AP-BID-3", "R404", at, who, "closed", "4")
    assert len(a.violations) == 1
    assert PLAYERS[a.hands[0].bidder] == "Cal"


def test_ap_bid4_stuck_dealer_bids_two() -> None:
    a = clean(game([hand("Cal", ["pass", "pass", "pass", 2])]))
    h = a.hands[0]
    assert (PLAYERS[h.bidder], h.bid, h.calls[3].kind) == ("Cal", 2, "stuck")


@pytest.mark.parametrize(("call", "words"), [("pass", "passed"), (1, "bid 1")])
def test_ap_bid4_stuck_dealer_may_not_pass_or_bid_one(call: object, words: str) -> None:
    rec = game([hand("Cal", ["pass", "pass", "pass", call])])
    broken(rec, "AP-BID-4", "R404", "/hands/0/bids/3", "Cal, the dealer", words, "at least 2")


def test_ap_bid4_stuck_bid_option() -> None:
    rec = game([hand("Cal", ["pass", "pass", "pass", 2])], rules={"stuck_bid": 3})
    broken(rec, "AP-BID-4", "R404", "/hands/0/bids/3", "at least 3", alone=False)


def test_ap_bid5_dealer_steals_with_an_equal_bid() -> None:
    # Dot bids 2, Ann and Ben pass, Cal (the dealer) steals with 2.
    a = clean(game([hand("Cal", [2, "pass", "pass", 2])]))
    h = a.hands[0]
    assert (PLAYERS[h.bidder], h.bid) == ("Cal", 2)
    assert h.calls[3].kind == "steal"


def test_ap_bid5_others_may_not_equal_the_high_bid() -> None:
    # Ben (not the dealer) tries to equal Ann's 2; Cal then bids 3 and pitches.
    rec = game([hand("Dot", [2, 2, 3, "pass"])])
    broken(rec, "AP-BID-2", "R404", "/hands/0/bids/1", "Ben bid 2", "not higher")


def test_ap_bid5_no_steal_without_the_option() -> None:
    rec = game([hand("Cal", [2, "pass", "pass", 2])], rules={"steal": False})
    broken(rec, "AP-BID-2", "R404", "/hands/0/bids/3", "Cal bid 2", "not higher", alone=False)


def test_ap_bid5_dealer_may_also_bid_higher_or_pass() -> None:
    clean(game([hand("Cal", [1, "pass", "pass", 3])]))
    a = clean(game([hand("Ben", [2, "pass", "pass", "pass"])]))
    assert PLAYERS[a.hands[0].bidder] == "Cal"


def test_ap_bid6_the_highest_bidder_pitches_and_contract_agrees(base: dict) -> None:
    base["hands"][0]["contract"] = {"bidder": "Cal", "bid": 2}
    a = clean(base)
    assert (a.hands[0].bidder, a.hands[0].bid) == (2, 2)


@pytest.mark.parametrize("contract", [{"bidder": "Ben", "bid": 2}, {"bidder": "Cal", "bid": 3}])
def test_ap_bid6_contract_disagrees_with_bids(base: dict, contract: dict) -> None:
    base["hands"][0]["contract"] = contract
    v = broken(base, "AP-BID-6", "C505", "/hands/0/contract", "the contract says", "Cal with 2")
    assert v.details["derived"] == {"bidder": "Cal", "bid": 2}


def test_ap_bid6_tally_record_is_scored_from_the_contract() -> None:
    h = {"dealer": "Ann", "contract": {"bidder": "Cal", "bid": 3},
         "points": {"high": "Cal", "low": "Ben", "jack": None, "game": "Cal"}}
    a = clean(game([h]))
    assert a.hands[0].level == "tally"
    assert a.hands[0].delta == [0, 1, -3, 0]  # Cal took 2 of his 3: set


# --- Play -------------------------------------------------------------------


def test_ap_play1_pitcher_leads_and_first_card_sets_trump(base: dict) -> None:
    base["hands"][0]["trump"] = "S"
    base["hands"][0]["tricks"][0] = {"lead": "Cal", "cards": BASE_TRICKS[0]}
    a = clean(base)
    h = a.hands[0]
    assert h.trump == "S"
    assert h.tricks[0].leader == h.bidder == 2


def test_ap_play1_trump_is_the_suit_of_the_first_card_whatever_it_is() -> None:
    # The same cards with Cal leading KH instead: hearts are trump.
    tricks = [["KH", "2H", "AH", "JS"], ["AS", "3S", "7S", "2S"], *copy.deepcopy(BASE_TRICKS[2:])]
    a = analyze(game([hand("Ann", ["pass", 2, "pass", "pass"], tricks)]))
    assert a.hands[0].trump == "H"


def test_ap_play1_recorded_trump_differs(base: dict) -> None:
    base["hands"][0]["trump"] = "H"
    v = broken(base, "AP-PLAY-1", "C506", "/hands/0/trump", "hearts", "AS", "spades")
    assert v.details == {"claimed": "H", "derived": "S"}


def test_ap_play1_recorded_wrong_lead_on_trick_one(base: dict) -> None:
    base["hands"][0]["tricks"][0] = {"lead": "Ben", "cards": BASE_TRICKS[0]}
    broken(base, "AP-PLAY-1", "C508", "/hands/0/tricks/0/lead", "trick 1", "Ben", "Cal leads it",
           "bidder leads the first trick")


@pytest.mark.parametrize("count", [5, 7])
def test_ap_play1_six_tricks(count: int) -> None:
    tricks = copy.deepcopy(BASE_TRICKS[:5]) if count == 5 else [*copy.deepcopy(BASE_TRICKS), ["8S", "8H", "8D", "8C"]]
    a = analyze(game([hand("Ann", ["pass", 2, "pass", "pass"], tricks)]))
    check(only(a, "AP-PLAY-1"), "AP-PLAY-1", "R408", "/hands/0/tricks", f"{count} tricks", "6")
    assert a.hands == [None]  # not scored


def test_ap_play2_trumping_while_able_to_follow_is_legal() -> None:
    # Trick 2: Ben trumps with JS on a heart lead although he holds 7H and 5H.
    a = clean(base_game())
    t = a.hands[0].tricks[1]
    assert [p.card.text for p in t.plays] == ["KH", "2H", "AH", "JS"]
    assert t.winner == 1 and t.reason == "trump"


def test_ap_play2_unable_to_follow_may_play_anything() -> None:
    # Trick 5: Dot, with no heart left, plays AC on a heart lead; trick 6: no spades left.
    a = clean(base_game())
    assert a.hands[0].tricks[4].plays[3].card.text == "AC"


def test_ap_play2_third_suit_while_holding_the_suit_led(base: dict) -> None:
    # Trick 2 (hearts led): Ann plays 4D while holding AH and 9H; she plays AH at
    # the end instead. No trick changes hands' winner, so nothing else breaks.
    h = base["hands"][0]
    h["tricks"][1][2], h["tricks"][5][2] = "4D", "AH"
    v = broken(base, "AP-PLAY-2", "R407", "/hands/0/tricks/1/2", "Ann played 4D on a heart lead",
               "holding AH, 9H", "only a heart or a trump (spades)", alone=False)
    assert v.trick == 2 and v.details["held"] == ["AH", "9H"]
    # The deal is unchanged and the play is still made of Ann's cards: only the claims move.
    assert [x.rule for x in analyze(base).violations] == ["AP-PLAY-2"]


def test_ap_play2_holding_checked_without_a_deal(base: dict) -> None:
    h = base["hands"][0]
    del h["deal"]
    h["tricks"][1][2], h["tricks"][5][2] = "4D", "AH"
    broken(base, "AP-PLAY-2", "R407", "/hands/0/tricks/1/2", "4D")


def test_ap_play3_highest_trump_else_highest_of_suit_led() -> None:
    a = clean(base_game())
    got = [(PLAYERS[t.winner], t.reason, t.winning_card.text) for t in a.hands[0].tricks]
    assert got == [("Cal", "trump", "AS"), ("Ben", "trump", "JS"), ("Ben", "suit", "QD"),
                   ("Ann", "suit", "KC"), ("Cal", "suit", "QH"),  # not Dot's AC: clubs not led
                   ("Cal", "trump", "10S")]


@pytest.mark.parametrize("cards", [["AS", "3S", "7S"], ["AS", "3S", "7S", "2S", "8C"]])
def test_ap_play3_a_trick_has_one_card_per_player(cards: list) -> None:
    tricks = [cards, *copy.deepcopy(BASE_TRICKS[1:])]
    a = analyze(game([hand("Ann", ["pass", 2, "pass", "pass"], tricks)]))
    check(only(a, "AP-PLAY-3"), "AP-PLAY-3", "R408", "/hands/0/tricks/0", f"{len(cards)} cards",
          "4 players")


def test_ap_play4_winner_leads_next(base: dict) -> None:
    leads = ["Cal", "Cal", "Ben", "Ben", "Ann", "Cal"]
    h = base["hands"][0]
    h["tricks"] = [{"lead": p, "cards": t} for p, t in zip(leads, BASE_TRICKS, strict=True)]
    a = clean(base)
    assert [PLAYERS[t.leader] for t in a.hands[0].tricks] == leads


def test_ap_play4_recorded_wrong_lead(base: dict) -> None:
    base["hands"][0]["tricks"][2] = {"lead": "Cal", "cards": BASE_TRICKS[2]}
    v = broken(base, "AP-PLAY-4", "C508", "/hands/0/tricks/2/lead", "trick 3", "Cal", "Ben leads it",
               "winner of the trick before")
    assert v.trick == 3


# --- Scoring ----------------------------------------------------------------


def _awards(h) -> dict:
    return {k: (None if a.unit is None else PLAYERS[a.unit], a.card and a.card.text)
            for k, a in h.awards.items()}


def test_ap_score1_high_low_jack_game() -> None:
    h = clean(base_game()).hands[0]
    assert _awards(h) == {"high": ("Cal", "AS"), "low": ("Cal", "2S"), "jack": ("Ben", "JS"),
                          "game": ("Ben", None)}
    assert h.taken == [0, 2, 2, 0]


def test_ap_score1_low_played_option() -> None:
    h = clean(base_game(rules={"low": "played"})).hands[0]
    assert _awards(h)["low"] == ("Ben", "2S")  # Ben played it; Cal captured it
    assert h.taken == [0, 3, 1, 0]


def test_ap_score1_points_claim_is_checked(base: dict) -> None:
    base["hands"][0]["points"] = {"high": "Cal", "low": "Ben", "jack": "Ben", "game": "Ben"}
    a = analyze(base)
    assert [(v.code, v.at) for v in a.violations] == [("C501", "/hands/0/points/low")]
    assert "'Ben'" in a.violations[0].message and "'Cal'" in a.violations[0].message


LONE = [  # two players; Ben pitches 5H, the only heart in play (conftest style: leader first)
    ["5H", "7S"], ["AS", "QS"], ["KS", "10D"], ["2D", "8D"], ["9C", "4C"], ["6C", "3C"],
]


def test_ap_score2_jack_not_in_play_and_score3_lone_trump() -> None:
    h = clean(game([hand("Ann", [2, "pass"], LONE)], players=["Ann", "Ben"])).hands[0]
    assert h.awards["high"].card is h.awards["low"].card
    assert h.awards["jack"].unit is None  # no JH in play
    assert (h.awards["high"].unit, h.awards["low"].unit) == (1, 1)


def test_ap_score4_game_points() -> None:
    h = clean(base_game()).hands[0]
    # Ann: KC 3; Ben: KH 3 + AH 4 + JS 1 + QD 2 + JD 1 + 10D 10 = 21;
    # Cal: AS 4 + QH 2 + AC 4 + 10S 10 = 20; Dot: nothing.
    assert h.game_points == [3, 21, 20, 0]


def test_ap_score5_pitcher_makes_his_bid() -> None:
    h = clean(base_game()).hands[0]
    assert (h.made, h.delta[2]) == (True, 2)


def test_ap_score5_pitcher_set_back(base: dict) -> None:
    base["hands"][0]["bids"] = ["pass", 3, "pass", "pass"]
    a = clean(base)
    h = a.hands[0]
    assert (h.made, h.taken[2], h.delta) == (False, 2, [0, 2, -3, 0])


def test_ap_score5_wrong_score_claim_is_reported(base: dict) -> None:
    base["hands"][0]["bids"] = ["pass", 3, "pass", "pass"]
    base["hands"][0]["score"] = {"Ann": 0, "Ben": 2, "Cal": 2, "Dot": 0}
    a = analyze(base)
    assert [(v.code, v.at) for v in a.violations] == [("C502", "/hands/0/score/Cal")]
    assert "Cal" in a.violations[0].message and "-3" in a.violations[0].message


def test_ap_score6_others_score_what_they_won(base: dict) -> None:
    base["hands"][0]["bids"] = ["pass", 4]
    h = clean(base).hands[0]
    assert h.delta == [0, 2, -4, 0]  # Ben scores his Jack and Game although Cal is set


# --- Winning ----------------------------------------------------------------


def _rounds(n: int, **extra) -> dict:
    # Cal pitches 2 every hand (the third caller bids 2): Cal and Ben gain 2 a hand.
    dealers = ["Ann", "Ben", "Cal", "Dot"]
    hands = []
    for i in range(n):
        dealer = dealers[i % 4]
        seat = (PLAYERS.index("Cal") - PLAYERS.index(dealer) - 1) % 4
        bids = ["pass"] * 4
        bids[seat] = 2
        hands.append(hand(dealer, bids))
    return game(hands, **extra)


def test_ap_win1_pitcher_at_the_target_wins() -> None:
    a = clean(_rounds(4))
    assert a.totals == [0, 8, 8, 0] and a.winner == "Cal" and a.winner_hand == 4


def test_ap_win1_target_option() -> None:
    a = clean(_rounds(2, rules={"target": 4}))
    assert (a.winner, a.winner_hand) == ("Cal", 2)
    a = clean(_rounds(3, rules={"target": 11}))
    assert a.winner is None


def test_ap_win1_hand_after_the_game_was_won() -> None:
    rec = _rounds(5)
    v = broken(rec, "AP-WIN-1", "R412", "/hands/4", "hand 5", "after the game was won", "Cal",
               "hand 4")
    assert v.trick is None


def test_ap_win2_non_pitcher_over_the_target_does_not_win() -> None:
    # Target 2: after hand 1 Ben has 2 without pitching: no winner.
    rec = base_game(rules={"target": 2})
    rec["hands"][0]["bids"] = ["pass", 4]  # Cal pitches 4 and is set
    a = clean(rec)
    assert a.totals == [0, 2, -4, 0] and a.winner is None


def _set_above_target(**rules) -> dict:
    # Target 1. Hands 1 and 2: Dot pitches 4 and is set (-4, -8); Cal, on his
    # right, takes Jack and Game each time (2, 4) without pitching: no win.
    # Hand 3: nobody bids, Cal (the dealer) must bid and bids 3; he takes 2, is
    # set back 3 and ends on 4 - 3 = 1, still at the target of 1.
    return game([hand("Ann", ["pass", "pass", 4]), hand("Ben", ["pass", 4]),
                  hand("Cal", ["pass", "pass", "pass", 3])], rules={"target": 1, **rules})


def test_ap_win3_set_pitcher_at_the_target_does_not_win() -> None:
    a = clean(_set_above_target())
    assert [h.made for h in a.hands] == [False, False, False]
    assert a.totals == [0, 2, 1, -8] and a.winner is None


def test_ap_win3_win_on_set_reads_win1_literally() -> None:
    a = clean(_set_above_target(win_on_set=True))
    assert a.totals == [0, 2, 1, -8] and (a.winner, a.winner_hand) == ("Cal", 3)
