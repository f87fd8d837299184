"""``pitch report``: a static tournament site from records.

One pass over the inputs: every document is checked as by ``pitch validate``
and counted in a ``Summary`` (the standings on the pages are the summary's own
tables, as ``pitch summarize`` prints them) and in its night's summary (the
standings after each night); every valid game becomes a ``GameView``
(``pitchcli.views.game``) for its page. The layout (``pitchcli.views.site``)
says which pages there are: ``index.html``, ``ratings.html``, a folder per
event (its ``index.html`` and a ``game-N.html`` per game) and
``players/NAME.html``. The pages are rendered (``pitchcli.render.templating``:
Jinja2, autoescaped; what a game page repeats hundreds of times, its hands
above all, joined in Python by ``render.fragments``) and written atomically.
Pages are self-contained: CSS and SVG inline, the one script (the standings'
sorting) inline and optional, every link relative and inside the folder. File
names are shown relative to the folder the inputs have in common, so the
organiser's own paths are not published.

Memory is bounded in the number of games: a game's whole view goes to a
spool on disk (``record.spool``) as soon as it is made, and only its entry
(``views.site.GameEntry``: the view without its hands) stays for the layout,
the ratings and the pages that list games; the summary itself is bounded as
in ``summarize``. The pages are made one at a time, each written to its
temporary file as it is made (``record.owned.write_owned_stream``); with
``jobs`` above 1 the game pages are made in worker processes
(``pipeline.parallel.Workers``), a few at a time, in the same order, so the
site is byte for byte the one ``jobs=1`` writes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, TextIO

from markupsafe import Markup

from pitchcli import __version__, escape
from pitchcli.diagnostics import ERROR
from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.driver import Consumer, write_first_errors
from pitchcli.record.owned import write_owned_stream
from pitchcli.record.spool import Spool
from pitchcli.record.write import OutputError
from pitchcli.render.chart import rating_svg, svg
from pitchcli.render.fragments import hand_rows, hand_sections
from pitchcli.render.summary import common_dir, event_title, standings_tables
from pitchcli.render.templating import render
from pitchcli.text import plural
from pitchcli.views.game import (
    DISPLAY_NAME,
    GameView,
    for_display,
    game_view,
    short_names,
    usable,
)
from pitchcli.views.ratings import rate_games
from pitchcli.views.site import (
    MAX_ROWS,
    MAX_TITLE,
    EventPage,
    GameEntry,
    GamePage,
    NightPage,
    PlayerPage,
    SiteLayout,
    brief,
    layout,
    short,
)
from pitchcli.views.summary import RoundKey, Summary, night_of, round_key

MAX_DIAGNOSTICS = 20  # shown per invalid record; the rest are counted


@dataclass
class Site:
    """What the pages are made of: the summary, the games (``GameEntry``, the
    whole views in ``spool``), the invalid records (without their content)."""

    title: str
    summary: Summary = field(default_factory=lambda: Summary(None, keep_games=False))
    nights: dict[RoundKey, Summary] = field(default_factory=dict)  # one summary per night
    games: list[GameEntry] = field(default_factory=list)
    invalid: list[Checked] = field(default_factory=list)
    invalid_events: list[str | None] = field(default_factory=list)  # the event each invalid record names
    spool: Spool = field(default_factory=Spool)
    shown: Any = None  # names as the pages show them (``_shown_name``), set by ``plan``

    def add(self, c: Checked) -> None:
        """Count one checked document; keep its view (valid, on disk) or its diagnostics."""
        self.summary.add_checked(c)
        key = night_of(round_key(c.data))
        if key not in self.nights:
            self.nights[key] = Summary(1, keep_games=False)
        self.nights[key].add_checked(c)
        if usable(c):
            v = game_view(c)
            self.games.append(brief(v, self.spool.put(v)))
        else:
            ev = c.data.get("event") if isinstance(c.data, dict) else None
            self.invalid_events.append(ev if isinstance(ev, str) else None)
            self.invalid.append(c.slim(MAX_DIAGNOSTICS))

    def view(self, g: GamePage) -> GameView:
        """The whole view of the game of page ``g``, hands and all."""
        return self.spool.get(g.key)  # type: ignore[no-any-return]


def collect(checked: Any, title: str = "Tournament report") -> Site:
    """A ``Site`` from checked documents."""
    site = Site(title)
    for c in checked:
        site.add(c)
    return site


# --- what the templates get ------------------------------------------------


def _final(v: GameView) -> str:
    return ", ".join(f"{u} {n}" for u, n in v.totals.items()) if v.totals else "unknown"


def _points(v: GameView) -> tuple[list[str], list[list[Any]]]:
    """The point columns of the hand table: one per Auction Pitch point when
    the engine awarded points (each cell a ``PointView`` or ``None``), else
    the points each side took (each cell text)."""
    if any(h.awards for h in v.hands):
        kinds = [a.kind for a in next(h.awards for h in v.hands if h.awards)]
        heads = [k.capitalize() for k in kinds]
        return heads, [[{a.kind: a for a in h.awards}.get(k) for k in kinds] for h in v.hands]
    return ["Points taken"], [[", ".join(f"{u} {n}" for u, n in h.taken.items())] for h in v.hands]


def _problem(c: Checked, under: str) -> dict[str, Any]:
    shown = c.diagnostics[:MAX_DIAGNOSTICS]
    where = _shown_path(c.file, under) + (f", document {c.number}" if c.index else "")
    if not c.diagnostics:
        return {"where": where, "lines": ["the record could not be read"], "more": 0}
    errors = sorted(shown, key=lambda d: d.severity != ERROR)
    # (more: those past the page's own limit, and those past --max-errors, counted not kept)
    return {"where": where, "lines": [_shown_path(d.as_text(), under) for d in errors],
            "more": len(c.diagnostics) - len(shown) + c.omitted}


def _shown_path(text: str, under: str) -> str:
    """``text`` (a file name, or a diagnostic starting with one) with the
    inputs' common folder cut off: the site shows where a record is in the
    tournament, not where the organiser keeps it."""
    return text[len(under):] if under and text.startswith(under) else text


def _shown_name(names: dict[str, str]) -> Any:
    """What a page shows for a name or label (``shown`` in the templates):
    a player's name as ``views.game.short_names`` cuts it (distinct), any
    other text (an event, a pair) cut to ``DISPLAY_NAME`` characters: a
    record's 55 KB name is not written whole on every page that lists it."""
    def shown(text: object) -> object:
        if not isinstance(text, str):
            return text
        return names.get(text) or (text if len(text) <= DISPLAY_NAME else escape.short(text, DISPLAY_NAME))
    return shown


@cache
def _stylesheet() -> Markup:
    """The site's CSS, inlined in every page (read once, not once a page)."""
    return Markup(files("pitchcli").joinpath("templates/style.css").read_text(encoding="utf-8"))


def _common(site: Site, prefix: str) -> dict[str, Any]:
    return {"css": _stylesheet(), "version": __version__, "site_title": site.title, "files": len(site.summary.files),
            "root": prefix,
            "short_title": short(site.title, MAX_TITLE - 10), "shown": site.shown}


def _event_page(site: Site, lay: SiteLayout, ev: EventPage, problems: list[dict[str, Any]], total: int) -> str:
    ctx = {"name": ev.name, "title": event_title(ev.summary, site.shown), "title_text": ev.title,
           "tables": standings_tables(ev.summary), "nights": ev.nights, "games": ev.games, "problems": problems,
           "problems_total": total,
           "split": ev.split, "night_link": ev.night_link,
           "after_nights": [] if ev.split else [(night, standings_tables(snap)) for night, snap in ev.after_nights]}
    return render("event.html.j2", ev=ctx, links=lay.player_links("../"), **_common(site, "../"))


def _shown(g: GamePage) -> GamePage:
    """A game page with its names and labels cut for display (``views.game.for_display``)."""
    return replace(g, view=for_display(g.view), event=short(g.event, DISPLAY_NAME))


def _as_link(g: GamePage) -> GamePage:
    """A game as a link to it reads it (its path, round and link text): ``g``
    itself when its round and table need no cutting for display (``_shown``
    cuts only labels longer than ``DISPLAY_NAME``, so the link says the same),
    else ``_shown(g)``. A page links to up to ``MAX_MATES`` games of its round:
    cutting each of them for display cut every name of each, some 10% of a
    game page's time, for links that say the same."""
    v = g.view
    if all(x is None or len(x) <= DISPLAY_NAME for x in (v.round, v.table)):
        return g
    return _shown(g)


def _game_page(site: Site, lay: SiteLayout, g: GamePage, under: str) -> str:
    # The page shows names cut short (a record's 55 KB name is not written on
    # every line); the layout, the ratings and the player pages keep whole names.
    v = site.view(g)
    whole = lay.player_links("../")
    cut = short_names([*v.players, *v.units, *v.teams])  # as for_display cuts them
    links = {cut[n]: whole[n] for n in v.players if n in whole}
    page = replace(_shown(replace(g, view=v)), previous=g.previous and _as_link(g.previous),
                   next=g.next and _as_link(g.next))
    shown = page.view
    heads, cells = _points(shown)
    ctx = {"page": page, "mates": [_as_link(o) for o in g.round_mates],
           "view": shown, "heading": page.heading, "final": _final(shown), "svg": svg(shown),
           "point_heads": heads, "hand_rows": hand_rows(shown, cells), "hand_sections": hand_sections(shown),
           "record": _shown_path(v.file, under)}
    try:
        return render("game.html.j2", g=ctx, links=links, **_common(site, "../"))
    finally:
        # A rendered template's context is a reference cycle (the macros are
        # imported "with context"), which only the collector frees: the page's
        # fragments (most of its 100-300 KB) are let go of now, not pages later
        # (measured: 7 MiB more address space over 250 games, tests/render/test_report_scale.py).
        ctx.clear()


def _player_pages(site: Site, lay: SiteLayout, p: PlayerPage) -> Iterator[tuple[str, str]]:
    history = p.rating.history if p.rating else []
    chart = rating_svg(p.name, history) if len(history) > 1 else None
    # A fixed team is rated as one side: its own rating after each of its games.
    team_charts = [(t, rating_svg(f"the team {site.shown(t.name)}", t.history) if len(t.history) > 1 else None)
                   for t in p.teams]
    for part, path in enumerate(p.part_paths, 1):
        yield path, render("player.html.j2", p=p, part=part, chart=chart, team_charts=team_charts,
                           links=lay.player_links("../"),
                           **_common(site, "../"))


def _night_page(site: Site, lay: SiteLayout, n: NightPage) -> str:
    after = standings_tables(n.after) if n.after is not None else None
    return render("night.html.j2", n=n, after=after, links=lay.player_links("../"), **_common(site, "../"))


@dataclass
class Plan:
    """The site to write: its layout, the names of every page, and where the
    inputs' common folder is (cut off the file names shown)."""

    site: Site
    layout: SiteLayout
    under: str
    problems_of: dict[str | None, list[dict[str, Any]]]  # the first ``MAX_ROWS`` of each event's
    problem_counts: dict[str | None, int]  # all of each event's

    @property
    def names(self) -> list[str]:
        """Every page's path in the site (``/``-separated)."""
        lay = self.layout
        return [*(e.path for e in lay.events), *(n.path for e in lay.events for n in e.night_pages),
                *(g.path for g in lay.games), *(path for p in lay.players.values() for path in p.part_paths),
                "ratings.html", "index.html"]


def plan(site: Site) -> Plan:
    """The layout of ``site``'s pages (see ``views.site.layout``)."""
    under = common_dir(sorted(site.summary.files))
    lay = layout(site.summary, site.nights, site.games, rate_games(g.view for g in site.games))
    site.shown = _shown_name(short_names(list(lay.players)))
    # A page lists at most MAX_ROWS invalid records (its weight is bounded,
    # as every list's: 100,000 of them were a 26 MB page); the rest are counted.
    problems_of: dict[str | None, list[dict[str, Any]]] = {}
    counts: dict[str | None, int] = {}
    for c, ev in zip(site.invalid, site.invalid_events, strict=True):
        counts[ev] = counts.get(ev, 0) + 1
        if counts[ev] <= MAX_ROWS:
            problems_of.setdefault(ev, []).append(_problem(c, under))
    return Plan(site, lay, under, problems_of, counts)


def page_texts(p: Plan, jobs: int = 1) -> Iterator[tuple[str, str]]:
    """Every page of the site, (path, HTML), made one at a time (the game
    pages in ``jobs`` worker processes, when more than 1)."""
    site, lay = p.site, p.layout
    for ev in lay.events:
        yield ev.path, _event_page(site, lay, ev, p.problems_of.get(ev.summary.event, []),
                                   p.problem_counts.get(ev.summary.event, 0))
        for n in ev.night_pages:
            yield n.path, _night_page(site, lay, n)
    yield from _game_pages(p, jobs)
    for pl in lay.players.values():
        yield from _player_pages(site, lay, pl)
    common = _common(site, "")
    yield "ratings.html", render("ratings.html.j2", ratings=lay.ratings.ranked(), rated=lay.ratings.rated,
                                 links=lay.player_links(""), **common)
    footer = (f"{plural(len(site.games), 'game', grouped=True)} in {plural(len(lay.events), 'event', grouped=True)}"
              + (f"; {plural(len(site.invalid), 'record', grouped=True)} not counted" if site.invalid else ""))
    events = [{"name": e.name, "title": event_title(e.summary, site.shown), "page": e.path, "games": len(e.games),
               "nights": e.nights, "tables": standings_tables(e.summary)} for e in lay.events]
    yield "index.html", render("index.html.j2", events=events,
                               problems=[_problem(c, p.under) for c in site.invalid[:MAX_ROWS]],
                               problems_total=len(site.invalid),
                               players=list(lay.players.values()), footer=footer, links=lay.player_links(""),
                               **common)


GAMES_A_TASK = 20  # game pages a worker makes at a time
_PLAN: Plan | None = None  # the plan the worker processes were forked with


def _make_games(span: tuple[int, int]) -> list[tuple[str, str]]:
    """(In a worker.) The pages of games ``span`` of the plan it was forked with."""
    assert _PLAN is not None
    games = _PLAN.layout.games[span[0]:span[1]]
    return [(g.path, _game_page(_PLAN.site, _PLAN.layout, g, _PLAN.under)) for g in games]


def _can_fork() -> bool:
    import multiprocessing  # (asked only with jobs: a site made in one process needs none of it; start-up)

    return "fork" in multiprocessing.get_all_start_methods()


def _game_pages(p: Plan, jobs: int) -> Iterator[tuple[str, str]]:
    games = p.layout.games
    if jobs <= 1 or len(games) <= GAMES_A_TASK or not _can_fork():
        # (The workers read the plan and the spool they were forked with; where
        # processes can't be forked, the pages are made here.)
        for g in games:
            yield g.path, _game_page(p.site, p.layout, g, p.under)
        return
    from pitchcli.pipeline.parallel import Workers

    global _PLAN
    _PLAN = p
    try:
        spans = [(i, min(i + GAMES_A_TASK, len(games))) for i in range(0, len(games), GAMES_A_TASK)]
        with Workers(jobs) as workers:
            for made in workers.run(_make_games, spans, ahead=2 * jobs):
                yield from made
    finally:
        _PLAN = None


def pages(site: Site) -> dict[str, str]:
    """Every page of the site: path in the site (``/``-separated) -> HTML (all
    in memory: for a small site and the tests; ``write_site`` streams them)."""
    return dict(page_texts(plan(site)))


# --- writing -----------------------------------------------------------------


MANIFEST = ".pitch-report.json"  # what report wrote into the folder (``record.owned``)


def write_site(site: Site, out_dir: str | Path, jobs: int = 1) -> list[Path]:
    """Write every page into ``out_dir`` (created if missing), each as it is
    made: only files an earlier report wrote there are replaced, all pages
    are put in place once all are written (the index last), and the pages of
    an earlier run that this one doesn't write are removed
    (``record.owned.write_owned_stream``); nothing is written when a target
    is not a regular file or not report's own."""
    folder = Path(out_dir)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder}: not a folder")
    p = plan(site)
    return write_owned_stream(folder, p.names, page_texts(p, jobs), MANIFEST, "pitch report", last="index.html")


class Reporting(Consumer):
    """``pitch report``'s part of the command driver: every document counted in
    the ``Site`` (a valid game kept for its page, an invalid record for the
    list of problems); nothing is refused on the error stream, the site lists
    them. ``end()`` is the exit status (``allow_invalid``: 0 with invalid records)."""

    def __init__(self, title: str, allow_invalid: bool = False) -> None:
        self.site = Site(title)
        self.allow_invalid = allow_invalid

    def usable(self, c: Checked) -> bool:
        """A valid game that can be shown (``views.game.usable``)."""
        return usable(c)

    def game(self, c: Checked) -> None:
        """A game for its page."""
        self.site.add(c)

    def invalid(self, c: Checked) -> None:
        """A record for the list of problems."""
        self.site.add(c)

    def end(self) -> int:
        """The exit status: 3 an input unreadable; 1 a record invalid, unless ``allow_invalid``."""
        return self.run.status(self.allow_invalid)


def publish(site: Site, out_dir: str, err: TextIO, jobs: int = 1) -> bool:
    """Write the site into ``out_dir``, then on ``err`` the first error of each
    invalid record and a line saying what was written; False (the reason on
    ``err``) when the site could not be written."""
    try:
        written = write_site(site, out_dir, jobs)
    except OSError as e:
        err.write(escape.text(f"{out_dir}: cannot write the report: {e.strerror or e}"
                              if not isinstance(e, OutputError) else str(e)) + "\n")
        return False
    write_first_errors(site.invalid, err)
    games = plural(len(site.games), 'game', grouped=True)
    listed = f", {plural(len(site.invalid), 'invalid record', grouped=True)} listed" if site.invalid else ""
    err.write(escape.text(f"{out_dir}: {plural(len(written), 'page', grouped=True)} ({games}{listed})") + "\n")
    return True
