"""``pitch score``: score games hand by hand."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pitchcli.commands.common import INPUT_PATH, color_option, examples, format_option, judging
from pitchcli.render.formats import SCORE

if TYPE_CHECKING:
    from pitchcli.pipeline.lint import Judge


@click.command(epilog=examples(
    "pitch score samples/auction-full.yaml",
    "pitch score --explain --hand 2 samples/auction-full.yaml",
    "pitch score --check --format csv samples/",
))
@click.argument("paths", nargs=-1, required=True, type=INPUT_PATH)
@click.option("--hand", type=click.IntRange(1), help="Only this hand (numbered from 1).")
@click.option("--explain", is_flag=True, help="Say why each point went where it did, citing the rule ids.")
@click.option("--check", is_flag=True,
              help="Fail (exit 1) when a recorded value the engine derives (points, score, totals, "
                   "result, contract, trump, partner, leader) disagrees; show both values.")
@format_option(SCORE, "text",
               help="text: tables and sentences; json: the versioned report; csv: one row per hand and "
                    "player (or team).")
@judging
@color_option
def score(paths: tuple[str, ...], hand: int | None, explain: bool, check: bool, fmt: str,
          judge: Judge) -> None:
    """Score games hand by hand: the contract, who took which point, made or
    set, the score changes, the running totals and the winner.

    Works on every detail level (full, play, tally). An invalid record is not
    scored: its diagnostics go to standard error (exit 1).
    """
    from pitchcli.pipeline.driver import drive
    from pitchcli.render.scoresheet import Scoring

    scoring = Scoring(SCORE[fmt](sys.stdout, hand, check), sys.stderr, hand, explain, check)
    sys.exit(drive(judge.check_paths(paths), scoring, sys.stderr))


command = score
