"""``pitch new``: a blank record to fill in at the table."""

from __future__ import annotations

import click

from pitchcli.commands.common import OUTPUT_PATH, color_option, examples, variant_option, writing


@click.command(epilog=examples(
    "pitch new --variant auction --players Ann,Ben,Cal,Dot -o game.pitch.yaml",
    "pitch new --variant ten-point --players Ann,Ben,Cal,Dot --teams Us=Ann+Cal,Them=Ben+Dot",
))
@variant_option(help="The rule profile.")
@click.option("--players", required=True, help="The players in seat order, clockwise: Ann,Ben,Cal,Dot.")
@click.option("--teams", help="Fixed teams: Us=Ann+Cal,Them=Ben+Dot (default: by seat, named after "
                              "their members).")
@click.option("--dealer", help="Who deals the first hand (default: the first player).")
@click.option("--target", type=click.IntRange(1), help="Override the profile's target score.")
@click.option("--event", help="The event, such as a club ladder.")
@click.option("--date", help="The day, YYYY-MM-DD.")
@click.option("--schema", "schema_ref",
              help="Write a first line `# yaml-language-server: $schema=REF` for editors: a path relative "
                   "to the file, such as ../schemas/pitch-record-1.schema.json (default: none; editors "
                   "can map *.pitch.yaml to the schema instead).")
@click.option("-o", "--output", type=OUTPUT_PATH,
              help="Write here instead of standard output.")
@click.option("--force", is_flag=True, help="Overwrite --output if it exists.")
@color_option
def new(variant: str, players: str, teams: str | None, dealer: str | None, target: int | None,
        event: str | None, date: str | None, schema_ref: str | None, output: str | None, force: bool) -> None:
    """A blank record to fill in at the table: a template with the players,
    the teams, and a first hand with its dealer and empty bids and tricks.

    It loads and passes the schema; `pitch validate` reports hand 1 as
    incomplete until its bids are written.
    """
    from pathlib import Path

    from pitchcli.record.write import write_atomic
    from pitchcli.render import records as formatting
    names = [p.strip() for p in players.split(",") if p.strip()]
    try:
        team_map = formatting.parse_teams(teams) if teams else None
        text = formatting.new_text(variant, names, team_map, dealer, target, event, date, schema_ref)
    except formatting.NewError as e:
        raise click.UsageError(str(e)) from None
    if output is None:
        click.echo(text, nl=False)
        return
    if Path(output).exists() and not force:
        raise click.UsageError(f"{output} exists; use --force to overwrite it")
    with writing(output):
        write_atomic(output, text)


command = new
