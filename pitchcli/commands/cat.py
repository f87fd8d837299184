"""``pitch cat``: the records of many files as one stream, in the canonical form."""

from __future__ import annotations

import sys

import click

from pitchcli.commands.common import color_option, examples, max_errors_option
from pitchcli.commands.convert import UNIQUE_HELP, convert_paths, format_for
from pitchcli.commands.fmt import FORMATS_OUT


@click.command(epilog=examples(
    "pitch cat samples/tournament/winter-setback-open",
    "pitch cat --to jsonl samples/tournament > all.jsonl",
))
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--to", type=click.Choice(FORMATS_OUT), help="The output format (default: the first input's).")
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Write here, atomically: only when every record is valid.")
@click.option("--unique", is_flag=True, help=UNIQUE_HELP)
@max_errors_option
@color_option
def cat(paths: tuple[str, ...], to: str | None, output: str | None, unique: bool, max_errors: int) -> None:
    """Write the records of every input as one stream (folders searched in
    name order), each in the canonical form, comments kept in YAML.

    `pitch convert` with the first input's format by default. An invalid
    record is not written (its diagnostics on standard error, exit 1).
    """
    sys.exit(convert_paths(paths, format_for(to, output, paths) or "yaml", output, max_errors, unique))


command = cat
