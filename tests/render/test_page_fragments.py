"""The fragments of a game page written in Python write what the template's
loops wrote (issue 22: ``pitch report``'s game pages).

A game page's hands, tricks and deal boxes were Jinja loops: a loop context
and two or three escaped expressions for each pair, trick and box, some
fifteen hundred a page. ``listing``, ``points_html``, ``card_names``,
``trick_rows`` and ``cards_html`` write the same in one call each, and
``hand_rows`` and ``hand_sections`` (``render.fragments``) the hands table's
rows and every hand's section: most of a page. Each is
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

from pitchcli.cards import SUIT_NAMES
from pitchcli.render.fragments import (
    SUIT_COLOUR,
    SUIT_SYMBOL,
    card_html,
    card_name,
    card_names,
    card_row,
    cards_html,
    hand_rows,
    hand_sections,
    listing,
    made_html,
    point_html,
    points_html,
    trick_cells,
    trick_rows,
)
from pitchcli.render.templating import environment
from pitchcli.views.game import CardFace, DealView, GameView, HandView, PointView, SeatDeal, TrickView

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
        card_name=card_name, card_names=card_names, cards_html=cards_html, listing=listing,
        points_html=points_html, made_html=made_html, trick_rows=trick_rows,
        suit_symbol=SUIT_SYMBOL, suit_colour=SUIT_COLOUR, suit_name=SUIT_NAMES)


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


# --- the hands: the table's rows and each hand's section (the template's text as it was) ---

HAND_ROWS = """{% for h in v.hands %}
<tr{% if h.number == v.winner_hand %} class="winner"{% endif %}><th class="num" scope="row"><a href="#hand-{{ h.number }}">{{ h.number }}</a></th>
<td class="text">{{ h.dealer }}</td>
<td class="text">{% if h.bidder is not none %}{{ h.bidder }} {{ h.bid }}{% endif %}</td>
<td class="text">{% if h.trump %}<span class="card {{ suit_colour[h.trump] }}" title="{{ suit_name[h.trump] }}"><span class="suit">{{ suit_symbol[h.trump] }}</span></span>{% endif %}</td>
{% for cell in g.point_cells[loop.index0] %}<td class="text">{{ point_html(cell) }}</td>{% endfor %}
<td class="text">{{ made_html(h) }}</td>
{% for u in v.units %}<td class="num">{{ h.totals[u] if h.totals is not none else '?' }}</td>{% endfor %}</tr>
{% endfor %}
"""  # noqa: E501

HAND_SECTIONS = """{% import "macros.html.j2" as m with context %}{% for h in v.hands %}
<section class="hand" id="hand-{{ h.number }}" aria-labelledby="hand-{{ h.number }}-h">
<h3 id="hand-{{ h.number }}-h">Hand {{ h.number }}{% if h.number == v.winner_hand %} · won the game{% endif %}</h3>
<dl class="facts">
<dt>Dealer</dt><dd>{{ h.dealer }}</dd>
{% if h.calls %}<dt>Calls</dt><dd>{{ listing(h.calls) }}</dd>{% endif %}
{% if h.bidder is not none %}<dt>Contract</dt><dd>{{ h.bidder }} {{ h.bid }}{% if h.trump %}, trump <span class="card {{ suit_colour[h.trump] }}"><span class="suit">{{ suit_symbol[h.trump] }}</span></span> {{ suit_name[h.trump] }}{% endif %}{% if h.called %}; called {{ card_names(h.called) }}{% endif %}{% if h.partners %}; partner {{ h.partners | join(', ') }}{% endif %}</dd>{% endif %}
{% if h.awards %}<dt>Points</dt><dd>{{ points_html(h.awards) }}</dd>
{% elif h.taken %}<dt>Points taken</dt><dd>{{ listing(h.taken.items()) }}</dd>{% endif %}
<dt>Outcome</dt><dd>{{ made_html(h) }}{% if h.change %} — {{ listing(h.change.items(), signed=true) }}{% endif %}</dd>
<dt>Totals</dt><dd>{% if h.totals is not none %}{{ listing(h.totals.items()) }}{% else %}unknown{% endif %}</dd>
</dl>
{% if h.deal %}
<h4 id="hand-{{ h.number }}-deal">The deal{% if h.deal.seats and h.deal.seats[0].discards is not none %} and the exchange{% endif %}</h4>
<ul class="deal" aria-labelledby="hand-{{ h.number }}-deal">
{% for sd in h.deal.seats %}<li class="seat"><p class="seat-name">{{ sd.player }}{% if sd.player == h.dealer %} <span class="tag">dealer</span>{% endif %}{% if sd.player == h.bidder %} <span class="tag">bidder</span>{% endif %}</p>
<p class="held"><span class="held-label">Dealt</span> {{ cards_html(sd.dealt) }}</p>
{% if sd.discards is not none %}<p class="held"><span class="held-label">Discarded</span> {{ cards_html(sd.discards) }}</p>
<p class="held"><span class="held-label">Drew</span> {{ cards_html(sd.draws) }}</p>{% endif %}
</li>
{% endfor %}
{% if h.deal.kitty is not none %}<li class="seat aside"><p class="seat-name">The kitty{% if h.bidder is not none %}, taken by {{ h.bidder }}{% endif %}</p>
<p class="held">{{ cards_html(h.deal.kitty) }}</p></li>
{% endif %}
{% if h.deal.set_aside is not none %}<li class="seat aside"><p class="seat-name">Set aside at the deal, not used</p>
<p class="held">{{ cards_html(h.deal.set_aside) }}</p></li>
{% endif %}
</ul>
{% else %}<p class="meta deal-none">The deal: not recorded ({{ 'the record gives the play, not the hands dealt' if h.tricks else 'a tally' if h.scored else 'the hand could not be scored' }}).</p>
{% endif %}
{% if h.tricks %}
{% call m.scroll('Tricks of hand ' ~ h.number) %}<table class="trick">
<caption>Tricks of hand {{ h.number }}, cards in play order (the winning card marked)</caption>
<thead><tr><th class="num" scope="col">Trick</th>{% for i in range(h.tricks[0].players | length) %}<th class="card-col" scope="col">{{ 'Lead' if i == 0 else loop.index }}</th>{% endfor %}<th class="text" scope="col">Won by</th></tr></thead>
<tbody>
{{ trick_rows(h.tricks) }}</tbody></table>{% endcall %}
{% elif h.scored %}<p class="meta">A tally: the record gives who took which point, not the cards.</p>
{% endif %}
</section>
{% endfor %}
"""  # noqa: E501

SUIT = st.sampled_from(["S", "H", "D", "C"])
CARD_TEXT = st.sampled_from(["AS", "10H", "2C", "JD", "BJ", "LJ"])
PAIRS = st.lists(st.tuples(TEXT, st.one_of(TEXT, st.integers(-99, 99))), max_size=3)
POINT = st.builds(PointView, st.sampled_from(["high", "low", "jack", "game"]), st.one_of(st.none(), TEXT),
                  st.one_of(st.none(), FACE), st.none())
TRICK = st.integers(1, 4).flatmap(lambda n: st.builds(
    TrickView, st.integers(1, 12), TEXT, st.tuples(*[TEXT] * n), st.tuples(*[FACE] * n),
    st.one_of(st.none(), TEXT), st.just("high")))
FACES = st.lists(FACE, max_size=3)
SEAT = st.one_of(st.builds(SeatDeal, TEXT, FACES, st.none(), st.none()), st.builds(SeatDeal, TEXT, FACES, FACES, FACES))
DEAL = st.builds(DealView, st.lists(SEAT, max_size=3), st.one_of(st.none(), FACES), st.one_of(st.none(), FACES))


@st.composite
def games(draw: st.DrawFn) -> tuple[GameView, list[list[Any]]]:
    """A game view of a few hands with any text a record can hold, and its point cells."""
    units = draw(st.lists(TEXT, min_size=1, max_size=3, unique=True))
    names = st.one_of(TEXT, st.sampled_from(units))
    hands = []
    for number in range(1, draw(st.integers(0, 3)) + 1):
        dealer = draw(names)
        hands.append(HandView(
            number, dealer, draw(st.booleans()), calls=draw(st.lists(st.tuples(TEXT, TEXT), max_size=3)),
            bidder=draw(st.one_of(st.none(), st.just(dealer), names)),
            bid=draw(st.one_of(st.none(), st.integers(0, 9))),
            trump=draw(st.one_of(st.none(), SUIT)), called=draw(st.lists(CARD_TEXT, max_size=2)),
            partners=draw(st.lists(TEXT, max_size=2)), awards=draw(st.lists(POINT, max_size=4)),
            taken=dict(draw(st.lists(st.tuples(TEXT, st.integers(0, 9)), max_size=3))),
            made=draw(st.one_of(st.none(), st.booleans())),
            change=dict(draw(st.lists(st.tuples(TEXT, st.integers(-9, 9)), max_size=3))),
            totals=draw(st.one_of(st.none(), st.fixed_dictionaries({u: st.integers(-30, 30) for u in units}))),
            tricks=draw(st.lists(TRICK, max_size=2)), deal=draw(st.one_of(st.none(), DEAL))))
    v = GameView(file="f", document=0, event=None, date=None, round=None, table=None, id=None, variant="auction",
                 players=units, units=units, teams={}, target=11, hands=hands, totals=None, winner=None,
                 winner_hand=draw(st.one_of(st.none(), st.integers(1, 3))))
    cells = [draw(st.lists(st.one_of(st.none(), TEXT, POINT), max_size=4)) for _ in hands]
    return v, cells


@settings(max_examples=EXAMPLES, deadline=None)
@given(game=games())
def test_hand_rows_write_what_the_loop_wrote(game: tuple[GameView, list[list[Any]]]) -> None:
    v, cells = game
    assert str(hand_rows(v, cells)) == _jinja(HAND_ROWS, v=v, g={"point_cells": cells})


@settings(max_examples=EXAMPLES, deadline=None)
@given(game=games())
def test_hand_sections_write_what_the_loop_wrote(game: tuple[GameView, list[list[Any]]]) -> None:
    v, _ = game
    assert "".join(hand_sections(v)) == _jinja(HAND_SECTIONS, v=v)


# --- a card of a trick, and a point: the macros they replaced (their text as it was) ---

PLAY_CELL = """{% import "macros.html.j2" as m with context %}{% macro play_cell(player, c, won) -%}
<td class="card-col{{ ' won' if won else '' }}">{{ m.card(c) }}<span class="who">{{ player }}</span></td>
{%- endmacro %}{% for p, f in zip(t.players, t.faces) %}{{ play_cell(p, f, p == t.winner) }}{% endfor %}"""

POINT_MACRO = """{% macro point(cell) -%}
{%- if cell is string %}{{ cell }}
{%- elif cell is none or cell.unit is none %}—
{%- else %}{{ cell.unit }}{% if cell.card %} {{ card_html(cell.card) }}{% endif %}{% endif -%}
{%- endmacro %}{{ point(cell) }}"""


@settings(max_examples=EXAMPLES, deadline=None)
@given(trick=TRICK, winner=st.one_of(st.none(), TEXT, st.sampled_from(["Ann"])))
def test_trick_cells_write_what_the_macro_wrote(trick: TrickView, winner: str | None) -> None:
    # (a winner among the players half the time: the won card's mark)
    t = trick._replace(winner=trick.players[0] if winner == "Ann" else winner)
    assert str(trick_cells(t)) == _jinja(PLAY_CELL, t=t, zip=zip)


@settings(max_examples=EXAMPLES, deadline=None)
@given(cell=st.one_of(st.none(), TEXT, POINT))
def test_a_point_writes_what_the_macro_wrote(cell: PointView | str | None) -> None:
    assert str(point_html(cell)) == _jinja(POINT_MACRO, cell=cell, card_html=card_html)
