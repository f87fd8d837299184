"""``pitch simulate``: random legal games, written as records."""

from __future__ import annotations

import sys
from typing import TextIO

import click

from pitchcli.commands.common import OUTPUT_PATH, color_option, examples, variant_option, writing
from pitchcli.commands.fmt import FORMATS_OUT
from pitchcli.profiles import resolve


@click.command(epilog=examples(
    "pitch simulate --variant auction --seed 7",
    "pitch simulate --variant ten-point-5 --games 100 --format jsonl -o games.jsonl",
))
@variant_option(help="The rule profile.")
@click.option("--players", type=click.IntRange(2, 8), help="Number of players (default: 4 if allowed).")
@click.option("--games", type=click.IntRange(1), default=1, show_default=True)
@click.option("--seed", type=int, help="Seed for a reproducible run.")
@click.option("--format", "fmt", type=click.Choice(FORMATS_OUT), default="yaml", show_default=True)
@click.option("-o", "--output", type=OUTPUT_PATH,
              help="Write here (atomically) instead of standard output.")
@click.option("--progress/--no-progress", default=None,
              help="A progress bar on standard error (default: when it is a terminal).")
@color_option
def simulate(variant: str, players: int | None, games: int, seed: int | None, fmt: str,
             output: str | None, progress: bool | None) -> None:
    """Random legal games, written as records; the same seed gives the same games."""
    import random

    from pitchcli.pipeline.simulate import simulate_game
    from pitchcli.progress import Progress
    from pitchcli.record.write import atomic_output, canonical, dump

    profile = resolve(variant)
    if players is not None and players not in profile.players:
        raise click.BadParameter(f"profile {variant} is for {', '.join(map(str, profile.players))} "
                                 f"players", param_hint="--players")
    rng = random.Random(seed)
    bar = Progress(progress if progress is not None else sys.stderr.isatty(), sys.stderr,
                   label="simulate", item="games", total_items=games)

    def emit(out: TextIO) -> None:
        for i in range(games):
            rec = canonical(simulate_game(variant, players, rng=rng, game_id=f"sim-{seed}-{i + 1}"))
            if fmt == "yaml":
                out.write("---\n" if games > 1 else "")  # a YAML stream: each record after its own ---
            out.write(dump([rec], "jsonl" if fmt == "jsonl" else fmt))
            bar.tick()
        bar.close()

    if output:
        with writing(output), atomic_output(output) as f:
            emit(f)
    else:
        emit(sys.stdout)


command = simulate
