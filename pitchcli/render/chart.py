"""The score race of one game: an SVG chart and a terminal sparkline.

The chart draws each player's or team's total before the first hand and after
every hand (``GameView.race``, read from the engine's running totals), the
target as a dashed line, the zero line, and marks the hand that won the game.
Coordinates are plain numbers in a fixed ``viewBox``, so the chart scales to
any width; the y of a total is linear (``y = zero_y - total * unit``), which a
test checks against the game's totals using the target and zero lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from markupsafe import Markup

from pitchcli import escape
from pitchcli.pipeline.check import Checked
from pitchcli.pipeline.driver import SEE_VALIDATE, Consumer
from pitchcli.record.write import OutputError, atomic_output, check_replaceable
from pitchcli.render.templating import html, render
from pitchcli.views.game import GameView, for_display, game_view, usable

# Okabe & Ito's hues (told apart with the common colour-vision deficiencies),
# the light ones darkened: every line has at least 3:1 contrast on the white
# plot (WCAG 1.4.11 for graphics; a test computes it). Each line has its own
# dash pattern too, so that no line is told by its colour alone.
PALETTE = ("#0072B2", "#D55E00", "#007A5A", "#C05299", "#9A6700", "#6A3D9A", "#000000", "#8C6D1F")
DASHES = ("none", "9 4", "2 4", "12 4 3 4", "5 3", "1 3", "14 3", "6 3 1 3")
AXIS_INK = "#4d4d4d"  # labels: 8.6:1 on white
MAX_LINE = 80  # the sparkline fits a terminal of 80 columns

# A narrow viewBox with big type: the chart is drawn at 300-900 px, and its
# labels must stay readable on a phone.
WIDTH = 520
PLOT_H = 270
LEFT, RIGHT, TOP, BOTTOM = 40, 14, 30, 44
LEGEND_ROW = 24


@dataclass
class Series:
    """One unit's line: its name, colour, points, and final total."""

    unit: str
    colour: str
    points: list[tuple[float, float]]
    totals: list[int]
    winner: bool
    dash: str = "none"
    same_as: str | None = None  # an earlier line this one coincides with all along

    @property
    def polyline(self) -> str:
        """The ``points`` attribute of an SVG polyline."""
        return " ".join(f"{x:g},{y:g}" for x, y in self.points)


def _step(span: int) -> int:
    """The smallest round step (1, 2, 2.5 or 5 times a power of ten) that
    cuts ``span`` into at most six parts.

    Integer arithmetic only: a record's target is any integer the loader
    accepts (up to 4,300 digits), and a float can't hold the larger ones.
    """
    power = 1
    while True:
        for step in (power, 2 * power, 5 * power // 2, 5 * power):
            if step and span <= 6 * step:
                return step
        power *= 10


def _ticks(lo: int, hi: int, target: int) -> list[int]:
    """A few round totals between ``lo`` and ``hi`` for the y axis (none
    crowding the target's own label)."""
    span = max(hi - lo, 1)
    step = _step(span)
    first = -(-lo // step) * step
    ticks = range(first, hi + 1, step)
    return [t for t in ticks if abs(t - target) * 25 > span or t == 0]


def label(n: int) -> str:
    """A total or target as the chart writes it: whole up to 5 digits, then
    as ``9.99e+15``, so that a label fits left of the plot and a 4,300-digit
    target stays one short label (the exact number is in the ``data-``
    attributes)."""
    digits = str(abs(n))
    if len(digits) <= 5:
        return str(n)
    return f"{'-' if n < 0 else ''}{digits[0]}.{digits[1:3]}e+{len(digits) - 1}"


def chart_data(g: GameView) -> dict[str, Any]:
    """Everything the template draws, as numbers and names.

    The y of a total is computed from integers and divided once
    (``(hi - total) * plot / span``), so any target a record can hold gives
    coordinates inside the plot: a float would overflow on a target of more
    than 308 digits, and lose the chart's linearity long before.
    """
    race = g.race()
    hands = max(len(race) - 1, 1)
    values = [t for step in race for t in step.values()]
    lo, hi = min(0, g.target, *values), max(0, g.target, *values)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = PLOT_H - TOP - BOTTOM
    span = max(hi - lo, 1)

    def x(i: int) -> float:
        return round(LEFT + plot_w * i / hands, 2)

    def y(total: int) -> float:
        return round(TOP + (hi - total) * plot_h / span, 2)

    series = [Series(u, PALETTE[i % len(PALETTE)], [(x(i), y(step[u])) for i, step in enumerate(race)],
                     [step[u] for step in race], u == g.winner, DASHES[i % len(DASHES)])
              for i, u in enumerate(g.units)]
    for i, s in enumerate(series):  # partners' totals move together: say so, the lines can't show it
        s.same_as = next((o.unit for o in series[:i] if o.totals == s.totals), None)
    won = None
    if g.winner_hand is not None and g.winner_hand < len(race):
        won = {"x": x(g.winner_hand), "y": y(race[g.winner_hand][g.winner]), "hand": g.winner_hand,
               "unit": g.winner}
    every = max(1, -(-hands // 10))
    return {
        "width": WIDTH, "height": PLOT_H + LEGEND_ROW * len(series) + 8, "plot_h": PLOT_H,
        "left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": PLOT_H - BOTTOM,
        "zero_y": y(0), "target": g.target, "target_label": label(g.target), "target_y": y(g.target),
        "unit": plot_h / span,
        "yticks": [(label(t), y(t)) for t in _ticks(lo, hi, g.target)],
        "xticks": [(i, x(i)) for i in range(0, hands + 1, every)],
        "series": series, "won": won, "hands": len(race) - 1, "axis_ink": AXIS_INK,
        "title": f"Score race: {', '.join(g.units)}; target {label(g.target)}",
    }


def svg(g: GameView, standalone: bool = False) -> Markup:
    """The chart as SVG markup (with the XML namespace and declaration when
    ``standalone``, for a file of its own)."""
    return Markup(race_svg(chart_data(g), standalone))


# The font stack of the chart's text (the page's own, for a file of its own).
_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"


def race_svg(c: dict[str, Any], standalone: bool = False) -> str:
    """The SVG of ``chart_data``'s numbers and names. Written in Python, not
    by a template: a game page has one, and Jinja took 0.22-0.25 ms a chart
    of the 6 ms a game of a report of 500 games (issue 22). A number is written as ``str``
    writes it (as ``{{ n }}`` did: markupsafe writes a number so), a name
    as a page writes text (``templating.html``: printable, escaped)."""
    left, right, top, bottom, ink = c["left"], c["right"], c["top"], c["bottom"], c["axis_ink"]
    ns = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n' if standalone else "",
           f'<svg class="race-chart"{ns}'
           f' viewBox="0 0 {c["width"]} {c["height"]}" width="100%" role="img" aria-labelledby="race-title"'
           f' data-target="{c["target"]}" data-hands="{c["hands"]}" font-family="{_FONT}" font-size="15">\n'
           f'<title id="race-title">{html(c["title"])}</title>\n'
           f'<rect x="0" y="0" width="{c["width"]}" height="{c["height"]}" fill="#ffffff"/>\n']
    for t, ty in c["yticks"]:
        out.append(f'<line class="grid" x1="{left}" x2="{right}" y1="{ty}" y2="{ty}" stroke="#e4e4e4"'
                   f' stroke-width="1"/>\n'
                   f'<text x="{left - 6}" y="{ty + 4}" text-anchor="end" fill="{ink}">{html(t)}</text>\n')
    out.append(f'<line class="zero" x1="{left}" x2="{right}" y1="{c["zero_y"]}" y2="{c["zero_y"]}" stroke="#888"'
               f' stroke-width="1.2" data-total="0"/>\n'
               f'<line class="target" x1="{left}" x2="{right}" y1="{c["target_y"]}" y2="{c["target_y"]}"'
               f' stroke="#b00020" stroke-width="1.5" stroke-dasharray="6 4" data-total="{c["target"]}"/>\n'
               f'<text x="{left + 4}" y="{c["target_y"] - 6}" text-anchor="start" fill="#b00020">'
               f'target {html(c["target_label"])}</text>\n')
    out.extend(f'<text x="{tx}" y="{bottom + 20}" text-anchor="middle" fill="{ink}">{i}</text>\n'
               for i, tx in c["xticks"])
    out.append(f'<text x="{(left + right) / 2}" y="{bottom + 38}" text-anchor="middle" fill="{ink}">hand</text>\n')
    won = c["won"]
    if won:
        out.append(f'<line class="won" x1="{won["x"]}" x2="{won["x"]}" y1="{top}" y2="{bottom}" stroke="#333"'
                   f' stroke-width="1" stroke-dasharray="2 3" data-hand="{won["hand"]}"/>\n')
    for s in c["series"]:
        out.append(f'<polyline class="race" data-unit="{html(s.unit)}" data-totals="{" ".join(map(str, s.totals))}"'
                   f' points="{s.polyline}" fill="none" stroke="{s.colour}" stroke-width="{3 if s.winner else 2.5}"'
                   f' stroke-dasharray="{s.dash}" stroke-linejoin="round" stroke-linecap="round"/>\n')
    if won:
        out.append(f'<circle class="won-mark" cx="{won["x"]}" cy="{won["y"]}" r="7" fill="none" stroke="#333"'
                   f' stroke-width="2"/>\n'
                   f'<text x="{won["x"] + 4}" y="{top - 12}" text-anchor="end" font-weight="bold" fill="#333">'
                   f'won in hand {won["hand"]}</text>\n')
    for k, s in enumerate(c["series"]):
        bold = ' font-weight="bold"' if s.winner else ""
        out.append(f'<g class="legend" transform="translate({left} {c["plot_h"] + 6 + k * 24})">\n'
                   f'<line x1="0" x2="34" y1="8" y2="8" stroke="{s.colour}" stroke-width="3"'
                   f' stroke-dasharray="{s.dash}"/>\n'
                   f'<text x="42" y="13" fill="#222"{bold}>{html(s.unit)}: {s.totals[-1]}'
                   f'{" (winner)" if s.winner else ""}'
                   f'{f" (the same line as {html(s.same_as)})" if s.same_as else ""}</text>\n'
                   "</g>\n")
    out.append("</svg>\n")
    return "".join(out)


BARS = "▁▂▃▄▅▆▇█"


def _sampled(race: list[dict[str, int]], width: int) -> list[dict[str, int]]:
    """At most ``width`` steps of the race, evenly spread, the first and the last kept."""
    if len(race) <= width:
        return race
    return [race[round(i * (len(race) - 1) / (width - 1))] for i in range(width)]


def sparkline(g: GameView) -> str:
    """One line per player or team: the race as block characters (scaled over
    the whole game, so lines compare), the final total, and who won. A long
    game is sampled so that every line fits ``MAX_LINE`` columns."""
    race = g.race()
    values = [t for step in race for t in step.values()]
    lo, hi = min(values), max(values)
    span = max(hi - lo, 1)
    names = [escape.text(u) for u in g.units]  # for a terminal: controls and bidi shown as \x1b, \u202e
    pad = max(map(len, names))
    tails = {u: f"  {race[-1][u]}" + (f"  won in hand {g.winner_hand}" if u == g.winner else "") for u in g.units}
    room = max(MAX_LINE - pad - 2 - max(map(len, tails.values())), 10)
    shown = _sampled(race, room)
    lines = []
    for u, name in zip(g.units, names, strict=True):
        bars = "".join(BARS[(step[u] - lo) * (len(BARS) - 1) // span] for step in shown)
        lines.append(f"{name.ljust(pad)}  {bars}{tails[u]}")
    end = "" if g.finished else "  (unfinished)"
    sampled = f"  ({len(shown)} of {len(race)} totals shown)" if len(shown) < len(race) else ""
    lines.append(f"{'target'.ljust(pad)}  {g.target}{end}{sampled}")
    return "\n".join(lines) + "\n"


RATING_W, RATING_H = 520, 200
RATING_PAD = (48, 14, 16, 34)  # left, right, top, bottom


def rating_data(name: str, history: list[tuple[str | None, float]]) -> dict[str, Any]:
    """A player's rating (the ordinal) after each game, as numbers to draw."""
    left, right, top, bottom = RATING_PAD
    values = [v for _, v in history]
    lo, hi = min(0.0, *values), max(0.0, *values)
    span = max(hi - lo, 1.0)
    n = max(len(values) - 1, 1)

    def x(i: int) -> float:
        return round(left + (RATING_W - left - right) * i / n, 2)

    def y(v: float) -> float:
        return round(top + (hi - v) * (RATING_H - top - bottom) / span, 2)

    ticks = sorted({round(lo, 1), 0.0, round(hi, 1)})
    return {"width": RATING_W, "height": RATING_H, "left": left, "right": RATING_W - right, "top": top,
            "bottom": RATING_H - bottom, "points": " ".join(f"{x(i):g},{y(v):g}" for i, v in enumerate(values)),
            "yticks": [(f"{t:g}", y(t)) for t in ticks], "games": len(values), "zero_y": y(0.0),
            "title": f"Rating of {name} after each of {len(values)} games: from {values[0]:.2f} to {values[-1]:.2f}",
            "colour": PALETTE[0], "axis_ink": AXIS_INK}


def rating_svg(name: str, history: list[tuple[str | None, float]]) -> Markup:
    """The rating history of a player as inline SVG (at least two games)."""
    return Markup(render("rating.svg.j2", c=rating_data(name, history)))


class Charting(Consumer):
    """``pitch chart``'s part of the command driver: the sparkline of a valid
    game on ``out`` and, with ``output``, its SVG chart written there
    (atomically). An invalid record is refused with its errors (not its
    warnings); exit 3 when the chart can't be written, or the input holds
    nothing at all."""

    refusal = "{file}: no chart: the record is invalid ({errors}); " + SEE_VALIDATE
    shows_warnings = False

    def __init__(self, out: TextIO, err: TextIO, output: str | None = None) -> None:
        self.out, self.err, self.output = out, err, output

    def usable(self, c: Checked) -> bool:
        """A valid game that can be shown (``views.game.usable``)."""
        return usable(c)

    def game(self, c: Checked) -> None:
        """Draw the game."""
        g = for_display(game_view(c))  # names cut for the terminal and the SVG
        self.out.write(sparkline(g))
        if self.output:
            self.run.broken = not self.write_svg(g, self.output)

    def write_svg(self, g: GameView, output: str) -> bool:
        """The SVG chart to ``output``; False (the reason on the error stream) when it can't be written."""
        try:
            check_replaceable(Path(output))
            with atomic_output(output) as f:
                f.write(svg(g, standalone=True))
        except OutputError as e:
            self.err.write(escape.text(str(e)) + "\n")
            return False
        except OSError as e:
            self.err.write(escape.text(f"{output}: cannot write: {e.strerror or e}") + "\n")
            return False
        return True

    def invalid(self, c: Checked) -> None:
        """What a folder walk skipped is no chart either."""
        self.run.failed = self.run.failed or c.skipped

    def end(self) -> int:
        """The exit status (3 also for an input that holds no document)."""
        run = self.run
        if not (run.documents or run.unreadable or run.skipped):
            return 3
        return run.status()
