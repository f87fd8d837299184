"""The fragments of a game page a page repeats hundreds of times, written in
Python rather than looped over in Jinja: a card, a row of cards, a card of a
trick, a point, a hand's outcome, a list of pairs, a hand's tricks, and (the
most of a page) the hands table's rows and each hand's section.

A game page of ten hands is some 100 KB: a loop of the template's costs a
loop context and an escaped expression for each of some three thousand
values a page, and rendering the hands was three quarters of a page's time.
Each function here writes exactly what the template text it replaced wrote,
rendered by the report's own environment (autoescape, ``finalize``): every
value from a record goes through ``templating.html`` (made printable, then
escaped) as ``{{ value }}`` does, and markup this module made itself
(``Markup``) passes as it is. ``tests/render/test_page_fragments.py`` holds
each to its template text on hostile text, and
``tests/render/test_report_unchanged.py`` whole sites to the pages written
before.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

from markupsafe import Markup

from pitchcli.cards import SUIT_NAMES, describe
from pitchcli.cards import card as parse_card
from pitchcli.render.templating import environment, html
from pitchcli.views.game import CardFace, GameView, HandView, PointView, TrickView

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_COLOUR = {"S": "black", "C": "black", "H": "red", "D": "red"}


@cache
def _macros() -> Any:
    """The macros of ``macros.html.j2`` as a module, for the fragments a page
    repeats hundreds of times (a card, made or set), rendered once each."""
    return environment().get_template("macros.html.j2").make_module(
        {"suit_symbol": SUIT_SYMBOL, "suit_colour": SUIT_COLOUR})


@cache
def card_html(face: CardFace) -> Markup:
    """A card as HTML (the ``card`` macro), made once per card and trump flag:
    a game page shows hundreds of cards and there are 54 of them."""
    return Markup(_macros().card(face))


def card_row(faces: list[CardFace]) -> Markup:
    """Cards in a row, each as ``card_html`` (what ``cards_html`` wraps):
    one call for a hand's cards, not one call of the template per card."""
    return Markup("".join(map(card_html, faces)))


@lru_cache(maxsize=1 << 12)
def _name_html(name: str) -> Markup:
    """A player's or side's name as a page writes it (``html``), made once per
    name: a game page names its few players some three hundred times."""
    return html(name)


_DASH = Markup("—")


def point_html(cell: PointView | str | None) -> Markup:
    """A cell of a hand's points: who took an Auction Pitch point and with
    which card ('Ann ♠A'), '—' for a point nobody took, or text."""
    if isinstance(cell, str):
        return html(cell)
    if cell is None or cell.unit is None:
        return _DASH
    unit = _name_html(cell.unit)
    return Markup(f"{unit} {card_html(cell.card)}") if cell.card else unit


@cache
def _made_markup(scored: bool, made: bool | None) -> Markup:
    return Markup(_macros().made(HandView(0, "", scored, made=made)))


def made_html(h: HandView) -> Markup:
    """A hand's outcome tag (the ``made`` macro): made, set or not scored."""
    return _made_markup(h.scored, h.made)


_NO_CARDS = Markup('<span class="none">none</span>')


def cards_html(faces: list[CardFace]) -> Markup:
    """Cards in a row, each with its rank and suit as text, or "none" for an
    empty list: a hand diagram's box (a deal, discards, draws, the kitty)."""
    return Markup(f'<span class="cards">{card_row(faces)}</span>') if faces else _NO_CARDS


def listing(pairs: Iterable[tuple[object, object]], signed: bool = False) -> Markup:
    """Pairs as a page lists them, 'Ann 5, Ben 3' (``signed``: 'Ann +5, Ben -3'):
    what a Jinja loop writing ``{{ a }} {{ b }}`` for each pair writes, made in
    one call (a game page has hundreds of such pairs). The text is escaped
    once, whole: escaping and ``printable`` work a character at a time, so the
    whole escaped is the parts escaped and joined."""
    return html(", ".join(f"{a} {b:+d}" if signed else f"{a} {b}" for a, b in pairs))


def points_html(awards: list[PointView]) -> Markup:
    """A hand's Auction Pitch points: 'High: Ann ♠A; Low: …' (``point_html`` each)."""
    return Markup("; ".join(f"{html(a.kind.capitalize())}: {point_html(a)}" for a in awards))


def card_names(texts: list[str]) -> str:
    """Cards as words, 'Ace of spades, Little joker' (``card_name`` each)."""
    return ", ".join(map(card_name, texts))


def trick_cells(t: TrickView) -> Markup:
    """The cells of a trick's row, one per card in play order (the card, who
    played it), the winner's marked. (Not made once per player and card, as
    the cards are: a league's thousand players and 54 cards are too many to
    keep, and a cell is quickly joined.)"""
    won = t.winner
    return Markup("".join([f'<td class="card-col{" won" if p == won else ""}">{card_html(f)}'
                           f'<span class="who">{_name_html(p)}</span></td>'
                           for p, f in zip(t.players, t.faces, strict=True)]))


@lru_cache(maxsize=1 << 12)
def _won_by(winner: str | None) -> str:
    return "nobody" if winner is None else f'{_name_html(winner)} <span aria-hidden="true">★</span>'


def trick_rows(tricks: list[TrickView]) -> Markup:
    """The rows of a hand's table of tricks, each its number, its cards
    (``trick_cells``) and who won it: a game page has some sixty, written in
    one call rather than a loop of the template's."""
    return Markup("".join(f'<tr><th class="num" scope="row">{t.number}</th>\n{trick_cells(t)}'
                          f'<td class="text name">{_won_by(t.winner)}</td></tr>\n' for t in tricks))


def card_name(text: str) -> str:
    """A card as words, as its face says it: 'Little joker', 'Ace of spades'."""
    words = describe(parse_card(text)).removeprefix("the ").rsplit(" (", 1)[0]
    return words[0].upper() + words[1:]


# --- the hands: the table's rows and each hand's section --------------------


@lru_cache(maxsize=16)
def _trump_cell(trump: str) -> str:
    """The hands table's trump cell: the suit's symbol, its name as the title."""
    return (f'<span class="card {html(SUIT_COLOUR[trump])}" title="{html(SUIT_NAMES[trump])}">'
            f'<span class="suit">{html(SUIT_SYMBOL[trump])}</span></span>')


@lru_cache(maxsize=16)
def _trump_words(trump: str) -> str:
    """A contract's trump: ', trump ♦ diamonds'."""
    return (f', trump <span class="card {html(SUIT_COLOUR[trump])}"><span class="suit">'
            f'{html(SUIT_SYMBOL[trump])}</span></span> {html(SUIT_NAMES[trump])}')


def hand_rows(v: GameView, point_cells: list[list[Any]]) -> Markup:
    """The rows of the hands table, one per hand: its number (a link to its
    section), dealer, contract, trump, its point cells (``point_cells``, one
    list per hand: ``point_html`` each), made or set and the running totals."""
    out = []
    units = v.units
    for h, cells in zip(v.hands, point_cells, strict=True):
        n = html(h.number)
        contract = f"{html(h.bidder)} {html(h.bid)}" if h.bidder is not None else ""
        totals = h.totals
        won = ' class="winner"' if h.number == v.winner_hand else ""
        out.append(
            f'<tr{won}><th class="num" scope="row">'
            f'<a href="#hand-{n}">{n}</a></th>\n'
            f'<td class="text">{html(h.dealer)}</td>\n'
            f'<td class="text">{contract}</td>\n'
            f'<td class="text">{_trump_cell(h.trump) if h.trump else ""}</td>\n'
            + "".join(f'<td class="text">{point_html(c)}</td>' for c in cells)
            + f'<td class="text">{made_html(h)}</td>\n'
            + "".join(f'<td class="num">{html(totals[u]) if totals is not None else "?"}</td>' for u in units)
            + "</tr>\n")
    return Markup("".join(out))


def _deal(h: HandView, n: str) -> str:
    """A hand's diagram: each seat's box (dealt; discarded and drawn in an
    exchange), the kitty and the cards set aside; or why there is none."""
    d = h.deal
    if not d:
        why = ("the record gives the play, not the hands dealt" if h.tricks else "a tally" if h.scored
               else "the hand could not be scored")
        return f'<p class="meta deal-none">The deal: not recorded ({why}).</p>\n'
    exchange = " and the exchange" if d.seats and d.seats[0].discards is not None else ""
    out = [f'<h4 id="hand-{n}-deal">The deal{exchange}</h4>\n<ul class="deal" aria-labelledby="hand-{n}-deal">\n']
    for sd in d.seats:
        tags = ((' <span class="tag">dealer</span>' if sd.player == h.dealer else "")
                + (' <span class="tag">bidder</span>' if sd.player == h.bidder else ""))
        out.append(f'<li class="seat"><p class="seat-name">{html(sd.player)}{tags}</p>\n'
                   f'<p class="held"><span class="held-label">Dealt</span> {cards_html(sd.dealt)}</p>\n')
        if sd.discards is not None:
            out.append(f'<p class="held"><span class="held-label">Discarded</span> {cards_html(sd.discards)}</p>\n'
                       f'<p class="held"><span class="held-label">Drew</span> {cards_html(sd.draws)}</p>')
        out.append("</li>\n")
    if d.kitty is not None:
        by = f", taken by {html(h.bidder)}" if h.bidder is not None else ""
        out.append(f'<li class="seat aside"><p class="seat-name">The kitty{by}</p>\n'
                   f'<p class="held">{cards_html(d.kitty)}</p></li>\n')
    if d.set_aside is not None:
        out.append('<li class="seat aside"><p class="seat-name">Set aside at the deal, not used</p>\n'
                   f'<p class="held">{cards_html(d.set_aside)}</p></li>\n')
    out.append("</ul>\n")
    return "".join(out)


def _section(h: HandView, winner_hand: int | None) -> str:
    n = html(h.number)
    out = [f'<section class="hand" id="hand-{n}" aria-labelledby="hand-{n}-h">\n'
           f'<h3 id="hand-{n}-h">Hand {n}{" · won the game" if h.number == winner_hand else ""}</h3>\n'
           f'<dl class="facts">\n<dt>Dealer</dt><dd>{html(h.dealer)}</dd>\n']
    if h.calls:
        out.append(f"<dt>Calls</dt><dd>{listing(h.calls)}</dd>")
    if h.bidder is not None:
        called = f"; called {html(card_names(h.called))}" if h.called else ""
        partner = f"; partner {html(', '.join(h.partners))}" if h.partners else ""
        out.append(f"<dt>Contract</dt><dd>{html(h.bidder)} {html(h.bid)}"
                   f"{_trump_words(h.trump) if h.trump else ''}{called}{partner}</dd>")
    if h.awards:
        out.append(f"<dt>Points</dt><dd>{points_html(h.awards)}</dd>\n")
    elif h.taken:
        out.append(f"<dt>Points taken</dt><dd>{listing(h.taken.items())}</dd>")
    change = f" — {listing(h.change.items(), signed=True)}" if h.change else ""
    totals = listing(h.totals.items()) if h.totals is not None else "unknown"
    out.append(f"<dt>Outcome</dt><dd>{made_html(h)}{change}</dd>\n<dt>Totals</dt><dd>{totals}</dd>\n</dl>\n")
    out.append(_deal(h, n))
    if h.tricks:
        heads = "".join(f'<th class="card-col" scope="col">{"Lead" if i == 0 else i + 1}</th>'
                        for i in range(len(h.tricks[0].players)))
        table = Markup(f'<table class="trick">\n'
                       f"<caption>Tricks of hand {n}, cards in play order (the winning card marked)</caption>\n"
                       f'<thead><tr><th class="num" scope="col">Trick</th>{heads}<th class="text" scope="col">'
                       f"Won by</th></tr></thead>\n<tbody>\n{trick_rows(h.tricks)}</tbody></table>")
        # (the templates' own scroll box, the ``scroll`` macro, called once a hand)
        out.append(_macros().scroll(f"Tricks of hand {h.number}", caller=lambda: table))
    elif h.scored:
        out.append('<p class="meta">A tally: the record gives who took which point, not the cards.</p>\n')
    out.append("</section>\n")
    return "".join(out)


def hand_sections(v: GameView) -> list[Markup]:
    """Each hand's section: its facts (dealer, calls, contract, points,
    outcome, totals), its diagram (``_deal``) and its tricks. A list, which the
    template writes one by one: a long game's page is joined once, by Jinja,
    not first in parts here (a copy of most of a page in memory the more)."""
    return [Markup(_section(h, v.winner_hand)) for h in v.hands]
