"""The linter's step between the check and the renderers: what a run shows.

``lint(items, policy_for)`` reads the ``Checked`` documents of ``check_paths``
(with ``max_errors=None``: every diagnostic kept, so that what is dropped
here can't hide one past the cap) and, per document, with the
``Policy`` of its file (``pipeline.config`` and the command line):

1. adds P304 where the record's ``variant`` or ``rules`` differ from the
   folder's configured house rules (the configuration never stands in for
   the record's own: it only says what the record should have said);
2. drops what the record's own suppression comments suppress
   (``record.directives``: ``# pitch: ignore[C502]`` on the line,
   ``# pitch: ignore-file[C502]`` from its document to the end of the file),
   and adds N601 for a suppression that suppressed nothing and N602 for one
   that can't be read;
3. drops the codes not selected (``pipeline.selection``);
4. keeps the first ``max_errors`` and counts the rest (``Checked.cap``).

So every renderer, the counts and the exit status see the same diagnostics.
L101 (a file that could not be read) passes untouched. A file's unused
``ignore-file`` comments are known only at its end: they are added to its last
document, which is held back until the next file starts.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from pitchcli.diagnostics import DEFAULT_MAX_ERRORS, WARNING, Diagnostic
from pitchcli.pipeline.check import Checked, check_paths, check_source, check_sources
from pitchcli.pipeline.config import DEFAULTS, Config
from pitchcli.pipeline.selection import Layer, enabled
from pitchcli.pipeline.walk import SKIPPED

if TYPE_CHECKING:
    from pitchcli.record.directives import Directive  # (YAML only: read with the YAML)

UNREADABLE = "L101"


class Policy(NamedTuple):
    """What is shown of one file: the codes ``enabled``, the cap, and its
    configuration (for the house rules)."""

    enabled: frozenset[str]
    max_errors: int | None
    config: Config = DEFAULTS


def policies(discovery: Any, cli: Layer, max_errors: int | None) -> Callable[[str], Policy]:
    """``policy_for(file)``: the configuration ``discovery`` finds for the file
    (``config.Discovery``), with the command line's selection ``cli`` over its
    own and ``max_errors`` (None: the configuration's, else the default; 0: all)."""
    made: dict[int, Policy] = {}

    @lru_cache(maxsize=1)  # the file asked last: each file is asked in turn, for its documents and when closed
    def policy_for(file: str) -> Policy:
        config = discovery.for_input(file)
        policy = made.get(id(config))
        if policy is None:
            cap = max_errors if max_errors is not None else config.max_errors
            cap = DEFAULT_MAX_ERRORS if cap is None else cap
            policy = made[id(config)] = Policy(enabled([config.layer, cli]), cap or None, config)
        return policy

    return policy_for


def _value(v: Any) -> str:
    return json.dumps(list(v) if isinstance(v, tuple) else v)


def house_rules(c: Checked, config: Config) -> list[Diagnostic]:
    """P304 where the record's variant or rule options differ from ``config``'s."""
    data, doc = c.data, c.document
    if config.variant is None or not isinstance(data, dict) or doc is None:
        return []  # (most runs: no house rules, and no import run per document)
    from pitchcli.profiles import ProfileError, resolve

    variant, rules = data.get("variant"), data.get("rules", {})
    if not isinstance(variant, str) or not isinstance(rules, dict):
        return []  # the schema says what is wrong with them
    found: list[tuple[str, str]] = []
    if variant != config.variant:
        found.append(("/variant", f"the house rules ({config.name}) are variant {config.variant!r}; "
                                  f"this record names {variant!r}"))
    else:
        try:
            mine, house = resolve(variant, rules), resolve(config.variant, config.rules)
        except ProfileError:
            return []  # the record's own rules can't be played: P302 says why
        for option in config.rules or ():
            want, got = getattr(house, option), getattr(mine, option)
            if want != got:
                at = f"/rules/{option}" if option in rules else "/rules" if "rules" in data else "/variant"
                found.append((at, f"the house rules ({config.name}) set {option} {_value(want)}; this record "
                                  f"has {_value(got)}: write `rules: {{{option}: {_value(want)}}}`"))
    return [doc.place(Diagnostic("P304", message, WARNING, pointer=at)) for at, message in found]


def _directive_warning(d: Directive, c: Checked, code: str, message: str) -> Diagnostic:
    return Diagnostic(code, message, WARNING, file=c.file, document=c.index, line=d.line, column=d.column)


class _FileState:
    """What a file's documents share: its ``ignore-file`` comments and which suppressed something."""

    __slots__ = ("document_of", "used", "whole")

    def __init__(self) -> None:
        self.whole: list[Directive] = []
        self.used: set[tuple[int, str]] = set()  # (line, code)
        self.document_of: dict[int, Checked] = {}

    def unused(self) -> list[tuple[Directive, list[str]]]:
        """Each ``ignore-file`` comment with the codes it did not suppress."""
        out = []
        for d in self.whole:
            codes = [code for code in d.codes if (d.line, code) not in self.used]
            if codes:
                out.append((d, codes))
        return out


def _unused_message(codes: list[str], whole: bool) -> str:
    where = "in the rest of the file" if whole else "here"
    return f"unused suppression: nothing {where} has {', '.join(codes)}"


def _suppress(c: Checked, diags: list[Diagnostic], state: _FileState) -> list[Diagnostic]:
    """``diags`` less what the document's and the file's suppressions suppress;
    N601 and N602 for the document's own line comments."""
    marks = c.document.directives if c.document is not None else ()
    on_line: dict[int, list[Directive]] = {}
    added: list[Diagnostic] = []
    for m in marks:
        if m.problem is not None:
            added.append(_directive_warning(m, c, "N602", m.problem))
        elif m.whole_file:
            state.whole.append(m)
            state.document_of[m.line] = c
        else:
            on_line.setdefault(m.line, []).append(m)
    kept = []
    for d in diags:
        hit = None
        if d.code != UNREADABLE:
            hit = next((m for m in on_line.get(d.line or 0, ()) if d.code in m.codes), None)
            hit = hit or next((m for m in state.whole if d.code in m.codes), None)
        if hit is None:
            kept.append(d)
        else:
            state.used.add((hit.line, d.code))
    for line, ms in on_line.items():
        for m in ms:
            codes = [code for code in m.codes if (line, code) not in state.used]
            if codes:
                added.append(_directive_warning(m, c, "N601", _unused_message(codes, False)))
    return kept + added


def _finish(c: Checked, kept: list[Diagnostic], policy: Policy) -> None:
    """``c`` with ``kept`` less the codes not enabled, sorted, capped."""
    kept = [d for d in kept if d.code in policy.enabled]
    kept.sort(key=lambda d: (d.document, d.line or 0, d.column or 0, d.code))
    c.diagnostics = kept
    c.cap(policy.max_errors)


def lint(items: Iterable[Checked], policy_for: Callable[[str], Policy]) -> Iterator[Checked]:
    """The documents of ``items`` with what the run shows of each (module docstring)."""
    held: Checked | None = None
    state = _FileState()
    for c in items:
        if held is not None and held.file != c.file:
            yield _closed(held, state, policy_for(held.file))
            held, state = None, _FileState()
        if c.unreadable:
            if held is not None:  # the same name read before (named twice): its file is done
                yield _closed(held, state, policy_for(held.file))
                held, state = None, _FileState()
            yield c
            continue
        policy = policy_for(c.file)
        if c.skipped:
            if SKIPPED in policy.enabled:
                yield c
            continue
        diags = list(c.diagnostics) + house_rules(c, policy.config)
        _finish(c, _suppress(c, diags, state), policy)
        if held is not None:
            yield held
        held = c
    if held is not None:
        yield _closed(held, state, policy_for(held.file))


def _closed(last: Checked, state: _FileState, policy: Policy) -> Checked:
    """The file's last document, with N601 for its unused ``ignore-file`` comments."""
    extra = [_directive_warning(d, state.document_of[d.line], "N601", _unused_message(codes, True))
             for d, codes in state.unused()]
    if extra:
        _finish(last, last.diagnostics + [d for d in extra if d.code in policy.enabled], policy)
    return last


def checked_source(name: str, source: Any, policy_for: Callable[[str], Policy] | None = None,
                   max_errors: int | None = DEFAULT_MAX_ERRORS, quick: bool = False) -> Iterator[Checked]:
    """``check.check_source`` of one input, judged with ``policy_for`` (a
    ``Judge``'s, or a worker's ``FoundPolicies``) when it is given; else as checked,
    the first ``max_errors`` diagnostics kept (what the API's readers use)."""
    if policy_for is None:
        return check_source(name, source, max_errors=max_errors, quick=quick)
    return lint(check_source(name, source, max_errors=None, quick=quick), policy_for)


def checked_sources(sources: Iterable[tuple[str, Any]], policy_for: Callable[[str], Policy] | None = None,
                    max_errors: int | None = DEFAULT_MAX_ERRORS) -> Iterator[Checked]:
    """``checked_source`` of every ``(name, source)`` in order, with the quick
    pass fed across them (``check.check_sources``: a folder of one-game files
    is decided in chunks as a stream is; the same diagnostics)."""
    if policy_for is None:
        return check_sources(sources, max_errors=max_errors)
    return lint(check_sources(sources, max_errors=None), policy_for)


class FoundPolicies:
    """``policy_for`` over files whose policies were found beforehand: what
    worker processes and a cluster's workers are sent (the configuration is
    found where the command runs: a worker may be in another folder)."""

    def __init__(self, by_file: dict[str, Policy]) -> None:
        self.by_file = by_file

    def __call__(self, file: str) -> Policy:
        """The policy found for ``file``."""
        return self.by_file[file]


class Judge:
    """What a run shows of the records it reads, for every command alike: the
    configuration each input's folder holds (``config.Discovery``), the
    command line's selection over it, the cap on diagnostics, and the records'
    own suppression comments (``lint``). A record whose only errors are
    suppressed or not selected is used as a valid one: by ``validate``'s
    verdict and by every command that refuses an invalid record.

    ``max_errors``: None, the configuration's (else the default); 0, all."""

    def __init__(self, discovery: Any = None, cli: Layer | None = None, max_errors: int | None = None) -> None:
        from pitchcli.pipeline.config import Discovery

        self.discovery = discovery if discovery is not None else Discovery(isolated=True)
        self.cli = cli or Layer()
        self.max_errors = max_errors
        self.policy_for = policies(self.discovery, self.cli, max_errors)

    def capped(self, max_errors: int | None) -> Judge:
        """The same judge with another cap (``--statistics``: 0, every diagnostic counted)."""
        return Judge(self.discovery, self.cli, max_errors)

    def judged(self, items: Iterable[Checked]) -> Iterator[Checked]:
        """``items`` (from ``check_paths``/``check_source`` with ``max_errors=None``),
        each with what the run shows of it (``lint``)."""
        return lint(items, self.policy_for)

    def check_paths(self, paths: Iterable[str], quick: bool = False, output: str | None = None
                    ) -> Iterator[Checked]:
        """Every document of every input checked (``check.check_paths``), judged."""
        return self.judged(check_paths(paths, max_errors=None, quick=quick, output=output))

    def for_files(self, files: Iterable[str]) -> FoundPolicies:
        """The policies of ``files``, found here, to send to workers with the pieces of them."""
        return FoundPolicies({f: self.policy_for(f) for f in files})
