"""Whatever character a comment holds, ``fmt`` answers as ``validate`` does
(issue 27, item 3).

A raw control character inside a comment stopped the comment scanner with
``yaml.reader.ReaderError`` in every ``fmt`` mode, where ``validate``
reported ``L103``. Now ``fmt`` refuses such a file with the loader's own
diagnostic (exit 1, the file untouched), and takes any character the loader
takes, with its comment kept.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitchcli.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = (ROOT / "samples" / "auction-full.yaml").read_text(encoding="utf-8")
EXAMPLES = int(os.environ.get("PITCH_COMMENT_CHAR_EXAMPLES", "30"))

# Every kind of character YAML forbids or treats specially, and any other.
ODD = st.one_of(
    st.sampled_from([chr(c) for c in (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0))]
                    + ["\ufeff", "\ufffe", "\uffff", "\u2028", "\u2029", "\u202e", "\x1b[2J"]),
    st.characters(codec="utf-8"),
)
MODES: list[list[str]] = [[], ["--check"], ["--fill"], ["--to", "json"], ["-o", "OUT"], ["--in-place"]]


def _invoke(*args: str) -> Any:
    r = CliRunner().invoke(main, list(args))
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(odd=ODD, where=st.sampled_from(["own line", "end of line", "head", "second document"]))
def test_fmt_agrees_with_validate_on_any_comment(tmp_path: Path, odd: str, where: str) -> None:
    """Every mode: never a traceback; exit 1 exactly when validate says
    invalid (the input untouched, nothing written); else the comment kept."""
    comment = f"# note {odd} here"
    if where == "own line":
        text = SAMPLE.replace("\nplayers:", f"\n{comment}\nplayers:", 1)
    elif where == "end of line":
        text = SAMPLE.replace("\nformat: pitch-record/1", f"\nformat: pitch-record/1  {comment}", 1)
    elif where == "head":
        text = comment + "\n" + SAMPLE
    else:
        text = SAMPLE + "---\n" + SAMPLE.replace("\nplayers:", f"\n{comment}\nplayers:", 1)
    raw = text.encode("utf-8", "surrogatepass")
    path = tmp_path / "r.yaml"
    out = tmp_path / "out.yaml"
    path.write_bytes(raw)
    valid = _invoke("validate", str(path))
    assert valid.exit_code in (0, 1)
    for mode in MODES:
        path.write_bytes(raw)
        out.unlink(missing_ok=True)
        args = [str(out) if a == "OUT" else a for a in mode]
        r = _invoke("fmt", *args, str(path))
        if valid.exit_code == 1:
            assert r.exit_code == 1, (mode, r.output)
            assert "L103" in r.stderr or "L10" in r.stderr or "error:" in r.stderr, (mode, r.stderr)
            assert path.read_bytes() == raw and not out.exists()
        else:
            assert r.exit_code in (0, 1), (mode, r.output)  # --check: 1 when not canonical
            written = out.read_text(encoding="utf-8") if mode == ["-o", "OUT"] else \
                path.read_text(encoding="utf-8") if mode == ["--in-place"] else r.stdout
            if mode in ([], ["--fill"], ["-o", "OUT"], ["--in-place"]):
                assert written.count("# note ") == text.count("# note "), (mode, written)


def test_a_bell_in_a_comment_is_l103_in_every_mode(tmp_path: Path) -> None:
    """The issue's example: located as validate locates it."""
    path = tmp_path / "bell.yaml"
    raw = SAMPLE.replace("\nplayers:", "\n# a comment \x07 with a bell\nplayers:", 1).encode()
    path.write_bytes(raw)
    where = _invoke("validate", str(path)).stdout.splitlines()[0].split(" error:")[0]
    for mode in MODES:
        r = _invoke("fmt", *[str(tmp_path / "o.yaml") if a == "OUT" else a for a in mode], str(path))
        assert r.exit_code == 1 and f"{where} error: L103" in r.stderr, (mode, r.stderr)
        assert path.read_bytes() == raw
