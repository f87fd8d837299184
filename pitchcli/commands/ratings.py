"""``pitch ratings``: player ratings over a league's games."""

from __future__ import annotations

import datetime
import sys
from typing import TYPE_CHECKING

import click

from pitchcli.commands.common import INPUT_PATH, color_option, examples, format_option, judging
from pitchcli.escape import quote
from pitchcli.render.formats import RATINGS

if TYPE_CHECKING:
    from pitchcli.pipeline.lint import Judge


def _date(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--since``: a real day written YYYY-MM-DD, as a record's ``date`` is.

    Dates are compared as text, so anything else ("yesterday", 2026-13-45)
    would silently select nothing: refuse it as a usage error instead."""
    if value is None:
        return None
    try:
        ok = len(value) == 10 and datetime.date.fromisoformat(value).isoformat() == value
    except ValueError:
        ok = False
    if not ok:
        raise click.BadParameter(f"{quote(value)} is not a date: write YYYY-MM-DD, such as 2026-11-28")
    return value


@click.command("ratings", epilog=examples(
    "pitch ratings samples/tournament",
    "pitch ratings --since 2026-11-28 --head-to-head samples/tournament",
    "pitch ratings --format csv samples/tournament",
))
@click.argument("paths", nargs=-1, required=True, type=INPUT_PATH)
@format_option(RATINGS, "table")
@click.option("--head-to-head", is_flag=True, help="Also (csv: instead) the results between each pair of players "
                                                    "or teams that met.")
@click.option("--since", metavar="DATE", callback=_date,
              help="The period the Change column is measured over: games dated DATE or later "
                   "(default: the last date, so Change is what the last night did).")
@click.option("--allow-invalid", is_flag=True, help="Exit 0 even when some records are invalid (never rated).")
@judging
@color_option
def ratings(paths: tuple[str, ...], fmt: str, head_to_head: bool, since: str | None, allow_invalid: bool,
            judge: Judge) -> None:
    """Player ratings over a league's games, in date order (openskill,
    Plackett-Luce; see the README): each player's games, rating (mu),
    uncertainty (sigma), the ordinal mu - 3 sigma ranked on, and its change
    over the period (--since). The same files give the same ratings, in
    whatever order they are named.

    Exit status: 0; 1 some record invalid (unless --allow-invalid); 3 an
    input could not be read.
    """
    from pitchcli.pipeline.driver import drive, write_first_errors
    from pitchcli.views.ratings import Collecting

    collecting = Collecting(since, allow_invalid)
    # Only each game's result is rated: the quick pass may decide a clean game.
    status = drive(judge.check_paths(paths, quick=True), collecting)
    RATINGS[fmt](collecting.ratings, sys.stdout, head_to_head)
    sys.stdout.flush()  # the table first, then the records left out
    write_first_errors(collecting.ratings.invalid, sys.stderr)
    sys.exit(status)


command = ratings
