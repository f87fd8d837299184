"""`pitch validate` end to end: located diagnostics, reports, exit statuses, samples."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pitchcli.cli import main
from pitchcli.diagnostics import CODES

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
INVALID = SAMPLES.parent / "samples-invalid"

# file -> the first error: (line, column, code, rule, pointer, words in the message)
EXPECTED = {
    "alias-bomb.yaml": (5, 8, "L105", None, "/notes", "alias"),
    "bid-after-pitch.yaml": (34, 15, "R404", "AP-BID-3", "/hands/1/bids/1", "after the auction was closed"),
    "bid-no.yaml": (7, 12, "S204", None, "/hands/0/bids/0", "'no' is not a call"),
    "card-dealt-twice.yaml": (15, 13, "R402", "CARD-4", "/hands/0/deal/Ben/0", "deal of Ann"),
    "duplicate-key.yaml": (7, 5, "L104", None, "/hands/0/dealer", "duplicate key 'dealer'"),
    "impossible-rules.yaml": (44, 18, "P302", None, "/rules/players", "between 2 and 8"),
    "joker-in-auction.yaml": (14, 13, "R401", "CARD-1", "/hands/0/deal/Ann/0", "BJ"),
    "lead-claim-wrong.yaml": (21, 16, "C508", "AP-PLAY-4", "/hands/0/tricks/1/lead", "led by Ann"),
    "not-a-card.yaml": (22, 14, "S204", None, "/hands/0/tricks/2/1", "'1C' is not a card"),
    "score-claim-wrong.yaml": (26, 26, "C502", None, "/hands/0/score/Ben", "recorded as 3"),
    "suit-not-followed.yaml": (22, 22, "R407", "AP-PLAY-2", "/hands/0/tricks/2/3", "while holding QS"),
    "ten-point-no-trump.yaml": (9, 5, "R410", "TP-TRUMP-1", "/hands/0", "no trump"),
    "top-level-list.yaml": (2, 1, "L110", None, "", "list"),
    "trump-claim-wrong.yaml": (28, 12, "C506", "AP-PLAY-1", "/hands/0/trump", "makes clubs trump"),
    "truncated.json": (1, 71, "L103", None, "", "JSON"),
    "typo-in-key.yaml": (21, 5, "S201", None, "/hands/0/trikcs", "did you mean 'tricks'"),
    "unknown-dealer.yaml": (12, 13, "R413", None, "/hands/0/dealer", "'Cat'"),
    "wrong-dealer.yaml": (28, 13, "R405", "AP-DEAL-2", "/hands/1/dealer", "Dot deals it"),
    "wrong-result.yaml": (44, 18, "C504", None, "/result/winner", "unfinished"),
}


def run(*args: str, input: bytes | None = None) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args), input=input)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r.exit_code, r.output


def test_every_invalid_sample_has_an_expectation() -> None:
    assert sorted(p.name for p in INVALID.iterdir()) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_invalid_sample_is_reported_where_it_breaks(name: str) -> None:
    line, col, code, rule, pointer, words = EXPECTED[name]
    status, out = run("validate", "--format", "json", str(INVALID / name))
    assert status == 1
    report = json.loads(out)
    first = report["documents"][0]["diagnostics"][0]
    assert (first["line"], first["column"], first["code"], first["rule"], first["pointer"]) == (
        line, col, code, rule, pointer)
    assert words in first["message"]
    if rule:
        assert rule not in first["message"]  # the rule id is its own field, not repeated in the message
    # The text form follows the compiler convention file:line:col: error: CODE [RULE] message (at /ptr).
    status, text = run("validate", str(INVALID / name))
    assert status == 1
    head = f"{INVALID / name}:{line}:{col}: error: {code}" + (f" [{rule}]" if rule else "")
    first_line = text.splitlines()[0]
    assert first_line.startswith(head)
    assert first_line.endswith(f"(at {pointer or '/'})")
    if rule:
        assert first_line.count(rule) == 1


def test_all_valid_samples_validate() -> None:
    paths = [str(p) for p in SAMPLES.glob("*.yaml")] + [str(SAMPLES / "tournament")]
    status, out = run("validate", *paths)
    assert status == 0, out
    assert re.search(r"^\d+ documents in \d+ files: (\d+) valid, 0 invalid", out.splitlines()[-1])


def test_a_folder_is_searched_and_each_document_reported_with_its_index() -> None:
    status, out = run("validate", "--format", "json", str(SAMPLES / "tournament"))
    assert status == 0
    report = json.loads(out)
    assert report["report"] == "pitch-validate" and report["version"] == 2
    assert report["summary"]["documents"] == 28 == report["summary"]["valid"]
    indices = {(d["file"], d["document"]) for d in report["documents"]}
    assert len(indices) == 28 and any(i == 4 for _, i in indices) and min(i for _, i in indices) == 1


def test_stdin_is_read_with_dash() -> None:
    data = (SAMPLES / "auction-full.yaml").read_bytes()
    assert run("validate", "-", input=data)[0] == 0
    status, out = run("validate", "-", input=(INVALID / "suit-not-followed.yaml").read_bytes())
    assert status == 1 and out.startswith("-:22:22: error: R407 [AP-PLAY-2]")


def test_one_pass_reports_every_broken_hand(tmp_path: Path) -> None:
    text = (SAMPLES / "auction-full.yaml").read_text()
    text = text.replace("bids: [pass, pass, 2, 2]", "bids: [pass, pass, 2, 1]", 1)  # hand 1
    text = text.replace("bids: [4, pass]", "bids: [4, 2]", 1)  # hand 2
    f = tmp_path / "two.yaml"
    f.write_text(text)
    status, out = run("validate", str(f))
    rules = re.findall(r"\[(AP-BID-\d)\]", out)
    assert status == 1 and "AP-BID-2" in rules and "AP-BID-3" in rules


def test_a_yaml_stream_with_one_bad_document(tmp_path: Path) -> None:
    good = (SAMPLES / "auction-full.yaml").read_text()
    bad = (INVALID / "suit-not-followed.yaml").read_text()
    f = tmp_path / "stream.yaml"
    f.write_text("---\n" + good + "---\n" + bad + "---\n" + good)
    status, out = run("validate", "--format", "json", str(f))
    report = json.loads(out)
    assert status == 1
    assert [d["valid"] for d in report["documents"]] == [True, False, True]
    assert report["documents"][1]["document"] == 2  # counted from 1, as in the text
    # Line numbers are the stream's, not the document's.
    assert report["documents"][1]["diagnostics"][0]["line"] > good.count("\n")


def test_exit_3_for_an_unreadable_file(tmp_path: Path) -> None:
    status, out = run("validate", str(tmp_path / "missing.yaml"))
    assert status == 3 and "L101" in out


def test_exit_2_for_a_usage_error() -> None:
    assert run("validate")[0] == 2
    assert run("validate", "--format", "xml", "x.yaml")[0] == 2


def test_warnings_fail_only_with_strict(tmp_path: Path) -> None:
    f = tmp_path / "bom.yaml"
    f.write_bytes(b"\xef\xbb\xbf" + (SAMPLES / "auction-full.yaml").read_bytes())
    status, out = run("validate", str(f))
    assert status == 0 and "L111" in out and "warning" in out
    assert run("validate", "--strict", str(f))[0] == 1


def test_the_same_record_in_json_is_located_too(tmp_path: Path) -> None:
    import yaml

    from pitchcli.record.write import to_json

    rec = yaml.safe_load((INVALID / "suit-not-followed.yaml").read_text())
    f = tmp_path / "bad.json"
    f.write_text(to_json(rec))
    status, out = run("validate", "--format", "json", str(f))
    first = json.loads(out)["documents"][0]["diagnostics"][0]
    assert status == 1 and first["rule"] == "AP-PLAY-2" and first["pointer"] == "/hands/0/tricks/2/3"
    lines = f.read_text().splitlines()
    assert '"3H"' in lines[first["line"] - 1][first["column"] - 1:]


def test_simulated_games_validate_clean(tmp_path: Path) -> None:
    for variant in ("auction", "auction-partners", "ten-point", "ten-point-5", "ten-point-7"):
        f = tmp_path / f"{variant}.jsonl"
        assert run("simulate", "--variant", variant, "--games", "20", "--seed", "5", "--format",
                   "jsonl", "-o", str(f))[0] == 0
        status, out = run("validate", str(f))
        assert status == 0, out
        assert "20 documents in 1 file: 20 valid" in out


def test_every_diagnostic_code_is_raised_by_a_test() -> None:
    text = "".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py"))
    # A code counts as tested when a test names it literally (as an expected value).
    missing = [c for c in CODES if f'"{c}"' not in text.replace(f'"{c}": "', "")]
    assert not missing, missing


def test_a_hand_without_bids_or_contract_cannot_be_scored(tmp_path: Path) -> None:
    f = tmp_path / "bare.yaml"
    f.write_text("format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben, Cal]\n"
                 "hands:\n  - dealer: Ann\n")
    status, out = run("validate", "--format", "json", str(f))
    first = json.loads(out)["documents"][0]["diagnostics"][0]
    assert status == 1 and (first["code"], first["rule"]) == ("R414", "AP-BID-6")
    assert "neither 'bids' nor 'contract'" in first["message"]
