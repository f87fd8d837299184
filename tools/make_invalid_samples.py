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


# One sample per diagnostic code that a small file can show, in
# docs/examples/codes/: the example message of each code (pitchcli/data/codes.toml
# ``says``, `pitch explain`, docs/codes.md, the SARIF rule help) is what
# validating it prints, copied by tools/gen_docs.py (a test fails while stale).
CODES_OUT = ROOT.parent / "docs" / "examples" / "codes"


def _hand(r: dict[str, Any], **changes: Any) -> None:
    r["hands"][0].update(changes)


def _deep(r: dict[str, Any]) -> None:
    notes: Any = "x"
    for _ in range(64):
        notes = [notes]
    r["notes"] = notes


def _partner_player(r: dict[str, Any]) -> None:
    r["hands"][0]["partner"]["player"] = "Ben"  # Dot holds the called card


def _after_the_win(r: dict[str, Any]) -> None:
    extra = copy.deepcopy(r["hands"][-4])  # the same seat deals again four hands later
    for key in ("score", "totals", "points"):
        extra.pop(key, None)
    r["hands"].append(extra)


def _discard_point(r: dict[str, Any]) -> None:
    h = r["hands"][0]  # Dot discards the ten of trumps (clubs) and plays AH in its place
    h["discards"]["Dot"][0] = "10C"
    for trick in h["tricks"]:
        if "10C" in trick:
            trick[trick.index("10C")] = "AH"


CODE_CASES: dict[str, tuple[str, int, Callable[[dict[str, Any]], None]]] = {
    "L107": ("auction-full.yaml", 1, _deep),
    "S202": ("auction-full.yaml", 1, lambda r: r.pop("variant")),
    "S203": ("auction-full.yaml", 1, lambda r: r.update(hands={"dealer": "Cal"})),
    "S205": ("auction-full.yaml", 1, lambda r: r.update(players=["Ann"], hands=[])),
    "S206": ("ten-point-5.yaml", 1, lambda r: r["hands"][0]["partner"].update(cards=["BJ", "AS"])),
    "P303": ("ten-point.yaml", 1, lambda r: r.update(teams={"Us": r["players"][:2], "Them": r["players"][2:]})),
    "R408": ("auction-full.yaml", 1, lambda r: r["hands"][0]["tricks"][0].pop()),
    "R409": ("ten-point.yaml", 1, _discard_point),
    "R411": ("ten-point-5.yaml", 1, lambda r: r["hands"][0]["partner"].update(card="KD")),
    "R412": ("auction-full.yaml", 99, _after_the_win),
    "R414": ("auction-full.yaml", 1, lambda r: r["hands"][0].pop("bids")),
    "C501": ("auction-full.yaml", 1, lambda r: _hand(r, points={"high": "Cal", "low": "Ann", "jack": None,
                                                                "game": "Ben"})),
    "C503": ("auction-full.yaml", 2, lambda r: r["hands"][1]["totals"].update(Ann=-5)),
    "C505": ("auction-full.yaml", 1, lambda r: _hand(r, contract={"bidder": "Ann", "bid": 2})),
    "C507": ("ten-point-5.yaml", 1, _partner_player),
}

CODE_RAW: dict[str, bytes] = {
    "L102": b"format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben, Cal, Dot]\nnotes: Zo\xeb\n",
    "L103": b"format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben, Cal, Dot]\nhands:\n"
            b"  - dealer: Cal\n    tricks:\n      - [8C, QC, QS, 3C\n      - [3S, KS, KC, 2C]\n",
    "L109": b"format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben, Cal, Dot]\n---\n",
    "L111": b"\xef\xbb\xbfformat: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben, Cal, Dot]\n",
    "L112": b"format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben, Cal, Dot]\nround: 1e999\n",
}


def _commented(comment: str) -> str:
    """The first hand of auction-full.yaml with ``comment`` at the end of its score's line."""
    text = to_yaml(base("auction-full.yaml", 1))
    line = "    score: {Ann: 0, Ben: 2, Cal: -2, Dot: 0}\n"
    assert line in text
    return text.replace(line, line[:-1] + comment + "\n")


CODE_TEXT: dict[str, str] = {
    "N601": _commented("  # pitch: ignore[C502]  (the score was wrong once)"),
    "N602": _commented("  # pitch: ignore"),
}

# Codes no small file in the repository can show: each is made in a
# temporary folder when its message is generated (``made_says``).
MADE_NAMES = {"L101": "gone.yaml", "L106": "huge.jsonl", "L108": "archive.yaml", "L113": "records",
              "P301": "game.yaml"}
HUGE = 3 * 1024**3  # past the loader's 2 GiB bound: made sparse, it takes no disk


def _engine_says(path: Path, code: str) -> str:
    """What the engine says of the record at ``path``, located as validate
    locates a diagnostic: for a code the schema stage always reports first
    (P301: an unknown variant is S204 for the schema), so validate never
    prints it; the API's ``analyze`` does."""
    from pitchcli.diagnostics import Diagnostic
    from pitchcli.pipeline.feed import analyze
    from pitchcli.record.load import Document, load_documents

    doc = next(d for d in load_documents(str(path), name=str(path)) if isinstance(d, Document))
    v = next(v for v in analyze(doc.data).violations if v.code == code)
    line, column = doc.locate(v.at)
    return Diagnostic(v.code, v.message, rule=v.rule, pointer=v.at).located(
        file=str(path), document=doc.index, line=line, column=column).as_text()


def made_says(folder: Path, full: bool = True) -> dict[str, str]:
    """The example message of each code of ``MADE_NAMES``, made in ``folder``
    and named as if validated from it. ``full`` False: L108's stream of a
    million and one documents (22 s of CPU) is made with a limit of 3 and its
    numbers put back (the freshness test: the same words, from the same code)."""
    import os
    import re

    from pitchcli.record.document import Limits
    from pitchcli.record.load import load_documents
    from pitchcli.views.reference import says_of

    out: dict[str, str] = {}
    gone = folder / MADE_NAMES["L101"]
    out["L101"] = says_of("L101", str(gone)) or ""
    huge = folder / MADE_NAMES["L106"]
    with open(huge, "wb") as f:
        f.truncate(HUGE)
    out["L106"] = says_of("L106", str(huge)) or ""
    huge.unlink()
    records = folder / MADE_NAMES["L113"]
    records.mkdir()
    os.mkfifo(records / "pipe.yaml")
    out["L113"] = says_of("L113", str(records)) or ""
    stream = folder / MADE_NAMES["L108"]
    limit = Limits().max_documents if full else 3
    stream.write_text("---\n" * (limit + 1))
    said = next(d for d in load_documents(str(stream), name=str(stream), limits=Limits(max_documents=limit))
                if d.code == "L108").as_text()
    if not full:
        real = Limits().max_documents
        said = re.sub(r"\b3 documents", f"{real} documents", said).replace("(document 4)", f"(document {real + 1})")
    out["L108"] = said
    game = folder / MADE_NAMES["P301"]
    game.write_text((ROOT / "auction-full.yaml").read_text().replace("variant: auction", "variant: setback"))
    out["P301"] = _engine_says(game, "P301")
    prefix = str(folder) + os.sep
    return {code: says.replace(prefix, "") for code, says in out.items()}


def code_samples() -> None:
    """Write docs/examples/codes/CODE.yaml for every code a small file shows."""
    CODES_OUT.mkdir(exist_ok=True)
    for code, (source, hands, mutate) in CODE_CASES.items():
        rec = copy.deepcopy(base(source, hands))
        mutate(rec)
        write_sample(CODES_OUT / f"{code}.yaml", to_yaml(rec))
    for code, data in CODE_RAW.items():
        (CODES_OUT / f"{code}.yaml").write_bytes(data)
    for code, text in CODE_TEXT.items():
        write_sample(CODES_OUT / f"{code}.yaml", text)


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
    code_samples()


if __name__ == "__main__":
    main()
