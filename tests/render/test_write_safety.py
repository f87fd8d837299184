"""The writer's output always loads back to the same data (issue 11).

A name or event holding U+2028, U+2029, U+0085 or U+FEFF was written raw into
a plain scalar (or a double-quoted one, where YAML folds a line break), and the
rewritten file no longer parsed, or parsed to other text. Now every character
YAML reads as a break, can't hold or a terminal would act on is written as an
escape. Property: arbitrary Unicode text in every string field a person writes,
through every output format, loads back equal. ``PITCH_WRITER_EXAMPLES`` sets
the examples per test (default 40).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.fuzz_strategies import RAW_UNSAFE, hostile_text, renamed_record

from pitchcli.cli import main
from pitchcli.diagnostics import Diagnostic
from pitchcli.record.load import load_documents
from pitchcli.record.write import canonical, dump

EXAMPLES = int(os.environ.get("PITCH_WRITER_EXAMPLES", "40"))
PROPERTY = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SUFFIX = {"yaml": ".yaml", "json": ".json", "jsonl": ".jsonl"}
ODD = ["A\u2028B", "C\u2029D", "E\u0085F", "\ufeffG", "H\ufeff", "I\x7f", "J\u202eK", "L\x1bM", "N\u00a0", "O\t"]


def _load(text: str, fmt: str) -> list[Any]:
    items = list(load_documents(text.encode("utf-8"), name="out" + SUFFIX[fmt]))
    problems = [i for i in items if isinstance(i, Diagnostic) and i.severity == "error"]
    assert not problems, problems[0].as_text()
    return [i.data for i in items if not isinstance(i, Diagnostic)]


@PROPERTY
@given(rec=st.one_of(renamed_record(st.text(min_size=1, max_size=8)), renamed_record(hostile_text())),
       fmt=st.sampled_from(["yaml", "json", "jsonl"]))
def test_every_format_loads_back_the_same_text(rec: dict[str, Any], fmt: str) -> None:
    want = canonical(rec)
    text = dump([want], fmt)
    assert _load(text, fmt) == [want]
    assert RAW_UNSAFE.search(text) is None  # and nothing in it acts on a terminal
    assert dump([canonical(_load(text, fmt)[0])], fmt) == text  # idempotent


@pytest.mark.parametrize("fmt", ["yaml", "json", "jsonl"])
def test_empty_collections_load_back(fmt: str) -> None:
    """An empty mapping or list anywhere, the whole document too (a blank YAML
    document reads as null: the differential test's fuzzer wrote one), loads
    back as itself."""
    recs = [{}, {"x-a": {}, "x-b": [], "x-c": [{}, []]}]
    assert _load(dump(recs, fmt), fmt) == recs


@pytest.mark.parametrize("fmt", ["yaml", "json", "jsonl"])
def test_a_stream_of_odd_names_loads_back(fmt: str) -> None:
    recs = [canonical({"format": "pitch-record/1", "variant": "auction", "event": name, "players": [name, "B"],
                       "hands": []}) for name in ODD]
    assert _load(dump(recs, fmt), fmt) == recs


def _cli(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, r.stdout, r.stderr


def test_fmt_and_new_write_odd_names_that_read_back(tmp_path: Path) -> None:
    players = ODD[:4]
    code, template, err = _cli("new", "--variant", "auction", "--players", ",".join(players),
                               "--event", "\u2028ev\u0085", "--dealer", players[2])
    assert code == 0, err
    (tmp_path / "new.yaml").write_text(template)
    [data] = _load(template, "yaml")
    assert data["players"] == players and data["event"] == "\u2028ev\u0085"
    assert data["hands"][0]["dealer"] == players[2]
    # A played record with those names: fmt, fmt --fill, fmt --to yaml from JSON.
    from support.fuzz_strategies import sample_records
    base = next(r for r in sample_records() if r.get("variant") == "auction" and len(r["players"]) == 4)
    from support.fuzz_strategies import _renamed
    rec = _renamed(base, dict(zip(base["players"], players, strict=True)))
    rec["event"] = "\ufeffLadder\u2029"
    src = tmp_path / "game.json"
    src.write_text(json.dumps(rec, ensure_ascii=False))
    for args, fmt in ((["fmt", str(src)], "json"), (["fmt", "--to", "yaml", str(src)], "yaml"),
                      (["fmt", "--fill", "--to", "yaml", str(src)], "yaml"), (["fmt", "--to", "jsonl", str(src)],
                                                                             "jsonl")):
        code, out, err = _cli(*args)
        assert code == 0, err
        [back] = _load(out, fmt)
        assert back["players"] == players and back["event"] == rec["event"]
        path = tmp_path / ("out" + SUFFIX[fmt])
        path.write_text(out)
        code, _, _ = _cli("validate", "-q", str(path))
        assert code == 0
