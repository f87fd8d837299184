"""Regenerate samples-invalid/: each file breaks one thing of a valid sample.

Run from the repository root: ``python tools/make_invalid_samples.py``. The
expected diagnostic of each file is asserted in tests/commands/test_validate.py.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from make_samples import write_sample  # tools/ is the script's folder

from pitchcli.record.write import to_json, to_yaml

ROOT = Path(__file__).resolve().parent.parent / "samples"
OUT = ROOT.parent / "samples-invalid"


def base(name: str = "auction-full.yaml", hands: int = 2) -> dict[str, Any]:
    """A valid sample cut to its first hands (claims of the rest dropped)."""
    rec = yaml.safe_load((ROOT / name).read_text())
    rec["hands"] = rec["hands"][:hands]
    rec.pop("result", None)
    return rec


def swap_follow(r: dict[str, Any]) -> None:
    t = r["hands"][0]["tricks"]  # Ann: QS (trick 1) <-> 4D (trick 4): QS on a diamond lead
    i, j = t[0].index("QS"), t[3].index("4D")
    t[0][i], t[3][j] = "4D", "QS"


def wrong_dealer(r: dict[str, Any]) -> None:
    r["hands"][1]["dealer"] = "Ann"


def bid_after_pitch(r: dict[str, Any]) -> None:
    r["hands"][1]["bids"] = [4, 3, "pass", "pass"]


def duplicate_card(r: dict[str, Any]) -> None:
    r["hands"][0]["deal"]["Ben"][0] = "10H"  # also in Ann's deal


def joker(r: dict[str, Any]) -> None:
    r["hands"][0]["deal"]["Ann"][0] = "BJ"


def score_claim(r: dict[str, Any]) -> None:
    r["hands"][0]["score"]["Ben"] = 3


def trump_claim(r: dict[str, Any]) -> None:
    r["hands"][0]["trump"] = "H"


def lead_claim(r: dict[str, Any]) -> None:
    r["hands"][0]["tricks"][1] = {"lead": "Ann", "cards": r["hands"][0]["tricks"][1]}


def unknown_player(r: dict[str, Any]) -> None:
    r["hands"][0]["dealer"] = "Cat"


def typo(r: dict[str, Any]) -> None:
    h = r["hands"][0]
    h["trikcs"] = h.pop("tricks")


def bad_card(r: dict[str, Any]) -> None:
    r["hands"][0]["tricks"][2][1] = "1C"


def impossible_rules(r: dict[str, Any]) -> None:
    r["rules"] = {"players": 9}


def no_trump(r: dict[str, Any]) -> None:
    r["hands"][0].pop("trump")


CASES: dict[str, tuple[str, Callable[[dict[str, Any]], None]]] = {
    "suit-not-followed.yaml": ("auction-full.yaml", swap_follow),
    "wrong-dealer.yaml": ("auction-full.yaml", wrong_dealer),
    "bid-after-pitch.yaml": ("auction-full.yaml", bid_after_pitch),
    "card-dealt-twice.yaml": ("auction-full.yaml", duplicate_card),
    "joker-in-auction.yaml": ("auction-full.yaml", joker),
    "score-claim-wrong.yaml": ("auction-full.yaml", score_claim),
    "trump-claim-wrong.yaml": ("auction-full.yaml", trump_claim),
    "lead-claim-wrong.yaml": ("auction-full.yaml", lead_claim),
    "unknown-dealer.yaml": ("auction-full.yaml", unknown_player),
    "typo-in-key.yaml": ("auction-full.yaml", typo),
    "not-a-card.yaml": ("auction-full.yaml", bad_card),
    "impossible-rules.yaml": ("auction-full.yaml", impossible_rules),
    "ten-point-no-trump.yaml": ("ten-point.yaml", no_trump),
    "wrong-result.yaml": ("auction-full.yaml", lambda r: r.update(result={"winner": "Ann"})),
}

RAW = {
    # PyYAML would keep the last 'dealer' silently.
    "duplicate-key.yaml": "format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben, Cal]\n"
                          "hands:\n  - dealer: Ann\n    dealer: Ben\n    contract: {bidder: Ben, bid: 2}\n",
    # A billion-laughs alias bomb: refused before it is expanded.
    "alias-bomb.yaml": "format: pitch-record/1\nvariant: auction\nplayers: &p [Ann, Ben, Cal]\n"
                       "notes: *p\n",
    # YAML 1.1 would read `no` as false: a bid of `no` is still the string "no" here.
    "bid-no.yaml": "format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben, Cal]\n"
                   "hands:\n  - dealer: Ann\n    bids: [no, 2, pass]\n",
    "truncated.json": '{"format": "pitch-record/1", "variant": "auction", "players": ["Ann", ',
    "top-level-list.yaml": "- format: pitch-record/1\n- variant: auction\n",
}


def main() -> None:
    """Write every invalid sample."""
    OUT.mkdir(exist_ok=True)
    for name, (source, mutate) in CASES.items():
        rec = base(source, 2 if source.startswith("auction") else 1)
        rec = copy.deepcopy(rec)
        mutate(rec)
        text = to_json(rec) if name.endswith(".json") else to_yaml(rec)
        write_sample(OUT / name, text)
    for name, text in RAW.items():
        write_sample(OUT / name, text)


if __name__ == "__main__":
    main()
