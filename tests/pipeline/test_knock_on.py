"""One error in, one diagnostic out (issue 23): a wrong dealer or a call the
auction does not allow seats the play wrongly, and the replay would then see
every card played by the wrong player (R403). Those follow from the error
already reported and are not reported again; an independent error is."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pitchcli.pipeline.feed import analyze

ROOT = Path(__file__).resolve().parents[2]
FULL = ROOT / "samples" / "auction-full.yaml"


def record() -> dict:
    return yaml.safe_load(FULL.read_text(encoding="utf-8"))


def found(rec: dict) -> list[tuple[str, str]]:
    return [(v.code, v.at) for v in analyze(rec).violations]


def test_the_sample_is_clean() -> None:
    assert found(record()) == []


def test_a_wrong_dealer_is_one_diagnostic() -> None:
    rec = yaml.safe_load((ROOT / "samples-invalid" / "wrong-dealer.yaml").read_text(encoding="utf-8"))
    assert found(rec) == [("R405", "/hands/1/dealer")]


@pytest.mark.parametrize(("bids", "code"), [
    (["pass", "pass", 2, 1], "R404"),   # the dealer's 1 is not higher than Ben's 2
    (["pass", "pass", 2, 0], "R404"),   # a bid out of range
    (["pass", "pass", 2, 2, 3], "R404"),  # a call too many
])
def test_one_illegal_call_is_one_diagnostic(bids: list, code: str) -> None:
    rec = record()
    rec["hands"][0]["bids"] = bids
    assert [c for c, _ in found(rec)] == [code]


def test_a_card_nobody_held_is_still_reported_beside_a_wrong_dealer() -> None:
    rec = yaml.safe_load((ROOT / "samples-invalid" / "wrong-dealer.yaml").read_text(encoding="utf-8"))
    rec["hands"][1]["deal"]["Ann"][0] = "9S"  # Ann plays AH, which the deal now gives nobody
    v = analyze(rec).violations
    assert [(x.code, x.at) for x in v] == [("R405", "/hands/1/dealer"), ("R403", "/hands/1/deal/Ann/0")]
    assert v[1].message == "Ann played AH, which they did not hold, and held 9S but never played it"


def test_an_independent_error_in_the_hand_of_a_bad_call_is_kept() -> None:
    rec = record()
    rec["hands"][0]["bids"] = ["pass", "pass", 2, 1]
    tricks = rec["hands"][0]["tricks"]
    tricks[2][3], tricks[3][2] = tricks[3][2], tricks[2][3]  # Ann throws 3H on a diamond lead
    v = analyze(rec).violations
    assert [x.code for x in v] == ["R404", "R407"]
    # judged as the recorder seated the play: the player who did it is named
    assert v[1].message.startswith("Ann played 3H on a diamond lead while holding 9D"), v[1].message
