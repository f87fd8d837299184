"""Configuration files: ``pitch.toml`` (or ``.pitch.toml``), or a ``[tool.pitch]``
table in ``pyproject.toml``, found as ruff finds its own.

For each input, the folder it is in, then each folder above it up to the
root, is searched for ``.pitch.toml``, ``pitch.toml``, then ``pyproject.toml``
(in that order, in each folder): the first file that configures pitch is the
input's configuration, whole (configurations are not merged with those of
folders further up); a ``pyproject.toml`` without ``[tool.pitch]`` is passed
over. Standard input's is the current folder's. ``--config FILE`` names one
file for every input instead; ``--isolated`` reads none.

In ``pitch.toml`` the keys are at the top level; in ``pyproject.toml`` under
``[tool.pitch]``. The keys (docs/configuration.md):

``select``, ``extend-select``, ``ignore`` (lists of codes or prefixes),
``max-errors`` (a whole number), ``format`` (one of ``pitch validate
--format``), ``show-source`` and ``strict`` (true or false), ``variant`` and
``rules`` (the folder's house rules: what its records are expected to name;
never used in their place, see ``pipeline.lint``).

A file that can't be read or parsed, an unknown key or a value of the wrong
kind is a ``ConfigError``: the command says which file and key, and exits 2.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterator
from typing import Any, NamedTuple

from pitchcli.pipeline.selection import Layer, SelectorError, selectors

NAMES = (".pitch.toml", "pitch.toml", "pyproject.toml")
MAX_BYTES = 1024 * 1024  # a configuration is a few lines; a larger file is refused, not read whole

# Every key, and the kind of value it takes (the message when it is wrong).
KEYS: dict[str, str] = {
    "select": "a list of codes or prefixes",
    "extend-select": "a list of codes or prefixes",
    "ignore": "a list of codes or prefixes",
    "max-errors": "a whole number, 0 or more",
    "format": "the name of a format",
    "show-source": "true or false",
    "strict": "true or false",
    "variant": "the name of a built-in profile",
    "rules": "a table of rule options",
}


class ConfigError(ValueError):
    """A configuration file that can't be used; the message names it."""


class Config(NamedTuple):
    """One configuration file's settings (``path`` None: no file, the defaults).
    (Immutable and internal: a named tuple, per docs/architecture.md.)"""

    path: str | None = None
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    max_errors: int | None = None
    format: str | None = None
    show_source: bool | None = None
    strict: bool | None = None
    variant: str | None = None
    rules: dict[str, Any] | None = None  # the house rules' options; None: none

    @property
    def layer(self) -> Layer:
        """Its selection, the layer under the command line's."""
        return Layer(self.select, self.extend_select, self.ignore)

    @property
    def name(self) -> str:
        """How messages name it: the file, with ``[tool.pitch]`` for a pyproject.toml."""
        return "the defaults" if self.path is None else _shown(self.path)


DEFAULTS = Config()


def _shown(path: str) -> str:
    """A configuration file as messages name it: relative to the current folder
    (discovery finds absolute paths), with ``[tool.pitch]`` for a pyproject.toml."""
    try:
        shown = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        shown = path
    if shown.startswith(".."):  # not under the current folder: the full name says more
        shown = path
    return shown + (" [tool.pitch]" if _name(path) == "pyproject.toml" else "")


def _name(path: str) -> str:
    """The last part of ``path`` (``Path.name``: a trailing separator ignored)."""
    return os.path.basename(path.rstrip(os.sep + (os.altsep or "")) or path)


# The ways a TOML text can give the key path tool -> pitch: a table header or
# a dotted key ``tool.pitch`` (each part bare or quoted, spaced or not), a
# ``[tool]`` table (whose keys may be ``pitch``), an inline ``tool = {...}``,
# or a key spelled with an escape (``"\u0074ool"``; ``\U``, ``\x``). A pyproject.toml that
# shows none of them has no ``[tool.pitch]``, whatever else it holds: it is
# passed over unparsed, and tomllib is not imported (2.6 ms of ``pitch``'s
# start-up in a project whose pyproject.toml configures other tools; issue 22).
# A false alarm (``tool.pitchfork``, a comment) only costs the parse.
_MAY_HOLD_PITCH = re.compile(rb"""tool["']?\s*\.\s*["']?pitch|\[\s*["']?tool["']?\s*\]|tool["']?\s*=|\\[uUx]""")


def _read(path: str) -> bytes:
    """The bytes of the configuration file ``path``, bounded."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise ConfigError(f"{_shown(path)}: cannot read the configuration: {e.strerror or e}") from None
    if len(data) > MAX_BYTES:
        raise ConfigError(f"{_shown(path)}: more than {MAX_BYTES} bytes: not a configuration file")
    return data


def may_hold_pitch(data: bytes) -> bool:
    """False when the TOML text ``data`` surely has no ``tool.pitch`` table
    (``_MAY_HOLD_PITCH``); True when it may."""
    return _MAY_HOLD_PITCH.search(data) is not None


def _parse_toml(path: str, data: bytes) -> dict[str, Any]:
    # Imported with the first configuration file found: a folder of records
    # with none (the usual case) spares ``pitch`` tomllib's import (start-up).
    import tomllib

    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{_shown(path)}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{_shown(path)}: not valid TOML: {e}") from None


def _table(path: str, data: dict[str, Any], named: bool) -> dict[str, Any] | None:
    """The settings of a parsed file: pyproject's ``[tool.pitch]`` (None when it
    has none, unless the user ``named`` it), or a pitch.toml's top level."""
    tool = data.get("tool")
    name = _name(path)
    if name == "pyproject.toml":
        table = tool.get("pitch") if isinstance(tool, dict) else None
        if table is None and named:
            raise ConfigError(f"{_shown(path).removesuffix(' [tool.pitch]')}: no [tool.pitch] table")
        if table is not None and not isinstance(table, dict):
            raise ConfigError(f"{_shown(path)}: must be a table")
        return table
    if isinstance(tool, dict) and "pitch" in tool:
        raise ConfigError(f"{_shown(path)}: in {name} the keys go at the top level, not under [tool.pitch]")
    return data


def _codes(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where} must be {KEYS['select']}, such as [\"C5\", \"R407\"]")
    try:
        return selectors(value)
    except SelectorError as e:
        raise ConfigError(f"{where}: {e}") from None


def parse(table: dict[str, Any], where: str, path: str | None = None, formats: Collection[str] = ()) -> Config:
    """The settings of one configuration table (``where`` names it in messages;
    ``formats``: the names ``format`` may take, when the command has them)."""
    from pitchcli.suggest import did_you_mean

    for key in table:
        if key not in KEYS:
            raise ConfigError(f"{where}: unknown key {key!r}{did_you_mean(key, KEYS)}; "
                              f"the keys are {', '.join(KEYS)}")
    out: dict[str, Any] = {"path": path}
    for key in ("select", "extend-select", "ignore"):
        if key in table:
            out[key.replace("-", "_")] = _codes(table[key], f"{where}: {key}")
    for key, kind in (("max-errors", int), ("format", str), ("show-source", bool), ("strict", bool),
                      ("variant", str)):
        if key not in table:
            continue
        value = table[key]
        if not isinstance(value, kind) or (kind is int and (isinstance(value, bool) or value < 0)):
            raise ConfigError(f"{where}: {key} must be {KEYS[key]}, not {value!r}")
        out[key.replace("-", "_")] = value
    if formats and "format" in out and out["format"] not in formats:
        raise ConfigError(f"{where}: format must be one of {', '.join(formats)}, not {out['format']!r}")
    _house_rules(table, where, out)
    return Config(**out)


def _house_rules(table: dict[str, Any], where: str, out: dict[str, Any]) -> None:
    """``variant`` and ``rules``, checked as a record's would be."""
    from pitchcli.profiles import ProfileError, builtin_profiles, resolve

    variant, rules = table.get("variant"), table.get("rules", {})
    if variant is not None and variant not in builtin_profiles():
        from pitchcli.suggest import did_you_mean
        raise ConfigError(f"{where}: variant: unknown profile {variant!r}{did_you_mean(variant, builtin_profiles())}")
    if not isinstance(rules, dict):
        raise ConfigError(f"{where}: rules must be {KEYS['rules']}, such as {{target = 21}}")
    if rules and variant is None:
        raise ConfigError(f"{where}: rules need a variant: house rules are options of one profile")
    if rules:
        try:
            resolve(variant, rules)
        except ProfileError as e:
            raise ConfigError(f"{where}: rules: {e}") from None
        out["rules"] = dict(rules)


def load(path: str | os.PathLike[str], named: bool = False, formats: Collection[str] = ()) -> Config | None:
    """The configuration in ``path`` (None: a pyproject.toml without
    ``[tool.pitch]``, when not ``named`` by the user)."""
    p = os.fspath(path)
    data = _read(p)
    if not named and _name(p) == "pyproject.toml" and not may_hold_pitch(data):
        return None  # (no [tool.pitch] can be in it: passed over unparsed)
    table = _table(p, _parse_toml(p, data), named)
    if table is None:
        return None
    return parse(table, _shown(p), p, formats)


class Discovery:
    """The configuration of each input: ``--config FILE`` for all of them,
    ``isolated`` none, else the nearest file up from each input's folder."""

    def __init__(self, config: str | None = None, isolated: bool = False, formats: Collection[str] = ()) -> None:
        self.formats = formats
        self.fixed: Config | None = None
        if isolated:
            self.fixed = DEFAULTS
        elif config is not None:
            self.fixed = load(config, named=True, formats=formats) or DEFAULTS
        # (Folders as text, absolute, not as ``Path``s: see ``_folders``.)
        self._by_folder: dict[str, Config] = {}
        # The folder of an input -> its configuration: a folder's thousand files ask once.
        self._by_dir: dict[str, Config] = {}

    def for_input(self, name: str) -> Config:
        """The configuration of the input named ``name`` (``-``: the current folder's)."""
        if self.fixed is not None:
            return self.fixed
        if name == "-":
            return self._find(os.getcwd())
        folder = os.path.dirname(os.path.abspath(name))
        found = self._by_dir.get(folder)
        if found is None:
            found = self._by_dir[folder] = self._find(folder)
        return found

    def for_run(self) -> Config:
        """The configuration of the run's own settings (the format): the current folder's."""
        return self.fixed if self.fixed is not None else self._find(os.getcwd())

    def _find(self, folder: str) -> Config:
        seen: list[str] = []
        found = DEFAULTS
        for d in _folders(folder):
            if d in self._by_folder:
                found = self._by_folder[d]
                break
            seen.append(d)
            here = self._in_folder(d)
            if here is not None:
                found = here
                break
        for d in seen:  # every folder on the way has the same configuration: ask once
            self._by_folder[d] = found
        return found

    def _in_folder(self, d: str) -> Config | None:
        for n in NAMES:
            p = os.path.join(d, n)
            if os.path.isfile(p):
                found = load(p, formats=self.formats)
                if found is not None:
                    return found
        return None


def _folders(folder: str) -> Iterator[str]:
    """``folder`` (absolute) and each folder above it, up to the root: its
    ``Path``'s ``(folder, *folder.parents)``, read as text. (``pathlib``, with
    the ``urllib.parse`` and ``ipaddress`` it imports, is about 4 ms of CPU that
    ``pitch validate ONE_FILE`` otherwise has no need of; issue 22.)"""
    while True:
        yield folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent
