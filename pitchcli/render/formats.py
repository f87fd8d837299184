"""Every command's output formats, by name: one registry per command, name ->
renderer (as check-jsonschema keeps ``REPORTER_BY_NAME``).

A command's ``--format`` choices are its registry's keys, in order, and the
command calls the renderer it is given; no command branches on a format's
name, and a new format is one entry here. A renderer writes to the stream it
is given, never to standard output itself.

The renderers are named here, not imported (``Lazy``): ``pitch --help`` builds
every ``--format`` choice from these keys, and must not load the engine, the
loader or the table library to do it (start-up).
"""

from __future__ import annotations

import importlib
from typing import Any, NamedTuple


class Lazy(NamedTuple):
    """A renderer named by its module and attribute, imported when first used."""

    module: str
    name: str

    def load(self) -> Any:
        """The renderer itself."""
        return getattr(importlib.import_module(self.module), self.name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the renderer (a class makes one; a function writes)."""
        return self.load()(*args, **kwargs)


def _r(module: str, name: str) -> Lazy:
    return Lazy(f"pitchcli.render.{module}", name)


# validate: (out, strict, quiet) -> a driver Consumer whose end() is the exit status.
VALIDATE: dict[str, Lazy] = {
    "text": _r("diagnostics", "TextReport"), "full": _r("diagnostics", "FullReport"),
    "json": _r("diagnostics", "JsonReport"), "github": _r("ci", "GithubReport"), "sarif": _r("ci", "SarifReport"),
    "junit": _r("ci", "JunitReport"), "gitlab": _r("ci", "GitlabReport"),
}
# validate --statistics: the same consumers' interface, a count per code.
STATISTICS: dict[str, Lazy] = {"text": _r("diagnostics", "TextStatistics"), "json": _r("diagnostics", "JsonStatistics")}
# score: (out, hand, check) -> a sheet renderer (render.scoresheet).
SCORE: dict[str, Lazy] = {
    "text": _r("scoresheet", "TextSheets"), "json": _r("scoresheet", "JsonSheets"),
    "csv": _r("scoresheet", "CsvSheets"),
}
# replay: (out) -> a replay renderer (render.replay).
REPLAY: dict[str, Lazy] = {"text": _r("replay", "TextReplay"), "json": _r("replay", "JsonReplay")}
# solve: (out) -> a solve renderer (render.solve).
SOLVE: dict[str, Lazy] = {"text": _r("solve", "TextSolve"), "json": _r("solve", "JsonSolve")}
# summarize and merge: (out) -> a summary renderer (render.summary).
SUMMARY: dict[str, Lazy] = {
    "table": _r("summary", "TableSummary"), "csv": _r("summary", "CsvSummary"),
    "json": _r("summary", "JsonSummary"), "markdown": _r("summary", "MarkdownSummary"),
}
# ratings: (ratings, out, head_to_head) -> None.
RATINGS: dict[str, Lazy] = {
    "table": _r("ratings", "write_table"), "csv": _r("ratings", "write_csv"), "json": _r("ratings", "write_json"),
}
# profiles: (profiles, out, one) -> None; rules and explain: (found, out) -> None.
PROFILES: dict[str, Lazy] = {"text": _r("reference", "profiles_text"), "json": _r("reference", "profiles_json")}
RULES: dict[str, Lazy] = {"text": _r("reference", "rules_text"), "json": _r("reference", "rules_json")}
EXPLAIN: dict[str, Lazy] = {"text": _r("reference", "codes_text"), "json": _r("reference", "codes_json")}

# find: (out, err) -> a sink of the games found (render.found).
FIND: dict[str, Lazy] = {
    "table": _r("found", "Table"), "paths": _r("found", "Paths"), "json": _r("found", "JsonList"),
    "yaml": _r("found", "YamlRecords"), "jsonl": _r("found", "JsonlRecords"),
}

# dedup: (dedup, out, invalid) -> None (render.dedup).
DEDUP: dict[str, Lazy] = {
    "text": _r("dedup", "write_text"), "json": _r("dedup", "write_json"), "list": _r("dedup", "write_list"),
}

# Each command's registry by the command's name (simulate's --format is the
# record format, yaml/json/jsonl, written by ``pitchcli.record.write``: no renderer).
BY_COMMAND: dict[str, dict[str, Lazy]] = {
    "validate": VALIDATE, "score": SCORE, "replay": REPLAY, "solve": SOLVE, "summarize": SUMMARY, "merge": SUMMARY,
    "ratings": RATINGS, "profiles": PROFILES, "rules": RULES, "explain": EXPLAIN, "find": FIND, "dedup": DEDUP,
}
