"""``pitch merge``: partial summaries merged into one report."""

from __future__ import annotations

import sys

import click

from pitchcli import escape
from pitchcli.commands.common import INPUT_PATH, color_option, examples, not_an_input
from pitchcli.commands.summarize import report_out, summary_options


@click.command(epilog=examples(
    "pitch merge part-*.json",
    "pitch merge --format markdown -o standings.md part-1.json part-2.json",
))
@click.argument("parts", nargs=-1, required=True, type=INPUT_PATH)
@summary_options
@color_option
def merge(parts: tuple[str, ...], fmt: str, standings: bool, games: bool | None, max_rows: int,
          allow_invalid: bool, partial: bool, output: str | None) -> None:
    """Merge partial summaries (`pitch summarize --partial -o part.json`).

    The output is the same as one `pitch summarize` over all the inputs of
    the parts (each document in one part only), whatever the order or grouping
    of the parts; --partial writes the merged partial summary. A part given
    twice (the same file) is read once, with a warning; two parts that both
    count the same input file are refused. Exit status as summarize; 3 when
    a part can't be read, is not a partial summary, or counts what another
    part counts.
    """
    from pitchcli.pipeline.walk import Seen
    not_an_input(output, parts)
    from pitchcli.views.partial import counted_twice
    from pitchcli.views.summarize import read_partial
    from pitchcli.views.summary import Summary, SummaryError, merge_all
    read: list[Summary] = []
    files: set[str] = set()  # every file the parts read so far counted
    seen = Seen()
    for name in parts:
        again = seen.named(name) if name != "-" else name
        if not isinstance(again, str):  # the same part given twice: read once, as a folder walk does
            click.echo(again.as_text(), err=True)
            continue
        try:
            part = read_partial(name, sys.stdin.buffer if name == "-" else None)
        except OSError as e:
            click.echo(escape.text(f"{name}: cannot read: {e.strerror or e}"), err=True)
            sys.exit(3)
        except SummaryError as e:
            click.echo(escape.text(f"{name}: {e}"), err=True)
            sys.exit(3)
        twice = counted_twice(files, part.files)
        if twice is not None:  # two parts that both count a file: the merge would count it twice
            click.echo(escape.text(f"{name}: {twice}"), err=True)
            sys.exit(3)
        files |= part.files
        read.append(part)
    s = merge_all(read)
    if max_rows:
        s.merge(Summary(max_rows, s.keep_games))
    report_out(s, fmt, standings, games, partial, output, allow_invalid)


command = merge
