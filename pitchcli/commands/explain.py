"""``pitch explain``: what a diagnostic code means and how to fix it."""

from __future__ import annotations

import sys

import click

from pitchcli.commands.common import color_option, complete_codes, examples, format_option
from pitchcli.render.formats import EXPLAIN


@click.command(epilog=examples("pitch explain R407", "pitch explain S201 C502", "pitch explain"))
@click.argument("codes", nargs=-1, shell_complete=complete_codes)
@format_option(EXPLAIN, "text")
@color_option
def explain(codes: tuple[str, ...], fmt: str) -> None:
    """Explain diagnostic codes: what each means, how to fix it, an example;
    with no code, list them all.

    """
    from pitchcli.views import reference
    try:
        found = [reference.find_code(c) for c in codes]
    except reference.NotFound as e:
        raise click.BadParameter(str(e), param_hint="CODE") from None
    EXPLAIN[fmt](found, sys.stdout)


command = explain
