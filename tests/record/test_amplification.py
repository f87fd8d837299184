"""Diagnostic amplification (issue 11): a small file must not make a huge report.

The issue's case: 920 KB (four 200 KB names, 10,000 hands naming an unknown
dealer) made each of 10,000 messages repeat the whole player list — 8 GB of
output and a MemoryError. Now quoted text is shortened (about 60 characters
with an ellipsis), at most ``--max-errors`` diagnostics are kept per document
(a last line says how many more there were; the counts include them) and
memory stays bounded.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_limits import MB, measure

from pitchcli.cli import main
from pitchcli.escape import MESSAGE_LIMIT
from pitchcli.pipeline.check import DEFAULT_MAX_ERRORS, check_source
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.write import canonical, to_yaml

ROOT = Path(__file__).resolve().parents[2]
HANDS = 10_000


def _amplifier() -> bytes:
    names = [c * 200_000 for c in "ABCD"]
    lines = ["format: pitch-record/1", "variant: auction", "players: [" + ", ".join(names) + "]", "hands:"]
    lines += ["  - {dealer: Eve}"] * HANDS
    return ("\n".join(lines) + "\n").encode()


@pytest.fixture(scope="module")
def amplifier(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("amp") / "amplifier.yaml"
    path.write_bytes(_amplifier())
    assert 900_000 < path.stat().st_size < 1_000_000
    return path


def test_validate_output_and_memory_are_bounded(amplifier: Path) -> None:
    _, _, _, baseline = measure("validate", "-q", str(ROOT / "samples" / "auction-full.yaml"))
    status, out, _, rss = measure("validate", str(amplifier))
    assert status == 1
    lines = out.splitlines()
    assert len(lines) == DEFAULT_MAX_ERRORS + 2  # the diagnostics kept, the "more" line, the summary
    assert max(map(len, lines)) < 1_000
    assert f"{HANDS - DEFAULT_MAX_ERRORS:,} more diagnostics not shown" in lines[-2]
    assert f"({HANDS} errors," in lines[-1]  # every error counted
    assert "…" in lines[0] and "A" * 61 not in lines[0]
    assert (rss - baseline) / MB < 150, f"{(rss - baseline) / MB:.0f} MiB over the baseline"


def test_max_errors_in_the_json_report(amplifier: Path) -> None:
    r = CliRunner().invoke(main, ["validate", "--format", "json", "--max-errors", "5", str(amplifier)])
    assert r.exit_code == 1
    doc = json.loads(r.stdout)["documents"][0]
    assert len(doc["diagnostics"]) == 5 and doc["omitted"] == HANDS - 5 and doc["errors"] == HANDS
    assert all(len(d["message"]) <= MESSAGE_LIMIT for d in doc["diagnostics"])


@pytest.mark.parametrize("command", ["score", "fmt"])
def test_other_commands_list_the_same_bounded_diagnostics(amplifier: Path, command: str) -> None:
    r = CliRunner().invoke(main, [command, str(amplifier)])
    assert r.exit_code == 1
    assert len(r.stderr) < 100_000
    assert "more diagnostics not shown" in r.stderr


# --- --max-errors on every command that writes a record's diagnostics -------------------


@pytest.fixture(scope="module")
def many_claims(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A 7-player game of 44 hands whose every score claim is off by one (308
    claims, C502), and the same game with its totals off too (616 claims)
    and, in the last hand, a rule broken (the wrong dealer): an error that is
    no claim, after more claims than the default cap keeps."""
    rec = simulate_game("auction", players=7, seed=3)
    assert len(rec["hands"]) == 44
    claims, broken = json.loads(json.dumps(rec)), json.loads(json.dumps(rec))
    for h in claims["hands"]:
        h["score"] = {n: v + 1 for n, v in h["score"].items()}
    for h in broken["hands"][:-1]:
        h["score"] = {n: v + 1 for n, v in h["score"].items()}
        h["totals"] = {n: v + 1 for n, v in h["totals"].items()}
    last = broken["hands"][-1]
    last["dealer"] = next(p for p in rec["players"] if p != last["dealer"])
    where = tmp_path_factory.mktemp("claims")
    (where / "claims.yaml").write_text(to_yaml(canonical(claims)), encoding="utf-8")
    (where / "broken.yaml").write_text(to_yaml(canonical(broken)), encoding="utf-8")
    return where / "claims.yaml", where / "broken.yaml"


def _errors(text: str) -> int:
    return sum(1 for line in text.splitlines() if ": error: " in line)


@pytest.mark.parametrize("command", ["score", "replay", "fmt", "solve", "chart"])
def test_max_errors_caps_every_command_the_same(many_claims: tuple[Path, Path], command: str) -> None:
    """``--max-errors N`` as in validate: the first N, a line saying how many
    more, every error counted in the command's own line; 0 shows them all."""
    _, broken = many_claims
    total = CliRunner().invoke(main, ["validate", "--format", "json", "--max-errors", "0", str(broken)])
    errors = json.loads(total.stdout)["documents"][0]["errors"]
    assert errors > DEFAULT_MAX_ERRORS
    r = CliRunner().invoke(main, [command, "--max-errors", "3", str(broken)])
    assert r.exit_code == 1
    assert _errors(r.stderr) == 3
    assert f"{errors - 3:,} more diagnostics not shown (--max-errors)" in r.stderr
    assert f"invalid ({errors} errors)" in r.stderr
    r = CliRunner().invoke(main, [command, "--max-errors", "0", str(broken)])
    assert r.exit_code == 1 and _errors(r.stderr) == errors and "not shown" not in r.stderr
    assert _errors(CliRunner().invoke(main, [command, str(broken)]).stderr) == DEFAULT_MAX_ERRORS
    assert "--max-errors" in CliRunner().invoke(main, [command, "--help"]).stdout


def test_score_json_keeps_the_capped_diagnostics(many_claims: tuple[Path, Path]) -> None:
    r = CliRunner().invoke(main, ["score", "--format", "json", "--max-errors", "4", str(many_claims[1])])
    assert r.exit_code == 1
    doc = json.loads(r.stdout)["documents"][0]
    assert doc["valid"] is False and [d["code"] for d in doc["diagnostics"]] == ["C502"] * 4


@pytest.mark.parametrize("cap", [[], ["--max-errors", "2"]])
def test_an_error_past_the_cap_still_stops_score_and_replay(many_claims: tuple[Path, Path], cap: list[str]) -> None:
    """Claims alone don't stop score or replay; a rule broken does, even when
    the cap keeps only claims (it kept the first 100, all C502/C503: the
    record was scored, exit 0)."""
    _, broken = many_claims
    r = CliRunner().invoke(main, ["score", *cap, str(broken)])
    assert r.exit_code == 1 and r.stdout == "" and "not scored: the record is invalid" in r.stderr
    r = CliRunner().invoke(main, ["replay", *cap, "--format", "json", str(broken)])
    assert r.exit_code == 1 and "replayed as far as it goes" in r.stderr
    assert any(json.loads(line)["event"] == "problem" for line in r.stdout.splitlines())


def test_claims_past_the_cap_are_counted(many_claims: tuple[Path, Path]) -> None:
    """A record whose only errors are claims is scored, and the count of the
    claims that disagree includes those the cap left out (it said 100)."""
    claims, _ = many_claims
    r = CliRunner().invoke(main, ["score", str(claims)])
    assert r.exit_code == 0
    assert "308 recorded values disagree with the cards; --check shows them" in r.stderr
    r = CliRunner().invoke(main, ["score", "--check", "--max-errors", "5", str(claims)])
    assert r.exit_code == 1 and _errors(r.stderr) == 5
    assert "308 recorded values disagree" in r.stderr and "303 more diagnostics not shown" in r.stderr


def _messages(text: str) -> list[str]:
    return [d.message for c in check_source("t.yaml", io.BytesIO(text.encode())) for d in c.diagnostics]


@pytest.mark.parametrize("text", [
    "format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben]\n{}: 1\nhands: []\n",  # an unknown key
    "format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben]\ndate: '{}'\nhands: []\n",  # not a date
    "format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben]\nhands: [{{dealer: '{}'}}]\n",  # no such player
    "format: pitch-record/1\nvariant: '{}'\nplayers: [Ann, Ben]\nhands: []\n",  # no such profile
    "format: pitch-record/1\nvariant: auction\nplayers: [Ann, Ben]\nhands: [{{dealer: Ann, bids: [pass, 2],"
    " tricks: [['{}', 2C]]}}]\n",  # not a card
])
def test_quoted_user_text_is_shortened(text: str) -> None:
    messages = _messages(text.format("Z" * 100_000))
    assert messages
    for m in messages:
        assert "Z" * 61 not in m and len(m) <= MESSAGE_LIMIT, m[:200]


def test_a_long_player_name_is_shortened_in_engine_messages() -> None:
    long = "Q" * 5_000
    text = (f"format: pitch-record/1\nvariant: auction\nplayers: [Ann, {long}, Cal, Dot]\n"
            "hands:\n  - {dealer: Ann, bids: [pass, pass, pass, pass]}\n")
    messages = _messages(text)
    assert messages
    assert all("Q" * 61 not in m for m in messages), messages
