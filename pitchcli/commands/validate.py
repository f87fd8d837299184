"""``pitch validate``: check records, the schema then every rule of the game;
what is shown is chosen as a linter's (``--select``, suppression comments, a
configuration file: ``pitchcli.pipeline.lint``)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

import click

from pitchcli.commands.common import (
    INPUT_PATH,
    color_option,
    examples,
    judging,
    linter_options,
    refuse_output_over_inputs,
    writing,
)
from pitchcli.render.formats import STATISTICS, VALIDATE

if TYPE_CHECKING:
    from pitchcli.pipeline.lint import Judge


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
@judging
@linter_options
@color_option
def validate(paths: tuple[str, ...], fmt: str | None, show_source: bool | None, strict: bool | None, quiet: bool,
             judge: Judge, exit_zero: bool, statistics: bool, output: str | None) -> None:
    """Check records: the schema, then every rule of the game.

    PATHS are files, folders (searched recursively for .yaml .yml .json .jsonl
    .ndjson) or - for standard input. Settings are read from the nearest
    pitch.toml, .pitch.toml or pyproject.toml [tool.pitch] up from each input
    (docs/configuration.md); the options given here win.
    """
    from pitchcli.pipeline.driver import drive

    if output is not None:
        refuse_output_over_inputs(output, paths)
    run = judge.discovery.for_run()
    fmt = fmt or run.format or "text"
    show = show_source if show_source is not None else bool(run.show_source)
    if show and fmt == "text":
        fmt = "full"
    strict = strict if strict is not None else bool(run.strict)
    if statistics and fmt not in STATISTICS:
        raise click.UsageError(f"--statistics shows {' or '.join(STATISTICS)}, not --format {fmt}")
    if statistics:  # they count every diagnostic: nothing is capped
        judge = judge.capped(0)
    # The verdict is all validate shows: the engine's quick pass may decide a clean game.
    # Every diagnostic is kept until the judge has dropped what isn't shown, then capped.
    checked = judge.check_paths(paths, quick=True)
    renderers = STATISTICS if statistics else VALIDATE

    def report(out: TextIO) -> int:
        return drive(checked, renderers[fmt](out, strict, quiet))

    if output is None:
        status = report(sys.stdout)
    else:
        from pitchcli.record.write import atomic_output
        with writing(output), atomic_output(output) as f:
            status = report(f)
    sys.exit(0 if exit_zero and status == 1 else status)


command = validate
