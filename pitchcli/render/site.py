"""``pitch report``: a static tournament site from records.

One pass over the inputs: every document is checked as by ``pitch validate``
and counted in a ``Summary`` (the standings on the pages are the summary's own
tables, as ``pitch summarize`` prints them); every valid game becomes a
``GameView`` (``pitchcli.views.game``) for its page. Then the pages are rendered
(``pitchcli.render.templating``: Jinja2, autoescaped) and written atomically into the
output folder: ``index.html``, ``event-N.html`` per event and ``game-N.html``
per game. Pages are self-contained: CSS and SVG inline, no script, no link
outside the folder.

Memory holds the game views of every valid game (a page per game is written
anyway); the summary itself is bounded as in ``summarize``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, TextIO

from markupsafe import Markup

from pitchcli import __version__, escape
from pitchcli.cards import SUIT_NAMES
from pitchcli.diagnostics import ERROR
from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.driver import Consumer, write_first_errors
from pitchcli.record.owned import write_owned
from pitchcli.record.write import OutputError
from pitchcli.render.chart import svg
from pitchcli.render.summary import event_title, standings_tables
from pitchcli.render.templating import environment, render
from pitchcli.text import plural
from pitchcli.views.game import CardFace, GameView, for_display, game_view, usable
from pitchcli.views.summary import Summary, after_each_round, round_order

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_COLOUR = {"S": "black", "C": "black", "H": "red", "D": "red"}
MAX_DIAGNOSTICS = 20  # shown per invalid record; the rest are counted


@dataclass
class _Game:
    view: GameView
    number: int
    page: str = ""
    event_page: str | None = None

    @property
    def event_name(self) -> str:
        return self.view.event if self.view.event is not None else "(no event)"


@dataclass
class Site:
    """What the pages are made of: the summary, the games, the invalid records."""

    title: str
    summary: Summary = field(default_factory=lambda: Summary(None, keep_games=False))
    rounds: dict[str | None, Summary] = field(default_factory=dict)  # one summary per round
    games: list[_Game] = field(default_factory=list)
    invalid: list[Checked] = field(default_factory=list)

    def add(self, c: Checked) -> None:
        """Count one checked document; keep its view (valid) or its diagnostics."""
        self.summary.add_checked(c)
        r = c.data.get("round") if isinstance(c.data, dict) else None
        key = None if r is None else str(r)
        if key not in self.rounds:
            self.rounds[key] = Summary(1, keep_games=False)
        self.rounds[key].add_checked(c)
        if usable(c):
            self.games.append(_Game(for_display(game_view(c)), len(self.games) + 1))
        else:
            self.invalid.append(c)


def collect(checked: Any, title: str = "Tournament report") -> Site:
    """A ``Site`` from checked documents."""
    site = Site(title)
    for c in checked:
        site.add(c)
    return site


# --- what the templates get ------------------------------------------------


def _final(v: GameView) -> str:
    return ", ".join(f"{u} {n}" for u, n in v.totals.items()) if v.totals else "unknown"


def _line_up(v: GameView) -> str:
    if v.teams:
        return "; ".join(f"{u}: {' & '.join(m)}" for u, m in v.teams.items())
    return ", ".join(v.players)


def _where(v: GameView) -> str:
    parts = [p for p in (v.event, v.date, v.round and f"round {v.round}", v.table and f"table {v.table}",
                         v.id and f"game {v.id}") if p]
    return " · ".join(parts)


def _heading(v: GameView) -> str:
    bits = [f"Round {v.round}" if v.round else None, f"table {v.table}" if v.table else None]
    head = ", ".join(b for b in bits if b) or (f"Game {v.id}" if v.id else f"{Path(v.file).name}")
    return head[0].upper() + head[1:]


def _points(v: GameView) -> tuple[list[str], list[list[Any]]]:
    """The point columns of the hand table: one per Auction Pitch point when
    the engine awarded points (each cell a ``PointView`` or ``None``), else
    the points each side took (each cell text)."""
    if any(h.awards for h in v.hands):
        kinds = [a.kind for a in next(h.awards for h in v.hands if h.awards)]
        heads = [k.capitalize() for k in kinds]
        return heads, [[{a.kind: a for a in h.awards}.get(k) for k in kinds] for h in v.hands]
    return ["Points taken"], [[", ".join(f"{u} {n}" for u, n in h.taken.items())] for h in v.hands]


def _problem(c: Checked) -> dict[str, Any]:
    shown = c.diagnostics[:MAX_DIAGNOSTICS]
    where = c.file + (f", document {c.number}" if c.index else "")
    if not c.diagnostics:
        return {"where": where, "lines": ["the record could not be read"], "more": 0}
    errors = sorted(shown, key=lambda d: d.severity != ERROR)
    # (more: those past the page's own limit, and those past --max-errors, counted not kept)
    return {"where": where, "lines": [d.as_text() for d in errors],
            "more": len(c.diagnostics) - len(shown) + c.omitted}


@cache
def _card_markup(card: str, rank: str, suit: str | None, trump: bool) -> Markup:
    """A card as HTML (the ``card`` macro), made once per card and trump flag:
    a game page shows hundreds of cards and there are 54 of them."""
    module = environment().get_template("macros.html.j2").make_module(
        {"suit_symbol": SUIT_SYMBOL, "suit_colour": SUIT_COLOUR})
    return Markup(module.card(CardFace(card, rank, suit, trump)))


def card_html(face: CardFace) -> Markup:
    """A card as HTML (see ``_card_markup``)."""
    return _card_markup(face.card, face.rank, face.suit, face.trump)


def pages(site: Site) -> dict[str, str]:
    """Every page of the site: file name -> HTML."""
    css = Markup(files("pitchcli").joinpath("templates/style.css").read_text(encoding="utf-8"))
    common = {"css": css, "version": __version__, "site_title": site.title, "files": len(site.summary.files),
              "suit_symbol": SUIT_SYMBOL, "suit_colour": SUIT_COLOUR, "suit_name": SUIT_NAMES,
              "card_html": card_html}
    out: dict[str, str] = {}
    by_event: dict[str | None, list[_Game]] = {}
    for g in site.games:
        by_event.setdefault(g.view.event, []).append(g)
    problems_of: dict[str | None, list[dict[str, Any]]] = {}
    for c in site.invalid:
        ev = c.data.get("event") if isinstance(c.data, dict) else None
        problems_of.setdefault(ev if isinstance(ev, str) else None, []).append(_problem(c))
    after = after_each_round(site.rounds)
    events = []
    for i, ev in enumerate(site.summary.sorted_events(), 1):
        if not ev.games:
            continue
        name = ev.event if ev.event is not None else "(no event)"
        page = f"event-{i}.html"
        games = by_event.get(ev.event, [])
        for g in games:
            g.event_page = page
        rounds: dict[str | None, list[dict[str, Any]]] = {}
        for g in games:
            g.page = f"game-{g.number}.html"
            rounds.setdefault(g.view.round, []).append(
                {"table": g.view.table, "line_up": _line_up(g.view), "winner": g.view.winner,
                 "final": _final(g.view), "hands": g.view.hands, "page": g.page})
        events.append({"name": name, "title": event_title(ev), "page": page, "tables": standings_tables(ev),
                       "games": games, "rounds": sorted(rounds.items(), key=lambda kv: round_order(kv[0])),
                       "problems": problems_of.get(ev.event, []),
                       "after_rounds": [(r, standings_tables(snap)) for r, snap in after.get(ev.event, [])]
                       if len(after.get(ev.event, [])) > 1 else []})
    for ev_ctx in events:
        out[ev_ctx["page"]] = render("event.html.j2", ev=ev_ctx, **common)
    for g in site.games:
        g.page = g.page or f"game-{g.number}.html"
        heads, cells = _points(g.view)
        ctx = {"view": g.view, "heading": _heading(g.view), "where": _where(g.view), "final": _final(g.view),
               "svg": svg(g.view), "point_heads": heads, "point_cells": cells, "event_page": g.event_page,
               "event_name": g.event_name}
        out[g.page] = render("game.html.j2", g=ctx, **common)
    footer = (f"{plural(len(site.games), 'game', grouped=True)} in {plural(len(events), 'event', grouped=True)}"
              + (f"; {plural(len(site.invalid), 'record', grouped=True)} not counted" if site.invalid else ""))
    out["index.html"] = render("index.html.j2", events=events, problems=[_problem(p) for p in site.invalid],
                               footer=footer, **common)
    return out


# --- writing -----------------------------------------------------------------


MANIFEST = ".pitch-report.json"  # what report wrote into the folder (``record.owned``)


def write_site(site: Site, out_dir: str | Path) -> list[Path]:
    """Write every page into ``out_dir`` (created if missing): only files an
    earlier report wrote there are replaced, all pages are put in place once
    all are written (the index last), and the pages of an earlier run that
    this one doesn't write are removed (``record.owned.write_owned``); nothing
    is written when a target is not a regular file or not report's own."""
    folder = Path(out_dir)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{folder}: not a folder")
    return write_owned(folder, pages(site), MANIFEST, "pitch report", last="index.html")


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


def publish(site: Site, out_dir: str, err: TextIO) -> bool:
    """Write the site into ``out_dir``, then on ``err`` the first error of each
    invalid record and a line saying what was written; False (the reason on
    ``err``) when the site could not be written."""
    try:
        written = write_site(site, out_dir)
    except OSError as e:
        err.write(escape.text(f"{out_dir}: cannot write the report: {e.strerror or e}"
                              if not isinstance(e, OutputError) else str(e)) + "\n")
        return False
    write_first_errors(site.invalid, err)
    games = plural(len(site.games), 'game', grouped=True)
    listed = f", {plural(len(site.invalid), 'invalid record', grouped=True)} listed" if site.invalid else ""
    err.write(escape.text(f"{out_dir}: {plural(len(written), 'page', grouped=True)} ({games}{listed})") + "\n")
    return True
