"""pitchcli: the toolkit and record format for the card game Pitch, as a library.

The public API is the names below, importable from ``pitchcli`` itself and
nowhere else (a module path such as ``pitchcli.api.games`` may change in any
release; docs/scripting.md, "What is public"):

```python
import pitchcli

for checked in pitchcli.validate("records/"):      # files, folders, "-", bytes, streams, text=
    if not checked.valid:
        for d in checked.diagnostics:              # the fields of validate's JSON report
            print(d)
    elif checked.game is not None:
        print(checked.game.winner, checked.game.totals)
```

- reading and checking: ``read`` -> ``Document``; ``validate`` ->
  ``CheckedDocument`` (``Diagnostic``, ``Severity``); ``score`` -> ``Game``
  (``RecordError``);
- a game's results: ``Game``, ``Hand``, ``Trick``, ``Play``, ``Call``,
  ``Point``, ``PointCard``, ``Card``, the event log (``HandEvent``: the
  event types ``HandStarted`` ... ``HandSettled``) and the
  enums ``Family``, ``Level``, ``CallKind``, ``WonWith``, ``PointKind``,
  ``Credit``, ``EndReason``, ``NotWon``, ``TrumpBy``, ``Scoring``, ``Win``
  and ``NoWin`` (the game won in a hand, or a side at the target that did not
  win), and ``Words`` (what a game's rule family calls things);
- ``solve`` -> ``SolvedHand`` (``CostlyCard``); ``simulate``;
- ``summarize`` -> ``Summary`` (its ``count``: ``Counts``; ``game_rows``:
  ``GameRow``; ``problem_rows``: ``ProblemRow``; ``Summary.merge``, ``merge``,
  ``Summary.to_json`` / ``from_json``), ``write_report``, and
  ``summarize_file`` (one file or folder);
- ``rule_profiles``, ``profile`` -> ``Profile`` (``ProfileError``);
- the canonical form: ``dumps``, ``write`` (``RecordFormat``); ``Limits``.

Every name is imported on first use (PEP 562), so that ``import pitchcli``
(and ``pitch`` start-up) loads nothing but this file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from pitchcli.api.checking import CheckedDocument, RecordError, score, validate
    from pitchcli.api.documents import Diagnostic, Document, Limits, Source, read
    from pitchcli.api.games import (
        Awarded,
        Call,
        CallMade,
        Card,
        CardPlayed,
        ContractSet,
        Discarded,
        Drew,
        Game,
        Hand,
        HandEvent,
        HandSettled,
        HandStarted,
        NoWin,
        PartnerCalled,
        Play,
        Point,
        PointCard,
        PointCredit,
        PointsTaken,
        Trick,
        TrickStarted,
        TrickWon,
        TrumpSet,
        Win,
        Words,
    )
    from pitchcli.api.kinds import (
        CallKind,
        Credit,
        EndReason,
        Family,
        Level,
        NotWon,
        PointKind,
        RecordFormat,
        Scoring,
        Severity,
        TrumpBy,
        WonWith,
    )
    from pitchcli.api.records import dumps, simulate, write
    from pitchcli.api.rules import Profile, ProfileError, profile, rule_profiles
    from pitchcli.api.solving import CostlyCard, SolvedHand, solve
    from pitchcli.render.summary import write_report
    from pitchcli.views.summarize import merge, summarize, summarize_file
    from pitchcli.views.summary import Counts, GameRow, ProblemRow, Summary

# The event log's types (``Game.events``; the same tuple as pitchcli.api.games.EVENTS, which a test compares).
EVENTS = ("Awarded", "CallMade", "CardPlayed", "ContractSet", "Discarded", "Drew", "HandSettled", "HandStarted",
          "PartnerCalled", "PointCredit", "PointsTaken", "TrickStarted", "TrickWon", "TrumpSet")

# Where each public name lives; imported on first use, so that ``import
# pitchcli`` (and ``pitch`` start-up) doesn't load the loader, the engine and
# the reports for a version string.
_LAZY = {
    **dict.fromkeys(("CheckedDocument", "RecordError", "score", "validate"), "pitchcli.api.checking"),
    **dict.fromkeys(("Diagnostic", "Document", "Limits", "Source", "read"), "pitchcli.api.documents"),
    **dict.fromkeys(("Call", "Card", "Game", "Hand", "HandEvent", "NoWin", "Play", "Point", "PointCard", "Trick",
                     "Win", "Words", *EVENTS), "pitchcli.api.games"),
    **dict.fromkeys(("CallKind", "Credit", "EndReason", "Family", "Level", "NotWon", "PointKind", "RecordFormat",
                     "Scoring", "Severity", "TrumpBy", "WonWith"), "pitchcli.api.kinds"),
    **dict.fromkeys(("dumps", "simulate", "write"), "pitchcli.api.records"),
    **dict.fromkeys(("Profile", "ProfileError", "profile", "rule_profiles"), "pitchcli.api.rules"),
    **dict.fromkeys(("CostlyCard", "SolvedHand", "solve"), "pitchcli.api.solving"),
    "write_report": "pitchcli.render.summary",
    **dict.fromkeys(("merge", "summarize", "summarize_file"), "pitchcli.views.summarize"),
    **dict.fromkeys(("Counts", "GameRow", "ProblemRow", "Summary"), "pitchcli.views.summary"),
}

__all__ = [
    "Awarded",
    "Call",
    "CallKind",
    "CallMade",
    "Card",
    "CardPlayed",
    "CheckedDocument",
    "ContractSet",
    "CostlyCard",
    "Counts",
    "Credit",
    "Diagnostic",
    "Discarded",
    "Document",
    "Drew",
    "EndReason",
    "Family",
    "Game",
    "GameRow",
    "Hand",
    "HandEvent",
    "HandSettled",
    "HandStarted",
    "Level",
    "Limits",
    "NoWin",
    "NotWon",
    "PartnerCalled",
    "Play",
    "Point",
    "PointCard",
    "PointCredit",
    "PointKind",
    "PointsTaken",
    "ProblemRow",
    "Profile",
    "ProfileError",
    "RecordError",
    "RecordFormat",
    "Scoring",
    "Severity",
    "SolvedHand",
    "Source",
    "Summary",
    "Trick",
    "TrickStarted",
    "TrickWon",
    "TrumpBy",
    "TrumpSet",
    "Win",
    "WonWith",
    "Words",
    "__version__",
    "dumps",
    "merge",
    "profile",
    "read",
    "rule_profiles",
    "score",
    "simulate",
    "solve",
    "summarize",
    "summarize_file",
    "validate",
    "write",
    "write_report",
]


def __getattr__(name: str) -> Any:
    """The public API names, imported lazily (PEP 562)."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value  # the next look-up is a plain attribute
        return value
    raise AttributeError(f"module 'pitchcli' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names with the module's own (for ``dir()`` and completion)."""
    return sorted(set(globals()) | set(__all__))
