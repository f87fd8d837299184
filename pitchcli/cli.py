"""The ``pitch`` command line: the group, its version and its ``--color``; the
commands are in ``pitchcli.commands``, one module each (options -> the command
driver -> the exit status). No rule of the game lives here."""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator, MutableMapping
from typing import Any

import click

from pitchcli import __version__
from pitchcli.commands.common import COLOR_HELP, COLORS, apply_color
from pitchcli.gcpolicy import set_batch
from pitchcli.guard import run_guarded
from pitchcli.program import claim

# Every command, by name: its module in ``pitchcli.commands`` (of the same name)
# is imported only when the command is looked up (``_Commands``).
COMMANDS = ("validate", "simulate", "schema", "profiles", "rules", "explain", "score", "replay", "solve", "fmt",
            "new", "summarize", "merge", "report", "chart", "ratings", "find", "convert", "cat", "split", "dedup")


class _Commands(MutableMapping[str, click.Command]):
    """The group's commands, each imported when first looked up: the lazy
    subcommands of Click's docs ("Lazily Loading Subcommands"), kept as the
    group's ``commands`` mapping, so that ``pitch validate FILE`` imports one
    command module, not twenty-one, and ``--help``, completion and whatever
    reads ``main.commands`` see every command as before."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self._names = list(names)
        self._loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        found = self._loaded.get(name)
        if found is None:
            if name not in self._names:
                raise KeyError(name)
            found = self._loaded[name] = importlib.import_module(f"pitchcli.commands.{name}").command
        return found

    def __setitem__(self, name: str, command: click.Command) -> None:
        if name not in self._names:
            self._names.append(name)
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        self._names.remove(name)
        self._loaded.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

BLAS_THREADS = "OPENBLAS_NUM_THREADS"

# The engine, the loader and the writers are imported by the commands that use
# them, when they run: `pitch --help` and a usage error need none of them (start-up).


class _Pitch(click.Group):
    """The ``pitch`` group: every command runs under ``pitchcli.guard`` (signals,
    an output that can't be written, a broken pipe: one mechanism, here)."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; exit with its status (see ``run_guarded``)."""
        return run_guarded(lambda: super(_Pitch, self).invoke(ctx))


@click.group(cls=_Pitch, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pitch")
@click.option("--color", "color", type=click.Choice(COLORS), default="auto", show_default=True, help=COLOR_HELP)
def main(color: str) -> None:
    """Validate, score, replay and summarize records of the card game Pitch.

    Exit status: 0 ok, 1 a record is invalid (or a check failed), 2 usage
    error, 3 an input could not be read (or an output written).
    """
    set_batch()  # the cycle collector's thresholds for a batch (gcpolicy: why)
    claim()  # the process is the program's: record.rs imports jsonschema_rs without email.utils
    # numpy's OpenBLAS starts a thread per core when numpy is imported, and they
    # spin a while: about 0.05 s of CPU a run (measured, issue 22), for a library
    # the quick pass never calls (no matrix product anywhere). The program owns
    # its process, so it asks for one thread before numpy loads; a user's own
    # setting stands. (The library, ``import pitchcli``, leaves its host alone.)
    os.environ.setdefault(BLAS_THREADS, "1")
    apply_color(color)  # a subcommand's own --color, parsed after this, overrides it


main.commands = _Commands(COMMANDS)  # (Click's Group reads ``commands`` as a mapping)
