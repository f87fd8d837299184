"""``pitch profiles``: the built-in rule profiles."""

from __future__ import annotations

import sys

import click

from pitchcli.commands.common import color_option, complete_profiles, examples, format_option
from pitchcli.profiles import ProfileError, builtin_profiles, resolve
from pitchcli.render.formats import PROFILES


@click.command(epilog=examples(
    "pitch profiles",
    "pitch profiles auction-partners",
    "pitch profiles ten-point --format json",
))
@click.argument("name", required=False, shell_complete=complete_profiles)
@format_option(PROFILES, "text", help="json: every option of every profile shown, as a mapping.")
@color_option
def profiles(name: str | None, fmt: str) -> None:
    """List the built-in rule profiles, or show every option of one and its value.

    """
    try:
        shown = [resolve(name)] if name else list(builtin_profiles().values())
    except ProfileError as e:
        raise click.BadParameter(str(e), param_hint="NAME") from None
    PROFILES[fmt](shown, sys.stdout, bool(name))


command = profiles
