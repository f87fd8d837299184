"""One number policy (issue 11): where the format means an integer, only an
integer is accepted. ``2.0``, ``2e0`` and ``!!float 2`` used to validate, score
and replay, then crash ``summarize`` (Fraction) and reach ``--partial`` files
as ``9.0``; now each is a schema error (S203) at its own pointer, with either
schema backend, while an ``x-`` extension may still hold any number."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pitchcli.cli import main
from pitchcli.pipeline.check import check_source

ROOT = Path(__file__).resolve().parents[2]
FULL = (ROOT / "samples" / "auction-full.yaml").read_text()

# (the text replaced in samples/auction-full.yaml, the float spelling with {}, the pointer)
PLACES = [
    ("bids: [pass, pass, 2, 2]", "bids: [pass, pass, {}, 2]", "/hands/0/bids/2"),
    ("score: {Ann: 0, Ben: 2, Cal: -2, Dot: 0}\n    totals: {Ann: 0, Ben: 2,",
     "score: {{Ann: 0, Ben: {}, Cal: -2, Dot: 0}}\n    totals: {{Ann: 0, Ben: 2,", "/hands/0/score/Ben"),
    ("totals: {Ann: 0, Ben: 2, Cal: -2, Dot: 0}", "totals: {{Ann: 0, Ben: {}, Cal: -2, Dot: 0}}",
     "/hands/0/totals/Ben"),
    ("round: 1", "round: {}", "/round"),
    ("variant: auction\n", "variant: auction\nrules: {{target: {}}}\n", "/rules/target"),
]
SPELLINGS = ["2.0", "2e0", "!!float 2", "2.000"]


def _diags(text: str) -> list[dict[str, object]]:
    out = []
    for c in check_source("t.yaml", io.BytesIO(text.encode())):
        out += [d.as_json() for d in c.diagnostics if d.severity == "error"]
    return out


@pytest.mark.parametrize("backend", ["auto", "jsonschema"])
@pytest.mark.parametrize("spelling", SPELLINGS)
@pytest.mark.parametrize(("old", "new", "pointer"), PLACES)
def test_a_float_where_an_integer_belongs_is_a_located_schema_error(
        monkeypatch: pytest.MonkeyPatch, backend: str, spelling: str, old: str, new: str, pointer: str) -> None:
    monkeypatch.setenv("PITCHCLI_SCHEMA_BACKEND", backend)
    assert old in FULL
    value = "2" if pointer != "/round" else "1"
    assert not _diags(FULL.replace(old, new.format(value), 1))  # the integer is fine
    diags = _diags(FULL.replace(old, new.format(spelling.replace("2", value)), 1))
    assert [(d["code"], d["pointer"]) for d in diags if d["code"].startswith("S")] == [("S203", pointer)], diags
    assert diags[0]["line"] is not None


def test_json_floats_too() -> None:
    rec = json.loads(json.dumps(__import__("yaml").safe_load(FULL)))
    rec["hands"][0]["bids"][2] = 2.0
    rec["hands"][1]["score"]["Ann"] = -0.0
    diags = _diags(json.dumps(rec))
    assert {(d["code"], d["pointer"]) for d in diags if d["code"].startswith("S")} == {
        ("S203", "/hands/0/bids/2"), ("S203", "/hands/1/score/Ann")}


def test_an_extension_may_hold_a_float() -> None:
    assert not _diags(FULL.replace("variant: auction\n", "variant: auction\nx-rating: 1.5\n"))


def test_summarize_and_partial_never_see_a_float(tmp_path: Path) -> None:
    path = tmp_path / "f.yaml"
    path.write_text(FULL.replace("bids: [pass, pass, 2, 2]", "bids: [pass, pass, 2.0, !!float 2]"))
    runner = CliRunner()
    r = runner.invoke(main, ["summarize", str(path)])
    assert r.exit_code == 1 and (r.exception is None or isinstance(r.exception, SystemExit))
    assert "S203" in r.output
    part = tmp_path / "p.json"
    r = runner.invoke(main, ["summarize", "--partial", "-o", str(part), str(path)])
    assert r.exit_code == 1
    data = json.loads(part.read_text())

    def floats(v: object) -> bool:
        return isinstance(v, float) or (isinstance(v, dict) and any(map(floats, v.values()))) or (
            isinstance(v, list) and any(map(floats, v)))
    assert not floats(data)
    r = runner.invoke(main, ["merge", str(part)])
    assert r.exit_code == 1, r.output  # merged: the invalid record is listed, not a crash
