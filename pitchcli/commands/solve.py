"""``pitch solve``: could the bid have been made, and which card lost it?"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pitchcli.commands.common import INPUT_PATH, color_option, examples, format_option, judging
from pitchcli.render.formats import SOLVE

if TYPE_CHECKING:
    from pitchcli.pipeline.lint import Judge


@click.command("solve", epilog=examples(
    "pitch solve samples/auction-full.yaml",
    "pitch solve --hand 2 --format json samples/auction-full.yaml",
))
@click.argument("path", type=INPUT_PATH)
@click.option("--hand", type=click.IntRange(1), help="Only this hand (numbered from 1).")
@format_option(SOLVE, "text", help="text: a sentence per hand and per costly card; json: the versioned report.")
@click.option("--budget", type=click.IntRange(1), default=None,
              help="Nodes (cards played in the search) per hand before giving up with bounds "
                   "[default: 1,000,000].")
@click.option("--total-budget", type=click.IntRange(1), default=None,
              help="Nodes for the whole run, across every hand and game: a hand reached after they are "
                   "spent is reported with its bounds [default: 4,000,000].")
@judging
@color_option
def solve(path: str, hand: int | None, fmt: str, budget: int | None, total_budget: int | None,
          judge: Judge) -> None:
    """Could the bid have been made, and which card lost it?

    With every card face up and everyone playing perfectly, the bidding side
    against all the others together: the most points it could be sure of
    (in Auction Pitch with the trump as played, and with the best first lead),
    whether that makes the bid, and each recorded card after which it changed,
    with a card that would have kept it. Hands without cards (tallies) can't
    be solved; the output says so.
    """
    from pitchcli.pipeline.driver import drive
    from pitchcli.render.solve import Solving
    from pitchcli.views.solve import DEFAULT_BUDGET, DEFAULT_TOTAL_BUDGET

    solving = Solving(SOLVE[fmt](sys.stdout), sys.stderr, hand, budget or DEFAULT_BUDGET,
                      total_budget or DEFAULT_TOTAL_BUDGET)
    sys.exit(drive(judge.check_paths([path]), solving, sys.stderr))


command = solve
