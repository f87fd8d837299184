"""Views don't compute rules: they read the engine's results (issue 10).

The score sheet, the replay, ``fmt``, the summary and its report show what the
engine decided; if one of them worked out a trick winner, a point or a total
itself, a rule would live in two places. This is checked on the source, with
``ast``, so that it fails the moment such code is written:

- a view reads a game's results as a script does, through the public API
  (``pitchcli.api``: ``Game``, ``Hand``, ``Trick``, the event log ...): it
  imports nothing of the engine nor ``pipeline.feed`` (the engine's
  ``GameAnalysis``) and never reads a checked document's ``.analysis``;
  each module not there yet is in ``ENGINE_READERS`` with its reason;
- a view imports from the engine only its public result API,
  ``pitchcli.engine.results`` (HandResult, Trick, Award, PointCredit, GameEnd,
  Family ...) and the event log ``pitchcli.engine.events``, never ``play``,
  ``scoring``, ``hand``, ``game`` or ``family``
  internals (``winner``, ``ten_point_taken``, ``settle``, ``GAME_POINTS``,
  ``TrumpView`` ...), so the functions that compute rules are out of reach;
- a view never asks a trump view (no ``.view(...)`` call, no ``.strength``,
  ``.suit_of``, ``.points[...]``), never looks at a card's ``.rank`` or ``.suit``
  (the way a rule is worked out from cards), and never sums (``sum(...)``:
  totals, sides' points and trick values are result fields);
- no module outside ``engine/`` and ``profiles.py`` (the simulator included)
  contains a family or mode name as a literal, or compares a profile's
  ``family`` or ``mode``: what differs between families is asked of the
  ``Family`` object;
- nor compares a profile's ``sides`` with a name (``profile.sides ==
  "teams"``, ``!= "called"``, ``in (...)``, ``match ... case "teams"``): a
  view asks the ``Profile``'s ``has_teams`` / ``calls_partner`` instead.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pitchcli

PACKAGE = Path(pitchcli.__file__).parent
# Every module of the layers above the pipeline: the views and the renderers.
VIEWS = sorted(p.relative_to(PACKAGE).as_posix() for layer in ("views", "render", "commands")
               for p in (PACKAGE / layer).glob("*.py"))
# What a view may import from the engine: the result API; fmt seats a new
# record's table (no rule is computed by it).
ALLOWED = {"pitchcli.engine.results": None, "pitchcli.engine.events": None,
           "pitchcli.engine.table": {"build_table"}}
NAMES = {"auction", "ten-point", "play-all", "refill", "cut-down"}
TRUMP_VIEW = {"strength", "suit_of", "rank", "suit"}  # and a trump view's ``.points[...]`` (subscripted)
# Counting diagnostics is not a rule: ``sum(1 for d in ...)`` is allowed.
OUTSIDE_ENGINE = sorted(p for p in PACKAGE.rglob("*.py")
                        if "engine" not in p.relative_to(PACKAGE).parts and p.name != "profiles.py")


def _counting(call: ast.Call) -> bool:
    arg = call.args[0] if call.args else None
    return isinstance(arg, ast.GeneratorExp) and isinstance(arg.elt, ast.Constant) and arg.elt.value == 1


def view_problems(path: Path) -> list[str]:
    """What in the view at ``path`` computes a rule instead of reading a result."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pitchcli.engine"):
            allowed = ALLOWED.get(node.module or "", set())
            if node.module not in ALLOWED or (allowed is not None and
                                              any(a.name not in allowed for a in node.names)):
                out.append(f"line {node.lineno}: imports {node.module} "
                           f"({', '.join(a.name for a in node.names)})")
        elif isinstance(node, ast.Import) and any(a.name.startswith("pitchcli.engine") for a in node.names):
            out.append(f"line {node.lineno}: imports the engine's modules")
        elif isinstance(node, ast.Attribute) and node.attr in TRUMP_VIEW:
            out.append(f"line {node.lineno}: reads .{node.attr}")
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "points":
            # a trump view's card -> points map; a public Hand's ``points`` (a tuple of Point) is iterated
            out.append(f"line {node.lineno}: reads .points[...]")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "view":
            out.append(f"line {node.lineno}: asks for a trump view")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "sum" \
                and not _counting(node):
            out.append(f"line {node.lineno}: sums")
    return out


def _sides(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "sides"


def _literal(node: ast.expr) -> bool:
    """A text literal, or a tuple, list or set of them."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return bool(node.elts) and all(_literal(e) for e in node.elts)
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def family_problems(path: Path) -> list[str]:
    """Family or mode names compared (or written at all) in ``path``, and
    a profile's ``sides`` compared with a name."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Constant) and node.value in NAMES:
            out.append(f"line {node.lineno}: the literal {node.value!r}")
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for side in operands:
                if isinstance(side, ast.Attribute) and side.attr in ("family", "mode", "trump_named"):
                    out.append(f"line {node.lineno}: compares .{side.attr}")
            if any(map(_sides, operands)) and any(map(_literal, operands)):
                out.append(f"line {node.lineno}: compares .sides with a name")
        elif isinstance(node, ast.Match) and _sides(node.subject):
            out.append(f"line {node.lineno}: matches .sides against names")
    return out


# Modules whose flagged names are not rules, each with the reason (a new module
# is checked by default; an exemption has to be argued here).
NOT_RULES = {
    "render/chart.py": "reads .points: the polyline's pixel coordinates",
    "render/diagnostics.py": "sums the terminal columns of a source line, for --show-source's caret",
    "render/site.py": "reads a card face's .rank and .suit to draw it",
    "views/game.py": "reads a card face's .rank and .suit for the site's card markup",
    "views/partial.py": "sums the counts of a partial summary to check them against its totals",
    "views/summarize.py": "sums file sizes for the progress bar",
    "views/ratings.py": "sums a fixed team's members' mu and variances: the team's rating as Plackett-Luce "
                        "forms a side (a rating, not a game figure)",
}


@pytest.mark.parametrize("name", VIEWS)
def test_views_read_results_only(name: str) -> None:
    if name in NOT_RULES:
        pytest.skip(NOT_RULES[name])
    assert view_problems(PACKAGE / name) == []


def test_every_exemption_names_a_module_that_exists() -> None:
    assert set(NOT_RULES) <= set(VIEWS)


@pytest.mark.parametrize("path", OUTSIDE_ENGINE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_family_or_mode_name_outside_the_engine(path: Path) -> None:
    assert family_problems(path) == []


def test_the_checks_catch_what_they_are_for(tmp_path: Path) -> None:
    """Each check fails on a view that re-derives a rule (so none is vacuous)."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from pitchcli.engine.play import winner\n"
        "from pitchcli.engine.results import HandResult\n"
        "def f(r, fam, profile):\n"
        "    v = fam.view(r.trump)\n"
        "    teams = profile.sides == 'teams'\n"
        "    alone = 'called' != r.profile.sides or profile.sides in ('solo', 'called')\n"
        "    match profile.sides:\n"
        "        case 'teams':\n"
        "            pass\n"
        "    two = [p for p in r.tricks[0].plays if p.card.rank == 2]\n"
        "    return sum(r.taken), v.strength, profile.family == 'auction', winner, two\n", encoding="utf-8")
    found = view_problems(bad)
    assert any("pitchcli.engine.play" in p for p in found)
    assert any("trump view" in p for p in found)
    assert any(".rank" in p for p in found) and any(".strength" in p for p in found)
    assert any("sums" in p for p in found)
    assert not any("results" in p for p in found)
    fam = family_problems(bad)
    assert any("'auction'" in p for p in fam) and any(".family" in p for p in fam)
    assert sorted(p.split(":")[0] for p in fam if ".sides" in p) == ["line 5", "line 6", "line 6", "line 7"]
    # asking the profile, or comparing sides with something that is no name, is fine
    good = tmp_path / "good.py"
    good.write_text("def f(profile, other):\n"
                    "    return profile.has_teams, profile.calls_partner, profile.sides == other.sides\n",
                    encoding="utf-8")
    assert family_problems(good) == []


# Views, renderers and commands that still read the engine's results (or the
# pipeline's ``GameAnalysis``) instead of the public API, each with the reason.
# A module not listed must read games as a script does (``pitchcli.api``);
# ``test_every_engine_reader_still_reads_the_engine`` makes an entry go when
# its module moves to the API.
ENGINE_READERS = {
    "views/summary.py": "counting a valid game reads the engine's per-hand figures (HandScore: deltas, "
                        "seat_taken), which the quick pass gives without replaying the game; a public Hand "
                        "needs the replay the quick pass saves (summarize 1.56x faster, README Speed); its "
                        "game rows are read from the public Game",
    "render/records.py": "fmt --fill writes the engine's figures into a record and seats a new record's "
                         "table: there the results are the record's data, not a view of a game",
}


def engine_reads(path: Path) -> list[str]:
    """Where the module at ``path`` reads the engine (or ``GameAnalysis``)
    instead of the public API."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(("pitchcli.engine",
                                                                                "pitchcli.pipeline.feed")):
            out.append(f"line {node.lineno}: imports {node.module}")
        elif isinstance(node, ast.Import) and any(a.name.startswith(("pitchcli.engine", "pitchcli.pipeline.feed"))
                                                  for a in node.names):
            out.append(f"line {node.lineno}: imports the engine")
        elif isinstance(node, ast.Attribute) and node.attr == "analysis":
            out.append(f"line {node.lineno}: reads a checked document's .analysis")
    return out


@pytest.mark.parametrize("name", VIEWS)
def test_views_read_games_through_the_api(name: str) -> None:
    if name in ENGINE_READERS:
        pytest.skip(ENGINE_READERS[name])
    assert engine_reads(PACKAGE / name) == []


def test_every_engine_reader_still_reads_the_engine() -> None:
    """An exemption goes when its module moves to the API (none is stale)."""
    assert set(ENGINE_READERS) <= set(VIEWS)
    assert [n for n in ENGINE_READERS if not engine_reads(PACKAGE / n)] == []


def test_the_api_check_catches_a_view_reading_the_engine(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from pitchcli.engine.results import HandResult\n"
                   "import pitchcli.engine.events\n"
                   "from pitchcli.pipeline.feed import GameAnalysis\n"
                   "def f(c):\n"
                   "    return c.analysis.winner, c.analysis.hands[0].points['high']\n", encoding="utf-8")
    assert [p.split(":")[0] for p in engine_reads(bad)] == ["line 1", "line 2", "line 3", "line 5", "line 5"]
    assert any(".points[...]" in p for p in view_problems(bad))
    good = tmp_path / "good.py"
    good.write_text("from pitchcli.api.checking import checked_game\n"
                    "def f(c):\n"
                    "    g = checked_game(c)\n"
                    "    return g.winner, [p.side for h in g.hands for p in h.points]\n", encoding="utf-8")
    assert engine_reads(good) == [] and view_problems(good) == []
