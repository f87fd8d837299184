"""The rules table (``pitchcli.engine.tables``): the facts the replay, the quick
pass and the solver all read, checked against the rules as RULES.md writes
them, and the forms the engine uses them in (card by card, bit masks, the
cards that need a void) checked to say the same.
"""

from __future__ import annotations

import itertools
import random

import pytest

from pitchcli.cards import ALL_CARDS, SUITS, Card, card
from pitchcli.engine.family import family_for
from pitchcli.engine.play import legal_plays, may_play
from pitchcli.engine.tables import GAME_POINTS_I, JACK_I, TRUMP_KEY, TWO_I, may_follow

FAMILIES = [("auction", "play-all"), ("ten-point", "refill"), ("ten-point", "cut-down")]
VIEWS = [(f"{name}/{mode}/{trump}", family_for(name, mode), trump)
         for name, mode in FAMILIES for trump in SUITS]


def test_may_follow_allows_the_suit_led_and_trumps_always_and_others_only_when_void() -> None:
    # AP-PLAY-2 / TP-PLAY-1, every case of the rule.
    for of_led, trump, holds in itertools.product((False, True), repeat=3):
        assert may_follow(of_led, trump, holds) == (of_led or trump or not holds)


@pytest.mark.parametrize(("label", "fam", "trump"), VIEWS, ids=[v[0] for v in VIEWS])
def test_the_follow_masks_and_void_only_say_what_may_follow_says(label: str, fam: object, trump: str) -> None:
    view = fam.view(trump)  # type: ignore[attr-defined]
    for led in SUITS:
        void, holding = view.follow[led]
        for c in ALL_CARDS:
            of_led, is_trump = view.suit_of[c] == led, view.is_trump(c)
            assert bool(void >> c.index & 1) == may_follow(of_led, is_trump, False)
            assert bool(holding >> c.index & 1) == may_follow(of_led, is_trump, True)
            assert (c.index in view.void_only[led]) == (not of_led and not is_trump)


@pytest.mark.parametrize(("label", "fam", "trump"), VIEWS, ids=[v[0] for v in VIEWS])
def test_legal_plays_agree_with_the_follow_masks(label: str, fam: object, trump: str) -> None:
    view = fam.view(trump)  # type: ignore[attr-defined]
    deck: list[Card] = list(fam.deck)  # type: ignore[attr-defined]
    rng = random.Random(label)
    for _ in range(200):
        hold = rng.sample(deck, rng.randint(1, 10))
        led = rng.choice([c for c in deck if c not in hold])
        suit_led = view.suit_of[led]
        holds = any(view.suit_of[c] == suit_led for c in hold)
        mask = view.follow[suit_led][holds]
        assert legal_plays(hold, led, view) == [c for c in hold if mask >> c.index & 1]
        assert [c for c in hold if may_play(c, hold, led, view)] == legal_plays(hold, led, view)
        assert legal_plays(hold, None, view) == hold  # a lead: any card


@pytest.mark.parametrize(("label", "fam", "trump"), VIEWS, ids=[v[0] for v in VIEWS])
def test_win_keys_put_every_trump_above_the_suit_led_and_the_rest_at_zero(label: str, fam: object,
                                                                          trump: str) -> None:
    view = fam.view(trump)  # type: ignore[attr-defined]
    for led in SUITS:
        keys = view.win_key[led]
        for c in fam.deck:  # type: ignore[attr-defined]
            key = keys[c.index]
            if view.is_trump(c):
                assert key == TRUMP_KEY + view.strength[c]
            elif view.suit_of[c] == led:
                assert 0 < key == c.rank < TRUMP_KEY
            else:
                assert key == 0


def test_game_points_jacks_and_twos() -> None:
    # AP-SCORE-4: ten for a ten, four for an ace, three, two, one for K, Q, J: 20 a suit.
    for suit in SUITS:
        assert sum(GAME_POINTS_I[c.index] for c in ALL_CARDS if c.suit == suit) == 20
        assert GAME_POINTS_I[card("10" + suit).index] == 10
        assert ALL_CARDS[JACK_I[suit]] is card("J" + suit)
        assert ALL_CARDS[TWO_I[suit]] is card("2" + suit)
    assert GAME_POINTS_I[card("BJ").index] == GAME_POINTS_I[card("9S").index] == 0


@pytest.mark.parametrize("trump", SUITS)
def test_ten_point_values_add_up_to_ten_and_auction_has_no_point_cards(trump: str) -> None:
    view = family_for("ten-point", "refill").view(trump)
    assert sum(view.points.values()) == 10  # TP-POINTS-1
    assert view.points[card("3" + trump)] == 3
    assert all(view.is_trump(c) for c, v in view.points.items() if v)  # TP-POINTS-2: off cards are worth nothing
    assert not any(family_for("auction", "play-all").view(trump).points.values())
