"""The output formats of ``pitch validate``, by name: one interface, so the
command picks a renderer rather than branching on the format."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TextIO

from pitchcli.pipeline.check import Checked
from pitchcli.render.diagnostics import write_json, write_text
from pitchcli.views.verdict import Verdict

# A renderer writes the checked documents to ``out`` as they come and returns
# the tally (exit status): (checked, out, strict, quiet) -> Verdict.
Renderer = Callable[[Iterable[Checked], TextIO, bool, bool], Verdict]


def renderers() -> dict[str, Renderer]:
    """The output formats of ``pitch validate``, by name: one interface, so the
    command picks a renderer rather than branching on the format."""
    return {"text": write_text, "json": write_json, "github": _write_github, "sarif": _write_sarif}


# The CI formats' module (and what it imports) is read only when one is asked for.
def _write_github(checked: Iterable[Checked], out: TextIO, strict: bool, quiet: bool) -> Verdict:
    from pitchcli.render.ci import write_github
    return write_github(checked, out, strict, quiet)


def _write_sarif(checked: Iterable[Checked], out: TextIO, strict: bool, quiet: bool) -> Verdict:
    from pitchcli.render.ci import write_sarif
    return write_sarif(checked, out, strict, quiet)
