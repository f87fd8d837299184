"""``pitch score``: score sheets on every detail level, explanations, claim checks."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.score_records import FORMAT_EXAMPLE, LONE_AND_TIE, TEN_POINT_TALLY

import pitchcli
from pitchcli.cli import main
from pitchcli.pipeline.feed import analyze
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.views.scoresheet import score_sheet


def run(tmp_path: Path, text: str, *args: str, name: str = "game.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["score", str(path), *args])


def no_repr(text: str) -> None:
    # (" object at 0x": the repr of a plain class, as the engine's per-hand records are)
    for leak in ("Card(", "HandResult", "Award(", " object at 0x", "{'", "['", "None", "Traceback"):
        assert leak not in text, (leak, text)


def test_play_and_tally_hands_scored(tmp_path: Path) -> None:
    r = run(tmp_path, FORMAT_EXAMPLE)
    assert r.exit_code == 0, r.stdout + r.stderr
    out = r.stdout
    no_repr(out)
    assert "Hand 1 (play): Ann dealt; pitcher Dot, bid 3; trump spades." in out
    assert "Hand 2 (tally): Ben dealt; pitcher Cal, bid 2." in out
    assert "Dot bid 3 and took 0: set back." in out
    assert "Unfinished: nobody has won after 2 hands (target 11)." in out
    # The running totals of the tally hand are those the record claims.
    sheet = score_sheet(next(pitchcli.score(text=FORMAT_EXAMPLE)))
    assert sheet.hands[1].totals == {"Ann": 1, "Ben": 0, "Cal": 5, "Dot": -2}
    assert sheet.hands[0].awards["high"].card == "AS"
    assert sheet.hands[0].awards["high"].captured_by == "Cal"
    assert sheet.hands[0].awards["high"].trick == 1


def test_ten_point_tally_scored(tmp_path: Path) -> None:
    r = run(tmp_path, TEN_POINT_TALLY, "--format", "json")
    assert r.exit_code == 0, r.stdout + r.stderr
    doc = json.loads(r.stdout)["documents"][0]
    h1, h2 = doc["hands"]
    assert h1["level"] == "tally" and h1["bidder"] == "Ben" and h1["made"] is False
    assert h1["score"] == {"Us": 7, "Them": -6}
    assert h2["score"] == {"Us": 5, "Them": 5} and h2["made"] is True
    assert doc["totals"] == {"Us": 12, "Them": -1}
    assert doc["winner"] is None and doc["finished"] is False
    text = run(tmp_path, TEN_POINT_TALLY).stdout
    assert "Us: Ann & Cal; Them: Ben & Dot" in text
    assert "Them bid 6 and took 3: set back." in text
    no_repr(text)


def test_explain_lone_trump_tie_and_set_back(tmp_path: Path) -> None:
    r = run(tmp_path, LONE_AND_TIE, "--explain")
    assert r.exit_code == 0, r.stdout + r.stderr
    out = r.stdout
    no_repr(out)
    assert ("High and Low: AS, the only trump in play, played and captured by Cal in trick 1: a lone "
            "trump scores two points, as High and as Low (AP-SCORE-3).") in out
    assert "Jack: not awarded; the jack of spades (JS) was not in play (AP-SCORE-2)." in out
    assert "Game: not awarded; Ann and Dot tied with 10 game points each" in out
    assert "(AP-SCORE-2)" in out
    assert "Nobody bid before the dealer, so Ben, the dealer, had to bid: 2 (AP-BID-4)." in out
    assert "Ben, the pitcher, bid 2 but won no points: set back 2, scores -2 (AP-SCORE-5)." in out
    assert "High: 5S, the highest trump in play, played and captured by Ann in trick 1 (AP-SCORE-1)." in out
    assert "Low: 2S, the lowest trump in play, played by Ben, captured by Ann in trick 1 (AP-SCORE-1)." in out


def test_hand_option_and_missing_hand(tmp_path: Path) -> None:
    r = run(tmp_path, LONE_AND_TIE, "--hand", "2")
    assert r.exit_code == 0
    assert "Hand 2 (play)" in r.stdout and "Hand 1" not in r.stdout
    r = run(tmp_path, LONE_AND_TIE, "--hand", "3")
    assert r.exit_code == 1
    assert "there is no hand 3: the game has 2 hands" in r.stderr


def test_claim_mismatch_fails_check_with_both_values(tmp_path: Path) -> None:
    wrong = FORMAT_EXAMPLE.replace("score: {Ann: 1, Ben: 0, Cal: 3, Dot: -3}",
                                   "score: {Ann: 1, Ben: 0, Cal: 2, Dot: -3}")
    wrong = wrong.replace("result: {winner: null,", "result: {winner: Cal,")
    plain = run(tmp_path, wrong)
    assert plain.exit_code == 0  # the score is still computed; the note says how to see more
    assert "2 recorded values disagree with the cards; --check shows them" in plain.stderr
    r = run(tmp_path, wrong, "--check")
    assert r.exit_code == 1
    out = r.stdout
    assert "Recorded values that disagree with the cards:" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("score"))
    assert row.split()[:4] == ["score", "Cal", "2", "3"], row  # recorded 2, computed 3
    res = next(line for line in out.splitlines() if line.strip().startswith("result"))
    assert "Cal" in res and "none" in res
    js = run(tmp_path, wrong, "--check", "--format", "json")
    assert js.exit_code == 1
    doc = json.loads(js.stdout)["documents"][0]
    m = doc["hands"][0]["mismatches"][0]
    assert (m["field"], m["key"], m["recorded"], m["computed"], m["code"]) == ("score", "Cal", 2, 3, "C502")
    assert doc["mismatches"][0]["code"] == "C504"
    # A claim of totals disagreeing too.
    bad_totals = FORMAT_EXAMPLE.replace("totals: {Ann: 1,", "totals: {Ann: 2,")
    r = run(tmp_path, bad_totals, "--check")
    assert r.exit_code == 1 and "totals" in r.stdout
    assert run(tmp_path, FORMAT_EXAMPLE, "--check").exit_code == 0


def test_invalid_and_unreadable(tmp_path: Path) -> None:
    illegal = LONE_AND_TIE.replace("[2H, 3H, 4H, AH]", "[2H, 3H, 2C, AH]").replace("[AS, 2C, 3C, 4C]",
                                                                                  "[AS, 4H, 3C, 4C]")
    r = run(tmp_path, illegal)
    assert r.exit_code == 1
    assert r.stdout == ""
    assert "game.yaml:" in r.stderr and "R407 [AP-PLAY-2]" in r.stderr
    assert "not scored: the record is invalid" in r.stderr
    r = CliRunner().invoke(main, ["score", str(tmp_path / "nope.yaml")])
    assert r.exit_code == 3


def test_csv_one_row_per_hand_and_unit(tmp_path: Path) -> None:
    r = run(tmp_path, LONE_AND_TIE, "--format", "csv")
    assert r.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert len(rows) == 8
    first = rows[:4]
    assert {row["high_card"] for row in first} == {"AS"} and {row["game"] for row in first} == {"Ben"}
    cal = next(row for row in first if row["unit"] == "Cal")
    assert (cal["points"], cal["change"], cal["total"], cal["made"]) == ("2", "2", "2", "yes")
    assert next(row for row in rows[4:] if row["unit"] == "Ben")["total"] == "-1"


@pytest.mark.parametrize("variant", ["auction", "auction-partners", "ten-point", "ten-point-5", "ten-point-7"])
def test_simulated_games_score_and_agree_with_their_claims(tmp_path: Path, variant: str) -> None:
    from pitchcli.record.write import canonical, to_yaml
    rec = simulate_game(variant, seed=7)
    r = run(tmp_path, to_yaml(canonical(rec)), "--check", "--explain")
    assert r.exit_code == 0, r.stderr
    no_repr(r.stdout)
    assert f"Winner: {rec['result']['winner']}, in hand {len(rec['hands'])}." in r.stdout
    doc = json.loads(run(tmp_path, to_yaml(canonical(rec)), "--format", "json").stdout)["documents"][0]
    assert doc["totals"] == rec["result"]["scores"]
    for h, got in zip(rec["hands"], doc["hands"], strict=True):
        assert got["score"] == h["score"] and got["totals"] == h["totals"]


def test_bidder_alone_named_as_holder_of_his_own_called_card(tmp_path: Path) -> None:
    """TP5-3: a bidder who calls a card he holds plays alone; a record naming
    him as its holder (``partner.player``, as a tally must) agrees with the cards."""
    for seed in range(200):
        rec = simulate_game("ten-point-5", seed=seed)
        alone = [h for h in analyze(rec).hands if h is not None and h.partners == []]
        if alone:
            break
    h = alone[0]
    rec["hands"][h.number - 1]["partner"]["player"] = rec["players"][h.bidder]
    from pitchcli.record.write import canonical, to_yaml
    r = run(tmp_path, to_yaml(canonical(rec)), "--check", "--hand", str(h.number))
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "partner none (alone)" in r.stdout


def test_one_unscored_hand_is_counted_in_the_singular(tmp_path: Path) -> None:
    r = run(tmp_path, "format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben, Cal, Dot]\n"
                      "hands:\n  - dealer: Cal\n    bids: [pass, pass, 2, 2]\n")
    assert "after an unscored hand (1 hand recorded)." in r.stdout, r.stdout
