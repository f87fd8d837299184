"""``pitch profiles``, ``pitch rules`` and ``pitch explain`` rendered: text or
JSON (``render.formats.PROFILES``, ``RULES``, ``EXPLAIN``), from the reference
of ``pitchcli.views.reference``. Each renderer writes to the stream it is given.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from pitchcli.profiles import Profile
from pitchcli.views import reference


def _json(data: Any, out: TextIO, ascii_only: bool = False) -> None:
    out.write(json.dumps(data, ensure_ascii=ascii_only, indent=2) + "\n")


def profiles_text(shown: list[Profile], out: TextIO, one: bool) -> None:
    """Every option of one profile (``one``), or a line per profile."""
    if one:
        out.write(reference.profile_text(shown[0]))
        return
    for p in shown:
        out.write(reference.profile_line(p) + "\n")


def profiles_json(shown: list[Profile], out: TextIO, one: bool) -> None:
    """The options of one profile (``one``) as a mapping, or of every profile by name."""
    data = {p.name: reference.profile_options(p) for p in shown}
    _json(data[shown[0].name] if one else data, out, ascii_only=True)


def rules_text(found: list[reference.Rule], out: TextIO) -> None:
    """The rules found in full, or (none asked for) the list of every rule."""
    out.write("\n".join(reference.rule_text(r) for r in found) if found else reference.rules_list())


def rules_json(found: list[reference.Rule], out: TextIO) -> None:
    """The rules found (none asked for: every rule) as a JSON list."""
    _json([reference.rule_json(r) for r in (found or reference.rules().values())], out)


def codes_text(found: list[reference.CodeDoc], out: TextIO) -> None:
    """The codes found explained, or (none asked for) the list of every code."""
    out.write("\n".join(reference.code_text(c) for c in found) if found else reference.codes_list())


def codes_json(found: list[reference.CodeDoc], out: TextIO) -> None:
    """The codes found (none asked for: every code) as a JSON list."""
    _json([reference.code_json(c) for c in (found or reference.codes().values())], out)
