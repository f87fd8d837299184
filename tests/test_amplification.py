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

from pitchcli.check import DEFAULT_MAX_ERRORS, check_source
from pitchcli.cli import main
from pitchcli.escape import MESSAGE_LIMIT

ROOT = Path(__file__).resolve().parent.parent
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
