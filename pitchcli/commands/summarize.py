"""``pitch summarize``: standings and game rows over many records; the output
options and the output it shares with ``pitch merge``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

import click

from pitchcli import escape
from pitchcli.commands.common import (
    INPUT_PATH,
    OUTPUT_PATH,
    F,
    color_option,
    examples,
    format_option,
    judging,
    not_an_input,
    writing,
)
from pitchcli.diagnostics import DEFAULT_MAX_ROWS
from pitchcli.render.formats import SUMMARY

if TYPE_CHECKING:  # (the summary is imported when a command runs: start-up)
    from pitchcli.pipeline.cluster import Tls
    from pitchcli.pipeline.lint import Judge
    from pitchcli.progress import Progress
    from pitchcli.render.summary import SummaryRenderer
    from pitchcli.views.summary import Summary


def summary_options(f: F) -> F:
    """The output options ``summarize`` and ``merge`` share."""
    options = [
        format_option(SUMMARY, "table",
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
        click.option("-o", "--output", type=OUTPUT_PATH,
                     help="Write here (atomically) instead of standard output."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def games_shown(fmt: str, standings: bool, games: bool | None) -> bool:
    """Whether the game rows are shown: by default, except in a format of one
    table (CSV) with the standings."""
    one_table = SUMMARY[fmt].load().one_table
    if games is None:
        return not one_table or not standings
    if one_table and standings and games:
        raise click.UsageError(f"{fmt} holds one table: --no-standings --games for the game rows")
    return games


def _written(s: Summary, out: TextIO, fmt: str, write: Callable[[SummaryRenderer], None] | None) -> bool:
    """``write`` the summary with ``fmt``'s renderer (None: the partial summary);
    whether the problems were left out of it, for standard error."""
    if write is None:
        from pitchcli.render.summary import write_partial
        write_partial(s, out)
        return False
    renderer = SUMMARY[fmt](out)
    write(renderer)
    return bool(renderer.one_table)


def summary_out(s: Summary, fmt: str, output: str | None, allow_invalid: bool,
                write: Callable[[SummaryRenderer], None] | None) -> None:
    """Write the summary to ``output`` (atomically) or standard output, with
    ``write`` (None: the partial summary); a format of one table (CSV) leaves
    the problems (file:line:col: CODE ...) to standard error, after it. Exit
    with the summary's status."""
    if output:
        from pitchcli.record.write import atomic_output
        with writing(output), atomic_output(output) as f:
            apart = _written(s, f, fmt, write)
    else:
        apart = _written(s, sys.stdout, fmt, write)
    if apart:
        from pitchcli.render.summary import problem_text
        sys.stdout.flush()
        for p in s.problems:
            click.echo(problem_text(p), err=True)
    sys.exit(s.exit_code(allow_invalid))


def report_out(s: Summary, fmt: str, standings: bool, games: bool | None, partial: bool, output: str | None,
               allow_invalid: bool) -> None:
    """``summary_out`` of the report (or, ``partial``, the partial summary)."""
    if partial:
        summary_out(s, fmt, output, allow_invalid, None)
        return
    shown = games_shown(fmt, standings, games)
    summary_out(s, fmt, output, allow_invalid, lambda renderer: renderer.report(s, standings, shown))


@click.command(epilog=examples(
    "pitch summarize samples/tournament",
    "pitch summarize --format csv archive/ > standings.csv",
    "pitch summarize --jobs 0 --partial -o part.json shard/",
))
@click.argument("paths", nargs=-1, required=True, type=INPUT_PATH)
@summary_options
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
@click.option("--cluster-tls-ca", metavar="FILE", type=click.Path(dir_okay=False),
              help="With --cluster tls://HOST:PORT (or local[:N]): the CA certificate (PEM) that signed the "
                   "cluster's certificates. tcp:// has no authentication: see the README's \"Who can run "
                   "code where\".")
@click.option("--cluster-tls-cert", metavar="FILE", type=click.Path(dir_okay=False),
              help="With --cluster-tls-ca: this client's certificate (PEM), signed by that CA.")
@click.option("--cluster-tls-key", metavar="FILE", type=click.Path(dir_okay=False),
              help="With --cluster-tls-cert: its private key (PEM), when not in the certificate's file.")
@click.option("--by", type=click.Choice(["event", "round"]), default="event", show_default=True,
              help="round: each event's standings after each of its rounds (a round is a night's: its "
                   "date and number; read in one process; no game rows, no --partial).")
@judging
@color_option
def summarize(paths: tuple[str, ...], fmt: str, standings: bool, games: bool | None, max_rows: int,
              allow_invalid: bool, partial: bool, output: str | None, jobs: int, progress: bool | None,
              cluster: str | None, cluster_timeout: float, cluster_tls_ca: str | None,
              cluster_tls_cert: str | None, cluster_tls_key: str | None, by: str, judge: Judge) -> None:
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
    not_an_input(output, paths)
    from pitchcli.views.summarize import Progress, summarize_paths
    bar = Progress(progress if progress is not None else sys.stderr.isatty(),
                   sys.stderr)
    if by == "round":
        if cluster is not None:
            raise click.UsageError("--by round reads in one process: not with --cluster")
        _summarize_rounds(paths, fmt, partial, games, max_rows, output, allow_invalid, bar, judge)
        return
    keep = games is not False if partial else games_shown(fmt, standings, games)
    tls = _tls(cluster, cluster_tls_ca, cluster_tls_cert, cluster_tls_key)
    try:
        if cluster is not None:
            s = _on_cluster(paths, cluster, jobs, max_rows or None, keep, bar, cluster_timeout, output, judge, tls)
        else:
            s = summarize_paths(paths, jobs=jobs or os.cpu_count() or 1, limit=max_rows or None,
                                keep_games=keep, progress=bar, output=output, judge=judge)
    except WorkerDied as e:
        click.echo(escape.text(f"summarize: {e}; no summary written"), err=True)
        sys.exit(3)
    report_out(s, fmt, standings, games, partial, output, allow_invalid)


def _tls(cluster: str | None, ca: str | None, cert: str | None, key: str | None) -> Tls | None:
    """The --cluster-tls-* options as one ``Tls``, or None when none is given."""
    if ca is None and cert is None and key is None:
        return None
    if cluster is None:
        raise click.UsageError("--cluster-tls-* go with --cluster")
    if ca is None or cert is None:
        raise click.UsageError("--cluster-tls-ca and --cluster-tls-cert go together (and --cluster-tls-key "
                               "when the key is a file of its own)")
    from pitchcli.pipeline.cluster import Tls
    return Tls(ca, cert, key)


def _on_cluster(paths: tuple[str, ...], address: str, jobs: int, limit: int | None, keep: bool, bar: Progress,
                timeout: float, output: str | None, judge: Judge, tls: Tls | None) -> Summary:
    from pitchcli.pipeline.cluster import ClusterError
    from pitchcli.views.summarize import summarize_on_cluster
    if jobs != 1:
        raise click.UsageError("--jobs and --cluster: choose one (the cluster's workers are the jobs)")
    try:
        return summarize_on_cluster(paths, address, limit, keep, bar, timeout, output, tls=tls, judge=judge)
    except ClusterError as e:
        click.echo(escape.text(f"pitch summarize: {e}"), err=True)
        sys.exit(e.code)


def _summarize_rounds(paths: tuple[str, ...], fmt: str, partial: bool, games: bool | None, max_rows: int,
                      output: str | None, allow_invalid: bool, bar: Progress, judge: Judge) -> None:
    from pitchcli.views.summarize import summarize_by_round
    from pitchcli.views.summary import after_each_round
    if partial or games:
        raise click.UsageError("--by round writes standings only: not with --partial or --games")
    s, rounds = summarize_by_round(paths, limit=max_rows or None, progress=bar, judge=judge)
    after = after_each_round(rounds)
    summary_out(s, fmt, output, allow_invalid, lambda renderer: renderer.rounds(s, after))


command = summarize
