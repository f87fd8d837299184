"""The fragments of a game page written in Python write what the template's
loops wrote (issue 22: ``pitch report``'s game pages).

A game page's hands, tricks and deal boxes were Jinja loops: a loop context
and two or three escaped expressions for each pair, trick and box, some
fifteen hundred a page. ``listing``, ``points_html``, ``card_names``,
``trick_rows`` and ``cards_html`` write the same in one call each. Each is
held here to the template text it replaced, rendered by the report's own
Jinja environment (autoescape and ``finalize``), on any text a record can
hold: markup, quotes, ampersands, control characters, lone surrogates and
noncharacters. ``tests/render/test_report_unchanged.py`` holds whole sites to
the pages written before.
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pitchcli.render.site import (
    SUIT_COLOUR,
    SUIT_SYMBOL,
    card_name,
    card_names,
    card_row,
    cards_html,
    listing,
    point_html,
    points_html,
    trick_cells,
    trick_rows,
)
from pitchcli.render.templating import environment
from pitchcli.views.game import CardFace, PointView, TrickView

EXAMPLES = int(os.environ.get("PITCH_FRAGMENT_EXAMPLES", "200"))

# Text a record may hold, with what a page must not show as it is.
TEXT = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["<b>", "a & b", '"q"', "'s'", "\x07bell", "\ud800", "\ufffe", "x\u0085y", "Ann", ""]),
)
# The faces of the views: a face's suit and rank as its card says.
FACE = st.sampled_from([CardFace("AS", "A", "S"), CardFace("10H", "10", "H", True), CardFace("2C", "2", "C"),
                        CardFace("BJ", "", None, True), CardFace("LJ", "", None)])


def _jinja(source: str, **context: Any) -> str:
    """``source`` rendered as the report renders its templates."""
    env = environment()
    return env.from_string(source).render(
        **context, card_row=card_row, trick_cells=trick_cells, point_html=point_html,
        card_name=card_name,
        suit_symbol=SUIT_SYMBOL, suit_colour=SUIT_COLOUR)


@settings(max_examples=EXAMPLES, deadline=None)
@given(pairs=st.lists(st.tuples(TEXT, st.one_of(TEXT, st.integers(-999, 999))), max_size=5))
def test_listing_writes_what_the_loop_wrote(pairs: list[tuple[str, object]]) -> None:
    loop = "{% for a, b in p %}{{ a }} {{ b }}{{ ', ' if not loop.last else '' }}{% endfor %}"
    assert str(listing(pairs)) == _jinja(loop, p=pairs)


@settings(max_examples=EXAMPLES, deadline=None)
@given(pairs=st.lists(st.tuples(TEXT, st.integers(-99, 99)), max_size=5))
def test_signed_listing_writes_what_the_loop_wrote(pairs: list[tuple[str, int]]) -> None:
    loop = "{% for u, n in p %}{{ u }} {{ '%+d' % n }}{{ ', ' if not loop.last else '' }}{% endfor %}"
    assert str(listing(pairs, signed=True)) == _jinja(loop, p=pairs)


@settings(max_examples=EXAMPLES, deadline=None)
@given(awards=st.lists(st.builds(PointView, st.sampled_from(["high", "low", "jack", "game", "five"]),
                                 st.one_of(st.none(), TEXT), st.one_of(st.none(), FACE), st.none()), max_size=4))
def test_points_write_what_the_loop_wrote(awards: list[PointView]) -> None:
    loop = ("{% for a in h %}{{ a.kind | capitalize }}: {{ point_html(a) }}{{ '; ' if not loop.last else '' }}"
            "{% endfor %}")
    assert str(points_html(awards)) == _jinja(loop, h=awards)


def test_card_names_write_what_the_loop_wrote() -> None:
    loop = "{% for c in h %}{{ card_name(c) }}{{ ', ' if not loop.last else '' }}{% endfor %}"
    for called in ([], ["AS"], ["AS", "LJ", "10H", "BJ"]):
        assert card_names(called) == _jinja(loop, h=called)


@settings(max_examples=EXAMPLES, deadline=None)
@given(tricks=st.lists(st.integers(1, 5).flatmap(lambda n: st.builds(
    TrickView, st.integers(1, 12), TEXT, st.tuples(*[TEXT] * n), st.tuples(*[FACE] * n),
    st.one_of(st.none(), TEXT), st.just("high"))), max_size=4))
def test_trick_rows_write_what_the_loop_wrote(tricks: list[TrickView]) -> None:
    loop = """{% for t in h %}
<tr><th class="num" scope="row">{{ t.number }}</th>
{{ trick_cells(t) }}<td class="text name">{{ t.winner if t.winner is not none else 'nobody' }}{% if t.winner is not none %} <span aria-hidden="true">★</span>{% endif %}</td></tr>
{% endfor %}
"""  # noqa: E501 - the template's text as it was
    assert str(trick_rows(tricks)) == _jinja(loop, h=tricks)


@settings(max_examples=EXAMPLES, deadline=None)
@given(faces=st.lists(FACE, max_size=8))
def test_cards_write_what_the_macro_wrote(faces: list[CardFace]) -> None:
    macro = ('{%- if faces %}<span class="cards">{{ card_row(faces) }}</span>'
             '{% else %}<span class="none">none</span>{% endif -%}')
    assert str(cards_html(faces)) == _jinja(macro, faces=faces)
