"""What the commands share: the examples in --help, an output that can't be
written, and the options that mean the same everywhere (``--color``,
``--max-errors``, a ``--format`` built from a renderer registry).

Nothing heavy is imported here, nor at the top of any command's module:
``pitch --help`` and a usage error need neither the engine nor the loader
(start-up); a command imports what it runs when it runs.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

import click

from pitchcli import escape
from pitchcli.diagnostics import DEFAULT_MAX_ERRORS
from pitchcli.profiles import builtin_profiles

F = TypeVar("F", bound=Callable[..., Any])

COLORS = ("auto", "always", "never")
COLOR_HELP = ("Colour errors, warnings, codes, made and set: auto is on a terminal only, and off when "
              "NO_COLOR is set (on when FORCE_COLOR is).")


# Paths are taken as they are written: whether a file can be read or written
# is the command's to find out and say, with the contract's exit status (3 and
# L101 for an input, 3 for an output). Click's own checks (``readable``,
# ``writable``, ``dir_okay``) are usage errors (exit 2) and, since they ask
# ``access()``, say nothing when run as root: CI would never see them.
INPUT_PATH = click.Path(readable=False)
OUTPUT_PATH = click.Path(readable=False)


def examples(*commands: str) -> str:
    """The epilog of a command's --help: real examples, one per line (Click's
    ``\\b`` keeps the lines as they are written)."""
    return "\b\nExamples:\n" + "\n".join(f"  {c}" for c in commands)


@contextmanager
def writing(path: str) -> Iterator[None]:
    """An output file that can't be written (no such folder, no permission, no
    space left) ends the command with a message and exit 3, never a traceback;
    the atomic writers leave the old file, if any, as it was."""
    try:
        yield
    except OSError as e:
        click.echo(escape.text(f"{path}: cannot write: {e.strerror or e}"), err=True)
        sys.exit(3)


def not_an_input(output: str | None, inputs: Iterable[str], hint: str = "") -> None:
    """Refuse (exit 3, before any work) an output file that is one of the
    inputs: written atomically at the end, it would replace what was read.
    ``hint``: what to do instead (``fmt``: ``--in-place``)."""
    if output is None:
        return
    from pitchcli.pipeline.walk import input_named
    found = input_named(output, inputs)
    if found is not None:
        same = "" if found == output else f" ({found})"
        click.echo(escape.text(f"{output}: cannot write: it is one of the inputs{same}; not replaced{hint}"),
                   err=True)
        sys.exit(3)


def apply_color(choice: str) -> None:
    """Colour on or off for this run (``pitchcli.render.style.decide``)."""
    from pitchcli.render import style
    style.enable(style.decide(choice, sys.stdout))


def _color_given(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    # After the command's name it overrides the group's (`pitch --color never
    # validate` and `pitch validate --color never` alike, as ruff spells it).
    if value is not None:
        apply_color(value)


# Every subcommand takes --color too; not given, the group's choice stands.
color_option = click.option(
    "--color", type=click.Choice(COLORS), default=None, expose_value=False, callback=_color_given,
    help=COLOR_HELP + " [default: as given to pitch, else auto]")

MAX_ERRORS_HELP = ("Diagnostics shown per document, the first in document order (0: all); a last line "
                   "says how many more there were. The counts and the exit status include them all.")

# Every command that reads records and shows diagnostics takes the same cap: ``judging``.


def _selectors(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...] | None:
    from pitchcli.pipeline.selection import SelectorError, selectors
    if not value:
        return None
    try:
        return selectors(value)
    except SelectorError as e:
        raise click.BadParameter(str(e)) from None


CODES_HELP = "codes or prefixes (C5, R407, ALL), comma-separated or repeated"
MAX_ERRORS_CONFIGURED = MAX_ERRORS_HELP + f"  [default: the configuration's, else {DEFAULT_MAX_ERRORS}]"


def bad_config(e: Exception) -> NoReturn:
    """A configuration that can't be used: its message, exit 2 (a usage error)."""
    click.echo(escape.text(f"pitch: {e}"), err=True)
    sys.exit(2)


def judging(f: Callable[..., Any]) -> Callable[..., Any]:
    """What every command that reads and judges records takes, as ruff spells
    it: which codes are shown (``--select``, ``--extend-select``,
    ``--ignore``), the configuration (``--config``, ``--isolated``) and
    ``--max-errors``; the command is called with them made into one
    ``judge`` (``pitchcli.pipeline.lint.Judge``), which it hands its checked
    documents to. A configuration that can't be used, found before or during
    the run, ends it with exit 2 (``bad_config``). The keys are in
    ``pitchcli.pipeline.config``."""

    @functools.wraps(f)
    def run(*args: Any, select: tuple[str, ...] | None, extend_select: tuple[str, ...] | None,
            ignore: tuple[str, ...] | None, config_file: str | None, isolated: bool, max_errors: int | None,
            **kwargs: Any) -> Any:
        from pitchcli.pipeline.config import ConfigError, Discovery
        from pitchcli.pipeline.lint import Judge
        from pitchcli.pipeline.selection import Layer
        from pitchcli.render.formats import VALIDATE

        try:
            # The format key is validate's; every command checks it alike.
            discovery = Discovery(config_file, isolated, formats=tuple(VALIDATE))
            judge = Judge(discovery, Layer(select, extend_select or (), ignore or ()), max_errors)
            return f(*args, judge=judge, **kwargs)
        except ConfigError as e:  # (one found on the way, in a folder below, too)
            bad_config(e)

    for option in reversed((
        click.option("--select", callback=_selectors, multiple=True, metavar="CODES",
                     help=f"Show only these {CODES_HELP}; replaces the configuration's select."),
        click.option("--extend-select", callback=_selectors, multiple=True, metavar="CODES",
                     help=f"Show these {CODES_HELP} too."),
        click.option("--ignore", callback=_selectors, multiple=True, metavar="CODES",
                     help=f"Don't show these {CODES_HELP} (not counted, don't fail the run; a record whose "
                          "only errors are ignored or suppressed is used as a valid one)."),
        click.option("--config", "config_file", type=click.Path(dir_okay=False), metavar="FILE",
                     help="This pitch.toml or pyproject.toml for every input, instead of the one found "
                          "up from each input's folder."),
        click.option("--isolated", is_flag=True, help="Read no configuration file."),
        click.option("--max-errors", type=click.IntRange(0), default=None, help=MAX_ERRORS_CONFIGURED),
    )):
        run = option(run)
    return run


def linter_options(f: F) -> F:
    """What a command whose output is diagnostics takes besides ``judging``,
    as ruff spells it: ``--exit-zero``, ``--statistics`` and ``-o/--output``."""
    for option in reversed((
        click.option("--exit-zero", is_flag=True,
                     help="Exit 0 even when a record is invalid (still 3 when an input can't be read)."),
        click.option("--statistics", is_flag=True, help="Show how many of each code, not the diagnostics."),
        click.option("-o", "--output", type=click.Path(dir_okay=False), metavar="FILE",
                     help="Write the report here (atomically) instead of standard output."),
    )):
        f = option(f)
    return f


def refuse_output_over_inputs(output: str, paths: tuple[str, ...]) -> None:
    """A usage error (exit 2) when ``-o`` names an input, or a record file a
    folder given as input would be searched for: never overwrite what is read."""
    import os

    from pitchcli.pipeline.walk import RECORD_SUFFIXES
    out = os.path.abspath(output)
    name = os.path.basename(out)
    for p in paths:
        if p == "-":
            continue
        try:
            if os.path.exists(output) and os.path.samefile(p, output):
                raise click.UsageError(f"-o {escape.text(output)} is an input; write the report elsewhere")
        except OSError:
            continue
        folder = os.path.abspath(p)
        if (os.path.isdir(p) and out.startswith(folder.rstrip(os.sep) + os.sep)
                and name.endswith(RECORD_SUFFIXES) and not name.startswith(".")):  # as the walk reads
            raise click.UsageError(f"-o {escape.text(output)} is in {escape.text(p)}, which is read for records; "
                                   f"write the report elsewhere")


def format_option(registry: Mapping[str, object], default: str, help: str | None = None) -> Callable[[F], F]:
    """``--format``, its choices the keys of the command's renderer registry
    (``pitchcli.render.formats``), in order: a new format is one entry there."""
    return click.option("--format", "fmt", type=click.Choice(list(registry)), default=default, show_default=True,
                        help=help)


def variant_option(**kwargs: Any) -> Callable[[F], F]:
    """``--variant``: one of the built-in rule profiles."""
    return click.option("--variant", required=True, type=click.Choice(sorted(builtin_profiles())), **kwargs)


def complete_profiles(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of a profile name."""
    return [n for n in builtin_profiles() if n.startswith(incomplete)]


def complete_rules(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of a rule id (any case typed)."""
    from pitchcli.views.reference import rules
    return [r for r in rules() if r.startswith(incomplete.upper())]


def complete_codes(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of a diagnostic code (any case typed)."""
    from pitchcli.diagnostics import CODES
    return [c for c in CODES if c.startswith(incomplete.upper())]
