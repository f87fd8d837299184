"""``pitch split``: records cut into files, one per event, date or game."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pitchcli.commands.common import INPUT_PATH, OUTPUT_PATH, color_option, examples, judging
from pitchcli.commands.convert import jobs_option, worker_count, workers_watched
from pitchcli.commands.fmt import FORMATS_OUT

if TYPE_CHECKING:
    from pitchcli.pipeline.lint import Judge

KEYS = ("event", "date", "game")


@click.command(epilog=examples(
    "pitch split --by event samples/tournament -o by-event/",
    "pitch split --by game --to json games.jsonl -o games/",
))
@click.argument("paths", nargs=-1, required=True, type=INPUT_PATH)
@click.option("--by", "key", type=click.Choice(KEYS), default="game", show_default=True,
              help="event, date: a file per event or date; game: a file per game (named by its id).")
@click.option("-o", "--output", "folder", required=True, type=OUTPUT_PATH,
              help="The folder to write in (made if missing).")
@click.option("--to", type=click.Choice(FORMATS_OUT), default="yaml", show_default=True, help="The output format.")
@jobs_option
@judging
@color_option
def split(paths: tuple[str, ...], key: str, folder: str, to: str, jobs: int, judge: Judge) -> None:
    """Cut records into files: one per event (EVENT.yaml), date (DATE.yaml) or
    game (ID.yaml), in the order read; names made of letters, digits and
    . _ - (two names alike get -2, -3).

    Each file is written atomically once every record was read; an invalid
    record stops it: nothing is written (exit 1). A file already there is
    replaced, never a link or a folder (exit 3).
    """
    from pitchcli.pipeline.driver import drive
    from pitchcli.render.convert import Splitting, ToSplit, records_in_order

    make = ToSplit(to, key)
    with workers_watched("split"), records_in_order(paths, worker_count(jobs), make, judge) as items:
        status = drive(items, Splitting(folder, sys.stderr, to, key, paths), sys.stderr)
    sys.exit(status)


command = split
