"""``pitch fmt`` and ``pitch new``: records written in the canonical form.

Formatting never repairs: a document with an error is refused, whole file and
all (its diagnostics are returned instead). ``fill`` writes into a valid record
what the engine derives from it — the Auction Pitch trump, who holds a called
partner card, the leader of every trick, the points, the score and totals of
every hand and the result — so that a bare record of play becomes complete and
checks itself: every value it adds is one ``validate`` then compares with the
cards.

Formats: YAML, JSON (one document) and JSON Lines (several documents, or a
``.jsonl``/``.ndjson`` file). A file keeps its format unless asked otherwise;
a multi-document file stays multi-document. Comments are the user's words:
YAML to YAML keeps every one, by the key or item it is about
(``record.comments``); written as JSON they can't be kept, and fmt says so.
"""

from __future__ import annotations

import contextlib
import copy
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from pitchcli import escape
from pitchcli.diagnostics import DEFAULT_MAX_ERRORS, ERROR, Diagnostic
from pitchcli.engine.results import AWARDS, family_of
from pitchcli.engine.table import build_table
from pitchcli.packaged import data_path
from pitchcli.pipeline.check import Checked, iter_sources
from pitchcli.pipeline.driver import Consumer, write_diagnostics
from pitchcli.pipeline.feed import GameAnalysis, analyze
from pitchcli.pipeline.lint import Judge, checked_source
from pitchcli.pipeline.simulate import default_teams
from pitchcli.profiles import Profile, ProfileError, resolve
from pitchcli.record import comments, schema
from pitchcli.record.comments import Comments
from pitchcli.record.read import TooLarge, read_bounded
from pitchcli.record.write import canonical, dump, write_atomic, yaml_scalar
from pitchcli.render.stream import RecordStream, piece
from pitchcli.text import plural

MODELINE = "# yaml-language-server:"
JSON_SUFFIXES = (".json",)
JSONL_SUFFIXES = (".jsonl", ".ndjson")
YAML_SUFFIXES = (".yaml", ".yml")
EXAMPLE_TRICK = ("KS", "3S", "10S", "AS", "5S", "9S", "QS", "2S")


# --------------------------------------------------------------------------
# Fill


def _extensions(old: Any) -> dict[str, Any]:
    """The ``x-`` keys of a mapping, kept when a value is rewritten."""
    return {k: v for k, v in old.items() if isinstance(k, str) and k.startswith("x-")} \
        if isinstance(old, dict) else {}


def _fill_partner(h: dict[str, Any], holders: list[str]) -> None:
    """Write who holds the called card(s) (TP5-3) where the hand's ``partner``
    doesn't say: ``player`` for a ``card``, ``players`` for ``cards``, in the
    order called, the bidder's own name for a card he holds (the record's way
    to say he plays alone). ``holders`` is the engine's ``card_holders``; what
    the record names is never replaced."""
    partner = h.get("partner")
    if not holders or not isinstance(partner, dict) or "player" in partner or "players" in partner:
        return
    if "cards" in partner:
        partner["players"] = holders
    else:
        partner["player"] = holders[0]


def fill(record: dict[str, Any], analysis: GameAnalysis) -> dict[str, Any]:
    """A copy of a valid ``record`` with everything the engine derives written
    in: ``trump``, who holds a called partner card (``partner.player`` or
    ``players``), trick ``lead``s, ``points``, ``score``, ``totals`` and
    ``result``. Hands that can't be scored yet (only the auction recorded) are
    left as they are, and so are the totals after them and the result."""
    table = analysis.table
    assert table is not None, "fill needs a record whose table could be set up"
    names, players = table.unit_names, table.players
    rec = copy.deepcopy(record)
    hands = rec.get("hands") or []
    for h, r in zip(hands, analysis.hands, strict=True):
        if r is None:
            continue
        if r.trump is not None:
            h["trump"] = r.trump
        _fill_partner(h, [players[s] for s in r.card_holders])
        if r.level != "tally":
            tricks = []
            for t_rec, t in zip(h["tricks"], r.tricks, strict=True):
                cards = t_rec["cards"] if isinstance(t_rec, dict) else t_rec
                tricks.append({"lead": players[t.leader], "cards": cards, **_extensions(t_rec)})
            h["tricks"] = tricks
            if r.awards:
                points: dict[str, Any] = {k: (None if r.awards[k].unit is None else names[r.awards[k].unit])
                                          for k in AWARDS}
            else:
                points = dict(zip(names, r.taken, strict=True))
            h["points"] = {**points, **_extensions(h.get("points"))}
        h["score"] = {**dict(zip(names, r.delta, strict=True)), **_extensions(h.get("score"))}
        if r.totals is not None:
            h["totals"] = {**dict(zip(names, r.totals, strict=True)), **_extensions(h.get("totals"))}
    if analysis.totals is not None:
        old = rec.get("result")
        rec["result"] = {"winner": analysis.winner, "scores": dict(zip(names, analysis.totals, strict=True)),
                         **_extensions(old)}
    problems = [d for d in schema.validate(rec) if d.severity == "error"]
    after = analyze(rec)
    if problems or after.violations:
        first = problems[0].message if problems else after.violations[0].message
        raise AssertionError(f"fill produced a record that does not validate: {first}")
    return rec


# --------------------------------------------------------------------------
# Formats


def format_of(name: str, text: str = "") -> str:
    """``yaml``, ``json`` or ``jsonl``: by the file's suffix, else by its first
    character (standard input)."""
    low = name.lower()
    if low.endswith(JSONL_SUFFIXES):
        return "jsonl"
    if low.endswith(JSON_SUFFIXES):
        return "json"
    if low.endswith(YAML_SUFFIXES):
        return "yaml"
    return "json" if text.lstrip("\ufeff \t\r\n").startswith("{") else "yaml"


def modeline(text: str) -> str | None:
    """The ``# yaml-language-server: $schema=...`` first line, if there is one."""
    first = text.lstrip("\ufeff").split("\n", 1)[0].rstrip("\r")
    return first if first.startswith(MODELINE) else None


def render(records: list[dict[str, Any]], fmt: str, keep: str | None = None,
           comments: list[Comments | None] | None = None) -> str:
    """Records in their canonical form: ``yaml`` (a stream when several, with
    each record's ``comments`` put back), ``json`` (JSON Lines when several) or
    ``jsonl``. ``keep``: a first line for YAML (a modeline), when the comments
    don't already hold it."""
    text = dump([canonical(r) for r in records], fmt, comments)
    if fmt == "yaml" and keep and not any(comments or ()):
        text = keep + "\n" + text
    return text


@dataclass
class Formatted:
    """One input, checked and (when every document is valid) ready to format.

    Only what formatting needs is kept — the diagnostics, and the canonical
    text of each record while every document so far is valid — not the checked
    documents nor their data, so that ``fmt --check`` needs little more memory
    than ``validate`` (the text read, and the text it would write).
    """

    name: str
    fmt: str  # the input's format
    text: str | None  # the input as read (None: unreadable, or not UTF-8)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    out_fmt: str | None = None  # the output's format (default: the input's)
    pieces: list[str] = field(default_factory=list)  # each record, canonical, as in a stream
    first: dict[str, Any] | None = None  # the canonical record while there is one only
    modeline: str | None = None
    documents: int = 0
    unreadable: bool = False  # the input could not be read at all (L101)
    skipped: bool = False  # a folder walk skipped it (L113): not an input
    invalid: bool = False  # a document has an error, or did not load
    found: list[Any] = field(default_factory=list)  # the comments of a YAML input (record.comments)
    starts: list[int] = field(default_factory=list)  # the lines of its --- markers
    first_notes: Comments | None = None  # the comments of the first record
    more: list[str] = field(default_factory=list)  # "N more diagnostics not shown" lines
    errors_past: int = 0  # errors past the cap (--max-errors): counted, not kept

    @property
    def file(self) -> str:
        """The input's name (what the command driver reads of an item)."""
        return self.name

    @property
    def errors(self) -> int:
        """The file's errors, those past ``--max-errors`` included."""
        return sum(1 for d in self.diagnostics if d.severity == ERROR) + self.errors_past

    @property
    def omitted_errors(self) -> int:
        """The file's errors past ``--max-errors``: counted, not kept."""
        return self.errors_past

    def more_line(self) -> str | None:
        """The lines saying how many diagnostics ``--max-errors`` left out, one per document."""
        return "\n".join(self.more) or None

    @property
    def valid(self) -> bool:
        """Every document loaded and has no error (warnings are fine)."""
        return self.text is not None and not (self.unreadable or self.skipped or self.invalid) \
            and self.documents > 0

    def add(self, c: Checked, do_fill: bool) -> None:
        """Take one checked document in (its record, while all are valid)."""
        self.diagnostics += c.diagnostics
        more = c.more_line()  # past the cap on diagnostics: one line says how many
        if more:
            self.more.append(more)
        self.errors_past += c.omitted_errors
        if c.skipped:
            self.skipped = True
        elif c.unreadable:
            self.unreadable = True
        elif c.valid() and c.document is not None and not self.invalid:
            assert c.data is not None and c.analysis is not None
            rec = canonical(fill(c.data, c.analysis) if do_fill else c.data)
            fmt = self.out_fmt or self.fmt
            notes = self._notes(c)  # comments are the user's words: put back (YAML)
            self.pieces.append(piece(rec, fmt, notes))
            self.first = rec if not self.documents else None
            self.first_notes = notes if not self.documents else None
            self.documents += 1
        else:
            self.invalid = True
            self.pieces, self.first = [], None  # nothing of this file will be written

    def _notes(self, c: Checked) -> Comments | None:
        """The comments of one document: those from its ``---`` to the next."""
        tree = c.document.yaml_tree if c.document is not None else None
        if not self.found or tree is None:
            return None
        return comments.of_document(self.found, self.starts, *tree, first=not self.documents)

    def dropped(self) -> int:
        """Comment lines that writing as JSON can't keep."""
        return 0 if (self.out_fmt or self.fmt) == "yaml" else len(self.found)

    def output(self) -> str:
        """The canonical text, in ``out_fmt`` (by default the input's own format)."""
        return joined([self], self.out_fmt or self.fmt)


def joined(parts: list[Formatted], fmt: str) -> str:
    """The canonical text of the records of ``parts`` (rendered in ``fmt``), as
    ``render`` writes them: one record alone, several as a stream (YAML) or
    JSON Lines; the first part's modeline first (YAML)."""
    out = io.StringIO()
    stream = RecordStream(out, fmt, parts[0].modeline if parts and not parts[0].found else None)
    for p in parts:
        for i, text in enumerate(p.pieces):
            stream.add(text, p.first if i == 0 else None, p.first_notes if i == 0 else None)
    stream.close()
    return out.getvalue()


def read_input(name: str, do_fill: bool = False, stdin: BinaryIO | None = None,
               source: str | BinaryIO | Diagnostic | None = None, to: str | None = None,
               max_errors: int | None = DEFAULT_MAX_ERRORS, judge: Judge | None = None) -> Formatted:
    """Read, check and (if valid) prepare one input for formatting, in the
    format ``to`` (default: its own); ``-`` is ``stdin``; ``source`` a
    ``Diagnostic`` is what the folder walk skipped; at most ``max_errors``
    diagnostics are kept per document (None: all), or, with a ``judge``
    (``pipeline.lint``), what it shows: a record whose only errors it
    suppresses or doesn't select is formatted as a valid one. The
    input is read whole through the bounded reader (``read_bounded``): one that
    can't be read gets the loader's diagnostic (L101), one too large an L106."""
    res = Formatted(name, format_of(name), None, out_fmt=to)
    policy_for = judge.policy_for if judge is not None else None
    if isinstance(source, Diagnostic):
        res.add(next(checked_source(name, source, policy_for, max_errors)), do_fill)
        return res
    try:
        data = read_bounded(name, stdin)
    except TooLarge as e:
        res.invalid = True
        res.diagnostics.append(Diagnostic("L106", str(e), file=name, document=0, line=1, column=1))
        return res
    except OSError:
        for c in checked_source(name, name, policy_for, max_errors):
            res.add(c, do_fill)
        return res
    unscannable: comments.Unscannable | None = None
    with contextlib.suppress(UnicodeDecodeError):  # not UTF-8: the loader says where (L102)
        res.text = data.decode("utf-8")
    res.fmt = format_of(name, res.text or "")
    if res.text is not None:
        res.modeline = modeline(res.text)
        if res.fmt == "yaml" and "#" in res.text:
            try:
                res.found, res.starts = comments.find(res.text)
            except comments.Unscannable as e:
                unscannable = e
    for c in checked_source(name, io.BytesIO(data), policy_for, max_errors):
        res.add(c, do_fill)
    if unscannable is not None and res.valid:
        # The loader read what the comment scanner could not: refuse rather
        # than write the record without its comments (the loader reports such
        # a text itself, L103, so this is a guard, not a path taken).
        res.invalid = True
        res.pieces, res.first = [], None
        res.diagnostics.append(Diagnostic(
            "L103", f"YAML: {unscannable.reason}; its comments can't be read, so it is not formatted",
            file=name, document=0, line=unscannable.line or 1, column=unscannable.column or 1))
    return res


# --------------------------------------------------------------------------
# New: a blank record to fill in at the table


def schema_path() -> Path:
    """Where the installed package keeps the JSON Schema file."""
    return data_path(schema.SCHEMA_RESOURCE)


def schema_uri() -> str:
    """A ``file://`` URI of the installed schema, usable in a ``$schema`` modeline."""
    return schema_path().resolve().as_uri()


class NewError(ValueError):
    """Options ``pitch new`` can't make a record of."""


def parse_teams(text: str) -> dict[str, list[str]]:
    """``Us=Ann+Cal,Them=Ben+Dot``, or ``Ann+Cal,Ben+Dot`` (named after the members)."""
    teams: dict[str, list[str]] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, members = part.rpartition("=")
        people = [m.strip() for m in members.split("+") if m.strip()]
        if not people:
            raise NewError(f"team {part!r} has no players: write NAME=Ann+Cal or Ann+Cal")
        teams[name.strip() or " & ".join(people)] = people
    return teams


def new_record(variant: str, players: list[str], teams: dict[str, list[str]] | None = None,
               dealer: str | None = None, target: int | None = None, event: str | None = None,
               date: str | None = None) -> tuple[dict[str, Any], Profile]:
    """The game document of a blank record, with its first hand holding only the
    dealer; raises ``NewError`` for a table the profile can't seat."""
    try:
        profile = resolve(variant, {"target": target} if target is not None else None)
    except ProfileError as e:
        raise NewError(str(e)) from None
    if len(set(players)) != len(players) or any(not p or p.startswith("x-") for p in players):
        raise NewError("player names must be unique, not empty, and not begin with 'x-'")
    problem = profile.table_problem(len(players))
    if problem:
        raise NewError(problem)
    if profile.has_teams:
        teams = teams or default_teams(profile, players)
    elif teams:
        raise NewError(f"profile {variant} has no fixed teams: leave out --teams")
    rec: dict[str, Any] = {"format": schema.FORMAT, "variant": variant}
    if target is not None:
        rec["rules"] = {"target": target}
    if event:
        rec["event"] = event
    if date:
        rec["date"] = date
    rec["players"] = list(players)
    if teams:
        rec["teams"] = teams
    dealer = dealer or players[0]
    if dealer not in players:
        raise NewError(f"the dealer {dealer!r} is not one of the players")
    rec["hands"] = [{"dealer": dealer}]
    _, problems = build_table(profile, players, teams)
    if problems:
        first = problems[0]
        raise NewError(first.message + (f" ({first.rule})" if first.rule else ""))
    diags = [d for d in schema.validate(rec) if d.severity == "error"]
    if diags:
        raise NewError(f"{diags[0].message} (at {diags[0].pointer})")
    return rec, profile


def new_text(variant: str, players: list[str], teams: dict[str, list[str]] | None = None,
             dealer: str | None = None, target: int | None = None, event: str | None = None,
             date: str | None = None, schema_ref: str | None = None) -> str:
    """A blank record as commented YAML, ready to fill in at the table.

    It is a template: it loads and passes the schema (so an editor with the
    YAML language server completes and checks it as you type), and its one
    hand has the dealer and empty ``bids`` and ``tricks``. Until the calls are
    written, ``pitch validate`` reports that hand as incomplete (R404: the
    calls are missing), which is the truth about it.
    """
    rec, profile = new_record(variant, players, teams, dealer, target, event, date)
    hand = rec.pop("hands")[0]
    n = len(players)
    seat = players.index(hand["dealer"])
    order = [players[(seat + 1 + i) % n] for i in range(n)]
    fam = family_of(profile)
    head = dump([canonical(rec)], "yaml")
    role = fam.words.role
    # No modeline unless asked for: the installed schema's own path is a
    # machine's (often a temporary venv's) and means nothing once the file is
    # shared; editors map *.pitch.yaml to the schema instead (README, "Editors").
    lines = [f"# yaml-language-server: $schema={schema_ref}"] if schema_ref else []
    lines += [
        f"# A blank {variant} record made by `pitch new`. Fill in each hand as it is played;",
        "# `pitch validate FILE` checks it, `pitch fmt --fill --in-place FILE` writes in the",
        "# trump, the leaders, points, scores and totals, `pitch score FILE` shows the sheet.",
        "# Until hand 1 has its bids, validate reports it as incomplete (a template, not a game).",
        head.rstrip("\n"),
        "hands:",
        f"  - dealer: {yaml_scalar(hand['dealer'])}",
        # (a comment holds no line break: the names are shown escaped)
        f"    bids: []        # {escape.text(', '.join(order))}: pass or {profile.min_bid}-{profile.max_bid}; "
        f"a {profile.max_bid} closes the auction",
    ]
    if fam.trump_named:
        lines.append(f"    # trump: H        # the suit the {role} names: S, H, D or C")
    if profile.calls_partner:
        if profile.called_cards == 1:
            lines.append("    # partner: {card: KH}   # the trump card the bidder calls")
        else:
            lines.append(f"    # partner: {{cards: [KH, QH]}}   # the {profile.called_cards} trump cards the "
                         "bidder calls")
    lines.append(f"    tricks: []      # {profile.hand} tricks of {n} cards in play order, e.g. "
                 f"[{', '.join(EXAMPLE_TRICK[:n])}];")
    lines.append(f"                    # the {role} leads the first, the winner of each the next")
    return "\n".join(lines) + "\n"


def atomic_replace_if_changed(path: str, text: str, old: str | None = None) -> bool:
    """Rewrite the file ``path`` in place (``atomic_output``: through a link,
    keeping its owner and mode) with ``text``, only when it differs from ``old``,
    what was read (so an unchanged file keeps its bytes and modification time).
    Bytes, not universal newlines: a file with CR or CRLF line ends is rewritten."""
    if old is not None and old.encode("utf-8", "surrogateescape") == text.encode("utf-8", "surrogateescape"):
        return False
    write_atomic(path, text, in_place=True)
    return True


# --------------------------------------------------------------------------
# The fmt command


class Formatting(Consumer):
    """``pitch fmt``'s part of the command driver, whose items are whole files
    (``Formatted``: a file is formatted whole or not at all). Each file's
    diagnostics go to ``err``; an invalid one is refused there.

    Nothing is written unless every input it concerns is valid: to standard
    output or ``output``, all inputs must be; in place, each file on its own;
    with ``check`` nothing is written, the files that are not canonical are
    listed. The exit status: 0 done, 1 an invalid record or, with ``check``,
    a file that is not canonical, 3 an unreadable input or an output that
    can't be written."""

    refusal = "{file}: not formatted: the record is invalid ({errors}); fmt never repairs a record"

    def __init__(self, out: TextIO, err: TextIO, output: str | None = None, to: str | None = None,
                 check: bool = False, in_place: bool = False, do_fill: bool = False,
                 stdin: BinaryIO | None = None, max_errors: int | None = DEFAULT_MAX_ERRORS,
                 judge: Judge | None = None) -> None:
        self.out, self.err, self.output, self.to = out, err, output, to
        self.check, self.in_place, self.do_fill = check, in_place, do_fill
        self.stdin, self.max_errors, self.judge = stdin, max_errors, judge
        # Standard output and -o: every record in one format, the first file's by default.
        self.run_fmt = to or (format_of(output) if output else None)
        self.good: list[Formatted] = []  # kept for standard output and -o, which write all or nothing
        self.changed = self.rewritten = 0

    def inputs(self, paths: Iterable[str]) -> Iterator[Formatted]:
        """Each input read and checked, in the output's format (for standard
        output and -o, known once the first valid file is read: read lazily)."""
        for name, source in iter_sources(paths, self.output):  # (-o found in a folder: not read)
            to = self.to if self.check else None if self.in_place else self.run_fmt
            yield read_input(name, self.do_fill, self.stdin, source, to, self.max_errors, self.judge)

    def usable(self, c: Formatted) -> bool:
        """Every document of the file loaded and has no error."""
        return c.valid

    def game(self, c: Formatted) -> None:
        """A valid file: its warnings shown, then checked, rewritten or kept for the output."""
        write_diagnostics(c, self.err)
        if self.check:
            if c.text != c.output():
                self.changed += 1
                self.out.write(f"would reformat: {escape.text(c.name)}\n")
        elif self.in_place:
            try:
                self.rewritten += atomic_replace_if_changed(c.name, c.output(), c.text)
            except OSError as e:
                # The file is left as it was (the write is atomic); go on with the others.
                self.err.write(escape.text(f"{c.name}: cannot write: {e.strerror or e}") + "\n")
                self.run.broken = True
        else:
            self.good.append(c)
            self.run_fmt = self.run_fmt or c.fmt

    def end(self) -> int:
        """The closing line (--check, --in-place), or the output; the exit status."""
        run, err = self.run, self.err
        seen, skipped = run.documents + run.unreadable, run.invalid + run.unreadable
        bad = f", {skipped} invalid or unreadable (untouched)" if skipped else ""
        if self.check:
            err.write(f"{plural(self.changed, 'file')} would be reformatted, "
                      f"{seen - skipped - self.changed} already canonical{bad}\n")
            run.failed = run.failed or bool(self.changed)
        elif self.in_place:
            err.write(f"{plural(self.rewritten, 'file')} reformatted, {seen - skipped - self.rewritten} "
                      f"unchanged{bad}\n")
        elif not run.invalid and not run.unreadable and self.good:
            self.write_all()
        return run.status()

    def write_all(self) -> None:
        """Every valid input, to standard output or ``output``."""
        text = joined(self.good, self.run_fmt or self.good[0].fmt)
        for r in self.good:
            lost = r.dropped()
            if lost:
                self.err.write(f"{escape.text(r.name)}: note: {plural(lost, 'comment')} not written: "
                               f"{(r.out_fmt or r.fmt).upper()} has no comments\n")
        if self.output:
            try:
                write_atomic(self.output, text)
            except OSError as e:
                self.err.write(f"{escape.text(self.output)}: cannot write: {e.strerror or e}\n")
                self.run.broken = True
        else:
            self.out.write(text)
