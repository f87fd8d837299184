"""The ``pitch`` command line: thin Click commands that parse options, call the
library and choose the exit status. No rule of the game lives here."""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

import click

from pitchcli import __version__, escape
from pitchcli.diagnostics import DEFAULT_MAX_ERRORS, DEFAULT_MAX_ROWS
from pitchcli.guard import run_guarded
from pitchcli.profiles import ProfileError, builtin_profiles, resolve

# The engine, the loader and the writers are imported by the commands that use
# them, not here: `pitch --help` and a usage error need none of them (start-up).

FORMATS_OUT = ("yaml", "json", "jsonl")


def examples(*commands: str) -> str:
    """The epilog of a command's --help: real examples, one per line (Click's
    ``\\b`` keeps the lines as they are written)."""
    return "\b\nExamples:\n" + "\n".join(f"  {c}" for c in commands)


def _complete_profiles(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of a profile name."""
    return [n for n in builtin_profiles() if n.startswith(incomplete)]


def _complete_rules(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of a rule id (any case typed)."""
    from pitchcli.views.reference import rules
    return [r for r in rules() if r.startswith(incomplete.upper())]


def _complete_codes(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Shell completion of a diagnostic code (any case typed)."""
    from pitchcli.diagnostics import CODES
    return [c for c in CODES if c.startswith(incomplete.upper())]


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


class _Pitch(click.Group):
    """The ``pitch`` group: every command runs under ``pitchcli.guard`` (signals,
    an output that can't be written, a broken pipe: one mechanism, here)."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; exit with its status (see ``run_guarded``)."""
        return run_guarded(lambda: super(_Pitch, self).invoke(ctx))


@click.group(cls=_Pitch, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pitch")
@click.option("--color", "color", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True, help="Colour errors, warnings, codes, made and set: auto is on a terminal "
                                      "only, and off when NO_COLOR is set.")
def main(color: str) -> None:
    """Validate, score, replay and summarize records of the card game Pitch.

    Exit status: 0 ok, 1 a record is invalid (or a check failed), 2 usage
    error, 3 an input could not be read (or an output written).
    """
    # A batch allocates many short-lived objects freed by reference counting;
    # the default generation-0 threshold (700) runs the cycle collector far more
    # often than needed (measured: about 8% of the engine's time on 300 games).
    gc.set_threshold(20_000, 50, 100)
    from pitchcli.render import style
    style.enable(style.decide(color, sys.stdout))


# validate, score, replay, solve and fmt: the same cap on a record's diagnostics.
max_errors_option = click.option(
    "--max-errors", type=click.IntRange(0), default=DEFAULT_MAX_ERRORS, show_default=True,
    help="Diagnostics shown per document, the first in document order (0: all); a last line "
         "says how many more there were. The counts and the exit status include them all.")


@main.command(epilog=examples(
    "pitch validate samples/",
    "pitch validate --format github records/*.yaml",
    "pitch validate --format json - < game.yaml",
))
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json", "github", "sarif"]), default="text",
              show_default=True,
              help="text: file:line:col: error: CODE [RULE] message; json: the versioned report; github: "
                   "workflow annotations (::error file=...); sarif: SARIF 2.1.0 for code scanning.")
@click.option("--strict", is_flag=True, help="Warnings fail too.")
@click.option("-q", "--quiet", is_flag=True, help="No summary line.")
@max_errors_option
def validate(paths: tuple[str, ...], fmt: str, strict: bool, quiet: bool, max_errors: int) -> None:
    """Check records: the schema, then every rule of the game.

    PATHS are files, folders (searched recursively for .yaml .yml .json .jsonl
    .ndjson) or - for standard input.
    """
    from pitchcli.pipeline.check import check_paths
    from pitchcli.render.validate import renderers

    # The verdict is all validate shows: the engine's quick pass may decide a clean game.
    checked = check_paths(paths, max_errors=max_errors or None, quick=True)
    tally = renderers()[fmt](checked, sys.stdout, strict, quiet)
    sys.exit(tally.exit_code())


@main.command(epilog=examples(
    "pitch simulate --variant auction --seed 7",
    "pitch simulate --variant ten-point-5 --games 100 --format jsonl -o games.jsonl",
))
@click.option("--variant", required=True, type=click.Choice(sorted(builtin_profiles())),
              help="The rule profile.")
@click.option("--players", type=click.IntRange(2, 8), help="Number of players (default: 4 if allowed).")
@click.option("--games", type=click.IntRange(1), default=1, show_default=True)
@click.option("--seed", type=int, help="Seed for a reproducible run.")
@click.option("--format", "fmt", type=click.Choice(FORMATS_OUT), default="yaml", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write here (atomically) instead of standard output.")
@click.option("--progress/--no-progress", default=None,
              help="A progress bar on standard error (default: when it is a terminal).")
def simulate(variant: str, players: int | None, games: int, seed: int | None, fmt: str,
             output: str | None, progress: bool | None) -> None:
    """Random legal games, written as records; the same seed gives the same games."""
    import random

    from pitchcli.pipeline.simulate import simulate_game
    from pitchcli.record.write import atomic_output, canonical, dump

    profile = resolve(variant)
    if players is not None and players not in profile.players:
        raise click.BadParameter(f"profile {variant} is for {', '.join(map(str, profile.players))} "
                                 f"players", param_hint="--players")
    rng = random.Random(seed)
    from pitchcli.progress import Progress
    bar = Progress(progress if progress is not None else sys.stderr.isatty(), sys.stderr,
                   label="simulate", item="games", total_items=games)

    def emit(out: TextIO) -> None:
        for i in range(games):
            rec = canonical(simulate_game(variant, players, rng=rng, game_id=f"sim-{seed}-{i + 1}"))
            if fmt == "yaml":
                out.write("---\n" if games > 1 else "")
            out.write(dump([rec], "jsonl" if fmt == "jsonl" else fmt))
            bar.tick()
        bar.close()

    if output:
        with writing(output), atomic_output(output) as f:
            emit(f)
    else:
        emit(sys.stdout)


@main.command("schema", epilog=examples("pitch schema > pitch-record-1.schema.json", "pitch schema --path"))
@click.option("--path", "show_path", is_flag=True,
              help="Print where the installed schema file is (for a $schema reference), not the schema.")
def schema_cmd(show_path: bool) -> None:
    """Print the JSON Schema of the record format."""
    if show_path:
        from pitchcli.render.records import schema_path
        click.echo(str(schema_path().resolve()))
        return
    from pitchcli.record import schema

    click.echo(json.dumps(schema.load_schema(), ensure_ascii=False, indent=2))


@main.command(epilog=examples(
    "pitch profiles",
    "pitch profiles auction-partners",
    "pitch profiles ten-point --format json",
))
@click.argument("name", required=False, shell_complete=_complete_profiles)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: every option of every profile shown, as a mapping.")
def profiles(name: str | None, fmt: str) -> None:
    """List the built-in rule profiles, or show every option of one and its value.

    """
    from pitchcli.views import reference
    try:
        shown = [resolve(name)] if name else list(builtin_profiles().values())
    except ProfileError as e:
        raise click.BadParameter(str(e), param_hint="NAME") from None
    if fmt == "json":
        data = {p.name: reference.profile_options(p) for p in shown}
        click.echo(json.dumps(data[shown[0].name] if name else data, indent=2))
        return
    for p in shown:
        click.echo(reference.profile_text(p) if name else reference.profile_line(p), nl=not name)


@main.command(epilog=examples("pitch rules", "pitch rules AP-PLAY-2", "pitch rules TP4-5 TP5-3 --format json"))
@click.argument("ids", nargs=-1, shell_complete=_complete_rules)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules(ids: tuple[str, ...], fmt: str) -> None:
    """Print the rules with these ids, or list every rule.

    The ids are those diagnostics cite in brackets: R407 [AP-PLAY-2].

    """
    from pitchcli.views import reference
    try:
        found = [reference.find_rule(i) for i in ids]
    except reference.NotFound as e:
        raise click.BadParameter(str(e), param_hint="ID") from None
    if fmt == "json":
        click.echo(json.dumps([reference.rule_json(r) for r in (found or reference.rules().values())],
                              ensure_ascii=False, indent=2))
    elif not found:
        click.echo(reference.rules_list(), nl=False)
    else:
        click.echo("\n".join(reference.rule_text(r) for r in found), nl=False)


@main.command(epilog=examples("pitch explain R407", "pitch explain S201 C502", "pitch explain"))
@click.argument("codes", nargs=-1, shell_complete=_complete_codes)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def explain(codes: tuple[str, ...], fmt: str) -> None:
    """Explain diagnostic codes: what each means, how to fix it, an example;
    with no code, list them all.

    """
    from pitchcli.views import reference
    try:
        found = [reference.find_code(c) for c in codes]
    except reference.NotFound as e:
        raise click.BadParameter(str(e), param_hint="CODE") from None
    if fmt == "json":
        click.echo(json.dumps([reference.code_json(c) for c in (found or reference.codes().values())],
                              ensure_ascii=False, indent=2))
    elif not found:
        click.echo(reference.codes_list(), nl=False)
    else:
        click.echo("\n".join(reference.code_text(c) for c in found), nl=False)


# --- score, replay, fmt, new: reading a game and showing or writing it -------


@main.command(epilog=examples(
    "pitch score samples/auction-full.yaml",
    "pitch score --explain --hand 2 samples/auction-full.yaml",
    "pitch score --check --format csv samples/",
))
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--hand", type=click.IntRange(1), help="Only this hand (numbered from 1).")
@click.option("--explain", is_flag=True, help="Say why each point went where it did, citing the rule ids.")
@click.option("--check", is_flag=True,
              help="Fail (exit 1) when a recorded value the engine derives (points, score, totals, "
                   "result, contract, trump, partner, leader) disagrees; show both values.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text", show_default=True,
              help="text: tables and sentences; json: the versioned report; csv: one row per hand and "
                   "player (or team).")
@max_errors_option
def score(paths: tuple[str, ...], hand: int | None, explain: bool, check: bool, fmt: str,
          max_errors: int) -> None:
    """Score games hand by hand: the contract, who took which point, made or
    set, the score changes, the running totals and the winner.

    Works on every detail level (full, play, tally). An invalid record is not
    scored: its diagnostics go to standard error (exit 1).
    """
    from pitchcli.pipeline.check import check_paths
    from pitchcli.render import scoresheet
    status = scoresheet.run(check_paths(paths, max_errors=max_errors or None), sys.stdout,
                            sys.stderr, hand, explain, check, fmt)
    sys.exit(status)


@main.command(epilog=examples(
    "pitch replay samples/auction-full.yaml",
    "pitch replay --hand 1 samples/ten-point.yaml",
    "pitch replay --format json samples/ten-point-5.yaml",
))
@click.argument("path", type=click.Path())
@click.option("--hand", type=click.IntRange(1), help="Only this hand (numbered from 1).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: sentences; json: an event stream, one JSON object per line (see "
                   "docs/score-replay-fmt.md).")
@max_errors_option
def replay(path: str, hand: int | None, fmt: str, max_errors: int) -> None:
    """Replay a game: the auction call by call, then every trick (who led, who
    played what, who won it and why, what was captured) and the points.

    Tally hands (no cards) can be scored but not replayed: the replay says so.
    """
    from pitchcli.pipeline.check import check_paths
    from pitchcli.views import replay as replaying
    status = replaying.run(check_paths([path], max_errors=max_errors or None), sys.stdout,
                           sys.stderr, hand, fmt)
    sys.exit(status)


@main.command("solve", epilog=examples(
    "pitch solve samples/auction-full.yaml",
    "pitch solve --hand 2 --format json samples/auction-full.yaml",
))
@click.argument("path", type=click.Path())
@click.option("--hand", type=click.IntRange(1), help="Only this hand (numbered from 1).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: a sentence per hand and per costly card; json: the versioned report.")
@click.option("--budget", type=click.IntRange(1), default=None,
              help="Nodes (cards played in the search) per hand before giving up with bounds "
                   "[default: 1,000,000].")
@max_errors_option
def solve_cmd(path: str, hand: int | None, fmt: str, budget: int | None, max_errors: int) -> None:
    """Could the bid have been made, and which card lost it?

    With every card face up and everyone playing perfectly, the bidding side
    against all the others together: the most points it could be sure of
    (in Auction Pitch with the trump as played, and with the best first lead),
    whether that makes the bid, and each recorded card after which it changed,
    with a card that would have kept it. Hands without cards (tallies) can't
    be solved; the output says so.
    """
    from pitchcli.engine.solve import DEFAULT_BUDGET
    from pitchcli.pipeline.check import check_paths
    from pitchcli.views import solve as solving
    status = solving.run(check_paths([path], max_errors=max_errors or None), sys.stdout, sys.stderr, hand, fmt,
                         budget or DEFAULT_BUDGET)
    sys.exit(status)


@main.command("fmt", epilog=examples(
    "pitch fmt samples/auction-play.yaml",
    "pitch fmt --check samples/",
    "pitch fmt --fill --to json -o game.json game.yaml",
))
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write every input here (atomically) instead of standard output.")
@click.option("--to", type=click.Choice(["yaml", "json", "jsonl"]),
              help="Output format (default: the input's, or the suffix of --output).")
@click.option("--check", is_flag=True, help="Write nothing; list the files that are not canonical (exit 1).")
@click.option("-i", "--in-place", is_flag=True, help="Rewrite each file in its canonical form, atomically.")
@click.option("--fill", is_flag=True,
              help="Also write what the engine derives: trump, called partners, trick leaders, points, score, "
                   "totals, result.")
@max_errors_option
def fmt_cmd(paths: tuple[str, ...], output: str | None, to: str | None, check: bool, in_place: bool,
            fill: bool, max_errors: int) -> None:
    """Write records in the canonical form (fixed key order, canonical cards).

    Formatting a canonical record changes nothing, and an invalid record is
    never formatted (its diagnostics go to standard error, exit 1): fmt does
    not repair. Comments are kept (YAML output): a comment line before the
    key or item it precedes, an end-of-line comment on its line.
    """
    from pitchcli.render import records as formatting
    if sum((check, in_place, output is not None)) > 1:
        raise click.UsageError("--check, --in-place and --output go one at a time")
    if in_place and "-" in paths:
        raise click.UsageError("--in-place needs files, not standard input")
    if in_place and to:
        raise click.UsageError("--in-place keeps each file's format; use --output to convert")
    status = formatting.run(paths, sys.stdout, sys.stderr,
                            output, to, check, in_place, fill, sys.stdin.buffer, max_errors or None)
    sys.exit(status)


@main.command(epilog=examples(
    "pitch new --variant auction --players Ann,Ben,Cal,Dot -o game.pitch.yaml",
    "pitch new --variant ten-point --players Ann,Ben,Cal,Dot --teams Us=Ann+Cal,Them=Ben+Dot",
))
@click.option("--variant", required=True, type=click.Choice(sorted(builtin_profiles())), help="The rule profile.")
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
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write here instead of standard output.")
@click.option("--force", is_flag=True, help="Overwrite --output if it exists.")
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


# --- summarize, merge: standings over many games -------------------------------

SUMMARY_FORMATS = ("table", "csv", "json", "markdown")


def _summary_options(f):  # type: ignore[no-untyped-def]
    """The output options ``summarize`` and ``merge`` share."""
    options = [
        click.option("--format", "fmt", type=click.Choice(SUMMARY_FORMATS), default="table", show_default=True,
                     help="table: text tables; markdown: the same as Markdown; json: the versioned report; "
                          "csv: one table (the standings, or the game rows with --no-standings --games)."),
        click.option("--standings/--no-standings", default=True, show_default=True,
                     help="Standings per event: the players, then the fixed teams."),
        click.option("--games/--no-games", default=None,
                     help="One row per game, by file then document (default: on, except with csv)."),
        click.option("--max-rows", type=click.IntRange(0), default=DEFAULT_MAX_ROWS, show_default=True,
                     help="Keep at most this many game rows, and as many problems: the first by file and "
                          "document (0: all; memory then grows with the number of games)."),
        click.option("--allow-invalid", is_flag=True,
                     help="Exit 0 even when some records are invalid (they are still listed, and never "
                          "counted in the standings)."),
        click.option("--partial", is_flag=True,
                     help="Write the mergeable partial summary (JSON, format pitch-summary-partial version 1) "
                          "instead of a report; `pitch merge` reads it."),
        click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
                     help="Write here (atomically) instead of standard output."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _summary_out(s, fmt: str, standings: bool, games: bool | None, partial: bool,  # type: ignore[no-untyped-def]
                 output: str | None, allow_invalid: bool) -> None:
    from pitchcli.record.write import atomic_output
    from pitchcli.render.summary import write_summary
    games = True if partial else _games_shown(fmt, standings, games)
    if output:
        with writing(output), atomic_output(output) as f:
            write_summary(s, f, fmt, standings, games, partial)
    else:
        write_summary(s, sys.stdout, fmt, standings, games, partial)
    if fmt == "csv" and not partial:
        # CSV holds one table: the problems (file:line:col: CODE ...) go to standard error.
        from pitchcli.render.summary import problem_text
        sys.stdout.flush()
        for p in s.problems:
            click.echo(problem_text(p), err=True)
    sys.exit(s.exit_code(allow_invalid))


def _games_shown(fmt: str, standings: bool, games: bool | None) -> bool:
    if games is None:
        return fmt != "csv" or not standings
    if fmt == "csv" and standings and games:
        raise click.UsageError("csv holds one table: --no-standings --games for the game rows")
    return games


@main.command(epilog=examples(
    "pitch summarize samples/tournament",
    "pitch summarize --format csv archive/ > standings.csv",
    "pitch summarize --jobs 0 --partial -o part.json shard/",
))
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@_summary_options
@click.option("-j", "--jobs", type=click.IntRange(0), default=1, show_default=True,
              help="Worker processes (0: one per CPU). Files are shared out, and a big JSON Lines file "
                   "or YAML stream is cut at document boundaries; the output is the same.")
@click.option("--progress/--no-progress", default=None,
              help="A progress bar on standard error: files, bytes, documents, rate and time left "
                   "(default: when it is a terminal).")
@click.option("--cluster", metavar="ADDRESS",
              help="Run the pieces of --jobs on a Dask cluster: tcp://HOST:PORT of a running dask.distributed "
                   "scheduler, or local[:N] for N worker processes here (default N: one per CPU); the output "
                   "is the same. Needs pip install 'pitchcli[dask]'. The workers open PATHS themselves: on "
                   "other machines they must see them at the same absolute path (a shared filesystem), with "
                   "the same pitchcli installed.")
@click.option("--cluster-timeout", type=click.FloatRange(0.1), default=30.0, show_default=True, metavar="SECONDS",
              help="With --cluster: give up (exit 3) when the scheduler does not answer, or no worker is "
                   "there, for this long.")
@click.option("--by", type=click.Choice(["event", "round"]), default="event", show_default=True,
              help="round: each event's standings after each of its rounds (read in one process; "
                   "no game rows, no --partial).")
def summarize(paths: tuple[str, ...], fmt: str, standings: bool, games: bool | None, max_rows: int,
              allow_invalid: bool, partial: bool, output: str | None, jobs: int, progress: bool | None,
              cluster: str | None, cluster_timeout: float, by: str) -> None:
    """Standings and game rows over many records: a club's events at a glance.

    PATHS are files, folders (searched recursively) or - for standard input;
    YAML streams and JSON Lines hold many games. Every record is validated as
    by `pitch validate`; only valid records count in the standings.

    \b
    Standings, per event (events by date, then name): games, wins, win %,
    hands, bids as pitcher/bidder, made, set, made %, average bid, score (the
    side's score changes) and points per hand; High, Low, Jack, Game taken
    (Auction Pitch) or points taken (ten-point), and hands as called partner.
    Order: wins, then win %, then points per hand (all descending), then name;
    equal figures share a rank. Fixed teams are known by their members.

    \b
    Then the game rows (by file, then document) and the problems: each invalid
    record with its first error (file:line:col: CODE message).

    Memory does not grow with the number of games. Exit status: 0 ok; 1 some
    record is invalid (unless --allow-invalid); 3 an input could not be read
    (or, with --cluster, the cluster could not be reached or was lost).
    """
    import os

    from pitchcli.pipeline.parallel import WorkerDied
    from pitchcli.views.summarize import Progress, summarize_paths
    bar = Progress(progress if progress is not None else sys.stderr.isatty(),
                   sys.stderr)
    if by == "round":
        if cluster is not None:
            raise click.UsageError("--by round reads in one process: not with --cluster")
        _summarize_rounds(paths, fmt, partial, games, max_rows, output, allow_invalid, bar)
        return
    keep = games is not False if partial else _games_shown(fmt, standings, games)
    try:
        if cluster is not None:
            s = _on_cluster(paths, cluster, jobs, max_rows or None, keep, bar, cluster_timeout, output)
        else:
            s = summarize_paths(paths, jobs=jobs or os.cpu_count() or 1, limit=max_rows or None,
                                keep_games=keep, progress=bar, output=output)
    except WorkerDied as e:
        click.echo(f"summarize: {e}; no summary written", err=True)
        sys.exit(3)
    _summary_out(s, fmt, standings, games, partial, output, allow_invalid)


def _on_cluster(paths, address: str, jobs: int, limit: int | None, keep: bool, bar,  # type: ignore[no-untyped-def]
                timeout: float, output: str | None):
    from pitchcli.pipeline.cluster import ClusterError
    from pitchcli.views.summarize import summarize_on_cluster
    if jobs != 1:
        raise click.UsageError("--jobs and --cluster: choose one (the cluster's workers are the jobs)")
    try:
        return summarize_on_cluster(paths, address, limit, keep, bar, timeout, output)
    except ClusterError as e:
        click.echo(f"pitch summarize: {e}", err=True)
        sys.exit(e.code)


def _summarize_rounds(paths: tuple[str, ...], fmt: str, partial: bool, games: bool | None, max_rows: int,
                      output: str | None, allow_invalid: bool, bar) -> None:  # type: ignore[no-untyped-def]
    from pitchcli.record.write import atomic_output
    from pitchcli.render.summary import problem_text, write_rounds
    from pitchcli.views.summarize import summarize_by_round
    from pitchcli.views.summary import after_each_round
    if partial or games:
        raise click.UsageError("--by round writes standings only: not with --partial or --games")
    s, rounds = summarize_by_round(paths, limit=max_rows or None, progress=bar)
    after = after_each_round(rounds)
    if output:
        with writing(output), atomic_output(output) as f:
            write_rounds(s, after, f, fmt)
    else:
        write_rounds(s, after, sys.stdout, fmt)
    if fmt == "csv":
        sys.stdout.flush()
        for p in s.problems:
            click.echo(problem_text(p), err=True)
    sys.exit(s.exit_code(allow_invalid))


@main.command(epilog=examples(
    "pitch merge part-*.json",
    "pitch merge --format markdown -o standings.md part-1.json part-2.json",
))
@click.argument("parts", nargs=-1, required=True, type=click.Path())
@_summary_options
def merge(parts: tuple[str, ...], fmt: str, standings: bool, games: bool | None, max_rows: int,
          allow_invalid: bool, partial: bool, output: str | None) -> None:
    """Merge partial summaries (`pitch summarize --partial -o part.json`).

    The output is the same as one `pitch summarize` over all the inputs of
    the parts (each document in one part only), whatever the order or grouping
    of the parts; --partial writes the merged partial summary. Exit status as
    summarize; 3 when a part can't be read.
    """
    from pitchcli.views.summarize import read_partial
    from pitchcli.views.summary import Summary, SummaryError, merge_all
    read: list[Summary] = []
    for name in parts:
        try:
            read.append(read_partial(name, sys.stdin.buffer if name == "-" else None))
        except (OSError, SummaryError) as e:
            click.echo(escape.text(f"{name}: {e}"), err=True)
            sys.exit(3)
    s = merge_all(read)
    if max_rows:
        s.merge(Summary(max_rows, s.keep_games))
    _summary_out(s, fmt, standings, games, partial, output, allow_invalid)


# --- report, chart, ratings: the organiser's night -------------------------------


@main.command("report", epilog=examples(
    "pitch report -o site/ samples/tournament",
    "pitch report --title 'Winter Setback Open' -o site/ samples/tournament/winter-setback-open",
))
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", "out_dir", required=True, type=click.Path(),
              help="The folder to write the site into (created if missing).")
@click.option("--title", default="Tournament report", show_default=True, help="The site's title.")
@click.option("--allow-invalid", is_flag=True, help="Exit 0 even when some records are invalid (they are listed).")
def report_cmd(paths: tuple[str, ...], out_dir: str, title: str, allow_invalid: bool) -> None:
    """A static HTML site of a tournament: index.html with the standings of
    every event (as `pitch summarize`), a page per event and per game (hand by
    hand, the tricks, a score-race chart). Self-contained: no script, no
    network; invalid records are listed with their diagnostics.

    Exit status: 0 written; 1 written, some record invalid (unless
    --allow-invalid); 3 an input could not be read or the site not written.
    """
    from pitchcli.render import site
    sys.exit(site.run(paths, out_dir, title, allow_invalid, sys.stderr))


@main.command("chart", epilog=examples(
    "pitch chart samples/auction-full.yaml",
    "pitch chart -o race.svg samples/ten-point.yaml",
))
@click.argument("path", type=click.Path())
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True),
              help="Write the SVG chart here (atomically).")
@max_errors_option
def chart_cmd(path: str, output: str | None, max_errors: int) -> None:
    """The score race of one game: a sparkline on the terminal, and with -o
    the SVG chart (each side's total after every hand, the target, the
    winning hand marked).

    Exit status: 0 drawn; 1 the record is invalid; 3 it could not be read or
    the chart not written.
    """
    from pitchcli.render import chart
    sys.exit(chart.run(path, output, sys.stdout, sys.stderr, max_errors or None))


@main.command("ratings", epilog=examples(
    "pitch ratings samples/tournament",
    "pitch ratings --since 2026-11-28 --head-to-head samples/tournament",
    "pitch ratings --format csv samples/tournament",
))
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True)
@click.option("--head-to-head", is_flag=True, help="Also (csv: instead) the results between each pair of players "
                                                    "or teams that met.")
@click.option("--since", metavar="DATE",
              help="The period the Change column is measured over: games dated DATE or later "
                   "(default: the last date, so Change is what the last night did).")
@click.option("--allow-invalid", is_flag=True, help="Exit 0 even when some records are invalid (never rated).")
def ratings_cmd(paths: tuple[str, ...], fmt: str, head_to_head: bool, since: str | None,
                allow_invalid: bool) -> None:
    """Player ratings over a league's games, in date order (openskill,
    Plackett-Luce; see the README): each player's games, rating (mu),
    uncertainty (sigma), the ordinal mu - 3 sigma ranked on, and its change
    over the period (--since). The same files give the same ratings, in
    whatever order they are named.

    Exit status: 0; 1 some record invalid (unless --allow-invalid); 3 an
    input could not be read.
    """
    from pitchcli.views import ratings
    sys.exit(ratings.run(paths, fmt, head_to_head, allow_invalid, sys.stdout, sys.stderr, since))
