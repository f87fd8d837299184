"""Small pieces of English for the outputs: plurals."""

from __future__ import annotations


def plural(n: int, word: str, grouped: bool = False) -> str:
    """'1 error', '2 errors'; ``grouped``: thousands separated, '1,200 games'."""
    return f"{n:,} {word}{'' if n == 1 else 's'}" if grouped else f"{n} {word}{'' if n == 1 else 's'}"
