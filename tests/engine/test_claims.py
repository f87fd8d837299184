"""Claims compared with the engine's derivation (``pitchcli.engine.claims``):
the one comparison both the full replay and the quick pass use, so that the
quick pass adopts a verdict exactly when the full replay finds no claim wrong.
"""

from __future__ import annotations

import copy

from pitchcli.engine.claims import MISSING, NOT_A_UNIT, Disagreement, compare_claims
from pitchcli.pipeline.feed import GameAnalysis, analyze
from pitchcli.pipeline.simulate import simulate_game


def test_agreeing_claims_have_no_disagreement() -> None:
    assert compare_claims({"Ann": 2, "Ben": -1}, {"Ben": -1, "Ann": 2}) == []
    assert compare_claims({}, {}) == []


def test_extension_keys_of_the_claim_are_left_out() -> None:
    assert compare_claims({"Ann": 2, "x-note": "late"}, {"Ann": 2}) == []
    assert compare_claims({"Ann": 3, "x-note": "late"}, {"Ann": 2}) == [Disagreement("Ann", 3, 2)]


def test_each_differing_missing_or_unknown_name_in_name_order() -> None:
    claimed = {"Cal": 1, "Ann": 5, "Zed": 0}
    derived = {"Ann": 4, "Ben": 0, "Cal": 1}
    assert compare_claims(claimed, derived) == [
        Disagreement("Ann", 5, 4),
        Disagreement("Ben", MISSING, 0),
        Disagreement("Zed", 0, NOT_A_UNIT),
    ]


def test_none_is_a_value_not_a_missing_name() -> None:
    # An award not given (None) is claimed by writing null; leaving it out is not the same claim.
    assert compare_claims({"jack": None}, {"jack": None}) == []
    assert compare_claims({"jack": "Ann"}, {"jack": None}) == [Disagreement("jack", "Ann", None)]


def _took_quick_pass(a: GameAnalysis) -> bool:
    return a._replay is not None  # the hands are still to be replayed: the quick pass decided


def test_both_paths_judge_claims_alike() -> None:
    rec = simulate_game("auction", players=4, seed=7)
    full = analyze(rec)
    names = full.table.unit_names  # type: ignore[union-attr]
    assert full.totals is not None
    rec["result"] = {"winner": full.winner, "scores": dict(zip(names, full.totals, strict=True))}
    # Extension keys in every claim: no disagreement for either path.
    for h in rec["hands"]:
        h["score"]["x-by"] = h["totals"]["x-by"] = "scorer"
    rec["result"]["scores"]["x-by"] = "scorer"
    quick = analyze(rec, quick=True)
    assert _took_quick_pass(quick) and quick.violations == [] == analyze(rec).violations
    # A name left out of a claim: the quick pass refuses the game, the replay reports it.
    for where in ("score", "totals"):
        broken = copy.deepcopy(rec)
        del broken["hands"][1][where][names[0]]
        quick = analyze(broken, quick=True)
        assert not _took_quick_pass(quick)
        assert [(v.code, v.details["claimed"]) for v in quick.violations] == \
            [("C502" if where == "score" else "C503", MISSING)]
        assert quick.violations == analyze(broken).violations
