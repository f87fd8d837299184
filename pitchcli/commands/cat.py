"""``pitch cat``: the records of many files as one stream, in the canonical form."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from pitchcli.commands.common import examples
from pitchcli.commands.convert import convert_paths, format_for, stream_options

if TYPE_CHECKING:
    from pitchcli.pipeline.lint import Judge


@click.command(epilog=examples(
    "pitch cat samples/tournament/winter-setback-open",
    "pitch cat --to jsonl samples/tournament > all.jsonl",
))
@stream_options
def cat(paths: tuple[str, ...], to: str | None, output: str | None, unique: bool, jobs: int, judge: Judge) -> None:
    """Write the records of every input as one stream (folders searched in
    name order), each in the canonical form, comments kept in YAML.

    `pitch convert` with the first input's format by default. An invalid
    record is not written (its diagnostics on standard error, exit 1).
    """
    sys.exit(convert_paths(paths, format_for(to, output, paths) or "yaml", output, judge, unique, jobs,
                           "cat"))


command = cat
