"""Any target a record can hold draws a chart and a report (issue 27, item 1).

The schema's target is any integer, and the loader keeps integers of up to
4,300 digits: ``chart -o`` and ``report`` died with ``StopIteration`` (no
round tick step above 6×10⁹) and ``OverflowError`` (a float can't hold a
target past 308 digits). The chart now computes its scale from integers.
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitchcli.cli import main
from pitchcli.render.chart import PLOT_H, WIDTH
from tests.support.games import base_game

EXAMPLES = int(os.environ.get("PITCH_CHART_EXAMPLES", "25"))
LARGEST = 10**4300 - 1  # the largest integer the loader keeps (4,300 digits)

TARGETS = st.one_of(
    st.sampled_from([6 * 10**9 + 1, 7 * 10**9, 2**63, 10**308, 10**309, LARGEST, -LARGEST, 0, -1, 1]),
    st.integers(min_value=-LARGEST, max_value=LARGEST),
    st.integers(min_value=1, max_value=10**40),
)


def _record(tmp: Path, target: int) -> Path:
    path = tmp / f"t{abs(hash(target)) % 10**9}.json"
    path.write_text(json.dumps(base_game(rules={"target": target})), encoding="utf-8")
    return path


def _numbers(svg: ET.Element, attribute: str) -> list[float]:
    return [float(el.get(attribute) or 0) for el in svg.iter() if el.get(attribute) is not None]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(target=TARGETS)
def test_any_target_draws_a_chart_inside_its_box(tmp_path: Path, target: int) -> None:
    """``chart -o`` of a record with any target the loader keeps: exit 0 (or 1
    when the target makes the record invalid), never a traceback, and every
    coordinate of the SVG inside its viewBox."""
    record = _record(tmp_path, target)
    out = tmp_path / "race.svg"
    r = CliRunner().invoke(main, ["chart", str(record), "-o", str(out)])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code in (0, 1), r.output
    if r.exit_code == 1:
        return
    svg = ET.parse(out).getroot()
    for attr in ("y1", "y2", "cy"):
        assert all(0 <= v <= PLOT_H for v in _numbers(svg, attr)), attr
    for attr in ("x1", "x2", "cx"):
        assert all(0 <= v <= WIDTH for v in _numbers(svg, attr)), attr
    target_line = next(el for el in svg.iter() if el.get("class") == "target")
    assert int(target_line.get("data-total") or "") == target  # the exact number stays in the data
    assert all(len(el.text or "") < 80 for el in svg.iter() if el.tag.endswith("text"))  # labels stay short


def test_report_of_a_4300_digit_target(tmp_path: Path) -> None:
    """The report's game page draws the same chart: no traceback, exit 0."""
    record = _record(tmp_path, LARGEST)
    r = CliRunner().invoke(main, ["report", str(record), "-o", str(tmp_path / "site")])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 0, r.output
    [game] = (tmp_path / "site").glob("*/game-1.html")  # the site's folder per event
    assert "race-chart" in game.read_text(encoding="utf-8")


def test_ticks_are_round_and_few_for_any_span() -> None:
    """The tick step is 1, 2, 2.5 or 5 times a power of ten, at most six parts."""
    from pitchcli.render.chart import _step, _ticks

    for span in (1, 5, 6, 7, 13, 61, 999, 6 * 10**9 + 1, 10**4300):
        step = _step(span)
        assert span <= 6 * step and str(step).rstrip("0") in ("1", "2", "25", "5")
    assert _ticks(0, 11, 11) == [0, 2, 4, 6, 8, 10]
    assert 2 <= len(_ticks(-5, LARGEST, LARGEST)) <= 7


def test_labels_stay_short() -> None:
    """Past 5 digits a label is written as a mantissa and an exponent."""
    from pitchcli.render.chart import label

    assert [label(n) for n in (0, -4, 99999, 123456, -7 * 10**9)] == ["0", "-4", "99999", "1.23e+5", "-7.00e+9"]
    assert label(LARGEST) == "9.99e+4299"
