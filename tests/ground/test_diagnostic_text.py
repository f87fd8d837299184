"""The text diagnostic line: the compiler convention editors and CI already read."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from pitchcli.cli import main
from pitchcli.diagnostics import WARNING, Diagnostic
from pitchcli.pipeline.feed import analyze

ROOT = Path(__file__).resolve().parents[2]
INVALID = ROOT / "samples-invalid"

# The `$gcc` problem pattern of VS Code's C/C++ extension (microsoft/vscode-cpptools,
# Extension/package.json, "problemPatterns"), copied as it is written there.
GCC = re.compile(r"^(.*):(\d+):(\d+):\s+(?:fatal\s+)?(warning|error):\s+(.*)$")


def test_gcc_problem_matcher_reads_errors_and_warnings(tmp_path: Path) -> None:
    bom = tmp_path / "bom.yaml"
    bom.write_bytes(b"\xef\xbb\xbf" + (ROOT / "samples" / "auction-full.yaml").read_bytes())
    r = CliRunner().invoke(main, ["validate", "-q", str(INVALID / "suit-not-followed.yaml"), str(bom)])
    lines = r.stdout.splitlines()
    assert len(lines) == 3, lines
    seen = []
    for line in lines:
        m = GCC.match(line)
        assert m, line
        seen.append((m[1], int(m[2]), int(m[3]), m[4], m[5].split()[0]))
    assert seen == [
        (str(INVALID / "suit-not-followed.yaml"), 22, 22, "error", "R407"),
        (str(INVALID / "suit-not-followed.yaml"), 23, 18, "error", "R407"),
        (str(bom), 1, 1, "warning", "L111"),
    ]


def test_the_rule_id_appears_once() -> None:
    r = CliRunner().invoke(main, ["validate", "-q", str(INVALID / "suit-not-followed.yaml")])
    first = r.stdout.splitlines()[0]
    assert first.count("AP-PLAY-2") == 1
    assert ": error: R407 [AP-PLAY-2] Ann played 3H" in first


def test_a_claim_says_what_the_replay_gives() -> None:
    r = CliRunner().invoke(main, ["validate", "-q", str(INVALID / "score-claim-wrong.yaml")])
    assert "score change of Ben is recorded as 3, but the replay gives 2" in r.stdout


def test_the_line_without_a_position_keeps_the_severity_word() -> None:
    d = Diagnostic("L101", "cannot read it", file="gone.yaml")
    assert d.as_text() == "gone.yaml:1:1: error: L101 cannot read it (at /)"
    w = Diagnostic("L111", "a byte-order mark", severity=WARNING, file="a.yaml", line=1, column=1, document=2)
    assert w.as_text() == "a.yaml:1:1: warning: L111 a byte-order mark (at /) (document 3)"


def test_the_summary_points_to_the_explanations() -> None:
    r = CliRunner().invoke(main, ["validate", str(ROOT / "tests" / "support" / "four-errors.yaml")])
    last = r.stdout.splitlines()[-1]
    assert last.endswith("; see: pitch explain R407 R403"), last
    # and those are commands that work
    assert CliRunner().invoke(main, last.split("see: pitch ")[1].split()).exit_code == 0
    assert "see:" not in CliRunner().invoke(main, ["validate", str(ROOT / "samples" / "auction-full.yaml")]).stdout


def test_a_misspelled_name_gets_did_you_mean() -> None:
    import yaml
    rec = yaml.safe_load((ROOT / "samples" / "auction-tally.yaml").read_text())
    rec["hands"][0]["dealer"] = "cal"  # only the case differs
    rec["hands"][1]["contract"]["bidder"] = "Anne"
    rec["hands"][2]["score"]["Bne"] = rec["hands"][2]["score"].pop("Ben")
    messages = {v.at: v.message for v in analyze(rec).violations}
    assert messages["/hands/0/dealer"].endswith("did you mean 'Cal'?")
    assert messages["/hands/1/contract/bidder"].endswith("did you mean 'Ann'?")
    assert messages["/hands/2/score/Bne"].endswith("did you mean 'Ben'?")
    rec = yaml.safe_load((ROOT / "samples" / "auction-tally.yaml").read_text())
    rec["hands"][0]["dealer"] = "Zed"
    assert "did you mean" not in analyze(rec).violations[0].message  # nothing close: no guess


def test_one_illegal_bid_does_not_trail_claim_errors() -> None:
    import yaml
    text = (ROOT / "samples" / "auction-full.yaml").read_text()
    rec = yaml.safe_load(text.replace("bids: [pass, pass, 2, 2]", "bids: [pass, pass, 2, 1]", 1))
    codes = [v.code for v in analyze(rec).violations]
    assert "R404" in codes
    # the hand's score, every later running total and the result rest on the broken hand
    assert not [c for c in codes if c.startswith("C")], codes
    # a claim wrong in a later hand that is not broken is still reported
    rec["hands"][1]["score"] = {k: v + 1 for k, v in rec["hands"][1]["score"].items()}
    assert [v.at for v in analyze(rec).violations if v.code == "C502"][:1] == ["/hands/1/score/Ann"]
