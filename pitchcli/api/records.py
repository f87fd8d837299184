"""Records as data: the canonical form (``dumps``, ``write``) and random legal
games (``simulate``).

The canonical form is what ``pitch fmt`` writes: keys in the format's order,
cards in their canonical notation, one line per trick; it loads back to the
same data. ``write`` writes a file atomically, as every command does (a
temporary file renamed over the target), and never touches its inputs.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from typing import IO, Any

from pitchcli.api.documents import Document
from pitchcli.api.kinds import RecordFormat
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.profiles import ProfileError, resolve
from pitchcli.record.write import atomic_output, canonical, dump

__all__ = ["dumps", "simulate", "write"]

Record = Mapping[str, Any] | Document


def _data(record: Record) -> dict[str, Any]:
    data = record.data if isinstance(record, Document) else record
    if not isinstance(data, Mapping):
        raise TypeError("a record is a mapping (or a loaded Document)")
    return canonical(dict(data))


def dumps(records: Record | Iterable[Record], format: RecordFormat = RecordFormat.YAML) -> str:
    """One record, or several, in the canonical form: YAML (several: a stream),
    JSON (several: JSON Lines) or JSON Lines. A ``Document`` that was not
    loaded raises ``TypeError``."""
    items: list[Record] = [records] if isinstance(records, Mapping | Document) else list(records)
    return dump([_data(r) for r in items], RecordFormat(format).value)


def write(records: Record | Iterable[Record], target: str | os.PathLike[str] | IO[str],
          format: RecordFormat | None = None) -> None:
    """Write ``records`` in the canonical form to ``target``: a path (written
    atomically: the old file stays whole until the new one is complete; the
    format from its suffix, ``.json``, ``.jsonl``/``.ndjson``, else YAML) or a
    text stream. Raises ``OSError`` when the path can't be written."""
    if format is None:
        suffix = os.path.splitext(os.fspath(target))[1].lower() if isinstance(target, str | os.PathLike) else ""
        format = {".json": RecordFormat.JSON, ".jsonl": RecordFormat.JSONL,
                  ".ndjson": RecordFormat.JSONL}.get(suffix, RecordFormat.YAML)
    text = dumps(records, format)
    if isinstance(target, str | os.PathLike):
        with atomic_output(os.fspath(target)) as f:
            f.write(text)
    else:
        target.write(text)


def simulate(variant: str, games: int = 1, players: int | None = None,
             seed: int | None = None) -> Iterator[dict[str, Any]]:
    """``games`` random legal games of the profile ``variant`` as records (plain
    data, with every score, total and the result filled in), as ``pitch
    simulate`` makes them: the same ``seed`` gives the same games. ``players``:
    how many (default: 4 where the profile allows it). Raises ``ProfileError``
    at once for an unknown profile or a count it is not for."""
    import random

    profile = resolve(variant)
    if players is not None and players not in profile.players:
        raise ProfileError(f"profile {variant} is for {', '.join(map(str, profile.players))} players")
    rng = random.Random(seed)
    return (simulate_game(variant, players, rng=rng, game_id=f"sim-{seed}-{k + 1}") for k in range(games))
