"""The public ``Hand``'s deal (``dealt``, ``discards``, ``draws``, ``kitty``,
``set_aside``): the cards the engine replayed, checked against records whose
deal is written out here by hand (the bundled samples' first hands)."""

from __future__ import annotations

import json
from pathlib import Path

import pitchcli

ROOT = Path(__file__).resolve().parents[2]


def cards(m: object) -> object:
    """Card maps and lists as the record's notation."""
    if m is None:
        return None
    if isinstance(m, dict):
        return {k: [c.text for c in v] for k, v in m.items()}
    return [c.text for c in m]  # type: ignore[attr-defined]


def first_hand(sample: str) -> pitchcli.Hand:
    return next(pitchcli.score(ROOT / "samples" / sample)).hands[0]


def test_an_auction_deal_is_each_players_cards_in_seat_order() -> None:
    h = first_hand("auction-full.yaml")
    assert h.has_deal
    assert list(h.dealt) == ["Ann", "Ben", "Cal", "Dot"]
    assert cards(h.dealt) == {"Ann": ["10H", "3H", "4D", "KS", "9D", "QS"],
                              "Ben": ["2S", "3C", "KC", "5H", "9C", "6H"],
                              "Cal": ["10S", "2C", "8C", "AC", "JD", "8H"],
                              "Dot": ["QC", "7C", "AS", "JH", "KH", "3S"]}
    assert h.discards == {} and h.draws == {} and h.kitty is None and h.set_aside is None


def test_a_ten_point_refill_has_its_discards_and_draws() -> None:
    h = first_hand("ten-point.yaml")
    assert cards(h.dealt)["Dot"] == ["4C", "3D", "8C", "9H", "2C", "JS", "AH", "9C", "10C"]  # type: ignore[index]
    assert cards(h.discards)["Ben"] == ["QS", "2D", "2H", "8S", "KS", "QD", "4H", "KH"]  # type: ignore[index]
    assert cards(h.draws) == {"Ann": ["BJ", "5C", "AS", "3H", "JD", "5H"], "Ben": ["JC", "2S", "QC", "6S", "LJ"],
                              "Cal": ["3C", "6D", "AD"], "Dot": ["QH", "10S", "10D", "KD"]}
    assert h.kitty is None


def test_a_cut_down_hand_has_its_kitty() -> None:
    h = first_hand("ten-point-5.yaml")
    assert cards(h.kitty) == ["AH", "9C", "8S", "8H"]
    assert cards(h.dealt)["Eve"] == ["3H", "5S", "7H", "JD", "KC", "3S", "6S", "7S", "JS", "6D"]  # type: ignore[index]
    assert cards(h.discards)["Eve"] == ["7H", "JD", "AH", "KC", "8H", "6D", "3H", "9C"]  # type: ignore[index]
    assert h.draws == {}


def test_cards_set_aside_are_the_records_dead_cards() -> None:
    rec = next(pitchcli.simulate("ten-point-2", seed=3))
    game = next(pitchcli.score(text=json.dumps(rec), name="two.json"))
    for recorded, h in zip(rec["hands"], game.hands, strict=True):
        assert cards(h.set_aside) == recorded["dead"] and len(recorded["dead"]) == 18
        assert cards(h.dealt) == recorded["deal"]


def test_play_level_and_tally_hands_have_no_deal() -> None:
    for sample in ("auction-play.yaml", "auction-tally.yaml"):
        h = first_hand(sample)
        assert h.scored and not h.has_deal
        assert h.dealt == {} and h.discards == {} and h.draws == {} and h.kitty is None and h.set_aside is None
