"""``pitch convert``: records in another format (YAML, JSON, JSON Lines), one stream."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from pitchcli.commands.common import INPUT_PATH, OUTPUT_PATH, color_option, examples, judging, not_an_input, writing
from pitchcli.commands.fmt import FORMATS_OUT

if TYPE_CHECKING:
    from pitchcli.pipeline.lint import Judge

F = TypeVar("F", bound=Callable[..., Any])


class Abandoned(Exception):
    """A record was invalid or unreadable: the output file is not written."""


def format_for(to: str | None, output: str | None, first: tuple[str, ...]) -> str | None:
    """The output format: ``--to``, else the suffix of ``-o``, else the first input's (``cat``)."""
    from pitchcli.render.records import format_of

    if to:
        return to
    if output and output.lower().endswith((".yaml", ".yml", ".json", ".jsonl", ".ndjson")):
        return format_of(output)
    return format_of(first[0]) if first and first[0] != "-" else None


UNIQUE_HELP = ("Leave out a game already written: the same play, however it was typed (as `pitch dedup` "
               "finds it); the first copy read is kept.")


def convert_paths(paths: tuple[str, ...], fmt: str, output: str | None, judge: Judge,
                  unique: bool = False) -> int:
    """Every valid record of ``paths`` to ``output`` (atomically: nothing
    written unless every record is valid) or standard output; the exit status."""
    from pitchcli.pipeline.driver import drive
    from pitchcli.pipeline.noted import noted
    from pitchcli.record.write import atomic_output
    from pitchcli.render.convert import Converting

    not_an_input(output, paths)
    records = noted(paths, quick=True, judge=judge)
    if not output:
        return drive(records, Converting(sys.stdout, sys.stderr, fmt, unique), sys.stderr)
    status = 0
    try:
        with writing(output), atomic_output(output) as f:
            status = drive(records, Converting(f, sys.stderr, fmt, unique), sys.stderr)
            if status:
                raise Abandoned
    except Abandoned:
        click.echo(f"{output}: not written: a record was invalid or unreadable", err=True)
    return status


def stream_options(f: F) -> F:
    """The arguments and options of ``convert`` and ``cat``: the inputs, ``--to``,
    ``-o``, ``--unique``, ``judging`` (``--max-errors``, ``--select`` ...) and ``--color``."""
    for option in reversed((
        click.argument("paths", nargs=-1, required=True, type=INPUT_PATH),
        click.option("--to", type=click.Choice(FORMATS_OUT),
                     help="The output format (default: the suffix of -o, else the first input's)."),
        click.option("-o", "--output", type=OUTPUT_PATH,
                     help="Write here, atomically: only when every record is valid."),
        click.option("--unique", is_flag=True, help=UNIQUE_HELP),
        judging, color_option)):
        f = option(f)
    return f


@click.command(epilog=examples(
    "pitch convert --to jsonl samples/tournament -o tournament.jsonl",
    "pitch convert --to yaml games.jsonl -o games.yaml",
    "pitch convert --to json samples/auction-full.yaml",
))
@stream_options
def convert(paths: tuple[str, ...], to: str | None, output: str | None, unique: bool, judge: Judge) -> None:
    """Convert records between YAML, JSON and JSON Lines, as one stream.

    Each record is written in the canonical form, as `pitch fmt --to` writes
    it: a round trip gives fmt's output back. Several records make a YAML
    stream or JSON Lines (json included). Comments are kept in YAML; written
    as JSON, a note says how many could not be. An invalid record is not
    converted (its diagnostics on standard error, exit 1); with -o nothing is
    written then.
    """
    sys.exit(convert_paths(paths, format_for(to, output, paths) or "yaml", output, judge, unique))


command = convert
