"""``pitch report``: a static HTML site of a tournament."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pitchcli.commands.common import INPUT_PATH, OUTPUT_PATH, color_option, examples, judging

if TYPE_CHECKING:
    from pitchcli.pipeline.lint import Judge


@click.command("report", epilog=examples(
    "pitch report -o site/ samples/tournament",
    "pitch report --title 'Winter Setback Open' -o site/ samples/tournament/winter-setback-open",
))
@click.argument("paths", nargs=-1, required=True, type=INPUT_PATH)
@click.option("-o", "--output", "out_dir", required=True, type=OUTPUT_PATH,
              help="The folder to write the site into (created if missing).")
@click.option("--title", default="Tournament report", show_default=True, help="The site's title.")
@click.option("-j", "--jobs", type=click.IntRange(0), default=1, show_default=True,
              help="Worker processes that make the game pages (0: one per CPU); the site is the same.")
@click.option("--allow-invalid", is_flag=True, help="Exit 0 even when some records are invalid (they are listed).")
@judging
@color_option
def report(paths: tuple[str, ...], out_dir: str, title: str, jobs: int, allow_invalid: bool, judge: Judge) -> None:
    """A static HTML site of a tournament: index.html with the standings of
    every event (as `pitch summarize`), ratings.html, a folder per event (its
    standings night by night, and a page per game: hand by hand, the tricks, a
    score-race chart) and a page per player. Self-contained: no network, one
    inline script that sorts the standings (the pages work without it);
    invalid records are listed with their diagnostics. Pages are written as
    they are made, so memory does not grow with what the games hold; a big
    event's nights and a player's games are listed on pages of at most 200,
    and a page lists at most 200 invalid records (the rest counted).

    Exit status: 0 written; 1 written, some record invalid (unless
    --allow-invalid); 3 an input could not be read or the site not written.
    """
    import os

    from pitchcli.pipeline.driver import drive
    from pitchcli.render.site import Reporting, publish

    reporting = Reporting(title, allow_invalid)
    status = drive(judge.check_paths(paths), reporting)
    try:
        if not publish(reporting.site, out_dir, sys.stderr, jobs or os.cpu_count() or 1):
            sys.exit(3)
    finally:
        reporting.site.spool.close()
    sys.exit(status)


command = report
