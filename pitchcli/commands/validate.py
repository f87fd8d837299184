"""``pitch validate``: check records, the schema then every rule of the game;
what is shown is chosen as a linter's (``--select``, suppression comments, a
configuration file: ``pitchcli.pipeline.lint``)."""

from __future__ import annotations

import sys
from typing import TextIO

import click

from pitchcli import escape
from pitchcli.commands.common import (
    INPUT_PATH,
    MAX_ERRORS_HELP,
    color_option,
    examples,
    linter_options,
    refuse_output_over_inputs,
    writing,
)
from pitchcli.render.formats import STATISTICS, VALIDATE


@click.command(epilog=examples(
    "pitch validate samples/",
    "pitch validate --format github records/*.yaml",
    "pitch validate --select C5 --ignore C502 --statistics records/",
))
@click.argument("paths", nargs=-1, required=True, type=INPUT_PATH)
@click.option("--format", "fmt", type=click.Choice(list(VALIDATE)), default=None,
              help="text: file:line:col: error: CODE [RULE] message; full: text with the source line and a "
                   "caret; json: the versioned report; github: workflow annotations (::error file=...); "
                   "sarif: SARIF 2.1.0 for code scanning; junit: JUnit XML, a test case per document; "
                   "gitlab: GitLab Code Quality JSON.  [default: the configuration's, else text]")
@click.option("--show-source/--no-show-source", default=None,
              help="Text: show each diagnostic's source line with a caret under its column (--format full).")
@click.option("--strict/--no-strict", default=None, help="Warnings fail too.")
@click.option("-q", "--quiet", is_flag=True, help="No summary line.")
@click.option("--max-errors", type=click.IntRange(0), default=None,
              help=MAX_ERRORS_HELP + "  [default: the configuration's, else 100]")
@linter_options
@color_option
def validate(paths: tuple[str, ...], fmt: str | None, show_source: bool | None, strict: bool | None, quiet: bool,
             max_errors: int | None, select: tuple[str, ...] | None, extend_select: tuple[str, ...] | None,
             ignore: tuple[str, ...] | None, config_file: str | None, isolated: bool, exit_zero: bool,
             statistics: bool, output: str | None) -> None:
    """Check records: the schema, then every rule of the game.

    PATHS are files, folders (searched recursively for .yaml .yml .json .jsonl
    .ndjson) or - for standard input. Settings are read from the nearest
    pitch.toml, .pitch.toml or pyproject.toml [tool.pitch] up from each input
    (docs/configuration.md); the options given here win.
    """
    from pitchcli.pipeline.check import check_paths
    from pitchcli.pipeline.config import ConfigError, Discovery
    from pitchcli.pipeline.driver import drive
    from pitchcli.pipeline.lint import lint, policies
    from pitchcli.pipeline.selection import Layer

    if output is not None:
        refuse_output_over_inputs(output, paths)
    try:
        discovery = Discovery(config_file, isolated, formats=tuple(VALIDATE))
        run = discovery.for_run()
    except ConfigError as e:
        _bad_config(e)
    fmt = fmt or run.format or "text"
    show = show_source if show_source is not None else bool(run.show_source)
    if show and fmt == "text":
        fmt = "full"
    strict = strict if strict is not None else bool(run.strict)
    if statistics and fmt not in STATISTICS:
        raise click.UsageError(f"--statistics shows {' or '.join(STATISTICS)}, not --format {fmt}")
    cli = Layer(select, extend_select or (), ignore or ())
    # Statistics count every diagnostic: nothing is capped.
    policy_for = policies(discovery, cli, 0 if statistics else max_errors)
    # The verdict is all validate shows: the engine's quick pass may decide a clean game.
    # Every diagnostic is kept until the lint step has dropped what isn't shown, then capped.
    checked = lint(check_paths(paths, max_errors=None, quick=True), policy_for)
    renderers = STATISTICS if statistics else VALIDATE

    def report(out: TextIO) -> int:
        try:
            return drive(checked, renderers[fmt](out, strict, quiet))
        except ConfigError as e:  # a configuration found on the way, in a folder below
            _bad_config(e)

    if output is None:
        status = report(sys.stdout)
    else:
        from pitchcli.record.write import atomic_output
        with writing(output), atomic_output(output) as f:
            status = report(f)
    sys.exit(0 if exit_zero and status == 1 else status)


def _bad_config(e: Exception) -> None:
    """A configuration that can't be used: its message, exit 2 (a usage error)."""
    click.echo(escape.text(f"pitch: {e}"), err=True)
    sys.exit(2)


command = validate
