"""``pitch validate``: check records, the schema then every rule of the game."""

from __future__ import annotations

import sys

import click

from pitchcli.commands.common import INPUT_PATH, color_option, examples, format_option, max_errors_option
from pitchcli.render.formats import VALIDATE


@click.command(epilog=examples(
    "pitch validate samples/",
    "pitch validate --format github records/*.yaml",
    "pitch validate --format json - < game.yaml",
))
@click.argument("paths", nargs=-1, required=True, type=INPUT_PATH)
@format_option(VALIDATE, "text",
               help="text: file:line:col: error: CODE [RULE] message; json: the versioned report; github: "
                    "workflow annotations (::error file=...); sarif: SARIF 2.1.0 for code scanning.")
@click.option("--strict", is_flag=True, help="Warnings fail too.")
@click.option("-q", "--quiet", is_flag=True, help="No summary line.")
@max_errors_option
@color_option
def validate(paths: tuple[str, ...], fmt: str, strict: bool, quiet: bool, max_errors: int) -> None:
    """Check records: the schema, then every rule of the game.

    PATHS are files, folders (searched recursively for .yaml .yml .json .jsonl
    .ndjson) or - for standard input.
    """
    from pitchcli.pipeline.check import check_paths
    from pitchcli.pipeline.driver import drive

    # The verdict is all validate shows: the engine's quick pass may decide a clean game.
    checked = check_paths(paths, max_errors=max_errors or None, quick=True)
    sys.exit(drive(checked, VALIDATE[fmt](sys.stdout, strict, quiet)))


command = validate
