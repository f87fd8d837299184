"""'Did you mean' for a misspelled name: the closest known one, if any is close."""

from __future__ import annotations

from collections.abc import Iterable


def closest(word: str, known: Iterable[str]) -> str | None:
    """The known name closest to ``word`` (ignoring case), or ``None``."""
    by_lower = {k.lower(): k for k in known}
    if word.lower() in by_lower:
        return by_lower[word.lower()]  # only the case differs
    import difflib  # only when a name is wrong (start-up)

    close = difflib.get_close_matches(word.lower(), list(by_lower), n=1, cutoff=0.6)
    return by_lower[close[0]] if close else None


def did_you_mean(word: object, known: Iterable[str]) -> str:
    """``"; did you mean 'Cal'?"`` for a misspelled ``word``, or ``""``."""
    if not isinstance(word, str):
        return ""
    match = closest(word, known)
    return f"; did you mean {match!r}?" if match is not None and match != word else ""
