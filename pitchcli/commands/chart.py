"""``pitch chart``: the score race of one game."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pitchcli import escape
from pitchcli.commands.common import INPUT_PATH, OUTPUT_PATH, color_option, examples, judging, not_an_input

if TYPE_CHECKING:
    from pitchcli.pipeline.lint import Judge


@click.command("chart", epilog=examples(
    "pitch chart samples/auction-full.yaml",
    "pitch chart -o race.svg samples/ten-point.yaml",
))
@click.argument("path", type=INPUT_PATH)
@click.option("-o", "--output", type=OUTPUT_PATH,
              help="Write the SVG chart here (atomically).")
@judging
@color_option
def chart(path: str, output: str | None, judge: Judge) -> None:
    """The score race of one game: a sparkline on the terminal, and with -o
    the SVG chart (each side's total after every hand, the target, the
    winning hand marked).

    Exit status: 0 drawn; 1 the record is invalid; 3 it could not be read or
    the chart not written.
    """
    from pitchcli.pipeline.driver import drive
    from pitchcli.render.chart import Charting

    not_an_input(output, [path])
    docs = list(judge.check_paths([path], output=output))
    if len(docs) > 1 and not docs[0].unreadable:
        sys.stderr.write(f"{escape.text(path)}: holds {len(docs)} games; the chart is of the first\n")
    sys.exit(drive(docs[:1], Charting(sys.stdout, sys.stderr, output), sys.stderr))


command = chart
