"""Diagnostics: one problem found in a record, located and explained.

A diagnostic carries a stable ``code`` (see ``CODES``), the id of the rule of
the rule book it enforces (``rule``, ``None`` for load, schema and claim
problems; docs/rules.md), a severity, a player-readable message and where it
is: the file, the index of the document in the file (from 0 inside the program;
every output shows it from 1, as hands and tricks are), the JSON Pointer of the
value and, once located, the line and column in the source text (1-based).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from pitchcli import escape

ERROR = "error"
WARNING = "warning"

# Diagnostics kept per document (validate --max-errors; None: all). The first
# ones in document order are kept and the rest only counted, so one broken
# record of 10,000 hands yields a page, not 10,000 lines.
DEFAULT_MAX_ERRORS = 100

# Game rows, and as many problems, that summarize keeps (--max-rows); here, not
# in pitchcli.views.summary, so that the command line can show it without importing
# the summary (start-up).
DEFAULT_MAX_ROWS = 1000

# Stable codes. Letters give the layer: L load, S schema, P profile, R rule of
# play, C claim (a recorded value the engine derives, disagreeing with it).
CODES: dict[str, str] = {
    "L101": "file unreadable",
    "L102": "not UTF-8 text",
    "L103": "syntax error (YAML or JSON)",
    "L104": "duplicate key in a mapping",
    "L105": "anchor or alias refused",
    "L106": "file too large",
    "L107": "nesting too deep",
    "L108": "too many documents in one file",
    "L109": "empty document or file",
    "L110": "top level is not a mapping",
    "L111": "byte-order mark",
    "L112": "value of a type a record cannot hold",
    "L113": "skipped: not a regular file, or a folder or file already read",
    "S201": "schema: unknown key",
    "S202": "schema: missing required key",
    "S203": "schema: wrong type",
    "S204": "schema: value not allowed",
    "S205": "schema: wrong number of items or properties",
    "S206": "schema: other schema violation",
    "P301": "unknown profile",
    "P302": "invalid rule option",
    "P303": "player count or team layout not allowed by the profile",
    "P304": "the record's variant or rules differ from the folder's configured house rules",
    "R401": "card not in the deck or written wrongly",
    "R402": "card in two places",
    "R403": "wrong cards dealt or held",
    "R404": "illegal or misplaced call in the auction",
    "R405": "wrong dealer",
    "R407": "illegal play (suit not followed)",
    "R408": "malformed trick or wrong number of tricks",
    "R409": "illegal discard or draw",
    "R410": "trump missing or wrong",
    "R411": "called partner wrong",
    "R412": "hand recorded after the game was won",
    "R413": "unknown player or team name",
    "R414": "record detail missing for this profile",
    "C501": "claimed points disagree with the cards",
    "C502": "claimed hand score disagrees",
    "C503": "claimed running totals disagree",
    "C504": "claimed result disagrees",
    "C505": "claimed contract disagrees with the bids",
    "C506": "claimed trump disagrees with the first lead",
    "C507": "claimed partner disagrees with the cards",
    "C508": "claimed trick leader disagrees",
    "N601": "unused suppression comment",
    "N602": "suppression comment not understood",
}


def is_claim(d: Diagnostic) -> bool:
    """A recorded value that disagrees with what the engine derives (both values
    are in ``extra``); the record can still be scored and replayed."""
    return d.code.startswith("C") and "claimed" in d.extra


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem in one document, with everything needed to locate it."""

    code: str
    message: str
    severity: str = ERROR
    rule: str | None = None
    pointer: str = ""
    file: str = "-"
    document: int = 0
    line: int | None = None
    column: int | None = None
    hand: int | None = None
    trick: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        # Bounded whatever a message quotes (escape.clip): a record's text can't
        # make one diagnostic large.
        if len(self.message) > escape.MESSAGE_LIMIT:
            object.__setattr__(self, "message", escape.clip(self.message))

    def located(self, **changes: Any) -> Diagnostic:
        """Return a copy with location fields (file, document, line, column) set."""
        return replace(self, **changes)

    def as_text(self, paint: Callable[[str, str], str] | None = None) -> str:
        """The compiler convention, as gcc and mypy print it, so that editors'
        problem matchers (VS Code's ``$gcc``) read it:
        ``file:line:col: error: CODE [RULE] message (at /ptr)`` (or ``warning:``);
        ``file:1:1:`` when the problem has no place in the text (L101).
        ``paint(role, text)`` colours the severity (role ``error``/``warning``)
        and the code (role ``code``) on a terminal (``pitchcli.render.style.paint``)."""
        # A diagnostic of no place in the text (a file that can't be read, one
        # too large) is put at 1:1, so that a problem matcher's regex, which
        # wants file:line:col, catches every line (as gcc's and mypy's would).
        where = f"{self.file}:{self.line or 1}:{self.column or 1}"
        rule = f" [{self.rule}]" if self.rule else ""
        doc = f" (document {self.document + 1})" if self.document else ""
        at = f" (at {self.pointer or '/'})"
        # One line whatever the record holds: its text (the file name, names in
        # the message, keys in the pointer) can't drive a terminal or forge a line.
        line = escape.text(f"{where}: {self.severity}: {self.code}{rule} {self.message}{at}{doc}")
        if paint is not None:  # colour added after escaping: only our own words get it
            plain = f": {self.severity}: {self.code}"
            line = line.replace(plain, f": {paint(self.severity, self.severity + ':')} {paint('code', self.code)}", 1)
        return line

    def as_json(self) -> dict[str, Any]:
        """A plain mapping for the JSON report (see README, "JSON report")."""
        out: dict[str, Any] = {
            "file": self.file,
            "document": self.document + 1,  # every output counts documents from 1
            "line": self.line,
            "column": self.column,
            "pointer": self.pointer,
            "code": self.code,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
            "hand": self.hand,
            "trick": self.trick,
        }
        if self.extra:
            out["details"] = self.extra
        return out
