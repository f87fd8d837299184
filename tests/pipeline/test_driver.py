"""The command driver (``pitchcli.pipeline.driver``): one loop for every command
that reads records. Its consumer is called begin, then game or invalid per
item in order, then end; an item it can't use is refused on the error stream
with its diagnostics (``--max-errors`` of them and the line saying how many
more) and the command's line; the counts give the exit status."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from support.games import base_game

from pitchcli.pipeline.check import Checked, check_paths
from pitchcli.pipeline.driver import SEE_VALIDATE, Consumer, GameConsumer, Run, drive, exit_status
from pitchcli.record.write import canonical, to_yaml_stream

ROOT = Path(__file__).resolve().parents[2]
INVALID = str(ROOT / "tests" / "support" / "four-errors.yaml")  # four errors


class Recorder(GameConsumer):
    """Every call, in order."""

    refusal = "{file}: not recorded: the record is invalid ({errors}); " + SEE_VALIDATE

    def __init__(self, err: Any, hand: int | None = None) -> None:
        super().__init__(err, hand)
        self.calls: list[tuple[str, Any]] = []

    def begin(self, run: Run) -> None:
        super().begin(run)
        self.calls.append(("begin", None))

    def game(self, c: Checked) -> None:
        assert c.analysis is not None
        if self.has_hand(c, len(c.analysis.hands)):
            self.calls.append(("game", c.number))

    def invalid(self, c: Checked) -> None:
        self.calls.append(("invalid", c.number))

    def end(self) -> int:
        self.calls.append(("end", None))
        return super().end()


def _stream(tmp_path: Path, broken: int | None = None) -> str:
    games = [canonical(base_game()) for _ in range(3)]
    if broken is not None:
        games[broken]["hands"][0]["dealer"] = "Nobody"
    path = tmp_path / "three.yaml"
    path.write_text(to_yaml_stream(games))
    return str(path)


def test_the_consumer_sees_every_document_in_order_numbered_from_1(tmp_path: Path) -> None:
    err = io.StringIO()
    consumer = Recorder(err)
    assert drive(check_paths([_stream(tmp_path, broken=1)]), consumer, err) == 1
    assert consumer.calls == [("begin", None), ("game", 1), ("invalid", 2), ("game", 3), ("end", None)]
    run = consumer.run
    assert (run.documents, run.used, run.invalid, run.unreadable) == (3, 2, 1, 0)
    # the refusal names the document past the first, as every output does
    assert "(document 2)" in err.getvalue()
    assert err.getvalue().rstrip("\n").endswith("not recorded: the record is invalid (1 error); see `pitch validate`")


def test_a_refused_record_shows_max_errors_diagnostics_then_the_commands_line() -> None:
    err = io.StringIO()
    assert drive(check_paths([INVALID], max_errors=2), Recorder(err), err) == 1
    lines = err.getvalue().splitlines()
    assert [line.split(": ")[1] for line in lines[:2]] == ["error", "error"]
    assert lines[2] == f"{INVALID}: note: 2 more diagnostics not shown (--max-errors)"
    assert lines[3] == f"{INVALID}: not recorded: the record is invalid (4 errors); see `pitch validate`"
    assert len(lines) == 4


def test_an_unreadable_input_is_exit_3_with_its_diagnostic_only(tmp_path: Path) -> None:
    err = io.StringIO()
    consumer = Recorder(err)
    assert drive(check_paths([str(tmp_path / "missing.yaml")]), consumer, err) == 3
    assert consumer.calls == [("begin", None), ("invalid", 1), ("end", None)]
    assert "L101" in err.getvalue() and "not recorded" not in err.getvalue()
    assert consumer.run.unreadable == 1 and consumer.run.documents == 0


def test_a_missing_hand_fails_the_run(tmp_path: Path) -> None:
    err = io.StringIO()
    consumer = Recorder(err, hand=99)
    assert drive(check_paths([_stream(tmp_path)]), consumer, err) == 1
    assert err.getvalue().count("there is no hand 99: the game has 1 hand\n") == 3
    assert consumer.run.failed and consumer.run.invalid == 0


def test_a_consumer_without_a_refusal_line_refuses_silently() -> None:
    # validate's report, summarize's problems, report and ratings list what
    # they could not use themselves.
    err = io.StringIO()

    class Quiet(Consumer):
        pass

    assert drive(check_paths([INVALID]), Quiet(), err) == 1
    assert err.getvalue() == ""


@pytest.mark.parametrize(("counts", "status"), [
    ({}, 0), ({"invalid": 2}, 1), ({"failed": True}, 1), ({"unreadable": 1, "invalid": 1}, 3),
    ({"broken": True}, 3), ({"invalid": 2, "allow_invalid": True}, 0),
    ({"unreadable": 1, "allow_invalid": True}, 3), ({"failed": True, "allow_invalid": True}, 1),
])
def test_one_exit_status_for_every_command(counts: dict[str, Any], status: int) -> None:
    assert exit_status(**counts) == status
    allow = counts.pop("allow_invalid", False)
    assert Run(**counts).status(allow) == status
