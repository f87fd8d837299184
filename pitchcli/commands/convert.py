"""``pitch convert``: records in another format (YAML, JSON, JSON Lines), one stream."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import click

from pitchcli import escape
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


def jobs_option(f: F) -> F:
    """``-j/--jobs N`` of the archive commands (find, convert, cat, split, dedup), as summarize's."""
    return click.option("-j", "--jobs", type=click.IntRange(0), default=1, show_default=True,
                        help="Worker processes (0: one per CPU). Files are shared out, a big JSON Lines file "
                             "is cut at line boundaries and a big YAML stream at a '---' right after a "
                             "document's content; the output is the same, in the same order.")(f)


def worker_count(jobs: int) -> int:
    """``--jobs``: 0 is one per CPU."""
    return jobs or os.cpu_count() or 1


@contextmanager
def workers_watched(command: str) -> Iterator[None]:
    """A worker process that died (killed, as by the OOM killer) ends the
    command with a message naming what it was reading, and exit 3 (an output
    file given with -o is left as it was: the error passes through its writer first)."""
    from pitchcli.pipeline.parallel import WorkerDied, task_text

    try:
        yield
    except WorkerDied as e:
        shown = ", ".join(task_text(t) for t in e.lost[:5])
        more = f" and {len(e.lost) - 5} more" if len(e.lost) > 5 else ""
        click.echo(escape.text(f"{command}: a worker process died (killed?) while reading {shown}{more}; "
                               f"the output is incomplete"), err=True)
        sys.exit(3)


UNIQUE_HELP = ("Leave out a game already written: the same play, however it was typed (as `pitch dedup` "
               "finds it); the first copy read is kept.")


def convert_paths(paths: tuple[str, ...], fmt: str, output: str | None, judge: Judge,
                  unique: bool = False, jobs: int = 1, command: str = "convert") -> int:
    """Every valid record of ``paths`` to ``output`` (atomically: nothing
    written unless every record is valid) or standard output, read by
    ``jobs`` processes; the exit status."""
    from pitchcli.pipeline.driver import drive
    from pitchcli.record.write import atomic_output
    from pitchcli.render.convert import Converting, ToConvert, records_in_order

    not_an_input(output, paths)
    make = ToConvert(fmt, unique)
    with workers_watched(command), records_in_order(paths, worker_count(jobs), make, judge) as records:
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
    ``-o``, ``--unique``, ``--jobs``, ``judging`` (``--max-errors``, ``--select`` ...) and ``--color``."""
    for option in reversed((
        click.argument("paths", nargs=-1, required=True, type=INPUT_PATH),
        click.option("--to", type=click.Choice(FORMATS_OUT),
                     help="The output format (default: the suffix of -o, else the first input's)."),
        click.option("-o", "--output", type=OUTPUT_PATH,
                     help="Write here, atomically: only when every record is valid."),
        click.option("--unique", is_flag=True, help=UNIQUE_HELP),
        jobs_option, judging, color_option)):
        f = option(f)
    return f


@click.command(epilog=examples(
    "pitch convert --to jsonl samples/tournament -o tournament.jsonl",
    "pitch convert --to yaml games.jsonl -o games.yaml",
    "pitch convert --to json samples/auction-full.yaml",
))
@stream_options
def convert(paths: tuple[str, ...], to: str | None, output: str | None, unique: bool, jobs: int,
            judge: Judge) -> None:
    """Convert records between YAML, JSON and JSON Lines, as one stream.

    Each record is written in the canonical form, as `pitch fmt --to` writes
    it: a round trip gives fmt's output back. Several records make a YAML
    stream or JSON Lines (json included). Comments are kept in YAML; written
    as JSON, a note says how many could not be. An invalid record is not
    converted (its diagnostics on standard error, exit 1); with -o nothing is
    written then.
    """
    sys.exit(convert_paths(paths, format_for(to, output, paths) or "yaml", output, judge, unique, jobs))


command = convert
