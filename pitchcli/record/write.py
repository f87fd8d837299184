"""Writing records: the canonical form (FORMAT.md principle 7), as YAML or JSON.

Canonical means: keys in a fixed order (``x-`` keys last, as they were),
cards in canonical notation (CARD-3), trump as an upper-case letter, ``pass``
in lower case; in YAML, lists of cards, bids and tricks in flow style and
mappings of plain values (scores, contract) on one line, so that a record
stays as compact as a person writes it. Writing the canonical form of a
canonical record changes nothing.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from pitchcli.cards import parse_suit, try_card
from pitchcli.guard import signals_held

if TYPE_CHECKING:  # (read when a record is written as YAML with comments: record.comments imports PyYAML)
    from pitchcli.record.comments import Comments

GAME_KEYS = ("$schema", "format", "variant", "rules", "event", "site", "date", "round", "table", "id", "notes",
             "players", "teams", "hands", "result")
HAND_KEYS = ("dealer", "deal", "dead", "bids", "contract", "trump", "kitty", "partner", "discards",
             "draws", "tricks", "points", "score", "totals", "notes")
TRICK_KEYS = ("lead", "cards")
PARTNER_KEYS = ("card", "cards", "player", "players")
RESULT_KEYS = ("winner", "scores")
CONTRACT_KEYS = ("bidder", "bid")
POINT_KEYS = ("high", "low", "jack", "game")


def _ordered(m: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    out = {k: m[k] for k in keys if k in m}
    out.update((k, v) for k, v in m.items() if k not in out)  # x- keys, as they were
    return out


def _card(text: Any) -> Any:
    c = try_card(text)
    return c.text if c is not None else text


def _cards(v: Any) -> Any:
    return [_card(t) for t in v] if isinstance(v, list) else v


def _card_map(v: Any) -> Any:
    return {k: (v[k] if k.startswith("x-") else _cards(v[k])) for k in v} if isinstance(v, dict) else v


def canonical(record: dict[str, Any]) -> dict[str, Any]:
    """The canonical form of a (valid) record, as plain data."""
    rec = _ordered(record, GAME_KEYS)
    if isinstance(rec.get("result"), dict):
        rec["result"] = _ordered(rec["result"], RESULT_KEYS)
    hands = rec.get("hands")
    if isinstance(hands, list):
        rec["hands"] = [_hand(h) if isinstance(h, dict) else h for h in hands]
    return rec


def _hand(h: dict[str, Any]) -> dict[str, Any]:
    h = _ordered(h, HAND_KEYS)
    for key in ("deal", "draws", "discards"):
        if key in h:
            h[key] = _card_map(h[key])
    for key in ("kitty", "dead"):
        if key in h:
            h[key] = _cards(h[key])
    if "bids" in h and isinstance(h["bids"], list):
        h["bids"] = [b.lower() if isinstance(b, str) else b for b in h["bids"]]
    if "trump" in h:
        h["trump"] = parse_suit(h["trump"]) or h["trump"]
    if isinstance(h.get("contract"), dict):
        h["contract"] = _ordered(h["contract"], CONTRACT_KEYS)
    if isinstance(h.get("partner"), dict):
        p = _ordered(h["partner"], PARTNER_KEYS)
        if "card" in p:
            p["card"] = _card(p["card"])
        if "cards" in p:
            p["cards"] = _cards(p["cards"])
        h["partner"] = p
    if isinstance(h.get("points"), dict) and set(h["points"]) & set(POINT_KEYS):
        h["points"] = _ordered(h["points"], POINT_KEYS)
    if isinstance(h.get("tricks"), list):
        tricks = []
        for t in h["tricks"]:
            if isinstance(t, dict):
                t = _ordered(t, TRICK_KEYS)
                if "cards" in t:
                    t["cards"] = _cards(t["cards"])
                tricks.append(t)
            else:
                tricks.append(_cards(t))
        h["tricks"] = tricks
    return h


# --- YAML ----------------------------------------------------------------
# Plain scalars that every YAML reader (1.1 and 1.2) reads back as the same
# string: no indicator characters, nothing that looks like a number, a bool,
# a null, a date or a base-60 time (checked by reading it back with PyYAML's
# YAML 1.1 resolver, which is the stricter of the two).
_PLAIN = re.compile(r"^[\w\u00c0-\uffff][\w \u00c0-\uffff.'()&+/-]*$")
# Characters never written raw, even inside quotes: what YAML reads as a line
# break (U+0085, U+2028, U+2029: a double-quoted scalar would be folded), what
# it can't hold (C0 and C1 controls, DEL, U+FFFE, U+FFFF, surrogates), the
# byte-order mark, and the bidi and separator controls ``escape.text`` shows
# escaped on a terminal. Each is written as a \u escape (inside a JSON string
# or a YAML double-quoted scalar, the same syntax), which every YAML and JSON
# reader turns back into the same character.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                     "\ud800-\udfff\ufeff\ufffe\uffff]")


def _escaped(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def _safe(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``, where these
    characters can only be inside strings) with every unsafe character escaped."""
    return _UNSAFE.sub(_escaped, text) if _UNSAFE.search(text) else text


def _quoted(s: str) -> str:
    """``s`` as a YAML double-quoted scalar (JSON's string syntax, which YAML
    reads the same) with every unsafe character escaped."""
    return _safe(json.dumps(s, ensure_ascii=False))


@lru_cache(maxsize=4096)
def _plain_ok(s: str) -> bool:
    if not _PLAIN.match(s) or s.endswith(" ") or " #" in s or _UNSAFE.search(s):
        return False
    # (PyYAML is imported by the first record written as YAML: the atomic
    # writing below is also what ``report``, ``chart`` and every ``-o`` use,
    # which need no YAML; issue 22, start-up.)
    import yaml

    try:
        return yaml.safe_load(s) == s
    except yaml.YAMLError:
        return False


def _scalar(v: Any) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int | float):
        return json.dumps(v)
    s = str(v)
    if _plain_ok(s):
        return s
    return _quoted(s)


def yaml_scalar(v: Any) -> str:
    """A scalar as YAML that reads back as the same value: plain when that is
    safe, else double-quoted with every unsafe character escaped."""
    return _scalar(v)


def _flat(v: Any) -> bool:
    """A value written on one line: a scalar, or a list/map of scalars."""
    if isinstance(v, list):
        return all(not isinstance(x, dict | list) for x in v)
    if isinstance(v, dict):
        return all(not isinstance(x, dict | list) or (isinstance(x, list) and _flat(x)) for x in v.values())
    return True


def _flow(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_scalar(k)}: {_flow(x)}" for k, x in v.items()) + "}"
    return _scalar(v)


def _yaml_lines(v: Any, indent: int, out: list[str], path: tuple[Any, ...] = (),
                paths: list[list[tuple[Any, ...]]] | None = None) -> None:
    """Append the lines of ``v`` to ``out``; with ``paths``, also the paths of
    the entries (keys, items) each line holds, for putting comments back."""
    pad = " " * indent
    if isinstance(v, dict):
        for k, x in v.items():
            key = _scalar(k)
            if paths is not None:
                paths.append([(*path, k)])
            if isinstance(x, list | dict) and x and not (_flat(x) and len(_flow(x)) <= 90):
                out.append(f"{pad}{key}:")
                _yaml_lines(x, indent + 2, out, (*path, k), paths)
            else:
                out.append(f"{pad}{key}: {_flow(x)}")
    elif isinstance(v, list):
        for i, x in enumerate(v):
            if isinstance(x, dict | list) and x and not (_flat(x) and len(_flow(x)) <= 90):
                lines: list[str] = []
                sub: list[list[tuple[Any, ...]]] | None = [] if paths is not None else None
                _yaml_lines(x, indent + 2, lines, (*path, i), sub)
                out.append(f"{pad}- {lines[0].lstrip()}")
                out.extend(lines[1:])
                if paths is not None and sub is not None:
                    paths.append([(*path, i), *sub[0]])
                    paths.extend(sub[1:])
            else:
                out.append(f"{pad}- {_flow(x)}")
                if paths is not None:
                    paths.append([(*path, i)])


def to_yaml(record: dict[str, Any], comments: Comments | None = None) -> str:
    """One record as a YAML document (no ``---``), ending with a newline; with
    ``comments`` (from the source), each put back by the entry it belongs to."""
    if not record:
        return "{}\n"  # (block style has no lines for an empty mapping: a blank document would read as null)
    lines: list[str] = []
    if not comments:
        _yaml_lines(record, 0, lines)
        return "\n".join(lines) + "\n"
    paths: list[list[tuple[Any, ...]]] = []
    _yaml_lines(record, 0, lines, (), paths)
    from pitchcli.record.comments import place

    return "\n".join(place(lines, paths, comments)) + "\n"


def to_yaml_stream(records: list[dict[str, Any]], comments: list[Comments | None] | None = None) -> str:
    """Several records as a YAML stream (``comments``: per record, or None)."""
    notes = comments or [None] * len(records)
    return "".join("---\n" + to_yaml(r, c) for r, c in zip(records, notes, strict=True))


# --- JSON -----------------------------------------------------------------
def _json(v: Any, indent: int) -> str:
    pad = " " * indent
    if isinstance(v, dict):
        if not v:
            return "{}"
        if _flat(v) and len(json.dumps(v, ensure_ascii=False)) <= 90:
            return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
        inner = ",\n".join(f"{pad}  {json.dumps(k, ensure_ascii=False)}: {_json(x, indent + 2)}"
                           for k, x in v.items())
        return "{\n" + inner + "\n" + pad + "}"
    if isinstance(v, list):
        if _flat(v):
            return json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
        inner = ",\n".join(f"{pad}  {_json(x, indent + 2)}" for x in v)
        return "[\n" + inner + "\n" + pad + "]"
    return json.dumps(v, ensure_ascii=False)


def to_json(record: dict[str, Any]) -> str:
    """One record as pretty JSON (card lists on one line), ending with a newline."""
    return _safe(_json(record, 0)) + "\n"


def to_jsonl(record: dict[str, Any]) -> str:
    """One record as one JSON line."""
    return _safe(json.dumps(record, ensure_ascii=False, separators=(",", ":"))) + "\n"


def dump(records: list[dict[str, Any]], fmt: str, comments: list[Comments | None] | None = None) -> str:
    """Records in ``yaml`` (a stream when several), ``json`` (one document, or
    JSON Lines when several) or ``jsonl``; ``comments`` (per record) go back
    into YAML (JSON has none)."""
    if fmt == "yaml":
        if len(records) == 1:
            return to_yaml(records[0], comments[0] if comments else None)
        return to_yaml_stream(records, comments)
    if fmt == "json" and len(records) == 1:
        return to_json(records[0])
    return "".join(to_jsonl(r) for r in records)


# Names that stand for an open file descriptor or a device, not a file in a
# folder: written directly, as the shell's ">" would (replacing the link
# /dev/stdout -> /proc/self/fd/1 -> out.txt would swap out.txt under the shell).
_DESCRIPTOR_PREFIXES = ("/dev/", "/proc/")
_TEMP_PREFIX, _TEMP_SUFFIX = ".pitch-", ".tmp"  # about 20 characters, whatever the target's name


def _text_file(fd: int) -> TextIO:
    # surrogateescape, as on standard output: a file name that isn't UTF-8
    # (os.fsdecode keeps its bytes as lone surrogates) is written back as the
    # same bytes, not a UnicodeEncodeError.
    return os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape", newline="\n")


def _refuse(path: Path, errno_: int, why: str) -> OSError:
    return OSError(errno_, why, str(path))


def _may_write(path: Path, info: os.stat_result) -> None:
    """Refuse a file the user may not write: no write bit at all (root may write
    anything, so ``os.access`` alone would let a read-only file be replaced), or
    no write permission for this user."""
    if not info.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise _refuse(path, errno.EACCES, "the file is read-only")


def _keep_owner_and_mode(fd: int, info: os.stat_result, path: Path, strict: bool) -> None:
    """Give the new file the old one's owner, group and mode (setuid, setgid and
    sticky bits included: chown first, since chown clears them). A user who may
    not give a file away keeps it as it was unless ``strict`` (in place: the
    file the user named must stay theirs), which refuses."""
    new = os.fstat(fd)
    try:
        if (new.st_uid, new.st_gid) != (info.st_uid, info.st_gid):
            os.fchown(fd, info.st_uid, info.st_gid)
    except PermissionError:
        if strict:
            raise _refuse(path, errno.EPERM,
                          "its owner and group can't be kept by this user") from None
    os.fchmod(fd, stat.S_IMODE(info.st_mode))


class OutputError(OSError):
    """The output folder, or a file in it, can't be written as asked."""


def check_replaceable(path: Path) -> None:
    """Refuse to replace anything but a regular file (a link, a folder, a
    device): atomic replacement would swap it for a file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(info.st_mode):
        raise OutputError(f"{path}: not a regular file; not replaced")


@contextmanager
def atomic_output(path: str | Path, *, in_place: bool = False) -> Iterator[TextIO]:
    """A text file to write ``path`` through: the one mechanism every writer uses.

    - A regular file, or a name that doesn't exist yet, is replaced atomically
      when the block ends without an error: written to a temporary file in the
      same folder (a short name, so a target name of 255 bytes still fits),
      flushed to disk, then renamed over it. An interrupted write leaves the old
      file. The new file keeps the old one's mode, owner and group; a new file
      gets 0666 minus the umask. A read-only file is refused (``OSError``).
    - A symbolic link is written through: its target is replaced (or created,
      for a dangling link) and the link stays a link.
    - An existing path that is not a regular file (a device such as
      ``/dev/null``, a FIFO, ``/dev/stdout``) is opened and written directly,
      never replaced: a FIFO's reader gets the output, a device stays a device.
    - ``in_place`` (``fmt --in-place``: rewriting the file the user named)
      also refuses a file that is not regular, that has other hard links
      (renaming would split them from it, and rewriting the shared inode
      could not be atomic), or whose owner and group this user can't keep.
    """
    named = Path(path)
    try:
        # The kernel follows the links (also /proc's: /dev/stdout to a pipe has
        # no real path to resolve); realpath then names the file to replace.
        info: os.stat_result | None = os.stat(named)
    except FileNotFoundError:
        info = None  # no file, or a dangling link: its target is created
    direct = info is not None and not stat.S_ISREG(info.st_mode)
    if info is not None and not direct and os.fspath(named.absolute()).startswith(_DESCRIPTOR_PREFIXES):
        direct = True  # /dev/stdout, /dev/fd/3, /proc/self/fd/1 pointing at a regular file
    if direct:
        if in_place:
            raise _refuse(named, errno.EINVAL, "not a regular file: it can't be rewritten in place")
        # O_APPEND: /dev/stdout redirected with >> to a regular file keeps what it holds.
        with _text_file(os.open(named, os.O_WRONLY | os.O_APPEND)) as f:
            yield f
        return
    target = Path(os.path.realpath(named))
    if info is not None:
        _may_write(target, info)
        if in_place and info.st_nlink > 1:
            raise _refuse(named, errno.EMLINK,
                          f"it has {info.st_nlink} hard links; rewriting it in place would split them "
                          f"(or could not be atomic): format it with -o instead")
    tmp: str | None = None
    try:
        # SIGINT and SIGTERM raise Stopped wherever the main thread is: held
        # while the file is made, since raised inside mkstemp (after the file
        # exists, before its name is known here) it would leave the file
        # behind. A signal that came meanwhile is delivered as the block ends,
        # with the name known, and the file is removed below.
        with signals_held():
            fd, tmp = tempfile.mkstemp(prefix=_TEMP_PREFIX, suffix=_TEMP_SUFFIX, dir=target.parent)
        with _text_file(fd) as f:
            yield f
            f.flush()
            if info is not None:
                _keep_owner_and_mode(f.fileno(), info, named, strict=in_place)
            else:
                umask = os.umask(0)
                os.umask(umask)
                os.fchmod(f.fileno(), 0o666 & ~umask)  # mkstemp makes it 0600
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        if tmp is not None:
            with signals_held():  # a second signal must not stop the removal half way
                Path(tmp).unlink(missing_ok=True)
        raise


class Staged:
    """The new content of the regular file ``path`` (or of a name not there
    yet), written to a temporary file beside it: ``file`` to write, ``flush``
    to put it on disk, ``commit`` to rename it into place, ``discard`` (always,
    at the end) to remove it if it was not committed. For a writer of many
    files that puts them all in place only once all are written
    (``record.owned``); links and devices are the caller's to refuse
    (``check_replaceable``). The new file keeps the old one's owner and mode,
    as ``atomic_output``'s does; a read-only file is refused."""

    __slots__ = ("_dest", "_open", "info", "tmp")

    def __init__(self, path: str | Path) -> None:
        target = Path(path)
        self._dest = str(target)  # (text, not a Path: a writer of many files keeps each until the end)
        try:
            self.info: os.stat_result | None = os.stat(target)
        except FileNotFoundError:
            self.info = None
        if self.info is not None:
            _may_write(target, self.info)
        # (Made with SIGINT and SIGTERM held, as ``atomic_output`` does: the
        # caller holds them too until it knows the object, to discard it.)
        with signals_held():
            fd, tmp = tempfile.mkstemp(prefix=_TEMP_PREFIX, suffix=_TEMP_SUFFIX, dir=target.parent)
            self.tmp: str | None = tmp
            self._open: TextIO | None = _text_file(fd)

    @property
    def target(self) -> Path:
        """The file the new content replaces (or makes)."""
        return Path(self._dest)

    @property
    def file(self) -> TextIO:
        """The new content's file, to write (until ``flush``)."""
        if self._open is None:
            raise ValueError(f"{self.target}: the staged file is flushed and closed")
        return self._open

    def flush(self) -> None:
        """Everything written on disk, with the old file's owner and mode (or
        0666 less the umask); the file closed and let go: a writer of many
        files keeps each until the end, and a closed file object with its
        buffers is about a kilobyte a file (``pitch report``'s page a game)."""
        f = self._open
        if f is None:
            return
        f.flush()
        if self.info is not None:
            _keep_owner_and_mode(f.fileno(), self.info, self.target, strict=False)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(f.fileno(), 0o666 & ~umask)
        os.fsync(f.fileno())
        f.close()
        self._open = self.info = None

    def commit(self) -> None:
        """Rename the new content into place."""
        self.flush()
        if self.tmp is not None:
            os.replace(self.tmp, self._dest)
            self.tmp = None

    def discard(self) -> None:
        """Remove the temporary file, unless committed."""
        if self._open is not None:
            self._open.close()
            self._open = None
        if self.tmp is not None:
            Path(self.tmp).unlink(missing_ok=True)
            self.tmp = None


def write_atomic(path: str | Path, text: str, *, in_place: bool = False) -> None:
    """Write ``text`` to ``path`` (see ``atomic_output``)."""
    with atomic_output(path, in_place=in_place) as f:
        f.write(text)
