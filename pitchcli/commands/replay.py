"""``pitch replay``: a game told call by call and trick by trick."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pitchcli.commands.common import INPUT_PATH, color_option, examples, format_option, judging
from pitchcli.render.formats import REPLAY

if TYPE_CHECKING:
    from pitchcli.pipeline.lint import Judge


@click.command(epilog=examples(
    "pitch replay samples/auction-full.yaml",
    "pitch replay --hand 1 samples/ten-point.yaml",
    "pitch replay --format json samples/ten-point-5.yaml",
))
@click.argument("path", type=INPUT_PATH)
@click.option("--hand", type=click.IntRange(1), help="Only this hand (numbered from 1).")
@format_option(REPLAY, "text",
               help="text: sentences; json: an event stream, one JSON object per line (see "
                    "docs/score-replay-fmt.md).")
@judging
@color_option
def replay(path: str, hand: int | None, fmt: str, judge: Judge) -> None:
    """Replay a game: the auction call by call, then every trick (who led, who
    played what, who won it and why, what was captured) and the points.

    Tally hands (no cards) can be scored but not replayed: the replay says so.
    """
    from pitchcli.pipeline.driver import drive
    from pitchcli.render.replay import Replaying

    replaying = Replaying(REPLAY[fmt](sys.stdout), sys.stderr, hand)
    sys.exit(drive(judge.check_paths([path]), replaying, sys.stderr))


command = replay
