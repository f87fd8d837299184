"""Checked documents with their comments: for the commands that write records
again (``convert``, ``find``, ``split``, ``cat``), which must not lose a comment.

A YAML input is read whole (bounded, as ``fmt`` reads it: ``read_bounded``),
its comments found once (``record.comments.find``) and each document's tied
to it (``Checked.notes``). JSON and JSON Lines hold no comments: those files
are checked as they stream, in constant memory whatever their size, as
``validate`` does. A YAML file too big to read whole is streamed too; its
``Checked`` says the comments were not looked for (``notes_unread``), and the
command says so rather than lose them without a word.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import BinaryIO

import yaml

from pitchcli.diagnostics import DEFAULT_MAX_ERRORS, Diagnostic
from pitchcli.pipeline.check import Checked, iter_sources
from pitchcli.pipeline.lint import Judge, Policy, checked_source
from pitchcli.record import comments
from pitchcli.record.read import TooLarge, read_bounded, whole_file_limit

# Files whose names say JSON: no comments to look for, streamed.
NO_COMMENTS = (".json", ".jsonl", ".ndjson")


class Unread(Checked):
    """A document of a YAML file too big to read whole: its comments were not looked for."""

    __slots__ = ()  # (a ``Checked`` becomes one in place: the same layout)


def noted_source(name: str, source: str | BinaryIO | Diagnostic, max_errors: int | None = DEFAULT_MAX_ERRORS,
                 quick: bool = False, policy_for: Callable[[str], Policy] | None = None) -> Iterator[Checked]:
    """``check_source`` for one input, each document with its comments (see the
    module doc); judged with ``policy_for`` when given (``lint.checked_source``)."""
    if isinstance(source, Diagnostic) or name.lower().endswith(NO_COMMENTS):
        yield from checked_source(name, source, policy_for, max_errors, quick)
        return
    try:
        # (a stream: standard input, or a piece of a YAML stream cut for --jobs)
        data = read_bounded(name, stream=None if isinstance(source, str) else source)
    except TooLarge as e:
        if isinstance(source, str):  # a file: streamed, its comments not looked for
            for c in checked_source(name, source, policy_for, max_errors, quick):
                c.__class__ = Unread
                yield c
        else:  # standard input, read whole as fmt reads it: refused past the bound
            yield Checked(name, 0, diagnostics=[Diagnostic("L106", str(e), file=name, document=0, line=1,
                                                           column=1)])
        return
    except OSError:
        yield from checked_source(name, source, policy_for, max_errors, quick)  # the loader says why (L101)
        return
    try:
        found, starts = comments.find(data.decode("utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError):
        found, starts = [], []  # not UTF-8, not YAML: the loader says where (L102, L103)
    for c in checked_source(name, io.BytesIO(data), policy_for, max_errors, quick):
        tree = c.document.yaml_tree if c.document is not None else None
        if found and tree is not None:
            c.notes = comments.of_document(found, starts, *tree, first=c.index == 0)
        yield c


def noted(paths: Iterable[str], max_errors: int | None = DEFAULT_MAX_ERRORS, quick: bool = False,
          judge: Judge | None = None) -> Iterator[Checked]:
    """Every document of every input (folders searched, ``-`` standard input),
    with its comments; judged by ``judge`` when given (``pipeline.lint``)."""
    policy_for = judge.policy_for if judge is not None else None
    for name, source in iter_sources(paths):
        yield from noted_source(name, source, max_errors, quick, policy_for)


def judged_reading(judge: Judge, files: Iterable[str] | None = None, notes: bool = True
                   ) -> Callable[[str, str | BinaryIO | Diagnostic], Iterator[Checked]]:
    """One input's documents checked (the quick pass where it decides) and
    judged by ``judge``, with their comments (``notes``; else as ``validate``
    reads them): the reader of ``pipeline.parallel.InOrder``. ``files``: the
    files a worker process will read; their policies are found here, where the
    command runs, and sent along (``Judge.for_files``), as summarize sends them."""
    policy_for = judge.policy_for if files is None else judge.for_files(files)
    if notes:
        return partial(noted_source, quick=True, policy_for=policy_for)
    return partial(checked_source, policy_for=policy_for, quick=True)


__all__ = ["Unread", "judged_reading", "noted", "noted_source", "whole_file_limit"]
