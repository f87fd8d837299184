"""Which diagnostic codes are shown: ``select``, ``extend-select`` and ``ignore``,
as ruff resolves them.

A selector is a code (``C502``), a prefix of codes (``C5``, ``C``, ``R40``) or
``ALL``. Each layer — the configuration file, then the command line — is
applied over the one before: a layer with ``select`` starts again from its
selection (so ``--select C502`` on the command line shows C502 even where the
configuration ignores it), one without only adds its ``extend-select`` and
removes its ``ignore``. Inside a layer the most specific selector that matches
a code decides (``--select C --ignore C502``: every claim but C502;
``--ignore C --select C502``: only C502 of the claims); of two as specific,
``ignore`` wins. By default every code is selected.

L101 (a file that could not be read) is always shown: a run that couldn't read
an input exits with 3 whatever is selected, and says why.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from pitchcli.diagnostics import CODES

ALL = "ALL"
ALWAYS = frozenset({"L101"})


class SelectorError(ValueError):
    """A selector that is no code, no prefix of one, nor ``ALL``."""


def selectors(items: Iterable[str]) -> tuple[str, ...]:
    """Selectors as given (``"C5,R407"`` and ``["C5", "R407"]`` alike), upper-cased
    and checked; raises ``SelectorError`` naming the first unknown one."""
    out: list[str] = []
    for item in items:
        for part in item.split(","):
            s = part.strip().upper()
            if not s:
                continue
            if s != ALL and not any(code.startswith(s) for code in CODES):
                from pitchcli.suggest import did_you_mean
                raise SelectorError(f"unknown code or prefix {part.strip()!r}{did_you_mean(s, CODES)} "
                                    f"(`pitch explain` lists the codes)")
            out.append(s)
    return tuple(out)


def _specificity(selector: str) -> int:
    return 0 if selector == ALL else len(selector)


def _matches(selector: str, code: str) -> bool:
    return selector == ALL or code.startswith(selector)


class Layer(NamedTuple):
    """One source of selection: ``select`` (None: not given), ``extend-select``, ``ignore``."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    def decide(self, code: str, before: bool) -> bool:
        """Whether ``code`` is selected after this layer (``before``: after the layers under it)."""
        chosen = (*(self.select or ()), *self.extend_select)
        best: tuple[int, bool] | None = None  # (specificity, selected); ignore wins a tie
        for s in chosen:
            if _matches(s, code) and (best is None or _specificity(s) > best[0]):
                best = (_specificity(s), True)
        for s in self.ignore:
            if _matches(s, code) and (best is None or _specificity(s) >= best[0]):
                best = (_specificity(s), False)
        if best is not None:
            return best[1]
        return False if self.select is not None else before


def enabled(layers: Iterable[Layer]) -> frozenset[str]:
    """The codes shown after ``layers``, in order (every code before the first)."""
    layers = list(layers)
    out = set()
    for code in CODES:
        on = True
        for layer in layers:
            on = layer.decide(code, on)
        if on or code in ALWAYS:
            out.add(code)
    return frozenset(out)
