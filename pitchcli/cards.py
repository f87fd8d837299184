"""Cards and their notation (CARD-1, CARD-2, CARD-3).

Cards are interned: there is exactly one ``Card`` object per card, so cards
compare and hash by identity and parsing is one dictionary look-up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType

SUITS = ("S", "H", "D", "C")
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SINGULAR = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
# CARD-3: suit symbols accepted on input (white variants too: people type them).
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
RANK_TEXT = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
             11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_NAMES = {11: "jack", 12: "queen", 13: "king", 14: "ace"}
# TP-TRUMP-2: the other suit of the same colour (the off-jack's suit).
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}


class Card:
    """One card. ``rank`` is 2..14 (ace high, CARD-1), 0 for jokers; ``suit`` is
    ``S H D C`` or ``None`` for a joker (CARD-2)."""

    __slots__ = ("index", "rank", "suit", "text")

    def __init__(self, text: str, rank: int, suit: str | None, index: int) -> None:
        self.text = text
        self.rank = rank
        self.suit = suit
        self.index = index

    @property
    def is_joker(self) -> bool:
        """True for ``BJ`` and ``LJ``."""
        return self.suit is None

    def __repr__(self) -> str:
        return f"Card({self.text})"

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Keep interning across pickling (multiprocessing in summarize).
        return (card, (self.text,))


def _build() -> tuple[dict[str, Card], list[Card]]:
    by_text: dict[str, Card] = {}
    order: list[Card] = []
    for suit in SUITS:
        for rank in range(2, 15):
            c = Card(RANK_TEXT[rank] + suit, rank, suit, len(order))
            by_text[c.text] = c
            order.append(c)
    for text in ("BJ", "LJ"):
        c = Card(text, 0, None, len(order))
        by_text[text] = c
        order.append(c)
    return by_text, order


CANONICAL, ALL_CARDS = _build()
BIG_JOKER = CANONICAL["BJ"]
LITTLE_JOKER = CANONICAL["LJ"]
STANDARD_DECK: tuple[Card, ...] = tuple(ALL_CARDS[:52])  # CARD-1
JOKER_DECK: tuple[Card, ...] = tuple(ALL_CARDS)  # CARD-2


class CardError(ValueError):
    """A string that is not a card in any accepted notation (CARD-3)."""

    def __init__(self, text: object) -> None:
        self.text = text
        super().__init__(
            f"{text!r} is not a card: write rank then suit, such as AS, 10H, TH, JD, 2C, "
            f"A♠, or BJ / LJ for the jokers"
        )


def _variants() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for c in ALL_CARDS:
        if c.suit is None:
            forms = [c.text]
        else:
            ranks = [RANK_TEXT[c.rank]] + (["T"] if c.rank == 10 else [])
            suits = [c.suit] + [sym for sym, s in SUIT_SYMBOLS.items() if s == c.suit]
            forms = [r + s for r in ranks for s in suits]
        for f in forms:
            for variant in {f, f.lower(), f.upper(), f[:-1].lower() + f[-1], f[:-1] + f[-1].lower()}:
                table[variant] = c
                table[variant + "\ufe0f"] = c  # emoji presentation selector after a symbol
    return table


_PARSE: dict[str, Card] = _variants()
# Every accepted spelling -> its card (CARD-3), for callers on a hot path.
NOTATIONS: Mapping[str, Card] = MappingProxyType(_PARSE)
# Every accepted spelling -> its card's ``index`` (the engine works on ints). A
# plain dict, read-only by its type: a mapping proxy's ``get`` costs twice a
# dict's, and this is looked up once for every card of every record.
NOTATION_INDEX: Mapping[str, int] = {t: c.index for t, c in _PARSE.items()}


def card(text: str) -> Card:
    """Parse one card in any notation of CARD-3; raise ``CardError`` otherwise."""
    try:
        return _PARSE[text]
    except (KeyError, TypeError):
        raise CardError(text) from None


def try_card(text: object) -> Card | None:
    """Parse one card, or return ``None`` when ``text`` is not a card."""
    if isinstance(text, str):
        return _PARSE.get(text)
    return None


def cards(texts: Iterable[str]) -> list[Card]:
    """Parse a list of cards."""
    return [card(t) for t in texts]


# The spellings of a suit records use, read by one look-up: ``parse_suit`` is
# called for every hand the quick pass reads (issue 22). Each maps to what the
# rule below gives it; any other text takes the rule.
_SUIT_TEXTS = {**{s: s for s in SUITS}, **{s.lower(): s for s in SUITS}, **SUIT_SYMBOLS}


def parse_suit(text: object) -> str | None:
    """Parse a trump suit: ``S H D C`` in any case or a suit symbol; else ``None``."""
    if not isinstance(text, str):
        return None
    found = _SUIT_TEXTS.get(text)
    if found is not None:
        return found
    t = text.removesuffix("\ufe0f")
    if t.upper() in SUITS:
        return t.upper()
    return SUIT_SYMBOLS.get(t)


def describe(c: Card) -> str:
    """A card in words for messages: 'the jack of hearts (JH)'."""
    if c.suit is None:
        return f"the {'big' if c is BIG_JOKER else 'little'} joker ({c.text})"
    rank = RANK_NAMES.get(c.rank, RANK_TEXT[c.rank])
    return f"the {rank} of {SUIT_NAMES[c.suit]} ({c.text})"
