"""``pitch rules``: the rules of the rule book, by id."""

from __future__ import annotations

import sys

import click

from pitchcli.commands.common import color_option, complete_rules, examples, format_option
from pitchcli.render.formats import RULES


@click.command(epilog=examples("pitch rules", "pitch rules AP-PLAY-2", "pitch rules TP4-5 TP5-3 --format json"))
@click.argument("ids", nargs=-1, shell_complete=complete_rules)
@format_option(RULES, "text")
@color_option
def rules(ids: tuple[str, ...], fmt: str) -> None:
    """Print the rules with these ids, or list every rule.

    The ids are those diagnostics cite in brackets: R407 [AP-PLAY-2].

    """
    from pitchcli.views import reference
    try:
        found = [reference.find_rule(i) for i in ids]
    except reference.NotFound as e:
        raise click.BadParameter(str(e), param_hint="ID") from None
    RULES[fmt](found, sys.stdout)


command = rules
