"""``pitch schema``: the JSON Schema of the record format."""

from __future__ import annotations

import json

import click

from pitchcli.commands.common import color_option, examples


@click.command("schema", epilog=examples("pitch schema > pitch-record-1.schema.json", "pitch schema --path"))
@click.option("--path", "show_path", is_flag=True,
              help="Print where the installed schema file is (for a $schema reference), not the schema.")
@color_option
def schema(show_path: bool) -> None:
    """Print the JSON Schema of the record format."""
    if show_path:
        from pitchcli.render.records import schema_path
        click.echo(str(schema_path().resolve()))
        return
    from pitchcli.record import schema as record_schema

    click.echo(json.dumps(record_schema.load_schema(), ensure_ascii=False, indent=2))


command = schema
