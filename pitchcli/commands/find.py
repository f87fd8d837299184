"""``pitch find``: the games of an archive that meet conditions, as records or a list."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pitchcli.commands.common import (
    INPUT_PATH,
    OUTPUT_PATH,
    color_option,
    examples,
    format_option,
    judging,
    not_an_input,
    writing,
)
from pitchcli.commands.convert import jobs_option, worker_count, workers_watched
from pitchcli.render.formats import FIND

if TYPE_CHECKING:
    from pitchcli.pipeline.lint import Judge

POINTS = ("high", "low", "jack", "game")
RECORD_FORMATS = {".yaml": "yaml", ".yml": "yaml", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def _query(ctx: click.Context, param: click.Parameter, value: str | None) -> object:
    if value is None:
        return None
    import jmespath
    from jmespath.exceptions import JMESPathError
    try:
        return jmespath.compile(value)
    except JMESPathError as e:
        raise click.BadParameter(str(e).replace("\n", " "), ctx, param) from None


class PointOrMargin(click.ParamType):
    """``--set-by``: a point's name (high, low, jack, game) or a number of points, 1 or more."""

    name = "point-or-n"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> str | int:
        """The point's name (lower case), or the number."""
        text = str(value).strip().lower()
        if text in POINTS:
            return text
        if text.isdigit() and int(text) >= 1:
            return int(text)
        self.fail(f"{value!r} is neither a point ({', '.join(POINTS)}) nor a number of points, 1 or more",
                  param, ctx)


@click.command(epilog=examples(
    "pitch find --player Ann --format jsonl samples/tournament",
    "pitch find --bid-at-least 4 --set --hands --format table samples/",
    "pitch find --query \"hands[?bid == `4` && set]\" --format paths samples/",
))
@click.argument("paths", nargs=-1, required=True, type=INPUT_PATH)
@click.option("--player", "players", multiple=True, metavar="NAME", help="NAME played (repeated: any of them).")
@click.option("--with", "together", multiple=True, metavar="NAME",
              help="NAME played (repeated: all of them, at one table).")
@click.option("--against", multiple=True, metavar="NAME",
              help="NAME played on another side than every --player and --with named.")
@click.option("--event", metavar="GLOB", help="The event, exactly or as a glob ('Spring *').")
@click.option("--since", metavar="DATE", help="Dated on or after DATE (YYYY-MM-DD).")
@click.option("--until", metavar="DATE", help="Dated on or before DATE (YYYY-MM-DD).")
@click.option("--variant", "variants", multiple=True, metavar="PROFILE",
              help="The record's variant (repeated: any of them).")
@click.option("--players", "seats", type=click.IntRange(2, 8), help="The number of players.")
@click.option("--winner", metavar="NAME", help="NAME won (a player, a team, or a member of the winning team).")
@click.option("--bid-at-least", type=click.IntRange(1), metavar="N", help="A hand whose winning bid was N or more.")
@click.option("--made/--set", "made", default=None, help="A hand whose bidder made the bid / was set.")
@click.option("--max-bid", is_flag=True, help="A hand bid at the profile's maximum.")
@click.option("--set-by", type=PointOrMargin(), metavar="POINT|N",
              help="A hand whose bidder was set: by N points (the bid less what the bidding side took; any game), "
                   "or with POINT (high, low, jack, game) taken by another side (Auction Pitch).")
@click.option("--margin-at-least", type=click.IntRange(0), metavar="N",
              help="A finished game won by N or more (the winner's total less the best other).")
@click.option("--margin-at-most", type=click.IntRange(0), metavar="N", help="A finished game won by N or less.")
@click.option("--unfinished", is_flag=True, help="A game nobody has won yet.")
@click.option("--invalid", is_flag=True, help="The invalid records instead, with their diagnostic codes.")
@click.option("--query", callback=_query, metavar="JMESPATH",
              help="A JMESPath expression over the game's facts (docs/archive.md), true to match.")
@click.option("--hands", "by_hands", is_flag=True, help="List the hands that matched, not only their games.")
@format_option(FIND, "table", help="yaml or jsonl: the games as records; paths: the files, each once; table: one "
                                   "line per game; json: the versioned list.")
@click.option("-o", "--output", type=OUTPUT_PATH, help="Write here (atomically); a .yaml or "
              ".jsonl name sets the format when --format is not given.")
@click.option("--allow-invalid", is_flag=True, help="An invalid record (not searched) doesn't make the exit status 1.")
@jobs_option
@judging
@color_option
def find(paths: tuple[str, ...], players: tuple[str, ...], together: tuple[str, ...], against: tuple[str, ...],
         event: str | None, since: str | None, until: str | None, variants: tuple[str, ...], seats: int | None,
         winner: str | None, bid_at_least: int | None, made: bool | None, max_bid: bool, set_by: str | int | None,
         margin_at_least: int | None, margin_at_most: int | None, unfinished: bool, invalid: bool, query: object,
         by_hands: bool, fmt: str, output: str | None, allow_invalid: bool, jobs: int, judge: Judge) -> None:
    """Find the games that meet every condition given (none: every valid game).

    Hand conditions (--bid-at-least, --made/--set, --max-bid, --set-by) must
    hold in one hand. Exit status: 0 a game was found, 1 none was (or a record
    was invalid: not searched, unless --allow-invalid), 3 an input could not
    be read or the output written.
    """
    from pitchcli.views.find import Conditions

    if against and not (players or together):
        raise click.UsageError("--against needs a --player or --with to be against")
    if invalid and (winner or bid_at_least or made is not None or max_bid or set_by is not None or unfinished or query
                    or margin_at_least is not None or margin_at_most is not None or against):
        raise click.UsageError("--invalid goes with the record's own fields only (players, event, dates, variant)")
    ctx = click.get_current_context()
    if output and ctx.get_parameter_source("fmt") is not click.core.ParameterSource.COMMANDLINE:
        fmt = next((f for s, f in RECORD_FORMATS.items() if output.lower().endswith(s)), fmt)
    cond = Conditions(players, together, against, event, since, until, variants, seats, winner, bid_at_least,
                      made, max_bid, set_by, margin_at_least, margin_at_most, unfinished, invalid, query,
                      hands=by_hands)
    from pitchcli.render.found import search

    n = worker_count(jobs)
    with workers_watched("find"):
        if output:
            from pitchcli.record.write import atomic_output
            not_an_input(output, paths)
            with writing(output), atomic_output(output) as f:
                status = search(paths, cond, FIND[fmt], f, sys.stderr, allow_invalid, judge, n)
        else:
            status = search(paths, cond, FIND[fmt], sys.stdout, sys.stderr, allow_invalid, judge, n)
    sys.exit(status)


command = find
