"""CARD-1, CARD-3, CARD-4: the deck, the notation, a card in two places."""

from __future__ import annotations

import copy
import random

import pytest
from support.games import BASE_TRICKS, base_game, check, clean, game, hand, only, values

from pitchcli.cards import (
    ALL_CARDS,
    JOKER_DECK,
    STANDARD_DECK,
    SUIT_SYMBOLS,
    SUITS,
    CardError,
    card,
    cards,
    parse_suit,
    try_card,
)
from pitchcli.pipeline.feed import analyze
from pitchcli.pipeline.simulate import simulate_game

# --- CARD-1: the deck -------------------------------------------------------


def test_card1_standard_deck_is_52_cards_ace_high() -> None:
    assert len(STANDARD_DECK) == 52 == len({c.text for c in STANDARD_DECK})
    assert {c.suit for c in STANDARD_DECK} == {"S", "H", "D", "C"}
    assert all(not c.is_joker for c in STANDARD_DECK)
    spades = sorted((c for c in STANDARD_DECK if c.suit == "S"), key=lambda c: c.rank)
    assert [c.text for c in spades] == ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S",
                                        "JS", "QS", "KS", "AS"]
    assert len(JOKER_DECK) == 54 and set(JOKER_DECK) - set(STANDARD_DECK) == {card("BJ"), card("LJ")}


def test_card1_joker_in_an_auction_trick_is_reported(base: dict) -> None:
    base["hands"][0]["tricks"][5][3] = "BJ"
    del base["hands"][0]["deal"]
    a = analyze(base)
    v = only(a, "CARD-1")
    check(v, "CARD-1", "R401", "/hands/0/tricks/5/3", "BJ", "52")


def test_card1_joker_in_an_auction_deal_is_reported(base: dict) -> None:
    base["hands"][0]["deal"]["Ben"][5] = "LJ"  # instead of 5H
    a = analyze(base)
    check(only(a, "CARD-1"), "CARD-1", "R401", "/hands/0/deal/Ben/5", "LJ")
    # The deal is then one card short, and Ben played 5H that he was not dealt.
    assert {v.rule for v in a.violations} == {"CARD-1", "AP-DEAL-1"}


def test_card2_the_ten_point_deck_adds_two_jokers() -> None:
    from pitchcli.profiles import resolve

    assert card("BJ").is_joker and card("LJ").is_joker and card("BJ") is not card("LJ")
    assert len(resolve("ten-point").deck) == 54 and card("BJ") in resolve("ten-point").deck
    assert card("BJ") not in resolve("auction").deck
    # Jokers are played in ten-point games and nothing is reported.
    rec = simulate_game("ten-point", seed=0)
    assert any(c in ("BJ", "LJ") for h in rec["hands"] for t in h["tricks"] for c in t)
    clean(rec)


# --- CARD-3: notation -------------------------------------------------------


@pytest.mark.parametrize(("written", "canonical"), [
    ("AS", "AS"), ("10H", "10H"), ("TH", "10H"), ("th", "10H"), ("Th", "10H"), ("tH", "10H"),
    ("as", "AS"), ("aS", "AS"), ("As", "AS"), ("jd", "JD"), ("2c", "2C"), ("10h", "10H"),
    ("A♠", "AS"), ("10♥", "10H"), ("T♥", "10H"), ("q♦", "QD"), ("K♣", "KC"), ("2♤", "2S"),
    ("A♠\ufe0f", "AS"), ("bj", "BJ"), ("LJ", "LJ"), ("lj", "LJ"),
])
def test_card3_notations_parse_to_the_canonical_form(written: str, canonical: str) -> None:
    c = card(written)
    assert c.text == canonical == str(c)
    assert c is card(canonical)  # interned: one object per card
    assert try_card(written) is c


def test_card3_every_canonical_card_round_trips() -> None:
    for c in ALL_CARDS:
        assert card(c.text) is c
        assert card(c.text.lower()) is c
    assert [c.text for c in cards(["ts", "J♥", "9d"])] == ["10S", "JH", "9D"]


@pytest.mark.parametrize("written", [
    "", "A", "S", "1S", "11H", "0S", "AX", "10", "1OH", "A S", " AS", "AS ", "ASS", "JK", "B J",
    "10HH", "♠A", "XJ",
])
def test_card3_anything_else_is_an_error_quoting_what_was_written(written: str) -> None:
    with pytest.raises(CardError) as e:
        card(written)
    assert repr(written) in str(e.value)
    assert "rank then suit" in str(e.value)
    assert try_card(written) is None


@pytest.mark.parametrize("value", [None, 10, 1.5, ["AS"]])
def test_card3_non_strings_are_not_cards(value: object) -> None:
    assert try_card(value) is None
    with pytest.raises(CardError):
        card(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(("written", "suit"), [
    ("S", "S"), ("s", "S"), ("h", "H"), ("♦", "D"), ("♣", "C"), ("♡", "H"), ("♠\ufe0f", "S"),
    ("X", None), ("spades", None), ("", None), (None, None),
])
def test_card3_trump_suit_notation(written: object, suit: str | None) -> None:
    assert parse_suit(written) == suit


def test_card3_trump_suit_read_by_its_rule_for_every_character() -> None:
    # parse_suit looks the usual spellings up in a table first (speed): it must
    # still give exactly what its rule gives (a suit letter in any case, or a
    # symbol, with or without the emoji selector) for every character.
    def rule(text: str) -> str | None:
        t = text.removesuffix("\ufe0f")
        return t.upper() if t.upper() in SUITS else SUIT_SYMBOLS.get(t)

    for cp in range(0x3000):
        for text in (chr(cp), chr(cp) + "\ufe0f"):
            assert parse_suit(text) == rule(text), repr(text)


def test_card3_a_record_in_other_notations_analyzes_like_the_canonical_one() -> None:
    canonical = clean(base_game())
    spellings = [lambda t: t.lower(), lambda t: t.replace("10", "T"),
                 lambda t: t[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[t[-1]]]
    for spell in spellings:
        rec = base_game()
        h = rec["hands"][0]
        h["tricks"] = [[spell(c) for c in t] for t in h["tricks"]]
        h["deal"] = {p: [spell(c) for c in cs] for p, cs in h["deal"].items()}
        h["trump"] = spell("AS")[-1]  # s, S or ♠
        a = clean(rec)
        assert values(a.hands[0].awards) == values(canonical.hands[0].awards)
        assert a.hands[0].trump == "S"
        assert [p.card.text for p in a.hands[0].tricks[0].plays] == BASE_TRICKS[0]


def test_card3_unreadable_card_in_a_record_is_reported_where_written(base: dict) -> None:
    base["hands"][0]["deal"]["Ann"][0] = "1S"
    a = analyze(base)
    check(only(a, "CARD-3"), "CARD-3", "R401", "/hands/0/deal/Ann/0", "'1S'")


# --- CARD-4: a card in two places -------------------------------------------


def test_card4_dealt_twice_names_both_deals(base: dict) -> None:
    base["hands"][0]["deal"]["Dot"][0] = "AS"  # Cal was dealt AS; Dot gets it too instead of 3S
    a = analyze(base)
    v = only(a, "CARD-4")
    check(v, "CARD-4", "R402", "/hands/0/deal/Dot/0", "AS", "the deal of Cal", "the deal of Dot")


def test_card4_played_twice_names_both_tricks() -> None:
    tricks = copy.deepcopy(BASE_TRICKS)
    tricks[5][1] = "3S"  # Cal's left-hand neighbour plays 3S again in trick 6 (instead of 6D)
    a = analyze(game([hand("Ann", ["pass", 2, "pass", "pass"], tricks)]))
    v = only(a, "CARD-4")
    check(v, "CARD-4", "R402", "/hands/0/tricks/5/1", "3S", "trick 1", "trick 6")


def test_card4_dealt_once_and_played_once_is_normal() -> None:
    # A card in `deal` and again in `tricks` is the normal case.
    clean(base_game())


def test_card4_twice_in_one_deal(base: dict) -> None:
    base["hands"][0]["deal"]["Ann"][1] = "7S"  # Ann: 7S 7S 10D KC 9H 4D
    a = analyze(base)
    check(only(a, "CARD-4"), "CARD-4", "R402", "/hands/0/deal/Ann/1", "7S", "the deal of Ann")


def _tp(variant: str, seed: int) -> dict:
    rec = simulate_game(variant, seed=seed)
    clean(rec)
    return rec


def test_card4_dead_card_also_dealt_names_both_places() -> None:
    rec = _tp("ten-point-3", 1)
    h = rec["hands"][0]
    dead = h["dead"][0]
    h["deal"]["Ann"][0] = dead
    v = only(analyze(rec), "CARD-4")
    assert v.code == "R402" and v.at in ("/hands/0/dead/0", "/hands/0/deal/Ann/0")
    assert "the dead cards" in v.message and "the deal of Ann" in v.message and dead in v.message


def test_card4_kitty_card_also_dealt_names_both_places() -> None:
    rec = _tp("ten-point-5", 2)
    h = rec["hands"][0]
    k = h["kitty"][0]
    h["deal"]["Ben"][0] = k
    v = only(analyze(rec), "CARD-4")
    assert "the kitty" in v.message and "the deal of Ben" in v.message and k in v.message


def test_card4_drawn_card_also_dealt_names_both_places() -> None:
    rec = _tp("ten-point", 3)
    h = rec["hands"][0]
    drawer = next(p for p, cs in h["draws"].items() if cs)
    c = h["draws"][drawer][0]
    dealt_to = "Ann" if drawer != "Ann" else "Ben"
    h["deal"][dealt_to][0] = c
    v = only(analyze(rec), "CARD-4")
    assert f"the draws of {drawer}" in v.message and f"the deal of {dealt_to}" in v.message


def test_card4_discarded_card_also_played_names_both_places() -> None:
    rec = _tp("ten-point-5", 4)
    h = rec["hands"][0]
    who = next(p for p, cs in h["discards"].items() if cs)
    thrown = h["discards"][who][0]
    h["tricks"][5][0] = thrown
    v = only(analyze(rec), "CARD-4")
    assert v.code == "R402" and v.at == "/hands/0/tricks/5/0"
    assert f"the discards of {who}" in v.message and "trick 6" in v.message and thrown in v.message


def test_card4_random_duplicates_in_tricks_are_always_caught() -> None:
    rng = random.Random(7)
    for seed in range(40):
        rec = simulate_game("auction", players=rng.choice([2, 3, 4, 5]), seed=seed)
        h = rng.choice(rec["hands"])
        if rng.random() < 0.5:
            del h["deal"]  # a play-level record: the duplicate is still caught
        t1, t2 = sorted(rng.sample(range(6), 2))
        src = rng.randrange(len(h["tricks"][t1]))
        dst = rng.randrange(len(h["tricks"][t2]))
        h["tricks"][t2][dst] = h["tricks"][t1][src]
        a = analyze(rec)
        assert any(v.rule == "CARD-4" for v in a.violations), seed
