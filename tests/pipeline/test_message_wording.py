"""The wording of the diagnostics a replay writes (issue 23, "a linter's manners"):
numbers as a player writes them, no Python list, no sentinel standing in for a
value, the right count word, no suit named twice, and no gender for a player."""

from __future__ import annotations

from pathlib import Path

import yaml

from pitchcli.pipeline.feed import analyze

ROOT = Path(__file__).resolve().parents[2]
FULL = ROOT / "samples" / "auction-full.yaml"


def record() -> dict:
    return yaml.safe_load(FULL.read_text(encoding="utf-8"))


def messages(rec: dict, code: str) -> list[str]:
    return [v.message for v in analyze(rec).violations if v.code == code]


def test_a_bad_number_of_players_is_shown_as_written() -> None:
    rec = record()
    rec["rules"] = {"players": 9}
    assert messages(rec, "P302") == ["players must be between 2 and 8, not 9"]


def test_a_claim_for_an_unknown_name_says_so_without_a_sentinel_value() -> None:
    rec = record()
    score = rec["hands"][0]["score"]
    score["Bne"] = score.pop("Ben")
    text = messages(rec, "C502")
    assert "hand 1: score change is recorded for 'Bne', who is not a player or team; did you mean 'Ben'?" in text
    assert "hand 1: score change of Ben is missing; the replay gives 2" in text
    assert not [m for m in text if "gives not a player" in m or "recorded as missing" in m], text


def test_trumps_led_names_the_trump_suit_once() -> None:
    rec = record()
    # Hand 1: Cal leads 8C (clubs are trump); Ben throws 6H holding clubs.
    tricks = rec["hands"][0]["tricks"]
    tricks[0][3], tricks[3][3] = tricks[3][3], tricks[0][3]
    (first,) = [m for m in messages(rec, "R407") if m.startswith("Ben played 6H")]
    assert first == "Ben played 6H on a club lead while holding KC, 3C; only a trump (clubs) may be played"


def test_a_card_not_held_names_no_gender() -> None:
    rec = yaml.safe_load((ROOT / "samples-invalid" / "card-dealt-twice.yaml").read_text(encoding="utf-8"))
    (text,) = messages(rec, "R403")
    assert text == "Ben played 2S, which they did not hold, and held 10H but never played it"
