"""``pitch fmt``: records written in the canonical form."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pitchcli.commands.common import INPUT_PATH, OUTPUT_PATH, color_option, examples, judging, not_an_input

if TYPE_CHECKING:
    from pitchcli.pipeline.lint import Judge

FORMATS_OUT = ("yaml", "json", "jsonl")


@click.command("fmt", epilog=examples(
    "pitch fmt samples/auction-play.yaml",
    "pitch fmt --check samples/",
    "pitch fmt --fill --to json -o game.json game.yaml",
))
@click.argument("paths", nargs=-1, required=True, type=INPUT_PATH)
@click.option("-o", "--output", type=OUTPUT_PATH,
              help="Write every input here (atomically) instead of standard output.")
@click.option("--to", type=click.Choice(FORMATS_OUT),
              help="Output format (default: the input's, or the suffix of --output).")
@click.option("--check", is_flag=True, help="Write nothing; list the files that are not canonical (exit 1).")
@click.option("-i", "--in-place", is_flag=True, help="Rewrite each file in its canonical form, atomically.")
@click.option("--fill", is_flag=True,
              help="Also write what the engine derives: trump, called partners, trick leaders, points, score, "
                   "totals, result.")
@judging
@color_option
def fmt(paths: tuple[str, ...], output: str | None, to: str | None, check: bool, in_place: bool,
        fill: bool, judge: Judge) -> None:
    """Write records in the canonical form (fixed key order, canonical cards).

    Formatting a canonical record changes nothing, and an invalid record is
    never formatted (its diagnostics go to standard error, exit 1): fmt does
    not repair (a record whose only errors are suppressed, by its comments
    or the configuration, is formatted as valid). Comments are kept (YAML output): a comment line before the
    key or item it precedes, an end-of-line comment on its line.
    """
    if (check, in_place, output is not None).count(True) > 1:
        raise click.UsageError("--check, --in-place and --output go one at a time")
    if in_place and "-" in paths:
        raise click.UsageError("--in-place needs files, not standard input")
    if in_place and to:
        raise click.UsageError("--in-place keeps each file's format; use --output to convert")
    not_an_input(output, paths, "; use --in-place to rewrite a file")
    from pitchcli.pipeline.driver import drive
    from pitchcli.render.records import Formatting

    formatting = Formatting(sys.stdout, sys.stderr, output, to, check, in_place, fill, sys.stdin.buffer,
                            judge=judge)
    sys.exit(drive(formatting.inputs(paths), formatting, sys.stderr))


command = fmt
