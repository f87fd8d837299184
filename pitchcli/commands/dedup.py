"""``pitch dedup``: the same game recorded twice, found by what was played."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pitchcli.commands.common import INPUT_PATH, color_option, examples, format_option, judging
from pitchcli.commands.convert import jobs_option, worker_count, workers_watched
from pitchcli.render.formats import DEDUP

if TYPE_CHECKING:
    from pitchcli.pipeline.lint import Judge


@click.command(epilog=examples(
    "pitch dedup samples/tournament",
    "pitch dedup --format json archive/ > copies.json",
    "pitch dedup --format list archive/",
))
@click.argument("paths", nargs=-1, required=True, type=INPUT_PATH)
@format_option(DEDUP, "text", help="text: each group of copies, the first to keep; json: the versioned report; "
                                   "list: every copy after the first, FILE<TAB>DOCUMENT a line.")
@click.option("--allow-invalid", is_flag=True, help="An invalid record (not compared) doesn't make the exit status 1.")
@jobs_option
@judging
@color_option
def dedup(paths: tuple[str, ...], fmt: str, allow_invalid: bool, jobs: int, judge: Judge) -> None:
    """Find the games recorded more than once: the same play, whatever the
    spacing, key order, card notation, format or metadata (event, date, notes);
    and near-duplicates, the same deal played otherwise, listed apart.

    Nothing is deleted or changed: a report, or a list to act on. Exit
    status: 0 no copies, 1 copies found (or an invalid record, not compared),
    3 an input could not be read.
    """
    from pitchcli.pipeline.driver import drive
    from pitchcli.render.dedup import Deduping, keys_in_order

    with workers_watched("dedup"), keys_in_order(paths, worker_count(jobs), judge) as keys:
        status = drive(keys, Deduping(DEDUP[fmt], sys.stdout, allow_invalid), sys.stderr)
    sys.exit(status)


command = dedup
