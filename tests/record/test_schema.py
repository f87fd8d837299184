"""The JSON Schema of pitch-record/1 and ``pitchcli.record.schema``."""

from __future__ import annotations

import copy
import datetime
import itertools
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from pitchcli import cards
from pitchcli.record import schema

try:
    import jsonschema_rs
except ImportError:  # pragma: no cover - the `fast` extra is optional
    jsonschema_rs = None

ROOT = Path(__file__).resolve().parents[2]
needs_rs = pytest.mark.skipif(jsonschema_rs is None, reason="jsonschema_rs not installed")


# ---------------------------------------------------------------------------
# Example records.

# FORMAT.md's example game, with the six tricks of hand 1 completed (legal play,
# and the score is the one the tricks give), and a tally hand for hand 2.
FORMAT_EXAMPLE = """
format: pitch-record/1
variant: auction            # a built-in rule profile (see PROFILES.md)
rules: {target: 11}         # optional overrides of the profile's options
event: Thursday club ladder # optional metadata
date: "2026-11-26"
round: 3
table: 2
players: [Ann, Ben, Cal, Dot]   # seats, clockwise; names are unique
hands:
  - dealer: Ann
    bids: [pass, 2, 3, pass]      # Ben, Cal, Dot, Ann
    tricks:                       # trick 1 is led by the pitcher (Dot)
      - [KS, 3S, 10S, AS]         # Dot, Ann, Ben, Cal
      - [QD, 5D, JS, 9D]          # Cal, Dot, Ann, Ben
      - [AH, 4H, 7H, 2H]          # Ann, Ben, Cal, Dot
      - [KC, 6C, 2S, 8C]          # Ann, Ben, Cal, Dot
      - [TD, JD, 6D, KD]          # Cal, Dot, Ann, Ben
      - [QH, 3C, 4S, 9H]          # Ben, Cal, Dot, Ann
    score: {Ann: 1, Ben: 0, Cal: 3, Dot: -3}
  - dealer: Ben
    contract: {bidder: Cal, bid: 2}
    points: {high: Cal, low: Dot, jack: null, game: Cal}
    score: {Ann: 0, Ben: 0, Cal: 2, Dot: 1}
    totals: {Ann: 1, Ben: 0, Cal: 5, Dot: -2}
result:
  winner: null
  scores: {Ann: 1, Ben: 0, Cal: 5, Dot: -2}
"""

# The ten-point examples are games of pitchcli.pipeline.simulate, with the claims the
# engine derives written in (all three examples passed pitchcli.pipeline.feed too).

# Ten-point, fixed teams, refill (TP4): deal, discards, draws, trump, points.
TEN_POINT_REFILL = """
format: pitch-record/1
variant: ten-point
players: [Ann, Ben, Cal, Dot]
teams: {us: [Ann, Cal], them: [Ben, Dot]}
hands:
  - dealer: Ben
    deal:
      Ann: [7D, 5D, 5S, 8H, 9D, 6H, 4D, JH, 9S]
      Ben: [QS, 2D, 2H, 8S, KS, QD, 4H, AC, KH]
      Cal: [8D, 3S, 7H, 7S, 4S, 10H, 6C, KC, 7C]
      Dot: [4C, 3D, 8C, 9H, 2C, JS, AH, 9C, 10C]
    bids: [pass, 6, pass, pass]
    trump: C
    discards:
      Ann: [7D, 5D, 5S, 8H, 9D, 6H, 4D, JH, 9S]
      Ben: [QS, 2D, 2H, 8S, KS, QD, 4H, KH]
      Cal: [8D, 3S, 7H, 7S, 4S, 10H]
      Dot: [AH, KD, 10D, 3D, 9H, QH, 10S]
    draws:
      Ann: [BJ, 5C, AS, 3H, JD, 5H]
      Ben: [JC, 2S, QC, 6S, LJ]
      Cal: [3C, 6D, AD]
      Dot: [QH, 10S, 10D, KD]
    tricks:
      - [JS, 5C, AC, KC]
      - [JC, 7C, 4C, BJ]
      - [LJ, 3C, 9C, 3H]
      - [2S, 6D, 8C, AS]
      - {lead: Dot, cards: [2C, JD, QC, 6C]}
      - [6S, AD, 10C, 5H]
    points: {us: 0, them: 10}
    score: {us: 0, them: 10}
"""

# Ten-point, called partner, cut-down (TP5): kitty, partner, discards, points.
TEN_POINT_CALLED = """
format: pitch-record/1
variant: ten-point-5
players: [Ann, Ben, Cal, Dot, Eve]
hands:
  - dealer: Ben
    deal:
      Ann: [2D, KS, 4S, 2C, 10S, JS, AD, JH, KD, KC]
      Ben: [8H, QH, QS, 5S, 7S, 7H, 4H, 9D, BJ, QC]
      Cal: [AH, 5C, 8D, 10H, AS, JD, 10D, 3C, 5D, 8C]
      Dot: [LJ, 9H, 7C, 3H, 6H, 9C, 2S, 3D, 6C, 3S]
      Eve: [10C, 8S, 2H, KH, 4C, 6D, 4D, 7D, 9S, 5H]
    bids: [5, pass, pass, pass, pass]
    trump: ♦️
    kitty: [6S, JC, AC, QD]
    partner: {card: 3D, player: Dot}
    discards:
      Ann: [JS, KC, KS, 10S]
      Ben: [8H, 7H, QS, 7S]
      Cal: [10H, 5C, AS, 6S, AC, 8C, AH, JC]
      Dot: [6H, 3S, 7C, 9H]
      Eve: [10C, 2H, 9S, 4C]
    tricks:
      - [3c, 3d, 4d, 2c, qc]
      - [5H, 4S, 9D, 8D, lj]
      - [3H, 6D, 2D, 4H, TD]
      - [5D, 9C, 7D, AD, BJ]
      - [J♥, 5♠, Q♦, 6♣, K♥]
      - [JD, 2S, 8S, KD, QH]
    points: {Ann: 4, Ben: 0, Cal: 2, Dot: 1, Eve: 3}
    score: {Ann: 7, Ben: 7, Cal: -5, Dot: -5, Eve: 7}
"""


def load(text: str) -> dict[str, Any]:
    """A record from YAML, as the loader would give it."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def fmt() -> dict[str, Any]:
    """A fresh copy of the FORMAT.md example, to break in a test."""
    return load(FORMAT_EXAMPLE)


def codes(diags: list[Any]) -> list[tuple[str, str]]:
    return [(d.code, d.pointer) for d in diags]


# ---------------------------------------------------------------------------
# The schema itself.


def test_schema_is_valid_draft_2020_12() -> None:
    s = schema.load_schema()
    Draft202012Validator.check_schema(s)
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert s["$id"] == schema.SCHEMA_ID
    assert s["$id"].startswith("urn:")
    assert s["title"]
    if jsonschema_rs is not None:
        jsonschema_rs.Draft202012Validator(s)  # compiles: the regexes are portable


def test_schemas_dir_links_to_the_package_data() -> None:
    link = ROOT / "schemas" / "pitch-record-1.schema.json"
    assert link.is_symlink()
    assert not os.path.isabs(os.readlink(link))  # relative: works in any checkout
    assert link.resolve() == (ROOT / "pitchcli" / "data" / "pitch-record-1.schema.json").resolve()
    assert json.loads(link.read_text("utf-8")) == schema.load_schema()


def test_load_schema_returns_a_copy() -> None:
    s = schema.load_schema()
    s["properties"]["format"]["const"] = "something else"
    assert schema.load_schema()["properties"]["format"]["const"] == "pitch-record/1"
    assert schema.validate(fmt()) == []


def _subschemas(node: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object that shapes a record, with a readable location. The
    conditions (``if``) are left out: they test a record, they don't define it."""
    if not isinstance(node, dict):
        return
    yield where, node
    for key in ("properties", "patternProperties", "$defs"):
        for name, sub in node.get(key, {}).items():
            yield from _subschemas(sub, f"{where}/{key}/{name}")
    for key in ("items", "additionalProperties", "then", "else", "not"):
        if isinstance(node.get(key), dict):
            yield from _subschemas(node[key], f"{where}/{key}")


def test_every_property_has_a_description() -> None:
    missing = []
    for where, node in _subschemas(schema.load_schema()):
        named = dict(node.get("properties", {}))
        if isinstance(node.get("additionalProperties"), dict):
            named["(any name)"] = node["additionalProperties"]
        named.update(node.get("patternProperties", {}))
        for name, sub in named.items():
            if isinstance(sub, dict) and not sub.get("description"):
                missing.append(f"{where}: {name}")
    assert missing == []


def test_every_mapping_is_strict_and_open_to_x_keys() -> None:
    for where, node in _subschemas(schema.load_schema()):
        if "additionalProperties" in node:
            assert node.get("patternProperties") == {"^x-": node["patternProperties"]["^x-"]}, where
        if node.get("type") == "object" and not where.endswith("/points"):
            # points is strict too, through the family switch ($defs/*-hands).
            assert "additionalProperties" in node, where


def test_no_oneof_or_anyof() -> None:
    # They hide deep errors (MEASURED.md); the schema switches with if/then/else.
    text = json.dumps(schema.load_schema())
    assert '"oneOf"' not in text and '"anyOf"' not in text


# Every character a card is written with, and some it is not (X, a line end, a space).
CARD_ALPHABET = "0123456789TtJjQqKkAaSsHhDdCcBbLlXx♠♥♦♣♤♡♢♧\ufe0f\n "


def test_card_pattern_accepts_exactly_what_the_card_parser_accepts() -> None:
    pattern = schema.load_schema()["$defs"]["card"]["pattern"]
    for text in cards._PARSE:
        assert re.search(pattern, text), text
    for n in (1, 2, 3):
        for chars in itertools.product(CARD_ALPHABET, repeat=n):
            text = "".join(chars)
            assert bool(re.search(pattern, text)) == (text in cards._PARSE), repr(text)
    for text in ("10S\ufe0f", "10s", "10♠", "100S", "10SS", "1OS", "10S\n", "10S "):
        assert bool(re.search(pattern, text)) == (text in cards._PARSE), repr(text)


def test_trump_pattern_accepts_exactly_what_the_suit_parser_accepts() -> None:
    hand = schema.load_schema()["properties"]["hands"]["items"]
    pattern = hand["properties"]["trump"]["pattern"]
    alphabet = "SHDCshdcXx♠♥♦♣♤♡♢♧\ufe0f\n "
    for n in (1, 2):
        for chars in itertools.product(alphabet, repeat=n):
            text = "".join(chars)
            assert bool(re.search(pattern, text)) == (cards.parse_suit(text) is not None), repr(text)


# ---------------------------------------------------------------------------
# Valid records.


@pytest.mark.parametrize("text", [FORMAT_EXAMPLE, TEN_POINT_REFILL, TEN_POINT_CALLED],
                         ids=["format-md", "ten-point", "ten-point-5"])
def test_examples_are_valid(text: str) -> None:
    record = load(text)
    assert schema.validate(record) == []
    assert schema.is_valid(record)


def test_every_variant_is_accepted() -> None:
    for variant in ("auction", "auction-partners", "ten-point-2", "ten-point-3", "ten-point",
                    "ten-point-5", "ten-point-6", "ten-point-7", "ten-point-8"):
        record = {"format": "pitch-record/1", "variant": variant, "players": ["A", "B"]}
        assert schema.validate(record) == [], variant


def test_x_keys_are_accepted_in_every_mapping() -> None:
    record = load(TEN_POINT_CALLED)
    x = {"x-note": {"anything": [1, None, "goes"]}}
    record.update(x, rules={"target": 52, **x}, teams={**x}, result={"winner": None, **x,
                  "scores": {"Ann": 0, **x}})
    hand = record["hands"][0]
    hand.update(x)
    for key in ("deal", "discards", "partner", "points", "score"):
        hand[key].update(x)
    hand["contract"] = {"bidder": "Cal", "bid": 5, **x}
    hand["totals"] = {"Ann": 7, **x}
    hand["draws"] = {"Ann": ["AS"], **x}
    hand["tricks"][0] = {"lead": "Cal", "cards": hand["tricks"][0], **x}
    assert schema.validate(record) == []

    auction = fmt()
    auction["hands"][1]["points"].update(x)
    assert schema.validate(auction) == []


def test_calls_and_suits_in_every_notation() -> None:
    record = fmt()
    record["hands"][0]["bids"] = ["pass", "Pass", "PASS", 10]
    for trump in ("S", "s", "♠", "♠\ufe0f", "♤"):
        record["hands"][0]["trump"] = trump
        assert schema.validate(record) == [], trump


def test_partner_with_two_called_cards() -> None:
    record = load(TEN_POINT_CALLED)
    record["variant"] = "ten-point-7"
    record["hands"][0]["partner"] = {"cards": ["3D", "AD"], "players": ["Dot", "Ann"]}
    assert schema.validate(record) == []


def test_family_override_switches_the_points_shape() -> None:
    record = load(TEN_POINT_CALLED)
    record["rules"] = {"family": "auction"}
    assert ("S201", "/hands/0/points/Ann") in codes(schema.validate(record))
    record = fmt()
    record["rules"] = {"family": "ten-point"}
    assert ("S203", "/hands/1/points/high") in codes(schema.validate(record))


# ---------------------------------------------------------------------------
# Each code, with its pointer and a message a player understands.


def test_s201_unknown_key_points_at_the_key_with_a_suggestion() -> None:
    record = fmt()
    record["hands"][0]["trikcs"] = record["hands"][0].pop("tricks")
    [d] = schema.validate(record)
    assert (d.code, d.pointer, d.hand) == ("S201", "/hands/0/trikcs", 1)
    assert "unknown key 'trikcs' in hand 1; did you mean 'tricks'?" in d.message


def test_s201_unknown_rule_option() -> None:
    record = fmt()
    record["rules"] = {"taget": 11}
    [d] = schema.validate(record)
    assert (d.code, d.pointer) == ("S201", "/rules/taget")
    assert "rule option 'taget'" in d.message and "did you mean 'target'?" in d.message


def test_s201_pointer_escapes_slash_and_tilde() -> None:
    record = fmt()
    record["a/b~c"] = 1
    [d] = schema.validate(record)
    assert (d.code, d.pointer) == ("S201", "/a~1b~0c")


def test_s202_missing_players_points_at_the_parent() -> None:
    record = fmt()
    del record["players"]
    [d] = schema.validate(record)
    assert (d.code, d.pointer) == ("S202", "")
    assert "missing key 'players' in the game" in d.message


def test_s202_every_missing_key() -> None:
    record = fmt()
    record["hands"][1]["points"] = {"high": "Cal"}
    diags = schema.validate(record)
    assert codes(diags) == [("S202", "/hands/1/points")] * 3
    assert [d.extra["key"] for d in diags] == ["low", "jack", "game"]
    assert "jack: null" in diags[1].message


def test_s203_wrong_type() -> None:
    record = fmt()
    record["hands"][0]["tricks"][1] = "QD 5D JS 9D"
    [d] = schema.validate(record)
    assert (d.code, d.pointer, d.hand, d.trick) == ("S203", "/hands/0/tricks/1", 1, 2)
    assert "trick 2 of hand 1 must be a list of cards" in d.message


def test_s203_unquoted_yaml_date() -> None:
    record = load(FORMAT_EXAMPLE.replace('"2026-11-26"', "2026-11-26"))
    assert isinstance(record["date"], datetime.date)
    [d] = schema.validate(record)  # jsonschema_rs can't take a date: the reference can
    assert (d.code, d.pointer) == ("S203", "/date")
    assert "quotes" in d.message


def test_s203_keys_that_are_not_text() -> None:
    # YAML 1.1: a player called No is the key False, unless quoted.
    record = load(FORMAT_EXAMPLE.replace("score: {Ann: 1,", "score: {no: 1,"))
    [d] = schema.validate(record)
    assert (d.code, d.pointer) == ("S203", "/hands/0/score/false")
    assert "put it in quotes" in d.message
    record = fmt()
    record[3] = "three"
    assert codes(schema.validate(record)) == [("S203", "/3")]


def test_the_content_of_an_extension_is_free() -> None:
    record = fmt()
    record["x-data"] = {1: [datetime.date(2026, 11, 26)], None: {True: set()}}
    assert schema.validate(record) == []


def test_s204_bad_card_deep_in_a_trick() -> None:
    record = fmt()
    record["hands"][0]["tricks"][2][1] = "1H"
    [d] = schema.validate(record)
    assert (d.code, d.pointer, d.hand, d.trick) == ("S204", "/hands/0/tricks/2/1", 1, 3)
    assert d.message.startswith("'1H' is not a card (card 2 of trick 3 in hand 1)")


def test_s204_bad_card_in_a_trick_with_its_leader() -> None:
    record = fmt()
    record["hands"][0]["tricks"][2] = {"lead": "Ann", "cards": ["AH", "4X", "7H", "2H"]}
    [d] = schema.validate(record)
    assert (d.code, d.pointer, d.trick) == ("S204", "/hands/0/tricks/2/cards/1", 3)


def test_s204_bad_variant_with_suggestion() -> None:
    record = fmt()
    record["variant"] = "auction-partner"
    [d] = schema.validate(record)
    assert (d.code, d.pointer) == ("S204", "/variant")
    assert "did you mean 'auction-partners'?" in d.message


@pytest.mark.parametrize(("change", "pointer"), [
    (lambda r: r.update(format="pitch-record/2"), "/format"),
    (lambda r: r["hands"][0]["bids"].__setitem__(1, "pas"), "/hands/0/bids/1"),
    (lambda r: r["hands"][0].update(trump="X"), "/hands/0/trump"),
    (lambda r: r.update(date="26/11/2026"), "/date"),
    (lambda r: r["players"].append("Ann"), "/players/4"),
    (lambda r: r["players"].append("x-ray"), "/players/4"),
    (lambda r: r["players"].append(""), "/players/4"),
    (lambda r: r.update(rules={"mode": "refil"}), "/rules/mode"),
])
def test_s204_values_not_allowed(change: Any, pointer: str) -> None:
    record = fmt()
    change(record)
    [d] = schema.validate(record)
    assert (d.code, d.pointer) == ("S204", pointer)


def test_s205_wrong_number_of_players() -> None:
    record = fmt()
    record["players"] = ["Ann"]
    [d] = schema.validate(record)
    assert (d.code, d.pointer) == ("S205", "/players")
    assert "2 to 8" in d.message


def test_s206_partner_keys_that_do_not_go_together() -> None:
    record = load(TEN_POINT_CALLED)
    record["hands"][0]["partner"] = {"card": "3D", "cards": ["3D", "AD"]}
    [d] = schema.validate(record)
    assert (d.code, d.pointer) == ("S206", "/hands/0/partner/card")
    assert "not both" in d.message


def test_all_errors_in_document_order() -> None:
    record = fmt()
    record["hands"][1]["score"]["Ann"] = "0"
    record["hands"][0]["tricks"][5][0] = "QQ"
    record["notes"] = 7
    record["variant"] = "pitch"
    assert codes(schema.validate(record)) == [
        ("S204", "/variant"),
        ("S204", "/hands/0/tricks/5/0"),
        ("S203", "/hands/1/score/Ann"),
        ("S203", "/notes"),
    ]


def test_best_match_explains_a_oneof_failure() -> None:
    validator = Draft202012Validator(
        {"oneOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "string"}]}
    )
    errors = list(validator.iter_errors([1, "x"]))
    [d] = schema._translate([1, "x"], errors)
    assert (d.code, d.pointer) == ("S203", "/1")


def test_a_top_level_that_is_not_a_mapping() -> None:
    [d] = schema.validate(["format", "pitch-record/1"])
    assert (d.code, d.pointer) == ("S203", "")


# ---------------------------------------------------------------------------
# Backends.

VALID = [FORMAT_EXAMPLE, TEN_POINT_REFILL, TEN_POINT_CALLED]
BREAKS = {
    "unknown key": lambda r: r["hands"][0].update(trikcs=[]),
    "missing players": lambda r: r.pop("players"),
    "bad card": lambda r: r["hands"][0]["tricks"][2].__setitem__(1, "1H"),
    "card with newline": lambda r: r["hands"][0]["tricks"][2].__setitem__(1, "AH\n"),
    "card with space": lambda r: r["hands"][0]["tricks"][2].__setitem__(1, "AH "),
    "bool as call": lambda r: r["hands"][0]["bids"].__setitem__(0, True),
    "float score": lambda r: r["hands"][0]["score"].__setitem__("Ann", 1.5),
    "bad variant": lambda r: r.update(variant="setback"),
    "bad date": lambda r: r.update(date="2026-13-01"),
    "date newline": lambda r: r.update(date="2026-11-26\n"),
    "duplicate player": lambda r: r["players"].__setitem__(1, "Ann"),
    "nine players": lambda r: r.update(players=list("ABCDEFGHI")),
    "trick mapping without lead": lambda r: r["hands"][0]["tricks"].__setitem__(0, {"cards": []}),
    "points keys": lambda r: r["hands"][1]["points"].update(hihg="Cal"),
    "top-level list": lambda r: r.clear(),
}


@needs_rs
@pytest.mark.parametrize("text", VALID)
def test_backends_agree_on_valid_records(text: str) -> None:
    record = load(text)
    assert schema._compiled().is_valid(record)
    assert schema._reference().is_valid(record)


@needs_rs
@pytest.mark.parametrize("name", list(BREAKS))
def test_backends_agree_on_invalid_records(name: str) -> None:
    record = fmt()
    BREAKS[name](record)
    assert schema._compiled().is_valid(record) is False
    assert schema._reference().is_valid(record) is False
    assert schema.validate(record), name


@needs_rs
def test_valid_record_never_reaches_the_reference_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(schema.BACKEND_ENV, "auto")

    def boom() -> None:
        raise AssertionError("the reference backend ran on a valid record")

    monkeypatch.setattr(schema, "_reference", boom)
    assert schema.validate(fmt()) == []
    assert schema.backend_name() == "jsonschema_rs"


@pytest.mark.parametrize("name", list(BREAKS))
def test_same_diagnostics_whichever_backend(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    record = fmt()
    BREAKS[name](record)
    monkeypatch.setenv(schema.BACKEND_ENV, "jsonschema")
    assert schema.backend_name() == "jsonschema"
    reference = schema.validate(record)
    monkeypatch.setenv(schema.BACKEND_ENV, "auto")
    assert schema.validate(record) == reference


def test_backend_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(schema.BACKEND_ENV, "fastest")
    with pytest.raises(ValueError, match="PITCHCLI_SCHEMA_BACKEND"):
        schema.validate(fmt())
    monkeypatch.setenv(schema.BACKEND_ENV, "rs")
    monkeypatch.setattr(schema, "_compiled", lambda: None)
    with pytest.raises(RuntimeError, match="jsonschema_rs is not installed"):
        schema.validate(fmt())
    monkeypatch.setenv(schema.BACKEND_ENV, "auto")
    assert schema.backend_name() == "jsonschema"  # no compiled backend: fall back quietly
    assert schema.validate(fmt()) == []


@needs_rs
def test_disagreeing_backends_never_pass_a_record(monkeypatch: pytest.MonkeyPatch) -> None:
    # If jsonschema ever accepted what jsonschema_rs rejects (a regex dialect
    # difference), the document still gets diagnostics, from jsonschema_rs.
    record = fmt()
    record["hands"][0]["tricks"][2][1] = "1H"
    monkeypatch.setenv(schema.BACKEND_ENV, "auto")
    monkeypatch.setattr(schema, "_reference", lambda: Draft202012Validator({}))
    [d] = schema.validate(record)
    assert (d.code, d.pointer) == ("S204", "/hands/0/tricks/2/1")


def test_records_the_engine_generates_are_valid() -> None:
    # The other side of the contract: whatever the engine writes, the schema takes.
    simulate = pytest.importorskip("pitchcli.pipeline.simulate")
    for variant in ("auction", "auction-partners", "ten-point", "ten-point-5", "ten-point-7"):
        record = simulate.simulate_game(variant, seed=7)
        assert schema.validate(copy.deepcopy(record)) == [], variant


def test_a_mistyped_pass_gets_did_you_mean() -> None:
    rec = fmt()
    rec["hands"][0]["bids"][0] = "pas"
    (d,) = schema.validate(rec)
    assert d.message.endswith("write pass or a whole number (a bid); did you mean 'pass'?"), d.message
    rec["hands"][0]["bids"][0] = "no"  # nothing close: no guess
    assert "did you mean" not in schema.validate(rec)[0].message


def test_every_pattern_says_what_to_write_in_an_editor() -> None:
    """yaml-language-server shows ``patternErrorMessage`` instead of the raw
    regular expression ("a card such as 10H or QS"); the validator ignores it."""
    patterns = [(where, node) for where, node in _subschemas(schema.load_schema()) if "pattern" in node]
    assert len(patterns) >= 5
    for where, node in patterns:
        assert node.get("patternErrorMessage"), where
    card = schema.load_schema()["$defs"]["card"]["patternErrorMessage"]
    assert card.startswith("a card such as 10H or QS")


# ---------------------------------------------------------------------------
# jsonschema_rs runs the patterns rewritten for its fast regex engine
# (schema.rust_patterns): each must accept exactly what Python's re accepts of
# the shipped pattern, since the compiled check alone decides a valid record.

def _shipped_patterns(node: Any) -> Iterator[str]:
    if isinstance(node, list):
        for item in node:
            yield from _shipped_patterns(item)
    elif isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                yield value
            else:
                yield from _shipped_patterns(value)


REWRITTEN = sorted({p for p in _shipped_patterns(schema.load_schema()) if p.endswith(schema.PYTHON_END)})
# Every piece a card, a trump, a call or a date is made of, and the line ends and
# spaces around them that one engine's "$" could treat apart from another's.
PIECES = ["A", "s", "S", "10", "1", "0", "2", "9", "T", "j", "B", "l", "J", "P", "a", "x",
          "\u2660", "\u2667", "\ufe0f", "\n", "\r", "\r\n", "\u2028", "\x85", " ", "\t", "-",
          "2026", "-11", "-26", "PaSs", "pass"]


def test_every_end_anchored_pattern_is_rewritten() -> None:
    assert len(REWRITTEN) == 4  # card, trump, pass, date
    assert schema.PYTHON_END not in json.dumps(schema.rust_patterns(schema.load_schema()))


@needs_rs
@pytest.mark.parametrize("pattern", REWRITTEN)
def test_rewritten_pattern_accepts_what_python_accepts(pattern: str) -> None:
    rust = jsonschema_rs.Draft202012Validator(schema.rust_patterns({"type": "string", "pattern": pattern}))
    python = re.compile(pattern)
    texts = {"".join(p) for n in range(1, 4) for p in itertools.product(PIECES, repeat=n)}
    texts |= {c + end for c in cards.NOTATION_INDEX for end in ("", "\n", "\r", "\n\n", " ", "\ufe0f", "\ufe0f\n")}
    texts |= {"2026-11-26", "2026-11-26\n", "2026-02-31", "2026-11-26\r\n", "pass\n", "H\n", "\u2665\ufe0f"}
    differ = sorted(t for t in texts if rust.is_valid(t) is not bool(python.search(t)))
    assert differ == []


@needs_rs
def test_compiled_check_runs_the_rewritten_patterns() -> None:
    record = fmt()
    record["hands"][0]["tricks"][2][1] = "AH\n"
    assert schema._compiled().is_valid(record) is False
    record["hands"][0]["tricks"][2][1] = "AH"
    assert schema._compiled().is_valid(record) is True


# ---------------------------------------------------------------------------
# jsonschema_rs checks a card as the set of its spellings (schema.compiled_schema),
# a set look-up rather than a regex call on every card: it must take exactly
# what Python's re takes of the shipped card pattern, and nothing else changes.

CARD_TEXTS = sorted(
    {"".join(p) for n in range(1, 4) for p in itertools.product(PIECES, repeat=n)}
    | {"".join(p) for n in range(1, 4)
       for p in itertools.product(CARD_ALPHABET, repeat=n)}
    | {c + end for c in cards.NOTATION_INDEX for end in ("", "\n", "\r", " ", "\ufe0f", "\ufe0f\n", "S", "0")}
)


def test_compiled_schema_changes_only_the_card() -> None:
    shipped = schema.load_schema()
    compiled = schema.compiled_schema(shipped)
    assert compiled["$defs"]["card"] == {"enum": sorted(cards.NOTATIONS)}
    rewritten = schema.rust_patterns(shipped)
    del compiled["$defs"]["card"], rewritten["$defs"]["card"]
    assert compiled == rewritten
    assert "enum" not in json.dumps(schema.load_schema()["$defs"]["card"])  # the shipped schema keeps its pattern


@needs_rs
def test_compiled_card_accepts_exactly_what_the_pattern_accepts() -> None:
    card = schema.load_schema()["$defs"]["card"]
    python = re.compile(card["pattern"])
    rust = jsonschema_rs.Draft202012Validator(
        {"$defs": schema.compiled_schema(schema.load_schema())["$defs"], "$ref": "#/$defs/card"})
    assert len(CARD_TEXTS) > 50_000
    differ = [t for t in CARD_TEXTS if rust.is_valid(t) is not bool(python.search(t))]
    assert differ == []
    for other in (10, 1.5, None, True, ["AS"], {"AS": 1}):
        assert rust.is_valid(other) is False


@needs_rs
def test_compiled_check_reads_every_card_spelling() -> None:
    record = fmt()
    for text in ("A\u2660\ufe0f", "ts", "bJ", "10\u2667"):
        record["hands"][0]["tricks"][2][1] = text
        assert schema._compiled().is_valid(record) is True, text
    for text in ("1H", "AH\n", "A", "10S ", "BJJ"):
        record["hands"][0]["tricks"][2][1] = text
        assert schema._compiled().is_valid(record) is False, text
        assert schema._reference().is_valid(record) is False, text
