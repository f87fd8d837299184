"""Every command that reads and judges records honours the configuration and
the suppression comments as `pitch validate` does (one mechanism,
``pipeline.lint.Judge``, made by ``commands.common.judging``): a record whose
only errors are suppressed (by its comments, its folder's `ignore`, or
`--ignore`) is used as a valid one; `--isolated`, `--config` and a bad
configuration mean the same everywhere.

The commands are read from the Click group, so a new reader is checked the
day it is added.
"""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from pitchcli.cli import main

ROOT = Path(__file__).resolve().parents[2]
SUIT = ROOT / "samples-invalid" / "suit-not-followed.yaml"  # two R407, lines 22 and 23: not claims
LINES = ("      - [2S, AC, 7C, 3H]\n", "      - [JD, JH, QS, 6H]\n")
SELECTION = ("select", "extend_select", "ignore", "config_file", "isolated", "max_errors")


def _reads_records(command: click.Command) -> bool:
    return any(isinstance(p, click.Argument) and p.name in ("path", "paths") for p in command.params)


READERS = sorted(name for name, command in main.commands.items() if _reads_records(command))


def run(*args: str, cwd: Path | None = None) -> click.testing.Result:
    r = CliRunner(env={"NO_COLOR": "1"}).invoke(main, list(args))
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r


def args_for(name: str, record: Path, tmp_path: Path) -> list[str]:
    """The command line of ``name`` over ``record`` (with what it requires)."""
    out = {"report": ["-o", str(tmp_path / "site")], "split": ["-o", str(tmp_path / "split")]}.get(name, [])
    return [name, *out, str(record)]


def suppressed(tmp_path: Path, comment: bool = True, name: str = "game.yaml") -> Path:
    """The suit-not-followed sample, each R407's line ending in ``# pitch: ignore[R407]`` (``comment``)."""
    text = SUIT.read_text("utf-8")
    for line in LINES:
        assert line in text
        if comment:
            text = text.replace(line, line[:-1] + "  # pitch: ignore[R407]\n")
    folder = tmp_path / "records"
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / name
    p.write_text(text, "utf-8")
    return p


def test_every_reader_is_found_and_takes_the_selection_and_the_configuration() -> None:
    assert {"validate", "score", "replay", "solve", "fmt", "chart", "summarize", "report", "ratings", "find",
            "convert", "cat", "split", "dedup"} <= set(READERS)
    for name in READERS:
        params = {p.name for p in main.commands[name].params}
        assert set(SELECTION) <= params, name


@pytest.mark.parametrize("name", READERS)
def test_a_record_whose_only_errors_are_suppressed_by_its_comments_is_used(name: str, tmp_path: Path) -> None:
    p = suppressed(tmp_path)
    r = run(*args_for(name, p, tmp_path))
    assert "error: R407" not in r.stdout + r.stderr
    assert "invalid (" not in r.stderr and "is invalid" not in r.stderr, r.stderr
    if name != "dedup":  # (dedup: 0, no copies)
        assert r.exit_code == 0, r.output + r.stderr
    # Without the comments, the same record is refused by every command.
    plain = suppressed(tmp_path / "plain", comment=False)
    r = run(*args_for(name, plain, tmp_path / "plain"))
    assert r.exit_code == 1
    # (find lists no diagnostics: it says an invalid record was not searched)
    assert ("1 invalid record not searched" if name == "find" else "error: R407") in r.stdout + r.stderr


@pytest.mark.parametrize("name", READERS)
def test_the_folders_configuration_is_honoured_and_isolated_turns_it_off(name: str, tmp_path: Path) -> None:
    p = suppressed(tmp_path, comment=False)
    (p.parent / "pitch.toml").write_text('ignore = ["R4"]\n', "utf-8")
    assert run(*args_for(name, p, tmp_path)).exit_code == 0
    assert run(*args_for(name, p, tmp_path), "--isolated").exit_code == 1
    # --config names another file for every input; --ignore on the command line alone does it too.
    other = tmp_path / "other.toml"
    other.write_text('select = ["C"]\n', "utf-8")
    assert run(*args_for(name, p, tmp_path), "--config", str(other)).exit_code == 0
    assert run(*args_for(name, p, tmp_path), "--isolated", "--ignore", "R407").exit_code == 0
    assert run(*args_for(name, p, tmp_path), "--isolated", "--select", "C5").exit_code == 0
    assert run(*args_for(name, p, tmp_path), "--isolated", "--ignore", "R4", "--extend-select", "R407"
               ).exit_code == 1


@pytest.mark.parametrize("name", READERS)
def test_a_bad_configuration_is_a_usage_error_everywhere(name: str, tmp_path: Path) -> None:
    p = suppressed(tmp_path)
    (p.parent / "pitch.toml").write_text('ignroe = ["R4"]\n', "utf-8")
    r = run(*args_for(name, p, tmp_path))
    assert r.exit_code == 2, r.output
    assert "pitch.toml: unknown key 'ignroe'; did you mean 'ignore'?" in r.stderr
    assert run(*args_for(name, p, tmp_path), "--isolated").exit_code == 0
    r = run(*args_for(name, p, tmp_path), "--select", "Q9")
    assert r.exit_code == 2 and "unknown code or prefix 'Q9'" in r.stderr


def test_fmt_formats_a_suppressed_record_keeping_its_comments_and_warns_of_an_unused_one(tmp_path: Path) -> None:
    p = suppressed(tmp_path)
    r = run("fmt", str(p))
    assert r.exit_code == 0, r.stderr
    assert r.stdout.count("# pitch: ignore[R407]") == 2
    text = p.read_text("utf-8").replace("# pitch: ignore[R407]\n", "# pitch: ignore[R407, C502]\n", 1)
    p.write_text(text, "utf-8")
    r = run("fmt", str(p))
    assert r.exit_code == 0
    assert f"{p}:22:" in r.stderr and "warning: N601 unused suppression: nothing here has C502" in r.stderr


def test_the_configurations_max_errors_caps_a_refusal(tmp_path: Path) -> None:
    p = suppressed(tmp_path, comment=False)
    (p.parent / "pitch.toml").write_text("max-errors = 1\n", "utf-8")
    r = run("score", str(p))
    assert r.exit_code == 1
    assert r.stderr.count("error: R407") == 1 and "1 more diagnostic not shown" in r.stderr
    r = run("score", "--max-errors", "0", str(p))
    assert r.stderr.count("error: R407") == 2


def test_summarize_in_worker_processes_judges_each_file_by_its_own_folder(tmp_path: Path) -> None:
    kept = suppressed(tmp_path / "a", comment=False)
    (kept.parent / "pitch.toml").write_text('ignore = ["R407"]\n', "utf-8")
    plain = suppressed(tmp_path / "b", comment=False)
    for jobs in ("1", "2"):
        r = run("summarize", "--jobs", jobs, "--format", "json", str(kept), str(plain))
        assert r.exit_code == 1
        assert '"valid": 1' in r.stdout and '"invalid": 1' in r.stdout, r.stdout
