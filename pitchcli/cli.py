"""The ``pitch`` command line: the group, its version and its ``--color``; the
commands are in ``pitchcli.commands``, one module each (options -> the command
driver -> the exit status). No rule of the game lives here."""

from __future__ import annotations

import gc
from typing import Any

import click

from pitchcli import __version__
from pitchcli.commands import (
    cat,
    chart,
    convert,
    dedup,
    explain,
    find,
    fmt,
    merge,
    new,
    profiles,
    ratings,
    replay,
    report,
    rules,
    schema,
    score,
    simulate,
    solve,
    split,
    summarize,
    validate,
)
from pitchcli.commands.common import COLOR_HELP, COLORS, apply_color
from pitchcli.guard import run_guarded

# The engine, the loader and the writers are imported by the commands that use
# them, when they run: `pitch --help` and a usage error need none of them (start-up).


class _Pitch(click.Group):
    """The ``pitch`` group: every command runs under ``pitchcli.guard`` (signals,
    an output that can't be written, a broken pipe: one mechanism, here)."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; exit with its status (see ``run_guarded``)."""
        return run_guarded(lambda: super(_Pitch, self).invoke(ctx))


@click.group(cls=_Pitch, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pitch")
@click.option("--color", "color", type=click.Choice(COLORS), default="auto", show_default=True, help=COLOR_HELP)
def main(color: str) -> None:
    """Validate, score, replay and summarize records of the card game Pitch.

    Exit status: 0 ok, 1 a record is invalid (or a check failed), 2 usage
    error, 3 an input could not be read (or an output written).
    """
    # A batch allocates many short-lived objects freed by reference counting;
    # the default generation-0 threshold (700) runs the cycle collector far more
    # often than needed (measured: about 8% of the engine's time on 300 games).
    gc.set_threshold(20_000, 50, 100)
    apply_color(color)  # a subcommand's own --color, parsed after this, overrides it


for _module in (validate, simulate, schema, profiles, rules, explain, score, replay, solve, fmt, new, summarize,
                merge, report, chart, ratings, find, convert, cat, split,
                dedup):
    main.add_command(_module.command)
